/* emit_html.c - the documentation as one HTML page
 *
 * The Markdown of emit_md.c goes through cmark-gfm with the table extension
 * in its default, safe mode: raw HTML is not passed through and dangerous
 * URLs are dropped. Before rendering, the tree gets what Markdown cannot
 * say, from the marks the document left: each top-level heading becomes a
 * custom block writing <hN id="..."> with the anchor the document's links
 * use, each table is wrapped in a scrolling container, and the table of
 * contents becomes a <nav>. Custom blocks hold only ddbc's own markup and
 * HTML-escaped ids, never user text; user text stays in cmark's text
 * nodes, which it escapes. The Markdown is rendered part by part (each
 * part is whole top-level blocks, so it parses as in the whole document)
 * into page.html's {{body}}, with style.css inlined as {{style}}, so the
 * page is one file.
 */
#include "emit/emit_md.h"
#include "util/source.h"
#include "util/xalloc.h"

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifndef DDBC_PKGDATADIR
#define DDBC_PKGDATADIR "/usr/local/share/ddbc"
#endif

static void put_escaped(strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': strbuf_addstr(sb, "&amp;"); break;
		case '<': strbuf_addstr(sb, "&lt;"); break;
		case '>': strbuf_addstr(sb, "&gt;"); break;
		case '"': strbuf_addstr(sb, "&quot;"); break;
		case '\'': strbuf_addstr(sb, "&#39;"); break;
		default: strbuf_addch(sb, *s);
		}
	}
}

/* ---- decorating the tree ------------------------------------------------------------- */

typedef struct decorator {
	const ddbc_doc *doc;
	size_t next_mark;
	ddbc_slugger slugs;      /* ddbc's ids, then ids for the user's headings */
	cmark_node **old;        /* nodes replaced, freed after rendering: their text */
	size_t nold, cap;        /* lives in their buffers */
} decorator;

static const ddbc_doc_mark *mark_at(decorator *dc, int line)
{
	const ddbc_doc *doc = dc->doc;
	while (dc->next_mark < doc->nmarks && doc->marks[dc->next_mark].line < (size_t)line)
		dc->next_mark++;
	if (dc->next_mark < doc->nmarks && doc->marks[dc->next_mark].line == (size_t)line)
		return &doc->marks[dc->next_mark];
	return NULL;
}

static const char *kind_class(const ddbc_doc_mark *m)
{
	static const char *const names[] = {
		[DDBC_DOC_TITLE] = "title", [DDBC_DOC_CONTENTS] = "contents",
		[DDBC_DOC_TABLE] = "table", [DDBC_DOC_INDEXES] = "indexes",
		[DDBC_DOC_INDEX_MAP] = "index-map", [DDBC_DOC_ENTITY] = "entity",
		[DDBC_DOC_PATTERNS] = "patterns", [DDBC_DOC_PATTERN] = "pattern",
		[DDBC_DOC_OTHER] = "other", [DDBC_DOC_INDEX_TABLE] = "indexes",
		[DDBC_DOC_MAP_TABLE] = "index-map", [DDBC_DOC_ATTR_TABLE] = "attributes",
		[DDBC_DOC_PATTERN_TABLE] = "patterns",
	};
	return m ? names[m->kind] : "user";
}

static cmark_node *custom_block(const char *on_enter, const char *on_exit)
{
	cmark_node *c = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
	cmark_node_set_on_enter(c, on_enter);
	cmark_node_set_on_exit(c, on_exit);
	return c;
}

/* The heading as <hN id="ID" class="KIND">...</hN> with a link to itself. */
static cmark_node *anchor_heading(decorator *dc, cmark_node *h, const ddbc_doc_mark *m)
{
	const char *id = m ? m->id : NULL;
	if (!id) {
		strbuf text = STRBUF_INIT;
		ddbc_doc_heading_text(h, &text);
		id = ddbc_slug(&dc->slugs, strbuf_str(&text), text.len);
		strbuf_release(&text);
	}
	int level = cmark_node_get_heading_level(h);
	strbuf enter = STRBUF_INIT, exit_ = STRBUF_INIT;
	strbuf_addf(&enter, "<h%d", level);
	if (*id) {
		strbuf_addstr(&enter, " id=\"");
		put_escaped(&enter, id);
		strbuf_addch(&enter, '"');
	}
	strbuf_addf(&enter, " class=\"%s\">", kind_class(m));
	if (*id && (!m || m->kind != DDBC_DOC_TITLE)) {
		strbuf_addstr(&exit_, "<a class=\"anchor\" href=\"#");
		put_escaped(&exit_, id);
		strbuf_addstr(&exit_, "\" aria-hidden=\"true\">#</a>");
	}
	strbuf_addf(&exit_, "</h%d>", level);

	cmark_node *c = custom_block(strbuf_str(&enter), strbuf_str(&exit_));
	strbuf_release(&enter);
	strbuf_release(&exit_);
	cmark_node *child;
	while ((child = cmark_node_first_child(h)))
		cmark_node_append_child(c, child);
	cmark_node_replace(h, c);
	xgrow((void **)&dc->old, &dc->cap, dc->nold + 1, sizeof(cmark_node *));
	dc->old[dc->nold++] = h;
	return c;
}

/* The contents heading and its list, inside <nav>; returns what follows. */
static cmark_node *wrap_contents(cmark_node *heading)
{
	cmark_node *list = cmark_node_next(heading);
	cmark_node *nav = custom_block("<nav class=\"toc\">", "</nav>");
	cmark_node_insert_before(heading, nav);
	cmark_node_append_child(nav, heading);
	if (list && cmark_node_get_type(list) == CMARK_NODE_LIST)
		cmark_node_append_child(nav, list);
	return cmark_node_next(nav);
}

/* A table inside a container that scrolls sideways when it is too wide. */
static void wrap_table(cmark_node *table, const ddbc_doc_mark *m)
{
	strbuf enter = STRBUF_INIT;
	strbuf_addf(&enter, "<div class=\"table-wrap %s\" tabindex=\"0\">", kind_class(m));
	cmark_node *wrap = custom_block(strbuf_str(&enter), "</div>");
	strbuf_release(&enter);
	cmark_node_insert_before(table, wrap);
	cmark_node_append_child(wrap, table);
}

static void decorate(decorator *dc, cmark_node *root)
{
	cmark_node *n = cmark_node_first_child(root);
	while (n) {
		cmark_node *next = cmark_node_next(n);
		const ddbc_doc_mark *m = mark_at(dc, cmark_node_get_start_line(n));
		if (cmark_node_get_type(n) == CMARK_NODE_HEADING) {
			cmark_node *h = anchor_heading(dc, n, m);
			if (m && m->kind == DDBC_DOC_CONTENTS)
				next = wrap_contents(h);
		} else if (!strcmp(cmark_node_get_type_string(n), "table")) {
			wrap_table(n, m);
		}
		n = next;
	}
}

/* One part of the Markdown, decorated and rendered, written to out. */
static void render_part(decorator *dc, const ddbc_doc *doc, FILE *out)
{
	cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
	ddbc_doc_attach_extensions(parser);
	cmark_parser_feed(parser, strbuf_str(&doc->md), doc->md.len);
	cmark_node *root = cmark_parser_finish(parser);

	dc->doc = doc;
	dc->next_mark = 0;
	decorate(dc, root);
	char *html = cmark_render_html(root, CMARK_OPT_DEFAULT,
				       cmark_parser_get_syntax_extensions(parser));
	fputs(html, out);
	cmark_get_default_mem_allocator()->free(html);

	cmark_node_free(root);
	for (size_t i = 0; i < dc->nold; i++)
		cmark_node_free(dc->old[i]);
	dc->nold = 0;
	cmark_parser_free(parser);
}

/* ---- the page template ---------------------------------------------------------------- */

typedef struct var {
	const char *name;
	const char *value;
} var;

/* tpl (up to len) with each {{name}} of vars replaced by its value, other
 * text, and what the values hold, copied as it is. Stops at {{body}}:
 * returns how much of tpl it used, *body telling whether it stopped there. */
static size_t fill(FILE *out, const char *tpl, size_t len, const var *vars, size_t nvars,
		   bool *body)
{
	size_t i = 0;
	*body = false;
	while (i < len) {
		const char *open = strstr(tpl + i, "{{");
		if (!open || (size_t)(open - tpl) >= len) {
			fwrite(tpl + i, 1, len - i, out);
			return len;
		}
		fwrite(tpl + i, 1, (size_t)(open - (tpl + i)), out);
		i = (size_t)(open - tpl);
		if (!strncmp(open, "{{body}}", 8)) {
			*body = true;
			return i + 8;
		}
		size_t k;
		for (k = 0; k < nvars; k++) {
			size_t n = strlen(vars[k].name);
			if (!strncmp(open + 2, vars[k].name, n) && !strncmp(open + 2 + n, "}}", 2)) {
				fputs(vars[k].value, out);
				i += n + 4;
				break;
			}
		}
		if (k == nvars) {
			fputs("{{", out);
			i += 2;
		}
	}
	return len;
}

/* The directory of page.html and style.css: --template, else
 * $DDBC_TEMPLATE_DIR, else the installed one. */
static const char *template_dir(const ddbc_doc_opts *o)
{
	if (o && o->template_dir)
		return o->template_dir;
	const char *env = getenv("DDBC_TEMPLATE_DIR");
	if (env && *env)
		return env;
	return DDBC_PKGDATADIR;
}

static ddbc_source *read_template(const char *dir, const char *name)
{
	strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	ddbc_source *src = ddbc_source_read(path.buf);
	if (!src)
		fprintf(stderr, "ddbc: cannot read template '%s': %s\n", path.buf, strerror(errno));
	strbuf_release(&path);
	return src;
}

/* What the parts of the document are rendered into. */
typedef struct page {
	FILE *out;
	const ddbc_source *tpl, *style;
	const char *lang;
	size_t rest;             /* where page.html goes on after {{body}} */
	bool started, body;      /* body: page.html has a {{body}} */
	decorator dc;
} page;

/* The page's variables; doc->title is set before the first part. */
static size_t fill_page(page *pg, const ddbc_doc *doc, size_t from)
{
	strbuf title = STRBUF_INIT;
	put_escaped(&title, doc->title);
	const var vars[] = {
		{ "lang", pg->lang },
		{ "title", strbuf_str(&title) },
		{ "style", pg->style->text },
	};
	size_t end = fill(pg->out, pg->tpl->text + from, pg->tpl->len - from, vars,
			  sizeof(vars) / sizeof(vars[0]), &pg->body);
	strbuf_release(&title);
	return from + end;
}

static void page_part(void *ctx, const ddbc_doc *doc)
{
	page *pg = ctx;
	if (!pg->started) {
		pg->started = true;
		pg->rest = fill_page(pg, doc, 0);
		/* ddbc's own ids come first, so no heading of the user's takes one. */
		for (size_t i = 0; i < doc->nown; i++)
			ddbc_slug_reserve(&pg->dc.slugs, doc->own[i]);
	}
	if (pg->body)
		render_part(&pg->dc, doc, pg->out);
}

int ddbc_emit_html(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o, ddbc_diags *d)
{
	(void)d;
	const char *dir = template_dir(o);
	ddbc_source *tpl = read_template(dir, "page.html");
	ddbc_source *style = tpl ? read_template(dir, "style.css") : NULL;
	if (!tpl || !style) {
		ddbc_source_free(tpl);
		return DDBC_EMIT_FAILED;
	}
	ddbc_lang_id lang = o ? o->lang : DDBC_LANG_EN;
	page pg = { out, tpl, style, lang == DDBC_LANG_JA ? "ja" : "en", 0, false, false,
		    { NULL, 0, { 0 }, NULL, 0, 0 } };
	ddbc_slugger_init(&pg.dc.slugs);
	ddbc_doc doc;
	ddbc_doc_write(&doc, g, lang, page_part, &pg, false);
	/* The rest of the page; a second {{body}} is left empty. */
	while (pg.body)
		pg.rest = fill_page(&pg, &doc, pg.rest);

	ddbc_doc_release(&doc);
	ddbc_slugger_release(&pg.dc.slugs);
	free(pg.dc.old);
	ddbc_source_free(style);
	ddbc_source_free(tpl);
	return DDBC_EMIT_OK;
}
