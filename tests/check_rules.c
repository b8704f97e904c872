/* check_rules.c - every rule of the catalogue, proven by its fixtures
 *
 * For each rule id the registry holds: docs/rules/ID.md exists, and
 * tests/rules/ID/bad.yaml fires exactly one finding, of that rule, at the
 * position tests/rules/ID/expect gives ("LINE:COL" on its first line that
 * is no comment), while tests/rules/ID/good.yaml gives no finding at all.
 * The fixtures are the pages' examples, which users copy: they hold no
 * marks for the test (check_page_examples), and a rule that is off by
 * default turns itself on with the design's own lint.rules.
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

/* The position tests/rules/ID/expect gives for bad.yaml's finding. */
static void expected_at(const char *id, unsigned *line, unsigned *col)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "tests/rules/%s/expect", id);
	char *path = tu_srcpath(rel);
	ck_assert_msg(access(path, R_OK) == 0, "rule '%s' has no %s", id, rel);
	char *text = tu_read_file(path, NULL);
	const char *p = text;
	while (*p == '#')
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	ck_assert_msg(sscanf(p, "%u:%u", line, col) == 2, "%s does not say 'LINE:COL'", rel);
	free(text);
	free(path);
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
	ddbc_settings_init(&cli);
	ddbc_diags_init(d);
	/* Named from the top of the source tree, as the pages quote it: a
	 * file the fixture names (a resource_policy) is found from there, so
	 * the check runs there (make distcheck builds in another folder). */
	char *cwd = getcwd(NULL, 0);
	ck_assert_int_eq(chdir(TEST_SRCDIR), 0);
	ddbc_design_free(ddbc_check(*src, d, &cli));
	ck_assert_int_eq(chdir(cwd), 0);
	free(cwd);
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
	/* The page names the example by its file name alone. */
	char fixture[300];
	snprintf(fixture, sizeof(fixture), "tests/rules/%s/", id);
	ck_assert(!strncmp(buf, fixture, strlen(fixture)));
	memmove(buf, buf + strlen(fixture), strlen(buf + strlen(fixture)) + 1);
	const char *needle = "\nbad.yaml:";
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

/* The page shows the fixture itself (unless it says it is shortened):
 * what a user copies from it is what the tests run. */
static void check_page_example(const char *id, const char *fixture, const char *text)
{
	char rel[256];
	snprintf(rel, sizeof(rel), "docs/rules/%s.md", id);
	char *path = tu_srcpath(rel);
	char *page = tu_read_file(path, NULL);
	strbuf block = STRBUF_INIT;
	ddbc_strbuf_addf(&block, "```yaml\n%s```", text);
	ck_assert_msg(strstr(page, "(shortened") || strstr(page, block.buf),
		      "%s does not show %s as it is", rel, fixture);
	ddbc_strbuf_release(&block);
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
	expected_at(id, &line, &col);
	ck_assert_msg(!strstr(src->text, "# expect:") && !strstr(src->text, "# args:"),
		      "%s is a page's example: its marks belong in tests/rules/%s/expect", rel, id);
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(d.n == 1 && d.items[0].rule == (ddbc_rule)_i &&
		      d.items[0].loc.line == line && d.items[0].loc.column == col,
		      "%s: expected exactly [%s] at %u:%u, got:\n%s", rel, id, line, col, dump);
	free(dump);
	check_page_quotes(id, &d);
	check_page_example(id, rel, src->text);
	ddbc_diags_release(&d);
	ddbc_source_free(src);

	snprintf(rel, sizeof(rel), "tests/rules/%s/good.yaml", id);
	lint_fixture(rel, &d, &src);
	dump = tu_diags_dump(&d);
	/* A finding its ddbc-ignore comment suppresses counts as none. */
	ddbc_counts n = ddbc_diags_count(&d);
	ck_assert_msg(n.errors + n.warnings + n.notes == 0, "%s: expected no finding, got:\n%s",
		      rel, dump);
	free(dump);
	check_page_example(id, rel, src->text);
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

/* Lints the fixture rel, which announces its one finding on its first
 * line ("# expect: RULE LINE:COL") or that it has none ("# expect:
 * nothing"), and checks that it is so. */
static void expect_as_announced(const char *rel)
{
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture(rel, &d, &src);
	char *dump = tu_diags_dump(&d);
	if (!strncmp(src->text, "# expect: nothing\n", 18)) {
		ck_assert_msg(d.n == 0, "%s: expected no finding, got:\n%s", rel, dump);
		free(dump);
		ddbc_diags_release(&d);
		ddbc_source_free(src);
		return;
	}
	char id[64];
	unsigned line, col;
	ck_assert_msg(sscanf(src->text, "# expect: %63s %u:%u", id, &line, &col) == 3,
		      "%s: no '# expect: RULE LINE:COL' line", rel);
	ddbc_rule rule;
	ck_assert_int_eq(ddbc_rule_find(id, &rule), 0);
	ck_assert_msg(d.n == 1 && d.items[0].rule == rule && d.items[0].loc.line == line &&
		      d.items[0].loc.column == col, "%s: expected one [%s] at %u:%u, got:\n%s",
		      rel, id, line, col, dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}

/* Designs with key parts that are not stored (tests/fixtures/stored/):
 * each gives exactly the one finding its first line announces
 * ("# expect: RULE LINE:COL"), so a contradiction is reported once, by the
 * rule that fits it, and nothing follows from it; or none at all
 * ("# expect: nothing"). */
START_TEST(test_not_stored_designs)
{
	static const char *const files[] = { "forum", "table-key", "gsi-key", "projection",
					     "example-shape", "example-given", "example-partial",
					     "reserved-part", "returns", "generic-key" };
	char rel[256];
	snprintf(rel, sizeof(rel), "tests/fixtures/stored/%s.ddb.yaml", files[_i]);
	expect_as_announced(rel);
}
END_TEST

/* header-name knows the names every language's module gives: the Go
 * module's constant per String enum value meets a constant key's name. */
START_TEST(test_header_name_enum_constants)
{
	expect_as_announced("tests/rules/header-name/enum-bad.yaml");
	expect_as_announced("tests/rules/header-name/enum-good.yaml");
}
END_TEST

/* index-write-amplification fires only where a narrower projection that
 * still serves the index's readers writes fewer units: not for readers that
 * need every attribute, not for entries already one unit; an INCLUDE of
 * what the readers return is named. */
START_TEST(test_write_amplification_honest)
{
	expect_as_announced("tests/rules/index-write-amplification/readers-need-all.yaml");
	expect_as_announced("tests/rules/index-write-amplification/small-items.yaml");
	expect_as_announced("tests/rules/index-write-amplification/include-bad.yaml");
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture("tests/rules/index-write-amplification/include-bad.yaml", &d, &src);
	ck_assert_int_eq(d.n, 1);
	ck_assert_msg(strstr(d.items[0].message, "ByVenue 1 with INCLUDE [city]") &&
		      !strstr(d.items[0].message, "ByCity 1 with"), "%s", d.items[0].message);
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

/* The range-bound rules on every operator and shape of key: exactly these
 * findings, each with the bound it advises. */
START_TEST(test_range_bounds)
{
	static const struct {
		ddbc_rule rule;
		unsigned line, column;
		const char *says;
	} want[] = {
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 51, 42, "of 'Order' ('ORDER#{placed}#{orderId}'), "
		  "'Refund' ('ORDER#{placed}#R#{refundId}'), which sort after it and are left out; "
		  "end it with the character after '#': 'ORDER#{to}$'" },
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 60, 42, "exclusive lower bound 'ORDER#{from}' on "
		  "'SK'" },
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 63, 42, "'ORDER#{to}#' on 'SK' is a proper prefix" },
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 75, 60, "end it with the character after '\xc2\xa7': "
		  "'ITEM\xc2\xa7{b}\xc2\xa8'" },
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 78, 67, "'ITEM\xc2\xa7{s}\xc2\xa7{b:03}\xc2\xa8'" },
		{ DDBC_RULE_RANGE_BOUND_SHAPE, 85, 42, "range bound '2026-01-01' on 'SK' does not "
		  "start with the literal that the keys of" },
		{ DDBC_RULE_RANGE_BOUND_SHAPE, 95, 42, "it compares a parameter with that literal" },
		{ DDBC_RULE_RANGE_BOUND_SHAPE, 98, 51, "begins_with value '{x}'" },
		/* Part of the key's literal: the fix keeps it, and goes on from there. */
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 101, 42, "keys of 'Refund' ('ORDER#{placed}#R#"
		  "{refundId}'), which sort after it and are left out; end it with the character "
		  "after '#': 'ORDER#{to}#R$'" },
		/* No character follows U+10FFFF: no bound can be ended after it. */
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 104, 42, "which sort after it and are left out; use "
		  "'lt' on the next value instead" },
		/* A pattern that names its entities aims its bounds at their keys. */
		{ DDBC_RULE_RANGE_BOUND_SHAPE, 107, 42, "does not start with 'ITEM\xc2\xa7', the "
		  "literal that the keys of 'Item' ('ITEM\xc2\xa7{sku}\xc2\xa7{line:03}') start "
		  "with: it compares a parameter with that literal and selects the wrong keys; "
		  "write 'ITEM\xc2\xa7{x}'" },
		{ DDBC_RULE_RANGE_BOUND_PREFIX, 111, 42, "proper prefix of keys of 'Refund' "
		  "('ORDER#{placed}#R#{refundId}'), which" },
		/* A YAML number on a String key is compared as its text. */
		{ DDBC_RULE_RANGE_BOUND_SHAPE, 115, 42, "range bound '2026' on 'SK' does not start "
		  "with 'ORDER#'" },
	};
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture("tests/fixtures/range-bounds.ddb.yaml", &d, &src);
	char *dump = tu_diags_dump(&d);
	size_t n = sizeof(want) / sizeof(want[0]);
	ck_assert_msg(d.n == n, "expected %zu findings, got:\n%s", n, dump);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(d.items[i].rule == want[i].rule && d.items[i].loc.line == want[i].line &&
			      d.items[i].loc.column == want[i].column &&
			      strstr(d.items[i].message, want[i].says),
			      "finding %zu: expected [%s] at %u:%u saying \"%s\", got:\n%s", i,
			      ddbc_rule_get(want[i].rule)->id, want[i].line, want[i].column,
			      want[i].says, dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* param-value at every place a parameter stands; a value that fits (a
 * YAML hex integer for a Number, "+007" for a width of 3, the delimiter in
 * a plain key) gives nothing. */
START_TEST(test_param_values)
{
	static const struct {
		unsigned line, column;
		const char *says;
	} want[] = {
		{ 34, 44, "'1000' of parameter 'round' has more digits than the placeholder's width" },
		{ 42, 24, "'p#1' of parameter 'player' holds the key delimiter '#'" },
		{ 47, 34, "'chess' of parameter 'game' is not a number; the pattern puts it in the "
		  "put item's attribute 'game' (a Number)" },
		{ 47, 57, "'maybe' of parameter 'done' is not true or false" },
		{ 51, 24, "parameter 'player' is a list" },
	};
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture("tests/fixtures/param-values.ddb.yaml", &d, &src);
	char *dump = tu_diags_dump(&d);
	size_t n = sizeof(want) / sizeof(want[0]);
	ck_assert_msg(d.n == n, "expected %zu findings, got:\n%s", n, dump);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(d.items[i].rule == DDBC_RULE_PARAM_VALUE &&
			      d.items[i].loc.line == want[i].line &&
			      d.items[i].loc.column == want[i].column &&
			      strstr(d.items[i].message, want[i].says),
			      "finding %zu: expected %u:%u saying \"%s\", got:\n%s", i, want[i].line,
			      want[i].column, want[i].says, dump);
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
 * and the text after it. */
START_TEST(test_long_names_in_messages)
{
	strbuf name = STRBUF_INIT, text = STRBUF_INIT, want = STRBUF_INIT;
	for (int i = 0; i < 1100; i++)
		ddbc_strbuf_addch(&name, 'k');
	ddbc_strbuf_addf(&text, "ddbc: 1\nname: t\ntables:\n  things:\n    partition_key: PK\n"
		    "    gsi: {ByLong: {partition_key: %s}}\nentities:\n  Thing:\n"
		    "    attributes:\n      PK: S\n", name.buf);
	ddbc_strbuf_addf(&want, "GSI 'ByLong' of table 'things' has '%s' as partition key, but no "
		    "entity of the table declares it", name.buf);
	ddbc_source *src = tu_source(text.buf);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design_free(ddbc_check(src, &d, &cli));
	bool found = false;
	for (size_t i = 0; i < d.n; i++)
		found |= d.items[i].rule == DDBC_RULE_INDEX_KEY_UNKNOWN &&
			 strstr(d.items[i].message, want.buf) != NULL;
	char *dump = tu_diags_dump(&d);
	ck_assert_msg(found, "no index-key-unknown finding naming the whole key:\n%s", dump);
	free(dump);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	ddbc_strbuf_release(&name);
	ddbc_strbuf_release(&text);
	ddbc_strbuf_release(&want);
}
END_TEST

/* Lints text as `ddbc lint` does with no --rule; the caller releases d
 * and frees *src. */
static void lint_text(const char *text, ddbc_diags *d, ddbc_source **src)
{
	*src = tu_source(text);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags_init(d);
	ddbc_design_free(ddbc_check(*src, d, &cli));
}

static const char shop_prefix_typo[] =
	"ddbc: 1\nname: shop\ntables:\n  Shop:\n    partition_key: PK\n    sort_key: SK\n"
	"entities:\n  Order:\n    attributes:\n"
	"      PK: { type: S, template: \"CUSTOMER#{customerId}\" }\n"
	"      SK: { type: S, template: \"ORDER#{orderId}\" }\n"
	"      customerId: S\n      orderId: S\n"
	"access_patterns:\n  customer-orders:\n    operation: query\n    key:\n"
	"      PK: \"CUSTOMERS#{customerId}\"\n    example: { customerId: c1 }\n";

/* A condition that matches nothing on a pattern that declares its
 * entities: one error of pattern-entities at `entities`, with the
 * candidates, and no pattern-no-match besides. */
START_TEST(test_pattern_entities_empty_match)
{
	char *text = tu_replace(shop_prefix_typo, "{customerId}\"\n",
				"{customerId}\"\n    entities: [Order]\n");
	/* Only the condition's line ends that way: the template's ends in ' }'. */
	ddbc_diags d;
	ddbc_source *src;
	lint_text(text, &d, &src);
	tu_expect_count(&d, 1);
	tu_expect_diag(&d, DDBC_RULE_PATTERN_ENTITIES, 19, 15,
		       "entities lists 'Order', but the key condition matches no entity in "
		       "table 'Shop'; candidates: 'Order' (PK 'CUSTOMER#{customerId}')");
	ck_assert_int_eq(d.items[0].severity, DDBC_SEV_ERROR);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(text);

	/* Without `entities:` the same condition stays a pattern-no-match. */
	lint_text(shop_prefix_typo, &d, &src);
	tu_expect_count(&d, 1);
	tu_expect_diag(&d, DDBC_RULE_PATTERN_NO_MATCH, 18, 7, NULL);
	ddbc_diags_release(&d);
	ddbc_source_free(src);

	/* Declared names that are no entity are unresolved-reference's alone. */
	text = tu_replace(shop_prefix_typo, "{customerId}\"\n",
			  "{customerId}\"\n    entities: [Ordr]\n");
	lint_text(text, &d, &src);
	tu_expect_diag(&d, DDBC_RULE_UNRESOLVED_REFERENCE, 19, 16, NULL);
	tu_expect_diag(&d, DDBC_RULE_PATTERN_NO_MATCH, 18, 7, NULL);
	tu_expect_count(&d, 2);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(text);
}
END_TEST

/* A range bound on a Number key that is a constant but no number:
 * DynamoDB rejects it, the export refuses it, lint says so at the value.
 * A parameter, a number, and an equality (pattern-no-match's) are not. */
START_TEST(test_number_key_constant)
{
	static const char text[] =
		"ddbc: 1\nname: scores\ntables:\n  Scores:\n    partition_key: game\n"
		"    sort_key: score\nentities:\n  Score:\n    attributes:\n      game: S\n"
		"      score: N\naccess_patterns:\n  top:\n    operation: query\n"
		"    key: { game: \"{game}\", score: { ge: \"abc\" } }\n"
		"    example: { game: g1 }\n  fine:\n    operation: query\n"
		"    key: { game: \"{game}\", score: { between: [10, \"{max}\"] } }\n"
		"    example: { game: g1, max: 20 }\n";
	ddbc_diags d;
	ddbc_source *src;
	lint_text(text, &d, &src);
	tu_expect_count(&d, 1);
	tu_expect_diag(&d, DDBC_RULE_PATTERN_OPERATOR_TYPE, 15, 41,
		       "'ge' compares 'score', a Number, with 'abc', which is no number; write "
		       "a number, or a parameter such as '{score}'");
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* key-overlap keeps its reasoning, and its advice is what the key's type
 * allows: no literal on a Number key, one in the String part of a key
 * that has one. */
START_TEST(test_key_overlap_advice)
{
	static const char numbers[] =
		"ddbc: 1\nname: catalog\ntables:\n  ProductCatalog:\n    partition_key: Id\n"
		"entities:\n  Book:\n    attributes:\n      Id: N\n      Title: S\n"
		"  Bicycle:\n    attributes:\n      Id: N\n      Title: S\n";
	ddbc_diags d;
	ddbc_source *src;
	lint_text(numbers, &d, &src);
	tu_expect_diag(&d, DDBC_RULE_KEY_OVERLAP, 11, 3,
		       "their 'Id' values overlap; a Number key cannot hold a literal of the "
		       "entity's own, so make 'Id' a String with one (e.g. 'Bicycle#...'), or, "
		       "when the ids come from one sequence, add '# ddbc-ignore: key-overlap -- "
		       "ids come from one sequence' to this line");
	ck_assert_ptr_null(tu_find_diag(&d, DDBC_RULE_KEY_OVERLAP, 11, 3, "give each entity"));
	ddbc_diags_release(&d);
	ddbc_source_free(src);

	char *binary = tu_replace(numbers, "Id: N", "Id: B");
	lint_text(binary, &d, &src);
	tu_expect_diag(&d, DDBC_RULE_KEY_OVERLAP, 11, 3, "a Binary key cannot hold");
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(binary);

	/* A Number partition key with a String sort key: the literal goes there. */
	char *mixed = tu_replace(numbers, "Id\n", "Id\n    sort_key: Kind\n");
	char *text = tu_replace(mixed, "Title: S", "Title: S\n      Kind: S");
	lint_text(text, &d, &src);
	tu_expect_diag(&d, DDBC_RULE_KEY_OVERLAP, 13, 3,
		       "their 'Id' and 'Kind' values overlap; give each entity a literal of its "
		       "own in its 'Kind', or, when the ids come from one sequence, add '# "
		       "ddbc-ignore: key-overlap -- ids come from one sequence' to this line");
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(text);
	free(mixed);

	/* Templates that overlap have no sequence to trust: no suppression. */
	char *path = tu_srcpath("tests/rules/key-overlap/bad.yaml");
	char *templated = tu_read_file(path, NULL);
	lint_text(templated, &d, &src);
	tu_expect_diag(&d, DDBC_RULE_KEY_OVERLAP, 14, 3, "templates overlap; give each entity "
		       "a literal of its own in its key");
	ck_assert_ptr_null(tu_find_diag(&d, DDBC_RULE_KEY_OVERLAP, 14, 3, "ddbc-ignore"));
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(templated);
	free(path);
}
END_TEST

/* The position just after the name that follows the n-th "partition_key: "
 * or "sort_key: " of the tables section (the first name of a list), or
 * NULL when there are fewer. */
static const char *nth_key_name(const char *text, int n)
{
	const char *end = strstr(text, "\nentities:");
	for (const char *p = text; (p = strstr(p, "_key: ")) != NULL && p < end; p++) {
		if (strncmp(p - 9, "partition", 9) && strncmp(p - 4, "sort", 4))
			continue;
		if (n-- > 0)
			continue;
		p += strlen("_key: ");
		if (*p == '[')
			p++;
		while (*p && !strchr(",]\n ", *p))
			p++;
		return p;
	}
	return NULL;
}

/* Each key attribute of each sample's tables and indexes, misspelt (an
 * 'x' appended): exactly one error or warning, index-key-unknown with the
 * right name as its suggestion; nothing that only follows from it. */
START_TEST(test_index_key_typo_one_finding)
{
	static const char *const samples[] = { "stamp-rally", "ecommerce", "todo",
					       "assessment-single", "assessment-multi" };
	char rel[256];
	snprintf(rel, sizeof(rel), "samples/%s.ddb.yaml", samples[_i]);
	char *path = tu_srcpath(rel);
	char *text = tu_read_file(path, NULL);
	int tried = 0;
	for (const char *at; (at = nth_key_name(text, tried)) != NULL; tried++) {
		size_t off = (size_t)(at - text);
		const char *start = at;
		while (start > text && !strchr(" [", start[-1]))
			start--;
		strbuf bad = STRBUF_INIT, want = STRBUF_INIT;
		ddbc_strbuf_add(&bad, text, off);
		ddbc_strbuf_addch(&bad, 'x');
		ddbc_strbuf_addstr(&bad, at);
		ddbc_strbuf_addf(&want, "did you mean '%.*s'?", (int)(at - start), start);
		ddbc_diags d;
		ddbc_source *src;
		lint_text(bad.buf, &d, &src);
		ddbc_counts n = ddbc_diags_count(&d);
		char *dump = tu_diags_dump(&d);
		const ddbc_diag *hit = NULL;
		for (size_t i = 0; i < d.n; i++)
			if (d.items[i].rule == DDBC_RULE_INDEX_KEY_UNKNOWN)
				hit = &d.items[i];
		ck_assert_msg(n.errors + n.warnings == 1 && hit && strstr(hit->message, want.buf),
			      "%s, key %d misspelt: expected one index-key-unknown (%s), got:\n%s",
			      rel, tried, want.buf, dump);
		free(dump);
		ddbc_diags_release(&d);
		ddbc_source_free(src);
		ddbc_strbuf_release(&bad);
		ddbc_strbuf_release(&want);
	}
	ck_assert_int_gt(tried, 0);
	free(text);
	free(path);
}
END_TEST

/* A table without entities has nothing to compare its keys with; an
 * entity whose table does not resolve may declare them. Neither fires. */
START_TEST(test_index_key_unknown_not_judged)
{
	/* Other has no entity; ByName's key is declared only by Named. */
	static const char lone[] =
		"ddbc: 1\nname: t\ntables:\n  Things:\n    partition_key: PK\n"
		"    gsi: {ByName: {partition_key: label}}\n"
		"  Other:\n    partition_key: id\n"
		"entities:\n  Thing:\n    table: Things\n    attributes:\n"
		"      PK: { type: S, template: \"THING#{title}\" }\n      title: S\n"
		"  Named:\n    table: Things\n    attributes:\n"
		"      PK: { type: S, template: \"NAMED#{title}\" }\n      title: S\n"
		"      label: S\n";
	ddbc_diags d;
	ddbc_source *src;
	lint_text(lone, &d, &src);
	tu_expect_count(&d, 0);
	ddbc_diags_release(&d);
	ddbc_source_free(src);

	char *text = tu_replace(lone, "  Named:\n    table: Things", "  Named:\n    table: Thngs");
	lint_text(text, &d, &src);
	tu_expect_diag(&d, DDBC_RULE_UNRESOLVED_REFERENCE, 16, 12, NULL);
	for (size_t i = 0; i < d.n; i++)
		ck_assert_msg(d.items[i].rule != DDBC_RULE_INDEX_KEY_UNKNOWN, "%s",
			      d.items[i].message);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(text);
}
END_TEST

/* A table whose only key field is misspelt has no key name at all: the
 * entity's index membership is derived over none (the fuzzer's case,
 * once pointer arithmetic on an empty scratch), and the one finding is
 * the typo's. */
START_TEST(test_table_without_key_names)
{
	static const char text[] =
		"ddbc: 1\nname: t\ntables:\n  Things:\n    partiti_key: PK\n"
		"entities:\n  Thing:\n    attributes:\n      PK: { type: S }\n"
		"access_patterns:\n  read:\n    operation: get\n    key: { PK: \"x\" }\n";
	ddbc_diags d;
	ddbc_source *src;
	lint_text(text, &d, &src);
	tu_expect_count(&d, 1);
	tu_expect_diag(&d, DDBC_RULE_SCHEMA, 5, 5, "partition_key");
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* An INCLUDE list of key attributes only projects the keys: one note at
 * the list, not one per name. */
START_TEST(test_include_only_keys)
{
	char *path = tu_srcpath("tests/rules/include-key-attribute/good.yaml");
	char *good = tu_read_file(path, NULL);
	char *text = tu_replace(good, "projection: [total]", "projection: [SK, status, PK]");
	ddbc_diags d;
	ddbc_source *src;
	lint_text(text, &d, &src);
	tu_expect_count(&d, 1);
	tu_expect_diag(&d, DDBC_RULE_INCLUDE_KEY_ATTRIBUTE, 10, 21,
		       "GSI 'ByStatus' lists only key attributes in its projection, which every "
		       "index projects anyway, so it projects the keys only; write 'projection: "
		       "keys_only'");
	ck_assert_int_eq(d.items[0].severity, DDBC_SEV_NOTE);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(text);
	free(good);
	free(path);
}
END_TEST

/* A typo in an INCLUDE list gets "did you mean" at the name, and hides
 * nothing: the index still projects the names that are attributes, so the
 * pattern that returns the attribute meant hears it is not projected. With
 * the name fixed, neither finding is left. */
START_TEST(test_projection_typo)
{
	ddbc_diags d;
	ddbc_source *src;
	lint_fixture("tests/fixtures/projection-typo.ddb.yaml", &d, &src);
	tu_expect_count(&d, 2);
	tu_expect_diag(&d, DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE, 14, 29,
		       "GSI 'ByQueue' projects 'priorty', which no entity of table 'Issues' has; "
		       "did you mean 'priority'?");
	tu_expect_diag(&d, DDBC_RULE_PATTERN_PROJECTION, 34, 22,
		       "GSI 'ByQueue' does not project 'priority' of 'Issue' (projection: "
		       "[title, priorty]); add it to the projection, or read the item from the table");
	char *text = tu_replace(src->text, "[title, priorty]", "[title, priority]");
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	lint_text(text, &d, &src);
	tu_expect_count(&d, 0);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(text);
	/* A name nothing is near gets no guess. */
	lint_fixture("tests/fixtures/projection-typo.ddb.yaml", &d, &src);
	text = tu_replace(src->text, "[title, priorty]", "[title, xyzzy]");
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	lint_text(text, &d, &src);
	tu_expect_count(&d, 2);
	tu_expect_diag(&d, DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE, 14, 29,
		       "GSI 'ByQueue' projects 'xyzzy', which no entity of table 'Issues' has; "
		       "fix the name or remove it");
	tu_expect_diag(&d, DDBC_RULE_PATTERN_PROJECTION, 34, 22, NULL);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	free(text);
}
END_TEST

/* An entity with more unknown placeholders than get a "did you mean" (each
 * suggestion compares with every attribute): the first ones get one, the
 * rest are still reported, without. */
START_TEST(test_many_unknown_placeholders)
{
	enum { N = 200 };
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "ddbc: 1\nname: t\ntables:\n  things:\n    partition_key: PK\n"
			     "entities:\n  Thing:\n    attributes:\n      PK: S\n");
	for (int i = 0; i < N; i++)
		ddbc_strbuf_addf(&text, "      name%03d: S\n      t%03d: { type: S, template: "
			    "\"{nam%03d}\" }\n", i, i, i);
	ddbc_source *src = tu_source(text.buf);
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_design_free(ddbc_check(src, &d, &cli));
	size_t unknown = 0, hinted = 0;
	for (size_t i = 0; i < d.n; i++) {
		if (d.items[i].rule != DDBC_RULE_TEMPLATE_UNKNOWN_ATTRIBUTE)
			continue;
		unknown++;
		hinted += strstr(d.items[i].message, "did you mean 'name") != NULL;
	}
	ck_assert_uint_eq(unknown, N);
	ck_assert_uint_gt(hinted, 0);
	ck_assert_uint_lt(hinted, N);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	ddbc_strbuf_release(&text);
}
END_TEST

/* The checks run block by block (rules/check.c): blocks of one entity and
 * one block of the whole design give the same findings in the same order,
 * on every fixture of the catalogue and on a design of many entities with
 * findings of many rules on each. */
static char *dump_with_blocks(const char *rel, const char *text, size_t block)
{
	ddbc_diags d;
	ddbc_source *src;
	ddbc_check_block_entities(block);
	if (rel)
		lint_fixture(rel, &d, &src);
	else
		lint_text(text, &d, &src);
	ddbc_check_block_entities(0);
	char *dump = tu_diags_dump(&d);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	return dump;
}

static void expect_blocks_agree(const char *rel, const char *text)
{
	char *whole = dump_with_blocks(rel, text, (size_t)-1);
	char *ones = dump_with_blocks(rel, text, 1);
	char *some = dump_with_blocks(rel, text, 3);
	ck_assert_msg(!strcmp(whole, ones) && !strcmp(whole, some),
		      "%s: blocks change the findings:\n%s\nagainst\n%s\nand\n%s",
		      rel ? rel : "generated", whole, ones, some);
	free(whole);
	free(ones);
	free(some);
}

START_TEST(test_blocks_same_findings)
{
	char rel[256];
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		if (ddbc_rule_get((ddbc_rule)i)->kind == DDBC_RULE_KIND_DIFF)
			continue;
		snprintf(rel, sizeof(rel), "tests/rules/%s/bad.yaml", ddbc_rule_get((ddbc_rule)i)->id);
		expect_blocks_agree(rel, NULL);
	}
	expect_blocks_agree("tests/fixtures/many-rules.ddb.yaml", NULL);

	/* Entities of two tables, each with a reserved word, a sort key of an
	 * unpadded number, an unknown placeholder and a scan of its own, and
	 * patterns that stand in the file apart from their entities. Every
	 * third sort key is BOOL after an S: key-attribute-type (a check of
	 * entities) and key-type-conflict (of tables, in another block)
	 * report it at one position, which only the findings' numbering
	 * keeps in order. */
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, "ddbc: 1\nname: blocks\ntables:\n");
	for (int t = 0; t < 2; t++)
		ddbc_strbuf_addf(&sb, "  t%d:\n    partition_key: PK\n    sort_key: SK\n", t);
	ddbc_strbuf_addstr(&sb, "entities:\n");
	for (int i = 0; i < 40; i++)
		ddbc_strbuf_addf(&sb, "  E%d:\n    table: t%d\n    attributes:\n"
			    "      PK: { type: S, template: \"E%d#{name}\" }\n"
			    "      SK: { type: %s, template: \"N#{n}#{nme}\" }\n"
			    "      name: S\n      n: N\n", i, i % 2, i, i % 3 == 2 ? "BOOL" : "S");
	ddbc_strbuf_addstr(&sb, "access_patterns:\n");
	for (int i = 39; i >= 0; i--)
		ddbc_strbuf_addf(&sb, "  all-%d:\n    table: t%d\n    operation: scan\n", i, i % 2);
	expect_blocks_agree(NULL, ddbc_strbuf_str(&sb));
	ddbc_strbuf_release(&sb);
}
END_TEST

static Suite *rules_suite(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("catalogue");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_rule_page_and_fixtures, 0, DDBC_RULE_COUNT);
	tcase_add_loop_test(tc, test_samples_clean, 0, 5);
	tcase_add_test(tc, test_many_rules_one_run);
	tcase_add_loop_test(tc, test_not_stored_designs, 0, 10);
	tcase_add_test(tc, test_header_name_enum_constants);
	tcase_add_test(tc, test_write_amplification_honest);
	tcase_add_test(tc, test_format_example);
	tcase_add_test(tc, test_schemas_name_every_rule);
	tcase_add_test(tc, test_unreadable_role_declares);
	tcase_add_test(tc, test_range_bounds);
	tcase_add_test(tc, test_param_values);
	tcase_add_test(tc, test_long_names_in_messages);
	tcase_add_test(tc, test_pattern_entities_empty_match);
	tcase_add_test(tc, test_key_overlap_advice);
	tcase_add_test(tc, test_number_key_constant);
	tcase_add_loop_test(tc, test_index_key_typo_one_finding, 0, 5);
	tcase_add_test(tc, test_index_key_unknown_not_judged);
	tcase_add_test(tc, test_table_without_key_names);
	tcase_add_test(tc, test_include_only_keys);
	tcase_add_test(tc, test_projection_typo);
	tcase_add_test(tc, test_many_unknown_placeholders);
	tcase_add_test(tc, test_blocks_same_findings);
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
