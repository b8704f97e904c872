/* check_designs.c - every design lints with exactly the findings it marks
 *
 * The designs of tests/designs/ and samples/ (found at start-up, so a new
 * one is covered) say in comments which findings `ddbc lint` must give:
 *
 *     name: { type: S }            # expect: reserved-word
 *     # expect: key-overlap@5, pattern-scan
 *
 * "# expect: RULE[@COL][, RULE[@COL]...]" at the end of a line marks
 * findings on that line (at column COL, or at any column without it); the
 * same comment alone on a line marks the next line that holds more than a
 * comment. A rule named twice is expected twice. The test fails on a marked
 * finding that is missing and on a finding that is not marked, naming
 * file:line:col and rule. Suppressed findings (JSON "suppressed": true) are
 * not findings here: the design says why in its own comment.
 *
 * The marks may also stand in a side file, "LINE: RULE[@COL], ..." one
 * line each: a sample's must (tests/samples/NAME.expect: users read the
 * samples), any other design's may (NAME.expect beside it).
 *
 * "# needs: FEATURE[, FEATURE...]" names what the design relies on: a rule
 * id (present when `ddbc explain` lists it), `stored-false`,
 * `suppressions` and `no-cascades` (found by linting a small design that
 * uses them, or that has one mistake), or `entity-choice` (check-items
 * choosing between entities whose keys fit by their constant attributes).
 * While a feature is listed in `pending` below, a design that needs it and
 * finds it missing is checked without the marks of that rule, skipped when
 * the feature concerns the whole design (the file would not even load, or
 * gives follow-on findings), or its examples are not checked as items; a
 * message says which. Once a feature is built, take it out of `pending`:
 * every design that needs it must then pass in full.
 *
 * Then every other command runs on each design: `doc` (md, html, ja),
 * `header` (its output compiled), `export` (create-table, queries, model:
 * JSON). On a design whose marks hold no error each must succeed (`header`
 * never fails where `lint` passes), and its example items must pass
 * `check-items`; on one with an error each must exit 1 and write nothing.
 * tests/designs/README.md says the same for authors.
 */
#define _GNU_SOURCE 1
#include "testutil.h"
#include "util/strbuf.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <jansson.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Features some designs need that the binary may not have yet. A design
 * that needs a missing feature is checked in part, or skipped, only while
 * the feature is listed here; empty the list once they are all built. */
static const char *const pending[] = {
	NULL,
};

/* ---- the designs ------------------------------------------------------------- */

static char **designs;           /* paths relative to the source tree */
static size_t ndesigns;

static void add_matches(const char *dir)
{
	strbuf pat = STRBUF_INIT;
	ddbc_strbuf_addf(&pat, "%s/%s/*.ddb.yaml", TEST_SRCDIR, dir);
	glob_t g;
	if (glob(pat.buf, 0, NULL, &g) != 0) {
		fprintf(stderr, "no designs match %s\n", pat.buf);
		exit(1);
	}
	designs = realloc(designs, (ndesigns + g.gl_pathc) * sizeof(*designs));
	for (size_t i = 0; i < g.gl_pathc; i++) {
		strbuf rel = STRBUF_INIT;
		ddbc_strbuf_addf(&rel, "%s/%s", dir, strrchr(g.gl_pathv[i], '/') + 1);
		designs[ndesigns++] = ddbc_strbuf_detach(&rel);
	}
	globfree(&g);
	ddbc_strbuf_release(&pat);
}

/* ---- marks ------------------------------------------------------------------- */

typedef struct mark {
	unsigned line, col;      /* col 0: any column */
	char rule[64];
	bool met;
} mark;

typedef struct marks {
	mark *at;
	size_t n;
	strbuf needs;            /* "F1,F2," */
	bool errors;             /* some marked rule is an error (set by the lint) */
	bool skip_items;         /* check-items lacks what the examples need */
} marks;

/* Whether the line up to p holds nothing but blanks. */
static bool alone(const char *line, const char *p)
{
	for (; line < p; line++)
		if (*line != ' ' && *line != '\t')
			return false;
	return true;
}

/* Adds the marks of one "# expect:" list (up to the end of the line) for
 * line (0: the next line with content, filled in later). */
static void add_marks(marks *m, const char *list, unsigned line)
{
	const char *end = list + strcspn(list, "\r\n");
	while (list < end) {
		list += strspn(list, " ,");
		size_t n = strcspn(list, " ,@\r\n");
		if (n == 0)
			break;
		ck_assert_msg(n < sizeof(m->at[0].rule), "rule name too long: %.*s", (int)n, list);
		m->at = realloc(m->at, (m->n + 1) * sizeof(*m->at));
		mark *k = &m->at[m->n++];
		*k = (mark){ line, 0, "", false };
		memcpy(k->rule, list, n);
		list += n;
		if (*list == '@')
			k->col = (unsigned)strtoul(list + 1, (char **)&list, 10);
	}
}

/* The first needle in the line of len bytes, or NULL. */
static const char *in_line(const char *line, size_t len, const char *needle)
{
	return memmem(line, len, needle, strlen(needle));
}

static void read_marks(marks *m, const char *text)
{
	*m = (marks){ NULL, 0, STRBUF_INIT, false, false };
	size_t waiting = 0;      /* marks at the end of m->at for the next content line */
	unsigned lineno = 1;
	for (const char *line = text; *line; lineno++) {
		size_t len = strcspn(line, "\n");
		const char *first = line + strspn(line, " \t\r");
		bool content = first < line + len && *first != '#';
		if (content)
			for (; waiting; waiting--)
				m->at[m->n - waiting].line = lineno;
		const char *e = in_line(line, len, "# expect:");
		if (e) {
			size_t before = m->n;
			add_marks(m, e + strlen("# expect:"), alone(line, e) ? 0 : lineno);
			if (alone(line, e))
				waiting += m->n - before;
		}
		const char *nd = in_line(line, len, "# needs:");
		if (nd && alone(line, nd))
			ddbc_strbuf_addf(&m->needs, "%.*s,", (int)(line + len - nd - 8), nd + 8);
		line += len + (line[len] == '\n');
	}
	ck_assert_msg(waiting == 0, "a '# expect:' comment ends the file: it marks no line");
}

/* The side file of rel's marks: tests/samples/NAME.expect for a sample
 * (users read the samples: they carry no marks), else NAME.expect beside
 * the design. Lines "LINE: RULE[@COL][, RULE[@COL]...]"; '#' starts a
 * comment line. */
static char *side_file(const char *rel)
{
	strbuf sb = STRBUF_INIT;
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	size_t n = strlen(base) - (strstr(base, ".ddb.yaml") ? strlen(".ddb.yaml") : 0);
	if (!strncmp(rel, "samples/", 8))
		ddbc_strbuf_addf(&sb, "tests/samples/%.*s.expect", (int)n, base);
	else
		ddbc_strbuf_addf(&sb, "%.*s%.*s.expect", (int)(base - rel), rel, (int)n, base);
	return ddbc_strbuf_detach(&sb);
}

static void read_side_marks(marks *m, const char *text, const char *file)
{
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		if (*line != '#' && len) {
			char *end;
			unsigned long at = strtoul(line, &end, 10);
			ck_assert_msg(at > 0 && *end == ':', "%s: expected 'LINE: RULE...', got '%.*s'",
				      file, (int)len, line);
			add_marks(m, end + 1, (unsigned)at);
		}
		line += len + (line[len] == '\n');
	}
}

static void marks_free(marks *m)
{
	free(m->at);
	ddbc_strbuf_release(&m->needs);
}

/* ---- features ------------------------------------------------------------------ */

static const char probe_stored_false[] =
	"ddbc: 1\nname: probe\ntables: { Probe: { partition_key: PK } }\n"
	"entities:\n  E:\n    attributes:\n"
	"      PK: { type: S, template: \"E#{part}\" }\n"
	"      part: { type: S, stored: false }\n";
static const char probe_suppressions[] =
	"ddbc: 1\nname: probe\ntables: { Probe: { partition_key: PK } }\n"
	"entities:\n  E:\n    attributes:\n      PK: S\n"
	"      name: S  # ddbc-ignore: reserved-word -- probe\n";
/* One misspelt field: the key-overlap that follows from it is a cascade. */
static const char probe_no_cascades[] =
	"ddbc: 1\nname: probe\ntables: { Probe: { partition_key: PK, sort_key: SK } }\n"
	"entities:\n  A:\n    attributes:\n      PK: { type: S, templete: \"A#{id}\" }\n"
	"      SK: { type: S, template: X }\n      id: S\n"
	"  B:\n    attributes:\n      PK: { type: S, template: \"B#{id}\" }\n"
	"      SK: { type: S, template: X }\n      id: S\n";
/* Keys that fit both entities; the one-value enum says which it is. */
static const char probe_entity_choice[] =
	"ddbc: 1\nname: probe\nlint: { rules: { key-overlap: off } }\n"
	"tables: { Probe: { partition_key: Id } }\n"
	"entities:\n  A:\n    attributes: { Id: N, Kind: { type: S, enum: [A] } }\n"
	"  B:\n    attributes: { Id: N, Kind: { type: S, enum: [B] } }\n";

static bool is_suppressed(json_t *d)
{
	return json_is_true(json_object_get(d, "suppressed"));
}

/* A scratch directory for files handed to ddbc; the caller removes it
 * with scratch_free. */
typedef struct scratch {
	char dir[32];
	strbuf design, items;    /* paths of the files in it */
} scratch;

static void scratch_open(scratch *t, const char *design, const char *items, size_t items_len)
{
	strcpy(t->dir, "/tmp/ddbc-designs-XXXXXX");
	ck_assert_msg(mkdtemp(t->dir) != NULL, "mkdtemp: %s", strerror(errno));
	t->design = (strbuf)STRBUF_INIT;
	t->items = (strbuf)STRBUF_INIT;
	ddbc_strbuf_addf(&t->design, "%s/probe.ddb.yaml", t->dir);
	ddbc_strbuf_addf(&t->items, "%s/items.json", t->dir);
	if (design)
		tu_write_file(t->design.buf, design, strlen(design));
	if (items)
		tu_write_file(t->items.buf, items, items_len);
}

static void scratch_free(scratch *t)
{
	unlink(t->design.buf);
	unlink(t->items.buf);
	rmdir(t->dir);
	ddbc_strbuf_release(&t->design);
	ddbc_strbuf_release(&t->items);
}

/* How many findings `ddbc lint` gives on text, suppressed ones left out;
 * -1 when it gives no JSON. */
static long lint_count(const char *text)
{
	scratch t;
	scratch_open(&t, text, NULL, 0);
	tu_proc p;
	tu_run(&p, NULL, "lint", "--format", "json", t.design.buf, NULL);
	json_t *root = json_loads(p.out, 0, NULL);
	json_t *diags = json_object_get(root, "diagnostics"), *d;
	size_t i;
	long found = root ? 0 : -1;
	json_array_foreach(diags, i, d)
		found += !is_suppressed(d);
	json_decref(root);
	tu_proc_free(&p);
	scratch_free(&t);
	return found;
}

/* Whether check-items assigns an item to the entity its constant says. */
static bool chooses_by_constant(void)
{
	static const char item[] = "[{\"Id\": 1, \"Kind\": \"B\"}]";
	scratch t;
	scratch_open(&t, probe_entity_choice, item, strlen(item));
	tu_proc p;
	tu_run(&p, NULL, "check-items", t.design.buf, t.items.buf, NULL);
	bool ok = p.status == 0;
	tu_proc_free(&p);
	scratch_free(&t);
	return ok;
}

/* Whether `ddbc explain` lists the rule (one rule a line, its id first;
 * `ddbc explain RULE` would need the installed pages). */
static bool rule_listed(const char *id)
{
	tu_proc p;
	tu_run(&p, NULL, "explain", NULL);
	bool listed = false;
	size_t n = strlen(id);
	for (const char *line = p.out ? p.out : ""; *line && !listed;) {
		listed = !strncmp(line, id, n) && (line[n] == ' ' || line[n] == '\t');
		line += strcspn(line, "\n");
		line += *line == '\n';
	}
	tu_proc_free(&p);
	return listed;
}

/* What a design may need. Without a feature of the whole (the format's,
 * or the findings left out as cascades) the design is skipped; a missing
 * rule takes that rule's marks away; a missing check-items feature leaves
 * the examples unchecked as items. */
typedef enum need_kind { NEED_RULE, NEED_WHOLE, NEED_ITEMS } need_kind;

static need_kind kind_of(const char *f)
{
	if (!strcmp(f, "stored-false") || !strcmp(f, "suppressions") ||
	    !strcmp(f, "no-cascades"))
		return NEED_WHOLE;
	return !strcmp(f, "entity-choice") ? NEED_ITEMS : NEED_RULE;
}

static bool has_feature(const char *f)
{
	if (!strcmp(f, "stored-false"))
		return lint_count(probe_stored_false) == 0;
	if (!strcmp(f, "suppressions"))
		return lint_count(probe_suppressions) == 0;
	if (!strcmp(f, "no-cascades"))
		return lint_count(probe_no_cascades) == 1;
	if (!strcmp(f, "entity-choice"))
		return chooses_by_constant();
	return rule_listed(f);
}

static bool is_pending(const char *f)
{
	for (size_t i = 0; pending[i]; i++)
		if (!strcmp(pending[i], f))
			return true;
	return false;
}

/* A missing rule only takes its own marks away: they count as met, and the
 * rest of the design is still checked. */
static void drop_marks(marks *m, const char *rule)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->at[i].rule, rule))
			m->at[i].met = true;
}

/* Allows for a missing feature (which must be pending) as kind_of says. */
static bool without(const char *rel, marks *m, const char *f)
{
	static const char *const what[] = { "checked without its marks", "skipped",
					    "examples not checked as items" };
	need_kind k = kind_of(f);
	ck_assert_msg(is_pending(f), "%s needs '%s', which ddbc lacks", rel, f);
	fprintf(stderr, "%s %s: needs '%s', not built yet: %s\n",
		k == NEED_WHOLE ? "SKIP" : "PARTIAL", rel, f, what[k]);
	if (k == NEED_RULE)
		drop_marks(m, f);
	if (k == NEED_ITEMS)
		m->skip_items = true;
	return k != NEED_WHOLE;
}

/* Whether the design can be checked: every need present, or the missing
 * ones still pending. */
static bool needs_met(const char *rel, marks *m)
{
	bool met = true;
	for (const char *p = ddbc_strbuf_str(&m->needs); *p;) {
		p += strspn(p, " ,\r");
		size_t n = strcspn(p, " ,\r");
		if (n == 0)
			break;
		char *f = strndup(p, n);
		p += n;
		if (!has_feature(f))
			met = without(rel, m, f) && met;
		else if (is_pending(f))
			fprintf(stderr, "note: '%s' is built: remove it from pending in %s\n", f,
				__FILE__);
		free(f);
	}
	return met;
}

/* ---- lint against the marks ----------------------------------------------------- */

static bool take_mark(marks *m, unsigned line, unsigned col, const char *rule)
{
	for (size_t i = 0; i < m->n; i++) {
		mark *k = &m->at[i];
		if (!k->met && k->line == line && (k->col == 0 || k->col == col) &&
		    !strcmp(k->rule, rule))
			return k->met = true;
	}
	return false;
}

/* Matches the findings of the JSON report with the marks; what is left
 * over on either side goes to problems. */
static void compare(const char *rel, json_t *diags, marks *m, strbuf *problems)
{
	size_t i;
	json_t *d;
	json_array_foreach(diags, i, d) {
		if (is_suppressed(d))
			continue;
		unsigned line = (unsigned)json_integer_value(json_object_get(d, "line"));
		unsigned col = (unsigned)json_integer_value(json_object_get(d, "column"));
		const char *rule = json_string_value(json_object_get(d, "rule"));
		const char *sev = json_string_value(json_object_get(d, "severity"));
		if (!strcmp(sev, "error"))
			m->errors = true;
		if (!take_mark(m, line, col, rule))
			ddbc_strbuf_addf(problems, "%s:%u:%u: unexpected [%s] %s: %s\n", rel, line,
				    col, rule, sev,
				    json_string_value(json_object_get(d, "message")));
	}
	for (size_t k = 0; k < m->n; k++) {
		if (m->at[k].met)
			continue;
		ddbc_strbuf_addf(problems, "%s:%u:", rel, m->at[k].line);
		if (m->at[k].col)
			ddbc_strbuf_addf(problems, "%u:", m->at[k].col);
		ddbc_strbuf_addf(problems, " missing [%s]\n", m->at[k].rule);
	}
}

/* Lints rel and checks its findings against its marks; false when the
 * design is skipped. m receives the marks (and whether there are errors). */
static bool lint_design(const char *rel, marks *m)
{
	char *path = tu_srcpath(rel);
	char *text = tu_read_file(path, NULL);
	read_marks(m, text);
	char *side = side_file(rel);
	ck_assert_msg(strncmp(rel, "samples/", 8) || (!strstr(text, "# expect:") && !m->n),
		      "%s: a sample is read by users: its marks belong in %s", rel, side);
	free(text);
	free(path);
	path = tu_srcpath(side);
	if (access(path, R_OK) == 0) {
		text = tu_read_file(path, NULL);
		read_side_marks(m, text, side);
		free(text);
	}
	free(path);
	free(side);
	if (!needs_met(rel, m))
		return false;
	tu_proc p;
	tu_run(&p, NULL, "lint", "--format", "json", rel, NULL);
	json_error_t jerr;
	json_t *root = json_loads(p.out, 0, &jerr);
	ck_assert_msg(root != NULL, "%s: lint --format json is no JSON (%s):\n%s%s", rel,
		      jerr.text, p.out, p.err);
	strbuf problems = STRBUF_INIT;
	compare(rel, json_object_get(root, "diagnostics"), m, &problems);
	if (problems.len)
		fprintf(stderr, "%s", problems.buf);
	ck_assert_msg(problems.len == 0, "%s does not lint as its marks say:\n%s", rel,
		      ddbc_strbuf_str(&problems));
	ck_assert_msg(p.status == (m->errors ? 1 : 0), "%s: lint exited %d:\n%s", rel, p.status,
		      p.err);
	ddbc_strbuf_release(&problems);
	json_decref(root);
	tu_proc_free(&p);
	return true;
}

START_TEST(test_lint_as_marked)
{
	marks m;
	lint_design(designs[_i], &m);
	marks_free(&m);
}
END_TEST

/* ---- every other command ---------------------------------------------------------- */

/* Runs a command of ddbc on rel: exit 0 with output where the design has no
 * error, exit 1 with no output where it has; JSON output must parse. */
static void expect_command(const char *rel, bool errors, const char *const *cmd, bool json)
{
	const char *args[16];
	size_t n = 0;
	strbuf what = STRBUF_INIT;
	for (; cmd[n]; n++) {
		args[n] = cmd[n];
		ddbc_strbuf_addf(&what, "%s ", cmd[n]);
	}
	args[n++] = rel;
	args[n] = NULL;
	tu_proc p;
	tu_run_argv(&p, NULL, args);
	if (errors) {
		ck_assert_msg(p.status == 1 && p.out_len == 0,
			      "ddbc %s%s: a design with errors gave exit %d and %zu bytes", what.buf,
			      rel, p.status, p.out_len);
	} else {
		ck_assert_msg(p.status == 0 && p.out_len > 0, "ddbc %s%s: exit %d:\n%.2000s",
			      what.buf, rel, p.status, p.err);
	}
	if (json && !errors) {
		json_error_t jerr;
		json_t *root = json_loads(p.out, 0, &jerr);
		ck_assert_msg(root != NULL, "ddbc %s%s: no JSON: %s", what.buf, rel, jerr.text);
		json_decref(root);
	}
	ddbc_strbuf_release(&what);
	tu_proc_free(&p);
}

/* Runs argv (from PATH) in dir; exit status, output in *log. */
static int run_in(const char *dir, const char *const *argv, char **log)
{
	strbuf logpath = STRBUF_INIT;
	ddbc_strbuf_addf(&logpath, "%s/run.log", dir);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, logpath.buf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addchdir_np(&fa, dir);
	pid_t pid;
	int e = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	ck_assert_msg(e == 0, "cannot run %s: %s", argv[0], strerror(e));
	int status;
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_msg(errno == EINTR, "waitpid: %s", strerror(errno));
	*log = tu_read_file(logpath.buf, NULL);
	unlink(logpath.buf);
	ddbc_strbuf_release(&logpath);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The header of a design lint passes is written and compiles cleanly. */
static void expect_header_compiles(const char *rel)
{
	char dir[] = "/tmp/ddbc-designs-XXXXXX";
	ck_assert(mkdtemp(dir) != NULL);
	strbuf h = STRBUF_INIT, c = STRBUF_INIT;
	ddbc_strbuf_addf(&h, "%s/design.h", dir);
	ddbc_strbuf_addf(&c, "%s/use.c", dir);
	tu_proc p;
	tu_run(&p, NULL, "header", "-o", h.buf, rel, NULL);
	ck_assert_msg(p.status == 0, "ddbc header %s: exit %d:\n%s", rel, p.status, p.err);
	tu_proc_free(&p);
	static const char use[] = "#include \"design.h\"\n#include \"design.h\"\n"
				  "int main(void) { return 0; }\n";
	tu_write_file(c.buf, use, strlen(use));
	const char *cc[] = { "cc", "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror",
			     "-Wshadow", "-Wconversion", "-Wsign-conversion", "-Wundef",
			     "-fsyntax-only", "use.c", NULL };
	char *log;
	int status = run_in(dir, cc, &log);
	ck_assert_msg(status == 0, "%s: its header does not compile:\n%.2000s", rel, log);
	free(log);
	unlink(h.buf);
	unlink(c.buf);
	rmdir(dir);
	ddbc_strbuf_release(&h);
	ddbc_strbuf_release(&c);
}

/* The findings of a check-items report above a note. */
static size_t serious(json_t *report)
{
	size_t i, n = 0;
	json_t *f;
	json_array_foreach(json_object_get(report, "findings"), i, f)
		n += strcmp(json_string_value(json_object_get(f, "severity")), "note") != 0;
	return n;
}

/* Every example item of the design, as check-items reads items: each one
 * passes. Notes are allowed: check-items is told no table, and an item of
 * one table that has the key attributes of another may be taken for an
 * entity of that one (with unknown-attribute notes). */
static void expect_examples_check(const char *rel)
{
	tu_proc p;
	tu_run(&p, NULL, "export", "--format", "model", rel, NULL);
	json_t *model = json_loads(p.out, 0, NULL), *items = json_array(), *e, *x;
	tu_proc_free(&p);
	ck_assert_ptr_nonnull(model);
	size_t i, j;
	json_array_foreach(json_object_get(model, "entities"), i, e)
		json_array_foreach(json_object_get(e, "examples"), j, x)
			json_array_append(items, x);
	char *text = json_dumps(items, JSON_INDENT(1));
	scratch t;
	scratch_open(&t, NULL, text, strlen(text));
	tu_run(&p, NULL, "check-items", "--format", "json", rel, t.items.buf, NULL);
	json_t *report = json_loads(p.out, 0, NULL);
	ck_assert_msg(report != NULL, "check-items %s: no JSON:\n%s", rel, p.err);
	json_t *summary = json_object_get(report, "summary");
	size_t ok = (size_t)json_integer_value(json_object_get(summary, "ok"));
	size_t findings = serious(report);
	if (p.status != 0 || ok != json_array_size(items) || findings)
		fprintf(stderr, "check-items %s on its examples:\n%s\n%s", rel, p.out, text);
	ck_assert_msg(p.status == 0 && ok == json_array_size(items) && findings == 0,
		      "%s: %zu of its %zu examples pass check-items, %zu errors or warnings (on stderr)",
		      rel, ok, json_array_size(items), findings);
	json_decref(report);
	tu_proc_free(&p);
	scratch_free(&t);
	free(text);
	json_decref(items);
	json_decref(model);
}

START_TEST(test_every_command)
{
	static const char *const doc_md[] = { "doc", NULL }, *const doc_html[] = {
		"doc", "--format", "html", NULL
	}, *const doc_ja[] = { "doc", "--lang", "ja", NULL };
	static const char *const exports[][4] = {
		{ "export", NULL }, { "export", "--format", "queries", NULL },
		{ "export", "--format", "model", NULL },
	};
	const char *rel = designs[_i];
	marks m;
	if (lint_design(rel, &m)) {
		expect_command(rel, m.errors, doc_md, false);
		expect_command(rel, m.errors, doc_html, false);
		expect_command(rel, m.errors, doc_ja, false);
		for (size_t i = 0; i < sizeof(exports) / sizeof(exports[0]); i++)
			expect_command(rel, m.errors, exports[i], true);
		if (!m.errors)
			expect_header_compiles(rel);
		if (!m.errors && !m.skip_items)
			expect_examples_check(rel);
		else
			expect_command(rel, true, (const char *const[]){ "header", NULL }, false);
	}
	marks_free(&m);
}
END_TEST

/* ---- the harness itself ------------------------------------------------------------ */

/* The marks are read as the header of this file says. */
START_TEST(test_marks_syntax)
{
	marks m;
	read_marks(&m, "# needs: stored-false, suppressions\n"
		       "a: 1   # expect: reserved-word\n"
		       "# expect: key-overlap@5, key-overlap\n"
		       "\n"
		       "  # a comment\n"
		       "b: 2\n"
		       "c: 3 # expect: x@7\n");
	ck_assert_uint_eq(m.n, 4);
	ck_assert(m.at[0].line == 2 && m.at[0].col == 0 && !strcmp(m.at[0].rule, "reserved-word"));
	ck_assert(m.at[1].line == 6 && m.at[1].col == 5 && !strcmp(m.at[1].rule, "key-overlap"));
	ck_assert(m.at[2].line == 6 && m.at[2].col == 0 && !strcmp(m.at[2].rule, "key-overlap"));
	ck_assert(m.at[3].line == 7 && m.at[3].col == 7 && !strcmp(m.at[3].rule, "x"));
	ck_assert_str_eq(ddbc_strbuf_str(&m.needs), " stored-false, suppressions,");
	marks_free(&m);
}
END_TEST

/* A side file's marks, and where a design's side file is. */
START_TEST(test_side_marks)
{
	marks m;
	read_marks(&m, "a: 1\n");
	read_side_marks(&m, "# LINE: RULE\n3: reserved-word@7, key-overlap\n\n12: x\n", "f");
	ck_assert_uint_eq(m.n, 3);
	ck_assert(m.at[0].line == 3 && m.at[0].col == 7 && !strcmp(m.at[0].rule, "reserved-word"));
	ck_assert(m.at[1].line == 3 && m.at[1].col == 0 && !strcmp(m.at[1].rule, "key-overlap"));
	ck_assert(m.at[2].line == 12 && !strcmp(m.at[2].rule, "x"));
	marks_free(&m);
	char *side = side_file("samples/todo.ddb.yaml");
	ck_assert_str_eq(side, "tests/samples/todo.expect");
	free(side);
	side = side_file("tests/designs/orders.ddb.yaml");
	ck_assert_str_eq(side, "tests/designs/orders.expect");
	free(side);
}
END_TEST

/* Both directions fail, and say where: a missing finding, an extra one. */
START_TEST(test_compare_both_ways)
{
	marks m;
	read_marks(&m, "a: 1 # expect: reserved-word@3\nb: 2 # expect: pattern-scan\n");
	json_t *diags = json_loads(
		"[{\"line\":1,\"column\":3,\"rule\":\"reserved-word\",\"severity\":\"note\","
		"\"message\":\"m\"},{\"line\":1,\"column\":4,\"rule\":\"reserved-word\","
		"\"severity\":\"note\",\"message\":\"m2\"},{\"line\":2,\"column\":1,\"rule\":"
		"\"key-overlap\",\"severity\":\"error\",\"message\":\"m3\",\"suppressed\":true}]",
		0, NULL);
	strbuf problems = STRBUF_INIT;
	compare("x.yaml", diags, &m, &problems);
	ck_assert_str_eq(problems.buf, "x.yaml:1:4: unexpected [reserved-word] note: m2\n"
				       "x.yaml:2: missing [pattern-scan]\n");
	ck_assert(!m.errors);
	ddbc_strbuf_release(&problems);
	json_decref(diags);
	marks_free(&m);
}
END_TEST

/* A rule is found by its whole id; a pending feature that is built
 * already is pointed out. */
START_TEST(test_features_found)
{
	ck_assert(has_feature("reserved-word"));
	ck_assert(has_feature("key-overlap"));
	ck_assert(!has_feature("reserved"));
	ck_assert(!has_feature("no-such-rule"));
	for (size_t i = 0; pending[i]; i++)
		if (has_feature(pending[i]))
			fprintf(stderr, "note: '%s' is built: remove it from pending in %s\n",
				pending[i], __FILE__);
}
END_TEST

static Suite *designs_suite(void)
{
	Suite *s = suite_create("designs");
	TCase *tc = tcase_create("harness");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_marks_syntax);
	tcase_add_test(tc, test_side_marks);
	tcase_add_test(tc, test_compare_both_ways);
	tcase_add_test(tc, test_features_found);
	suite_add_tcase(s, tc);
	tc = tcase_create("lint");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_lint_as_marked, 0, ndesigns);
	suite_add_tcase(s, tc);
	tc = tcase_create("commands");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_every_command, 0, ndesigns);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* The HTML page's templates of the source tree, not of an installation. */
	setenv("DDBC_TEMPLATE_DIR", TEST_SRCDIR "/templates", 1);
	add_matches("tests/designs");
	add_matches("samples");
	SRunner *sr = srunner_create(designs_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	for (size_t i = 0; i < ndesigns; i++)
		free(designs[i]);
	free(designs);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
