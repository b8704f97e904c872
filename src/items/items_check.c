/* items_check.c - the checks of an item assigned to an entity
 *
 * Each value is of its attribute's type and in its enum; required
 * attributes are there; a templated attribute is what its template renders
 * from the item's own values (ddbc_template_render); a placeholder value
 * holds no key delimiter. The kinds of finding are listed in items_run.h.
 */
#include "items/items_run.h"
#include "model/item_check.h"
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
	size_t i, len;
	const json_t *x;
	json_array_foreach((json_t *)v->payload, i, x) {
		const char *s = ddbc_json_marked_string(x, &len);
		bool ok = t == DDBC_TYPE_NS ? ddbc_json_marked_number(x, &len) != NULL
					    : s && (t == DDBC_TYPE_SS || ddbc_is_base64(s, len));
		if (!ok)
			return false;
	}
	return true;
}

/* ---- checks ---------------------------------------------------------------------- */

/* Reports msg about attribute name, where the name is in the item. */
static void report_at(ddbc_items_run *R, ddbc_item_kind k, const char *name, const strbuf *msg)
{
	ddbc_items_finding(R, k, name, ddbc_items_attr_pos(R, name), "%s", ddbc_strbuf_str(msg));
}

/* Whether text a is a whole number that fits in a long long. */
static bool whole_number(const char *text, long long *out);

/* The item's value v as the checks of model/item_check.h see it, typed
 * against type t. */
static void view_value(const ddbc_items_run *R, const ddbc_ival *v, ddbc_type t, ddbc_value *out)
{
	memset(out, 0, sizeof(*out));
	if (!v)
		return;
	out->source = v;
	out->kind = v->type == DDBC_TYPE_S || v->type == DDBC_TYPE_B ? DDBC_V_STRING
		    : v->type == DDBC_TYPE_N			     ? DDBC_V_NUMBER
		    : v->type == DDBC_TYPE_BOOL			     ? DDBC_V_BOOL
		    : v->type == DDBC_TYPE_NULL			     ? DDBC_V_NULL
								     : DDBC_V_OTHER;
	out->fits = ddbc_items_type_fits(R, v, t);
	out->text = v->text;
	out->len = v->len;
	out->boolean = v->boolean;
	out->is_int = v->text && v->type == DDBC_TYPE_N && whole_number(v->text, &out->n);
}

static void item_get(const ddbc_item_view *iv, const ddbc_attr *a, ddbc_value *out)
{
	const ddbc_items_run *R = iv->item;
	view_value(R, value_of(R, a), a->type, out);
}

static ddbc_item_view item_view(const ddbc_items_run *R)
{
	return (ddbc_item_view){ R->ent->e, item_get, R, R->g->key_delimiter, NULL };
}

bool ddbc_items_in_enum(const ddbc_items_run *R, const ddbc_attr *a, const ddbc_ival *v)
{
	ddbc_value val;
	view_value(R, v, a->type, &val);
	return val.fits && ddbc_enum_has(a, a->type, &val);
}

static void report_enum(ddbc_items_run *R, const ddbc_attr *a, const ddbc_value *v)
{
	strbuf msg = STRBUF_INIT;
	ddbc_enum_message(a, v, &msg);
	report_at(R, DDBC_ITEM_NOT_IN_ENUM, a->name.s, &msg);
	ddbc_strbuf_release(&msg);
}

static ddbc_type element_type(ddbc_type t)
{
	return t == DDBC_TYPE_SS ? DDBC_TYPE_S : t == DDBC_TYPE_NS ? DDBC_TYPE_N
			       : t == DDBC_TYPE_BS ? DDBC_TYPE_B : DDBC_TYPE_NONE;
}

static void check_enum(ddbc_items_run *R, const ddbc_attr *a, const ddbc_ival *v)
{
	if (!a->more->nenum)
		return;
	ddbc_type et = element_type(a->type);
	if (et == DDBC_TYPE_NONE) {
		ddbc_value val;
		view_value(R, v, a->type, &val);
		if (a->type != DDBC_TYPE_M && a->type != DDBC_TYPE_L && !ddbc_enum_has(a, a->type, &val))
			report_enum(R, a, &val);
		return;
	}
	size_t i;
	const json_t *x;
	json_array_foreach((json_t *)v->payload, i, x) {
		char buf[40];
		ddbc_value val = { .kind = DDBC_V_STRING, .fits = true };
		val.text = ddbc_ival_scalar_text(x, R->dynamodb != DDBC_FACT_YES, buf, sizeof(buf),
						 &val.len);
		if (val.text && !ddbc_enum_has(a, et, &val))
			report_enum(R, a, &val);
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
	strbuf given = STRBUF_INIT, msg = STRBUF_INIT;
	ddbc_strbuf_addstr(&given, ddbc_type_short(v->type));
	if (R->dynamodb != DDBC_FACT_YES)
		ddbc_strbuf_addf(&given, " (%s%s)", plain_form(v->type),
			    a->type == DDBC_TYPE_B && v->type == DDBC_TYPE_S ? " that is not base64"
									     : "");
	ddbc_type_message(a, "the item", ddbc_strbuf_str(&given), &msg);
	/* Plain JSON says a type by how a value is written: say how. */
	if (R->dynamodb != DDBC_FACT_YES)
		ddbc_strbuf_addf(&msg, "; write %s", plain_form(a->type));
	report_at(R, DDBC_ITEM_WRONG_TYPE, a->name.s, &msg);
	ddbc_strbuf_release(&given);
	ddbc_strbuf_release(&msg);
}

/* An attribute the entity does not define, or (a not NULL) one it says
 * its items do not store: a note, since the item is still what it is. */
static void report_unknown(ddbc_items_run *R, const char *name, const ddbc_attr *a)
{
	strbuf msg = STRBUF_INIT;
	ddbc_add_quoted(&msg, name, strlen(name));
	if (a)
		ddbc_strbuf_addf(&msg, " is declared 'stored: false' in '%s', a key part that items "
			    "do not hold, but this item holds it", R->ent->e->name.s);
	else
		ddbc_strbuf_addf(&msg, " is not an attribute of '%s'", R->ent->e->name.s);
	report_at(R, DDBC_ITEM_UNKNOWN, name, &msg);
	ddbc_strbuf_release(&msg);
}

/* Links the item's values to the entity's attributes (R->slot), and
 * checks each value. */
static void check_attributes(ddbc_items_run *R)
{
	const ddbc_entity *e = R->ent->e;
	ddbc_xgrow((void **)&R->slot, &R->slot_cap, e->nattrs + 1, sizeof(*R->slot));
	memset(R->slot, 0, (e->nattrs + 1) * sizeof(*R->slot));
	/* Each name is looked up once: the checks below read what was found. */
	ddbc_xgrow((void **)&R->found, &R->found_cap, R->nattrs + 1, sizeof(*R->found));
	for (size_t i = 0; i < R->nattrs; i++) {
		const ddbc_ival *v = &R->attrs[i];
		const ddbc_attr *a = R->found[i] = ddbc_entity_attr(e, v->name);
		if (a)
			R->slot[a - e->attrs] = v;
	}
	for (size_t i = 0; i < R->nattrs; i++) {
		const ddbc_ival *v = &R->attrs[i];
		const ddbc_attr *a = R->found[i];
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
	ddbc_item_view iv = item_view(R);
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		strbuf msg = STRBUF_INIT;
		if (ddbc_item_lacks(&iv, a, &msg))
			ddbc_items_finding(R, DDBC_ITEM_MISSING, a->name.s, R->span->pos, "%s",
					   ddbc_strbuf_str(&msg));
		ddbc_strbuf_release(&msg);
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

static void check_template(ddbc_items_run *R, const ddbc_attr *a)
{
	const ddbc_ival *v = value_of(R, a);
	if (!v || !a->has_template || a->in_cycle || !ddbc_items_type_fits(R, v, DDBC_TYPE_S))
		return;
	ddbc_item_view iv = item_view(R);
	ddbc_value val, at;
	view_value(R, v, DDBC_TYPE_S, &val);
	strbuf msg = STRBUF_INIT;
	const ddbc_attr *gone;
	ddbc_tcheck r = ddbc_item_check_template(&iv, a, &val, &msg, &at, &gone);
	/* A lacking placeholder that is itself required is reported as such. */
	if (r != DDBC_TCHECK_OK && (r != DDBC_TCHECK_LACKS || !ddbc_attr_required(gone, NULL)))
		report_at(R, DDBC_ITEM_KEY_MISMATCH, a->name.s, &msg);
	ddbc_strbuf_release(&msg);
}

/* A placeholder value must not hold the key delimiter: the key-overlap
 * rule relies on it. */
static void check_delimiter(ddbc_items_run *R, const ddbc_attr *b)
{
	const ddbc_ival *v = value_of(R, b);
	if (!v)
		return;
	ddbc_item_view iv = item_view(R);
	ddbc_value val;
	view_value(R, v, b->type, &val);
	strbuf msg = STRBUF_INIT;
	if (ddbc_item_delimiter(&iv, b, &val, &msg))
		report_at(R, DDBC_ITEM_DELIMITER, b->name.s, &msg);
	ddbc_strbuf_release(&msg);
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

