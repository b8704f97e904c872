/* lsp_nav.c - hover and go to definition
 *
 * Both read the model the check built from the buffer: a name under the
 * cursor is looked up as the part of the design that encloses the line
 * would look it up (an attribute of this entity, an index of this
 * pattern's table), and answered from the model's own positions.
 */
#define _GNU_SOURCE /* memmem */
#include "lsp/lsp_int.h"
#include "util/embedded.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

int ddbc_lsp_at_of(lsp_server *s, const json_t *params, lsp_at *at, const char **why)
{
	const char *uri;
	json_int_t line, character;
	if (json_unpack((json_t *)params, "{s:{s:s}, s:{s:I, s:I}}", "textDocument", "uri", &uri,
			"position", "line", &line, "character", &character) < 0 || line < 0 ||
	    character < 0) {
		*why = "expected textDocument.uri and position {line, character}";
		return -1;
	}
	at->doc = ddbc_lsp_doc_find(s, uri);
	if (!at->doc) {
		*why = "the document is not open: send textDocument/didOpen first";
		return -1;
	}
	ddbc_lsp_doc_analyse(s, at->doc);
	at->line = (unsigned)line + 1;
	at->text = ddbc_lsp_doc_line(at->doc, at->line, &at->len);
	if (!at->text) {
		at->text = "";
		at->len = 0;
	}
	size_t ch = (size_t)character;
	if (at->line == 1 && at->doc->text.len >= 3 && !memcmp(at->doc->text.buf, "\xEF\xBB\xBF", 3))
		ch = ch ? ch - 1 : 0;
	at->byte = ddbc_lsp_offset(at->text, at->len, 0, ch);
	return 0;
}

static bool word_char(char c)
{
	return c && !strchr(" \t\r\n:,{}[]\"'#|>&*!%@`", c);
}

size_t ddbc_lsp_word_at(const lsp_at *at, size_t *start)
{
	size_t b = at->byte;
	if ((b >= at->len || !word_char(at->text[b])) && b > 0 && word_char(at->text[b - 1]))
		b--;
	if (b >= at->len || !word_char(at->text[b]))
		return 0;
	size_t s = b, e = b;
	while (s > 0 && word_char(at->text[s - 1]))
		s--;
	while (e < at->len && word_char(at->text[e]))
		e++;
	*start = s;
	return e - s;
}

/* ---- what encloses a line ---- */

lsp_scope ddbc_lsp_scope_of(const ddbc_design *g, unsigned line)
{
	lsp_scope sc = { NULL, NULL, NULL };
	unsigned best = 0;
	for (size_t i = 0; i < g->nentities; i++)
		if (g->entities[i].name.loc.line <= line && g->entities[i].name.loc.line > best) {
			best = g->entities[i].name.loc.line;
			sc = (lsp_scope){ &g->entities[i], NULL, g->entities[i].table };
		}
	for (size_t i = 0; i < g->npatterns; i++)
		if (g->patterns[i].id.loc.line <= line && g->patterns[i].id.loc.line > best) {
			best = g->patterns[i].id.loc.line;
			sc = (lsp_scope){ NULL, &g->patterns[i], g->patterns[i].table };
		}
	for (size_t i = 0; i < g->ntables; i++)
		if (g->tables[i].name.loc.line <= line && g->tables[i].name.loc.line > best) {
			best = g->tables[i].name.loc.line;
			sc = (lsp_scope){ NULL, NULL, &g->tables[i] };
		}
	return sc;
}

/* ---- looking a name up ---- */

typedef enum found_kind { FOUND_NONE, FOUND_ENTITY, FOUND_INDEX, FOUND_TABLE, FOUND_ATTR,
			  FOUND_PARAM } found_kind;

typedef struct found {
	found_kind kind;
	const ddbc_entity *entity;
	const ddbc_index *index;
	const ddbc_table *table;
	const ddbc_attr *attr;
	const ddbc_pattern *pattern; /* FOUND_PARAM's */
	ddbc_loc loc;            /* where it is defined */
} found;

static const ddbc_index *index_named(const ddbc_design *g, const ddbc_table *prefer,
				     const char *name)
{
	const ddbc_index *ix = prefer ? ddbc_table_index(prefer, name) : NULL;
	for (size_t i = 0; !ix && i < g->ntables; i++)
		ix = ddbc_table_index(&g->tables[i], name);
	return ix;
}

/* An attribute called name of the entities a pattern (or table) concerns. */
static const ddbc_attr *attr_of_scope(const lsp_scope *sc, const char *name)
{
	if (sc->entity)
		return ddbc_entity_attr(sc->entity, name);
	const ddbc_pattern *p = sc->pattern;
	for (size_t i = 0; p && i < p->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], name);
		if (a)
			return a;
	}
	for (size_t i = 0; sc->table && i < sc->table->nentities; i++) {
		const ddbc_attr *a = ddbc_entity_attr(sc->table->entities[i], name);
		if (a)
			return a;
	}
	return NULL;
}

/* Where a pattern first writes parameter {name}. */
static bool param_loc(const lsp_doc *doc, const ddbc_pattern *p, const char *name,
		      ddbc_loc *loc)
{
	strbuf pat = STRBUF_INIT;
	ddbc_strbuf_addf(&pat, "{%s}", name);
	const ddbc_pattern *end = p + 1;
	const ddbc_design *g = ddbc_lsp_doc_model(doc);
	unsigned last = end < g->patterns + g->npatterns ? end->id.loc.line : (unsigned)-1;
	bool ok = false;
	for (unsigned l = p->id.loc.line; !ok && l < last; l++) {
		size_t len;
		const char *text = ddbc_lsp_doc_line(doc, l, &len);
		if (!text)
			break;
		const char *hit = memmem(text, len, pat.buf, pat.len);
		if (hit) {
			size_t col = 1;
			for (const char *q = text; q < hit + 1; q++)
				col += ((unsigned char)*q & 0xC0) != 0x80;
			*loc = (ddbc_loc){ l, (unsigned)col };
			ok = true;
		}
	}
	ddbc_strbuf_release(&pat);
	return ok;
}

static found lookup(const lsp_at *at)
{
	found f = { FOUND_NONE, NULL, NULL, NULL, NULL, NULL, { 0, 0 } };
	const ddbc_design *g = ddbc_lsp_doc_model(at->doc);
	size_t start, n = g ? ddbc_lsp_word_at(at, &start) : 0;
	if (!n)
		return f;
	char *name = ddbc_xstrndup(at->text + start, n);
	lsp_scope sc = ddbc_lsp_scope_of(g, at->line);
	bool braced = start > 0 && at->text[start - 1] == '{' && start + n < at->len &&
		      at->text[start + n] == '}';
	const ddbc_entity *e;
	const ddbc_index *ix;
	const ddbc_table *t;
	const ddbc_attr *a;
	if (braced && sc.pattern && param_loc(at->doc, sc.pattern, name, &f.loc)) {
		f.kind = FOUND_PARAM;
		f.pattern = sc.pattern;
	}
	else if ((a = attr_of_scope(&sc, name)))
		f = (found){ FOUND_ATTR, a->entity, NULL, NULL, a, NULL, a->name.loc };
	else if ((e = ddbc_design_entity(g, name)))
		f = (found){ FOUND_ENTITY, e, NULL, e->table, NULL, NULL, e->name.loc };
	else if ((t = ddbc_design_table(g, name)))
		f = (found){ FOUND_TABLE, NULL, &t->primary, t, NULL, NULL, t->name.loc };
	else if ((ix = index_named(g, sc.table, name)))
		f = (found){ FOUND_INDEX, NULL, ix, ix->table, NULL, NULL, ix->name.loc };
	free(name);
	return f;
}

/* ---- definition ---- */

json_t *ddbc_lsp_definition(lsp_server *s, const json_t *params, const char **why)
{
	lsp_at at;
	if (ddbc_lsp_at_of(s, params, &at, why) < 0)
		return NULL;
	found f = lookup(&at);
	return f.kind == FOUND_NONE ? json_null() : ddbc_lsp_location(at.doc, f.loc);
}

/* ---- hover ---- */

static void key_names(strbuf *sb, const ddbc_name *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addf(sb, "%s`%s`", i ? ", " : "", names[i].s ? names[i].s : "?");
}

static void index_summary(strbuf *sb, const ddbc_index *ix)
{
	static const char *const kinds[] = { "table", "GSI", "LSI" };
	static const char *const projections[] = { "all", "keys only", "include" };
	ddbc_strbuf_addf(sb, "**%s** `%s`", kinds[ix->kind], ix->name.s);
	if (ix->kind != DDBC_INDEX_PRIMARY && ix->table)
		ddbc_strbuf_addf(sb, " of table `%s`", ix->table->name.s);
	ddbc_strbuf_addstr(sb, "\n\npartition key ");
	key_names(sb, ix->pk, ix->npk);
	if (ix->nsk) {
		ddbc_strbuf_addstr(sb, ", sort key ");
		key_names(sb, ix->sk, ix->nsk);
	}
	if (ix->kind != DDBC_INDEX_PRIMARY) {
		ddbc_strbuf_addf(sb, "; projection: %s", projections[ix->projection]);
		if (ix->projection == DDBC_PROJ_INCLUDE) {
			ddbc_strbuf_addstr(sb, " ");
			key_names(sb, ix->include, ix->ninclude);
		}
	}
	if (ix->description)
		ddbc_strbuf_addf(sb, "\n\n%s", ix->description);
}

static void entity_summary(strbuf *sb, const ddbc_entity *e)
{
	ddbc_strbuf_addf(sb, "**entity** `%s`", e->name.s);
	if (e->table)
		ddbc_strbuf_addf(sb, " in table `%s`", e->table->name.s);
	ddbc_strbuf_addf(sb, ": %zu attribute%s", (size_t)e->nattrs, e->nattrs == 1 ? "" : "s");
	for (size_t i = 0; e->table && i < e->table->primary.npk + e->table->primary.nsk; i++) {
		const ddbc_index *ix = &e->table->primary;
		const char *key = i < ix->npk ? ix->pk[i].s : ix->sk[i - ix->npk].s;
		const ddbc_attr *a = key ? ddbc_entity_attr(e, key) : NULL;
		if (a && a->template.s)
			ddbc_strbuf_addf(sb, "\n- `%s`: `%s`", key, a->template.s);
	}
	if (e->description)
		ddbc_strbuf_addf(sb, "\n\n%s", e->description);
}

/* text as one cell of a Markdown table: on one line, its bars escaped. */
static void cell(strbuf *sb, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++) {
		if (*p == '|')
			ddbc_strbuf_addch(sb, '\\');
		ddbc_strbuf_addch(sb, *p == '\n' || *p == '\r' ? ' ' : *p);
	}
}

/* The attribute's row of the documentation's attribute table. */
static void attr_row(strbuf *sb, const ddbc_attr *a)
{
	ddbc_strbuf_addf(sb, "**attribute** `%s` of `%s`\n\n"
		    "| Attribute | Type | Required | Template | Format | Description |\n"
		    "|---|---|---|---|---|---|\n| `%s` | %s | %s | ",
		    a->name.s, a->entity->name.s, a->name.s, ddbc_type_long(a->type),
		    a->required || a->is_key ? "yes" : "no");
	if (a->template.s) {
		ddbc_strbuf_addch(sb, '`');
		cell(sb, a->template.s);
		ddbc_strbuf_addch(sb, '`');
	}
	ddbc_strbuf_addstr(sb, " | ");
	cell(sb, a->text->format);
	ddbc_strbuf_addstr(sb, " | ");
	cell(sb, a->text->description);
	ddbc_strbuf_addstr(sb, " |");
}

/* The findings at the position: their messages and rule pages. */
static void findings_at(strbuf *sb, const lsp_at *at)
{
	for (size_t i = 0; i < at->doc->d.n; i++) {
		const ddbc_diag *g = &at->doc->d.items[i];
		if (g->loc.line != at->line || g->suppressed)
			continue;
		size_t from = ddbc_lsp_bytes_of_column(at->text, at->len, g->loc.column);
		size_t to = ddbc_lsp_token_end(at->text, at->len, from);
		if (at->byte < from || at->byte > to)
			continue;
		const char *id = ddbc_rule_get(g->rule)->id;
		strbuf page = STRBUF_INIT;
		ddbc_strbuf_addf(&page, "rules/%s.md", id);
		const ddbc_embedded_file *f = ddbc_embedded_find(page.buf);
		ddbc_strbuf_release(&page);
		ddbc_strbuf_addf(sb, "%s**%s** `%s`: %s\n\n", sb->len ? "\n\n---\n\n" : "",
			    ddbc_severity_name(g->severity), id, g->message);
		if (f)
			ddbc_strbuf_add(sb, f->data, f->len);
	}
}

/* A parameter: its pattern, and its value in the pattern's example. */
static void param_summary(strbuf *sb, const lsp_at *at, const found *f)
{
	size_t start, n = ddbc_lsp_word_at(at, &start);
	ddbc_strbuf_addf(sb, "**parameter** `%.*s` of access pattern `%s`", (int)n, at->text + start,
		    f->pattern->id.s);
	char *name = ddbc_xstrndup(at->text + start, n);
	const ddbc_pval *ex = f->pattern->example, *v = ex ? ddbc_pval_get(ex, name) : NULL;
	if (v && ddbc_pval_text(v))
		ddbc_strbuf_addf(sb, "\n\nexample: `%s`", ddbc_pval_text(v));
	free(name);
}

json_t *ddbc_lsp_hover(lsp_server *s, const json_t *params, const char **why)
{
	lsp_at at;
	if (ddbc_lsp_at_of(s, params, &at, why) < 0)
		return NULL;
	strbuf sb = STRBUF_INIT;
	findings_at(&sb, &at);
	if (!sb.len) {
		found f = lookup(&at);
		if (f.kind == FOUND_ATTR)
			attr_row(&sb, f.attr);
		else if (f.kind == FOUND_ENTITY)
			entity_summary(&sb, f.entity);
		else if (f.kind == FOUND_INDEX || f.kind == FOUND_TABLE)
			index_summary(&sb, f.index);
		else if (f.kind == FOUND_PARAM)
			param_summary(&sb, &at, &f);
	}
	json_t *r = sb.len ? json_pack("{s:{s:s, s:s}}", "contents", "kind", "markdown", "value",
				       sb.buf)
			   : json_null();
	ddbc_strbuf_release(&sb);
	return r;
}
