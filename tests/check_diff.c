/* check_diff.c - `ddbc diff`: every change class proven by a pair of designs
 *
 * For each rule of kind DIFF: docs/rules/ID.md exists and quotes the
 * diagnostic of the failing pair; tests/diff/ID/bad.{old,new}.yaml fire
 * exactly one finding of the rule, where bad.new.yaml's first line says
 * ("# expect: new|old LINE:COL"), and no other finding except of the
 * rules its "# also: ID, ..." line names; tests/diff/ID/good.{old,new}.yaml
 * give no finding at all. Either new file may hold "# args: --all" or
 * "# args: --rule RULE=SEV" lines. Then the command: its outputs against
 * golden files, its exit statuses, --against in a git checkout, changes
 * acknowledged in NEW (tests/diff/ID/acked.new.yaml, other.new.yaml), and
 * the order of the plan's steps for every change class.
 */
#include "diff/diff.h"
#include "diff/diff_int.h"
#include "rules/check.h"
#include "testutil.h"
#include "util/strbuf.h"

#include "config.h"

#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct pair {
	ddbc_source *src[2];
	ddbc_design *design[2];
	ddbc_diags d;
} pair;

/* The command line the new file's "# args:" lines give. */
static bool args_of(const char *text, ddbc_settings *s)
{
	bool all = strstr(text, "# args: --all\n") != NULL;
	ddbc_settings_init(s);
	const char *p = text;
	while ((p = strstr(p, "# args: --rule ")) != NULL) {
		p += strlen("# args: --rule ");
		char arg[256];
		size_t n = strcspn(p, "\r\n");
		ck_assert_uint_lt(n, sizeof(arg));
		memcpy(arg, p, n);
		arg[n] = '\0';
		strbuf err = STRBUF_INIT;
		ck_assert_msg(ddbc_settings_parse(s, arg, &err) == 0, "%s", ddbc_strbuf_str(&err));
		ddbc_strbuf_release(&err);
	}
	if (all && s->sev[DDBC_RULE_DOC_CHANGED] == DDBC_SEV_DEFAULT)
		s->sev[DDBC_RULE_DOC_CHANGED] = DDBC_SEV_NOTE;
	return all;
}

/* Diffs tests/diff/ID/KIND.old.yaml against KIND.new.yaml as `ddbc diff`
 * does, naming both by their paths in the tree. */
static void diff_pair(pair *p, const char *id, const char *kind)
{
	memset(p, 0, sizeof(*p));
	ddbc_settings cli;
	bool all = false;
	for (int k = 0; k < 2; k++) {
		char rel[256];
		snprintf(rel, sizeof(rel), "tests/diff/%s/%s.%s.yaml", id, kind, k ? "new" : "old");
		char *path = tu_srcpath(rel);
		ck_assert_msg(access(path, R_OK) == 0, "missing fixture %s", rel);
		p->src[k] = ddbc_source_read(path);
		free(path);
		free(p->src[k]->name);
		p->src[k]->name = strdup(rel);
		ddbc_diags d;
		ddbc_diags_init(&d);
		ddbc_settings none;
		ddbc_settings_init(&none);
		p->design[k] = ddbc_check(p->src[k], &d, &none);
		ck_assert_msg(p->design[k] && !d.fatal, "%s does not load", rel);
		ck_assert_msg(k == 0 || ddbc_diags_count(&d).errors == 0, "%s has errors:\n%s", rel,
			      tu_diags_dump(&d));
		ddbc_diags_release(&d);
		if (k)
			all = args_of(p->src[k]->text, &cli);
	}
	ddbc_diags_init(&p->d);
	ddbc_diff(p->design[0], p->design[1], NULL, &p->d, all);
	ddbc_diags_finish(&p->d, &cli, &p->design[1]->settings);
	ddbc_diff_sort(&p->d);
}

static void pair_free(pair *p)
{
	ddbc_diags_release(&p->d);
	for (int k = 0; k < 2; k++) {
		ddbc_design_free(p->design[k]);
		ddbc_source_free(p->src[k]);
	}
}

/* Whether rule is named on the "# also:" line of text. */
static bool also_allowed(const char *text, ddbc_rule rule)
{
	const char *line = strstr(text, "\n# also: ");
	if (!line)
		return false;
	line += strlen("\n# also: ");
	size_t len = strcspn(line, "\n");
	const char *id = ddbc_rule_get(rule)->id;
	for (const char *p = line; p < line + len; p += strcspn(p, ",\n"), p += *p == ',') {
		while (*p == ' ')
			p++;
		size_t n = strcspn(p, ",\n");
		if (n == strlen(id) && !strncmp(p, id, n))
			return true;
	}
	return false;
}

/* The page quotes the failing pair's diagnostic, word for word. */
static void check_page_quote(const char *id, const ddbc_diag *g)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "docs/rules/%s.md", id);
	char *path = tu_srcpath(rel);
	char *page = tu_read_file(path, NULL);
	ck_assert_msg(page != NULL, "rule '%s' has no page %s", id, rel);
	strbuf want = STRBUF_INIT;
	/* The page names the example by its file name alone. */
	const char *name = strrchr(g->src->name, '/');
	name = name ? name + 1 : g->src->name;
	ddbc_strbuf_addf(&want, "\n%s:%u:%u: %s: %s [%s]\n", name, g->loc.line, g->loc.column,
		    ddbc_severity_name(g->severity), g->message, id);
	ck_assert_msg(strstr(page, ddbc_strbuf_str(&want)) != NULL, "%s does not quote%s", rel,
		      ddbc_strbuf_str(&want));
	ddbc_strbuf_release(&want);
	free(page);
	free(path);
}

START_TEST(test_change_class)
{
	const ddbc_rule_info *info = ddbc_rule_get((ddbc_rule)_i);
	if (info->kind != DDBC_RULE_KIND_DIFF)
		return;
	pair p;
	diff_pair(&p, info->id, "bad");
	const char *text = p.src[1]->text;
	char which[8] = "";
	unsigned line = 0, col = 0;
	ck_assert_msg(sscanf(text, "# expect: %7s %u:%u", which, &line, &col) == 3,
		      "tests/diff/%s/bad.new.yaml does not start with '# expect: new|old L:C'",
		      info->id);
	const ddbc_source *at = p.src[strcmp(which, "old") ? 1 : 0];
	char *dump = tu_diags_dump(&p.d);
	size_t mine = 0;
	const ddbc_diag *hit = NULL;
	for (size_t i = 0; i < p.d.n; i++) {
		const ddbc_diag *g = &p.d.items[i];
		if (g->rule != (ddbc_rule)_i) {
			ck_assert_msg(also_allowed(text, g->rule), "%s: unexpected [%s]:\n%s",
				      info->id, ddbc_rule_get(g->rule)->id, dump);
			continue;
		}
		mine++;
		hit = g;
	}
	ck_assert_msg(mine == 1 && hit->src == at && hit->loc.line == line &&
		      hit->loc.column == col, "%s: expected one finding at %s %u:%u, got:\n%s",
		      info->id, which, line, col, dump);
	check_page_quote(info->id, hit);
	free(dump);
	pair_free(&p);

	diff_pair(&p, info->id, "good");
	dump = tu_diags_dump(&p.d);
	ck_assert_msg(p.d.n == 0, "tests/diff/%s/good: expected no finding, got:\n%s", info->id,
		      dump);
	free(dump);
	pair_free(&p);
}
END_TEST

/* ---- the command ----------------------------------------------------------------------- */

#define OLD "tests/fixtures/diff/old.yaml"
#define NEW "tests/fixtures/diff/new.yaml"

static const char *const formats[] = { "text", "json", "sarif", "github", "plan" };

START_TEST(test_format_golden)
{
	const char *format = formats[_i];
	tu_proc p;
	tu_run(&p, NULL, "diff", "--format", format, OLD, NEW, NULL);
	ck_assert_msg(p.status == 1, "exit %d: %s", p.status, p.err);
	char *out = tu_mask_json(p.out, "rules");
	char *norm = tu_replace(out, "\"" PACKAGE_VERSION "\"", "\"@VERSION@\"");
	char golden[64];
	snprintf(golden, sizeof(golden), "tests/golden/diff/%s.out", format);
	tu_expect_golden(golden, norm, strlen(norm));
	/* The plan's findings go to stderr, warnings and errors only; text's
	 * summary goes there when standard output is no terminal. */
	if (!strcmp(format, "plan"))
		ck_assert(strstr(p.err, "[key-template-changed]") && !strstr(p.err, "[gsi-added]"));
	else if (!strcmp(format, "text"))
		ck_assert_str_eq(p.err, "6 changes: 1 error, 4 warnings, 1 note\n");
	else
		ck_assert_uint_eq(p.err_len, 0);
	free(norm);
	free(out);
	tu_proc_free(&p);
}
END_TEST

/* Making a templated GSI key optional is required-removed, which says that
 * items without it leave the index; making it required again is
 * attribute-required (stored items may lack it). */
START_TEST(test_sparse_key)
{
	const char *dense = "tests/fixtures/sparse/helpdesk-dense.ddb.yaml";
	const char *sparse = "tests/designs/helpdesk-sparse.ddb.yaml";
	tu_proc p;
	tu_run(&p, NULL, "diff", dense, sparse, NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(strstr(p.out, ":36:7: warning: 'Ticket.escQueue' is no longer required: items "
			     "written without it leave index 'EscalationQueue'"), "%s", p.out);
	ck_assert(strstr(p.out, "[required-removed]"));
	ck_assert(!strstr(p.out, "[attribute-required]"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", sparse, dense, NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(strstr(p.out, "'Ticket.escQueue' became required"), "%s", p.out);
	ck_assert(strstr(p.out, "[attribute-required]"));
	ck_assert(!strstr(p.out, "[required-removed]"));
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_statuses)
{
	tu_proc p;
	/* Notes only: success. */
	tu_run(&p, NULL, "diff", "tests/diff/gsi-added/bad.old.yaml",
	       "tests/diff/gsi-added/bad.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert(strstr(p.out, "[gsi-added]"));
	tu_proc_free(&p);
	/* Warnings: success, unless --werror. */
	tu_run(&p, NULL, "diff", "tests/diff/gsi-changed/bad.old.yaml",
	       "tests/diff/gsi-changed/bad.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--werror", "tests/diff/gsi-changed/bad.old.yaml",
	       "tests/diff/gsi-changed/bad.new.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_proc_free(&p);
	/* --rule turns a class off. */
	tu_run(&p, NULL, "diff", "--rule", "key-template-changed=off",
	       "tests/diff/key-template-changed/bad.old.yaml",
	       "tests/diff/key-template-changed/bad.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_str_eq(p.out, "no changes\n");
	tu_proc_free(&p);
	/* -o writes the plan there, nothing to standard output. */
	char out[] = "/tmp/ddbc-plan-XXXXXX";
	int fd = mkstemp(out);
	ck_assert_int_ge(fd, 0);
	close(fd);
	tu_run(&p, NULL, "diff", "--format", "plan", "-o", out,
	       "tests/fixtures/diff/plan-old.yaml", "tests/fixtures/diff/plan-new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_uint_eq(p.out_len, 0);
	char *plan = tu_read_file(out, NULL);
	/* The TTL moves: the hour's wait stands between disable and enable. */
	ck_assert(plan && strstr(plan, "\"GlobalSecondaryIndexUpdates\"") &&
		  strstr(plan, "\"action\": \"wait\"") && strstr(plan, "\"wait_seconds\": 3600"));
	free(plan);
	unlink(out);
	tu_proc_free(&p);
	/* --all reports documentation changes. */
	tu_run(&p, NULL, "diff", "tests/diff/doc-changed/bad.old.yaml",
	       "tests/diff/doc-changed/bad.new.yaml", NULL);
	ck_assert_str_eq(p.out, "no changes\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--all", "tests/diff/doc-changed/bad.old.yaml",
	       "tests/diff/doc-changed/bad.new.yaml", NULL);
	ck_assert(strstr(p.out, "[doc-changed]"));
	tu_proc_free(&p);
}
END_TEST

/* On a terminal a text diff ends with a summary line; without changes it
 * says so, terminal or not. */
START_TEST(test_summary)
{
	tu_run_opts tty = { .tty = true, .no_color = "1" };
	tu_proc p;
	tu_run(&p, &tty, "diff", OLD, NEW, NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.out, "6 changes: 1 error, 4 warnings, 1 note"), "%s", p.out);
	tu_proc_free(&p);
	/* Without a terminal the findings are alone on standard output, the
	 * summary on standard error (as lint's), so a hook's log ends with it. */
	tu_run(&p, NULL, "diff", OLD, NEW, NULL);
	ck_assert(!strstr(p.out, "changes:"));
	ck_assert_str_eq(p.err, "6 changes: 1 error, 4 warnings, 1 note\n");
	tu_proc_free(&p);
	tu_run(&p, &tty, "diff", OLD, OLD, NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(strstr(p.out, "no changes"), "%s", p.out);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_bad_inputs)
{
	tu_proc p;
	/* An error in NEW stops the diff: its findings on stderr, nothing else. */
	tu_run(&p, NULL, "diff", OLD, "tests/fixtures/lint-bad.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert(strstr(p.err, "error:"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", OLD, "tests/fixtures/no-such.yaml", NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(strstr(p.err, "cannot read"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", OLD, NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(strstr(p.err, "expected two design files"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--format", "json", "--against", "HEAD", OLD, NEW, NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(strstr(p.err, "--against with several files writes text or github"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--format", "md", OLD, NEW, NULL);
	ck_assert_int_eq(p.status, 2);
	tu_proc_free(&p);
	/* github and sarif carry NEW's errors in their own format, not as text. */
	static const char *const machine[] = { "github", "sarif" };
	for (size_t i = 0; i < 2; i++) {
		tu_run(&p, NULL, "diff", "--format", machine[i], OLD,
		       "tests/fixtures/lint-bad.ddb.yaml", NULL);
		ck_assert_int_eq(p.status, 1);
		ck_assert_msg(p.err_len == 0, "%s: stderr:\n%s", machine[i], p.err);
		ck_assert(strstr(p.out, i ? "\"executionSuccessful\": false" : "::error file="));
		tu_proc_free(&p);
	}
}
END_TEST

/* A scratch git checkout with design.yaml committed as old_rel, then
 * new_rel on disk. */
static char *git_checkout_of(const char *old_rel, const char *new_rel)
{
	char tmpl[] = "/tmp/ddbc-diff-XXXXXX";
	char *dir = strdup(mkdtemp(tmpl));
	char *old_path = tu_srcpath(old_rel), *new_path = tu_srcpath(new_rel);
	char *old = tu_read_file(old_path, NULL), *new = tu_read_file(new_path, NULL);
	free(old_path);
	free(new_path);
	strbuf cmd = STRBUF_INIT, path = STRBUF_INIT;
	ddbc_strbuf_addf(&path, "%s/design.yaml", dir);
	tu_write_file(ddbc_strbuf_str(&path), old, strlen(old));
	ddbc_strbuf_addf(&cmd, "cd '%s' && git init -q . && git add design.yaml && git -c user.name=t "
		    "-c user.email=t@t commit -qm old && mkdir plain", dir);
	ck_assert_int_eq(system(ddbc_strbuf_str(&cmd)), 0);
	tu_write_file(ddbc_strbuf_str(&path), new, strlen(new));
	ddbc_strbuf_reset(&path);
	ddbc_strbuf_addf(&path, "%s/untracked.yaml", dir);
	tu_write_file(ddbc_strbuf_str(&path), new, strlen(new));
	ddbc_strbuf_release(&cmd);
	ddbc_strbuf_release(&path);
	free(old);
	free(new);
	return dir;
}

static char *git_checkout(void) { return git_checkout_of(OLD, NEW); }

static void remove_tree(char *dir)
{
	strbuf cmd = STRBUF_INIT;
	ddbc_strbuf_addf(&cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(ddbc_strbuf_str(&cmd)), 0);
	ddbc_strbuf_release(&cmd);
	free(dir);
}

START_TEST(test_against)
{
	if (system("git --version >/dev/null 2>&1") != 0)
		return;
	char *dir = git_checkout();
	tu_run_opts at = { .cwd = dir };
	tu_proc p;
	tu_run(&p, &at, "diff", "--against", "HEAD", "design.yaml", NULL);
	ck_assert_msg(p.status == 1, "exit %d: %s", p.status, p.err);
	/* What NEW lost is shown in the working tree's file, at the part that
	 * lost it, saying where it was. */
	ck_assert(strstr(p.out, "design.yaml:12:5: warning: GSI 'GSI3' is deleted"));
	ck_assert(strstr(p.out, "(it was at HEAD:design.yaml:16:7) [gsi-removed]"));
	ck_assert(!strstr(p.out, "HEAD:design.yaml:16:7: "));
	ck_assert(strstr(p.out, "design.yaml:46:32: error:"));
	tu_proc_free(&p);
	tu_run(&p, &at, "diff", "--against", "no-such-rev", "design.yaml", NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(strstr(p.err, "unknown revision 'no-such-rev'"));
	tu_proc_free(&p);
	tu_run(&p, &at, "diff", "--against", "HEAD", "untracked.yaml", NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(strstr(p.err, "'untracked.yaml' is not under git"));
	tu_proc_free(&p);
	/* Added to the index since HEAD: nothing deployed, nothing to break. */
	strbuf add = STRBUF_INIT;
	ddbc_strbuf_addf(&add, "cd '%s' && cp untracked.yaml added.yaml && git add added.yaml", dir);
	ck_assert_int_eq(system(ddbc_strbuf_str(&add)), 0);
	ddbc_strbuf_release(&add);
	/* One line for the design, not a note per table, entity and pattern. */
	tu_run(&p, &at, "diff", "--against", "HEAD", "added.yaml", NULL);
	ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
	ck_assert_str_eq(p.out, "added.yaml: new since HEAD: 1 table, 2 entities, 2 access "
			 "patterns added (--all lists them)\n");
	ck_assert_uint_eq(p.err_len, 0);
	tu_proc_free(&p);
	/* --all lists them. */
	tu_run(&p, &at, "diff", "--all", "--against", "HEAD", "added.yaml", NULL);
	ck_assert_msg(p.status == 0, "exit %d: %s", p.status, p.err);
	ck_assert(strstr(p.err, "'added.yaml' is new since 'HEAD'"));
	ck_assert(strstr(p.out, "added.yaml:5:3: note: table 'shop' is added [table-added]"));
	tu_proc_free(&p);
	/* Several files, as a hook passes them: the worst status wins. */
	tu_run(&p, &at, "diff", "--against", "HEAD", "added.yaml", "design.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert(strstr(p.out, "design.yaml:46:32: error:"));
	tu_proc_free(&p);
	/* Outside any checkout. */
	tu_run(&p, NULL, "diff", "--against", "HEAD", "/dev/null", NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert(strstr(p.err, "is not in a git checkout"));
	tu_proc_free(&p);
	remove_tree(dir);
}
END_TEST

/* A removed key delimiter, TTL, billing mode or sort key are fields with
 * no part of their own left in NEW: they point at the line now in their
 * place (the next key OLD had after them), not at the design's name or the
 * table's, and say where OLD had them; without --against, the removals
 * (delimiter, TTL) are at OLD's own field. */
#define REMOVED_OLD "tests/fixtures/diff/removed-old.yaml"
#define REMOVED_NEW "tests/fixtures/diff/removed-new.yaml"
START_TEST(test_removed_fields)
{
	tu_proc p;
	tu_run(&p, NULL, "diff", "--color", "never", REMOVED_OLD, REMOVED_NEW, NULL);
	ck_assert_msg(p.status == 1, "exit %d: %s", p.status, p.err);
	ck_assert_msg(strstr(p.out, REMOVED_OLD ":4:16: error: the key delimiter changed") &&
		      strstr(p.out, REMOVED_OLD ":11:10: warning: TTL on 'expiresAt' is removed") &&
		      strstr(p.out, REMOVED_NEW ":10:5: warning: the billing mode of table 'shop'"),
		      "%s", p.out);
	tu_proc_free(&p);
	/* A sort key dropped: where it stood, not the table's name (6:3). */
	tu_run(&p, NULL, "diff", "--color", "never", "tests/fixtures/diff/removed-sk-old.yaml",
	       "tests/fixtures/diff/removed-sk-new.yaml", NULL);
	ck_assert_msg(strstr(p.out, "removed-sk-new.yaml:7:5: error: the key schema of table "
			     "'things' changed"), "%s", p.out);
	tu_proc_free(&p);
	if (system("git --version >/dev/null 2>&1") != 0)
		return;
	char *dir = git_checkout_of(REMOVED_OLD, REMOVED_NEW);
	tu_run_opts at = { .cwd = dir };
	tu_run(&p, &at, "diff", "--color", "never", "--against", "HEAD", "design.yaml", NULL);
	ck_assert_msg(p.status == 1, "exit %d: %s", p.status, p.err);
	ck_assert_msg(strstr(p.out, "design.yaml:4:1: error: the key delimiter changed") &&
		      strstr(p.out, "(it was at HEAD:design.yaml:4:16) [key-delimiter-changed]") &&
		      strstr(p.out, "design.yaml:10:5: warning: TTL on 'expiresAt' is removed") &&
		      strstr(p.out, "(it was at HEAD:design.yaml:11:10) [ttl-changed]"), "%s", p.out);
	tu_proc_free(&p);
	tu_run(&p, &at, "diff", "--format", "sarif", "--against", "HEAD", "design.yaml", NULL);
	ck_assert(strstr(p.out, "\"startLine\": 10") && !strstr(p.out, "HEAD:design.yaml\""));
	tu_proc_free(&p);
	remove_tree(dir);
	/* A whole gsi: block and the access_patterns section gone: the key in
	 * the block's place (lsi:), and the section before the last one. */
	dir = git_checkout_of(REMOVED_NEW, "tests/fixtures/diff/removed-all-new.yaml");
	at.cwd = dir;
	tu_run(&p, &at, "diff", "--color", "never", "--against", "HEAD", "design.yaml", NULL);
	ck_assert_msg(strstr(p.out, "design.yaml:10:5: warning: GSI 'GSI1' is deleted") &&
		      strstr(p.out, "design.yaml:15:1: warning: access pattern 'customer-by-email' "
			     "is removed"), "%s", p.out);
	tu_proc_free(&p);
	remove_tree(dir);
}
END_TEST

/* ---- the settings: one comparison for the findings and the plan ----------------------- */

#define SETTINGS "tests/fixtures/settings/"

static ddbc_design *checked(const char *rel, ddbc_source **src)
{
	char *path = tu_srcpath(rel);
	*src = ddbc_source_read(path);
	free(path);
	ck_assert_msg(*src, "cannot read %s", rel);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_settings none;
	ddbc_settings_init(&none);
	ddbc_design *g = ddbc_check(*src, &d, &none);
	ck_assert_msg(g && !ddbc_diags_count(&d).errors, "%s:\n%s", rel, tu_diags_dump(&d));
	ddbc_diags_release(&d);
	return g;
}

/* Every change ddbc_diff_settings lists is a finding of ddbc_diff, one
 * each (a warm throughput raised in one figure and lowered in the other
 * is two: the raise planned, the lowering refused), both ways; and a
 * design against itself, or with its tags reordered, has none. */
START_TEST(test_settings_findings)
{
	static const char *const pairs[][2] = {
		{ SETTINGS "plan-old.yaml", SETTINGS "plan-new.yaml" },
		{ SETTINGS "plan-new.yaml", SETTINGS "plan-old.yaml" },
		{ SETTINGS "plan-new.yaml", SETTINGS "plan-new.yaml" },
		{ "tests/diff/setting-changed/good.old.yaml", "tests/diff/setting-changed/good.new.yaml" },
		{ SETTINGS "mrsc-a.yaml", SETTINGS "mrsc-single.yaml" },
	};
	static const size_t want[] = { 14, 14, 0, 0, 2 };
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		ddbc_source *src[2];
		ddbc_design *g0 = checked(pairs[k][0], &src[0]), *g1 = checked(pairs[k][1], &src[1]);
		diff_settings changes = { NULL, 0, 0 };
		size_t expect = 0;
		for (size_t i = 0; i < g1->ntables; i++) {
			size_t from = changes.n;
			ddbc_diff_settings(ddbc_design_table(g0, g1->tables[i].name.s), &g1->tables[i],
					   &changes);
			for (size_t c = from; c < changes.n; c++)
				expect += 1 + (changes.v[c].kind == DIFF_SET_WARM &&
					       changes.v[c].lowered && changes.v[c].on);
		}
		ck_assert_msg(changes.n == want[k], "%s -> %s: %zu changes, want %zu",
			      pairs[k][0], pairs[k][1], changes.n, want[k]);
		ddbc_diags d;
		ddbc_diags_init(&d);
		ddbc_diff(g0, g1, NULL, &d, false);
		size_t got = 0;
		for (size_t i = 0; i < d.n; i++)
			got += d.items[i].rule == DDBC_RULE_SETTING_CHANGED ||
			       d.items[i].rule == DDBC_RULE_WARM_THROUGHPUT_LOWERED ||
			       d.items[i].rule == DDBC_RULE_PITR_DISABLED;
		ck_assert_msg(got == expect, "%s -> %s: %zu findings for %zu changes:\n%s",
			      pairs[k][0], pairs[k][1], got, expect, tu_diags_dump(&d));
		ddbc_diags_release(&d);
		ddbc_diff_settings_release(&changes);
		ddbc_design_free(g0);
		ddbc_design_free(g1);
		ddbc_source_free(src[0]);
		ddbc_source_free(src[1]);
	}
}
END_TEST

/* An MRSC table made single-Region in its own Region is no consistency
 * change (DynamoDB deletes its other replica and witness together); in
 * another Region, or from a table that is not MRSC, nothing dissolves;
 * the changes are the replica and the witness removed, and a table class
 * changed is one change of its own. */
START_TEST(test_mrsc_dissolved)
{
	ddbc_source *src[2];
	ddbc_design *g0 = checked(SETTINGS "mrsc-a.yaml", &src[0]);
	ddbc_design *g1 = checked(SETTINGS "mrsc-single.yaml", &src[1]);
	const ddbc_table *t0 = &g0->tables[0];
	ddbc_table t1 = g1->tables[0];
	ck_assert(ddbc_diff_mrsc_dissolved(t0, &t1));
	ck_assert(!ddbc_diff_consistency_changed(t0, &t1));
	ck_assert(!ddbc_diff_table_replaced(t0, &t1));
	ck_assert(!ddbc_diff_mrsc_dissolved(&t1, t0));   /* the other way makes it MRSC */
	diff_settings changes = { NULL, 0, 0 };
	ddbc_diff_settings(t0, &t1, &changes);
	ck_assert_uint_eq(changes.n, 2);
	ck_assert(changes.v[0].kind == DIFF_SET_REPLICA && !changes.v[0].on);
	ck_assert(changes.v[1].kind == DIFF_SET_WITNESS && !changes.v[1].on);
	ddbc_diff_settings_release(&changes);
	/* Left in the replica's Region instead: a new table. */
	ddbc_name elsewhere = t1.settings.replicas[0];
	elsewhere.s = "us-west-2";
	t1.settings.replicas = &elsewhere;
	ck_assert(!ddbc_diff_mrsc_dissolved(t0, &t1));
	ck_assert(ddbc_diff_consistency_changed(t0, &t1));
	/* No Region written: the table stays where it is. */
	t1.settings.nreplicas = 0;
	ck_assert(ddbc_diff_mrsc_dissolved(t0, &t1));
	/* The table class: one change, STANDARD being the default. */
	t1 = *t0;
	t1.table_class = DDBC_CLASS_STANDARD_IA;
	ddbc_diff_settings(t0, &t1, &changes);
	ck_assert_uint_eq(changes.n, 1);
	ck_assert(changes.v[0].kind == DIFF_SET_TABLE_CLASS && changes.v[0].on);
	ddbc_diff_settings_release(&changes);
	ddbc_design_free(g0);
	ddbc_design_free(g1);
	ddbc_source_free(src[0]);
	ddbc_source_free(src[1]);
}
END_TEST

/* ---- changes acknowledged in NEW ------------------------------------------------------- */

#define KT "tests/diff/key-template-changed/"
#define GR "tests/diff/gsi-removed/"

/* A key template changed on purpose, acknowledged on its line of NEW: the
 * diff passes, hides it in text (--show-suppressed shows it), marks it in
 * JSON and SARIF with the reason; lint of NEW is clean; the same change
 * without the comment, or with one naming another rule, fails. */
START_TEST(test_acknowledged)
{
	tu_proc p;
	tu_run(&p, NULL, "diff", KT "bad.old.yaml", KT "acked.new.yaml", NULL);
	ck_assert_msg(p.status == 0, "exit %d: %s%s", p.status, p.out, p.err);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_str_eq(p.err, "no changes to act on (1 acknowledged by ddbc-ignore, "
			 "--show-suppressed shows them)\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--show-suppressed", "--color", "never", KT "bad.old.yaml",
	       KT "acked.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(strstr(p.out, "acked.new.yaml:40:32: suppressed error: the key template of "
			     "'Order.SK' changed") && strstr(p.out, "-- migration PR-123"), "%s", p.out);
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--format", "json", KT "bad.old.yaml", KT "acked.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(strstr(p.out, "\"rule\":\"key-template-changed\"") &&
		      strstr(p.out, "\"suppressed\":true,\"reason\":\"migration PR-123\"") &&
		      strstr(p.out, "\"errors\":0") && strstr(p.out, "\"suppressed\":1"), "%s", p.out);
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--format", "sarif", KT "bad.old.yaml", KT "acked.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(strstr(p.out, "\"kind\": \"inSource\"") &&
		      strstr(p.out, "\"justification\": \"migration PR-123\""), "%s", p.out);
	tu_proc_free(&p);
	/* The plan still carries the change out. */
	tu_run(&p, NULL, "diff", "--format", "plan", KT "bad.old.yaml", KT "acked.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert(strstr(p.out, "\"action\": \"rewrite-keys\""));
	tu_proc_free(&p);
	/* Lint knows the diff rule: the comment is no unused suppression. */
	tu_run(&p, NULL, "lint", KT "acked.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(!strstr(p.out, "unused-suppression"), "%s", p.out);
	tu_proc_free(&p);
	/* Unacknowledged, or acknowledged for another rule: it fails. */
	tu_run(&p, NULL, "diff", KT "bad.old.yaml", KT "bad.new.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--format", "json", KT "bad.old.yaml", KT "other.new.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(!strstr(p.out, "\"suppressed\":true") && strstr(p.out, "\"errors\":1"), "%s",
		      p.out);
	tu_proc_free(&p);
}
END_TEST

/* A removal is acknowledged at the line of NEW that lost it (the table's
 * gsi: key), in both forms of the diff: two files (the finding in OLD) and
 * --against (the finding at that line of NEW). */
START_TEST(test_acknowledged_removal)
{
	tu_proc p;
	tu_run(&p, NULL, "diff", "--format", "json", GR "bad.old.yaml", GR "acked.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_msg(strstr(p.out, "\"rule\":\"gsi-removed\"") &&
		      strstr(p.out, "\"suppressed\":true,\"reason\":\"no caller since PR-77\""),
		      "%s", p.out);
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--werror", GR "bad.old.yaml", GR "bad.new.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_proc_free(&p);
	tu_run(&p, NULL, "diff", "--werror", GR "bad.old.yaml", GR "acked.new.yaml", NULL);
	ck_assert_int_eq(p.status, 0);
	tu_proc_free(&p);
	if (system("git --version >/dev/null 2>&1") != 0)
		return;
	char *dir = git_checkout_of(GR "bad.old.yaml", GR "acked.new.yaml");
	tu_run_opts at = { .cwd = dir };
	tu_run(&p, &at, "diff", "--werror", "--show-suppressed", "--color", "never", "--against",
	       "HEAD", "design.yaml", NULL);
	ck_assert_msg(p.status == 0, "exit %d: %s%s", p.status, p.out, p.err);
	ck_assert_msg(strstr(p.out, "design.yaml:11:5: suppressed warning: GSI 'GSI2' is deleted"),
		      "%s", p.out);
	tu_proc_free(&p);
	remove_tree(dir);
}
END_TEST

/* ---- the plan's order ------------------------------------------------------------------- */

/* A step's kind as the order test speaks of it: the operation (a GSI
 * update by its verb: Create, Delete), the action, deploy-code with its
 * change, or "run" for a deployment after a place is made. */
static void step_kind(json_t *st, strbuf *out)
{
	const char *op = json_string_value(json_object_get(st, "operation"));
	const char *action = json_string_value(json_object_get(st, "action"));
	json_t *updates = json_object_get(json_object_get(st, "input"), "GlobalSecondaryIndexUpdates");
	if (op && !strcmp(op, "UpdateTable") && json_array_size(updates)) {
		const char *verb = json_object_iter_key(json_object_iter(json_array_get(updates, 0)));
		ddbc_strbuf_addstr(out, verb);
	} else {
		ddbc_strbuf_addstr(out, op ? op : action);
	}
	const char *change = json_string_value(json_object_get(st, "change"));
	if (change)
		ddbc_strbuf_addf(out, ":%s", change);
	else if (action && !strcmp(action, "deploy-code"))
		ddbc_strbuf_addstr(out, json_array_size(json_object_get(st, "runs")) &&
			      !json_array_size(json_object_get(st, "stops")) ? ":runs" : ":stops");
}

/* Whether step st (numbered from 1 in plan) needs a step of kind. */
static bool needs_kind(json_t *plan, json_t *st, const char *kind)
{
	size_t i;
	json_t *n;
	json_array_foreach(json_object_get(st, "needs"), i, n) {
		strbuf k = STRBUF_INIT;
		step_kind(json_array_get(plan, (size_t)json_integer_value(n) - 1), &k);
		bool hit = !strncmp(ddbc_strbuf_str(&k), kind, strlen(kind));
		ddbc_strbuf_release(&k);
		if (hit)
			return true;
	}
	return false;
}

/* What each change class's plan does, in order (a subsequence of its
 * steps' kinds): the code stops using what goes before it goes, runs
 * what is made after it is made; a key rewrite stands in its window. */
static const struct {
	const char *id, *order;
} plan_orders[] = {
	{ "gsi-removed", "deploy-code:stops Delete" },
	{ "gsi-changed", "deploy-code:stops Delete Create deploy-code:runs" },
	{ "projection-narrowed", "deploy-code:stops Delete Create deploy-code:runs" },
	{ "table-removed", "deploy-code:stops delete-table" },
	{ "table-key-changed", "deploy-code:stops replace-table deploy-code:runs" },
	{ "lsi-changed", "deploy-code:stops replace-table deploy-code:runs" },
	{ "entity-removed", "deploy-code:stops delete-items" },
	{ "attribute-removed", "deploy-code:stops remove-attribute" },
	{ "pattern-removed", "deploy-code:stops" },
	{ "pattern-moved", "deploy-code:runs" },
	{ "key-template-changed", "deploy-code:write-both-shapes rewrite-keys "
	  "deploy-code:read-new-shape deploy-code:write-new-shape-only" },
	{ "index-key-template-changed", "rewrite-attribute" },
	{ "attribute-type-changed", "convert-type" },
	{ "attribute-required", "backfill" },
	{ "ttl-changed", "UpdateTimeToLive backfill-ttl wait UpdateTimeToLive" },
	{ "gsi-added", "Create" },
	{ "key-delimiter-changed", "rewrite-delimiter" },
	{ "gsi-several", "Create Create" },
	{ "enum-value-removed", "rewrite-values" },
	{ "table-added", "CreateTable UpdateTimeToLive" },
	{ "billing-changed", "Update" },
	{ "consistency-changed", "deploy-code:stops replace-table deploy-code:runs" },
	{ "pitr-disabled", "UpdateContinuousBackups" },
};

/* The order plan_orders gives class id, or "" (a class whose plan has no
 * step, or whose steps' order matters to no other). */
static const char *plan_order(const char *id)
{
	for (size_t c = 0; c < sizeof(plan_orders) / sizeof(plan_orders[0]); c++)
		if (!strcmp(plan_orders[c].id, id))
			return plan_orders[c].order;
	return "";
}

/* The rules every plan keeps: numbered in order, needs before; whatever
 * removes what code may use needs a deployment that stops it; a run
 * deployment needs what makes its place; an item step names the
 * migrate command with its own number. */
static void check_plan_rules(const char *id, json_t *plan, const char *old, const char *new)
{
	size_t i;
	json_t *st;
	json_array_foreach(plan, i, st) {
		ck_assert_int_eq(json_integer_value(json_object_get(st, "step")), (json_int_t)i + 1);
		strbuf k = STRBUF_INIT;
		step_kind(st, &k);
		const char *kind = ddbc_strbuf_str(&k);
		if (!strcmp(kind, "Delete") || !strcmp(kind, "delete-table") ||
		    !strcmp(kind, "delete-items") || !strcmp(kind, "remove-attribute") ||
		    !strcmp(kind, "replace-table"))
			ck_assert_msg(needs_kind(plan, st, "deploy-code"), "%s: step %zu (%s) needs "
				      "no deployment of the code", id, i + 1, kind);
		if (!strcmp(kind, "deploy-code:runs") && strstr(json_string_value(json_object_get(st,
				"manual")), "now that it exists"))
			ck_assert_msg(needs_kind(plan, st, "Create") || needs_kind(plan, st,
				      "CreateTable") || needs_kind(plan, st, "replace-table"),
				      "%s: step %zu runs patterns before their place exists", id, i + 1);
		if (!strcmp(kind, "rewrite-keys"))
			ck_assert_msg(needs_kind(plan, st, "deploy-code:write-both-shapes"), "%s: step "
				      "%zu migrates keys outside a dual-write window", id, i + 1);
		if (!strcmp(kind, "deploy-code:read-new-shape"))
			ck_assert(needs_kind(plan, st, "rewrite-keys") || needs_kind(plan, st, "backfill"));
		if (!strcmp(kind, "deploy-code:write-new-shape-only"))
			ck_assert(needs_kind(plan, st, "deploy-code:read-new-shape"));
		const char *cmd = json_string_value(json_object_get(st, "command"));
		if (!strcmp(kind, "rewrite-keys") || !strcmp(kind, "rewrite-attribute") ||
		    !strcmp(kind, "convert-type") || !strcmp(kind, "backfill-ttl") ||
		    !strcmp(kind, "rewrite-delimiter")) {
			strbuf want = STRBUF_INIT;
			ddbc_strbuf_addf(&want, "ddbc migrate %s %s --step %zu", old, new, i + 1);
			ck_assert_msg(cmd && !strcmp(cmd, ddbc_strbuf_str(&want)), "%s: step %zu: command "
				      "'%s', want '%s'", id, i + 1, cmd ? cmd : "(none)",
				      ddbc_strbuf_str(&want));
			ck_assert(strstr(json_string_value(json_object_get(st, "manual")),
					 ddbc_strbuf_str(&want)));
			ddbc_strbuf_release(&want);
		}
		ddbc_strbuf_release(&k);
	}
}

START_TEST(test_plan_order)
{
	const ddbc_rule_info *info = ddbc_rule_get((ddbc_rule)_i);
	if (info->kind != DDBC_RULE_KIND_DIFF)
		return;
	const char *id = info->id;
	char old[256], new[256];
	snprintf(old, sizeof(old), "tests/diff/%s/bad.old.yaml", id);
	snprintf(new, sizeof(new), "tests/diff/%s/bad.new.yaml", id);
	tu_proc p;
	tu_run(&p, NULL, "diff", "--format", "plan", old, new, NULL);
	json_error_t err;
	json_t *plan = json_loads(p.out, 0, &err);
	ck_assert_msg(plan && json_is_array(plan), "%s: no plan: %s", id, p.err);
	check_plan_rules(id, plan, old, new);
	/* The class's own order, as a subsequence of the steps. */
	strbuf kinds = STRBUF_INIT;
	size_t i;
	json_t *st;
	json_array_foreach(plan, i, st) {
		step_kind(st, &kinds);
		ddbc_strbuf_addch(&kinds, ' ');
	}
	const char *at = ddbc_strbuf_str(&kinds), *want = plan_order(id);
	while (*want) {
		size_t n = strcspn(want, " ");
		char kind[64];
		snprintf(kind, sizeof(kind), "%.*s ", (int)n, want);
		const char *hit = strstr(at, kind);
		ck_assert_msg(hit && (hit == ddbc_strbuf_str(&kinds) || hit[-1] == ' '),
			      "%s: expected '%s' in this order, got '%s'", id, plan_order(id),
			      ddbc_strbuf_str(&kinds));
		at = hit + strlen(kind);
		want += n + (want[n] == ' ');
	}
	ddbc_strbuf_release(&kinds);
	json_decref(plan);
	tu_proc_free(&p);
}
END_TEST

static Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("classes");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_change_class, 0, DDBC_RULE_COUNT);
	tcase_add_loop_test(tc, test_format_golden, 0, 5);
	tcase_add_test(tc, test_sparse_key);
	tcase_add_test(tc, test_statuses);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_against);
	tcase_add_test(tc, test_removed_fields);
	tcase_add_test(tc, test_settings_findings);
	tcase_add_test(tc, test_mrsc_dissolved);
	tcase_add_test(tc, test_acknowledged);
	tcase_add_test(tc, test_acknowledged_removal);
	tcase_add_loop_test(tc, test_plan_order, 0, DDBC_RULE_COUNT);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(diff_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
