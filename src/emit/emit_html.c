/* emit_html.c - the documentation as one HTML page
 *
 * The document (doc_write.c) through the HTML backend (doc_html.c), into
 * page.html's {{body}}, with style.css inlined as {{style}} so the page is
 * one file. The page's Content-Security-Policy (in page.html) allows no
 * script and loads nothing but https and data images.
 */
#include "emit/emit_md.h"
#include "util/error.h"
#include "util/output.h"
#include "util/embedded.h"
#include "util/source.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
 * $DDBC_TEMPLATE_DIR, else NULL: the copies compiled into the binary. */
static const char *template_dir(const ddbc_doc_opts *o)
{
	if (o && o->template_dir)
		return o->template_dir;
	const char *env = getenv("DDBC_TEMPLATE_DIR");
	if (env && *env)
		return env;
	return NULL;
}

/* The template file name of dir (NULL: the compiled-in copy); NULL, with
 * why added to err, when it cannot be had. */
static ddbc_source *read_template(const char *dir, const char *name, ddbc_err *err)
{
	strbuf path = STRBUF_INIT;
	ddbc_source *src;
	if (!dir) {
		ddbc_strbuf_addf(&path, "templates/%s", name);
		const ddbc_embedded_file *f = ddbc_embedded_find(path.buf);
		/* The build embeds both files: a miss is a broken build. */
		src = f ? ddbc_source_from_memory(path.buf, f->data, f->len) : NULL;
		if (!src)
			ddbc_err_add(err, NULL, "this build lacks the template '%s'", name);
	} else {
		ddbc_strbuf_addf(&path, "%s/%s", dir, name);
		src = ddbc_source_read(path.buf);
		if (!src)
			ddbc_err_add(err, NULL, "cannot read template '%s': %s (--template and "
				     "DDBC_TEMPLATE_DIR name a folder holding page.html and "
				     "style.css)", path.buf, strerror(errno));
	}
	ddbc_strbuf_release(&path);
	return src;
}

/* The page being written: page.html, filled in. */
typedef struct page {
	FILE *out;
	const ddbc_source *tpl, *style;
	const char *lang;
	char *title;             /* HTML-escaped */
	bool body;               /* the last fill stopped at a {{body}} */
} page;

/* page.html from from on, up to its next {{body}} or its end: returns
 * where it stopped. */
static size_t fill_page(page *pg, size_t from)
{
	const var vars[] = {
		{ "lang", pg->lang },
		{ "title", pg->title },
		{ "style", pg->style->text },
	};
	return from + fill(pg->out, pg->tpl->text + from, pg->tpl->len - from, vars,
			   sizeof(vars) / sizeof(vars[0]), &pg->body);
}

static char *html_title(const ddbc_design *g, ddbc_lang_id lang)
{
	char *plain = ddbc_doc_title(g, lang);
	strbuf title = STRBUF_INIT;
	ddbc_doc_escape(&title, plain, DDBC_ESC_HTML);
	free(plain);
	return ddbc_strbuf_detach(&title);
}

/* page.html and style.css, read once for every page. */
typedef struct templates {
	ddbc_source *page, *style;
} templates;

static int read_templates(templates *t, const ddbc_doc_opts *o)
{
	const char *dir = template_dir(o);
	ddbc_err *err = o ? o->err : NULL;
	t->page = read_template(dir, "page.html", err);
	t->style = t->page ? read_template(dir, "style.css", err) : NULL;
	if (t->page && t->style)
		return 0;
	ddbc_source_free(t->page);
	return -1;
}

static void free_templates(templates *t)
{
	ddbc_source_free(t->style);
	ddbc_source_free(t->page);
}

/* One page: the whole document (which NULL), or one page of a site. */
static void write_page(FILE *out, const templates *t, const ddbc_design *g, ddbc_lang_id lang,
		       const ddbc_doc_page *which)
{
	page pg = { out, t->page, t->style, lang == DDBC_LANG_JA ? "ja" : "en",
		    html_title(g, lang), false };
	size_t at = fill_page(&pg, 0);
	if (pg.body)
		ddbc_doc_write_page(&ddbc_doc_html, out, NULL, g, lang, which);
	/* The rest of the page; a second {{body}} is left empty. */
	while (pg.body)
		at = fill_page(&pg, at);
	free(pg.title);
}

ddbc_emit_result ddbc_emit_html(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o,
				ddbc_diags *d)
{
	(void)d;
	templates t;
	if (read_templates(&t, o) < 0)
		return DDBC_EMIT_FAILED;
	write_page(out, &t, g, o ? o->lang : DDBC_LANG_EN, NULL);
	free_templates(&t);
	return DDBC_EMIT_OK;
}

/* Writes the page of table (NULL: the index page) into dir. */
static int write_site_page(const char *dir, const templates *t, const ddbc_design *g,
			   ddbc_lang_id lang, const ddbc_table *table)
{
	char *file = ddbc_doc_page_file(table);
	strbuf path = STRBUF_INIT;
	ddbc_strbuf_addf(&path, "%s/%s", dir, file);
	free(file);
	ddbc_output out;
	int r = ddbc_output_open(&out, path.buf);
	if (r == 0) {
		ddbc_doc_page which = { table };
		write_page(out.f, t, g, lang, &which);
		r = ddbc_output_commit(&out);
	}
	ddbc_strbuf_release(&path);
	return r;
}

ddbc_emit_result ddbc_emit_html_site(const char *dir, const ddbc_design *g,
				     const ddbc_doc_opts *o, ddbc_diags *d)
{
	(void)d;
	templates t;
	if (read_templates(&t, o) < 0)
		return DDBC_EMIT_FAILED;
	ddbc_lang_id lang = o ? o->lang : DDBC_LANG_EN;
	int r = write_site_page(dir, &t, g, lang, NULL);
	for (size_t i = 0; r == 0 && i < g->ntables; i++)
		r = write_site_page(dir, &t, g, lang, &g->tables[i]);
	free_templates(&t);
	return r == 0 ? DDBC_EMIT_OK : DDBC_EMIT_FAILED;
}
