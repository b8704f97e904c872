/* cli.c - the commands' top level (their options: cli_opts.c)
 *
 * Every command checks its design first (rules/check.c) and writes nothing
 * when an error is found; outputs stream into a temporary file that is
 * renamed over the destination only on success (util/output.c). Exit
 * status: 0 success, 1 error findings (or warnings with --werror, or items
 * that failed), 2 usage error, unreadable file, or a file that is no design.
 */
#include "cli/cli.h"
#include "cli/cli_opts.h"
#include "cli/cli_aws.h"
#include "cli/cli_cost.h"
#include "cli/cli_diff.h"
#include "cli/cli_migrate.h"
#include "cli/cli_explain.h"
#include "cli/cli_live.h"
#include "cli/cli_init.h"
#include "cli/cli_usage.h"
#include "cli/cli_words.h"
#include "model/header_plan.h"
#include "rules/check.h"
#include "emit/emit.h"
#include "items/items.h"
#include "import/import.h"
#include "lsp/lsp.h"
#include "util/error.h"
#include "util/output.h"
#include "util/source.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"

/* ---- lint -------------------------------------------------------------------------- */

/* Why src could not be read as a design: its first error, which a
 * fatal one (a YAML syntax error, no mapping) always is among. */
static void no_design_reason(strbuf *sb, const ddbc_diags *d, const ddbc_source *src)
{
	for (size_t i = 0; i < d->n; i++) {
		const ddbc_diag *g = &d->items[i];
		if (g->src == src && g->severity == DDBC_SEV_ERROR) {
			ddbc_strbuf_addf(sb, "not a design: line %u: %s", g->loc.line, g->message);
			return;
		}
	}
	ddbc_strbuf_addstr(sb, "not a design");
}

/* The last line of text lint on a terminal: what was found, in one line. */
static void print_summary(FILE *out, const ddbc_diags *d, size_t nfiles, ddbc_severity min)
{
	ddbc_counts n = ddbc_diags_count(d);
	size_t hidden = (min > DDBC_SEV_NOTE ? n.notes : 0) + (min > DDBC_SEV_WARNING ? n.warnings : 0);
	fprintf(out, "%zu file%s: ", nfiles, nfiles == 1 ? "" : "s");
	if (!n.errors && !n.warnings && !n.notes)
		fputs("no findings", out);
	else
		fprintf(out, "%zu error%s, %zu warning%s, %zu note%s", n.errors,
			n.errors == 1 ? "" : "s", n.warnings, n.warnings == 1 ? "" : "s", n.notes,
			n.notes == 1 ? "" : "s");
	if (n.suppressed)
		fprintf(out, " (%zu suppressed)", n.suppressed);
	if (hidden)
		fprintf(out, "; %zu below --min-severity not shown", hidden);
	fputc('\n', out);
}

static exit_status run_lint(struct opts *o)
{
	ddbc_print_opts print = { DDBC_DIAG_TEXT, false, o->nfiles,
				  o->min_severity == DDBC_SEV_DEFAULT ? DDBC_SEV_OFF : o->min_severity,
				  o->show_suppressed, NULL };
	ddbc_diag_format_parse(o->format, &print.format);
	print.color = ddbc_cli_want_color(o->color, STDOUT_FILENO);

	ddbc_source **sources = ddbc_xcalloc(o->nfiles, sizeof(*sources));
	ddbc_diags d;
	ddbc_diags_init(&d);
	/* The first file that stopped the run, for the machine formats. */
	ddbc_failure failure = { NULL, NULL, false };
	strbuf reason = STRBUF_INIT;
	for (size_t i = 0; i < o->nfiles; i++) {
		sources[i] = ddbc_source_read(o->files[i]);
		if (!sources[i]) {
			ddbc_error("cannot read '%s': %s", o->files[i], strerror(errno));
			if (!failure.file) {
				failure.file = o->files[i];
				ddbc_strbuf_addf(&reason, "cannot read: %s", strerror(errno));
			}
			continue;
		}
		ddbc_design_free(ddbc_check(sources[i], &d, &o->settings));
		if (d.fatal && !failure.file) {
			failure.file = o->files[i];
			failure.in_findings = true;
			no_design_reason(&reason, &d, sources[i]);
		}
	}
	failure.message = ddbc_strbuf_str(&reason);
	if (failure.file)
		print.failure = &failure;
	ddbc_diags_print(stdout, &d, &print);
	/* A pipe gets the findings alone on standard output, one to a line,
	 * for tools to read; the summary goes to standard error then, so a
	 * pre-commit or CI log still ends with it. */
	fflush(stdout);
	if (print.format == DDBC_DIAG_TEXT && !failure.file)
		print_summary(isatty(STDOUT_FILENO) ? stdout : stderr, &d, o->nfiles,
			      print.min_severity);

	ddbc_counts n = ddbc_diags_count(&d);
	ddbc_diags_release(&d);
	ddbc_strbuf_release(&reason);
	for (size_t i = 0; i < o->nfiles; i++)
		ddbc_source_free(sources[i]);
	free(sources);
	if (failure.file)
		return EXIT_USAGE;
	return n.errors || (o->werror && n.warnings) ? EXIT_FINDINGS : EXIT_OK;
}

/* ---- the compiling commands -------------------------------------------------------- */

/* What an emitting command works on: the checked design and its findings. */
struct unit {
	ddbc_source *src;
	ddbc_design *design;
	ddbc_diags d;
	const char *why;         /* why open_unit failed (static text), or NULL */
};

static void print_findings(struct unit *u, const struct opts *o)
{
	/* Notes are for `ddbc lint`; a command that writes an output reports
	 * only what may need acting on. */
	ddbc_print_opts print = { DDBC_DIAG_TEXT, ddbc_cli_want_color(o->color, STDERR_FILENO), 1,
				  o->min_severity == DDBC_SEV_DEFAULT ? DDBC_SEV_WARNING
				  : o->min_severity, o->show_suppressed, NULL };
	ddbc_diags_print(stderr, &u->d, &print);
	fflush(stderr);
	/* Printed once: later findings start a fresh list, which the design's
	 * suppressions still apply to. */
	ddbc_diags_clear(&u->d);
}

static bool fails(const ddbc_diags *d, const struct opts *o)
{
	ddbc_counts n = ddbc_diags_count(d);
	return n.errors || (o->werror && n.warnings);
}

/* Reads and checks the design, printing its findings. Returns 0 when it
 * can be compiled, else -1 with *status the exit status (why was printed).
 * Close u with close_unit either way. */
static int open_unit(struct unit *u, struct opts *o, exit_status *status)
{
	memset(u, 0, sizeof(*u));
	ddbc_diags_init(&u->d);
	*status = EXIT_USAGE;
	const char *path = o->files[0];
	u->src = ddbc_source_read(path);
	if (!u->src) {
		u->why = strerror(errno);
		ddbc_error("cannot read '%s': %s", path, u->why);
		return -1;
	}
	u->design = ddbc_check(u->src, &u->d, &o->settings);
	bool fatal = u->d.fatal, failed = fails(&u->d, o);
	u->why = fatal ? "not a design" : "the design has errors";
	print_findings(u, o);
	if (fatal)
		return -1;
	*status = failed ? EXIT_FINDINGS : EXIT_OK;
	return failed ? -1 : 0;
}

static void close_unit(struct unit *u)
{
	ddbc_design_free(u->design);
	ddbc_diags_release(&u->d);
	ddbc_source_free(u->src);
}

typedef ddbc_emit_result emit_fn(FILE *out, struct unit *u, struct opts *o);

/* Checks, emits into a temporary file, and sends it to its destination
 * only on success (output.c). */
/* The exit status of an emitter's result and the findings it added. */
static exit_status emit_status(ddbc_emit_result r, bool failed)
{
	if (r == DDBC_EMIT_FAILED)
		return EXIT_USAGE;
	return r == DDBC_EMIT_FINDINGS || failed ? EXIT_FINDINGS : EXIT_OK;
}

static exit_status compile(struct opts *o, emit_fn *emit)
{
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		close_unit(&u);
		return status;
	}
	ddbc_output out;
	if (ddbc_output_open(&out, o->output) < 0) {
		close_unit(&u);
		return EXIT_USAGE;
	}
	ddbc_emit_result r = emit(out.f, &u, o);
	ddbc_diags_finish(&u.d, &o->settings, &u.design->settings);
	bool failed = fails(&u.d, o);
	print_findings(&u, o);
	status = emit_status(r, failed);
	if (status == EXIT_OK && ddbc_output_commit(&out) < 0)
		status = EXIT_USAGE;
	else if (status != EXIT_OK)
		ddbc_output_abort(&out);
	close_unit(&u);
	return status;
}

/* Each emitter hands up why it failed; the command says it as soon as
 * the emitter returns, before the findings. */
static ddbc_emit_result emit_doc(FILE *out, struct unit *u, struct opts *o)
{
	ddbc_err err = DDBC_ERR_INIT;
	ddbc_doc_opts doc = { ddbc_doc_langs[o->lang_row].lang, o->template_dir, &err };
	ddbc_emit_result r = ddbc_doc_formats[o->format_row].fn(out, u->design, &doc, &u->d);
	ddbc_err_print(&err);
	ddbc_err_release(&err);
	return r;
}

static ddbc_emit_result emit_header(FILE *out, struct unit *u, struct opts *o)
{
	ddbc_err err = DDBC_ERR_INIT;
	ddbc_header_opts h = { o->prefix, &err };
	/* The plan's findings (run_header) are errors whatever the rule's
	 * setting: a header whose names collide cannot be written. */
	o->settings.sev[DDBC_RULE_HEADER_NAME] = DDBC_SEV_ERROR;
	ddbc_emit_result r = ddbc_emit_header(out, u->design, &h, &u->d);
	ddbc_err_print(&err);
	ddbc_err_release(&err);
	return r;
}

static ddbc_emit_result emit_keys(FILE *out, struct unit *u, struct opts *o)
{
	ddbc_err err = DDBC_ERR_INIT;
	ddbc_keys_opts k = { ddbc_keys_langs[o->lang_row].lang, o->module, &err };
	o->settings.sev[DDBC_RULE_HEADER_NAME] = DDBC_SEV_ERROR;
	ddbc_emit_result r = ddbc_emit_keys(out, u->design, &k, &u->d);
	ddbc_err_print(&err);
	ddbc_err_release(&err);
	return r;
}

static ddbc_emit_result emit_export(FILE *out, struct unit *u, struct opts *o)
{
	ddbc_err err = DDBC_ERR_INIT;
	ddbc_export_opts x = { o->params, o->nparams, o->compact, &err };
	/* A value the queries export will not send is an error whatever the
	 * rule's setting: the request cannot be written with it. */
	o->settings.sev[DDBC_RULE_PARAM_VALUE] = DDBC_SEV_ERROR;
	o->settings.sev[DDBC_RULE_PATTERN_OPERATOR_TYPE] = DDBC_SEV_ERROR;
	ddbc_emit_result r = ddbc_export_formats[o->format_row].fn(out, u->design, &x, &u->d);
	ddbc_err_print(&err);
	ddbc_err_release(&err);
	return r;
}

static ddbc_emit_result emit_sample(FILE *out, struct unit *u, struct opts *o)
{
	return ddbc_cli_sample(out, u->design, o);
}

static exit_status run_sample(struct opts *o)
{
	return compile(o, emit_sample);
}

/* verify writes its report whatever it finds: its findings are the
 * engine's answers, not the design's. */
static exit_status run_verify(struct opts *o)
{
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		close_unit(&u);
		return status;
	}
	status = ddbc_cli_verify(u.design, o->files[0], o);
	close_unit(&u);
	return status;
}

/* ---- doc: a site, and --check ----------------------------------------------------- */

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

/* -o names a directory: it ends with '/' or is one. */
static bool is_dir(const char *path)
{
	struct stat st;
	return ends_with(path, "/") || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

static exit_status doc_site(struct opts *o)
{
	if (strcmp(o->format, "html")) {
		ddbc_cli_usage_error("doc", "a directory output ('%s') needs --format html", o->output);
		return EXIT_USAGE;
	}
	struct unit u;
	exit_status status;
	ddbc_output_site site;
	if (open_unit(&u, o, &status) < 0 || ddbc_output_site_open(&site, o->output) < 0) {
		close_unit(&u);
		return status == EXIT_OK ? EXIT_USAGE : status;
	}
	/* The pages go into a temporary folder, moved into place whole. */
	ddbc_err err = DDBC_ERR_INIT;
	ddbc_doc_opts doc = { ddbc_doc_langs[o->lang_row].lang, o->template_dir, &err };
	ddbc_emit_result r = ddbc_emit_html_site(site.tmp, u.design, &doc, &u.d);
	ddbc_err_print(&err);
	ddbc_err_release(&err);
	ddbc_diags_finish(&u.d, &o->settings, &u.design->settings);
	bool failed = fails(&u.d, o);
	print_findings(&u, o);
	close_unit(&u);
	status = emit_status(r, failed);
	if (status == EXIT_OK && ddbc_output_site_commit(&site) < 0)
		status = EXIT_USAGE;
	else if (status != EXIT_OK)
		ddbc_output_site_abort(&site);
	return status;
}

/* Whether file holds exactly the len bytes at text. */
static bool file_holds(const char *file, const char *text, size_t len)
{
	FILE *f = fopen(file, "rb");
	if (!f)
		return false;
	char buf[65536];
	size_t at = 0, n;
	bool same = true;
	while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
		same = at + n <= len && !memcmp(buf, text + at, n);
		at += n;
	}
	same = same && !ferror(f) && at == len;
	fclose(f);
	return same;
}

/* doc --check FILE: 0 when FILE is what doc writes now, 1 when it is not
 * (stale or missing), 2 when it cannot be told (a design with errors is
 * broken, not stale). */
static exit_status check_doc(struct opts *o)
{
	if (o->output) {
		ddbc_cli_usage_error("doc", "%s", "--check writes nothing: leave out -o");
		return EXIT_USAGE;
	}
	if (!o->format_given && (ends_with(o->check, ".html") || ends_with(o->check, ".htm")))
		for (size_t i = 0; ddbc_doc_formats[i].name; i++)
			if (!strcmp(ddbc_doc_formats[i].name, "html"))
				o->format = ddbc_doc_formats[o->format_row = i].name;
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		if (status == EXIT_FINDINGS)
			ddbc_error("cannot check '%s': the design '%s' has errors", o->check,
				   o->files[0]);
		close_unit(&u);
		return EXIT_USAGE;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	ddbc_emit_result r = mem ? emit_doc(mem, &u, o) : DDBC_EMIT_FAILED;
	if (mem)
		fclose(mem);
	close_unit(&u);
	status = r != DDBC_EMIT_OK ? EXIT_USAGE
		 : file_holds(o->check, text, len) ? EXIT_OK : EXIT_FINDINGS;
	struct stat st;
	bool missing = status == EXIT_FINDINGS && stat(o->check, &st) < 0 && errno == ENOENT;
	if (status == EXIT_FINDINGS)
		ddbc_error("'%s' %s: %s it with ddbc doc%s%s%s%s -o %s %s", o->check,
			   missing ? "does not exist" : "is stale", missing ? "write" : "regenerate",
			   o->format_given || strcmp(o->format, "md") ? " --format " : "",
			   o->format_given || strcmp(o->format, "md") ? o->format : "",
			   o->lang_row ? " --lang " : "",
			   o->lang_row ? ddbc_doc_langs[o->lang_row].name : "", o->check, o->files[0]);
	free(text);
	return status;
}

static exit_status run_doc(struct opts *o)
{
	if (o->check)
		return check_doc(o);
	if (o->output && is_dir(o->output))
		return doc_site(o);
	return compile(o, emit_doc);
}
/* The header's own plan checks its names, with the prefix it is given,
 * so the check before it leaves header-name out: the names are planned
 * once, and a design name without an identifier is no finding when
 * --prefix is given. */
static exit_status run_header(struct opts *o)
{
	if (o->prefix && !ddbc_header_prefix_usable(o->prefix)) {
		ddbc_cli_usage_error("header", "--prefix '%s' is not a usable C identifier; write a letter, "
			    "then letters, digits and single '_' (e.g. --prefix SR)", o->prefix);
		return EXIT_USAGE;
	}
	o->settings.sev[DDBC_RULE_HEADER_NAME] = DDBC_SEV_OFF;
	return compile(o, emit_header);
}
static exit_status run_export(struct opts *o) { return compile(o, emit_export); }

static ddbc_emit_result emit_cost(FILE *out, struct unit *u, struct opts *o)
{
	return ddbc_cli_cost(out, u->design, u->src->name, o->prices, o->format);
}
static exit_status run_cost(struct opts *o) { return compile(o, emit_cost); }
/* The queries export given values by --param judges each parameter itself
 * (its emitter refuses one left without a value, naming it): its limit
 * rule, which cannot see those values, is off there. */
static void params_given(const struct command *cmd, struct opts *o)
{
	if (!strcmp(cmd->name, "export") && !strcmp(o->format, "queries") && o->nparams)
		o->settings.sev[DDBC_RULE_PARAM_NO_VALUE] = DDBC_SEV_OFF;
}
/* What an export format cannot hold is its limit rule's finding: an error
 * for that export whatever the rule's setting (the model cannot be
 * written), and for lint when --target names the format (unless --rule
 * set it), so that a design meant for it fails lint as the export would.
 * The other commands never go to that format: the rule is off there, even
 * when the design's lint.rules raised it. */
static void format_limits(const struct command *cmd, struct opts *o)
{
	/* The language server gives lint's findings. */
	bool lint = !strcmp(cmd->name, "lint") || !strcmp(cmd->name, "lsp"), export = !strcmp(cmd->name, "export");
	for (size_t w = 0; ddbc_export_formats[w].name; w++) {
		const ddbc_export_format *f = &ddbc_export_formats[w];
		if (!f->limited)
			continue;
		ddbc_severity *sev = &o->settings.sev[f->limit];
		if (export && w == o->format_row)
			*sev = DDBC_SEV_ERROR;
		else if (lint && (o->targets >> w & 1) && *sev == DDBC_SEV_DEFAULT)
			*sev = DDBC_SEV_ERROR;
		else if (!lint && *sev == DDBC_SEV_DEFAULT)
			*sev = DDBC_SEV_OFF;     /* another format's limit, even if the design raised it */
	}
}
/* keys plans the header's names, as header does. */
static exit_status run_keys(struct opts *o)
{
	const char *problem = o->module ?
		ddbc_keys_module_problem(ddbc_keys_langs[o->lang_row].lang, o->module) : NULL;
	if (problem) {
		strbuf msg = STRBUF_INIT;
		ddbc_strbuf_addf(&msg, "--module '%s' cannot name the module: %s", o->module, problem);
		ddbc_cli_usage_error("keys", "%s", ddbc_strbuf_str(&msg));
		ddbc_strbuf_release(&msg);
		return EXIT_USAGE;
	}
	o->settings.sev[DDBC_RULE_HEADER_NAME] = DDBC_SEV_OFF;
	return compile(o, emit_keys);
}

/* ---- check-items ----------------------------------------------------------------- */

static exit_status items_status(ddbc_items_result r)
{
	switch (r) {
	case DDBC_ITEMS_ALL_OK: return EXIT_OK;
	case DDBC_ITEMS_SOME_FAILED: return EXIT_FINDINGS;
	case DDBC_ITEMS_UNREADABLE: break;
	}
	return EXIT_USAGE;
}

/* The check of the items of o's ITEMS, its --table (read through c) or
 * the merge of its results. */
static ddbc_items_result items_run(FILE *f, struct opts *o, const ddbc_design *g,
				   ddbc_dynamo *c)
{
	const char *const *paths = (const char *const *)o->files + (o->merge ? 0 : 1);
	size_t n = o->nfiles - (o->merge ? 0 : 1);
	if (o->merge)
		return ddbc_items_merge(f, paths, n, &o->items);
	if (c)
		return ddbc_check_items_table(f, g, c, o->tables[0], &o->items);
	return ddbc_check_items(f, g, paths, n, &o->items);
}

/* Writes the check (or the merge) through the output (util/output.h), to
 * -o or standard output, and a write error is exit 2 like any other.
 * Unreadable input throws -o's file away; standard output still gets the
 * findings before it, and the error (one JSON object with --format json). */
static exit_status items_to_output(struct opts *o, const ddbc_design *g, ddbc_dynamo *c)
{
	ddbc_output out;
	if (ddbc_output_open(&out, o->output) < 0)
		return EXIT_USAGE;
	exit_status status = items_status(items_run(out.f, o, g, c));
	if (status == EXIT_USAGE && o->output)
		ddbc_output_abort(&out);
	else if (ddbc_output_commit(&out) < 0)
		status = EXIT_USAGE;
	return status;
}

/* check-items DESIGN --table NAME: the stored items, by parallel Scan. */
static exit_status run_items_table(struct opts *o)
{
	if (o->ntables > 1 || o->nfiles > 1) {
		ddbc_cli_usage_error("check-items", "%s", o->ntables > 1
				? "one --table at a time (run check-items once per table)"
				: "--table reads the items from the table: give the design file only");
		return EXIT_USAGE;
	}
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		if (o->items.format == DDBC_ITEMS_JSON && !o->output && u.why)
			ddbc_items_print_failure(stdout, o->tables, 1, o->files[0], u.why);
		close_unit(&u);
		return status;
	}
	ddbc_dynamo *c = ddbc_cli_dynamo_open(o);
	status = c ? items_to_output(o, u.design, c) : EXIT_USAGE;
	ddbc_dynamo_close(c);
	close_unit(&u);
	return status;
}

static exit_status run_items(struct opts *o)
{
	o->items.format = !strcmp(o->format, "json") ? DDBC_ITEMS_JSON : DDBC_ITEMS_TEXT;
	o->items.progress = isatty(STDERR_FILENO);
	if (o->min_severity != DDBC_SEV_DEFAULT)
		o->items.min_severity = o->min_severity;
	/* --merge reads --format json results and writes either format. */
	if (o->merge && o->ntables) {
		ddbc_cli_usage_error("check-items", "%s", "--merge adds up results; --table checks a table");
		return EXIT_USAGE;
	}
	if (o->merge)
		return items_to_output(o, NULL, NULL);
	if (o->ntables)
		return run_items_table(o);
	if (o->nfiles < 2) {
		ddbc_cli_usage_error("check-items", "%s", "expected a design file and an items file");
		return EXIT_USAGE;
	}
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		/* JSON still says why on standard output; a named output is not written. */
		if (o->items.format == DDBC_ITEMS_JSON && !o->output && u.why) {
			strbuf why = STRBUF_INIT;
			ddbc_strbuf_addf(&why, "%s%s", u.src ? "" : "cannot read: ", u.why);
			ddbc_items_print_failure(stdout, (const char *const *)o->files + 1,
						 o->nfiles - 1, o->files[0], ddbc_strbuf_str(&why));
			ddbc_strbuf_release(&why);
		}
		close_unit(&u);
		return status;
	}
	status = items_to_output(o, u.design, NULL);
	close_unit(&u);
	return status;
}

/* ---- diff ------------------------------------------------------------------------- */

/* One diff: OLD and NEW, or file number i against the revision. */
static exit_status diff_one(struct opts *o, size_t i)
{
	ddbc_diff_request r = {
		.old_path = o->against ? NULL : o->files[0],
		.new_path = o->files[o->against ? i : o->from ? o->nfiles - 1 : 1],
		.live_paths = o->from ? o->files : NULL,
		.nlive = o->from ? o->nfiles - 1 : 0,
		.against = o->against,
		.all = o->all,
		.format = o->format,
		.output = o->output,
		.werror = o->werror,
		.show_suppressed = o->show_suppressed,
		.min_severity = o->min_severity,
		.color = ddbc_cli_want_color(o->color, o->output ? STDERR_FILENO : STDOUT_FILENO),
		.settings = &o->settings,
	};
	return (exit_status)ddbc_cli_diff(&r);
}

/* diff --live DESIGN: OLD is the tables deployed at the endpoint. */
static exit_status diff_live(struct opts *o)
{
	if (o->from || o->against || o->nfiles != 1) {
		ddbc_cli_usage_error("diff", "%s", o->nfiles != 1 ? "--live takes the design only: "
				"ddbc diff --live [--table NAME]... NEW"
				: "--live compares with the deployed tables, not with --from or --against");
		return EXIT_USAGE;
	}
	ddbc_dynamo *c = ddbc_cli_dynamo_open(o);
	if (!c)
		return EXIT_USAGE;
	ddbc_diff_request r = {
		.new_path = o->files[0],
		.live = c,
		.tables = o->tables,
		.ntables = o->ntables,
		.all = o->all,
		.format = o->format,
		.output = o->output,
		.werror = o->werror,
		.min_severity = o->min_severity,
		.color = ddbc_cli_want_color(o->color, o->output ? STDERR_FILENO : STDOUT_FILENO),
		.settings = &o->settings,
	};
	exit_status status = (exit_status)ddbc_cli_diff(&r);
	ddbc_dynamo_close(c);
	return status;
}

static exit_status run_diff(struct opts *o)
{
	if (o->live)
		return diff_live(o);
	if (o->ntables) {
		ddbc_cli_usage_error("diff", "%s", "--table names deployed tables: it goes with --live");
		return EXIT_USAGE;
	}
	/* Several files against a revision (as a pre-commit hook passes them)
	 * make several reports: text and annotations only. */
	bool one_document = strcmp(o->format, "text") && strcmp(o->format, "github");
	static const ddbc_word live[] = { { "describe-table", "the described live tables" },
					  { NULL, NULL } };
	size_t w;
	if (o->from && ddbc_words_parse("diff", "--from", o->from, DDBC_WORDS(live), &w) < 0)
		return EXIT_USAGE;
	if (o->from && (o->against || o->nfiles < 2)) {
		ddbc_cli_usage_error("diff", "%s", "--from describe-table takes the described tables, "
			    "then the design: LIVE.json... NEW");
		return EXIT_USAGE;
	}
	if (o->from)
		return diff_one(o, 0);
	if (!o->against && o->nfiles != 2) {
		ddbc_cli_usage_error("diff", "%s", "expected two design files, OLD and NEW (or --against "
			    "REV FILE)");
		return EXIT_USAGE;
	}
	if (o->against && o->nfiles > 1 && (one_document || o->output)) {
		ddbc_cli_usage_error("diff", "%s", "--against with several files writes text or github "
			    "to standard output only");
		return EXIT_USAGE;
	}
	if (!o->against)
		return diff_one(o, 0);
	exit_status worst = EXIT_OK;
	for (size_t i = 0; i < o->nfiles; i++) {
		exit_status s = diff_one(o, i);
		if (s > worst)
			worst = s;
	}
	return worst;
}

/* ---- explain ---------------------------------------------------------------------- */

static exit_status run_explain(struct opts *o)
{
	return (exit_status)ddbc_cli_explain(o->nfiles ? o->files[0] : NULL);
}

/* ---- lsp ------------------------------------------------------------------------- */

/* The protocol owns standard output: what else would print there (nothing
 * should) goes to standard error. */
static exit_status run_lsp(struct opts *o)
{
	int out = dup(STDOUT_FILENO);
	if (out < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		ddbc_error("cannot set up standard output: %s", strerror(errno));
		return EXIT_USAGE;
	}
	int status = ddbc_lsp_serve(STDIN_FILENO, out, &o->settings);
	close(out);
	return status ? EXIT_FINDINGS : EXIT_OK;
}

/* ---- init ------------------------------------------------------------------------- */

static exit_status run_init(struct opts *o)
{
	return (exit_status)ddbc_cli_init(o->nfiles ? o->files[0] : NULL, o->output);
}

/* ---- import ---------------------------------------------------------------------- */

static exit_status run_import(struct opts *o)
{
	size_t row;
	if (!o->from) {
		ddbc_cli_usage_error("import", "%s", "--from SOURCE is required");
		return EXIT_USAGE;
	}
	if (ddbc_words_parse("import", "source", o->from, DDBC_WORDS(ddbc_import_sources), &row) < 0)
		return EXIT_USAGE;
	const ddbc_import_source *from = &ddbc_import_sources[row];
	ddbc_output out;
	if (ddbc_output_open(&out, o->output) < 0)
		return EXIT_USAGE;
	ddbc_import_param *params = ddbc_xcalloc(o->nparams + 1, sizeof(*params));
	for (size_t i = 0; i < o->nparams; i++)
		params[i] = (ddbc_import_param){ o->params[i].name, o->params[i].value };
	int rc = ddbc_import(from, o->files, o->nfiles, params, o->nparams,
			     out.f);
	free(params);
	if (rc < 0) {
		ddbc_output_abort(&out);
		return EXIT_USAGE;
	}
	return ddbc_output_commit(&out) < 0 ? EXIT_USAGE : EXIT_OK;
}

/* ---- dispatch ----------------------------------------------------------------------- */

static const ddbc_word lint_formats[] = {
	{ "text", "GCC-style lines" }, { "json", "one JSON document" },
	{ "sarif", "SARIF 2.1.0, for code scanning" }, { "github", "GitHub workflow annotations" },
	{ NULL, NULL },
};
static const ddbc_word items_formats[] = {
	{ "text", "a line per finding, then the counts" }, { "json", "one JSON document" },
	{ NULL, NULL },
};
static const ddbc_word cost_formats[] = {
	{ "text", "lines to read" }, { "json", "one JSON document" },
	{ "md", "Markdown tables" }, { NULL, NULL },
};
static const ddbc_word diff_formats[] = {
	{ "text", "GCC-style lines" }, { "json", "one JSON document" },
	{ "sarif", "SARIF 2.1.0, for code scanning" }, { "github", "GitHub workflow annotations" },
	{ "plan", "the deployment steps as JSON" }, { NULL, NULL },
};

#define COMMON (OPT_RULE | OPT_WERROR | OPT_COLOR | OPT_SHOW_SUPPRESSED | OPT_QUIET)

static const struct command commands[] = {
	{ .name = "lint", .usage = ddbc_usage_lint, .options = COMMON | OPT_FORMAT | OPT_TARGET,
	  .min_files = 1, .max_files = (size_t)-1, .formats = DDBC_WORDS(lint_formats),
	  .run = run_lint },
	{ .name = "doc", .usage = ddbc_usage_doc,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_LANG | OPT_TEMPLATE | OPT_CHECK,
	  .min_files = 1, .max_files = 1, .formats = DDBC_WORDS(ddbc_doc_formats),
	  .langs = DDBC_WORDS(ddbc_doc_langs), .run = run_doc },
	{ .name = "header", .usage = ddbc_usage_header,
	  .options = COMMON | OPT_OUTPUT | OPT_PREFIX, .min_files = 1, .max_files = 1,
	  .run = run_header },
	{ .name = "keys", .usage = ddbc_usage_keys,
	  .options = COMMON | OPT_OUTPUT | OPT_LANG | OPT_MODULE, .min_files = 1, .max_files = 1,
	  .langs = DDBC_WORDS(ddbc_keys_langs), .run = run_keys },
	{ .name = "export", .usage = ddbc_usage_export,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_PARAM | OPT_COMPACT, .min_files = 1,
	  .max_files = 1,
	  .formats = DDBC_WORDS(ddbc_export_formats), .run = run_export },
	{ .name = "cost", .usage = ddbc_usage_cost,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_PRICES, .min_files = 1, .max_files = 1,
	  .formats = DDBC_WORDS(cost_formats), .run = run_cost },
	{ .name = "check-items", .usage = ddbc_usage_items,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_ITEMS | OPT_TABLE | OPT_AWS,
	  .min_files = 1,
	  .max_files = (size_t)-1, .formats = DDBC_WORDS(items_formats), .run = run_items },
	{ .name = "diff", .usage = ddbc_usage_diff,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_AGAINST | OPT_ALL | OPT_FROM |
		     OPT_LIVE | OPT_TABLE | OPT_AWS,
	  .min_files = 1, .max_files = (size_t)-1, .formats = DDBC_WORDS(diff_formats),
	  .run = run_diff },
	{ .name = "import", .usage = ddbc_usage_import,
	  .options = OPT_FROM | OPT_LIST_SOURCES | OPT_OUTPUT | OPT_PARAM, .min_files = 1,
	  .max_files = (size_t)-1, .sources = DDBC_WORDS(ddbc_import_sources), .run = run_import },
	{ .name = "sample", .usage = ddbc_usage_sample,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_SAMPLE, .min_files = 1, .max_files = 1,
	  .formats = DDBC_WORDS(ddbc_sample_formats), .run = run_sample },
	{ .name = "verify", .usage = ddbc_usage_verify,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_SAMPLE | OPT_VERIFY | OPT_AWS,
	  .min_files = 1,
	  .max_files = 1, .formats = DDBC_WORDS(ddbc_verify_formats), .run = run_verify },
	{ .name = "migrate", .usage = ddbc_usage_migrate,
	  .options = COMMON | OPT_OUTPUT | OPT_AGAINST | OPT_MIGRATE | OPT_AWS | OPT_TABLE,
	  .min_files = 1,
	  .max_files = 2, .run = ddbc_cli_migrate },
	{ .name = "explain", .usage = ddbc_usage_explain, .max_files = 1, .run = run_explain },
	{ .name = "lsp", .usage = ddbc_usage_lsp, .options = OPT_RULE, .run = run_lsp },
	{ .name = "init", .usage = ddbc_usage_init, .options = OPT_OUTPUT, .max_files = 1,
	  .run = run_init },
};

/* Every file the command names is an input -o must not replace
 * (util/output.h); files found while running (a folder's) are noted where
 * they are read. */
static void note_inputs(const struct opts *o)
{
	for (size_t i = 0; i < o->nfiles; i++)
		ddbc_output_note_input(o->files[i]);
	if (o->check)
		ddbc_output_note_input(o->check);
	if (o->template_dir)
		ddbc_output_note_input(o->template_dir);
	if (o->prices)
		ddbc_output_note_input(o->prices);
}

static exit_status run_command(const struct command *cmd, int argc, char **argv)
{
	struct opts o;
	memset(&o, 0, sizeof(o));
	o.color = COLOR_AUTO;
	o.min_severity = DDBC_SEV_DEFAULT;
	o.format = cmd->formats.rows ? ddbc_word_name(cmd->formats, 0) : "";
	ddbc_settings_init(&o.settings);
	ddbc_items_opts_init(&o.items);
	exit_status status = EXIT_USAGE;
	switch (ddbc_cli_parse_options(cmd, argc, argv, &o)) {
	case CLI_GO_ON:
		format_limits(cmd, &o);
		params_given(cmd, &o);
		note_inputs(&o);
		status = cmd->run(&o);
		break;
	case CLI_DONE: status = EXIT_OK; break;
	case CLI_USAGE_ERROR: break;
	}
	free(o.params);
	free(o.tables);
	free(o.patterns);
	return status;
}

int ddbc_cli_main(int argc, char **argv)
{
	if (argc < 2) {
		ddbc_cli_usage_error(NULL, "%s", "no command given");
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		fputs(ddbc_usage_main, stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version")) {
		printf("ddbc %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return run_command(&commands[i], argc - 1, argv + 1);
	if (name[0] == '-') {
		/* Before a command only --help and --version mean anything. */
		static const char *const top[] = { "help", "version" };
		const char *hint = ddbc_suggest(name + strspn(name, "-"), top, 2);
		ddbc_usage_error(NULL, "unknown option '%s'%s%s%s", name,
				 hint ? "; did you mean '--" : "", hint ? hint : "",
				 hint ? "'?" : "");
		return EXIT_USAGE;
	}
	const char *names[sizeof(commands) / sizeof(commands[0])];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		names[i] = commands[i].name;
	const char *hint = ddbc_suggest(name, names, sizeof(names) / sizeof(names[0]));
	ddbc_usage_error(NULL, "unknown command '%s'%s%s%s", name,
			 hint ? "; did you mean '" : "", hint ? hint : "", hint ? "'?" : "");
	return EXIT_USAGE;
}
