/* check_cli.c - the ddbc binary: options, exit status, output (README.md, docs/ddbc.1.in)
 *
 * Runs TEST_BUILDDIR/ddbc from the source tree, so fixture paths and the
 * file names in the output are relative: tests/fixtures/NAME.
 * `ddbc lint` on lint-bad.ddb.yaml is compared with
 * tests/golden/lint/FORMAT.out (DDBC_UPDATE_GOLDEN=1 rewrites them).
 */
#include "testutil.h"

#include "config.h"
#include "util/error.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define FIXTURE(name) "tests/fixtures/" name
#define CLEAN FIXTURE("clean.ddb.yaml")
#define BAD FIXTURE("lint-bad.ddb.yaml")

/* Asserts the exit status, showing what the run printed when it is wrong. */
#define expect_status(p, want)                                                             \
	ck_assert_msg((p)->status == (want),                                               \
		      "exit status %d, expected %d\n--- stdout\n%s--- stderr\n%s",         \
		      (p)->status, (want), (p)->out, (p)->err)

/* A usage error: status 2, nothing on stdout, the message on stderr. */
#define expect_usage_error(p, msg)                                                         \
	do {                                                                               \
		expect_status((p), 2);                                                     \
		ck_assert_uint_eq((p)->out_len, 0);                                        \
		ck_assert_msg(strstr((p)->err, (msg)) != NULL,                             \
			      "stderr lacks \"%s\":\n%s", (msg), (p)->err);                \
	} while (0)

/* ---- help and version ----------------------------------------------------------- */

START_TEST(test_help)
{
	static const char *const spellings[] = { "--help", "-h", "help" };
	for (int i = 0; i < 3; i++) {
		tu_proc p;
		tu_run(&p, NULL, spellings[i], NULL);
		expect_status(&p, 0);
		ck_assert(strncmp(p.out, "usage: ddbc COMMAND", 19) == 0);
		ck_assert(strstr(p.out, "  lint ") != NULL);
		ck_assert_uint_eq(p.err_len, 0);
		tu_proc_free(&p);
	}
}
END_TEST

START_TEST(test_version)
{
	tu_proc p;
	tu_run(&p, NULL, "--version", NULL);
	expect_status(&p, 0);
	ck_assert_str_eq(p.out, "ddbc " PACKAGE_VERSION "\n");
	ck_assert_uint_eq(p.err_len, 0);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_lint_help)
{
	static const char *const spellings[] = { "--help", "-h" };
	for (int i = 0; i < 2; i++) {
		tu_proc p;
		/* Help wins over the options and files that follow it. */
		tu_run(&p, NULL, "lint", spellings[i], "--format", "json", BAD, NULL);
		expect_status(&p, 0);
		ck_assert(strncmp(p.out, "usage: ddbc lint [OPTIONS] FILE...", 34) == 0);
		ck_assert(strstr(p.out, "--format FMT") != NULL);
		ck_assert(strstr(p.out, "--werror") != NULL);
		ck_assert(strstr(p.out, "[schema]") == NULL);
		ck_assert_uint_eq(p.err_len, 0);
		tu_proc_free(&p);
	}
}
END_TEST

/* ---- usage errors ------------------------------------------------------------------ */

START_TEST(test_no_command)
{
	tu_proc p;
	tu_run(&p, NULL, NULL);
	expect_usage_error(&p, "ddbc: no command given\nTry 'ddbc --help'.\n");
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_unknown_command)
{
	tu_proc p;
	tu_run(&p, NULL, "lnt", CLEAN, NULL);
	expect_usage_error(&p, "ddbc: unknown command 'lnt'; did you mean 'lint'?\n"
			       "Try 'ddbc --help'.\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "expalin", NULL);
	expect_usage_error(&p, "did you mean 'explain'?");
	tu_proc_free(&p);
	/* Nothing near: no guess. */
	tu_run(&p, NULL, "frobnicate", CLEAN, NULL);
	expect_usage_error(&p, "ddbc: unknown command 'frobnicate'\nTry 'ddbc --help'.\n");
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_bad_param)
{
	static const char *const bad[] = { "novalue", "=x" };
	for (int i = 0; i < 2; i++) {
		tu_proc p;
		tu_run(&p, NULL, "export", "--format", "queries", "--param", bad[i], CLEAN, NULL);
		expect_usage_error(&p, "ddbc export: expected --param NAME=VALUE, got '");
		expect_usage_error(&p, "\nTry 'ddbc export --help'.\n");
		tu_proc_free(&p);
	}
}
END_TEST

START_TEST(test_unknown_option)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", "--frobnicate", CLEAN, NULL);
	expect_usage_error(&p, "ddbc lint: ");
	expect_usage_error(&p, "'--frobnicate'");
	expect_usage_error(&p, "\nTry 'ddbc lint --help'.\n");
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "-x", CLEAN, NULL);
	expect_usage_error(&p, "'-x'");
	tu_proc_free(&p);

	/* An option that needs a value and has none. */
	tu_run(&p, NULL, "lint", "--format", NULL);
	expect_usage_error(&p, "ddbc lint: option '--format' needs a value\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "doc", CLEAN, "-o", NULL);
	expect_usage_error(&p, "ddbc doc: option '-o' needs a value\nTry 'ddbc doc --help'.\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "export", "--output", NULL);
	expect_usage_error(&p, "ddbc export: option '--output' needs a value\n");
	tu_proc_free(&p);
	/* A flag given a value, and a misspelt option. */
	tu_run(&p, NULL, "lint", "--werror=yes", CLEAN, NULL);
	expect_usage_error(&p, "ddbc lint: option '--werror' takes no value\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "lint", "--fromat=json", CLEAN, NULL);
	expect_usage_error(&p, "ddbc lint: unknown option '--fromat'; did you mean '--format'?\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "lint", "-x", CLEAN, NULL);
	expect_usage_error(&p, "ddbc lint: unknown option '-x'\n");
	tu_proc_free(&p);
}
END_TEST

/* Every command's help fits 80 columns, and every command that prints
 * findings documents --color. */
START_TEST(test_help_fits)
{
	static const char *const cmds[] = { "lint", "doc", "header", "export", "check-items",
					    "diff", "explain", NULL };
	for (int i = 0; i <= 7; i++) {
		tu_proc p;
		if (cmds[i])
			tu_run(&p, NULL, cmds[i], "--help", NULL);
		else
			tu_run(&p, NULL, "--help", NULL);
		expect_status(&p, 0);
		const char *line = p.out;
		while (*line) {
			size_t len = strcspn(line, "\n");
			/* Only a path stands alone on a longer line: the installed
			 * docs folder is as long as the machine makes it. */
			bool path = len > 3 && !strncmp(line, "  /", 3) &&
				    strcspn(line + 2, " \n") == len - 2;
			ck_assert_msg(len <= 80 || path, "%s --help: a line of %zu columns: %.*s",
				      cmds[i] ? cmds[i] : "ddbc", len, (int)len, line);
			line += len + (line[len] == '\n');
		}
		if (cmds[i] && strcmp(cmds[i], "explain") != 0)
			ck_assert_msg(strstr(p.out, "--color WHEN") != NULL, "%s --help lacks --color",
				      cmds[i]);
		/* The docs folder, as long as the install makes it, on a line alone. */
		if (cmds[i] && !strcmp(cmds[i], "check-items"))
			ck_assert(strstr(p.out, "\n  " DDBC_DOCDIR "\n") != NULL);
		tu_proc_free(&p);
	}
}
END_TEST

/* On a terminal, text lint ends with one line that sums the findings up;
 * a pipe gets the findings alone. */
START_TEST(test_lint_summary)
{
	tu_run_opts o = { .tty = true, .no_color = "1" };
	tu_proc p;
	tu_run(&p, &o, "lint", BAD, CLEAN, NULL);
	expect_status(&p, 1);
	/* The last line (a terminal may end lines with "\r\n"). */
	const char *last = p.out + p.out_len;
	while (last > p.out && (last[-1] == '\n' || last[-1] == '\r'))
		last--;
	while (last > p.out && last[-1] != '\n')
		last--;
	ck_assert_msg(strncmp(last, "2 files: 2 errors, 1 warning, 1 note", 36) == 0,
		      "no summary line last:\n%s", p.out);
	tu_proc_free(&p);
	tu_run(&p, &o, "lint", CLEAN, NULL);
	expect_status(&p, 0);
	ck_assert_msg(tu_contains(p.out, p.out_len, "1 file: no findings"), "%s", p.out);
	tu_proc_free(&p);
	/* A pipe gets the findings alone; the summary goes to stderr, for the
	 * log of a hook or a CI job. */
	tu_run(&p, NULL, "lint", BAD, NULL);
	ck_assert(!tu_contains(p.out, p.out_len, "1 file: "));
	ck_assert_str_eq(p.err, "1 file: 2 errors, 1 warning, 1 note\n");
	tu_proc_free(&p);
	/* --quiet and --min-severity hide findings, not the count. */
	tu_run(&p, NULL, "lint", "--quiet", BAD, NULL);
	expect_status(&p, 1);
	ck_assert(!tu_contains(p.out, p.out_len, ": note: "));
	ck_assert(tu_contains(p.out, p.out_len, ": warning: "));
	ck_assert_str_eq(p.err, "1 file: 2 errors, 1 warning, 1 note; 1 below --min-severity not "
				"shown\n");
	tu_proc_free(&p);
	tu_run(&p, NULL, "lint", "--min-severity", "error", "--format", "json", BAD, NULL);
	expect_status(&p, 1);
	ck_assert(!tu_contains(p.out, p.out_len, "\"warning\""));
	ck_assert(tu_contains(p.out, p.out_len, "\"errors\":2,"));
	tu_proc_free(&p);
	tu_run(&p, NULL, "lint", "--min-severity", "notice", BAD, NULL);
	expect_usage_error(&p, "unknown --min-severity 'notice'; did you mean 'note'? "
				   "(note, warning, error)");
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_bad_format)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", "--format", "xml", CLEAN, NULL);
	expect_usage_error(&p, "ddbc lint: unknown format 'xml'; use ");
	expect_usage_error(&p, "sarif");
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--format=JSON", CLEAN, NULL);
	expect_usage_error(&p, "unknown format 'JSON'");
	tu_proc_free(&p);
}
END_TEST

/* A mistyped word gets the word likely meant: a typo, or a name written
 * out that the format abbreviates (and the other way round). */
START_TEST(test_format_meant)
{
	static const struct {
		const char *cmd, *opt, *arg, *msg;
	} cases[] = {
		{ "lint", "--format", "jsn", "ddbc lint: unknown format 'jsn'; did you mean 'json'?" },
		{ "doc", "--format", "markdown", "unknown format 'markdown'; did you mean 'md'?" },
		{ "export", "--format", "create_table",
		  "unknown format 'create_table'; did you mean 'create-table'?" },
		{ "export", "--format", "cfn", "did you mean 'cloudformation'?" },
		{ "import", "--from", "describe", "unknown source 'describe'; did you mean "
		  "'describe-table'?" },
		{ "export", "--format", "xml", "unknown format 'xml'; use create-table, model," },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tu_proc p;
		tu_run(&p, NULL, cases[i].cmd, cases[i].opt, cases[i].arg, CLEAN, NULL);
		expect_usage_error(&p, cases[i].msg);
		tu_proc_free(&p);
	}
}
END_TEST

/* --list-formats, --list-sources and --list-langs print the tables the
 * options read: every word the option takes, with what it means, one a
 * line. */
START_TEST(test_list_words)
{
	static const struct {
		const char *cmd, *opt, *words;
	} cases[] = {
		{ "export", "--list-formats", "create-table model queries cloudformation terraform "
		  "workbench electrodb dynamodb-toolbox onetable " },
		{ "doc", "--list-formats", "md html " },
		{ "lint", "--list-formats", "text json sarif github " },
		{ "import", "--list-sources", "workbench cloudformation describe-table mcp onetable electrodb dynamodb-toolbox " },
		{ "doc", "--list-langs", "en ja " },
		{ "keys", "--list-langs", "ts python go " },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tu_proc p;
		tu_run(&p, NULL, cases[i].cmd, cases[i].opt, NULL);
		expect_status(&p, 0);
		strbuf got = STRBUF_INIT;
		for (const char *l = p.out; *l; l = strchr(l, '\n') + 1) {
			size_t n = strcspn(l, " \n");
			ck_assert_msg(l[n] == ' ', "no help after '%.*s':\n%s", (int)n, l, p.out);
			ddbc_strbuf_add(&got, l, n);
			ddbc_strbuf_addch(&got, ' ');
		}
		ck_assert_str_eq(ddbc_strbuf_str(&got), cases[i].words);
		ddbc_strbuf_release(&got);
		tu_proc_free(&p);
	}
	tu_proc p;
	tu_run(&p, NULL, "header", "--list-formats", NULL);
	expect_usage_error(&p, "unknown option '--list-formats'");
	tu_proc_free(&p);
	tu_run(&p, NULL, "header", "--list-langs", NULL);
	expect_usage_error(&p, "unknown option '--list-langs'");
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_bad_rule)
{
	static const struct {
		const char *arg, *msg;
	} cases[] = {
		{ "schema", "ddbc lint: expected RULE=off|note|warning|error, got 'schema'" },
		{ "schema=loud", "ddbc lint: unknown severity 'loud' for rule 'schema'" },
		{ "shcema=off", "ddbc lint: unknown rule 'shcema'; did you mean 'schema'?" },
		{ "yaml-syntax=off", "ddbc lint: the severity of rule 'yaml-syntax' cannot be changed" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		tu_proc p;
		tu_run(&p, NULL, "lint", "--rule", cases[i].arg, BAD, NULL);
		expect_usage_error(&p, cases[i].msg);
		tu_proc_free(&p);
	}
}
END_TEST

START_TEST(test_bad_color)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", "--color=sometimes", CLEAN, NULL);
	expect_usage_error(&p, "ddbc lint: unknown --color 'sometimes'; use ");
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_no_files)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", NULL);
	expect_usage_error(&p, "ddbc lint: no design file given\nTry 'ddbc lint --help'.\n");
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--werror", "--format", "json", NULL);
	expect_usage_error(&p, "no design file given");
	tu_proc_free(&p);
}
END_TEST

/* ---- exit status ------------------------------------------------------------------------ */

START_TEST(test_clean)
{
	/* Nothing to say: no findings, and into a pipe the summary on stderr,
	 * for the log of a hook or a CI job. */
	tu_proc p;
	tu_run(&p, NULL, "lint", CLEAN, NULL);
	expect_status(&p, 0);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_str_eq(p.err, "1 file: no findings\n");
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--format", "github", "--werror", CLEAN, NULL);
	expect_status(&p, 0);
	ck_assert_uint_eq(p.out_len, 0);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--format", "json", CLEAN, NULL);
	expect_status(&p, 0);
	ck_assert_str_eq(p.out, "{\"diagnostics\":[],\"summary\":{\"files\":1,\"errors\":0,"
				"\"warnings\":0,\"notes\":0,\"suppressed\":0}}\n");
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_errors_exit_1)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", BAD, NULL);
	expect_status(&p, 1);
	ck_assert(strstr(p.out, BAD ":15:5: error: unknown field 'biling'") != NULL);
	ck_assert(strncmp(p.err, "1 file: ", 8) == 0 && strchr(p.err, '\n') == p.err + p.err_len - 1);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_rule_option_changes_status)
{
	/* Turning the errors down (CLI over the design) changes the status. */
	tu_proc p;
	tu_run(&p, NULL, "lint", "--rule", "schema=warning", BAD, NULL);
	expect_status(&p, 0);
	ck_assert(strstr(p.out, ":15:5: warning: unknown field 'biling'") != NULL);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--rule", "schema=off", "--rule", "duplicate-key=off",
	       "--rule", "unresolved-reference=off", BAD, NULL);
	expect_status(&p, 0);
	ck_assert_uint_eq(p.out_len, 0);
	tu_proc_free(&p);

	/* The design makes duplicate-key a warning; the command line wins. */
	tu_run(&p, NULL, "lint", "--rule", "schema=off", "--rule", "duplicate-key=error", BAD, NULL);
	expect_status(&p, 1);
	ck_assert(strstr(p.out, ":26:7: error: duplicate key 'orderId'") != NULL);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_unreadable_file)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", FIXTURE("does-not-exist.yaml"), NULL);
	expect_status(&p, 2);
	ck_assert_str_eq(p.err, "ddbc: cannot read 'tests/fixtures/does-not-exist.yaml': "
				"No such file or directory\n");
	ck_assert_uint_eq(p.out_len, 0);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "tests/fixtures", NULL);
	expect_status(&p, 2);
	ck_assert(strstr(p.err, "ddbc: cannot read 'tests/fixtures': ") != NULL);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_fatal_yaml)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", FIXTURE("fatal-yaml.ddb.yaml"), NULL);
	expect_status(&p, 2);
	ck_assert(strstr(p.out, "tests/fixtures/fatal-yaml.ddb.yaml:3:7: error: did not find "
				"expected ',' or ']'") != NULL);
	ck_assert(strstr(p.out, "[yaml-syntax]") != NULL);
	tu_proc_free(&p);

	/* Not a mapping: a schema finding, but the file is no design either. */
	tu_run(&p, NULL, "lint", FIXTURE("top-level-list.ddb.yaml"), NULL);
	expect_status(&p, 2);
	ck_assert(strstr(p.out, "top-level-list.ddb.yaml:2:1: error: the design must be a mapping "
				"(starting with 'ddbc: 1'), not a sequence [schema]") != NULL);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_werror)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", "--rule", "schema=warning", FIXTURE("warning-only.ddb.yaml"), NULL);
	expect_status(&p, 0);
	ck_assert(strstr(p.out, ":9:5: warning: unknown field 'colour' in a table [schema]") != NULL);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--werror", "--rule", "schema=warning",
	       FIXTURE("warning-only.ddb.yaml"), NULL);
	expect_status(&p, 1);
	tu_proc_free(&p);

	/* Notes never fail a run. */
	tu_run(&p, NULL, "lint", "--werror", "--rule", "schema=note",
	       FIXTURE("warning-only.ddb.yaml"), NULL);
	expect_status(&p, 0);
	ck_assert(strstr(p.out, ": note: unknown field 'colour'") != NULL);
	tu_proc_free(&p);

	/* --werror on a clean design changes nothing. */
	tu_run(&p, NULL, "lint", "--werror", CLEAN, NULL);
	expect_status(&p, 0);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_werror_missing_description)
{
	/* A design without descriptions: clean by default, warnings when
	 * missing-description is asked for, a failure with --werror. */
	const char *design = FIXTURE("no-description.ddb.yaml");
	tu_proc p;
	tu_run(&p, NULL, "lint", "--werror", design, NULL);
	expect_status(&p, 0);
	ck_assert_uint_eq(p.out_len, 0);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--rule", "missing-description=warning", design, NULL);
	expect_status(&p, 0);
	ck_assert(strstr(p.out, ": warning: ") != NULL);
	ck_assert(strstr(p.out, "[missing-description]") != NULL);
	ck_assert(strstr(p.out, ": error: ") == NULL);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", "--werror", "--rule", "missing-description=warning", design, NULL);
	expect_status(&p, 1);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_several_files)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", "--format", "json", CLEAN, BAD, FIXTURE("warning-only.ddb.yaml"),
	       NULL);
	expect_status(&p, 1);
	json_error_t err;
	json_t *root = json_loadb(p.out, p.out_len, 0, &err);
	ck_assert_ptr_nonnull(root);
	json_t *summary = json_object_get(root, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "files")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "errors")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "warnings")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "notes")), 1);
	/* Findings come file by file, in the order given. */
	json_t *list = json_object_get(root, "diagnostics");
	ck_assert_uint_eq(json_array_size(list), 5);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(list, 0), "file")), BAD);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(list, 4), "file")),
			 FIXTURE("warning-only.ddb.yaml"));
	json_decref(root);
	tu_proc_free(&p);

	/* Each design's lint.rules stay its own: warning-only's schema
	 * finding is an error, whatever lint-bad says. */
	tu_run(&p, NULL, "lint", BAD, FIXTURE("warning-only.ddb.yaml"), NULL);
	ck_assert(strstr(p.out, "warning-only.ddb.yaml:9:5: error:") != NULL);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_several_files_status)
{
	/* The worst file decides: a clean and a bad file fail with 1; an
	 * unreadable or fatal one makes it 2, and the others are still linted. */
	tu_proc p;
	tu_run(&p, NULL, "lint", CLEAN, CLEAN, NULL);
	expect_status(&p, 0);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", CLEAN, BAD, NULL);
	expect_status(&p, 1);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", FIXTURE("missing.yaml"), BAD, NULL);
	expect_status(&p, 2);
	ck_assert(strstr(p.err, "cannot read 'tests/fixtures/missing.yaml'") != NULL);
	ck_assert(strstr(p.out, BAD ":15:5:") != NULL);
	tu_proc_free(&p);

	tu_run(&p, NULL, "lint", BAD, FIXTURE("fatal-yaml.ddb.yaml"), CLEAN, NULL);
	expect_status(&p, 2);
	ck_assert(strstr(p.out, BAD ":15:5:") != NULL);
	ck_assert(strstr(p.out, "fatal-yaml.ddb.yaml:3:7:") != NULL);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_samples)
{
	/* Every sample is a valid design: nothing at error level. */
	tu_proc p;
	tu_run(&p, NULL, "lint", "samples/assessment-multi.ddb.yaml",
	       "samples/assessment-single.ddb.yaml", "samples/ecommerce.ddb.yaml",
	       "samples/stamp-rally.ddb.yaml", "samples/todo.ddb.yaml", NULL);
	expect_status(&p, 0);
	ck_assert(strstr(p.out, ": error:") == NULL);
	ck_assert(strncmp(p.err, "5 files: 0 errors, 0 warnings, ", 31) == 0);
	tu_proc_free(&p);
}
END_TEST

/* A file of several megabytes is mapped and its pages are given back as
 * it is parsed; findings at its start and end still quote their lines. */
START_TEST(test_large_file_quotes)
{
	/* An absolute path: ddbc runs in the source directory. */
	char path[] = "/tmp/ddbc-check-cli-XXXXXX.ddb.yaml";
	int fd = mkstemps(path, 9);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs("ddbc: 1\nname: large\nbogus_top: 1\ntables:\n  tbl:\n    partition_key: PK\n"
	      "entities:\n", f);
	for (int i = 0; i < 20000; i++)
		fprintf(f, "  Entity%05d:\n    attributes:\n      PK: { type: S, template: "
			   "\"E%05d#{id}\", description: A key long enough to fill the file }\n"
			   "      id: S\n", i, i);
	fputs("  Last:\n    attributes:\n      PK: { type: Strng }\n", f);
	long size = ftell(f);
	fclose(f);
	ck_assert_int_gt(size, 2 << 20);
	tu_proc p;
	tu_run(&p, NULL, "lint", "--rule", "key-overlap=off", path, NULL);
	remove(path);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.out, ":3:1: error: unknown field 'bogus_top' in the design") &&
			      strstr(p.out, "    3 | bogus_top: 1\n"),
		      "%s", p.out);
	ck_assert_msg(strstr(p.out, "      PK: { type: Strng }\n") &&
			      strstr(p.out, "unknown type 'Strng' for attribute 'PK'"),
		      "%s", p.out);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_stdin)
{
	tu_run_opts o = { .stdin_file = BAD };
	tu_proc p;
	tu_run(&p, &o, "lint", "-", NULL);
	expect_status(&p, 1);
	ck_assert(strncmp(p.out, "-:15:5: error: unknown field 'biling'", 37) == 0);
	tu_proc_free(&p);
}
END_TEST

/* ---- suppressions ------------------------------------------------------------------------ */

#define SUPPRESSED FIXTURE("suppressions.ddb.yaml")

START_TEST(test_suppressed_status)
{
	/* Its only error and warning are suppressed: lint passes, even with
	 * --werror; the unused suppressions are notes. */
	tu_proc p;
	tu_run(&p, NULL, "lint", "--werror", SUPPRESSED, NULL);
	expect_status(&p, 0);
	ck_assert(strstr(p.out, "[unused-suppression]") != NULL);
	ck_assert(strstr(p.out, "[key-overlap]") == NULL);
	tu_proc_free(&p);
	/* They count again as what they are once unused-suppression is an error. */
	tu_run(&p, NULL, "lint", "--rule", "unused-suppression=error", SUPPRESSED, NULL);
	expect_status(&p, 1);
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_suppressed_every_command)
{
	/* Every command that checks the design honours the comments, and
	 * --show-suppressed prints what they hide (at the severities it
	 * prints: no notes). */
	static const char *const cmds[][3] = {
		{ "doc", NULL }, { "header", NULL }, { "export", NULL },
		{ "export", "--format=queries" }, { "check-items", "-" },
	};
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		tu_proc p;
		if (cmds[i][1] && !strcmp(cmds[i][1], "-"))
			tu_run(&p, NULL, cmds[i][0], SUPPRESSED, "-", NULL);
		else
			tu_run(&p, NULL, cmds[i][0], SUPPRESSED, cmds[i][1], NULL);
		expect_status(&p, 0);
		ck_assert_msg(p.err_len == 0, "%s: %s", cmds[i][0], p.err);
		ck_assert(p.out_len > 0);
		tu_proc_free(&p);

		if (cmds[i][1] && !strcmp(cmds[i][1], "-"))
			tu_run(&p, NULL, cmds[i][0], "--show-suppressed", SUPPRESSED, "-", NULL);
		else
			tu_run(&p, NULL, cmds[i][0], "--show-suppressed", SUPPRESSED, cmds[i][1],
			       NULL);
		expect_status(&p, 0);
		ck_assert_msg(strstr(p.err, SUPPRESSED ":22:3: suppressed error: 'Bicycle' and "
					    "'Book'") != NULL, "%s: %s", cmds[i][0], p.err);
		ck_assert(strstr(p.err, "[key-overlap] -- ids come from one sequence\n") != NULL);
		ck_assert(strstr(p.err, SUPPRESSED ":30:16: suppressed warning: ") != NULL);
		ck_assert(strstr(p.err, "note") == NULL);
		tu_proc_free(&p);
	}
}
END_TEST

START_TEST(test_show_suppressed_help)
{
	static const char *const cmds[] = { "lint", "doc", "header", "export", "check-items" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		tu_proc p;
		tu_run(&p, NULL, cmds[i], "--help", NULL);
		expect_status(&p, 0);
		ck_assert_msg(strstr(p.out, "      --show-suppressed   also print the findings that "
					    "ddbc-ignore comments\n") != NULL, "%s", cmds[i]);
		tu_proc_free(&p);
	}
	/* explain prints no findings: no such option. */
	tu_proc p;
	tu_run(&p, NULL, "explain", "--show-suppressed", NULL);
	expect_status(&p, 2);
	tu_proc_free(&p);
}
END_TEST

/* ---- output formats ----------------------------------------------------------------------- */

static const char *const formats[] = { "text", "json", "sarif", "github" };

/* Compares `ddbc lint --format FORMAT [extra] FILE`, which must exit with
 * status, with golden. */
static void expect_lint_golden(const char *file, const char *format, const char *extra,
			       int status, const char *golden)
{
	tu_proc p;
	if (extra)
		tu_run(&p, NULL, "lint", "--format", format, extra, file, NULL);
	else
		tu_run(&p, NULL, "lint", "--format", format, file, NULL);
	expect_status(&p, status);
	/* Text's summary line goes to stderr into a pipe; no other format has one. */
	if (strcmp(format, "text"))
		ck_assert_uint_eq(p.err_len, 0);
	else
		ck_assert(strncmp(p.err, "1 file: ", 8) == 0);
	/* SARIF's rule list is check_diag's to check. */
	char *out = tu_mask_json(p.out, "rules");
	char *norm = tu_replace(out, "\"" PACKAGE_VERSION "\"", "\"@VERSION@\"");
	tu_expect_golden(golden, norm, strlen(norm));
	free(norm);
	free(out);
	tu_proc_free(&p);
}

START_TEST(test_format_golden)
{
	char golden[64];
	snprintf(golden, sizeof(golden), "tests/golden/lint/%s.out", formats[_i]);
	expect_lint_golden(BAD, formats[_i], NULL, 1, golden);
}
END_TEST

/* A design whose findings ddbc-ignore comments suppress, in every format:
 * text shows them marked with --show-suppressed, JSON and SARIF carry them
 * marked, github leaves them out; only the unused suppressions count. */
START_TEST(test_suppressions_golden)
{
	char golden[64];
	snprintf(golden, sizeof(golden), "tests/golden/lint/suppressions.%s.out", formats[_i]);
	expect_lint_golden(FIXTURE("suppressions.ddb.yaml"), formats[_i],
			   _i == 0 ? "--show-suppressed" : NULL, 0, golden);
}
END_TEST

START_TEST(test_format_default_is_text)
{
	tu_proc a, b;
	tu_run(&a, NULL, "lint", BAD, NULL);
	tu_run(&b, NULL, "lint", "--format=text", BAD, NULL);
	ck_assert_str_eq(a.out, b.out);
	tu_proc_free(&a);
	tu_proc_free(&b);
}
END_TEST

/* ---- colour ----------------------------------------------------------------------------------- */

static bool colored(const tu_proc *p)
{
	return tu_contains(p->out, p->out_len, "\033[");
}

START_TEST(test_color_not_on_a_pipe)
{
	tu_proc p;
	tu_run(&p, NULL, "lint", BAD, NULL);
	ck_assert(!colored(&p));
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_color_always)
{
	/* --color=always wins even over NO_COLOR, as an explicit request should. */
	tu_run_opts o = { .no_color = "1" };
	tu_proc p;
	tu_run(&p, &o, "lint", "--color=always", BAD, NULL);
	expect_status(&p, 1);
	ck_assert(colored(&p));
	ck_assert(tu_contains(p.out, p.out_len, "\033[1;31merror:\033[0m"));
	ck_assert(tu_contains(p.out, p.out_len, "\033[1;35mwarning:\033[0m"));
	ck_assert(tu_contains(p.out, p.out_len, "\033[1;36mnote:\033[0m"));
	tu_proc_free(&p);

	/* Colour is for text only. */
	tu_run(&p, NULL, "lint", "--color", "always", "--format", "json", BAD, NULL);
	ck_assert(!colored(&p));
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_color_on_a_terminal)
{
	tu_run_opts o = { .tty = true };
	tu_proc p;
	tu_run(&p, &o, "lint", BAD, NULL);
	expect_status(&p, 1);
	ck_assert_msg(colored(&p), "no colour on a terminal:\n%s", p.out);
	tu_proc_free(&p);

	/* NO_COLOR set to anything but the empty string turns it off. */
	o.no_color = "1";
	tu_run(&p, &o, "lint", BAD, NULL);
	expect_status(&p, 1);
	ck_assert(!colored(&p));
	ck_assert(tu_contains(p.out, p.out_len, "error: unknown field 'biling'"));
	tu_proc_free(&p);

	o.no_color = "";
	tu_run(&p, &o, "lint", BAD, NULL);
	ck_assert(colored(&p));
	tu_proc_free(&p);

	o.no_color = NULL;
	tu_run(&p, &o, "lint", "--color=never", BAD, NULL);
	ck_assert(!colored(&p));
	tu_proc_free(&p);

	tu_run(&p, &o, "lint", "--color=auto", BAD, NULL);
	ck_assert(colored(&p));
	tu_proc_free(&p);
}
END_TEST

/* ---- util/error.h: the shape of each kind of message ------------------------------- */

/* What the calls between said_begin and said_end wrote to stderr (fd 2
 * into a temporary file meanwhile); the caller frees it. */
static int said_fd = -1;
static FILE *said_file;

static void said_begin(void)
{
	fflush(stderr);
	said_file = tmpfile();
	ck_assert_ptr_nonnull(said_file);
	said_fd = dup(STDERR_FILENO);
	ck_assert_int_ge(said_fd, 0);
	ck_assert_int_ge(dup2(fileno(said_file), STDERR_FILENO), 0);
}

static char *said_end(void)
{
	fflush(stderr);
	dup2(said_fd, STDERR_FILENO);
	close(said_fd);
	long n = ftell(said_file);
	ck_assert_int_ge(n, 0);
	char *text = calloc(1, (size_t)n + 1);
	rewind(said_file);
	ck_assert_uint_eq(fread(text, 1, (size_t)n, said_file), (size_t)n);
	fclose(said_file);
	return text;
}

#define ck_said(expected, ...)                                                       \
	do {                                                                         \
		said_begin();                                                        \
		__VA_ARGS__;                                                         \
		char *said_ = said_end();                                            \
		ck_assert_str_eq(said_, (expected));                                 \
		free(said_);                                                         \
	} while (0)

START_TEST(test_message_shapes)
{
	ck_said("ddbc: cannot read 'a.yaml': No such file\n",
		ddbc_error("cannot read '%s': %s", "a.yaml", "No such file"));
	ck_said("ddbc diff: unknown revision 'v9'\n",
		ddbc_cmd_error("diff", "unknown revision '%s'", "v9"));
	ck_said("ddbc: no command\n", ddbc_cmd_error(NULL, "no command"));
	ck_said("ddbc import: t.json: table 'T': not kept: tags\n",
		ddbc_warning("import", "%s: table '%s': not kept: %s", "t.json", "T", "tags"));
	ck_said("ddbc init: wrote d.yaml\n", ddbc_info("init", "wrote %s", "d.yaml"));
	ck_said("ddbc sample: note: few items\n", ddbc_note("sample", "few items"));
	ck_said("ddbc: unknown command 'lnt'\nTry 'ddbc --help'.\n",
		ddbc_usage_error(NULL, "unknown command '%s'", "lnt"));
	ck_said("ddbc lint: unknown option '--x'\nTry 'ddbc lint --help'.\n",
		ddbc_usage_error("lint", "unknown option '%s'", "--x"));
}
END_TEST

/* Positions count from 1; a 0 leaves its part out, as check-items'
 * manifests (a line, no column) and whole-file errors need. */
START_TEST(test_message_positions)
{
	ck_said("i.json:3:7: error: expected a value\n",
		ddbc_file_error("i.json", 3, 7, "expected a value"));
	ck_said("m.json:2: error: a line\n", ddbc_file_error("m.json", 2, 0, "a line"));
	ck_said("r.json: error: not a result\n", ddbc_file_error("r.json", 0, 0, "not a result"));
	ck_said("p.jsonl:4:1: ddbc migrate: item 4 is bad\n",
		ddbc_cmd_error_at("migrate", "p.jsonl", 4, 1, "item %d is bad", 4));
	ck_said("\rverify: 2 of 9\033[K", ddbc_progress("verify: %d of %d", 2, 9));
	ck_said("\r\033[K", ddbc_progress_clear());
}
END_TEST

/* Handed-up errors: kept in order, each as it would have been said. */
START_TEST(test_message_handed_up)
{
	ddbc_err e = DDBC_ERR_INIT;
	ck_said("", ddbc_err_print(&e));
	ddbc_err_add(&e, "keys", "two things named '%s'", "getUser");
	ddbc_err_add(&e, NULL, "keys: '%s' cannot name the module", "main");
	ck_said("ddbc keys: two things named 'getUser'\n"
		"ddbc: keys: 'main' cannot name the module\n", ddbc_err_print(&e));
	ddbc_err_release(&e);
	ck_said("", ddbc_err_print(&e));
	/* A caller with no use for the reason passes none: nothing kept or said. */
	ck_said("", ddbc_err_add(NULL, "keys", "two things named '%s'", "getUser"));
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("usage");
	/* Hang guard for slow sanitizer builds; not a timing assertion. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_help);
	tcase_add_test(tc, test_version);
	tcase_add_test(tc, test_lint_help);
	tcase_add_test(tc, test_no_command);
	tcase_add_test(tc, test_unknown_command);
	tcase_add_test(tc, test_unknown_option);
	tcase_add_test(tc, test_help_fits);
	tcase_add_test(tc, test_lint_summary);
	tcase_add_test(tc, test_bad_param);
	tcase_add_test(tc, test_bad_format);
	tcase_add_test(tc, test_format_meant);
	tcase_add_test(tc, test_list_words);
	tcase_add_test(tc, test_bad_rule);
	tcase_add_test(tc, test_bad_color);
	tcase_add_test(tc, test_no_files);
	suite_add_tcase(s, tc);

	tc = tcase_create("status");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_clean);
	tcase_add_test(tc, test_errors_exit_1);
	tcase_add_test(tc, test_rule_option_changes_status);
	tcase_add_test(tc, test_unreadable_file);
	tcase_add_test(tc, test_fatal_yaml);
	tcase_add_test(tc, test_werror);
	tcase_add_test(tc, test_werror_missing_description);
	tcase_add_test(tc, test_several_files);
	tcase_add_test(tc, test_several_files_status);
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_stdin);
	tcase_add_test(tc, test_large_file_quotes);
	suite_add_tcase(s, tc);

	tc = tcase_create("suppressions");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_suppressed_status);
	tcase_add_test(tc, test_suppressed_every_command);
	tcase_add_test(tc, test_show_suppressed_help);
	suite_add_tcase(s, tc);

	tc = tcase_create("output");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_format_golden, 0, sizeof(formats) / sizeof(formats[0]));
	tcase_add_loop_test(tc, test_suppressions_golden, 0, sizeof(formats) / sizeof(formats[0]));
	tcase_add_test(tc, test_format_default_is_text);
	tcase_add_test(tc, test_color_not_on_a_pipe);
	tcase_add_test(tc, test_color_always);
	tcase_add_test(tc, test_color_on_a_terminal);
	suite_add_tcase(s, tc);

	tc = tcase_create("messages");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_message_shapes);
	tcase_add_test(tc, test_message_positions);
	tcase_add_test(tc, test_message_handed_up);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
