/* check_compose.c - YAML text to positioned nodes (compose.c)
 *
 * Scalars resolve under the YAML 1.2 core schema, every node keeps its
 * 1-based line and column (in characters), aliases share nodes, merge keys
 * merge, and every hostile or broken input ends at once with one finding
 * at the right place.
 */
#include "testutil.h"
#include "input/compose.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One composed text: its source, arena, findings and root. */
struct composed {
	ddbc_source *src;
	ddbc_arena *arena;
	ddbc_diags d;
	ddbc_node *root;
};

static void compose_n(struct composed *c, const char *text, size_t len)
{
	c->src = ddbc_source_from_memory("test.yaml", text, len);
	c->arena = ddbc_arena_new();
	ddbc_diags_init(&c->d);
	ddbc_diags_begin(&c->d, c->src);
	c->root = ddbc_yaml_load(c->arena, c->src, &c->d);
}

static void compose(struct composed *c, const char *text)
{
	compose_n(c, text, strlen(text));
}

static void release(struct composed *c)
{
	ddbc_arena_free(c->arena);
	ddbc_diags_release(&c->d);
	ddbc_source_free(c->src);
}

/* Asserts that the text composed cleanly. */
#define expect_clean(c)                                                                    \
	do {                                                                               \
		ck_assert_msg((c)->root != NULL && (c)->d.n == 0 && !(c)->d.fatal,        \
			      "expected a clean document; findings:\n%s",                 \
			      tu_diags_dump(&(c)->d));                                     \
	} while (0)

/* Asserts the one fatal finding a broken input gives. */
#define expect_fatal(c, rule, line, col, substr)                                          \
	do {                                                                               \
		ck_assert_ptr_null((c)->root);                                             \
		ck_assert_msg((c)->d.fatal, "d.fatal is not set");                         \
		tu_expect_count(&(c)->d, 1);                                               \
		tu_expect_diag(&(c)->d, (rule), (line), (col), (substr));                  \
	} while (0)

/* The key node of a mapping's entry. */
static const ddbc_node *key_of(const ddbc_node *map, const char *key)
{
	ck_assert_ptr_nonnull(map);
	ck_assert_int_eq(map->kind, DDBC_NODE_MAP);
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->u.pairs[i].key->u.text, key))
			return map->u.pairs[i].key;
	ck_abort_msg("no key '%s'", key);
	return NULL;
}

static const ddbc_node *get(const ddbc_node *map, const char *key)
{
	const ddbc_node *v = ddbc_node_get(map, key);
	ck_assert_msg(v != NULL, "no key '%s'", key);
	return v;
}

#define expect_loc(node, l, c)                                                             \
	do {                                                                               \
		const ddbc_node *n_ = (node);                                              \
		ck_assert_msg(n_->loc.line == (l) && n_->loc.column == (c),                \
			      "node at %u:%u, expected %u:%u", n_->loc.line, n_->loc.column, \
			      (unsigned)(l), (unsigned)(c));                               \
	} while (0)

/* ---- scalars ------------------------------------------------------------------ */

static const struct {
	const char *yaml;
	ddbc_scalar_kind kind;
} scalars[] = {
	/* null */
	{ "~", DDBC_SCALAR_NULL }, { "null", DDBC_SCALAR_NULL }, { "Null", DDBC_SCALAR_NULL },
	{ "NULL", DDBC_SCALAR_NULL }, { "", DDBC_SCALAR_NULL }, { "!!null ~", DDBC_SCALAR_NULL },
	/* bool: only the six core spellings; YAML 1.1's yes/no/on/off are strings */
	{ "true", DDBC_SCALAR_BOOL }, { "True", DDBC_SCALAR_BOOL }, { "TRUE", DDBC_SCALAR_BOOL },
	{ "false", DDBC_SCALAR_BOOL }, { "False", DDBC_SCALAR_BOOL }, { "FALSE", DDBC_SCALAR_BOOL },
	{ "yes", DDBC_SCALAR_STR }, { "no", DDBC_SCALAR_STR }, { "on", DDBC_SCALAR_STR },
	{ "off", DDBC_SCALAR_STR }, { "y", DDBC_SCALAR_STR }, { "tRUE", DDBC_SCALAR_STR },
	{ "nULL", DDBC_SCALAR_STR }, { "!!bool true", DDBC_SCALAR_BOOL },
	/* int */
	{ "0", DDBC_SCALAR_INT }, { "-12", DDBC_SCALAR_INT }, { "+7", DDBC_SCALAR_INT },
	{ "007", DDBC_SCALAR_INT }, { "0x1F", DDBC_SCALAR_INT }, { "0o17", DDBC_SCALAR_INT },
	{ "!!int 12", DDBC_SCALAR_INT }, { "!!int \"12\"", DDBC_SCALAR_INT },
	{ "0b101", DDBC_SCALAR_STR }, { "1_000", DDBC_SCALAR_STR }, { "0x", DDBC_SCALAR_STR },
	{ "0xG1", DDBC_SCALAR_STR }, { "+0x1F", DDBC_SCALAR_STR }, { "0o8", DDBC_SCALAR_STR },
	{ "12abc", DDBC_SCALAR_STR },
	/* float */
	{ "1.5", DDBC_SCALAR_FLOAT }, { "-.5", DDBC_SCALAR_FLOAT }, { "1e3", DDBC_SCALAR_FLOAT },
	{ "6.02E+23", DDBC_SCALAR_FLOAT }, { "1.", DDBC_SCALAR_FLOAT },
	{ ".inf", DDBC_SCALAR_FLOAT }, { "-.Inf", DDBC_SCALAR_FLOAT },
	{ "+.INF", DDBC_SCALAR_FLOAT }, { ".nan", DDBC_SCALAR_FLOAT },
	{ ".NaN", DDBC_SCALAR_FLOAT }, { "!!float 1", DDBC_SCALAR_FLOAT },
	{ ".", DDBC_SCALAR_STR }, { "1e", DDBC_SCALAR_STR }, { "1.2.3", DDBC_SCALAR_STR },
	{ "-.nan", DDBC_SCALAR_STR }, { ".infinity", DDBC_SCALAR_STR },
	/* quoted and !!str are always strings */
	{ "\"12\"", DDBC_SCALAR_STR }, { "'true'", DDBC_SCALAR_STR },
	{ "\"null\"", DDBC_SCALAR_STR }, { "''", DDBC_SCALAR_STR }, { "\"1.5\"", DDBC_SCALAR_STR },
	{ "!!str 12", DDBC_SCALAR_STR }, { "!!str true", DDBC_SCALAR_STR },
	{ "!!str ~", DDBC_SCALAR_STR }, { "!!str", DDBC_SCALAR_STR },
	/* other tags and the non-specific tag: strings */
	{ "!local 12", DDBC_SCALAR_STR }, { "! 12", DDBC_SCALAR_STR },
	/* block scalars are strings */
	{ "|\n  12\n", DDBC_SCALAR_STR }, { ">-\n  true\n", DDBC_SCALAR_STR },
	/* plain text */
	{ "hello world", DDBC_SCALAR_STR }, { "EVENT#{eventId}", DDBC_SCALAR_STR },
};

START_TEST(test_scalar_kind)
{
	char text[256];
	snprintf(text, sizeof(text), "v: %s\n", scalars[_i].yaml);
	struct composed c;
	compose(&c, text);
	expect_clean(&c);
	const ddbc_node *v = get(c.root, "v");
	ck_assert_int_eq(v->kind, DDBC_NODE_SCALAR);
	ck_assert_msg(v->scalar == scalars[_i].kind, "'%s' resolved to %d, expected %d",
		      scalars[_i].yaml, (int)v->scalar, (int)scalars[_i].kind);
	release(&c);
}
END_TEST

START_TEST(test_scalar_text)
{
	struct composed c;
	compose(&c, "plain: a b\n"
		    "single: 'it''s'\n"
		    "double: \"tab\\there\"\n"
		    "literal: |\n  one\n  two\n"
		    "folded: >-\n  one\n  two\n"
		    "nul: \"a\\0b\"\n");
	expect_clean(&c);
	ck_assert_str_eq(get(c.root, "plain")->u.text, "a b");
	ck_assert_str_eq(get(c.root, "single")->u.text, "it's");
	ck_assert_str_eq(get(c.root, "double")->u.text, "tab\there");
	ck_assert_str_eq(get(c.root, "literal")->u.text, "one\ntwo\n");
	ck_assert_str_eq(get(c.root, "folded")->u.text, "one two");
	/* An escaped NUL is kept: n counts it. */
	const ddbc_node *nul = get(c.root, "nul");
	ck_assert_uint_eq(nul->n, 3);
	ck_assert_mem_eq(nul->u.text, "a\0b", 3);
	ck_assert_uint_eq(get(c.root, "plain")->n, 3);
	release(&c);
}
END_TEST

START_TEST(test_scalar_readers)
{
	struct composed c;
	compose(&c, "hex: 0x1F\noct: 0o17\nneg: -12\npos: +7\nlead: 007\n"
		    "max: 9223372036854775807\nover: 9223372036854775808\n"
		    "float: 1.5\nstr: \"12\"\nt: True\nf: FALSE\nyes: yes\nnull: ~\n"
		    "seq: [1]\nmap: {a: 1}\n");
	expect_clean(&c);
	long long n;
	ck_assert(ddbc_node_int(get(c.root, "hex"), &n));
	ck_assert_int_eq(n, 31);
	ck_assert(ddbc_node_int(get(c.root, "oct"), &n));
	ck_assert_int_eq(n, 15);
	ck_assert(ddbc_node_int(get(c.root, "neg"), &n));
	ck_assert_int_eq(n, -12);
	ck_assert(ddbc_node_int(get(c.root, "pos"), &n));
	ck_assert_int_eq(n, 7);
	ck_assert(ddbc_node_int(get(c.root, "lead"), &n));
	ck_assert_int_eq(n, 7);
	ck_assert(ddbc_node_int(get(c.root, "max"), &n));
	ck_assert(n == 9223372036854775807LL);
	/* An integer out of range is an integer, but not a long long. */
	ck_assert_int_eq(get(c.root, "over")->scalar, DDBC_SCALAR_INT);
	ck_assert(!ddbc_node_int(get(c.root, "over"), &n));
	ck_assert(!ddbc_node_int(get(c.root, "float"), &n));
	ck_assert(!ddbc_node_int(get(c.root, "str"), &n));
	ck_assert(!ddbc_node_int(NULL, &n));

	bool b = false;
	ck_assert(ddbc_node_bool(get(c.root, "t"), &b));
	ck_assert(b);
	ck_assert(ddbc_node_bool(get(c.root, "f"), &b));
	ck_assert(!b);
	ck_assert(!ddbc_node_bool(get(c.root, "yes"), &b));
	ck_assert(!ddbc_node_bool(NULL, &b));

	ck_assert(ddbc_node_is_null(get(c.root, "null")));
	ck_assert(!ddbc_node_is_null(get(c.root, "str")));
	ck_assert(ddbc_node_is_number(get(c.root, "float")));
	ck_assert(ddbc_node_is_number(get(c.root, "hex")));
	ck_assert(!ddbc_node_is_number(get(c.root, "str")));

	ck_assert_str_eq(ddbc_node_describe(get(c.root, "str")), "a string");
	ck_assert_str_eq(ddbc_node_describe(get(c.root, "float")), "a number");
	ck_assert_str_eq(ddbc_node_describe(get(c.root, "hex")), "a number");
	ck_assert_str_eq(ddbc_node_describe(get(c.root, "t")), "a boolean");
	ck_assert_str_eq(ddbc_node_describe(get(c.root, "null")), "null");
	ck_assert_str_eq(ddbc_node_describe(get(c.root, "seq")), "a sequence");
	ck_assert_str_eq(ddbc_node_describe(get(c.root, "map")), "a mapping");
	ck_assert_str_eq(ddbc_node_describe(NULL), "nothing");

	/* Lookups on what is not a mapping find nothing. */
	ck_assert_ptr_null(ddbc_node_get(get(c.root, "seq"), "a"));
	ck_assert_ptr_null(ddbc_node_get(NULL, "a"));
	ck_assert_ptr_null(ddbc_node_get(c.root, "missing"));
	release(&c);
}
END_TEST

/* ---- positions ------------------------------------------------------------------ */

START_TEST(test_positions)
{
	struct composed c;
	compose(&c, "ddbc: 1\n"                                   /* 1 */
		    "tables:\n"                                   /* 2 */
		    "  t:\n"                                      /* 3 */
		    "    partition_key: PK\n"                     /* 4 */
		    "    gsi: { G1: { partition_key: [a, b] } }\n" /* 5 */
		    "list:\n"                                     /* 6 */
		    "  - one\n"                                   /* 7 */
		    "  -   two\n"                                 /* 8 */
		    "# a comment\n"                               /* 9 */
		    "\n"                                          /* 10 */
		    "last: \"quoted\"\n");                        /* 11 */
	expect_clean(&c);
	expect_loc(c.root, 1, 1);
	expect_loc(key_of(c.root, "ddbc"), 1, 1);
	expect_loc(get(c.root, "ddbc"), 1, 7);
	expect_loc(key_of(c.root, "tables"), 2, 1);
	const ddbc_node *tables = get(c.root, "tables");
	expect_loc(tables, 3, 3);
	expect_loc(key_of(tables, "t"), 3, 3);
	const ddbc_node *t = get(tables, "t");
	expect_loc(key_of(t, "partition_key"), 4, 5);
	expect_loc(get(t, "partition_key"), 4, 20);
	const ddbc_node *gsi = get(t, "gsi");
	expect_loc(gsi, 5, 10);
	expect_loc(key_of(gsi, "G1"), 5, 12);
	const ddbc_node *pk = get(get(gsi, "G1"), "partition_key");
	expect_loc(pk, 5, 33);
	ck_assert_uint_eq(pk->n, 2);
	expect_loc(pk->u.items[0], 5, 34);
	expect_loc(pk->u.items[1], 5, 37);
	const ddbc_node *list = get(c.root, "list");
	expect_loc(list, 7, 3);
	expect_loc(list->u.items[0], 7, 5);
	expect_loc(list->u.items[1], 8, 7);
	expect_loc(get(c.root, "last"), 11, 7);
	release(&c);
}
END_TEST

START_TEST(test_positions_count_characters)
{
	struct composed c;
	/* Columns count characters, not bytes: 2-, 3- and 4-byte UTF-8 alike. */
	compose(&c, "説明: 日本語のテキスト\n"
		    "名前: {キー: 値, 別: \"二\"}\n"
		    "😀😀: x\n"
		    "é: [ü, ß]\n");
	expect_clean(&c);
	expect_loc(key_of(c.root, "説明"), 1, 1);
	expect_loc(get(c.root, "説明"), 1, 5);
	const ddbc_node *m = get(c.root, "名前");
	expect_loc(m, 2, 5);
	expect_loc(key_of(m, "キー"), 2, 6);
	expect_loc(get(m, "キー"), 2, 10);
	expect_loc(key_of(m, "別"), 2, 13);
	expect_loc(get(m, "別"), 2, 16);
	expect_loc(get(c.root, "😀😀"), 3, 5);
	const ddbc_node *seq = get(c.root, "é");
	expect_loc(seq, 4, 4);
	expect_loc(seq->u.items[0], 4, 5);
	expect_loc(seq->u.items[1], 4, 8);
	release(&c);
}
END_TEST

START_TEST(test_positions_line_breaks)
{
	struct composed c;
	/* CRLF and a lone CR are one line break each, as in libyaml. */
	compose(&c, "a: 1\r\nb: 2\r\n\r\nc: 3\rd: 4\n");
	expect_clean(&c);
	expect_loc(get(c.root, "b"), 2, 4);
	expect_loc(key_of(c.root, "c"), 4, 1);
	expect_loc(key_of(c.root, "d"), 5, 1);
	release(&c);
}
END_TEST

START_TEST(test_byte_order_mark)
{
	/* A UTF-8 BOM is not text: the first key is at column 1, and a
	 * second top-level key lines up with it. */
	struct composed c;
	compose(&c, "\xEF\xBB\xBF" "a: 1\nb: 2\n");
	expect_clean(&c);
	expect_loc(key_of(c.root, "a"), 1, 1);
	expect_loc(key_of(c.root, "b"), 2, 1);
	release(&c);

	compose(&c, "\xEF\xBB\xBF" "k: \x01\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, 4, "control character");
	release(&c);
}
END_TEST

/* ---- anchors, aliases and merge keys ------------------------------------------- */

START_TEST(test_aliases_share_nodes)
{
	struct composed c;
	compose(&c, "base: &b {x: 1, y: [1, 2]}\n"
		    "copy: *b\n"
		    "list: [&s hello, *s, *b]\n");
	expect_clean(&c);
	const ddbc_node *base = get(c.root, "base");
	ck_assert_ptr_eq(get(c.root, "copy"), base);
	const ddbc_node *list = get(c.root, "list");
	ck_assert_uint_eq(list->n, 3);
	ck_assert_ptr_eq(list->u.items[0], list->u.items[1]);
	ck_assert_str_eq(list->u.items[1]->u.text, "hello");
	ck_assert_ptr_eq(list->u.items[2], base);
	/* The shared node keeps its own position, which starts at its anchor. */
	expect_loc(get(c.root, "copy"), 1, 7);
	release(&c);
}
END_TEST

START_TEST(test_anchor_redefined)
{
	/* YAML lets an anchor be redefined; an alias means the latest one. */
	struct composed c;
	compose(&c, "a: &x first\nb: *x\nc: &x second\nd: *x\n");
	expect_clean(&c);
	ck_assert_str_eq(get(c.root, "b")->u.text, "first");
	ck_assert_str_eq(get(c.root, "d")->u.text, "second");
	release(&c);
}
END_TEST

START_TEST(test_merge_keys)
{
	struct composed c;
	compose(&c, "base: &base {a: 1, b: 2}\n"
		    "other: &other {b: 20, c: 30}\n"
		    "one:\n"
		    "  <<: *base\n"
		    "  b: 3\n"
		    "two:\n"
		    "  c: 4\n"
		    "  <<: [*base, *other]\n"
		    "inline: {<<: {k: v}, z: 0}\n");
	expect_clean(&c);
	const ddbc_node *one = get(c.root, "one");
	ck_assert_uint_eq(one->n, 2);
	ck_assert_str_eq(get(one, "a")->u.text, "1");
	/* The explicit key wins over the merged one. */
	ck_assert_str_eq(get(one, "b")->u.text, "3");
	ck_assert_ptr_null(ddbc_node_get(one, "<<"));
	/* The merged value is the base's own node. */
	ck_assert_ptr_eq(get(one, "a"), get(get(c.root, "base"), "a"));

	const ddbc_node *two = get(c.root, "two");
	ck_assert_uint_eq(two->n, 3);
	ck_assert_str_eq(get(two, "c")->u.text, "4");
	ck_assert_str_eq(get(two, "a")->u.text, "1");
	/* Of two merged mappings, the earlier one wins. */
	ck_assert_str_eq(get(two, "b")->u.text, "2");

	const ddbc_node *in = get(c.root, "inline");
	ck_assert_uint_eq(in->n, 2);
	ck_assert_str_eq(get(in, "k")->u.text, "v");
	release(&c);
}
END_TEST

START_TEST(test_quoted_merge_key_is_a_key)
{
	/* Only a plain << merges: a quoted one is an ordinary key. */
	struct composed c;
	compose(&c, "base: &b {a: 1}\nm: {\"<<\": *b, z: 0}\n");
	expect_clean(&c);
	const ddbc_node *m = get(c.root, "m");
	ck_assert_uint_eq(m->n, 2);
	ck_assert_ptr_null(ddbc_node_get(m, "a"));
	ck_assert_ptr_eq(get(m, "<<"), get(c.root, "base"));
	release(&c);
}
END_TEST

START_TEST(test_merge_duplicate_explicit)
{
	/* Merging never reports; two explicit keys still do. */
	struct composed c;
	compose(&c, "base: &b {a: 1}\nm: {<<: *b, a: 2, a: 3}\n");
	ck_assert_ptr_nonnull(c.root);
	tu_expect_count(&c.d, 1);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 2, 19, "duplicate key 'a' (first defined at 2:13)");
	ck_assert_str_eq(get(get(c.root, "m"), "a")->u.text, "2");
	release(&c);
}
END_TEST

START_TEST(test_merge_not_a_mapping)
{
	struct composed c;
	compose(&c, "m:\n  <<: just text\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 7, "a merge key ('<<') takes a mapping, not a string");
	release(&c);

	compose(&c, "a: &a {x: 1}\nm: {<<: [*a, [1]]}\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 14, "takes mappings, not a sequence");
	release(&c);
}
END_TEST

/* ---- duplicate keys -------------------------------------------------------------- */

START_TEST(test_duplicate_key)
{
	struct composed c;
	compose(&c, "name: first\nother: x\nname: second\n");
	ck_assert_ptr_nonnull(c.root);
	ck_assert(!c.d.fatal);
	tu_expect_count(&c.d, 1);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 3, 1,
		       "duplicate key 'name' (first defined at 1:1); remove one");
	/* The first occurrence is kept, the second dropped. */
	ck_assert_uint_eq(c.root->n, 2);
	ck_assert_str_eq(get(c.root, "name")->u.text, "first");
	release(&c);
}
END_TEST

START_TEST(test_duplicate_key_each_repeat)
{
	struct composed c;
	compose(&c, "k: 1\nk: 2\nx:\n  y: 1\n  \"k\": 2\n  'y': 3\nk: 4\n");
	ck_assert_ptr_nonnull(c.root);
	tu_expect_count(&c.d, 3);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 2, 1, "'k' (first defined at 1:1)");
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 7, 1, "'k' (first defined at 1:1)");
	/* A quoted key is the same key as the plain one. */
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 6, 3, "'y' (first defined at 4:3)");
	ck_assert_uint_eq(c.root->n, 2);
	ck_assert_uint_eq(get(c.root, "x")->n, 2);
	release(&c);
}
END_TEST

START_TEST(test_duplicate_key_flow_and_unicode)
{
	struct composed c;
	compose(&c, "日本語: {あ: 1, い: 2, あ: 3}\n");
	ck_assert_ptr_nonnull(c.root);
	tu_expect_count(&c.d, 1);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 1, 19, "duplicate key 'あ' (first defined at 1:7)");
	release(&c);
}
END_TEST

START_TEST(test_many_keys)
{
	/* A large mapping: every key kept, the one repeat found. */
	enum { N = 20000 };
	char *text = malloc(N * 16 + 64);
	size_t len = 0;
	for (int i = 0; i < N; i++)
		len += (size_t)sprintf(text + len, "k%d: %d\n", i, i);
	len += (size_t)sprintf(text + len, "k123: again\n");
	struct composed c;
	compose_n(&c, text, len);
	ck_assert_ptr_nonnull(c.root);
	ck_assert_uint_eq(c.root->n, N);
	tu_expect_count(&c.d, 1);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, N + 1, 1, "(first defined at 124:1)");
	ck_assert_str_eq(get(c.root, "k19999")->u.text, "19999");
	release(&c);
	free(text);
}
END_TEST

/* ---- inputs that are no design --------------------------------------------------- */

/* A key without its ':' is reported on the key's line, which libyaml
 * passes (it notices on a later one), and says what to write. */
START_TEST(test_missing_colon_on_its_line)
{
	struct composed c;
	compose(&c, "ddbc: 1\nname: x\ntables\n  T:\n    key: a\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 3, 1, "this key has no ':' after it");
	release(&c);
	compose(&c, "ddbc: 1\nname x\ntables:\n  T: 1\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 1, "write 'key: value'");
	release(&c);
}
END_TEST

/* A tab where YAML wants indentation says to indent with spaces. */
START_TEST(test_tab_indentation)
{
	struct composed c;
	compose(&c, "ddbc: 1\ntables:\n\tT: 1\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 3, 1, "indent with spaces");
	release(&c);
	compose(&c, "ddbc: 1\ntables:\n  T:\n    a: 1\n   \tb: 2\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 5, 4, "a tab character");
	release(&c);
	/* A tab inside a quoted value is text, not indentation. */
	compose(&c, "ddbc: 1\nname: \"a\tb\"\n");
	expect_clean(&c);
	release(&c);
}
END_TEST

START_TEST(test_empty_file)
{
	struct composed c;
	compose(&c, "");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, 1, "the file holds no YAML document");
	release(&c);
}
END_TEST

START_TEST(test_only_comments)
{
	struct composed c;
	compose(&c, "# a design\n\n   # will come here\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, 1, "holds no YAML document");
	release(&c);
}
END_TEST

START_TEST(test_several_documents)
{
	struct composed c;
	compose(&c, "a: 1\n---\nb: 2\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 1, "a second YAML document");
	release(&c);

	compose(&c, "---\na: 1\n...\n---\nb: 2\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 4, 1, "one document per file");
	release(&c);
}
END_TEST

START_TEST(test_top_level_not_mapping)
{
	/* The composer accepts any document; the loader wants a mapping. */
	struct composed c;
	compose(&c, "- a\n- b\n");
	expect_clean(&c);
	ck_assert_int_eq(c.root->kind, DDBC_NODE_SEQ);
	release(&c);

	tu_design t;
	tu_load_text(&t, "- a\n- b\n");
	ck_assert_ptr_null(t.design);
	ck_assert(t.d.fatal);
	tu_expect_count(&t.d, 1);
	tu_expect_diag(&t.d, DDBC_RULE_SCHEMA, 1, 1,
		       "the design must be a mapping (starting with 'ddbc: 1'), not a sequence");
	ck_assert_int_eq(t.d.items[0].severity, DDBC_SEV_ERROR);
	tu_design_free(&t);

	tu_load_text(&t, "\n  just text\n");
	ck_assert_ptr_null(t.design);
	ck_assert(t.d.fatal);
	tu_expect_count(&t.d, 1);
	tu_expect_diag(&t.d, DDBC_RULE_SCHEMA, 2, 3, "must be a mapping (starting with 'ddbc: 1'), not a string");
	tu_design_free(&t);

	tu_load_text(&t, "---\n");
	ck_assert_ptr_null(t.design);
	ck_assert(t.d.fatal);
	tu_expect_diag(&t.d, DDBC_RULE_SCHEMA, 2, 1, "not null");
	tu_design_free(&t);
}
END_TEST

START_TEST(test_non_scalar_key)
{
	struct composed c;
	compose(&c, "? [a, b]\n: 1\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, 3, "a mapping key must be a scalar, not a sequence");
	release(&c);

	compose(&c, "top:\n  {[a]: 1}\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 4, "not a sequence");
	release(&c);

	/* Reported where the alias is used, not where its node is. */
	compose(&c, "base: &m {k: v}\n*m : 1\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 1, "a mapping key must be a scalar, not a mapping");
	release(&c);
}
END_TEST

START_TEST(test_invalid_utf8)
{
	static const struct {
		const char *text;
		unsigned line, col;
	} cases[] = {
		{ "名前: \"ab\xff\"\n", 1, 8 },          /* a byte that starts nothing */
		{ "a: 1\nb: \xC0\xAF\n", 2, 4 },         /* an overlong encoding */
		{ "a: \xED\xA0\x80\n", 1, 4 },           /* a surrogate */
		{ "a: \xF4\x90\x80\x80\n", 1, 4 },       /* above U+10FFFF */
		{ "a: x\n\n  y: \xE3\x81", 3, 6 },       /* cut off at the end */
		{ "a: \x80\n", 1, 4 },                   /* a lone continuation byte */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct composed c;
		compose(&c, cases[i].text);
		expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, cases[i].line, cases[i].col,
			     "invalid UTF-8 byte sequence; a design must be UTF-8 text");
		release(&c);
	}
}
END_TEST

START_TEST(test_nul_byte)
{
	static const char text[] = "a: 1\nb: x\0y\n";
	struct composed c;
	compose_n(&c, text, sizeof(text) - 1);
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 5, "NUL byte in the input");
	release(&c);
}
END_TEST

START_TEST(test_control_character)
{
	static const struct {
		const char *text;
		unsigned line, col;
	} cases[] = {
		{ "a: 1\nk: \x1b[31mred\n", 2, 4 },     /* ESC, which drives terminals */
		{ "k: \x07\n", 1, 4 },                  /* BEL */
		{ "k: a\x7f\n", 1, 5 },                 /* DEL */
		{ "k: \xC2\x9B" "31m\n", 1, 4 },        /* a C1 control (CSI) */
		{ "日本: \x01\n", 1, 5 },
		/* Beside line feeds in the same eight bytes (the check reads
		 * line feeds eight bytes at a time): VT is 0x0A | 0x01. */
		{ "a:\n\x0b\n", 2, 1 },
		{ "a: 1\n\n\n\x1f\n", 4, 1 },
		{ "ab: cd\n\x7f", 2, 1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct composed c;
		compose(&c, cases[i].text);
		expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, cases[i].line, cases[i].col,
			     "control character in the input");
		release(&c);
	}
	/* Tabs, NEL and the other YAML line breaks are text. */
	struct composed c;
	compose(&c, "a: \"x\ty\"\nb: 1\xC2\x85" "c: 2\xE2\x80\xA8" "d: 3\n");
	expect_clean(&c);
	expect_loc(get(c.root, "d"), 4, 4);
	release(&c);
}
END_TEST

/* Nine levels of nine aliases each: 9^9 nodes once expanded. */
static char *billion_laughs(void)
{
	size_t cap = 4096, len = 0;
	char *s = malloc(cap);
	len += (size_t)sprintf(s + len, "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (char x = 'b'; x <= 'i'; x++) {
		len += (size_t)sprintf(s + len, "%c: &%c [", x, x);
		for (int i = 0; i < 9; i++)
			len += (size_t)sprintf(s + len, "%s*%c", i ? ", " : "", x - 1);
		len += (size_t)sprintf(s + len, "]\n");
	}
	return s;
}

START_TEST(test_alias_bomb)
{
	char *text = billion_laughs();
	struct composed c;
	compose(&c, text);
	/* Rejected at the first alias that takes the expansion past the limit:
	 * the first '*f' of line 7. */
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 7, 8,
		     "aliases expand to more than 1000000 nodes at '*f'; the file looks like an alias bomb");
	release(&c);

	/* The same through the loader: nothing is expanded. */
	tu_design t;
	tu_load_text(&t, text);
	ck_assert_ptr_null(t.design);
	ck_assert(t.d.fatal);
	tu_expect_count(&t.d, 1);
	tu_design_free(&t);
	free(text);
}
END_TEST

START_TEST(test_alias_bomb_in_one_mapping)
{
	/* One anchored sequence of 1000 items aliased 1001 times. */
	size_t cap = 1 << 20, len = 0;
	char *s = malloc(cap);
	len += (size_t)sprintf(s + len, "a: &a [");
	for (int i = 0; i < 1000; i++)
		len += (size_t)sprintf(s + len, "%sx", i ? "," : "");
	len += (size_t)sprintf(s + len, "]\nb: [");
	for (int i = 0; i < 1001; i++)
		len += (size_t)sprintf(s + len, "%s*a", i ? "," : "");
	len += (size_t)sprintf(s + len, "]\n");
	struct composed c;
	compose_n(&c, s, len);
	ck_assert_ptr_null(c.root);
	ck_assert(c.d.fatal);
	tu_expect_count(&c.d, 1);
	ck_assert_str_eq(ddbc_rule_get(c.d.items[0].rule)->id, "yaml-syntax");
	ck_assert_uint_eq(c.d.items[0].loc.line, 2);
	ck_assert(strstr(c.d.items[0].message, "alias bomb") != NULL);
	release(&c);
	free(s);
}
END_TEST

START_TEST(test_aliases_within_limit)
{
	struct composed c;
	compose(&c, "a: &a [1, 2, 3]\nb: [*a, *a, *a]\nc: {x: *a}\n");
	expect_clean(&c);
	release(&c);
}
END_TEST

START_TEST(test_recursive_alias)
{
	struct composed c;
	compose(&c, "x: &a [1, *a]\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, 11, "alias '*a' refers to a node that contains it");
	release(&c);

	compose(&c, "m: &m\n  self: *m\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 9, "refers to a node that contains it");
	release(&c);
}
END_TEST

START_TEST(test_undefined_alias)
{
	struct composed c;
	compose(&c, "a: 1\nb: *nowhere\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 2, 4, "alias '*nowhere' names no anchor defined before it");
	release(&c);

	/* An anchor defined later does not count. */
	compose(&c, "a: *x\nb: &x 1\n");
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, 4, "alias '*x' names no anchor");
	release(&c);
}
END_TEST

/* n nested collections: open repeated n times, then leaf, then close. */
static char *nested(int n, const char *open, const char *leaf, const char *close)
{
	size_t lo = strlen(open), lc = strlen(close), ll = strlen(leaf);
	char *s = malloc((size_t)n * (lo + lc) + ll + 2);
	char *p = s;
	for (int i = 0; i < n; i++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, leaf, ll);
	p += ll;
	for (int i = 0; i < n; i++, p += lc)
		memcpy(p, close, lc);
	*p++ = '\n';
	*p = '\0';
	return s;
}

START_TEST(test_deep_nesting)
{
	static const struct {
		const char *open, *leaf, *close;
		unsigned col;           /* where the 257th level starts */
	} cases[] = {
		{ "[", "", "]", 257 },
		{ "{a: ", "b", "}", 4 * 256 + 1 },
		{ "- ", "x", "", 2 * 256 + 1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = nested(20000, cases[i].open, cases[i].leaf, cases[i].close);
		struct composed c;
		compose(&c, text);
		expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, cases[i].col,
			     "nesting deeper than 256 levels");
		release(&c);
		free(text);
	}
}
END_TEST

START_TEST(test_nesting_limit_exact)
{
	char *text = nested(DDBC_YAML_MAX_DEPTH, "[", "x", "]");
	struct composed c;
	compose(&c, text);
	expect_clean(&c);
	const ddbc_node *n = c.root;
	int depth = 0;
	while (n->kind == DDBC_NODE_SEQ) {
		depth++;
		n = n->u.items[0];
	}
	ck_assert_int_eq(depth, DDBC_YAML_MAX_DEPTH);
	ck_assert_str_eq(n->u.text, "x");
	release(&c);
	free(text);

	text = nested(DDBC_YAML_MAX_DEPTH + 1, "[", "x", "]");
	compose(&c, text);
	expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, 1, DDBC_YAML_MAX_DEPTH + 1, "nesting deeper");
	release(&c);
	free(text);
}
END_TEST

START_TEST(test_huge_scalar)
{
	/* A 20 MB literal block: 200,000 lines of 100 bytes. */
	enum { LINES = 200000, WIDTH = 100 };
	static const char head[] = "ddbc: 1\ndescription: |\n";
	size_t len = sizeof(head) - 1 + (size_t)LINES * (WIDTH + 2) + 16;
	char *text = malloc(len);
	char *p = text + sprintf(text, "%s", head);
	for (int i = 0; i < LINES; i++) {
		memcpy(p, "  ", 2);
		memset(p + 2, 'a' + i % 26, WIDTH - 1);
		p[WIDTH + 1] = '\n';
		p += WIDTH + 2;
	}
	p += sprintf(p, "end: 1\n");
	struct composed c;
	compose_n(&c, text, (size_t)(p - text));
	expect_clean(&c);
	const ddbc_node *d = get(c.root, "description");
	ck_assert_uint_eq(d->n, (size_t)LINES * WIDTH);
	ck_assert_uint_eq(strlen(d->u.text), (size_t)LINES * WIDTH);
	ck_assert_int_eq(d->u.text[(size_t)LINES * WIDTH - 2], 'a' + (LINES - 1) % 26);
	expect_loc(key_of(c.root, "end"), LINES + 3, 1);
	release(&c);
	free(text);
}
END_TEST

START_TEST(test_long_line)
{
	/* A 4 MiB line, plain and double-quoted. */
	enum { LEN = 4 << 20 };
	char *text = malloc(LEN + 64);
	for (int quoted = 0; quoted < 2; quoted++) {
		char *p = text + sprintf(text, "a: 1\nlong: %s", quoted ? "\"" : "");
		memset(p, 'y', LEN);
		p += LEN;
		p += sprintf(p, "%s\nafter: ok\n", quoted ? "\"" : "");
		struct composed c;
		compose_n(&c, text, (size_t)(p - text));
		expect_clean(&c);
		const ddbc_node *v = get(c.root, "long");
		ck_assert_uint_eq(v->n, LEN);
		expect_loc(get(c.root, "after"), 3, 8);
		release(&c);
	}
	free(text);
}
END_TEST

START_TEST(test_syntax_errors)
{
	static const struct {
		const char *text;
		unsigned line, col;
		const char *msg;
	} cases[] = {
		{ "a: b: c\n", 1, 5, "mapping values are not allowed in this context" },
		{ "a: [1, 2\nb: 3\n", 2, 2,
		  "did not find expected ',' or ']' (while parsing a flow sequence at line 1)" },
		{ "a:\n  b: 1\n c: 2\n", 3, 2,
		  "did not find expected key (while parsing a block mapping at line 1)" },
		{ "a: \"open\n", 2, 1,
		  "found unexpected end of stream (while scanning a quoted scalar at line 1)" },
		{ "a: @x\n", 1, 4, "found character that cannot start any token" },
		{ "a:\n\tb: 1\n", 2, 1, "indent with spaces" },
		{ "a: !<bad tag 1\n", 1, 9, "did not find the expected '>' (while scanning a tag at line 1)" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct composed c;
		compose(&c, cases[i].text);
		expect_fatal(&c, DDBC_RULE_YAML_SYNTAX, cases[i].line, cases[i].col, cases[i].msg);
		release(&c);
	}
}
END_TEST

START_TEST(test_error_after_partial_document)
{
	/* Whatever was composed before the error is released (ASan checks). */
	struct composed c;
	compose(&c, "a: &x {b: [1, 2, {c: d}]}\ne: *x\nf: [*x, *x\ng: {h: }\n  ]: \n");
	ck_assert_ptr_null(c.root);
	ck_assert(c.d.fatal);
	tu_expect_count(&c.d, 1);
	ck_assert_int_eq(c.d.items[0].rule, DDBC_RULE_YAML_SYNTAX);
	release(&c);
}
END_TEST


/* ---- streamed sections -------------------------------------------------------------- */

/* What a sink saw: "section:key=summary" per entry, the summary a copy
 * taken during the call (the entry's nodes are gone after it). */
struct seen {
	bool nested;            /* stream the entities' `attrs` too */
	ddbc_arena *arena;
	char log[1024];
};

static void summarize(const ddbc_node *n, char *out, size_t cap)
{
	size_t len = strlen(out);
	if (n->kind == DDBC_NODE_SCALAR) {
		snprintf(out + len, cap - len, "%s", n->u.text);
		return;
	}
	snprintf(out + len, cap - len, "{");
	for (size_t i = 0; n->kind == DDBC_NODE_MAP && i < n->n; i++) {
		len = strlen(out);
		snprintf(out + len, cap - len, "%s%s:", i ? "," : "", n->u.pairs[i].key->u.text);
		summarize(n->u.pairs[i].value, out, cap);
	}
	len = strlen(out);
	snprintf(out + len, cap - len, "}");
}

static void on_entry(void *ctx, size_t section, const ddbc_pair *entry, bool nested)
{
	struct seen *seen = ctx;
	size_t len = strlen(seen->log);
	snprintf(seen->log + len, sizeof(seen->log) - len, "%s%zu:%s%s=", len ? " " : "", section,
		 entry->key->u.text, nested ? "*" : "");
	/* A copy outlives the entry. */
	ddbc_node *copy = ddbc_node_copy(seen->arena, entry->value);
	summarize(copy, seen->log, sizeof(seen->log));
}

/* A nested member is logged "m<section>:key=summary". */
static void on_member(void *ctx, size_t section, const ddbc_pair *member)
{
	struct seen *seen = ctx;
	size_t len = strlen(seen->log);
	snprintf(seen->log + len, sizeof(seen->log) - len, "%sm%zu:%s=", len ? " " : "", section,
		 member->key->u.text);
	ddbc_node *copy = ddbc_node_copy(seen->arena, member->value);
	summarize(copy, seen->log, sizeof(seen->log));
}

static const char *const streamed[] = { "tables", "entities" };
/* In the tests of nested streaming, an entity's `attrs`. */
static const char *const nested_keys[] = { NULL, "attrs" };

static void compose_streamed(struct composed *c, struct seen *seen, const char *text)
{
	c->src = ddbc_source_from_memory("test.yaml", text, strlen(text));
	c->arena = ddbc_arena_new();
	ddbc_diags_init(&c->d);
	ddbc_diags_begin(&c->d, c->src);
	seen->arena = c->arena;
	seen->log[0] = '\0';
	ddbc_yaml_sink sink = { .sections = streamed, .nsections = 2, .entry = on_entry, .ctx = seen };
	if (seen->nested) {
		sink.nested = nested_keys;
		sink.member = on_member;
	}
	c->root = ddbc_yaml_load_streamed(c->arena, c->src, &c->d, &sink);
}

static void compose_nested(struct composed *c, struct seen *seen, const char *text)
{
	seen->nested = true;
	compose_streamed(c, seen, text);
}

START_TEST(test_stream_entries_in_order)
{
	struct composed c;
	struct seen seen = { 0 };
	compose_streamed(&c, &seen, "name: x\n"
				    "entities:\n  A: {k: 1}\n  B: {k: 2}\n"
				    "tables:\n  T: {pk: PK}\n"
				    "other:\n  C: {k: 3}\n");
	expect_clean(&c);
	ck_assert_str_eq(seen.log, "1:A={k:1} 1:B={k:2} 0:T={pk:PK}");
	/* The tree keeps the keys and positions; the values are spent. */
	const ddbc_node *ents = ddbc_node_get(c.root, "entities");
	ck_assert_uint_eq(ents->n, 2);
	ck_assert_str_eq(ents->u.pairs[1].key->u.text, "B");
	ck_assert_uint_eq(ents->u.pairs[1].value->kind, DDBC_NODE_MAP);
	ck_assert_uint_eq(ents->u.pairs[1].value->n, 0);
	ck_assert_uint_eq(ents->u.pairs[1].value->loc.line, 4);
	ck_assert_uint_eq(ents->u.pairs[1].value->loc.column, 6);
	/* A section that is not streamed is composed whole. */
	ck_assert_uint_eq(ddbc_node_get(c.root, "other")->u.pairs[0].value->n, 1);
	release(&c);
}
END_TEST

START_TEST(test_stream_duplicate_withheld)
{
	struct composed c;
	struct seen seen = { 0 };
	compose_streamed(&c, &seen, "entities:\n  A: {k: 1}\n  A: {k: 2}\n  B: 3\n");
	ck_assert_ptr_nonnull(c.root);
	tu_expect_count(&c.d, 1);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 3, 3, "duplicate key 'A' (first defined at 2:3)");
	ck_assert_str_eq(seen.log, "1:A={k:1} 1:B=3");
	release(&c);
}
END_TEST

START_TEST(test_stream_duplicate_many_keys)
{
	/* A section of more keys than a scan is for (compose.c's
	 * KEYS_SCANNED) finds its repeats through a set: a repeat before the
	 * switch, one at it and one after it are withheld alike, and a merge
	 * key among the keys is no entry. */
	struct composed c;
	struct seen seen = { 0 };
	strbuf text = STRBUF_INIT, want = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "base: &base {k40: 40, k1: 41}\nentities:\n  <<: *base\n");
	for (int i = 0; i < 40; i++) {
		/* Keys 0..39, with k3 again as the 10th, k0 as the 17th and
		 * k5 as the 30th key of the section. */
		int k = i == 9 ? 3 : i == 16 ? 0 : i == 29 ? 5 : i;
		ddbc_strbuf_addf(&text, "  k%d: %d\n", k, i);
		if (i != 9 && i != 16 && i != 29)
			ddbc_strbuf_addf(&want, "%s1:k%d=%d", want.len ? " " : "", k, i);
	}
	ddbc_strbuf_addstr(&want, " 1:k40=40");
	compose_streamed(&c, &seen, ddbc_strbuf_str(&text));
	tu_expect_count(&c.d, 3);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 13, 3, "duplicate key 'k3' (first defined at 7:3)");
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 20, 3, "duplicate key 'k0' (first defined at 4:3)");
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 33, 3, "duplicate key 'k5' (first defined at 9:3)");
	ck_assert_str_eq(seen.log, ddbc_strbuf_str(&want));
	release(&c);
	ddbc_strbuf_release(&text);
	ddbc_strbuf_release(&want);
}
END_TEST

START_TEST(test_stream_repeated_section)
{
	/* The second `entities` is a duplicate key: composed and dropped, never
	 * streamed. */
	struct composed c;
	struct seen seen = { 0 };
	compose_streamed(&c, &seen, "entities:\n  A: 1\nentities:\n  B: 2\n");
	tu_expect_count(&c.d, 1);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 3, 1, "duplicate key 'entities'");
	ck_assert_str_eq(seen.log, "1:A=1");
	release(&c);
}
END_TEST

START_TEST(test_stream_anchor_across_entries)
{
	/* An anchor inside one entry serves a later one: that entry's memory
	 * is kept, not reused. */
	struct composed c;
	struct seen seen = { 0 };
	compose_streamed(&c, &seen, "entities:\n"
				    "  A: {attrs: &common {id: S, at: N}}\n"
				    "  B: {attrs: *common}\n"
				    "  C: {<<: *common, extra: B}\n"
				    "  D: {k: 4}\n");
	expect_clean(&c);
	ck_assert_str_eq(seen.log, "1:A={attrs:{id:S,at:N}} 1:B={attrs:{id:S,at:N}} "
				   "1:C={extra:B,id:S,at:N} 1:D={k:4}");
	release(&c);
}
END_TEST

START_TEST(test_stream_merged_entries)
{
	/* Entries merged into a section reach the sink when it closes, after
	 * the explicit ones; an explicit key wins over a merged one. */
	struct composed c;
	struct seen seen = { 0 };
	compose_streamed(&c, &seen, "base: &base {A: 1, B: 2}\n"
				    "entities:\n  <<: *base\n  B: 9\n  C: 3\n");
	expect_clean(&c);
	ck_assert_str_eq(seen.log, "1:B=9 1:C=3 1:A=1");
	release(&c);

	/* An inline merge source outlives the entries after it. */
	compose_streamed(&c, &seen, "entities:\n  <<: {A: {k: 1}}\n  B: {k: 2}\n  C: {k: 3}\n");
	expect_clean(&c);
	ck_assert_str_eq(seen.log, "1:B={k:2} 1:C={k:3} 1:A={k:1}");
	release(&c);
}
END_TEST

START_TEST(test_stream_syntax_error)
{
	struct composed c;
	struct seen seen = { 0 };
	compose_streamed(&c, &seen, "entities:\n  A: {k: 1}\n  B: [unclosed\n");
	ck_assert_ptr_null(c.root);
	ck_assert(c.d.fatal);
	ck_assert_str_eq(seen.log, "1:A={k:1}");
	release(&c);
}
END_TEST

/* ---- nested streaming ------------------------------------------------------------------ */

START_TEST(test_nested_members_first)
{
	/* An entity's attrs reach the sink member by member, then the entity,
	 * where they are an empty mapping at their position. Tables have no
	 * nested mapping. */
	struct composed c;
	struct seen seen = { 0 };
	compose_nested(&c, &seen, "tables:\n  T: {attrs: {x: 1}}\n"
				  "entities:\n"
				  "  A: {t: x, attrs: {a: 1, b: {k: 2}}, u: y}\n"
				  "  B:\n    attrs:\n      c: 3\n");
	expect_clean(&c);
	ck_assert_str_eq(seen.log, "0:T={attrs:{x:1}} m1:a=1 m1:b={k:2} 1:A*={t:x,attrs:{},u:y} "
				   "m1:c=3 1:B*={attrs:{}}");
	release(&c);
}
END_TEST

START_TEST(test_nested_duplicates)
{
	/* A repeated member is reported and withheld; a repeated attrs or a
	 * repeated entity is composed and dropped, never streamed. */
	struct composed c;
	struct seen seen = { 0 };
	compose_nested(&c, &seen, "entities:\n"
				  "  A: {attrs: {a: 1, a: 2, b: 3}, attrs: {c: 4}}\n"
				  "  A: {attrs: {z: 1}}\n");
	ck_assert_ptr_nonnull(c.root);
	tu_expect_count(&c.d, 3);
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 2, 21, "duplicate key 'a' (first defined at 2:15)");
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 2, 34, "duplicate key 'attrs' (first defined at 2:7)");
	tu_expect_diag(&c.d, DDBC_RULE_DUPLICATE_KEY, 3, 3, "duplicate key 'A' (first defined at 2:3)");
	ck_assert_str_eq(seen.log, "m1:a=1 m1:b=3 1:A*={attrs:{}}");
	release(&c);
}
END_TEST

START_TEST(test_nested_anchors)
{
	/* attrs an alias could reach are composed whole; an anchor inside a
	 * member keeps that member's memory for a later alias. */
	struct composed c;
	struct seen seen = { 0 };
	compose_nested(&c, &seen, "entities:\n"
				  "  A: {attrs: &x {a: 1}}\n"
				  "  B: &y {attrs: {b: 1}}\n"
				  "  C: {attrs: {c: &z {k: 1}, d: *z}, e: *z}\n"
				  "  D: {attrs: *x}\n");
	expect_clean(&c);
	ck_assert_str_eq(seen.log, "1:A={attrs:{a:1}} 1:B={attrs:{b:1}} m1:c={k:1} m1:d={k:1} "
				   "1:C*={attrs:{},e:{k:1}} 1:D={attrs:{a:1}}");
	release(&c);
}
END_TEST

START_TEST(test_nested_merges)
{
	/* Members merged into attrs come when it closes, explicit ones win;
	 * attrs merged into an entity, or an entity merged into the section,
	 * arrive whole. */
	struct composed c;
	struct seen seen = { 0 };
	compose_nested(&c, &seen, "base: &b {m: 1, a: 9}\n"
				  "entities:\n"
				  "  A: {attrs: {<<: *b, a: 2}}\n"
				  "  B: {attrs: {<<: {p: {k: 1}}, q: 2}}\n"
				  "  C: {<<: {attrs: {x: 1}}}\n"
				  "  <<: {E: {attrs: {y: 1}}}\n");
	expect_clean(&c);
	ck_assert_str_eq(seen.log, "m1:a=2 m1:m=1 1:A*={attrs:{}} m1:q=2 m1:p={k:1} "
				   "1:B*={attrs:{}} 1:C={attrs:{x:1}} 1:E={attrs:{y:1}}");
	release(&c);
}
END_TEST

START_TEST(test_nested_syntax_error)
{
	struct composed c;
	struct seen seen = { 0 };
	compose_nested(&c, &seen, "entities:\n  A:\n    attrs:\n      a: 1\n      b: [unclosed\n");
	ck_assert_ptr_null(c.root);
	ck_assert(c.d.fatal);
	ck_assert_str_eq(seen.log, "m1:a=1");
	release(&c);
}
END_TEST

START_TEST(test_node_copy)
{
	struct composed c;
	compose(&c, "a: &x {b: [1, two, {c: null}]}\nd: *x\n");
	expect_clean(&c);
	ddbc_arena *other = ddbc_arena_new();
	ddbc_node *copy = ddbc_node_copy(other, c.root);
	release(&c);
	/* The copy stands alone: the original's arena is gone. */
	const ddbc_node *b = ddbc_node_get(ddbc_node_get(copy, "d"), "b");
	ck_assert_uint_eq(b->n, 3);
	ck_assert_str_eq(b->u.items[1]->u.text, "two");
	ck_assert_uint_eq(b->u.items[1]->loc.line, 1);
	ck_assert_uint_eq(b->u.items[1]->loc.column, 15);
	ck_assert(ddbc_node_is_null(ddbc_node_get(b->u.items[2], "c")));
	ddbc_arena_free(other);
}
END_TEST

/* Every key of a mapping of n keys, written in an order that is not the
 * keys' own, is found with its value; keys between and around them are not. */
static void expect_lookups(const ddbc_node *map, int n)
{
	ck_assert_uint_eq(map->n, (unsigned)n);
	for (int i = 0; i < n; i++) {
		char key[32], value[32];
		snprintf(key, sizeof(key), "k%03d", (i * 7) % n);
		snprintf(value, sizeof(value), "%d", (i * 7) % n);
		ck_assert_str_eq(get(map, key)->u.text, value);
		snprintf(key, sizeof(key), "k%03d.5", i);
		ck_assert_ptr_null(ddbc_node_get(map, key));
	}
	ck_assert_ptr_null(ddbc_node_get(map, "a"));
	ck_assert_ptr_null(ddbc_node_get(map, "z"));
	ck_assert_ptr_null(ddbc_node_get(map, ""));
}

START_TEST(test_lookup_by_key)
{
	/* Mappings of up to 16 keys are searched in order, larger ones by
	 * their keys' order: both ways find the same, before and after a copy.
	 * n is prime to 7 so the keys come in a scattered order. */
	static const int sizes[] = { 1, 2, 15, 16, 17, 18, 101, 1000 };
	int n = sizes[_i];
	strbuf text = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		ddbc_strbuf_addf(&text, "k%03d: %d\n", (i * 7) % n, (i * 7) % n);
	struct composed c;
	compose(&c, ddbc_strbuf_str(&text));
	expect_clean(&c);
	expect_lookups(c.root, n);
	ddbc_arena *other = ddbc_arena_new();
	ddbc_node *copy = ddbc_node_copy(other, c.root);
	release(&c);
	expect_lookups(copy, n);
	ddbc_arena_free(other);
	ddbc_strbuf_release(&text);
}
END_TEST

START_TEST(test_lookup_with_merge_and_repeats)
{
	/* Merged keys and the first of repeated keys are found; what the
	 * mapping sets itself wins over what it merges. */
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "base: &b {m1: merged, k005: base, m2: merged}\nmap:\n  <<: *b\n");
	for (int i = 0; i < 30; i++)
		ddbc_strbuf_addf(&text, "  k%03d: %d\n", 29 - i, 29 - i);
	ddbc_strbuf_addstr(&text, "  k010: again\n");
	struct composed c;
	compose(&c, ddbc_strbuf_str(&text));
	const ddbc_node *map = get(c.root, "map");
	ck_assert_uint_eq(map->n, 32);
	ck_assert_str_eq(get(map, "m1")->u.text, "merged");
	ck_assert_str_eq(get(map, "m2")->u.text, "merged");
	ck_assert_str_eq(get(map, "k005")->u.text, "5");
	ck_assert_str_eq(get(map, "k010")->u.text, "10");
	ck_assert_str_eq(get(map, "k000")->u.text, "0");
	ck_assert_ptr_null(ddbc_node_get(map, "m3"));
	release(&c);
	ddbc_strbuf_release(&text);
}
END_TEST

START_TEST(test_lookup_keys_with_nul)
{
	/* Keys that differ only after a NUL are two keys, and a lookup by C
	 * string finds the first of them, in a large mapping as in a small. */
	static const int sizes[] = { 3, 40 };
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "\"a\\0y\": first\n\"a\\0x\": second\n");
	for (int i = 2; i < sizes[_i]; i++)
		ddbc_strbuf_addf(&text, "k%03d: %d\n", i, i);
	struct composed c;
	compose(&c, ddbc_strbuf_str(&text));
	expect_clean(&c);
	ck_assert_uint_eq(c.root->n, (unsigned)sizes[_i]);
	ck_assert_str_eq(get(c.root, "a")->u.text, "first");
	release(&c);
	ddbc_strbuf_release(&text);
}
END_TEST

static Suite *compose_suite(void)
{
	Suite *s = suite_create("compose");
	TCase *tc = tcase_create("scalars");
	/* Every case has its own timeout: Check's default (4 s) fails on a
	 * loaded machine (make -j16); these take a second or less alone. */
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_scalar_kind, 0, sizeof(scalars) / sizeof(scalars[0]));
	tcase_add_test(tc, test_scalar_text);
	tcase_add_test(tc, test_missing_colon_on_its_line);
	tcase_add_test(tc, test_tab_indentation);
	tcase_add_test(tc, test_scalar_readers);
	suite_add_tcase(s, tc);

	tc = tcase_create("positions");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_positions);
	tcase_add_test(tc, test_positions_count_characters);
	tcase_add_test(tc, test_positions_line_breaks);
	tcase_add_test(tc, test_byte_order_mark);
	suite_add_tcase(s, tc);

	tc = tcase_create("aliases");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_aliases_share_nodes);
	tcase_add_test(tc, test_anchor_redefined);
	tcase_add_test(tc, test_merge_keys);
	tcase_add_test(tc, test_merge_duplicate_explicit);
	tcase_add_test(tc, test_quoted_merge_key_is_a_key);
	tcase_add_test(tc, test_merge_not_a_mapping);
	suite_add_tcase(s, tc);

	tc = tcase_create("streaming");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_stream_entries_in_order);
	tcase_add_test(tc, test_stream_duplicate_withheld);
	tcase_add_test(tc, test_stream_duplicate_many_keys);
	tcase_add_test(tc, test_stream_repeated_section);
	tcase_add_test(tc, test_stream_anchor_across_entries);
	tcase_add_test(tc, test_stream_merged_entries);
	tcase_add_test(tc, test_stream_syntax_error);
	tcase_add_test(tc, test_nested_members_first);
	tcase_add_test(tc, test_nested_duplicates);
	tcase_add_test(tc, test_nested_anchors);
	tcase_add_test(tc, test_nested_merges);
	tcase_add_test(tc, test_nested_syntax_error);
	tcase_add_test(tc, test_node_copy);
	tcase_add_loop_test(tc, test_lookup_by_key, 0, 8);
	tcase_add_test(tc, test_lookup_with_merge_and_repeats);
	tcase_add_loop_test(tc, test_lookup_keys_with_nul, 0, 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("duplicate-key");
	tcase_set_timeout(tc, 60);      /* test_many_keys: a hang guard only */
	tcase_add_test(tc, test_duplicate_key);
	tcase_add_test(tc, test_duplicate_key_each_repeat);
	tcase_add_test(tc, test_duplicate_key_flow_and_unicode);
	tcase_add_test(tc, test_many_keys);
	suite_add_tcase(s, tc);

	tc = tcase_create("bad-input");
	/* Hang guard only, for slow sanitizer runs: not a timing assertion. */
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_empty_file);
	tcase_add_test(tc, test_only_comments);
	tcase_add_test(tc, test_several_documents);
	tcase_add_test(tc, test_top_level_not_mapping);
	tcase_add_test(tc, test_non_scalar_key);
	tcase_add_test(tc, test_invalid_utf8);
	tcase_add_test(tc, test_nul_byte);
	tcase_add_test(tc, test_control_character);
	tcase_add_test(tc, test_alias_bomb);
	tcase_add_test(tc, test_alias_bomb_in_one_mapping);
	tcase_add_test(tc, test_aliases_within_limit);
	tcase_add_test(tc, test_recursive_alias);
	tcase_add_test(tc, test_undefined_alias);
	tcase_add_test(tc, test_deep_nesting);
	tcase_add_test(tc, test_nesting_limit_exact);
	tcase_add_test(tc, test_huge_scalar);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_syntax_errors);
	tcase_add_test(tc, test_error_after_partial_document);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(compose_suite());
	srunner_run_all(sr, CK_ENV);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
