/* doc_diagram.c - tables, indexes and entities as Mermaid and as SVG */
#include "emit/doc_diagram.h"
#include "emit/doc_escape.h"
#include "util/utf8.h"

#include <string.h>

static bool many(const ddbc_table *t)
{
	return t->nentities > DDBC_DIAGRAM_ENTITIES;
}

/* How many of t's entities index slot s holds. */
static size_t members(const ddbc_table *t, size_t s)
{
	size_t n = 0;
	for (size_t k = 0; k < t->nentities; k++)
		n += t->entities[k]->in_index && t->entities[k]->in_index[s];
	return n;
}

static bool in_index(const ddbc_entity *e, size_t s)
{
	return s == 0 || (e->in_index && e->in_index[s]);
}

/* ---- Mermaid --------------------------------------------------------------------------- */

/* A name inside a quoted Mermaid label: what Mermaid reads as markup or
 * as an entity code becomes an entity code. */
static void mermaid_text(strbuf *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '"': strbuf_addstr(out, "#quot;"); break;
		case '#': strbuf_addstr(out, "#35;"); break;
		case '<': strbuf_addstr(out, "#lt;"); break;
		case '>': strbuf_addstr(out, "#gt;"); break;
		case '&': strbuf_addstr(out, "#amp;"); break;
		case '`': strbuf_addstr(out, "#96;"); break;
		case '\n': case '\r': case '\t': strbuf_addch(out, ' '); break;
		default: strbuf_addch(out, *s);
		}
	}
}

static void mermaid_key(strbuf *out, const ddbc_name *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(out, ", ");
		mermaid_text(out, names[i].s);
	}
}

static void mermaid_table(strbuf *out, size_t no, const ddbc_table *t, const ddbc_doc_labels *L)
{
	strbuf_addf(out, "  subgraph t%zu[\"", no);
	mermaid_text(out, L->table);
	strbuf_addch(out, ' ');
	mermaid_text(out, t->name.s);
	strbuf_addstr(out, "\"]\n");
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		strbuf_addf(out, "    t%zui%zu[\"", no, s);
		mermaid_text(out, ix->name.s);
		strbuf_addf(out, " (%s)<br/>", L->kind[ix->kind]);
		mermaid_key(out, ix->pk, ix->npk);
		if (ix->nsk) {
			strbuf_addstr(out, " · ");
			mermaid_key(out, ix->sk, ix->nsk);
		}
		strbuf_addstr(out, "\"]\n");
	}
	strbuf_addstr(out, "  end\n");
}

static void mermaid_entities(strbuf *out, size_t no, const ddbc_table *t,
			     const ddbc_doc_labels *L)
{
	if (many(t)) {
		strbuf_addf(out, "  t%zue([\"", no);
		strbuf_addf(out, L->n_entities, t->nentities);
		strbuf_addstr(out, "\"])\n");
		for (size_t s = 0; s < t->nindexes; s++)
			strbuf_addf(out, "  t%zue -- \"%zu\" --> t%zui%zu\n", no,
				    s ? members(t, s) : t->nentities, no, s);
		return;
	}
	for (size_t k = 0; k < t->nentities; k++) {
		strbuf_addf(out, "  t%zue%zu([\"", no, k);
		mermaid_text(out, t->entities[k]->name.s);
		strbuf_addstr(out, "\"])\n");
		for (size_t s = 0; s < t->nindexes; s++)
			if (in_index(t->entities[k], s))
				strbuf_addf(out, "  t%zue%zu --> t%zui%zu\n", no, k, no, s);
	}
}

void ddbc_diagram_mermaid(strbuf *out, const ddbc_table *tables, size_t n,
			  const ddbc_doc_labels *L)
{
	strbuf_addstr(out, "flowchart LR\n");
	for (size_t i = 0; i < n; i++) {
		mermaid_table(out, i, &tables[i], L);
		mermaid_entities(out, i, &tables[i], L);
	}
}

/* ---- SVG ------------------------------------------------------------------------------- */

/* The layout: entities on the left, each table's box of indexes on the
 * right, one row each. */
enum {
	WIDTH = 720, ROW = 34, BOX_H = 26, HEAD = 34, GAP = 18,
	LEFT_X = 8, LEFT_W = 240, RIGHT_X = 400, RIGHT_W = 312,
	NAME_UNITS = 32   /* about what a box holds: one unit a Latin letter, two a CJK one */
};

/* A name cut to what its box holds, escaped; the whole name goes into a
 * <title> for the reader who points at it. */
static void svg_name(strbuf *out, const char *s, size_t units)
{
	const unsigned char *p = (const unsigned char *)(s ? s : ""), *end = p + strlen((const char *)p);
	const unsigned char *cut = p;
	size_t used = 0, len;
	unsigned cp;
	for (; cut < end; cut += len) {
		if (!(len = ddbc_utf8_decode(cut, end, &cp)))
			len = 1, cp = '?';
		size_t w = cp >= 0x1100 ? 2 : 1;
		if (used + w > units)
			break;
		used += w;
	}
	strbuf part = STRBUF_INIT;
	strbuf_add(&part, (const char *)p, (size_t)(cut - p));
	ddbc_doc_escape(out, part.buf ? part.buf : "", DDBC_ESC_HTML_LINE);
	if (cut < end)
		strbuf_addstr(out, "…");
	strbuf_release(&part);
}

static void svg_box(strbuf *out, const char *cls, int x, int y, int w, const char *name,
		    const char *extra, size_t units)
{
	strbuf_addf(out, "<g class=\"%s\"><title>", cls);
	ddbc_doc_escape(out, name ? name : "", DDBC_ESC_HTML_LINE);
	strbuf_addf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\"></rect>"
			 "<text x=\"%d\" y=\"%d\">", x, y, w, BOX_H, x + 8, y + 17);
	svg_name(out, name, units);
	if (extra)
		ddbc_doc_escape(out, extra, DDBC_ESC_HTML_LINE);
	strbuf_addstr(out, "</text></g>\n");
}

static void svg_line(strbuf *out, int y1, int y2, const char *label)
{
	int x1 = LEFT_X + LEFT_W, x2 = RIGHT_X + 10;
	strbuf_addf(out, "<path class=\"edge\" d=\"M%d %d C%d %d, %d %d, %d %d\"></path>\n", x1,
		    y1 + BOX_H / 2, x1 + 70, y1 + BOX_H / 2, x2 - 70, y2 + BOX_H / 2, x2,
		    y2 + BOX_H / 2);
	if (label)
		strbuf_addf(out, "<text class=\"count\" x=\"%d\" y=\"%d\">%s</text>\n", x2 - 44,
			    y2 + BOX_H / 2 - 3, label);
}

static int index_y(int top, size_t s)
{
	return top + HEAD + (int)s * ROW;
}

static size_t entity_rows(const ddbc_table *t)
{
	return many(t) ? 1 : t->nentities;
}

static void svg_entities(strbuf *out, const ddbc_table *t, int top, const ddbc_doc_labels *L)
{
	if (many(t)) {
		strbuf count = STRBUF_INIT;
		strbuf_addf(&count, L->n_entities, t->nentities);
		svg_box(out, "entity c7", LEFT_X, top + HEAD, LEFT_W, count.buf, NULL, NAME_UNITS);
		strbuf_release(&count);
		for (size_t s = 0; s < t->nindexes; s++) {
			char label[32];
			snprintf(label, sizeof label, "%zu", s ? members(t, s) : t->nentities);
			svg_line(out, top + HEAD, index_y(top, s), label);
		}
		return;
	}
	for (size_t k = 0; k < t->nentities; k++) {
		int y = top + HEAD + (int)k * ROW;
		char cls[32];
		snprintf(cls, sizeof cls, "entity c%zu", k % 8);
		svg_box(out, cls, LEFT_X, y, LEFT_W, t->entities[k]->name.s, NULL, NAME_UNITS);
		for (size_t s = 0; s < t->nindexes; s++)
			if (in_index(t->entities[k], s))
				svg_line(out, y, index_y(top, s), NULL);
	}
}

/* A table's box and its indexes; returns the height it took. */
static int svg_table(strbuf *out, const ddbc_table *t, int top, const ddbc_doc_labels *L)
{
	size_t rows = t->nindexes > entity_rows(t) ? t->nindexes : entity_rows(t);
	int h = HEAD + (int)rows * ROW;
	strbuf_addf(out, "<g class=\"table\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
			 "rx=\"8\"></rect><text x=\"%d\" y=\"%d\">",
		    RIGHT_X, top, RIGHT_W, h, RIGHT_X + 10, top + 21);
	svg_name(out, L->table, NAME_UNITS);
	strbuf_addch(out, ' ');
	svg_name(out, t->name.s, NAME_UNITS);
	strbuf_addstr(out, "</text></g>\n");
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		strbuf extra = STRBUF_INIT;
		strbuf_addf(&extra, " (%s)", L->kind[ix->kind]);
		svg_box(out, s ? "index" : "index base", RIGHT_X + 10, index_y(top, s), RIGHT_W - 20,
			ix->name.s, extra.buf, NAME_UNITS - 6);
		strbuf_release(&extra);
	}
	svg_entities(out, t, top, L);
	return h;
}

void ddbc_diagram_svg(strbuf *out, const ddbc_table *tables, size_t n, const ddbc_doc_labels *L)
{
	int height = 0;
	for (size_t i = 0; i < n; i++) {
		size_t rows = tables[i].nindexes > entity_rows(&tables[i]) ? tables[i].nindexes
									    : entity_rows(&tables[i]);
		height += HEAD + (int)rows * ROW + GAP;
	}
	strbuf_addf(out, "<figure class=\"diagram\"><svg class=\"diagram\" viewBox=\"0 0 %d %d\" "
			 "role=\"img\" aria-label=\"",
		    WIDTH, height);
	ddbc_doc_escape(out, L->diagram, DDBC_ESC_HTML_LINE);
	strbuf_addstr(out, "\">\n");
	int top = 0;
	for (size_t i = 0; i < n; i++)
		top += svg_table(out, &tables[i], top, L) + GAP;
	strbuf_addstr(out, "</svg></figure>\n");
}
