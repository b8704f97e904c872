/* check_diff.c - `ddbc diff`: every change class proven by a pair of designs
 *
 * For each rule of kind DIFF: docs/rules/ID.md exists and quotes the
 * diagnostic of the failing pair; tests/diff/ID/bad.{old,new}.yaml fire
 * exactly one finding of the rule, where bad.new.yaml's first line says
 * ("# expect: new|old LINE:COL"), and no other finding except of the
 * rules its "# also: ID, ..." line names; tests/diff/ID/good.{old,new}.yaml
 * give no finding at all. Either new file may hold "# args: --all" or
 * "# args: --rule RULE=SEV" lines. Then the command: its outputs against
 * golden files, its exit statuses, and --against in a git checkout.
 */
#include "diff/diff.h"
#include "rules/check.h"
#include "testutil.h"
#include "util/strbuf.h"

#include "config.h"

#include <check.h>
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
		ck_assert_msg(ddbc_settings_parse(s, arg, &err) == 0, "%s", strbuf_str(&err));
		strbuf_release(&err);
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
	ddbc_diff(p->design[0], p->design[1], &p->d, all);
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
	strbuf_addf(&want, "\n%s:%u:%u: %s: %s [%s]\n", name, g->loc.line, g->loc.column,
		    ddbc_severity_name(g->severity), g->message, id);
	ck_assert_msg(strstr(page, strbuf_str(&want)) != NULL, "%s does not quote%s", rel,
		      strbuf_str(&want));
	strbuf_release(&want);
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
	/* The plan's findings go to stderr, warnings and errors only. */
	ck_assert(!strcmp(format, "plan") ? strstr(p.err, "[key-template-changed]") &&
		  !strstr(p.err, "[gsi-added]") : p.err_len == 0);
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
	tu_run(&p, NULL, "diff", OLD, NEW, NULL);
	ck_assert(!strstr(p.out, "changes:"));
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
	strbuf_addf(&path, "%s/design.yaml", dir);
	tu_write_file(strbuf_str(&path), old, strlen(old));
	strbuf_addf(&cmd, "cd '%s' && git init -q . && git add design.yaml && git -c user.name=t "
		    "-c user.email=t@t commit -qm old && mkdir plain", dir);
	ck_assert_int_eq(system(strbuf_str(&cmd)), 0);
	tu_write_file(strbuf_str(&path), new, strlen(new));
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/untracked.yaml", dir);
	tu_write_file(strbuf_str(&path), new, strlen(new));
	strbuf_release(&cmd);
	strbuf_release(&path);
	free(old);
	free(new);
	return dir;
}

static char *git_checkout(void) { return git_checkout_of(OLD, NEW); }

static void remove_tree(char *dir)
{
	strbuf cmd = STRBUF_INIT;
	strbuf_addf(&cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(strbuf_str(&cmd)), 0);
	strbuf_release(&cmd);
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
	strbuf_addf(&add, "cd '%s' && cp untracked.yaml added.yaml && git add added.yaml", dir);
	ck_assert_int_eq(system(strbuf_str(&add)), 0);
	strbuf_release(&add);
	tu_run(&p, &at, "diff", "--against", "HEAD", "added.yaml", NULL);
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

static Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("classes");
	tcase_add_loop_test(tc, test_change_class, 0, DDBC_RULE_COUNT);
	tcase_add_loop_test(tc, test_format_golden, 0, 5);
	tcase_add_test(tc, test_sparse_key);
	tcase_add_test(tc, test_statuses);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_against);
	tcase_add_test(tc, test_removed_fields);
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
