/* doc_html.c - the documentation's HTML backend
 *
 * The document's structure is written as HTML directly: headings with
 * their ids, a class saying what they are and a link to themselves, the
 * table of contents as <nav>, every table inside a container that scrolls
 * sideways when it is too wide. Every body cell carries its column's name
 * (data-label), so that on a phone the stylesheet can show each row as a
 * card of labelled values instead of columns too narrow to read. ddbc
 * writes only its own markup; every user string is escaped, and the
 * user's Markdown (descriptions) is rendered by cmark-gfm in its safe
 * mode (doc_desc.h).
 */
#include "emit/doc_diagram.h"
#include "emit/doc_escape.h"
#include "emit/doc_render.h"

#include <string.h>

static const char *kind_class(ddbc_doc_kind kind)
{
	static const char *const names[] = {
		[DDBC_DOC_TITLE] = "title", [DDBC_DOC_CONTENTS] = "contents",
		[DDBC_DOC_TABLE] = "table", [DDBC_DOC_INDEXES] = "indexes",
		[DDBC_DOC_INDEX_MAP] = "index-map", [DDBC_DOC_ENTITY] = "entity",
		[DDBC_DOC_PATTERNS] = "patterns", [DDBC_DOC_PATTERN] = "pattern",
		[DDBC_DOC_OTHER] = "other", [DDBC_DOC_INDEX_TABLE] = "indexes",
		[DDBC_DOC_MAP_TABLE] = "index-map", [DDBC_DOC_ATTR_TABLE] = "attributes",
		[DDBC_DOC_PATTERN_TABLE] = "patterns", [DDBC_DOC_VIEW] = "view",
		[DDBC_DOC_ITEM_VIEW] = "items", [DDBC_DOC_DIAGRAM] = "diagram",
	};
	return names[kind];
}

static void escaped(ddbc_doc_out *o, const char *s)
{
	ddbc_doc_escape(&o->sb, s, DDBC_ESC_HTML_LINE);
}

static void heading(ddbc_doc_out *o, int level, ddbc_doc_kind kind, const char *id)
{
	strbuf_addf(&o->sb, "<h%d", level);
	if (id && *id) {
		strbuf_addstr(&o->sb, " id=\"");
		escaped(o, id);
		strbuf_addch(&o->sb, '"');
	}
	strbuf_addf(&o->sb, " class=\"%s\">", kind_class(kind));
}

/* Every heading but the title links to itself, for copying its address. */
static void heading_end(ddbc_doc_out *o, int level, ddbc_doc_kind kind, const char *id)
{
	if (id && *id && kind != DDBC_DOC_TITLE) {
		strbuf_addstr(&o->sb, "<a class=\"anchor\" href=\"#");
		ddbc_doc_escape(&o->sb, id, DDBC_ESC_HREF);
		strbuf_addstr(&o->sb, "\" aria-hidden=\"true\">#</a>");
	}
	strbuf_addf(&o->sb, "</h%d>\n", level);
}

static void para(ddbc_doc_out *o)
{
	strbuf_addstr(&o->sb, "<p>");
	o->mark = o->sb.len;
}

/* A paragraph left empty (a description of blanks) is dropped, as cmark
 * drops it. */
static void para_end(ddbc_doc_out *o)
{
	if (o->sb.len == o->mark) {
		o->sb.len -= 3;
		o->sb.buf[o->sb.len] = '\0';
		return;
	}
	strbuf_addstr(&o->sb, "</p>\n");
}

static void nav(ddbc_doc_out *o)
{
	strbuf_addstr(&o->sb, "<nav class=\"toc\">\n");
}

static void nav_end(ddbc_doc_out *o)
{
	strbuf_addstr(&o->sb, "</nav>\n");
}

/* An item at depth: a deeper one opens a list inside the open item, a
 * shallower one closes the lists in between. */
static void item(ddbc_doc_out *o, int depth)
{
	if (depth <= o->depth) {
		for (; o->depth > depth; o->depth--)
			strbuf_addstr(&o->sb, "</li>\n</ul>\n");
		strbuf_addstr(&o->sb, "</li>\n<li>");
		return;
	}
	for (; o->depth < depth; o->depth++)
		strbuf_addstr(&o->sb, o->depth >= 0 ? "\n<ul>\n<li>" : "<ul>\n<li>");
}

static void list_end(ddbc_doc_out *o)
{
	for (; o->depth >= 0; o->depth--)
		strbuf_addstr(&o->sb, "</li>\n</ul>\n");
}

static void table(ddbc_doc_out *o, ddbc_doc_kind kind, size_t cols)
{
	strbuf_addf(&o->sb, "<div class=\"table-wrap %s\" tabindex=\"0\">\n<table>\n<thead>\n",
		    kind_class(kind));
	o->cols = cols;
	o->rows = 0;
	strbuf_reset(&o->heads);
}

static void row(ddbc_doc_out *o)
{
	if (o->rows == 1)
		strbuf_addstr(&o->sb, "<tbody>\n");
	strbuf_addstr(&o->sb, "<tr>\n");
	o->col = 0;
}

/* Entities take the page's colours in turn. */
enum { COLOURS = 8 };

static void item_row(ddbc_doc_out *o, size_t colour, bool starts, bool hit)
{
	if (o->rows == 1)
		strbuf_addstr(&o->sb, "<tbody>\n");
	strbuf_addf(&o->sb, "<tr class=\"c%zu%s%s\">\n", colour % COLOURS, starts ? " starts" : "",
		    hit ? " hit" : "");
	o->col = 0;
}

static void swatch(ddbc_doc_out *o, size_t colour)
{
	strbuf_addf(&o->sb, "<span class=\"swatch c%zu\" aria-hidden=\"true\"></span>",
		    colour % COLOURS);
}

static void diagram(ddbc_doc_out *o, const ddbc_table *tables, size_t n, const ddbc_doc_labels *L)
{
	ddbc_diagram_svg(&o->sb, tables, n, L);
}

static void fold(ddbc_doc_out *o, const char *summary)
{
	strbuf_addstr(&o->sb, "<details><summary>");
	escaped(o, summary);
	strbuf_addstr(&o->sb, "</summary>\n");
}

static void fold_end(ddbc_doc_out *o)
{
	strbuf_addstr(&o->sb, "</details>\n");
}

/* The name of column col, as the header row wrote it (escaped). */
static const char *head(const ddbc_doc_out *o, size_t col)
{
	const char *p = o->heads.buf, *end = p + o->heads.len;
	for (; p && p < end && col; col--)
		p += strlen(p) + 1;
	return p && p < end ? p : "";
}

static void cell(ddbc_doc_out *o)
{
	if (o->rows) {
		strbuf_addstr(&o->sb, "<td data-label=\"");
		strbuf_addstr(&o->sb, head(o, o->col));
		strbuf_addstr(&o->sb, "\">");
	} else {
		strbuf_addstr(&o->sb, "<th>");
	}
	o->mark = o->sb.len;
	o->in_cell = true;
}

/* A header cell's text without its markup, kept for the cells below. */
static void keep_head(ddbc_doc_out *o)
{
	bool tag = false;
	for (size_t i = o->mark; i < o->sb.len; i++) {
		char c = o->sb.buf[i];
		if (c == '<')
			tag = true;
		else if (c == '>')
			tag = false;
		else if (!tag)
			strbuf_addch(&o->heads, c);
	}
	strbuf_addch(&o->heads, '\0');
}

static void cell_end(ddbc_doc_out *o)
{
	if (!o->rows)
		keep_head(o);
	strbuf_addstr(&o->sb, o->rows ? "</td>\n" : "</th>\n");
	o->in_cell = false;
	o->col++;
}

static void row_end(ddbc_doc_out *o)
{
	strbuf_addstr(&o->sb, o->rows++ ? "</tr>\n" : "</tr>\n</thead>\n");
}

static void table_end(ddbc_doc_out *o)
{
	if (o->rows > 1)
		strbuf_addstr(&o->sb, "</tbody>\n");
	strbuf_addstr(&o->sb, "</table>\n</div>\n");
}

static void code_block(ddbc_doc_out *o, const char *info, const char *text)
{
	strbuf_addstr(&o->sb, "<pre><code class=\"language-");
	escaped(o, info);
	strbuf_addstr(&o->sb, "\">");
	ddbc_doc_escape(&o->sb, text, DDBC_ESC_HTML);
	strbuf_addstr(&o->sb, "\n</code></pre>\n");
}

static void description(ddbc_doc_out *o, ddbc_doc_desc *d)
{
	ddbc_doc_desc_html(d, &o->sb);
}

static void span(ddbc_doc_out *o, const char *s, ddbc_doc_span how)
{
	switch (how) {
	case DDBC_SPAN_WORDS:
	case DDBC_SPAN_TEXT:
		escaped(o, s);
		break;
	case DDBC_SPAN_CODE:
		if (s && *s) {
			strbuf_addstr(&o->sb, "<code>");
			escaped(o, s);
			strbuf_addstr(&o->sb, "</code>");
		}
		break;
	case DDBC_SPAN_MARKDOWN:
		if (s)
			ddbc_doc_inline_html(&o->sb, s);
		break;
	}
}

static void strong(ddbc_doc_out *o, const char *words)
{
	strbuf_addstr(&o->sb, "<strong>");
	escaped(o, words);
	strbuf_addstr(&o->sb, "</strong>");
}

static void link(ddbc_doc_out *o, const char *id)
{
	strbuf_addstr(&o->sb, "<a href=\"");
	if (o->link_file)
		ddbc_doc_escape(&o->sb, o->link_file, DDBC_ESC_HREF);
	strbuf_addch(&o->sb, '#');
	ddbc_doc_escape(&o->sb, id, DDBC_ESC_HREF);
	strbuf_addstr(&o->sb, "\">");
}

static void link_end(ddbc_doc_out *o, const char *id)
{
	(void)id;
	strbuf_addstr(&o->sb, "</a>");
}

const ddbc_doc_backend ddbc_doc_html = {
	.heading = heading, .heading_end = heading_end, .para = para, .para_end = para_end,
	.nav = nav, .nav_end = nav_end, .item = item, .list_end = list_end, .table = table,
	.row = row, .item_row = item_row, .cell = cell, .cell_end = cell_end,
	.row_end = row_end, .table_end = table_end, .code_block = code_block,
	.description = description, .span = span, .strong = strong, .link = link,
	.link_end = link_end, .swatch = swatch, .fold = fold, .fold_end = fold_end,
	.diagram = diagram,
};
