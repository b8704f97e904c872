/* check_cost.c - DynamoDB's item size rules at their edges, the units of
 * requests against the worked examples of DynamoDB's documentation, and
 * index writes on a key change. */
#include "emit/doc_request.h"
#include "emit/emit_cost.h"
#include "model/capacity.h"
#include "model/item_size.h"
#include "model/request_rows.h"
#include "model/semantics.h"
#include "rules/check.h"
#include "testutil.h"
#include "util/strbuf.h"

#include <check.h>
#include <math.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t num(const char *s)
{
	return ddbc_number_size(s, strlen(s));
}

/* ---- Numbers ---------------------------------------------------------------------- */

START_TEST(test_number_sizes)
{
	/* Two significant digits a byte, plus one; digits pair about the
	 * decimal point; zeros trimmed; a negative number one byte more. */
	ck_assert_uint_eq(num("0"), 1);
	ck_assert_uint_eq(num("-0.000"), 1);
	ck_assert_uint_eq(num("7"), 2);
	ck_assert_uint_eq(num("12"), 2);
	ck_assert_uint_eq(num("123"), 3);
	ck_assert_uint_eq(num("1234"), 3);
	ck_assert_uint_eq(num("1.2"), 3);          /* 01|20 */
	ck_assert_uint_eq(num("0.12"), 2);         /* .12 */
	ck_assert_uint_eq(num("-12"), 3);
	ck_assert_uint_eq(num("-1.2"), 4);
	/* Leading and trailing zeros are trimmed. */
	ck_assert_uint_eq(num("00012"), num("12"));
	ck_assert_uint_eq(num("120.500"), num("120.5"));
	ck_assert_uint_eq(num("1200"), 2);         /* 12|00: one digit pair */
	ck_assert_uint_eq(num("0.0012500"), 3);    /* .00|12|50: two pairs */
	ck_assert_uint_eq(num("1e5"), num("100000"));
	ck_assert_uint_eq(num("1.5E-3"), num("0.0015"));
	/* 38 significant digits: 19 pairs plus one, or 20 when misaligned. */
	ck_assert_uint_eq(num("12345678901234567890123456789012345678"), 20);
	ck_assert_uint_eq(num("1.2345678901234567890123456789012345678"), 21);
	ck_assert_uint_eq(num("-12345678901234567890123456789012345678"), 21);
	/* Not a number. */
	ck_assert_uint_eq(num("abc"), 0);
	ck_assert_uint_eq(num("1.2.3"), 0);
	ck_assert_uint_eq(num(""), 0);
	ck_assert_uint_eq(num("1e"), 0);
}
END_TEST

/* ---- items ------------------------------------------------------------------------ */

static tu_design t;

static const ddbc_entity *load(const char *text)
{
	tu_load_text(&t, text);
	ck_assert_ptr_nonnull(t.design);
	ck_assert_uint_ge(t.design->nentities, 1);
	return &t.design->entities[0];
}

static const char sizes_design[] =
	"ddbc: 1\n"
	"name: sizes\n"
	"tables:\n"
	"  Things:\n"
	"    partition_key: id\n"
	"entities:\n"
	"  Thing:\n"
	"    attributes:\n"
	"      id: S\n"
	"      n: N\n"
	"      s: S\n"
	"      b: B\n"
	"      ok: BOOL\n"
	"      no: NULL\n"
	"      m: M\n"
	"      l: L\n"
	"      ss: SS\n"
	"      ns: NS\n"
	"      bs: BS\n"
	"      名前: S\n"
	"    examples:\n"
	"      - { id: a }\n"                                    /* 2 + 1 */
	"      - { id: a, n: 12, s: \"12\" }\n"                 /* 3 + (1 + 2) + (1 + 2) */
	"      - { id: a, b: \"AAECAwQ=\", ok: true, no: null }\n" /* 3 + 6 + 3 + 3 */
	"      - { id: a, m: { a: 1, b: [true, null, x] } }\n"
	"      - { id: a, m: {}, l: [] }\n"
	"      - { id: a, ss: [a, bb, ccc], ns: [1, 10, 100.5], bs: [AA==, AAE=] }\n"
	"      - { id: a, 名前: 東京 }\n";

START_TEST(test_item_sizes)
{
	const ddbc_entity *e = load(sizes_design);
	ck_assert_uint_eq(e->nexamples, 7);
	ck_assert_uint_eq(ddbc_item_size(e, e->examples[0]), 3);
	/* A Number 12 and a String "12" are both 2 bytes. */
	ck_assert_uint_eq(ddbc_item_size(e, e->examples[1]), 3 + 3 + 3);
	/* Binary by its raw bytes (5), BOOL and NULL one byte. */
	ck_assert_uint_eq(ddbc_item_size(e, e->examples[2]), 3 + (1 + 5) + (2 + 1) + (2 + 1));
	/* A Map: 3 bytes, plus per element one byte, its name and its value;
	 * a List: 3, plus one per element and the element. a: 1 + 1 + 2;
	 * b: 1 + 1 + (3 + 2 + 2 + 2). */
	ck_assert_uint_eq(ddbc_item_size(e, e->examples[3]), 3 + 1 + (3 + 4 + 11));
	/* Empty: 3 bytes each. */
	ck_assert_uint_eq(ddbc_item_size(e, e->examples[4]), 3 + (1 + 3) + (1 + 3));
	/* Sets: the sum of their elements. */
	ck_assert_uint_eq(ddbc_item_size(e, e->examples[5]),
			  3 + (2 + 6) + (2 + 2 + 2 + 4) + (2 + 1 + 2));
	/* UTF-8: the name and the value 6 bytes each. */
	ck_assert_uint_eq(ddbc_item_size(e, e->examples[6]), 3 + 6 + 6);
	tu_design_free(&t);
}
END_TEST

/* An item of exactly total bytes: id plus one String of the rest. */
static char *item_of(uint64_t total)
{
	/* "id: a" is 3 bytes; "s: ..." is 1 + its length. */
	size_t len = (size_t)(total - 3 - 1);
	char *text = malloc(len + 512);
	int head = snprintf(text, 512, "ddbc: 1\nname: big\ntables:\n  Things:\n    partition_key: id\n"
				       "entities:\n  Thing:\n    attributes: { id: S, s: S }\n"
				       "    examples:\n      - { id: a, s: \"");
	memset(text + head, 'x', len);
	strcpy(text + head + len, "\" }\n");
	return text;
}

START_TEST(test_item_limit)
{
	const uint64_t sizes[] = { 409599, 409600, 409601 };
	for (size_t i = 0; i < 3; i++) {
		char *text = item_of(sizes[i]);
		const ddbc_entity *e = load(text);
		ck_assert_uint_eq(ddbc_item_size(e, e->examples[0]), sizes[i]);
		tu_design_free(&t);
		free(text);
	}
	ck_assert_uint_eq(DDBC_ITEM_SIZE_MAX, 409600);
}
END_TEST

/* ---- units: the documentation's worked examples -------------------------------------- */

START_TEST(test_read_units)
{
	/* "reading a 3,500-byte item consumes the same throughput as reading a
	 * 4 KB item" */
	ck_assert(ddbc_read_units(3500, true) == 1);
	/* "if your item size is 8 KB, you require 2 read units to sustain one
	 * strongly consistent read, or 1 read unit if you choose eventually
	 * consistent reads" */
	ck_assert(ddbc_read_units(8192, true) == 2);
	ck_assert(ddbc_read_units(8192, false) == 1);
	/* "If you read an item of 10 KB, DynamoDB rounds the item size to 12 KB." */
	ck_assert(ddbc_read_units(10240, true) == 3);
	/* Query: "if a query returns 10 items whose combined size is 40.8 KB,
	 * DynamoDB rounds the item size for the operation to 44 KB" -- the sum
	 * rounded once. */
	ck_assert(ddbc_read_units((uint64_t)(40.8 * 1024), true) == 11);
	ck_assert(ddbc_read_units((uint64_t)(40.8 * 1024), false) == 5.5);
	/* "If a query returns 1500 items of 64 bytes each, the cumulative
	 * size is 96 KB." */
	ck_assert(ddbc_read_units(1500 * 64, true) == 24);
	/* Writes round up to 1 KB. */
	ck_assert(ddbc_write_units(500) == 1);
	ck_assert(ddbc_write_units(1024) == 1);
	ck_assert(ddbc_write_units(1025) == 2);
	ck_assert(ddbc_write_units(1536) == 2);
}
END_TEST

/* A design as every command has it: loaded, analysed and checked. */
typedef struct checked_design {
	ddbc_source *src;
	ddbc_diags d;
	ddbc_design *g;
} checked_design;

static void checked_load(checked_design *c, const char *text)
{
	ddbc_settings s;
	ddbc_settings_init(&s);
	ddbc_diags_init(&c->d);
	c->src = tu_source(text);
	c->g = ddbc_check(c->src, &c->d, &s);
}

static void checked_free(checked_design *c)
{
	ddbc_design_free(c->g);
	ddbc_diags_release(&c->d);
	ddbc_source_free(c->src);
}

/* "Local secondary indexes", Provisioned throughput considerations: items
 * of 300 bytes, 200 of them projected, four returned by a query that needs
 * table fetches: "200 bytes x 4 items = 800 bytes; this is then rounded up
 * to 4 KB", "(300 bytes, rounded up to 4 KB) x 4 items = 16 KB": 20 KB. */
static void lsi_fetch_units(const char *text, double index_units, double table_units)
{
	checked_design d;
	checked_load(&d, text);
	ck_assert_ptr_nonnull(d.g);
	const ddbc_design *g = d.g;
	ck_assert_uint_eq(g->npatterns, 1);
	const ddbc_pattern *p = &g->patterns[0];
	const ddbc_entity *e = &g->entities[0];
	for (size_t i = 0; i < e->nexamples; i++)
		ck_assert_uint_eq(ddbc_item_size(e, e->examples[i]), 300);
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_views *views = ddbc_views_new(g);
	ddbc_pattern_cap c;
	ck_assert(ddbc_pattern_design_capacity(arena, g, p, views, &c));
	ck_assert(c.fetches);
	ck_assert_uint_eq(c.items, 4);
	ck_assert_uint_eq(c.bytes, 800);
	ck_assert(c.read[p->index->slot] == index_units);
	ck_assert(c.read[0] == table_units);
	ddbc_views_free(views);
	ddbc_arena_free(arena);
	checked_free(&d);
}

START_TEST(test_views_release)
{
	/* Done with a table's views, the caller keeps those a pattern reads
	 * (the table's, for a query of the table) and frees the others: one
	 * asked for again is built again, with the same items in order. */
	char *path = tu_srcpath("tests/fixtures/cost/lsi-fetch.ddb.yaml");
	char *text = tu_read_file(path, NULL);
	char *base = tu_replace(text, "    index: ByPosted\n", "");
	checked_design d;
	checked_load(&d, base);
	ck_assert_ptr_nonnull(d.g);
	const ddbc_table *forum = &d.g->tables[0];
	ck_assert_uint_eq(forum->nindexes, 2);
	ddbc_views *views = ddbc_views_new(d.g);
	const ddbc_view *table = ddbc_views_get(views, forum->indexes[0]);
	const ddbc_view *lsi = ddbc_views_get(views, forum->indexes[1]);
	size_t n, again;
	const ddbc_view_item *items = ddbc_view_items(lsi, &n);
	ck_assert_uint_eq(n, 4);
	const ddbc_pval *before[4];
	for (size_t i = 0; i < n; i++)
		before[i] = items[i].item;
	ddbc_views_release(views, forum);
	ck_assert_ptr_eq(ddbc_views_get(views, forum->indexes[0]), table);
	items = ddbc_view_items(ddbc_views_get(views, forum->indexes[1]), &again);
	ck_assert_uint_eq(again, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_ptr_eq(items[i].item, before[i]);
	ddbc_views_free(views);
	checked_free(&d);
	free(base);
	free(text);
	free(path);
}
END_TEST

START_TEST(test_lsi_fetches)
{
	char *path = tu_srcpath("tests/fixtures/cost/lsi-fetch.ddb.yaml");
	char *text = tu_read_file(path, NULL);
	/* 4 KB and 16 KB: 1 and 4 units consistent, half of each eventually. */
	lsi_fetch_units(text, 1, 4);
	char *eventual = tu_replace(text, "consistent_read: true", "consistent_read: false");
	lsi_fetch_units(eventual, 0.5, 2);
	free(eventual);
	free(text);
	free(path);
}
END_TEST

/* ---- items:, limit: and the 1 MB page ----------------------------------------------------- */

/* Items of exactly 1,000 bytes (PK 2+3, SK 2+3, body 4+986), and a
 * pattern whose lines are extra (items:, limit:, consistent_read:). */
static char *pages_design(const char *extra, size_t body, size_t nexamples)
{
	strbuf b = STRBUF_INIT;
	ddbc_strbuf_addstr(&b, "ddbc: 1\nname: pages\ntables:\n  Feed:\n    partition_key: PK\n"
			  "    sort_key: SK\nentities:\n  Post:\n    attributes:\n"
			  "      PK: { type: S, template: \"F#{f}\" }\n"
			  "      SK: { type: S, template: \"P#{p}\" }\n"
			  "      f: { type: S, stored: false }\n"
			  "      p: { type: S, stored: false }\n"
			  "      body: S\n");
	ddbc_strbuf_addstr(&b, nexamples ? "    examples:\n" : "");
	for (size_t i = 0; i < nexamples; i++) {
		ddbc_strbuf_addf(&b, "      - { PK: \"F#1\", SK: \"P#%zu\", body: \"", i + 1);
		for (size_t k = 0; k < body; k++)
			ddbc_strbuf_addch(&b, 'x');
		ddbc_strbuf_addstr(&b, "\" }\n");
	}
	ddbc_strbuf_addf(&b, "access_patterns:\n  feed:\n    operation: query\n"
			"    key: { PK: \"F#{f}\" }\n    example: { f: \"1\" }\n%s", extra);
	return ddbc_strbuf_detach(&b);
}

/* The capacity of the design's one pattern. */
static void pattern_units(const char *text, ddbc_pattern_cap *out, ddbc_arena *arena)
{
	checked_design d;
	checked_load(&d, text);
	ck_assert_ptr_nonnull(d.g);
	ck_assert_msg(d.d.n == 0 || d.d.items[0].severity != DDBC_SEV_ERROR, "%s",
		      d.d.n ? d.d.items[0].message : "");
	ddbc_views *views = ddbc_views_new(d.g);
	ck_assert(ddbc_pattern_design_capacity(arena, d.g, &d.g->patterns[0], views, out));
	/* The arrays live in arena; the design may go. */
	ddbc_views_free(views);
	checked_free(&d);
}

START_TEST(test_pages)
{
	static const struct {
		const char *extra;
		size_t body, examples;
		size_t items, requests;
		double bytes, units;
	} cases[] = {
		/* The examples: 2 of 1,000 bytes, one page, 0.5 units. */
		{ "", 986, 2, 2, 1, 2000, 0.5 },
		/* items: wins over the examples. 10,000 entries of 1,000 bytes: a page
		 * ends with the entry that reaches 1 MB, the 1,049th (1,049,000 bytes,
		 * 257 units, 128.5 eventually consistent); 9 full pages and one of
		 * 559 entries, 137 units (68.5): 10 requests. */
		{ "    items: 10000\n", 986, 2, 10000, 10, 1e7, 9 * 128.5 + 68.5 },
		/* limit: pages of 100 entries, 100,000 bytes, 25 units consistent. */
		{ "    items: 10000\n    limit: 100\n    consistent_read: true\n", 986, 2, 10000,
		  100, 1e7, 100 * 25 },
		/* limit: alone: a full page of it; 25,000 bytes, 7 units, 3.5. */
		{ "    limit: 25\n", 986, 2, 25, 1, 25000, 3.5 },
		/* A limit over what 1 MB holds: the 1 MB page still ends a request. */
		{ "    items: 3000\n    limit: 2000\n    consistent_read: true\n", 986, 2, 3000, 3,
		  3e6, 257 + 257 + ceil((3000 - 2 * 1049) * 1000 / 4096.0) },
		/* Example items over 1 MB together: 5 of 300,014 bytes; the fourth
		 * brings the first page over 1 MB (1,200,056 bytes, 293 units), the
		 * fifth is alone (74). */
		{ "    consistent_read: true\n", 300000, 5, 5, 2, 5 * 300014.0, 293 + 74 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = pages_design(cases[i].extra, cases[i].body, cases[i].examples);
		ddbc_arena *arena = ddbc_arena_new();
		ddbc_pattern_cap c;
		pattern_units(text, &c, arena);
		ck_assert_msg(c.known, "case %zu", i);
		ck_assert_msg(c.items == cases[i].items && c.requests == cases[i].requests &&
				      c.bytes == cases[i].bytes && c.read[0] == cases[i].units,
			      "case %zu: %zu items in %zu requests, %g bytes, %g units; want %zu in "
			      "%zu, %g, %g", i, c.items, c.requests, c.bytes, c.read[0],
			      cases[i].items, cases[i].requests, cases[i].bytes, cases[i].units);
		/* No request reads more than a page: 1 MB and one item, at most
		 * 400 KB, rounded up to 4 KB: 356 units consistent. */
		ck_assert(c.read[0] <= 356.0 * (double)c.requests);
		ddbc_arena_free(arena);
		free(text);
	}
}
END_TEST

/* A Limit without items: one use reads its first page: the first `limit`
 * items, the last when the query reads backwards; with items: all. */
static void limit_rows(const char *extra, const char *first, size_t want)
{
	char *text = pages_design(extra, 10, 5);
	checked_design d;
	checked_load(&d, text);
	ck_assert_ptr_nonnull(d.g);
	const ddbc_pattern *p = &d.g->patterns[0];
	ddbc_views *views = ddbc_views_new(d.g);
	ddbc_key_sent sent;
	ck_assert(ddbc_request_key_sent(d.g, p, &sent));
	ddbc_cap_item *items;
	size_t n = ddbc_request_items(p, &sent, views, &items);
	ck_assert_uint_eq(n, want);
	ck_assert_str_eq(ddbc_pval_text(ddbc_pval_get(items[0].item, "SK")), first);
	free(items);
	ddbc_key_sent_release(&sent);
	ddbc_views_free(views);
	checked_free(&d);
	free(text);
}

START_TEST(test_limit_rows)
{
	limit_rows("    limit: 2\n", "P#1", 2);
	limit_rows("    limit: 2\n    order: desc\n", "P#4", 2);
	limit_rows("    limit: 2\n    items: 5\n", "P#1", 5);
	limit_rows("", "P#1", 5);
}
END_TEST

/* Sizes for a reader: bytes under 1 KiB, then binary units, one decimal
 * (the storage of 9,339,892,000 bytes is 8.7 GiB). */
START_TEST(test_size_text)
{
	static const struct {
		double bytes;
		const char *text;
	} cases[] = {
		{ 0, "0 bytes" }, { 740, "740 bytes" }, { 1023, "1023 bytes" },
		{ 1024, "1.0 KiB" }, { 6071, "5.9 KiB" }, { 1048575, "1.0 MiB" },
		{ 9339892000.0, "8.7 GiB" }, { 5e15, "4.4 PiB" },
	};
	char buf[64];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		ddbc_cost_size_text(buf, sizeof buf, cases[i].bytes, "bytes");
		ck_assert_str_eq(buf, cases[i].text);
	}
}
END_TEST

/* items: on a query that selects no example: the examples the index holds
 * give the size; with none and no item_bytes, the units are unknown. */
START_TEST(test_pages_sizes)
{
	char *text = pages_design("    items: 8\n", 986, 2);
	char *other = tu_replace(text, "example: { f: \"1\" }", "example: { f: \"9\" }");
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_pattern_cap c;
	pattern_units(other, &c, arena);
	ck_assert(c.known && c.items == 8 && c.bytes == 8000 && c.read[0] == 1);
	char *none = pages_design("    items: 8\n", 986, 0);
	pattern_units(none, &c, arena);
	ck_assert(!c.known && c.declared && c.items == 8 && c.read[0] < 0);
	ddbc_arena_free(arena);
	free(none);
	free(other);
	free(text);
}
END_TEST

/* "Queries that do not return results consume the minimum number of read
 * capacity units for that type of read operation" (API reference, Query):
 * a query of a partition no example item is in. */
START_TEST(test_empty_query)
{
	char *path = tu_srcpath("tests/fixtures/cost/lsi-fetch.ddb.yaml");
	char *text = tu_read_file(path, NULL);
	const char *consistency[] = { "consistent_read: true", "consistent_read: false" };
	const double least[] = { 1, 0.5 };
	for (size_t k = 0; k < 2; k++) {
		char *none = tu_replace(text, "key: { PK: \"F#1\" }", "key: { PK: \"F#9\" }");
		char *v = tu_replace(none, "consistent_read: true", consistency[k]);
		checked_design d;
		checked_load(&d, v);
		ck_assert_ptr_nonnull(d.g);
		const ddbc_pattern *p = &d.g->patterns[0];
		ddbc_arena *arena = ddbc_arena_new();
		ddbc_views *views = ddbc_views_new(d.g);
		ddbc_pattern_cap c;
		ck_assert(ddbc_pattern_design_capacity(arena, d.g, p, views, &c));
		ck_assert_uint_eq(c.items, 0);
		ck_assert(c.read[p->index->slot] == least[k]);
		ck_assert(c.read[0] == 0);   /* nothing fetched */
		ddbc_views_free(views);
		ddbc_arena_free(arena);
		checked_free(&d);
		free(v);
		free(none);
	}
	free(text);
	free(path);
}
END_TEST

static const char index_design[] =
	"ddbc: 1\n"
	"name: idx\n"
	"tables:\n"
	"  Scores:\n"
	"    partition_key: user\n"
	"    sort_key: game\n"
	"    gsi:\n"
	"      ByGame:\n"
	"        partition_key: game\n"
	"        sort_key: top\n"
	"        projection: keys_only\n"
	"entities:\n"
	"  Score:\n"
	"    attributes: { user: S, game: S, top: N, note: S }\n"
	"    examples:\n"
	"      - { user: u1, game: g1, top: 10, note: hello }\n"   /* in the index */
	"      - { user: u1, game: g1, top: 20, note: hello }\n"   /* its key changed */
	"      - { user: u1, game: g1, note: hello }\n"            /* not in it */
	"      - { user: u1, game: g1, top: 10, note: other }\n";  /* a non-projected change */

START_TEST(test_index_writes)
{
	tu_load_text(&t, index_design);
	ck_assert_ptr_nonnull(t.design);
	const ddbc_entity *e = &t.design->entities[0];
	const ddbc_index *gsi = &t.design->tables[0].gsi[0];
	const ddbc_pval *const *x = e->examples;
	/* A new item the index holds: one write of its entry. */
	ck_assert(ddbc_index_write_units(gsi, e, NULL, x[0], false) == 1);
	/* "If an update to the table changes the value of an indexed key
	 * attribute (from A to B), two writes are required, one to delete the
	 * previous item from the index and another write to put the new item
	 * into the index." */
	ck_assert(ddbc_index_write_units(gsi, e, x[0], x[1], false) == 2);
	/* An item that leaves the index: one write (the delete). */
	ck_assert(ddbc_index_write_units(gsi, e, x[0], x[2], false) == 1);
	/* An item in the index neither before nor after: none. */
	ck_assert(ddbc_index_write_units(gsi, e, x[2], x[2], false) == 0);
	/* A change of an attribute the index does not project: none. */
	ck_assert(ddbc_index_write_units(gsi, e, x[0], x[3], false) == 0);
	/* The table always writes the item. */
	ck_assert(ddbc_index_write_units(&t.design->tables[0].primary, e, x[0], x[3], false) == 1);
	/* An entry holds the keys of the index and of the table only. */
	ck_assert_uint_eq(ddbc_entry_size(gsi, e, x[0]), (4 + 2) + (4 + 2) + (3 + 2));
	tu_design_free(&t);
}
END_TEST

/* ---- rules ------------------------------------------------------------------------ */

static ddbc_diags checked;
static ddbc_source *checked_src;

/* The findings of a whole check of text, resolved as `ddbc lint` does. */
static void check_text(const char *text)
{
	ddbc_settings s;
	ddbc_settings_init(&s);
	ddbc_diags_init(&checked);
	checked_src = tu_source(text);
	ddbc_design *g = ddbc_check(checked_src, &checked, &s);
	ck_assert_ptr_nonnull(g);
	ddbc_diags_finish(&checked, &s, &g->settings);
	ddbc_design_free(g);
}

static void check_done(void)
{
	ddbc_diags_release(&checked);
	ddbc_source_free(checked_src);
}

static size_t count_rule(ddbc_rule rule, ddbc_severity *sev)
{
	size_t n = 0;
	for (size_t i = 0; i < checked.n; i++)
		if (checked.items[i].rule == rule) {
			n++;
			*sev = checked.items[i].severity;
		}
	return n;
}

/* A GSI keyed by optional attributes (required: false) holds only the
 * items that have them: semantics.c derives which and the share, from
 * present: (the product over the optional keys), else the examples, else
 * all; the entity's index writes and storage are that share. */
static const char sparse_design[] =
	"ddbc: 1\nname: s\ntables:\n"
	"  Tickets:\n    partition_key: PK\n    sort_key: SK\n"
	"    gsi:\n      Queue: { partition_key: q, sort_key: atTime }\n"
	"      All: { partition_key: tenant, sort_key: SK }\n"
	"    lsi:\n      ByQ: { sort_key: q }\n"
	"entities:\n"
	"  A:\n    count: 1000\n    item_bytes: 1500\n    attributes:\n"
	"      PK: { type: S, template: \"A#{tenant}\" }\n"
	"      SK: { type: S, template: \"ID#{id}\" }\n"
	"      tenant: S\n      id: S\n"
	"      q: { type: S, template: \"Q#{tenant}\", required: false, present: 0.5 }\n"
	"      atTime: { type: S, required: false, present: 0.2 }\n"
	"  B:\n    count: 300\n    attributes:\n"
	"      PK: { type: S, template: \"B#{tenant}\" }\n"
	"      SK: { type: S, template: \"ID#{id}\" }\n"
	"      tenant: S\n      id: S\n"
	"      q: { type: S, template: \"Q#{tenant}\", required: false }\n"
	"      atTime: S\n"
	"    examples:\n"
	"      - { PK: \"B#t\", SK: \"ID#1\", tenant: t, id: \"1\", q: \"Q#t\", atTime: x }\n"
	"      - { PK: \"B#t\", SK: \"ID#2\", tenant: t, id: \"2\", atTime: x }\n"
	"      - { PK: \"B#t\", SK: \"ID#3\", tenant: t, id: \"3\", atTime: x }\n"
	"  C:\n    attributes:\n"
	"      PK: { type: S, template: \"C#{tenant}\" }\n"
	"      SK: { type: S, template: \"ID#{id}\" }\n"
	"      tenant: S\n      id: S\n"
	"      q: { type: S, template: \"Q#{tenant}\", required: false }\n"
	"      atTime: S\n";

START_TEST(test_sparse_membership)
{
	checked_design d;
	checked_load(&d, sparse_design);
	ddbc_counts n = ddbc_diags_count(&d.d);
	ck_assert_msg(d.g && n.errors == 0 && n.warnings == 0, "%s", tu_diags_dump(&d.d));
	const ddbc_table *tb = &d.g->tables[0];
	const ddbc_index *q = tb->indexes[1], *all = tb->indexes[2];
	const ddbc_entity *a = ddbc_design_entity(d.g, "A"), *b = ddbc_design_entity(d.g, "B"),
			  *c = ddbc_design_entity(d.g, "C");
	/* A: both keys of Q optional, present: 0.5 x 0.2. */
	const ddbc_membership *m = ddbc_entity_membership(a, q);
	ck_assert_uint_eq(m->nby, 2);
	ck_assert_str_eq(m->by[0]->name.s, "q");
	ck_assert_str_eq(m->by[1]->name.s, "atTime");
	ck_assert_int_eq(m->source, DDBC_SHARE_PRESENT);
	ck_assert_double_eq_tol(m->share, 0.1, 1e-12);
	/* A sparse LSI: its partition key is the table's, never optional. */
	const ddbc_membership *lm = ddbc_entity_membership(a, tb->indexes[3]);
	ck_assert_uint_eq(lm->nby, 1);
	ck_assert_str_eq(lm->by[0]->name.s, "q");
	ck_assert_double_eq_tol(lm->share, 0.5, 1e-12);
	/* All keys no optional attribute: every item. */
	ck_assert_uint_eq(ddbc_entity_membership(a, all)->nby, 0);
	ck_assert_int_eq(ddbc_entity_membership(a, all)->source, DDBC_SHARE_ALL);
	/* B: one of its three examples has q. */
	m = ddbc_entity_membership(b, q);
	ck_assert_uint_eq(m->nby, 1);
	ck_assert_int_eq(m->source, DDBC_SHARE_EXAMPLES);
	ck_assert_double_eq_tol(m->share, 1.0 / 3, 1e-12);
	ck_assert(ddbc_example_in_index(b, q, b->examples[0]));
	ck_assert(!ddbc_example_in_index(b, q, b->examples[1]));
	/* C says nothing: every item, as a dense index. */
	m = ddbc_entity_membership(c, q);
	ck_assert_int_eq(m->source, DDBC_SHARE_ASSUMED);
	ck_assert_double_eq(m->share, 1);
	/* A without examples: item_bytes 1500 is 2 write units, a tenth of
	 * the puts write Q; storage is a tenth of the items. */
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_entity_cap cap;
	ddbc_entity_capacity(arena, a, &cap);
	ck_assert_double_eq_tol(cap.write[0], 2, 1e-12);
	ck_assert_double_eq_tol(cap.write[1], 0.2, 1e-12);
	ck_assert_double_eq_tol(cap.storage[1], 0.1 * 1000 * (1500 + DDBC_STORAGE_OVERHEAD), 1e-6);
	ck_assert_double_eq_tol(cap.storage[2], 1000 * (1500 + DDBC_STORAGE_OVERHEAD), 1e-6);
	/* B: a third of the puts write Q, each as the carrying example. */
	ddbc_entity_capacity(arena, b, &cap);
	ck_assert_double_eq_tol(cap.write[1], 1.0 / 3, 1e-12);
	ck_assert_double_eq_tol(cap.write[2], 1, 1e-12);
	ddbc_arena_free(arena);
	checked_free(&d);
}
END_TEST

START_TEST(test_item_size_rule)
{
	/* Over the limit: an error; over 75% of it: a warning; under: none. */
	const uint64_t sizes[] = { 409601, 409600, 307201, 307200 };
	const size_t want[] = { 1, 1, 1, 0 };
	const ddbc_severity sev_want[] = { DDBC_SEV_ERROR, DDBC_SEV_WARNING, DDBC_SEV_WARNING,
					   DDBC_SEV_OFF };
	for (size_t i = 0; i < 4; i++) {
		char *text = item_of(sizes[i]);
		check_text(text);
		ddbc_severity sev = DDBC_SEV_OFF;
		ck_assert_uint_eq(count_rule(DDBC_RULE_ITEM_SIZE, &sev), want[i]);
		ck_assert_int_eq(sev, sev_want[i]);
		check_done();
		free(text);
	}
}
END_TEST

START_TEST(test_hot_partition_rates)
{
	char *path = tu_srcpath("tests/fixtures/cost/hot-rate.ddb.yaml");
	char *text = tu_read_file(path, NULL);
	check_text(text);
	/* 1,500 puts a second, each a write on the one AllUsers partition. */
	tu_expect_diag(&checked, DDBC_RULE_HOT_PARTITION, 31, 11, "1500 write units a second");
	check_done();
	/* 900 a second: within one partition's 1,000. */
	char *at = strstr(text, "rate: 1500");
	ck_assert_ptr_nonnull(at);
	memcpy(at, "rate:  900", 10);
	check_text(text);
	ddbc_severity sev;
	ck_assert_uint_eq(count_rule(DDBC_RULE_HOT_PARTITION, &sev), 0);
	check_done();
	free(text);
	free(path);
}
END_TEST

START_TEST(test_hot_partition_reads)
{
	char *path = tu_srcpath("tests/fixtures/cost/hot-read.ddb.yaml");
	char *text = tu_read_file(path, NULL);
	/* 2,500 queries a second, each returning the three example items of
	 * about 3 KB (9,177 bytes: 3 units, 1.5 on a GSI): 3,750 read units
	 * a second on the one AllUsers partition, exactly. At the lower bound
	 * of half a unit a query it would be 1,250, and no finding. */
	check_text(text);
	tu_expect_diag(&checked, DDBC_RULE_HOT_PARTITION, 42, 11, ": 3750 read units a second");
	ddbc_severity sev;
	ck_assert_uint_eq(count_rule(DDBC_RULE_HOT_PARTITION, &sev), 1);
	check_done();
	/* 1,500 a second: 2,250, within one partition's 3,000. */
	char *quiet = tu_replace(text, "rate: 2500", "rate: 1500");
	check_text(quiet);
	ck_assert_uint_eq(count_rule(DDBC_RULE_HOT_PARTITION, &sev), 0);
	check_done();
	/* A request the design cannot make (a parameter without a value):
	 * the lower bound, said as such. */
	char *least = tu_replace(text, "key: { GSI1PK: USERS }\n    rate: 2500",
				 "key: { GSI1PK: USERS, createdAt: { begins_with: \"{month}\" } }\n"
				 "    rate: 7000");
	check_text(least);
	tu_expect_diag(&checked, DDBC_RULE_HOT_PARTITION, 42, 11,
		       "at least 3500 read units a second");
	check_done();
	free(least);
	free(quiet);
	free(text);
	free(path);
}
END_TEST

/* ---- which items a request returns, in the model ------------------------------------ */

static bool same_text(ddbc_key_text a, ddbc_key_text b)
{
	if (!a.text || !b.text)
		return a.text == b.text;
	return a.len == b.len && !memcmp(a.text, b.text, a.len);
}

/* For every pattern of the design at path but puts: the model makes the
 * request from the design exactly when the queries export does, sends the
 * same key values, and finds the same example items on the same view as
 * the documentation does with the export's values. Returns how many
 * patterns were compared. */
static size_t agree_on_text(const char *path, const char *text, size_t *refused)
{
	checked_design cd;
	checked_load(&cd, text);
	ddbc_design *g = cd.g;
	size_t compared = 0;
	ddbc_views *views = g ? ddbc_views_new(g) : NULL;
	for (size_t i = 0; g && i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->analysed || !p->table || !p->index || !ddbc_pattern_request(p) ||
		    p->operation == DDBC_OP_PUT)
			continue;
		char *buf = NULL;
		size_t len = 0;
		ddbc_query_sent es = { 0 };
		ddbc_emit_result r = ddbc_doc_request_input(open_memstream(&buf, &len), g, p, &es);
		ddbc_key_sent ms;
		bool ok = ddbc_request_key_sent(g, p, &ms);
		ck_assert_msg(ok == (r == DDBC_EMIT_OK), "%s: %s: model %d, export %d", path,
			      p->id.s, ok, r);
		*refused += !ok;
		if (ok) {
			ck_assert_uint_eq(ms.n, es.key.n);
			for (size_t k = 0; k < ms.n; k++) {
				ck_assert_msg(same_text(ms.values[k][0], es.key.values[k][0]) &&
						      same_text(ms.values[k][1], es.key.values[k][1]),
					      "%s: %s: key value %zu differs", path, p->id.s, k);
				ck_assert_int_eq(ms.types[k], es.key.types[k]);
			}
			const ddbc_view *view = ddbc_request_view(views, p);
			size_t *a, *b;
			size_t na = ddbc_request_rows(p, &ms, view, &a);
			size_t nb = ddbc_request_rows(p, &es.key, view, &b);
			ck_assert_uint_eq(na, nb);
			ck_assert(!na || !memcmp(a, b, na * sizeof *a));
			free(a);
			free(b);
			compared++;
		}
		ddbc_key_sent_release(&ms);
		ddbc_query_sent_release(&es);
		free(buf);
	}
	ddbc_views_free(views);
	checked_free(&cd);
	return compared;
}

static size_t agree_on(const char *path)
{
	char *text = tu_read_file(path, NULL);
	size_t refused = 0, n = agree_on_text(path, text, &refused);
	free(text);
	return n;
}

/* A write's condition whose ':name' no design value gives: the export
 * cannot write the request, and the model says so too. */
START_TEST(test_request_condition_values)
{
	static const char design[] =
		"ddbc: 1\n"
		"name: cond\n"
		"tables:\n"
		"  Docs: { partition_key: id }\n"
		"entities:\n"
		"  Doc:\n"
		"    attributes: { id: S, version: N }\n"
		"    examples:\n"
		"      - { id: d1, version: 1 }\n"
		"access_patterns:\n"
		"  drop:\n"
		"    operation: delete\n"
		"    key: { id: \"{id}\" }\n"
		"    condition: \"revision = :expected\"\n";
	size_t refused = 0;
	ck_assert_uint_eq(agree_on_text("cond", design, &refused), 0);
	ck_assert_uint_eq(refused, 1);
	char *given = tu_replace(design, "    condition:", "    example: { expected: 3 }\n    condition:");
	refused = 0;
	ck_assert_uint_eq(agree_on_text("cond", given, &refused), 1);
	ck_assert_uint_eq(refused, 0);
	free(given);
}
END_TEST

START_TEST(test_request_rows_agree)
{
	const char *dirs[] = { "samples/*.ddb.yaml", "tests/designs/*.ddb.yaml",
			       "tests/fixtures/cost/*.ddb.yaml" };
	size_t compared = 0, files = 0;
	for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
		char *pattern = tu_srcpath(dirs[k]);
		glob_t gl;
		ck_assert_int_eq(glob(pattern, 0, NULL, &gl), 0);
		for (size_t i = 0; i < gl.gl_pathc; i++, files++)
			compared += agree_on(gl.gl_pathv[i]);
		globfree(&gl);
		free(pattern);
	}
	ck_assert_uint_ge(files, 10);
	ck_assert_uint_ge(compared, 100);
}
END_TEST

static Suite *cost_suite(void)
{
	Suite *s = suite_create("cost");
	TCase *tc = tcase_create("sizes");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_number_sizes);
	tcase_add_test(tc, test_item_sizes);
	tcase_add_test(tc, test_item_limit);
	tcase_add_test(tc, test_views_release);
	tcase_add_test(tc, test_read_units);
	tcase_add_test(tc, test_lsi_fetches);
	tcase_add_test(tc, test_empty_query);
	tcase_add_test(tc, test_pages);
	tcase_add_test(tc, test_pages_sizes);
	tcase_add_test(tc, test_limit_rows);
	tcase_add_test(tc, test_size_text);
	tcase_add_test(tc, test_index_writes);
	tcase_add_test(tc, test_item_size_rule);
	tcase_add_test(tc, test_sparse_membership);
	tcase_add_test(tc, test_hot_partition_rates);
	tcase_add_test(tc, test_hot_partition_reads);
	tcase_add_test(tc, test_request_rows_agree);
	tcase_add_test(tc, test_request_condition_values);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cost_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
