/* rules/examples.c - example-mismatch
 *
 * An example item claims "a stored item looks like this": the docs print
 * it, and the exported queries and the header's generated test take values
 * from it. So each of its values must be one the entity allows: of the
 * attribute's type (as DynamoDB would store it), in its enum, and for an
 * attribute with a template, exactly what the template renders from the
 * item's own values. Attributes the entity does not define and required
 * attributes the item lacks are mismatches too. An attribute's own
 * `example:` value is held to its type and enum the same way.
 *
 * A key part that is not stored (`stored: false`) is left out of items,
 * and so may be left out of an example: a key built from it is then held
 * to its template's shape (the strings the template can give) instead of
 * one rendering. An example that gives the part is rendered exactly: the
 * value shows how the key is made, and costs nothing in the items.
 */
#include "rules/checks.h"
#include "model/item_check.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ctx {
	ddbc_diags *d;
	const char *delim;        /* the design's key delimiter */
	const ddbc_entity *e;
	const char *who;          /* "the example item" or "its example" */
	bool lacks_ok;            /* what the item lacks follows from another finding */
	/* One mistake, one finding: a value outside an enum is told once per
	 * attribute and value (a misspelt enum word fails every item that uses
	 * the right one), a template mismatch once per attribute (a misspelt
	 * template fails every item) and once per item (a misspelt value fails
	 * every template that interpolates it). */
	ddbc_strset *told;        /* "attribute\0value" of the enum findings */
	ddbc_arena *arena;        /* holds told's strings */
	bool *template_told;      /* per attribute of e */
	/* The example items' scratch, per attribute of e (item_vals). */
	bool names_differ;
	const ddbc_pval **vals;
	ddbc_value *read;
	bool *read_done;
	strbuf *rendered;         /* the templates' renderings, one buffer a run */
} ctx;

static void mismatch(const ctx *c, ddbc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void mismatch(const ctx *c, ddbc_loc loc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_diag_vadd(c->d, DDBC_RULE_EXAMPLE_MISMATCH, loc, fmt, ap);
	va_end(ap);
}

/* ---- types ---------------------------------------------------------------------- */

static bool is_str(const ddbc_pval *v)
{
	return ddbc_pval_kind(v) == DDBC_NODE_SCALAR && ddbc_pval_scalar(v) == DDBC_SCALAR_STR;
}

/* YAML has .inf and .nan; DynamoDB numbers are finite decimals. */
static bool is_finite_number(const ddbc_pval *v)
{
	if (!ddbc_pval_is_number(v))
		return false;
	const char *s = ddbc_pval_text(v);
	if (*s == '+' || *s == '-')
		s++;
	return *s != '.' || (s[1] >= '0' && s[1] <= '9');
}

static const char *type_hint(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_S: return "write a string, quoted if YAML would read it as another type";
	case DDBC_TYPE_N: return "write a number without quotes";
	case DDBC_TYPE_B: return "write the bytes as a base64 string";
	case DDBC_TYPE_BOOL: return "write true or false";
	case DDBC_TYPE_NULL: return "write null";
	case DDBC_TYPE_M: return "write a mapping";
	case DDBC_TYPE_L: return "write a sequence";
	case DDBC_TYPE_SS: return "write a sequence of strings";
	case DDBC_TYPE_NS: return "write a sequence of numbers";
	case DDBC_TYPE_BS: return "write a sequence of base64 strings";
	case DDBC_TYPE_NONE: break;
	}
	return "";
}

/* Whether scalar v is a value of scalar type t (S, N, B, BOOL, NULL). */
static bool scalar_fits(const ddbc_pval *v, ddbc_type t)
{
	if (ddbc_pval_kind(v) != DDBC_NODE_SCALAR)
		return false;
	switch (t) {
	case DDBC_TYPE_S: return ddbc_pval_scalar(v) == DDBC_SCALAR_STR;
	case DDBC_TYPE_N: return ddbc_pval_is_number(v);
	case DDBC_TYPE_B: return ddbc_pval_scalar(v) == DDBC_SCALAR_STR;
	case DDBC_TYPE_BOOL: return ddbc_pval_scalar(v) == DDBC_SCALAR_BOOL;
	case DDBC_TYPE_NULL: return ddbc_pval_scalar(v) == DDBC_SCALAR_NULL;
	default: return false;
	}
}

/* The element type of a set type, or DDBC_TYPE_NONE. */
static ddbc_type element_type(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_SS: return DDBC_TYPE_S;
	case DDBC_TYPE_NS: return DDBC_TYPE_N;
	case DDBC_TYPE_BS: return DDBC_TYPE_B;
	default: return DDBC_TYPE_NONE;
	}
}

/* ---- the view of an example item ------------------------------------------------- */

/* YAML value n of attribute a, for the checks of model/item_check.h. The
 * scalar's kind is read once, and a boolean or an integer read as such
 * only when it is one (the others read false and leave 0). */
static void yaml_value(const ddbc_pval *n, const ddbc_attr *a, ddbc_value *out)
{
	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	out->source = n;
	if (ddbc_pval_kind(n) != DDBC_NODE_SCALAR) {
		out->kind = DDBC_V_OTHER;
		return;
	}
	ddbc_scalar_kind sk = ddbc_pval_scalar(n);
	out->kind = sk == DDBC_SCALAR_INT || sk == DDBC_SCALAR_FLOAT ? DDBC_V_NUMBER
		    : sk == DDBC_SCALAR_BOOL			       ? DDBC_V_BOOL
		    : sk == DDBC_SCALAR_NULL			       ? DDBC_V_NULL
								       : DDBC_V_STRING;
	out->fits = scalar_fits(n, a->type);
	uint32_t len;
	out->text = ddbc_pval_str(n, &len);
	out->len = len;
	if (sk == DDBC_SCALAR_BOOL)
		ddbc_pval_bool(n, &out->boolean);
	if (sk == DDBC_SCALAR_INT)
		out->is_int = ddbc_pval_int(n, &out->n);
}

/* An example item read once: its pairs, and its value of each attribute
 * of the entity by the attribute's place, each read as a ddbc_value the
 * first time a check asks. A template's check asks for its placeholders'
 * values, the delimiter check for every value: looked up by name
 * (ddbc_pval_get) and read again each time, they cost more than the rest
 * of the rule. */
typedef struct item_vals {
	const ddbc_pval *item;
	const ddbc_entity *e;
	size_t n;                       /* pairs */
	const ddbc_pval **keys, **values;
	const ddbc_attr **attrs;        /* per pair: the entity's attribute, or NULL */
	/* Whether vals answers for every attribute what ddbc_pval_get of its
	 * name would: the entity's names differ as C strings and no two
	 * pairs name one attribute (a key with a NUL byte can). */
	bool by_slot;
	const ddbc_pval **vals;         /* per attribute of e */
	ddbc_value *read;               /* per attribute: vals read, once read_done */
	bool *read_done;
} item_vals;

/* Item's value of a, or NULL. */
static const ddbc_pval *item_value(const item_vals *x, const ddbc_attr *a)
{
	if (!x->by_slot || a < x->e->attrs || a >= x->e->attrs + x->e->nattrs)
		return ddbc_pval_get(x->item, a->name.s);
	return x->vals[a - x->e->attrs];
}

static void example_get(const ddbc_item_view *iv, const ddbc_attr *a, ddbc_value *out)
{
	const item_vals *x = iv->item;
	if (!x->by_slot || a < x->e->attrs || a >= x->e->attrs + x->e->nattrs) {
		yaml_value(ddbc_pval_get(x->item, a->name.s), a, out);
		return;
	}
	size_t slot = (size_t)(a - x->e->attrs);
	if (!x->read_done[slot]) {
		yaml_value(x->vals[slot], a, &x->read[slot]);
		x->read_done[slot] = true;
	}
	*out = x->read[slot];
}

static ddbc_item_view example_view(const ctx *c, const item_vals *x)
{
	return (ddbc_item_view){ c->e, example_get, x, c->delim, c->rendered };
}

/* Whether two scalars are the same value: numbers by value (1 and 1.0
 * are one DynamoDB number), the rest by kind and text. */
static bool same_scalar(const ddbc_pval *a, const ddbc_pval *b)
{
	if (ddbc_pval_is_number(a) && ddbc_pval_is_number(b)) {
		return ddbc_key_compare(DDBC_TYPE_N, ddbc_pval_text(a), ddbc_pval_n(a),
					ddbc_pval_text(b), ddbc_pval_n(b)) == 0;
	}
	if (ddbc_pval_scalar(a) != ddbc_pval_scalar(b))
		return false;
	bool x, y;
	if (ddbc_pval_bool(a, &x) && ddbc_pval_bool(b, &y))
		return x == y;
	return ddbc_pval_scalar(a) == DDBC_SCALAR_NULL ||
	       (ddbc_pval_n(a) == ddbc_pval_n(b) &&
		!memcmp(ddbc_pval_text(a), ddbc_pval_text(b), ddbc_pval_n(a)));
}

/* Checks what only a well-typed scalar can get wrong: a number DynamoDB
 * cannot hold (infinity, NaN, more than 38 digits, out of range), binary that is not base64, an empty key value. Returns
 * whether v passed. */
static bool check_scalar_value(const ctx *c, const ddbc_attr *a, const ddbc_pval *v,
			       ddbc_type t)
{
	if (t == DDBC_TYPE_N && !is_finite_number(v)) {
		mismatch(c, ddbc_pval_loc(v), "'%s' is %s (%s) in '%s', but %s gives '%s', which "
			 "DynamoDB cannot store (no infinity or NaN); write a finite number",
			 a->name.s, ddbc_type_short(a->type), ddbc_type_long(a->type),
			 c->e->name.s, c->who, ddbc_pval_text(v));
		return false;
	}
	strbuf why = STRBUF_INIT;
	if (t == DDBC_TYPE_N && !ddbc_decimal_dynamodb(ddbc_pval_text(v), ddbc_pval_n(v), &why)) {
		mismatch(c, ddbc_pval_loc(v), "'%s' is %s (%s) in '%s', but %s gives '%s', which %s",
			 a->name.s, ddbc_type_short(a->type),
			 ddbc_type_long(a->type), c->e->name.s, c->who, ddbc_pval_text(v), ddbc_strbuf_str(&why));
		ddbc_strbuf_release(&why);
		return false;
	}
	if (t == DDBC_TYPE_B && !ddbc_is_base64(ddbc_pval_text(v), ddbc_pval_n(v))) {
		mismatch(c, ddbc_pval_loc(v), "'%s' is %s (%s) in '%s', but %s gives '%s', which is not "
			 "base64; write the bytes base64-encoded", a->name.s,
			 ddbc_type_short(a->type), ddbc_type_long(a->type), c->e->name.s, c->who,
			 ddbc_pval_text(v));
		return false;
	}
	if (a->is_key && ddbc_pval_n(v) == 0 && (t == DDBC_TYPE_S || t == DDBC_TYPE_B)) {
		mismatch(c, ddbc_pval_loc(v), "'%s' is a key attribute, but %s gives it an empty value; "
			 "DynamoDB rejects empty key values", a->name.s, c->who);
		return false;
	}
	return true;
}

/* Each element of a set: of the element type, and no value twice. */
static bool check_set(const ctx *c, const ddbc_attr *a, const ddbc_pval *v, ddbc_type et)
{
	bool ok = true;
	ddbc_pval_iter it = ddbc_pval_members(v);
	const ddbc_pval *x;
	for (size_t i = 0; ddbc_pval_item(&it, &x); i++) {
		if (!scalar_fits(x, et)) {
			mismatch(c, ddbc_pval_loc(x), "'%s' is %s (%s) in '%s', but element %zu of %s "
				 "is %s; %s", a->name.s, ddbc_type_short(a->type), ddbc_type_long(a->type),
				 c->e->name.s, i + 1, c->who, ddbc_pval_describe(x),
				 type_hint(a->type));
			ok = false;
			continue;
		}
		if (!check_scalar_value(c, a, x, et)) {
			ok = false;
			continue;
		}
		const ddbc_pval *y = ddbc_pval_first(v);
		for (size_t k = 0; k < i; k++, y = ddbc_pval_next(y)) {
			if (!same_scalar(x, y))
				continue;
			mismatch(c, ddbc_pval_loc(x), "'%s' holds '%s' twice in %s; a DynamoDB set "
				 "holds each value once: remove one", a->name.s, ddbc_pval_text(x),
				 c->who);
			ok = false;
			break;
		}
	}
	return ok;
}

/* Whether v is a value of a's type; reports why not. */
static bool check_type(const ctx *c, const ddbc_attr *a, const ddbc_pval *v)
{
	ddbc_type t = a->type, et = element_type(t);
	bool kind_ok = et != DDBC_TYPE_NONE    ? ddbc_pval_kind(v) == DDBC_NODE_SEQ
		       : t == DDBC_TYPE_M      ? ddbc_pval_kind(v) == DDBC_NODE_MAP
		       : t == DDBC_TYPE_L      ? ddbc_pval_kind(v) == DDBC_NODE_SEQ
					       : scalar_fits(v, t);
	if (!kind_ok) {
		strbuf msg = STRBUF_INIT;
		ddbc_type_message(a, c->who, ddbc_pval_describe(v), &msg);
		mismatch(c, ddbc_pval_loc(v), "%s; %s", ddbc_strbuf_str(&msg), type_hint(t));
		ddbc_strbuf_release(&msg);
		return false;
	}
	if (et != DDBC_TYPE_NONE && ddbc_pval_n(v) == 0) {
		mismatch(c, ddbc_pval_loc(v), "'%s' is %s (%s) in '%s', but %s gives an empty sequence; "
			 "DynamoDB has no empty sets: leave the attribute out", a->name.s,
			 ddbc_type_short(t), ddbc_type_long(t), c->e->name.s, c->who);
		return false;
	}
	if (et != DDBC_TYPE_NONE)
		return check_set(c, a, v, et);
	if (ddbc_pval_kind(v) == DDBC_NODE_SCALAR)
		return check_scalar_value(c, a, v, t);
	return true;
}

/* ---- enums ----------------------------------------------------------------------- */

/* Whether YAML value v of type t (a's, or its sets' elements') is one of
 * a's enum values. */
static bool in_enum(const ddbc_attr *a, ddbc_type t, const ddbc_pval *v)
{
	ddbc_value val;
	yaml_value(v, a, &val);
	return ddbc_enum_has(a, t, &val);
}

/* Whether the enum finding for a's value v was made already; notes it. */
static bool enum_told(const ctx *c, const ddbc_attr *a, const ddbc_pval *v)
{
	strbuf key = STRBUF_INIT;
	ddbc_strbuf_addstr(&key, a->name.s);
	ddbc_strbuf_add(&key, "", 1);
	ddbc_strbuf_add(&key, ddbc_pval_text(v), ddbc_pval_n(v));
	bool told = ddbc_strset_get(c->told, key.buf, key.len) != NULL;
	if (!told)
		ddbc_strset_put(c->told, ddbc_arena_strndup(c->arena, key.buf, key.len), key.len);
	ddbc_strbuf_release(&key);
	return told;
}

static void report_enum(const ctx *c, const ddbc_attr *a, const ddbc_pval *v)
{
	if (enum_told(c, a, v))
		return;
	ddbc_value val;
	yaml_value(v, a, &val);
	strbuf msg = STRBUF_INIT;
	ddbc_enum_message(a, &val, &msg);
	mismatch(c, ddbc_pval_loc(v), "%s; use one of them or add it to 'enum'", ddbc_strbuf_str(&msg));
	ddbc_strbuf_release(&msg);
}

/* A scalar, or each element of a set, must be one of the enum's values. */
static void check_enum(const ctx *c, const ddbc_attr *a, const ddbc_pval *v)
{
	if (!a->more->nenum)
		return;
	if (ddbc_pval_kind(v) == DDBC_NODE_SCALAR) {
		if (!in_enum(a, a->type, v))
			report_enum(c, a, v);
		return;
	}
	if (ddbc_pval_kind(v) != DDBC_NODE_SEQ || element_type(a->type) == DDBC_TYPE_NONE)
		return;
	ddbc_pval_iter it = ddbc_pval_members(v);
	const ddbc_pval *x;
	while (ddbc_pval_item(&it, &x))
		if (!in_enum(a, element_type(a->type), x))
			report_enum(c, a, x);
}

static void check_value(const ctx *c, const ddbc_attr *a, const ddbc_pval *v)
{
	if (a->type == DDBC_TYPE_NONE)
		return;
	if (check_type(c, a, v))
		check_enum(c, a, v);
}

/* ---- required attributes --------------------------------------------------------------- */



/* has: per attribute of the entity, whether a pair of the item is known
 * to name it (check_item's lookups): such an attribute is not missing,
 * and is not looked up in the item again. */
static void check_required(const ctx *c, const item_vals *x, const bool *has)
{
	ddbc_item_view iv = example_view(c, x);
	for (size_t i = 0; i < c->e->nattrs; i++) {
		const ddbc_attr *a = &c->e->attrs[i];
		if (has[i])
			continue;
		strbuf msg = STRBUF_INIT;
		if (!a->incomplete && ddbc_item_lacks(&iv, a, &msg))
			mismatch(c, ddbc_pval_loc(x->item), "%s; add it", ddbc_strbuf_str(&msg));
		ddbc_strbuf_release(&msg);
	}
}

/* Whether a template of the entity names name but no attribute does:
 * template-unknown-attribute reports that name once, for the entity. */
static bool unknown_placeholder(const ddbc_entity *e, const char *name)
{
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		for (size_t k = 0; a->has_template && k < a->tpl.nsegs; k++)
			if (a->tpl.segs[k].kind == DDBC_SEG_PLACEHOLDER && !a->tpl.segs[k].ref &&
			    !strcmp(a->tpl.segs[k].text, name))
				return true;
	}
	return false;
}

/* Returns whether every attribute of the item is one the entity defines. */
static bool check_defined(const ctx *c, const item_vals *x)
{
	bool all = true;
	/* An entity read with an error, or lacking a key of its table, may
	 * define the attribute under another name: its error says so. */
	bool whole = !c->e->incomplete && !c->e->lacks_key;
	for (size_t i = 0; i < x->n; i++) {
		const ddbc_pval *key = x->keys[i], *value = x->values[i];
		const ddbc_attr *a = x->attrs[i];
		if (!a)
			all = false;
		if (!a && whole && !unknown_placeholder(c->e, ddbc_pval_text(key)))
			mismatch(c, ddbc_pval_loc(key), "the example item has '%s', which entity '%s' "
				 "does not define; add it to the entity's attributes or remove it "
				 "from the item", ddbc_pval_text(key), c->e->name.s);
		else if (a)
			check_value(c, a, value);
	}
	return all;
}

/* ---- templates ------------------------------------------------------------------------- */

/* Whether a placeholder of a takes from the item a value that its own
 * attribute rejects (reported as such): the template then renders from a
 * value known to be wrong. */
static bool renders_bad_value(const ddbc_attr *a, const item_vals *x)
{
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		const ddbc_attr *b = a->tpl.segs[k].ref;
		const ddbc_pval *v = b ? item_value(x, b) : NULL;
		if (v && b->type != DDBC_TYPE_NONE &&
		    (!scalar_fits(v, b->type) || (b->more->nenum && !in_enum(b, b->type, v))))
			return true;
	}
	return false;
}

/* Returns whether it reported a's value in item. */
static bool check_template(const ctx *c, const ddbc_attr *a, const item_vals *x)
{
	/* Only a template's value is looked up: most attributes have none. */
	if (!a->has_template || a->in_cycle)
		return false;
	const ddbc_pval *v = item_value(x, a);
	/* An empty key value was reported as such; one finding is enough. */
	if (!v || !is_str(v) || (a->is_key && !ddbc_pval_n(v)))
		return false;
	size_t slot = (size_t)(a - c->e->attrs);
	if (c->template_told[slot] || renders_bad_value(a, x))
		return false;
	size_t before = c->d->n;
	ddbc_item_view iv = example_view(c, x);
	ddbc_value val, at;
	example_get(&iv, a, &val);
	strbuf msg = STRBUF_INIT;
	const ddbc_attr *gone;
	switch (ddbc_item_check_template(&iv, a, &val, &msg, &at, &gone)) {
	case DDBC_TCHECK_OK:
		break;
	case DDBC_TCHECK_LACKS:
		/* A lacking placeholder that is itself required was reported as
		 * such; a part read with an error (a misspelt `stored: false`)
		 * may be absent for that reason. */
		if (!ddbc_attr_required(gone, NULL) && !c->lacks_ok && !gone->incomplete)
			mismatch(c, ddbc_pval_loc(v), "%s; add it", ddbc_strbuf_str(&msg));
		break;
	case DDBC_TCHECK_UNPADDABLE:
		mismatch(c, ddbc_pval_loc(at.source), "%s; give a value the template "
			 "can pad", ddbc_strbuf_str(&msg));
		break;
	case DDBC_TCHECK_SHAPE:
	case DDBC_TCHECK_MISMATCH:
		mismatch(c, ddbc_pval_loc(v), "%s; make the value and the template agree",
			 ddbc_strbuf_str(&msg));
		break;
	}
	ddbc_strbuf_release(&msg);
	c->template_told[slot] |= c->d->n > before;
	return c->d->n > before;
}

/* key-overlap and pattern matching assume placeholder values never hold
 * the key delimiter; an example that breaks that makes their answers wrong. */
static void check_delimiters(const ctx *c, const item_vals *x)
{
	ddbc_item_view iv = example_view(c, x);
	for (size_t i = 0; i < x->n; i++) {
		const ddbc_pval *v = x->values[i];
		const ddbc_attr *b = x->attrs[i];
		/* Most attributes no template interpolates: their values are
		 * not read for this. */
		if (!b || !ddbc_item_delimiter_applies(b))
			continue;
		ddbc_value val;
		strbuf msg = STRBUF_INIT;
		/* The pair's own value: by the attribute's place when that is
		 * the pair's. */
		if (x->by_slot)
			example_get(&iv, b, &val);
		else
			yaml_value(v, b, &val);
		if (ddbc_item_delimiter(&iv, b, &val, &msg))
			mismatch(c, ddbc_pval_loc(v), "%s: change the value or key_delimiter",
				 ddbc_strbuf_str(&msg));
		ddbc_strbuf_release(&msg);
	}
}

/* ---- the rule ------------------------------------------------------------------------- */

/* An item with an attribute the entity does not define may hold a lacking
 * one under that name: what it lacks follows from that finding. */
static void check_item(const ctx *c, const ddbc_pval *item)
{
	/* Each pair read once, its attribute looked up once, for all of the
	 * checks. */
	enum { ON_STACK = 32 };
	const ddbc_attr *attrs_stack[ON_STACK];
	const ddbc_pval *keys_stack[ON_STACK], *values_stack[ON_STACK];
	size_t n = ddbc_pval_n(item);
	item_vals x = { item, c->e, 0, keys_stack, values_stack, attrs_stack,
			c->names_differ && ddbc_pval_kind(item) == DDBC_NODE_MAP, c->vals, c->read,
			c->read_done };
	if (n > ON_STACK) {
		x.keys = ddbc_xmalloc(n * sizeof(*x.keys));
		x.values = ddbc_xmalloc(n * sizeof(*x.values));
		x.attrs = ddbc_xmalloc(n * sizeof(*x.attrs));
	}
	size_t na = c->e->nattrs;
	if (x.by_slot) {
		memset(x.vals, 0, na * sizeof(*x.vals));
		memset(x.read_done, 0, na * sizeof(*x.read_done));
	}
	ddbc_pval_iter it = ddbc_pval_members(item);
	ddbc_attr_walk w = DDBC_ATTR_WALK_INIT;
	for (; ddbc_pval_pair(&it, &x.keys[x.n], &x.values[x.n]); x.n++) {
		const ddbc_attr *a = ddbc_entity_attr_next(c->e, &w, ddbc_pval_text(x.keys[x.n]));
		x.attrs[x.n] = a;
		if (!a || !x.by_slot)
			continue;
		if (x.vals[a - c->e->attrs])
			x.by_slot = false;
		x.vals[a - c->e->attrs] = x.values[x.n];
	}
	bool defined = check_defined(c, &x);
	if (defined && !c->e->incomplete) {
		bool has_stack[ON_STACK];
		bool *has = na <= ON_STACK ? memset(has_stack, 0, sizeof has_stack) : ddbc_xcalloc(na, sizeof(*has));
		for (size_t i = 0; i < x.n; i++)
			if (x.attrs[i])
				has[x.attrs[i] - c->e->attrs] = true;
		check_required(c, &x, has);
		if (has != has_stack)
			free(has);
	}
	check_delimiters(c, &x);
	ctx own = *c;
	own.lacks_ok = !defined;
	bool told = false;
	for (size_t i = 0; i < na && !told; i++)
		told = check_template(&own, &c->e->attrs[i], &x);
	if (n > ON_STACK) {
		free(x.keys);
		free(x.values);
		free(x.attrs);
	}
}

/* Whether no two attributes of e have one name as C strings, which
 * ddbc_pval_get compares: then an item's value of each is the one of the
 * pair the attribute's lookup finds. A few names are compared pair by
 * pair, their first bytes settling most; more are looked up. */
static bool names_differ(const ddbc_entity *e)
{
	const ddbc_attr *at = e->attrs;
	for (size_t i = 0; i < e->nattrs; i++)
		if (!at[i].name.s)
			return false;
	if (e->nattrs > 16) {
		for (size_t i = 0; i < e->nattrs; i++)
			if (ddbc_entity_attr(e, at[i].name.s) != &at[i])
				return false;
		return true;
	}
	for (size_t i = 0; i < e->nattrs; i++)
		for (size_t k = i + 1; k < e->nattrs; k++)
			if (at[i].name.s[0] == at[k].name.s[0] && !strcmp(at[i].name.s, at[k].name.s))
				return false;
	return true;
}

/* The per-attribute arrays of check_entity, kept from one entity to the
 * next and grown to the most attributes: allocating and freeing four for
 * every entity cost more than their use. */
typedef struct scratch {
	bool *template_told;
	const ddbc_pval **vals;
	ddbc_value *read;
	bool *read_done;
	size_t cap;
} scratch;

static void scratch_fit(scratch *s, size_t n)
{
	if (n <= s->cap)
		return;
	size_t cap = s->cap;
	ddbc_xgrow((void **)&s->template_told, &cap, n, sizeof(*s->template_told));
	cap = s->cap;
	ddbc_xgrow((void **)&s->vals, &cap, n, sizeof(*s->vals));
	cap = s->cap;
	ddbc_xgrow((void **)&s->read, &cap, n, sizeof(*s->read));
	cap = s->cap;
	ddbc_xgrow((void **)&s->read_done, &cap, n, sizeof(*s->read_done));
	s->cap = cap;
}

static void check_entity(const ddbc_design *g, ddbc_diags *d, ddbc_arena *arena,
			 strbuf *rendered, scratch *sc, const ddbc_entity *e)
{
	ddbc_strset told = DDBC_STRSET_INIT;
	bool *template_told = NULL;
	if (e->nexamples) {
		scratch_fit(sc, e->nattrs + 1);
		template_told = memset(sc->template_told, 0, (e->nattrs + 1) * sizeof(bool));
	}
	ctx own = { d, g->key_delimiter, e, "its example", false, &told, arena, template_told,
		    false, NULL, NULL, NULL, rendered };
	for (size_t i = 0; i < e->nattrs; i++)
		if (e->attrs[i].more->example)
			check_value(&own, &e->attrs[i], e->attrs[i].more->example);
	ctx items = own;
	items.who = "the example item";
	if (e->nexamples) {
		items.names_differ = names_differ(e);
		items.vals = sc->vals;
		items.read = sc->read;
		items.read_done = sc->read_done;
	}
	for (size_t i = 0; i < e->nexamples; i++)
		check_item(&items, e->examples[i]);
	ddbc_strset_release(&told);
}

void ddbc_check_example_mismatch(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_arena *arena = ddbc_arena_new();
	strbuf rendered = STRBUF_INIT;
	scratch sc = { 0 };
	for (size_t i = 0; i < g->nentities; i++)
		check_entity(g, d, arena, &rendered, &sc, &g->entities[i]);
	free(sc.template_told);
	free(sc.vals);
	free(sc.read);
	free(sc.read_done);
	ddbc_strbuf_release(&rendered);
	ddbc_arena_free(arena);
}
