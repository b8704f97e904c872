/* check_import_libs.c - the library readers' template reading: a Toolbox
 * link's code (import_toolbox_link.c) and a ${name} template
 * (import_libs.c), each form read, and what is no template refused */
#include "import/import_int.h"
#include "import/import_libs.h"
#include "import/import_toolbox.h"
#include "util/strbuf.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Placeholders of attributes a, b and n (a number), as the readers write them. */
static int name_of(void *ctx, const char *name, unsigned width, strbuf *out)
{
	(void)ctx;
	if (strcmp(name, "a") && strcmp(name, "b") && strcmp(name, "n"))
		return -1;
	ddbc_strbuf_addf(out, width ? "{%s:0%u}" : "{%s}", name, width);
	return 0;
}

static const tb_link_how how = { name_of, NULL };

/* The template link src reads as, or NULL when it reads as none. */
static char *link_of(const char *src, bool *sparse)
{
	strbuf out = STRBUF_INIT;
	bool s;
	if (ddbc_import_tb_link(&how, src, &out, sparse ? sparse : &s) < 0) {
		ddbc_strbuf_release(&out);
		return NULL;
	}
	return ddbc_strbuf_detach(&out);
}

static void ck_link(const char *src, const char *want)
{
	char *got = link_of(src, NULL);
	ck_assert_msg(got != NULL, "no template read from: %s", src);
	ck_assert_str_eq(got, want);
	free(got);
}

START_TEST(test_link_forms)
{
	ck_link("(i) => String(i[\"a\"]) + \"#\" + String(i[\"b\"])", "{a}#{b}");
	ck_link("({ a, b }) => `A#${a}#${b}`", "A#{a}#{b}");
	ck_link("({ a: x }) => 'X#' + x", "X#{a}");
	ck_link("item => item.a", "{a}");
	ck_link("(i) => i?.a.toString() + '}'", "{a}}}");
	ck_link("(i) => { return 'N#' + String(i.n).padStart(6, \"0\"); }", "N#{n:06}");
	ck_link("function (i) { return `${i.a}{x}`; }", "{a}{{x}}");
	ck_link("(i) => pad_(i[\"n\"], 4)", "{n:04}");
	ck_link("() => \"PROFILE\"", "PROFILE");
	ck_link("/* c */ (i) => (`${`${i.a}`}`)", "{a}");
}
END_TEST

START_TEST(test_link_sparse)
{
	bool sparse = false;
	char *got = link_of("(i) => i[\"a\"] === undefined || i.b === undefined ? undefined : "
			    "\"T#\" + String(i[\"a\"])", &sparse);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "T#{a}");
	ck_assert(sparse);
	free(got);
	got = link_of("(i) => 'T#' + i.a", &sparse);
	ck_assert(!sparse);
	free(got);
}
END_TEST

START_TEST(test_link_refused)
{
	static const char *const code[] = {
		"({ a }) => hash(a)",
		"(i) => i.a ? 'x' : 'y'",
		"(i) => i.unknown",
		"(i) => String(i.n).padStart(6, ' ')",
		"(i) => `${i.a}",
		"async (i) => i.a",
		"(i) => i.a; sideEffect()",
		"(i) => 'a' \"b\"",
		"(i) => 'a\\x41'",
		"",
	};
	for (size_t i = 0; i < sizeof(code) / sizeof(code[0]); i++) {
		char *got = link_of(code[i], NULL);
		ck_assert_msg(got == NULL, "read '%s' as template '%s'", code[i], got ? got : "");
	}
	/* nesting as deep as an attacker likes is refused, not recursed into */
	strbuf deep = STRBUF_INIT;
	ddbc_strbuf_addstr(&deep, "(i) => ");
	for (int i = 0; i < 5000; i++)
		ddbc_strbuf_addstr(&deep, "`${");
	ck_assert_ptr_null(link_of(ddbc_strbuf_str(&deep), NULL));
	ddbc_strbuf_release(&deep);
}
END_TEST

START_TEST(test_compute_key)
{
	json_t *keys = json_object();
	ck_assert_int_eq(ddbc_import_tb_compute(&how, "({ a, n }) => ({ PK: `A#${a}`, \"SK\": "
						"'N#' + n, })", keys), 0);
	ck_assert_str_eq(json_string_value(json_object_get(keys, "PK")), "A#{a}");
	ck_assert_str_eq(json_string_value(json_object_get(keys, "SK")), "N#{n}");
	json_object_clear(keys);
	ck_assert_int_eq(ddbc_import_tb_compute(&how, "({ a }) => ({ PK: a.split('#') })", keys),
			 -1);
	json_decref(keys);
}
END_TEST

/* A ${name} template as the OneTable and ElectroDB readers read it. */
static char *braced(const char *tpl, bool pad)
{
	strbuf out = STRBUF_INIT;
	lib_braced_how h = { "model.json", "model 'M' field 'pk'", pad, name_of, NULL };
	FILE *saved = stderr;
	stderr = fopen("/dev/null", "w");
	int rc = ddbc_import_braced(&h, tpl, &out);
	fclose(stderr);
	stderr = saved;
	if (rc < 0) {
		ddbc_strbuf_release(&out);
		return NULL;
	}
	return ddbc_strbuf_detach(&out);
}

START_TEST(test_braced)
{
	char *got = braced("A{1}#${a}#${n:6:0}$", true);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(got, "A{{1}}#{a}#{n:06}$");
	free(got);
	ck_assert_ptr_null(braced("${n:6:0}", false));   /* ElectroDB pads no placeholder */
	ck_assert_ptr_null(braced("${n:6: }", true));
	ck_assert_ptr_null(braced("${a", true));
	ck_assert_ptr_null(braced("${}", true));
	ck_assert_ptr_null(braced("${zz}", true));
}
END_TEST

static Suite *import_libs_suite(void)
{
	Suite *s = suite_create("import_libs");
	TCase *tc = tcase_create("toolbox");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_link_forms);
	tcase_add_test(tc, test_link_sparse);
	tcase_add_test(tc, test_link_refused);
	tcase_add_test(tc, test_compute_key);
	suite_add_tcase(s, tc);
	tc = tcase_create("braced");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_braced);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(import_libs_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
