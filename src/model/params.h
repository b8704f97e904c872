/* params.h - where an access pattern puts its parameters, and what fits there
 *
 * A parameter is a name a pattern writes as a placeholder of a key
 * condition value ("ORDER#{date}") or as ':name' in a write's condition.
 * Its value may come from the pattern's example, from the command line or
 * from example items; wherever it comes from, it becomes part of a key or
 * an attribute value, and must be something that place can hold: a number
 * for a Number, a non-negative whole number of at most WIDTH digits for a
 * ":0WIDTH" placeholder, no key delimiter inside a part of a String key
 * (the assumption every key rule makes), one of the enum values of an
 * attribute it stands for whole. The param-value rule and the
 * queries export ask the same questions here.
 */
#ifndef DDBC_PARAMS_H
#define DDBC_PARAMS_H

#include "model/model.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum ddbc_param_place {
	DDBC_PARAM_IN_KEY,       /* a placeholder of a key condition value */
	DDBC_PARAM_IN_CONDITION, /* ':name' in the pattern's condition */
	DDBC_PARAM_IN_ITEM       /* an attribute of the item a put writes */
} ddbc_param_place;

/* One place a parameter stands. Points into the design; valid while it is. */
typedef struct ddbc_param_use {
	const char *name;        /* the parameter (not NUL-terminated) */
	size_t len;
	ddbc_param_place place;
	ddbc_loc loc;            /* the condition value, the condition, or the value
				  * naming the item's attribute */
	const char *attr;        /* the key attribute or item attribute */
	ddbc_type type;          /* what the value becomes: S, N, B or BOOL */
	unsigned width;          /* :0WIDTH, or 0 */
	bool no_delim;           /* a part of a String key: no key delimiter */
	const ddbc_attr *enum_attr; /* the value is this attribute's whole value,
				  * and must be one of its enum values; or NULL */
} ddbc_param_use;

typedef void ddbc_param_use_fn(void *ctx, const ddbc_param_use *use);

/* Calls fn for every place pattern p uses a parameter, in the pattern's
 * order: key conditions, the condition, the put item. Needs the derived
 * model (semantics.h); a pattern without a table has none. */
void ddbc_pattern_param_uses(const ddbc_pattern *p, ddbc_param_use_fn *fn, void *ctx);

/* The attribute a value named name (len bytes: a ':name' of the
 * condition, a parameter a put writes into its item) stands for: a
 * matched entity's attribute of that name, the first with a scalar type
 * (S, N, B, BOOL); NULL when none has one. The one answer the param-value
 * rule, the queries export and `ddbc keys` give a condition value's type. */
const ddbc_attr *ddbc_pattern_named_attr(const ddbc_pattern *p, const char *name, size_t len);

/* Whether the value text (len bytes) can stand at use; when it cannot,
 * appends why to why ("is not a number"), when why is not NULL. */
bool ddbc_param_fits(const ddbc_design *g, const ddbc_param_use *use, const char *text,
		     size_t len, strbuf *why);

/* Appends how use describes its place, for messages: "key attribute 'SK'
 * (a Number)", "the ':ref' of the condition (an S value)", ... */
void ddbc_param_place_text(const ddbc_param_use *use, strbuf *out);

/* Whether text is a number as DynamoDB reads one: an optional sign,
 * digits with an optional fraction, an optional exponent (the one grammar
 * of util/decimal.h, ddbc_decimal_valid). */
bool ddbc_number_text(const char *text, size_t len);

#endif
