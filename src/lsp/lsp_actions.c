/* lsp_actions.c - code actions: the fixes findings already state
 *
 * Three kinds, for the findings on the lines of the requested range (the
 * server's own findings of the buffer, not the client's copy):
 * - a "did you mean 'X'" finding: the name it quotes, where it stands on
 *   the finding's line, replaced by X;
 * - a range-bound-prefix finding that gives the bound to write ("end it
 *   with the character after '#': 'ORDER#{to}$'"): the bound replaced;
 * - any finding whose rule can be suppressed: a `# ddbc-ignore: RULE --
 *   reason` comment above its line, at its indentation.
 * The fixes are read from the messages, which state them for people in a
 * fixed form; the rule pages document that form.
 */
#include "lsp/lsp_int.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct actions {
	json_t *list;
	const lsp_doc *doc;
} actions;

static json_t *edit_at(const lsp_doc *doc, unsigned line, size_t from, size_t to,
		       const char *line_text, const char *new_text)
{
	size_t c0 = ddbc_lsp_utf16_of_bytes(line_text, from), c1 = ddbc_lsp_utf16_of_bytes(line_text, to);
	if (line == 1 && doc->text.len >= 3 && !memcmp(doc->text.buf, "\xEF\xBB\xBF", 3)) {
		c0++;
		c1++;
	}
	return json_pack("{s:{s:{s:I, s:I}, s:{s:I, s:I}}, s:s}", "range", "start", "line",
			 (json_int_t)line - 1, "character", (json_int_t)c0, "end", "line",
			 (json_int_t)line - 1, "character", (json_int_t)c1, "newText", new_text);
}

static void add_action(actions *a, const ddbc_diag *g, const char *title, json_t *edit,
		       bool preferred)
{
	json_t *act = json_pack("{s:s, s:s, s:[o], s:{s:{s:[o]}}}", "title", title, "kind",
				"quickfix", "diagnostics", ddbc_lsp_diagnostic(a->doc, g), "edit",
				"changes", a->doc->uri, edit);
	if (preferred)
		json_object_set_new(act, "isPreferred", json_true());
	json_array_append_new(a->list, act);
}

static bool name_char(char c)
{
	return c && (strchr("_-.$", c) || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
		     (c >= 'a' && c <= 'z') || (unsigned char)c >= 0x80);
}

/* The first whole occurrence of name in text at or after from: its
 * offset, or -1. */
static long find_name(const char *text, size_t len, size_t from, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = from; n && i + n <= len; i++)
		if (!memcmp(text + i, name, n) && (i == 0 || !name_char(text[i - 1])) &&
		    (i + n == len || !name_char(text[i + n])))
			return (long)i;
	return -1;
}

/* name without the braces of a placeholder ("{orderID}" -> "orderID"). */
static char *bare(const char *s, size_t n)
{
	if (n >= 2 && s[0] == '{' && s[n - 1] == '}')
		return ddbc_xstrndup(s + 1, n - 2);
	return ddbc_xstrndup(s, n);
}

/* "... 'wrong' ...; did you mean 'right'?": the quoted names before the
 * hint, tried in order where they stand on the line. */
static void did_you_mean(actions *a, const ddbc_diag *g, const char *line, size_t len)
{
	const char *hint = strstr(g->message, "did you mean '");
	if (!hint)
		return;
	const char *h = hint + strlen("did you mean '"), *h_end = strchr(h, '\'');
	if (!h_end)
		return;
	char *right = bare(h, (size_t)(h_end - h));
	size_t at = ddbc_lsp_bytes_of_column(line, len, g->loc.column);
	for (const char *q = strchr(g->message, '\''); q && q < hint; ) {
		const char *end = strchr(q + 1, '\'');
		if (!end || end > hint)
			break;
		char *wrong = bare(q + 1, (size_t)(end - q - 1));
		long pos = find_name(line, len, at, wrong);
		if (pos < 0)
			pos = find_name(line, len, 0, wrong);
		if (pos >= 0 && strcmp(wrong, right)) {
			strbuf title = STRBUF_INIT;
			ddbc_strbuf_addf(&title, "replace '%s' with '%s'", wrong, right);
			add_action(a, g, title.buf, edit_at(a->doc, g->loc.line, (size_t)pos,
							    (size_t)pos + strlen(wrong), line, right),
				   true);
			ddbc_strbuf_release(&title);
			free(wrong);
			break;
		}
		free(wrong);
		q = strchr(end + 1, '\'');
	}
	free(right);
}

/* The bound as YAML, in the quoting of the bound it replaces. */
static void quote_like(strbuf *sb, char quote, const char *text)
{
	char q = quote == '\'' ? '\'' : '"';
	ddbc_strbuf_addch(sb, q);
	for (const char *p = text; *p; p++) {
		if (q == '"' && (*p == '"' || *p == '\\'))
			ddbc_strbuf_addch(sb, '\\');
		else if (q == '\'' && *p == '\'')
			ddbc_strbuf_addch(sb, '\'');
		ddbc_strbuf_addch(sb, *p);
	}
	ddbc_strbuf_addch(sb, q);
}

static void bound_fix(actions *a, const ddbc_diag *g, const char *line, size_t len)
{
	static const char mark[] = "end it with the character after '";
	const char *m = g->rule == DDBC_RULE_RANGE_BOUND_PREFIX ? strstr(g->message, mark) : NULL;
	const char *fix = m ? strstr(m + sizeof mark - 1, "': '") : NULL;
	size_t mlen = strlen(g->message);
	if (!fix || g->message[mlen - 1] != '\'')
		return;
	fix += 4;
	char *bound = ddbc_xstrndup(fix, (size_t)(g->message + mlen - 1 - fix));
	size_t at = ddbc_lsp_bytes_of_column(line, len, g->loc.column);
	size_t end = ddbc_lsp_token_end(line, len, at);
	strbuf text = STRBUF_INIT, title = STRBUF_INIT;
	quote_like(&text, at < len ? line[at] : '"', bound);
	ddbc_strbuf_addf(&title, "write the bound '%s'", bound);
	add_action(a, g, title.buf, edit_at(a->doc, g->loc.line, at, end, line, text.buf), true);
	ddbc_strbuf_release(&text);
	ddbc_strbuf_release(&title);
	free(bound);
}

static void ignore_comment(actions *a, const ddbc_diag *g, const char *line, size_t len)
{
	const ddbc_rule_info *r = ddbc_rule_get(g->rule);
	if (r->fixed || g->rule == DDBC_RULE_UNUSED_SUPPRESSION)
		return;
	size_t indent = 0;
	while (indent < len && (line[indent] == ' ' || line[indent] == '\t'))
		indent++;
	strbuf text = STRBUF_INIT, title = STRBUF_INIT;
	ddbc_strbuf_add(&text, line, indent);
	ddbc_strbuf_addf(&text, "# ddbc-ignore: %s -- reason\n", r->id);
	ddbc_strbuf_addf(&title, "suppress %s on this line (ddbc-ignore)", r->id);
	add_action(a, g, title.buf, edit_at(a->doc, g->loc.line, 0, 0, line, text.buf), false);
	ddbc_strbuf_release(&text);
	ddbc_strbuf_release(&title);
}

json_t *ddbc_lsp_code_actions(lsp_server *s, const json_t *params, const char **why)
{
	const char *uri;
	json_int_t l0, l1;
	if (json_unpack((json_t *)params, "{s:{s:s}, s:{s:{s:I}, s:{s:I}}}", "textDocument", "uri",
			&uri, "range", "start", "line", &l0, "end", "line", &l1) < 0) {
		*why = "expected textDocument.uri and range";
		return NULL;
	}
	actions a = { json_array(), ddbc_lsp_doc_find(s, uri) };
	if (!a.doc) {
		json_decref(a.list);
		*why = "the document is not open: send textDocument/didOpen first";
		return NULL;
	}
	ddbc_lsp_doc_analyse(s, (lsp_doc *)a.doc);
	for (size_t i = 0; i < a.doc->d.n; i++) {
		const ddbc_diag *g = &a.doc->d.items[i];
		size_t len;
		const char *line = ddbc_lsp_doc_line(a.doc, g->loc.line, &len);
		if (g->suppressed || !line || g->loc.line < (unsigned)l0 + 1 ||
		    g->loc.line > (unsigned)l1 + 1)
			continue;
		did_you_mean(&a, g, line, len);
		bound_fix(&a, g, line, len);
		ignore_comment(&a, g, line, len);
	}
	return a.list;
}
