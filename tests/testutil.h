/* testutil.h - helpers shared by the Check suites
 *
 * Files are named relative to the source tree (TEST_SRCDIR), so fixtures
 * and golden files are found from any build directory. Every helper that
 * can fail fails the running test (ck_abort_msg) rather than returning an
 * error. Strings returned are the caller's to free.
 */
#ifndef DDBC_TESTUTIL_H
#define DDBC_TESTUTIL_H

#include "diag/diag.h"
#include "input/load.h"

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

/* TEST_SRCDIR "/" rel, in a new string. */
char *tu_srcpath(const char *rel);

/* The whole file at path; *len (if not NULL) receives its length. The
 * text is NUL-terminated. */
char *tu_read_file(const char *path, size_t *len);
void tu_write_file(const char *path, const char *data, size_t len);

/* A source named "test.ddb.yaml" over text (up to its NUL). */
ddbc_source *tu_source(const char *text);

/* One design as the loader sees it: ddbc_load (schema, duplicate-key,
 * unresolved-reference), then the findings resolved against the design's
 * lint.rules and sorted, as `ddbc lint` does; no later rules run. */
typedef struct tu_design {
	ddbc_source *src;
	ddbc_diags d;
	ddbc_design *design;     /* NULL when the file could not be loaded */
} tu_design;

void tu_load_text(tu_design *t, const char *text);
/* rel is relative to the source tree, e.g. "tests/fixtures/x.ddb.yaml". */
void tu_load_file(tu_design *t, const char *rel);
void tu_design_free(tu_design *t);

/* Every finding as "LINE:COL SEVERITY RULE: MESSAGE" lines, for failure
 * messages. */
char *tu_diags_dump(const ddbc_diags *d);

/* The first finding of rule at line:col whose message contains substr
 * (NULL: any message); NULL when there is none. */
const ddbc_diag *tu_find_diag(const ddbc_diags *d, ddbc_rule rule, unsigned line,
			      unsigned col, const char *substr);

/* Asserts that d holds such a finding; on failure lists what d holds. */
#define tu_expect_diag(d, rule, line, col, substr)                                        \
	ck_assert_msg(tu_find_diag((d), (rule), (line), (col), (substr)) != NULL,         \
		      "expected [%s] at %u:%u containing \"%s\"; the findings are:\n%s", \
		      ddbc_rule_get(rule)->id, (unsigned)(line), (unsigned)(col),         \
		      (substr) ? (substr) : "", tu_diags_dump(d))

/* Asserts that d holds exactly n findings, listing them when not. */
#define tu_expect_count(d, count)                                                           \
	ck_assert_msg((d)->n == (size_t)(count), "expected %zu findings, got %zu:\n%s", \
		      (size_t)(count), (d)->n, tu_diags_dump(d))

/* ---- running the ddbc binary ------------------------------------------------ */

typedef struct tu_run_opts {
	const char *cwd;         /* working directory; NULL: the source tree */
	const char *no_color;    /* the value of NO_COLOR; NULL: unset */
	bool tty;                /* stdout on a pseudo-terminal instead of a pipe */
	const char *stdin_file;  /* standard input, relative to cwd; NULL: /dev/null */
} tu_run_opts;

typedef struct tu_proc {
	int status;              /* exit status, or 128 + the signal that ended it */
	char *out, *err;         /* everything written to stdout and stderr */
	size_t out_len, err_len;
} tu_proc;

/* Runs TEST_BUILDDIR/ddbc with the NULL-terminated arguments that follow
 * opts (which may be NULL for the defaults) and waits for it. */
void tu_run(tu_proc *p, const tu_run_opts *opts, ...) __attribute__((sentinel));
void tu_run_argv(tu_proc *p, const tu_run_opts *opts, const char *const *args);
void tu_proc_free(tu_proc *p);

/* ---- golden files ------------------------------------------------------------- */

/* Compares actual with the golden file rel (relative to the source tree).
 * On a mismatch prints a unified diff (golden -> actual) to stderr and
 * returns false. With DDBC_UPDATE_GOLDEN=1 in the environment it rewrites
 * the golden file instead and returns true. */
bool tu_golden_match(const char *rel, const char *actual, size_t len);

#define tu_expect_golden(rel, actual, len)                                                  \
	ck_assert_msg(tu_golden_match((rel), (actual), (len)),                              \
		      "output differs from %s (diff on stderr; DDBC_UPDATE_GOLDEN=1 rewrites it)", \
		      (rel))

/* s with every occurrence of from replaced by to. */
char *tu_replace(const char *s, const char *from, const char *to);

/* s with the JSON value after its first `"key": ` (an array or object,
 * strings inside skipped) replaced by the string "@MASKED@": for golden
 * files that should not change whenever a list made elsewhere does (the
 * rule list in SARIF, checked on its own). s unchanged if key is absent. */
char *tu_mask_json(const char *s, const char *key);

/* Whether s (of len bytes, which may hold NULs) contains needle. */
bool tu_contains(const char *s, size_t len, const char *needle);

#endif
