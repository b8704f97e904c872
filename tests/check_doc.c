/* check_doc.c - `ddbc doc`: the documentation as Markdown and as HTML
 *
 * Golden files for every sample in both formats and both languages
 * (tests/golden/doc/SAMPLE.LANG.{md,html}; DDBC_UPDATE_GOLDEN=1 rewrites
 * them), the article's TodoItem table itself (samples/todo.ddb.yaml),
 * byte-identical output on every run, a hostile design (tests/fixtures/hostile-doc.ddb.yaml) that cannot
 * break a table or put markup on the page, the heading ids, and the
 * command line: -o writes the file, a design with an error writes nothing.
 */
#define _GNU_SOURCE 1
#include "rules/check.h"
#include "emit/emit.h"
#include "emit/doc_json.h"
#include "emit/emit_md.h"
#include "input/compose.h"
#include "model/pval.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "testutil.h"

#include <check.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const samples[] = { "todo", "stamp-rally", "ecommerce",
				       "assessment-single", "assessment-multi" };
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

/* ---- helpers ------------------------------------------------------------------ */

typedef struct checked {
	ddbc_source *src;
	ddbc_diags d;
	ddbc_design *g;
} checked;

/* Checks the design as every command does, and asserts it has no error. */
static void check_source(checked *c, ddbc_source *src)
{
	c->src = src;
	ddbc_settings cli;
	ddbc_settings_init(&cli);
	ddbc_diags_init(&c->d);
	c->g = ddbc_check(src, &c->d, &cli);
	ck_assert_ptr_nonnull(c->g);
	ck_assert_msg(ddbc_diags_count(&c->d).errors == 0, "%s has errors:\n%s", src->name,
		      tu_diags_dump(&c->d));
}

static void check_file(checked *c, const char *rel)
{
	char *path = tu_srcpath(rel);
	ddbc_source *src = ddbc_source_read(path);
	ck_assert_msg(src != NULL, "cannot read %s", path);
	free(path);
	check_source(c, src);
}

static void check_text(checked *c, const char *text)
{
	check_source(c, tu_source(text));
}

static void checked_free(checked *c)
{
	ddbc_design_free(c->g);
	ddbc_diags_release(&c->d);
	ddbc_source_free(c->src);
}

/* The documentation of g, in memory (NUL-terminated). */
static char *emit(const ddbc_design *g, bool html, ddbc_lang_id lang, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	ck_assert_ptr_nonnull(f);
	ddbc_doc_opts o = { lang, TEST_SRCDIR "/templates", NULL };
	ddbc_diags d;
	ddbc_diags_init(&d);
	int r = html ? ddbc_emit_html(f, g, &o, &d) : ddbc_emit_md(f, g, &o, &d);
	fclose(f);
	ck_assert_int_eq(r, DDBC_EMIT_OK);
	ck_assert_uint_eq(d.n, 0);
	ddbc_diags_release(&d);
	if (len)
		*len = n;
	return buf;
}

static char *sample_path(size_t i)
{
	char rel[128];
	snprintf(rel, sizeof(rel), "samples/%s.ddb.yaml", samples[i]);
	return strdup(rel);
}

#define expect_contains(text, needle) \
	ck_assert_msg(strstr((text), (needle)) != NULL, "missing:\n%s", (needle))
#define expect_absent(text, needle) \
	ck_assert_msg(strstr((text), (needle)) == NULL, "unexpected:\n%s", (needle))

static bool contains_nocase(const char *text, const char *needle)
{
	return strcasestr(text, needle) != NULL;
}

/* ---- golden files ------------------------------------------------------------- */

#define STYLE_OPEN "<style>\n"
#define STYLE_CLOSE "\n</style>"
#define STYLE_MARK "/* templates/style.css */"

/* Where the page's inlined stylesheet starts, *len its length. */
static const char *page_style(const char *html, size_t *len)
{
	const char *open = strstr(html, STYLE_OPEN);
	ck_assert_msg(open != NULL, "the page has no <style>");
	open += strlen(STYLE_OPEN);
	const char *close = strstr(open, STYLE_CLOSE);
	ck_assert_msg(close != NULL, "the page's <style> is not closed");
	*len = (size_t)(close - open);
	return open;
}

/* html with its stylesheet replaced by a marker. */
static char *mask_style(const char *html)
{
	size_t len;
	const char *style = page_style(html, &len);
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_add(&sb, html, (size_t)(style - html));
	ddbc_strbuf_addstr(&sb, STYLE_MARK);
	ddbc_strbuf_addstr(&sb, style + len);
	return ddbc_strbuf_detach(&sb);
}

START_TEST(test_golden)
{
	size_t sample = (size_t)_i / 4;
	bool html = _i % 2;
	ddbc_lang_id lang = (_i / 2) % 2 ? DDBC_LANG_JA : DDBC_LANG_EN;
	char *rel = sample_path(sample);
	checked c;
	check_file(&c, rel);
	size_t len;
	char *out = emit(c.g, html, lang, &len);
	char golden[160];
	snprintf(golden, sizeof(golden), "tests/golden/doc/%s.%s.%s", samples[sample],
		 lang == DDBC_LANG_JA ? "ja" : "en", html ? "html" : "md");
	if (html) {
		/* The stylesheet is test_page_style's: a change of it rewrites
		 * no page golden. */
		char *masked = mask_style(out);
		tu_expect_golden(golden, masked, strlen(masked));
		free(masked);
	} else {
		tu_expect_golden(golden, out, len);
	}
	free(out);
	free(rel);
	checked_free(&c);
}
END_TEST

/* Two runs, and two loads of the same file, give the same bytes. */
START_TEST(test_deterministic)
{
	char *rel = sample_path((size_t)_i);
	checked a, b;
	check_file(&a, rel);
	check_file(&b, rel);
	for (int k = 0; k < 4; k++) {
		bool html = k & 1;
		ddbc_lang_id lang = k & 2 ? DDBC_LANG_JA : DDBC_LANG_EN;
		size_t n1, n2, n3;
		char *o1 = emit(a.g, html, lang, &n1);
		char *o2 = emit(a.g, html, lang, &n2);
		char *o3 = emit(b.g, html, lang, &n3);
		ck_assert_msg(n1 == n2 && !memcmp(o1, o2, n1), "%s: two runs differ", rel);
		ck_assert_msg(n1 == n3 && !memcmp(o1, o3, n1), "%s: two loads differ", rel);
		free(o1), free(o2), free(o3);
	}
	checked_free(&a);
	checked_free(&b);
	free(rel);
}
END_TEST

/* The page inlines templates/style.css exactly, in its one <style>. */
START_TEST(test_page_style)
{
	checked c;
	check_file(&c, "samples/todo.ddb.yaml");
	char *html = emit(c.g, true, DDBC_LANG_EN, NULL);
	size_t len, css_len;
	const char *style = page_style(html, &len);
	char *path = tu_srcpath("templates/style.css");
	char *css = tu_read_file(path, &css_len);
	ck_assert_uint_gt(css_len, 1000);
	ck_assert_msg(len == css_len && !memcmp(style, css, len),
		      "the page's <style> is not templates/style.css");
	/* After it only the cards' labels, ddbc's own CSS at the page's end. */
	const char *more = strstr(style + len, "<style");
	static const char labels[] = "<style>\n.h0>tr>td:nth-child(1){--label:";
	ck_assert(!more || !strncmp(more, labels, sizeof(labels) - 1));
	free(css);
	free(path);
	free(html);
	checked_free(&c);
}
END_TEST

/* ---- what the document says ----------------------------------------------------- */

/* Seed 002's TodoItem table, with the inclusion derived from the GSI. */
START_TEST(test_todo_article_table)
{
	checked c;
	check_file(&c, "samples/todo.ddb.yaml");
	char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(md,
		"| AttributeName | Type | Description | Format | GSI Inclusion | LSI Inclusion |\n"
		"|---|---|---|---|---|---|\n"
		"| PK | String (required) | TodoItem識別番号 | UUIDv4 | TodoItemsByUser (projected) |  |\n"
		"| SK | String (required) | 作成時間 | yyyy-mm-dd | TodoItemsByUser (sort key) |  |\n"
		"| content | String | TodoItemの内容 |  | TodoItemsByUser (projected) |  |\n"
		"| user | String | user id | UUIDv4 | TodoItemsByUser (partition key) |  |\n"
		"| done | Boolean | 完了かどうかのフラグ |  | TodoItemsByUser (projected) |  |\n"
		"\n"
		"Example item:\n\n```json\n{\n  \"PK\": \"0b6f5a0e-3c1d-4e2f-9a7b-1c2d3e4f5a6b\",");
	free(md);

	char *ja = emit(c.g, false, DDBC_LANG_JA, NULL);
	expect_contains(ja,
		"| 属性名 | データ型 | 説明 | フォーマット | GSI への射影 | LSI への射影 |\n"
		"|---|---|---|---|---|---|\n"
		"| PK | String（必須） | TodoItem識別番号 | UUIDv4 | TodoItemsByUser（射影） |  |\n"
		"| SK | String（必須） | 作成時間 | yyyy-mm-dd | TodoItemsByUser（ソートキー） |  |\n");
	free(ja);
	checked_free(&c);
}
END_TEST

/* Every heading and column in Japanese with --lang ja; English is the default. */
START_TEST(test_japanese_labels)
{
	checked c;
	check_file(&c, "samples/stamp-rally.ddb.yaml");
	char *ja = emit(c.g, false, DDBC_LANG_JA, NULL);
	expect_contains(ja, "\n## 目次\n");
	expect_contains(ja, "- [テーブル `line-event`](#テーブル-line-event)\n");
	expect_contains(ja, "\n## テーブル `line-event`\n");
	expect_contains(ja, "\n**課金モード**: オンデマンド\n");
	expect_contains(ja, "\n### インデックス\n\n| インデックス | 種類 | パーティションキー | ソートキー | 射影 | 説明 |\n");
	expect_contains(ja, "\n### インデックスマップ\n");
	expect_contains(ja, "\n### エンティティ `UserStamp`\n");
	expect_contains(ja, "\nアイテムの例:\n");
	expect_contains(ja, "\n## アクセスパターン\n\n| # | パターン | 操作 | インデックス | キー条件 | エンティティ |\n");
	expect_contains(ja, "\n### パターン `users-by-date`\n");
	expect_contains(ja, "- **順序**: 昇順 (ScanIndexForward = true)\n");
	for (const char *en = "Contents\0Table \0Entity \0Index map\0Access patterns\0Example item\0";
	     *en; en += strlen(en) + 1)
		ck_assert_msg(!strstr(ja, en), "English label '%s' in the Japanese document", en);

	char *en = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(en, "\n## Contents\n");
	expect_contains(en, "\n## Access patterns\n\n| # | Pattern | Operation | Index | Key condition | Entities |\n");
	char *html = emit(c.g, true, DDBC_LANG_JA, NULL);
	expect_contains(html, "<html lang=\"ja\">");
	expect_contains(html, "<title>stamp-rally — DynamoDB 設計</title>");
	free(html);
	free(en);
	free(ja);
	checked_free(&c);
}
END_TEST

/* A key part that is not stored (AWS's forum: a reply's Id is forum and
 * subject) is marked so in both languages and both formats. */
START_TEST(test_not_stored)
{
	checked c;
	check_file(&c, "tests/fixtures/stored/forum.ddb.yaml");
	static const char *const names[] = { "forum.en.md", "forum.en.html", "forum.ja.md",
					     "forum.ja.html" };
	static const char *const marks[] = { "| ForumName | String | Forum of the thread | "
					     "key part, not stored |", "key part, not stored",
					     "| ForumName | String | Forum of the thread | "
					     "キーの一部（保存しない） |", "キーの一部（保存しない）" };
	for (int i = 0; i < 4; i++) {
		bool html = i % 2;
		char *out = emit(c.g, html, i / 2 ? DDBC_LANG_JA : DDBC_LANG_EN, NULL);
		expect_contains(out, marks[i]);
		char *masked = html ? mask_style(out) : strdup(out);
		char golden[96];
		snprintf(golden, sizeof(golden), "tests/golden/doc/%s", names[i]);
		tu_expect_golden(golden, masked, strlen(masked));
		free(masked);
		free(out);
	}
	checked_free(&c);
}
END_TEST

/* An index keyed by an optional templated attribute holds only the items
 * that have it: the map says so in both languages, and the index's item
 * view shows only the tickets that carry escQueue (T-1001, T-1004), while
 * the table's shows all four. */
START_TEST(test_sparse_membership)
{
	checked c;
	check_file(&c, "tests/designs/helpdesk-sparse.ddb.yaml");
	static const char *const names[] = { "helpdesk-sparse.en.md", "helpdesk-sparse.en.html",
					     "helpdesk-sparse.ja.md", "helpdesk-sparse.ja.html" };
	static const char *const marks[] = {
		"`TENANT#{tenantId}#ESC` · `{escalatedAt}` (items that have escQueue) |",
		"(items that have escQueue)",
		"`TENANT#{tenantId}#ESC` · `{escalatedAt}`（escQueue を持つアイテムのみ） |",
		"（escQueue を持つアイテムのみ）" };
	for (int i = 0; i < 4; i++) {
		bool html = i % 2;
		char *out = emit(c.g, html, i / 2 ? DDBC_LANG_JA : DDBC_LANG_EN, NULL);
		expect_contains(out, marks[i]);
		if (!html) {
			const char *view = strstr(out, "EscalationQueue`\n");
			ck_assert_ptr_nonnull(view);
			const char *end = strstr(view, "\n### ");
			ck_assert_ptr_nonnull(end);
			char *part = strndup(view, (size_t)(end - view));
			expect_contains(part, "`TICKET#T-1001`");
			expect_contains(part, "`TICKET#T-1004`");
			expect_absent(part, "T-1002");
			expect_absent(part, "T-1003");
			free(part);
		}
		char *masked = html ? mask_style(out) : strdup(out);
		char golden[96];
		snprintf(golden, sizeof(golden), "tests/golden/doc/%s", names[i]);
		tu_expect_golden(golden, masked, strlen(masked));
		free(masked);
		free(out);
	}
	checked_free(&c);
}
END_TEST

/* The index map shows sparse membership: UserStamp is not in GSI1. */
START_TEST(test_index_map)
{
	checked c;
	check_file(&c, "samples/stamp-rally.ddb.yaml");
	char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(md,
		"| Entity | line-event | GSI1 |\n"
		"|---|---|---|\n"
		"| [User](#entity-user) | `EVENT#{eventId}#USER#{lineUserId}` · `PROFILE` | "
		"`EVENT#{eventId}#USERS` · `{createdAt}#{lineUserId}` |\n"
		"| [UserStamp](#entity-userstamp) | `EVENT#{eventId}#USER#{lineUserId}` · "
		"`STAMP#{stampId}` | — |\n");
	expect_contains(md, "| GSI1 | GSI | GSI1PK (String) | GSI1SK (String) | ALL | ");
	expect_contains(md, "| 7 | [users-registered-on-day](#pattern-users-registered-on-day): ");
	expect_contains(md, "| Query | GSI1 | GSI1PK = `EVENT#{eventId}#USERS` AND GSI1SK BETWEEN "
			    "`2026-05-23` AND `2026-05-23T23:59:59.999Z#~` | [User](#entity-user) |\n");
	free(md);
	checked_free(&c);
}
END_TEST

/* A multi-attribute GSI key: positions in the key, INCLUDE projection. */
START_TEST(test_multi_attribute_key)
{
	checked c;
	check_file(&c, "samples/assessment-multi.ddb.yaml");
	char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(md, "| byCompany | GSI | companyId (String) | assessmentType (String), "
			    "status (String), createdAt (Number) | INCLUDE: userId | ");
	expect_contains(md, "| assessmentType | String | ");
	expect_contains(md, " | byUser (projected), byCompany (sort key 1/3) |  |\n");
	expect_contains(md, " | byUser (sort key), byCompany (sort key 3/3) |  |\n");
	expect_contains(md, "| name | String | 氏名 |  | byCompany (projected) |  |\n");
	/* Several tables: the Index column names the table too. */
	expect_contains(md, "| Query | byCompany (AssessmentResults) | companyId = `{companyId}` AND "
			    "assessmentType = `{assessmentType}` AND status = `{status}` AND "
			    "createdAt BETWEEN `1780272000` AND `1782863999` |");
	free(md);
	checked_free(&c);
}
END_TEST

/* An LSI, TTL, provisioned capacity, KEYS_ONLY and a consistent read. */
START_TEST(test_lsi_ttl_billing)
{
	checked c;
	check_text(&c,
		"ddbc: 1\nname: lsi-demo\ntables:\n  Events:\n    partition_key: PK\n"
		"    sort_key: SK\n    ttl: expiresAt\n    billing: provisioned\n"
		"    capacity: { read: 5, write: 2 }\n    gsi:\n      ByKind:\n"
		"        partition_key: kind\n        projection: keys_only\n"
		"        capacity: { read: 1, write: 1 }\n    lsi:\n      ByTime:\n"
		"        sort_key: createdAt\n        projection: [note]\n"
		"entities:\n  Event:\n    attributes:\n"
		"      PK: { type: S, template: \"E#{id}\" }\n"
		"      SK: { type: S, template: \"V#{version:05}\" }\n"
		"      id: S\n      version: N\n      kind: { type: S, enum: [a, b] }\n"
		"      createdAt: { type: N, format: epoch seconds }\n      note: S\n"
		"      expiresAt: N\n"
		"access_patterns:\n  by-time:\n    index: ByTime\n    operation: query\n"
		"    key: { PK: \"E#{id}\", createdAt: { gt: 100 } }\n    consistent_read: true\n"
		"    example: { id: e1 }\n");
	char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(md, "**Billing**: provisioned (read 5, write 2) · **TTL**: `expiresAt`\n");
	expect_contains(md, "| ByKind | GSI (read 1, write 1) | kind (String) | — | KEYS\\_ONLY |  |\n"
			    "| ByTime | LSI | PK (String) | createdAt (Number) | INCLUDE: note |  |\n");
	expect_contains(md, "| [Event](#entity-event) | `E#{id}` · `V#{version:05}` | `{kind}` | "
			    "`E#{id}` · `{createdAt}` |\n");
	expect_contains(md, "| PK | String (required) |  | `E#{id}` | ByKind (projected) | ByTime (partition key) |\n"
			    "| SK | String (required) |  | `V#{version:05}` | ByKind (projected) | ByTime (projected) |\n"
			    "| id | String |  |  |  |  |\n");
	expect_contains(md, "| kind | String |  | `a` \\| `b` | ByKind (partition key) |  |\n");
	expect_contains(md, "| createdAt | Number |  | epoch seconds |  | ByTime (sort key) |\n"
			    "| note | String |  |  |  | ByTime (projected) |\n");
	expect_contains(md, "| 1 | [by-time](#pattern-by-time) | Query | ByTime | PK = `E#{id}` AND "
			    "createdAt > `100` | [Event](#entity-event) |\n");
	expect_contains(md, "- **Consistent read**: yes\n");
	free(md);
	char *ja = emit(c.g, false, DDBC_LANG_JA, NULL);
	expect_contains(ja, "**課金モード**: プロビジョンド（読み込み 5、書き込み 2） · **TTL**: `expiresAt`\n");
	expect_contains(ja, "| createdAt | Number |  | epoch seconds |  | ByTime（ソートキー） |\n");
	free(ja);
	checked_free(&c);
}
END_TEST

/* Item views: a sparse KEYS_ONLY GSI, an LSI with INCLUDE, partitions in
 * the order they first appear, Number sort keys in numeric order, and the
 * items each pattern's request returns, marked. */
START_TEST(test_item_views)
{
	checked c;
	check_text(&c,
		"ddbc: 1\n"
		"name: views\n"
		"tables:\n"
		"  Tab:\n"
		"    partition_key: PK\n"
		"    sort_key: SK\n"
		"    gsi:\n"
		"      Open:\n"
		"        partition_key: status\n"
		"        sort_key: n\n"
		"        projection: keys_only\n"
		"    lsi:\n"
		"      ByN:\n"
		"        sort_key: n\n"
		"        projection: [note]\n"
		"entities:\n"
		"  Order:\n"
		"    attributes:\n"
		"      PK: { type: S, template: \"U#{user}\" }\n"
		"      SK: { type: S, template: \"O#{id}\" }\n"
		"      user: S\n"
		"      id: S\n"
		"      n: N\n"
		"      status: S\n"
		"      note: S\n"
		"    examples:\n"
		"      - { PK: \"U#2\", SK: \"O#b\", user: \"2\", id: b, n: 10, status: open, note: x }\n"
		"      - { PK: \"U#1\", SK: \"O#a\", user: \"1\", id: a, n: 9, note: y }\n"
		"      - { PK: \"U#2\", SK: \"O#a\", user: \"2\", id: a, n: 2, status: open }\n"
		"  User:\n"
		"    attributes:\n"
		"      PK: { type: S, template: \"U#{user}\" }\n"
		"      SK: { type: S, template: \"PROFILE\" }\n"
		"      user: S\n"
		"      n: N\n"
		"    examples:\n"
		"      - { PK: \"U#1\", SK: \"PROFILE\", user: \"1\", n: 100 }\n"
		"access_patterns:\n"
		"  open-orders:\n"
		"    index: Open\n"
		"    operation: query\n"
		"    key: { status: open, n: { ge: 5 } }\n"
		"  user-items:\n"
		"    operation: query\n"
		"    key: { PK: \"U#{user}\" }\n"
		"    example: { user: \"2\" }\n"
);
	char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(md, "#### Items in `Tab`\n\n| PK | SK | Entity | Attributes |\n|---|---|---|---|\n"
		"| `U#2` | `O#a` | [Order](#entity-order) | user: `2`, id: `a`, n: `2`, status: `open` |\n"
		"| `U#2` | `O#b` | [Order](#entity-order) | user: `2`, id: `b`, n: `10`, status: `open`, "
		"note: `x` |\n"
		"| `U#1` | `O#a` | [Order](#entity-order) | user: `1`, id: `a`, n: `9`, note: `y` |\n"
		"| `U#1` | `PROFILE` | [User](#entity-user) | user: `1`, n: `100` |\n\n");
	/* The order without a status is not in Open; KEYS_ONLY keeps the keys. */
	expect_contains(md, "#### Items in `Open`\n\n| status | n | Entity | Attributes |\n"
		"|---|---|---|---|\n"
		"| `open` | `2` | [Order](#entity-order) | PK: `U#2`, SK: `O#a` |\n"
		"| `open` | `10` | [Order](#entity-order) | PK: `U#2`, SK: `O#b` |\n\n");
	expect_contains(md, "#### Items in `ByN`\n\n| PK | n | Entity | Attributes |\n"
		"|---|---|---|---|\n"
		"| `U#2` | `2` | [Order](#entity-order) | SK: `O#a` |\n"
		"| `U#2` | `10` | [Order](#entity-order) | SK: `O#b`, note: `x` |\n"
		"| `U#1` | `9` | [Order](#entity-order) | SK: `O#a`, note: `y` |\n"
		"| `U#1` | `100` | [User](#entity-user) | SK: `PROFILE` |\n\n");
	/* The request is the queries export's; n >= 5 returns one of the two. */
	expect_contains(md, "\"KeyConditionExpression\": \"#status = :status AND n >= :n\"");
	expect_contains(md, "|  | `open` | `2` | [Order](#entity-order) | PK: `U#2`, SK: `O#a` |\n"
		"| ▶ | `open` | `10` | [Order](#entity-order) | PK: `U#2`, SK: `O#b` |\n\n");
	/* Only the partition the query reads is shown. */
	expect_contains(md, "|---|---|---|---|---|\n"
		"| ▶ | `U#2` | `O#a` | [Order](#entity-order) | user: `2`, id: `a`, n: `2`, "
		"status: `open` |\n| ▶ | `U#2` | `O#b` |");
	/* The diagram: User sets no status, so it is not in Open. */
	expect_contains(md, "```mermaid\nflowchart LR\n  subgraph t0[\"Table Tab\"]\n"
		"    t0i0[\"Tab (base table)<br/>PK · SK\"]\n    t0i1[\"Open (GSI)<br/>status · n\"]\n"
		"    t0i2[\"ByN (LSI)<br/>PK · n\"]\n  end\n  t0e0([\"Order\"])\n  t0e0 --> t0i0\n"
		"  t0e0 --> t0i1\n  t0e0 --> t0i2\n  t0e1([\"User\"])\n  t0e1 --> t0i0\n"
		"  t0e1 --> t0i2\n```\n");
	free(md);
	char *html = emit(c.g, true, DDBC_LANG_EN, NULL);
	/* The SVG: a card per index with its keys, each entity a link to its
	 * section, and User not on Open's card. */
	expect_contains(html, "<a href=\"#entity-user\"><g class=\"entity c1\"><title>User</title>");
	expect_contains(html, "<text class=\"key\" x=\"16\" y=\"");
	expect_contains(html, ">status · n</text>");
	const char *open = strstr(html, "<title>Open</title>");
	const char *by_n = open ? strstr(open, "<title>ByN</title>") : NULL;
	ck_assert(open && by_n);
	const char *user = strstr(open, "<title>User</title>");
	ck_assert(user && user > by_n);
	ck_assert_ptr_nonnull(strstr(open, "<title>Order</title>"));
	ck_assert(!strstr(html, "class=\"edge\""));
	expect_contains(html, "<tr class=\"c0 starts\">");
	expect_contains(html, "<tr class=\"c1\">");
	expect_contains(html, "<tr class=\"c0 hit\">");
	free(html);
	checked_free(&c);
}
END_TEST

/* Contents grouped by table; a long example item folded in HTML only. */
START_TEST(test_contents_and_folds)
{
	checked c;
	check_file(&c, "samples/stamp-rally.ddb.yaml");
	char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(md, "- [Table `line-event`](#table-line-event)\n  - [Item views](#item-views)\n"
			    "  - [Entity `User`](#entity-user)\n");
	expect_contains(md, "  - [Pattern `users-by-date`](#pattern-users-by-date)\n");
	ck_assert_ptr_null(strstr(md, "<details>"));
	free(md);
	char *html = emit(c.g, true, DDBC_LANG_EN, NULL);
	const char *fold = strstr(html, "<details><summary>Example item ");
	ck_assert_ptr_nonnull(fold);
	ck_assert_ptr_nonnull(strstr(fold, "</code></pre>\n</details>\n"));
	free(html);
	checked_free(&c);
}
END_TEST

/* A table of many entities is drawn as one box that counts them, each
 * index's line labelled with how many it holds (in SVG: each index's card
 * counts them). */
START_TEST(test_diagram_many_entities)
{
	strbuf y = STRBUF_INIT;
	ddbc_strbuf_addstr(&y, "ddbc: 1\nname: many\ntables:\n  Big:\n    partition_key: PK\n"
			  "    gsi:\n      GSI1:\n        partition_key: g\nentities:\n");
	for (int i = 0; i < 41; i++)
		ddbc_strbuf_addf(&y, "  E%d:\n    attributes:\n      PK: { type: S, template: \"E%d#{id}\" }\n"
				"      id: S\n%s", i, i, i % 2 ? "      g: S\n" : "");
	checked c;
	check_text(&c, y.buf);
	ddbc_strbuf_release(&y);
	char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
	expect_contains(md, "  end\n  t0e([\"41 entities\"])\n  t0e -- \"41\" --> t0i0\n"
			    "  t0e -- \"20\" --> t0i1\n```\n");
	free(md);
	/* The SVG's cards count their entities instead of listing them. */
	char *html = emit(c.g, true, DDBC_LANG_EN, NULL);
	expect_contains(html, ">41 entities</text>");
	expect_contains(html, ">20 entities</text>");
	ck_assert(!strstr(html, "<g class=\"entity"));
	free(html);
	checked_free(&c);
}
END_TEST

/* ---- hostile text ----------------------------------------------------------------- */

/* How many '|' of line separate cells: those not escaped by a backslash. */
static size_t cell_pipes(const char *line, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (line[i] == '|' && (i == 0 || line[i - 1] != '\\'))
			n++;
	return n;
}

/* Every GFM table of md: each of its lines has as many cell separators as
 * its header, and it has the rows expected (in order; 0 = any). Returns
 * the number of tables. */
static size_t check_tables(const char *md, const size_t *rows, size_t nrows)
{
	size_t tables = 0;
	const char *p = md;
	while (*p) {
		if (*p != '|') {
			p += strcspn(p, "\n");
			p += *p == '\n';
			continue;
		}
		size_t head = cell_pipes(p, strcspn(p, "\n")), lines = 0;
		while (*p == '|') {
			size_t len = strcspn(p, "\n");
			ck_assert_msg(cell_pipes(p, len) == head, "a broken table row:\n%.*s", (int)len,
				      p);
			lines++;
			p += len;
			p += *p == '\n';
		}
		ck_assert_msg(*p == '\n', "a table not followed by a blank line");
		if (tables < nrows && rows[tables])
			ck_assert_uint_eq(lines - 2, rows[tables]);
		tables++;
	}
	return tables;
}

START_TEST(test_hostile_markdown)
{
	checked c;
	check_file(&c, "tests/fixtures/hostile-doc.ddb.yaml");
	for (int lang = 0; lang < 2; lang++) {
		char *md = emit(c.g, false, (ddbc_lang_id)lang, NULL);
		/* indexes (2), index map (1 entity), the table's and the GSI's
		 * items (1 each), attributes (6), patterns (1); the pattern's
		 * request matches no item: no view of its own */
		const size_t rows[] = { 2, 1, 1, 1, 6, 1 };
		ck_assert_uint_eq(check_tables(md, rows, 6), 6);
		/* No line of the document starts raw HTML. */
		for (const char *l = md; *l; l += strcspn(l, "\n"), l += *l == '\n')
			ck_assert_msg(*l != '<', "a line starts raw HTML: %.40s", l);
		ck_assert_msg(!contains_nocase(md, "](javascript:"), "a javascript: link survived");
		ck_assert_msg(!strstr(md, "](&#"), "an entity-encoded link survived");
		expect_contains(md, "| key \\| with a pipe  - not a list | `E#{id}` |");
		expect_contains(md, "| id | String | line one line two \\| not \\| a \\| row \\| | "
				    "a\\|b \\<script>alert(9)\\</script> \\`c |");
		expect_contains(md, "\\# not a heading | a | b | |---|---| \\<script>alert(6)\\</script>\n");
		/* The user's "# Contents" keeps "contents"; ddbc's contents move on. */
		expect_contains(md, "\n## Contents\n\nA heading of the user's");
		expect_contains(md, "  t0e0([\"Evil|Entity#lt;script#gt;\"])\n");
		free(md);
	}
	checked_free(&c);
}
END_TEST

/* Every tag of the page's body is one cmark or ddbc writes, with only the
 * attributes they write: whatever the user wrote stayed text. */
static void expect_only_known_markup(const char *html)
{
	static const char *const tags[] = { "h1", "h2", "h3", "h4", "h5", "h6", "p", "a", "code",
		"pre", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "div", "nav",
		"strong", "em", "del", "blockquote", "hr", "br", "main", "span", "figure", "svg",
		"g", "title", "rect", "text", "path", "details", "summary" };
	static const char *const attrs[] = { "id", "class", "href", "tabindex", "aria-hidden",
					     "start", "align", "viewBox", "role", "aria-label", "x", "y",
					     "width", "height", "rx", "d" };
	const char *p = strstr(html, "<main class=\"doc\">");
	const char *end = p ? strstr(p, "</main>") : NULL;
	ck_assert(p && end);
	/* The cards' labels, ddbc's CSS, close the page: no '<' inside. */
	const char *labels = strstr(p, "\n<style>\n.h0>");
	if (labels && labels < end) {
		const char *close = strstr(labels + 9, "</style>\n");
		ck_assert(close && !memchr(labels + 9, '<', (size_t)(close - labels - 9)));
		end = labels;
	}
	for (p = strchr(p + 1, '<'); p && p < end; p = strchr(p + 1, '<')) {
		const char *name = p + 1 + (p[1] == '/');
		size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789");
		bool known = false;
		for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]) && !known; i++)
			known = n == strlen(tags[i]) && !strncmp(name, tags[i], n);
		ck_assert_msg(known, "unknown markup: %.40s", p);
		const char *q = name + n, *close = strchr(q, '>');
		while (q < close) {
			q += strspn(q, " ");
			size_t an = strcspn(q, "= >");
			if (!an)
				break;
			bool ok = false;
			for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]) && !ok; i++)
				ok = an == strlen(attrs[i]) && !strncmp(q, attrs[i], an);
			ck_assert_msg(ok, "unknown attribute: %.40s", q);
			q += an;
			if (*q == '=' && q[1] == '"')
				q = strchr(q + 2, '"') + 1;
		}
	}
}

START_TEST(test_hostile_html)
{
	checked c;
	check_file(&c, "tests/fixtures/hostile-doc.ddb.yaml");
	for (int lang = 0; lang < 2; lang++) {
		char *html = emit(c.g, true, (ddbc_lang_id)lang, NULL);
		const char *markup[] = { "<script", "<img", "<b ", "<b>", "<i>", "href=\"javascript",
					 "href=\"&", "href=\"data", "<!--" };
		for (size_t i = 0; i < sizeof(markup) / sizeof(markup[0]); i++)
			ck_assert_msg(!contains_nocase(html, markup[i]), "'%s' reached the page",
				      markup[i]);
		expect_only_known_markup(html);
		/* The text is still there, shown as text. */
		expect_contains(html, "&lt;script&gt;alert(6)&lt;/script&gt;");
		expect_contains(html, "<a href=\"\">click me</a>");
		expect_contains(html, "<a href=\"https://example.com/\">fine</a>");
		/* Nothing was swallowed: every table is there, every row whole. */
		size_t tables = 0;
		for (const char *p = html; (p = strstr(p, "<table>")); p++)
			tables++;
		ck_assert_uint_eq(tables, 6);
		const char *attrs = strstr(html, "<div class=\"table-wrap attributes\"");
		ck_assert_ptr_nonnull(attrs);
		const char *end = strstr(attrs, "</table>");
		size_t rows = 0;
		for (const char *tr = strstr(attrs, "<tbody"); (tr = strstr(tr, "<tr>")) && tr < end;
		     tr++) {
			const char *tr_end = strstr(tr, "</tr>");
			size_t cells = 0;
			for (const char *td = tr; (td = strstr(td, "<td")) && td < tr_end; td++)
				cells++;
			ck_assert_uint_eq(cells, 6);
			rows++;
		}
		ck_assert_uint_eq(rows, 6);
		expect_contains(html, "<td>key | with a pipe  - not a list</td>");
		expect_contains(html, lang ? "td:nth-child(3){--label:\"説明\"}"
					   : "td:nth-child(3){--label:\"Description\"}");
		/* The user's heading got "contents", ddbc's the next id. */
		expect_contains(html, "<h2 id=\"contents\" class=\"user\">");
		expect_contains(html, lang ? "id=\"目次\" class=\"contents\""
					   : "id=\"contents-1\" class=\"contents\"");
		free(html);
	}
	checked_free(&c);
}
END_TEST

/* A write's items are not "returned": each caption says what the pattern
 * does to the items its key addresses. */
START_TEST(test_write_captions)
{
	checked c;
	check_file(&c, "samples/stamp-rally.ddb.yaml");
	for (int lang = 0; lang < 2; lang++) {
		char *md = emit(c.g, false, (ddbc_lang_id)lang, NULL);
		const char *put = strstr(md, lang ? "置き換える例のアイテム" : "The example item it replaces");
		const char *upd = strstr(md, lang ? "更新する例のアイテム" : "The example item it updates");
		ck_assert_ptr_nonnull(put);
		ck_assert_ptr_nonnull(upd);
		/* The put's section has no "returns" caption of its own. */
		const char *sec = strstr(md, "### ");
		for (const char *h = sec; h && h < put; h = strstr(h + 1, "\n### "))
			sec = h;
		const char *ret = strstr(sec, lang ? "返す例のアイテム" : "The example items it returns");
		ck_assert(!ret || ret > put);
		free(md);
	}
	checked_free(&c);
}
END_TEST

/* The cards' labels are written once per kind of table, as CSS: a column
 * name cannot end the style element or the string it stands in. */
START_TEST(test_card_labels)
{
	checked c;
	check_text(&c, "ddbc: 1\nname: t\ntables:\n  tbl:\n    partition_key: 'q\"</style>\\&'\n"
		       "entities:\n  E:\n    attributes:\n      'q\"</style>\\&': S\n"
		       "    examples:\n      - { 'q\"</style>\\&': a }\n");
	char *html = emit(c.g, true, DDBC_LANG_EN, NULL);
	expect_contains(html, ">tr>td:nth-child(1){--label:\"q\\\"\\3c /style>\\\\&\"}\n");
	/* No cell carries its label. */
	ck_assert(!strstr(html, "data-label"));
	ck_assert(!strstr(html, "\"q\\\"</style>"));
	free(html);
	checked_free(&c);
}
END_TEST

/* A description that opens an HTML block or a fence and never closes it
 * cannot hide what follows. */
START_TEST(test_unclosed_blocks)
{
	const char *openers[] = { "<!-- never closed", "<script>", "```", "~~~~", "<pre>",
				  "<div>\n<table>", "> ```\n> quoted fence" };
	for (size_t i = 0; i < sizeof(openers) / sizeof(openers[0]); i++) {
		strbuf text = STRBUF_INIT;
		ddbc_strbuf_addstr(&text, "ddbc: 1\nname: t\ndescription: |\n  intro\n\n  ");
		for (const char *o = openers[i]; *o; o++)
			ddbc_strbuf_addstr(&text, *o == '\n' ? "\n  " : (char[]){ *o, 0 });
		ddbc_strbuf_addstr(&text, "\ntables:\n  tbl:\n    partition_key: PK\n"
				     "entities:\n  E:\n    attributes:\n"
				     "      PK: { type: S, description: \"a <b>c</b>\" }\n");
		checked c;
		check_text(&c, text.buf);
		char *md = emit(c.g, false, DDBC_LANG_EN, NULL);
		char *html = emit(c.g, true, DDBC_LANG_EN, NULL);
		ck_assert_msg(strstr(md, "\n### Entity `E`\n"), "%s hid the entity:\n%s", openers[i],
			      md);
		ck_assert_msg(strstr(html, "<h3 id=\"entity-e\" class=\"entity\">"),
			      "%s hid the entity in HTML", openers[i]);
		expect_contains(html, "<td>a &lt;b&gt;c&lt;/b&gt;</td>");
		ck_assert(!contains_nocase(html, "<script") && !contains_nocase(html, "<pre>\n<table"));
		free(md);
		free(html);
		checked_free(&c);
		ddbc_strbuf_release(&text);
	}
}
END_TEST

/* Designs with errors never reach the emitters from the command line, but
 * the emitters still hold on them (the fuzz target sends every design):
 * every rule fixture and test fixture, with or without findings, gives
 * documents whose tables are whole. */
START_TEST(test_designs_with_errors)
{
	const char *patterns[] = { "tests/rules/*/*.yaml", "tests/fixtures/*.yaml",
				   "tests/fixtures/*/*.yaml" };
	size_t designs = 0;
	for (size_t k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
		char *pattern = tu_srcpath(patterns[k]);
		glob_t gl;
		if (glob(pattern, 0, NULL, &gl) == 0) {
			for (size_t i = 0; i < gl.gl_pathc; i++) {
				ddbc_source *src = ddbc_source_read(gl.gl_pathv[i]);
				ck_assert_ptr_nonnull(src);
				ddbc_settings cli;
				ddbc_settings_init(&cli);
				ddbc_diags d;
				ddbc_diags_init(&d);
				ddbc_design *g = ddbc_check(src, &d, &cli);
				for (int f = 0; g && f < 3; f++) {
					char *out = emit(g, f == 2, f == 1 ? DDBC_LANG_JA : DDBC_LANG_EN,
							 NULL);
					if (f < 2)
						check_tables(out, NULL, 0);
					free(out);
				}
				designs += g != NULL;
				ddbc_design_free(g);
				ddbc_diags_release(&d);
				ddbc_source_free(src);
			}
			globfree(&gl);
		}
		free(pattern);
	}
	ck_assert_uint_gt(designs, 10);
}
END_TEST

/* An example item's JSON and a view's value are written straight from the
 * packed value, in the bytes jansson's json_dumps gave (indented by 2, or
 * compact): its escapes, integers (YAML's 0x too), exact numbers, YAML's
 * words kept as strings, a string that begins with the number mark. */
START_TEST(test_example_json)
{
	static const char yaml[] =
		"{s: \"q\\\"uote\\\\ \\b\\f\\n\\r\\t\\x7f \xc3\xa9\", \"\\0k\": 1, "
		"n: [0x1F, -9223372036854775808, 9223372036854775808, .5, +5, 1e3, .inf], "
		"b: [true, no, ~], e: {m: {}, s: []}, twice: \"\\x01\\x02\\x01\\x02z\", "
		"once: \"\\x01\\x025\"}";
	static const char indented[] =
		"{\n"
		"  \"s\": \"q\\\"uote\\\\ \\b\\f\\n\\r\\t\x7f"" \xc3\xa9\",\n"
		"  \"\\u0000k\": 1,\n"
		"  \"n\": [\n"
		"    31,\n"
		"    -9223372036854775808,\n"
		"    9223372036854775808,\n"
		"    0.5,\n"
		"    5,\n"
		"    1e3,\n"
		"    \".inf\"\n"
		"  ],\n"
		"  \"b\": [\n"
		"    true,\n"
		"    \"no\",\n"
		"    null\n"
		"  ],\n"
		"  \"e\": {\n"
		"    \"m\": {},\n"
		"    \"s\": []\n"
		"  },\n"
		"  \"twice\": \"\\u0001\\u0002z\",\n"
		"  \"once\": 5\n"
		"}";
	static const char compact[] =
		"{\"s\":\"q\\\"uote\\\\ \\b\\f\\n\\r\\t\x7f"" \xc3\xa9\",\"\\u0000k\":1,"
		"\"n\":[31,-9223372036854775808,9223372036854775808,0.5,5,1e3,\".inf\"],"
		"\"b\":[true,\"no\",null],\"e\":{\"m\":{},\"s\":[]},\"twice\":\"\\u0001\\u0002z\","
		"\"once\":5}";
	ddbc_source *src = ddbc_source_from_memory("item", yaml, sizeof(yaml) - 1);
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_node *n = ddbc_yaml_load(arena, src, &d);
	ck_assert_ptr_nonnull(n);
	const ddbc_pval *v = ddbc_pval_pack(arena, n);
	char *text = ddbc_doc_example_json(v);
	ck_assert_str_eq(text, indented);
	free(text);
	text = ddbc_doc_value_json(v);
	ck_assert_str_eq(text, compact);
	free(text);
	/* json_dumps writes no scalar as a document: no example block. */
	ck_assert_ptr_null(ddbc_doc_example_json(ddbc_pval_get(v, "s")));
	text = ddbc_doc_value_json(ddbc_pval_get(v, "once"));
	ck_assert_str_eq(text, "5");
	free(text);
	ddbc_diags_release(&d);
	ddbc_arena_free(arena);
	ddbc_source_free(src);
}
END_TEST

/* A large design's document goes out in pieces (its contents and pattern
 * table alone are longer than one): the text is the same as the document
 * written whole, in both formats. */
START_TEST(test_long_blocks_split)
{
	strbuf text = STRBUF_INIT;
	ddbc_strbuf_addstr(&text, "ddbc: 1\nname: big\ntables:\n  tbl:\n    partition_key: PK\n"
			     "entities:\n");
	for (int i = 0; i < 1500; i++)
		ddbc_strbuf_addf(&text, "  Entity%04d:\n    attributes:\n"
				   "      PK: { type: S, template: \"E%04d#{id}\" }\n"
				   "      id: S\n", i, i);
	ddbc_strbuf_addstr(&text, "access_patterns:\n");
	for (int i = 0; i < 1500; i++)
		ddbc_strbuf_addf(&text, "  pattern-%04d:\n    description: Every entity %04d by id.\n"
				   "    operation: get\n    key: { PK: \"E%04d#{id}\" }\n"
				   "    example: { id: i%04d }\n", i, i, i, i);
	checked c;
	check_text(&c, text.buf);
	for (int html = 0; html < 2; html++) {
		const ddbc_doc_backend *be = html ? &ddbc_doc_html : &ddbc_doc_markdown;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		ddbc_doc_write(be, f, NULL, c.g, DDBC_LANG_EN);
		fclose(f);
		strbuf whole;
		ddbc_doc_write(be, NULL, &whole, c.g, DDBC_LANG_EN);
		ck_assert_uint_gt(len, 4 * 65536);
		ck_assert_uint_eq(len, whole.len);
		ck_assert(!memcmp(buf, whole.buf, len));
		ddbc_strbuf_release(&whole);
		free(buf);
	}
	checked_free(&c);
	ddbc_strbuf_release(&text);
}
END_TEST

/* Text built to make a naive escaper quadratic (unmatched backtick runs,
 * "](" and "<a>" over and over) is still written in linear time. */
START_TEST(test_pathological_text)
{
	strbuf text = STRBUF_INIT, desc = STRBUF_INIT;
	for (size_t i = 0; i < 100000; i++)
		ddbc_strbuf_addstr(&desc, "](");
	for (size_t i = 0; i < 60000; i++)
		ddbc_strbuf_addstr(&desc, "<a>");
	for (size_t i = 1; i < 400; i++) {
		for (size_t k = 0; k < i; k++)
			ddbc_strbuf_addch(&desc, '`');
		ddbc_strbuf_addch(&desc, 'x');
	}
	ddbc_strbuf_addstr(&text, "ddbc: 1\nname: p\ntables:\n  tbl:\n    partition_key: PK\n"
			     "entities:\n  E:\n    description: |\n      ");
	ddbc_strbuf_addstr(&text, desc.buf);
	ddbc_strbuf_addstr(&text, "\n    attributes:\n      PK: { type: S }\n");
	checked c;
	check_text(&c, text.buf);
	size_t len;
	char *md = emit(c.g, false, DDBC_LANG_EN, &len);
	ck_assert_uint_gt(len, desc.len);
	expect_contains(md, "\n| PK | String (required) |  |  |  |  |\n");
	free(md);
	checked_free(&c);
	ddbc_strbuf_release(&desc);
	ddbc_strbuf_release(&text);
}
END_TEST

/* ---- heading ids and links ----------------------------------------------------------- */

START_TEST(test_slugs)
{
	ddbc_slugger s;
	ddbc_slugger_init(&s);
	ck_assert_str_eq(ddbc_slug(&s, "Table line-event", 16), "table-line-event");
	ck_assert_str_eq(ddbc_slug(&s, "Table line-event", 16), "table-line-event-1");
	ck_assert_str_eq(ddbc_slug(&s, "Table line-event", 16), "table-line-event-2");
	ck_assert_str_eq(ddbc_slug(&s, "Entity Evil|Entity<script>", 26), "entity-evilentityscript");
	ck_assert_str_eq(ddbc_slug(&s, "A.b:c (d) 'e' \"f\" g_h", 21), "abc-d-e-f-g_h");
	const char *ja = "テーブル line-event（本番）、ユーザー・一覧";
	ck_assert_str_eq(ddbc_slug(&s, ja, strlen(ja)), "テーブル-line-event本番ユーザー一覧");
	ddbc_slug_reserve(&s, "contents");
	ck_assert_str_eq(ddbc_slug(&s, "Contents", 8), "contents-1");
	/* "x-1" taken by a heading of its own: the next "x" skips it. */
	ck_assert_str_eq(ddbc_slug(&s, "x-1", 3), "x-1");
	ck_assert_str_eq(ddbc_slug(&s, "x", 1), "x");
	ck_assert_str_eq(ddbc_slug(&s, "x", 1), "x-2");
	ck_assert_str_eq(ddbc_slug(&s, "", 0), "");
	ck_assert_str_eq(ddbc_slug(&s, "!!!", 3), "-1");
	for (int i = 0; i < 500; i++)
		ddbc_slug(&s, "many", 4);
	ck_assert_str_eq(ddbc_slug(&s, "many", 4), "many-500");
	ddbc_slugger_release(&s);
}
END_TEST

START_TEST(test_safe_url)
{
	const char *safe[] = { "https://example.com/", "HTTP://x", "mailto:a@b", "#anchor",
			       "relative/path.html", "../x?y=a:b", "" };
	const char *unsafe[] = { "javascript:alert(1)", "JavaScript:x", " javascript:x",
				 "vbscript:x", "data:text/html,x", "file:///etc/passwd",
				 "&#106;avascript:x", "java\\script:x", "java\tscript:x" };
	for (size_t i = 0; i < sizeof(safe) / sizeof(safe[0]); i++)
		ck_assert_msg(ddbc_doc_safe_url(safe[i], strlen(safe[i])), "%s", safe[i]);
	for (size_t i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++)
		ck_assert_msg(!ddbc_doc_safe_url(unsafe[i], strlen(unsafe[i])), "%s", unsafe[i]);
}
END_TEST

static char *escaped(const char *s, ddbc_esc mode)
{
	strbuf sb = STRBUF_INIT;
	ddbc_doc_escape(&sb, s, mode);
	return ddbc_strbuf_detach(&sb);
}

#define expect_escape(s, mode, want)                                         \
	do {                                                                 \
		char *got_ = escaped((s), (mode));                          \
		ck_assert_msg(!strcmp(got_, (want)), "%s: got '%s', want '%s'", \
			      #mode, got_, (want));                          \
		free(got_);                                                  \
	} while (0)

/* One escaper, each place its mode. */
START_TEST(test_escape_modes)
{
	expect_escape("a*b|c\nd_e", DDBC_ESC_MD_TEXT, "a\\*b\\|c d\\_e");
	expect_escape("x`y", DDBC_ESC_MD_CODE, "``x`y``");
	expect_escape("`x", DDBC_ESC_MD_CODE, "`` `x ``");
	expect_escape("a|b", DDBC_ESC_MD_CODE, "`a|b`");
	expect_escape("a|b", DDBC_ESC_MD_CODE_CELL, "`a\\|b`");
	expect_escape("", DDBC_ESC_MD_CODE, "");
	expect_escape("# a|b <i>", DDBC_ESC_MD_INLINE, "# a|b \\<i>");
	expect_escape("# a|b <i>", DDBC_ESC_MD_INLINE_CELL, "# a\\|b \\<i>");
	expect_escape("# a|b <i>", DDBC_ESC_MD_INLINE_PARA, "\\# a|b \\<i>");
	expect_escape("12. x", DDBC_ESC_MD_INLINE_PARA, "12\\. x");
	expect_escape("[a](javascript:x) [b](https://e/)", DDBC_ESC_MD_INLINE,
		      "[a]\\(javascript:x) [b](https://e/)");
	expect_escape("<a href=\"x\">&'\n", DDBC_ESC_HTML, "&lt;a href=&quot;x&quot;&gt;&amp;'\n");
	expect_escape("a\r\nb", DDBC_ESC_HTML_LINE, "a  b");
	expect_escape("目次-a_b", DDBC_ESC_HREF, "%E7%9B%AE%E6%AC%A1-a_b");
	expect_escape("a\"<b", DDBC_ESC_HREF, "a%22%3Cb");
}
END_TEST

/* A description as HTML is what cmark-gfm makes of the escaped Markdown,
 * also where the plain words skip cmark. */
START_TEST(test_inline_html)
{
	const char *texts[] = { "Tier of the owner", "quotes \"a\" 'b' > c ; d = e",
		"a | b", "1. not a list", "- not an item", "# not a heading", "x &amp; y",
		"*em* and `code` and __strong__", "[link](javascript:x) [ok](https://e/)",
		"<b>raw</b> <https://example.com/>", "  spaced   out\nover lines  ",
		"日本語の説明（全角）", "~~~", "a\\b" };
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		strbuf got = STRBUF_INIT;
		ddbc_doc_inline_html(&got, texts[i]);
		char *md = escaped(texts[i], DDBC_ESC_MD_INLINE_PARA);
		char *html = cmark_markdown_to_html(md, strlen(md), CMARK_OPT_DEFAULT);
		size_t n = strlen(html);
		ck_assert(n >= 8 && !strncmp(html, "<p>", 3));
		html[n - 5] = '\0';
		ck_assert_msg(!strcmp(ddbc_strbuf_str(&got), html + 3), "'%s': got '%s', cmark '%s'",
			      texts[i], ddbc_strbuf_str(&got), html + 3);
		free(html);
		free(md);
		ddbc_strbuf_release(&got);
	}
}
END_TEST

/* Every in-page link of every sample leads to a heading of the page. */
START_TEST(test_links_resolve)
{
	char *rel = sample_path((size_t)_i / 2);
	checked c;
	check_file(&c, rel);
	char *html = emit(c.g, true, _i % 2 ? DDBC_LANG_JA : DDBC_LANG_EN, NULL);
	size_t links = 0;
	for (const char *p = html; (p = strstr(p, "href=\"#")); p++) {
		p += 7;
		size_t n = strcspn(p, "\"");
		char want[512];
		ck_assert_uint_lt(n + 6, sizeof(want));
		/* cmark percent-encodes non-ASCII ids in links; the page's ids are raw. */
		size_t k = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned v;
			if (p[i] == '%' && i + 2 < n && sscanf(p + i + 1, "%2x", &v) == 1)
				want[k++] = (char)v, i += 2;
			else
				want[k++] = p[i];
		}
		want[k] = '\0';
		char id[600];
		snprintf(id, sizeof(id), " id=\"%s\"", want);
		ck_assert_msg(strstr(html, id), "%s: link to a missing anchor '#%s'", rel, want);
		links++;
	}
	ck_assert_uint_gt(links, 5);
	free(html);
	checked_free(&c);
	free(rel);
}
END_TEST

/* ---- the command line ------------------------------------------------------------------ */

static char *temp_dir(void)
{
	char *dir = strdup("/tmp/ddbc-doc-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static char *path_in(const char *dir, const char *name)
{
	char *p = malloc(strlen(dir) + strlen(name) + 2);
	sprintf(p, "%s/%s", dir, name);
	return p;
}

/* How many times needle occurs in hay. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* -o DIR/: an index page and one page per table, linked to each other. */
START_TEST(test_cli_site)
{
	char *dir = temp_dir();
	char *site = path_in(dir, "site/");
	tu_proc p;
	tu_run(&p, NULL, "doc", "--format", "html", "--template", TEST_SRCDIR "/templates", "-o",
	       site, "samples/assessment-multi.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
	ck_assert_uint_eq(p.out_len, 0);
	tu_proc_free(&p);
	const char *const pages[] = { "index.html", "table-Companies.html", "table-Users.html",
				      "table-AssessmentResults.html" };
	for (size_t i = 0; i < 4; i++) {
		char *path = path_in(dir, "site");
		char *file = path_in(path, pages[i]);
		size_t len;
		char *html = tu_read_file(file, &len);
		ck_assert_msg(html != NULL, "no %s", pages[i]);
		expect_contains(html, "<svg class=\"diagram\"");
		if (i == 0) {
			/* The index links to the tables' pages and to every entity and
			 * pattern on them, and holds no table's section. */
			expect_contains(html, "<a href=\"table-Users.html#table-users\">");
			expect_contains(html, "<li><a href=\"table-AssessmentResults.html#"
					      "pattern-results-by-user\">Pattern <code>results-by-user"
					      "</code></a></li>");
			expect_contains(html, "<li><a href=\"table-Users.html#entity-user\">Entity "
					      "<code>User</code></a></li>");
			ck_assert_ptr_null(strstr(html, "id=\"pattern-results-by-user\""));
			ck_assert_uint_eq(count(html, "<h2 id=\"table-"), 0);
		} else {
			/* A table's page: that table only, and a way back. */
			expect_contains(html, "<a href=\"index.html#contents\">");
			ck_assert_uint_eq(count(html, "<h2 id=\"table-"), 1);
		}
		free(html);
		unlink(file);
		free(file);
		free(path);
	}
	/* Markdown has no site. */
	tu_run(&p, NULL, "doc", "-o", site, "samples/todo.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 2);
	expect_contains(p.err, "needs --format html");
	tu_proc_free(&p);
	char *sub = path_in(dir, "site");
	rmdir(sub), rmdir(dir);
	free(sub), free(site), free(dir);
}
END_TEST

/* --check: 0 up to date, 1 stale or missing, 2 a design with errors. */
START_TEST(test_cli_check)
{
	char *dir = temp_dir();
	char *md = path_in(dir, "todo.md"), *html = path_in(dir, "todo.html");
	char *bad = path_in(dir, "bad.ddb.yaml");
	tu_proc p;
	tu_run(&p, NULL, "doc", "--check", md, "samples/todo.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	tu_proc_free(&p);
	tu_run(&p, NULL, "doc", "-o", md, "samples/todo.ddb.yaml", NULL);
	tu_proc_free(&p);
	tu_run(&p, NULL, "doc", "--check", md, "samples/todo.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
	tu_proc_free(&p);
	/* Other options write another document: stale. */
	tu_run(&p, NULL, "doc", "--lang", "ja", "--check", md, "samples/todo.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 1);
	expect_contains(p.err, "is stale: regenerate it with ddbc doc --lang ja -o ");
	tu_proc_free(&p);
	/* The format follows the file's name. */
	tu_run(&p, NULL, "doc", "--format", "html", "--template", TEST_SRCDIR "/templates", "-o",
	       html, "samples/todo.ddb.yaml", NULL);
	tu_proc_free(&p);
	tu_run(&p, NULL, "doc", "--template", TEST_SRCDIR "/templates", "--check", html,
	       "samples/todo.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
	tu_proc_free(&p);
	/* A broken design is not a stale document. */
	FILE *f = fopen(bad, "w");
	fputs("ddbc: 1\nname: bad\ntables:\n  Tab:\n    partition_key: PK\n"
	      "entities:\n  E:\n    table: Nope\n    attributes: { PK: S }\n", f);
	fclose(f);
	tu_run(&p, NULL, "doc", "--check", md, bad, NULL);
	ck_assert_int_eq(p.status, 2);
	expect_contains(p.err, "has errors");
	ck_assert_ptr_null(strstr(p.err, "stale"));
	tu_proc_free(&p);
	unlink(md), unlink(html), unlink(bad), rmdir(dir);
	free(md), free(html), free(bad), free(dir);
}
END_TEST

START_TEST(test_cli_writes_file)
{
	char *dir = temp_dir();
	char *md = path_in(dir, "todo.md"), *html = path_in(dir, "todo.html");
	tu_proc p;
	tu_run(&p, NULL, "doc", "-o", md, "samples/todo.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
	ck_assert_uint_eq(p.out_len, 0);
	tu_proc_free(&p);
	tu_run(&p, NULL, "doc", "samples/todo.ddb.yaml", NULL);
	size_t len;
	char *written = tu_read_file(md, &len);
	ck_assert_msg(len == p.out_len && !memcmp(written, p.out, len), "-o differs from stdout");
	ck_assert(strncmp(written, "# todo\n", 7) == 0);
	free(written);
	tu_proc_free(&p);

	tu_run(&p, NULL, "doc", "--format", "html", "--lang", "ja", "--template",
	       TEST_SRCDIR "/templates", "-o", html, "samples/todo.ddb.yaml", NULL);
	ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
	tu_proc_free(&p);
	written = tu_read_file(html, &len);
	ck_assert(strncmp(written, "<!DOCTYPE html>\n<html lang=\"ja\">", 32) == 0);
	expect_contains(written, "<h3 id=\"エンティティ-todoitem\" class=\"entity\">");
	free(written);

	/* DDBC_TEMPLATE_DIR stands in for --template. */
	setenv("DDBC_TEMPLATE_DIR", TEST_SRCDIR "/templates", 1);
	tu_run(&p, NULL, "doc", "--format", "html", "samples/todo.ddb.yaml", NULL);
	unsetenv("DDBC_TEMPLATE_DIR");
	ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
	expect_contains(p.out, "<title>todo — DynamoDB design</title>");
	tu_proc_free(&p);

	unlink(md), unlink(html), rmdir(dir);
	free(md), free(html), free(dir);
}
END_TEST

START_TEST(test_cli_error_writes_nothing)
{
	char *dir = temp_dir();
	char *bad = path_in(dir, "bad.ddb.yaml"), *out = path_in(dir, "out.md");
	char *old = path_in(dir, "old.md");
	const char *text = "ddbc: 1\nname: bad\ntables:\n  tbl:\n    partition_key: PK\n"
			   "entities:\n  E:\n    attributes:\n      SK: S\n";
	tu_write_file(bad, text, strlen(text));
	tu_write_file(old, "old\n", 4);

	tu_proc p;
	tu_run(&p, NULL, "doc", "-o", out, bad, NULL);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.err, "error:"), "no error printed: %s", p.err);
	ck_assert_uint_eq(p.out_len, 0);
	ck_assert_msg(access(out, F_OK) != 0, "a failing run wrote %s", out);
	tu_proc_free(&p);

	tu_run(&p, NULL, "doc", "--format", "html", "-o", old, bad, NULL);
	ck_assert_int_eq(p.status, 1);
	tu_proc_free(&p);
	size_t len;
	char *kept = tu_read_file(old, &len);
	ck_assert_str_eq(kept, "old\n");
	free(kept);

	/* Templates that cannot be read: exit 2, nothing written. */
	tu_run(&p, NULL, "doc", "--format", "html", "--template", dir, "-o", out,
	       "samples/todo.ddb.yaml", NULL);
	ck_assert_int_eq(p.status, 2);
	ck_assert_msg(strstr(p.err, "cannot read template"), "%s", p.err);
	ck_assert_msg(access(out, F_OK) != 0, "a failing run wrote %s", out);
	tu_proc_free(&p);

	unlink(bad), unlink(old), rmdir(dir);
	free(bad), free(out), free(old), free(dir);
}
END_TEST

static Suite *doc_suite(void)
{
	Suite *s = suite_create("doc");
	TCase *tc = tcase_create("outputs");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_golden, 0, (int)NSAMPLES * 4);
	tcase_add_test(tc, test_not_stored);
	tcase_add_loop_test(tc, test_deterministic, 0, (int)NSAMPLES);
	tcase_add_test(tc, test_page_style);
	tcase_add_test(tc, test_todo_article_table);
	tcase_add_test(tc, test_japanese_labels);
	tcase_add_test(tc, test_index_map);
	tcase_add_test(tc, test_sparse_membership);
	tcase_add_test(tc, test_multi_attribute_key);
	tcase_add_test(tc, test_lsi_ttl_billing);
	tcase_add_test(tc, test_item_views);
	tcase_add_test(tc, test_diagram_many_entities);
	tcase_add_test(tc, test_contents_and_folds);
	tcase_add_loop_test(tc, test_links_resolve, 0, (int)NSAMPLES * 2);
	suite_add_tcase(s, tc);

	tc = tcase_create("safety");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_hostile_markdown);
	tcase_add_test(tc, test_hostile_html);
	tcase_add_test(tc, test_unclosed_blocks);
	tcase_add_test(tc, test_card_labels);
	tcase_add_test(tc, test_write_captions);
	tcase_add_test(tc, test_designs_with_errors);
	tcase_add_test(tc, test_pathological_text);
	tcase_add_test(tc, test_long_blocks_split);
	tcase_add_test(tc, test_example_json);
	tcase_add_test(tc, test_slugs);
	tcase_add_test(tc, test_safe_url);
	tcase_add_test(tc, test_escape_modes);
	tcase_add_test(tc, test_inline_html);
	suite_add_tcase(s, tc);

	tc = tcase_create("cli");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cli_writes_file);
	tcase_add_test(tc, test_cli_site);
	tcase_add_test(tc, test_cli_check);
	tcase_add_test(tc, test_cli_error_writes_nothing);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(doc_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
