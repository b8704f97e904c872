/* check_lsp.c - the language server's edge: UTF-16 positions, edits, tokens
 *
 * LSP counts UTF-16 code units and ddbc characters (code points); these
 * are the conversions between the two (src/lsp/lsp_text.c), which every
 * diagnostic, hover and edit goes through.
 */
#include "lsp/lsp_int.h"
#include "rules/check.h"
#include "util/arena.h"
#include "util/xalloc.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* "あ" is 3 bytes, 1 unit; "🍣" 4 bytes, 2 units. */
static const char line[] = "  k: \"あ🍣{x}\", y";

START_TEST(test_utf16_of_bytes)
{
	ck_assert_uint_eq(ddbc_lsp_utf16_of_bytes(line, 6), 6);          /* up to the quote */
	ck_assert_uint_eq(ddbc_lsp_utf16_of_bytes(line, 9), 7);          /* past あ */
	ck_assert_uint_eq(ddbc_lsp_utf16_of_bytes(line, 13), 9);         /* past 🍣 */
	ck_assert_uint_eq(ddbc_lsp_utf16_of_bytes("\xff" "a", 2), 2);    /* a bad byte is one */
}
END_TEST

START_TEST(test_bytes_of_column)
{
	/* ddbc's column 9 is the 9th character: '{' after あ and 🍣. */
	size_t b = ddbc_lsp_bytes_of_column(line, strlen(line), 9);
	ck_assert_uint_eq(b, 13);
	ck_assert_int_eq(line[b], '{');
	ck_assert_uint_eq(ddbc_lsp_bytes_of_column(line, strlen(line), 1), 0);
	ck_assert_uint_eq(ddbc_lsp_bytes_of_column(line, strlen(line), 999), strlen(line));
}
END_TEST

START_TEST(test_offset)
{
	const char text[] = "ab\r\nあ🍣c\rz\nlast";
	size_t n = strlen(text);
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 0, 1), 1);
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 1, 0), 4);            /* after \r\n */
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 1, 1), 7);            /* after あ */
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 1, 3), 11);           /* after 🍣: 2 units */
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 1, 99), 12);          /* the line's end */
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 2, 0), 13);           /* after a lone \r */
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 3, 2), 17);
	ck_assert_uint_eq(ddbc_lsp_offset(text, n, 9, 0), n);            /* past the text */
}
END_TEST

static const char *apply(strbuf *sb, const char *change_json)
{
	json_t *c = json_loads(change_json, 0, NULL);
	int rc = ddbc_lsp_apply_change(sb, c);
	json_decref(c);
	return rc < 0 ? NULL : ddbc_strbuf_str(sb);
}

START_TEST(test_apply_change)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, "a: 🍣x\nb: y\n");
	/* Replace x (after the emoji's two units) with "zz". */
	ck_assert_str_eq(apply(&sb, "{\"range\": {\"start\": {\"line\": 0, \"character\": 5}, "
				    "\"end\": {\"line\": 0, \"character\": 6}}, \"text\": \"zz\"}"),
			 "a: 🍣zz\nb: y\n");
	/* Insert a line. */
	ck_assert_str_eq(apply(&sb, "{\"range\": {\"start\": {\"line\": 1, \"character\": 0}, "
				    "\"end\": {\"line\": 1, \"character\": 0}}, \"text\": \"c: 1\\n\"}"),
			 "a: 🍣zz\nc: 1\nb: y\n");
	/* The whole text. */
	ck_assert_str_eq(apply(&sb, "{\"text\": \"new\"}"), "new");
	/* Malformed: no text, a range backwards, a bad position. */
	ck_assert_ptr_null(apply(&sb, "{\"range\": {}}"));
	ck_assert_ptr_null(apply(&sb, "{\"range\": {\"start\": {\"line\": 0, \"character\": 2}, "
				      "\"end\": {\"line\": 0, \"character\": 1}}, \"text\": \"\"}"));
	ck_assert_ptr_null(apply(&sb, "{\"range\": {\"start\": {\"line\": -1, \"character\": 0}, "
				      "\"end\": {\"line\": 0, \"character\": 1}}, \"text\": \"\"}"));
	ck_assert_str_eq(ddbc_strbuf_str(&sb), "new");
	/* Every kind of break before the edit, and a range over several
	 * lines: the end is counted from the start's line. */
	ddbc_strbuf_reset(&sb);
	ddbc_strbuf_addstr(&sb, "a\nb\rc\r\nd\ne\nf");
	ck_assert_str_eq(apply(&sb, "{\"range\": {\"start\": {\"line\": 4, \"character\": 1}, "
				    "\"end\": {\"line\": 4, \"character\": 1}}, \"text\": \"E\"}"),
			 "a\nb\rc\r\nd\neE\nf");
	ck_assert_str_eq(apply(&sb, "{\"range\": {\"start\": {\"line\": 1, \"character\": 1}, "
				    "\"end\": {\"line\": 3, \"character\": 0}}, \"text\": \"\"}"),
			 "a\nbd\neE\nf");
	/* A shorter text, then past the end: appended. */
	ck_assert_str_eq(apply(&sb, "{\"range\": {\"start\": {\"line\": 9, \"character\": 0}, "
				    "\"end\": {\"line\": 12, \"character\": 3}}, \"text\": \"!\"}"),
			 "a\nbd\neE\nf!");
	ddbc_strbuf_release(&sb);
}
END_TEST

START_TEST(test_token_end)
{
	const char *l = "  SK: { type: S, template: \"A#{b}\\\"\" } # c";
	size_t n = strlen(l);
	ck_assert_uint_eq(ddbc_lsp_token_end(l, n, 2), 4);               /* SK */
	ck_assert_uint_eq(ddbc_lsp_token_end(l, n, 14), 15);             /* S */
	size_t q = (size_t)(strchr(l, '"') - l);
	ck_assert_uint_eq(ddbc_lsp_token_end(l, n, q), q + 9);           /* "A#{b}\"" */
	ck_assert_uint_eq(ddbc_lsp_token_end(l, n, 6), (size_t)(strrchr(l, '}') + 1 - l)); /* the flow map */
	const char *plain = "    key: value#1 with # a comment";
	ck_assert_uint_eq(ddbc_lsp_token_end(plain, strlen(plain), 9), 21); /* "value#1 with" */
}
END_TEST

/* ---- a check abandoned, and the memory kept between checks ---- */

typedef struct stops {
	int asked, at;           /* times asked; true from the at-th on (0: never) */
} stops;

static bool stop_at(void *ctx)
{
	stops *st = ctx;
	return ++st->asked == st->at || (st->at && st->asked > st->at);
}

/* A design of some 3 MiB: its check asks the stop a megabyte at a time. */
static ddbc_design *check_big(stops *st, ddbc_diags *d, ddbc_source **src)
{
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "ddbc: 1\nname: big\ndescription: |\n");
	for (int i = 0; i < 40000; i++)
		ddbc_strbuf_addstr(&text, "  xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n");
	*src = ddbc_source_from_memory("big.yaml", text.buf, text.len);
	ddbc_strbuf_release(&text);
	(*src)->stop = stop_at;
	(*src)->stop_ctx = st;
	ddbc_settings settings;
	ddbc_settings_init(&settings);
	ddbc_diags_init(d);
	return ddbc_check(*src, d, &settings);
}

START_TEST(test_check_stops)
{
	stops never = { 0, 0 }, first = { 0, 1 };
	ddbc_diags d;
	ddbc_source *src;
	ddbc_design *g = check_big(&never, &d, &src);
	ck_assert_int_ge(never.asked, 3);
	ck_assert_uint_eq(d.n, 1);      /* the design has no tables */
	ck_assert_int_eq(d.items[0].rule, DDBC_RULE_SCHEMA);
	ddbc_design_free(g);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
	/* Stopped at the first megabyte: asked no more, and no model. */
	g = check_big(&first, &d, &src);
	ck_assert_int_eq(first.asked, 1);
	ck_assert_ptr_null(g);
	ddbc_diags_release(&d);
	ddbc_source_free(src);
}
END_TEST

/* An arena freed while freed memory is kept leaves its mapped blocks for
 * the next, which finds them zeroed as fresh ones. */
START_TEST(test_arena_pool)
{
	ddbc_xalloc_keep_free(true);
	for (int round = 0; round < 2; round++) {
		ddbc_arena *a = ddbc_arena_new();
		static const unsigned char zero[1000];
		for (int i = 0; i < 8 * 1024; i++) {
			unsigned char *p = ddbc_arena_alloc(a, sizeof zero);
			ck_assert_int_eq(memcmp(p, zero, sizeof zero), 0);
			memset(p, 0xA5, sizeof zero);
		}
		ddbc_arena_free(a);
	}
	ddbc_arena_release_pool();
	ddbc_xalloc_keep_free(false);
}
END_TEST

static Suite *lsp_suite(void)
{
	Suite *s = suite_create("lsp");
	TCase *tc = tcase_create("text");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_utf16_of_bytes);
	tcase_add_test(tc, test_bytes_of_column);
	tcase_add_test(tc, test_offset);
	tcase_add_test(tc, test_apply_change);
	tcase_add_test(tc, test_token_end);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_check_stops);
	tcase_add_test(tc, test_arena_pool);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lsp_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
