/* cli_diff.h - `ddbc diff`: reading both designs (a file, or a file at a git
 * revision), checking them, and printing the changes or the plan */
#ifndef DDBC_CLI_DIFF_H
#define DDBC_CLI_DIFF_H

#include "aws/dynamo.h"
#include "diag/diag.h"
#include "model/model.h"

#include <stdbool.h>

typedef struct ddbc_diff_request {
	const char *old_path;        /* NULL with against */
	const char *new_path;
	const char *against;         /* a git revision: OLD is new_path as it is there */
	char *const *live_paths;     /* --from describe-table: OLD is these tables */
	size_t nlive;
	bool live_ttl;               /* the live tables' TTL was described: compare it */
	ddbc_dynamo *live;           /* --live: OLD is the tables deployed there */
	const char *const *tables;   /* --live --table: only these; NULL: NEW's */
	size_t ntables;
	bool all;                    /* also report documentation-only changes */
	const char *format;          /* text, json, sarif, github or plan */
	const char *output;          /* -o, or NULL */
	bool werror, color;
	bool show_suppressed;        /* text also prints the acknowledged changes */
	ddbc_severity min_severity;  /* the changes printed; DEFAULT: all */
	const ddbc_settings *settings;
} ddbc_diff_request;

/* Runs the diff; returns the exit status (0, 1 findings, 2 unusable input). */
int ddbc_cli_diff(const ddbc_diff_request *r);

/* Loads and checks OLD and NEW of r as the diff does (OLD from git with
 * r->against), both without errors, and returns fn's result on them, or
 * 2 when a design cannot be used (said on stderr): `ddbc migrate`. */
typedef int (*ddbc_diff_designs_fn)(void *ctx, const ddbc_design *old, const ddbc_design *new);
int ddbc_cli_diff_designs(const ddbc_diff_request *r, ddbc_diff_designs_fn fn, void *ctx);

#endif
