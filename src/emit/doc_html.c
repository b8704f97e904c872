/* doc_html.c - the documentation's HTML backend
 *
 * The document's structure is written as HTML directly: headings with
 * their ids, a class saying what they are and a link to themselves, the
 * table of contents as <nav>, every table inside a container that scrolls
 * sideways when it is too wide. On a phone the stylesheet shows each row
 * as a card of labelled values instead of columns too narrow to read: the
 * labels are the column names, written once per distinct header row as
 * CSS at the page's end (a class on the table's body, a rule per column),
 * not on every cell, which made a third of a large page. ddbc
 * writes only its own markup; every user string is escaped, and the
 * user's Markdown (descriptions) is rendered by cmark-gfm in its safe
 * mode (doc_desc.h).
 */
#include "emit/doc_diagram.h"
#include "emit/doc_escape.h"
#include "emit/doc_render.h"

#include "util/strset.h"
#include "util/xalloc.h"

#include <stdlib.h>
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
	ddbc_strbuf_addf(&o->sb, "<h%d", level);
	if (id && *id) {
		ddbc_strbuf_addstr(&o->sb, " id=\"");
		escaped(o, id);
		ddbc_strbuf_addch(&o->sb, '"');
	}
	ddbc_strbuf_addf(&o->sb, " class=\"%s\">", kind_class(kind));
}

/* Every heading but the title links to itself, for copying its address. */
static void heading_end(ddbc_doc_out *o, int level, ddbc_doc_kind kind, const char *id)
{
	if (id && *id && kind != DDBC_DOC_TITLE) {
		ddbc_strbuf_addstr(&o->sb, "<a class=\"anchor\" href=\"#");
		ddbc_doc_escape(&o->sb, id, DDBC_ESC_HREF);
		ddbc_strbuf_addstr(&o->sb, "\" aria-hidden=\"true\">#</a>");
	}
	ddbc_strbuf_addf(&o->sb, "</h%d>\n", level);
}

static void para(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, "<p>");
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
	ddbc_strbuf_addstr(&o->sb, "</p>\n");
}

static void nav(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, "<nav class=\"toc\">\n");
}

static void nav_end(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, "</nav>\n");
}

/* An item at depth: a deeper one opens a list inside the open item, a
 * shallower one closes the lists in between. */
static void item(ddbc_doc_out *o, int depth)
{
	if (depth <= o->depth) {
		for (; o->depth > depth; o->depth--)
			ddbc_strbuf_addstr(&o->sb, "</li>\n</ul>\n");
		ddbc_strbuf_addstr(&o->sb, "</li>\n<li>");
		return;
	}
	for (; o->depth < depth; o->depth++)
		ddbc_strbuf_addstr(&o->sb, o->depth >= 0 ? "\n<ul>\n<li>" : "<ul>\n<li>");
}

static void list_end(ddbc_doc_out *o)
{
	for (; o->depth >= 0; o->depth--)
		ddbc_strbuf_addstr(&o->sb, "</li>\n</ul>\n");
}

static void table(ddbc_doc_out *o, ddbc_doc_kind kind, size_t cols)
{
	ddbc_strbuf_addf(&o->sb, "<div class=\"table-wrap %s\" tabindex=\"0\">\n<table>\n<thead>\n",
		    kind_class(kind));
	o->cols = cols;
	o->rows = 0;
	ddbc_strbuf_reset(&o->heads);
}

/* The class of the open table's body: the header row's number among the
 * distinct ones so far (o->heads, compared byte for byte). */
/* The slot of sigs' hash table where the len bytes at s, of hash h, are
 * or would go: linear probing over a power-of-two table. */
static size_t *sig_slot(ddbc_doc_out *o, const char *s, size_t len, uint64_t h)
{
	size_t mask = o->sig_slots_cap - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		size_t *slot = &o->sig_slots[i];
		if (!*slot)
			return slot;
		const strbuf *sig = &o->sigs[*slot - 1];
		if (sig->len == len && !memcmp(sig->buf, s, len))
			return slot;
	}
}

/* Doubles the hash table of sigs, placing every sig again. */
static void sig_rehash(ddbc_doc_out *o)
{
	free(o->sig_slots);
	o->sig_slots_cap = o->sig_slots_cap ? o->sig_slots_cap * 2 : 64;
	o->sig_slots = ddbc_xcalloc(o->sig_slots_cap, sizeof(*o->sig_slots));
	for (size_t i = 0; i < o->nsigs; i++) {
		const strbuf *sig = &o->sigs[i];
		*sig_slot(o, sig->buf, sig->len, ddbc_hash64(sig->buf, sig->len)) = i + 1;
	}
}

/* The class of the open table's body: the index of its header row among
 * the distinct ones so far, found by hash so that a page of thousands of
 * tables does not compare each with all before it. */
static size_t head_class(ddbc_doc_out *o)
{
	if (2 * (o->nsigs + 1) > o->sig_slots_cap)
		sig_rehash(o);
	uint64_t h = ddbc_hash64(o->heads.buf, o->heads.len);
	size_t *slot = sig_slot(o, o->heads.buf, o->heads.len, h);
	if (*slot)
		return *slot - 1;
	ddbc_xgrow((void **)&o->sigs, &o->sigs_cap, o->nsigs + 1, sizeof(*o->sigs));
	strbuf *sig = &o->sigs[o->nsigs];
	*sig = (strbuf)STRBUF_INIT;
	ddbc_strbuf_add(sig, o->heads.buf, o->heads.len);
	*slot = ++o->nsigs;
	return o->nsigs - 1;
}

static void tbody(ddbc_doc_out *o)
{
	ddbc_strbuf_addf(&o->sb, "<tbody class=\"h%zu\">\n", head_class(o));
}

static void row(ddbc_doc_out *o)
{
	if (o->rows == 1)
		tbody(o);
	ddbc_strbuf_addstr(&o->sb, "<tr>\n");
	o->col = 0;
}

/* Entities take the page's colours in turn. */
enum { COLOURS = 8 };

static void item_row(ddbc_doc_out *o, size_t colour, bool starts, bool hit)
{
	if (o->rows == 1)
		tbody(o);
	ddbc_strbuf_addf(&o->sb, "<tr class=\"c%zu%s%s\">\n", colour % COLOURS, starts ? " starts" : "",
		    hit ? " hit" : "");
	o->col = 0;
}

static void swatch(ddbc_doc_out *o, size_t colour)
{
	ddbc_strbuf_addf(&o->sb, "<span class=\"swatch c%zu\" aria-hidden=\"true\"></span>",
		    colour % COLOURS);
}

static void diagram(ddbc_doc_out *o, const ddbc_table *tables, size_t n, const ddbc_doc_labels *L,
		    const ddbc_diagram_links *links)
{
	ddbc_diagram_svg(&o->sb, tables, n, L, links);
}

static void fold(ddbc_doc_out *o, const char *summary)
{
	ddbc_strbuf_addstr(&o->sb, "<details><summary>");
	escaped(o, summary);
	ddbc_strbuf_addstr(&o->sb, "</summary>\n");
}

static void fold_end(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, "</details>\n");
}

static void cell(ddbc_doc_out *o)
{
	if (o->rows) {
		ddbc_strbuf_addstr(&o->sb, "<td>");
	} else {
		ddbc_strbuf_addstr(&o->sb, "<th>");
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
			ddbc_strbuf_addch(&o->heads, c);
	}
	ddbc_strbuf_addch(&o->heads, '\0');
}

/* A body cell that says only "—" (no value: not in that index, no key)
 * is marked, so that a phone's card leaves it out instead of giving it a
 * labelled row. */
static void mark_none(ddbc_doc_out *o)
{
	static const char dash[] = "—", open[] = "<td>";
	size_t n = sizeof(dash) - 1;
	if (o->sb.len != o->mark + n || memcmp(o->sb.buf + o->mark, dash, n))
		return;
	o->sb.len = o->mark - (sizeof(open) - 1);
	ddbc_strbuf_addstr(&o->sb, "<td class=\"none\">—");
}

static void cell_end(ddbc_doc_out *o)
{
	if (!o->rows)
		keep_head(o);
	else
		mark_none(o);
	ddbc_strbuf_addstr(&o->sb, o->rows ? "</td>\n" : "</th>\n");
	o->in_cell = false;
	o->col++;
}

static void row_end(ddbc_doc_out *o)
{
	ddbc_strbuf_addstr(&o->sb, o->rows++ ? "</tr>\n" : "</tr>\n</thead>\n");
}

static void table_end(ddbc_doc_out *o)
{
	if (o->rows > 1)
		ddbc_strbuf_addstr(&o->sb, "</tbody>\n");
	ddbc_strbuf_addstr(&o->sb, "</table>\n</div>\n");
}

static void code_block(ddbc_doc_out *o, const char *info, const char *text)
{
	ddbc_strbuf_addstr(&o->sb, "<pre><code class=\"language-");
	escaped(o, info);
	ddbc_strbuf_addstr(&o->sb, "\">");
	ddbc_doc_escape(&o->sb, text, DDBC_ESC_HTML);
	ddbc_strbuf_addstr(&o->sb, "\n</code></pre>\n");
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
			ddbc_strbuf_addstr(&o->sb, "<code>");
			escaped(o, s);
			ddbc_strbuf_addstr(&o->sb, "</code>");
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
	ddbc_strbuf_addstr(&o->sb, "<strong>");
	escaped(o, words);
	ddbc_strbuf_addstr(&o->sb, "</strong>");
}

static void link(ddbc_doc_out *o, const char *id)
{
	ddbc_strbuf_addstr(&o->sb, "<a href=\"");
	if (o->link_file)
		ddbc_doc_escape(&o->sb, o->link_file, DDBC_ESC_HREF);
	ddbc_strbuf_addch(&o->sb, '#');
	ddbc_doc_escape(&o->sb, id, DDBC_ESC_HREF);
	ddbc_strbuf_addstr(&o->sb, "\">");
}

static void link_end(ddbc_doc_out *o, const char *id)
{
	(void)id;
	ddbc_strbuf_addstr(&o->sb, "</a>");
}

/* A column name, kept HTML-escaped (&amp; &lt; &gt; &quot;), as a CSS
 * string: quotes and backslashes escaped, and '<' as \3c so that no name
 * can end the <style> element. */
static void css_label(strbuf *sb, const char *s)
{
	static const struct { const char *ent; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' },
	};
	ddbc_strbuf_addch(sb, '"');
	while (*s) {
		char c = *s++;
		for (size_t i = 0; c == '&' && i < 4; i++) {
			size_t n = strlen(ents[i].ent);
			if (!strncmp(s - 1, ents[i].ent, n)) {
				c = ents[i].c;
				s += n - 1;
			}
		}
		if (c == '"' || c == '\\')
			ddbc_strbuf_addf(sb, "\\%c", c);
		else if (c == '<' || (unsigned char)c < 0x20)
			ddbc_strbuf_addf(sb, "\\%x ", (unsigned)(unsigned char)c);
		else
			ddbc_strbuf_addch(sb, c);
	}
	ddbc_strbuf_addch(sb, '"');
}

/* The cards' labels: for each distinct header row, one rule per named
 * column setting --label, which style.css shows on a phone (so the
 * template keeps the say over when and how). */
static void page_end(ddbc_doc_out *o)
{
	if (!o->nsigs)
		return;
	ddbc_strbuf_addstr(&o->sb, "<style>\n");
	for (size_t i = 0; i < o->nsigs; i++) {
		const char *p = o->sigs[i].buf, *end = p + o->sigs[i].len;
		for (size_t col = 1; p < end; col++, p += strlen(p) + 1) {
			if (!*p)
				continue;
			ddbc_strbuf_addf(&o->sb, ".h%zu>tr>td:nth-child(%zu){--label:", i, col);
			css_label(&o->sb, p);
			ddbc_strbuf_addstr(&o->sb, "}\n");
		}
		ddbc_strbuf_release(&o->sigs[i]);
	}
	ddbc_strbuf_addstr(&o->sb, "</style>\n");
	free(o->sigs);
	o->sigs = NULL;
	o->nsigs = o->sigs_cap = 0;
	free(o->sig_slots);
	o->sig_slots = NULL;
	o->sig_slots_cap = 0;
}

const ddbc_doc_backend ddbc_doc_html = {
	.heading = heading, .heading_end = heading_end, .para = para, .para_end = para_end,
	.nav = nav, .nav_end = nav_end, .item = item, .list_end = list_end, .table = table,
	.row = row, .item_row = item_row, .cell = cell, .cell_end = cell_end,
	.row_end = row_end, .table_end = table_end, .code_block = code_block,
	.description = description, .span = span, .strong = strong, .link = link,
	.link_end = link_end, .swatch = swatch, .fold = fold, .fold_end = fold_end,
	.diagram = diagram, .page_end = page_end,
};
