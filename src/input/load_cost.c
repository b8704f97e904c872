/* load_cost.c - reading the capacity fields (load_cost.h) */
#include "input/load_cost.h"
#include "model/request_rows.h"
#include "util/suggest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A scalar that YAML reads as a number, at least 0 and at most max (whole:
 * an integer), in arena; else ddbc_figure_none. */
static const ddbc_figure *figure_of(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *v,
				    const char *key, bool whole, double min, double max,
				    const char *what)
{
	if (!v)
		return &ddbc_figure_none;
	bool number = v->kind == DDBC_NODE_SCALAR &&
		      (v->scalar == DDBC_SCALAR_INT || (!whole && v->scalar == DDBC_SCALAR_FLOAT));
	/* The value YAML gives it (.inf and .nan too: refused here, at the
	 * value, as a negative one is). */
	double x = 0;
	if (number && !ddbc_node_number(v, &x))
		number = false;
	if (!number || !isfinite(x) || x < min || x > max) {
		ddbc_diag_add(d, DDBC_RULE_SCHEMA, v->loc, "'%s' must be %s, not %s%s%s%s", key,
			      what, ddbc_node_describe(v),
			      v->kind == DDBC_NODE_SCALAR ? " '" : "",
			      v->kind == DDBC_NODE_SCALAR ? v->u.text : "",
			      v->kind == DDBC_NODE_SCALAR ? "'" : "");
		return &ddbc_figure_none;
	}
	ddbc_figure *out = ddbc_arena_alloc(arena, sizeof(*out));
	out->set = true;
	out->value = x;
	out->text = ddbc_arena_strndup(arena, v->u.text, v->n);
	out->loc = v->loc;
	return out;
}

static const ddbc_figure *load_figure(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *map,
				      const char *key, bool whole, double min, double max,
				      const char *what)
{
	return figure_of(arena, d, ddbc_node_get(map, key), key, whole, min, max, what);
}

const ddbc_figure *ddbc_load_present(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *v)
{
	return figure_of(arena, d, v, "present", false, 0, 1,
			 "a share of the entity's items from 0 to 1, such as 0.05");
}

void ddbc_load_rate(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *map, ddbc_pattern *p)
{
	p->rate = load_figure(arena, d, map, "rate", false, 0, 1e15,
			      "a number of requests per second, at least 0");
}

/* DynamoDB's Limit is a positive 32-bit integer (API reference, Query). */
#define LIMIT_MAX 2147483647.0

/* A figure that only a query or a scan reads: on another operation it
 * would be ignored, so it is a finding at its value instead. */
static const ddbc_figure *page_figure(ddbc_diags *d, const ddbc_pattern *p,
				      const ddbc_figure *f, const char *key, const char *what)
{
	if (!f->set || p->operation == DDBC_OP_QUERY || p->operation == DDBC_OP_SCAN)
		return f;
	ddbc_diag_add(d, DDBC_RULE_SCHEMA, f->loc,
		      "'%s' is %s, but '%s' is a %s, which %s; remove it", key, what, p->id.s,
		      ddbc_operation_name(p->operation),
		      p->operation == DDBC_OP_GET ? "reads one item" : "writes one item");
	return &ddbc_figure_none;
}

void ddbc_load_page_figures(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *map,
			    ddbc_pattern *p)
{
	p->items = page_figure(d, p, load_figure(arena, d, map, "items", true, 0, 1e15,
						  "a whole number of items, at least 0"),
			       "items", "the number of items a query or scan returns");
	p->limit = page_figure(d, p, load_figure(arena, d, map, "limit", true, 1, LIMIT_MAX,
						  "a whole number of items from 1 to 2147483647 "
						  "(DynamoDB's Limit)"),
			       "limit", "the page size of a query or scan");
}

void ddbc_load_entity_figures(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *map,
			      ddbc_entity *e)
{
	e->count = load_figure(arena, d, map, "count", true, 0, 1e18,
			       "a whole number of items, at least 0");
	e->item_bytes = load_figure(arena, d, map, "item_bytes", true, 1, 409600,
				    "a whole number of bytes from 1 to 409600 "
				    "(DynamoDB's 400 KB item limit)");
}

void ddbc_load_table_class(ddbc_diags *d, const ddbc_node *map, ddbc_table *t)
{
	static const char *const words[] = { "standard", "standard_ia" };
	const ddbc_node *v = ddbc_node_get(map, "table_class");
	if (!v)
		return;
	for (size_t i = 0; v->kind == DDBC_NODE_SCALAR && i < 2; i++) {
		if (!strcmp(v->u.text, words[i])) {
			t->table_class = i ? DDBC_CLASS_STANDARD_IA : DDBC_CLASS_STANDARD;
			t->has_table_class = true;
			t->table_class_loc = v->loc;
			return;
		}
	}
	const char *hint = v->kind == DDBC_NODE_SCALAR ? ddbc_suggest(v->u.text, words, 2) : NULL;
	ddbc_diag_add(d, DDBC_RULE_SCHEMA, v->loc,
		      "unknown table_class '%s'; expected one of standard, standard_ia%s%s%s",
		      v->kind == DDBC_NODE_SCALAR ? v->u.text : ddbc_node_describe(v),
		      hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
}

void ddbc_load_pricing(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *root, ddbc_design *g)
{
	const ddbc_node *v = ddbc_node_get(root, "pricing");
	if (!v)
		return;
	if (v->kind != DDBC_NODE_MAP) {
		ddbc_diag_add(d, DDBC_RULE_SCHEMA, v->loc,
			      "'pricing' must be a mapping such as { region: us-east-1 }, not %s",
			      ddbc_node_describe(v));
		return;
	}
	for (size_t i = 0; i < v->n; i++) {
		const ddbc_node *k = v->u.pairs[i].key;
		if (strcmp(k->u.text, "region")) {
			static const char *const known[] = { "region" };
			const char *hint = ddbc_suggest(k->u.text, known, 1);
			ddbc_diag_add(d, DDBC_RULE_SCHEMA, k->loc, "unknown field '%s' in pricing%s",
				      k->u.text, hint ? " (did you mean 'region'?)" : "");
		}
	}
	const ddbc_node *r = ddbc_node_get(v, "region");
	if (!r)
		return;
	if (r->kind != DDBC_NODE_SCALAR || r->scalar != DDBC_SCALAR_STR || r->n == 0) {
		ddbc_diag_add(d, DDBC_RULE_SCHEMA, r->loc,
			      "'region' must be an AWS region name such as us-east-1, not %s",
			      ddbc_node_describe(r));
		return;
	}
	g->pricing_region.s = ddbc_arena_strndup(arena, r->u.text, r->n);
	g->pricing_region.loc = r->loc;
}
