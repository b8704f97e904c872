/* check_live.c - sample's generator and formats, its items held to
 * check-items, its shares of a count; verify's item sizes (src/live/) */
#include "items/items.h"
#include "live/sample_int.h"
#include "live/verify_int.h"
#include "model/item_size.h"
#include "rules/check.h"
#include "testutil.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

/* A design checked as every command checks it. */
typedef struct checked {
	ddbc_source *src;
	ddbc_diags d;
	ddbc_design *g;
} checked;

static void check_text(checked *c, const char *text)
{
	c->src = tu_source(text);
	ddbc_diags_init(&c->d);
	ddbc_settings s;
	ddbc_settings_init(&s);
	c->g = ddbc_check(c->src, &c->d, &s);
	ck_assert_msg(c->g && !ddbc_diags_count(&c->d).errors, "%s", tu_diags_dump(&c->d));
}

static void checked_free(checked *c)
{
	ddbc_design_free(c->g);
	ddbc_diags_release(&c->d);
	ddbc_source_free(c->src);
}

static const char runs[] =
	"ddbc: 1\n"
	"name: runs\n"
	"key_delimiter: \"-\"\n"
	"tables:\n"
	"  Runs:\n"
	"    partition_key: pk\n"
	"    sort_key: sk\n"
	"    gsi:\n"
	"      ByOwner: { partition_key: owner, sort_key: sk }\n"
	"entities:\n"
	"  Run:\n"
	"    table: Runs\n"
	"    count: 3000\n"
	"    attributes:\n"
	"      pk: { type: S, template: \"RUN-{runId}\" }\n"
	"      sk: { type: S, template: \"STEP-{day}-{n:06}\" }\n"
	"      runId: { type: S, format: UUID }\n"
	"      day: { type: S, format: yyyy-mm-dd }\n"
	"      n: { type: N }\n"
	"      owner: { type: S, format: e-mail address }\n"
	"      state: { type: S, enum: [queued, running, done] }\n"
	"      tags: { type: SS }\n"
	"      at: { type: N, format: unix epoch ms }\n"
	"      started: { type: S, format: ISO 8601 date-time }\n"
	"      id2: { type: S, format: ULID }\n"
	"      note: { type: S }\n"
	"      email: { type: S }\n"
	"      d2: { type: S, format: yyyy-mm-dd (UTC) }\n"
	"      t2: { type: S, format: \"ISO 8601 (UTC, ミリ秒)\" }\n"
	"      e2: { type: N, format: エポック秒 }\n"
	"      t3: { type: S, format: ISO 8601 (UTC) }\n"
	"  Host:\n"
	"    table: Runs\n"
	"    count: 1000\n"
	"    attributes:\n"
	"      pk: { type: S, template: \"HOST-{name}\" }\n"
	"      sk: { type: S, template: INFO }\n"
	"      name: { type: S }\n"
	"      up: { type: BOOL, required: true }\n";

static const ddbc_attr *attr(const ddbc_design *g, const char *entity, const char *name)
{
	const ddbc_attr *a = ddbc_entity_attr(ddbc_design_entity(g, entity), name);
	ck_assert_ptr_nonnull(a);
	return a;
}

START_TEST(test_rng)
{
	ddbc_rng a = { 42 }, b = { 42 }, c = { 43 };
	bool differs = false;
	for (int i = 0; i < 1000; i++) {
		uint64_t x = ddbc_rng_next(&a);
		ck_assert_uint_eq(x, ddbc_rng_next(&b));
		differs |= x != ddbc_rng_next(&c);
		ck_assert_uint_lt(ddbc_rng_below(&c, 7), 7);
	}
	ck_assert(differs);
	ck_assert_uint_eq(ddbc_rng_below(&a, 0), 0);
	ck_assert(!ddbc_rng_chance(&a, 0.0));
	ck_assert(ddbc_rng_chance(&a, 1.0));
}
END_TEST

START_TEST(test_formats)
{
	checked c;
	check_text(&c, runs);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "runId")), DDBC_VF_UUID);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "day")), DDBC_VF_DATE);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "owner")), DDBC_VF_EMAIL);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "at")), DDBC_VF_EPOCH_MS);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "started")), DDBC_VF_DATETIME);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "id2")), DDBC_VF_ULID);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "note")), DDBC_VF_NONE);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "d2")), DDBC_VF_DATE);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "t2")), DDBC_VF_DATETIME_MS);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "e2")), DDBC_VF_EPOCH);
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "t3")), DDBC_VF_DATETIME);
	/* no format, but the name says it */
	ck_assert_int_eq(ddbc_vformat_of(attr(c.g, "Run", "email")), DDBC_VF_EMAIL);
	checked_free(&c);
}
END_TEST

START_TEST(test_format_patterns)
{
	static const struct { const char *format, *prefix, *alphabet; unsigned count; } ok[] = {
		{ "U + 3 桁", "U", "0123456789", 3 },
		{ "C + 6 digits", "C", "0123456789", 6 },
		{ "P + 32 hex digits", "P", "0123456789abcdef", 32 },
		{ "3 桁の連番 (001, 002, …)", "", "0123456789", 3 },
		{ "\"#rrggbb\"", "#", "0123456789abcdef", 6 },
		{ "ORD + 3 桁", "ORD", "0123456789", 3 },
	};
	strbuf prefix = STRBUF_INIT;
	unsigned count;
	const char *alphabet;
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		ck_assert_msg(ddbc_format_pattern(ok[i].format, &prefix, &count, &alphabet), "%s",
			      ok[i].format);
		ck_assert_str_eq(ddbc_strbuf_str(&prefix), ok[i].prefix);
		ck_assert_str_eq(alphabet, ok[i].alphabet);
		ck_assert_uint_eq(count, ok[i].count);
	}
	static const char *const no[] = { "whole dollars", "cents", "W x H x D (inches)",
					  "year × 10 + quarter (20261 = first quarter of 2026)",
					  "decimal digits", NULL };
	for (size_t i = 0; no[i]; i++)
		ck_assert_msg(!ddbc_format_pattern(no[i], &prefix, &count, &alphabet), "%s", no[i]);
	ck_assert(!ddbc_format_pattern(NULL, &prefix, &count, &alphabet));
	ddbc_strbuf_release(&prefix);
}
END_TEST

/* Every item of a sample passes check-items as its own entity, keys never
 * repeat, and key parts never hold the delimiter "-" (UUIDs and dates
 * have theirs taken out). */
START_TEST(test_items_pass)
{
	checked c;
	check_text(&c, runs);
	ddbc_sample s;
	strbuf err = STRBUF_INIT;
	ddbc_sample_opts o = { 400, 7 };
	ck_assert_int_eq(ddbc_sample_make(c.g, &o, &s, &err), 0);
	ck_assert_uint_eq(s.n, 400);
	ddbc_item_checker *chk = ddbc_item_checker_new(c.g);
	json_t *keys = json_object();
	size_t runs_n = 0, with_owner = 0;
	for (size_t i = 0; i < s.n; i++) {
		char *text = json_dumps(s.items[i].item, JSON_COMPACT);
		const ddbc_entity *e = NULL;
		strbuf why = STRBUF_INIT;
		ck_assert_msg(ddbc_item_check_one(chk, text, strlen(text), &e, &why) ==
			      DDBC_VERDICT_OK, "%s: %s", text, ddbc_strbuf_str(&why));
		ck_assert_ptr_eq(e, s.items[i].entity);
		char *key = ddbc_verify_item_key(e->table, s.items[i].item);
		ck_assert_msg(!json_object_get(keys, key), "key %s twice", key);
		json_object_set_new(keys, key, json_true());
		if (!strcmp(e->name.s, "Run")) {
			runs_n++;
			with_owner += json_object_get(s.items[i].item, "owner") != NULL;
			const char *sk = json_string_value(json_object_get(
			    json_object_get(s.items[i].item, "sk"), "S"));
			/* STEP-DAY-NNNNNN: the :06 part is six digits */
			ck_assert_uint_eq(strspn(strrchr(sk, '-') + 1, "0123456789"), 6);
			ck_assert_ptr_null(strchr(json_string_value(json_object_get(
			    s.items[i].values, "runId")), '-'));
		}
		ddbc_strbuf_release(&why);
		free(key);
		free(text);
	}
	/* count: 3000 and 1000 share 400 items as 300 and 100 */
	ck_assert_uint_eq(runs_n, 300);
	/* owner is optional: in some items only */
	ck_assert_uint_gt(with_owner, 30);
	ck_assert_uint_lt(with_owner, 270);
	json_decref(keys);
	ddbc_item_checker_free(chk);
	ddbc_sample_release(&s);
	ddbc_strbuf_release(&err);
	checked_free(&c);
}
END_TEST

static char *dump_sample(const ddbc_design *g, unsigned long count, uint64_t seed)
{
	ddbc_sample s;
	strbuf err = STRBUF_INIT;
	ddbc_sample_opts o = { count, seed };
	ck_assert_int_eq(ddbc_sample_make(g, &o, &s, &err), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ck_assert_int_eq(ddbc_sample_write(f, &s, DDBC_SAMPLE_BATCH), 0);
	fclose(f);
	ddbc_sample_release(&s);
	ddbc_strbuf_release(&err);
	return buf;
}

START_TEST(test_deterministic)
{
	checked c;
	check_text(&c, runs);
	char *a = dump_sample(c.g, 120, 1), *b = dump_sample(c.g, 120, 1), *x = dump_sample(c.g, 120, 2);
	ck_assert_str_eq(a, b);
	ck_assert_str_ne(a, x);
	/* batch lines: 25 puts at most, one table each */
	size_t lines = 0;
	for (char *line = strtok(a, "\n"); line; line = strtok(NULL, "\n"), lines++) {
		json_t *v = json_loads(line, 0, NULL);
		ck_assert_uint_eq(json_object_size(v), 1);
		ck_assert_uint_le(json_array_size(json_object_get(v, "Runs")), DDBC_BATCH_MAX);
		json_decref(v);
	}
	ck_assert_uint_eq(lines, 120 / 25 + 1);
	free(a);
	free(b);
	free(x);
	checked_free(&c);
}
END_TEST

/* An entity whose keys tell few items apart gets fewer, with a note. */
START_TEST(test_constant_keys)
{
	checked c;
	check_text(&c, "ddbc: 1\nname: one\ntables:\n  Conf:\n    partition_key: pk\n"
		       "entities:\n  Setting:\n    table: Conf\n    attributes:\n"
		       "      pk: { type: S, template: \"CONF#{kind}\" }\n"
		       "      kind: { type: S, enum: [a, b, c] }\n");
	ddbc_sample s;
	strbuf err = STRBUF_INIT;
	ddbc_sample_opts o = { 10, 0 };
	ck_assert_int_eq(ddbc_sample_make(c.g, &o, &s, &err), 0);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_ptr_nonnull(strstr(ddbc_strbuf_str(&s.notes), "entity 'Setting' has 3 items, not 10"));
	ddbc_sample_release(&s);
	ddbc_strbuf_release(&err);
	checked_free(&c);
}
END_TEST

/* verify sizes the items it writes as the cost model sizes examples: by
 * shape, and a set by its entity's declared type (a YAML value has no
 * set: without the entity, a set is sized as a list). */
START_TEST(test_item_pval_size)
{
	checked c;
	check_text(&c, runs);
	ddbc_arena *a = ddbc_arena_new();
	json_t *item = json_loads("{\"a\": {\"S\": \"xyz\"}, \"n\": {\"N\": \"12\"}, "
				  "\"b\": {\"BOOL\": true}, \"tags\": {\"SS\": [\"p\", \"qq\"]}, "
				  "\"m\": {\"M\": {\"k\": {\"N\": \"1.5\"}}}, \"l\": {\"L\": [{\"NULL\": true}]}}",
				  0, NULL);
	const ddbc_pval *v = ddbc_verify_item_pval(a, item);
	/* a 1+3, n 1+2, b 1+1, tags 4+3, m 1+(3+1+1+3), l 1+(3+1+1) */
	ck_assert_uint_eq(ddbc_item_size(ddbc_design_entity(c.g, "Run"), v), 4 + 3 + 2 + 7 + 9 + 6);
	/* the list of two strings: 3 + 1 + 1 + 1 + 2 */
	ck_assert_uint_eq(ddbc_item_size(NULL, v), 4 + 3 + 2 + 4 + 8 + 9 + 6);
	json_decref(item);
	ddbc_arena_free(a);
	checked_free(&c);
}
END_TEST

/* Items returned by an engine are told by their table key; a Number key
 * by its value (1.50 written, 1.5 given back). */
START_TEST(test_item_keys)
{
	checked c;
	check_text(&c, "ddbc: 1\nname: nums\ntables:\n  Scores:\n    partition_key: game\n"
		       "    sort_key: score\nentities:\n  Score:\n    table: Scores\n"
		       "    attributes: { game: S, score: N }\n");
	const ddbc_table *t = ddbc_design_table(c.g, "Scores");
	static const char *const same[][2] = {
		{ "1.50", "1.5" }, { "15e-1", "1.5" }, { "100", "1e2" }, { "-0.050", "-5e-2" },
		{ "0", "-0.0" },
	};
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
		json_t *a = json_pack("{s:{s:s}, s:{s:s}}", "game", "S", "g", "score", "N", same[i][0]);
		json_t *b = json_pack("{s:{s:s}, s:{s:s}}", "game", "S", "g", "score", "N", same[i][1]);
		char *ka = ddbc_verify_item_key(t, a), *kb = ddbc_verify_item_key(t, b);
		ck_assert_str_eq(ka, kb);
		free(ka);
		free(kb);
		json_decref(a);
		json_decref(b);
	}
	json_t *a = json_pack("{s:{s:s}, s:{s:s}}", "game", "S", "g", "score", "N", "1.5");
	json_t *b = json_pack("{s:{s:s}, s:{s:s}}", "game", "S", "g", "score", "N", "15");
	json_t *lacks = json_pack("{s:{s:s}}", "game", "S", "g");
	char *ka = ddbc_verify_item_key(t, a), *kb = ddbc_verify_item_key(t, b);
	ck_assert_str_ne(ka, kb);
	ck_assert_ptr_null(ddbc_verify_item_key(t, lacks));
	free(ka);
	free(kb);
	json_decref(a);
	json_decref(b);
	json_decref(lacks);
	checked_free(&c);
}
END_TEST

static Suite *live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("sample");
	/* no test depends on Check's 4 s default, whatever the machine */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_rng);
	tcase_add_test(tc, test_formats);
	tcase_add_test(tc, test_format_patterns);
	tcase_add_test(tc, test_items_pass);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_constant_keys);
	tcase_add_test(tc, test_item_pval_size);
	tcase_add_test(tc, test_item_keys);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(live_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
