/* doc_capacity.c - capacity in the documentation: each pattern's units
 * per request (and its month with a rate), each entity's one write across
 * its indexes, each table's month
 *
 * The figures are `ddbc cost`'s (emit_cost.h), computed once per document
 * over the document's views with the compiled-in prices of the design's
 * region, so the documentation and the cost report never disagree.
 */
#include "emit/doc_capacity.h"
#include "emit/emit_cost.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ddbc_doc_cost {
	json_t *report;
	bool priced;             /* the compiled-in table has the design's region */
	json_t **entity;         /* per entity of the design, or NULL */
	json_t **pattern;        /* per pattern of the design, or NULL */
};

static ddbc_doc_cost *cost_of(writer *w)
{
	if (w->cost)
		return w->cost;
	const ddbc_design *g = w->g;
	ddbc_doc_cost *c = xcalloc(1, sizeof *c);
	ddbc_prices pr;
	strbuf err = STRBUF_INIT;
	c->priced = ddbc_prices_load(NULL, g->pricing_region.s ? g->pricing_region.s : "us-east-1",
				     &pr, &err);
	strbuf_release(&err);
	if (!c->priced)
		ddbc_prices_load(NULL, "us-east-1", &pr, &err);
	c->report = ddbc_cost_report_views(g, &pr, w->views);
	ddbc_prices_release(&pr);
	c->entity = xcalloc(g->nentities + 1, sizeof *c->entity);
	c->pattern = xcalloc(g->npatterns + 1, sizeof *c->pattern);
	/* The report lists the entities with a table and the analysed
	 * patterns, in the design's order. */
	json_t *ents = json_object_get(c->report, "entities");
	for (size_t i = 0, k = 0; i < g->nentities; i++)
		if (g->entities[i].table)
			c->entity[i] = json_array_get(ents, k++);
	json_t *pats = json_object_get(c->report, "patterns");
	for (size_t i = 0, k = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (p->analysed && p->table && p->index)
			c->pattern[i] = json_array_get(pats, k++);
	}
	w->cost = c;
	return c;
}

void ddbc_doc_capacity_release(writer *w)
{
	if (!w->cost)
		return;
	json_decref(w->cost->report);
	free(w->cost->entity);
	free(w->cost->pattern);
	free(w->cost);
	w->cost = NULL;
}

/* A figure as text: "0.5", "3", "unknown". */
static void put_figure(writer *w, json_t *v)
{
	if (json_is_integer(v))
		ddbc_doc_wordsf(w, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		ddbc_doc_wordsf(w, "%g", json_real_value(v));
	else
		words(w, w->L->c_unknown);
}

static void figure_text(const ddbc_doc_labels *L, json_t *v, char *buf, size_t size)
{
	if (json_is_integer(v))
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, size, "%g", json_real_value(v));
	else
		snprintf(buf, size, "%s", L->c_unknown);
}

static void usd_text(const ddbc_doc_labels *L, json_t *v, char *buf, size_t size)
{
	if (json_is_number(v))
		snprintf(buf, size, "$%.2f", json_number_value(v));
	else
		snprintf(buf, size, "%s", L->c_unknown);
}

/* "table 1, GSI1 0.5": the table and each index with units (the table
 * alone when none has any). */
static void put_slots(writer *w, json_t *units)
{
	json_t *t = json_object_get(units, "table");
	bool any = !json_is_number(t) || json_number_value(t) != 0;
	if (any) {
		words(w, w->L->c_table);
		words(w, " ");
		put_figure(w, t);
	}
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(units, "indexes"), name, v) {
		if (json_is_number(v) && json_number_value(v) == 0)
			continue;
		if (any)
			words(w, w->L->sep);
		any = true;
		text(w, name);
		words(w, " ");
		put_figure(w, v);
	}
	if (!any) {
		words(w, w->L->c_table);
		words(w, " 0");
	}
}

void ddbc_doc_pattern_capacity(writer *w, const ddbc_pattern *p)
{
	ddbc_doc_cost *c = cost_of(w);
	json_t *o = c->pattern[p - w->g->patterns];
	if (!o)
		return;
	const ddbc_doc_labels *L = w->L;
	bool read = p->operation == DDBC_OP_GET || p->operation == DDBC_OP_QUERY ||
		    p->operation == DDBC_OP_SCAN;
	labelled_item(w, L->d_capacity);
	words(w, read ? L->c_reads : L->c_writes);
	put_slots(w, json_object_get(o, read ? "read_units" : "write_units"));
	char a[64], b[64], r[64];
	figure_text(L, json_object_get(o, "items"), a, sizeof a);
	figure_text(L, json_object_get(o, "bytes"), b, sizeof b);
	ddbc_doc_wordsf(w, L->c_items, a, b);
	json_t *money = json_object_get(o, "monthly_usd");
	if (json_is_object(money) && c->priced) {
		figure_text(L, json_object_get(o, "rate"), r, sizeof r);
		usd_text(L, json_object_get(money, "on_demand"), a, sizeof a);
		usd_text(L, json_object_get(money, "provisioned"), b, sizeof b);
		ddbc_doc_wordsf(w, L->c_rate, r, a, b);
	}
}

void ddbc_doc_entity_capacity(writer *w, const ddbc_entity *e)
{
	ddbc_doc_cost *c = cost_of(w);
	json_t *o = c->entity[e - w->g->entities];
	json_t *max = o ? json_object_get(json_object_get(o, "item_bytes"), "max") : NULL;
	if (!o || !json_is_number(max))
		return;
	const ddbc_doc_labels *L = w->L;
	w->be->para(w->o);
	w->be->strong(w->o, L->d_one_write);
	words(w, ": ");
	put_slots(w, json_object_get(o, "write_units"));
	char b[64];
	figure_text(L, max, b, sizeof b);
	ddbc_doc_wordsf(w, L->c_largest, b);
	w->be->para_end(w->o);
	flush(w);
}

void ddbc_doc_table_capacity(writer *w, const ddbc_table *t)
{
	ddbc_doc_cost *c = cost_of(w);
	json_t *o = json_array_get(json_object_get(c->report, "tables"),
				   (size_t)(t - w->g->tables));
	json_t *money = json_object_get(o, "monthly_usd");
	json_t *od = json_object_get(money, "on_demand"), *pv = json_object_get(money, "provisioned");
	/* A month only when some pattern of the table gives a rate. */
	if (!c->priced || !json_is_number(json_object_get(od, "reads")))
		return;
	const ddbc_doc_labels *L = w->L;
	json_t *pr = json_object_get(c->report, "prices");
	char a[64], b[64];
	json_t *odt = json_object_get(od, "total"), *pvt = json_object_get(pv, "total");
	/* Without storage (no counts) the month is its reads and writes. */
	double oda = json_number_value(json_object_get(od, "reads")) +
		     json_number_value(json_object_get(od, "writes"));
	double pva = json_number_value(json_object_get(pv, "reads")) +
		     json_number_value(json_object_get(pv, "writes"));
	if (json_is_number(odt))
		usd_text(L, odt, a, sizeof a);
	else
		snprintf(a, sizeof a, "$%.2f", round(oda * 100) / 100);
	if (json_is_number(pvt))
		usd_text(L, pvt, b, sizeof b);
	else
		snprintf(b, sizeof b, "$%.2f", round(pva * 100) / 100);
	w->be->para(w->o);
	w->be->strong(w->o, L->d_month);
	words(w, ": ");
	ddbc_doc_wordsf(w, L->c_month, a, b, json_string_value(json_object_get(pr, "region")),
			json_string_value(json_object_get(pr, "date")));
	json_t *storage = json_object_get(o, "storage_bytes");
	if (json_is_number(storage)) {
		figure_text(L, storage, a, sizeof a);
		ddbc_doc_wordsf(w, L->c_storage, a);
	}
	w->be->para_end(w->o);
	flush(w);
}
