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

/* YAML value n of attribute a, for the checks of model/item_check.h. */
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
	out->kind = ddbc_pval_is_number(n)	   ? DDBC_V_NUMBER
		    : ddbc_pval_scalar(n) == DDBC_SCALAR_BOOL ? DDBC_V_BOOL
		    : ddbc_pval_scalar(n) == DDBC_SCALAR_NULL ? DDBC_V_NULL
						    : DDBC_V_STRING;
	out->fits = scalar_fits(n, a->type);
	out->text = ddbc_pval_text(n);
	out->len = ddbc_pval_n(n);
	ddbc_pval_bool(n, &out->boolean);
	out->is_int = ddbc_pval_int(n, &out->n);
}

static void example_get(const ddbc_item_view *iv, const ddbc_attr *a, ddbc_value *out)
{
	yaml_value(ddbc_pval_get(iv->item, a->name.s), a, out);
}

static ddbc_item_view example_view(const ctx *c, const ddbc_pval *item)
{
	return (ddbc_item_view){ c->e, example_get, item, c->delim };
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
static void check_required(const ctx *c, const ddbc_pval *item, const bool *has)
{
	ddbc_item_view iv = example_view(c, item);
	for (size_t i = 0; i < c->e->nattrs; i++) {
		const ddbc_attr *a = &c->e->attrs[i];
		if (has[i])
			continue;
		strbuf msg = STRBUF_INIT;
		if (!a->incomplete && ddbc_item_lacks(&iv, a, &msg))
			mismatch(c, ddbc_pval_loc(item), "%s; add it", ddbc_strbuf_str(&msg));
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

/* Returns whether every attribute of the item is one the entity defines;
 * attrs[i] is the entity's attribute of the item's pair i (NULL if none). */
static bool check_defined(const ctx *c, const ddbc_pval *item, const ddbc_attr *const *attrs)
{
	bool all = true;
	/* An entity read with an error, or lacking a key of its table, may
	 * define the attribute under another name: its error says so. */
	bool whole = !c->e->incomplete && !c->e->lacks_key;
	ddbc_pval_iter it = ddbc_pval_members(item);
	const ddbc_pval *key, *value;
	for (size_t i = 0; ddbc_pval_pair(&it, &key, &value); i++) {
		const ddbc_attr *a = attrs[i];
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
static bool renders_bad_value(const ddbc_attr *a, const ddbc_pval *item)
{
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		const ddbc_attr *b = a->tpl.segs[k].ref;
		const ddbc_pval *v = b ? ddbc_pval_get(item, b->name.s) : NULL;
		if (v && b->type != DDBC_TYPE_NONE &&
		    (!scalar_fits(v, b->type) || (b->more->nenum && !in_enum(b, b->type, v))))
			return true;
	}
	return false;
}

/* Returns whether it reported a's value in item. */
static bool check_template(const ctx *c, const ddbc_attr *a, const ddbc_pval *item)
{
	/* Only a template's value is looked up: most attributes have none. */
	if (!a->has_template || a->in_cycle)
		return false;
	const ddbc_pval *v = ddbc_pval_get(item, a->name.s);
	/* An empty key value was reported as such; one finding is enough. */
	if (!v || !is_str(v) || (a->is_key && !ddbc_pval_n(v)))
		return false;
	size_t slot = (size_t)(a - c->e->attrs);
	if (c->template_told[slot] || renders_bad_value(a, item))
		return false;
	size_t before = c->d->n;
	ddbc_item_view iv = example_view(c, item);
	ddbc_value val, at;
	yaml_value(v, a, &val);
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
static void check_delimiters(const ctx *c, const ddbc_pval *item,
			     const ddbc_attr *const *attrs)
{
	ddbc_item_view iv = example_view(c, item);
	ddbc_pval_iter it = ddbc_pval_members(item);
	const ddbc_pval *key, *v;
	for (size_t i = 0; ddbc_pval_pair(&it, &key, &v); i++) {
		const ddbc_attr *b = attrs[i];
		ddbc_value val;
		strbuf msg = STRBUF_INIT;
		if (b)
			yaml_value(v, b, &val);
		if (b && ddbc_item_delimiter(&iv, b, &val, &msg))
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
	/* Each pair's attribute looked up once, for both of its checks. */
	const ddbc_attr *on_stack[32];
	size_t n = ddbc_pval_n(item);
	const ddbc_attr **attrs = n <= 32 ? on_stack : ddbc_xmalloc(n * sizeof(*attrs));
	ddbc_pval_iter it = ddbc_pval_members(item);
	const ddbc_pval *key, *value;
	ddbc_attr_walk w = DDBC_ATTR_WALK_INIT;
	for (size_t i = 0; ddbc_pval_pair(&it, &key, &value); i++)
		attrs[i] = ddbc_entity_attr_next(c->e, &w, ddbc_pval_text(key));
	bool defined = check_defined(c, item, attrs);
	if (defined && !c->e->incomplete) {
		bool has_stack[32];
		size_t na = c->e->nattrs;
		bool *has = na <= 32 ? memset(has_stack, 0, sizeof has_stack) : ddbc_xcalloc(na, sizeof(*has));
		for (size_t i = 0; i < n; i++)
			if (attrs[i])
				has[attrs[i] - c->e->attrs] = true;
		check_required(c, item, has);
		if (has != has_stack)
			free(has);
	}
	check_delimiters(c, item, attrs);
	if (attrs != on_stack)
		free(attrs);
	ctx own = *c;
	own.lacks_ok = !defined;
	bool told = false;
	for (size_t i = 0; i < c->e->nattrs && !told; i++)
		told = check_template(&own, &c->e->attrs[i], item);
}

static void check_entity(const ddbc_design *g, ddbc_diags *d, ddbc_arena *arena,
			 const ddbc_entity *e)
{
	ddbc_strset told = DDBC_STRSET_INIT;
	bool *template_told = e->nexamples ? ddbc_xcalloc(e->nattrs + 1, sizeof(bool)) : NULL;
	ctx own = { d, g->key_delimiter, e, "its example", false, &told, arena, template_told };
	for (size_t i = 0; i < e->nattrs; i++)
		if (e->attrs[i].more->example)
			check_value(&own, &e->attrs[i], e->attrs[i].more->example);
	ctx items = own;
	items.who = "the example item";
	for (size_t i = 0; i < e->nexamples; i++)
		check_item(&items, e->examples[i]);
	free(template_told);
	ddbc_strset_release(&told);
}

void ddbc_check_example_mismatch(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_arena *arena = ddbc_arena_new();
	for (size_t i = 0; i < g->nentities; i++)
		check_entity(g, d, arena, &g->entities[i]);
	ddbc_arena_free(arena);
}
