/* check_diag.c - findings as data: settings, severities, order, printers
 *
 * The printers' output for one fixed set of findings is compared with
 * tests/golden/diag/FORMAT.out (DDBC_UPDATE_GOLDEN=1 rewrites them).
 */
#include "rules/check.h"
#include "testutil.h"
#include "util/embedded.h"
#include "util/strbuf.h"
#include "util/utf8.h"

#include "config.h"

#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>
#include <wchar.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* As diag_print.c builds it, to keep the goldens free of the install path. */

static ddbc_loc at(unsigned line, unsigned column)
{
	ddbc_loc loc = { line, column };
	return loc;
}

/* ---- settings: --rule RULE=SEVERITY --------------------------------------------- */

/* What jansson takes as a string: UTF-8 throughout, no overlong form,
 * surrogate or code point past U+10FFFF. */
START_TEST(test_utf8_valid)
{
	ck_assert(ddbc_utf8_valid("", 0));
	ck_assert(ddbc_utf8_valid("plain \x01 text", 12));
	ck_assert(ddbc_utf8_valid("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", 14));
	ck_assert(!ddbc_utf8_valid("\xFF", 1));
	ck_assert(!ddbc_utf8_valid("\xC3", 1));          /* cut short */
	ck_assert(!ddbc_utf8_valid("\xC0\xAF", 2));      /* overlong '/' */
	ck_assert(!ddbc_utf8_valid("\xED\xA0\x80", 3));  /* a surrogate */
	ck_assert(!ddbc_utf8_valid("\xF4\x90\x80\x80", 4)); /* past U+10FFFF */
}
END_TEST

START_TEST(test_settings_init)
{
	ddbc_settings s;
	ddbc_settings_init(&s);
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		ck_assert_int_eq(s.sev[i], DDBC_SEV_DEFAULT);
}
END_TEST

START_TEST(test_settings_parse_ok)
{
	ddbc_settings s;
	strbuf err = STRBUF_INIT;
	ddbc_settings_init(&s);
	ck_assert_int_eq(ddbc_settings_parse(&s, "schema=warning", &err), 0);
	ck_assert_int_eq(s.sev[DDBC_RULE_SCHEMA], DDBC_SEV_WARNING);
	ck_assert_int_eq(ddbc_settings_parse(&s, "pattern-scan=off", &err), 0);
	ck_assert_int_eq(s.sev[DDBC_RULE_PATTERN_SCAN], DDBC_SEV_OFF);
	ck_assert_int_eq(ddbc_settings_parse(&s, "missing-description=note", &err), 0);
	ck_assert_int_eq(s.sev[DDBC_RULE_MISSING_DESCRIPTION], DDBC_SEV_NOTE);
	ck_assert_int_eq(ddbc_settings_parse(&s, "reserved-word=error", &err), 0);
	ck_assert_int_eq(s.sev[DDBC_RULE_RESERVED_WORD], DDBC_SEV_ERROR);
	/* The last setting of a rule wins. */
	ck_assert_int_eq(ddbc_settings_parse(&s, "schema=error", &err), 0);
	ck_assert_int_eq(s.sev[DDBC_RULE_SCHEMA], DDBC_SEV_ERROR);
	/* Other rules are untouched. */
	ck_assert_int_eq(s.sev[DDBC_RULE_DUPLICATE_KEY], DDBC_SEV_DEFAULT);
	ck_assert_uint_eq(err.len, 0);
	ddbc_strbuf_release(&err);
}
END_TEST

static const struct {
	const char *arg;
	const char *err;
} bad_settings[] = {
	{ "schema", "expected RULE=off|note|warning|error, got 'schema'" },
	{ "", "expected RULE=off|note|warning|error, got ''" },
	{ "=error", "unknown rule ''; 'ddbc explain' lists them" },
	{ "shcema=off", "unknown rule 'shcema'; did you mean 'schema'?" },
	{ "Schema=off", "unknown rule 'Schema'; did you mean 'schema'?" },
	{ "pattern-scann=off", "unknown rule 'pattern-scann'; did you mean 'pattern-scan'?" },
	{ "no-such-rule-at-all=off", "unknown rule 'no-such-rule-at-all'; 'ddbc explain' lists them" },
	{ "schema=loud", "unknown severity 'loud' for rule 'schema'; use off, note, warning or error" },
	{ "schema=", "unknown severity '' for rule 'schema'; use off, note, warning or error" },
	{ "schema=Error", "unknown severity 'Error' for rule 'schema'" },
	{ "schema=warning=x", "unknown severity 'warning=x' for rule 'schema'" },
	{ "yaml-syntax=off", "the severity of rule 'yaml-syntax' cannot be changed" },
	{ "yaml-syntax=warning", "the severity of rule 'yaml-syntax' cannot be changed" },
};

START_TEST(test_settings_parse_errors)
{
	ddbc_settings s;
	strbuf err = STRBUF_INIT;
	ddbc_settings_init(&s);
	ck_assert_int_eq(ddbc_settings_parse(&s, bad_settings[_i].arg, &err), -1);
	ck_assert_msg(strstr(ddbc_strbuf_str(&err), bad_settings[_i].err) != NULL,
		      "'%s' gave \"%s\", expected \"%s\"", bad_settings[_i].arg, ddbc_strbuf_str(&err),
		      bad_settings[_i].err);
	ddbc_strbuf_release(&err);
	/* A failed setting changes nothing. */
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		ck_assert_int_eq(s.sev[i], DDBC_SEV_DEFAULT);
}
END_TEST

START_TEST(test_settings_long_rule)
{
	/* A long rule id is an unknown rule, named in full before the hint. */
	char arg[1200], want[1200];
	memset(arg, 'x', 1000);
	strcpy(arg + 1000, "=off");
	snprintf(want, sizeof(want), "unknown rule '%.1000s'; 'ddbc explain' lists them", arg);
	strbuf err = STRBUF_INIT;
	ddbc_settings s;
	ddbc_settings_init(&s);
	ck_assert_int_eq(ddbc_settings_parse(&s, arg, &err), -1);
	ck_assert_str_eq(ddbc_strbuf_str(&err), want);
	ddbc_strbuf_release(&err);
}
END_TEST

START_TEST(test_rule_catalogue)
{
	ddbc_rule r;
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		const ddbc_rule_info *info = ddbc_rule_get((ddbc_rule)i);
		ck_assert_ptr_nonnull(info->id);
		ck_assert_ptr_nonnull(info->summary);
		ck_assert_int_eq(ddbc_rule_find(info->id, &r), 0);
		ck_assert_int_eq(r, i);
		/* Only yaml-syntax is fixed: it means "no design could be read". */
		ck_assert_int_eq(info->fixed, i == DDBC_RULE_YAML_SYNTAX);
	}
	ck_assert_int_eq(ddbc_rule_find("nope", &r), -1);
	ck_assert_int_eq(ddbc_rule_get(DDBC_RULE_MISSING_DESCRIPTION)->default_severity, DDBC_SEV_OFF);
	ck_assert_int_eq(ddbc_rule_get(DDBC_RULE_RESERVED_WORD)->default_severity, DDBC_SEV_NOTE);
	ck_assert_int_eq(ddbc_rule_get(DDBC_RULE_GSI_LIMIT)->default_severity, DDBC_SEV_WARNING);
	ck_assert_int_eq(ddbc_rule_get(DDBC_RULE_SCHEMA)->default_severity, DDBC_SEV_ERROR);

	ddbc_severity sev;
	ck_assert_int_eq(ddbc_severity_parse("note", &sev), 0);
	ck_assert_int_eq(sev, DDBC_SEV_NOTE);
	ck_assert_int_eq(ddbc_severity_parse("fatal", &sev), -1);
	ck_assert_str_eq(ddbc_severity_name(DDBC_SEV_WARNING), "warning");
	ck_assert_str_eq(ddbc_severity_name(DDBC_SEV_DEFAULT), "default");
}
END_TEST

START_TEST(test_format_parse)
{
	static const char *const names[] = { "text", "json", "sarif", "github" };
	ddbc_diag_format f;
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(ddbc_diag_format_parse(names[i], &f), 0);
		ck_assert_int_eq(f, i);
	}
	ck_assert_int_eq(ddbc_diag_format_parse("xml", &f), -1);
	ck_assert_int_eq(ddbc_diag_format_parse("JSON", &f), -1);
	ck_assert_int_eq(ddbc_diag_format_parse("", &f), -1);
}
END_TEST

/* ---- severities, order, counts -------------------------------------------------- */

/* A source and a collection of findings about it. */
struct fixture {
	ddbc_source *src;
	ddbc_diags d;
};

static void fixture_begin(struct fixture *f, const char *name, const char *text)
{
	f->src = ddbc_source_from_memory(name, text, strlen(text));
	ddbc_diags_init(&f->d);
	ddbc_diags_begin(&f->d, f->src);
}

static void fixture_end(struct fixture *f)
{
	ddbc_diags_release(&f->d);
	ddbc_source_free(f->src);
}

/* The severity a lone finding of rule gets with these settings, or OFF
 * when it was dropped. */
static ddbc_severity resolved(ddbc_rule rule, const ddbc_settings *cli,
			      const ddbc_settings *design)
{
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x: 1\n");
	ddbc_diag_add(&f.d, rule, at(1, 1), "finding");
	ddbc_diags_finish(&f.d, cli, design);
	ddbc_severity sev = f.d.n ? f.d.items[0].severity : DDBC_SEV_OFF;
	if (f.d.n)
		ck_assert_int_ne(sev, DDBC_SEV_OFF);
	fixture_end(&f);
	return sev;
}

START_TEST(test_severity_order)
{
	ddbc_settings cli, design;
	ddbc_settings_init(&cli);
	ddbc_settings_init(&design);
	/* Nothing set: the rule's default. */
	ck_assert_int_eq(resolved(DDBC_RULE_SCHEMA, &cli, &design), DDBC_SEV_ERROR);
	ck_assert_int_eq(resolved(DDBC_RULE_RESERVED_WORD, NULL, NULL), DDBC_SEV_NOTE);
	ck_assert_int_eq(resolved(DDBC_RULE_PATTERN_SCAN, NULL, NULL), DDBC_SEV_WARNING);
	/* The design over the default. */
	design.sev[DDBC_RULE_SCHEMA] = DDBC_SEV_NOTE;
	ck_assert_int_eq(resolved(DDBC_RULE_SCHEMA, &cli, &design), DDBC_SEV_NOTE);
	ck_assert_int_eq(resolved(DDBC_RULE_SCHEMA, NULL, &design), DDBC_SEV_NOTE);
	/* The command line over the design. */
	cli.sev[DDBC_RULE_SCHEMA] = DDBC_SEV_WARNING;
	ck_assert_int_eq(resolved(DDBC_RULE_SCHEMA, &cli, &design), DDBC_SEV_WARNING);
	ck_assert_int_eq(resolved(DDBC_RULE_SCHEMA, &cli, NULL), DDBC_SEV_WARNING);
	/* Settings of one rule leave the others alone. */
	ck_assert_int_eq(resolved(DDBC_RULE_DUPLICATE_KEY, &cli, &design), DDBC_SEV_ERROR);
}
END_TEST

START_TEST(test_severity_off_drops)
{
	ddbc_settings cli, design;
	ddbc_settings_init(&cli);
	ddbc_settings_init(&design);
	/* missing-description is off unless asked for. */
	ck_assert_int_eq(resolved(DDBC_RULE_MISSING_DESCRIPTION, &cli, &design), DDBC_SEV_OFF);
	design.sev[DDBC_RULE_MISSING_DESCRIPTION] = DDBC_SEV_WARNING;
	ck_assert_int_eq(resolved(DDBC_RULE_MISSING_DESCRIPTION, &cli, &design), DDBC_SEV_WARNING);
	/* off on the command line wins over the design's warning... */
	cli.sev[DDBC_RULE_MISSING_DESCRIPTION] = DDBC_SEV_OFF;
	ck_assert_int_eq(resolved(DDBC_RULE_MISSING_DESCRIPTION, &cli, &design), DDBC_SEV_OFF);
	/* ...and error on the command line over the design's off. */
	design.sev[DDBC_RULE_PATTERN_SCAN] = DDBC_SEV_OFF;
	ck_assert_int_eq(resolved(DDBC_RULE_PATTERN_SCAN, &cli, &design), DDBC_SEV_OFF);
	cli.sev[DDBC_RULE_PATTERN_SCAN] = DDBC_SEV_ERROR;
	ck_assert_int_eq(resolved(DDBC_RULE_PATTERN_SCAN, &cli, &design), DDBC_SEV_ERROR);
}
END_TEST

START_TEST(test_severity_fixed_rule)
{
	/* Even settings that bypass the parser cannot change yaml-syntax. */
	ddbc_settings cli, design;
	ddbc_settings_init(&cli);
	ddbc_settings_init(&design);
	cli.sev[DDBC_RULE_YAML_SYNTAX] = DDBC_SEV_OFF;
	design.sev[DDBC_RULE_YAML_SYNTAX] = DDBC_SEV_NOTE;
	ck_assert_int_eq(resolved(DDBC_RULE_YAML_SYNTAX, &cli, &design), DDBC_SEV_ERROR);
}
END_TEST

START_TEST(test_fatal_flag)
{
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "not fatal");
	ck_assert(!f.d.fatal);
	ddbc_diag_add(&f.d, DDBC_RULE_YAML_SYNTAX, at(1, 1), "fatal");
	ck_assert(f.d.fatal);
	/* A new source starts without it; its findings keep theirs. */
	ddbc_diags_begin(&f.d, f.src);
	ck_assert(!f.d.fatal);
	ck_assert_uint_eq(f.d.n, 2);
	fixture_end(&f);
}
END_TEST

START_TEST(test_sorted_by_position)
{
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(5, 2), "e");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(2, 9), "c");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(10, 1), "f");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(2, 3), "a");
	ddbc_diag_add(&f.d, DDBC_RULE_MISSING_DESCRIPTION, at(1, 1), "dropped");
	ddbc_diag_add(&f.d, DDBC_RULE_DUPLICATE_KEY, at(2, 3), "b");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(2, 10), "d");
	ddbc_diags_finish(&f.d, NULL, NULL);
	/* Line, then column, then the order they were found in. */
	static const char *const order = "abcdef";
	ck_assert_uint_eq(f.d.n, 6);
	for (size_t i = 0; i < f.d.n; i++) {
		ck_assert_int_eq(f.d.items[i].message[0], order[i]);
		ck_assert_ptr_eq(f.d.items[i].src, f.src);
	}
	ck_assert_int_eq(f.d.items[1].rule, DDBC_RULE_DUPLICATE_KEY);
	fixture_end(&f);
}
END_TEST

START_TEST(test_sorted_per_file)
{
	/* Each file's findings are sorted on their own and stay in the order
	 * the files were given. */
	struct fixture f;
	fixture_begin(&f, "b.yaml", "x\n");
	ddbc_source *second = ddbc_source_from_memory("a.yaml", "y\n", 2);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(9, 1), "b9");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(3, 1), "b3");
	ddbc_diags_finish(&f.d, NULL, NULL);
	ddbc_diags_begin(&f.d, second);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(2, 1), "a2");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "a1");
	ddbc_diags_finish(&f.d, NULL, NULL);
	static const char *const order[] = { "b3", "b9", "a1", "a2" };
	ck_assert_uint_eq(f.d.n, 4);
	for (size_t i = 0; i < 4; i++)
		ck_assert_str_eq(f.d.items[i].message, order[i]);
	ck_assert_ptr_eq(f.d.items[1].src, f.src);
	ck_assert_ptr_eq(f.d.items[2].src, second);
	fixture_end(&f);
	ddbc_source_free(second);
}
END_TEST

START_TEST(test_settings_per_file)
{
	/* A design's lint.rules apply to its own findings only. */
	struct fixture f;
	fixture_begin(&f, "a.yaml", "x\n");
	ddbc_settings design;
	ddbc_settings_init(&design);
	design.sev[DDBC_RULE_SCHEMA] = DDBC_SEV_NOTE;
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "first file");
	ddbc_diags_finish(&f.d, NULL, &design);
	ddbc_diags_begin(&f.d, f.src);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "second file");
	ddbc_diags_finish(&f.d, NULL, NULL);
	ck_assert_uint_eq(f.d.n, 2);
	ck_assert_int_eq(f.d.items[0].severity, DDBC_SEV_NOTE);
	ck_assert_int_eq(f.d.items[1].severity, DDBC_SEV_ERROR);
	fixture_end(&f);
}
END_TEST

START_TEST(test_finish_empty)
{
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	ddbc_diags_finish(&f.d, NULL, NULL);
	ck_assert_uint_eq(f.d.n, 0);
	ddbc_counts n = ddbc_diags_count(&f.d);
	ck_assert_uint_eq(n.errors + n.warnings + n.notes, 0);
	/* Everything dropped is as good as nothing found. */
	ddbc_diag_add(&f.d, DDBC_RULE_MISSING_DESCRIPTION, at(1, 1), "x");
	ddbc_diags_finish(&f.d, NULL, NULL);
	ck_assert_uint_eq(f.d.n, 0);
	fixture_end(&f);
}
END_TEST

START_TEST(test_counts)
{
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	cli.sev[DDBC_RULE_DUPLICATE_KEY] = DDBC_SEV_WARNING;
	for (int i = 0; i < 3; i++)
		ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "error");
	for (int i = 0; i < 2; i++)
		ddbc_diag_add(&f.d, DDBC_RULE_DUPLICATE_KEY, at(1, 1), "now a warning");
	ddbc_diag_add(&f.d, DDBC_RULE_PATTERN_SCAN, at(1, 1), "warning");
	for (int i = 0; i < 4; i++)
		ddbc_diag_add(&f.d, DDBC_RULE_RESERVED_WORD, at(1, 1), "note");
	ddbc_diag_add(&f.d, DDBC_RULE_MISSING_DESCRIPTION, at(1, 1), "off");
	ddbc_diags_finish(&f.d, &cli, NULL);
	ddbc_counts n = ddbc_diags_count(&f.d);
	ck_assert_uint_eq(n.errors, 3);
	ck_assert_uint_eq(n.warnings, 3);
	ck_assert_uint_eq(n.notes, 4);
	ck_assert_uint_eq(f.d.n, 10);
	fixture_end(&f);
}
END_TEST

START_TEST(test_message_format)
{
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	char big[5000];
	memset(big, 'n', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "field '%s' (%d)", "abc", 42);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 2), "%s", big);
	ck_assert_str_eq(f.d.items[0].message, "field 'abc' (42)");
	ck_assert_uint_eq(strlen(f.d.items[1].message), sizeof(big) - 1);
	ck_assert_int_eq(f.d.items[0].severity, DDBC_SEV_ERROR);
	fixture_end(&f);
}
END_TEST

/* ---- printers -------------------------------------------------------------------- */

/* The fixed findings every golden shows: every severity, a tab and wide
 * characters before the column, an unprintable line, a line too long to
 * quote, a position past the end, two findings at one place, a suppressed
 * finding with a reason and one without. */
static char *golden_source(void)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, "ddbc: 1\n"                                  /* 1 */
			   "name: demo\n"                                /* 2 */
			   "tables:\n"                                   /* 3 */
			   "  表:\n"                                     /* 4 */
			   "    partition_key: PK\n"                     /* 5 */
			   "\tsort_key: SK\n"                            /* 6 */
			   "entities:\n"                                 /* 7 */
			   "  User: {attributes: {名前: Strng}}\n"        /* 8 */
			   "description: ");                             /* 9 */
	for (int i = 0; i < 600; i++)
		ddbc_strbuf_addch(&sb, 'x');
	ddbc_strbuf_addstr(&sb, "\nbad: \"\x1b[31m\xff\"\n");             /* 10 */
	return ddbc_strbuf_detach(&sb);
}

static void golden_findings(struct fixture *f)
{
	char *text = golden_source();
	fixture_begin(f, "designs/demo.ddb.yaml", text);
	free(text);
	ddbc_diag_add(&f->d, DDBC_RULE_SCHEMA, at(8, 27),
		      "unknown type 'Strng' for attribute '名前'; did you mean 'String'?");
	ddbc_diag_add(&f->d, DDBC_RULE_RESERVED_WORD, at(8, 23),
		      "attribute name '名前' is a reserved word");
	ddbc_diag_add(&f->d, DDBC_RULE_HOT_PARTITION, at(5, 20),
		      "partition key 'PK' of table '表' has few values");
	ddbc_diag_add(&f->d, DDBC_RULE_SCHEMA, at(6, 2), "unknown field 'sort_key' after a tab");
	ddbc_diag_add(&f->d, DDBC_RULE_SCHEMA, at(9, 14), "a line too long to quote");
	ddbc_diag_add(&f->d, DDBC_RULE_SCHEMA, at(10, 8), "an unprintable line \"100%%\"");
	ddbc_diag_add(&f->d, DDBC_RULE_YAML_SYNTAX, at(12, 1), "a position past the end");
	ddbc_diag_add(&f->d, DDBC_RULE_DUPLICATE_KEY, at(8, 27), "the second finding at 8:27");
	ddbc_diag_add(&f->d, DDBC_RULE_MISSING_DESCRIPTION, at(2, 1), "off: never printed");
	/* Rules early in the catalogue, so that their ruleIndex stays. */
	ddbc_diags_suppress(&f->d, DDBC_RULE_DUPLICATE_KEY, 7, at(7, 12), "one key on purpose");
	ddbc_diags_suppress(&f->d, DDBC_RULE_SCHEMA, 7, at(6, 9), NULL);
	ddbc_diag_add(&f->d, DDBC_RULE_DUPLICATE_KEY, at(7, 1), "suppressed, with a reason");
	ddbc_diag_add(&f->d, DDBC_RULE_SCHEMA, at(7, 3), "suppressed, without a reason");
	ddbc_diags_finish(&f->d, NULL, NULL);
}

/* What the printer writes for d in format. */
static char *print(const ddbc_diags *d, ddbc_diag_format format, bool color, size_t *len)
{
	char *buf = NULL;
	FILE *out = open_memstream(&buf, len);
	ck_assert_ptr_nonnull(out);
	ddbc_print_opts opts = { format, color, 1, DDBC_SEV_OFF };
	ddbc_diags_print(out, d, &opts);
	fclose(out);
	return buf;
}

/* SARIF names the version: a placeholder keeps
 * the golden independent of ./configure. The driver's rules are the rule
 * list (test_sarif_shape checks them), masked so a new rule changes no
 * golden. */
static char *normalise_sarif(const char *s)
{
	char *m = tu_mask_json(s, "rules");
	char *b = tu_replace(m, "\"" PACKAGE_VERSION "\"", "\"@VERSION@\"");
	free(m);
	return b;
}

static void expect_golden(ddbc_diag_format format, bool color, const char *golden)
{
	struct fixture f;
	golden_findings(&f);
	size_t len;
	char *out = print(&f.d, format, color, &len);
	if (format == DDBC_DIAG_SARIF) {
		char *n = normalise_sarif(out);
		free(out);
		out = n;
		len = strlen(n);
	}
	tu_expect_golden(golden, out, len);
	free(out);
	fixture_end(&f);
}

/* Repeated notes about one subject fold in text, past DDBC_FOLD_AT of
 * them: the first printed, then the count and the others' lines. Notes of
 * another subject, three of a subject, a warning about the subject and a
 * suppressed note (shown on request) print each; JSON lists every one. */
START_TEST(test_text_folds_repeated_notes)
{
	struct fixture f;
	strbuf src = STRBUF_INIT;
	for (int i = 1; i <= 20; i++)
		ddbc_strbuf_addf(&src, "line %d\n", i);
	fixture_begin(&f, "designs/fold.ddb.yaml", src.buf);
	ddbc_strbuf_release(&src);
	for (unsigned line = 2; line <= 16; line += 2)
		ddbc_diag_add_about(&f.d, DDBC_RULE_RESERVED_WORD, at(line, 1), "Region",
				    "'Region' at line %u", line);
	for (unsigned line = 3; line <= 7; line += 2)
		ddbc_diag_add_about(&f.d, DDBC_RULE_RESERVED_WORD, at(line, 1), "Comment",
				    "'Comment' at line %u", line);
	ddbc_diag_add_about(&f.d, DDBC_RULE_MISSING_DESCRIPTION, at(18, 1), "Region",
			    "a warning about 'Region'");
	ddbc_diags_suppress(&f.d, DDBC_RULE_RESERVED_WORD, 20, at(19, 3), NULL);
	ddbc_diag_add_about(&f.d, DDBC_RULE_RESERVED_WORD, at(20, 1), "Region",
			    "'Region' suppressed");
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	cli.sev[DDBC_RULE_MISSING_DESCRIPTION] = DDBC_SEV_WARNING;
	ddbc_diags_finish(&f.d, &cli, NULL);
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);
	ddbc_print_opts opts = { DDBC_DIAG_TEXT, false, 1, DDBC_SEV_OFF };
	opts.show_suppressed = true;
	ddbc_diags_print(out, &f.d, &opts);
	fclose(out);
	ck_assert_msg(strstr(buf, "'Region' at line 2 [reserved-word]\n"), "%s", buf);
	ck_assert_msg(strstr(buf, "designs/fold.ddb.yaml: note: 7 more notes like this one about "
			     "'Region', at lines 4, 6, 8, 10, 12, ...; --format json lists each "
			     "[reserved-word]\n"), "%s", buf);
	for (unsigned line = 4; line <= 16; line += 2) {
		char m[64];
		snprintf(m, sizeof m, "'Region' at line %u ", line);
		ck_assert_msg(!strstr(buf, m), "%s printed: %s", m, buf);
	}
	ck_assert(strstr(buf, "'Comment' at line 3 ") && strstr(buf, "'Comment' at line 5 ") &&
		  strstr(buf, "'Comment' at line 7 ") && !strstr(buf, "about 'Comment'"));
	ck_assert(strstr(buf, "a warning about 'Region'"));
	ck_assert(strstr(buf, "suppressed note: 'Region' suppressed"));
	free(buf);
	buf = NULL;
	out = open_memstream(&buf, &len);
	opts.format = DDBC_DIAG_JSON;
	ddbc_diags_print(out, &f.d, &opts);
	fclose(out);
	ck_assert(strstr(buf, "'Region' at line 16") && !strstr(buf, "more notes"));
	free(buf);
	fixture_end(&f);
}
END_TEST

START_TEST(test_golden_text) { expect_golden(DDBC_DIAG_TEXT, false, "tests/golden/diag/text.out"); }
END_TEST

START_TEST(test_golden_text_color)
{
	expect_golden(DDBC_DIAG_TEXT, true, "tests/golden/diag/text-color.out");
}
END_TEST

START_TEST(test_golden_json) { expect_golden(DDBC_DIAG_JSON, false, "tests/golden/diag/json.out"); }
END_TEST

START_TEST(test_golden_sarif)
{
	expect_golden(DDBC_DIAG_SARIF, false, "tests/golden/diag/sarif.out");
}
END_TEST

START_TEST(test_golden_github)
{
	expect_golden(DDBC_DIAG_GITHUB, false, "tests/golden/diag/github.out");
}
END_TEST

START_TEST(test_text_shape)
{
	/* What the golden shows, stated: GCC's first line, the quoted line,
	 * a caret under the column counted in cells. */
	struct fixture f;
	golden_findings(&f);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_TEXT, false, &len);
	ck_assert(tu_contains(out, len,
		"designs/demo.ddb.yaml:8:27: error: unknown type 'Strng' for attribute '名前'; "
		"did you mean 'String'? [schema]\n"
		"    8 |   User: {attributes: {名前: Strng}}\n"
		"      | " "                            ^\n"));
	ck_assert(tu_contains(out, len, "    6 | \tsort_key: SK\n      | \t^\n"));
	/* No escape sequence and no invalid UTF-8 from the input reaches the output. */
	ck_assert(!tu_contains(out, len, "\x1b"));
	ck_assert(!tu_contains(out, len, "\xff"));
	ck_assert(tu_contains(out, len, "   10 | bad: \"?[31m?\"\n"));
	/* Long lines and positions past the end are not quoted. */
	ck_assert(tu_contains(out, len, "[schema]\ndesigns/demo.ddb.yaml:10:8:"));
	ck_assert(tu_contains(out, len, "a position past the end [yaml-syntax]\n"));
	ck_assert(!tu_contains(out, len, "never printed"));
	free(out);
	fixture_end(&f);
}
END_TEST

START_TEST(test_text_message_not_terminal)
{
	/* A message quoting a hostile name cannot drive the terminal. */
	struct fixture f;
	fixture_begin(&f, "x.yaml", "\"\\e[2J\": 1\n");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "unknown field '%s'", "\x1b[2J\x07\x9b");
	ddbc_diags_finish(&f.d, NULL, NULL);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_TEXT, false, &len);
	ck_assert(!tu_contains(out, len, "\x1b"));
	ck_assert(!tu_contains(out, len, "\x07"));
	ck_assert(tu_contains(out, len, "unknown field '?[2J?\?'"));
	free(out);
	fixture_end(&f);
}
END_TEST

START_TEST(test_text_color_codes)
{
	struct fixture f;
	golden_findings(&f);
	size_t len;
	char *plain = print(&f.d, DDBC_DIAG_TEXT, false, &len);
	ck_assert(!tu_contains(plain, len, "\033["));
	free(plain);
	char *color = print(&f.d, DDBC_DIAG_TEXT, true, &len);
	ck_assert(tu_contains(color, len, "\033[1;31merror:\033[0m"));
	ck_assert(tu_contains(color, len, "\033[1;35mwarning:\033[0m"));
	ck_assert(tu_contains(color, len, "\033[1;36mnote:\033[0m"));
	ck_assert(tu_contains(color, len, "\033[1mdesigns/demo.ddb.yaml:8:27:\033[0m"));
	ck_assert(tu_contains(color, len, "\033[1;32m^\033[0m"));
	free(color);
	fixture_end(&f);
}
END_TEST

START_TEST(test_json_shape)
{
	struct fixture f;
	golden_findings(&f);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_JSON, false, &len);
	/* One line: one object. */
	ck_assert_int_eq(out[len - 1], '\n');
	ck_assert_ptr_eq(memchr(out, '\n', len), out + len - 1);
	json_error_t err;
	json_t *root = json_loadb(out, len, 0, &err);
	ck_assert_msg(root != NULL, "invalid JSON: %s", err.text);
	json_t *list = json_object_get(root, "diagnostics");
	ck_assert_uint_eq(json_array_size(list), f.d.n);
	json_t *first = json_array_get(list, 0);
	ck_assert_str_eq(json_string_value(json_object_get(first, "file")), "designs/demo.ddb.yaml");
	ck_assert_int_eq(json_integer_value(json_object_get(first, "line")), 5);
	ck_assert_int_eq(json_integer_value(json_object_get(first, "column")), 20);
	ck_assert_str_eq(json_string_value(json_object_get(first, "severity")), "warning");
	ck_assert_str_eq(json_string_value(json_object_get(first, "rule")), "hot-partition");
	ck_assert_str_eq(json_string_value(json_object_get(first, "message")),
			 "partition key 'PK' of table '表' has few values");
	json_t *summary = json_object_get(root, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "files")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "errors")), 6);
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "warnings")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(summary, "notes")), 1);
	json_decref(root);
	free(out);
	fixture_end(&f);
}
END_TEST

START_TEST(test_sarif_shape)
{
	struct fixture f;
	golden_findings(&f);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_SARIF, false, &len);
	json_error_t err;
	json_t *root = json_loadb(out, len, 0, &err);
	ck_assert_msg(root != NULL, "invalid JSON: %s", err.text);
	ck_assert_str_eq(json_string_value(json_object_get(root, "version")), "2.1.0");
	json_t *run = json_array_get(json_object_get(root, "runs"), 0);
	json_t *driver = json_object_get(json_object_get(run, "tool"), "driver");
	ck_assert_str_eq(json_string_value(json_object_get(driver, "name")), "ddbc");
	json_t *rules = json_object_get(driver, "rules");
	ck_assert_uint_eq(json_array_size(rules), DDBC_RULE_COUNT);
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		const ddbc_rule_info *info = ddbc_rule_get((ddbc_rule)i);
		json_t *rule = json_array_get(rules, (size_t)i);
		ck_assert_str_eq(json_string_value(json_object_get(rule, "id")), info->id);
		json_t *desc = json_object_get(json_object_get(rule, "shortDescription"), "text");
		ck_assert_str_eq(json_string_value(desc), info->summary);
		/* The rule's page travels with it, as code scanning shows it; a
		 * link only to pages someone configured as published. */
		char name[128];
		snprintf(name, sizeof name, "rules/%s.md", info->id);
		const ddbc_embedded_file *page = ddbc_embedded_find(name);
		ck_assert_msg(page != NULL, "no page for %s", info->id);
		json_t *help = json_object_get(rule, "help");
		ck_assert_str_eq(json_string_value(json_object_get(help, "markdown")), page->data);
		ck_assert_ptr_nonnull(json_string_value(json_object_get(help, "text")));
		json_t *uri = json_object_get(rule, "helpUri");
		if (DDBC_HELP_URI[0] == '\0' && !getenv("DDBC_HELP_URI"))
			ck_assert_ptr_null(uri);
		else if (uri)
			ck_assert(strncmp(json_string_value(uri), "https://", 8) == 0);
	}
	ck_assert_ptr_null(json_object_get(driver, "informationUri"));
	json_t *results = json_object_get(run, "results");
	ck_assert_uint_eq(json_array_size(results), f.d.n);
	for (size_t i = 0; i < f.d.n; i++) {
		json_t *r = json_array_get(results, i);
		/* ruleIndex points at the rule ruleId names. */
		json_int_t ix = json_integer_value(json_object_get(r, "ruleIndex"));
		const char *id = json_string_value(json_object_get(r, "ruleId"));
		ck_assert_str_eq(json_string_value(json_object_get(json_array_get(rules, (size_t)ix),
								   "id")), id);
		ck_assert_str_eq(id, ddbc_rule_get(f.d.items[i].rule)->id);
		json_t *loc = json_object_get(json_array_get(json_object_get(r, "locations"), 0),
					      "physicalLocation");
		json_t *region = json_object_get(loc, "region");
		ck_assert_int_eq(json_integer_value(json_object_get(region, "startLine")),
				 f.d.items[i].loc.line);
		ck_assert_int_eq(json_integer_value(json_object_get(region, "startColumn")),
				 f.d.items[i].loc.column);
		json_t *art = json_object_get(loc, "artifactLocation");
		ck_assert_str_eq(json_string_value(json_object_get(art, "uri")), "designs/demo.ddb.yaml");
		ck_assert_str_eq(json_string_value(json_object_get(art, "uriBaseId")), "%SRCROOT%");
	}
	json_t *level = json_object_get(json_array_get(results, 1), "level");
	ck_assert_str_eq(json_string_value(level), "error");
	json_decref(root);
	free(out);
	fixture_end(&f);
}
END_TEST

START_TEST(test_sarif_uri)
{
	/* An absolute path has no base; characters outside a URI's are
	 * percent-encoded. */
	struct fixture f;
	fixture_begin(&f, "/tmp/my designs/設計#1.yaml", "x\n");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "m");
	ddbc_diags_finish(&f.d, NULL, NULL);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_SARIF, false, &len);
	ck_assert(tu_contains(out, len,
			      "\"uri\": \"/tmp/my%20designs/%E8%A8%AD%E8%A8%88%231.yaml\""));
	ck_assert(!tu_contains(out, len, "uriBaseId"));
	free(out);
	fixture_end(&f);
}
END_TEST

START_TEST(test_github_escapes)
{
	/* Data escapes %, CR and LF; properties also ',' and ':'. */
	struct fixture f;
	fixture_begin(&f, "dir,x/a:b%.yaml", "x\n");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 2), "100%% done\r\nnext: a,b::c");
	ddbc_diag_add(&f.d, DDBC_RULE_RESERVED_WORD, at(3, 4), "note");
	ddbc_diag_add(&f.d, DDBC_RULE_PATTERN_SCAN, at(2, 1), "warn");
	ddbc_diags_finish(&f.d, NULL, NULL);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_GITHUB, false, &len);
	ck_assert_str_eq(out,
		"::error file=dir%2Cx/a%3Ab%25.yaml,line=1,col=2,title=schema::"
		"100%25 done%0D%0Anext: a,b::c\n"
		"::warning file=dir%2Cx/a%3Ab%25.yaml,line=2,col=1,title=pattern-scan::warn\n"
		"::notice file=dir%2Cx/a%3Ab%25.yaml,line=3,col=4,title=reserved-word::note\n");
	free(out);
	fixture_end(&f);
}
END_TEST

START_TEST(test_print_nothing)
{
	/* No findings: text and github print nothing, json and sarif an empty list. */
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	ddbc_diags_finish(&f.d, NULL, NULL);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_TEXT, true, &len);
	ck_assert_uint_eq(len, 0);
	free(out);
	out = print(&f.d, DDBC_DIAG_GITHUB, false, &len);
	ck_assert_uint_eq(len, 0);
	free(out);
	out = print(&f.d, DDBC_DIAG_JSON, false, &len);
	ck_assert_str_eq(out, "{\"diagnostics\":[],\"summary\":{\"files\":1,\"errors\":0,"
			      "\"warnings\":0,\"notes\":0,\"suppressed\":0}}\n");
	free(out);
	out = print(&f.d, DDBC_DIAG_SARIF, false, &len);
	ck_assert(tu_contains(out, len, "\"results\": []"));
	free(out);
	fixture_end(&f);
}
END_TEST

/* ---- suppressions ---------------------------------------------------------------- */

START_TEST(test_suppress_counts)
{
	/* A suppressed finding stays, marked, with its reason, and counts only
	 * as suppressed. */
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	ddbc_diags_suppress(&f.d, DDBC_RULE_SCHEMA, 3, at(3, 20), "on purpose");
	ddbc_diags_suppress(&f.d, DDBC_RULE_PATTERN_SCAN, 3, at(2, 5), NULL);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(3, 1), "suppressed");
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(4, 1), "another line");
	ddbc_diag_add(&f.d, DDBC_RULE_DUPLICATE_KEY, at(3, 2), "another rule");
	ddbc_diag_add(&f.d, DDBC_RULE_PATTERN_SCAN, at(3, 9), "no reason");
	ddbc_diags_finish(&f.d, NULL, NULL);
	ck_assert_uint_eq(f.d.n, 4);
	ck_assert(f.d.items[0].suppressed);
	ck_assert_str_eq(f.d.items[0].reason, "on purpose");
	ck_assert(!f.d.items[1].suppressed);
	ck_assert_ptr_null(f.d.items[1].reason);
	ck_assert(f.d.items[2].suppressed);
	ck_assert_ptr_null(f.d.items[2].reason);
	ck_assert(!f.d.items[3].suppressed);
	ddbc_counts n = ddbc_diags_count(&f.d);
	ck_assert_uint_eq(n.errors, 2);
	ck_assert_uint_eq(n.warnings, 0);
	ck_assert_uint_eq(n.suppressed, 2);
	fixture_end(&f);
}
END_TEST

START_TEST(test_suppress_unused)
{
	/* Each suppression that suppressed nothing is a note at the rule's
	 * name, once; a rule that is off judges nothing. */
	struct fixture f;
	fixture_begin(&f, "x.yaml", "x\n");
	ddbc_settings cli, design;
	ddbc_settings_init(&cli);
	ddbc_settings_init(&design);
	cli.sev[DDBC_RULE_PATTERN_SCAN] = DDBC_SEV_OFF;
	design.sev[DDBC_RULE_RESERVED_WORD] = DDBC_SEV_OFF;
	ddbc_diags_suppress(&f.d, DDBC_RULE_SCHEMA, 3, at(3, 20), NULL);
	ddbc_diags_suppress(&f.d, DDBC_RULE_SCHEMA, 5, at(4, 18), NULL);
	ddbc_diags_suppress(&f.d, DDBC_RULE_SCHEMA, 0, at(9, 18), NULL);
	ddbc_diags_suppress(&f.d, DDBC_RULE_PATTERN_SCAN, 3, at(3, 30), NULL);
	ddbc_diags_suppress(&f.d, DDBC_RULE_RESERVED_WORD, 3, at(3, 40), NULL);
	ddbc_diags_suppress(&f.d, DDBC_RULE_MISSING_DESCRIPTION, 3, at(3, 50), NULL);
	ddbc_diags_finish(&f.d, &cli, &design);
	tu_expect_count(&f.d, 3);
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 3, 20,
		       "'schema' suppresses nothing: no such finding on this line; remove it");
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 4, 18,
		       "'schema' suppresses nothing: no such finding on line 5, the next line "
		       "of YAML; remove it");
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 9, 18,
		       "'schema' suppresses nothing: no line of YAML follows the comment");
	ck_assert_int_eq(f.d.items[0].severity, DDBC_SEV_NOTE);
	/* Judged once: a later finish (an emitter's findings) adds none. */
	ddbc_diags_finish(&f.d, &cli, &design);
	tu_expect_count(&f.d, 3);
	fixture_end(&f);

	/* unused-suppression set off, or to an error, like any rule. */
	fixture_begin(&f, "x.yaml", "x\n");
	cli.sev[DDBC_RULE_UNUSED_SUPPRESSION] = DDBC_SEV_OFF;
	ddbc_diags_suppress(&f.d, DDBC_RULE_SCHEMA, 3, at(3, 20), NULL);
	ddbc_diags_finish(&f.d, &cli, NULL);
	tu_expect_count(&f.d, 0);
	fixture_end(&f);
	fixture_begin(&f, "x.yaml", "x\n");
	cli.sev[DDBC_RULE_UNUSED_SUPPRESSION] = DDBC_SEV_ERROR;
	ddbc_diags_suppress(&f.d, DDBC_RULE_SCHEMA, 3, at(3, 20), NULL);
	ddbc_diags_finish(&f.d, &cli, NULL);
	ck_assert_uint_eq(ddbc_diags_count(&f.d).errors, 1);
	fixture_end(&f);
}
END_TEST

START_TEST(test_suppress_per_source)
{
	/* A source's suppressions end with it; clearing the printed findings
	 * keeps them for the findings that come later. */
	struct fixture f;
	fixture_begin(&f, "a.yaml", "x\n");
	ddbc_diags_suppress(&f.d, DDBC_RULE_SCHEMA, 1, at(1, 9), NULL);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "a");
	ddbc_diags_finish(&f.d, NULL, NULL);
	ddbc_diags_clear(&f.d);
	tu_expect_count(&f.d, 0);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 2), "later, same source");
	ddbc_diags_finish(&f.d, NULL, NULL);
	tu_expect_count(&f.d, 1);
	ck_assert(f.d.items[0].suppressed);
	ddbc_diags_begin(&f.d, f.src);
	ddbc_diag_add(&f.d, DDBC_RULE_SCHEMA, at(1, 1), "next source");
	ddbc_diags_finish(&f.d, NULL, NULL);
	tu_expect_count(&f.d, 2);
	ck_assert(!f.d.items[1].suppressed);
	fixture_end(&f);
}
END_TEST

START_TEST(test_text_show_suppressed)
{
	/* Hidden by default; shown on request with a severity word that no
	 * tool takes for an error, and the reason. */
	struct fixture f;
	golden_findings(&f);
	size_t len;
	char *out = print(&f.d, DDBC_DIAG_TEXT, false, &len);
	ck_assert(!tu_contains(out, len, "suppressed"));
	free(out);
	char *buf = NULL;
	FILE *mem = open_memstream(&buf, &len);
	ddbc_print_opts opts = { DDBC_DIAG_TEXT, false, 1, DDBC_SEV_OFF, true };
	ddbc_diags_print(mem, &f.d, &opts);
	fclose(mem);
	ck_assert(tu_contains(buf, len, "designs/demo.ddb.yaml:7:1: suppressed error: suppressed, "
					"with a reason [duplicate-key] -- one key on purpose\n"
					"    7 | entities:\n"));
	ck_assert(tu_contains(buf, len, "designs/demo.ddb.yaml:7:3: suppressed error: suppressed, "
					"without a reason [schema]\n"));
	free(buf);
	/* github has no way to mark them: never printed. */
	out = print(&f.d, DDBC_DIAG_GITHUB, false, &len);
	ck_assert(!tu_contains(out, len, "suppressed"));
	free(out);
	fixture_end(&f);
}
END_TEST

/* ---- ddbc-ignore comments in a design ------------------------------------------- */

/* A design whose attributes start at line 14 (%s). */
static const char design_head[] =
	"ddbc: 1\n"
	"name: shop\n"
	"tables:\n"
	"  Orders:\n"
	"    partition_key: PK\n"
	"    sort_key: SK\n"
	"entities:\n"
	"  Order:\n"
	"    attributes:\n"
	"      PK: { type: S, template: \"CUSTOMER#{customerId}\" }\n"
	"      SK: { type: S, template: \"ORDER#{orderId}\" }\n"
	"      customerId: S\n"
	"      orderId: S\n";

/* Checks the design with attrs from line 14 as `ddbc lint` does. */
static void lint_attrs(struct fixture *f, const char *attrs, const ddbc_settings *cli)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, design_head);
	ddbc_strbuf_addstr(&sb, attrs);
	fixture_begin(f, "test.ddb.yaml", ddbc_strbuf_str(&sb));
	ddbc_strbuf_release(&sb);
	ddbc_settings none;
	ddbc_settings_init(&none);
	ddbc_design_free(ddbc_check(f->src, &f->d, cli ? cli : &none));
}

/* Whether the finding of rule at line:col is there and suppressed. */
static bool suppressed_at(const ddbc_diags *d, ddbc_rule rule, unsigned line, unsigned col)
{
	const ddbc_diag *g = tu_find_diag(d, rule, line, col, NULL);
	ck_assert_msg(g != NULL, "no [%s] at %u:%u:\n%s", ddbc_rule_get(rule)->id, line, col,
		      tu_diags_dump(d));
	return g->suppressed;
}

static const struct {
	const char *what, *attrs;
	unsigned line;           /* of the reserved-word finding on 'status' */
	bool suppressed;
} comment_cases[] = {
	{ "at the end of the line", "      status: S  # ddbc-ignore: reserved-word\n", 14, true },
	{ "no blank after '#' and ':'", "      status: S  #ddbc-ignore:reserved-word\n", 14, true },
	{ "alone on the line before", "      # ddbc-ignore: reserved-word\n      status: S\n", 15,
	  true },
	{ "past blank lines and comment lines",
	  "      # ddbc-ignore: reserved-word -- x\n\n      # more\n   \n      status: S\n", 18,
	  true },
	{ "the next line of YAML only",
	  "      # ddbc-ignore: reserved-word\n      amount: N\n      status: S\n", 16, false },
	{ "the end of another line",
	  "      amount: N  # ddbc-ignore: reserved-word\n      status: S\n", 15, false },
	{ "right after a closing quote", "      status: \"S\"# ddbc-ignore: reserved-word\n", 14,
	  true },
	{ "right after a flow indicator",
	  "      status: [S,# ddbc-ignore: reserved-word\n        ]\n", 14, true },
	{ "right after a flow value indicator",
	  "      status: {\"type\":# ddbc-ignore: reserved-word\n        S}\n", 14, true },
	{ "a flow mapping's line",
	  "      status: { type: S }  # ddbc-ignore: reserved-word\n", 14, true },
	{ "a block scalar's header line",
	  "      status: { type: S, description: x }\n"
	  "      amount:\n        type: N\n        description: |  # ddbc-ignore: reserved-word\n"
	  "          text\n", 14, false },
	{ "a double-quoted scalar is text",
	  "      status: { type: S, description: \"a # ddbc-ignore: reserved-word\" }\n", 14,
	  false },
	{ "a quoted scalar after wide characters",
	  "      amount: { type: N, description: 状態状態状態 }\n"
	  "      status: { type: S, description: \"x # ddbc-ignore: reserved-word\" }\n", 15,
	  false },
	{ "the end of a line after wide characters",
	  "      amount: { type: N, description: 状態状態状態 }\n"
	  "      status: { type: S, description: 状態 }  # ddbc-ignore: reserved-word\n", 15,
	  true },
	{ "a single-quoted scalar is text",
	  "      status: { type: S, description: 'a # ddbc-ignore: reserved-word' }\n", 14,
	  false },
	{ "a multi-line quoted scalar is text",
	  "      amount:\n        type: N\n        description: \"first\n"
	  "          # ddbc-ignore: reserved-word\n          last\"\n      status: S\n", 19,
	  false },
	{ "a block scalar's line is text",
	  "      amount:\n        type: N\n        description: |\n          first\n"
	  "          # ddbc-ignore: reserved-word\n      status: S\n", 19, false },
	{ "a folded scalar's line is text",
	  "      amount:\n        type: N\n        description: >-\n"
	  "          # ddbc-ignore: reserved-word\n      status: S\n", 18, false },
	{ "a plain scalar's '#' without a blank is text",
	  "      status: { type: S, description: a#ddbc-ignore:reserved-word }\n", 14, false },
	{ "another word", "      status: S  # ddbc-ignored: reserved-word\n", 14, false },
	{ "not the first word", "      status: S  # see ddbc-ignore: reserved-word\n", 14, false },
};

START_TEST(test_comment_placement)
{
	struct fixture f;
	lint_attrs(&f, comment_cases[_i].attrs, NULL);
	bool got = suppressed_at(&f.d, DDBC_RULE_RESERVED_WORD, comment_cases[_i].line, 7);
	ck_assert_msg(got == comment_cases[_i].suppressed, "%s: suppressed is %d, expected %d",
		      comment_cases[_i].what, got, comment_cases[_i].suppressed);
	/* Text that is no comment is no suppression either: no note about it. */
	if (!comment_cases[_i].suppressed && !strstr(comment_cases[_i].what, "line"))
		ck_assert_ptr_null(tu_find_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 0, 0, NULL));
	fixture_end(&f);
}
END_TEST

START_TEST(test_comment_several_rules)
{
	/* Two rules on one line, one reason for both, and a third that
	 * suppresses nothing. */
	struct fixture f;
	lint_attrs(&f, "      status: Strng  # ddbc-ignore: reserved-word , schema,pattern-scan "
		       "--  the type comes later  \n", NULL);
	ck_assert(suppressed_at(&f.d, DDBC_RULE_RESERVED_WORD, 14, 7));
	ck_assert(suppressed_at(&f.d, DDBC_RULE_SCHEMA, 14, 15));
	const ddbc_diag *g = tu_find_diag(&f.d, DDBC_RULE_SCHEMA, 14, 15, NULL);
	ck_assert_str_eq(g->reason, "the type comes later");
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 14, 60, "'pattern-scan' suppresses");
	tu_expect_count(&f.d, 3);
	/* The error is suppressed: nothing fails. */
	ddbc_counts n = ddbc_diags_count(&f.d);
	ck_assert_uint_eq(n.errors, 0);
	ck_assert_uint_eq(n.notes, 1);
	fixture_end(&f);
}
END_TEST

static const struct {
	const char *comment;
	unsigned col;
	const char *message;
} bad_comments[] = {
	{ "# ddbc-ignore: reserved-wrd", 32,
	  "unknown rule 'reserved-wrd' in ddbc-ignore; did you mean 'reserved-word'?" },
	{ "# ddbc-ignore: reserved-word, nothing-like-a-rule", 47,
	  "unknown rule 'nothing-like-a-rule' in ddbc-ignore; 'ddbc explain' lists the rules" },
	{ "# ddbc-ignore: yaml-syntax", 32, "'yaml-syntax' cannot be suppressed" },
	{ "# ddbc-ignore: unused-suppression", 32,
	  "'unused-suppression' cannot be suppressed by a comment; turn it off with --rule or "
	  "lint.rules" },
	{ "# ddbc-ignore reserved-word", 17, "malformed ddbc-ignore comment; write '# "
	  "ddbc-ignore: RULE[, RULE...] [-- reason]'" },
	{ "# ddbc-ignore", 17, "malformed ddbc-ignore comment" },
	{ "# ddbc-ignore:", 17, "malformed ddbc-ignore comment" },
	{ "# ddbc-ignore: -- a reason", 17, "malformed ddbc-ignore comment" },
	{ "# ddbc-ignore: reserved-word,, schema", 17, "malformed ddbc-ignore comment" },
	{ "# ddbc-ignore: reserved-word,", 17, "malformed ddbc-ignore comment" },
};

START_TEST(test_comment_bad)
{
	/* A comment that cannot suppress is an unused-suppression note at the
	 * word at fault (the '#' when its shape is); the finding stays. */
	struct fixture f;
	char attrs[256];
	snprintf(attrs, sizeof(attrs), "      key: S    %s\n", bad_comments[_i].comment);
	lint_attrs(&f, attrs, NULL);
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 14, bad_comments[_i].col,
		       bad_comments[_i].message);
	/* No part of a malformed comment suppresses; the known rules of a
	 * well-formed one do. */
	bool malformed = strstr(bad_comments[_i].message, "malformed") != NULL;
	if (strstr(bad_comments[_i].comment, "reserved-word"))
		ck_assert(suppressed_at(&f.d, DDBC_RULE_RESERVED_WORD, 14, 7) == !malformed);
	ck_assert_int_eq(tu_find_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 14,
				      bad_comments[_i].col, NULL)->severity, DDBC_SEV_NOTE);
	fixture_end(&f);
}
END_TEST

START_TEST(test_comment_rule_off)
{
	/* A suppression of a rule that is off is not judged: off on the
	 * command line, in lint.rules, or by default. */
	struct fixture f;
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	cli.sev[DDBC_RULE_RESERVED_WORD] = DDBC_SEV_OFF;
	lint_attrs(&f, "      status: S  # ddbc-ignore: reserved-word, missing-description\n", &cli);
	tu_expect_count(&f.d, 0);
	fixture_end(&f);
	lint_attrs(&f, "      status: S  # ddbc-ignore: reserved-word\n"
		       "lint: { rules: { reserved-word: off } }\n", NULL);
	tu_expect_count(&f.d, 0);
	fixture_end(&f);
	/* Turned on, it is used again. */
	cli.sev[DDBC_RULE_RESERVED_WORD] = DDBC_SEV_ERROR;
	lint_attrs(&f, "      status: S  # ddbc-ignore: reserved-word\n"
		       "lint: { rules: { reserved-word: off } }\n", &cli);
	tu_expect_count(&f.d, 1);
	ck_assert(f.d.items[0].suppressed);
	ck_assert_uint_eq(ddbc_diags_count(&f.d).errors, 0);
	fixture_end(&f);
}
END_TEST

START_TEST(test_comment_unicode_columns)
{
	/* Columns count characters, as libyaml's marks do. */
	struct fixture f;
	lint_attrs(&f, "      status: { type: S, description: 状態 }  # ddbc-ignore: reserved-wrd\n",
		   NULL);
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 14, 60, "'reserved-wrd'");
	fixture_end(&f);
}
END_TEST

START_TEST(test_comment_block_header)
{
	/* A comment on a block scalar's header line is a comment of that line. */
	struct fixture f;
	lint_attrs(&f, "      amount:\n        type: N\n"
		       "        descripton: >-  # ddbc-ignore: schema -- a typo kept\n"
		       "          text # ddbc-ignore: reserved-word\n", NULL);
	ck_assert(suppressed_at(&f.d, DDBC_RULE_SCHEMA, 16, 9));
	tu_expect_count(&f.d, 1);
	fixture_end(&f);
}
END_TEST

START_TEST(test_comment_after_anchor)
{
	/* A comment between a node's anchor and its text applies to the
	 * text's line; it is no part of the scalar. */
	struct fixture f;
	lint_attrs(&f, "      amount: { type: &t\n          # ddbc-ignore: schema\n"
		       "          Strng }\n", NULL);
	ck_assert(!suppressed_at(&f.d, DDBC_RULE_SCHEMA, 14, 23));
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 15, 26, "no such finding on line 16");
	fixture_end(&f);
	lint_attrs(&f, "      amount: { type: !!str\n          # ddbc-ignore: schema\n"
		       "          Strng }  # ddbc-ignore: schema\n", NULL);
	tu_expect_diag(&f.d, DDBC_RULE_UNUSED_SUPPRESSION, 15, 26, "no such finding on line 16");
	ck_assert(!suppressed_at(&f.d, DDBC_RULE_SCHEMA, 14, 23));
	fixture_end(&f);
}
END_TEST

START_TEST(test_comment_not_yaml)
{
	/* A file that is no YAML gets its syntax error only: its comments
	 * are not read. */
	struct fixture f;
	lint_attrs(&f, "      status: S  # ddbc-ignore: reserved-word, yaml-syntax\n"
		       "      bad: [\n", NULL);
	tu_expect_count(&f.d, 1);
	ck_assert_int_eq(f.d.items[0].rule, DDBC_RULE_YAML_SYNTAX);
	ck_assert(!f.d.items[0].suppressed);
	fixture_end(&f);
}
END_TEST

/* ddbc_strbuf_addf writes strings and integers itself: byte for byte what
 * snprintf writes, and the rest through it. */
#define SAME_AS_SNPRINTF(...)						\
	do {								\
		char want[512];						\
		snprintf(want, sizeof want, __VA_ARGS__);		\
		strbuf sb = STRBUF_INIT;				\
		ddbc_strbuf_addstr(&sb, "<");				\
		ddbc_strbuf_addf(&sb, __VA_ARGS__);				\
		ck_assert_str_eq(sb.buf + 1, want);			\
		ck_assert_uint_eq(sb.len, strlen(want) + 1);		\
		ddbc_strbuf_release(&sb);					\
	} while (0)

START_TEST(test_strbuf_addf_like_snprintf)
{
	/* Through a volatile, so that the compiler does not warn of it. */
	const char *volatile null_string = NULL;
	const char *none = null_string;
	char long_text[300];
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	SAME_AS_SNPRINTF("%s", "");
	SAME_AS_SNPRINTF("plain text, no conversion");
	SAME_AS_SNPRINTF("%s=%d;%u %%%c", "name", -42, 4000000000u, 'Q');
	SAME_AS_SNPRINTF("%d %d %d", 0, INT_MIN, INT_MAX);
	SAME_AS_SNPRINTF("%ld %lu %lld %llu", LONG_MIN, ULONG_MAX, LLONG_MIN, ULLONG_MAX);
	SAME_AS_SNPRINTF("%zu %zd %zd", SIZE_MAX, (ssize_t)-7, (ssize_t)12);
	SAME_AS_SNPRINTF("[%.*s] [%.*s] [%.*s]", 3, "abcdef", 0, "abc", -1, "whole");
	SAME_AS_SNPRINTF("[%.*s] [%.*s]", 10, "ab", 2, none);
	SAME_AS_SNPRINTF("%s and %s", long_text, long_text + 200);
	/* What the strbuf does not write itself goes to vsnprintf. */
	SAME_AS_SNPRINTF("%5s|%-4d|%02x|%.3g|%03o|%p", "ab", 7, 255, 3.14159, 8, (void *)0x10);
	SAME_AS_SNPRINTF("%ls %lc", L"", (wint_t)'w');
	SAME_AS_SNPRINTF("%s %zx %lx %.*d", "mixed", (size_t)255, 255ul, 3, 7);
	/* glibc writes "(null)" for a null string unless cut short. */
	SAME_AS_SNPRINTF("%s|%.*s|%.*s", none, 6, none, -1, none);
}
END_TEST

static Suite *diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("settings");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_utf8_valid);
	tcase_add_test(tc, test_settings_init);
	tcase_add_test(tc, test_settings_parse_ok);
	tcase_add_loop_test(tc, test_settings_parse_errors, 0,
			    sizeof(bad_settings) / sizeof(bad_settings[0]));
	tcase_add_test(tc, test_settings_long_rule);
	tcase_add_test(tc, test_rule_catalogue);
	tcase_add_test(tc, test_format_parse);
	suite_add_tcase(s, tc);

	tc = tcase_create("collect");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_severity_order);
	tcase_add_test(tc, test_severity_off_drops);
	tcase_add_test(tc, test_severity_fixed_rule);
	tcase_add_test(tc, test_fatal_flag);
	tcase_add_test(tc, test_sorted_by_position);
	tcase_add_test(tc, test_sorted_per_file);
	tcase_add_test(tc, test_settings_per_file);
	tcase_add_test(tc, test_finish_empty);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_message_format);
	suite_add_tcase(s, tc);

	tc = tcase_create("print");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_golden_text);
	tcase_add_test(tc, test_text_folds_repeated_notes);
	tcase_add_test(tc, test_golden_text_color);
	tcase_add_test(tc, test_golden_json);
	tcase_add_test(tc, test_golden_sarif);
	tcase_add_test(tc, test_golden_github);
	tcase_add_test(tc, test_text_shape);
	tcase_add_test(tc, test_text_message_not_terminal);
	tcase_add_test(tc, test_text_color_codes);
	tcase_add_test(tc, test_json_shape);
	tcase_add_test(tc, test_sarif_shape);
	tcase_add_test(tc, test_sarif_uri);
	tcase_add_test(tc, test_github_escapes);
	tcase_add_test(tc, test_print_nothing);
	tcase_add_test(tc, test_text_show_suppressed);
	suite_add_tcase(s, tc);

	tc = tcase_create("suppress");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_suppress_counts);
	tcase_add_test(tc, test_suppress_unused);
	tcase_add_test(tc, test_suppress_per_source);
	tcase_add_loop_test(tc, test_comment_placement, 0,
			    sizeof(comment_cases) / sizeof(comment_cases[0]));
	tcase_add_test(tc, test_comment_several_rules);
	tcase_add_loop_test(tc, test_comment_bad, 0, sizeof(bad_comments) / sizeof(bad_comments[0]));
	tcase_add_test(tc, test_comment_rule_off);
	tcase_add_test(tc, test_comment_unicode_columns);
	tcase_add_test(tc, test_comment_block_header);
	tcase_add_test(tc, test_comment_after_anchor);
	tcase_add_test(tc, test_comment_not_yaml);
	suite_add_tcase(s, tc);

	tc = tcase_create("strbuf");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_strbuf_addf_like_snprintf);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(diag_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
