/* emit_json.c - CreateTable requests, and what the JSON emitters share
 *
 * `ddbc export --format create-table` writes one CreateTable request per
 * table, as `aws dynamodb create-table --cli-input-json` and the SDKs take
 * it. DynamoDB rejects an AttributeDefinitions entry that no key uses, so
 * the definitions are exactly the key attributes of the table and its
 * indexes. A multi-attribute GSI key is the API's flat KeySchema: every
 * HASH element, then every RANGE element, each group in key order.
 * The model and the query requests are in emit_json_model.c and
 * emit_json_queries.c.
 */
#include "emit/emit.h"
#include "model/request.h"
#include "emit/emit_json.h"
#include "model/reserved.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/error.h"
#include "util/json_number.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared ---------------------------------------------------------------------- */

/* ---- streaming ------------------------------------------------------------------------ */

#define VALUE_ROOM 4096
#define DUMP_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | JSON_ENCODE_ANY)
#define COMPACT_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15) | \
		       JSON_ENCODE_ANY)

void ddbc_json_stream_init(ddbc_json_stream *s, FILE *out)
{
	memset(s, 0, sizeof(*s));
	s->out = out;
}

void ddbc_json_stream_layout(ddbc_json_stream *s, const ddbc_export_opts *o)
{
	s->compact = o && o->compact;
}

/* The text collects in s->buf and goes out 64 KiB at a time: a large
 * design's model is millions of short lines. */
static void flush_some(ddbc_json_stream *s, bool all)
{
	if (s->buf.len < (all ? 1 : 65536))
		return;
	/* A write error is the output's to say (util/output.h keeps it, with
	 * its reason, and the commit refuses the result). */
	fwrite(s->buf.buf, 1, s->buf.len, s->out);
	ddbc_strbuf_reset(&s->buf);
}

/* Two spaces a level, added in one copy (a model is millions of lines,
 * each indented). */
static void indent(ddbc_json_stream *s, int depth)
{
	static const char spaces[] = "                                                                ";
	size_t n = 2 * (size_t)depth;
	while (n) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		ddbc_strbuf_add(&s->buf, spaces, k);
		n -= k;
	}
}

/* Adds the text of one value, its lines moved right by the depth it is
 * written at (JSON text holds no raw line break but those of the layout). */
static void add_indented(ddbc_json_stream *s, const char *text, size_t len)
{
	const char *p = text, *end = text + len, *nl;
	while ((nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		ddbc_strbuf_add(&s->buf, p, (size_t)(nl - p + 1));
		indent(s, s->depth);
		p = nl + 1;
	}
	ddbc_strbuf_add(&s->buf, p, (size_t)(end - p));
}

/* Adds the n bytes of a value's text in s->value, its marks undone. */
static void add_dumped(ddbc_json_stream *s, size_t n)
{
	n = ddbc_json_unmark(s->value, n);
	if (s->compact)
		ddbc_strbuf_add(&s->buf, s->value, n);
	else
		add_indented(s, s->value, n);
}

/* ---- a string and a line break as jansson writes them ---- */

size_t ddbc_json_put_string(strbuf *out, const char *s, size_t len)
{
	/* The bytes that need more than a copy: quotes, backslashes and
	 * control characters. */
	static const unsigned char plain[256] = {
		[' ' ... '!'] = 1, ['#' ... '['] = 1, [']' ... 0xFF] = 1,
	};
	size_t clean = 0, escaped = 0;
	while (clean < len && plain[(unsigned char)s[clean]])
		clean++;
	if (clean == len && len <= 62) {
		/* Most strings: quoted in one piece. */
		char q[64];
		q[0] = '"';
		memcpy(q + 1, s, len);
		q[len + 1] = '"';
		ddbc_strbuf_add(out, q, len + 2);
		return 0;
	}
	ddbc_strbuf_addch(out, '"');
	size_t run = 0;
	for (size_t i = clean; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (plain[c])
			continue;
		ddbc_strbuf_add(out, s + run, i - run);
		run = i + 1;
		switch (c) {
		case '"': ddbc_strbuf_add(out, "\\\"", 2); break;
		case '\\': ddbc_strbuf_add(out, "\\\\", 2); break;
		case '\b': ddbc_strbuf_add(out, "\\b", 2); break;
		case '\f': ddbc_strbuf_add(out, "\\f", 2); break;
		case '\n': ddbc_strbuf_add(out, "\\n", 2); break;
		case '\r': ddbc_strbuf_add(out, "\\r", 2); break;
		case '\t': ddbc_strbuf_add(out, "\\t", 2); break;
		default: {
			static const char hex[] = "0123456789ABCDEF";
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
			ddbc_strbuf_add(out, u, sizeof(u));
			escaped++;
			break;
		}
		}
	}
	ddbc_strbuf_add(out, s + run, len - run);
	ddbc_strbuf_addch(out, '"');
	return escaped;
}

void ddbc_json_put_newline(strbuf *out, int depth)
{
	static const char line[] = "\n                                ";
	size_t n = (size_t)depth * 2, most = sizeof(line) - 2;
	ddbc_strbuf_add(out, line, 1 + (n < most ? n : most));
	for (n = n < most ? 0 : n - most; n; n -= n < most ? n : most)
		ddbc_strbuf_add(out, line + 1, n < most ? n : most);
}

/* ---- jansson's text of a value, written here ---- */

/* json_dumpb costs some 3,000 instructions a value of a few members (a
 * request's attribute values, one per access pattern in the
 * documentation); the same bytes are written here. A real, which jansson
 * formats its own way, and text that is no UTF-8 (a dump jansson fails)
 * are left to jansson. */
typedef struct dumper {
	strbuf *out;
	bool compact;            /* JSON_COMPACT, else JSON_INDENT(2) */
	bool unsure;
} dumper;

static void dump_indent(dumper *d, int depth)
{
	if (!d->compact)
		ddbc_json_put_newline(d->out, depth);
}

/* jansson fails a dump of text that is no UTF-8: left to it. */
static void dump_string(dumper *d, const char *str, size_t len)
{
	if (!ddbc_utf8_valid(str, len))
		d->unsure = true;
	else
		ddbc_json_put_string(d->out, str, len);
}

static void dump_any(dumper *d, const json_t *v, int depth);

static void dump_object(dumper *d, const json_t *v, int depth)
{
	void *it = json_object_iter((json_t *)v);
	if (!it) {
		ddbc_strbuf_add(d->out, "{}", 2);
		return;
	}
	ddbc_strbuf_addch(d->out, '{');
	dump_indent(d, depth + 1);
	while (it && !d->unsure) {
		void *next = json_object_iter_next((json_t *)v, it);
		dump_string(d, json_object_iter_key(it), json_object_iter_key_len(it));
		ddbc_strbuf_add(d->out, ": ", d->compact ? 1 : 2);
		dump_any(d, json_object_iter_value(it), depth + 1);
		if (next)
			ddbc_strbuf_addch(d->out, ',');
		dump_indent(d, next ? depth + 1 : depth);
		it = next;
	}
	ddbc_strbuf_addch(d->out, '}');
}

static void dump_array(dumper *d, const json_t *v, int depth)
{
	size_t n = json_array_size(v);
	if (!n) {
		ddbc_strbuf_add(d->out, "[]", 2);
		return;
	}
	ddbc_strbuf_addch(d->out, '[');
	dump_indent(d, depth + 1);
	for (size_t i = 0; i < n && !d->unsure; i++) {
		dump_any(d, json_array_get(v, i), depth + 1);
		if (i + 1 < n)
			ddbc_strbuf_addch(d->out, ',');
		dump_indent(d, i + 1 < n ? depth + 1 : depth);
	}
	ddbc_strbuf_addch(d->out, ']');
}

static void dump_any(dumper *d, const json_t *v, int depth)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: dump_object(d, v, depth); break;
	case JSON_ARRAY: dump_array(d, v, depth); break;
	case JSON_STRING: dump_string(d, json_string_value(v), json_string_length(v)); break;
	case JSON_INTEGER: ddbc_strbuf_addf(d->out, "%lld", (long long)json_integer_value(v)); break;
	case JSON_TRUE: ddbc_strbuf_add(d->out, "true", 4); break;
	case JSON_FALSE: ddbc_strbuf_add(d->out, "false", 5); break;
	case JSON_NULL: ddbc_strbuf_add(d->out, "null", 4); break;
	case JSON_REAL: d->unsure = true; break;
	}
}

/* v as json_dumpb writes it with the stream's flags, into s->value;
 * its length, or 0 when only jansson can say. */
static size_t dump_here(ddbc_json_stream *s, const json_t *v)
{
	strbuf text = { s->value, 0, s->value_cap };
	dumper d = { &text, s->compact, false };
	dump_any(&d, v, 0);
	s->value = text.buf;
	s->value_cap = text.cap;
	return d.unsure ? 0 : text.len;
}

/* The value's text, written here or by jansson into a buffer of ours (in
 * many small pieces, which go faster into one buffer than through a
 * callback each). */
static void add_value(ddbc_json_stream *s, const json_t *v)
{
	size_t n = v ? dump_here(s, v) : 0;
	if (n) {
		add_dumped(s, n);
		return;
	}
	size_t flags = s->compact ? COMPACT_FLAGS : DUMP_FLAGS;
	/* A value that does not fit is written twice: a new stream starts
	 * with room for what most values take (the documentation opens one
	 * for each access pattern's request). */
	if (s->value_cap < VALUE_ROOM)
		ddbc_xgrow((void **)&s->value, &s->value_cap, VALUE_ROOM, 1);
	n = v ? json_dumpb(v, s->value, s->value_cap, flags) : 0;
	if (n > s->value_cap) {
		ddbc_xgrow((void **)&s->value, &s->value_cap, n, 1);
		n = json_dumpb(v, s->value, s->value_cap, flags);
	}
	if (n == 0 || n > s->value_cap) {
		s->failed = true;
		return;
	}
	add_dumped(s, n);
}

/* What comes before a member: a separator, a new line, its key. */
static void member_prefix(ddbc_json_stream *s, const char *key)
{
	if (s->depth == 0)
		return;
	if (s->compact) {
		if (!s->empty[s->depth - 1])
			ddbc_strbuf_addch(&s->buf, ',');
	} else {
		ddbc_strbuf_addstr(&s->buf, s->empty[s->depth - 1] ? "\n" : ",\n");
		indent(s, s->depth);
	}
	s->empty[s->depth - 1] = false;
	if (key) {
		ddbc_json_put_string(&s->buf, key, strlen(key));
		ddbc_strbuf_add(&s->buf, ": ", s->compact ? 1 : 2);
	}
}

void ddbc_json_string(ddbc_json_stream *s, const char *key, const char *str, size_t len)
{
	member_prefix(s, key);
	if (str)
		ddbc_json_put_string(&s->buf, str, len);
	else
		ddbc_strbuf_add(&s->buf, "null", 4);
	flush_some(s, false);
}

void ddbc_json_text(ddbc_json_stream *s, const char *key, const char *str)
{
	ddbc_json_string(s, key, str, str ? strlen(str) : 0);
}

void ddbc_json_int(ddbc_json_stream *s, const char *key, long long v)
{
	member_prefix(s, key);
	ddbc_strbuf_addf(&s->buf, "%lld", v);
}

void ddbc_json_bool(ddbc_json_stream *s, const char *key, bool v)
{
	member_prefix(s, key);
	ddbc_strbuf_addstr(&s->buf, v ? "true" : "false");
}

void ddbc_json_name_list(ddbc_json_stream *s, const char *key, const ddbc_name *names, size_t n)
{
	ddbc_json_begin(s, key, '[');
	for (size_t i = 0; i < n; i++)
		ddbc_json_text(s, NULL, names[i].s);
	ddbc_json_end(s, ']');
}

void ddbc_json_begin(ddbc_json_stream *s, const char *key, char bracket)
{
	member_prefix(s, key);
	ddbc_strbuf_addch(&s->buf, bracket);
	if (s->depth >= (int)(sizeof(s->empty) / sizeof(s->empty[0]))) {
		s->failed = true;
		return;
	}
	s->empty[s->depth++] = true;
}

void ddbc_json_member(ddbc_json_stream *s, const char *key, json_t *v)
{
	member_prefix(s, key);
	add_value(s, v);
	json_decref(v);
	flush_some(s, false);
}

void ddbc_json_end(ddbc_json_stream *s, char bracket)
{
	if (s->depth == 0) {
		s->failed = true;
		return;
	}
	bool empty = s->empty[--s->depth];
	if (!empty && !s->compact) {
		ddbc_strbuf_addch(&s->buf, '\n');
		indent(s, s->depth);
	}
	ddbc_strbuf_addch(&s->buf, bracket);
}

int ddbc_json_stream_finish(ddbc_json_stream *s, ddbc_err *err)
{
	if (s->depth == 0)
		ddbc_strbuf_addch(&s->buf, '\n');
	flush_some(s, true);
	ddbc_strbuf_release(&s->buf);
	free(s->value);
	if (s->failed || s->depth != 0) {
		ddbc_err_add(err, NULL, "cannot write the JSON output");
		return DDBC_EMIT_FAILED;
	}
	return DDBC_EMIT_OK;
}

/* ---- values ---------------------------------------------------------------------------- */

json_t *ddbc_json_strn(const char *s, size_t len)
{
	/* A string that starts with the number mark gets it twice
	 * (util/json_number.h), which ddbc_json_unmark undoes. */
	json_t *v = ddbc_json_string_new(s, len);
	/* The loader and the option parser let only UTF-8 through. */
	return v ? v : ddbc_json_string_new_nocheck(s, len);
}

json_t *ddbc_json_str(const char *s)
{
	return ddbc_json_strn(s, strlen(s));
}

void ddbc_json_scalar_text(const ddbc_node *n, strbuf *out)
{
	/* The model's, so that the rules read a value as requests send it. */
	ddbc_scalar_text(n, out);
}

json_t *ddbc_json_number(const char *text, size_t len)
{
	/* A marked string (util/json_number.h), which ddbc_json_unmark turns
	 * back into the number's own digits once jansson has written it. */
	strbuf b = STRBUF_INIT;
	ddbc_decimal_json(&b, text, len);
	json_t *v = ddbc_json_number_new(b.buf, b.len);
	ddbc_strbuf_release(&b);
	return v;
}

void ddbc_figure_text(strbuf *out, const ddbc_figure *f)
{
	size_t n = f->text ? strlen(f->text) : 0;
	if (n && ddbc_decimal_valid(f->text, n))
		ddbc_decimal_json(out, f->text, n);
	else if (f->value == floor(f->value) && f->value < 9e18)
		ddbc_strbuf_addf(out, "%lld", (long long)f->value);
	else
		ddbc_strbuf_addf(out, "%.17g", f->value);
}

void ddbc_json_figure(ddbc_json_stream *s, const char *key, const ddbc_figure *f)
{
	if (!f->set) {
		ddbc_json_text(s, key, NULL);
		return;
	}
	strbuf b = STRBUF_INIT;
	ddbc_figure_text(&b, f);
	ddbc_json_member(s, key, ddbc_json_number(b.buf, b.len));
	ddbc_strbuf_release(&b);
}

/* A number scalar with its own digits; JSON has no infinity or NaN (nor
 * YAML's 0x forms beyond an integer): those keep YAML's word. */
static json_t *exact_number(const char *text, size_t len)
{
	if (ddbc_decimal_valid(text, len))
		return ddbc_json_number(text, len);
	return ddbc_json_strn(text, len);
}

/* A scalar of kind k and text, of a node or a packed value. */
static json_t *plain_scalar(ddbc_scalar_kind k, const char *text, size_t len)
{
	long long i;
	switch (k) {
	case DDBC_SCALAR_INT:
		if (ddbc_int_text(text, &i))
			return json_integer(i);
		return exact_number(text, len);  /* more digits than an integer holds */
	case DDBC_SCALAR_FLOAT:
		return exact_number(text, len);
	case DDBC_SCALAR_BOOL:
		return json_boolean(text[0] == 't' || text[0] == 'T');
	case DDBC_SCALAR_NULL:
		return json_null();
	case DDBC_SCALAR_STR:
		break;
	}
	return ddbc_json_strn(text, len);
}

json_t *ddbc_json_plain(const ddbc_node *n)
{
	if (!n)
		return NULL;
	if (n->kind == DDBC_NODE_SCALAR)
		return plain_scalar(n->scalar, n->u.text, n->n);
	if (n->kind == DDBC_NODE_SEQ) {
		json_t *a = json_array();
		for (size_t i = 0; i < n->n; i++)
			json_array_append_new(a, ddbc_json_plain(n->u.items[i]));
		return a;
	}
	json_t *o = json_object();
	for (size_t i = 0; i < n->n; i++)
		json_object_set_new(o, n->u.pairs[i].key->u.text,
				    ddbc_json_plain(n->u.pairs[i].value));
	return o;
}

json_t *ddbc_json_pval(const ddbc_pval *v)
{
	if (!v)
		return NULL;
	uint32_t len;
	const char *text = ddbc_pval_str(v, &len);
	if (text)
		return plain_scalar(ddbc_pval_scalar(v), text, len);
	ddbc_pval_iter it = ddbc_pval_members(v);
	const ddbc_pval *key, *x;
	if (ddbc_pval_kind(v) == DDBC_NODE_SEQ) {
		json_t *a = json_array();
		while (ddbc_pval_item(&it, &x))
			json_array_append_new(a, ddbc_json_pval(x));
		return a;
	}
	json_t *o = json_object();
	while (ddbc_pval_pair(&it, &key, &x))
		json_object_set_new(o, ddbc_pval_text(key), ddbc_json_pval(x));
	return o;
}

static json_t *typed(const char *type, json_t *v)
{
	json_t *o = json_object();
	json_object_set_new(o, type, v);
	return o;
}

static json_t *scalar_as(const char *type, const ddbc_pval *n)
{
	strbuf sb = STRBUF_INIT;
	ddbc_pval_scalar_text(n, &sb);
	json_t *v = typed(type, ddbc_json_strn(ddbc_strbuf_str(&sb), sb.len));
	ddbc_strbuf_release(&sb);
	return v;
}

static json_t *inferred(const ddbc_pval *n)
{
	return ddbc_json_attr_value(n, DDBC_TYPE_NONE);
}

static json_t *set_of(const char *type, const ddbc_pval *n)
{
	json_t *a = json_array();
	ddbc_pval_iter it = ddbc_pval_members(n);
	const ddbc_pval *x;
	while (ddbc_pval_item(&it, &x)) {
		strbuf sb = STRBUF_INIT;
		ddbc_pval_scalar_text(x, &sb);
		json_array_append_new(a, ddbc_json_strn(ddbc_strbuf_str(&sb), sb.len));
		ddbc_strbuf_release(&sb);
	}
	return typed(type, a);
}

static bool all_scalars(const ddbc_pval *n)
{
	ddbc_pval_iter it = ddbc_pval_members(n);
	const ddbc_pval *x;
	while (ddbc_pval_item(&it, &x))
		if (ddbc_pval_kind(x) != DDBC_NODE_SCALAR)
			return false;
	return true;
}

static json_t *inferred_scalar(const ddbc_pval *n)
{
	bool b;
	switch (ddbc_pval_scalar(n)) {
	case DDBC_SCALAR_INT:
	case DDBC_SCALAR_FLOAT:
		return scalar_as("N", n);
	case DDBC_SCALAR_BOOL:
		ddbc_pval_bool(n, &b);
		return typed("BOOL", json_boolean(b));
	case DDBC_SCALAR_NULL:
		return typed("NULL", json_true());
	case DDBC_SCALAR_STR:
		break;
	}
	return scalar_as("S", n);
}

json_t *ddbc_json_attr_value(const ddbc_pval *n, ddbc_type t)
{
	bool scalar = ddbc_pval_kind(n) == DDBC_NODE_SCALAR, seq = ddbc_pval_kind(n) == DDBC_NODE_SEQ;
	bool b;
	switch (t) {
	case DDBC_TYPE_S: if (scalar) return scalar_as("S", n); break;
	case DDBC_TYPE_N: if (scalar) return scalar_as("N", n); break;
	case DDBC_TYPE_B: if (scalar) return scalar_as("B", n); break;
	case DDBC_TYPE_BOOL:
		if (ddbc_pval_bool(n, &b))
			return typed("BOOL", json_boolean(b));
		break;
	case DDBC_TYPE_NULL: return typed("NULL", json_true());
	case DDBC_TYPE_SS: if (seq && all_scalars(n)) return set_of("SS", n); break;
	case DDBC_TYPE_NS: if (seq && all_scalars(n)) return set_of("NS", n); break;
	case DDBC_TYPE_BS: if (seq && all_scalars(n)) return set_of("BS", n); break;
	case DDBC_TYPE_M: case DDBC_TYPE_L: case DDBC_TYPE_NONE: break;
	}
	if (scalar)
		return inferred_scalar(n);
	ddbc_pval_iter it = ddbc_pval_members(n);
	const ddbc_pval *key, *x;
	if (seq) {
		json_t *a = json_array();
		while (ddbc_pval_item(&it, &x))
			json_array_append_new(a, inferred(x));
		return typed("L", a);
	}
	json_t *m = json_object();
	while (ddbc_pval_pair(&it, &key, &x))
		json_object_set_new(m, ddbc_pval_text(key), inferred(x));
	return typed("M", m);
}

json_t *ddbc_json_key_value(const char *s, size_t len, ddbc_type t)
{
	const char *type = t == DDBC_TYPE_N ? "N" : t == DDBC_TYPE_B ? "B" : "S";
	return typed(type, ddbc_json_strn(s, len));
}

ddbc_type ddbc_json_key_type(const ddbc_table *t, const char *name)
{
	ddbc_type type = ddbc_table_key_type(t, name);
	return type == DDBC_TYPE_NONE ? DDBC_TYPE_S : type;
}

/* ---- CreateTable ------------------------------------------------------------------ */

static json_t *key_element(const char *name, const char *key_type)
{
	json_t *o = json_object();
	json_object_set_new(o, "AttributeName", ddbc_json_str(name));
	json_object_set_new(o, "KeyType", json_string(key_type));
	return o;
}

/* The API's KeySchema: HASH elements, then RANGE elements, in key order. */
static json_t *key_schema(const ddbc_index *ix)
{
	json_t *a = json_array();
	for (size_t i = 0; i < ix->npk; i++)
		json_array_append_new(a, key_element(ix->pk[i].s, "HASH"));
	for (size_t i = 0; i < ix->nsk; i++)
		json_array_append_new(a, key_element(ix->sk[i].s, "RANGE"));
	return a;
}

/* Whether defs defines name, compared as written (a name that begins with
 * the number mark is held behind a second one). */
static bool defined(const json_t *defs, const json_t *name)
{
	size_t i;
	json_t *d;
	json_array_foreach(defs, i, d)
		if (json_equal(json_object_get(d, "AttributeName"), name))
			return true;
	return false;
}

static void define_keys(json_t *defs, const ddbc_table *t, const ddbc_index *ix)
{
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		const char *name = ddbc_index_key(ix, i);
		json_t *written = ddbc_json_str(name);
		if (defined(defs, written)) {
			json_decref(written);
			continue;
		}
		json_t *d = json_object();
		json_object_set_new(d, "AttributeName", written);
		json_object_set_new(d, "AttributeType",
				    json_string(ddbc_type_short(ddbc_json_key_type(t, name))));
		json_array_append_new(defs, d);
	}
}

json_t *ddbc_json_index_definitions(const ddbc_table *t, const ddbc_index *ix)
{
	json_t *defs = json_array();
	define_keys(defs, t, ix);
	return defs;
}

static json_t *attribute_definitions(const ddbc_table *t)
{
	json_t *defs = json_array();
	for (size_t s = 0; s < t->nindexes; s++)
		define_keys(defs, t, t->indexes[s]);
	return defs;
}

/* An INCLUDE list without repeats, which DynamoDB rejects, and (keys:
 * false) without the key attributes, which every index projects anyway. */
static json_t *non_key_attributes(const ddbc_index *ix, bool keys)
{
	json_t *a = json_array();
	for (size_t i = 0; i < ix->ninclude; i++) {
		const char *name = ix->include[i].s;
		bool skip = !keys && (ddbc_index_has_key(ix, name) ||
				      ddbc_index_has_key(&ix->table->primary, name));
		for (size_t k = 0; k < i && !skip; k++)
			skip = !strcmp(ix->include[k].s, name);
		if (!skip)
			json_array_append_new(a, ddbc_json_str(name));
	}
	return a;
}

/* An INCLUDE list is written as INCLUDE, its key attributes left out; one
 * of key attributes alone keeps them (NonKeyAttributes may not be empty):
 * the index holds what KEYS_ONLY would, but a table made from a source
 * that says INCLUDE [Artist, Album] is then the table this export makes,
 * where KEYS_ONLY would have CloudFormation replace the index. */
static json_t *projection(const ddbc_index *ix)
{
	json_t *o = json_object();
	json_t *include = NULL;
	if (ix->projection == DDBC_PROJ_INCLUDE) {
		include = non_key_attributes(ix, false);
		if (!json_array_size(include)) {
			json_decref(include);
			include = non_key_attributes(ix, true);
		}
	}
	const char *type = ix->projection == DDBC_PROJ_ALL ? "ALL" : "KEYS_ONLY";
	/* INCLUDE needs a non-empty list; an empty one projects the keys only. */
	if (include && json_array_size(include))
		type = "INCLUDE";
	json_object_set_new(o, "ProjectionType", json_string(type));
	if (include && json_array_size(include))
		json_object_set(o, "NonKeyAttributes", include);
	json_decref(include);
	return o;
}

json_t *ddbc_json_throughput(const ddbc_capacity *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "ReadCapacityUnits", json_integer(c->read));
	json_object_set_new(o, "WriteCapacityUnits", json_integer(c->write));
	return o;
}

json_t *ddbc_json_warm_throughput(const ddbc_throughput *th)
{
	if (!th->set)
		return NULL;
	json_t *o = json_object();
	if (th->read)
		json_object_set_new(o, "ReadUnitsPerSecond", json_integer(th->read));
	if (th->write)
		json_object_set_new(o, "WriteUnitsPerSecond", json_integer(th->write));
	return o;
}

json_t *ddbc_json_on_demand_throughput(const ddbc_throughput *th)
{
	if (!th->set)
		return NULL;
	json_t *o = json_object();
	if (th->read)
		json_object_set_new(o, "MaxReadRequestUnits", json_integer(th->read));
	if (th->write)
		json_object_set_new(o, "MaxWriteRequestUnits", json_integer(th->write));
	return o;
}

/* Sets key of o to v unless v is NULL. */
static void set_opt(json_t *o, const char *key, json_t *v)
{
	if (v)
		json_object_set_new(o, key, v);
}

json_t *ddbc_json_secondary_index(const ddbc_table *t, const ddbc_index *ix)
{
	json_t *o = json_object();
	json_object_set_new(o, "IndexName", ddbc_json_str(ix->name.s));
	json_object_set_new(o, "KeySchema", key_schema(ix));
	json_object_set_new(o, "Projection", projection(ix));
	/* Under provisioned billing every GSI has its own throughput: its
	 * capacity, else the table's. LSIs share the table's. */
	if (ix->kind == DDBC_INDEX_GSI && t->billing == DDBC_BILLING_PROVISIONED) {
		const ddbc_capacity *c = ix->capacity.set ? &ix->capacity : &t->capacity;
		if (c->set)
			json_object_set_new(o, "ProvisionedThroughput", ddbc_json_throughput(c));
	}
	if (ix->kind == DDBC_INDEX_GSI) {
		set_opt(o, "OnDemandThroughput", ddbc_json_on_demand_throughput(&ix->on_demand_max));
		set_opt(o, "WarmThroughput", ddbc_json_warm_throughput(&ix->warm));
	}
	return o;
}

static json_t *secondary_indexes(const ddbc_table *t, const ddbc_index *list, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, ddbc_json_secondary_index(t, &list[i]));
	return a;
}

/* The settings CreateTable takes (SPEC 8.7), each only when the design
 * gives it; PITR, Contributor Insights and replicas are later calls
 * (UpdateContinuousBackups, UpdateContributorInsights, UpdateTable). */
static void create_table_settings(json_t *o, const ddbc_table_settings *s)
{
	if (s->has_deletion_protection)
		json_object_set_new(o, "DeletionProtectionEnabled", json_boolean(s->deletion_protection));
	if (s->stream)
		json_object_set_new(o, "StreamSpecification",
				    json_pack("{s:b,s:s}", "StreamEnabled", 1, "StreamViewType",
					      ddbc_stream_view_type(s->stream)));
	if (s->has_sse) {
		json_t *sse = json_pack("{s:b,s:s}", "Enabled", 1, "SSEType", "KMS");
		if (s->kms_key.s)
			json_object_set_new(sse, "KMSMasterKeyId", ddbc_json_str(s->kms_key.s));
		json_object_set_new(o, "SSESpecification", sse);
	}
	if (s->ntags)
		json_object_set_new(o, "Tags", ddbc_json_tags(s));
	set_opt(o, "OnDemandThroughput", ddbc_json_on_demand_throughput(&s->on_demand_max));
	set_opt(o, "WarmThroughput", ddbc_json_warm_throughput(&s->warm));
	if (s->policy)
		json_object_set_new(o, "ResourcePolicy", json_stringn(s->policy, s->policy_bytes));
}

json_t *ddbc_json_tags(const ddbc_table_settings *s)
{
	json_t *a = json_array();
	for (size_t i = 0; i < s->ntags; i++)
		json_array_append_new(a, json_pack("{s:o,s:o}", "Key", ddbc_json_str(s->tags[i].key.s),
						   "Value", ddbc_json_str(s->tags[i].value)));
	return a;
}

json_t *ddbc_json_create_table(const ddbc_table *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "TableName", ddbc_json_str(t->name.s));
	json_object_set_new(o, "AttributeDefinitions", attribute_definitions(t));
	json_object_set_new(o, "KeySchema", key_schema(&t->primary));
	if (t->nlsi)
		json_object_set_new(o, "LocalSecondaryIndexes",
				    secondary_indexes(t, t->lsi, t->nlsi));
	if (t->ngsi)
		json_object_set_new(o, "GlobalSecondaryIndexes",
				    secondary_indexes(t, t->gsi, t->ngsi));
	if (t->billing == DDBC_BILLING_PROVISIONED) {
		json_object_set_new(o, "BillingMode", json_string("PROVISIONED"));
		if (t->capacity.set)
			json_object_set_new(o, "ProvisionedThroughput",
					    ddbc_json_throughput(&t->capacity));
	} else {
		json_object_set_new(o, "BillingMode", json_string("PAY_PER_REQUEST"));
	}
	/* Written only when the design says: STANDARD is DynamoDB's default. */
	if (t->has_table_class)
		json_object_set_new(o, "TableClass",
				    json_string(t->table_class == DDBC_CLASS_STANDARD_IA
						? "STANDARD_INFREQUENT_ACCESS" : "STANDARD"));
	create_table_settings(o, &t->settings);
	return o;
}

ddbc_emit_result ddbc_emit_create_table(FILE *out, const ddbc_design *g,
					const ddbc_export_opts *o, ddbc_diags *d)
{
	(void)d;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_stream_layout(&s, o);
	ddbc_json_begin(&s, NULL, '[');
	for (size_t i = 0; i < g->ntables; i++)
		ddbc_json_member(&s, NULL, ddbc_json_create_table(&g->tables[i]));
	ddbc_json_end(&s, ']');
	return ddbc_json_stream_finish(&s, o ? o->err : NULL);
}
