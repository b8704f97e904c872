/* emit_cost.c - `ddbc cost`: capacity and money of every access pattern
 *
 * The report is built once as JSON (the shape of SPEC 7.4) and written as
 * JSON, text or Markdown from it, so the three never disagree. A figure
 * the design cannot give is null ("unknown" in text), never a guess.
 */
#include "emit/emit_cost.h"
#include "emit/cost_items.h"
#include "model/capacity.h"
#include "util/strbuf.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MONTH_SECONDS 2592000.0
#define MONTH_HOURS 720.0
#define GB 1073741824.0

/* A figure: an integer when it is one, null when unknown. */
static json_t *figure(double v)
{
	if (v < 0)
		return json_null();
	if (v == floor(v) && v < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

/* Dollars, to a hundredth of a cent. */
static json_t *usd(double v)
{
	return v < 0 ? json_null() : json_real(round(v * 10000) / 10000);
}

/* {"table": U, "indexes": {NAME: U}} over the slots of t. */
static json_t *per_slot(const ddbc_table *t, const double *v)
{
	json_t *o = json_object(), *ix = json_object();
	json_object_set_new(o, "table", figure(v ? v[0] : DDBC_UNKNOWN));
	for (size_t s = 1; s < t->nindexes; s++)
		json_object_set_new(ix, t->indexes[s]->name.s, figure(v ? v[s] : DDBC_UNKNOWN));
	json_object_set_new(o, "indexes", ix);
	return o;
}

/* What one table's month adds up to, per billing mode. */
typedef struct month {
	double od_read, od_write;        /* request units a month */
	double *prov_read, *prov_write;  /* units per second, per slot */
	double storage;                  /* bytes */
	bool storage_known, any_rate;
} month;

static json_t *entity_json(ddbc_arena *arena, const ddbc_entity *e, month *m)
{
	const ddbc_table *t = e->table;
	ddbc_entity_cap c;
	ddbc_entity_capacity(arena, e, &c);
	json_t *o = json_object();
	json_object_set_new(o, "entity", json_string(e->name.s));
	json_object_set_new(o, "table", json_string(t->name.s));
	json_t *b = json_object();
	json_object_set_new(b, "max", c.size_known ? figure((double)c.max_bytes) : json_null());
	json_object_set_new(b, "mean", c.size_known ? figure(round(c.mean_bytes * 10) / 10)
						    : json_null());
	json_object_set_new(b, "examples", json_integer((json_int_t)c.examples));
	json_object_set_new(o, "item_bytes", b);
	json_object_set_new(o, "count", e->count.set ? figure(e->count.value) : json_null());
	json_object_set_new(o, "write_units", per_slot(t, c.size_known ? c.write : NULL));
	json_object_set_new(o, "storage_bytes", per_slot(t, c.size_known ? c.storage : NULL));
	for (size_t s = 0; s < t->nindexes; s++) {
		if (!c.size_known || c.storage[s] < 0)
			m->storage_known = false;
		else
			m->storage += c.storage[s];
	}
	return o;
}

static const char *api_name(ddbc_operation op)
{
	static const char *const names[] = { "GetItem", "Query", "Scan", "PutItem", "UpdateItem",
					     "DeleteItem" };
	return names[op];
}

/* Adds one pattern's month to its table's; returns its own on-demand and
 * provisioned dollars. */
static void add_month(const ddbc_pattern *p, const ddbc_pattern_cap *c, const ddbc_prices *pr,
		      month *m, double *od, double *prov)
{
	const ddbc_table *t = p->table;
	const ddbc_class_prices *cp = &pr->cls[t->table_class];
	double req = p->rate.value * MONTH_SECONDS, r = 0, w = 0, pr_cost = 0;
	for (size_t s = 0; s < t->nindexes; s++) {
		/* An LSI's units are the table's capacity. */
		size_t slot = t->indexes[s]->kind == DDBC_INDEX_LSI ? 0 : s;
		r += c->read[s];
		w += c->write[s];
		m->prov_read[slot] += c->read[s] * p->rate.value;
		m->prov_write[slot] += c->write[s] * p->rate.value;
		pr_cost += (c->read[s] * cp->rcu_hour + c->write[s] * cp->wcu_hour) * p->rate.value *
			   MONTH_HOURS;
	}
	m->od_read += r * req;
	m->od_write += w * req;
	m->any_rate = true;
	*od = (r * cp->read_request_million + w * cp->write_request_million) * req / 1e6;
	*prov = pr_cost;
}

static json_t *pattern_json(ddbc_arena *arena, ddbc_views *views, const ddbc_design *g,
			    const ddbc_pattern *p, const ddbc_prices *pr, month *m, json_t *unrated)
{
	const ddbc_table *t = p->table;
	ddbc_cap_item *items;
	size_t n = ddbc_cost_items(arena, views, g, p, &items);
	ddbc_pattern_cap c;
	ddbc_pattern_capacity(arena, p, items, n, &c);
	free(items);
	json_t *o = json_object();
	json_object_set_new(o, "pattern", json_string(p->id.s));
	json_object_set_new(o, "operation", json_string(api_name(p->operation)));
	json_object_set_new(o, "table", json_string(t->name.s));
	json_object_set_new(o, "index", p->index->kind == DDBC_INDEX_PRIMARY
					    ? json_null() : json_string(p->index->name.s));
	json_object_set_new(o, "items", c.known ? json_integer((json_int_t)c.items) : json_null());
	json_object_set_new(o, "bytes", c.known ? figure((double)c.bytes) : json_null());
	bool read = p->operation <= DDBC_OP_SCAN;
	json_object_set_new(o, "consistent", json_boolean(read && p->consistent_read));
	json_object_set_new(o, "fetches_from_table", json_boolean(c.fetches));
	json_object_set_new(o, "read_units", per_slot(t, c.read));
	json_object_set_new(o, "write_units", per_slot(t, c.known || read ? c.write : NULL));
	json_object_set_new(o, "rate", p->rate.set ? figure(p->rate.value) : json_null());
	bool priced = p->rate.set && c.known;
	for (size_t s = 0; priced && s < t->nindexes; s++)
		priced = c.read[s] >= 0 && c.write[s] >= 0;
	if (!priced) {
		json_object_set_new(o, "monthly_usd", json_null());
		json_array_append_new(unrated, json_string(p->id.s));
		return o;
	}
	double od, prov;
	add_month(p, &c, pr, m, &od, &prov);
	json_t *money = json_object();
	json_object_set_new(money, "on_demand", usd(od));
	json_object_set_new(money, "provisioned", usd(prov));
	json_object_set_new(o, "monthly_usd", money);
	return o;
}

/* A table's month: {"reads", "writes", "storage", "total"} per mode. */
typedef struct totals {
	double read, write, storage;
	bool storage_known, any;
} totals;

static json_t *mode_json(const totals *x)
{
	json_t *o = json_object();
	double storage = x->storage_known ? x->storage : DDBC_UNKNOWN;
	json_object_set_new(o, "reads", usd(x->any ? x->read : DDBC_UNKNOWN));
	json_object_set_new(o, "writes", usd(x->any ? x->write : DDBC_UNKNOWN));
	json_object_set_new(o, "storage", usd(storage));
	/* A total with a part unknown is unknown. */
	json_object_set_new(o, "total", usd(x->any && x->storage_known
						? x->read + x->write + storage : DDBC_UNKNOWN));
	return o;
}

static json_t *table_json(const ddbc_table *t, const month *m, const ddbc_prices *pr,
			  totals *od_all, totals *prov_all)
{
	const ddbc_class_prices *cp = &pr->cls[t->table_class];
	totals od = { m->od_read * cp->read_request_million / 1e6,
		      m->od_write * cp->write_request_million / 1e6,
		      m->storage / GB * cp->storage_gb_month, m->storage_known && t->nentities,
		      m->any_rate };
	totals prov = od;
	prov.read = prov.write = 0;
	json_t *cap = json_object();
	for (size_t s = 0; s < t->nindexes; s++) {
		if (t->indexes[s]->kind == DDBC_INDEX_LSI)
			continue;
		/* Provisioned capacity is whole units, at least one each. */
		double rcu = fmax(1, ceil(m->prov_read[s])), wcu = fmax(1, ceil(m->prov_write[s]));
		prov.read += rcu * cp->rcu_hour * MONTH_HOURS;
		prov.write += wcu * cp->wcu_hour * MONTH_HOURS;
		json_t *u = json_object();
		json_object_set_new(u, "read", m->any_rate ? figure(rcu) : json_null());
		json_object_set_new(u, "write", m->any_rate ? figure(wcu) : json_null());
		json_object_set_new(cap, s ? t->indexes[s]->name.s : "table", u);
	}
	json_t *o = json_object();
	json_object_set_new(o, "table", json_string(t->name.s));
	json_object_set_new(o, "table_class", json_string(t->table_class ? "standard_ia"
									  : "standard"));
	json_object_set_new(o, "storage_bytes", m->storage_known && t->nentities
						    ? figure(round(m->storage)) : json_null());
	json_object_set_new(o, "provisioned_units", cap);
	json_t *money = json_object();
	json_object_set_new(money, "on_demand", mode_json(&od));
	json_object_set_new(money, "provisioned", mode_json(&prov));
	json_object_set_new(o, "monthly_usd", money);
	totals *all[2] = { od_all, prov_all }, *one[2] = { &od, &prov };
	for (int k = 0; k < 2; k++) {
		if (one[k]->any) {
			all[k]->any = true;
			all[k]->read += one[k]->read;
			all[k]->write += one[k]->write;
		}
		if (one[k]->storage_known)
			all[k]->storage += one[k]->storage;
		else
			all[k]->storage_known = false;
	}
	return o;
}

static json_t *assumptions(json_t *unrated, json_t *uncounted)
{
	json_t *a = json_object();
	json_object_set_new(a, "month_seconds", json_integer((json_int_t)MONTH_SECONDS));
	json_object_set_new(a, "gb_bytes", json_integer((json_int_t)GB));
	json_object_set_new(a, "item_size", json_string(
		"DynamoDB's rules over each entity's example items (names and Strings in UTF-8 "
		"bytes, Numbers by significant digits); item_bytes where an entity has none"));
	json_object_set_new(a, "items_read", json_string(
		"a read returns the example items its request selects, as the documentation "
		"shows them; a get that selects none still reads one 4 KB unit"));
	json_object_set_new(a, "consistency", json_string(
		"reads are eventually consistent (half a unit per 4 KB) unless the pattern sets "
		"consistent_read; GSI reads always are"));
	json_object_set_new(a, "writes", json_string(
		"a put writes a new item, a delete removes one, an update rewrites the item "
		"without changing an index key; each index that holds the item writes its entry"));
	json_object_set_new(a, "storage", json_string(
		"each item and index entry plus 100 bytes, count items in the proportions of the "
		"examples"));
	json_object_set_new(a, "provisioned", json_string(
		"the average rate in whole units per table and GSI (at least 1), no headroom, no "
		"auto scaling, no reserved capacity; LSIs use the table's"));
	json_object_set_new(a, "not_included", json_string(
		"free tier, backups, streams, global tables, data transfer, transactions"));
	json_object_set_new(a, "patterns_without_rate", unrated);
	json_object_set_new(a, "entities_without_count", uncounted);
	return a;
}

json_t *ddbc_cost_report(const ddbc_design *g, const ddbc_prices *pr)
{
	ddbc_views *views = ddbc_views_new(g);
	json_t *r = ddbc_cost_report_views(g, pr, views);
	ddbc_views_free(views);
	return r;
}

json_t *ddbc_cost_report_views(const ddbc_design *g, const ddbc_prices *pr, ddbc_views *views)
{
	ddbc_arena *arena = ddbc_arena_new();
	month *months = calloc(g->ntables + 1, sizeof *months);
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		months[i].prov_read = ddbc_arena_array(arena, t->nindexes + 1, sizeof(double));
		months[i].prov_write = ddbc_arena_array(arena, t->nindexes + 1, sizeof(double));
		months[i].storage_known = true;
	}
	json_t *unrated = json_array(), *uncounted = json_array();
	json_t *ents = json_array(), *pats = json_array(), *tabs = json_array();
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		if (!e->table)
			continue;
		json_array_append_new(ents, entity_json(arena, e, &months[e->table - g->tables]));
		if (!e->count.set)
			json_array_append_new(uncounted, json_string(e->name.s));
	}
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (p->analysed && p->table && p->index)
			json_array_append_new(pats, pattern_json(arena, views, g, p, pr,
								 &months[p->table - g->tables],
								 unrated));
	}
	totals od = { 0, 0, 0, true, false }, prov = od;
	for (size_t i = 0; i < g->ntables; i++)
		json_array_append_new(tabs, table_json(&g->tables[i], &months[i], pr, &od, &prov));
	json_t *r = json_object();
	json_object_set_new(r, "design", json_string(g->name.s ? g->name.s : ""));
	json_object_set_new(r, "assumptions", assumptions(unrated, uncounted));
	json_t *prices = json_object();
	json_object_set_new(prices, "region", json_string(pr->region));
	json_object_set_new(prices, "date", json_string(pr->date));
	json_object_set_new(prices, "source", json_string(pr->source));
	json_object_set_new(prices, "file", pr->file ? json_string(pr->file) : json_null());
	json_object_set_new(r, "prices", prices);
	json_object_set_new(r, "entities", ents);
	json_object_set_new(r, "patterns", pats);
	json_object_set_new(r, "tables", tabs);
	json_t *money = json_object();
	json_object_set_new(money, "on_demand", mode_json(&od));
	json_object_set_new(money, "provisioned", mode_json(&prov));
	json_object_set_new(r, "monthly_usd", money);
	free(months);
	ddbc_arena_free(arena);
	return r;
}
