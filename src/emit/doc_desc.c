/* doc_desc.c - the user's Markdown through cmark-gfm, made safe */
#include "emit/doc_desc.h"
#include "emit/doc_escape.h"
#include "util/xalloc.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <stdlib.h>
#include <string.h>

/* ---- cleaning the tree ---------------------------------------------------------------- */

/* Raw HTML becomes text showing it: inline HTML a text node, an HTML block
 * a paragraph of its lines. */
static cmark_node *html_as_text(cmark_node *n)
{
	const char *lit = cmark_node_get_literal(n);
	if (cmark_node_get_type(n) == CMARK_NODE_HTML_INLINE) {
		cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
		cmark_node_set_literal(t, lit);
		return t;
	}
	cmark_node *para = cmark_node_new(CMARK_NODE_PARAGRAPH);
	for (const char *p = lit ? lit : ""; *p;) {
		size_t n1 = strcspn(p, "\n");
		char *line = ddbc_xstrndup(p, n1);
		cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
		cmark_node_set_literal(t, line);
		free(line);
		cmark_node_append_child(para, t);
		p += n1;
		if (*p == '\n' && *++p)
			cmark_node_append_child(para, cmark_node_new(CMARK_NODE_SOFTBREAK));
	}
	return para;
}

/* The text a heading shows, which GitHub's ids are made from. */
static void heading_text(cmark_node *h, strbuf *out)
{
	cmark_iter *it = cmark_iter_new(h);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_HTML_INLINE)
			ddbc_strbuf_addstr(out, cmark_node_get_literal(n));
		else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			ddbc_strbuf_addch(out, '\n');
	}
	cmark_iter_free(it);
}

/* A top-level heading one level down, with the next id of the document. */
static void claim_heading(ddbc_doc_desc *d, cmark_node *n, ddbc_slugger *slugs)
{
	strbuf text = STRBUF_INIT;
	heading_text(n, &text);
	ddbc_xgrow((void **)&d->ids, &d->cap, d->nids + 1, sizeof(char *));
	d->ids[d->nids++] = ddbc_slug(slugs, ddbc_strbuf_str(&text), text.len);
	ddbc_strbuf_release(&text);
}

static void clean(ddbc_doc_desc *d, ddbc_slugger *slugs)
{
	cmark_iter *it = cmark_iter_new(d->root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK) {
			cmark_node *x = html_as_text(n);
			cmark_node_replace(n, x);
			cmark_node_free(n);
			cmark_iter_reset(it, x, CMARK_EVENT_EXIT);
		} else if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
			const char *url = cmark_node_get_url(n);
			if (url && !ddbc_doc_safe_url(url, strlen(url)))
				cmark_node_set_url(n, "");
		} else if (t == CMARK_NODE_HEADING) {
			int level = cmark_node_get_heading_level(n);
			cmark_node_set_heading_level(n, level < 6 ? level + 1 : 6);
			if (cmark_node_parent(n) == d->root)
				claim_heading(d, n, slugs);
		}
	}
	cmark_iter_free(it);
}

static void attach_tables(cmark_parser *parser)
{
	cmark_gfm_core_extensions_ensure_registered();
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(parser, table);
}

void ddbc_doc_desc_parse(ddbc_doc_desc *d, const char *text, ddbc_slugger *slugs)
{
	memset(d, 0, sizeof(*d));
	cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
	attach_tables(parser);
	cmark_parser_feed(parser, text, strlen(text));
	d->root = cmark_parser_finish(parser);
	/* The tree keeps the extensions it was parsed with; the parser may go. */
	cmark_parser_free(parser);
	clean(d, slugs);
}

void ddbc_doc_desc_release(ddbc_doc_desc *d)
{
	if (d->root)
		cmark_node_free(d->root);
	free(d->ids);
	memset(d, 0, sizeof(*d));
}

/* ---- rendering ------------------------------------------------------------------------ */

static void add_cmark_text(strbuf *out, char *text)
{
	ddbc_strbuf_addstr(out, text);
	cmark_get_default_mem_allocator()->free(text);
}

void ddbc_doc_desc_markdown(const ddbc_doc_desc *d, strbuf *out)
{
	add_cmark_text(out, cmark_render_commonmark(d->root, CMARK_OPT_DEFAULT, 0));
}

static cmark_node *custom_block(const char *on_enter, const char *on_exit)
{
	cmark_node *c = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
	cmark_node_set_on_enter(c, on_enter);
	cmark_node_set_on_exit(c, on_exit);
	return c;
}

/* The heading as <hN id="ID" class="user">...<a class="anchor"></hN>: a
 * custom block holding ddbc's markup and the escaped id, the heading's
 * text moved into it, so cmark still escapes that. Returns the heading,
 * which the caller frees after rendering: its children's text lives in
 * its buffer. */
static cmark_node *anchor_heading(cmark_node *h, const char *id)
{
	int level = cmark_node_get_heading_level(h);
	strbuf enter = STRBUF_INIT, exit_ = STRBUF_INIT;
	ddbc_strbuf_addf(&enter, "<h%d", level);
	if (*id) {
		ddbc_strbuf_addstr(&enter, " id=\"");
		ddbc_doc_escape(&enter, id, DDBC_ESC_HTML);
		ddbc_strbuf_addch(&enter, '"');
		ddbc_strbuf_addstr(&exit_, "<a class=\"anchor\" href=\"#");
		ddbc_doc_escape(&exit_, id, DDBC_ESC_HREF);
		ddbc_strbuf_addstr(&exit_, "\" aria-hidden=\"true\">#</a>");
	}
	ddbc_strbuf_addstr(&enter, " class=\"user\">");
	ddbc_strbuf_addf(&exit_, "</h%d>", level);
	cmark_node *c = custom_block(ddbc_strbuf_str(&enter), ddbc_strbuf_str(&exit_));
	ddbc_strbuf_release(&enter);
	ddbc_strbuf_release(&exit_);
	cmark_node *child;
	while ((child = cmark_node_first_child(h)))
		cmark_node_append_child(c, child);
	cmark_node_replace(h, c);
	return h;
}

/* A table inside a container that scrolls sideways when it is too wide. */
static void wrap_table(cmark_node *table)
{
	cmark_node *wrap = custom_block("<div class=\"table-wrap user\" tabindex=\"0\">", "</div>");
	cmark_node_insert_before(table, wrap);
	cmark_node_append_child(wrap, table);
}

void ddbc_doc_desc_html(ddbc_doc_desc *d, strbuf *out)
{
	cmark_node **old = ddbc_xcalloc(d->nids + 1, sizeof(cmark_node *));
	size_t heading = 0;
	for (cmark_node *n = cmark_node_first_child(d->root), *next; n; n = next) {
		next = cmark_node_next(n);
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING && heading < d->nids) {
			old[heading] = anchor_heading(n, d->ids[heading]);
			heading++;
		} else if (!strcmp(cmark_node_get_type_string(n), "table")) {
			wrap_table(n);
		}
	}
	/* Safe mode: raw HTML is not passed through, dangerous URLs dropped. */
	add_cmark_text(out, cmark_render_html(d->root, CMARK_OPT_DEFAULT, NULL));
	for (size_t i = 0; i < heading; i++)
		cmark_node_free(old[i]);
	free(old);
}

/* Whether inline Markdown is only text: none of the characters that can
 * start markup ('!' and ']' only mean something after a '[', '>' after a
 * '<', and the autolink extension is not used). */
static bool plain(const char *s)
{
	return !strpbrk(s, "\\`*_[<&");
}

void ddbc_doc_inline_html(strbuf *out, const char *markdown)
{
	strbuf md = STRBUF_INIT;
	ddbc_doc_escape(&md, markdown, DDBC_ESC_MD_INLINE_PARA);
	const char *text = ddbc_strbuf_str(&md);
	if (plain(text)) {
		/* What cmark would make of it, without its tree: most
		 * descriptions are plain words, and a large design has
		 * tens of thousands. */
		ddbc_doc_escape(out, text, DDBC_ESC_HTML);
		ddbc_strbuf_release(&md);
		return;
	}
	cmark_node *root = cmark_parse_document(text, md.len, CMARK_OPT_DEFAULT);
	char *html = cmark_render_html(root, CMARK_OPT_DEFAULT, NULL);
	/* One paragraph (the escaper saw to that): its content only. */
	size_t len = strlen(html);
	if (len >= 8 && !strncmp(html, "<p>", 3) && !strcmp(html + len - 5, "</p>\n"))
		ddbc_strbuf_add(out, html + 3, len - 8);
	else
		ddbc_strbuf_add(out, html, len);
	cmark_get_default_mem_allocator()->free(html);
	cmark_node_free(root);
	ddbc_strbuf_release(&md);
}
