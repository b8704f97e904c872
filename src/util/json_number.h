/* json_number.h - JSON text read with every number's own digits
 *
 * jansson holds a number as a double (17 of the 38 digits a DynamoDB
 * Number has) and has no raw-number mode, so text is marked before
 * jansson reads it (json_number.c): each bare number becomes a string
 * that holds a mark (two control bytes) and the number as written, and a
 * string that begins with the mark gets it twice. Plain items (items/)
 * and the JSON sources of import/ are read so; the writers (emit/) make
 * their exact numbers so and unmark what jansson wrote of them.
 *
 * The mark is json_number.c's own: every other file makes, tests and
 * unmarks values through the functions here, never by the mark's bytes.
 */
#ifndef DDBC_JSON_NUMBER_H
#define DDBC_JSON_NUMBER_H

#include "util/strbuf.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* What ddbc_json_mark_numbers_how marks besides every other number and
 * every string value that begins with the mark. */
enum {
	/* Member names that begin with the mark get it twice too (a reader
	 * that takes names from values, and values from names, sees both
	 * alike). */
	DDBC_JSON_MARK_NAMES = 1,
	/* Integers jansson holds exactly (at most 18 digits) stay bare. */
	DDBC_JSON_KEEP_INTEGERS = 2,
};

/* Copies the len bytes of JSON text s into out with every number token
 * made a marked string, and every string value that begins with the mark
 * marked again (member names stay as they are); false, out empty, when
 * nothing needed it. Text that is no JSON stays as bad as it was, for
 * jansson to refuse. */
bool ddbc_json_mark_numbers(const char *s, size_t len, strbuf *out);
/* The same, with how (DDBC_JSON_*) saying what else. */
bool ddbc_json_mark_numbers_how(const char *s, size_t len, strbuf *out, unsigned how);

/* The text of a number read from marked JSON (len bytes), or NULL when v
 * is no such number. */
const char *ddbc_json_marked_number(const json_t *v, size_t *len);
/* The text of string v as the source holds it (a doubled mark undone), or
 * NULL when v is no string (a marked number is none). */
const char *ddbc_json_marked_string(const json_t *v, size_t *len);

/* A number (len bytes of its text, kept as they are) as a marked
 * string, which the readers above and ddbc_json_unmark take for that
 * number; NULL when text is no UTF-8. A new reference. */
json_t *ddbc_json_number_new(const char *text, size_t len);
/* A string (len bytes) as a JSON string no reader takes for a number:
 * one that begins with the mark gets it twice. NULL when s is no UTF-8
 * (the _nocheck form does not look, as json_stringn_nocheck). A new
 * reference. */
json_t *ddbc_json_string_new(const char *s, size_t len);
json_t *ddbc_json_string_new_nocheck(const char *s, size_t len);
/* The text of string or member name s as the source wrote it: s past
 * one mark when it begins with the mark twice, else s. */
const char *ddbc_json_source_text(const char *s);

/* Rewrites in place the marks in n bytes of text jansson wrote of marked
 * values and returns the new length: a marked number (its text a
 * decimal) becomes the bare number, a string marked twice loses one
 * mark; anything else stays as it is. */
size_t ddbc_json_unmark(char *text, size_t n);

#endif
