/* doc_render.h - what the documentation is written through: its backends
 * and its output
 *
 * The structure (doc_write.c, doc_patterns.c, doc_views.c, doc_request.c)
 * says what the document holds to a backend (doc_md.c, doc_html.c), which
 * writes it to a ddbc_doc_out; the output goes to its file in pieces
 * (ddbc_doc_flush). Every part of the documentation calls down into this
 * file and the backends, never back up into the structure (cmark's
 * render.c stands to its renderers so).
 */
#ifndef DDBC_DOC_RENDER_H
#define DDBC_DOC_RENDER_H

#include "emit/doc_desc.h"
#include "emit/emit.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ddbc_doc_labels;   /* doc_labels.h */
struct ddbc_diagram_links; /* doc_diagram.h */

/* What a heading or a table is; the HTML page's classes say it. */
typedef enum ddbc_doc_kind {
	/* headings */
	DDBC_DOC_TITLE,
	DDBC_DOC_CONTENTS,
	DDBC_DOC_TABLE,
	DDBC_DOC_INDEXES,
	DDBC_DOC_INDEX_MAP,
	DDBC_DOC_ENTITY,
	DDBC_DOC_PATTERNS,
	DDBC_DOC_PATTERN,
	DDBC_DOC_OTHER,            /* "Entities without a table" */
	DDBC_DOC_VIEW,             /* "Items in `name`" */
	DDBC_DOC_DIAGRAM,
	/* tables */
	DDBC_DOC_INDEX_TABLE,
	DDBC_DOC_MAP_TABLE,
	DDBC_DOC_ATTR_TABLE,
	DDBC_DOC_PATTERN_TABLE,
	DDBC_DOC_ITEM_VIEW
} ddbc_doc_kind;

/* How a piece of inline text is shown. */
typedef enum ddbc_doc_span {
	DDBC_SPAN_WORDS,           /* ddbc's own words and punctuation, as they are */
	DDBC_SPAN_TEXT,            /* a user string shown literally */
	DDBC_SPAN_CODE,            /* a user string as code */
	DDBC_SPAN_MARKDOWN         /* a user description: inline Markdown, made inert */
} ddbc_doc_span;

/* Where the document is being written, and the backends' state. */
typedef struct ddbc_doc_out {
	strbuf sb;                 /* written, not yet handed to file */
	FILE *file;                /* NULL: the whole document stays in sb */
	bool in_cell;              /* inside a table cell */
	bool para_start;           /* nothing written yet in this paragraph */
	int depth;                 /* open list items (-1: no list) */
	size_t items, rows, cols;  /* of the list or table being written */
	size_t mark;               /* where the open block started in sb */
	strbuf heads;              /* HTML: the open table's column names, each
				    * ended by a NUL, for its cells' labels */
	size_t col;                /* HTML: the cell being written */
	const char *link_file;     /* the next link's page; NULL: this page */
	/* HTML: the distinct header rows so far (heads' bytes each), whose
	 * index names the class of their tables' bodies; page_end writes the
	 * labels of each class's cells once, as CSS. */
	strbuf *sigs;
	size_t nsigs, sigs_cap;
	size_t *sig_slots;         /* HTML: sigs by hash, index + 1 (0: empty) */
	size_t sig_slots_cap;      /* a power of two, at least twice nsigs */
} ddbc_doc_out;

/* A format. Blocks come as begin/end pairs; inline text only inside a
 * heading, paragraph, list item or table cell. A table's first row is its
 * header. */
typedef struct ddbc_doc_backend {
	void (*heading)(ddbc_doc_out *o, int level, ddbc_doc_kind kind, const char *id);
	void (*heading_end)(ddbc_doc_out *o, int level, ddbc_doc_kind kind, const char *id);
	void (*para)(ddbc_doc_out *o);
	void (*para_end)(ddbc_doc_out *o);
	void (*nav)(ddbc_doc_out *o);         /* the table of contents ... */
	void (*nav_end)(ddbc_doc_out *o);
	void (*item)(ddbc_doc_out *o, int depth);  /* a list item at depth (0: top) */
	void (*list_end)(ddbc_doc_out *o);
	void (*table)(ddbc_doc_out *o, ddbc_doc_kind kind, size_t cols);
	void (*row)(ddbc_doc_out *o);
	/* A row of an item view: its entity's colour, whether it starts a
	 * partition, whether the access pattern shown returns it. */
	void (*item_row)(ddbc_doc_out *o, size_t colour, bool starts, bool hit);
	void (*cell)(ddbc_doc_out *o);
	void (*cell_end)(ddbc_doc_out *o);
	void (*row_end)(ddbc_doc_out *o);
	void (*table_end)(ddbc_doc_out *o);
	void (*code_block)(ddbc_doc_out *o, const char *info, const char *text);
	void (*description)(ddbc_doc_out *o, ddbc_doc_desc *d);
	/* inline */
	void (*span)(ddbc_doc_out *o, const char *s, ddbc_doc_span how);
	void (*strong)(ddbc_doc_out *o, const char *words);
	void (*link)(ddbc_doc_out *o, const char *id);
	void (*link_end)(ddbc_doc_out *o, const char *id);
	void (*swatch)(ddbc_doc_out *o, size_t colour);   /* an entity's colour */
	/* A block the reader opens (HTML's <details>): summary is ddbc's words. */
	void (*fold)(ddbc_doc_out *o, const char *summary);
	void (*fold_end)(ddbc_doc_out *o);
	/* The picture of the n tables at tables (doc_diagram.h). */
	void (*diagram)(ddbc_doc_out *o, const ddbc_table *tables, size_t n,
			const struct ddbc_doc_labels *L, const struct ddbc_diagram_links *links);
	/* After the last block, or NULL: what the page needs once, at its end. */
	void (*page_end)(ddbc_doc_out *o);
} ddbc_doc_backend;

extern const ddbc_doc_backend ddbc_doc_markdown;   /* doc_md.c */
extern const ddbc_doc_backend ddbc_doc_html;       /* doc_html.c */

/* Between blocks and rows: hands what is written to the file once a
 * piece's worth is waiting. */
void ddbc_doc_flush(ddbc_doc_out *o);

#endif
