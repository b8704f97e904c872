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
		case '"': ddbc_strbuf_addstr(out, "#quot;"); break;
		case '#': ddbc_strbuf_addstr(out, "#35;"); break;
		case '<': ddbc_strbuf_addstr(out, "#lt;"); break;
		case '>': ddbc_strbuf_addstr(out, "#gt;"); break;
		case '&': ddbc_strbuf_addstr(out, "#amp;"); break;
		case '`': ddbc_strbuf_addstr(out, "#96;"); break;
		case '\n': case '\r': case '\t': ddbc_strbuf_addch(out, ' '); break;
		default: ddbc_strbuf_addch(out, *s);
		}
	}
}

static void mermaid_key(strbuf *out, const ddbc_name *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			ddbc_strbuf_addstr(out, ", ");
		mermaid_text(out, names[i].s);
	}
}

static void mermaid_table(strbuf *out, size_t no, const ddbc_table *t, const ddbc_doc_labels *L)
{
	ddbc_strbuf_addf(out, "  subgraph t%zu[\"", no);
	mermaid_text(out, L->table);
	ddbc_strbuf_addch(out, ' ');
	mermaid_text(out, t->name.s);
	ddbc_strbuf_addstr(out, "\"]\n");
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		ddbc_strbuf_addf(out, "    t%zui%zu[\"", no, s);
		mermaid_text(out, ix->name.s);
		ddbc_strbuf_addf(out, " (%s)<br/>", L->kind[ix->kind]);
		mermaid_key(out, ix->pk, ix->npk);
		if (ix->nsk) {
			ddbc_strbuf_addstr(out, " · ");
			mermaid_key(out, ix->sk, ix->nsk);
		}
		ddbc_strbuf_addstr(out, "\"]\n");
	}
	ddbc_strbuf_addstr(out, "  end\n");
}

static void mermaid_entities(strbuf *out, size_t no, const ddbc_table *t,
			     const ddbc_doc_labels *L)
{
	if (many(t)) {
		ddbc_strbuf_addf(out, "  t%zue([\"", no);
		ddbc_strbuf_addf(out, L->n_entities, t->nentities);
		ddbc_strbuf_addstr(out, "\"])\n");
		for (size_t s = 0; s < t->nindexes; s++)
			ddbc_strbuf_addf(out, "  t%zue -- \"%zu\" --> t%zui%zu\n", no,
				    s ? members(t, s) : t->nentities, no, s);
		return;
	}
	for (size_t k = 0; k < t->nentities; k++) {
		ddbc_strbuf_addf(out, "  t%zue%zu([\"", no, k);
		mermaid_text(out, t->entities[k]->name.s);
		ddbc_strbuf_addstr(out, "\"])\n");
		for (size_t s = 0; s < t->nindexes; s++)
			if (in_index(t->entities[k], s))
				ddbc_strbuf_addf(out, "  t%zue%zu --> t%zui%zu\n", no, k, no, s);
	}
}

void ddbc_diagram_mermaid(strbuf *out, const ddbc_table *tables, size_t n,
			  const ddbc_doc_labels *L)
{
	ddbc_strbuf_addstr(out, "flowchart LR\n");
	for (size_t i = 0; i < n; i++) {
		mermaid_table(out, i, &tables[i], L);
		mermaid_entities(out, i, &tables[i], L);
	}
}

/* ---- SVG ------------------------------------------------------------------------------- */

/* The layout: one column, so that a phone shows it at full size. Per table
 * its name, then a card per index (its own key first): the index's name
 * and kind, its key attributes as the Mermaid chart shows them, and a chip
 * for each entity it holds, two to a row, each a link to the entity's
 * section. No lines: an entity of a sparse index is simply not on its
 * card, and nothing crosses. A table of more than DDBC_DIAGRAM_ENTITIES
 * entities gets a count on each card instead of the chips. */
enum {
	WIDTH = 400, PAD = 8, TITLE_H = 30, CARD_HEAD = 44, CHIP_H = 26, CHIP_GAP = 6,
	CARD_GAP = 10, TABLE_GAP = 18,
	CHIP_W = (WIDTH - 4 * PAD - CHIP_GAP) / 2,
	NAME_UNITS = 44, CHIP_UNITS = 20   /* what a line holds: a unit a Latin letter, two a CJK one */
};

/* A name cut to what its line holds, escaped; the whole name goes into a
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
	ddbc_strbuf_add(&part, (const char *)p, (size_t)(cut - p));
	ddbc_doc_escape(out, part.buf ? part.buf : "", DDBC_ESC_HTML_LINE);
	if (cut < end)
		ddbc_strbuf_addstr(out, "…");
	ddbc_strbuf_release(&part);
}

/* How many chips a card of index slot s holds. */
static size_t chips(const ddbc_table *t, size_t s)
{
	if (many(t))
		return 1;
	return s ? members(t, s) : t->nentities;
}

static int card_height(const ddbc_table *t, size_t s)
{
	size_t n = chips(t, s), rows = (n + 1) / 2;
	return CARD_HEAD + (int)rows * (CHIP_H + CHIP_GAP) + (rows ? PAD - CHIP_GAP : 0) + PAD / 2;
}

static int table_height(const ddbc_table *t)
{
	int h = TITLE_H;
	for (size_t s = 0; s < t->nindexes; s++)
		h += card_height(t, s) + CARD_GAP;
	return h;
}

/* An entity's chip; a link to its section when href is given. */
static void svg_chip(strbuf *out, const ddbc_entity *e, size_t colour, int x, int y,
		     const char *href)
{
	if (href) {
		ddbc_strbuf_addstr(out, "<a href=\"");
		ddbc_doc_escape(out, href, DDBC_ESC_HREF);
		ddbc_strbuf_addstr(out, "\">");
	}
	ddbc_strbuf_addf(out, "<g class=\"entity c%zu\"><title>", colour % 8);
	ddbc_doc_escape(out, e->name.s, DDBC_ESC_HTML_LINE);
	ddbc_strbuf_addf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\"></rect>"
			 "<text x=\"%d\" y=\"%d\">", x, y, CHIP_W, CHIP_H, x + 8, y + 17);
	svg_name(out, e->name.s, CHIP_UNITS);
	ddbc_strbuf_addstr(out, "</text></g>");
	ddbc_strbuf_addstr(out, href ? "</a>\n" : "\n");
}

/* The key line of an index: partition attributes · sort attributes. */
static void svg_key(strbuf *out, const ddbc_index *ix)
{
	strbuf key = STRBUF_INIT;
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		if (i)
			ddbc_strbuf_addstr(&key, i == ix->npk ? " · " : ", ");
		ddbc_strbuf_addstr(&key, i < ix->npk ? ix->pk[i].s : ix->sk[i - ix->npk].s);
	}
	svg_name(out, key.buf ? key.buf : "", NAME_UNITS);
	ddbc_strbuf_release(&key);
}

static void svg_card(strbuf *out, const ddbc_table *t, size_t s, int top,
		     const ddbc_diagram_links *links, const ddbc_doc_labels *L)
{
	const ddbc_index *ix = t->indexes[s];
	int x = PAD, w = WIDTH - 2 * PAD, h = card_height(t, s);
	ddbc_strbuf_addf(out, "<g class=\"%s\"><title>", s ? "index" : "index base");
	ddbc_doc_escape(out, ix->name.s, DDBC_ESC_HTML_LINE);
	ddbc_strbuf_addf(out, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"6\"></rect>"
			 "<text x=\"%d\" y=\"%d\">", x, top, w, h, x + 8, top + 18);
	svg_name(out, ix->name.s, NAME_UNITS - 12);
	ddbc_strbuf_addf(out, " (%s)</text><text class=\"key\" x=\"%d\" y=\"%d\">", L->kind[ix->kind],
		    x + 8, top + 36);
	svg_key(out, ix);
	ddbc_strbuf_addstr(out, "</text></g>\n");
	int y = top + CARD_HEAD;
	if (many(t)) {
		ddbc_strbuf_addf(out, "<text class=\"count\" x=\"%d\" y=\"%d\">", x + 8, y + 17);
		strbuf count = STRBUF_INIT;
		ddbc_strbuf_addf(&count, L->n_entities, s ? members(t, s) : t->nentities);
		ddbc_doc_escape(out, count.buf, DDBC_ESC_HTML_LINE);
		ddbc_strbuf_release(&count);
		ddbc_strbuf_addstr(out, "</text>\n");
		return;
	}
	for (size_t k = 0, n = 0; k < t->nentities; k++) {
		const ddbc_entity *e = t->entities[k];
		if (!in_index(e, s))
			continue;
		int cx = 2 * PAD + (int)(n % 2) * (CHIP_W + CHIP_GAP);
		int cy = y + (int)(n / 2) * (CHIP_H + CHIP_GAP);
		svg_chip(out, e, k, cx, cy, links ? links->href(links->ctx, e) : NULL);
		n++;
	}
}

/* A table's cards; returns the height it took. */
static int svg_table(strbuf *out, const ddbc_table *t, int top, const ddbc_diagram_links *links,
		     const ddbc_doc_labels *L)
{
	ddbc_strbuf_addf(out, "<g class=\"table\"><text x=\"%d\" y=\"%d\">", PAD, top + 20);
	svg_name(out, L->table, NAME_UNITS);
	ddbc_strbuf_addch(out, ' ');
	svg_name(out, t->name.s, NAME_UNITS);
	ddbc_strbuf_addstr(out, "</text></g>\n");
	int y = top + TITLE_H;
	for (size_t s = 0; s < t->nindexes; s++) {
		svg_card(out, t, s, y, links, L);
		y += card_height(t, s) + CARD_GAP;
	}
	return y - top;
}

void ddbc_diagram_svg(strbuf *out, const ddbc_table *tables, size_t n, const ddbc_doc_labels *L,
		      const ddbc_diagram_links *links)
{
	int height = 0;
	for (size_t i = 0; i < n; i++)
		height += table_height(&tables[i]) + TABLE_GAP;
	ddbc_strbuf_addf(out, "<figure class=\"diagram\"><svg class=\"diagram\" viewBox=\"0 0 %d %d\" "
			 "role=\"img\" aria-label=\"",
		    WIDTH, height);
	ddbc_doc_escape(out, L->diagram, DDBC_ESC_HTML_LINE);
	ddbc_strbuf_addstr(out, "\">\n");
	int top = 0;
	for (size_t i = 0; i < n; i++)
		top += svg_table(out, &tables[i], top, links, L) + TABLE_GAP;
	ddbc_strbuf_addstr(out, "</svg></figure>\n");
}
