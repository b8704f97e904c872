/* rules/capacity.c - item-size, index-write-amplification, and the rates
 * part of hot-partition: what the design's sizes and rates say
 * (model/capacity.h) */
#include "rules/checks.h"
#include "rules/check_capacity.h"
#include "model/capacity.h"
#include "model/item_size.h"
#include "model/model.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
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
			snprintf(what, sizeof what, "example item %zu of '%s'", k + 1, e->name.s);
			size_finding(d, ddbc_pval_loc(e->examples[k]), what,
				     ddbc_item_size(e, e->examples[k]));
		}
		if (e->item_bytes->set) {
			snprintf(what, sizeof what, "the item_bytes of '%s'", e->name.s);
			size_finding(d, e->item_bytes->loc, what, (uint64_t)e->item_bytes->value);
		}
	}
}

/* ---- index-write-amplification ------------------------------------------------------- */

/* The most write units a put of one of e's examples would cost on ix if
 * it projected keys only. */
static double keys_only_units(const ddbc_index *ix, const ddbc_entity *e)
{
	double most = 0;
	for (size_t k = 0; k < e->nexamples; k++)
		if (ddbc_index_holds(ix, e->examples[k]))
			most = fmax(most, ddbc_write_units(ddbc_keys_entry_size(ix, e,
											  e->examples[k])));
	return most;
}

static bool writes(const ddbc_pattern *p)
{
	return p->operation == DDBC_OP_PUT || p->operation == DDBC_OP_UPDATE ||
	       p->operation == DDBC_OP_DELETE;
}

static void amplification(ddbc_diags *d, ddbc_arena *arena, const ddbc_pattern *p,
			  const ddbc_entity *e)
{
	const ddbc_table *t = e->table;
	ddbc_entity_cap c;
	ddbc_entity_capacity(arena, e, &c);
	if (!c.size_known || c.write[0] < 0)
		return;
	double sum = 0, saved = 0;
	strbuf parts = STRBUF_INIT, save = STRBUF_INIT;
	for (size_t s = 1; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		if (c.write[s] <= 0)
			continue;
		sum += c.write[s];
		strbuf_addf(&parts, "%s%s %g", parts.len ? ", " : "", ix->name.s, c.write[s]);
		double keys = ix->projection == DDBC_PROJ_KEYS_ONLY ? c.write[s]
							   : keys_only_units(ix, e);
		if (keys < c.write[s]) {
			saved += c.write[s] - keys;
			strbuf_addf(&save, "%s%s %g", save.len ? ", " : "", ix->name.s,
				    c.write[s] - keys);
		}
	}
	if (sum > c.write[0]) {
		strbuf why = STRBUF_INIT;
		if (saved > 0)
			strbuf_addf(&why, "projecting keys only would save %g unit%s a write (%s), "
					  "%g a second at this rate; an INCLUDE list of what the "
					  "readers return saves part of it", saved,
				    saved == 1 ? "" : "s", strbuf_str(&save), saved * p->rate->value);
		else
			strbuf_addstr(&why, "each index projects keys only already: a sparse "
					    "index (a key attribute that only the items it serves "
					    "set) writes less");
		ddbc_diag_add(d, DDBC_RULE_INDEX_WRITE_AMPLIFICATION, p->rate->loc,
			      "'%s' writes '%s' at %s a second: each write costs %g units on its "
			      "indexes (%s) against %g on table '%s'; %s", p->id.s, e->name.s,
			      p->rate->text, sum, strbuf_str(&parts), c.write[0], t->name.s,
			      strbuf_str(&why));
		strbuf_release(&why);
	}
	strbuf_release(&parts);
	strbuf_release(&save);
}

void ddbc_check_index_write_amplification(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_arena *arena = ddbc_arena_new();
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->rate->set || !writes(p) || !p->table || p->table->incomplete)
			continue;
		for (size_t k = 0; k < p->nmatched; k++)
			amplification(d, arena, p, p->matched[k]);
	}
	ddbc_arena_free(arena);
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
