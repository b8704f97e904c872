/* doc_capacity.c - capacity in the documentation: each pattern's units
 * per request (and its month with a rate), each entity's one write across
 * its indexes, each table's month
 *
 * The figures are `ddbc cost`'s (ddbc_cost_compute), computed once per
 * document over the document's views with the compiled-in prices of the
 * design's region, so the documentation and the cost report never
 * disagree.
 */
#include "emit/doc_capacity.h"
#include "emit/emit_cost.h"
#include "emit/emit_json.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ddbc_doc_cost {
	ddbc_prices prices;
	bool priced;             /* the compiled-in table has the design's region */
	ddbc_cost *cost;
};

static ddbc_doc_cost *cost_of(writer *w)
{
	if (w->cost)
		return w->cost;
	const ddbc_design *g = w->g;
	ddbc_doc_cost *c = ddbc_xcalloc(1, sizeof *c);
	strbuf err = STRBUF_INIT;
	c->priced = ddbc_prices_load(NULL, g->pricing_region.s ? g->pricing_region.s : "us-east-1",
				     &c->prices, &err);
	if (!c->priced)
		ddbc_prices_load(NULL, "us-east-1", &c->prices, &err);
	ddbc_strbuf_release(&err);
	c->cost = ddbc_cost_compute(g, &c->prices, w->views);
	w->cost = c;
	return c;
}

void ddbc_doc_capacity_release(writer *w)
{
	if (!w->cost)
		return;
	ddbc_cost_free(w->cost->cost);
	ddbc_prices_release(&w->cost->prices);
	free(w->cost);
	w->cost = NULL;
}

/* snprintf's "%lld" of v >= 0, without its set-up: the document writes
 * a few figures for every entity. */
static void whole_text(long long v, char *buf, size_t size)
{
	char digits[24], *p = digits + sizeof digits;
	unsigned long long u = (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10));
	size_t n = (size_t)(digits + sizeof digits - p);
	if (!size)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
}

static void figure_text(const ddbc_doc_labels *L, double v, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "%s", L->c_unknown);
	else if (v == floor(v) && v < 9e15)
		whole_text((long long)v, buf, size);
	else
		snprintf(buf, size, "%g", v);
}

static void size_text(const ddbc_doc_labels *L, double v, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "%s", L->c_unknown);
	else
		ddbc_cost_size_text(buf, size, round(v), L->c_bytes);
}

static void usd_text(const ddbc_doc_labels *L, double v, char *buf, size_t size)
{
	if (v < 0)
		snprintf(buf, size, "%s", L->c_unknown);
	else
		snprintf(buf, size, "$%.2f", round(v * 10000) / 10000);
}

static void put_figure(writer *w, double v)
{
	char buf[64];
	figure_text(w->L, v, buf, sizeof buf);
	words(w, buf);
}

/* "table 1, GSI1 0.5": the table and each index with units (the table
 * alone when none has any); v NULL: unknown. */
static void put_slots(writer *w, const ddbc_table *t, const double *v)
{
	bool any = !v || v[0] != 0;
	if (any) {
		words(w, w->L->c_table);
		words(w, " ");
		put_figure(w, v ? v[0] : DDBC_UNKNOWN);
	}
	for (size_t s = 1; v && s < t->nindexes; s++) {
		if (v[s] == 0)
			continue;
		if (any)
			words(w, w->L->sep);
		any = true;
		text(w, t->indexes[s]->name.s);
		words(w, " ");
		put_figure(w, v[s]);
	}
	if (!any) {
		words(w, w->L->c_table);
		words(w, " 0");
	}
}

void ddbc_doc_pattern_capacity(writer *w, const ddbc_pattern *p)
{
	ddbc_doc_cost *c = cost_of(w);
	const ddbc_cost_pattern *cp = &c->cost->patterns[p - w->g->patterns];
	if (!cp->p)
		return;
	const ddbc_doc_labels *L = w->L;
	bool read = p->operation <= DDBC_OP_SCAN;
	labelled_item(w, L->d_capacity);
	char a[64], b[64];
	if (read && cp->c.known && cp->c.requests > 1) {
		figure_text(L, (double)cp->c.requests, a, sizeof a);
		ddbc_doc_wordsf(w, L->c_reads_pages, a);
	} else {
		words(w, read ? L->c_reads : L->c_writes);
	}
	put_slots(w, p->table, read ? cp->c.read : cp->c.known ? cp->c.write : NULL);
	figure_text(L, cp->c.known || cp->c.declared ? (double)cp->c.items : DDBC_UNKNOWN, a,
		    sizeof a);
	size_text(L, cp->c.known ? cp->c.bytes : DDBC_UNKNOWN, b, sizeof b);
	ddbc_doc_wordsf(w, L->c_items, a, b);
	if (cp->priced && c->priced) {
		strbuf rt = STRBUF_INIT;
		ddbc_figure_text(&rt, p->rate);
		usd_text(L, cp->on_demand, a, sizeof a);
		usd_text(L, cp->provisioned, b, sizeof b);
		ddbc_doc_wordsf(w, L->c_rate, ddbc_strbuf_str(&rt), a, b);
		ddbc_strbuf_release(&rt);
	}
}

void ddbc_doc_entity_capacity(writer *w, const ddbc_entity *e)
{
	ddbc_doc_cost *c = cost_of(w);
	const ddbc_cost_entity *ce = &c->cost->entities[e - w->g->entities];
	if (!ce->e || !ce->c.size_known)
		return;
	const ddbc_doc_labels *L = w->L;
	w->be->para(w->o);
	w->be->strong(w->o, L->d_one_write);
	words(w, ": ");
	put_slots(w, e->table, ce->c.write);
	char b[64];
	size_text(L, (double)ce->c.max_bytes, b, sizeof b);
	ddbc_doc_wordsf(w, L->c_largest, b);
	w->be->para_end(w->o);
	flush(w);
}

/* A mode's month for the document: without storage (no counts), its reads
 * and writes. */
static void month_text(const ddbc_doc_labels *L, const ddbc_cost_mode *m, char *buf, size_t size)
{
	double total = ddbc_cost_total(m);
	usd_text(L, total >= 0 ? total : m->read + m->write, buf, size);
}

void ddbc_doc_table_capacity(writer *w, const ddbc_table *t)
{
	ddbc_doc_cost *c = cost_of(w);
	const ddbc_cost_table *ct = &c->cost->tables[t - w->g->tables];
	/* A month only when some pattern of the table gives a rate. */
	if (!c->priced || !ct->on_demand.any)
		return;
	const ddbc_doc_labels *L = w->L;
	char a[64], b[64];
	month_text(L, &ct->on_demand, a, sizeof a);
	month_text(L, &ct->provisioned, b, sizeof b);
	w->be->para(w->o);
	w->be->strong(w->o, L->d_month);
	words(w, ": ");
	ddbc_doc_wordsf(w, L->c_month, a, b, c->prices.region, c->prices.date);
	if (ct->storage >= 0 && t->nentities) {
		size_text(L, ct->storage, a, sizeof a);
		ddbc_doc_wordsf(w, L->c_storage, a);
	}
	w->be->para_end(w->o);
	flush(w);
}
