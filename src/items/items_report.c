/* items_report.c - check-items' output: findings and the summary, as text or JSON
 *
 * Findings are written as they are made, so the report streams with the
 * input (the formats are in items.h).
 */
#include "items/items_run.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Item text quoted in a message is cut after this many bytes. */
#define MAX_QUOTED 120

static const char *const kind_ids[] = { "wrong-type", "not-in-enum", "missing-required",
	"key-mismatch", "delimiter-in-value", "unknown-attribute", "unmatched",
	"ambiguous-entity" };

/* ---- writing --------------------------------------------------------------------- */

/* A JSON string of s, bytes that are not UTF-8 (a file name may hold
 * some) replaced by '?'. */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *copy = xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j ? j : json_string("");
}

static void dump_line(FILE *out, json_t *v)
{
	json_dumpf(v, out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	json_decref(v);
}

void ddbc_items_begin_output(ddbc_items_run *R)
{
	if (R->format != DDBC_ITEMS_JSON)
		return;
	fputs("{\"file\":", R->out);
	dump_line(R->out, jstr(R->name));
	fputs(",\"findings\":[", R->out);
}

void ddbc_items_finding(ddbc_items_run *R, ddbc_item_kind k, const char *attr, ddbc_ipos pos,
			const char *fmt, ...)
{
	strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	const char *sev = k == DDBC_ITEM_UNKNOWN ? "note" : "error";
	const char *ent = R->ent ? R->ent->e->name.s : NULL;
	if (k != DDBC_ITEM_UNKNOWN)
		R->failed = true;
	if (R->format == DDBC_ITEMS_JSON) {
		fputs(R->nfindings ? ",\n" : "\n", R->out);
		dump_line(R->out, json_pack("{s:I, s:I, s:I, s:o, s:s, s:s, s:o, s:o}",
			"item", (json_int_t)R->span->index, "line", (json_int_t)pos.line,
			"column", (json_int_t)pos.column, "entity", ent ? jstr(ent) : json_null(),
			"severity", sev, "kind", kind_ids[k],
			"attribute", attr ? jstr(attr) : json_null(), "message",
			jstr(strbuf_str(&msg))));
	} else if (ent) {
		fprintf(R->out, "%s:%lu:%lu: %s: item %lu (%s): %s\n", R->name, pos.line, pos.column,
			sev, R->span->index, ent, strbuf_str(&msg));
	} else {
		fprintf(R->out, "%s:%lu:%lu: %s: item %lu: %s\n", R->name, pos.line, pos.column, sev,
			R->span->index, strbuf_str(&msg));
	}
	R->nfindings++;
	strbuf_release(&msg);
}

static const char *shape_word(const ddbc_items_run *R)
{
	if (R->export_lines == DDBC_FACT_YES)
		return "export";
	switch (R->shape) {
	case DDBC_SHAPE_ARRAY: return "array";
	case DDBC_SHAPE_LINES: return "lines";
	case DDBC_SHAPE_SCAN: return "scan";
	case DDBC_SHAPE_UNKNOWN: break;
	}
	return NULL;
}

void ddbc_items_end_output(ddbc_items_run *R, const ddbc_items_error *err)
{
	if (err)
		fprintf(stderr, "%s:%lu:%lu: error: %s\n", R->name, err->pos.line, err->pos.column,
			strbuf_str(&err->message));
	if (R->format != DDBC_ITEMS_JSON) {
		if (!err)
			fprintf(R->out, "%lu items: %lu ok, %lu failed, %lu unmatched\n", R->items,
				R->ok, R->nfailed, R->unmatched);
		return;
	}
	const char *shape = shape_word(R);
	const char *json = R->dynamodb == DDBC_FACT_UNKNOWN ? NULL
			   : R->dynamodb == DDBC_FACT_YES ? "dynamodb" : "plain";
	json_t *tail = json_pack("{s:{s:o, s:o}, s:{s:I, s:I, s:I, s:I}}", "input",
		"shape", shape ? json_string(shape) : json_null(),
		"json", json ? json_string(json) : json_null(), "summary",
		"items", (json_int_t)R->items, "ok", (json_int_t)R->ok,
		"failed", (json_int_t)R->nfailed, "unmatched", (json_int_t)R->unmatched);
	if (err)
		json_object_set_new(tail, "error", json_pack("{s:I, s:I, s:o}",
			"line", (json_int_t)err->pos.line, "column", (json_int_t)err->pos.column,
			"message", jstr(strbuf_str(&err->message))));
	/* The tail's members continue the object the findings opened. */
	char *s = json_dumps(tail, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fprintf(R->out, "%s],%s\n", R->nfindings ? "\n" : "", s + 1);
	free(s);
	json_decref(tail);
}

/* Appends text as 'text': control characters escaped, cut after
 * MAX_QUOTED bytes (at a character boundary). */
void ddbc_items_add_quoted(strbuf *sb, const char *s, size_t len)
{
	size_t n = len > MAX_QUOTED ? MAX_QUOTED : len;
	while (n < len && n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	strbuf_addch(sb, '\'');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			strbuf_addstr(sb, "\\n");
		else if (c == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
	strbuf_addstr(sb, n < len ? "'..." : "'");
}

/* ---- positions in the item ------------------------------------------------------- */

/* Where the name of attribute key is in the current item's text, found
 * by a scan of its members at key_depth; the item's start when the name
 * is not written plainly (escapes). */
ddbc_ipos ddbc_items_attr_pos(const ddbc_items_run *R, const char *key)
{
	const ddbc_item_span *sp = R->span;
	const char *s = sp->data;
	size_t klen = strlen(key);
	int depth = 0;
	bool want_key = false;
	for (size_t i = 0; i < sp->len; i++) {
		char c = s[i];
		if (c == '"') {
			size_t j = i + 1;
			while (j < sp->len && s[j] != '"')
				j += s[j] == '\\' ? 2 : 1;
			if (want_key && depth == R->key_depth && j - i - 1 == klen &&
			    !memcmp(s + i + 1, key, klen))
				return ddbc_items_offset_pos(sp, i);
			want_key = false;
			i = j;
		} else if (c == '{' || c == '[') {
			depth++;
			want_key = c == '{';
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == ',') {
			want_key = true;
		}
	}
	return sp->pos;
}

