/* items_jparse.h - the common item read without jansson's lexer
 *
 * jansson reads JSON a character at a time through a stream with UTF-8
 * decoding and a token buffer: about 200 instructions a byte of an
 * export line, most of check-items' time. This reader builds the same
 * tree (jansson's values, by jansson's constructors, keys in the order
 * written) straight from the text, for what items are made of: objects,
 * arrays, strings (escapes and UTF-8 checked as jansson checks them),
 * true, false and null, nested at most DDBC_JPARSE_MAX_DEPTH deep.
 *
 * It takes no chances: a bare number (jansson's integer and real rules,
 * its overflow errors), anything jansson would refuse (a duplicate key,
 * a stray byte, \u0000, a lone surrogate, invalid UTF-8) or anything else
 * it does not know makes it return NULL, and the caller gives the text to
 * jansson, whose tree or error is then the answer. So on text it accepts
 * the tree equals jansson's with JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
 * and on all other text jansson decides (tests/check_items_jparse.c
 * compares the two on generated and damaged items).
 */
#ifndef DDBC_ITEMS_JPARSE_H
#define DDBC_ITEMS_JPARSE_H

#include <jansson.h>
#include <stddef.h>

#define DDBC_JPARSE_MAX_DEPTH 64

/* The tree of the len bytes at s, or NULL: let jansson read them. */
json_t *ddbc_items_jparse(const char *s, size_t len);

#endif
