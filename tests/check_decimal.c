/* check_decimal.c - DynamoDB numbers compared and written digit for digit */
#include "util/decimal.h"
#include "util/json_number.h"
#include "util/strbuf.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const char *a, const char *b)
{
	int c = ddbc_decimal_cmp(a, strlen(a), b, strlen(b));
	return (c > 0) - (c < 0);
}

START_TEST(test_valid)
{
	static const char *const yes[] = { "0", "-0", "+5", "141.96", ".5", "5.", "1e2", "1E+2",
		"-2.5E-3", "12345678901234567890123456789012345678", NULL };
	static const char *const no[] = { "", "-", ".", "1e", "1e+", "0x10", "1.2.3", "abc",
		"1 ", "e5", NULL };
	for (int i = 0; yes[i]; i++)
		ck_assert_msg(ddbc_decimal_valid(yes[i], strlen(yes[i])), "%s", yes[i]);
	for (int i = 0; no[i]; i++)
		ck_assert_msg(!ddbc_decimal_valid(no[i], strlen(no[i])), "%s", no[i]);
}
END_TEST

START_TEST(test_compare_exactly)
{
	/* 17 digits: a double already ties these. */
	ck_assert_int_eq(cmp("241.79999999999998", "241.8"), -1);
	ck_assert_int_eq(cmp("0.30000000000000004", "0.3"), 1);
	/* 38 digits, last one differs. */
	ck_assert_int_eq(cmp("12345678901234567890123456789012345678",
			     "12345678901234567890123456789012345679"), -1);
	ck_assert_int_eq(cmp("0.12345678901234567890123456789012345678",
			     "0.12345678901234567890123456789012345677"), 1);
	/* The same number in other spellings. */
	ck_assert_int_eq(cmp("1e2", "100"), 0);
	ck_assert_int_eq(cmp("100.000", "1E+2"), 0);
	ck_assert_int_eq(cmp("0.001", "1e-3"), 0);
	ck_assert_int_eq(cmp("-0", "0.0"), 0);
	ck_assert_int_eq(cmp("007", "7"), 0);
	/* Signs, exponents, magnitudes. */
	ck_assert_int_eq(cmp("-5", "3"), -1);
	ck_assert_int_eq(cmp("-5", "-3"), -1);
	ck_assert_int_eq(cmp("9", "10"), -1);
	ck_assert_int_eq(cmp("1e-130", "1e-129"), -1);
	ck_assert_int_eq(cmp("9.9e125", "1e126"), -1);
	ck_assert_int_eq(cmp("1e400", "1e399"), 1);
	/* A text that is no number sorts after every number. */
	ck_assert_int_eq(cmp("abc", "5"), 1);
	ck_assert_int_eq(cmp("abc", "abd"), -1);
}
END_TEST

static void json_is(const char *in, const char *want)
{
	strbuf b = STRBUF_INIT;
	ddbc_decimal_json(&b, in, strlen(in));
	ck_assert_msg(!strcmp(ddbc_strbuf_str(&b), want), "%s: %s, not %s", in, ddbc_strbuf_str(&b), want);
	ddbc_strbuf_release(&b);
}

START_TEST(test_json_spelling)
{
	json_is("141.96", "141.96");
	json_is("241.79999999999998", "241.79999999999998");
	json_is("1e2", "1e2");
	json_is("+5", "5");
	json_is(".5", "0.5");
	json_is("-.5", "-0.5");
	json_is("5.", "5");
	json_is("5.e3", "5e3");
	json_is("007", "7");
	json_is("0.25", "0.25");
	json_is("12345678901234567890123456789012345678", "12345678901234567890123456789012345678");
}
END_TEST

static void digits_are(const char *in, bool neg, size_t n, long power)
{
	bool gneg;
	size_t gn;
	long gpower;
	ck_assert_msg(ddbc_decimal_digits(in, strlen(in), &gneg, &gn, &gpower), "%s: no number", in);
	ck_assert_msg(gneg == neg && gn == n && gpower == power, "%s: %d %zu %ld, not %d %zu %ld",
		      in, gneg, gn, gpower, neg, n, power);
}

START_TEST(test_significant_digits)
{
	digits_are("123.4", false, 4, 2);
	digits_are("0.05", false, 1, -2);
	digits_are("-1200", true, 2, 3);
	digits_are("00012.500", false, 3, 1);
	digits_are("1.5E-3", false, 2, -3);
	digits_are("-0.000", false, 0, 0);
	digits_are("12345678901234567890123456789012345678", false, 38, 37);
	bool neg;
	size_t n;
	long power;
	ck_assert(!ddbc_decimal_digits("1e", 2, &neg, &n, &power));
	ck_assert(!ddbc_decimal_digits("abc", 3, &neg, &n, &power));
}
END_TEST

/* DynamoDB's limits: 38 significant digits, magnitude 1E-130 to below
 * 1E+126; zeros and trailing zeros are no digits. */
START_TEST(test_dynamodb_limits)
{
	static const char *const yes[] = { "0", "-0.000", "12345678901234567890123456789012345678",
		"-12345678901234567890123456789012345678", "1234567890123456789012345678901234567800",
		"0.12345678901234567890123456789012345678", "1E-130", "-1e-130",
		"9.9999999999999999999999999999999999999E+125", "1e125", "6.02E+23", "0e999", NULL };
	static const char *const no[] = { "123456789012345678901234567890123456789",
		"0.123456789012345678901234567890123456789", "1E126", "-1e126", "1e-131",
		"0.1e-130", "10E125", "", "1e", NULL };
	for (int i = 0; yes[i]; i++)
		ck_assert_msg(ddbc_decimal_dynamodb(yes[i], strlen(yes[i]), NULL), "%s", yes[i]);
	for (int i = 0; no[i]; i++)
		ck_assert_msg(!ddbc_decimal_dynamodb(no[i], strlen(no[i]), NULL), "%s", no[i]);
	strbuf why = STRBUF_INIT;
	ck_assert(!ddbc_decimal_dynamodb("123456789012345678901234567890123456789", 39, &why));
	ck_assert_str_eq(ddbc_strbuf_str(&why),
			 "is a number of 39 significant digits; DynamoDB keeps at most 38");
	ddbc_strbuf_reset(&why);
	ck_assert(!ddbc_decimal_dynamodb("-1e-131", 7, &why));
	ck_assert_str_eq(ddbc_strbuf_str(&why), "is a number of magnitude 1E-131; DynamoDB's numbers "
			 "lie between 1E-130 and 9.9999999999999999999999999999999999999E+125");
	ddbc_strbuf_release(&why);
}
END_TEST

/* The number pre-pass: every number token of plain JSON becomes a marked
 * string holding its text as written; strings that begin with the mark are
 * marked again and read back as the strings they were; member names, and
 * digits inside strings, stay as they are. */
START_TEST(test_numbers_marked)
{
	static const char text[] =
		"{\"a\": 12345678901234567890123456789012345678, \"b\": [-141.96, 6.02E+23, 0],"
		" \"c\": \"9\", \"12\": {\"d\": -0.5e-3}, \"e\": \"\\u0001\\u0002x\","
		" \"\\u0001\\u0002\": \"\\u0001\\u0002\", \"f\": true}";
	strbuf out = STRBUF_INIT;
	ck_assert(ddbc_json_mark_numbers(text, sizeof(text) - 1, &out));
	json_error_t je;
	json_t *v = json_loadb(out.buf, out.len, JSON_REJECT_DUPLICATES, &je);
	ck_assert_msg(v != NULL, "%s: %s", ddbc_strbuf_str(&out), je.text);
	size_t len;
	const char *n = ddbc_json_marked_number(json_object_get(v, "a"), &len);
	ck_assert(n && len == 38 && !memcmp(n, "12345678901234567890123456789012345678", 38));
	static const char *const b[] = { "-141.96", "6.02E+23", "0" };
	for (size_t i = 0; i < 3; i++) {
		n = ddbc_json_marked_number(json_array_get(json_object_get(v, "b"), i), &len);
		ck_assert(n && len == strlen(b[i]) && !memcmp(n, b[i], len));
	}
	n = ddbc_json_marked_number(json_object_get(json_object_get(v, "12"), "d"), &len);
	ck_assert(n && len == 7 && !memcmp(n, "-0.5e-3", 7));
	const json_t *c = json_object_get(v, "c"), *e = json_object_get(v, "e");
	ck_assert(!ddbc_json_marked_number(c, &len) && !ddbc_json_marked_number(e, &len));
	n = ddbc_json_marked_string(e, &len);
	ck_assert(n && len == 3 && !memcmp(n, "\x01\x02x", 3));
	n = ddbc_json_marked_string(json_object_get(v, "\x01\x02"), &len);
	ck_assert(n && len == 2 && !memcmp(n, "\x01\x02", 2));
	ck_assert(!ddbc_json_marked_string(json_object_get(v, "a"), &len));
	ck_assert(json_is_true(json_object_get(v, "f")));
	json_decref(v);
	/* Nothing to mark: the text is read as it is. */
	ck_assert(!ddbc_json_mark_numbers("{\"a\": \"1\"}", 10, &out));
	/* A number JSON does not write stays for jansson to refuse. */
	ck_assert(!ddbc_json_mark_numbers("[01, 1., .5, 1e, -]", 19, &out));
	ddbc_strbuf_release(&out);
}
END_TEST

/* What import asks besides: member names that begin with the mark get it
 * twice too, and integers jansson holds exactly stay bare. */
START_TEST(test_numbers_marked_how)
{
	static const char text[] =
		"{\"a\": 5, \"b\": 5.0, \"c\": 123456789012345678, \"d\": 1234567890123456789,"
		" \"e\": -0, \"f\": -17, \"\\u0001\\u0002n\": \"\\u0001\\u0002v\"}";
	strbuf out = STRBUF_INIT;
	ck_assert(ddbc_json_mark_numbers_how(text, sizeof(text) - 1, &out,
					     DDBC_JSON_MARK_NAMES | DDBC_JSON_KEEP_INTEGERS));
	json_error_t je;
	json_t *v = json_loadb(out.buf, out.len, JSON_REJECT_DUPLICATES, &je);
	ck_assert_msg(v != NULL, "%s: %s", ddbc_strbuf_str(&out), je.text);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "a")), 5);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "c")), 123456789012345678LL);
	ck_assert_int_eq(json_integer_value(json_object_get(v, "f")), -17);
	static const char *const marked[][2] = { { "b", "5.0" }, { "d", "1234567890123456789" },
						  { "e", "-0" } };
	size_t len;
	for (size_t i = 0; i < 3; i++) {
		const char *n = ddbc_json_marked_number(json_object_get(v, marked[i][0]), &len);
		ck_assert_msg(n && len == strlen(marked[i][1]) && !memcmp(n, marked[i][1], len),
			      "%s", marked[i][0]);
	}
	const json_t *nv = json_object_get(v, "\x01\x02\x01\x02n");
	ck_assert(nv != NULL);
	const char *s = ddbc_json_marked_string(nv, &len);
	ck_assert(s && len == 3 && !memcmp(s, "\x01\x02v", 3));
	json_decref(v);
	ddbc_strbuf_release(&out);
}
END_TEST

/* The scan's edges, each text with what it must become: numbers glued to
 * brackets and commas, quotes and backslashes escaped inside strings (no
 * number is seen there), tokens that only begin like numbers, a text that
 * ends inside a string or on a backslash. */
START_TEST(test_numbers_scan_edges)
{
	static const char *const cases[][2] = {
		{ "[1,\"x\",2]", "[\"\\u0001\\u00021\",\"x\",\"\\u0001\\u00022\"]" },
		{ "{\"a\\\"1\": 2}", "{\"a\\\"1\": \"\\u0001\\u00022\"}" },
		{ "[\"\\\\\", 3]", "[\"\\\\\", \"\\u0001\\u00023\"]" },
		{ "[\"\\\\\\u0001\\u0002\", 4]", "[\"\\\\\\u0001\\u0002\", \"\\u0001\\u00024\"]" },
		{ "[1abc, true1, -x, 5]", "[1abc, true1, -x, \"\\u0001\\u00025\"]" },
		{ "{\"n\":\t-1.5e+3\n}", "{\"n\":\t\"\\u0001\\u0002-1.5e+3\"\n}" },
		{ "[6, \"open 7", "[\"\\u0001\\u00026\", \"open 7" },
		{ "[8, \"\\", "[\"\\u0001\\u00028\", \"\\" },
		{ "[\"\\u0001\\u0002\"]", "[\"\\u0001\\u0002\\u0001\\u0002\"]" },
	};
	strbuf out = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(ddbc_json_mark_numbers(cases[i][0], strlen(cases[i][0]), &out), "%s",
			      cases[i][0]);
		ck_assert_str_eq(ddbc_strbuf_str(&out), cases[i][1]);
	}
	/* Inside strings nothing is a number, escaped quotes or not. */
	static const char *const none[] = { "[\"1\", \"a\\\"2\\\"\"]", "\"\\\\\\\"3\"", "[true, null]" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		ck_assert_msg(!ddbc_json_mark_numbers(none[i], strlen(none[i]), &out), "%s", none[i]);
	ddbc_strbuf_release(&out);
}
END_TEST

/* What the writers make reads back as it was made: a number as its
 * digits, a string that begins with the mark as that string (never a
 * number), both after jansson has written them and they are unmarked; a
 * text too long for the stack buffer the same way. */
START_TEST(test_numbers_made)
{
	static const char big[] = "-12345678901234567890123456789012345678e-3000000000000000000000000";
	static const char marked_text[] = "\x01\x02" "12";
	json_t *a = json_array();
	json_array_append_new(a, ddbc_json_number_new("141.96", 6));
	json_array_append_new(a, ddbc_json_number_new(big, sizeof(big) - 1));
	json_array_append_new(a, ddbc_json_string_new(marked_text, 4));
	json_array_append_new(a, ddbc_json_string_new("plain", 5));
	json_array_append_new(a, ddbc_json_string_new_nocheck(marked_text, 4));
	size_t len;
	const char *n = ddbc_json_marked_number(json_array_get(a, 0), &len);
	ck_assert(n && len == 6 && !memcmp(n, "141.96", 6));
	n = ddbc_json_marked_number(json_array_get(a, 1), &len);
	ck_assert(n && len == sizeof(big) - 1 && !memcmp(n, big, len));
	for (size_t i = 2; i <= 4; i += 2) {
		ck_assert(!ddbc_json_marked_number(json_array_get(a, i), &len));
		n = ddbc_json_marked_string(json_array_get(a, i), &len);
		ck_assert(n && len == 4 && !memcmp(n, marked_text, 4));
		ck_assert_str_eq(ddbc_json_source_text(json_string_value(json_array_get(a, i))),
				 marked_text);
	}
	ck_assert_ptr_eq(json_string_value(json_array_get(a, 3)),
			 ddbc_json_source_text(json_string_value(json_array_get(a, 3))));
	char *text = json_dumps(a, JSON_COMPACT);
	text[ddbc_json_unmark(text, strlen(text))] = '\0';
	strbuf want = STRBUF_INIT;
	ddbc_strbuf_addf(&want, "[141.96,%s,\"\\u0001\\u000212\",\"plain\",\"\\u0001\\u000212\"]", big);
	ck_assert_str_eq(text, ddbc_strbuf_str(&want));
	ddbc_strbuf_release(&want);
	free(text);
	json_decref(a);
	/* No UTF-8: NULL, as json_stringn says, mark or none. */
	ck_assert_ptr_null(ddbc_json_string_new("\x01\x02\xff", 3));
	ck_assert_ptr_null(ddbc_json_string_new("\xff", 1));
	ck_assert_ptr_null(ddbc_json_number_new("\xff", 1));
}
END_TEST

static Suite *decimal_suite(void)
{
	Suite *s = suite_create("decimal");
	TCase *tc = tcase_create("decimal");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_compare_exactly);
	tcase_add_test(tc, test_json_spelling);
	tcase_add_test(tc, test_significant_digits);
	tcase_add_test(tc, test_dynamodb_limits);
	tcase_add_test(tc, test_numbers_marked);
	tcase_add_test(tc, test_numbers_marked_how);
	tcase_add_test(tc, test_numbers_scan_edges);
	tcase_add_test(tc, test_numbers_made);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(decimal_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
