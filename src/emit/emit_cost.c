/* emit_cost.c - `ddbc cost`: the figures, once, and the JSON report
 *
 * ddbc_cost_compute sizes every entity and every pattern's request over
 * the example items (model/capacity.h, cost_items.h), then adds up each
 * table's month; the JSON report streams them out (emit_json.h) without a
 * tree of the whole document, for designs of thousands of entities.
 */
#include "emit/emit_cost.h"
#include "emit/cost_items.h"
#include "emit/emit_json.h"
#include "model/semantics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ddbc_cost_assumption ddbc_cost_assumptions[] = {
	{ "item_size", "DynamoDB's rules over each entity's example items (names and Strings in "
		       "UTF-8 bytes, Numbers by significant digits); item_bytes where an entity "
		       "has none" },
	{ "items_read", "a query or scan returns its items: (else a full page of its limit:, "
			"else the example items its request selects, as the documentation shows "
			"them), of the mean size of the examples; a get or query that selects none "
			"still reads one 4 KB unit" },
	{ "pages", "a query or scan reads in pages of at most its limit: and 1 MB (about 256 "
		   "units strongly consistent, 128 eventually: a page ends with the item that "
		   "reaches 1 MB), each rounded up to 4 KB; one use of a pattern makes a request "
		   "per page, and its rate: counts uses" },
	{ "consistency", "reads are eventually consistent (half a unit per 4 KB) unless the "
			 "pattern sets consistent_read; GSI reads always are" },
	{ "writes", "a put writes a new item, a delete removes one, an update rewrites the item "
		    "without changing an index key; each index that holds the item writes its "
		    "entry" },
	{ "storage", "each item and index entry plus 100 bytes, count items in the proportions "
		     "of the examples" },
	{ "provisioned", "the average rate in whole units per table and GSI (at least 1), no "
			 "headroom, no auto scaling, no reserved capacity; LSIs use the table's" },
	{ "not_included", "free tier, backups, streams, global tables, data transfer, "
			  "transactions" },
};
const size_t ddbc_cost_nassumptions = sizeof ddbc_cost_assumptions /
				      sizeof ddbc_cost_assumptions[0];

void ddbc_cost_size_text(char *buf, size_t size, double bytes, const char *word)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	/* A whole number of bytes, as every item's size is, written without
	 * snprintf's float machinery (doc writes one an entity); "%.0f" of
	 * one is its digits. */
	if (bytes >= 0 && bytes < 1024 && bytes == floor(bytes) && !signbit(bytes)) {
		char digits[8], *p = digits + sizeof digits;
		unsigned v = (unsigned)bytes;
		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10));
		size_t n = 0, wl = strlen(word), dl = (size_t)(digits + sizeof digits - p);
		/* snprintf's truncation: as much as fits, and the NUL. */
		for (size_t i = 0; i < dl + 1 + wl && n + 1 < size; i++)
			buf[n++] = i < dl ? p[i] : i == dl ? ' ' : word[i - dl - 1];
		if (size)
			buf[n] = '\0';
		return;
	}
	if (bytes < 1024) {
		snprintf(buf, size, "%.0f %s", bytes, word);
		return;
	}
	size_t u = 0;
	double v = bytes / 1024;
	/* 1023.95 KiB would print as 1024.0 KiB: the next unit then. */
	while (v >= 1023.95 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.1f %s", v, units[u]);
}

double ddbc_cost_total(const ddbc_cost_mode *m)
{
	/* A total with a part unknown is unknown. */
	return m->any && m->storage_known ? m->read + m->write + m->storage : DDBC_UNKNOWN;
}

static void attr_names(const ddbc_membership *m, strbuf *out)
{
	for (uint32_t i = 0; i < m->nby; i++)
		ddbc_strbuf_addf(out, "%s%s", i ? (i + 1 == m->nby ? " and " : ", ") : "",
			    m->by[i]->name.s);
}

void ddbc_cost_share_words(const ddbc_entity *e, size_t s, strbuf *out)
{
	const ddbc_membership *m = ddbc_entity_membership(e, e->table->indexes[s]);
	switch (m->source) {
	case DDBC_SHARE_PRESENT:
		for (uint32_t i = 0, n = 0; i < m->nby; i++)
			if (m->by[i]->more->present->set)
				ddbc_strbuf_addf(out, "%spresent: %s on %s", n++ ? ", " : "",
					    m->by[i]->more->present->text, m->by[i]->name.s);
		return;
	case DDBC_SHARE_EXAMPLES:
		ddbc_strbuf_addf(out, "the share of its examples that have ");
		attr_names(m, out);
		return;
	case DDBC_SHARE_ASSUMED:
		ddbc_strbuf_addf(out, "every item assumed: no present: on ");
		attr_names(m, out);
		ddbc_strbuf_addf(out, " and no example");
		return;
	case DDBC_SHARE_ALL:
		return;
	}
}

/* ---- computing ------------------------------------------------------------------------ */

static double *slots(ddbc_arena *arena, size_t n)
{
	double *a = ddbc_arena_array(arena, n ? n : 1, sizeof(double));
	memset(a, 0, (n ? n : 1) * sizeof(double));
	return a;
}

/* A pattern's own month, added to its table's units a second. */
static void price_pattern(ddbc_cost_pattern *cp, const ddbc_prices *pr, double *read_s,
			  double *write_s, double *od_units)
{
	const ddbc_pattern *p = cp->p;
	const ddbc_table *t = p->table;
	const ddbc_class_prices *price = &pr->cls[t->table_class];
	double rate = p->rate->value, r = 0, w = 0, prov = 0;
	for (size_t s = 0; s < t->nindexes; s++) {
		/* An LSI's units are the table's capacity. */
		size_t slot = t->indexes[s]->kind == DDBC_INDEX_LSI ? 0 : s;
		r += cp->c.read[s];
		w += cp->c.write[s];
		read_s[slot] += cp->c.read[s] * rate;
		write_s[slot] += cp->c.write[s] * rate;
		prov += (cp->c.read[s] * price->rcu_hour + cp->c.write[s] * price->wcu_hour) * rate *
			DDBC_MONTH_HOURS;
	}
	double requests = rate * DDBC_MONTH_SECONDS;
	od_units[0] += r * requests;
	od_units[1] += w * requests;
	cp->on_demand = (r * price->read_request_million + w * price->write_request_million) *
			requests / 1e6;
	cp->provisioned = prov;
}

static bool priced(const ddbc_cost_pattern *cp)
{
	const ddbc_pattern *p = cp->p;
	if (!p->rate->set || !cp->c.known)
		return false;
	for (size_t s = 0; s < p->table->nindexes; s++)
		if (cp->c.read[s] < 0 || cp->c.write[s] < 0)
			return false;
	return true;
}

static void add_mode(ddbc_cost_mode *all, const ddbc_cost_mode *one)
{
	if (one->any) {
		all->any = true;
		all->read += one->read;
		all->write += one->write;
	}
	if (one->storage_known)
		all->storage += one->storage;
	else
		all->storage_known = false;
}

/* The replica Regions of ct's table: writes replicated to the table and
 * its GSIs there (on demand the month's write request units, provisioned
 * the same write capacity units as the table's), and a copy of its
 * storage, at the Region's prices (the same price table: the compiled-in
 * one or --prices FILE). Each is added to the table's month. */
static void price_replicas(ddbc_cost *c, ddbc_cost_table *ct)
{
	const ddbc_table *t = ct->t;
	const ddbc_table_settings *s = &t->settings;
	if (s->nreplicas < 2)
		return;
	ct->nreplicas = s->nreplicas - 1;
	ct->replicas = ddbc_arena_array(c->arena, ct->nreplicas, sizeof *ct->replicas);
	for (size_t i = 0; i < ct->nreplicas; i++) {
		ddbc_cost_replica *r = &ct->replicas[i];
		r->region = s->replicas[i + 1].s;
		ddbc_prices pr;
		strbuf err = STRBUF_INIT;
		r->priced = ddbc_prices_load(c->prices->file, r->region, &pr, &err);
		ddbc_strbuf_release(&err);
		if (!r->priced) {
			r->on_demand = r->provisioned = (ddbc_cost_mode){ 0, 0, 0, false, false };
			ct->on_demand.any = ct->provisioned.any = false;
			ct->on_demand.storage_known = ct->provisioned.storage_known = false;
			continue;
		}
		const ddbc_class_prices *price = &pr.cls[t->table_class];
		bool storage = ct->on_demand.storage_known && ct->storage >= 0 && t->nentities;
		double stored = storage ? ct->storage / DDBC_GB * price->storage_gb_month : 0;
		double wcu = 0;
		for (size_t k = 0; k < t->nindexes; k++)
			wcu += ct->wcu[k];
		r->on_demand = (ddbc_cost_mode){ 0, ct->write_units * price->write_request_million / 1e6,
						 stored, ct->on_demand.any, storage };
		r->provisioned = (ddbc_cost_mode){ 0, wcu * price->wcu_hour * DDBC_MONTH_HOURS, stored,
						   ct->on_demand.any, storage };
		ddbc_prices_release(&pr);
		ct->on_demand.write += r->on_demand.write;
		ct->on_demand.storage += r->on_demand.storage;
		ct->provisioned.write += r->provisioned.write;
		ct->provisioned.storage += r->provisioned.storage;
	}
}

/* The table's month from its units: on demand by the request, provisioned
 * by whole units a second (at least one) on the table and each GSI. */
static void price_table(ddbc_cost *c, ddbc_cost_table *ct, const double *read_s,
			const double *write_s, const double *od_units, bool any)
{
	const ddbc_table *t = ct->t;
	const ddbc_class_prices *price = &c->prices->cls[t->table_class];
	bool storage = ct->storage >= 0 && t->nentities;
	ct->on_demand = (ddbc_cost_mode){ od_units[0] * price->read_request_million / 1e6,
					  od_units[1] * price->write_request_million / 1e6,
					  storage ? ct->storage / DDBC_GB * price->storage_gb_month : 0,
					  any, storage };
	ct->provisioned = ct->on_demand;
	ct->provisioned.read = ct->provisioned.write = 0;
	for (size_t s = 0; s < t->nindexes; s++) {
		if (t->indexes[s]->kind == DDBC_INDEX_LSI)
			continue;
		ct->rcu[s] = fmax(1, ceil(read_s[s]));
		ct->wcu[s] = fmax(1, ceil(write_s[s]));
		ct->provisioned.read += ct->rcu[s] * price->rcu_hour * DDBC_MONTH_HOURS;
		ct->provisioned.write += ct->wcu[s] * price->wcu_hour * DDBC_MONTH_HOURS;
	}
	ct->write_units = od_units[1];
	price_replicas(c, ct);
	add_mode(&c->on_demand, &ct->on_demand);
	add_mode(&c->provisioned, &ct->provisioned);
}

/* Each table's stored bytes: unknown unless every entity's are known. */
static void add_storage(ddbc_cost *c)
{
	for (size_t i = 0; i < c->g->nentities; i++) {
		const ddbc_cost_entity *ce = &c->entities[i];
		if (!ce->e)
			continue;
		ddbc_cost_table *ct = &c->tables[ce->e->table - c->g->tables];
		for (size_t s = 0; s < ce->e->table->nindexes; s++) {
			if (!ce->c.size_known || ce->c.storage[s] < 0)
				ct->storage = DDBC_UNKNOWN;
			else if (ct->storage >= 0)
				ct->storage += ce->c.storage[s];
		}
	}
}

ddbc_cost *ddbc_cost_compute(const ddbc_design *g, const ddbc_prices *pr, ddbc_views *views)
{
	ddbc_cost *c = calloc(1, sizeof *c);
	c->arena = ddbc_arena_new();
	c->g = g;
	c->prices = pr;
	c->entities = ddbc_arena_array(c->arena, g->nentities + 1, sizeof *c->entities);
	c->patterns = ddbc_arena_array(c->arena, g->npatterns + 1, sizeof *c->patterns);
	c->tables = ddbc_arena_array(c->arena, g->ntables + 1, sizeof *c->tables);
	memset(c->entities, 0, (g->nentities + 1) * sizeof *c->entities);
	memset(c->patterns, 0, (g->npatterns + 1) * sizeof *c->patterns);
	memset(c->tables, 0, (g->ntables + 1) * sizeof *c->tables);
	c->on_demand.storage_known = c->provisioned.storage_known = true;
	for (size_t i = 0; i < g->ntables; i++) {
		c->tables[i].t = &g->tables[i];
		c->tables[i].rcu = slots(c->arena, g->tables[i].nindexes);
		c->tables[i].wcu = slots(c->arena, g->tables[i].nindexes);
	}
	for (size_t i = 0; i < g->nentities; i++) {
		if (!g->entities[i].table)
			continue;
		c->entities[i].e = &g->entities[i];
		ddbc_entity_capacity(c->arena, &g->entities[i], &c->entities[i].c);
	}
	add_storage(c);
	/* Per table: units a second per slot, request units a month. */
	double **read_s = calloc(g->ntables + 1, sizeof *read_s);
	double **write_s = calloc(g->ntables + 1, sizeof *write_s);
	double (*od)[2] = calloc(g->ntables + 1, sizeof *od);
	bool *any = calloc(g->ntables + 1, sizeof *any);
	for (size_t i = 0; i < g->ntables; i++) {
		read_s[i] = slots(c->arena, g->tables[i].nindexes);
		write_s[i] = slots(c->arena, g->tables[i].nindexes);
	}
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->table || !p->index)
			continue;
		ddbc_cost_pattern *cp = &c->patterns[i];
		cp->p = p;
		ddbc_cap_item *items;
		size_t n = ddbc_cost_items(c->arena, views, g, p, &items);
		ddbc_pattern_capacity(c->arena, p, items, n, &cp->c);
		free(items);
		cp->priced = priced(cp);
		if (!cp->priced)
			continue;
		size_t t = (size_t)(p->table - g->tables);
		price_pattern(cp, pr, read_s[t], write_s[t], od[t]);
		any[t] = true;
	}
	for (size_t i = 0; i < g->ntables; i++)
		price_table(c, &c->tables[i], read_s[i], write_s[i], od[i], any[i]);
	free(read_s);
	free(write_s);
	free(od);
	free(any);
	return c;
}

void ddbc_cost_free(ddbc_cost *c)
{
	if (!c)
		return;
	ddbc_arena_free(c->arena);
	free(c);
}

/* ---- JSON -------------------------------------------------------------------------------- */

/* A figure: an integer when it is one, null when unknown. */
static void put_figure(ddbc_json_stream *js, const char *key, double v)
{
	if (v < 0)
		ddbc_json_text(js, key, NULL);
	else if (v == floor(v) && v < 9e15)
		ddbc_json_int(js, key, (long long)v);
	else
		ddbc_json_member(js, key, json_real(v));
}

/* Dollars, to a hundredth of a cent. */
static void put_usd(ddbc_json_stream *js, const char *key, double v)
{
	if (v < 0)
		ddbc_json_text(js, key, NULL);
	else
		ddbc_json_member(js, key, json_real(round(v * 10000) / 10000));
}

/* {"table": U, "indexes": {NAME: U}} over the slots of t (v NULL: unknown). */
static void put_slots(ddbc_json_stream *js, const char *key, const ddbc_table *t, const double *v)
{
	ddbc_json_begin(js, key, '{');
	put_figure(js, "table", v ? v[0] : DDBC_UNKNOWN);
	ddbc_json_begin(js, "indexes", '{');
	for (size_t s = 1; s < t->nindexes; s++)
		put_figure(js, t->indexes[s]->name.s, v ? v[s] : DDBC_UNKNOWN);
	ddbc_json_end(js, '}');
	ddbc_json_end(js, '}');
}

static void put_mode(ddbc_json_stream *js, const char *key, const ddbc_cost_mode *m)
{
	ddbc_json_begin(js, key, '{');
	put_usd(js, "reads", m->any ? m->read : DDBC_UNKNOWN);
	put_usd(js, "writes", m->any ? m->write : DDBC_UNKNOWN);
	put_usd(js, "storage", m->storage_known ? m->storage : DDBC_UNKNOWN);
	put_usd(js, "total", ddbc_cost_total(m));
	ddbc_json_end(js, '}');
}

static const char *api_name(ddbc_operation op)
{
	static const char *const names[] = { "GetItem", "Query", "Scan", "PutItem", "UpdateItem",
					     "DeleteItem" };
	return names[op];
}

static void json_assumptions(ddbc_json_stream *js, const ddbc_cost *c)
{
	const ddbc_design *g = c->g;
	ddbc_json_begin(js, "assumptions", '{');
	ddbc_json_int(js, "month_seconds", (long long)DDBC_MONTH_SECONDS);
	ddbc_json_int(js, "gb_bytes", (long long)DDBC_GB);
	for (size_t i = 0; i < ddbc_cost_nassumptions; i++)
		ddbc_json_text(js, ddbc_cost_assumptions[i].key, ddbc_cost_assumptions[i].text);
	ddbc_json_begin(js, "patterns_without_rate", '[');
	for (size_t i = 0; i < g->npatterns; i++)
		if (c->patterns[i].p && !c->patterns[i].priced)
			ddbc_json_text(js, NULL, g->patterns[i].id.s);
	ddbc_json_end(js, ']');
	ddbc_json_begin(js, "entities_without_count", '[');
	for (size_t i = 0; i < g->nentities; i++)
		if (c->entities[i].e && !g->entities[i].count->set)
			ddbc_json_text(js, NULL, g->entities[i].name.s);
	ddbc_json_end(js, ']');
	ddbc_json_end(js, '}');
}

/* The sparse indexes of e, with the share their writes and storage
 * count: written only for an entity that has one. */
static void json_sparse(ddbc_json_stream *js, const ddbc_entity *e)
{
	static const char *const sources[] = { "all", "present", "examples", "assumed" };
	const ddbc_table *t = e->table;
	if (!e->membership)
		return;
	ddbc_json_begin(js, "sparse", '[');
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_membership *m = ddbc_entity_membership(e, t->indexes[s]);
		if (!m->nby || !e->in_index[s])
			continue;
		ddbc_json_begin(js, NULL, '{');
		ddbc_json_text(js, "index", t->indexes[s]->name.s);
		put_figure(js, "share", m->share);
		ddbc_json_text(js, "from", sources[m->source]);
		ddbc_json_begin(js, "items_having", '[');
		for (uint32_t i = 0; i < m->nby; i++)
			ddbc_json_text(js, NULL, m->by[i]->name.s);
		ddbc_json_end(js, ']');
		ddbc_json_end(js, '}');
	}
	ddbc_json_end(js, ']');
}

static void json_entity(ddbc_json_stream *js, const ddbc_cost_entity *ce)
{
	const ddbc_entity *e = ce->e;
	const ddbc_entity_cap *c = &ce->c;
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "entity", e->name.s);
	ddbc_json_text(js, "table", e->table->name.s);
	ddbc_json_begin(js, "item_bytes", '{');
	put_figure(js, "max", c->size_known ? (double)c->max_bytes : DDBC_UNKNOWN);
	put_figure(js, "mean", c->size_known ? round(c->mean_bytes * 10) / 10 : DDBC_UNKNOWN);
	ddbc_json_int(js, "examples", (long long)c->examples);
	ddbc_json_end(js, '}');
	ddbc_json_figure(js, "count", e->count);
	put_slots(js, "write_units", e->table, c->size_known ? c->write : NULL);
	put_slots(js, "storage_bytes", e->table, c->size_known ? c->storage : NULL);
	json_sparse(js, e);
	ddbc_json_end(js, '}');
}

static void json_pattern(ddbc_json_stream *js, const ddbc_cost_pattern *cp)
{
	const ddbc_pattern *p = cp->p;
	const ddbc_table *t = p->table;
	const ddbc_pattern_cap *c = &cp->c;
	bool read = p->operation <= DDBC_OP_SCAN;
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "pattern", p->id.s);
	ddbc_json_text(js, "operation", api_name(p->operation));
	ddbc_json_text(js, "table", t->name.s);
	ddbc_json_text(js, "index", p->index->kind == DDBC_INDEX_PRIMARY ? NULL : p->index->name.s);
	put_figure(js, "items", c->known || c->declared ? (double)c->items : DDBC_UNKNOWN);
	ddbc_json_text(js, "items_from", !read ? NULL
					 : p->items->set ? "items"
					 : p->limit->set ? "limit"
							 : "examples");
	ddbc_json_figure(js, "limit", p->limit);
	put_figure(js, "requests", c->known ? (double)c->requests : DDBC_UNKNOWN);
	put_figure(js, "bytes", c->known ? round(c->bytes) : DDBC_UNKNOWN);
	ddbc_json_bool(js, "consistent", read && p->consistent_read);
	ddbc_json_bool(js, "fetches_from_table", c->fetches);
	put_slots(js, "read_units", t, c->read);
	put_slots(js, "write_units", t, c->known || read ? c->write : NULL);
	ddbc_json_figure(js, "rate", p->rate);
	if (cp->priced) {
		ddbc_json_begin(js, "monthly_usd", '{');
		put_usd(js, "on_demand", cp->on_demand);
		put_usd(js, "provisioned", cp->provisioned);
		ddbc_json_end(js, '}');
	} else {
		ddbc_json_text(js, "monthly_usd", NULL);
	}
	ddbc_json_end(js, '}');
}

static void json_table(ddbc_json_stream *js, const ddbc_cost_table *ct)
{
	const ddbc_table *t = ct->t;
	bool any = ct->on_demand.any;
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "table", t->name.s);
	ddbc_json_text(js, "table_class", t->table_class ? "standard_ia" : "standard");
	put_figure(js, "storage_bytes",
		   ct->storage >= 0 && t->nentities ? round(ct->storage) : DDBC_UNKNOWN);
	ddbc_json_begin(js, "provisioned_units", '{');
	for (size_t s = 0; s < t->nindexes; s++) {
		if (t->indexes[s]->kind == DDBC_INDEX_LSI)
			continue;
		ddbc_json_begin(js, s ? t->indexes[s]->name.s : "table", '{');
		put_figure(js, "read", any ? ct->rcu[s] : DDBC_UNKNOWN);
		put_figure(js, "write", any ? ct->wcu[s] : DDBC_UNKNOWN);
		ddbc_json_end(js, '}');
	}
	ddbc_json_end(js, '}');
	ddbc_json_begin(js, "monthly_usd", '{');
	put_mode(js, "on_demand", &ct->on_demand);
	put_mode(js, "provisioned", &ct->provisioned);
	ddbc_json_end(js, '}');
	if (ct->nreplicas) {
		ddbc_json_begin(js, "replicas", '[');
		for (size_t i = 0; i < ct->nreplicas; i++) {
			const ddbc_cost_replica *r = &ct->replicas[i];
			ddbc_json_begin(js, NULL, '{');
			ddbc_json_text(js, "region", r->region);
			put_figure(js, "replicated_write_units",
				   r->priced && any ? ct->write_units : DDBC_UNKNOWN);
			if (r->priced) {
				ddbc_json_begin(js, "monthly_usd", '{');
				put_mode(js, "on_demand", &r->on_demand);
				put_mode(js, "provisioned", &r->provisioned);
				ddbc_json_end(js, '}');
			} else {
				ddbc_json_text(js, "monthly_usd", NULL);
			}
			ddbc_json_end(js, '}');
		}
		ddbc_json_end(js, ']');
	}
	ddbc_json_end(js, '}');
}

ddbc_emit_result ddbc_emit_cost_json(FILE *out, const ddbc_cost *c, ddbc_err *err)
{
	const ddbc_design *g = c->g;
	const ddbc_prices *pr = c->prices;
	ddbc_json_stream js;
	ddbc_json_stream_init(&js, out);
	ddbc_json_begin(&js, NULL, '{');
	ddbc_json_text(&js, "design", g->name.s ? g->name.s : "");
	json_assumptions(&js, c);
	ddbc_json_begin(&js, "prices", '{');
	ddbc_json_text(&js, "region", pr->region);
	ddbc_json_text(&js, "date", pr->date);
	ddbc_json_text(&js, "source", pr->source);
	ddbc_json_text(&js, "file", pr->file);
	ddbc_json_end(&js, '}');
	ddbc_json_begin(&js, "entities", '[');
	for (size_t i = 0; i < g->nentities; i++)
		if (c->entities[i].e)
			json_entity(&js, &c->entities[i]);
	ddbc_json_end(&js, ']');
	ddbc_json_begin(&js, "patterns", '[');
	for (size_t i = 0; i < g->npatterns; i++)
		if (c->patterns[i].p)
			json_pattern(&js, &c->patterns[i]);
	ddbc_json_end(&js, ']');
	ddbc_json_begin(&js, "tables", '[');
	for (size_t i = 0; i < g->ntables; i++)
		json_table(&js, &c->tables[i]);
	ddbc_json_end(&js, ']');
	ddbc_json_begin(&js, "monthly_usd", '{');
	put_mode(&js, "on_demand", &c->on_demand);
	put_mode(&js, "provisioned", &c->provisioned);
	ddbc_json_end(&js, '}');
	ddbc_json_end(&js, '}');
	return ddbc_json_stream_finish(&js, err);
}

ddbc_emit_result ddbc_emit_cost(FILE *out, const ddbc_design *g, const ddbc_prices *pr,
				ddbc_cost_format fmt, ddbc_err *err)
{
	ddbc_views *views = ddbc_views_new(g);
	ddbc_cost *c = ddbc_cost_compute(g, pr, views);
	ddbc_emit_result r = fmt == DDBC_COST_JSON ? ddbc_emit_cost_json(out, c, err)
						   : ddbc_emit_cost_text(out, c, fmt == DDBC_COST_MD);
	ddbc_cost_free(c);
	ddbc_views_free(views);
	return r;
}
