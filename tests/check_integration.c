/* check_integration.c - the pre-commit hooks this repository ships
 *
 * .pre-commit-hooks.yaml must parse, define ddbc-lint and ddbc-doc, name
 * commands ddbc has, and do what it promises when pre-commit runs an
 * entry with the staged files appended: lint fails on a design with an
 * error, doc fails when the committed Markdown next to a design is stale.
 * tests/precommit.test runs the doc hook with options as its args.
 */
#include "input/compose.h"
#include "testutil.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static ddbc_arena *arena;
static ddbc_node *hooks;

static void setup(void)
{
	char *path = tu_srcpath(".pre-commit-hooks.yaml");
	ddbc_source *src = ddbc_source_read(path);
	ck_assert_msg(src != NULL, "cannot read %s", path);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_diags_begin(&d, src);
	arena = ddbc_arena_new();
	hooks = ddbc_yaml_load(arena, src, &d);
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(hooks && d.n == 0, "%s does not parse:\n%s", path, dump);
	free(dump);
	ddbc_diags_release(&d);
	/* The nodes live in the arena; the source is no longer needed. */
	ddbc_source_free(src);
	free(path);
	/* Hooks find the ddbc under test first on PATH. */
	char *old = getenv("PATH");
	size_t n = strlen(TEST_BUILDDIR) + (old ? strlen(old) : 0) + 2;
	char *p = malloc(n);
	snprintf(p, n, "%s:%s", TEST_BUILDDIR, old ? old : "/usr/bin:/bin");
	setenv("PATH", p, 1);
	free(p);
}

static void teardown(void)
{
	ddbc_arena_free(arena);
}

static const ddbc_node *hook(const char *id)
{
	ck_assert_int_eq(hooks->kind, DDBC_NODE_SEQ);
	for (size_t i = 0; i < hooks->n; i++) {
		const ddbc_node *h = hooks->u.items[i];
		const ddbc_node *v = ddbc_node_get(h, "id");
		if (v && !strcmp(v->u.text, id))
			return h;
	}
	ck_abort_msg("no hook '%s' in .pre-commit-hooks.yaml", id);
	return NULL;
}

static const char *field(const ddbc_node *h, const char *key)
{
	const ddbc_node *v = ddbc_node_get(h, key);
	ck_assert_msg(v && v->kind == DDBC_NODE_SCALAR, "hook lacks '%s'", key);
	return v->u.text;
}

/* Runs a hook's entry as pre-commit does: through a shell, with the files
 * appended as arguments (quoted here, none has a quote); a script's entry
 * is a path in this repository. Returns the exit status. */
static int run_hook(const ddbc_node *h, const char *cwd, const char *files)
{
	char cmd[4096];
	bool script = !strcmp(field(h, "language"), "script");
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s%s%s %s >/dev/null 2>&1", cwd,
		 script ? TEST_SRCDIR : "", script ? "/" : "", field(h, "entry"), files);
	int status = system(cmd);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

START_TEST(test_hooks_are_well_formed)
{
	static const char *const ids[] = { "ddbc-lint", "ddbc-doc" };
	/* ddbc-doc is a script of this repository: it sorts ddbc's options
	 * (the hook's args) from the staged designs. */
	static const char *const languages[] = { "system", "script" };
	for (size_t i = 0; i < 2; i++) {
		const ddbc_node *h = hook(ids[i]);
		ck_assert_str_eq(field(h, "language"), languages[i]);
		ck_assert_str_eq(field(h, "files"), "\\.ddb\\.ya?ml$");
		field(h, "name");
	}
	ck_assert_str_eq(field(hook("ddbc-lint"), "entry"), "ddbc lint");
	ck_assert_str_eq(field(hook("ddbc-doc"), "entry"), "hooks/ddbc-doc");
	/* The commands they name exist. */
	ck_assert_int_eq(system("ddbc lint --help >/dev/null"), 0);
	ck_assert_int_eq(system("ddbc doc --help >/dev/null"), 0);
}
END_TEST

START_TEST(test_lint_hook)
{
	const ddbc_node *h = hook("ddbc-lint");
	ck_assert_int_eq(run_hook(h, TEST_SRCDIR, "samples/todo.ddb.yaml samples/ecommerce.ddb.yaml"), 0);
	ck_assert_int_eq(run_hook(h, TEST_SRCDIR, "samples/todo.ddb.yaml tests/rules/key-overlap/bad.yaml"), 1);
}
END_TEST

START_TEST(test_doc_hook)
{
	const ddbc_node *h = hook("ddbc-doc");
	char dir[] = "/tmp/ddbc-hook-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "cp '%s/samples/todo.ddb.yaml' '%s/app.ddb.yaml'", TEST_SRCDIR,
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	/* No committed doc yet: stale. */
	ck_assert_int_eq(run_hook(h, dir, "app.ddb.yaml"), 1);
	snprintf(cmd, sizeof(cmd), "cd '%s' && ddbc doc -o app.md app.ddb.yaml 2>/dev/null", dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(run_hook(h, dir, "app.ddb.yaml"), 0);
	/* The design changes, the doc does not. */
	snprintf(cmd, sizeof(cmd), "cd '%s' && sed -i 's/Todo/Task/' app.ddb.yaml", dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(run_hook(h, dir, "app.ddb.yaml"), 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

static Suite *integration_suite(void)
{
	Suite *s = suite_create("integration");
	TCase *tc = tcase_create("pre-commit");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_hooks_are_well_formed);
	tcase_add_test(tc, test_lint_hook);
	tcase_add_test(tc, test_doc_hook);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(integration_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
