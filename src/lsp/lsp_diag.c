/* lsp_diag.c - findings as LSP diagnostics, published when due
 *
 * Exactly the findings `ddbc lint` gives for the same text: the same check
 * with the same settings, every finding that lint counts (a suppressed one
 * is left out, as lint's text leaves it out). A finding's range is the
 * token it points at; its code the rule id, with the rule page's address;
 * a finding about two places (key-overlap) carries the other as related
 * information. A change is published once the buffer has been still for
 * the debounce (less the time the document's last check took: see
 * ddbc_lsp_doc_debounce), so a burst of keystrokes is checked once, and never
 * when a newer change has come in the meantime.
 */
#include "lsp/lsp_int.h"

#include <string.h>

/* The UTF-16 character of ddbc's column on line; a byte order mark (the
 * source drops it, the editor counts it) shifts the first line. */
static size_t character_of(const lsp_doc *doc, unsigned line, unsigned column)
{
	size_t len;
	const char *text = ddbc_lsp_doc_line(doc, line, &len);
	size_t bom = line == 1 && doc->text.len >= 3 &&
		     !memcmp(doc->text.buf, "\xEF\xBB\xBF", 3);
	if (!text)
		return bom;
	return bom + ddbc_lsp_utf16_of_bytes(text, ddbc_lsp_bytes_of_column(text, len, column));
}

static json_t *position(size_t line, size_t character)
{
	return json_pack("{s:I, s:I}", "line", (json_int_t)line, "character",
			 (json_int_t)character);
}

json_t *ddbc_lsp_position_of(const lsp_doc *doc, ddbc_loc loc)
{
	unsigned line = loc.line ? loc.line : 1;
	return position(line - 1, character_of(doc, line, loc.column ? loc.column : 1));
}

json_t *ddbc_lsp_range_of(const lsp_doc *doc, ddbc_loc loc)
{
	unsigned line = loc.line ? loc.line : 1;
	size_t len;
	const char *text = ddbc_lsp_doc_line(doc, line, &len);
	size_t start = character_of(doc, line, loc.column ? loc.column : 1), end = start;
	if (text) {
		size_t at = ddbc_lsp_bytes_of_column(text, len, loc.column ? loc.column : 1);
		size_t stop = ddbc_lsp_token_end(text, len, at);
		end = start + ddbc_lsp_utf16_of_bytes(text + at, stop > len ? len - at : stop - at);
	}
	return json_pack("{s:o, s:o}", "start", position(line - 1, start), "end",
			 position(line - 1, end));
}

json_t *ddbc_lsp_location(const lsp_doc *doc, ddbc_loc loc)
{
	return json_pack("{s:s, s:o}", "uri", doc->uri, "range", ddbc_lsp_range_of(doc, loc));
}

static int lsp_severity(ddbc_severity sev)
{
	switch (sev) {
	case DDBC_SEV_ERROR: return 1;
	case DDBC_SEV_WARNING: return 2;
	default: return 3;
	}
}

json_t *ddbc_lsp_diagnostic(const lsp_doc *doc, const ddbc_diag *g)
{
	json_t *one = json_pack("{s:o, s:i, s:s, s:s, s:s}",
				"range", ddbc_lsp_range_of(doc, g->loc),
				"severity", lsp_severity(g->severity),
				"code", ddbc_rule_get(g->rule)->id,
				"source", "ddbc", "message", g->message);
	/* The rule page's address only where one is published (hover shows
	 * the page itself, compiled in, either way). */
	strbuf href = STRBUF_INIT;
	if (ddbc_rule_page_uri(&href, g->rule))
		json_object_set_new(one, "codeDescription",
				    json_pack("{s:s}", "href", ddbc_strbuf_str(&href)));
	ddbc_strbuf_release(&href);
	if (g->related.line)
		json_object_set_new(one, "relatedInformation",
				    json_pack("[{s:o, s:s}]", "location",
					      ddbc_lsp_location(doc, g->related), "message",
					      "the other place this finding is about"));
	return one;
}

json_t *ddbc_lsp_diagnostics(const lsp_doc *doc)
{
	json_t *list = json_array();
	for (size_t i = 0; i < doc->d.n; i++) {
		const ddbc_diag *g = &doc->d.items[i];
		if (!g->suppressed && g->severity > DDBC_SEV_OFF)
			json_array_append_new(list, ddbc_lsp_diagnostic(doc, g));
	}
	return list;
}

static void publish(lsp_server *s, lsp_doc *doc)
{
	doc->publish_due = false;
	ddbc_lsp_send(s->out, json_pack("{s:s, s:{s:s, s:I, s:o}}", "method",
				   "textDocument/publishDiagnostics", "params", "uri", doc->uri,
				   "version", (json_int_t)doc->version, "diagnostics",
				   ddbc_lsp_diagnostics(doc)));
}

/* The findings of a version are sent only if no message waits, before the
 * check, while it runs and after it: a change that came meanwhile makes
 * them the findings of a text the editor no longer has, and it is read
 * first (its own findings follow after its debounce); a check under way is
 * abandoned for it (on 10,000 entities, within a megabyte of parsing).
 * Any other message waiting is read first too; a check that ended is not
 * repeated for it (it is of the same text). */
int ddbc_lsp_publish_due(lsp_server *s)
{
	double now = ddbc_lsp_now_ms(), next = -1;
	for (size_t i = 0; i < s->ndocs; i++) {
		lsp_doc *doc = s->docs[i];
		if (!doc->publish_due)
			continue;
		if (doc->due_at > now) {
			if (next < 0 || doc->due_at - now < next)
				next = doc->due_at - now;
			continue;
		}
		if (ddbc_lsp_input_pending(&s->rd) || !ddbc_lsp_doc_check(s, doc, true) ||
		    ddbc_lsp_input_pending(&s->rd))
			return 0;
		publish(s, doc);
	}
	return next < 0 ? -1 : (int)next + 1;
}
