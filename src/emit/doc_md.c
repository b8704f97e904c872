/* doc_md.c - the documentation's Markdown backend (GitHub-flavoured)
 *
 * User strings go through the escaper of their place (doc_escape.h): in a
 * table cell every '|' is escaped, at a paragraph's start whatever could
 * open a block. ddbc's own words are written as they are.
 */
#include "emit/doc_diagram.h"
#include "emit/doc_escape.h"
#include "emit/doc_render.h"

static void heading(ddbc_doc_out *o, int level, ddbc_doc_kind kind, const char *id)
{
	(void)kind, (void)id;
	for (int i = 0; i < level; i++)
		ddbc_strbuf_addch(&o->sb, '#');
	ddbc_strbuf_addch(&o->sb, ' ');
}

static void heading_end(ddbc_doc_out *o, int level, ddbc_doc_kind kind, const char *id)
{
	(void)level, (void)kind, (void)id;
	ddbc_strbuf_addstr(&o->sb, "\n\n");
}

static void para(ddbc_doc_out *o)
{
	o->para_start = true;
}

static void para_end(ddbc_doc_out *o)
{
	o->para_start = false;
	ddbc_strbuf_addstr(&o->sb, "\n\n");
}

/* The contents are a plain list in Markdown. */
static void nav(ddbc_doc_out *o)
{
	(void)o;
}

/* Items end with their line break when the next one starts. */
static void item(ddbc_doc_out *o, int depth)
{
	if (o->items++)
		ddbc_strbuf_addch(&o->sb, '\n');
	for (int i = 0; i < depth; i++)
		ddbc_strbuf_addstr(&o->sb, "  ");
	ddbc_strbuf_addstr(&o->sb, "- ");
}

static void list_end(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, o->items ? "\n\n" : "\n");
	o->items = 0;
}

static void table(ddbc_doc_out *o, ddbc_doc_kind kind, size_t cols)
{
	(void)kind;
	o->cols = cols;
	o->rows = 0;
}

static void row(ddbc_doc_out *o)
{
	(void)o;
}

/* Markdown has no colours: the entity column says whose a row is. */
static void item_row(ddbc_doc_out *o, size_t colour, bool starts, bool hit)
{
	(void)o, (void)colour, (void)starts, (void)hit;
}

static void swatch(ddbc_doc_out *o, size_t colour)
{
	(void)o, (void)colour;
}

/* Markdown shows everything: GitHub folds nothing a reader must open. */
static void fold(ddbc_doc_out *o, const char *summary)
{
	(void)o, (void)summary;
}

static void fold_end(ddbc_doc_out *o)
{
	(void)o;
}

static void cell(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, "| ");
	o->in_cell = true;
}

static void cell_end(ddbc_doc_out *o)
{
	ddbc_strbuf_addch(&o->sb, ' ');
	o->in_cell = false;
}

/* After the header row, the delimiter row that makes it a GFM table. */
static void row_end(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, "|\n");
	if (o->rows++)
		return;
	for (size_t i = 0; i < o->cols; i++)
		ddbc_strbuf_addstr(&o->sb, "|---");
	ddbc_strbuf_addstr(&o->sb, "|\n");
}

static void table_end(ddbc_doc_out *o)
{
	ddbc_strbuf_addch(&o->sb, '\n');
}

/* Fenced by more backticks than the text holds in a row (three at least). */
static void code_block(ddbc_doc_out *o, const char *info, const char *text)
{
	size_t longest = ddbc_doc_longest_backticks(text);
	size_t fence = (longest > 2 ? longest : 2) + 1;
	for (size_t i = 0; i < fence; i++)
		ddbc_strbuf_addch(&o->sb, '`');
	ddbc_strbuf_addstr(&o->sb, info);
	ddbc_strbuf_addch(&o->sb, '\n');
	ddbc_strbuf_addstr(&o->sb, text);
	ddbc_strbuf_addch(&o->sb, '\n');
	for (size_t i = 0; i < fence; i++)
		ddbc_strbuf_addch(&o->sb, '`');
	ddbc_strbuf_addstr(&o->sb, "\n\n");
}

/* A Mermaid flowchart, which GitHub draws. */
static void diagram(ddbc_doc_out *o, const ddbc_table *tables, size_t n, const ddbc_doc_labels *L,
		    const ddbc_diagram_links *links)
{
	(void)links;   /* GitHub's Mermaid takes no links */
	strbuf chart = STRBUF_INIT;
	ddbc_diagram_mermaid(&chart, tables, n, L);
	chart.buf[--chart.len] = '\0';   /* the fence ends the last line */
	code_block(o, "mermaid", chart.buf);
	ddbc_strbuf_release(&chart);
}

static void description(ddbc_doc_out *o, ddbc_doc_desc *d)
{
	size_t at = o->sb.len;
	ddbc_doc_desc_markdown(d, &o->sb);
	if (o->sb.len > at)
		ddbc_strbuf_addch(&o->sb, '\n');
}

static void span(ddbc_doc_out *o, const char *s, ddbc_doc_span how)
{
	switch (how) {
	case DDBC_SPAN_WORDS:
		ddbc_strbuf_addstr(&o->sb, s);
		break;
	case DDBC_SPAN_TEXT:
		ddbc_doc_escape(&o->sb, s, DDBC_ESC_MD_TEXT);
		break;
	case DDBC_SPAN_CODE:
		ddbc_doc_escape(&o->sb, s, o->in_cell ? DDBC_ESC_MD_CODE_CELL : DDBC_ESC_MD_CODE);
		break;
	case DDBC_SPAN_MARKDOWN:
		ddbc_doc_escape(&o->sb, s, o->in_cell      ? DDBC_ESC_MD_INLINE_CELL
					   : o->para_start ? DDBC_ESC_MD_INLINE_PARA
							   : DDBC_ESC_MD_INLINE);
		break;
	}
	o->para_start = false;
}

static void strong(ddbc_doc_out *o, const char *words)
{
	ddbc_strbuf_add(&o->sb, "**", 2);
	ddbc_strbuf_addstr(&o->sb, words);
	ddbc_strbuf_add(&o->sb, "**", 2);
	o->para_start = false;
}

static void link(ddbc_doc_out *o, const char *id)
{
	(void)id;
	ddbc_strbuf_addch(&o->sb, '[');
}

static void link_end(ddbc_doc_out *o, const char *id)
{
	/* Pieces, not a format: a page has a link for every entity name. */
	ddbc_strbuf_add(&o->sb, "](", 2);
	if (o->link_file)
		ddbc_strbuf_addstr(&o->sb, o->link_file);
	ddbc_strbuf_addch(&o->sb, '#');
	ddbc_strbuf_addstr(&o->sb, id);
	ddbc_strbuf_addch(&o->sb, ')');
}

/* Markdown has no navigation element: nav does nothing, at either end. */
const ddbc_doc_backend ddbc_doc_markdown = {
	.heading = heading, .heading_end = heading_end, .para = para, .para_end = para_end,
	.nav = nav, .nav_end = nav, .item = item, .list_end = list_end, .table = table,
	.row = row, .item_row = item_row, .cell = cell, .cell_end = cell_end,
	.row_end = row_end, .table_end = table_end, .code_block = code_block,
	.description = description, .span = span, .strong = strong, .link = link,
	.link_end = link_end, .swatch = swatch, .fold = fold, .fold_end = fold_end,
	.diagram = diagram, .page_end = NULL,
};
