/* items_check.c - the checks of an item assigned to an entity
 *
 * Each value is of its attribute's type and in its enum; required
 * attributes are there; a templated attribute is what its template renders
 * from the item's own values (ddbc_template_render); a placeholder value
 * holds no key delimiter. The kinds of finding are listed in items_run.h.
 */
#include "util/decimal.h"
#include "items/items_run.h"
#include "model/semantics.h"
#include "util/xalloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* The item's value of attribute a of the assigned entity, or NULL. */
static const ddbc_ival *value_of(const ddbc_items_run *R, const ddbc_attr *a)
{
	return R->slot[a - R->ent->e->attrs];
}

/* Whether v, typed as the input types it, is of type t. Plain JSON has no
 * binary or set types: there a B attribute takes a base64 string, and a
 * set an array of its elements (strings, numbers, base64 strings). */
bool ddbc_items_type_fits(const ddbc_items_run *R, const ddbc_ival *v, ddbc_type t)
{
	if (v->type == t)
		return true;
	if (R->dynamodb == DDBC_FACT_YES)
		return false;
	if (t == DDBC_TYPE_B)
		return v->type == DDBC_TYPE_S && ddbc_is_base64(v->text, v->len);
	if (v->type != DDBC_TYPE_L || (t != DDBC_TYPE_SS && t != DDBC_TYPE_NS && t != DDBC_TYPE_BS))
		return false;
	size_t i;
	const json_t *x;
	json_array_foreach((json_t *)v->payload, i, x) {
		bool ok = t == DDBC_TYPE_NS ? json_is_number(x)
					    : json_is_string(x) &&
						  (t == DDBC_TYPE_SS ||
						   ddbc_is_base64(json_string_value(x),
								  json_string_length(x)));
		if (!ok)
			return false;
	}
	return true;
}

/* ---- checks ---------------------------------------------------------------------- */

/* Reports msg about attribute name, where the name is in the item. */
static void report_at(ddbc_items_run *R, ddbc_item_kind k, const char *name, const strbuf *msg)
{
	ddbc_items_finding(R, k, name, ddbc_items_attr_pos(R, name), "%s", strbuf_str(msg));
}

static bool same_number(const char *a, const char *b)
{
	return !strcmp(a, b) || ddbc_decimal_cmp(a, strlen(a), b, strlen(b)) == 0;
}

/* Whether a scalar text of type t equals enum value n. */
static bool enum_has(const ddbc_attr *a, ddbc_type t, const char *text, size_t len, bool boolean)
{
	for (size_t i = 0; i < a->nenum; i++) {
		const ddbc_node *n = a->enum_values[i];
		if (n->kind != DDBC_NODE_SCALAR)
			continue;
		bool b;
		if (t == DDBC_TYPE_BOOL ? ddbc_node_bool(n, &b) && b == boolean
		    : t == DDBC_TYPE_NULL ? ddbc_node_is_null(n)
		    : t == DDBC_TYPE_N ? ddbc_node_is_number(n) && same_number(text, n->u.text)
				       : n->n == len && !memcmp(n->u.text, text, len))
			return true;
	}
	return false;
}

/* The text of scalar v as enums are compared: null and booleans as words. */
static const char *scalar_text(const ddbc_ival *v, size_t *len)
{
	const char *text = v->text ? v->text : v->type == DDBC_TYPE_NULL ? "null"
					   : v->boolean ? "true" : "false";
	*len = v->text ? v->len : strlen(text);
	return text;
}

bool ddbc_items_in_enum(const ddbc_items_run *R, const ddbc_attr *a, const ddbc_ival *v)
{
	if (!ddbc_items_type_fits(R, v, a->type))
		return false;
	size_t len;
	const char *text = scalar_text(v, &len);
	return enum_has(a, a->type, text, len, v->boolean);
}

static void report_enum(ddbc_items_run *R, const ddbc_attr *a, const char *text, size_t len)
{
	strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "'%s' is ", a->name.s);
	ddbc_items_add_quoted(&msg, text, len);
	strbuf_addstr(&msg, ", which is not one of its enum values (");
	for (size_t i = 0; i < a->nenum && i < 10; i++)
		strbuf_addf(&msg, "%s%s", i ? ", " : "", a->enum_values[i]->u.text);
	strbuf_addstr(&msg, a->nenum > 10 ? ", ...)" : ")");
	report_at(R, DDBC_ITEM_NOT_IN_ENUM, a->name.s, &msg);
	strbuf_release(&msg);
}

static ddbc_type element_type(ddbc_type t)
{
	return t == DDBC_TYPE_SS ? DDBC_TYPE_S : t == DDBC_TYPE_NS ? DDBC_TYPE_N
			       : t == DDBC_TYPE_BS ? DDBC_TYPE_B : DDBC_TYPE_NONE;
}

static void check_enum(ddbc_items_run *R, const ddbc_attr *a, const ddbc_ival *v)
{
	if (!a->nenum)
		return;
	ddbc_type et = element_type(a->type);
	if (et == DDBC_TYPE_NONE) {
		size_t len;
		const char *text = scalar_text(v, &len);
		if (a->type != DDBC_TYPE_M && a->type != DDBC_TYPE_L &&
		    !enum_has(a, a->type, text, len, v->boolean))
			report_enum(R, a, text, len);
		return;
	}
	size_t i;
	const json_t *x;
	json_array_foreach((json_t *)v->payload, i, x) {
		char buf[40];
		size_t len;
		const char *text = ddbc_ival_scalar_text(x, buf, sizeof(buf), &len);
		if (text && !enum_has(a, et, text, len, false))
			report_enum(R, a, text, len);
	}
}

/* What a type is written as in plain JSON, for messages. */
static const char *plain_form(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_S: return "a JSON string";
	case DDBC_TYPE_N: return "a JSON number";
	case DDBC_TYPE_B: return "a base64 string";
	case DDBC_TYPE_BOOL: return "true or false";
	case DDBC_TYPE_NULL: return "null";
	case DDBC_TYPE_M: return "a JSON object";
	case DDBC_TYPE_L: return "a JSON array";
	case DDBC_TYPE_SS: return "an array of strings";
	case DDBC_TYPE_NS: return "an array of numbers";
	case DDBC_TYPE_BS: return "an array of base64 strings";
	case DDBC_TYPE_NONE: break;
	}
	return "";
}

static void check_type(ddbc_items_run *R, const ddbc_attr *a, const ddbc_ival *v)
{
	if (a->type == DDBC_TYPE_NONE)
		return;
	if (ddbc_items_type_fits(R, v, a->type)) {
		check_enum(R, a, v);
		return;
	}
	strbuf msg = STRBUF_INIT;
	if (R->dynamodb == DDBC_FACT_YES)
		strbuf_addf(&msg, "'%s' is %s, expected %s", a->name.s, ddbc_type_short(v->type),
			    ddbc_type_short(a->type));
	else
		strbuf_addf(&msg, "'%s' is %s (%s%s), expected %s (%s)", a->name.s,
			    ddbc_type_short(v->type), plain_form(v->type),
			    a->type == DDBC_TYPE_B && v->type == DDBC_TYPE_S ? " that is not base64"
									     : "",
			    ddbc_type_short(a->type), plain_form(a->type));
	report_at(R, DDBC_ITEM_WRONG_TYPE, a->name.s, &msg);
	strbuf_release(&msg);
}

/* An attribute the entity does not define, or (a not NULL) one it says
 * its items do not store: a note, since the item is still what it is. */
static void report_unknown(ddbc_items_run *R, const char *name, const ddbc_attr *a)
{
	strbuf msg = STRBUF_INIT;
	ddbc_items_add_quoted(&msg, name, strlen(name));
	if (a)
		strbuf_addf(&msg, " is declared 'stored: false' in '%s', a key part that items "
			    "do not hold, but this item holds it", R->ent->e->name.s);
	else
		strbuf_addf(&msg, " is not an attribute of '%s'", R->ent->e->name.s);
	report_at(R, DDBC_ITEM_UNKNOWN, name, &msg);
	strbuf_release(&msg);
}

/* Links the item's values to the entity's attributes (R->slot), and
 * checks each value. */
static void check_attributes(ddbc_items_run *R)
{
	const ddbc_entity *e = R->ent->e;
	xgrow((void **)&R->slot, &R->slot_cap, e->nattrs + 1, sizeof(*R->slot));
	memset(R->slot, 0, (e->nattrs + 1) * sizeof(*R->slot));
	for (size_t i = 0; i < R->nattrs; i++) {
		const ddbc_ival *v = &R->attrs[i];
		const ddbc_attr *a = ddbc_entity_attr(e, v->name);
		if (a)
			R->slot[a - e->attrs] = v;
	}
	for (size_t i = 0; i < R->nattrs; i++) {
		const ddbc_ival *v = &R->attrs[i];
		const ddbc_attr *a = ddbc_entity_attr(e, v->name);
		if (a && !ddbc_attr_stored(a))
			report_unknown(R, v->name, a);
		if (a)
			check_type(R, a, v);
		else
			report_unknown(R, v->name, NULL);
	}
}



static void check_required(ddbc_items_run *R)
{
	const ddbc_entity *e = R->ent->e;
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		strbuf why = STRBUF_INIT;
		if (a->name.s && !value_of(R, a) && ddbc_attr_required(a, &why))
			ddbc_items_finding(R, DDBC_ITEM_MISSING, a->name.s, R->span->pos,
					   "'%s' is missing (%s)", a->name.s, strbuf_str(&why));
		strbuf_release(&why);
	}
}

/* Whether text is a whole number that fits in a long long. */
static bool whole_number(const char *text, long long *out)
{
	char *end;
	if (!*text || strchr(text, '.') || strchr(text, 'e') || strchr(text, 'E'))
		return false;
	errno = 0;
	*out = strtoll(text, &end, 10);
	return !errno && !*end;
}

/* The value of placeholder seg in the current item (the callback of
 * ddbc_template_render): absent and mistyped values are reported by the
 * other checks. */
static ddbc_tvalue item_value(void *ctx, const ddbc_segment *seg)
{
	const ddbc_items_run *R = ctx;
	const ddbc_attr *b = seg->ref;
	ddbc_tvalue t = { .kind = DDBC_TVALUE_UNUSABLE };
	if (!b || (b->type != DDBC_TYPE_S && b->type != DDBC_TYPE_N))
		return t;
	const ddbc_ival *v = value_of(R, b);
	if (!v) {
		t.kind = DDBC_TVALUE_MISSING;
		return t;
	}
	if (!ddbc_items_type_fits(R, v, b->type))
		return t;
	t.kind = b->type == DDBC_TYPE_S ? DDBC_TVALUE_TEXT : DDBC_TVALUE_NUMBER;
	t.text = v->text;
	t.len = v->len;
	t.is_int = b->type == DDBC_TYPE_N && whole_number(v->text, &t.n);
	t.source = v;
	return t;
}

/* Why a's template could not be checked, in msg; nothing when the reason
 * is reported by another check. */
static void explain_render(const ddbc_attr *a, ddbc_render_result r,
			   const ddbc_render_problem *p, strbuf *msg)
{
	if (r == DDBC_RENDER_MISSING) {
		const ddbc_attr *gone = p->seg->ref;
		/* A lacking placeholder that is itself required is reported as such. */
		if (!ddbc_attr_required(gone, NULL))
			strbuf_addf(msg, "'%s' cannot be checked against its template '%s': the "
				    "item has no '%s'", a->name.s, a->template.s, gone->name.s);
	} else if (r == DDBC_RENDER_UNPADDABLE) {
		const ddbc_ival *bad = p->value.source;
		strbuf_addf(msg, "'%s' pads '%s' to %u digits, but ", a->name.s, bad->name,
			    p->seg->width);
		ddbc_items_add_quoted(msg, bad->text, bad->len);
		strbuf_addstr(msg, " is not a non-negative whole number");
	}
}

/* v, the value of a in an item without gone, a key part that is not
 * stored: the parts the item holds must be rendered as they are, the
 * parts it lacks can only be held to their shape. */
static void check_shape(ddbc_items_run *R, const ddbc_attr *a, const ddbc_ival *v,
			const ddbc_attr *gone, strbuf *msg)
{
	ddbc_lang l;
	strbuf texts = STRBUF_INIT;
	ddbc_lang_init(&l);
	ddbc_attr_item_lang(a, item_value, R, &texts, &l);
	if (!ddbc_items_lang_matches(&l, v->text, v->len, R->g->key_delimiter, &R->scratch)) {
		strbuf_addf(msg, "'%s' is ", a->name.s);
		ddbc_items_add_quoted(msg, v->text, v->len);
		strbuf_addf(msg, ", which its template '%s' cannot give from this item's values "
			    "(the item has no '%s', a key part that is not stored, so that part is "
			    "held to its shape)", a->template.s, gone->name.s);
	}
	ddbc_lang_release(&l);
	strbuf_release(&texts);
}

static void check_template(ddbc_items_run *R, const ddbc_attr *a)
{
	const ddbc_ival *v = value_of(R, a);
	if (!v || !a->has_template || a->in_cycle || !ddbc_items_type_fits(R, v, DDBC_TYPE_S))
		return;
	strbuf *want = &R->render, msg = STRBUF_INIT;
	strbuf_reset(want);
	ddbc_render_problem p;
	ddbc_render_result r = ddbc_template_render(&a->tpl, item_value, R, want, &p);
	const ddbc_attr *gone = r == DDBC_RENDER_MISSING ? p.seg->ref : NULL;
	if (gone && !ddbc_attr_stored(gone)) {
		check_shape(R, a, v, gone, &msg);
	} else if (r != DDBC_RENDER_OK) {
		explain_render(a, r, &p, &msg);
	} else if (want->len != v->len || memcmp(strbuf_str(want), v->text, v->len)) {
		strbuf_addf(&msg, "'%s' is ", a->name.s);
		ddbc_items_add_quoted(&msg, v->text, v->len);
		strbuf_addf(&msg, ", but its template '%s' gives ", a->template.s);
		ddbc_items_add_quoted(&msg, want->buf, want->len);
		strbuf_addstr(&msg, " from this item's values");
	}
	if (msg.len)
		report_at(R, DDBC_ITEM_KEY_MISMATCH, a->name.s, &msg);
	strbuf_release(&msg);
}

static bool contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; n && i + n <= len; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, n))
			return true;
	return false;
}

/* The first templated attribute of e that has b as a placeholder. */
static const ddbc_attr *template_using(const ddbc_entity *e, const ddbc_attr *b)
{
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		for (size_t k = 0; a->has_template && k < a->tpl.nsegs; k++)
			if (a->tpl.segs[k].kind == DDBC_SEG_PLACEHOLDER && a->tpl.segs[k].ref == b)
				return a;
	}
	return NULL;
}

/* A placeholder value must not hold the key delimiter: the key-overlap
 * rule relies on it. A placeholder that is itself templated holds it by
 * design, and is not looked at. */
static void check_delimiter(ddbc_items_run *R, const ddbc_attr *b)
{
	const char *delim = R->g->key_delimiter;
	const ddbc_ival *v = value_of(R, b);
	if (!v || !v->text || b->has_template || !delim || !*delim)
		return;
	const ddbc_attr *a = template_using(R->ent->e, b);
	if (!a || !contains(v->text, v->len, delim))
		return;
	strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "'%s' is ", b->name.s);
	ddbc_items_add_quoted(&msg, v->text, v->len);
	strbuf_addf(&msg, ", which contains the key delimiter '%s'; as a placeholder of '%s' "
		    "('%s') it makes the key ambiguous", delim, a->name.s, a->template.s);
	report_at(R, DDBC_ITEM_DELIMITER, b->name.s, &msg);
	strbuf_release(&msg);
}

void ddbc_items_check_entity(ddbc_items_run *R)
{
	const ddbc_entity *e = R->ent->e;
	check_attributes(R);
	check_required(R);
	for (size_t i = 0; i < e->nattrs; i++)
		check_template(R, &e->attrs[i]);
	for (size_t i = 0; i < e->nattrs; i++)
		check_delimiter(R, &e->attrs[i]);
}

