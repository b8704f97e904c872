/* check_items.c - check-items: input shapes, findings, bad input, streaming
 *
 * The fixtures are in tests/fixtures/items: the stamp-rally sample's
 * example items plus broken ones, in every input shape (items.json is the
 * source; make-shapes.py writes the others), a design with every kind of
 * value (kinds.ddb.yaml) and bad inputs (bad/). Outputs are compared with
 * tests/golden/items; DDBC_UPDATE_GOLDEN=1 rewrites them.
 */
#define _GNU_SOURCE 1
#include "items/items.h"
#include "items/items_keyindex.h"
#include "items/items_match.h"
#include "items/items_stream.h"
#include "items/items_value.h"
#include "model/params.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "testutil.h"

#include <check.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define STAMP "samples/stamp-rally.ddb.yaml"
#define KINDS "tests/fixtures/items/kinds.ddb.yaml"
#define FIX "tests/fixtures/items/"
#define SUMMARY_STAMP "10 items: 3 ok, 4 failed, 3 unmatched\nfindings: 2 wrong-type, " \
	"2 missing-required, 3 key-mismatch, 1 delimiter-in-value, 1 unknown-attribute, " \
	"3 unmatched\n"

/* ---- helpers ------------------------------------------------------------------------ */

static void run_items(tu_proc *p, const char *design, const char *items, const char *format)
{
	if (format)
		tu_run(p, NULL, "check-items", "--format", format, design, items, (char *)NULL);
	else
		tu_run(p, NULL, "check-items", design, items, (char *)NULL);
}

/* The summary line of s, "N items: ..." (to the end of s: the count by
 * kind follows it), or s when there is none. */
static const char *summary_tail(const char *s, size_t len)
{
	(void)len;
	for (const char *p = s; *p; p = strchr(p, '\n') + 1) {
		if (*p >= '0' && *p <= '9' && strstr(p, " items: ") == strpbrk(p, " "))
			return p;
		if (!strchr(p, '\n'))
			break;
	}
	return s;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A temporary file holding len bytes of data; its path is the caller's. */
static char *temp_file(const char *data, size_t len)
{
	char *path = strdup("/tmp/ddbc-items-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_msg(fd >= 0, "mkstemp failed");
	close(fd);
	tu_write_file(path, data, len);
	return path;
}

/* ---- the matcher agrees with ddbc_lang_matches ---------------------------------------- */

/* Strings near s: s itself, cut, with bytes dropped, doubled, replaced. */
static void variants(const char *s, strbuf *out, size_t *n, char **list, size_t max)
{
	static const char extra[] = "#0-.xU:|\xc3\xa9";
	size_t len = strlen(s);
	(void)out;
#define ADD(str)                                      \
	do {                                          \
		if (*n < max)                         \
			list[(*n)++] = (str);         \
		else                                  \
			free(str);                    \
	} while (0)
	ADD(strdup(s));
	for (size_t i = 0; i <= len; i++) {
		ADD(strndup(s, i));
		if (i < len) {
			char *d = strdup(s);
			memmove(d + i, d + i + 1, len - i);
			ADD(d);
		}
		for (size_t k = 0; k < sizeof(extra) - 1; k++) {
			char *x = malloc(len + 2);
			memcpy(x, s, i);
			x[i] = extra[k];
			memcpy(x + i + 1, s + i, len - i + 1);
			ADD(x);
			if (i < len) {
				char *y = strdup(s);
				y[i] = extra[k];
				ADD(y);
			}
		}
	}
#undef ADD
}

static void agree_on(const ddbc_lang *l, const char *const *samples, size_t nsamples,
		     const char *delim, ddbc_match_scratch *m, size_t *checked)
{
	enum { MAX = 4096 };
	char **list = malloc(MAX * sizeof(char *));
	for (size_t s = 0; s < nsamples; s++) {
		size_t n = 0;
		variants(samples[s], NULL, &n, list, MAX);
		for (size_t i = 0; i < n; i++) {
			size_t len = strlen(list[i]);
			bool want = ddbc_lang_matches(l, list[i], len, delim);
			bool got = ddbc_items_lang_matches(l, list[i], len, delim, m);
			ck_assert_msg(want == got, "'%s' with delimiter '%s': template.c says %d, "
				      "items_match.c says %d", list[i], delim, want, got);
			free(list[i]);
			(*checked)++;
		}
	}
	free(list);
}

START_TEST(test_matcher_agrees_on_designs)
{
	static const char *const samples[] = {
		"EVENT#stamp-rally-202606#USER#U1234567890abcdef", "PROFILE", "STAMP#001",
		"EVENT#e#STAMP#001", "MASTER", "EVENT#e#USERS", "2026-05-23T10:00:00.000Z#U1",
		"001", "CUSTOMER#c1", "ORDER#00042", "42", "-1.5",
	};
	const char *designs[] = { STAMP, KINDS, "samples/ecommerce.ddb.yaml",
		"samples/todo.ddb.yaml" };
	ddbc_match_scratch m = { NULL, 0 };
	size_t checked = 0;
	for (size_t d = 0; d < sizeof(designs) / sizeof(designs[0]); d++) {
		tu_design t;
		tu_load_file(&t, designs[d]);
		ck_assert_ptr_nonnull(t.design);
		ddbc_semantics(t.design);
		for (size_t e = 0; e < t.design->nentities; e++) {
			const ddbc_entity *ent = &t.design->entities[e];
			for (size_t a = 0; a < ent->nattrs; a++) {
				if (!ent->attrs[a].is_key && !ent->attrs[a].has_template)
					continue;
				ddbc_lang l;
				ddbc_lang_init(&l);
				ddbc_attr_lang(&ent->attrs[a], &l);
				agree_on(&l, samples, 4, t.design->key_delimiter, &m, &checked);
				ddbc_lang_release(&l);
			}
		}
		tu_design_free(&t);
	}
	ddbc_match_scratch_release(&m);
	ck_assert_uint_gt(checked, 1000);
}
END_TEST

/* The key index finds every entity an item's keys can fit, in order, and
 * few others: with literals of more lengths than it keeps shapes, with a
 * partition key that begins with a placeholder, without a sort key. */
START_TEST(test_keyindex_finds_every_fit)
{
	enum { N = 41 };
	char lits[N][48];
	ddbc_lang pk[N], sk[N];
	const ddbc_lang *pks[N], *sks[N];
	for (int i = 0; i < N; i++) {
		ddbc_lang_init(&pk[i]);
		ddbc_lang_init(&sk[i]);
		/* Literals of 40 lengths ("A#", "AA#", ...), and one entity whose
		 * key begins with a placeholder. */
		memset(lits[i], 'A', (size_t)i + 1);
		lits[i][i + 1] = '#';
		lits[i][i + 2] = '\0';
		if (i < N - 1)
			ddbc_lang_fixed(&pk[i], lits[i], strlen(lits[i]));
		ddbc_lang_class(&pk[i], DDBC_CLASS_NO_DELIM, 1);
		ddbc_lang_fixed(&sk[i], i % 2 ? "ROW#" : "META", 4);
		pks[i] = &pk[i];
		sks[i] = &sk[i];
	}
	ddbc_match_scratch m = { NULL, 0 };
	size_t *out = NULL, n = 0, cap = 0;
	for (int with_sk = 0; with_sk < 2; with_sk++) {
		ddbc_keyindex x;
		const ddbc_lang *none[N] = { NULL };
		ddbc_keyindex_build(&x, pks, with_sk ? sks : none, N);
		for (int i = 0; i < N; i++) {
			char key[64];
			snprintf(key, sizeof key, "%.47sx1", lits[i]);
			const char *skv = i % 2 ? "ROW#" : "META";
			n = 0;
			ddbc_keyindex_find(&x, key, strlen(key), with_sk ? skv : NULL,
					   with_sk ? 4 : 0, &out, &n, &cap);
			for (size_t k = 1; k < n; k++)
				ck_assert_uint_lt(out[k - 1], out[k]);
			for (int e = 0; e < N; e++) {
				bool fits = ddbc_items_lang_matches(&pk[e], key, strlen(key), "#", &m) &&
					    (!with_sk || ddbc_items_lang_matches(&sk[e], skv, 4, "#", &m));
				bool found = false;
				for (size_t k = 0; k < n; k++)
					found = found || out[k] == (size_t)e;
				if (fits)
					ck_assert_msg(found, "entity %d not found for %s", e, key);
			}
			/* The literal's own entity at least; never all of them. */
			ck_assert_uint_ge(n, 1);
			ck_assert_uint_lt(n, N);
		}
		ddbc_keyindex_release(&x);
	}
	free(out);
	ddbc_match_scratch_release(&m);
	for (int i = 0; i < N; i++) {
		ddbc_lang_release(&pk[i]);
		ddbc_lang_release(&sk[i]);
	}
}
END_TEST

START_TEST(test_matcher_agrees_on_classes)
{
	/* Every class, minimum counts, and delimiters of one and two bytes, a
	 * delimiter that is a digit, and the lenient delimiter 0xFF. */
	static const char *const samples[] = { "A#12#x", "A::1::", "9-9.9", "ab#", "#", "" };
	static const char *const delims[] = { "#", "::", "1", "\xff" };
	ddbc_match_scratch m = { NULL, 0 };
	size_t checked = 0;
	for (int shape = 0; shape < 6; shape++) {
		ddbc_lang l;
		ddbc_lang_init(&l);
		switch (shape) {
		case 0:
			ddbc_lang_fixed(&l, "A", 1);
			ddbc_lang_class(&l, DDBC_CLASS_NO_DELIM, 1);
			ddbc_lang_class(&l, DDBC_CLASS_DIGITS, 2);
			break;
		case 1:
			ddbc_lang_class(&l, DDBC_CLASS_NUMBER, 1);
			ddbc_lang_fixed(&l, "#", 1);
			ddbc_lang_class(&l, DDBC_CLASS_ANY, 0);
			break;
		case 2:
			ddbc_lang_class(&l, DDBC_CLASS_NO_DELIM, 1);
			ddbc_lang_class(&l, DDBC_CLASS_NO_DELIM, 1);
			break;
		case 3:
			ddbc_lang_fixed(&l, "A::", 3);
			ddbc_lang_class(&l, DDBC_CLASS_NO_DELIM, 0);
			ddbc_lang_fixed(&l, "::", 2);
			break;
		case 4:
			ddbc_lang_class(&l, DDBC_CLASS_ANY, 1);
			break;
		case 5:
			break;  /* the empty language of "" */
		}
		for (size_t d = 0; d < sizeof(delims) / sizeof(delims[0]); d++)
			agree_on(&l, samples, sizeof(samples) / sizeof(samples[0]), delims[d], &m,
				 &checked);
		ddbc_lang_release(&l);
	}
	ddbc_match_scratch_release(&m);
	ck_assert_uint_gt(checked, 1000);
}
END_TEST

/* ---- the reader -------------------------------------------------------------------------- */

typedef struct read_result {
	ddbc_items_step rc;      /* of the last call: end or bad */
	size_t n;
	char *items[16];
	ddbc_ipos pos[16];
	ddbc_items_shape shape;
	ddbc_items_error err;
	char *message;           /* err's message ("" when none), the result's */
} read_result;

static void read_all(const char *text, size_t len, size_t max_item, read_result *r)
{
	memset(r, 0, sizeof(*r));
	FILE *f = fmemopen((void *)text, len, "rb");
	ck_assert_ptr_nonnull(f);
	ddbc_items_reader *rd = ddbc_items_reader_new(f, max_item);
	ddbc_item_span sp;
	while ((r->rc = ddbc_items_next(rd, &sp, &r->err)) == DDBC_ITEMS_ITEM) {
		ck_assert_uint_eq(sp.index, r->n + 1);
		if (r->n < 16) {
			r->items[r->n] = strndup(sp.data, sp.len);
			r->pos[r->n] = sp.pos;
		}
		r->n++;
	}
	r->shape = ddbc_items_shape_of(rd);
	r->message = strdup(ddbc_strbuf_str(&r->err.message));
	ddbc_strbuf_release(&r->err.message);
	ddbc_items_reader_free(rd);
	fclose(f);
}

static void read_text(const char *text, read_result *r)
{
	read_all(text, strlen(text), DDBC_ITEMS_MAX_ITEM, r);
}

static void free_result(read_result *r)
{
	for (size_t i = 0; i < r->n && i < 16; i++)
		free(r->items[i]);
	free(r->message);
}

START_TEST(test_reader_array)
{
	read_result r;
	read_text(" [ {\"a\": \"]}\\\"\"} ,\n\t{\"b\": [1, {\"c\": null}]}, {} ]\n", &r);
	ck_assert_int_eq(r.rc, DDBC_ITEMS_END);
	ck_assert_int_eq(r.shape, DDBC_SHAPE_ARRAY);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_str_eq(r.items[0], "{\"a\": \"]}\\\"\"}");
	ck_assert_str_eq(r.items[1], "{\"b\": [1, {\"c\": null}]}");
	ck_assert_str_eq(r.items[2], "{}");
	ck_assert_uint_eq(r.pos[0].line, 1);
	ck_assert_uint_eq(r.pos[0].column, 4);
	ck_assert_uint_eq(r.pos[1].line, 2);
	ck_assert_uint_eq(r.pos[1].column, 2);
	free_result(&r);
	read_text("[]", &r);
	ck_assert_int_eq(r.rc, DDBC_ITEMS_END);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_int_eq(r.shape, DDBC_SHAPE_ARRAY);	free_result(&r);
}
END_TEST

START_TEST(test_reader_lines)
{
	read_result r;
	/* A byte order mark, columns in characters, values on one line. */
	read_text("\xef\xbb\xbf{\"a\": \"\xc3\xa9\xc3\xa9\"} {\"b\": 1}\n\n{\"c\":\n 2}\n", &r);
	ck_assert_int_eq(r.rc, DDBC_ITEMS_END);
	ck_assert_int_eq(r.shape, DDBC_SHAPE_LINES);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_str_eq(r.items[0], "{\"a\": \"\xc3\xa9\xc3\xa9\"}");
	ck_assert_uint_eq(r.pos[1].line, 1);
	ck_assert_uint_eq(r.pos[1].column, 13);
	ck_assert_uint_eq(r.pos[2].line, 3);
	ck_assert_str_eq(r.items[2], "{\"c\":\n 2}");
	free_result(&r);
	/* An export line is a line like any other to the reader. */
	read_text("{\"Item\": {\"PK\": {\"S\": \"x\"}}}\n", &r);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.shape, DDBC_SHAPE_LINES);
	free_result(&r);
	/* "Items" after a member that is not scan metadata: an item. */
	read_text("{\"PK\": \"a\", \"Items\": [1]}\n", &r);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_int_eq(r.shape, DDBC_SHAPE_LINES);
	ck_assert_str_eq(r.items[0], "{\"PK\": \"a\", \"Items\": [1]}");
	free_result(&r);
}
END_TEST

START_TEST(test_reader_scan)
{
	read_result r;
	read_text("{\"Count\": 2, \"LastEvaluatedKey\": {\"PK\": {\"S\": \"}\"}},\n"
		  " \"Items\": [{\"PK\": {\"S\": \"a\"}}, {\"PK\": {\"S\": \"b\"}}],\n"
		  " \"ScannedCount\": 2, \"ConsumedCapacity\": null, \"ResponseMetadata\": {}}\n"
		  "{\"Items\": [{\"PK\": {\"S\": \"c\"}}], \"Count\": 1}\n", &r);
	ck_assert_msg(r.rc == DDBC_ITEMS_END, "%s", r.message);
	ck_assert_int_eq(r.shape, DDBC_SHAPE_SCAN);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_str_eq(r.items[1], "{\"PK\": {\"S\": \"b\"}}");
	ck_assert_str_eq(r.items[2], "{\"PK\": {\"S\": \"c\"}}");
	ck_assert_uint_eq(r.pos[0].line, 2);
	ck_assert_uint_eq(r.pos[0].column, 12);
	ck_assert_uint_eq(r.pos[2].line, 4);
	free_result(&r);
	read_text("{\"Items\": []}", &r);
	ck_assert_int_eq(r.rc, DDBC_ITEMS_END);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_int_eq(r.shape, DDBC_SHAPE_SCAN);	free_result(&r);
}
END_TEST

START_TEST(test_reader_chunk_boundaries)
{
	/* Items larger than the reader's 64 KiB chunks, strings holding
	 * brackets and escaped quotes across the boundaries. */
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, "[\n");
	for (int i = 0; i < 5; i++) {
		ddbc_strbuf_addf(&sb, "%s{\"k\": \"", i ? ",\n" : "");
		for (int k = 0; k < 30000; k++)
			ddbc_strbuf_addstr(&sb, k % 7 ? "x" : "]\\\"}");
		ddbc_strbuf_addf(&sb, "\", \"i\": %d}", i);
	}
	ddbc_strbuf_addstr(&sb, "\n]\n");
	read_result r;
	read_all(sb.buf, sb.len, DDBC_ITEMS_MAX_ITEM, &r);
	ck_assert_msg(r.rc == DDBC_ITEMS_END, "%s", r.message);
	ck_assert_uint_eq(r.n, 5);
	for (int i = 0; i < 5; i++) {
		json_error_t je;
		json_t *v = json_loads(r.items[i], 0, &je);
		ck_assert_msg(v != NULL, "item %d: %s", i, je.text);
		ck_assert_int_eq(json_integer_value(json_object_get(v, "i")), i);
		json_decref(v);
		ck_assert_uint_eq(r.pos[i].line, (unsigned long)i + 2);
	}
	free_result(&r);
	/* The same with a cap below an item's size. */
	read_all(sb.buf, sb.len, 1000, &r);
	ck_assert_int_eq(r.rc, DDBC_ITEMS_BAD);
	ck_assert_uint_eq(r.n, 0);
	ck_assert_msg(strstr(r.message, "item 1 is larger than 1000 bytes"), "%s",
		      r.message);
	ck_assert_uint_eq(r.err.pos.line, 2);
	ck_assert_uint_eq(r.err.pos.column, 1);
	free_result(&r);
	ddbc_strbuf_release(&sb);
}
END_TEST

START_TEST(test_reader_errors)
{
	static const struct {
		const char *text;
		unsigned long line, column;
		const char *message;
	} cases[] = {
		{ "", 0, 0, NULL },
		{ " \n\t ", 0, 0, NULL },
		{ "42", 1, 1, "expected a JSON array of items, JSON lines, a scan result" },
		{ "[{\"a\": 1}", 1, 10, "the input ends inside the array of items, which opens "
		  "at 1:1 (truncated?)" },
		{ "[{\"a\": 1},]", 1, 11, "expected an item after ',', found ']'" },
		{ "[{\"a\": 1} {}]", 1, 11, "expected ',' or ']' after an item, found '{'" },
		{ "[{\"a\": 1}]]", 1, 11, "expected the end of the input after the array of items" },
		{ "[{\"a\": \"x", 1, 10, "the input ends inside item 1, which starts at 1:2" },
		{ "{\"a\": 1}\n{\"b\":", 2, 6, "the input ends inside item 2, which starts at 2:1" },
		{ "{\"a\": 1,\n{\"b\": 2}\n", 2, 1, "item 1: string or '}' expected near '{'" },
		{ "{\"Items\": [{}], \"Count\": 1", 1, 27, "the input ends inside the scan result "
		  "that opens at 1:1" },
		{ "{\"Items\": [], \"Count\": 1 2}", 1, 26, "expected ',' or '}' after a member of "
		  "the scan result, found '2'" },
		{ "{\"Items\": [], \"Count\": tru}", 1, 26, "the scan result's 'Count': invalid "
		  "token near 'tru'" },
		{ "{\"Items\": 1}", 1, 11, "a scan result's \"Items\" is an array" },
		{ "{\"Items\": []} [1]", 1, 15, "expected another scan result or the end of the "
		  "input, found '['" },
		{ "[{}]\x00", 1, 5, "found byte 0x00" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		read_result r;
		read_all(cases[i].text, strlen(cases[i].text) + (i == 15), DDBC_ITEMS_MAX_ITEM, &r);
		if (!cases[i].message) {
			ck_assert_msg(r.rc == DDBC_ITEMS_END, "case %zu: %s", i, r.message);
			free_result(&r);
			continue;
		}
		ck_assert_msg(r.rc == DDBC_ITEMS_BAD, "case %zu: no error", i);
		ck_assert_msg(strstr(r.message, cases[i].message), "case %zu: '%s'", i,
			      r.message);
		ck_assert_msg(r.err.pos.line == cases[i].line && r.err.pos.column == cases[i].column,
			      "case %zu: at %lu:%lu, expected %lu:%lu (%s)", i, r.err.pos.line,
			      r.err.pos.column, cases[i].line, cases[i].column, r.message);
		free_result(&r);
	}
}
END_TEST

/* ---- typed values ---------------------------------------------------------------------------- */

START_TEST(test_values)
{
	ck_assert(ddbc_number_text("-1.5e+3", 7));
	ck_assert(ddbc_number_text(".5", 2));
	ck_assert(!ddbc_number_text("1e", 2));
	ck_assert(!ddbc_number_text("", 0));
	ck_assert(!ddbc_number_text("0x10", 4));
	ck_assert(ddbc_is_base64("AAE=", 4));
	ck_assert(!ddbc_is_base64("AAE", 3));
	ck_assert(!ddbc_is_base64("A=AE", 4));

	json_t *item = json_loads("{\"a\": {\"S\": \"x\"}, \"b\": {\"NULL\": true}}", 0, NULL);
	ck_assert(ddbc_ival_looks_typed(item));
	json_decref(item);
	item = json_loads("{\"a\": {\"S\": \"x\"}, \"b\": \"plain\"}", 0, NULL);
	ck_assert(!ddbc_ival_looks_typed(item));
	json_decref(item);

	ddbc_ival v;
	strbuf why = STRBUF_INIT;
	json_t *n = json_real(0.1);
	ck_assert(ddbc_ival_make(&v, "n", n, false, &why));
	ck_assert_int_eq(v.type, DDBC_TYPE_N);
	ck_assert_str_eq(v.text, "0.1");
	json_decref(n);
	json_t *t = json_loads("{\"M\": {\"a\": {\"L\": [{\"NS\": [\"1\", \"x\"]}]}}}", 0, NULL);
	ck_assert(!ddbc_ival_make(&v, "m", t, true, &why));
	ck_assert_str_eq(ddbc_strbuf_str(&why), "'m.a[0]' is tagged NS, but its element 2 is a "
			 "string that is no number; expected an array of numbers in strings: "
			 "{\"NS\": [\"1\"]}");
	json_decref(t);
	ddbc_strbuf_release(&why);
}
END_TEST

/* ---- every input shape -------------------------------------------------------------------------- */

static void expect_shape(const char *fixture, const char *golden)
{
	tu_proc p;
	run_items(&p, STAMP, fixture, NULL);
	ck_assert_msg(p.status == 1, "%s: exit %d: %s", fixture, p.status, p.err);
	tu_expect_golden(golden, p.out, p.out_len);
	ck_assert_str_eq(summary_tail(p.out, p.out_len), SUMMARY_STAMP);
	tu_proc_free(&p);
}

START_TEST(test_shape_array)
{
	expect_shape(FIX "items.json", "tests/golden/items/items.json.txt");
}
END_TEST

START_TEST(test_shape_lines)
{
	expect_shape(FIX "items.jsonl", "tests/golden/items/items.jsonl.txt");
}
END_TEST

START_TEST(test_shape_typed_array)
{
	expect_shape(FIX "typed-array.json", "tests/golden/items/typed-array.json.txt");
}
END_TEST

START_TEST(test_shape_scan)
{
	expect_shape(FIX "scan.json", "tests/golden/items/scan.json.txt");
}
END_TEST

START_TEST(test_shape_export)
{
	expect_shape(FIX "export.json", "tests/golden/items/export.json.txt");
}
END_TEST

/* Every shape says the same about the same items: only the file name and
 * the positions differ. */
static char *without_positions(const char *out)
{
	strbuf sb = STRBUF_INIT;
	for (const char *p = out; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);
		const char *msg = strstr(p, ": error: ");
		if (!msg || msg > p + len)
			msg = strstr(p, ": note: ");
		if (msg && msg < p + len)
			ddbc_strbuf_add(&sb, msg, (size_t)(p + len - msg));
		else
			ddbc_strbuf_add(&sb, p, len);
		p += len;
	}
	return ddbc_strbuf_detach(&sb);
}

START_TEST(test_shapes_agree)
{
	static const char *const plain[] = { FIX "items.json", FIX "items.jsonl" };
	static const char *const typed[] = { FIX "typed-array.json", FIX "scan.json",
		FIX "export.json" };
	const char *const *sets[2] = { plain, typed };
	size_t sizes[2] = { 2, 3 };
	for (int s = 0; s < 2; s++) {
		char *first = NULL;
		for (size_t i = 0; i < sizes[s]; i++) {
			tu_proc p;
			run_items(&p, STAMP, sets[s][i], NULL);
			char *o = without_positions(p.out);
			if (!first)
				first = o;
			else {
				ck_assert_str_eq(o, first);
				free(o);
			}
			tu_proc_free(&p);
		}
		free(first);
	}
}
END_TEST

START_TEST(test_stdin)
{
	tu_run_opts o = { NULL, NULL, false, FIX "export.json" };
	tu_proc p;
	tu_run(&p, &o, "check-items", STAMP, "-", (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/stdin.txt", p.out, p.out_len);
	ck_assert(tu_contains(p.out, p.out_len, "-:4:172: error: item 4 (UserStamp): 'stampId' "
			      "is S (String), but the item gives N [PK "
			      "'EVENT#stamp-rally-202606#USER#U2', SK 'STAMP#002']\n"));
	tu_proc_free(&p);
	o.stdin_file = FIX "items.json";
	tu_run(&p, &o, "check-items", STAMP, "-", (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_str_eq(summary_tail(p.out, p.out_len), SUMMARY_STAMP);
	tu_proc_free(&p);
}
END_TEST

/* ---- findings, summary, exit status ------------------------------------------------------------------ */

START_TEST(test_all_ok)
{
	tu_proc p;
	run_items(&p, STAMP, FIX "ok.jsonl", NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_str_eq(p.out, "3 items: 3 ok, 0 failed, 0 unmatched\n");
	tu_proc_free(&p);
	char *empty = temp_file("", 0);
	run_items(&p, STAMP, empty, NULL);
	ck_assert_int_eq(p.status, 0);
	ck_assert_str_eq(p.out, "0 items: 0 ok, 0 failed, 0 unmatched\n");
	tu_proc_free(&p);
	unlink(empty);
	free(empty);
}
END_TEST

START_TEST(test_stamp_findings)
{
	/* The findings a new user reads, one per line, each naming the item,
	 * its entity and what is wrong. */
	static const char *const lines[] = {
		"items.json:43:5: error: item 4 (UserStamp): 'stampId' is S (String), but the item "
		"gives N (a JSON number); write a JSON string\n",
		"items.json:44:5: error: item 4 (UserStamp): 'flexMessageSent' is BOOL (Boolean), "
		"but the item gives S (a JSON string); write true or false\n",
		"items.json:45:5: note: item 4 (UserStamp): 'nickname' is not an attribute of "
		"'UserStamp'\n",
		"items.json:64:5: error: item 6 (StampMaster): 'GSI1SK' is '2', but its template "
		"'{order:03}' gives '002' from this item's values\n",
		"items.json:66:3: error: item 7 (User): 'GSI1PK' is missing (it has the template "
		"'EVENT#{eventId}#USERS')\n",
		"items.json:71:5: error: item 7 (User): 'lineUserId' is 'U4#x', which holds the "
		"key delimiter '#'; the template of 'PK' ('EVENT#{eventId}#USER#{lineUserId}') "
		"interpolates it, and keys assume such values never hold the delimiter\n",
		"items.json:73:3: error: item 8: matches no entity of table 'line-event': its 'PK' "
		"'EVENT#stamp-rally-202606#USER#U5' fits 'User', 'UserStamp', but its 'SK' "
		"'STAMPS#001' fits none of their sort keys: 'PROFILE', 'STAMP#{stampId}'\n",
		"items.json:82:3: error: item 10: matches no entity: it has no 'PK', the partition "
		"key of table 'line-event'\n",
	};
	tu_proc p;
	run_items(&p, STAMP, FIX "items.json", NULL);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		strbuf want = STRBUF_INIT;
		ddbc_strbuf_addf(&want, "%s%s", FIX, lines[i]);
		/* The line goes on with the item's key. */
		want.buf[--want.len] = '\0';
		ck_assert_msg(tu_contains(p.out, p.out_len, want.buf), "no line\n%sin\n%s", want.buf,
			      p.out);
		ddbc_strbuf_release(&want);
	}
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_kinds_plain)
{
	tu_proc p;
	run_items(&p, KINDS, FIX "kinds.jsonl", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/kinds.jsonl.txt", p.out, p.out_len);
	ck_assert(starts_with(summary_tail(p.out, p.out_len), "10 items: 4 ok, 4 failed, 2 unmatched\n"));
	tu_proc_free(&p);
}
END_TEST

START_TEST(test_kinds_dynamodb)
{
	tu_proc p;
	run_items(&p, KINDS, FIX "kinds-export.json", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/kinds-export.json.txt", p.out, p.out_len);
	ck_assert(starts_with(summary_tail(p.out, p.out_len), "5 items: 3 ok, 1 failed, 1 unmatched\n"));
	tu_proc_free(&p);
}
END_TEST

/* Finds the findings of item in a --format json result. */
static size_t findings_of(json_t *root, json_int_t item, const char *kind, const char **entity)
{
	size_t i, n = 0;
	json_t *f;
	json_array_foreach(json_object_get(root, "findings"), i, f) {
		if (json_integer_value(json_object_get(f, "item")) != item)
			continue;
		if (entity) {
			json_t *e = json_object_get(f, "entity");
			*entity = json_is_string(e) ? json_string_value(e) : NULL;
		}
		if (!kind || !strcmp(json_string_value(json_object_get(f, "kind")), kind))
			n++;
	}
	return n;
}

static json_t *run_json(const char *design, const char *items, int status)
{
	tu_proc p;
	run_items(&p, design, items, "json");
	ck_assert_msg(p.status == status, "exit %d, expected %d: %s", p.status, status, p.err);
	json_error_t je;
	json_t *root = json_loadb(p.out, p.out_len, 0, &je);
	ck_assert_msg(root != NULL, "not JSON (%d:%d: %s):\n%s", je.line, je.column, je.text,
		      p.out);
	tu_proc_free(&p);
	return root;
}

START_TEST(test_every_kind)
{
	json_t *root = run_json(KINDS, FIX "kinds.jsonl", 1);
	ck_assert_uint_eq(findings_of(root, 1, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 2, "not-in-enum", NULL), 4);
	ck_assert_uint_eq(findings_of(root, 2, "wrong-type", NULL), 5);
	ck_assert_uint_eq(findings_of(root, 2, "missing-required", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 2, "key-mismatch", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 3, "key-mismatch", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 7, "unmatched", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 8, "delimiter-in-value", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 9, "key-mismatch", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 10, "unmatched", NULL), 1);
	json_decref(root);
	root = run_json(STAMP, FIX "items.json", 1);
	ck_assert_uint_eq(findings_of(root, 4, "unknown-attribute", NULL), 1);
	const char *e = NULL;
	ck_assert_uint_eq(findings_of(root, 4, "unknown-attribute", &e), 1);
	ck_assert_str_eq(e, "UserStamp");
	json_decref(root);
}
END_TEST

START_TEST(test_tie_rule)
{
	/* PROFILE holds more literal bytes than Row's plain S sort key: the
	 * Customer entity wins; any other sort key is a Row. Give each an
	 * attribute neither defines, to see the entity in the note. */
	const char *text = "{\"PK\": \"CUSTOMER#c1\", \"SK\": \"PROFILE\", \"customerId\": \"c1\", "
			   "\"x\": 1}\n"
			   "{\"PK\": \"CUSTOMER#c1\", \"SK\": \"OTHER\", \"customerId\": \"c1\", "
			   "\"x\": 1}\n";
	char *path = temp_file(text, strlen(text));
	json_t *root = run_json(KINDS, path, 0);
	const char *e = NULL;
	ck_assert_uint_eq(findings_of(root, 1, "unknown-attribute", &e), 1);
	ck_assert_str_eq(e, "Customer");
	ck_assert_uint_eq(findings_of(root, 2, "unknown-attribute", &e), 1);
	ck_assert_str_eq(e, "Row");
	json_decref(root);
	unlink(path);
	free(path);
}
END_TEST

/* AWS's ProductCatalog: a Book and a Bicycle are keyed alike (a Number
 * Id); the one-value enum of ProductCategory says which an item is. An
 * item whose category is neither, or that has none, is ambiguous, and is
 * not checked against a guess. */
START_TEST(test_constants_choose_entity)
{
	tu_proc p;
	run_items(&p, FIX "catalog.ddb.yaml", FIX "catalog.jsonl", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/catalog.jsonl.txt", p.out, p.out_len);
	tu_proc_free(&p);
	run_items(&p, FIX "catalog.ddb.yaml", FIX "catalog.jsonl", "json");
	tu_expect_golden("tests/golden/items/catalog.jsonl.json", p.out, p.out_len);
	tu_proc_free(&p);
	json_t *root = run_json(FIX "catalog.ddb.yaml", FIX "catalog.jsonl", 1);
	const char *e = NULL;
	ck_assert_uint_eq(findings_of(root, 1, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 2, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 3, "not-in-enum", &e), 1);
	ck_assert_str_eq(e, "Bicycle");
	ck_assert_uint_eq(findings_of(root, 4, NULL, NULL), 1);
	ck_assert_uint_eq(findings_of(root, 4, "ambiguous-entity", &e), 1);
	ck_assert_ptr_null(e);
	ck_assert_uint_eq(findings_of(root, 5, "ambiguous-entity", NULL), 1);
	json_t *sum = json_object_get(root, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "ok")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "failed")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "unmatched")), 0);
	json_decref(root);
}
END_TEST

/* A constant template (entityType) decides before the literal bytes of
 * the keys do; an entity without constants is named as such, with advice
 * that fits it. */
START_TEST(test_constant_template_decides)
{
	const char *design =
		"ddbc: 1\nname: c\nlint: { rules: { key-overlap: off } }\n"
		"tables: { app: { partition_key: PK, sort_key: SK } }\n"
		"entities:\n"
		"  Plain: { attributes: { PK: S, SK: S } }\n"
		"  User:\n    attributes:\n"
		"      PK: { type: S, template: 'USER#{id}' }\n      SK: { type: S, template: A }\n"
		"      id: S\n      entityType: { type: S, template: USER }\n"
		"  Admin:\n    attributes:\n"
		"      PK: { type: S, template: 'USER#{id}' }\n      SK: { type: S, template: A }\n"
		"      id: S\n      entityType: { type: S, template: ADMIN }\n"
		"  Note: { attributes: { PK: S, SK: { type: S, template: N } } }\n";
	const char *items =
		"{\"PK\": \"USER#1\", \"SK\": \"A\", \"id\": \"1\", \"entityType\": \"ADMIN\"}\n"
		"{\"PK\": \"X\", \"SK\": \"A\", \"entityType\": \"USER\"}\n"
		"{\"PK\": \"USER#1\", \"SK\": \"A\", \"id\": \"1\"}\n"
		"{\"PK\": \"X\", \"SK\": \"N\"}\n";
	char *dpath = temp_file(design, strlen(design));
	char *ipath = temp_file(items, strlen(items));
	json_t *root = run_json(dpath, ipath, 1);
	const char *e = NULL;
	/* Admin, declared after User, is what the item says it is. */
	ck_assert_uint_eq(findings_of(root, 1, NULL, &e), 0);
	ck_assert_uint_eq(findings_of(root, 2, "unknown-attribute", &e), 1);
	ck_assert_str_eq(e, "Plain");
	/* No entityType: User and Admin are level. */
	ck_assert_uint_eq(findings_of(root, 3, "ambiguous-entity", NULL), 1);
	/* Plain and Note: Note's sort key holds a literal, so Note wins. */
	ck_assert_uint_eq(findings_of(root, 4, NULL, NULL), 0);
	json_decref(root);
	tu_proc p;
	run_items(&p, dpath, ipath, NULL);
	ck_assert_msg(tu_contains(p.out, p.out_len, "item 3: its keys fit several entities, and "
				  "its constant attributes do not say which it is: 'User' "
				  "(entityType 'USER'), 'Admin' (entityType 'ADMIN'); give every "
				  "item the constant attribute of its entity"), "%s", p.out);
	tu_proc_free(&p);
	unlink(dpath);
	unlink(ipath);
	free(dpath);
	free(ipath);
}
END_TEST

/* An unmatched item names only the entities its keys fit as the design
 * reads keys (no delimiter inside a value), and the near miss: a number
 * that is not padded as its field is. */
START_TEST(test_unmatched_near_miss)
{
	const char *design =
		"ddbc: 1\nname: t\n"
		"tables: { Tracker: { partition_key: PK, sort_key: SK } }\n"
		"entities:\n"
		"  Issue:\n    attributes:\n"
		"      PK: { type: S, template: 'TENANT#{tenantId}' }\n"
		"      SK: { type: S, template: 'ISSUE#{issueNumber:06}' }\n"
		"      tenantId: S\n      issueNumber: N\n"
		"  Label:\n    attributes:\n"
		"      PK: { type: S, template: 'TENANT#{tenantId}' }\n"
		"      SK: { type: S, template: 'LABEL#{label}' }\n"
		"      tenantId: S\n      label: S\n";
	const char *items =
		"{\"PK\": \"TENANT#acme\", \"SK\": \"ISSUE#42\", \"tenantId\": \"acme\", "
		"\"issueNumber\": 42}\n"
		"{\"PK\": \"TENANT#acme\", \"SK\": \"ISSUE#1000000\", \"tenantId\": \"acme\", "
		"\"issueNumber\": 1000000}\n"
		"{\"PK\": \"TENANT#a#b\", \"SK\": \"NOTE#1\"}\n";
	char *dpath = temp_file(design, strlen(design));
	char *ipath = temp_file(items, strlen(items));
	tu_proc p;
	run_items(&p, dpath, ipath, NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(tu_contains(p.out, p.out_len, "item 1: matches no entity of table 'Tracker': "
				  "its 'PK' 'TENANT#acme' fits 'Issue', 'Label', but its 'SK' "
				  "'ISSUE#42' fits none of their sort keys: 'ISSUE#{issueNumber:06}', "
				  "'LABEL#{label}'; it is close to 'Issue', but its 'issueNumber' in "
				  "'SK' is not the 6 digits 'ISSUE#{issueNumber:06}' pads it to "
				  "[PK 'TENANT#acme', SK 'ISSUE#42']\n"), "%s", p.out);
	/* Seven digits in a :06 field would sort before six: no Issue either. */
	ck_assert_msg(tu_contains(p.out, p.out_len, "'ISSUE#1000000' fits none of their sort keys"),
		      "%s", p.out);
	ck_assert_msg(tu_contains(p.out, p.out_len, "item 2: matches no entity"), "%s", p.out);
	/* 'TENANT#a#b' fits a key only with '#' inside tenantId: it fits none. */
	ck_assert_msg(tu_contains(p.out, p.out_len, "its 'PK' 'TENANT#a#b' fits none of their "
				  "partition keys"), "%s", p.out);
	tu_proc_free(&p);
	json_t *root = run_json(dpath, ipath, 1);
	json_t *f = json_array_get(json_object_get(root, "findings"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(f, "key"), "SK")),
			 "ISSUE#42");
	json_decref(root);
	unlink(dpath);
	unlink(ipath);
	free(dpath);
	free(ipath);
}
END_TEST

/* Tables keyed by bare names (Users by userId, Results by resultId):
 * an item of Results has a userId too, so its keys fit both; the
 * attributes it holds that only one entity declares say which it is. */
START_TEST(test_declared_attributes_choose_entity)
{
	const char *design = "ddbc: 1\nname: c\n"
			     "tables: { Users: { partition_key: userId },\n"
			     "  Results: { partition_key: resultId } }\n"
			     "entities:\n"
			     "  User: { table: Users, attributes: { userId: S, name: S } }\n"
			     "  Result: { table: Results,\n"
			     "    attributes: { resultId: S, userId: S, score: N } }\n";
	/* Item 3 holds 'extra', which neither declares: Result still
	 * declares more of it, and the note names Result. */
	const char *items = "{\"userId\": \"u1\", \"name\": \"Ann\"}\n"
			    "{\"resultId\": \"r1\", \"userId\": \"u1\", \"score\": 3}\n"
			    "{\"resultId\": \"r2\", \"userId\": \"u1\", \"extra\": 1}\n";
	char *dpath = temp_file(design, strlen(design));
	char *ipath = temp_file(items, strlen(items));
	json_t *root = run_json(dpath, ipath, 0);
	const char *e = NULL;
	ck_assert_uint_eq(findings_of(root, 1, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 2, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 3, "unknown-attribute", &e), 1);
	ck_assert_str_eq(e, "Result");
	json_decref(root);
	unlink(dpath);
	unlink(ipath);
	free(dpath);
	free(ipath);
}
END_TEST

/* Entities without constant attributes cannot be told apart: the advice
 * is to give them one. */
START_TEST(test_ambiguous_without_constants)
{
	const char *design = "ddbc: 1\nname: c\nlint: { rules: { key-overlap: off } }\n"
			     "tables: { app: { partition_key: PK } }\n"
			     "entities:\n  A: { attributes: { PK: S } }\n"
			     "  B: { attributes: { PK: S, note: S } }\n";
	const char *items = "{\"PK\": \"x\"}\n";
	char *dpath = temp_file(design, strlen(design));
	char *ipath = temp_file(items, strlen(items));
	tu_proc p;
	run_items(&p, dpath, ipath, NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(tu_contains(p.out, p.out_len, "item 1: its keys fit several entities, and "
				  "its constant attributes do not say which it is: 'A' (no constant "
				  "attribute), 'B' (no constant attribute); give each entity a "
				  "constant attribute (such as entityType: { template: NAME }) and "
				  "every item its value"), "%s", p.out);
	ck_assert_msg(tu_contains(p.out, p.out_len, "1 item: 0 ok, 1 failed, 0 unmatched"), "%s",
		      p.out);
	tu_proc_free(&p);
	unlink(dpath);
	unlink(ipath);
	free(dpath);
	free(ipath);
}
END_TEST

/* Keys built from parts the items do not store (AWS's forum: a reply's
 * Id is forum name and subject): never demanded; a key is rendered when
 * the item holds the parts, else held to its template's shape. */
START_TEST(test_unstored_key_parts)
{
	tu_proc p;
	run_items(&p, "tests/fixtures/stored/forum.ddb.yaml", FIX "forum.jsonl", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/forum.jsonl.txt", p.out, p.out_len);
	tu_proc_free(&p);
	json_t *root = run_json("tests/fixtures/stored/forum.ddb.yaml", FIX "forum.jsonl", 1);
	ck_assert_uint_eq(findings_of(root, 1, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 2, "unknown-attribute", NULL), 2);
	ck_assert_uint_eq(findings_of(root, 2, NULL, NULL), 2);
	ck_assert_uint_eq(findings_of(root, 3, "key-mismatch", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 4, "unmatched", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 5, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 6, NULL, NULL), 0);
	json_decref(root);
	run_items(&p, FIX "unstored.ddb.yaml", FIX "unstored.jsonl", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/unstored.jsonl.txt", p.out, p.out_len);
	tu_proc_free(&p);
	root = run_json(FIX "unstored.ddb.yaml", FIX "unstored.jsonl", 1);
	ck_assert_uint_eq(findings_of(root, 1, NULL, NULL), 0);
	ck_assert_uint_eq(findings_of(root, 2, "key-mismatch", NULL), 2);
	ck_assert_uint_eq(findings_of(root, 3, "key-mismatch", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 3, "unknown-attribute", NULL), 1);
	ck_assert_uint_eq(findings_of(root, 4, "missing-required", NULL), 2);
	/* Without region, the customerId it holds is still rendered. */
	ck_assert_uint_eq(findings_of(root, 5, NULL, NULL), 1);
	ck_assert_uint_eq(findings_of(root, 5, "key-mismatch", NULL), 1);
	json_decref(root);
}
END_TEST

START_TEST(test_format_json)
{
	tu_proc p;
	run_items(&p, STAMP, FIX "scan.json", "json");
	ck_assert_int_eq(p.status, 1);
	tu_expect_golden("tests/golden/items/scan.json.json", p.out, p.out_len);
	tu_proc_free(&p);
	json_t *root = run_json(STAMP, FIX "scan.json", 1);
	json_t *sum = json_object_get(root, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "items")), 10);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "ok")), 3);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "failed")), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "unmatched")), 3);
	json_t *in = json_object_get(root, "input");
	ck_assert_str_eq(json_string_value(json_object_get(in, "shape")), "scan");
	ck_assert_str_eq(json_string_value(json_object_get(in, "json")), "dynamodb");
	ck_assert_ptr_null(json_object_get(root, "error"));
	json_decref(root);
	root = run_json(STAMP, FIX "ok.jsonl", 0);
	ck_assert_uint_eq(json_array_size(json_object_get(root, "findings")), 0);
	in = json_object_get(root, "input");
	ck_assert_str_eq(json_string_value(json_object_get(in, "shape")), "lines");
	ck_assert_str_eq(json_string_value(json_object_get(in, "json")), "plain");
	json_decref(root);
}
END_TEST

START_TEST(test_output_file)
{
	char *path = temp_file("", 0);
	tu_proc p;
	tu_run(&p, NULL, "check-items", "-o", path, STAMP, FIX "items.json", (char *)NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_uint_eq(p.out_len, 0);
	size_t len;
	char *out = tu_read_file(path, &len);
	ck_assert_str_eq(summary_tail(out, len), SUMMARY_STAMP);
	free(out);
	tu_proc_free(&p);
	unlink(path);
	free(path);
}
END_TEST

/* ---- bad input --------------------------------------------------------------------------------------- */

/* Input that is no stream of items stops the check: exit 2, the error on
 * stderr, no summary. */
START_TEST(test_bad_inputs)
{
	static const struct {
		const char *file, *error;
	} cases[] = {
		{ "truncated-array.json", "4:1: error: the input ends inside item 2, which starts "
		  "at 3:3 (truncated?)" },
		{ "unclosed-array.json", "3:1: error: the input ends inside the array of items, "
		  "which opens at 1:1 (truncated?)" },
		{ "truncated-line.json", "1:251: error: the input ends inside item 1, which starts "
		  "at 1:1 (truncated?)" },
		{ "truncated-scan.json", "27:7: error: the input ends inside item 1, which starts "
		  "at 3:9 (truncated?)" },
		{ "shape-number.json", "1:1: error: expected a JSON array of items, JSON lines, a "
		  "scan result ({\"Items\": [...]}) or export lines ({\"Item\": {...}}), found '4'" },
		{ "shape-string.json", "1:1: error: expected a JSON array of items, JSON lines, a "
		  "scan result ({\"Items\": [...]}) or export lines ({\"Item\": {...}}), found '\"'" },
		{ "trailing.json", "1:26: error: expected the end of the input after the array of "
		  "items, found '['" },
		{ "scan-items-object.json", "1:11: error: expected '[': a scan result's \"Items\" is "
		  "an array, found '{'" },
		{ "scan-metadata.json", "3:40: error: the scan result's 'LastEvaluatedKey': string "
		  "or '}' expected near '}'" },
		{ "nul-between.json", "1:45: error: expected ',' or ']' after an item, found byte "
		  "0x00" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf file = STRBUF_INIT, want = STRBUF_INIT;
		ddbc_strbuf_addf(&file, FIX "bad/%s", cases[i].file);
		ddbc_strbuf_addf(&want, "%s:%s\n", file.buf, cases[i].error);
		tu_proc p;
		run_items(&p, STAMP, file.buf, NULL);
		ck_assert_msg(p.status == 2, "%s: exit %d", file.buf, p.status);
		ck_assert_msg(tu_contains(p.err, p.err_len, want.buf), "%s: expected\n%sgot\n%s",
			      file.buf, want.buf, p.err);
		ck_assert_msg(!tu_contains(p.out, p.out_len, " items: "),
			      "%s: a summary after bad input", file.buf);
		tu_proc_free(&p);
		ddbc_strbuf_release(&file);
		ddbc_strbuf_release(&want);
	}
}
END_TEST

/* An item that cannot be read as one is a malformed-item finding at its
 * position, and the check goes on to the end and its summary. */
START_TEST(test_malformed_items)
{
	static const struct {
		const char *file, *finding, *summary;
	} cases[] = {
		{ "cut-line.jsonl", "2:12: error: item 2: the line ends before the item does (cut "
		  "short?)", "3 items: 0 ok, 0 failed, 2 unmatched, 1 malformed" },
		{ "scalar-item.json", "1:26: error: item 2: it is a number; an item is a JSON "
		  "object", "2 items: 0 ok, 0 failed, 1 unmatched, 1 malformed" },
		{ "syntax.json", "1:40: error: item 2: '}' expected near '\"SK\"'", NULL },
		{ "duplicate-key.json", "1:28: error: item 1: duplicate object key near '\"PK\"'",
		  NULL },
		{ "bad-tag.json", "3:4: error: item 1: 'SK' has the unknown type tag \"STRING\"; "
		  "DynamoDB JSON uses S, N, B, BOOL, NULL, M, L, SS, NS and BS", NULL },
		{ "bad-nested-tag.json", "3:4: error: item 1: 'flexMessageContent.contents[1]' has "
		  "the unknown type tag \"Q\"; DynamoDB JSON uses S, N, B, BOOL, NULL, M, L, SS, NS "
		  "and BS", NULL },
		{ "bad-payload.json", "3:4: error: item 1: 'order' is tagged N but holds a number; "
		  "expected a number in a string: {\"N\": \"1\"}", NULL },
		{ "bad-number.json", "1:70: error: item 1: 'order' is tagged N, but \"12x\" is no "
		  "number", NULL },
		{ "mixed-export.json", "2:1: error: item 2: it is not an export line {\"Item\": "
		  "{...}} as the first item is", NULL },
		{ "invalid-utf8.json", "1:41: error: item 1: unable to decode byte 0xc3 near "
		  "'\"MAST'", NULL },
		{ "nul-byte.json", "2:12: error: item 1: control character 0x0 near '\"MA'", NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf file = STRBUF_INIT, want = STRBUF_INIT;
		ddbc_strbuf_addf(&file, FIX "bad/%s", cases[i].file);
		ddbc_strbuf_addf(&want, "%s:%s", file.buf, cases[i].finding);
		tu_proc p;
		run_items(&p, STAMP, file.buf, NULL);
		ck_assert_msg(p.status == 1, "%s: exit %d: %s", file.buf, p.status, p.err);
		ck_assert_msg(p.err_len == 0, "%s: stderr %s", file.buf, p.err);
		ck_assert_msg(tu_contains(p.out, p.out_len, want.buf), "%s: expected\n%sgot\n%s",
			      file.buf, want.buf, p.out);
		ck_assert_msg(tu_contains(p.out, p.out_len, " malformed\n"), "%s: %s", file.buf,
			      p.out);
		ck_assert_msg(tu_contains(p.out, p.out_len, " malformed-item"), "%s", file.buf);
		if (cases[i].summary)
			ck_assert_msg(tu_contains(p.out, p.out_len, cases[i].summary), "%s: %s",
				      file.buf, p.out);
		tu_proc_free(&p);
		ddbc_strbuf_release(&file);
		ddbc_strbuf_release(&want);
	}
}
END_TEST

/* An error about a long attribute name is not cut: its end says what is wrong. */
START_TEST(test_bad_input_long_message)
{
	strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "{\"PK\": {\"S\": \"USER#1\"}, \"");
	for (int i = 0; i < 600; i++)
		ddbc_strbuf_addch(&text, 'a');
	ddbc_strbuf_addstr(&text, "\": {\"N\": \"abc\"}}\n");
	char *path = temp_file(text.buf, text.len);
	ddbc_strbuf_addf(&want, "%s:1:25: error: item 1: '", path);
	/* a malformed item: a finding on the output, not the end of the check */
	for (int i = 0; i < 600; i++)
		ddbc_strbuf_addch(&want, 'a');
	ddbc_strbuf_addstr(&want, "' is tagged N, but \"abc\" is no number\n");
	tu_proc p;
	run_items(&p, STAMP, path, NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(tu_contains(p.out, p.out_len, want.buf), "expected\n%sgot\n%s", want.buf,
		      p.out);
	tu_proc_free(&p);
	unlink(path);
	free(path);
	ddbc_strbuf_release(&text);
	ddbc_strbuf_release(&want);
}
END_TEST

START_TEST(test_bad_input_json)
{
	/* The JSON output stays one object: the findings before the error,
	 * the error and the counts so far. */
	json_t *root = run_json(STAMP, FIX "bad/truncated-array.json", 2);
	json_t *err = json_object_get(root, "error");
	ck_assert_int_eq(json_integer_value(json_object_get(err, "line")), 4);
	ck_assert_int_eq(json_integer_value(json_object_get(err, "column")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(err, "message")),
			 "the input ends inside item 2, which starts at 3:3 (truncated?)");
	json_t *sum = json_object_get(root, "summary");
	ck_assert_int_eq(json_integer_value(json_object_get(sum, "items")), 1);
	json_decref(root);
}
END_TEST

START_TEST(test_item_over_cap)
{
	/* An item over the 4 MiB cap (DynamoDB items are at most 400 KB). */
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, "{\"PK\": \"EVENT#e#STAMP#001\", \"SK\": \"MASTER\"}\n{\"PK\": \"");
	for (size_t i = 0; i < (5u << 20); i++)
		ddbc_strbuf_addch(&sb, 'x');
	ddbc_strbuf_addstr(&sb, "\"}\n");
	char *path = temp_file(sb.buf, sb.len);
	ddbc_strbuf_release(&sb);
	tu_proc p;
	run_items(&p, STAMP, path, NULL);
	ck_assert_int_eq(p.status, 2);
	strbuf want = STRBUF_INIT;
	ddbc_strbuf_addf(&want, "%s:2:1: error: item 2 is larger than 4194304 bytes; DynamoDB items "
		    "are at most 400 KB (is a bracket missing?)\n", path);
	ck_assert_msg(tu_contains(p.err, p.err_len, want.buf), "got %s", p.err);
	ddbc_strbuf_release(&want);
	tu_proc_free(&p);
	unlink(path);
	free(path);
}
END_TEST

/* ---- streaming ------------------------------------------------------------------------------------------- */

/* Runs check-items on path in a child, output discarded; returns the
 * child's peak resident set in KiB. */
static long peak_rss_kib(const char *path, const char *format)
{
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (chdir(TEST_SRCDIR) != 0)
			_exit(126);
		/* AddressSanitizer keeps freed memory in quarantine: keep it small. */
		setenv("ASAN_OPTIONS", "quarantine_size_mb=1:detect_leaks=0", 1);
		execl(TEST_BUILDDIR "/ddbc", "ddbc", "check-items", "--format", format, KINDS, path,
		      (char *)NULL);
		_exit(127);
	}
	int status;
	struct rusage ru;
	ck_assert_int_eq(wait4(pid, &status, 0, &ru), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1, "status %d", status);
	return ru.ru_maxrss;
}

static char *counters_file(size_t n)
{
	char *path = strdup("/tmp/ddbc-items-stream-XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	/* Half the items fail, so the findings stream out too. */
	for (size_t i = 0; i < n; i++)
		fprintf(f, i % 2 ? "{\"id\": %zu, \"value\": \"x\"}\n" : "{\"id\": %zu, \"value\": 1}\n",
			i);
	fclose(f);
	return path;
}

START_TEST(test_streaming_memory)
{
	char *small = counters_file(1000), *large = counters_file(200000);
	static const char *const formats[] = { "text", "json" };
	for (int i = 0; i < 2; i++) {
		long base = peak_rss_kib(small, formats[i]);
		long peak = peak_rss_kib(large, formats[i]);
		/* 200 times the items, the same memory (give or take allocator noise). */
		ck_assert_msg(peak - base < 4096, "%s: peak RSS %ld KiB for 200k items, %ld KiB for "
			      "1k", formats[i], peak, base);
#if !defined(__SANITIZE_ADDRESS__)
		ck_assert_msg(peak < 32 * 1024, "%s: peak RSS %ld KiB", formats[i], peak);
#endif
	}
	unlink(small);
	unlink(large);
	free(small);
	free(large);
}
END_TEST

/* ---- the suite --------------------------------------------------------------------------------------------- */

/* check-items lets jansson allocate an item's tree from a region of its
 * own (items_jalloc.h) for its runs only: while one is open jansson's
 * functions are the reader's, a run inside another keeps them, and the
 * last one out puts jansson's own back for the loader, the emitters and
 * the live client. A value made on one side of a run's edge and freed on
 * the other goes back to malloc (ASan says so when it does not). */
START_TEST(test_allocator_scoped)
{
	json_malloc_t m0, m;
	json_free_t f0, f;
	json_get_alloc_funcs(&m0, &f0);
	tu_design t;
	tu_load_file(&t, STAMP);
	ck_assert_ptr_nonnull(t.design);
	ddbc_semantics(t.design);
	json_t *before = json_pack("{s:[i,s]}", "made", 1, "before");

	static const char line[] = "{\"PK\": \"EVENT#e#USER#U1\", \"SK\": \"PROFILE\", "
				   "\"price\": 141.96}\n";
	FILE *in = fmemopen((void *)line, sizeof(line) - 1, "r");
	FILE *out = fopen("/dev/null", "w");
	ck_assert(in && out);
	ddbc_items_opts o;
	ddbc_items_opts_init(&o);
	ddbc_check_items_stream(out, t.design, in, "line", &o);
	fclose(in);
	json_get_alloc_funcs(&m, &f);
	ck_assert(m == m0 && f == f0);

	ddbc_item_checker *a = ddbc_item_checker_new(t.design);
	json_get_alloc_funcs(&m, &f);
	ck_assert(m != m0 && f != f0);
	ddbc_item_checker *b = ddbc_item_checker_new(t.design);
	json_t *inside = json_pack("{s:[i,s]}", "made", 2, "inside");
	ddbc_item_checker_free(a);
	json_get_alloc_funcs(&m, &f);
	ck_assert(m != m0 && f != f0);
	json_decref(before);
	ddbc_item_checker_free(b);
	json_get_alloc_funcs(&m, &f);
	ck_assert(m == m0 && f == f0);
	json_decref(inside);
	fclose(out);
	tu_design_free(&t);
}
END_TEST

static Suite *items_suite(void)
{
	Suite *s = suite_create("items");
	TCase *tc = tcase_create("matcher");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_matcher_agrees_on_designs);
	tcase_add_test(tc, test_matcher_agrees_on_classes);
	tcase_add_test(tc, test_keyindex_finds_every_fit);
	suite_add_tcase(s, tc);

	tc = tcase_create("reader");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reader_array);
	tcase_add_test(tc, test_reader_lines);
	tcase_add_test(tc, test_reader_scan);
	tcase_add_test(tc, test_reader_chunk_boundaries);
	tcase_add_test(tc, test_reader_errors);
	tcase_add_test(tc, test_values);
	suite_add_tcase(s, tc);

	tc = tcase_create("shapes");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_shape_array);
	tcase_add_test(tc, test_shape_lines);
	tcase_add_test(tc, test_shape_typed_array);
	tcase_add_test(tc, test_shape_scan);
	tcase_add_test(tc, test_shape_export);
	tcase_add_test(tc, test_shapes_agree);
	tcase_add_test(tc, test_stdin);
	suite_add_tcase(s, tc);

	tc = tcase_create("findings");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_all_ok);
	tcase_add_test(tc, test_stamp_findings);
	tcase_add_test(tc, test_kinds_plain);
	tcase_add_test(tc, test_kinds_dynamodb);
	tcase_add_test(tc, test_every_kind);
	tcase_add_test(tc, test_tie_rule);
	tcase_add_test(tc, test_constants_choose_entity);
	tcase_add_test(tc, test_constant_template_decides);
	tcase_add_test(tc, test_ambiguous_without_constants);
	tcase_add_test(tc, test_unmatched_near_miss);
	tcase_add_test(tc, test_declared_attributes_choose_entity);
	tcase_add_test(tc, test_unstored_key_parts);
	tcase_add_test(tc, test_format_json);
	tcase_add_test(tc, test_output_file);
	tcase_add_test(tc, test_allocator_scoped);
	suite_add_tcase(s, tc);

	tc = tcase_create("bad-input");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bad_inputs);
	tcase_add_test(tc, test_malformed_items);
	tcase_add_test(tc, test_bad_input_long_message);
	tcase_add_test(tc, test_bad_input_json);
	tcase_add_test(tc, test_item_over_cap);
	suite_add_tcase(s, tc);

	tc = tcase_create("streaming");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_streaming_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(items_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
