/* doc_request.c - an access pattern's request and the items it returns */
#include "emit/doc_request.h"
#include "diag/diag.h"
#include "emit/emit.h"
#include "model/request_rows.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- which partitions to show --------------------------------------------------------- */

/* Whether items a and b of the view hold the same partition key, byte for byte. */
static bool same_partition(const ddbc_view *view, const ddbc_index *ix, size_t a, size_t b)
{
	for (size_t i = 0; i < ix->npk; i++) {
		if (!ddbc_pval_same_text(ddbc_view_key(view, a, i), ddbc_view_key(view, b, i)))
			return false;
	}
	return true;
}

/* Keeps the partitions of rows that hold a returned item, in order;
 * returns how many rows are left. */
static size_t keep_partitions(const ddbc_view *view, const ddbc_index *ix, size_t *rows,
			      bool *hit, size_t n)
{
	size_t kept = 0;
	for (size_t i = 0, end; i < n; i = end) {
		bool any = false;
		for (end = i; end < n && same_partition(view, ix, rows[i], rows[end]); end++)
			any |= hit[end];
		if (end == i)
			end = i + 1, any = hit[i];
		for (size_t k = i; any && k < end; k++) {
			rows[kept] = rows[k];
			hit[kept++] = hit[k];
		}
	}
	return kept;
}

/* ---- writing --------------------------------------------------------------------------- */

/* What the items the pattern's key addresses are to it: returned by a
 * read, replaced, updated or deleted by a write. */
static const char *items_caption(const ddbc_doc_labels *L, ddbc_operation op)
{
	switch (op) {
	case DDBC_OP_PUT: return L->d_items_put;
	case DDBC_OP_UPDATE: return L->d_items_update;
	case DDBC_OP_DELETE: return L->d_items_delete;
	case DDBC_OP_GET:
	case DDBC_OP_QUERY:
	case DDBC_OP_SCAN: break;
	}
	return L->d_items;
}

/* A Limit ends the first page: without `items:` (a use that reads on),
 * the marks past its first `limit` hits (from the end when the query reads
 * backwards) go, as ddbc_request_rows drops those rows. */
static void limit_hits(const ddbc_pattern *p, const ddbc_request *q, bool *hit, size_t n)
{
	size_t seen = 0;
	for (size_t k = 0; q->limit && !p->items->set && k < n; k++) {
		size_t i = q->order < 0 ? n - 1 - k : k;
		if (hit[i] && ++seen > q->limit)
			hit[i] = false;
	}
}

static void write_returned(const ddbc_view_out *v, const ddbc_pattern *p,
			   const ddbc_query_sent *sent)
{
	const ddbc_request *q = ddbc_pattern_request(p);
	const ddbc_view *view = ddbc_views_get(v->views, p->index);
	size_t from, to;
	ddbc_request_candidates(q, &sent->key, view, &from, &to);
	size_t n = to - from;
	size_t *rows = ddbc_xcalloc(n + 1, sizeof *rows);
	bool *hit = ddbc_xcalloc(n + 1, sizeof *hit);
	for (size_t i = 0; i < n; i++) {
		rows[i] = from + i;
		hit[i] = ddbc_request_returns(q, &sent->key, view, from + i);
	}
	limit_hits(p, q, hit, n);
	n = keep_partitions(view, p->index, rows, hit, n);
	v->be->para(v->o);
	v->be->span(v->o, n ? items_caption(v->L, p->operation) : v->L->d_no_items,
		    DDBC_SPAN_WORDS);
	v->be->para_end(v->o);
	if (n)
		ddbc_view_write(v, view, rows, n, hit);
	free(hit);
	free(rows);
}

void ddbc_doc_pattern_request(const ddbc_view_out *v, const ddbc_design *g,
			      const ddbc_pattern *p)
{
	if (!p->table || !p->index || !ddbc_pattern_request(p))
		return;
	char *text = NULL;
	size_t len = 0;
	ddbc_query_sent sent = { 0 };
	ddbc_emit_result r = ddbc_doc_request_input(open_memstream(&text, &len), g, p, &sent);
	bool ok = r == DDBC_EMIT_OK && text;
	v->be->para(v->o);
	v->be->strong(v->o, v->L->d_request);
	v->be->span(v->o, ok ? ":" : ": ", DDBC_SPAN_WORDS);
	if (!ok)
		v->be->span(v->o, v->L->d_no_request, DDBC_SPAN_WORDS);
	v->be->para_end(v->o);
	if (ok) {
		/* The document's trailing newline is the code block's own. */
		if (len && text[len - 1] == '\n')
			text[--len] = '\0';
		v->be->code_block(v->o, "json", text);
		ddbc_doc_flush(v->o);
		write_returned(v, p, &sent);
	}
	ddbc_query_sent_release(&sent);
	free(text);
}

/* ---- for capacity ---------------------------------------------------------------------- */

ddbc_emit_result ddbc_doc_request_input(FILE *f, const ddbc_design *g, const ddbc_pattern *p,
					ddbc_query_sent *sent)
{
	if (!f)
		return DDBC_EMIT_FAILED;
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_emit_result r = ddbc_emit_query_input(f, g, p, &d, sent);
	ddbc_diags_release(&d);
	fclose(f);
	return r;
}
