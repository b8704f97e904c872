/* cli_opts.h - what a command accepts, and the parse of its command line
 *
 * cli.c runs the commands; cli_opts.c turns argv into a struct opts for
 * the command, saying on stderr what is wrong when it cannot.
 */
#ifndef DDBC_CLI_OPTS_H
#define DDBC_CLI_OPTS_H

#include "cli/cli_words.h"
#include "diag/diag.h"
#include "items/items.h"
#include "emit/emit.h"

#include <stdbool.h>
#include <stddef.h>

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
	OPT_LIST_SOURCES = 1 << 15, OPT_PRICES = 1 << 16, OPT_QUIET = 1 << 17,
	OPT_COMPACT = 1 << 18, OPT_MODULE = 1 << 19, OPT_TARGET = 1 << 20,
	OPT_SAMPLE = 1 << 21, OPT_VERIFY = 1 << 22,
	OPT_AWS = 1 << 23,       /* --endpoint, --region, --profile, --max-attempts */
	OPT_TABLE = 1 << 24, OPT_LIVE = 1 << 25, OPT_MIGRATE = 1 << 26
};

/* --color WHEN, in the order of its words. */
typedef enum color_when {
	COLOR_NEVER,
	COLOR_ALWAYS,
	COLOR_AUTO               /* on a terminal, unless NO_COLOR is set */
} color_when;

struct opts {
	const char *format;
	bool compact;            /* export: JSON without layout */
	size_t format_row;       /* its row in the command's table of formats */
	bool format_given;
	const char *check;          /* doc --check FILE */
	ddbc_settings settings;
	bool werror;
	bool show_suppressed;
	ddbc_severity min_severity; /* --min-severity, --quiet; DEFAULT: the command's */
	color_when color;
	const char *output;
	size_t lang_row;         /* --lang: its row in the command's table of languages */
	const char *template_dir;
	const char *prefix;
	const char *module;         /* keys --module */
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
	unsigned long targets;   /* lint --target: a bit per row of ddbc_export_formats */
	unsigned long count;     /* sample, verify --count N */
	bool count_given;
	unsigned long seed;      /* sample, verify --seed S */
	const char *endpoint;    /* --endpoint URL (OPT_AWS) */
	const char *region;      /* --region R */
	const char *profile;     /* --profile P */
	unsigned long max_attempts; /* --max-attempts N; 0: the client's default */
	const char **tables;     /* --table NAME, repeatable */
	size_t ntables, tables_cap;
	bool live;               /* diff --live */
	const char *items_file;  /* verify --items FILE */
	bool create;             /* verify --create */
	bool capacity;           /* verify --capacity */
	bool yes;                /* verify --yes: write to an endpoint not on this machine */
	bool in_place;           /* verify --in-place: the tables hold the items */
	const char **patterns;   /* verify --pattern ID, repeatable */
	size_t npatterns, patterns_cap;
	/* migrate (--table, --items, --yes, -j and OPT_AWS too) */
	unsigned long step;      /* --step N; 0: every item step */
	bool apply, dry_run;     /* --apply, --dry-run */
	const char *checkpoint;  /* --checkpoint FILE */
	const char *max_units;   /* --max-units N */
	unsigned long segment, segments; /* --segment I --segments N */
	bool segment_given;
};

struct command {
	const char *name;
	const char *usage;
	unsigned options;
	size_t min_files, max_files;
	ddbc_words formats;      /* the --format words; the first is the default */
	ddbc_words sources;      /* the --from words */
	ddbc_words langs;        /* the --lang words; the first is the default */
	exit_status (*run)(struct opts *o);
};

/* Says what is wrong with the command line and where help is. */
void ddbc_cli_usage_error(const char *cmd, const char *fmt, const char *arg);
/* Whether to colour what goes to fd, as --color and NO_COLOR say. */
bool ddbc_cli_want_color(color_when color, int fd);
/* Fills o from argv for cmd: its options (GNU order: they may follow the
 * files) and its files, checked against what cmd accepts. */
cli_step ddbc_cli_parse_options(const struct command *cmd, int argc, char **argv, struct opts *o);

#endif
