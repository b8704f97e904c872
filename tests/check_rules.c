/* check_rules.c - every rule of the catalogue, proven by its fixtures
 *
 * For each rule id the registry holds: docs/rules/ID.md exists, and
 * tests/rules/ID/bad.yaml fires exactly one finding, of that rule, at the
 * position its first line announces ("# expect: LINE:COL"), while
 * tests/rules/ID/good.yaml gives no finding at all. A fixture may add
 * "# args: --rule RULE=SEVERITY" lines, read as the command line would.
 * A rule without its page or fixtures fails here. The change classes of
 * `ddbc diff` have pairs of designs instead, proven by check_diff.
 */
#include "rules/check.h"
#include "testutil.h"
#include "util/strbuf.h"

#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void settings_from_args(const char *text, ddbc_settings *s)
{
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
}

/* Lints the fixture as `ddbc lint` does, naming it by its path in the
 * tree as a user in the tree would; the caller releases d. */
static void lint_fixture(const char *rel, ddbc_diags *d, ddbc_source **src)
{
	char *path = tu_srcpath(rel);
	ck_assert_msg(access(path, R_OK) == 0, "missing fixture %s", rel);
	*src = ddbc_source_read(path);
	ck_assert_ptr_nonnull(*src);
	free((*src)->name);
	(*src)->name = strdup(rel);
	ddbc_settings cli;
	settings_from_args((*src)->text, &cli);
	ddbc_diags_init(d);
	ddbc_design_free(ddbc_check(*src, d, &cli));
	free(path);
}

/* The page quotes the failing example's diagnostic: it must be what ddbc
 * prints, word for word, so the documentation cannot drift. */
static void check_page_quotes(const char *id, const ddbc_diags *d)
{
	char rel[256], *buf = NULL;
	size_t len = 0;
	snprintf(rel, sizeof(rel), "docs/rules/%s.md", id);
	char *path = tu_srcpath(rel);
	char *page = tu_read_file(path, NULL);
	FILE *out = open_memstream(&buf, &len);
	ddbc_print_opts opts = { DDBC_DIAG_TEXT, false, 1, DDBC_SEV_OFF };
	ddbc_diags_print(out, d, &opts);
	fclose(out);
	buf[strcspn(buf, "\n")] = '\0';
	char needle[300];
	snprintf(needle, sizeof(needle), "\ntests/rules/%s/bad.yaml:", id);
	const char *quote = strstr(page, needle);
	ck_assert_msg(quote != NULL, "%s quotes no diagnostic of its failing example", rel);
	quote++;
	ck_assert_msg(!strncmp(quote, buf, strlen(buf)) && quote[strlen(buf)] == '\n',
		      "%s quotes\n  %.*s\nbut ddbc prints\n  %s", rel, (int)strcspn(quote, "\n"),
		      quote, buf);
	free(buf);
	free(page);
	free(path);
}

START_TEST(test_rule_page_and_fixtures)
{
	const char *id = ddbc_rule_get((ddbc_rule)_i)->id;
	char rel[256];
	/* A change class of `ddbc diff` is proven by pairs (check_diff). */
	if (ddbc_rule_get((ddbc_rule)_i)->kind == DDBC_RULE_KIND_DIFF)
		return;

	snprintf(rel, sizeof(rel), "docs/rules/%s.md", id);
	char *page = tu_srcpath(rel);
	ck_assert_msg(access(page, R_OK) == 0, "rule '%s' has no page %s", id, rel);
	free(page);

	ddbc_diags d;
	ddbc_source *src;
	snprintf(rel, sizeof(rel), "tests/rules/%s/bad.yaml", id);
	lint_fixture(rel, &d, &src);
	unsigned line = 0, col = 0;
	ck_assert_msg(sscanf(src->text, "# expect: %u:%u", &line, &col) == 2,
		      "%s does not start with '# expect: LINE:COL'", rel);
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(d.n == 1 && d.items[0].rule == (ddbc_rule)_i &&
		      d.items[0].loc.line == line && d.items[0].loc.column == col,
		      "%s: expected exactly [%s] at %u:%u, got:\n%s", rel, id, line, col, dump);
	free(dump);
	check_page_quotes(id, &d);
	ddbc_diags_release(&d);
	ddbc_source_free(src);

	snprintf(rel, sizeof(rel), "tests/rules/%s/good.yaml", id);
	lint_fixture(rel, &d, &src);
	dump = tu_diags_dump(&d);
	ck_assert_msg(d.n == 0, "%s: expected no finding, got:\n%s", rel, dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* The samples are the articles' designs: no error and no warning. */
START_TEST(test_samples_clean)
{
	static const char *const samples[] = { "stamp-rally", "ecommerce", "todo",
					       "assessment-single", "assessment-multi" };
	char rel[256];
	snprintf(rel, sizeof(rel), "samples/%s.ddb.yaml", samples[_i]);
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture(rel, &d, &src);
	ddbc_counts n = ddbc_diags_count(&d);
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(n.errors == 0 && n.warnings == 0, "%s:\n%s", rel, dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* A design that breaks many rules reports all of them in one run. */
START_TEST(test_many_rules_one_run)
{
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture("tests/fixtures/many-rules.ddb.yaml", &d, &src);
	bool seen[DDBC_RULE_COUNT] = { false };
	for (size_t i = 0; i < d.n; i++)
		seen[d.items[i].rule] = true;
	static const ddbc_rule expected[] = {
		DDBC_RULE_SCHEMA, DDBC_RULE_TABLE_NAME, DDBC_RULE_KEY_ATTRIBUTE_TYPE,
		DDBC_RULE_TEMPLATE_UNKNOWN_ATTRIBUTE, DDBC_RULE_KEY_OVERLAP,
		DDBC_RULE_PATTERN_CONSISTENT_GSI, DDBC_RULE_PATTERN_SCAN,
		DDBC_RULE_UNPADDED_NUMBER_IN_KEY, DDBC_RULE_EXAMPLE_MISMATCH,
	};
	char *dump = tu_diags_dump(&d);
	for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++)
		ck_assert_msg(seen[expected[i]], "no [%s] among:\n%s",
			      ddbc_rule_get(expected[i])->id, dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* The example design of docs/format.md gives exactly the one finding that
 * page promises: missing-description for 'nickname'. */
START_TEST(test_format_example)
{
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture("tests/fixtures/format-example.ddb.yaml", &d, &src);
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(d.n == 1 && d.items[0].rule == DDBC_RULE_MISSING_DESCRIPTION &&
		      d.items[0].severity == DDBC_SEV_WARNING && strstr(d.items[0].message, "'nickname'"),
		      "expected one missing-description warning for 'nickname', got:\n%s", dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* An `indexes:` entry whose role cannot be read still names its index:
 * the schema finding is the only one. */
START_TEST(test_unreadable_role_declares)
{
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture("tests/fixtures/unreadable-role.ddb.yaml", &d, &src);
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(d.n == 1 && d.items[0].rule == DDBC_RULE_SCHEMA &&
		      strstr(d.items[0].message, "unknown role 'key' for index 'ByKind'"),
		      "expected only the unknown role, got:\n%s", dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* The JSON schemas, made by the build from docs/NAME.schema.json.in and the
 * rule list, name the rules a design's lint.rules may set (every rule whose
 * severity can change) and the rules the model export can hold (all of
 * them), in the catalogue's order. */
static void assert_schema_rules(const char *rel, const char *const *path, bool fixed_too)
{
	/* In the build tree, or in the source tree when make found it up to
	 * date there. */
	char file[4096];
	snprintf(file, sizeof(file), "%s/%s", TEST_BUILDDIR, rel);
	if (access(file, R_OK) != 0)
		snprintf(file, sizeof(file), "%s/%s", TEST_SRCDIR, rel);
	json_error_t err;
	json_t *root = json_load_file(file, 0, &err);
	ck_assert_msg(root != NULL, "%s:%d: %s", rel, err.line, err.text);
	json_t *node = root;
	for (size_t i = 0; path[i]; i++)
		node = json_object_get(node, path[i]);
	ck_assert_msg(json_is_array(node), "%s: no rule enum", rel);
	size_t k = 0;
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		const ddbc_rule_info *r = ddbc_rule_get((ddbc_rule)i);
		if (r->fixed && !fixed_too)
			continue;
		const char *id = json_string_value(json_array_get(node, k++));
		ck_assert_msg(id && !strcmp(id, r->id), "%s: rule %zu is '%s', expected '%s'",
			      rel, k, id ? id : "(none)", r->id);
	}
	ck_assert_msg(json_array_size(node) == k, "%s: %zu rules, expected %zu", rel,
		      json_array_size(node), k);
	json_decref(root);
}

START_TEST(test_schemas_name_every_rule)
{
	static const char *const design[] = { "properties", "lint", "properties", "rules",
					      "propertyNames", "enum", NULL };
	static const char *const model[] = { "properties", "lint_rules", "propertyNames",
					     "enum", NULL };
	assert_schema_rules("docs/ddbc.schema.json", design, false);
	assert_schema_rules("docs/model.schema.json", model, true);
}
END_TEST

/* Rule messages hold names of any length whole: a 1,100-byte key name,
 * and the index's name after it. */
START_TEST(test_long_names_in_messages)
{
	strbuf name = STRBUF_INIT, text = STRBUF_INIT, want = STRBUF_INIT;
	for (int i = 0; i < 1100; i++)
		strbuf_addch(&name, 'k');
	strbuf_addf(&text, "ddbc: 1\nname: t\ntables:\n  things:\n    partition_key: PK\n"
		    "    gsi: {ByLong: {partition_key: %s}}\nentities:\n  Thing:\n"
		    "    attributes:\n      PK: S\n", name.buf);
	strbuf_addf(&want, "no entity of table 'things' sets all of '%s', the key of GSI "
		    "'ByLong', so the index stays empty", name.buf);
	ddbc_source *src = tu_source(text.buf);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design_free(ddbc_check(src, &d, &cli));
	bool found = false;
	for (size_t i = 0; i < d.n; i++)
		found |= d.items[i].rule == DDBC_RULE_INDEX_UNUSED &&
			 strstr(d.items[i].message, want.buf) != NULL;
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(found, "no index-unused finding naming the whole key:\n%s", dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	strbuf_release(&name);
	strbuf_release(&text);
	strbuf_release(&want);
}
END_TEST

static Suite *rules_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("catalogue");
	tcase_add_loop_test(tc, test_rule_page_and_fixtures, 0, DDBC_RULE_COUNT);
	tcase_add_loop_test(tc, test_samples_clean, 0, 5);
	tcase_add_test(tc, test_many_rules_one_run);
	tcase_add_test(tc, test_format_example);
	tcase_add_test(tc, test_schemas_name_every_rule);
	tcase_add_test(tc, test_unreadable_role_declares);
	tcase_add_test(tc, test_long_names_in_messages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rules_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
