/* utf8.h - the checks libyaml's reader makes, with positions
 *
 * libyaml reports encoding problems with a byte offset only; ddbc checks
 * the same things first so that every such diagnostic has a line and a
 * column, counted the way libyaml counts them (characters, and the YAML
 * line breaks \n, \r\n, \r, NEL, LS, PS).
 */
#ifndef DDBC_UTF8_H
#define DDBC_UTF8_H

#include "util/source.h"

#include <stdbool.h>
#include <stddef.h>

/* Length of the line break at p (0 when p starts none). */
size_t ddbc_break_len(const char *p, const char *end);

/* Length of the UTF-8 sequence at p when it is valid (1-4), else 0. Sets
 * *cp to the code point. */
size_t ddbc_utf8_decode(const unsigned char *p, const unsigned char *end, unsigned *cp);
/* Whether s (len bytes) is UTF-8 throughout, as ddbc_utf8_decode reads it
 * (no overlong forms, surrogates or code points past U+10FFFF): what
 * jansson takes as a string. */
bool ddbc_utf8_valid(const char *s, size_t len);

/* Checks text for what YAML does not allow: NUL and other control
 * characters, invalid UTF-8. Returns NULL when the text is clean; else a
 * static description of the first problem, with *where set to its position. */
const char *ddbc_utf8_check(const char *text, size_t len, ddbc_loc *where);

/* How many terminal cells the code point takes (0, 1 or 2). */
int ddbc_char_width(unsigned cp);

#endif
