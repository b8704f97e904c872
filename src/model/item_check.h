/* item_check.h - the checks an item of an entity is held to, over a view
 * of its values
 *
 * An example item of the design (a YAML mapping, rules/examples.c) and a
 * real item (plain or DynamoDB JSON, items/items_check.c) are held to the
 * same things: each value in its attribute's enum, every required
 * attribute there, a templated attribute exactly what its template renders
 * from the item's own values (or, when the item lacks a key part that is
 * not stored, of its template's shape), a value that a template
 * interpolates as a plain string without the key delimiter. The checks
 * live here once; each source gives its values through a small read-only
 * view (ddbc_item_view, an adapter per source), and each caller reports
 * the problem with the words it gets here, where and as what it reports
 * findings. Which values are of which type stays with the sources: what
 * YAML and JSON can write differs (a YAML integer in hex, a DynamoDB JSON
 * type tag), and so does the advice; the words for a wrong type are here.
 */
#ifndef DDBC_ITEM_CHECK_H
#define DDBC_ITEM_CHECK_H

#include "model/model.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

/* What a source wrote for a value. */
typedef enum ddbc_vkind {
	DDBC_V_NONE,             /* no value */
	DDBC_V_STRING,
	DDBC_V_NUMBER,
	DDBC_V_BOOL,
	DDBC_V_NULL,
	DDBC_V_OTHER             /* a mapping, a sequence, a set */
} ddbc_vkind;

/* One value of an item, as a view gives it. */
typedef struct ddbc_value {
	ddbc_vkind kind;
	/* Whether the value has the type of the attribute asked for (the
	 * source's own type check: a YAML string for S, a JSON number or a
	 * DynamoDB N for N, ...). */
	bool fits;
	const char *text;        /* STRING, NUMBER: as written */
	size_t len;
	bool boolean;            /* BOOL */
	bool is_int;             /* NUMBER: a whole number that fits in n */
	long long n;
	const void *source;      /* the source's own value, handed back */
} ddbc_value;

/* An item of entity e, seen through its source's adapter. */
typedef struct ddbc_item_view {
	const ddbc_entity *e;
	/* The item's value of e's attribute a, typed against a->type;
	 * out->kind DDBC_V_NONE when the item has none. */
	void (*get)(const struct ddbc_item_view *iv, const ddbc_attr *a, ddbc_value *out);
	const void *item;        /* the adapter's */
	const char *delim;       /* the design's key delimiter */
	/* Where a template is rendered, kept from item to item by a caller
	 * that checks many; NULL: a buffer of the check's own. */
	strbuf *scratch;
} ddbc_item_view;

/* Appends s quoted for a message: control characters escaped, cut after
 * 120 bytes (at a character boundary) with "...". */
void ddbc_add_quoted(strbuf *sb, const char *s, size_t len);

/* Whether s is standard base64 with padding, as DynamoDB JSON carries
 * binary values. */
bool ddbc_is_base64(const char *s, size_t len);

/* The bytes base64 text decodes to: what DynamoDB counts of a Binary
 * value, in its size and in its key-length limits. */
uint64_t ddbc_base64_bytes(const char *s, size_t len);

/* ---- types ---------------------------------------------------------------------- */

/* "'A' is N (Number), but WHO gives GIVEN": a value of another type than
 * its attribute's, in the words both checkers use. who is "the item" or
 * "its example"; given is how the source describes what it holds ("a
 * string", "S (a JSON string)", "BOOL"). The caller adds how to write it. */
void ddbc_type_message(const ddbc_attr *a, const char *who, const char *given, strbuf *msg);

/* ---- enums ---------------------------------------------------------------------- */

/* Whether a scalar of type t (a's type, or a set's element type) is one of
 * a's enum values: numbers by value (1 and 1.0 are one DynamoDB number),
 * booleans and null as such, strings by their bytes. */
bool ddbc_enum_has(const ddbc_attr *a, ddbc_type t, const ddbc_value *v);

/* "'A' is 'v', which is not one of its enum values (x, y, ...)". */
void ddbc_enum_message(const ddbc_attr *a, const ddbc_value *v, strbuf *msg);

/* ---- required attributes ------------------------------------------------------------ */

/* Whether the item lacks a required attribute a; then "'A' is missing
 * (why)" in msg. */
bool ddbc_item_lacks(const ddbc_item_view *iv, const ddbc_attr *a, strbuf *msg);

/* ---- templates -------------------------------------------------------------------- */

typedef enum ddbc_tcheck {
	DDBC_TCHECK_OK,          /* the value is what the template gives, or cannot
				  * be checked for a reason reported elsewhere */
	DDBC_TCHECK_MISMATCH,    /* it is not what the template gives */
	DDBC_TCHECK_SHAPE,       /* the item lacks a key part that is not stored, and
				  * the value is not of the template's shape */
	DDBC_TCHECK_LACKS,       /* a placeholder's attribute is absent */
	DDBC_TCHECK_UNPADDABLE   /* a placeholder's value cannot be padded */
} ddbc_tcheck;

/* Holds templated attribute a's value v (a string) to its template
 * rendered from the item's values. On a problem, msg receives its words
 * and *at the value it is about (v, or the placeholder's value for
 * UNPADDABLE); *gone the placeholder's attribute for SHAPE and LACKS (the
 * caller decides whether an absence is its own finding). */
ddbc_tcheck ddbc_item_check_template(const ddbc_item_view *iv, const ddbc_attr *a,
				     const ddbc_value *v, strbuf *msg, ddbc_value *at,
				     const ddbc_attr **gone);

/* ---- the key delimiter --------------------------------------------------------------- */

/* The attribute whose template interpolates b as a plain string (any
 * string without the delimiter: b is an S attribute without a template of
 * its own), when b's value v holds the key delimiter; NULL when none.
 * Then msg receives "'B' is 'v', which holds the key delimiter '#'; the
 * template of 'A' ('...') interpolates it, so the key is ambiguous". */
const ddbc_attr *ddbc_item_delimiter(const ddbc_item_view *iv, const ddbc_attr *b,
				     const ddbc_value *v, strbuf *msg);

/* Whether ddbc_item_delimiter can find anything in a value of b: b is an
 * S attribute without a template of its own that a template interpolates.
 * A caller asks first, and reads b's value only when it can. */
bool ddbc_item_delimiter_applies(const ddbc_attr *b);

#endif
