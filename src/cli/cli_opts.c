/* cli_opts.c - a command's command line into its struct opts
 *
 * Every option is known by name to every command, and taken only by the
 * commands whose table entry (cli.c) lists it: an option another command
 * has is an unknown option here, with a "did you mean" over this
 * command's own.
 */
#include "cli/cli_opts.h"
#include "cli/cli_usage.h"
#include "util/error.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Says what is wrong with the command line and where help is. */
void ddbc_cli_usage_error(const char *cmd, const char *fmt, const char *arg)
{
	ddbc_usage_error(cmd, fmt, arg);
}

/* ---- option parsing ------------------------------------------------------------ */

bool ddbc_cli_want_color(color_when color, int fd)
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
		ddbc_cli_usage_error(cmd, "expected --param NAME=VALUE, got '%s'", arg);
		return -1;
	}
	ddbc_xgrow((void **)&o->params, &o->params_cap, o->nparams + 1, sizeof(ddbc_param));
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
	char *id = ddbc_xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	ddbc_item_kind k;
	bool found = ddbc_item_kind_find(id, &k) == 0;
	free(id);
	return found;
}

/* Takes --rule KIND=SEV for a kind of check-items finding. */
static cli_step take_item_rule(const struct command *cmd, struct opts *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *id = ddbc_xstrndup(arg, eq ? (size_t)(eq - arg) : strlen(arg));
	ddbc_item_kind k;
	ddbc_item_kind_find(id, &k);
	free(id);
	ddbc_severity sev;
	if (!(cmd->options & OPT_ITEMS)) {
		ddbc_cli_usage_error(cmd->name, "'%s' is a kind of check-items finding, not a rule of "
			    "the design", arg);
		return CLI_USAGE_ERROR;
	}
	if (!eq || ddbc_severity_parse(eq + 1, &sev) < 0) {
		ddbc_cli_usage_error(cmd->name, "expected --rule KIND=off|note|warning|error, got '%s'", arg);
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
		ddbc_cli_usage_error(cmd->name, "%s", ddbc_strbuf_str(&err));
		step = CLI_USAGE_ERROR;
	}
	ddbc_strbuf_release(&err);
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
		ddbc_usage_error(cmd, "%s takes a number from %lu, got '%s'", opt, min, arg);
		return CLI_USAGE_ERROR;
	}
	*out = v;
	return CLI_GO_ON;
}

/* Handles one option c. */
static cli_step one_option(const struct command *cmd, struct opts *o, int c, char *arg)
{
	/* In the order of color_when. */
	static const ddbc_word colors[] = { { "never", NULL }, { "always", NULL },
					    { "auto", NULL }, { NULL, NULL } };
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
		if (ddbc_words_parse(cmd->name, "language", arg, cmd->langs, &w) < 0)
			return CLI_USAGE_ERROR;
		o->lang_row = w;
		return CLI_GO_ON;
	case 'Y':
		ddbc_words_list(stdout, cmd->langs);
		return CLI_DONE;
	case 't': o->template_dir = arg; return CLI_GO_ON;
	case 'p': o->prefix = arg; return CLI_GO_ON;
	case 'P': return add_param(cmd->name, o, arg) < 0 ? CLI_USAGE_ERROR : CLI_GO_ON;
	case 'a': o->against = arg; return CLI_GO_ON;
	case 'A': o->all = true; return CLI_GO_ON;
	case 'F': o->from = arg; return CLI_GO_ON;
	case 'R': o->prices = arg; return CLI_GO_ON;
	case 'D': o->module = arg; return CLI_GO_ON;
	case 'K': o->compact = true; return CLI_GO_ON;
	case 'T':
		if (ddbc_words_parse(cmd->name, "target", arg, DDBC_WORDS(ddbc_export_formats), &w) < 0)
			return CLI_USAGE_ERROR;
		o->targets |= 1UL << w;
		return CLI_GO_ON;
	case 'n':
		o->count_given = true;
		return parse_count(cmd->name, "--count", arg, 1, 10000000, &o->count);
	case 's': return parse_count(cmd->name, "--seed", arg, 0, ULONG_MAX, &o->seed);
	case 'E': o->endpoint = arg; return CLI_GO_ON;
	case 'G': o->region = arg; return CLI_GO_ON;
	case 'B': o->profile = arg; return CLI_GO_ON;
	case 'N':
		return parse_count(cmd->name, "--max-attempts", arg, 1, 100, &o->max_attempts);
	case 'b':
		ddbc_xgrow((void **)&o->tables, &o->tables_cap, o->ntables + 1, sizeof(*o->tables));
		o->tables[o->ntables++] = arg;
		return CLI_GO_ON;
	case 'v': o->live = true; return CLI_GO_ON;
	case 'I': o->items_file = arg; return CLI_GO_ON;
	case 'X': o->create = true; return CLI_GO_ON;
	case 'U': o->capacity = true; return CLI_GO_ON;
	case 'y': o->yes = true; return CLI_GO_ON;
	case 'i': o->in_place = true; return CLI_GO_ON;
	case 'x':
		ddbc_xgrow((void **)&o->patterns, &o->patterns_cap, o->npatterns + 1,
		      sizeof(*o->patterns));
		o->patterns[o->npatterns++] = arg;
		return CLI_GO_ON;
	case 'Q': return parse_count(cmd->name, "--step", arg, 1, 1000000, &o->step);
	case 'H': o->apply = true; return CLI_GO_ON;
	case 'd': o->dry_run = true; return CLI_GO_ON;
	case 'k': o->checkpoint = arg; return CLI_GO_ON;
	case 'u': o->max_units = arg; return CLI_GO_ON;
	case 'g':
		o->segment_given = true;
		return parse_count(cmd->name, "--segment", arg, 0, 999999, &o->segment);
	case 'e': return parse_count(cmd->name, "--segments", arg, 1, 1000000, &o->segments);
	case 'h':
		ddbc_usage_print(stdout, cmd->usage, cmd->formats, cmd->sources, cmd->langs);
		return CLI_DONE;
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
			ddbc_cli_usage_error(cmd->name, "option '%s' needs a value", flag);
		else
			ddbc_cli_usage_error(cmd->name, "unknown option '%s'", optopt ? flag : written);
		return;
	}
	const char *name = written + 2;
	size_t len = strcspn(name, "=");
	char *flag = ddbc_xstrndup(written, len + 2);
	const char *names[64];
	size_t n = 0;
	for (const struct option *lo = longopts; lo->name && n < 64; lo++) {
		if (!strcmp(lo->name, flag + 2)) {
			ddbc_cli_usage_error(cmd->name, lo->has_arg == required_argument
				    ? "option '%s' needs a value" : "option '%s' takes no value",
				    flag);
			free(flag);
			return;
		}
		names[n++] = lo->name;
	}
	const char *hint = ddbc_suggest(flag + 2, names, n);
	ddbc_usage_error(cmd->name, "unknown option '%s'%s%s%s", flag,
			 hint ? "; did you mean '--" : "", hint ? hint : "", hint ? "'?" : "");
	free(flag);
}

cli_step ddbc_cli_parse_options(const struct command *cmd, int argc, char **argv, struct opts *o)
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
		{ { "list-langs", no_argument, NULL, 'Y' }, OPT_LANG },
		{ { "list-sources", no_argument, NULL, 'Z' }, OPT_LIST_SOURCES },
		{ { "prices", required_argument, NULL, 'R' }, OPT_PRICES },
		{ { "module", required_argument, NULL, 'D' }, OPT_MODULE },
		{ { "compact", no_argument, NULL, 'K' }, OPT_COMPACT },
		{ { "target", required_argument, NULL, 'T' }, OPT_TARGET },
		{ { "count", required_argument, NULL, 'n' }, OPT_SAMPLE },
		{ { "seed", required_argument, NULL, 's' }, OPT_SAMPLE },
		{ { "endpoint", required_argument, NULL, 'E' }, OPT_AWS },
		{ { "region", required_argument, NULL, 'G' }, OPT_AWS },
		{ { "profile", required_argument, NULL, 'B' }, OPT_AWS },
		{ { "max-attempts", required_argument, NULL, 'N' }, OPT_AWS },
		{ { "table", required_argument, NULL, 'b' }, OPT_TABLE },
		{ { "live", no_argument, NULL, 'v' }, OPT_LIVE },
		{ { "items", required_argument, NULL, 'I' }, OPT_VERIFY },
		{ { "create", no_argument, NULL, 'X' }, OPT_VERIFY },
		{ { "capacity", no_argument, NULL, 'U' }, OPT_VERIFY },
		{ { "yes", no_argument, NULL, 'y' }, OPT_VERIFY },
		{ { "in-place", no_argument, NULL, 'i' }, OPT_VERIFY },
		{ { "pattern", required_argument, NULL, 'x' }, OPT_VERIFY },
		{ { "items", required_argument, NULL, 'I' }, OPT_MIGRATE },
		{ { "yes", no_argument, NULL, 'y' }, OPT_MIGRATE },
		{ { "step", required_argument, NULL, 'Q' }, OPT_MIGRATE },
		{ { "apply", no_argument, NULL, 'H' }, OPT_MIGRATE },
		{ { "dry-run", no_argument, NULL, 'd' }, OPT_MIGRATE },
		{ { "checkpoint", required_argument, NULL, 'k' }, OPT_MIGRATE },
		{ { "max-units", required_argument, NULL, 'u' }, OPT_MIGRATE },
		{ { "jobs", required_argument, NULL, 'j' }, OPT_MIGRATE },
		{ { "segment", required_argument, NULL, 'g' }, OPT_MIGRATE },
		{ { "segments", required_argument, NULL, 'e' }, OPT_MIGRATE },
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
	if (cmd->options & (OPT_ITEMS | OPT_MIGRATE))
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
		ddbc_cli_usage_error(cmd->name, "%s", cmd->min_files > 1 ? "expected a design file and an "
			    "items file" : "no design file given");
		return CLI_USAGE_ERROR;
	}
	if (o->nfiles > cmd->max_files) {
		ddbc_cli_usage_error(cmd->name, "too many files starting at '%s'", o->files[cmd->max_files]);
		return CLI_USAGE_ERROR;
	}
	return CLI_GO_ON;
}
