/* diag_print.c - one printer per output format of `ddbc lint` */
#include "diag/diag.h"
#include "util/embedded.h"
#include "util/repo_path.h"
#include "util/strbuf.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"


/* Above this a source line is not quoted: it would flood the terminal. */
#define MAX_QUOTED_LINE 512

static const char *const sev_words[] = { "off", "note", "warning", "error" };

/* ---- text: GCC style, with the source line and a caret ------------------ */

struct colors {
	const char *bold, *sev, *caret, *reset;
};

static struct colors colors_for(ddbc_severity sev, bool on)
{
	static const char *const sev_colors[] = { "", "\033[1;36m", "\033[1;35m", "\033[1;31m" };
	struct colors c = { "", "", "", "" };
	if (on) {
		c.bold = "\033[1m";
		c.sev = sev_colors[sev];
		c.caret = "\033[1;32m";
		c.reset = "\033[0m";
	}
	return c;
}

/* Writes the padding that puts a caret under column col of line: tabs stay
 * tabs, wide characters take two cells. */
static void caret_padding(strbuf *sb, const char *line, size_t len, unsigned col)
{
	const unsigned char *p = (const unsigned char *)line, *end = p + len;
	for (unsigned c = 1; c < col && p < end; c++) {
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		if (!n)
			n = 1, cp = '?';
		if (cp == '\t')
			ddbc_strbuf_addch(sb, '\t');
		else
			ddbc_strbuf_addf(sb, "%*s", ddbc_char_width(cp), "");
		p += n;
	}
}

/* The source line as it can be shown: control characters and invalid
 * UTF-8 become '?', so no input can drive the terminal. */
static void quote_line(strbuf *sb, const char *line, size_t len)
{
	const unsigned char *p = (const unsigned char *)line, *end = p + len;
	while (p < end) {
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		if (!n || (cp < 0x20 && cp != '\t') || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
			ddbc_strbuf_addch(sb, '?');
			p += n ? n : 1;
			continue;
		}
		ddbc_strbuf_add(sb, p, n);
		p += n;
	}
}

/* A suppressed finding, shown on request: its severity word says so, so
 * that a tool reading "error:" does not take it for one, and the reason
 * follows as the comment wrote it. */
static void print_text_one(FILE *out, const ddbc_diag *g, bool color)
{
	struct colors c = colors_for(g->severity, color);
	/* Messages quote names, and a quoted YAML name can hold any character
	 * ("\e[2J"): they are shown like source lines. */
	strbuf message = STRBUF_INIT;
	quote_line(&message, g->message, strlen(g->message));
	fprintf(out, "%s%s:%u:%u:%s %s%s%s:%s %s [%s]", c.bold, g->src->name, g->loc.line,
		g->loc.column, c.reset, c.sev, g->suppressed ? "suppressed " : "",
		sev_words[g->severity], c.reset, ddbc_strbuf_str(&message), ddbc_rule_get(g->rule)->id);
	if (g->reason) {
		ddbc_strbuf_reset(&message);
		quote_line(&message, g->reason, strlen(g->reason));
		fprintf(out, " -- %s", ddbc_strbuf_str(&message));
	}
	fputc('\n', out);
	ddbc_strbuf_release(&message);
	size_t len;
	const char *line = ddbc_source_line(g->src, g->loc.line, &len);
	if (!line || len > MAX_QUOTED_LINE)
		return;
	strbuf quoted = STRBUF_INIT, pad = STRBUF_INIT;
	quote_line(&quoted, line, len);
	caret_padding(&pad, line, len, g->loc.column);
	fprintf(out, "%5u | %s\n      | %s%s^%s\n", g->loc.line, ddbc_strbuf_str(&quoted),
		ddbc_strbuf_str(&pad), c.caret, c.reset);
	ddbc_strbuf_release(&quoted);
	ddbc_strbuf_release(&pad);
}

/* ---- text: repeated notes folded (diag.h, Repeated notes) ----------------- */

/* Lines of the folded notes the count line gives. */
#define FOLD_LINES 5

/* Whether g may fold with others: a note about a subject. A suppressed
 * note is shown, on request, as what it is: on its own. */
static bool foldable(const ddbc_diag *g)
{
	return g->subject && g->severity == DDBC_SEV_NOTE && !g->suppressed;
}

/* Of two foldable findings, which comes first among its group: the group
 * (source, rule, subject), then the file's order. */
static int by_group(const void *pa, const void *pb)
{
	const ddbc_diag *a = *(const ddbc_diag *const *)pa, *b = *(const ddbc_diag *const *)pb;
	/* Only who is grouped with whom counts, not the groups' order: the
	 * findings are printed in d's order. */
	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	if (a->rule != b->rule)
		return a->rule < b->rule ? -1 : 1;
	int r = strcmp(a->subject, b->subject);
	if (r)
		return r;
	return a < b ? -1 : a > b;
}

/* Whether f[0..n) is already in by_group's order: the notes of one
 * check about one subject, in the file's order, are; one pass over them
 * costs less than qsort's n log n comparisons, with the same result. */
static bool in_group_order(const ddbc_diag *const *f, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (by_group(&f[i - 1], &f[i]) > 0)
			return false;
	return true;
}

static bool same_group(const ddbc_diag *a, const ddbc_diag *b)
{
	return a->src == b->src && a->rule == b->rule && !strcmp(a->subject, b->subject);
}

/* Per finding of d: 0 printed as it is; -1 folded into another; n > 0
 * the first of a group of n + 1, printed with the count line after it.
 * NULL when nothing folds. */
static long *fold_groups(const ddbc_diags *d)
{
	const ddbc_diag **f = ddbc_xmalloc((d->n ? d->n : 1) * sizeof(*f));
	size_t nf = 0;
	for (size_t i = 0; i < d->n; i++)
		if (foldable(&d->items[i]))
			f[nf++] = &d->items[i];
	long *fold = NULL;
	if (!in_group_order(f, nf))
		qsort(f, nf, sizeof(*f), by_group);
	for (size_t i = 0, j; i < nf; i = j) {
		for (j = i + 1; j < nf && same_group(f[i], f[j]); j++)
			;
		if (j - i <= DDBC_FOLD_AT)
			continue;
		if (!fold)
			fold = ddbc_xcalloc(d->n, sizeof(*fold));
		fold[f[i] - d->items] = (long)(j - i - 1);
		for (size_t k = i + 1; k < j; k++)
			fold[f[k] - d->items] = -1;
	}
	free(f);
	return fold;
}

/* The count line after the first of a group: how many more, and where. */
static void print_fold(FILE *out, const ddbc_diags *d, size_t first, long more, bool color)
{
	const ddbc_diag *g = &d->items[first];
	struct colors c = colors_for(g->severity, color);
	strbuf subject = STRBUF_INIT;
	quote_line(&subject, g->subject, strlen(g->subject));
	fprintf(out, "%s%s:%s %snote:%s %ld more notes like this one about '%s', at lines ", c.bold,
		g->src->name, c.reset, c.sev, c.reset, more, ddbc_strbuf_str(&subject));
	long listed = 0;
	for (size_t i = first + 1; i < d->n && listed < more; i++) {
		const ddbc_diag *o = &d->items[i];
		if (o->subject && foldable(o) && same_group(g, o)) {
			if (listed < FOLD_LINES)
				fprintf(out, "%s%u", listed ? ", " : "", o->loc.line);
			listed++;
		}
	}
	fprintf(out, "%s; --format json lists each [%s]\n", more > FOLD_LINES ? ", ..." : "",
		ddbc_rule_get(g->rule)->id);
	ddbc_strbuf_release(&subject);
}

static void print_text(FILE *out, const ddbc_diags *d, const ddbc_print_opts *opts)
{
	long *fold = fold_groups(d);
	for (size_t i = 0; i < d->n; i++) {
		if (fold && fold[i] < 0)
			continue;
		print_text_one(out, &d->items[i], opts->color);
		if (fold && fold[i] > 0)
			print_fold(out, d, i, fold[i], opts->color);
	}
	free(fold);
}

/* ---- json: {"diagnostics": [...], "summary": {...}} ------------------------ */

static void dump(FILE *out, json_t *root, size_t flags)
{
	json_dumpf(root, out, flags | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
}

static void print_json(FILE *out, const ddbc_diags *d, const ddbc_print_opts *opts)
{
	json_t *list = json_array();
	for (size_t i = 0; i < d->n; i++) {
		const ddbc_diag *g = &d->items[i];
		json_t *one = json_pack("{s:s, s:I, s:I, s:s, s:s, s:s}",
			"file", g->src->name, "line", (json_int_t)g->loc.line,
			"column", (json_int_t)g->loc.column, "severity", sev_words[g->severity],
			"rule", ddbc_rule_get(g->rule)->id, "message", g->message);
		if (g->suppressed)
			json_object_set_new(one, "suppressed", json_true());
		if (g->reason)
			json_object_set_new(one, "reason", json_string(g->reason));
		json_array_append_new(list, one);
	}
	/* The counts are of the findings that count: suppressed ones only
	 * under "suppressed". */
	ddbc_counts n = ddbc_diags_count(d);
	json_t *root = json_pack("{s:o, s:{s:I, s:I, s:I, s:I, s:I}}", "diagnostics", list,
		"summary", "files", (json_int_t)opts->nfiles, "errors", (json_int_t)n.errors,
		"warnings", (json_int_t)n.warnings, "notes", (json_int_t)n.notes,
		"suppressed", (json_int_t)n.suppressed);
	if (opts->failure)
		json_object_set_new(root, "error", json_pack("{s:s, s:s}",
			"file", opts->failure->file, "message", opts->failure->message));
	dump(out, root, JSON_COMPACT);
}

/* ---- sarif 2.1.0 ------------------------------------------------------------ */

static const char *sarif_level(ddbc_severity sev)
{
	static const char *const levels[] = { "none", "note", "warning", "error" };
	return levels[sev];
}

/* The folder of the rule pages that helpUri names, or "" for none: the
 * environment's DDBC_HELP_URI when it is an https address (a team's own
 * published copy, without a rebuild), else the one configure was given
 * (--with-help-uri, none by default: a placeholder address would be a dead
 * link in every alert). */
static void help_uri(strbuf *sb)
{
	const char *env = getenv("DDBC_HELP_URI");
	if (!env || strncmp(env, "https://", 8) != 0 || !env[8]) {
		ddbc_strbuf_addstr(sb, DDBC_HELP_URI);
		return;
	}
	ddbc_strbuf_addstr(sb, env);
	if (env[strlen(env) - 1] != '/')
		ddbc_strbuf_addch(sb, '/');
}

bool ddbc_rule_page_uri(strbuf *sb, ddbc_rule rule)
{
	size_t before = sb->len;
	help_uri(sb);
	if (sb->len == before)
		return false;
	ddbc_strbuf_addf(sb, "%s.md", ddbc_rule_get(rule)->id);
	return true;
}

/* A rule's help: its page, compiled into the binary, as help.markdown
 * (code scanning shows it in the alert), and a one-line text for viewers
 * that show no Markdown (SARIF requires text beside markdown). */
static json_t *sarif_help(const ddbc_rule_info *r)
{
	strbuf name = STRBUF_INIT;
	ddbc_strbuf_addf(&name, "rules/%s.md", r->id);
	const ddbc_embedded_file *page = ddbc_embedded_find(name.buf);
	ddbc_strbuf_release(&name);
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addf(&text, "%s (ddbc explain %s)", r->summary, r->id);
	json_t *help = json_pack("{s:s}", "text", text.buf);
	ddbc_strbuf_release(&text);
	if (page)
		json_object_set_new(help, "markdown", json_stringn(page->data, page->len));
	return help;
}

static json_t *sarif_rules(void)
{
	json_t *rules = json_array();
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		const ddbc_rule_info *r = ddbc_rule_get((ddbc_rule)i);
		json_t *rule = json_pack("{s:s, s:{s:s}, s:{s:s}, s:o}",
			"id", r->id, "shortDescription", "text", r->summary,
			"defaultConfiguration", "level", sarif_level(r->default_severity),
			"help", sarif_help(r));
		strbuf uri = STRBUF_INIT;
		if (ddbc_rule_page_uri(&uri, (ddbc_rule)i))
			json_object_set_new(rule, "helpUri", json_string(uri.buf));
		ddbc_strbuf_release(&uri);
		json_array_append_new(rules, rule);
	}
	return rules;
}

/* A file path as a URI reference: unreserved characters and '/' stay,
 * everything else is percent-encoded. */
static char *path_uri(const char *path)
{
	strbuf sb = STRBUF_INIT;
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= '0' && *p <= '9') || strchr("-._~/", *p))
			ddbc_strbuf_addch(&sb, (char)*p);
		else
			ddbc_strbuf_addf(&sb, "%%%02X", *p);
	}
	return ddbc_strbuf_detach(&sb);
}

/* The path an annotation names: from the repository's root when the file
 * is in one (code scanning and GitHub read paths from there, whatever
 * folder ddbc ran in), else as given. The caller frees it. */
static char *annotation_path(const char *path)
{
	/* Findings come file by file: the last answer is kept, so a run
	 * with thousands of findings looks the root up once per file. */
	static char *last_path, *last_result;
	if (!last_path || strcmp(last_path, path)) {
		free(last_path);
		free(last_result);
		last_path = ddbc_xstrdup(path);
		last_result = ddbc_repo_path(path);
		if (!last_result)
			last_result = ddbc_xstrdup(path);
	}
	return ddbc_xstrdup(last_result);
}

static json_t *artifact_location(const char *given)
{
	char *path = annotation_path(given);
	char *uri = path_uri(path);
	json_t *loc = json_pack("{s:s}", "uri", uri);
	free(uri);
	/* Relative paths are relative to the checkout, which code scanning
	 * calls %SRCROOT%. */
	if (path[0] != '/')
		json_object_set_new(loc, "uriBaseId", json_string("%SRCROOT%"));
	free(path);
	return loc;
}

static json_t *sarif_result(const ddbc_diag *g)
{
	json_t *loc = artifact_location(g->src->name);
	json_t *result = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[{s:{s:o, s:{s:i, s:i}}}]}",
		"ruleId", ddbc_rule_get(g->rule)->id, "ruleIndex", (int)g->rule,
		"level", sarif_level(g->severity), "message", "text", g->message,
		"locations", "physicalLocation", "artifactLocation", loc,
		"region", "startLine", (int)g->loc.line, "startColumn", (int)g->loc.column);
	/* A suppression in the design's own text is SARIF's "inSource"; its
	 * justification is optional, so a comment without a reason has none. */
	if (g->suppressed) {
		json_t *supp = json_pack("{s:s}", "kind", "inSource");
		if (g->reason)
			json_object_set_new(supp, "justification", json_string(g->reason));
		json_object_set_new(result, "suppressions", json_pack("[o]", supp));
	}
	return result;
}

/* The run's one invocation: whether it finished, and when it did not,
 * why, as a notification on the file that stopped it. */
static json_t *sarif_invocation(const ddbc_failure *failure)
{
	json_t *inv = json_pack("{s:b}", "executionSuccessful", failure == NULL);
	if (failure)
		json_object_set_new(inv, "toolExecutionNotifications",
			json_pack("[{s:s, s:{s:s}, s:[{s:{s:o}}]}]", "level", "error",
				  "message", "text", failure->message, "locations",
				  "physicalLocation", "artifactLocation",
				  artifact_location(failure->file)));
	return json_pack("[o]", inv);
}

static void print_sarif(FILE *out, const ddbc_diags *d, const ddbc_print_opts *opts)
{
	json_t *results = json_array();
	for (size_t i = 0; i < d->n; i++)
		json_array_append_new(results, sarif_result(&d->items[i]));
	/* Columns count characters, as libyaml's marks do: say so, since
	 * SARIF's default is UTF-16 code units. */
	json_t *root = json_pack("{s:s, s:s, s:[{s:{s:{s:s, s:s, s:o}}, s:o, s:s, s:o}]}",
		"$schema", "https://json.schemastore.org/sarif-2.1.0.json",
		"version", "2.1.0",
		"runs", "tool", "driver", "name", "ddbc", "version", PACKAGE_VERSION,
		"rules", sarif_rules(),
		"invocations", sarif_invocation(opts->failure),
		"columnKind", "unicodeCodePoints",
		"results", results);
	dump(out, root, JSON_INDENT(2));
}

/* ---- github: workflow commands ------------------------------------------------ */

/* Escapes a workflow command's data (the message). */
static void gh_data(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		default: fputc(*s, out);
		}
	}
}

/* Escapes a property value (file, title), where ',' and ':' also delimit. */
static void gh_property(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case ',': fputs("%2C", out); break;
		case ':': fputs("%3A", out); break;
		case '%': fputs("%25", out); break;
		case '\r': fputs("%0D", out); break;
		case '\n': fputs("%0A", out); break;
		default: fputc(*s, out);
		}
	}
}

static void print_github(FILE *out, const ddbc_diags *d, const ddbc_print_opts *opts)
{
	static const char *const commands[] = { "notice", "notice", "warning", "error" };
	for (size_t i = 0; i < d->n; i++) {
		const ddbc_diag *g = &d->items[i];
		fprintf(out, "::%s file=", commands[g->severity]);
		char *path = annotation_path(g->src->name);
		gh_property(out, path);
		free(path);
		fprintf(out, ",line=%u,col=%u,title=", g->loc.line, g->loc.column);
		gh_property(out, ddbc_rule_get(g->rule)->id);
		fputs("::", out);
		gh_data(out, g->message);
		fputc('\n', out);
	}
	if (opts->failure && !opts->failure->in_findings) {
		fputs("::error file=", out);
		char *path = annotation_path(opts->failure->file);
		gh_property(out, path);
		free(path);
		fputs(",title=ddbc::", out);
		gh_data(out, opts->failure->message);
		fputc('\n', out);
	}
}

/* Whether the format prints g: severe enough, and not suppressed where the
 * format hides suppressed findings (text unless asked, github always: an
 * annotation has no way to say "suppressed"). */
static bool shown(const ddbc_diag *g, const ddbc_print_opts *opts)
{
	if (opts->min_severity > DDBC_SEV_OFF && g->severity < opts->min_severity)
		return false;
	if (!g->suppressed)
		return true;
	return opts->format == DDBC_DIAG_JSON || opts->format == DDBC_DIAG_SARIF ||
	       (opts->format == DDBC_DIAG_TEXT && opts->show_suppressed);
}

void ddbc_diags_print(FILE *out, const ddbc_diags *d, const ddbc_print_opts *opts)
{
	/* A shallow view of the findings printed: the messages stay owned by d. */
	ddbc_diags view = *d;
	view.items = ddbc_xmalloc((d->n ? d->n : 1) * sizeof(ddbc_diag));
	view.n = 0;
	for (size_t i = 0; i < d->n; i++)
		if (shown(&d->items[i], opts))
			view.items[view.n++] = d->items[i];
	switch (opts->format) {
	case DDBC_DIAG_TEXT: print_text(out, &view, opts); break;
	case DDBC_DIAG_JSON: print_json(out, &view, opts); break;
	case DDBC_DIAG_SARIF: print_sarif(out, &view, opts); break;
	case DDBC_DIAG_GITHUB: print_github(out, &view, opts); break;
	}
	free(view.items);
}
