/* params.c - where an access pattern puts its parameters, and what fits there */
#include "model/params.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- the places ----------------------------------------------------------------- */

/* Whether a matched entity builds attribute name from a template: then a
 * parameter standing for the whole key is still a part of a template's
 * language, which never holds the delimiter. */
static bool built_by_template(const ddbc_pattern *p, const char *name)
{
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], name);
		if (a && a->has_template)
			return true;
	}
	return false;
}

/* The attribute name of the entities p reads when each has it plain (no
 * template) with an enum: a parameter that is its whole value must be one
 * of the enum values (the first entity's). NULL otherwise. */
static const ddbc_attr *enum_of(const ddbc_pattern *p, const char *name)
{
	const ddbc_attr *first = NULL;
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], name);
		if (!a || a->template.s || !a->more->nenum)
			return NULL;
		if (!first)
			first = a;
	}
	return first;
}

/* The type the table gives c's attribute: the request's, resolved once,
 * when c is on a key attribute it sends. */
static ddbc_type cond_type(const ddbc_pattern *p, const ddbc_key_cond *c)
{
	const ddbc_request *r = ddbc_pattern_request(p);
	const ddbc_req_cond *rc = r ? ddbc_request_cond(r, c->attr.s) : NULL;
	if (rc)
		return rc->type;
	ddbc_type type = ddbc_table_key_type(p->table, c->attr.s);
	return type == DDBC_TYPE_NONE ? DDBC_TYPE_S : type;
}

static void key_uses(const ddbc_pattern *p, size_t ci, ddbc_param_use_fn *fn, void *ctx)
{
	const ddbc_key_cond *c = &p->conds[ci];
	const ddbc_req_value *values = p->request->cond_values[ci];
	ddbc_type type = cond_type(p, c);
	for (size_t v = 0; v < c->nvalues; v++) {
		const ddbc_node *n = c->values[v];
		if (!values[v].is_template)
			continue;
		const ddbc_template *t = &values[v].tpl;
		bool whole = t->nsegs == 1;
		for (size_t k = 0; k < t->nsegs; k++) {
			const ddbc_segment *s = &t->segs[k];
			if (s->kind != DDBC_SEG_PLACEHOLDER)
				continue;
			ddbc_param_use use = { s->text, s->len, DDBC_PARAM_IN_KEY, n->loc, c->attr.s,
					       type, s->width, false, NULL };
			use.no_delim = use.type == DDBC_TYPE_S &&
				       (!whole || built_by_template(p, c->attr.s));
			if (whole && !s->width)
				use.enum_attr = enum_of(p, c->attr.s);
			fn(ctx, &use);
		}
	}
}

const ddbc_attr *ddbc_pattern_named_attr(const ddbc_pattern *p, const char *name, size_t len)
{
	const ddbc_attr *found = NULL;
	char *key = ddbc_xstrndup(name, len);
	for (size_t i = 0; i < p->nmatched && !found; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], key);
		if (a && (a->type == DDBC_TYPE_S || a->type == DDBC_TYPE_N ||
			  a->type == DDBC_TYPE_B || a->type == DDBC_TYPE_BOOL))
			found = a;
	}
	free(key);
	return found;
}

/* The type a value named name takes in the pattern's condition or item
 * (ddbc_pattern_named_attr's), else none to check. */
static ddbc_type named_type(const ddbc_pattern *p, const char *name, size_t len,
			    const ddbc_attr **attr)
{
	*attr = ddbc_pattern_named_attr(p, name, len);
	return *attr ? (*attr)->type : DDBC_TYPE_NONE;
}

static bool word_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Each ':name' of the condition, typed as the export types it. */
static void condition_uses(const ddbc_pattern *p, ddbc_param_use_fn *fn, void *ctx)
{
	for (const char *s = p->condition; s && *s; s++) {
		if (*s != ':' || !word_char(s[1]))
			continue;
		const char *name = s + 1;
		size_t len = 0;
		while (word_char(name[len]))
			len++;
		const ddbc_attr *a;
		ddbc_type type = named_type(p, name, len, &a);
		if (type != DDBC_TYPE_NONE) {
			ddbc_param_use use = { name, len, DDBC_PARAM_IN_CONDITION, p->condition_loc,
					       a->name.s, type, 0, false, a->more->nenum ? a : NULL };
			fn(ctx, &use);
		}
		s += len;
	}
}

/* A put writes a parameter into the item's attribute of the same name. */
typedef struct item_ctx {
	const ddbc_pattern *p;
	ddbc_param_use_fn *fn;
	void *ctx;
} item_ctx;

static void item_use(void *ctx, const ddbc_param_use *key)
{
	const item_ctx *it = ctx;
	const ddbc_attr *a;
	ddbc_type type = named_type(it->p, key->name, key->len, &a);
	/* Only the first entity is put, and only a plain attribute takes the
	 * parameter as it is (a templated one is rendered, and checked there). */
	if (type == DDBC_TYPE_NONE || a->entity != it->p->matched[0] || a->has_template)
		return;
	ddbc_param_use use = *key;
	use.place = DDBC_PARAM_IN_ITEM;
	use.attr = a->name.s;
	use.type = type;
	use.width = 0;
	use.no_delim = false;
	use.enum_attr = a->more->nenum ? a : NULL;
	it->fn(it->ctx, &use);
}

void ddbc_pattern_param_uses(const ddbc_pattern *p, ddbc_param_use_fn *fn, void *ctx)
{
	if (!p->table || !p->request)
		return;
	for (size_t i = 0; i < p->nconds; i++)
		if (p->conds[i].attr.s)
			key_uses(p, i, fn, ctx);
	condition_uses(p, fn, ctx);
	if (p->operation == DDBC_OP_PUT && p->nmatched) {
		item_ctx it = { p, fn, ctx };
		for (size_t i = 0; i < p->nconds; i++)
			if (p->conds[i].attr.s)
				key_uses(p, i, item_use, &it);
	}
}

/* ---- what fits ------------------------------------------------------------------ */

bool ddbc_number_text(const char *s, size_t len)
{
	return ddbc_decimal_valid(s, len);
}

static bool holds(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; n && i + n <= len; i++)
		if (!memcmp(s + i, needle, n))
			return true;
	return false;
}

/* Numbers by value (1.10 is the enum's 1.1, as DynamoDB compares them),
 * anything else by its text. */
static bool in_enum(const ddbc_attr *a, const char *text, size_t len)
{
	bool number = a->type == DDBC_TYPE_N && ddbc_decimal_valid(text, len);
	for (size_t i = 0; i < a->more->nenum; i++) {
		const ddbc_node *e = a->more->enum_values[i];
		if (e->kind != DDBC_NODE_SCALAR)
			continue;
		if (number ? !ddbc_decimal_cmp(e->u.text, e->n, text, len)
			   : e->n == len && !memcmp(e->u.text, text, len))
			return true;
	}
	return false;
}

/* Whether an entity of a's table may hold text in the attribute of a's
 * name: one that has the attribute plain without an enum, or one whose
 * enum has it (ProductCatalog's Book and Bicycle each have their own). */
static bool table_enum_has(const ddbc_attr *a, const char *text, size_t len)
{
	const ddbc_table *t = a->entity->table;
	if (!t)
		return in_enum(a, text, len);
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_attr *b = ddbc_entity_attr(t->entities[i], a->name.s);
		if (b && (!b->more->nenum || in_enum(b, text, len)))
			return true;
	}
	return false;
}

static void enum_problem(const ddbc_attr *a, strbuf *why)
{
	ddbc_strbuf_addf(why, "is not one of the enum values of '%s' (", a->name.s);
	for (size_t i = 0; i < a->more->nenum && i < 10; i++)
		ddbc_strbuf_addf(why, "%s%s", i ? ", " : "", a->more->enum_values[i]->u.text);
	ddbc_strbuf_addstr(why, a->more->nenum > 10 ? ", ...)" : ")");
}

bool ddbc_param_fits(const ddbc_design *g, const ddbc_param_use *use, const char *text,
		     size_t len, strbuf *why)
{
	const char *problem = NULL;
	bool delim = false;
	if (!use->width && use->type == DDBC_TYPE_N && ddbc_number_text(text, len) &&
	    !ddbc_decimal_dynamodb(text, len, NULL)) {
		if (why)
			ddbc_decimal_dynamodb(text, len, why);
		return false;
	}
	if (use->width)
		problem = ddbc_padding_problem(text, len, use->width);
	else if (use->type == DDBC_TYPE_N && !ddbc_number_text(text, len))
		problem = "is not a number";

	else if (use->type == DDBC_TYPE_BOOL && !(len == 4 && !memcmp(text, "true", 4)) &&
		 !(len == 5 && !memcmp(text, "false", 5)))
		problem = "is not true or false";
	else if (use->no_delim && holds(text, len, g->key_delimiter))
		delim = true;
	if (!problem && !delim && use->enum_attr && !table_enum_has(use->enum_attr, text, len)) {
		if (why)
			enum_problem(use->enum_attr, why);
		return false;
	}
	if (delim && why)
		ddbc_strbuf_addf(why, "holds the key delimiter '%s', which separates the parts of a "
			    "key: the key would have a part too many", g->key_delimiter);
	else if (problem && why)
		ddbc_strbuf_addstr(why, problem);
	return !problem && !delim;
}

void ddbc_param_place_text(const ddbc_param_use *use, strbuf *out)
{
	switch (use->place) {
	case DDBC_PARAM_IN_KEY:
		ddbc_strbuf_addf(out, "key attribute '%s'", use->attr);
		if (use->width)
			ddbc_strbuf_addf(out, " as '{%.*s:0%u}'", (int)use->len, use->name, use->width);
		else if (use->type == DDBC_TYPE_N)
			ddbc_strbuf_addstr(out, " (a Number)");
		break;
	case DDBC_PARAM_IN_CONDITION:
		ddbc_strbuf_addf(out, "':%.*s' of the condition (%s '%s')", (int)use->len, use->name,
			    ddbc_type_long(use->type), use->attr);
		break;
	case DDBC_PARAM_IN_ITEM:
		ddbc_strbuf_addf(out, "the put item's attribute '%s' (a %s)", use->attr,
			    ddbc_type_long(use->type));
		break;
	}
}
