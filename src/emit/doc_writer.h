/* doc_writer.h - what the files of the document's structure share
 *
 * doc_write.c writes the document and doc_patterns.c its access patterns;
 * both speak to the backend through these small helpers (inline: each is
 * a call or two). Private to src/emit/doc_*.c.
 */
#ifndef DDBC_DOC_WRITER_H
#define DDBC_DOC_WRITER_H

#include "emit/doc_labels.h"
#include "emit/doc_slug.h"
#include "emit/doc_views.h"
#include "emit/doc_write.h"

#include <string.h>

/* Each heading's id, computed in document order before anything is
 * written (the table of contents comes first and links to all). */
typedef struct ids {
	const char *title, *contents, *diagram, *orphans, *patterns;
	const char **table, **indexes, **map;   /* per table */
	const char **views, ***view;            /* per table; per table and index */
	const char **entity;                    /* per entity */
	const char **pattern;                   /* per pattern */
	/* The patterns' positions grouped by table, in file order within
	 * each: table i's are [by_table_at[i], by_table_at[i + 1]), those of
	 * no table the group after the last table's. The contents list each
	 * table's patterns from it: a scan of every pattern per table grew
	 * with tables x patterns. */
	size_t *by_table, *by_table_at;
} ids;

typedef struct ddbc_doc_cost ddbc_doc_cost;

typedef struct writer {
	const ddbc_doc_backend *be;
	ddbc_doc_out *o;
	const ddbc_design *g;
	const ddbc_doc_labels *L;
	ddbc_slugger slugs;
	ids id;
	const ddbc_doc_page *page;   /* NULL: the whole document on one page */
	char **files;                /* per table (site): its page's file */
	ddbc_views *views;           /* each index's view, sorted once */
	struct ddbc_doc_cost *cost;  /* the capacity figures (doc_capacity.c), made once */
} writer;

/* Whether this page holds what belongs to table t (NULL: the index
 * page's sections). */
static inline bool on_page(const writer *w, const ddbc_table *t)
{
	return !w->page || w->page->table == t;
}

/* The next link leads to what belongs to table t (NULL: the index page). */
static inline void link_to(writer *w, const ddbc_table *t)
{
	w->o->link_file = NULL;
	if (!w->page || w->page->table == t)
		return;
	w->o->link_file = t ? w->files[t - w->g->tables] : "index.html";
}

/* ---- output ---------------------------------------------------------------------------- */

/* Between blocks, rows and list items: the text so far may go out. */
static inline void flush(writer *w)
{
	ddbc_doc_flush(w->o);
}

static inline void words(writer *w, const char *s)
{
	w->be->span(w->o, s, DDBC_SPAN_WORDS);
}

/* words, formatted (doc_write.c) */
void ddbc_doc_wordsf(writer *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void text(writer *w, const char *s)
{
	w->be->span(w->o, s, DDBC_SPAN_TEXT);
}

static inline void code(writer *w, const char *s)
{
	w->be->span(w->o, s, DDBC_SPAN_CODE);
}

static inline void scalar_code(writer *w, const ddbc_node *v)
{
	if (v && v->kind == DDBC_NODE_SCALAR)
		code(w, v->u.text);
}

static inline void pval_code(writer *w, const ddbc_pval *v)
{
	if (v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR)
		code(w, ddbc_pval_text(v));
}

static inline void cell(writer *w)
{
	w->be->cell(w->o);
}

static inline void cell_end(writer *w)
{
	w->be->cell_end(w->o);
}

/* ---- blocks ---------------------------------------------------------------------------- */

/* "## LABEL `name`" */
static inline void named_heading(writer *w, int level, ddbc_doc_kind kind, const char *id,
			  const char *label, const char *name)
{
	w->be->heading(w->o, level, kind, id);
	words(w, label);
	words(w, " ");
	code(w, name ? name : "");
	w->be->heading_end(w->o, level, kind, id);
	flush(w);
}

static inline void plain_heading(writer *w, int level, ddbc_doc_kind kind, const char *id,
			  const char *label)
{
	w->be->heading(w->o, level, kind, id);
	words(w, label);
	w->be->heading_end(w->o, level, kind, id);
	flush(w);
}

/* A paragraph of inline Markdown (a description, or a sentence of ddbc's). */
static inline void paragraph(writer *w, const char *markdown)
{
	if (!markdown || !*markdown)
		return;
	w->be->para(w->o);
	w->be->span(w->o, markdown, DDBC_SPAN_MARKDOWN);
	w->be->para_end(w->o);
	flush(w);
}

/* A link "[LABEL `name`](#id)" or "[name](#id)"; the name alone without id. */
static inline void link(writer *w, const char *label, const char *name, const char *id)
{
	if (!id) {
		text(w, name);
		return;
	}
	w->be->link(w->o, id);
	if (label) {
		words(w, label);
		words(w, " ");
		code(w, name ? name : "");
	} else {
		text(w, name);
	}
	w->be->link_end(w->o, id);
	w->o->link_file = NULL;
}

/* Opens a table with its header row of ddbc's column names. */
static inline void table_header(writer *w, ddbc_doc_kind kind, const char *const *cols, size_t n)
{
	w->be->table(w->o, kind, n);
	w->be->row(w->o);
	for (size_t i = 0; i < n; i++) {
		cell(w);
		words(w, cols[i]);
		cell_end(w);
	}
	w->be->row_end(w->o);
}

static inline void row_end(writer *w)
{
	w->be->row_end(w->o);
	flush(w);
}

/* "- **Label**: " */
static inline void labelled_item(writer *w, const char *label)
{
	flush(w);
	w->be->item(w->o, 0);
	w->be->strong(w->o, label);
	words(w, ": ");
}

static inline size_t table_no(const writer *w, const ddbc_table *t)
{
	return (size_t)(t - w->g->tables);
}

static inline size_t entity_no(const writer *w, const ddbc_entity *e)
{
	return (size_t)(e - w->g->entities);
}

static inline ddbc_view_out view_out(const writer *w)
{
	return (ddbc_view_out){ w->be, w->o, w->L, w->id.entity, w->g->entities, w->views };
}

/* doc_patterns.c: the access patterns section (its table, then each
 * pattern), and the pattern rows of the contents' tables. */
void ddbc_doc_write_patterns(writer *w);

#endif
