/* doc_views.c - item views of a table and of its indexes */
#include "emit/doc_views.h"
#include "emit/doc_json.h"
#include "model/item_size.h"
#include "model/semantics.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* A value longer than this many characters is cut in a view; the whole
 * item stands in its entity's section. */
enum { VALUE_CHARS = 48 };

/* ---- writing --------------------------------------------------------------------------- */

static void words(const ddbc_view_out *v, const char *s)
{
	v->be->span(v->o, s, DDBC_SPAN_WORDS);
}

static void cell(const ddbc_view_out *v)
{
	v->be->cell(v->o);
}

static void cell_end(const ddbc_view_out *v)
{
	v->be->cell_end(v->o);
}

/* The value as text: a scalar as written, anything else as JSON on one
 * line; cut after VALUE_CHARS characters unless whole (a key's value). */
static void put_value(const ddbc_view_out *v, const ddbc_pval *n, bool whole)
{
	/* A scalar is written from the tree as it is unless it is cut. */
	bool scalar = ddbc_pval_kind(n) == DDBC_NODE_SCALAR;
	char *json = scalar ? NULL : ddbc_doc_value_json(n);
	const char *text = scalar ? ddbc_pval_text(n) : json;
	if (!text)
		return;
	const unsigned char *p = (const unsigned char *)text, *end = p;
	if (!whole) {
		end += strlen(text);
		unsigned cp;
		size_t chars = 0, len;
		/* No more bytes than VALUE_CHARS: no more characters either. */
		if ((size_t)(end - p) <= VALUE_CHARS)
			p = end;
		/* An ASCII byte is a character of its own: no decoding. */
		for (; p < end && chars < VALUE_CHARS; p += len, chars++)
			if (*p < 0x80 || !(len = ddbc_utf8_decode(p, end, &cp)))
				len = 1;
	}
	if (p < end) {
		char *head = ddbc_xstrndup(text, (size_t)(p - (const unsigned char *)text));
		v->be->span(v->o, head, DDBC_SPAN_CODE);
		words(v, "…");
		free(head);
	} else {
		v->be->span(v->o, text, DDBC_SPAN_CODE);
	}
	free(json);
}

/* The item's values of the index's key attributes (pk then sk), which the
 * view looked up once when it sorted the items. */
static void key_cells(const ddbc_view_out *v, const ddbc_view *view, size_t row, size_t nk)
{
	for (size_t k = 0; k < nk; k++) {
		cell(v);
		const ddbc_pval *val = ddbc_view_key(view, row, k);
		if (val)
			put_value(v, val, true);
		cell_end(v);
	}
}

static void entity_cell(const ddbc_view_out *v, const ddbc_view_item *it)
{
	cell(v);
	v->be->swatch(v->o, it->colour);
	const char *id = v->entity_ids[it->entity - v->entities];
	if (id)
		v->be->link(v->o, id);
	v->be->span(v->o, it->entity->name.s, DDBC_SPAN_TEXT);
	if (id)
		v->be->link_end(v->o, id);
	cell_end(v);
}

/* "name: value, name: value": what ix projects beyond its own keys. */
static void attrs_cell(const ddbc_view_out *v, const ddbc_index *ix, const ddbc_pval *item)
{
	cell(v);
	bool first = true;
	ddbc_pval_iter it = ddbc_pval_members(item);
	const ddbc_pval *k, *value;
	while (ddbc_pval_pair(&it, &k, &value)) {
		const char *name = ddbc_pval_text(k);
		if (!name || ddbc_index_has_key(ix, name) || !ddbc_index_projects(ix, name))
			continue;
		if (!first)
			words(v, v->L->sep);
		first = false;
		v->be->span(v->o, name, DDBC_SPAN_TEXT);
		words(v, ": ");
		put_value(v, value, false);
	}
	cell_end(v);
}

static void header_names(const ddbc_view_out *v, const ddbc_name *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cell(v);
		v->be->span(v->o, names[i].s ? names[i].s : "", DDBC_SPAN_TEXT);
		cell_end(v);
	}
}

static void header(const ddbc_view_out *v, const ddbc_index *ix, bool marks)
{
	v->be->table(v->o, DDBC_DOC_ITEM_VIEW, ix->npk + ix->nsk + 2 + marks);
	v->be->row(v->o);
	if (marks) {
		cell(v);
		cell_end(v);
	}
	header_names(v, ix->pk, ix->npk);
	header_names(v, ix->sk, ix->nsk);
	cell(v);
	words(v, v->L->view_entity);
	cell_end(v);
	cell(v);
	words(v, v->L->view_attrs);
	cell_end(v);
	v->be->row_end(v->o);
}

static void item_row(const ddbc_view_out *v, const ddbc_view *view, size_t row, bool starts,
		     int mark)
{
	const ddbc_index *ix = ddbc_view_index(view);
	size_t count;
	const ddbc_view_item *it = &ddbc_view_items(view, &count)[row];
	v->be->item_row(v->o, it->colour, starts, mark > 0);
	if (mark >= 0) {
		cell(v);
		if (mark)
			words(v, "▶");
		cell_end(v);
	}
	key_cells(v, view, row, ix->npk + ix->nsk);
	entity_cell(v, it);
	attrs_cell(v, ix, it->item);
	v->be->row_end(v->o);
	ddbc_doc_flush(v->o);
}

void ddbc_view_write(const ddbc_view_out *v, const ddbc_view *view, const size_t *rows,
		     size_t n, const bool *hit)
{
	header(v, ddbc_view_index(view), hit != NULL);
	for (size_t i = 0; i < n; i++) {
		size_t r = rows ? rows[i] : i;
		bool starts = i == 0 ||
			      !ddbc_view_same_partition(view, rows ? rows[i - 1] : i - 1, r);
		item_row(v, view, r, starts, hit ? hit[i] : -1);
	}
	v->be->table_end(v->o);
	ddbc_doc_flush(v->o);
}

void ddbc_view_legend(const ddbc_view_out *v, const ddbc_table *t)
{
	v->be->para(v->o);
	v->be->strong(v->o, v->L->legend);
	words(v, ": ");
	for (size_t k = 0; k < t->nentities; k++) {
		if (k)
			words(v, v->L->sep);
		v->be->swatch(v->o, k);
		v->be->span(v->o, t->entities[k]->name.s, DDBC_SPAN_TEXT);
	}
	v->be->para_end(v->o);
}
