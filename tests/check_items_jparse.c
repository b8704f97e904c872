/* check_items_jparse.c - the quick item reader against jansson
 *
 * ddbc_items_jparse may refuse any text (jansson then reads it), but a
 * tree it returns must be jansson's: the same values, strings byte for
 * byte, keys in the same order; and text jansson refuses it must refuse.
 * Checked on generated items (escapes, \u escapes with surrogates, UTF-8,
 * duplicate keys, numbers, deep nesting) and on damaged copies of them
 * (cut, a byte changed, a byte added), and on every item fixture.
 */
#define _GNU_SOURCE 1
#include "items/items_jparse.h"
#include "util/strbuf.h"
#include "testutil.h"

#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAGS (JSON_REJECT_DUPLICATES | JSON_DECODE_ANY)

/* Whether a and b are the same tree, object keys in the same order. */
static bool same(const json_t *a, const json_t *b)
{
	if (json_typeof(a) != json_typeof(b))
		return false;
	switch (json_typeof(a)) {
	case JSON_OBJECT: {
		if (json_object_size(a) != json_object_size(b))
			return false;
		void *i = json_object_iter((json_t *)a), *j = json_object_iter((json_t *)b);
		for (; i && j; i = json_object_iter_next((json_t *)a, i),
			       j = json_object_iter_next((json_t *)b, j)) {
			size_t n = json_object_iter_key_len(i);
			if (n != json_object_iter_key_len(j) ||
			    memcmp(json_object_iter_key(i), json_object_iter_key(j), n) ||
			    !same(json_object_iter_value(i), json_object_iter_value(j)))
				return false;
		}
		return !i && !j;
	}
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return false;
		for (size_t i = 0; i < json_array_size(a); i++)
			if (!same(json_array_get(a, i), json_array_get(b, i)))
				return false;
		return true;
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		       !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
	default:
		return json_equal((json_t *)a, (json_t *)b);
	}
}

static unsigned long seed = 1;
static unsigned rnd(unsigned n)
{
	seed = seed * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)((seed >> 33) % n);
}

/* Pieces of string text: plain, escaped, \u escapes (a surrogate pair,
 * lone halves, \u0000, bad hex), UTF-8 (valid, overlong, a surrogate,
 * cut), a control byte. */
static const char *const piece[] = {
	"a", "PK", "USER#u1", " ", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
	"\\u00e9", "\\u0001\\u0002", "\\uD83D\\uDE00", "\\uD83D", "\\uDE00", "\\u0000",
	"\\u12G4", "\\x", "\xc3\xa9", "\xe6\x97\xa5", "\xf0\x9f\x98\x80", "\xc0\xaf",
	"\xed\xa0\x80", "\xe6\x97", "\x01", "\x7f", "{", "]", ",", ":",
};

static void gen_string(strbuf *b, bool key)
{
	ddbc_strbuf_addch(b, '"');
	unsigned n = rnd(key ? 3 : 6);
	for (unsigned i = 0; i < n; i++) {
		/* keys mostly plain, so objects get duplicates */
		unsigned k = key && rnd(4) ? rnd(3) : rnd(sizeof(piece) / sizeof(*piece));
		ddbc_strbuf_addstr(b, piece[k]);
	}
	ddbc_strbuf_addch(b, '"');
}

static void gen_ws(strbuf *b)
{
	static const char *const ws[] = { "", "", "", " ", "\n", "\t", "\r\n " };
	ddbc_strbuf_addstr(b, ws[rnd(7)]);
}

static void gen_value(strbuf *b, int depth)
{
	static const char *const scalar[] = { "true", "false", "null", "0", "-12", "3.5e2",
					      "18446744073709551616", "1e999", "tru", "nul" };
	unsigned k = depth > 70 ? 3 : rnd(10);
	gen_ws(b);
	if (k < 3) {
		bool obj = k == 0 || (k == 1 && depth > 30);
		ddbc_strbuf_addch(b, obj ? '{' : '[');
		unsigned n = rnd(5);
		for (unsigned i = 0; i < n; i++) {
			if (i)
				ddbc_strbuf_addch(b, ',');
			if (obj) {
				gen_ws(b);
				gen_string(b, true);
				gen_ws(b);
				ddbc_strbuf_addch(b, ':');
			}
			gen_value(b, depth + 1);
		}
		gen_ws(b);
		ddbc_strbuf_addch(b, obj ? '}' : ']');
	} else if (k < 7) {
		gen_string(b, false);
	} else {
		ddbc_strbuf_addstr(b, scalar[rnd(sizeof(scalar) / sizeof(*scalar))]);
	}
	gen_ws(b);
}

static unsigned long accepted, refused_by_both;

/* Compares the two readers on text; fails the test on a difference. */
static void compare(const char *text, size_t len)
{
	json_error_t je;
	json_t *quick = ddbc_items_jparse(text, len);
	json_t *ref = json_loadb(text, len, FLAGS, &je);
	if (quick) {
		ck_assert_msg(ref, "quick reader took what jansson refuses (%s): %.*s", je.text,
			      (int)len, text);
		ck_assert_msg(same(quick, ref), "trees differ: %.*s", (int)len, text);
		accepted++;
	} else if (!ref) {
		refused_by_both++;
	}
	json_decref(quick);
	json_decref(ref);
}

START_TEST(generated_and_damaged)
{
	strbuf b = STRBUF_INIT, d = STRBUF_INIT;
	for (int round = 0; round < 20000; round++) {
		ddbc_strbuf_reset(&b);
		if (rnd(2)) {
			/* an export line's shape */
			ddbc_strbuf_addstr(&b, "{\"Item\":{\"PK\":{\"S\":");
			gen_string(&b, false);
			ddbc_strbuf_addstr(&b, "},\"v\":");
			gen_value(&b, 0);
			ddbc_strbuf_addstr(&b, "}}");
		} else {
			gen_value(&b, 0);
		}
		compare(b.buf, b.len);
		/* damaged: cut, a byte changed, a byte added */
		size_t at = rnd((unsigned)b.len + 1);
		compare(b.buf, at);
		ddbc_strbuf_reset(&d);
		ddbc_strbuf_add(&d, b.buf, b.len);
		if (d.len) {
			d.buf[rnd((unsigned)d.len)] = (char)rnd(256);
			compare(d.buf, d.len);
		}
		ddbc_strbuf_reset(&d);
		ddbc_strbuf_add(&d, b.buf, at);
		ddbc_strbuf_addch(&d, "\"{}[],:\\ \x01x"[rnd(12)]);
		ddbc_strbuf_add(&d, b.buf + at, b.len - at);
		compare(d.buf, d.len);
	}
	/* deeper than the quick reader goes: jansson's to read */
	ddbc_strbuf_reset(&b);
	for (int i = 0; i < DDBC_JPARSE_MAX_DEPTH + 5; i++)
		ddbc_strbuf_addch(&b, '[');
	for (int i = 0; i < DDBC_JPARSE_MAX_DEPTH + 5; i++)
		ddbc_strbuf_addch(&b, ']');
	compare(b.buf, b.len);
	ck_assert_ptr_null(ddbc_items_jparse(b.buf, b.len));
	ddbc_strbuf_release(&b);
	ddbc_strbuf_release(&d);
	/* Both outcomes are common, so neither side of compare is idle. */
	ck_assert_uint_gt(accepted, 5000);
	ck_assert_uint_gt(refused_by_both, 10000);
}
END_TEST

/* Every line of every item fixture, and each fixture whole. */
START_TEST(fixtures)
{
	static const char *const files[] = {
		"items.json", "items.jsonl", "ok.jsonl", "forum.jsonl", "catalog.jsonl",
		"kinds.jsonl", "kinds-export.json", "export.json", "scan.json", "batch.json",
		"typed-array.json", "unstored.jsonl", "bad/bad-nested-tag.json",
		"bad/bad-number.json", "bad/bad-payload.json", "bad/bad-tag.json",
		"bad/cut-line.jsonl", "bad/duplicate-key.json", "bad/invalid-utf8.json",
		"bad/mixed-export.json", "bad/nul-between.json", "bad/nul-byte.json",
		"bad/scalar-item.json", "bad/syntax.json", "bad/trailing.json",
		"bad/truncated-line.json",
	};
	unsigned long before = accepted;
	for (size_t f = 0; f < sizeof(files) / sizeof(*files); f++) {
		char path[512];
		snprintf(path, sizeof path, "%s/tests/fixtures/items/%s", TEST_SRCDIR, files[f]);
		size_t len;
		char *text = tu_read_file(path, &len);
		ck_assert_msg(text, "cannot read %s", path);
		compare(text, len);
		for (char *p = text, *end = text + len; p < end;) {
			char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
			compare(p, n);
			p += n + 1;
		}
		free(text);
	}
	ck_assert_uint_gt(accepted, before + 20);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("items-jparse");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, generated_and_damaged);
	tcase_add_test(tc, fixtures);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
