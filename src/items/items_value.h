/* items_value.h - an item's attributes, typed as DynamoDB types them
 *
 * Items come as plain JSON (a string is S, a number N, true/false BOOL,
 * null NULL, an object M, an array L) or as DynamoDB JSON, where every
 * value is an object with one type tag ({"S": "x"}, {"N": "1"},
 * {"BOOL": true}, {"NULL": true}, {"M": {...}}, {"L": [...]},
 * {"SS": [...]}, {"NS": [...]}, {"B": "base64"}, {"BS": [...]}). Either
 * way each top-level attribute becomes a ddbc_ival: its type and, for the
 * scalars, its text. DynamoDB JSON is checked all the way down (nested M
 * and L values too): a value without a valid tag, or a tag with the wrong
 * payload (an N that is no number, a B that is not base64), is invalid
 * input, reported with the attribute path.
 */
#ifndef DDBC_ITEMS_VALUE_H
#define DDBC_ITEMS_VALUE_H

#include "model/item_check.h"
#include "model/model.h"
#include "util/json_number.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct ddbc_ival {
	const char *name;        /* the attribute name (the item's key) */
	ddbc_type type;          /* as the input types it */
	const json_t *payload;   /* the plain value, or the tag's payload */
	const char *text;        /* S, N, B: the value as text (N as written);
	                          * else NULL */
	size_t len;
	bool boolean;            /* BOOL */
	char num[40];            /* where a plain number's text is formatted */
} ddbc_ival;

/* Whether every attribute of obj is a one-key object whose key is a type
 * tag: how a plain array or JSON lines is told to be DynamoDB JSON. */
bool ddbc_ival_looks_typed(const json_t *obj);

/* "an object", "a string", ... for messages about a JSON value. */
const char *ddbc_json_kind(const json_t *v);

/* Types value v of attribute name into *out. dynamodb: v is DynamoDB JSON;
 * then on an invalid value returns false with a message in *why (whose
 * first path component is name). */
bool ddbc_ival_make(ddbc_ival *out, const char *name, const json_t *v, bool dynamodb,
		    strbuf *why);

/* The text of a scalar element of a set or list: a string's, or a
 * number's; marked: v was read from marked plain JSON (util/json_number.h),
 * where a number is its own text; else a bare number is formatted into
 * buf (of size at least 40). NULL for other kinds. */
const char *ddbc_ival_scalar_text(const json_t *v, bool marked, char *buf, size_t size,
				  size_t *len);


/* DynamoDB's limits on values (items_limits.c; a number's are
 * ddbc_decimal_dynamodb's): whether set (of type t, its elements checked)
 * is not empty and has no element twice. When not, why (unless NULL)
 * says so. */
bool ddbc_items_set_ok(const json_t *set, ddbc_type t, strbuf *why);
/* The offset of the first number in JSON text len bytes long that is past
 * DynamoDB's limits (why says which), or -1. */
long ddbc_items_bad_number_at(const char *text, size_t len, strbuf *why);
/* The deepest a Map or List nests (DynamoDB: 32 levels). */
#define DDBC_ITEMS_MAX_DEPTH 32

#endif
