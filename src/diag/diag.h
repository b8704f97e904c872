/* diag.h - findings as data
 *
 * A finding is a struct (rule, severity, source, line, column, message).
 * The loader and the rules only add findings; printers (diag_print.c) format
 * them. Severity is resolved late, when the design's own lint.rules are
 * known: ddbc_diags_finish applies the settings, drops what is off and sorts
 * by position.
 *
 * A source may suppress findings by line (its `# ddbc-ignore: RULE` comments,
 * found by the input layer): a suppressed finding stays in the collection,
 * marked, but does not count (ddbc_diags_count); the printers hide it or
 * mark it. A suppression that suppresses nothing is reported as
 * unused-suppression when the source's findings are first finished.
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
	bool suppressed;          /* by a suppression of its source (ddbc_diags_finish) */
	bool lesser;              /* the rule's lesser case: one severity below the
				   * rule's (item-size's warning under its error) */
	char *reason;             /* the suppression's reason, owned; NULL when none */
	/* What the finding is about when a rule reports the same thing in many
	 * places (reserved-word: the attribute name, in every entity that has
	 * it), owned; NULL for a finding of its own. The text printer folds a
	 * rule's many notes about one subject (see ddbc_diags_print). */
	char *subject;
	/* The other place the finding is about, when it names one (key-overlap:
	 * the earlier entity); line 0 when none. Editors show it beside the
	 * finding (the language server's relatedInformation). */
	ddbc_loc related;
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

/* One rule suppressed on one line of the current source. */
typedef struct ddbc_suppression {
	ddbc_rule rule;
	unsigned line;            /* whose findings it suppresses; 0: no line */
	ddbc_loc at;              /* where the comment names the rule */
	char *reason;             /* owned; NULL when none */
	bool used;                /* it suppressed a finding */
} ddbc_suppression;

typedef struct ddbc_diags {
	ddbc_diag *items;
	size_t n, cap;
	size_t finished;          /* items before this index are resolved and sorted */
	size_t seq;
	const ddbc_source *src;   /* the source new findings are about */
	bool fatal;               /* the current source could not be loaded at all */
	/* The current source's suppressions, in the order of their lines. */
	ddbc_suppression *supp;
	size_t nsupp, supp_cap;
	bool supp_judged;         /* its unused suppressions were reported */
} ddbc_diags;

void ddbc_diags_init(ddbc_diags *d);
void ddbc_diags_release(ddbc_diags *d);

/* Starts collecting findings about src (and forgets the suppressions of
 * the source before). */
void ddbc_diags_begin(ddbc_diags *d, const ddbc_source *src);

/* Drops every finding, printed already, but keeps the current source and
 * its suppressions: findings added later are still suppressed by them. */
void ddbc_diags_clear(ddbc_diags *d);

/* Suppresses the current source's findings of rule on line (0: on no line;
 * the suppression is then unused). at is where the comment names the rule;
 * reason (may be NULL) is copied. Fixed rules cannot be suppressed: the
 * caller reports that instead. */
void ddbc_diags_suppress(ddbc_diags *d, ddbc_rule rule, unsigned line, ddbc_loc at,
			 const char *reason);

/* The suppression of the current source that names rule on line, or
 * NULL. Once d was finished (ddbc_diags_finish), as a checked design's
 * findings are: `ddbc diff` reads NEW's suppressions this way to let them
 * acknowledge its changes. */
const ddbc_suppression *ddbc_diags_suppression(const ddbc_diags *d, ddbc_rule rule,
					       unsigned line);

/* Marks the finding added last as suppressed, with reason (copied; may
 * be NULL), for a suppression found by the caller (ddbc_diags_suppression
 * on another collection). */
void ddbc_diag_suppress_last(ddbc_diags *d, const char *reason);

/* Adds a finding about the current source at loc. */
void ddbc_diag_add(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* The same with the arguments in ap, for a rule's own reporting function. */
void ddbc_diag_vadd(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* Gives the finding added last the other place it is about (ddbc_diag.related). */
void ddbc_diag_relate(ddbc_diags *d, ddbc_loc loc);
/* Marks the finding added last as its rule's lesser case (ddbc_diag.lesser). */
void ddbc_diag_lesser(ddbc_diags *d);
/* ddbc_diag_add for a finding about subject (copied; see ddbc_diag). */
void ddbc_diag_add_about(ddbc_diags *d, ddbc_rule rule, ddbc_loc loc, const char *subject,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Removes the findings of rule added at index from or later. */
void ddbc_diags_drop(ddbc_diags *d, size_t from, ddbc_rule rule);

/* Resolves the severities of the findings added since the last call: the
 * command line's settings, then the design's, then each rule's default.
 * Findings set to off are dropped; those on a line that suppresses their
 * rule are marked suppressed; the rest are sorted by line and column. The
 * first call after ddbc_diags_begin also reports each suppression that
 * suppressed nothing (unused-suppression), unless its rule is off: a rule
 * that did not run cannot say whether the suppression is needed; nor is a
 * suppression of a diff rule (kind DIFF) judged here: it acknowledges a
 * change that only `ddbc diff` sees. */
void ddbc_diags_finish(ddbc_diags *d, const ddbc_settings *cli, const ddbc_settings *design);

/* Findings by severity; suppressed ones count only as suppressed. */
typedef struct ddbc_counts {
	size_t errors, warnings, notes;
	size_t suppressed;
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

/* Why a run could not finish (an unreadable file, a file that is no
 * design): the machine formats carry it, so a reader of the output alone
 * sees the failure. Borrowed strings. */
typedef struct ddbc_failure {
	const char *file;
	const char *message;
	bool in_findings;        /* a finding already says why: no second annotation */
} ddbc_failure;

typedef struct ddbc_print_opts {
	ddbc_diag_format format;
	bool color;               /* text only */
	size_t nfiles;            /* for the JSON and SARIF summaries */
	ddbc_severity min_severity; /* findings below it are not printed (OFF: all) */
	/* Text prints suppressed findings, marked, only with this; JSON and
	 * SARIF always carry them, marked; github never prints them. */
	bool show_suppressed;
	/* NULL: the run finished. Else JSON gets an "error" member, SARIF an
	 * unsuccessful invocation, github an ::error; text leaves it to the
	 * message already on stderr. */
	const ddbc_failure *failure;
} ddbc_print_opts;

/* Prints every finding in d to out in the chosen format.
 *
 * Repeated notes. In text, the notes a rule makes about one subject in one
 * file (ddbc_diag_add_about), when there are more than DDBC_FOLD_AT of
 * them, are printed as one: the first in full, with its source line, then
 * a line that counts the others and gives their lines (the first few). A
 * design of 10,000 entities that all have an attribute 'name' gets one
 * reserved-word note and its count, not 10,000 notes saying the same.
 * Only notes fold: a warning or an error may need its own fix at each
 * place, and is printed at each. JSON, SARIF and GitHub list every
 * finding (tools read them, not people), and every count and the exit
 * status count each finding. */
#define DDBC_FOLD_AT 3

/* Appends the address of rule's page and returns true when one is
 * configured (the environment's DDBC_HELP_URI when it is an https address,
 * else configure's --with-help-uri); appends nothing and returns false
 * when none is: SARIF's helpUri, the language server's codeDescription. */
bool ddbc_rule_page_uri(strbuf *sb, ddbc_rule rule);
void ddbc_diags_print(FILE *out, const ddbc_diags *d, const ddbc_print_opts *opts);

#endif
