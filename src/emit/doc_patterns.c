/* doc_patterns.c - the access patterns: their table, then each pattern with
 * its request and the example items it returns */
#include "emit/doc_capacity.h"
#include "emit/doc_request.h"
#include "emit/doc_views.h"
#include "emit/doc_writer.h"

/* ---- access patterns ------------------------------------------------------------------- */

static const char *api_name(ddbc_operation op)
{
	static const char *const names[] = { "GetItem", "Query", "Scan", "PutItem", "UpdateItem",
					     "DeleteItem" };
	return names[op];
}

/* "GSI1PK = `X` AND begins_with(GSI1SK, `Y`)", as a KeyConditionExpression reads. */
static void put_key_condition(writer *w, const ddbc_pattern *p)
{
	static const char *const ops[] = { "=", "<", "<=", ">", ">=" };
	if (!p->nconds) {
		words(w, w->L->no_key);
		return;
	}
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		if (i)
			words(w, " AND ");
		if (c->op == DDBC_COND_BEGINS_WITH) {
			text(w, "begins_with(");
			text(w, c->attr.s);
			words(w, ", ");
			scalar_code(w, c->nvalues ? c->values[0] : NULL);
			words(w, ")");
			continue;
		}
		text(w, c->attr.s);
		if (c->op == DDBC_COND_BETWEEN) {
			words(w, " BETWEEN ");
			scalar_code(w, c->nvalues > 0 ? c->values[0] : NULL);
			words(w, " AND ");
			scalar_code(w, c->nvalues > 1 ? c->values[1] : NULL);
			continue;
		}
		words(w, " ");
		text(w, ops[c->op]);
		words(w, " ");
		scalar_code(w, c->nvalues ? c->values[0] : NULL);
	}
}

/* The table, or "GSI1", with the table's name when the design has several. */
static void put_index(writer *w, const ddbc_pattern *p)
{
	if (!p->table) {
		text(w, p->index_ref.s);
		return;
	}
	const ddbc_index *ix = p->index;
	if (!ix || ix->kind == DDBC_INDEX_PRIMARY) {
		if (w->g->ntables > 1)
			text(w, p->table->name.s);
		else
			words(w, w->L->base_table);
		return;
	}
	text(w, ix->name.s);
	if (w->g->ntables > 1) {
		words(w, w->L->open);
		text(w, p->table->name.s);
		words(w, w->L->close);
	}
}

/* The entities the key condition returns (derived), linked. */
static void put_pattern_entities(writer *w, const ddbc_pattern *p)
{
	if (!p->analysed) {
		for (size_t i = 0; i < p->nentities; i++) {
			if (i)
				words(w, w->L->sep);
			text(w, p->entities[i].s);
		}
		return;
	}
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_entity *e = p->matched[i];
		if (i)
			words(w, w->L->sep);
		link_to(w, e->table);
		link(w, NULL, e->name.s, w->id.entity[entity_no(w, e)]);
	}
}

static void pattern_row(writer *w, size_t no, const ddbc_pattern *p)
{
	w->be->row(w->o);
	cell(w);
	ddbc_doc_wordsf(w, "%zu", no + 1);
	cell_end(w);
	cell(w);
	link_to(w, p->table);
	link(w, NULL, p->id.s, w->id.pattern[no]);
	if (p->description) {
		words(w, ": ");
		w->be->span(w->o, p->description, DDBC_SPAN_MARKDOWN);
	}
	cell_end(w);
	cell(w);
	words(w, api_name(p->operation));
	cell_end(w);
	cell(w);
	put_index(w, p);
	cell_end(w);
	cell(w);
	put_key_condition(w, p);
	cell_end(w);
	cell(w);
	put_pattern_entities(w, p);
	cell_end(w);
	row_end(w);
}

static void pattern_extras(writer *w, const ddbc_pattern *p)
{
	const ddbc_doc_labels *L = w->L;
	if (p->order) {
		labelled_item(w, L->d_order);
		ddbc_doc_wordsf(w, "%s (ScanIndexForward = %s)", p->order > 0 ? L->asc : L->desc,
		       p->order > 0 ? "true" : "false");
	}
	if (p->consistent_read) {
		labelled_item(w, L->d_consistent);
		words(w, L->yes);
	}
	if (p->nreturns) {
		labelled_item(w, L->d_returns);
		for (size_t i = 0; i < p->nreturns; i++) {
			if (i)
				words(w, ", ");
			code(w, p->returns[i].s);
		}
	}
	if (p->condition) {
		labelled_item(w, L->d_condition);
		code(w, p->condition);
	}
}

static void pattern_params(writer *w, const ddbc_pattern *p)
{
	const ddbc_pval *ex = p->example;
	if (!ex || ddbc_pval_kind(ex) != DDBC_NODE_MAP || !ddbc_pval_n(ex))
		return;
	labelled_item(w, w->L->d_params);
	ddbc_pval_iter it = ddbc_pval_members(ex);
	const ddbc_pval *key, *value;
	for (size_t i = 0; ddbc_pval_pair(&it, &key, &value); i++) {
		if (i)
			words(w, ", ");
		pval_code(w, key);
		words(w, " = ");
		pval_code(w, value);
	}
}

static void write_pattern(writer *w, size_t no, const ddbc_pattern *p)
{
	const ddbc_doc_labels *L = w->L;
	named_heading(w, 3, DDBC_DOC_PATTERN, w->id.pattern[no], L->pattern, p->id.s);
	paragraph(w, p->description);
	if (p->table) {
		labelled_item(w, L->d_table);
		link_to(w, p->table);
		link(w, NULL, p->table->name.s, w->id.table[table_no(w, p->table)]);
	}
	labelled_item(w, L->d_index);
	put_index(w, p);
	labelled_item(w, L->d_operation);
	words(w, api_name(p->operation));
	labelled_item(w, L->d_key);
	put_key_condition(w, p);
	pattern_extras(w, p);
	labelled_item(w, L->d_entities);
	put_pattern_entities(w, p);
	pattern_params(w, p);
	ddbc_doc_pattern_capacity(w, p);
	w->be->list_end(w->o);
	flush(w);
	ddbc_view_out v = view_out(w);
	ddbc_doc_pattern_request(&v, w->g, p);
}

/* Whether this page lists pattern p: a single page all, a table's page
 * its own; a site's index page none (it stays small however many
 * patterns a design has: each table's page lists its own). */
static bool lists(const writer *w, const ddbc_pattern *p)
{
	return !w->page || (w->page->table && w->page->table == p->table);
}

void ddbc_doc_write_patterns(writer *w)
{
	const ddbc_design *g = w->g;
	size_t n = 0;
	for (size_t i = 0; i < g->npatterns; i++)
		n += lists(w, &g->patterns[i]);
	if (!n)
		return;
	plain_heading(w, 2, DDBC_DOC_PATTERNS, w->id.patterns, w->L->patterns);
	table_header(w, DDBC_DOC_PATTERN_TABLE, w->L->pattern_cols, 6);
	for (size_t i = 0; i < g->npatterns; i++)
		if (lists(w, &g->patterns[i]))
			pattern_row(w, i, &g->patterns[i]);
	w->be->table_end(w->o);
	for (size_t i = 0; i < g->npatterns; i++)
		if (lists(w, &g->patterns[i]))
			write_pattern(w, i, &g->patterns[i]);
}

