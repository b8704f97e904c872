/* cli.c - option parsing and the commands' top level
 *
 * Every command checks its design first (rules/check.c) and writes nothing
 * when an error is found; outputs stream into a temporary file that is
 * renamed over the destination only on success (util/output.c). Exit
 * status: 0 success, 1 error findings (or warnings with --werror, or items
 * that failed), 2 usage error, unreadable file, or a file that is no design.
 */
#include "cli/cli.h"
#include "cli/cli_diff.h"
#include "cli/cli_explain.h"
#include "rules/check.h"
#include "emit/emit.h"
#include "items/items.h"
#include "import/import.h"
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
	OPT_AGAINST = 1 << 11, OPT_ALL = 1 << 12, OPT_CHECK = 1 << 13, OPT_FROM = 1 << 14
};

/* --color WHEN, in the order of its words. */
typedef enum color_when {
	COLOR_NEVER,
	COLOR_ALWAYS,
	COLOR_AUTO               /* on a terminal, unless NO_COLOR is set */
} color_when;

struct opts {
	const char *format;
	bool format_given;
	const char *check;          /* doc --check FILE */
	ddbc_settings settings;
	bool werror;
	bool show_suppressed;
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
};

struct command {
	const char *name;
	const char *usage;
	unsigned options;
	size_t min_files, max_files;
	const char *const *formats;  /* the --format words; the first is the default */
	exit_status (*run)(struct opts *o);
};

static const char usage_main[] =
	"usage: ddbc COMMAND [OPTIONS] FILE...\n"
	"\n"
	"ddbc checks DynamoDB table designs written in YAML and compiles them.\n"
	"\n"
	"commands:\n"
	"  lint         check designs; nothing written\n"
	"  doc          write the design's documentation (Markdown or HTML)\n"
	"  header       write a C header of key builders and name constants\n"
	"  export       write CreateTable requests, the model or query requests as JSON\n"
	"  check-items  validate items (a scan or an export) against the design\n"
	"  diff         what a change of a design does to deployed tables and items\n"
	"  import       write a design from a Workbench model, a CloudFormation\n"
	"               template, described tables or an MCP server schema\n"
	"  explain      list the rules, or show one rule's page\n"
	"\n"
	"options:\n"
	"  -h, --help     show this help ('ddbc COMMAND --help' for a command)\n"
	"      --version  show the version\n"
	"\n"
	"Every command checks the design first and writes nothing when it has an error.\n"
	"exit status: 0 success, 1 errors found (or warnings with --werror, or items\n"
	"that failed), 2 usage error, unreadable file or a file that is no design\n";

#define COMMON_HELP \
	"      --color WHEN        colour the findings: auto (default: on a terminal,\n" \
	"                          unless NO_COLOR is set), always or never\n"       \
	"      --rule RULE=SEV     set a rule's severity: off, note, warning or error\n" \
	"                          (repeatable; wins over the design's lint.rules)\n"  \
	"      --werror            treat warnings as errors\n"                          \
	"      --show-suppressed   also print the findings that ddbc-ignore comments\n" \
	"                          suppress, marked (they never count)\n"             \
	"  -h, --help              show this help\n"

#define OUTPUT_HELP \
	"  -o, --output FILE       write to FILE (atomically) instead of standard output\n"

static const char usage_lint[] =
	"usage: ddbc lint [OPTIONS] FILE...\n"
	"\n"
	"Checks each design and prints every finding, sorted by position.\n"
	"\n"
	"options:\n"
	"      --format FMT        text (default), json, sarif or github\n"
	COMMON_HELP;

static const char usage_doc[] =
	"usage: ddbc doc [OPTIONS] FILE\n"
	"\n"
	"Writes the design's documentation: a diagram, per table its keys, indexes,\n"
	"index map and item views, per entity its attribute table and examples, and\n"
	"the access patterns with their requests and the items they return.\n"
	"\n"
	"options:\n"
	"      --format FMT        md (default) or html\n"
	"  -o, --output DIR/      html: index.html and one page per table in DIR\n"
	"      --check DOC         exit 1 if DOC is not what this command writes now\n"
	"                          (the format follows DOC's .html or .md name)\n"
	"      --lang LANG         en (default) or ja: the language of the labels\n"
	"      --template DIR      a folder with page.html and style.css for html\n"
	"                          (default: the folder named by the environment\n"
	"                          variable DDBC_TEMPLATE_DIR, else the built-in)\n"
	OUTPUT_HELP COMMON_HELP;

static const char usage_header[] =
	"usage: ddbc header [OPTIONS] FILE\n"
	"\n"
	"Writes a C header with a builder for every key template and constants for\n"
	"table, index and attribute names.\n"
	"\n"
	"options:\n"
	"      --prefix ID         the prefix of every name (default: from the design\n"
	"                          name)\n"
	OUTPUT_HELP COMMON_HELP;

static const char usage_export[] =
	"usage: ddbc export [OPTIONS] FILE\n"
	"\n"
	"Writes JSON: CreateTable requests, the normalized model, one request per\n"
	"access pattern, a CloudFormation template or Terraform JSON (*.tf.json)\n"
	"that create the tables, or a NoSQL Workbench data model.\n"
	"\n"
	"options:\n"
	"      --format FMT        create-table (default), model, queries,\n"
	"                          cloudformation, terraform or workbench\n"
	"      --param NAME=VALUE  a value for a query parameter (repeatable)\n"
	OUTPUT_HELP COMMON_HELP;

static const char usage_items[] =
	"usage: ddbc check-items [OPTIONS] FILE ITEMS...\n"
	"       ddbc check-items --merge --format json RESULT.json...\n"
	"\n"
	"Validates items against the design. ITEMS is a JSON array, JSON lines, a\n"
	"scan result ({\"Items\": [...]}), DynamoDB export lines ({\"Item\": {...}}), a\n"
	"BatchWriteItem request file ({\"Table\": [{\"PutRequest\": ...}]}), any of\n"
	"them gzip-compressed, or the folder of a DynamoDB export to S3; \"-\" reads\n"
	"standard input. Prints one line per finding, then 'N items: N ok, N failed,\n"
	"N unmatched' and the findings by kind. The shapes, the matching of items to\n"
	"entities and the JSON output are described in check-items.md, installed in\n"
	DDBC_DOCDIR ".\n"
	"\n"
	"options:\n"
	"      --format FMT        text (default) or json\n"
	"  -j, --jobs N            check N files at once (the output is the same)\n"
	"      --max-findings N    write at most N findings (all are counted)\n"
	"      --rule KIND=SEV     off, note, warning or error for a kind of item\n"
	"                          finding (ddbc explain lists them) or a rule\n"
	"      --merge             add up --format json results of separate runs\n"
	OUTPUT_HELP COMMON_HELP;

static const char usage_diff[] =
	"usage: ddbc diff [OPTIONS] OLD NEW\n"
	"       ddbc diff [OPTIONS] --against REV FILE...\n"
	"       ddbc diff [OPTIONS] --from describe-table LIVE.json... NEW\n"
	"\n"
	"Reports each change from OLD to NEW as a finding of its change class:\n"
	"errors break deployed tables or stored items, warnings need a plan, notes\n"
	"are safe. With --against, OLD is FILE as git holds it at revision REV\n"
	"(a FILE added since REV has nothing to compare and passes). With --from,\n"
	"OLD is the deployed tables as 'aws dynamodb describe-table' gave them:\n"
	"only what they hold (keys, indexes, billing) is compared.\n"
	"Both designs are checked first; an error in NEW stops the diff.\n"
	"\n"
	"options:\n"
	"      --against REV       compare FILE with FILE at git revision REV\n"
	"      --from describe-table  OLD is the described live tables (drift)\n"
	"      --all               also report description and format changes\n"
	"      --format FMT        text (default), json, sarif, github, or plan: the\n"
	"                          deployment steps as JSON (findings go to stderr)\n"
	OUTPUT_HELP COMMON_HELP;

static const char usage_import[] =
	"usage: ddbc import --from SOURCE [OPTIONS] FILE...\n"
	"\n"
	"Writes a design from other descriptions of the tables: a NoSQL Workbench\n"
	"data model (workbench), a CloudFormation or SAM template in YAML or JSON\n"
	"(cloudformation), the output of 'aws dynamodb describe-table', one file per\n"
	"table (describe-table), or the schema.json of the DynamoDB MCP server (mcp).\n"
	"Key templates that only sample items show are recovered where every sample\n"
	"agrees and marked by a comment.\n"
	"\n"
	"options:\n"
	"      --from SOURCE       workbench, cloudformation, describe-table or mcp\n"
	"      --param NAME=VALUE  a template parameter's value (repeatable)\n"
	OUTPUT_HELP
	"  -h, --help              show this help\n";

static const char usage_explain[] =
	"usage: ddbc explain [RULE]\n"
	"\n"
	"Without RULE, lists every rule with its default severity and summary, then\n"
	"the kinds of check-items findings. With RULE (or KIND), prints its page: what\n"
	"it checks, why, a failing and a passing example.\n"
	"The pages are part of ddbc; the environment variable DDBC_RULES_DIR names\n"
	"a folder to read them from instead.\n"
	"\n"
	"options:\n"
	"  -h, --help              show this help\n";

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

/* Sets *out to the index of arg in words; returns 0, or -1 after saying
 * which words there are. */
static int parse_word(const char *cmd, const char *what, const char *arg,
		      const char *const *words, int *out)
{
	for (int i = 0; words[i]; i++) {
		if (!strcmp(arg, words[i])) {
			*out = i;
			return 0;
		}
	}
	strbuf list = STRBUF_INIT;
	for (int i = 0; words[i]; i++)
		strbuf_addf(&list, "%s%s", i ? ", " : "", words[i]);
	fprintf(stderr, "ddbc %s: unknown %s '%s'; use %s\nTry 'ddbc %s --help'.\n", cmd, what,
		arg, strbuf_str(&list), cmd);
	strbuf_release(&list);
	return -1;
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

/* Takes --rule KIND=SEV for a kind of check-items finding; returns 1 when
 * arg names no such kind. */
static int take_item_rule(const struct command *cmd, struct opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *id = xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	ddbc_item_kind k;
	int found = ddbc_item_kind_find(id, &k);
	free(id);
	if (found < 0)
		return 1;
	ddbc_severity sev;
	if (!(cmd->options & OPT_ITEMS)) {
		usage_error(cmd->name, "'%s' is a kind of check-items finding, not a rule of "
			    "the design", arg);
		return -1;
	}
	if (!eq || ddbc_severity_parse(eq + 1, &sev) < 0) {
		usage_error(cmd->name, "expected --rule KIND=off|note|warning|error, got '%s'", arg);
		return -1;
	}
	o->items.sev[k] = sev;
	return 0;
}

/* Takes --rule RULE=SEV (or KIND=SEV). */
static cli_step take_rule(const struct command *cmd, struct opts *o, const char *arg)
{
	int item = take_item_rule(cmd, o, arg);
	if (item <= 0)
		return item < 0 ? CLI_USAGE_ERROR : CLI_GO_ON;
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
	static const char *const colors[] = { "never", "always", "auto", NULL };
	static const char *const langs[] = { "en", "ja", NULL };
	int w;
	switch (c) {
	case 'f':
		if (parse_word(cmd->name, "format", arg, cmd->formats, &w) < 0)
			return CLI_USAGE_ERROR;
		o->format = cmd->formats[w];
		o->format_given = true;
		return CLI_GO_ON;
	case 'r': return take_rule(cmd, o, arg);
	case 'j': return parse_count(cmd->name, "-j", arg, 1, 1024, &o->items.jobs);
	case 'M':
		return parse_count(cmd->name, "--max-findings", arg, 0, ULONG_MAX,
				  &o->items.max_findings);
	case 'm': o->merge = true; return CLI_GO_ON;
	case 'W': o->werror = true; return CLI_GO_ON;
	case 'S': o->show_suppressed = true; return CLI_GO_ON;
	case 'c':
		if (parse_word(cmd->name, "--color", arg, colors, &w) < 0)
			return CLI_USAGE_ERROR;
		o->color = (color_when)w;
		return CLI_GO_ON;
	case 'o': o->output = arg; return CLI_GO_ON;
	case 'C': o->check = arg; return CLI_GO_ON;
	case 'l':
		if (parse_word(cmd->name, "language", arg, langs, &w) < 0)
			return CLI_USAGE_ERROR;
		o->lang = (ddbc_lang_id)w;
		return CLI_GO_ON;
	case 't': o->template_dir = arg; return CLI_GO_ON;
	case 'p': o->prefix = arg; return CLI_GO_ON;
	case 'P': return add_param(cmd->name, o, arg) < 0 ? CLI_USAGE_ERROR : CLI_GO_ON;
	case 'a': o->against = arg; return CLI_GO_ON;
	case 'A': o->all = true; return CLI_GO_ON;
	case 'F': o->from = arg; return CLI_GO_ON;
	case 'h': fputs(cmd->usage, stdout); return CLI_DONE;
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
	};
	struct option longopts[sizeof(all) / sizeof(all[0]) + 2];
	size_t n = 0;
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (cmd->options & all[i].flag)
			longopts[n++] = all[i].opt;
	longopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n] = (struct option){ NULL, 0, NULL, 0 };
	/* GNU order: options may follow the files, as in `ddbc lint a.yaml --werror`. */
	const char *shortopts = (cmd->options & OPT_ITEMS) ? "ho:j:"
				: (cmd->options & OPT_OUTPUT) ? "ho:" : "h";

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
static void print_summary(FILE *out, const ddbc_diags *d, size_t nfiles)
{
	ddbc_counts n = ddbc_diags_count(d);
	fprintf(out, "%zu file%s: ", nfiles, nfiles == 1 ? "" : "s");
	if (!n.errors && !n.warnings && !n.notes)
		fputs("no findings", out);
	else
		fprintf(out, "%zu error%s, %zu warning%s, %zu note%s", n.errors,
			n.errors == 1 ? "" : "s", n.warnings, n.warnings == 1 ? "" : "s", n.notes,
			n.notes == 1 ? "" : "s");
	if (n.suppressed)
		fprintf(out, " (%zu suppressed)", n.suppressed);
	fputc('\n', out);
}

static exit_status run_lint(struct opts *o)
{
	ddbc_print_opts print = { DDBC_DIAG_TEXT, false, o->nfiles, DDBC_SEV_OFF,
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
			fprintf(stderr, "ddbc: cannot read '%s': %s\n", o->files[i], strerror(errno));
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
	/* A pipe gets the findings alone, one to a line, for tools to read. */
	if (print.format == DDBC_DIAG_TEXT && isatty(STDOUT_FILENO))
		print_summary(stdout, &d, o->nfiles);
	fflush(stdout);

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
				  DDBC_SEV_WARNING, o->show_suppressed, NULL };
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
		fprintf(stderr, "ddbc: cannot read '%s': %s\n", path, u->why);
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
	if (!strcmp(o->format, "html"))
		return ddbc_emit_html(out, u->design, &doc, &u->d);
	return ddbc_emit_md(out, u->design, &doc, &u->d);
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
	if (!strcmp(o->format, "model"))
		return ddbc_emit_model(out, u->design, &x, &u->d);
	if (!strcmp(o->format, "queries"))
		return ddbc_emit_queries(out, u->design, &x, &u->d);
	if (!strcmp(o->format, "cloudformation"))
		return ddbc_emit_cloudformation(out, u->design, &x, &u->d);
	if (!strcmp(o->format, "terraform"))
		return ddbc_emit_terraform(out, u->design, &x, &u->d);
	if (!strcmp(o->format, "workbench"))
		return ddbc_emit_workbench(out, u->design, &x, &u->d);
	return ddbc_emit_create_table(out, u->design, &x, &u->d);
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
	struct unit u;
	exit_status status;
	ddbc_output_site site;
	if (open_unit(&u, o, &status) < 0 || ddbc_output_site_open(&site, o->output) < 0) {
		close_unit(&u);
		return status == EXIT_OK ? EXIT_USAGE : status;
	}
	/* The pages go into a temporary folder, moved into place whole. */
	ddbc_doc_opts doc = { o->lang, o->template_dir };
	ddbc_emit_result r = ddbc_emit_html_site(site.tmp, u.design, &doc, &u.d);
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
		usage_error("doc", "%s", "--check writes nothing: leave out -o");
		return EXIT_USAGE;
	}
	if (!o->format_given && (ends_with(o->check, ".html") || ends_with(o->check, ".htm")))
		o->format = "html";
	struct unit u;
	exit_status status;
	if (open_unit(&u, o, &status) < 0) {
		if (status == EXIT_FINDINGS)
			fprintf(stderr, "ddbc: cannot check '%s': the design '%s' has errors\n",
				o->check, o->files[0]);
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
	if (status == EXIT_FINDINGS)
		fprintf(stderr, "ddbc: '%s' is stale: regenerate it with ddbc doc%s%s%s -o %s %s\n",
			o->check, o->format_given || strcmp(o->format, "md") ? " --format " : "",
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
	o->settings.sev[DDBC_RULE_HEADER_NAME] = DDBC_SEV_OFF;
	return compile(o, emit_header);
}
static exit_status run_export(struct opts *o) { return compile(o, emit_export); }

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
	if (o->merge) {
		if (o->items.format != DDBC_ITEMS_JSON) {
			usage_error("check-items", "%s", "--merge reads and writes --format json "
				    "results: give --format json");
			return EXIT_USAGE;
		}
		return items_to_output(o, NULL);
	}
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
	static const char *const live[] = { "describe-table", NULL };
	int w;
	if (o->from && parse_word("diff", "--from", o->from, live, &w) < 0)
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
	static const char *const sources[] = { "workbench", "cloudformation", "describe-table",
					       "mcp", NULL };
	int from;
	if (!o->from) {
		usage_error("import", "%s", "--from SOURCE is required");
		return EXIT_USAGE;
	}
	if (parse_word("import", "source", o->from, sources, &from) < 0)
		return EXIT_USAGE;
	ddbc_output out;
	if (ddbc_output_open(&out, o->output) < 0)
		return EXIT_USAGE;
	ddbc_import_param *params = xcalloc(o->nparams + 1, sizeof(*params));
	for (size_t i = 0; i < o->nparams; i++)
		params[i] = (ddbc_import_param){ o->params[i].name, o->params[i].value };
	int rc = ddbc_import((ddbc_import_from)from, o->files, o->nfiles, params, o->nparams,
			     out.f);
	free(params);
	if (rc < 0) {
		ddbc_output_abort(&out);
		return EXIT_USAGE;
	}
	return ddbc_output_commit(&out) < 0 ? EXIT_USAGE : EXIT_OK;
}

/* ---- dispatch ----------------------------------------------------------------------- */

static const char *const lint_formats[] = { "text", "json", "sarif", "github", NULL };
static const char *const doc_formats[] = { "md", "html", NULL };
static const char *const export_formats[] = { "create-table", "model", "queries",
					       "cloudformation", "terraform", "workbench", NULL };
static const char *const items_formats[] = { "text", "json", NULL };
static const char *const diff_formats[] = { "text", "json", "sarif", "github", "plan", NULL };

#define COMMON (OPT_RULE | OPT_WERROR | OPT_COLOR | OPT_SHOW_SUPPRESSED)

static const struct command commands[] = {
	{ "lint", usage_lint, COMMON | OPT_FORMAT, 1, (size_t)-1, lint_formats, run_lint },
	{ "doc", usage_doc,
	  COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_LANG | OPT_TEMPLATE | OPT_CHECK, 1, 1,
	  doc_formats, run_doc },
	{ "header", usage_header, COMMON | OPT_OUTPUT | OPT_PREFIX, 1, 1, NULL, run_header },
	{ "export", usage_export, COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_PARAM, 1, 1,
	  export_formats, run_export },
	{ "check-items", usage_items, COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_ITEMS, 1,
	  (size_t)-1, items_formats, run_items },
	{ "diff", usage_diff, COMMON | OPT_FORMAT | OPT_OUTPUT | OPT_AGAINST | OPT_ALL | OPT_FROM, 1,
	  (size_t)-1, diff_formats, run_diff },
	{ "import", usage_import, OPT_FROM | OPT_OUTPUT | OPT_PARAM, 1, (size_t)-1, NULL, run_import },
	{ "explain", usage_explain, 0, 0, 1, NULL, run_explain },
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
}

static exit_status run_command(const struct command *cmd, int argc, char **argv)
{
	struct opts o;
	memset(&o, 0, sizeof(o));
	o.color = COLOR_AUTO;
	o.format = cmd->formats ? cmd->formats[0] : "";
	ddbc_settings_init(&o.settings);
	ddbc_items_opts_init(&o.items);
	exit_status status = EXIT_USAGE;
	switch (parse_options(cmd, argc, argv, &o)) {
	case CLI_GO_ON:
		note_inputs(&o);
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
		fputs(usage_main, stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version")) {
		printf("ddbc %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(name, commands[i].name))
			return run_command(&commands[i], argc - 1, argv + 1);
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
