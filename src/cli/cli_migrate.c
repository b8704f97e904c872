/* cli_migrate.c - `ddbc migrate`: its options checked, both designs loaded
 * as `ddbc diff` loads them, and the run (live/migrate.h) */
#include "cli/cli_diff.h"
#include "cli/cli_migrate.h"
#include "live/migrate.h"
#include "util/error.h"
#include "util/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct migrate_call {
	ddbc_migrate_opts m;
} migrate_call;

static int run(void *ctx, const ddbc_design *old, const ddbc_design *new)
{
	migrate_call *c = ctx;
	return ddbc_migrate(old, new, &c->m);
}

/* What the options say that cannot go together; 0 or EXIT_USAGE, said. */
static exit_status check_options(const struct opts *o)
{
	const char *bad = NULL;
	if (!o->against && o->nfiles != 2)
		bad = "expected two design files, OLD and NEW (or --against REV FILE)";
	else if (o->against && o->nfiles != 1)
		bad = "--against takes one design file: FILE";
	else if (o->ntables > 1)
		bad = "--table names the one table to migrate; run one migrate per table";
	else if (!o->ntables == !o->items_file)
		bad = "give the items to migrate: --table NAME or --items PATH";
	else if (o->segment_given != (o->segments > 0))
		bad = "--segment I and --segments N go together";
	else if (o->segment_given && o->segment >= o->segments)
		bad = "--segment I counts from 0 and is below --segments N";
	else if ((o->segments || o->items.jobs > 1) && !o->ntables)
		bad = "-j, --segment and --segments split a Scan: they need --table";
	else if (o->segments && o->items.jobs > 1)
		bad = "-j runs segments here; --segment runs one of --segments N: give one";
	else if (!o->apply && !o->output && !o->dry_run)
		bad = "say what to do with the rewrites: --apply, -o FILE or --dry-run";
	if (bad) {
		ddbc_cli_usage_error("migrate", "%s", bad);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

exit_status ddbc_cli_migrate(struct opts *o)
{
	if (check_options(o) != EXIT_OK)
		return EXIT_USAGE;
	migrate_call c = { { 0 } };
	ddbc_migrate_opts *m = &c.m;
	m->step = (long)o->step;
	m->table = o->ntables ? o->tables[0] : NULL;
	char *items[1] = { (char *)o->items_file };
	m->items = o->items_file ? items : NULL;
	m->nitems = o->items_file ? 1 : 0;
	m->apply = o->apply;
	m->dry_run = o->dry_run;
	m->yes = o->yes;
	m->checkpoint = o->checkpoint;
	m->jobs = o->items.jobs ? (int)o->items.jobs : 1;
	m->segment = (int)o->segment;
	m->segments = (int)o->segments;
	m->progress = isatty(STDERR_FILENO) && !getenv("DDBC_NO_PROGRESS");
	m->dynamo = (ddbc_dynamo_opts){ o->endpoint, o->region, o->profile,
					(int)o->max_attempts, 0 };
	if (o->max_units) {
		char *end;
		errno = 0;
		m->max_units = strtod(o->max_units, &end);
		if (*end || errno || !(m->max_units > 0)) {
			ddbc_cli_usage_error("migrate", "--max-units takes a number above 0, got '%s'",
					o->max_units);
			return EXIT_USAGE;
		}
	}
	FILE *out = NULL;
	if (o->output) {
		out = strcmp(o->output, "-") ? fopen(o->output, "w") : stdout;
		if (!out) {
			ddbc_cmd_error("migrate", "cannot write '%s': %s", o->output,
				       strerror(errno));
			return EXIT_USAGE;
		}
	}
	m->requests = out;
	ddbc_diff_request r = {
		.old_path = o->against ? NULL : o->files[0],
		.new_path = o->files[o->against ? 0 : 1],
		.against = o->against,
		.format = "text",
		.color = ddbc_cli_want_color(o->color, STDERR_FILENO),
		.settings = &o->settings,
	};
	int status = ddbc_cli_diff_designs(&r, run, &c);
	if (out && out != stdout && fclose(out) != 0) {
		ddbc_cmd_error("migrate", "cannot write '%s': %s", o->output, strerror(errno));
		status = EXIT_USAGE;
	} else if (out == stdout && fflush(stdout) != 0) {
		status = EXIT_USAGE;
	}
	return (exit_status)status;
}
