/* diag.h - findings as data
 *
 * A finding is a struct (rule, severity, source, line, column, message).
 * The loader and the rules only add findings; printers (diag_print.c) format
 * them. Severity is resolved late, when the design's own lint.rules are
 * known: ddbc_diags_finish applies the settings, drops what is off and sorts
 * by position.
 */
#ifndef DDBC_DIAG_H
#define DDBC_DIAG_H

#include "diag/rules.h"
#include "util/source.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct ddbc_diag {
	ddbc_rule rule;
	ddbc_severity severity;   /* resolved by ddbc_diags_finish */
	const ddbc_source *src;   /* not owned */
	ddbc_loc loc;
	char *message;            /* owned by the collection */
	size_t seq;               /* insertion order, the last sort key */
} ddbc_diag;

/* Severity settings: one entry per rule, DDBC_SEV_DEFAULT meaning "not set
 * here". The command line's settings win over the design's lint.rules. */
typedef struct ddbc_settings {
	ddbc_severity sev[DDBC_RULE_COUNT];
} ddbc_settings;

void ddbc_settings_init(ddbc_settings *s);
/* Parses "RULE=off|note|warning|error". Returns 0, or -1 with why
 * appended to err (the caller's). */
int ddbc_settings_parse(ddbc_settings *s, const char *arg, strbuf *err);

typedef struct ddbc_diags {
	ddbc_diag *items;
	size_t n, cap;
	size_t finished;          /* items before this index are resolved and sorted */
	size_t seq;
	const ddbc_source *src;   /* the source new findings are about */
	bool fatal;               /* the current source could not be loaded at all */
} ddbc_diags;

void ddbc_diags_init(ddbc_diags *d);
void ddbc_diags_release(ddbc_diags *d);

/* Starts collecting findings about src. */
void ddbc_diags_begin(ddbc_diags *d, const ddbc_source *src);

/* Adds a finding about the current source at loc. */
void ddbc_diag_add(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same with the arguments in ap, for a rule's own reporting function. */
void ddbc_diag_vadd(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* Removes the findings of rule added at index from or later. */
void ddbc_diags_drop(ddbc_diags *d, size_t from, ddbc_rule rule);

/* Resolves the severities of the findings added since ddbc_diags_begin:
 * the command line's settings, then the design's, then each rule's default.
 * Findings set to off are dropped; the rest are sorted by line and column. */
void ddbc_diags_finish(ddbc_diags *d, const ddbc_settings *cli, const ddbc_settings *design);

typedef struct ddbc_counts {
	size_t errors, warnings, notes;
} ddbc_counts;

ddbc_counts ddbc_diags_count(const ddbc_diags *d);

/* Output formats of `ddbc lint`. */
typedef enum ddbc_diag_format {
	DDBC_DIAG_TEXT,
	DDBC_DIAG_JSON,
	DDBC_DIAG_SARIF,
	DDBC_DIAG_GITHUB
} ddbc_diag_format;

int ddbc_diag_format_parse(const char *s, ddbc_diag_format *out);

typedef struct ddbc_print_opts {
	ddbc_diag_format format;
	bool color;               /* text only */
	size_t nfiles;            /* for the JSON and SARIF summaries */
	ddbc_severity min_severity; /* findings below it are not printed (OFF: all) */
} ddbc_print_opts;

/* Prints every finding in d to out in the chosen format. */
void ddbc_diags_print(FILE *out, const ddbc_diags *d, const ddbc_print_opts *opts);

#endif
