/* cli.c - option parsing and the commands' top level
 *
 * Every command checks its design first (rules/check.c) and writes nothing
 * when an error is found; outputs stream into a temporary file that is
 * renamed over the destination only on success (util/output.c). Exit
 * status: 0 success, 1 error findings (or warnings with --werror, or items
 * that failed), 2 usage error, unreadable file, or a file that is no design.
 */
#include "cli/cli.h"
#include "cli/cli_cost.h"
#include "cli/cli_diff.h"
#include "cli/cli_explain.h"
#include "cli/cli_usage.h"
#include "cli/cli_words.h"
#include "model/header_plan.h"
#include "rules/check.h"
#include "emit/emit.h"
#include "items/items.h"
#include "import/import.h"
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

/* The exit statuses, as the usage text states them. */
typedef enum exit_status {
	EXIT_OK = 0,             /* success */
	EXIT_FINDINGS = 1,       /* error findings, or items that failed */
	EXIT_USAGE = 2           /* usage error, unreadable file, no design */
} exit_status;

/* Where option parsing leaves a command. */
typedef enum cli_step {
	CLI_GO_ON,               /* options taken: run the command */
	CLI_DONE,                /* --help printed: nothing more to do */
	CLI_USAGE_ERROR          /* a bad option, said on stderr */
} cli_step;

/* The options a command accepts. */
enum {
	OPT_FORMAT = 1 << 0, OPT_RULE = 1 << 1, OPT_WERROR = 1 << 2, OPT_COLOR = 1 << 3,
	OPT_OUTPUT = 1 << 4, OPT_LANG = 1 << 5, OPT_TEMPLATE = 1 << 6, OPT_PREFIX = 1 << 7,
	OPT_PARAM = 1 << 8, OPT_ITEMS = 1 << 9, OPT_SHOW_SUPPRESSED = 1 << 10,
	OPT_AGAINST = 1 << 11, OPT_ALL = 1 << 12, OPT_CHECK = 1 << 13, OPT_FROM = 1 << 14,
	OPT_LIST_SOURCES = 1 << 15, OPT_PRICES = 1 << 16, OPT_QUIET = 1 << 17
};

/* --color WHEN, in the order of its words. */
typedef enum color_when {
	COLOR_NEVER,
	COLOR_ALWAYS,
	COLOR_AUTO               /* on a terminal, unless NO_COLOR is set */
} color_when;

struct opts {
	const char *format;
	size_t format_row;       /* its row in the command's table of formats */
	bool format_given;
	const char *check;          /* doc --check FILE */
	ddbc_settings settings;
	bool werror;
	bool show_suppressed;
	ddbc_severity min_severity; /* --min-severity, --quiet; DEFAULT: the command's */
	color_when color;
	const char *output;
	ddbc_lang_id lang;
	const char *template_dir;
	const char *prefix;
	const char *against;
	const char *from;        /* import --from */
	bool all;
	ddbc_param *params;
	size_t nparams, params_cap;
	char **files;
	size_t nfiles;
	ddbc_items_opts items;   /* check-items: -j, --max-findings, item kinds' --rule */
	bool merge;              /* check-items --merge */
	const char *prices;      /* cost --prices FILE */
};

struct command {
	const char *name;
	const char *usage;
	unsigned options;
	size_t min_files, max_files;
	ddbc_words formats;      /* the --format words; the first is the default */
	ddbc_words sources;      /* the --from words */
	exit_status (*run)(struct opts *o);
};

/* Says what is wrong with the command line and where help is. */
static void usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "ddbc%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'ddbc %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
}

/* ---- option parsing ------------------------------------------------------------ */

static bool want_color(color_when color, int fd)
{
	if (color != COLOR_AUTO)
		return color == COLOR_ALWAYS;
	const char *no = getenv("NO_COLOR");
	if (no && *no)
		return false;
	return isatty(fd);
}

/* Takes --param NAME=VALUE; returns 0, or -1 after saying what is wrong. */
static int add_param(const char *cmd, struct opts *o, char *arg)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg) {
		usage_error(cmd, "expected --param NAME=VALUE, got '%s'", arg);
		return -1;
	}
	xgrow((void **)&o->params, &o->params_cap, o->nparams + 1, sizeof(ddbc_param));
	*eq = '\0';
	o->params[o->nparams].name = arg;
	o->params[o->nparams].value = eq + 1;
	o->nparams++;
	return 0;
}

/* Whether arg (KIND=SEV) names a kind of check-items finding. */
static bool names_item_kind(const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *id = xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	ddbc_item_kind k;
	bool found = ddbc_item_kind_find(id, &k) == 0;
	free(id);
	return found;
}

/* Takes --rule KIND=SEV for a kind of check-items finding. */
static cli_step take_item_rule(const struct command *cmd, struct opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *id = xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	ddbc_item_kind k;
	ddbc_item_kind_find(id, &k);
	free(id);
	ddbc_severity sev;
	if (!(cmd->options & OPT_ITEMS)) {
		usage_error(cmd->name, "'%s' is a kind of check-items finding, not a rule of "
			    "the design", arg);
		return CLI_USAGE_ERROR;
	}
	if (!eq || ddbc_severity_parse(eq + 1, &sev) < 0) {
		usage_error(cmd->name, "expected --rule KIND=off|note|warning|error, got '%s'", arg);
		return CLI_USAGE_ERROR;
	}
	o->items.sev[k] = sev;
	return CLI_GO_ON;
}

/* Takes --rule RULE=SEV (or KIND=SEV). */
static cli_step take_rule(const struct command *cmd, struct opts *o, const char *arg)
{
	if (names_item_kind(arg))
		return take_item_rule(cmd, o, arg);
	strbuf err = STRBUF_INIT;
	cli_step step = CLI_GO_ON;
	if (ddbc_settings_parse(&o->settings, arg, &err) < 0) {
		usage_error(cmd->name, "%s", strbuf_str(&err));
		step = CLI_USAGE_ERROR;
	}
	strbuf_release(&err);
	return step;
}

/* Takes a count in [min, max] into *out. */
static cli_step parse_count(const char *cmd, const char *opt, const char *arg,
			    unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || arg[0] == '-' || v < min || v > max) {
		fprintf(stderr, "ddbc %s: %s takes a number from %lu, got '%s'\nTry 'ddbc %s "
			"--help'.\n", cmd, opt, min, arg, cmd);
		return CLI_USAGE_ERROR;
	}
	*out = v;
	return CLI_GO_ON;
}

/* Handles one option c. */
static cli_step one_option(const struct command *cmd, struct opts *o, int c, char *arg)
{
	/* In the order of color_when and ddbc_lang_id. */
	static const ddbc_word colors[] = { { "never", NULL }, { "always", NULL },
					    { "auto", NULL }, { NULL, NULL } };
	static const ddbc_word langs[] = { { "en", NULL }, { "ja", NULL }, { NULL, NULL } };
	static const ddbc_word severities[] = { { "note", NULL }, { "warning", NULL },
						{ "error", NULL }, { NULL, NULL } };
	size_t w;
	switch (c) {
	case 'f':
		if (ddbc_words_parse(cmd->name, "format", arg, cmd->formats, &w) < 0)
			return CLI_USAGE_ERROR;
		o->format = ddbc_word_name(cmd->formats, w);
		o->format_row = w;
		o->format_given = true;
		return CLI_GO_ON;
	case 'L':
		ddbc_words_list(stdout, cmd->formats);
		return CLI_DONE;
	case 'Z':
		ddbc_words_list(stdout, cmd->sources);
		return CLI_DONE;
	case 'r': return take_rule(cmd, o, arg);
	case 'j': return parse_count(cmd->name, "-j", arg, 1, 1024, &o->items.jobs);
	case 'M':
		return parse_count(cmd->name, "--max-findings", arg, 0, ULONG_MAX,
				  &o->items.max_findings);
	case 'm': o->merge = true; return CLI_GO_ON;
	case 'W': o->werror = true; return CLI_GO_ON;
	case 'q': o->min_severity = DDBC_SEV_WARNING; return CLI_GO_ON;
	case 'V':
		if (ddbc_words_parse(cmd->name, "--min-severity", arg, DDBC_WORDS(severities), &w) < 0)
			return CLI_USAGE_ERROR;
		o->min_severity = (ddbc_severity)(DDBC_SEV_NOTE + w);
		return CLI_GO_ON;
	case 'S': o->show_suppressed = true; return CLI_GO_ON;
	case 'c':
		if (ddbc_words_parse(cmd->name, "--color", arg, DDBC_WORDS(colors), &w) < 0)
			return CLI_USAGE_ERROR;
		o->color = (color_when)w;
		return CLI_GO_ON;
	case 'o': o->output = arg; return CLI_GO_ON;
	case 'C': o->check = arg; return CLI_GO_ON;
	case 'l':
		if (ddbc_words_parse(cmd->name, "language", arg, DDBC_WORDS(langs), &w) < 0)
			return CLI_USAGE_ERROR;
		o->lang = (ddbc_lang_id)w;
		return CLI_GO_ON;
	case 't': o->template_dir = arg; return CLI_GO_ON;
	case 'p': o->prefix = arg; return CLI_GO_ON;
	case 'P': return add_param(cmd->name, o, arg) < 0 ? CLI_USAGE_ERROR : CLI_GO_ON;
	case 'a': o->against = arg; return CLI_GO_ON;
	case 'A': o->all = true; return CLI_GO_ON;
	case 'F': o->from = arg; return CLI_GO_ON;
	case 'R': o->prices = arg; return CLI_GO_ON;
	case 'h': ddbc_usage_print(stdout, cmd->usage, cmd->formats, cmd->sources); return CLI_DONE;
	}
	return CLI_USAGE_ERROR;
}

/* Says what getopt rejected in written: an option that needs a value and
 * has none, or an unknown option (with the nearest known one). getopt sets
 * optopt to a long option's internal letter: name what was written. */
static void option_error(const struct command *cmd, const char *shortopts,
			 const struct option *longopts, const char *written)
{
	if (strncmp(written, "--", 2) != 0) {
		const char *at = optopt ? strchr(shortopts, optopt) : NULL;
		char flag[] = { '-', (char)optopt, 0 };
		if (at && at[1] == ':')
			usage_error(cmd->name, "option '%s' needs a value", flag);
		else
			usage_error(cmd->name, "unknown option '%s'", optopt ? flag : written);
		return;
	}
	const char *name = written + 2;
	size_t len = strcspn(name, "=");
	char *flag = xstrndup(written, len + 2);
	const char *names[32];
	size_t n = 0;
	for (const struct option *lo = longopts; lo->name && n < 32; lo++) {
		if (!strcmp(lo->name, flag + 2)) {
			usage_error(cmd->name, lo->has_arg == required_argument
				    ? "option '%s' needs a value" : "option '%s' takes no value",
				    flag);
			free(flag);
			return;
		}
		names[n++] = lo->name;
	}
	const char *hint = ddbc_suggest(flag + 2, names, n);
	fprintf(stderr, "ddbc %s: unknown option '%s'", cmd->name, flag);
	if (hint)
		fprintf(stderr, "; did you mean '--%s'?", hint);
	fprintf(stderr, "\nTry 'ddbc %s --help'.\n", cmd->name);
	free(flag);
}

static cli_step parse_options(const struct command *cmd, int argc, char **argv, struct opts *o)
{
	static const struct { struct option opt; unsigned flag; } all[] = {
		{ { "format", required_argument, NULL, 'f' }, OPT_FORMAT },
		{ { "rule", required_argument, NULL, 'r' }, OPT_RULE },
		{ { "werror", no_argument, NULL, 'W' }, OPT_WERROR },
		{ { "quiet", no_argument, NULL, 'q' }, OPT_QUIET },
		{ { "min-severity", required_argument, NULL, 'V' }, OPT_QUIET },
		{ { "show-suppressed", no_argument, NULL, 'S' }, OPT_SHOW_SUPPRESSED },
		{ { "color", required_argument, NULL, 'c' }, OPT_COLOR },
		{ { "output", required_argument, NULL, 'o' }, OPT_OUTPUT },
		{ { "lang", required_argument, NULL, 'l' }, OPT_LANG },
		{ { "template", required_argument, NULL, 't' }, OPT_TEMPLATE },
		{ { "prefix", required_argument, NULL, 'p' }, OPT_PREFIX },
		{ { "param", required_argument, NULL, 'P' }, OPT_PARAM },
		{ { "jobs", required_argument, NULL, 'j' }, OPT_ITEMS },
		{ { "max-findings", required_argument, NULL, 'M' }, OPT_ITEMS },
		{ { "merge", no_argument, NULL, 'm' }, OPT_ITEMS },
		{ { "against", required_argument, NULL, 'a' }, OPT_AGAINST },
		{ { "all", no_argument, NULL, 'A' }, OPT_ALL },
		{ { "check", required_argument, NULL, 'C' }, OPT_CHECK },
		{ { "from", required_argument, NULL, 'F' }, OPT_FROM },
		{ { "list-formats", no_argument, NULL, 'L' }, OPT_FORMAT },
		{ { "list-sources", no_argument, NULL, 'Z' }, OPT_LIST_SOURCES },
		{ { "prices", required_argument, NULL, 'R' }, OPT_PRICES },
	};
	struct option longopts[sizeof(all) / sizeof(all[0]) + 2];
	size_t n = 0;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (cmd->options & all[i].flag)
			longopts[n++] = all[i].opt;
	longopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	/* GNU order: options may follow the files, as in `ddbc lint a.yaml --werror`. */
	char shortopts[16] = "h";
	if (cmd->options & OPT_OUTPUT)
		strcat(shortopts, "o:");
	if (cmd->options & OPT_ITEMS)
		strcat(shortopts, "j:");
	if (cmd->options & OPT_QUIET)
		strcat(shortopts, "q");

	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			option_error(cmd, shortopts, longopts, argv[optind - 1]);
			return CLI_USAGE_ERROR;
		}
		cli_step step = one_option(cmd, o, c, optarg);
		if (step != CLI_GO_ON)
			return step;
	}
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
	if (o->nfiles < cmd->min_files) {
		usage_error(cmd->name, "%s", cmd->min_files > 1 ? "expected a design file and an "
			    "items file" : "no design file given");
		return CLI_USAGE_ERROR;
	}
	if (o->nfiles > cmd->max_files) {
		usage_error(cmd->name, "too many files starting at '%s'", o->files[cmd->max_files]);
		return CLI_USAGE_ERROR;
	}
	return CLI_GO_ON;
}

/* ---- lint -------------------------------------------------------------------------- */

/* Why src could not be read as a design: its first error, which a
 * fatal one (a YAML syntax error, no mapping) always is among. */
static void no_design_reason(strbuf *sb, const ddbc_diags *d, const ddbc_source *src)
{
	for (size_t i = 0; i < d->n; i++) {
		const ddbc_diag *g = &d->items[i];
		if (g->src == src && g->severity == DDBC_SEV_ERROR) {
			strbuf_addf(sb, "not a design: line %u: %s", g->loc.line, g->message);
			return;
		}
	}
	strbuf_addstr(sb, "not a design");
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
	print.color = want_color(o->color, STDOUT_FILENO);

	ddbc_source **sources = xcalloc(o->nfiles, sizeof(*sources));
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
				strbuf_addf(&reason, "cannot read: %s", strerror(errno));
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
	failure.message = strbuf_str(&reason);
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
	strbuf_release(&reason);
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
	ddbc_print_opts print = { DDBC_DIAG_TEXT, want_color(o->color, STDERR_FILENO), 1,
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
	if (o->output && ddbc_same_file(o->output, path)) {
		ddbc_error("refusing to write the output over the input '%s'", path);
		return -1;
	}
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

static ddbc_emit_result emit_doc(FILE *out, struct unit *u, struct opts *o)
{
	ddbc_doc_opts doc = { o->lang, o->template_dir };
	return ddbc_doc_formats[o->format_row].fn(out, u->design, &doc, &u->d);
}

static ddbc_emit_result emit_header(FILE *out, struct unit *u, struct opts *o)
{
	ddbc_header_opts h = { o->prefix };
	/* The plan's findings (run_header) are errors whatever the rule's
	 * setting: a header whose names collide cannot be written. */
	o->settings.sev[DDBC_RULE_HEADER_NAME] = DDBC_SEV_ERROR;
	return ddbc_emit_header(out, u->design, &h, &u->d);
}

static ddbc_emit_result emit_export(FILE *out, struct unit *u, struct opts *o)
{
	ddbc_export_opts x = { o->params, o->nparams };
	/* A value the queries export will not send is an error whatever the
	 * rule's setting: the request cannot be written with it. */
	o->settings.sev[DDBC_RULE_PARAM_VALUE] = DDBC_SEV_ERROR;
	o->settings.sev[DDBC_RULE_PATTERN_OPERATOR_TYPE] = DDBC_SEV_ERROR;
	return ddbc_export_formats[o->format_row].fn(out, u->design, &x, &u->d);
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
		usage_error("doc", "a directory output ('%s') needs --format html", o->output);
		return EXIT_USAGE;
	}
	if (mkdir(o->output, 0777) < 0 && errno != EEXIST) {
		ddbc_error("cannot create '%s': %s", o->output, strerror(errno));
		return EXIT_USAGE;
	}
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		close_unit(&u);
		return status;
	}
	ddbc_doc_opts doc = { o->lang, o->template_dir };
	ddbc_emit_result r = ddbc_emit_html_site(o->output, u.design, &doc, &u.d);
	ddbc_diags_finish(&u.d, &o->settings, &u.design->settings);
	bool failed = fails(&u.d, o);
	print_findings(&u, o);
	close_unit(&u);
	return emit_status(r, failed);
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
		usage_error("doc", "%s", "--check writes nothing: leave out -o");
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
		ddbc_error("'%s' %s: %s it with ddbc doc%s%s%s -o %s %s", o->check,
			   missing ? "does not exist" : "is stale", missing ? "write" : "regenerate",
			   o->format_given || strcmp(o->format, "md") ? " --format " : "",
			   o->format_given || strcmp(o->format, "md") ? o->format : "",
			   o->lang == DDBC_LANG_JA ? " --lang ja" : "", o->check, o->files[0]);
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
		usage_error("header", "--prefix '%s' is not a usable C identifier; write a letter, "
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
/* param-no-value speaks for the queries export: lint reports it so that a
 * design lint passes is one that export takes, but the commands that send
 * no request (and the export given values by --param, whose emitter still
 * refuses what they leave without one) need no values. */
static void param_values_needed(const struct command *cmd, struct opts *o)
{
	bool needs = !strcmp(cmd->name, "lint") ||
		     (!strcmp(cmd->name, "export") && !strcmp(o->format, "queries") &&
		      !o->nparams);
	if (!needs && o->settings.sev[DDBC_RULE_PARAM_NO_VALUE] == DDBC_SEV_DEFAULT)
		o->settings.sev[DDBC_RULE_PARAM_NO_VALUE] = DDBC_SEV_OFF;
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

/* Writes the check (or the merge) to standard output, or through -o's
 * temporary file, which unreadable input throws away. */
static exit_status items_to_output(struct opts *o, const ddbc_design *g)
{
	const char *const *paths = (const char *const *)o->files + (o->merge ? 0 : 1);
	size_t n = o->nfiles - (o->merge ? 0 : 1);
	ddbc_output out;
	FILE *f = stdout;
	if (o->output) {
		if (ddbc_output_open(&out, o->output) < 0)
			return EXIT_USAGE;
		f = out.f;
	}
	exit_status status = items_status(o->merge ? ddbc_items_merge(f, paths, n, &o->items)
					   : ddbc_check_items(f, g, paths, n, &o->items));
	if (o->output) {
		if (status == EXIT_USAGE)
			ddbc_output_abort(&out);
		else if (ddbc_output_commit(&out) < 0)
			status = EXIT_USAGE;
	}
	return status;
}

static exit_status run_items(struct opts *o)
{
	o->items.format = !strcmp(o->format, "json") ? DDBC_ITEMS_JSON : DDBC_ITEMS_TEXT;
	o->items.progress = isatty(STDERR_FILENO);
	if (o->min_severity != DDBC_SEV_DEFAULT)
		o->items.min_severity = o->min_severity;
	/* --merge reads --format json results and writes either format. */
	if (o->merge)
		return items_to_output(o, NULL);
	if (o->nfiles < 2) {
		usage_error("check-items", "%s", "expected a design file and an items file");
		return EXIT_USAGE;
	}
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		/* JSON still says why on standard output; a named output is not written. */
		if (o->items.format == DDBC_ITEMS_JSON && !o->output && u.why) {
			strbuf why = STRBUF_INIT;
			strbuf_addf(&why, "%s%s", u.src ? "" : "cannot read: ", u.why);
			ddbc_items_print_failure(stdout, (const char *const *)o->files + 1,
						 o->nfiles - 1, o->files[0], strbuf_str(&why));
			strbuf_release(&why);
		}
		close_unit(&u);
		return status;
	}
	status = items_to_output(o, u.design);
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
		.min_severity = o->min_severity,
		.color = want_color(o->color, o->output ? STDERR_FILENO : STDOUT_FILENO),
		.settings = &o->settings,
	};
	return (exit_status)ddbc_cli_diff(&r);
}

static exit_status run_diff(struct opts *o)
{
	/* Several files against a revision (as a pre-commit hook passes them)
	 * make several reports: text and annotations only. */
	bool one_document = strcmp(o->format, "text") && strcmp(o->format, "github");
	static const ddbc_word live[] = { { "describe-table", "the described live tables" },
					  { NULL, NULL } };
	size_t w;
	if (o->from && ddbc_words_parse("diff", "--from", o->from, DDBC_WORDS(live), &w) < 0)
		return EXIT_USAGE;
	if (o->from && (o->against || o->nfiles < 2)) {
		usage_error("diff", "%s", "--from describe-table takes the described tables, "
			    "then the design: LIVE.json... NEW");
		return EXIT_USAGE;
	}
	if (o->from)
		return diff_one(o, 0);
	if (!o->against && o->nfiles != 2) {
		usage_error("diff", "%s", "expected two design files, OLD and NEW (or --against "
			    "REV FILE)");
		return EXIT_USAGE;
	}
	if (o->against && o->nfiles > 1 && (one_document || o->output)) {
		usage_error("diff", "%s", "--against with several files writes text or github "
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

/* ---- import ---------------------------------------------------------------------- */

static exit_status run_import(struct opts *o)
{
	size_t row;
	if (!o->from) {
		usage_error("import", "%s", "--from SOURCE is required");
		return EXIT_USAGE;
	}
	if (ddbc_words_parse("import", "source", o->from, DDBC_WORDS(ddbc_import_sources), &row) < 0)
		return EXIT_USAGE;
	ddbc_import_from from = ddbc_import_sources[row].from;
	ddbc_output out;
	if (ddbc_output_open(&out, o->output) < 0)
		return EXIT_USAGE;
	ddbc_import_param *params = xcalloc(o->nparams + 1, sizeof(*params));
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
	{ .name = "lint", .usage = ddbc_usage_lint, .options = COMMON | OPT_FORMAT,
	  .min_files = 1, .max_files = (size_t)-1, .formats = DDBC_WORDS(lint_formats),
	  .run = run_lint },
	{ .name = "doc", .usage = ddbc_usage_doc,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_LANG | OPT_TEMPLATE | OPT_CHECK,
	  .min_files = 1, .max_files = 1, .formats = DDBC_WORDS(ddbc_doc_formats),
	  .run = run_doc },
	{ .name = "header", .usage = ddbc_usage_header,
	  .options = COMMON | OPT_OUTPUT | OPT_PREFIX, .min_files = 1, .max_files = 1,
	  .run = run_header },
	{ .name = "export", .usage = ddbc_usage_export,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_PARAM, .min_files = 1, .max_files = 1,
	  .formats = DDBC_WORDS(ddbc_export_formats), .run = run_export },
	{ .name = "cost", .usage = ddbc_usage_cost,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_PRICES, .min_files = 1, .max_files = 1,
	  .formats = DDBC_WORDS(cost_formats), .run = run_cost },
	{ .name = "check-items", .usage = ddbc_usage_items,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_ITEMS, .min_files = 1,
	  .max_files = (size_t)-1, .formats = DDBC_WORDS(items_formats), .run = run_items },
	{ .name = "diff", .usage = ddbc_usage_diff,
	  .options = COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_AGAINST | OPT_ALL | OPT_FROM,
	  .min_files = 1, .max_files = (size_t)-1, .formats = DDBC_WORDS(diff_formats),
	  .run = run_diff },
	{ .name = "import", .usage = ddbc_usage_import,
	  .options = OPT_FROM | OPT_LIST_SOURCES | OPT_OUTPUT | OPT_PARAM, .min_files = 1,
	  .max_files = (size_t)-1, .sources = DDBC_WORDS(ddbc_import_sources), .run = run_import },
	{ .name = "explain", .usage = ddbc_usage_explain, .max_files = 1, .run = run_explain },
};

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
	switch (parse_options(cmd, argc, argv, &o)) {
	case CLI_GO_ON:
		param_values_needed(cmd, &o);
		status = cmd->run(&o);
		break;
	case CLI_DONE: status = EXIT_OK; break;
	case CLI_USAGE_ERROR: break;
	}
	free(o.params);
	return status;
}

int ddbc_cli_main(int argc, char **argv)
{
	if (argc < 2) {
		usage_error(NULL, "%s", "no command given");
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
		fprintf(stderr, "ddbc: unknown option '%s'", name);
		if (hint)
			fprintf(stderr, "; did you mean '--%s'?", hint);
		fputs("\nTry 'ddbc --help'.\n", stderr);
		return EXIT_USAGE;
	}
	const char *names[sizeof(commands) / sizeof(commands[0])];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		names[i] = commands[i].name;
	const char *hint = ddbc_suggest(name, names, sizeof(names) / sizeof(names[0]));
	if (hint)
		fprintf(stderr, "ddbc: unknown command '%s'; did you mean '%s'?\nTry 'ddbc "
				"--help'.\n", name, hint);
	else
		usage_error(NULL, "unknown command '%s'", name);
	return EXIT_USAGE;
}
