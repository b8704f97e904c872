/* emit_cost_text.c - the cost report as text or Markdown
 *
 * The same figures as the JSON report (ddbc_cost_compute), in the same
 * order; an unknown figure prints as "unknown".
 */
#include "emit/emit_cost.h"
#include "emit/doc_escape.h"
#include "emit/emit_json.h"
#include "model/semantics.h"
#include "util/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A figure, then unit (printed after "unknown" too). */
static void put_num(FILE *out, double v, const char *unit)
{
	if (v < 0)
		fprintf(out, "unknown%s", unit);
	else if (v == floor(v) && v < 9e15)
		fprintf(out, "%lld%s", (long long)v, unit);
	else
		fprintf(out, "%g%s", v, unit);
}

/* A figure of the design as it wrote it (a rate of 0.1234567 is not 0.123457). */
static void put_written(FILE *out, const ddbc_figure *f, const char *unit)
{
	if (!f->set) {
		put_num(out, DDBC_UNKNOWN, unit);
		return;
	}
	strbuf b = STRBUF_INIT;
	ddbc_figure_text(&b, f);
	fprintf(out, "%s%s", ddbc_strbuf_str(&b), unit);
	ddbc_strbuf_release(&b);
}

static void put_usd(FILE *out, double v)
{
	if (v < 0)
		fputs("unknown", out);
	else
		fprintf(out, "$%.2f", round(v * 10000) / 10000);
}

/* A size for a reader ("8.7 GiB"), or "unknown". */
static void put_size(FILE *out, double bytes)
{
	char buf[64];
	if (bytes < 0) {
		fputs("unknown", out);
		return;
	}
	ddbc_cost_size_text(buf, sizeof buf, round(bytes), "bytes");
	fputs(buf, out);
}

/* A string of an input (the design's names, the price file's date and
 * source) in the output's own escaping: in Markdown inert (a table cell's
 * '|' too), and in either no control character, which would reach the
 * terminal that shows it. */
static void name(FILE *out, const char *s, bool md)
{
	strbuf sb = STRBUF_INIT, plain = STRBUF_INIT;
	if (md)
		ddbc_doc_escape(&sb, s, DDBC_ESC_MD_INLINE_CELL);
	ddbc_doc_escape(&plain, md ? ddbc_strbuf_str(&sb) : s, DDBC_ESC_TEXT);
	fputs(ddbc_strbuf_str(&plain), out);
	ddbc_strbuf_release(&sb);
	ddbc_strbuf_release(&plain);
}

static void md_text(FILE *out, const char *s)
{
	name(out, s, true);
}

/* "1 table, 0.5 GSI1" over the slots of t (v NULL: unknown). */
static void put_slots(FILE *out, const ddbc_table *t, const double *v, bool md)
{
	put_num(out, v ? v[0] : DDBC_UNKNOWN, " table");
	for (size_t s = 1; s < t->nindexes; s++) {
		fputs(", ", out);
		put_num(out, v ? v[s] : DDBC_UNKNOWN, "");
		fputs(" ", out);
		name(out, t->indexes[s]->name.s, md);
	}
}

/* "1.2 MiB table, 300.0 KiB GSI1" over the slots of t (v NULL: unknown). */
static void put_size_slots(FILE *out, const ddbc_table *t, const double *v, bool md)
{
	for (size_t s = 0; s < t->nindexes; s++) {
		fputs(s ? ", " : "", out);
		put_size(out, v ? v[s] : DDBC_UNKNOWN);
		fputs(" ", out);
		name(out, s ? t->indexes[s]->name.s : "table", md);
	}
}

/* "$3.45 (reads $1.00, writes $2.00, storage $0.45)"; a part the design
 * does not give says why: reads and writes without a priced pattern are
 * "not priced" (no rate), storage without every count "unknown". */
static void put_mode(FILE *out, const ddbc_cost_mode *m)
{
	put_usd(out, ddbc_cost_total(m));
	fputs(" (reads ", out);
	if (m->any)
		put_usd(out, m->read);
	else
		fputs("not priced", out);
	fputs(", writes ", out);
	if (m->any)
		put_usd(out, m->write);
	else
		fputs("not priced", out);
	fputs(", storage ", out);
	put_usd(out, m->storage_known ? m->storage : DDBC_UNKNOWN);
	fputs(")", out);
}

/* The share of e's items that each sparse index of e holds, and how it
 * is known: nothing for an entity in every index whole. */
static void text_sparse(FILE *out, const ddbc_entity *e, bool md)
{
	const ddbc_table *t = e->table;
	for (size_t s = 0; e->membership && s < t->nindexes; s++) {
		const ddbc_membership *m = ddbc_entity_membership(e, t->indexes[s]);
		if (!m->nby || !e->in_index[s])
			continue;
		strbuf words = STRBUF_INIT;
		ddbc_strbuf_addf(&words, "; %s holds %.4g%% of the items (", t->indexes[s]->name.s,
			    m->share * 100);
		ddbc_cost_share_words(e, s, &words);
		ddbc_strbuf_addstr(&words, ")");
		name(out, words.buf, md);
		ddbc_strbuf_release(&words);
	}
}

static void text_entities(FILE *out, const ddbc_cost *c, bool md)
{
	fputs(md ? "\n## Entities\n\n| Entity | Table | Item size (largest, mean) | Examples | "
		   "Units of one put | Count | Storage |\n|---|---|---|---|---|---|---|\n"
		 : "\nentities (units of one put of the largest item):\n", out);
	for (size_t i = 0; i < c->g->nentities; i++) {
		const ddbc_cost_entity *ce = &c->entities[i];
		if (!ce->e)
			continue;
		const ddbc_entity *e = ce->e;
		const ddbc_entity_cap *cap = &ce->c;
		fputs(md ? "| " : "  ", out);
		name(out, e->name.s, md);
		fputs(md ? " | " : " (", out);
		name(out, e->table->name.s, md);
		fputs(md ? " | " : "): ", out);
		if (cap->size_known) {
			fputs(md ? "" : "largest item ", out);
			put_size(out, (double)cap->max_bytes);
			fputs(md ? ", " : ", mean ", out);
			put_size(out, cap->mean_bytes);
		} else {
			fputs(md ? "unknown (add examples or item_bytes)"
				 : "item size unknown (add examples or item_bytes:)", out);
		}
		fprintf(out, md ? " | %zu | " : ", %zu example%s; write units ", cap->examples,
			cap->examples == 1 ? "" : "s");
		put_slots(out, e->table, cap->size_known ? cap->write : NULL, md);
		fputs(md ? " | " : "; count ", out);
		if (e->count->set)
			put_written(out, e->count, "");
		else
			fputs("not given", out);
		fputs(md ? " | " : "; storage ", out);
		if (!e->count->set || !cap->size_known)
			fputs("unknown", out);
		else
			put_size_slots(out, e->table, cap->storage, md);
		text_sparse(out, e, md);
		fputs(md ? " |\n" : "\n", out);
	}
}

/* "100 items in 4 requests (limit 25)", "1 item", "unknown items". */
static void put_items(FILE *out, const ddbc_cost_pattern *cp, bool md)
{
	const ddbc_pattern_cap *c = &cp->c;
	const ddbc_pattern *p = cp->p;
	if (!c->known && !c->declared) {
		fputs(md ? "unknown | unknown" : "items unknown", out);
		return;
	}
	/* A use's items are known, their size is not: its requests neither. */
	fprintf(out, "%zu%s", c->items, md ? "" : c->items == 1 ? " item" : " items");
	if (!md && c->known && c->requests > 1)
		fprintf(out, " in %zu requests", c->requests);
	if (p->limit->set) {
		fputs(" (limit ", out);
		put_written(out, p->limit, ")");
	}
	if (md) {
		fputs(" | ", out);
		put_num(out, c->known ? (double)c->requests : DDBC_UNKNOWN, "");
	}
}

static const char *api_name(ddbc_operation op)
{
	static const char *const names[] = { "GetItem", "Query", "Scan", "PutItem", "UpdateItem",
					     "DeleteItem" };
	return names[op];
}

static void text_patterns(FILE *out, const ddbc_cost *c, bool md)
{
	fputs(md ? "\n## Access patterns\n\n| Pattern | Operation | Index | Items | Requests | "
		   "Size | Read units | Write units | Rate (/s) | On-demand a month | "
		   "Provisioned a month |\n|---|---|---|---|---|---|---|---|---|---|---|\n"
		 : "\naccess patterns (units of one use, over every request it makes):\n", out);
	for (size_t i = 0; i < c->g->npatterns; i++) {
		const ddbc_cost_pattern *cp = &c->patterns[i];
		if (!cp->p)
			continue;
		const ddbc_pattern *p = cp->p;
		const ddbc_table *t = p->table;
		bool named = p->index->kind != DDBC_INDEX_PRIMARY;
		bool read = p->operation <= DDBC_OP_SCAN;
		if (md) {
			fputs("| ", out);
			md_text(out, p->id.s);
			fprintf(out, " | %s | ", api_name(p->operation));
			md_text(out, named ? p->index->name.s : t->name.s);
			fputs(" | ", out);
		} else {
			fputs("  ", out);
			name(out, p->id.s, false);
			fprintf(out, ": %s ", api_name(p->operation));
			name(out, t->name.s, false);
			if (named) {
				fputs(".", out);
				name(out, p->index->name.s, false);
			}
			fputs(", ", out);
		}
		put_items(out, cp, md);
		fputs(md ? " | " : ", ", out);
		if (md || cp->c.known)
			put_size(out, cp->c.known ? cp->c.bytes : DDBC_UNKNOWN);
		else
			fputs("size unknown (add examples or item_bytes:)", out);
		fputs(md ? " | " : read ? "; read units " : "; write units ", out);
		if (md || read)
			put_slots(out, t, cp->c.read, md);
		if (md)
			fputs(" | ", out);
		if (md || !read)
			put_slots(out, t, cp->c.known || read ? cp->c.write : NULL, md);
		if (md) {
			fputs(" | ", out);
			if (p->rate->set)
				put_written(out, p->rate, "");
			else
				fputs("not given", out);
			fputs(" | ", out);
			put_usd(out, cp->priced ? cp->on_demand : DDBC_UNKNOWN);
			fputs(" | ", out);
			put_usd(out, cp->priced ? cp->provisioned : DDBC_UNKNOWN);
			fputs(" |\n", out);
			continue;
		}
		if (!p->rate->set) {
			fputs("; rate not given (add rate: to price it)\n", out);
			continue;
		}
		fputs("; at ", out);
		put_written(out, p->rate, " a second: on-demand ");
		put_usd(out, cp->priced ? cp->on_demand : DDBC_UNKNOWN);
		fputs(", provisioned ", out);
		put_usd(out, cp->priced ? cp->provisioned : DDBC_UNKNOWN);
		fputs(" a month\n", out);
	}
}

/* A row (md) or line per replica Region, after its table's, whose month
 * it is part of: replicated writes and a copy of the storage. */
static void text_replicas(FILE *out, const ddbc_cost_table *ct, bool md)
{
	for (size_t i = 0; i < ct->nreplicas; i++) {
		const ddbc_cost_replica *r = &ct->replicas[i];
		if (md)
			fprintf(out, "| ↳ replica %s | | ", r->region);
		else
			fprintf(out, "    replica %s: ", r->region);
		if (!r->priced) {
			fprintf(out, md ? "no prices for %s | unknown | unknown |\n"
				   : "unknown (no prices for %s; give them with --prices FILE)\n",
				r->region);
			continue;
		}
		put_size(out, r->on_demand.storage_known ? ct->storage : DDBC_UNKNOWN);
		fputs(md ? " | " : " stored; on-demand ", out);
		put_mode(out, &r->on_demand);
		fputs(md ? " | " : "; provisioned ", out);
		put_mode(out, &r->provisioned);
		fputs(md ? " |\n" : " (replicated writes and storage)\n", out);
	}
}

static void text_tables(FILE *out, const ddbc_cost *c, bool md)
{
	fputs(md ? "\n## Tables, a month\n\n| Table | Class | Storage | On-demand | "
		   "Provisioned |\n|---|---|---|---|---|\n"
		 : "\ntables, a month:\n", out);
	for (size_t i = 0; i < c->g->ntables; i++) {
		const ddbc_cost_table *ct = &c->tables[i];
		const ddbc_table *t = ct->t;
		const char *cls = t->table_class ? "standard_ia" : "standard";
		if (md) {
			fputs("| ", out);
			md_text(out, t->name.s);
			fprintf(out, " | %s | ", cls);
		} else {
			fputs("  ", out);
			name(out, t->name.s, false);
			fprintf(out, " (%s): storage ", cls);
		}
		put_size(out, ct->storage >= 0 && t->nentities ? ct->storage : DDBC_UNKNOWN);
		fputs(md ? " | " : "; on-demand ", out);
		put_mode(out, &ct->on_demand);
		fputs(md ? " | " : "; provisioned ", out);
		put_mode(out, &ct->provisioned);
		fputs(md ? " |\n" : "\n", out);
		text_replicas(out, ct, md);
	}
}

static void names_list(FILE *out, const ddbc_cost *c, bool patterns, bool md)
{
	const ddbc_design *g = c->g;
	size_t n = 0;
	for (size_t i = 0; i < (patterns ? g->npatterns : g->nentities); i++) {
		bool listed = patterns ? c->patterns[i].p && !c->patterns[i].priced
				       : c->entities[i].e && !g->entities[i].count->set;
		if (!listed)
			continue;
		fputs(n++ ? ", " : "", out);
		name(out, patterns ? g->patterns[i].id.s : g->entities[i].name.s, md);
	}
	if (!n)
		fputs("none", out);
}

ddbc_emit_result ddbc_emit_cost_text(FILE *out, const ddbc_cost *c, bool md)
{
	const ddbc_prices *pr = c->prices;
	const char *design = c->g->name.s ? c->g->name.s : "";
	if (md) {
		fputs("# Capacity and cost: ", out);
		md_text(out, design);
		fputs("\n\n", out);
	} else {
		name(out, design, false);
		fputs(": capacity and cost\n", out);
	}
	/* The price file's strings are input like the design's. */
	fputs(md ? "- prices: " : "prices: ", out);
	name(out, pr->region, md);
	fputs(", ", out);
	name(out, pr->date, md);
	fputs(", from ", out);
	name(out, pr->source, md);
	if (pr->file) {
		fputs(" in ", out);
		name(out, pr->file, md);
	}
	fputs("\n", out);
	fprintf(out, "%sa month is 2592000 s (30 days); a GB is 2^30 bytes\n", md ? "- " : "");
	for (size_t i = 0; i < ddbc_cost_nassumptions; i++)
		fprintf(out, "%s%s\n", md ? "- " : "", ddbc_cost_assumptions[i].text);
	fputs(md ? "- patterns without a rate (not priced; add `rate:`): "
		 : "patterns without a rate (not priced; add rate:): ", out);
	names_list(out, c, true, md);
	fputs(md ? "\n- entities without a count (storage unknown; add `count:`): "
		 : "\nentities without a count (storage unknown; add count:): ", out);
	names_list(out, c, false, md);
	fputs("\n", out);
	text_entities(out, c, md);
	text_patterns(out, c, md);
	text_tables(out, c, md);
	fputs(md ? "\n**Total a month:** on-demand " : "\ntotal a month: on-demand ", out);
	put_mode(out, &c->on_demand);
	fputs("; provisioned ", out);
	put_mode(out, &c->provisioned);
	fputs("\n", out);
	/* A write error is the output's to say, with its reason (util/output.h). */
	return DDBC_EMIT_OK;
}
