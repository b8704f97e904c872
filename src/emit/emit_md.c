/* emit_md.c - the documentation as Markdown
 *
 * One pass over the derived model writes GitHub-flavoured Markdown: the
 * title and description, a table of contents, per table its indexes and
 * index map and per entity the seed-002 table and example items, then the
 * access patterns. Every user string goes through one of three writers:
 *
 *   put_text    a name or free text shown literally (punctuation escaped);
 *   put_code    a template or value shown as a code span;
 *   put_inline  a description, kept as inline Markdown but made inert: one
 *               line, raw HTML and unsafe link destinations escaped, and in
 *               table cells every '|' escaped.
 *
 * The design's description is block Markdown: it is parsed with cmark-gfm,
 * cleaned on the tree and written back, so no unclosed fence or HTML block
 * in it can swallow the rest of the document.
 */
#include "emit/emit_md.h"
#include "model/semantics.h"
#include "util/xalloc.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- labels ---------------------------------------------------------------------- */

/* Every word the document writes itself, per language. The Japanese column
 * names are seed 002's where it has them (属性名, データ型, 説明). */
typedef struct labels {
	const char *title_suffix, *contents, *table, *entity, *pattern, *patterns;
	const char *indexes, *index_map, *orphans;
	const char *attr_cols[6], *index_cols[6], *pattern_cols[6], *map_first;
	const char *kind[3];              /* by ddbc_index_kind */
	const char *role[4];              /* by ddbc_role */
	const char *sep, *open, *close;   /* list separator, parentheses */
	const char *map_intro, *no_entities, *example, *examples;
	const char *billing, *on_demand, *provisioned, *capacity, *ttl;
	const char *d_table, *d_index, *d_operation, *d_key, *d_order, *asc, *desc;
	const char *d_consistent, *yes, *d_returns, *d_condition, *d_entities, *d_params;
	const char *base_table, *no_key;
} labels;

static const labels labels_en = {
	.title_suffix = "DynamoDB design",
	.contents = "Contents",
	.table = "Table",
	.entity = "Entity",
	.pattern = "Pattern",
	.patterns = "Access patterns",
	.indexes = "Indexes",
	.index_map = "Index map",
	.orphans = "Entities without a table",
	.attr_cols = { "AttributeName", "Type", "Description", "Format", "GSI Inclusion",
		       "LSI Inclusion" },
	.index_cols = { "Index", "Kind", "Partition key", "Sort key", "Projection",
			"Description" },
	.pattern_cols = { "#", "Pattern", "Operation", "Index", "Key condition", "Entities" },
	.map_first = "Entity",
	.kind = { "base table", "GSI", "LSI" },
	.role = { "", "partition key", "sort key", "projected" },
	.sep = ", ",
	.open = " (",
	.close = ")",
	.map_intro = "The key values each entity writes into each index. — marks an index "
		     "the entity is not in: it does not set every key attribute of the index "
		     "(a sparse index).",
	.no_entities = "No entity is stored in this table.",
	.example = "Example item:",
	.examples = "Example items:",
	.billing = "Billing",
	.on_demand = "on demand",
	.provisioned = "provisioned",
	.capacity = "read %lld, write %lld",
	.ttl = "TTL",
	.d_table = "Table",
	.d_index = "Index",
	.d_operation = "Operation",
	.d_key = "Key condition",
	.d_order = "Order",
	.asc = "ascending",
	.desc = "descending",
	.d_consistent = "Consistent read",
	.yes = "yes",
	.d_returns = "Returns",
	.d_condition = "Condition",
	.d_entities = "Entities",
	.d_params = "Example parameters",
	.base_table = "base table",
	.no_key = "—",
};

static const labels labels_ja = {
	.title_suffix = "DynamoDB 設計",
	.contents = "目次",
	.table = "テーブル",
	.entity = "エンティティ",
	.pattern = "パターン",
	.patterns = "アクセスパターン",
	.indexes = "インデックス",
	.index_map = "インデックスマップ",
	.orphans = "テーブルのないエンティティ",
	.attr_cols = { "属性名", "データ型", "説明", "フォーマット", "GSI への射影",
		       "LSI への射影" },
	.index_cols = { "インデックス", "種類", "パーティションキー", "ソートキー", "射影",
			"説明" },
	.pattern_cols = { "#", "パターン", "操作", "インデックス", "キー条件", "エンティティ" },
	.map_first = "エンティティ",
	.kind = { "ベーステーブル", "GSI", "LSI" },
	.role = { "", "パーティションキー", "ソートキー", "射影" },
	.sep = "、",
	.open = "（",
	.close = "）",
	.map_intro = "各エンティティが各インデックスに書き込むキーの値。— はそのエンティティが"
		     "インデックスのキー属性をすべては持たず、インデックスに載らないこと"
		     "（スパースインデックス）を示す。",
	.no_entities = "このテーブルに格納されるエンティティはない。",
	.example = "アイテムの例:",
	.examples = "アイテムの例:",
	.billing = "課金モード",
	.on_demand = "オンデマンド",
	.provisioned = "プロビジョンド",
	.capacity = "読み込み %lld、書き込み %lld",
	.ttl = "TTL",
	.d_table = "テーブル",
	.d_index = "インデックス",
	.d_operation = "操作",
	.d_key = "キー条件",
	.d_order = "順序",
	.asc = "昇順",
	.desc = "降順",
	.d_consistent = "強い整合性の読み込み",
	.yes = "はい",
	.d_returns = "返す属性",
	.d_condition = "条件式",
	.d_entities = "エンティティ",
	.d_params = "パラメータの例",
	.base_table = "ベーステーブル",
	.no_key = "—",
};

/* ---- heading ids ------------------------------------------------------------------- */

void ddbc_slugger_init(ddbc_slugger *s)
{
	memset(s, 0, sizeof(*s));
}

void ddbc_slugger_release(ddbc_slugger *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->keys[i]);
	free(s->keys);
	free(s->counts);
	memset(s, 0, sizeof(*s));
}

static size_t hash_str(const char *k)
{
	size_t h = 2166136261u;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 16777619u;
	return h;
}

/* The slot of key in s: where it is, or the empty slot where it goes. */
static size_t slot_of(const ddbc_slugger *s, const char *key)
{
	size_t i = hash_str(key) & (s->cap - 1);
	while (s->keys[i] && strcmp(s->keys[i], key))
		i = (i + 1) & (s->cap - 1);
	return i;
}

static void grow_slugs(ddbc_slugger *s)
{
	ddbc_slugger old = *s;
	s->cap = old.cap ? old.cap * 2 : 64;
	s->keys = xcalloc(s->cap, sizeof(char *));
	s->counts = xcalloc(s->cap, sizeof(unsigned));
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.keys[i])
			continue;
		size_t j = slot_of(s, old.keys[i]);
		s->keys[j] = old.keys[i];
		s->counts[j] = old.counts[i];
	}
	free(old.keys);
	free(old.counts);
}

/* Adds key (which must be absent) and returns the stored copy. */
static const char *add_slug(ddbc_slugger *s, const char *key)
{
	if ((s->n + 1) * 2 > s->cap)
		grow_slugs(s);
	size_t i = slot_of(s, key);
	s->keys[i] = xstrdup(key);
	s->counts[i] = 0;
	s->n++;
	return s->keys[i];
}

static bool has_slug(const ddbc_slugger *s, const char *key)
{
	return s->cap && s->keys[slot_of(s, key)];
}

void ddbc_slug_reserve(ddbc_slugger *s, const char *id)
{
	if (!has_slug(s, id))
		add_slug(s, id);
}

/* Code points github-slugger keeps besides ASCII letters, digits, '-', '_'
 * and ' ': letters, marks, numbers and connector punctuation. Without
 * Unicode tables, the blocks of punctuation and symbols that headings
 * realistically hold are dropped and everything else is kept. */
static bool slug_keeps(unsigned cp)
{
	static const struct { unsigned lo, hi; } drop[] = {
		{ 0x80, 0xA9 }, { 0xAB, 0xB1 }, { 0xB4, 0xB4 }, { 0xB6, 0xB8 }, { 0xBB, 0xBB },
		{ 0xBF, 0xBF }, { 0xD7, 0xD7 }, { 0xF7, 0xF7 }, { 0x2000, 0x203E },
		{ 0x2041, 0x2053 }, { 0x2055, 0x206F }, { 0x20A0, 0x20CF },
		{ 0x2100, 0x2101 }, { 0x2190, 0x2BFF }, { 0x3000, 0x3004 },
		{ 0x3008, 0x3020 }, { 0x3030, 0x3030 }, { 0x303D, 0x303F },
		{ 0x30A0, 0x30A0 }, { 0x30FB, 0x30FB }, { 0xFE10, 0xFE1F },
		{ 0xFE30, 0xFE4C }, { 0xFE50, 0xFE6F }, { 0xFEFF, 0xFEFF },
		{ 0xFF01, 0xFF0F }, { 0xFF1A, 0xFF20 }, { 0xFF3B, 0xFF3E }, { 0xFF40, 0xFF40 },
		{ 0xFF5B, 0xFF65 }, { 0xFFE0, 0xFFEF }, { 0x1F000, 0x1FAFF },
	};
	for (size_t i = 0; i < sizeof(drop) / sizeof(drop[0]); i++)
		if (cp >= drop[i].lo && cp <= drop[i].hi)
			return false;
	return true;
}

/* Length of the UTF-8 sequence at p (1 for a stray byte), its code point in *cp. */
static size_t utf8_next(const unsigned char *p, const unsigned char *end, unsigned *cp)
{
	size_t n = *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC0 ? 2 : 1;
	if ((size_t)(end - p) < n)
		n = 1;
	unsigned v = n == 1 ? *p : *p & (0x3F >> (n - 1));
	for (size_t i = 1; i < n; i++)
		v = (v << 6) | (p[i] & 0x3F);
	*cp = v;
	return n;
}

static void slugify(strbuf *out, const char *text, size_t len)
{
	const unsigned char *p = (const unsigned char *)text, *end = p + len;
	while (p < end) {
		unsigned cp;
		size_t n = utf8_next(p, end, &cp);
		if (cp < 0x80) {
			if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || cp == '-' ||
			    cp == '_')
				strbuf_addch(out, (char)cp);
			else if (cp >= 'A' && cp <= 'Z')
				strbuf_addch(out, (char)(cp - 'A' + 'a'));
			else if (cp == ' ')
				strbuf_addch(out, '-');
		} else if (slug_keeps(cp)) {
			strbuf_add(out, p, n);
		}
		p += n;
	}
}

const char *ddbc_slug(ddbc_slugger *s, const char *text, size_t len)
{
	strbuf base = STRBUF_INIT, id = STRBUF_INIT;
	slugify(&base, text, len);
	strbuf_addstr(&id, strbuf_str(&base));
	size_t at = 0;
	if (has_slug(s, id.buf ? id.buf : "")) {
		at = slot_of(s, strbuf_str(&base));
		do {
			strbuf_reset(&id);
			strbuf_addf(&id, "%s-%u", strbuf_str(&base), ++s->counts[at]);
		} while (has_slug(s, id.buf));
	}
	const char *r = add_slug(s, strbuf_str(&id));
	strbuf_release(&base);
	strbuf_release(&id);
	return r;
}

/* ---- writing user text ---------------------------------------------------------- */

enum ctx {
	CTX_CELL,   /* inside a GFM table cell: '|' must be escaped, code spans too */
	CTX_LINE,   /* in the middle of a line outside a table */
	CTX_PARA    /* at the start of a paragraph: block markers must be escaped */
};

static bool is_break(char c)
{
	return c == '\n' || c == '\r';
}

/* Plain text: every character that could start Markdown is escaped, and
 * line breaks become spaces. */
static void put_text(strbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		if (is_break(*s))
			strbuf_addch(sb, ' ');
		else if (strchr("\\`*_[]<&~#|$", *s))
			strbuf_addch(sb, '\\'), strbuf_addch(sb, *s);
		else
			strbuf_addch(sb, *s);
	}
}

static size_t backtick_run(const char *s)
{
	size_t n = 0;
	while (s[n] == '`')
		n++;
	return n;
}

/* A code span showing s exactly: fenced by more backticks than s holds in a
 * row, padded when a backtick or a space at both ends would be eaten. */
static void put_code(strbuf *sb, const char *s, enum ctx ctx)
{
	size_t len = s ? strlen(s) : 0, longest = 0;
	if (!len)
		return;
	for (size_t i = 0; i < len;) {
		size_t r = backtick_run(s + i);
		if (r > longest)
			longest = r;
		i += r ? r : 1;
	}
	bool all_space = strspn(s, " \n\r") == len;
	bool pad = s[0] == '`' || s[len - 1] == '`' ||
		   (!all_space && (s[0] == ' ' || is_break(s[0])) &&
		    (s[len - 1] == ' ' || is_break(s[len - 1])));
	for (size_t i = 0; i <= longest; i++)
		strbuf_addch(sb, '`');
	if (pad)
		strbuf_addch(sb, ' ');
	for (const char *p = s; *p; p++) {
		if (is_break(*p))
			strbuf_addch(sb, ' ');
		else if (*p == '|' && ctx == CTX_CELL)
			strbuf_addstr(sb, "\\|");
		else
			strbuf_addch(sb, *p);
	}
	if (pad)
		strbuf_addch(sb, ' ');
	for (size_t i = 0; i <= longest; i++)
		strbuf_addch(sb, '`');
}

bool ddbc_doc_safe_url(const char *url, size_t len)
{
	static const char *const schemes[] = { "http:", "https:", "mailto:" };
	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		size_t n = strlen(schemes[i]);
		if (len >= n && !strncasecmp(url, schemes[i], n))
			return true;
	}
	/* Relative: no scheme, and no entity or escape that could spell one. */
	for (size_t i = 0; i < len && !strchr("/?#", url[i]); i++)
		if (url[i] == ':' || url[i] == '&' || url[i] == '\\' || (unsigned char)url[i] < 0x20)
			return false;
	return true;
}

/* Whether the inline link destination at s (after "](") is safe. Only its
 * start decides, so only that is read: text full of "](" stays linear. A
 * start too long to tell is taken as unsafe, which only escapes a '('. */
static bool safe_destination(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '<')
		s++;
	size_t n = 0;
	while (n < 256 && s[n] && !strchr(" \t>)/?#", s[n]))
		n++;
	return n < 256 && ddbc_doc_safe_url(s, n);
}

/* An autolink "<https://...>" that may stay: its length, else 0. */
static size_t safe_autolink(const char *s)
{
	size_t n = strcspn(s + 1, "<> \t");
	if (s[1 + n] != '>' || !n || !memchr(s + 1, ':', n) || !ddbc_doc_safe_url(s + 1, n))
		return 0;
	return n + 2;
}

/* The escape, if any, that keeps the start of a paragraph from opening a
 * block (heading, quote, list, rule, fence, table, link definition):
 * returns how many leading bytes were written. */
static size_t guard_para_start(strbuf *sb, const char *s)
{
	size_t digits = strspn(s, "0123456789");
	if (digits && digits <= 9 && (s[digits] == '.' || s[digits] == ')')) {
		strbuf_add(sb, s, digits);
		strbuf_addch(sb, '\\');
		strbuf_addch(sb, s[digits]);
		return digits + 1;
	}
	bool definition = s[0] == '[' && strstr(s, "]:");
	if ((s[0] && strchr("#>+-*=_~|", s[0])) || backtick_run(s) >= 3 || definition) {
		strbuf_addch(sb, '\\');
		strbuf_addch(sb, s[0]);
		return 1;
	}
	return 0;
}

/* s on one line: line breaks as spaces, surrounding white space dropped. */
static char *one_line(const char *s)
{
	while (*s == ' ' || *s == '\t' || is_break(*s))
		s++;
	char *t = xstrdup(s);
	size_t n = strlen(t);
	while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || is_break(t[n - 1])))
		t[--n] = '\0';
	for (char *p = t; *p; p++)
		if (is_break(*p))
			*p = ' ';
	return t;
}

/* Where a search for a closing run of each length is known to fail, so
 * that text full of unmatched backticks is still read in linear time. */
enum { MAX_RUN = 64 };
typedef struct runs {
	size_t fails_from[MAX_RUN];
} runs;

/* The code span starting at t + i (a run of r backticks): its whole length
 * when a closing run of exactly r backticks follows, else 0. Longer runs
 * are taken as text, which only escapes more than needed. */
static size_t code_span(const char *t, size_t i, size_t r, runs *known)
{
	if (r >= MAX_RUN || known->fails_from[r] <= i)
		return 0;
	for (const char *p = t + i + r; *p;) {
		size_t n = backtick_run(p);
		if (n == r)
			return (size_t)(p + n - (t + i));
		p += n ? n : 1;
	}
	known->fails_from[r] = i;
	return 0;
}

/* Inline Markdown kept as written, except what could escape its place. */
static void put_inline(strbuf *sb, const char *s, enum ctx ctx)
{
	if (!s)
		return;
	char *t = one_line(s);
	size_t i = ctx == CTX_PARA ? guard_para_start(sb, t) : 0;
	runs known;
	for (size_t k = 0; k < MAX_RUN; k++)
		known.fails_from[k] = (size_t)-1;
	while (t[i]) {
		char c = t[i];
		size_t r, n;
		if (c == '\\' && t[i + 1] && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", t[i + 1])) {
			strbuf_add(sb, t + i, 2);
			i += 2;
		} else if (c == '`' && (n = code_span(t, i, r = backtick_run(t + i), &known))) {
			for (size_t k = 0; k < n; k++) {
				if (t[i + k] == '|' && ctx == CTX_CELL)
					strbuf_addch(sb, '\\');
				strbuf_addch(sb, t[i + k]);
			}
			i += n;
		} else if (c == '`') {
			strbuf_add(sb, t + i, r);
			i += r;
		} else if (c == '<' && (n = safe_autolink(t + i))) {
			strbuf_add(sb, t + i, n);
			i += n;
		} else if (c == '<' || (c == '|' && ctx == CTX_CELL)) {
			strbuf_addch(sb, '\\');
			strbuf_addch(sb, c);
			i++;
		} else if (c == ']' && t[i + 1] == '(' && !safe_destination(t + i + 2)) {
			strbuf_addstr(sb, "]\\(");
			i += 2;
		} else {
			strbuf_addch(sb, c);
			i++;
		}
	}
	free(t);
}

/* ---- the design's description (block Markdown) ------------------------------------- */

void ddbc_doc_attach_extensions(struct cmark_parser *parser)
{
	cmark_gfm_core_extensions_ensure_registered();
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	if (table)
		cmark_parser_attach_syntax_extension(parser, table);
}

/* Raw HTML becomes text showing it: inline HTML a text node, an HTML block
 * a paragraph of its lines. */
static cmark_node *html_as_text(cmark_node *n)
{
	const char *lit = cmark_node_get_literal(n);
	if (cmark_node_get_type(n) == CMARK_NODE_HTML_INLINE) {
		cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
		cmark_node_set_literal(t, lit);
		return t;
	}
	cmark_node *para = cmark_node_new(CMARK_NODE_PARAGRAPH);
	for (const char *p = lit ? lit : ""; *p;) {
		size_t n1 = strcspn(p, "\n");
		char *line = xstrndup(p, n1);
		cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
		cmark_node_set_literal(t, line);
		free(line);
		cmark_node_append_child(para, t);
		p += n1;
		if (*p == '\n' && *++p)
			cmark_node_append_child(para, cmark_node_new(CMARK_NODE_SOFTBREAK));
	}
	return para;
}

void ddbc_doc_heading_text(cmark_node *h, strbuf *out)
{
	cmark_iter *it = cmark_iter_new(h);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_HTML_INLINE)
			strbuf_addstr(out, cmark_node_get_literal(n));
		else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			strbuf_addch(out, '\n');
	}
	cmark_iter_free(it);
}

/* Cleans the parsed description: raw HTML shown as text, unsafe link and
 * image destinations emptied, headings one level down (the document's
 * title is the only h1), and their ids claimed in document order. */
static void clean_description(cmark_node *root, ddbc_slugger *slugs)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		cmark_node_type t = cmark_node_get_type(n);
		if (ev != CMARK_EVENT_ENTER)
			continue;
		if (t == CMARK_NODE_HTML_INLINE || t == CMARK_NODE_HTML_BLOCK) {
			cmark_node *x = html_as_text(n);
			cmark_node_replace(n, x);
			cmark_node_free(n);
			cmark_iter_reset(it, x, CMARK_EVENT_EXIT);
		} else if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
			const char *url = cmark_node_get_url(n);
			if (url && !ddbc_doc_safe_url(url, strlen(url)))
				cmark_node_set_url(n, "");
		} else if (t == CMARK_NODE_HEADING) {
			int level = cmark_node_get_heading_level(n);
			cmark_node_set_heading_level(n, level < 6 ? level + 1 : 6);
			if (cmark_node_parent(n) == root) {
				strbuf text = STRBUF_INIT;
				ddbc_doc_heading_text(n, &text);
				ddbc_slug(slugs, text.buf ? text.buf : "", text.len);
				strbuf_release(&text);
			}
		}
	}
	cmark_iter_free(it);
}

/* The description, cleaned and written back as CommonMark. */
static char *description_markdown(const char *text, ddbc_slugger *slugs)
{
	cmark_parser *parser = cmark_parser_new(CMARK_OPT_DEFAULT);
	ddbc_doc_attach_extensions(parser);
	cmark_parser_feed(parser, text, strlen(text));
	cmark_node *root = cmark_parser_finish(parser);
	clean_description(root, slugs);
	char *md = cmark_render_commonmark(root, CMARK_OPT_DEFAULT, 0);
	cmark_node_free(root);
	cmark_parser_free(parser);
	return md;
}

/* ---- example items ------------------------------------------------------------------- */

static json_t *node_json(const ddbc_node *n);

static json_t *scalar_json(const ddbc_node *n)
{
	long long i;
	bool b;
	const char *s = n->u.text;
	switch (n->scalar) {
	case DDBC_SCALAR_INT:
		if (ddbc_node_int(n, &i))
			return json_integer(i);
		/* Too large for an integer: a real, like any JSON reader makes it. */
		/* fall through */
	case DDBC_SCALAR_FLOAT: {
		char *end;
		double d = strtod(s, &end);
		if (end != s && !*end && isfinite(d))
			return json_real(d);
		return json_stringn(s, n->n);
	}
	case DDBC_SCALAR_BOOL:
		return json_boolean(ddbc_node_bool(n, &b) && b);
	case DDBC_SCALAR_NULL:
		return json_null();
	case DDBC_SCALAR_STR:
		break;
	}
	json_t *j = json_stringn(s, n->n);
	return j ? j : json_string("");
}

static json_t *node_json(const ddbc_node *n)
{
	if (n->kind == DDBC_NODE_SCALAR)
		return scalar_json(n);
	if (n->kind == DDBC_NODE_SEQ) {
		json_t *a = json_array();
		for (size_t i = 0; i < n->n; i++)
			json_array_append_new(a, node_json(n->u.items[i]));
		return a;
	}
	json_t *o = json_object();
	for (size_t i = 0; i < n->n; i++) {
		const ddbc_node *k = n->u.pairs[i].key;
		if (k->kind == DDBC_NODE_SCALAR)
			json_object_setn_new(o, k->u.text, k->n, node_json(n->u.pairs[i].value));
	}
	return o;
}

/* A JSON code block, fenced by more backticks than the JSON holds in a row. */
static void put_json_block(strbuf *sb, const ddbc_node *item)
{
	json_t *j = node_json(item);
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(j);
	if (!text)
		return;
	size_t longest = 2;
	for (const char *p = text; *p; p++) {
		size_t r = backtick_run(p);
		if (r > longest)
			longest = r;
		p += r ? r - 1 : 0;
	}
	for (size_t i = 0; i <= longest; i++)
		strbuf_addch(sb, '`');
	strbuf_addstr(sb, "json\n");
	strbuf_addstr(sb, text);
	strbuf_addch(sb, '\n');
	for (size_t i = 0; i <= longest; i++)
		strbuf_addch(sb, '`');
	strbuf_addstr(sb, "\n\n");
	free(text);
}

/* ---- the document's skeleton ------------------------------------------------------------ */

/* Each heading's id, computed in document order before anything is
 * written (the table of contents comes first and links to all). */
typedef struct ids {
	const char *title, *contents, *orphans, *patterns;
	const char **table, **indexes, **map;   /* per table */
	const char **entity;                    /* per entity */
	const char **pattern;                   /* per pattern */
} ids;

typedef struct writer {
	ddbc_doc *doc;
	strbuf *sb;
	const ddbc_design *g;
	const labels *L;
	ids id;
} writer;

/* Hands the part written so far to the sink and starts the next one. */
static void hand_over(ddbc_doc *doc)
{
	doc->sink(doc->ctx, doc);
	strbuf_reset(&doc->md);
	doc->nmarks = 0;
	doc->line = doc->counted = 0;
}

/* Parts end before a heading of ddbc's, once they are this long. */
enum { PART_SIZE = 64 * 1024 };

/* Between two rows of a long table or items of a long list: a sink that
 * takes text may have the part so far. */
static void may_split(writer *w)
{
	ddbc_doc *doc = w->doc;
	if (doc->sink && doc->text_parts && doc->md.len >= PART_SIZE)
		hand_over(doc);
}

static void mark(writer *w, ddbc_doc_kind kind, const char *id, size_t rows)
{
	ddbc_doc *doc = w->doc;
	if (doc->sink && id && doc->md.len >= PART_SIZE)
		hand_over(doc);
	for (; doc->counted < doc->md.len; doc->counted++)
		if (doc->md.buf[doc->counted] == '\n')
			doc->line++;
	xgrow((void **)&doc->marks, &doc->cap, doc->nmarks + 1, sizeof(ddbc_doc_mark));
	doc->marks[doc->nmarks++] = (ddbc_doc_mark){ doc->line + 1, kind, id, rows };
}

/* Records id as one of ddbc's own. */
static const char *own_id(ddbc_doc *doc, const char *id)
{
	xgrow((void **)&doc->own, &doc->own_cap, doc->nown + 1, sizeof(char *));
	doc->own[doc->nown++] = id;
	return id;
}

/* The id of a heading "LABEL `name`" (its text is "LABEL name"). */
static const char *named_id(writer *w, const char *label, const char *name)
{
	strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "%s %s", label, name ? name : "");
	for (size_t i = 0; i < text.len; i++)
		if (is_break(text.buf[i]))
			text.buf[i] = ' ';
	const char *id = ddbc_slug(&w->doc->slugs, text.buf, text.len);
	strbuf_release(&text);
	return own_id(w->doc, id);
}

static const char *plain_id(writer *w, const char *text)
{
	return own_id(w->doc, ddbc_slug(&w->doc->slugs, text, strlen(text)));
}

static size_t table_no(const writer *w, const ddbc_table *t)
{
	return (size_t)(t - w->g->tables);
}

static size_t entity_no(const writer *w, const ddbc_entity *e)
{
	return (size_t)(e - w->g->entities);
}

static bool has_orphans(const ddbc_design *g)
{
	for (size_t i = 0; i < g->nentities; i++)
		if (!g->entities[i].table)
			return true;
	return false;
}

static void assign_ids(writer *w)
{
	const ddbc_design *g = w->g;
	const labels *L = w->L;
	ids *id = &w->id;
	id->table = xcalloc(g->ntables + 1, sizeof(char *));
	id->indexes = xcalloc(g->ntables + 1, sizeof(char *));
	id->map = xcalloc(g->ntables + 1, sizeof(char *));
	id->entity = xcalloc(g->nentities + 1, sizeof(char *));
	id->pattern = xcalloc(g->npatterns + 1, sizeof(char *));
	id->contents = plain_id(w, L->contents);
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		id->table[i] = named_id(w, L->table, t->name.s);
		id->indexes[i] = plain_id(w, L->indexes);
		id->map[i] = plain_id(w, L->index_map);
		for (size_t k = 0; k < t->nentities; k++)
			id->entity[entity_no(w, t->entities[k])] =
				named_id(w, L->entity, t->entities[k]->name.s);
	}
	if (has_orphans(g)) {
		id->orphans = plain_id(w, L->orphans);
		for (size_t i = 0; i < g->nentities; i++)
			if (!g->entities[i].table)
				id->entity[i] = named_id(w, L->entity, g->entities[i].name.s);
	}
	if (g->npatterns) {
		id->patterns = plain_id(w, L->patterns);
		for (size_t i = 0; i < g->npatterns; i++)
			id->pattern[i] = named_id(w, L->pattern, g->patterns[i].id.s);
	}
}

static void free_ids(ids *id)
{
	free(id->table);
	free(id->indexes);
	free(id->map);
	free(id->entity);
	free(id->pattern);
}

/* "## LABEL `name`" */
static void named_heading(writer *w, int level, ddbc_doc_kind kind, const char *id,
			  const char *label, const char *name)
{
	mark(w, kind, id, 0);
	for (int i = 0; i < level; i++)
		strbuf_addch(w->sb, '#');
	strbuf_addf(w->sb, " %s ", label);
	put_code(w->sb, name ? name : "", CTX_LINE);
	strbuf_addstr(w->sb, "\n\n");
}

static void plain_heading(writer *w, int level, ddbc_doc_kind kind, const char *id,
			  const char *text)
{
	mark(w, kind, id, 0);
	for (int i = 0; i < level; i++)
		strbuf_addch(w->sb, '#');
	strbuf_addf(w->sb, " %s\n\n", text);
}

static void paragraph(writer *w, const char *markdown)
{
	if (!markdown || !*markdown)
		return;
	put_inline(w->sb, markdown, CTX_PARA);
	strbuf_addstr(w->sb, "\n\n");
}

/* A link "[LABEL `name`](#id)" or "[name](#id)". */
static void link(strbuf *sb, const char *label, const char *name, const char *id, enum ctx ctx)
{
	if (!id) {
		put_text(sb, name);
		return;
	}
	strbuf_addch(sb, '[');
	if (label) {
		strbuf_addf(sb, "%s ", label);
		put_code(sb, name ? name : "", ctx);
	} else {
		put_text(sb, name);
	}
	strbuf_addf(sb, "](#%s)", id);
}

static void table_header(strbuf *sb, const char *const *cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "| %s ", cols[i]);
	strbuf_addstr(sb, "|\n");
	for (size_t i = 0; i < n; i++)
		strbuf_addstr(sb, "|---");
	strbuf_addstr(sb, "|\n");
}

/* ---- title and contents ------------------------------------------------------------------ */

static void write_title(writer *w, const char *desc_md)
{
	const ddbc_design *g = w->g;
	mark(w, DDBC_DOC_TITLE, w->id.title, 0);
	strbuf_addstr(w->sb, "# ");
	put_text(w->sb, g->name.s ? g->name.s : w->L->title_suffix);
	strbuf_addstr(w->sb, "\n\n");
	if (desc_md && *desc_md) {
		strbuf_addstr(w->sb, desc_md);
		strbuf_addch(w->sb, '\n');
	}
}

static void toc_entities(writer *w, const ddbc_entity *const *list, size_t n, bool orphans)
{
	for (size_t k = 0; k < n; k++) {
		const ddbc_entity *e = list[k];
		if (orphans && e->table)
			continue;
		strbuf_addstr(w->sb, "  - ");
		link(w->sb, w->L->entity, e->name.s, w->id.entity[entity_no(w, e)], CTX_LINE);
		strbuf_addch(w->sb, '\n');
		may_split(w);
	}
}

static void write_contents(writer *w)
{
	const ddbc_design *g = w->g;
	const labels *L = w->L;
	plain_heading(w, 2, DDBC_DOC_CONTENTS, w->id.contents, L->contents);
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		strbuf_addstr(w->sb, "- ");
		link(w->sb, L->table, t->name.s, w->id.table[i], CTX_LINE);
		strbuf_addch(w->sb, '\n');
		toc_entities(w, (const ddbc_entity *const *)t->entities, t->nentities, false);
	}
	if (w->id.orphans) {
		strbuf_addf(w->sb, "- [%s](#%s)\n", L->orphans, w->id.orphans);
		for (size_t i = 0; i < g->nentities; i++) {
			const ddbc_entity *e = &g->entities[i];
			toc_entities(w, &e, 1, true);
		}
	}
	if (w->id.patterns) {
		strbuf_addf(w->sb, "- [%s](#%s)\n", L->patterns, w->id.patterns);
		for (size_t i = 0; i < g->npatterns; i++) {
			strbuf_addstr(w->sb, "  - ");
			link(w->sb, NULL, g->patterns[i].id.s, w->id.pattern[i], CTX_LINE);
			strbuf_addch(w->sb, '\n');
			may_split(w);
		}
	}
	strbuf_addch(w->sb, '\n');
}

/* ---- tables: keys, indexes, index map ------------------------------------------------------- */

/* "PK (String)", or the names of a multi-attribute key in order. */
static void put_key(writer *w, const ddbc_table *t, const ddbc_name *names, size_t n)
{
	if (!n) {
		strbuf_addstr(w->sb, w->L->no_key);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (i)
			strbuf_addstr(w->sb, w->L->sep);
		put_text(w->sb, names[i].s);
		ddbc_type ty = names[i].s ? ddbc_table_key_type(t, names[i].s) : DDBC_TYPE_NONE;
		if (ty != DDBC_TYPE_NONE)
			strbuf_addf(w->sb, "%s%s%s", w->L->open, ddbc_type_long(ty), w->L->close);
	}
}

static void put_projection(writer *w, const ddbc_index *ix)
{
	if (ix->kind == DDBC_INDEX_PRIMARY) {
		strbuf_addstr(w->sb, w->L->no_key);
		return;
	}
	if (ix->projection == DDBC_PROJ_ALL) {
		strbuf_addstr(w->sb, "ALL");
	} else if (ix->projection == DDBC_PROJ_KEYS_ONLY) {
		strbuf_addstr(w->sb, "KEYS\\_ONLY");
	} else {
		strbuf_addstr(w->sb, "INCLUDE: ");
		for (size_t i = 0; i < ix->ninclude; i++) {
			if (i)
				strbuf_addstr(w->sb, w->L->sep);
			put_text(w->sb, ix->include[i].s);
		}
	}
}

static void index_row(writer *w, const ddbc_table *t, const ddbc_index *ix)
{
	strbuf *sb = w->sb;
	strbuf_addstr(sb, "| ");
	put_text(sb, ix->name.s);
	strbuf_addf(sb, " | %s", w->L->kind[ix->kind]);
	if (ix->capacity.set) {
		strbuf_addstr(sb, w->L->open);
		strbuf_addf(sb, w->L->capacity, ix->capacity.read, ix->capacity.write);
		strbuf_addstr(sb, w->L->close);
	}
	strbuf_addstr(sb, " | ");
	put_key(w, t, ix->pk, ix->npk);
	strbuf_addstr(sb, " | ");
	put_key(w, t, ix->sk, ix->nsk);
	strbuf_addstr(sb, " | ");
	put_projection(w, ix);
	strbuf_addstr(sb, " | ");
	if (ix->kind != DDBC_INDEX_PRIMARY)
		put_inline(sb, ix->description, CTX_CELL);
	strbuf_addstr(sb, " |\n");
}

/* "Billing: on demand · TTL: `expiresAt`" */
static void table_facts(writer *w, const ddbc_table *t)
{
	const labels *L = w->L;
	strbuf *sb = w->sb;
	strbuf_addf(sb, "**%s**: ", L->billing);
	if (t->billing == DDBC_BILLING_PROVISIONED) {
		strbuf_addstr(sb, L->provisioned);
		if (t->capacity.set) {
			strbuf_addstr(sb, L->open);
			strbuf_addf(sb, L->capacity, t->capacity.read, t->capacity.write);
			strbuf_addstr(sb, L->close);
		}
	} else {
		strbuf_addstr(sb, L->on_demand);
	}
	if (t->ttl.s) {
		strbuf_addf(sb, " · **%s**: ", L->ttl);
		put_code(sb, t->ttl.s, CTX_LINE);
	}
	strbuf_addstr(sb, "\n\n");
}

/* The value an entity writes into key attribute name: its template, or
 * "{name}" for the attribute's own value. */
static void put_key_value(writer *w, const ddbc_entity *e, const char *name)
{
	const ddbc_attr *a = name ? ddbc_entity_attr(e, name) : NULL;
	if (a && a->template.s) {
		put_code(w->sb, a->template.s, CTX_CELL);
		return;
	}
	strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "{%s}", name ? name : "");
	put_code(w->sb, text.buf, CTX_CELL);
	strbuf_release(&text);
}

static void map_cell(writer *w, const ddbc_entity *e, const ddbc_index *ix)
{
	if (!e->in_index || !e->in_index[ix->slot]) {
		strbuf_addstr(w->sb, "—");
		return;
	}
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		if (i)
			strbuf_addstr(w->sb, i == ix->npk ? " · " : ", ");
		put_key_value(w, e, i < ix->npk ? ix->pk[i].s : ix->sk[i - ix->npk].s);
	}
}

static void write_index_map(writer *w, const ddbc_table *t)
{
	strbuf *sb = w->sb;
	plain_heading(w, 3, DDBC_DOC_INDEX_MAP, w->id.map[table_no(w, t)], w->L->index_map);
	if (!t->nentities) {
		paragraph(w, w->L->no_entities);
		return;
	}
	paragraph(w, w->L->map_intro);
	mark(w, DDBC_DOC_MAP_TABLE, NULL, t->nentities);
	strbuf_addf(sb, "| %s ", w->L->map_first);
	for (size_t s = 0; s < t->nindexes; s++) {
		strbuf_addstr(sb, "| ");
		put_text(sb, t->indexes[s]->name.s);
		strbuf_addch(sb, ' ');
	}
	strbuf_addstr(sb, "|\n");
	for (size_t s = 0; s <= t->nindexes; s++)
		strbuf_addstr(sb, "|---");
	strbuf_addstr(sb, "|\n");
	for (size_t k = 0; k < t->nentities; k++) {
		const ddbc_entity *e = t->entities[k];
		strbuf_addstr(sb, "| ");
		link(sb, NULL, e->name.s, w->id.entity[entity_no(w, e)], CTX_CELL);
		for (size_t s = 0; s < t->nindexes; s++) {
			strbuf_addstr(sb, " | ");
			map_cell(w, e, t->indexes[s]);
		}
		strbuf_addstr(sb, " |\n");
	}
	strbuf_addch(sb, '\n');
}

/* ---- entities ------------------------------------------------------------------------ */

/* "sort key", or "sort key 2/3" in a multi-attribute key. */
static void put_role(writer *w, const ddbc_attr *a, const ddbc_index *ix, ddbc_role role)
{
	strbuf_addstr(w->sb, w->L->role[role]);
	const ddbc_name *names = role == DDBC_ROLE_PARTITION_KEY ? ix->pk : ix->sk;
	size_t n = role == DDBC_ROLE_PARTITION_KEY ? ix->npk : ix->nsk;
	if (role == DDBC_ROLE_PROJECTED || n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		if (names[i].s && !strcmp(names[i].s, a->name.s))
			strbuf_addf(w->sb, " %zu/%zu", i + 1, n);
}

/* "GSI1 (partition key), GSI2 (projected)": the derived roles. */
static void inclusion_cell(writer *w, const ddbc_attr *a, ddbc_index_kind kind)
{
	const ddbc_table *t = a->entity->table;
	if (!t || !a->roles)
		return;
	bool first = true;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		if (ix->kind != kind || a->roles[s] == DDBC_ROLE_NONE)
			continue;
		if (!first)
			strbuf_addstr(w->sb, w->L->sep);
		first = false;
		put_text(w->sb, ix->name.s);
		strbuf_addstr(w->sb, w->L->open);
		put_role(w, a, ix, a->roles[s]);
		strbuf_addstr(w->sb, w->L->close);
	}
}

static void put_scalar_code(strbuf *sb, const ddbc_node *v, enum ctx ctx)
{
	if (v && v->kind == DDBC_NODE_SCALAR)
		put_code(sb, v->u.text, ctx);
}

/* Format: the template, then the free-text format, then the enum. */
static void format_cell(writer *w, const ddbc_attr *a)
{
	strbuf *sb = w->sb;
	const char *sep = "";
	if (a->template.s && *a->template.s) {
		put_code(sb, a->template.s, CTX_CELL);
		sep = "; ";
	}
	if (a->format && *a->format) {
		strbuf_addstr(sb, sep);
		put_text(sb, a->format);
		sep = "; ";
	}
	if (a->nenum) {
		strbuf_addstr(sb, sep);
		for (size_t i = 0; i < a->nenum; i++) {
			if (i)
				strbuf_addstr(sb, " \\| ");
			put_scalar_code(sb, a->enum_values[i], CTX_CELL);
		}
	}
}

static void attr_row(writer *w, const ddbc_attr *a)
{
	strbuf *sb = w->sb;
	strbuf_addstr(sb, "| ");
	put_text(sb, a->name.s);
	strbuf_addf(sb, " | %s | ", a->type != DDBC_TYPE_NONE ? ddbc_type_long(a->type) : "");
	put_inline(sb, a->description, CTX_CELL);
	strbuf_addstr(sb, " | ");
	format_cell(w, a);
	strbuf_addstr(sb, " | ");
	inclusion_cell(w, a, DDBC_INDEX_GSI);
	strbuf_addstr(sb, " | ");
	inclusion_cell(w, a, DDBC_INDEX_LSI);
	strbuf_addstr(sb, " |\n");
}

static void write_entity(writer *w, const ddbc_entity *e)
{
	named_heading(w, 3, DDBC_DOC_ENTITY, w->id.entity[entity_no(w, e)], w->L->entity,
		      e->name.s);
	paragraph(w, e->description);
	mark(w, DDBC_DOC_ATTR_TABLE, NULL, e->nattrs);
	table_header(w->sb, w->L->attr_cols, 6);
	for (size_t i = 0; i < e->nattrs; i++)
		attr_row(w, &e->attrs[i]);
	strbuf_addch(w->sb, '\n');
	if (!e->nexamples)
		return;
	paragraph(w, e->nexamples > 1 ? w->L->examples : w->L->example);
	for (size_t i = 0; i < e->nexamples; i++)
		put_json_block(w->sb, e->examples[i]);
}

static void write_table(writer *w, const ddbc_table *t)
{
	size_t no = table_no(w, t);
	named_heading(w, 2, DDBC_DOC_TABLE, w->id.table[no], w->L->table, t->name.s);
	paragraph(w, t->description);
	table_facts(w, t);
	plain_heading(w, 3, DDBC_DOC_INDEXES, w->id.indexes[no], w->L->indexes);
	mark(w, DDBC_DOC_INDEX_TABLE, NULL, t->nindexes);
	table_header(w->sb, w->L->index_cols, 6);
	for (size_t s = 0; s < t->nindexes; s++)
		index_row(w, t, t->indexes[s]);
	strbuf_addch(w->sb, '\n');
	write_index_map(w, t);
	for (size_t k = 0; k < t->nentities; k++)
		write_entity(w, t->entities[k]);
}

/* ---- access patterns ------------------------------------------------------------------ */

static const char *api_name(ddbc_operation op)
{
	static const char *const names[] = { "GetItem", "Query", "Scan", "PutItem", "UpdateItem",
					     "DeleteItem" };
	return names[op];
}

/* "GSI1PK = `X` AND begins_with(GSI1SK, `Y`)", as a KeyConditionExpression reads. */
static void put_key_condition(writer *w, const ddbc_pattern *p, enum ctx ctx)
{
	static const char *const ops[] = { "=", "\\<", "\\<=", ">", ">=" };
	strbuf *sb = w->sb;
	if (!p->nconds) {
		strbuf_addstr(sb, w->L->no_key);
		return;
	}
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		if (i)
			strbuf_addstr(sb, " AND ");
		if (c->op == DDBC_COND_BEGINS_WITH) {
			strbuf_addstr(sb, "begins\\_with(");
			put_text(sb, c->attr.s);
			strbuf_addstr(sb, ", ");
			put_scalar_code(sb, c->nvalues ? c->values[0] : NULL, ctx);
			strbuf_addch(sb, ')');
			continue;
		}
		put_text(sb, c->attr.s);
		if (c->op == DDBC_COND_BETWEEN) {
			strbuf_addstr(sb, " BETWEEN ");
			put_scalar_code(sb, c->nvalues > 0 ? c->values[0] : NULL, ctx);
			strbuf_addstr(sb, " AND ");
			put_scalar_code(sb, c->nvalues > 1 ? c->values[1] : NULL, ctx);
			continue;
		}
		strbuf_addf(sb, " %s ", ops[c->op]);
		put_scalar_code(sb, c->nvalues ? c->values[0] : NULL, ctx);
	}
}

/* The table, or "GSI1", with the table's name when the design has several. */
static void put_index(writer *w, const ddbc_pattern *p)
{
	strbuf *sb = w->sb;
	if (!p->table) {
		put_text(sb, p->index_ref.s);
		return;
	}
	const ddbc_index *ix = p->index;
	if (!ix || ix->kind == DDBC_INDEX_PRIMARY) {
		if (w->g->ntables > 1)
			put_text(sb, p->table->name.s);
		else
			strbuf_addstr(sb, w->L->base_table);
		return;
	}
	put_text(sb, ix->name.s);
	if (w->g->ntables > 1) {
		strbuf_addstr(sb, w->L->open);
		put_text(sb, p->table->name.s);
		strbuf_addstr(sb, w->L->close);
	}
}

/* The entities the key condition returns (derived), linked. */
static void put_pattern_entities(writer *w, const ddbc_pattern *p, enum ctx ctx)
{
	strbuf *sb = w->sb;
	if (!p->analysed) {
		for (size_t i = 0; i < p->nentities; i++) {
			if (i)
				strbuf_addstr(sb, w->L->sep);
			put_text(sb, p->entities[i].s);
		}
		return;
	}
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_entity *e = p->matched[i];
		if (i)
			strbuf_addstr(sb, w->L->sep);
		link(sb, NULL, e->name.s, w->id.entity[entity_no(w, e)], ctx);
	}
}

static void pattern_row(writer *w, size_t no, const ddbc_pattern *p)
{
	strbuf *sb = w->sb;
	strbuf_addf(sb, "| %zu | ", no + 1);
	link(sb, NULL, p->id.s, w->id.pattern[no], CTX_CELL);
	if (p->description) {
		strbuf_addstr(sb, ": ");
		put_inline(sb, p->description, CTX_CELL);
	}
	strbuf_addf(sb, " | %s | ", api_name(p->operation));
	put_index(w, p);
	strbuf_addstr(sb, " | ");
	put_key_condition(w, p, CTX_CELL);
	strbuf_addstr(sb, " | ");
	put_pattern_entities(w, p, CTX_CELL);
	strbuf_addstr(sb, " |\n");
}

static void item(writer *w, const char *label)
{
	strbuf_addf(w->sb, "- **%s**: ", label);
}

static void pattern_extras(writer *w, const ddbc_pattern *p)
{
	const labels *L = w->L;
	strbuf *sb = w->sb;
	if (p->order) {
		item(w, L->d_order);
		strbuf_addf(sb, "%s (ScanIndexForward = %s)\n", p->order > 0 ? L->asc : L->desc,
			    p->order > 0 ? "true" : "false");
	}
	if (p->consistent_read) {
		item(w, L->d_consistent);
		strbuf_addf(sb, "%s\n", L->yes);
	}
	if (p->nreturns) {
		item(w, L->d_returns);
		for (size_t i = 0; i < p->nreturns; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			put_code(sb, p->returns[i].s, CTX_LINE);
		}
		strbuf_addch(sb, '\n');
	}
	if (p->condition) {
		item(w, L->d_condition);
		put_code(sb, p->condition, CTX_LINE);
		strbuf_addch(sb, '\n');
	}
}

static void pattern_params(writer *w, const ddbc_pattern *p)
{
	const ddbc_node *ex = p->example;
	if (!ex || ex->kind != DDBC_NODE_MAP || !ex->n)
		return;
	item(w, w->L->d_params);
	for (size_t i = 0; i < ex->n; i++) {
		if (i)
			strbuf_addstr(w->sb, ", ");
		put_scalar_code(w->sb, ex->u.pairs[i].key, CTX_LINE);
		strbuf_addstr(w->sb, " = ");
		put_scalar_code(w->sb, ex->u.pairs[i].value, CTX_LINE);
	}
	strbuf_addch(w->sb, '\n');
}

static void write_pattern(writer *w, size_t no, const ddbc_pattern *p)
{
	const labels *L = w->L;
	strbuf *sb = w->sb;
	named_heading(w, 3, DDBC_DOC_PATTERN, w->id.pattern[no], L->pattern, p->id.s);
	paragraph(w, p->description);
	if (p->table) {
		item(w, L->d_table);
		link(sb, NULL, p->table->name.s, w->id.table[table_no(w, p->table)], CTX_LINE);
		strbuf_addch(sb, '\n');
	}
	item(w, L->d_index);
	put_index(w, p);
	strbuf_addch(sb, '\n');
	item(w, L->d_operation);
	strbuf_addf(sb, "%s\n", api_name(p->operation));
	item(w, L->d_key);
	put_key_condition(w, p, CTX_LINE);
	strbuf_addch(sb, '\n');
	pattern_extras(w, p);
	item(w, L->d_entities);
	put_pattern_entities(w, p, CTX_LINE);
	strbuf_addch(sb, '\n');
	pattern_params(w, p);
	strbuf_addch(sb, '\n');
}

static void write_patterns(writer *w)
{
	const ddbc_design *g = w->g;
	if (!g->npatterns)
		return;
	plain_heading(w, 2, DDBC_DOC_PATTERNS, w->id.patterns, w->L->patterns);
	mark(w, DDBC_DOC_PATTERN_TABLE, NULL, g->npatterns);
	table_header(w->sb, w->L->pattern_cols, 6);
	for (size_t i = 0; i < g->npatterns; i++) {
		pattern_row(w, i, &g->patterns[i]);
		may_split(w);
	}
	strbuf_addch(w->sb, '\n');
	for (size_t i = 0; i < g->npatterns; i++)
		write_pattern(w, i, &g->patterns[i]);
}

/* ---- the document ------------------------------------------------------------------------ */

static void write_orphans(writer *w)
{
	if (!w->id.orphans)
		return;
	plain_heading(w, 2, DDBC_DOC_OTHER, w->id.orphans, w->L->orphans);
	for (size_t i = 0; i < w->g->nentities; i++)
		if (!w->g->entities[i].table)
			write_entity(w, &w->g->entities[i]);
}

void ddbc_doc_write(ddbc_doc *doc, const ddbc_design *g, ddbc_lang_id lang,
		    ddbc_doc_sink *sink, void *ctx, bool text_parts)
{
	memset(doc, 0, sizeof(*doc));
	ddbc_slugger_init(&doc->slugs);
	doc->sink = sink;
	doc->ctx = ctx;
	doc->text_parts = text_parts;
	writer w = { doc, &doc->md, g, lang == DDBC_LANG_JA ? &labels_ja : &labels_en, { 0 } };

	const char *name = g->name.s ? g->name.s : "";
	strbuf title = STRBUF_INIT;
	strbuf_addf(&title, "%s — %s", name, w.L->title_suffix);
	doc->title = strbuf_detach(&title);

	char *name_line = one_line(name);
	w.id.title = own_id(doc, ddbc_slug(&doc->slugs, name_line, strlen(name_line)));
	free(name_line);
	char *desc = g->description ? description_markdown(g->description, &doc->slugs) : NULL;
	assign_ids(&w);

	write_title(&w, desc);
	free(desc);
	write_contents(&w);
	for (size_t i = 0; i < g->ntables; i++)
		write_table(&w, &g->tables[i]);
	write_orphans(&w);
	write_patterns(&w);
	free_ids(&w.id);
	if (sink)
		hand_over(doc);
}

void ddbc_doc_release(ddbc_doc *doc)
{
	strbuf_release(&doc->md);
	free(doc->marks);
	free(doc->title);
	free(doc->own);
	ddbc_slugger_release(&doc->slugs);
	memset(doc, 0, sizeof(*doc));
}

static void write_part(void *ctx, const ddbc_doc *doc)
{
	fwrite(strbuf_str(&doc->md), 1, doc->md.len, ctx);
}

int ddbc_emit_md(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o, ddbc_diags *d)
{
	(void)d;
	ddbc_doc doc;
	ddbc_doc_write(&doc, g, o ? o->lang : DDBC_LANG_EN, write_part, out, true);
	ddbc_doc_release(&doc);
	return DDBC_EMIT_OK;
}
