/* rules/capacity.c - item-size, index-write-amplification, and the rates
 * part of hot-partition: what the design's sizes and rates say
 * (model/capacity.h) */
#include "rules/checks.h"
#include "rules/check_capacity.h"
#include "model/capacity.h"
#include "model/item_size.h"
#include "model/model.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- item-size ----------------------------------------------------------------------- */

/* 75% of the limit: an item this large leaves little room to grow. */
#define ITEM_SIZE_WARN (DDBC_ITEM_SIZE_MAX / 4 * 3)

static void size_finding(ddbc_diags *d, ddbc_loc loc, const char *what, uint64_t bytes)
{
	if (bytes > DDBC_ITEM_SIZE_MAX) {
		ddbc_diag_add(d, DDBC_RULE_ITEM_SIZE, loc,
			      "%s is %llu bytes, over DynamoDB's item size limit of 400 KB "
			      "(409,600 bytes): DynamoDB refuses to write it; keep large values in "
			      "S3 and their key in the item, or split the item", what,
			      (unsigned long long)bytes);
	} else if (bytes > ITEM_SIZE_WARN) {
		ddbc_diag_add(d, DDBC_RULE_ITEM_SIZE, loc,
			      "%s is %llu bytes, %llu%% of DynamoDB's item size limit of 400 KB "
			      "(409,600 bytes): it has little room to grow, and every read and "
			      "write of it costs %llu units", what, (unsigned long long)bytes,
			      (unsigned long long)(bytes * 100 / DDBC_ITEM_SIZE_MAX),
			      (unsigned long long)((bytes + 1023) / 1024));
		ddbc_diag_lesser(d);
	}
}

void ddbc_check_item_size(const ddbc_design *g, ddbc_diags *d)
{
	char what[256];
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		for (size_t k = 0; k < e->nexamples; k++) {
			/* Words and position only for an item that gets a finding:
			 * snprintf cost a thousand instructions an example. */
			uint64_t bytes = ddbc_item_size(e, e->examples[k]);
			if (bytes <= ITEM_SIZE_WARN)
				continue;
			snprintf(what, sizeof what, "example item %zu of '%s'", k + 1, e->name.s);
			size_finding(d, ddbc_pval_loc(e->examples[k]), what, bytes);
		}
		if (e->item_bytes->set) {
			snprintf(what, sizeof what, "the item_bytes of '%s'", e->name.s);
			size_finding(d, e->item_bytes->loc, what, (uint64_t)e->item_bytes->value);
		}
	}
}

/* ---- index-write-amplification ------------------------------------------------------- */

/* What the patterns reading one index need of its entries: all that it
 * projects (a reader without `returns` gets every projected attribute),
 * or the attributes their `returns` name. */
typedef struct need {
	bool all;
	size_t readers;
	ddbc_name *names;        /* ddbc_xrealloc'd; may repeat a name */
	size_t n, cap;
} need;

typedef struct amp_run {
	const ddbc_design *g;
	ddbc_diags *d;
	ddbc_arena *arena;
	need **needs;            /* per table, per slot */
} amp_run;

static void add_need(need *nd, const ddbc_pattern *p)
{
	nd->readers++;
	if (!p->nreturns)
		nd->all = true;
	for (size_t i = 0; !nd->all && i < p->nreturns; i++) {
		if (!p->returns[i].s)
			continue;
		if (nd->n == nd->cap) {
			nd->cap = nd->cap ? nd->cap * 2 : 8;
			nd->names = ddbc_xrealloc(nd->names, nd->cap * sizeof *nd->names);
		}
		nd->names[nd->n++] = p->returns[i];
	}
}

/* One pass over the patterns: what each index's readers need. */
static void collect_needs(amp_run *run)
{
	const ddbc_design *g = run->g;
	run->needs = ddbc_xcalloc(g->ntables + 1, sizeof *run->needs);
	for (size_t i = 0; i < g->ntables; i++)
		run->needs[i] = ddbc_xcalloc(g->tables[i].nindexes + 1, sizeof(need));
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->table || !p->index || p->operation > DDBC_OP_SCAN)
			continue;
		add_need(&run->needs[p->table - g->tables][p->index->slot], p);
	}
}

static void free_needs(amp_run *run)
{
	for (size_t i = 0; run->needs && i < run->g->ntables; i++) {
		for (size_t s = 0; s < run->g->tables[i].nindexes; s++)
			free(run->needs[i][s].names);
		free(run->needs[i]);
	}
	free(run->needs);
}

static bool is_key(const ddbc_index *ix, const char *name)
{
	return ddbc_index_has_key(ix, name) || ddbc_index_has_key(&ix->table->primary, name);
}

/* The most write units a put of one of e's examples would cost on ix if
 * it projected only what nd needs (the keys and nd's names). */
static double narrow_units(const ddbc_index *ix, const ddbc_entity *e, const need *nd)
{
	double most = 0;
	for (size_t k = 0; k < e->nexamples; k++)
		if (ddbc_index_holds(ix, e->examples[k]))
			most = fmax(most, ddbc_write_units(ddbc_include_entry_size(
						  ix, e, e->examples[k], nd->names, nd->n)));
	return most;
}

/* "keys only (no pattern reads it)", "INCLUDE [title, total]": the
 * narrowest projection that serves nd. */
static void describe_narrow(strbuf *out, const ddbc_index *ix, const need *nd)
{
	size_t listed = 0;
	for (size_t i = 0; i < nd->n; i++) {
		const char *name = nd->names[i].s;
		bool seen = is_key(ix, name);
		for (size_t j = 0; !seen && j < i; j++)
			seen = !strcmp(nd->names[j].s, name);
		if (seen)
			continue;
		ddbc_strbuf_addstr(out, listed++ ? ", " : "INCLUDE [");
		ddbc_strbuf_addstr(out, name);
	}
	if (listed)
		ddbc_strbuf_addstr(out, "]");
	else
		ddbc_strbuf_addstr(out, nd->readers ? "keys only (its readers return only keys)"
					      : "keys only (no pattern reads it)");
}

static bool writes(const ddbc_pattern *p)
{
	return p->operation == DDBC_OP_PUT || p->operation == DDBC_OP_UPDATE ||
	       p->operation == DDBC_OP_DELETE;
}

/* A finding when e's index writes cost more than its table writes and
 * some index projects more than the patterns reading it return: only
 * there does projecting less save a unit. */
static void amplification(amp_run *run, const ddbc_pattern *p, const ddbc_entity *e)
{
	const ddbc_table *t = e->table;
	ddbc_entity_cap c;
	ddbc_entity_capacity(run->arena, e, &c);
	if (!c.size_known || c.write[0] < 0)
		return;
	const need *needs = run->needs[t - run->g->tables];
	double sum = 0, saved = 0;
	strbuf parts = STRBUF_INIT, save = STRBUF_INIT;
	for (size_t s = 1; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		if (c.write[s] <= 0)
			continue;
		sum += c.write[s];
		ddbc_strbuf_addf(&parts, "%s%s %g", parts.len ? ", " : "", ix->name.s, c.write[s]);
		if (needs[s].all)
			continue;
		double less = c.write[s] - narrow_units(ix, e, &needs[s]);
		if (less <= 0)
			continue;
		saved += less;
		ddbc_strbuf_addf(&save, "%s%s %g with ", save.len ? "; " : "", ix->name.s, less);
		describe_narrow(&save, ix, &needs[s]);
	}
	if (sum > c.write[0] && saved > 0)
		ddbc_diag_add(run->d, DDBC_RULE_INDEX_WRITE_AMPLIFICATION, p->rate->loc,
			      "'%s' writes '%s' at %s a second: each write costs %g units on its "
			      "indexes (%s) against %g on table '%s'; projecting only what the "
			      "patterns reading each index return would save %g unit%s a write, "
			      "%g a second: %s", p->id.s, e->name.s, p->rate->text, sum,
			      ddbc_strbuf_str(&parts), c.write[0], t->name.s, saved,
			      saved == 1 ? "" : "s", saved * p->rate->value, ddbc_strbuf_str(&save));
	ddbc_strbuf_release(&parts);
	ddbc_strbuf_release(&save);
}

void ddbc_check_index_write_amplification(const ddbc_design *g, ddbc_diags *d)
{
	amp_run run = { g, d, NULL, NULL };
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->rate->set || !writes(p) || !p->table || p->table->incomplete)
			continue;
		if (!run.arena) {
			run.arena = ddbc_arena_new();
			collect_needs(&run);
		}
		for (size_t k = 0; k < p->nmatched; k++)
			if (p->matched[k]->table == p->table)
				amplification(&run, p, p->matched[k]);
	}
	free_needs(&run);
	ddbc_arena_free(run.arena);
}

/* ---- hot-partition with rates -------------------------------------------------------- */

/* What one partition of an index can serve a second. */
#define PARTITION_READS 3000.0
#define PARTITION_WRITES 1000.0

/* Units a second on the partitions of one index that a key with few
 * values confines an entity's requests to. */
typedef struct hot {
	double read, write;
	bool read_least;             /* some read's units are a lower bound */
	const ddbc_pattern *top;     /* the pattern adding the most */
	double top_units;
} hot;

static void add(hot *h, const ddbc_pattern *p, double units, bool write)
{
	if (write)
		h->write += units;
	else
		h->read += units;
	if (units > h->top_units) {
		h->top_units = units;
		h->top = p;
	}
}

/* What the rates part of hot-partition works with: the design, the index
 * views its reads are evaluated on (built when first needed). */
typedef struct hot_run {
	const ddbc_design *g;
	ddbc_arena *arena;
	ddbc_views *views;
} hot_run;

/* The read units of one request of p on the partitions it reads: those of
 * the example items its request returns (request_rows.h), as `ddbc cost`
 * counts them, a GSI's on the GSI, the rest (an LSI's and its table
 * fetches too) on the table. When the design cannot make the request, at
 * least one 4 KB read (half eventually consistent): *least says so. */
static double read_units(hot_run *run, const ddbc_pattern *p, bool *least)
{
	if (!run->views)
		run->views = ddbc_views_new(run->g);
	ddbc_pattern_cap c;
	*least = !ddbc_pattern_design_capacity(run->arena, run->g, p, run->views, &c) || !c.known;
	if (*least)
		return p->consistent_read && p->index->kind != DDBC_INDEX_GSI ? 1 : 0.5;
	double units = 0;
	for (size_t s = 0; s < p->table->nindexes; s++)
		units += c.read[s];
	return units;
}

/* Adds p's units a second to the hot sums h of entity e (per slot of its
 * table's indexes); a read's units of one request are read (least: a
 * lower bound). */
static void add_pattern(hot_run *run, const ddbc_pattern *p, const ddbc_entity *e, hot *h,
			double read, bool least)
{
	const ddbc_table *t = e->table;
	if (!writes(p)) {
		/* An LSI's partitions are the table's. */
		size_t s = p->index->kind == DDBC_INDEX_LSI ? 0 : p->index->slot;
		add(&h[s], p, p->rate->value * read, false);
		h[s].read_least |= least;
		return;
	}
	ddbc_entity_cap c;
	ddbc_entity_capacity(run->arena, e, &c);
	for (size_t s = 0; c.size_known && s < t->nindexes; s++) {
		size_t to = t->indexes[s]->kind == DDBC_INDEX_LSI ? 0 : s;
		if (c.write[s] > 0)
			add(&h[to], p, p->rate->value * c.write[s], true);
	}
}

static void hot_findings(ddbc_diags *d, const ddbc_entity *e, const hot *h,
			 ddbc_hot_values_fn *values)
{
	const ddbc_table *t = e->table;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		if (!h[s].top || ix->npk != 1 || ix->kind == DDBC_INDEX_LSI)
			continue;
		const ddbc_attr *a = ddbc_entity_attr(e, ix->pk[0].s);
		const char *why;
		size_t n = a ? values(a, &why) : 0;
		if (!n)
			continue;
		double r = h[s].read / (double)n, w = h[s].write / (double)n;
		if (r <= PARTITION_READS && w <= PARTITION_WRITES)
			continue;
		bool wr = w / PARTITION_WRITES >= r / PARTITION_READS;
		ddbc_diag_add(d, DDBC_RULE_HOT_PARTITION, h[s].top->rate->loc,
			      "partition key '%s' of %s '%s' puts the requests on '%s' into %s%zu "
			      "partition%s (%s): %s%.0f %s units a second each, over the %.0f one "
			      "partition serves; patterns such as '%s' are throttled whatever the "
			      "table's capacity: give the key many values (a shard suffix, such as "
			      "'#{shard}')",
			      ix->pk[0].s, ix->kind == DDBC_INDEX_GSI ? "GSI" : "table", ix->name.s,
			      e->name.s, n == 1 ? "" : "at most ", n, n == 1 ? "" : "s", why,
			      wr || !h[s].read_least ? "" : "at least ", wr ? w : r,
			      wr ? "write" : "read",
			      wr ? PARTITION_WRITES : PARTITION_READS, h[s].top->id.s);
	}
}

void ddbc_hot_partition_rates(const ddbc_design *g, ddbc_diags *d, ddbc_hot_values_fn *values)
{
	/* Sums per entity that a rated pattern reaches: one pass over the
	 * patterns, whatever the number of entities. */
	hot **sums = NULL;
	hot_run run = { g, NULL, NULL };
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->rate->set || !p->table || p->table->incomplete ||
		    !p->table->nindexes)
			continue;
		if (!sums) {
			run.arena = ddbc_arena_new();
			sums = ddbc_arena_array(run.arena, g->nentities + 1, sizeof(hot *));
			memset(sums, 0, (g->nentities + 1) * sizeof(hot *));
		}
		/* A read's units once per pattern, whatever it matches. */
		bool least = false;
		double read = writes(p) ? 0 : read_units(&run, p, &least);
		for (size_t k = 0; k < p->nmatched; k++) {
			const ddbc_entity *e = p->matched[k];
			size_t no = (size_t)(e - g->entities);
			if (e->table != p->table)
				continue;
			if (!sums[no]) {
				sums[no] = ddbc_arena_array(run.arena, e->table->nindexes, sizeof(hot));
				memset(sums[no], 0, e->table->nindexes * sizeof(hot));
			}
			add_pattern(&run, p, e, sums[no], read, least);
		}
	}
	for (size_t i = 0; sums && i < g->nentities; i++)
		if (sums[i])
			hot_findings(d, &g->entities[i], sums[i], values);
	ddbc_views_free(run.views);
	ddbc_arena_free(run.arena);
}

/* ---- the load on each index (on-demand-max, warm-throughput) -------------------------- */

static void add_load(ddbc_index_load *l, const ddbc_pattern *p, double units, bool write)
{
	if (write) {
		l->write += units;
		if (units > l->top_write_units) {
			l->top_write_units = units;
			l->top_write = p;
		}
		return;
	}
	l->read += units;
	if (units > l->top_read_units) {
		l->top_read_units = units;
		l->top_read = p;
	}
}

/* A write of p writes one item, of whichever entity it matches: the most
 * units a second any of them costs on each index. */
static void add_write_load(hot_run *run, const ddbc_pattern *p, ddbc_index_load *loads)
{
	const ddbc_table *t = p->table;
	double *most = ddbc_arena_array(run->arena, t->nindexes, sizeof(double));
	memset(most, 0, t->nindexes * sizeof(double));
	for (size_t k = 0; k < p->nmatched; k++) {
		const ddbc_entity *e = p->matched[k];
		if (e->table != t)
			continue;
		ddbc_entity_cap c;
		ddbc_entity_capacity(run->arena, e, &c);
		for (size_t s = 0; c.size_known && s < t->nindexes; s++) {
			size_t to = t->indexes[s]->kind == DDBC_INDEX_LSI ? 0 : s;
			if (c.write[s] > 0)
				most[to] = fmax(most[to], c.write[s]);
		}
	}
	for (size_t s = 0; s < t->nindexes; s++)
		if (most[s] > 0)
			add_load(&loads[s], p, p->rate->value * most[s], true);
}

ddbc_index_load **ddbc_index_loads(const ddbc_design *g, ddbc_arena *arena)
{
	ddbc_index_load **loads = NULL;
	hot_run run = { g, arena, NULL };
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->rate->set || !p->table || p->table->incomplete ||
		    !p->table->nindexes)
			continue;
		if (!loads) {
			loads = ddbc_arena_array(arena, g->ntables + 1, sizeof(*loads));
			memset(loads, 0, (g->ntables + 1) * sizeof(*loads));
		}
		size_t no = (size_t)(p->table - g->tables);
		if (!loads[no]) {
			loads[no] = ddbc_arena_array(arena, p->table->nindexes, sizeof(ddbc_index_load));
			memset(loads[no], 0, p->table->nindexes * sizeof(ddbc_index_load));
		}
		if (writes(p)) {
			add_write_load(&run, p, loads[no]);
			continue;
		}
		bool least = false;
		double read = read_units(&run, p, &least);
		/* An LSI's partitions, and its throughput, are the table's. */
		size_t s = p->index->kind == DDBC_INDEX_LSI ? 0 : p->index->slot;
		add_load(&loads[no][s], p, p->rate->value * read, false);
		loads[no][s].read_least |= least;
	}
	ddbc_views_free(run.views);
	return loads;
}
