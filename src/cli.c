/* cli.c - option parsing and the commands' top level */
#include "cli.h"
#include "check.h"
#include "xalloc.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

enum { EXIT_OK = 0, EXIT_FINDINGS = 1, EXIT_USAGE = 2 };

static const char usage_main[] =
	"usage: ddbc COMMAND [OPTIONS] FILE...\n"
	"\n"
	"ddbc checks DynamoDB table designs written in YAML and compiles them.\n"
	"\n"
	"commands:\n"
	"  lint     check designs; nothing written\n"
	"\n"
	"options:\n"
	"  -h, --help     show this help ('ddbc COMMAND --help' for a command)\n"
	"      --version  show the version\n"
	"\n"
	"exit status: 0 no error, 1 errors found (or warnings with --werror),\n"
	"2 usage error, unreadable file or a file that is no design\n";

static const char usage_lint[] =
	"usage: ddbc lint [OPTIONS] FILE...\n"
	"\n"
	"Checks each design and prints every finding, sorted by position.\n"
	"\n"
	"options:\n"
	"      --format FMT        text (default), json, sarif or github\n"
	"      --rule RULE=SEV     set a rule's severity: off, note, warning or error\n"
	"                          (repeatable; wins over the design's lint.rules)\n"
	"      --werror            treat warnings as errors for the exit status\n"
	"      --color WHEN        auto (default: on a terminal, unless NO_COLOR is\n"
	"                          set), always or never\n"
	"  -h, --help              show this help\n";

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "ddbc%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'ddbc %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

/* ---- lint ------------------------------------------------------------------ */

struct lint_opts {
	ddbc_print_opts print;
	ddbc_settings settings;
	bool werror;
	int color;               /* -1 auto, 0 never, 1 always */
};

static bool want_color(int color)
{
	if (color >= 0)
		return color;
	const char *no = getenv("NO_COLOR");
	if (no && *no)
		return false;
	return isatty(STDOUT_FILENO);
}

static int parse_lint(int argc, char **argv, struct lint_opts *o)
{
	enum { OPT_FORMAT = 256, OPT_RULE, OPT_WERROR, OPT_COLOR };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "rule", required_argument, NULL, OPT_RULE },
		{ "werror", no_argument, NULL, OPT_WERROR },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[512];
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (ddbc_diag_format_parse(optarg, &o->print.format) < 0)
				return usage_error("lint", "unknown format '%s'; use text, json, "
							   "sarif or github", optarg);
			break;
		case OPT_RULE:
			if (ddbc_settings_parse(&o->settings, optarg, err, sizeof(err)) < 0)
				return usage_error("lint", "%s", err);
			break;
		case OPT_WERROR:
			o->werror = true;
			break;
		case OPT_COLOR:
			if (!strcmp(optarg, "auto"))
				o->color = -1;
			else if (!strcmp(optarg, "always"))
				o->color = 1;
			else if (!strcmp(optarg, "never"))
				o->color = 0;
			else
				return usage_error("lint", "unknown --color '%s'; use auto, always "
							   "or never", optarg);
			break;
		case 'h':
			fputs(usage_lint, stdout);
			return -1;
		default:
			return usage_error("lint", "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage_error("lint", "%s", "no design file given");
	return 0;
}

static int cmd_lint(int argc, char **argv)
{
	struct lint_opts o;
	memset(&o, 0, sizeof(o));
	o.color = -1;
	ddbc_settings_init(&o.settings);
	int r = parse_lint(argc, argv, &o);
	if (r)
		return r < 0 ? EXIT_OK : r;

	size_t nfiles = (size_t)(argc - optind);
	ddbc_source **sources = xcalloc(nfiles, sizeof(*sources));
	ddbc_diags d;
	ddbc_diags_init(&d);
	bool fatal = false;
	for (size_t i = 0; i < nfiles; i++) {
		const char *path = argv[optind + (int)i];
		sources[i] = ddbc_source_read(path);
		if (!sources[i]) {
			fprintf(stderr, "ddbc: cannot read '%s': %s\n", path, strerror(errno));
			fatal = true;
			continue;
		}
		ddbc_design *design = ddbc_check(sources[i], &d, &o.settings);
		fatal |= d.fatal;
		ddbc_design_free(design);
	}

	o.print.nfiles = nfiles;
	o.print.color = want_color(o.color);
	ddbc_diags_print(stdout, &d, &o.print);
	fflush(stdout);

	ddbc_counts n = ddbc_diags_count(&d);
	ddbc_diags_release(&d);
	for (size_t i = 0; i < nfiles; i++)
		ddbc_source_free(sources[i]);
	free(sources);
	if (fatal)
		return EXIT_USAGE;
	return n.errors || (o.werror && n.warnings) ? EXIT_FINDINGS : EXIT_OK;
}

/* ---- dispatch ----------------------------------------------------------------- */

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "lint", cmd_lint },
};

int ddbc_cli_main(int argc, char **argv)
{
	if (argc < 2)
		return usage_error(NULL, "%s", "no command given");
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		fputs(usage_main, stdout);
		return EXIT_OK;
	}
	if (!strcmp(cmd, "--version")) {
		printf("ddbc %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	return usage_error(NULL, "unknown command '%s'", cmd);
}
