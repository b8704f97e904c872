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

/* ---- counts ---------------------------------------------------------------------- */

void ddbc_items_tally_add(ddbc_items_tally *to, const ddbc_items_tally *from)
{
	to->items += from->items;
	to->ok += from->ok;
	to->failed += from->failed;
	to->unmatched += from->unmatched;
	to->malformed += from->malformed;
	to->errors += from->errors;
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++)
		to->kinds[k] += from->kinds[k];
}

unsigned long ddbc_items_tally_findings(const ddbc_items_tally *t)
{
	unsigned long n = 0;
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++)
		n += t->kinds[k];
	return n;
}

/* ---- writing --------------------------------------------------------------------- */

json_t *ddbc_items_jstr(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *copy = ddbc_xstrdup(s);
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j ? j : json_string("");
}

void ddbc_items_begin_output(FILE *out, ddbc_items_format format, const char *const *paths,
			     size_t npaths)
{
	if (format != DDBC_ITEMS_JSON)
		return;
	json_t *files = json_array();
	for (size_t i = 0; i < npaths; i++)
		json_array_append_new(files, ddbc_items_jstr(paths[i]));
	json_t *head = json_pack("{s:o, s:o}", "file",
				 npaths == 1 ? ddbc_items_jstr(paths[0]) : json_null(), "files",
				 files);
	/* The object stays open: the findings and the tail continue it. */
	char *s = json_dumps(head, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fprintf(out, "%.*s,\"findings\":[", (int)(strlen(s) - 1), s);
	free(s);
	json_decref(head);
}

void ddbc_items_sink_line(ddbc_items_sink *s, const char *line, size_t len)
{
	if (s->shown >= s->max)
		return;
	if (s->before)
		s->before(s->before_arg);
	if (s->format == DDBC_ITEMS_JSON)
		fputs(s->shown ? ",\n" : "\n", s->out);
	fwrite(line, 1, len, s->out);
	if (s->format != DDBC_ITEMS_JSON)
		fputc('\n', s->out);
	s->shown++;
}

static const char *severity_word(ddbc_severity sev)
{
	return sev == DDBC_SEV_ERROR ? "error" : sev == DDBC_SEV_WARNING ? "warning" : "note";
}

/* The table whose key names the item: its entity's, else the first whose
 * key attributes the item has. NULL when it has none's. */
static const ddbc_items_table *key_table(const ddbc_items_run *R)
{
	for (size_t t = 0; t < R->ntables; t++) {
		const ddbc_items_table *ti = &R->tables[t];
		if (R->ent ? ti->t == R->ent->e->table
			   : ti->pk && ddbc_items_value(R, ti->pk) && (!ti->sk || ddbc_items_value(R, ti->sk)))
			return ti;
	}
	return NULL;
}

/* The item's key, so a finding names the item it is about: {"PK": ...,
 * "SK": ...} in JSON, "[PK 'A', SK 'B']" in text; NULL / nothing when
 * the item has no table's key. */
static json_t *item_key(const ddbc_items_run *R, strbuf *text)
{
	const ddbc_items_table *ti = key_table(R);
	const ddbc_ival *pk = ti ? ddbc_items_value(R, ti->pk) : NULL;
	if (!pk || !pk->text)
		return NULL;
	const ddbc_ival *sk = ti->sk ? ddbc_items_value(R, ti->sk) : NULL;
	json_t *key = json_object();
	json_object_set_new(key, ti->pk, json_stringn(pk->text, pk->len));
	if (text) {
		ddbc_strbuf_addf(text, " [%s ", ti->pk);
		ddbc_add_quoted(text, pk->text, pk->len);
	}
	if (sk && sk->text) {
		json_object_set_new(key, ti->sk, json_stringn(sk->text, sk->len));
		if (text) {
			ddbc_strbuf_addf(text, ", %s ", ti->sk);
			ddbc_add_quoted(text, sk->text, sk->len);
		}
	}
	if (text)
		ddbc_strbuf_addch(text, ']');
	return key;
}

/* Formats the finding into R->line: a JSON object or a text line. */
static void format_finding(ddbc_items_run *R, ddbc_item_kind k, ddbc_severity sev,
			   const char *attr, ddbc_ipos pos, const char *msg)
{
	const char *ent = R->ent ? R->ent->e->name.s : NULL;
	strbuf *l = &R->line;
	ddbc_strbuf_reset(l);
	if (R->opts->format == DDBC_ITEMS_JSON) {
		json_t *key = item_key(R, NULL);
		json_t *f = json_pack("{s:o, s:I, s:o, s:I, s:I, s:o, s:s, s:s, s:o, s:o}",
			"file", ddbc_items_jstr(R->name), "item", (json_int_t)R->span->index,
			"key", key ? key : json_null(),
			"line", (json_int_t)pos.line, "column", (json_int_t)pos.column,
			"entity", ent ? ddbc_items_jstr(ent) : json_null(),
			"severity", severity_word(sev), "kind", ddbc_item_kind_get(k)->id,
			"attribute", attr ? ddbc_items_jstr(attr) : json_null(), "message",
			ddbc_items_jstr(msg));
		char *s = json_dumps(f, JSON_COMPACT | JSON_PRESERVE_ORDER);
		ddbc_strbuf_addstr(l, s);
		free(s);
		json_decref(f);
	} else {
		ddbc_strbuf_addf(l, "%s:%lu:%lu: %s: item %lu", R->name, pos.line, pos.column,
			    severity_word(sev), R->span->index);
		if (ent)
			ddbc_strbuf_addf(l, " (%s)", ent);
		ddbc_strbuf_addf(l, ": %s", msg);
		json_decref(item_key(R, l));
	}
}

void ddbc_items_finding(ddbc_items_run *R, ddbc_item_kind k, const char *attr, ddbc_ipos pos,
			const char *fmt, ...)
{
	ddbc_severity sev = R->sev[k];
	if (sev == DDBC_SEV_OFF)
		return;
	R->t.kinds[k]++;
	if (sev == DDBC_SEV_ERROR) {
		R->failed = true;
		R->t.errors++;
	}
	/* Past the cap nothing more of this file can be shown: count only;
	 * below --min-severity a finding is counted and never written. */
	unsigned long max = R->opts->max_findings;
	if ((R->sink ? R->sink->shown >= max : R->spooled >= max) ||
	    sev < R->opts->min_severity)
		return;
	strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	format_finding(R, k, sev, attr, pos, ddbc_strbuf_str(&msg));
	ddbc_strbuf_release(&msg);
	if (R->sink) {
		ddbc_items_sink_line(R->sink, R->line.buf, R->line.len);
	} else {
		fwrite(R->line.buf, 1, R->line.len, R->spool);
		fputc('\n', R->spool);
		R->spooled++;
	}
}

void ddbc_items_file_finding(ddbc_items_run *R, ddbc_item_kind k, const char *name,
			     const char *msg)
{
	memset(&R->t, 0, sizeof(R->t));
	ddbc_severity sev = R->sev[k];
	if (sev == DDBC_SEV_OFF)
		return;
	R->t.kinds[k]++;
	if (sev == DDBC_SEV_ERROR)
		R->t.errors++;
	unsigned long max = R->opts->max_findings;
	if ((R->sink ? R->sink->shown >= max : R->spooled >= max) || sev < R->opts->min_severity)
		return;
	strbuf *l = &R->line;
	ddbc_strbuf_reset(l);
	if (R->opts->format == DDBC_ITEMS_JSON) {
		json_t *f = json_pack("{s:o, s:n, s:n, s:i, s:i, s:n, s:s, s:s, s:n, s:o}",
			"file", ddbc_items_jstr(name), "item", "key", "line", 1, "column", 1,
			"entity", "severity", severity_word(sev), "kind", ddbc_item_kind_get(k)->id,
			"attribute", "message", ddbc_items_jstr(msg));
		char *s = json_dumps(f, JSON_COMPACT | JSON_PRESERVE_ORDER);
		ddbc_strbuf_addstr(l, s);
		free(s);
		json_decref(f);
	} else {
		ddbc_strbuf_addf(l, "%s:1:1: %s: %s", name, severity_word(sev), msg);
	}
	if (R->sink) {
		ddbc_items_sink_line(R->sink, R->line.buf, R->line.len);
	} else {
		fwrite(R->line.buf, 1, R->line.len, R->spool);
		fputc('\n', R->spool);
		R->spooled++;
	}
}

const char *ddbc_items_shape_word(const ddbc_items_run *R)
{
	if (R->export_lines == DDBC_FACT_YES)
		return "export";
	switch (R->shape) {
	case DDBC_SHAPE_ARRAY: return "array";
	case DDBC_SHAPE_LINES: return "lines";
	case DDBC_SHAPE_SCAN: return "scan";
	case DDBC_SHAPE_BATCH: return "batch";
	case DDBC_SHAPE_UNKNOWN: break;
	}
	return NULL;
}

const char *ddbc_items_json_word(const ddbc_items_run *R)
{
	return R->dynamodb == DDBC_FACT_UNKNOWN ? NULL
	       : R->dynamodb == DDBC_FACT_YES ? "dynamodb" : "plain";
}

json_t *ddbc_items_error_json(const char *file, const ddbc_items_error *err)
{
	return json_pack("{s:o, s:I, s:I, s:o}", "file", ddbc_items_jstr(file),
			 "line", (json_int_t)err->pos.line, "column", (json_int_t)err->pos.column,
			 "message", ddbc_items_jstr(ddbc_strbuf_str(&err->message)));
}

/* "findings: 3 wrong-type, 1 unmatched; 2 not shown (--max-findings)" */
static void text_kinds(FILE *out, const ddbc_items_outcome *o)
{
	unsigned long total = ddbc_items_tally_findings(&o->t);
	if (total == 0)
		return;
	fputs("findings:", out);
	const char *sep = " ";
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++) {
		if (o->t.kinds[k]) {
			fprintf(out, "%s%lu %s", sep, o->t.kinds[k], ddbc_item_kind_get(k)->id);
			sep = ", ";
		}
	}
	if (o->shown < total)
		fprintf(out, "; %lu not shown (--max-findings)", total - o->shown);
	fputc('\n', out);
}

static json_t *summary_json(const ddbc_items_outcome *o)
{
	json_t *kinds = json_object();
	for (int k = 0; k < DDBC_ITEM_KIND_COUNT; k++)
		if (o->t.kinds[k])
			json_object_set_new(kinds, ddbc_item_kind_get(k)->id,
					    json_integer((json_int_t)o->t.kinds[k]));
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
		"items", (json_int_t)o->t.items, "ok", (json_int_t)o->t.ok,
		"failed", (json_int_t)o->t.failed, "unmatched", (json_int_t)o->t.unmatched,
		"malformed", (json_int_t)o->t.malformed,
		"findings", (json_int_t)ddbc_items_tally_findings(&o->t),
		"errors", (json_int_t)o->t.errors,
		"shown", (json_int_t)o->shown, "kinds", kinds);
}

void ddbc_items_end_output(FILE *out, ddbc_items_format format, const ddbc_items_outcome *o)
{
	if (format != DDBC_ITEMS_JSON) {
		if (o->failed_input)
			return;
		fprintf(out, "%lu item%s: %lu ok, %lu failed, %lu unmatched", o->t.items,
			o->t.items == 1 ? "" : "s", o->t.ok, o->t.failed, o->t.unmatched);
		if (o->t.malformed)
			fprintf(out, ", %lu malformed", o->t.malformed);
		fputc('\n', out);
		text_kinds(out, o);
		return;
	}
	json_t *tail = json_pack("{s:{s:o, s:o}, s:o}", "input",
		"shape", o->shape ? json_string(o->shape) : json_null(),
		"json", o->json ? json_string(o->json) : json_null(), "summary", summary_json(o));
	if (o->error)
		json_object_set(tail, "error", o->error);
	/* The tail's members continue the object the findings opened. */
	char *s = json_dumps(tail, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fprintf(out, "%s],%s\n", o->shown ? "\n" : "", s + 1);
	free(s);
	json_decref(tail);
}

void ddbc_items_print_failure(FILE *out, const char *const *paths, size_t npaths,
			      const char *design, const char *message)
{
	ddbc_items_outcome o;
	memset(&o, 0, sizeof(o));
	o.failed_input = true;
	o.error = json_pack("{s:o, s:s}", "file", ddbc_items_jstr(design), "message", message);
	ddbc_items_begin_output(out, DDBC_ITEMS_JSON, paths, npaths);
	ddbc_items_end_output(out, DDBC_ITEMS_JSON, &o);
	json_decref(o.error);
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

