/* doc_json.c - example items and values as JSON
 *
 * An item's JSON is written straight from its packed value, in exactly the
 * bytes jansson's json_dumps(JSON_INDENT(2) | JSON_PRESERVE_ORDER) gave for
 * the tree node_json builds (below), and a value's as JSON_COMPACT gave
 * them, without building that tree: a tree and its dump took some 37,000
 * instructions an example, the bulk of a large design's doc. A value this
 * writer cannot be sure of (text that is no UTF-8, a key twice, a number
 * jansson would keep marked) goes through the tree, so the output never
 * depends on which path wrote it.
 */
#include "emit/doc_json.h"
#include "emit/emit_json.h"
#include "model/node.h"
#include "util/decimal.h"
#include "util/strbuf.h"
#include "util/utf8.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *node_json(const ddbc_pval *n);

static json_t *scalar_json(const ddbc_pval *n)
{
	long long i;
	bool b;
	const char *s = ddbc_pval_text(n);
	switch (ddbc_pval_scalar(n)) {
	case DDBC_SCALAR_INT:
		if (ddbc_pval_int(n, &i))
			return json_integer(i);
		/* Too large for an integer: a real, like any JSON reader makes it. */
		/* fall through */
	case DDBC_SCALAR_FLOAT:
		/* The number's own digits, never a double's. */
		if (ddbc_decimal_valid(s, ddbc_pval_n(n)))
			return ddbc_json_number(s, ddbc_pval_n(n));
		return json_stringn(s, ddbc_pval_n(n));
	case DDBC_SCALAR_BOOL:
		return json_boolean(ddbc_pval_bool(n, &b) && b);
	case DDBC_SCALAR_NULL:
		return json_null();
	case DDBC_SCALAR_STR:
		break;
	}
	json_t *j = json_stringn(s, ddbc_pval_n(n));
	return j ? j : json_string("");
}

static json_t *node_json(const ddbc_pval *n)
{
	if (ddbc_pval_kind(n) == DDBC_NODE_SCALAR)
		return scalar_json(n);
	ddbc_pval_iter it = ddbc_pval_members(n);
	const ddbc_pval *k, *v;
	if (ddbc_pval_kind(n) == DDBC_NODE_SEQ) {
		json_t *a = json_array();
		while (ddbc_pval_item(&it, &v))
			json_array_append_new(a, node_json(v));
		return a;
	}
	json_t *o = json_object();
	while (ddbc_pval_pair(&it, &k, &v))
		if (ddbc_pval_kind(k) == DDBC_NODE_SCALAR)
			json_object_setn_new(o, ddbc_pval_text(k), ddbc_pval_n(k), node_json(v));
	return o;
}

/* ---- the same text, written directly ---------------------------------------------------- */

typedef struct {
	strbuf *out;
	strbuf num;      /* a number's JSON digits */
	bool escaped;    /* a control character was escaped: marks may need undoing */
	bool unsure;     /* met what only the tree writes for sure */
	bool compact;    /* JSON_COMPACT: no line breaks or spaces */
} direct;

static void put_indent(direct *d, int depth)
{
	if (!d->compact)
		ddbc_json_put_newline(d->out, depth);
}

/* False when the text is no UTF-8, which jansson would not have taken. */
static bool put_string(direct *d, const char *s, size_t len)
{
	if (!ddbc_utf8_valid(s, len))
		return false;
	if (ddbc_json_put_string(d->out, s, len))
		d->escaped = true;
	return true;
}

/* An integer as jansson's "%lld". */
static void put_int(direct *d, long long v)
{
	char digits[24], *p = digits + sizeof(digits);
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10));
	if (v < 0)
		*--p = '-';
	ddbc_strbuf_add(d->out, p, (size_t)(digits + sizeof(digits) - p));
}

/* A number with its own digits: ddbc_json_number's marked string, which
 * ddbc_json_unmark turns into the bare digits when they are a decimal. */
static void put_number(direct *d, const char *s, size_t len)
{
	ddbc_strbuf_reset(&d->num);
	ddbc_decimal_json(&d->num, s, len);
	if (ddbc_decimal_valid(d->num.buf, d->num.len))
		ddbc_strbuf_add(d->out, d->num.buf, d->num.len);
	else
		d->unsure = true;
}

/* scalar_json's value, as jansson writes it. */
static void put_scalar(direct *d, const ddbc_pval *n)
{
	long long i;
	bool b;
	uint32_t len;
	const char *s = ddbc_pval_str(n, &len);
	switch (ddbc_pval_scalar(n)) {
	case DDBC_SCALAR_INT:
		if (ddbc_pval_int(n, &i)) {
			put_int(d, i);
			return;
		}
		/* fall through */
	case DDBC_SCALAR_FLOAT:
		if (ddbc_decimal_valid(s, len)) {
			put_number(d, s, len);
			return;
		}
		break;
	case DDBC_SCALAR_BOOL:
		ddbc_strbuf_addstr(d->out, ddbc_pval_bool(n, &b) && b ? "true" : "false");
		return;
	case DDBC_SCALAR_NULL:
		ddbc_strbuf_add(d->out, "null", 4);
		return;
	case DDBC_SCALAR_STR:
		break;
	}
	if (!put_string(d, s, len))
		d->unsure = true;   /* jansson's value would be "" or none */
}

/* Whether a key of mapping map comes twice: jansson's object would keep
 * the first place and the last value. The loader drops repeated keys, so
 * this only makes sure. */
static bool repeated_key(const ddbc_pval *map)
{
	ddbc_pval_iter it = ddbc_pval_members(map);
	const ddbc_pval *k, *v;
	if (ddbc_pval_n(map) > DDBC_NODE_INDEX_MIN) {
		/* A wide mapping's look-up is a binary search: a key met twice
		 * finds the same value both times. */
		while (ddbc_pval_pair(&it, &k, &v)) {
			uint32_t len;
			const char *s = ddbc_pval_str(k, &len);
			if (strlen(s) != len || ddbc_pval_get(map, s) != v)
				return true;
		}
		return false;
	}
	const ddbc_pval *keys[DDBC_NODE_INDEX_MIN];
	uint32_t lens[DDBC_NODE_INDEX_MIN];
	size_t n = 0;
	while (ddbc_pval_pair(&it, &k, &v)) {
		const char *s = ddbc_pval_str(k, &lens[n]);
		for (size_t j = 0; j < n; j++)
			if (lens[j] == lens[n] && !memcmp(ddbc_pval_text(keys[j]), s, lens[n]))
				return true;
		keys[n++] = k;
	}
	return false;
}

/* jansson's dump of node_json(n) at depth. */
static void put_value(direct *d, const ddbc_pval *n, int depth)
{
	ddbc_node_kind kind = ddbc_pval_kind(n);
	if (kind == DDBC_NODE_SCALAR) {
		put_scalar(d, n);
		return;
	}
	ddbc_pval_iter it = ddbc_pval_members(n);
	const ddbc_pval *k, *v;
	bool first = true;
	if (kind == DDBC_NODE_SEQ) {
		if (!ddbc_pval_n(n)) {
			ddbc_strbuf_add(d->out, "[]", 2);
			return;
		}
		ddbc_strbuf_addch(d->out, '[');
		while (ddbc_pval_item(&it, &v)) {
			if (!first)
				ddbc_strbuf_addch(d->out, ',');
			put_indent(d, depth + 1);
			put_value(d, v, depth + 1);
			first = false;
		}
		put_indent(d, depth);
		ddbc_strbuf_addch(d->out, ']');
		return;
	}
	if (!ddbc_pval_n(n)) {
		ddbc_strbuf_add(d->out, "{}", 2);
		return;
	}
	if (repeated_key(n)) {
		d->unsure = true;
		return;
	}
	ddbc_strbuf_addch(d->out, '{');
	while (ddbc_pval_pair(&it, &k, &v)) {
		uint32_t len;
		const char *s = ddbc_pval_str(k, &len);
		if (!first)
			ddbc_strbuf_addch(d->out, ',');
		put_indent(d, depth + 1);
		if (!put_string(d, s, len)) {
			d->unsure = true;   /* jansson would have left the member out */
			return;
		}
		ddbc_strbuf_add(d->out, ": ", d->compact ? 1 : 2);
		put_value(d, v, depth + 1);
		first = false;
	}
	put_indent(d, depth);
	ddbc_strbuf_addch(d->out, '}');
}

/* jansson's text of the tree with flags, as the writers below wrote it
 * first. */
static char *tree_json(const ddbc_pval *item, size_t flags)
{
	json_t *j = node_json(item);
	char *text = json_dumps(j, flags);
	json_decref(j);
	if (text)
		text[ddbc_json_unmark(text, strlen(text))] = '\0';
	return text;
}

/* The text json_dumps(node_json(v), flags) gives, unmarked; written
 * directly unless the writer is unsure of v. */
static char *value_text(const ddbc_pval *v, size_t flags)
{
	strbuf out = STRBUF_INIT;
	direct d = { .out = &out, .num = STRBUF_INIT, .compact = flags & JSON_COMPACT };
	put_value(&d, v, 0);
	ddbc_strbuf_release(&d.num);
	if (d.unsure) {
		ddbc_strbuf_release(&out);
		return tree_json(v, flags);
	}
	/* A string that held the marks' control characters is read back as
	 * ddbc_json_unmark reads jansson's text of it. */
	if (d.escaped) {
		out.len = ddbc_json_unmark(out.buf, out.len);
		out.buf[out.len] = '\0';
	}
	return ddbc_strbuf_detach(&out);
}

char *ddbc_doc_example_json(const ddbc_pval *item)
{
	/* json_dumps writes only an object or an array. */
	if (ddbc_pval_kind(item) == DDBC_NODE_SCALAR)
		return NULL;
	return value_text(item, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
}

char *ddbc_doc_value_json(const ddbc_pval *value)
{
	return value_text(value, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
}
