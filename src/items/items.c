/* items.c - check-items: real items against the design
 *
 * The items are streamed (items_stream.h): one item's JSON at a time goes
 * through jansson, is typed (items_value.h), assigned to an entity and
 * checked, and its findings are written at once, so memory does not grow
 * with the number of items.
 *
 * Assignment. An item belongs to the tables whose key attributes it has;
 * an entity of such a table fits it when the item's partition and sort key
 * values are strings of the languages of the entity's key attributes
 * (ddbc_attr_lang: the templates the linter reasons about, with the design's
 * key delimiter). When several entities fit, the one whose key languages
 * hold the most literal bytes wins (PROFILE beats {anything}; "STAMP#{id}"
 * beats "{kind}#{id}"), and on a tie the one declared first. When none fits
 * with the delimiter excluded from placeholder values, entities are tried
 * again with it allowed, so that an item whose placeholder value holds the
 * delimiter is still assigned and reported for exactly that.
 *
 * Findings (kinds, for --format json; all errors but unknown-attribute):
 *   wrong-type          a value of another type than the attribute's
 *   not-in-enum         a value outside the attribute's enum
 *   missing-required    a key attribute of the table, an attribute with a
 *                       template, or one marked required: true, is absent
 *   key-mismatch        a templated attribute differs from its template
 *                       rendered from the item's own values
 *   delimiter-in-value  a placeholder value contains the key delimiter
 *   unknown-attribute   (note) an attribute the entity does not define
 *   unmatched           no entity's key templates fit the item
 * An item is ok when it is assigned and has no error; failed when it has
 * one; unmatched when no entity fits it.
 *
 * Text output, one line per finding and the summary:
 *   FILE:LINE:COL: error: item 3 (UserStamp): 'stampId' is N, expected S
 *   3 items: 1 ok, 1 failed, 1 unmatched
 * LINE:COL is where the attribute's name is in the input (else where the
 * item starts); items are counted from 1 in input order.
 *
 * JSON output (--format json), one object, findings streamed one a line:
 *   {"file": F, "findings": [
 *     {"item": 3, "line": 12, "column": 5, "entity": "UserStamp"|null,
 *      "severity": "error"|"note", "kind": K, "attribute": A|null,
 *      "message": M}, ...],
 *    "input": {"shape": "array"|"lines"|"scan"|"export"|null,
 *              "json": "plain"|"dynamodb"|null},
 *    "summary": {"items": N, "ok": N, "failed": N, "unmatched": N},
 *    "error": {"line": L, "column": C, "message": M}}   (bad input only)
 *
 * Bad input (not JSON, truncated, the wrong shape, invalid DynamoDB JSON,
 * an item over the size cap) stops the check: FILE:LINE:COL: error: MESSAGE
 * on stderr, exit status 2; the findings before it stay written.
 */
#include "emit/emit.h"
#include "items/items_match.h"
#include "items/items_stream.h"
#include "items/items_value.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* DynamoDB's limits on key values: a partition key is at most 2048 bytes,
 * a sort key at most 1024; longer values cannot be keys. */
#define MAX_PK_BYTES 2048
#define MAX_SK_BYTES 1024
/* Item text quoted in a message is cut after this many bytes. */
#define MAX_QUOTED 120
/* Templates an unmatched item's message lists. */
#define MAX_LISTED 4

/* A delimiter no UTF-8 text contains: placeholder values may then hold
 * the real one (the second, lenient assignment). */
static const char lenient_delim[] = "\xff";

typedef enum kind {
	K_WRONG_TYPE,
	K_ENUM,
	K_MISSING,
	K_KEY_MISMATCH,
	K_DELIMITER,
	K_UNKNOWN,
	K_UNMATCHED
} kind;

static const char *const kind_ids[] = { "wrong-type", "not-in-enum", "missing-required",
	"key-mismatch", "delimiter-in-value", "unknown-attribute", "unmatched" };

/* One key attribute of an entity, with the strings it can hold. */
typedef struct keyinfo {
	const ddbc_attr *attr;
	ddbc_lang lang;
} keyinfo;

typedef struct entinfo {
	const ddbc_entity *e;
	keyinfo pk, sk;          /* sk.attr is NULL when the table has no sort key */
	size_t literal;          /* literal bytes of both key languages */
} entinfo;

typedef struct tableinfo {
	const ddbc_table *t;
	const char *pk, *sk;     /* the key attributes' names; sk NULL when none */
	entinfo *ents;
	size_t nents;
} tableinfo;

typedef struct run {
	FILE *out;
	const ddbc_design *g;
	const char *name;
	ddbc_items_format format;
	tableinfo *tables;
	size_t ntables;
	ddbc_match_scratch scratch;

	/* the input, as the first items decide it (-1: not yet) */
	ddbc_items_shape shape;
	int export_lines;
	int dynamodb;

	/* the current item */
	const ddbc_item_span *span;
	int key_depth;           /* where its attribute names are: 1, or 2 in export lines */
	ddbc_ival *attrs;
	size_t nattrs, attrs_cap;
	const entinfo *ent;
	const ddbc_ival **slot;  /* per attribute of ent's entity: the item's value */
	size_t slot_cap;
	strbuf render;           /* reused for rendering templates */
	bool failed;

	unsigned long items, ok, nfailed, unmatched, nfindings;
} run;

/* ---- writing ----------------------------------------------------------------------------- */

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

static void begin_output(run *R)
{
	if (R->format != DDBC_ITEMS_JSON)
		return;
	fputs("{\"file\":", R->out);
	dump_line(R->out, jstr(R->name));
	fputs(",\"findings\":[", R->out);
}

static void finding(run *R, kind k, const char *attr, ddbc_ipos pos, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void finding(run *R, kind k, const char *attr, ddbc_ipos pos, const char *fmt, ...)
{
	strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	const char *sev = k == K_UNKNOWN ? "note" : "error";
	const char *ent = R->ent ? R->ent->e->name.s : NULL;
	if (k != K_UNKNOWN)
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

static const char *shape_word(const run *R)
{
	if (R->export_lines == 1)
		return "export";
	switch (R->shape) {
	case DDBC_SHAPE_ARRAY: return "array";
	case DDBC_SHAPE_LINES: return "lines";
	case DDBC_SHAPE_SCAN: return "scan";
	case DDBC_SHAPE_UNKNOWN: break;
	}
	return NULL;
}

static void end_output(run *R, const ddbc_items_error *err)
{
	if (err)
		fprintf(stderr, "%s:%lu:%lu: error: %s\n", R->name, err->pos.line, err->pos.column,
			err->message);
	if (R->format != DDBC_ITEMS_JSON) {
		if (!err)
			fprintf(R->out, "%lu items: %lu ok, %lu failed, %lu unmatched\n", R->items,
				R->ok, R->nfailed, R->unmatched);
		return;
	}
	const char *shape = shape_word(R);
	const char *json = R->dynamodb < 0 ? NULL : R->dynamodb ? "dynamodb" : "plain";
	json_t *tail = json_pack("{s:{s:o, s:o}, s:{s:I, s:I, s:I, s:I}}", "input",
		"shape", shape ? json_string(shape) : json_null(),
		"json", json ? json_string(json) : json_null(), "summary",
		"items", (json_int_t)R->items, "ok", (json_int_t)R->ok,
		"failed", (json_int_t)R->nfailed, "unmatched", (json_int_t)R->unmatched);
	if (err)
		json_object_set_new(tail, "error", json_pack("{s:I, s:I, s:o}",
			"line", (json_int_t)err->pos.line, "column", (json_int_t)err->pos.column,
			"message", jstr(err->message)));
	/* The tail's members continue the object the findings opened. */
	char *s = json_dumps(tail, JSON_COMPACT | JSON_PRESERVE_ORDER);
	fprintf(R->out, "%s],%s\n", R->nfindings ? "\n" : "", s + 1);
	free(s);
	json_decref(tail);
}

/* Appends text as 'text': control characters escaped, cut after
 * MAX_QUOTED bytes (at a character boundary). */
static void add_quoted(strbuf *sb, const char *s, size_t len)
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

/* ---- positions in the item -------------------------------------------------------------------- */

/* Where the name of attribute key is in the current item's text, found
 * by a scan of its members at key_depth; the item's start when the name
 * is not written plainly (escapes). */
static ddbc_ipos attr_pos(const run *R, const char *key)
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

/* ---- the design ---------------------------------------------------------------------------- */

static size_t literal_bytes(const ddbc_lang *l)
{
	size_t n = 0;
	for (size_t i = 0; i < l->nruns; i++)
		if (l->runs[i].fixed)
			n += l->runs[i].len;
	return n;
}

static void key_init(keyinfo *k, const ddbc_attr *a)
{
	k->attr = a;
	ddbc_lang_init(&k->lang);
	if (a)
		ddbc_attr_lang(a, &k->lang);
}

static void prepare_table(tableinfo *ti, const ddbc_table *t)
{
	ti->t = t;
	ti->pk = t->primary.npk ? t->primary.pk[0].s : NULL;
	ti->sk = t->primary.nsk ? t->primary.sk[0].s : NULL;
	ti->ents = xcalloc(t->nentities ? t->nentities : 1, sizeof(entinfo));
	for (size_t i = 0; i < t->nentities && ti->pk; i++) {
		const ddbc_entity *e = t->entities[i];
		const ddbc_attr *pk = ddbc_entity_attr(e, ti->pk);
		const ddbc_attr *sk = ti->sk ? ddbc_entity_attr(e, ti->sk) : NULL;
		/* An entity without its table's key (entity-missing-key, set off)
		 * can hold no item. */
		if (!pk || (ti->sk && !sk))
			continue;
		entinfo *ei = &ti->ents[ti->nents++];
		ei->e = e;
		key_init(&ei->pk, pk);
		key_init(&ei->sk, sk);
		ei->literal = literal_bytes(&ei->pk.lang) + literal_bytes(&ei->sk.lang);
	}
}

static void prepare(run *R)
{
	R->ntables = R->g->ntables;
	R->tables = xcalloc(R->ntables ? R->ntables : 1, sizeof(tableinfo));
	for (size_t i = 0; i < R->ntables; i++)
		prepare_table(&R->tables[i], &R->g->tables[i]);
}

static void release(run *R)
{
	for (size_t i = 0; i < R->ntables; i++) {
		for (size_t k = 0; k < R->tables[i].nents; k++) {
			ddbc_lang_release(&R->tables[i].ents[k].pk.lang);
			ddbc_lang_release(&R->tables[i].ents[k].sk.lang);
		}
		free(R->tables[i].ents);
	}
	free(R->tables);
	free(R->attrs);
	free(R->slot);
	strbuf_release(&R->render);
	ddbc_match_scratch_release(&R->scratch);
}

/* ---- the item's values ------------------------------------------------------------------------ */

static const ddbc_ival *item_attr(const run *R, const char *name)
{
	for (size_t i = 0; i < R->nattrs; i++)
		if (!strcmp(R->attrs[i].name, name))
			return &R->attrs[i];
	return NULL;
}

/* The item's value of attribute a of the assigned entity, or NULL. */
static const ddbc_ival *value_of(const run *R, const ddbc_attr *a)
{
	return R->slot[a - R->ent->e->attrs];
}

/* Whether v, typed as the input types it, is of type t. Plain JSON has no
 * binary or set types: there a B attribute takes a base64 string, and a
 * set an array of its elements (strings, numbers, base64 strings). */
static bool type_fits(const run *R, const ddbc_ival *v, ddbc_type t)
{
	if (v->type == t)
		return true;
	if (R->dynamodb == 1)
		return false;
	if (t == DDBC_TYPE_B)
		return v->type == DDBC_TYPE_S && ddbc_is_base64(v->text, v->len);
	if (v->type != DDBC_TYPE_L || (t != DDBC_TYPE_SS && t != DDBC_TYPE_NS && t != DDBC_TYPE_BS))
		return false;
	size_t i;
	const json_t *x;
	json_array_foreach((json_t *)v->payload, i, x) {
		bool ok = t == DDBC_TYPE_NS ? json_is_number(x)
					    : json_is_string(x) &&
						  (t == DDBC_TYPE_SS ||
						   ddbc_is_base64(json_string_value(x),
								  json_string_length(x)));
		if (!ok)
			return false;
	}
	return true;
}

/* ---- assignment -------------------------------------------------------------------------------- */

/* The text of key value v when it can be a value of key k: of k's type, no
 * longer than DynamoDB allows. */
static bool key_text(const run *R, const ddbc_ival *v, const keyinfo *k, size_t max)
{
	return v && v->text && type_fits(R, v, k->attr->type) && v->len <= max;
}

static bool key_fits(run *R, const ddbc_ival *v, const keyinfo *k, size_t max, const char *delim)
{
	return key_text(R, v, k, max) &&
	       ddbc_items_lang_matches(&k->lang, v->text, v->len, delim, &R->scratch);
}

static bool entity_fits(run *R, const ddbc_ival *pk, const ddbc_ival *sk, const entinfo *ei,
			const char *delim)
{
	return key_fits(R, pk, &ei->pk, MAX_PK_BYTES, delim) &&
	       (!ei->sk.attr || key_fits(R, sk, &ei->sk, MAX_SK_BYTES, delim));
}

static const entinfo *assign(run *R)
{
	const char *delims[2] = { R->g->key_delimiter, lenient_delim };
	for (int pass = 0; pass < 2; pass++) {
		const entinfo *best = NULL;
		for (size_t t = 0; t < R->ntables; t++) {
			const tableinfo *ti = &R->tables[t];
			const ddbc_ival *pk = ti->pk ? item_attr(R, ti->pk) : NULL;
			const ddbc_ival *sk = ti->sk ? item_attr(R, ti->sk) : NULL;
			if (!pk || (ti->sk && !sk))
				continue;
			for (size_t i = 0; i < ti->nents; i++) {
				const entinfo *ei = &ti->ents[i];
				if ((!best || ei->literal > best->literal) &&
				    entity_fits(R, pk, sk, ei, delims[pass]))
					best = ei;
			}
		}
		if (best)
			return best;
	}
	return NULL;
}

/* ---- unmatched items ------------------------------------------------------------------------------ */

static void add_key_lang(strbuf *sb, const keyinfo *k)
{
	if (k->attr->template.s)
		strbuf_addf(sb, "'%s'", k->attr->template.s);
	else
		strbuf_addf(sb, "any %s", ddbc_type_short(k->attr->type));
}

/* Lists the distinct languages of the key (pk or sk) of the entities
 * marked in pick. */
static void add_langs(strbuf *sb, const tableinfo *ti, const bool *pick, bool sk)
{
	size_t listed = 0;
	for (size_t i = 0; i < ti->nents; i++) {
		const keyinfo *k = sk ? &ti->ents[i].sk : &ti->ents[i].pk;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++) {
			const keyinfo *o = sk ? &ti->ents[j].sk : &ti->ents[j].pk;
			seen = pick[j] && o->attr->template.s && k->attr->template.s &&
			       !strcmp(o->attr->template.s, k->attr->template.s);
		}
		if (!pick[i] || seen)
			continue;
		if (listed == MAX_LISTED) {
			strbuf_addstr(sb, ", ...");
			break;
		}
		strbuf_addstr(sb, listed++ ? ", " : "");
		add_key_lang(sb, k);
	}
}

static void add_key_value(strbuf *sb, const char *name, const ddbc_ival *v)
{
	strbuf_addf(sb, "'%s' ", name);
	if (v->text)
		add_quoted(sb, v->text, v->len);
	else
		strbuf_addf(sb, "(%s)", ddbc_type_short(v->type));
}

/* Why the item fits no entity of table ti, whose key attributes it has. */
static void explain_table(run *R, const tableinfo *ti, strbuf *why)
{
	const ddbc_ival *pk = item_attr(R, ti->pk);
	const ddbc_ival *sk = ti->sk ? item_attr(R, ti->sk) : NULL;
	bool *pk_fits = xcalloc(ti->nents + 1, sizeof(bool));
	bool *all = xcalloc(ti->nents + 1, sizeof(bool));
	size_t npk = 0;
	for (size_t i = 0; i < ti->nents; i++) {
		all[i] = true;
		pk_fits[i] = key_fits(R, pk, &ti->ents[i].pk, MAX_PK_BYTES, lenient_delim);
		npk += pk_fits[i];
	}
	size_t typed = 0;
	for (size_t i = 0; i < ti->nents; i++)
		typed += key_text(R, pk, &ti->ents[i].pk, MAX_PK_BYTES);
	strbuf_addf(why, "of table '%s': ", ti->t->name.s);
	if (ti->nents == 0) {
		strbuf_addstr(why, "the table has no entity");
	} else if (!typed && pk->text && pk->len > MAX_PK_BYTES) {
		strbuf_addf(why, "its '%s' is longer than %d bytes, DynamoDB's limit for a partition "
			    "key", ti->pk, MAX_PK_BYTES);
	} else if (!typed) {
		strbuf_addf(why, "its '%s' is %s, but the table's entities give it type %s", ti->pk,
			    ddbc_type_short(pk->type), ddbc_type_short(ti->ents[0].pk.attr->type));
	} else if (npk && sk) {
		strbuf_addstr(why, "its ");
		add_key_value(why, ti->pk, pk);
		strbuf_addstr(why, " fits ");
		for (size_t i = 0, n = 0; i < ti->nents; i++)
			if (pk_fits[i])
				strbuf_addf(why, "%s'%s'", n++ ? ", " : "", ti->ents[i].e->name.s);
		strbuf_addstr(why, ", but its ");
		add_key_value(why, ti->sk, sk);
		strbuf_addf(why, " fits none of %s: ", npk > 1 ? "their sort keys" : "its sort key");
		add_langs(why, ti, pk_fits, true);
	} else {
		strbuf_addstr(why, "its ");
		add_key_value(why, ti->pk, pk);
		strbuf_addstr(why, " fits none of their partition keys: ");
		add_langs(why, ti, all, false);
	}
	free(pk_fits);
	free(all);
}

static void report_unmatched(run *R)
{
	strbuf why = STRBUF_INIT;
	for (size_t t = 0; t < R->ntables && !why.len; t++) {
		const tableinfo *ti = &R->tables[t];
		if (ti->pk && item_attr(R, ti->pk) && (!ti->sk || item_attr(R, ti->sk)))
			explain_table(R, ti, &why);
	}
	if (!why.len && R->ntables == 1 && R->tables[0].pk) {
		const tableinfo *ti = &R->tables[0];
		bool no_pk = !item_attr(R, ti->pk);
		strbuf_addf(&why, ": it has no '%s', the %s key of table '%s'",
			    no_pk ? ti->pk : ti->sk, no_pk ? "partition" : "sort", ti->t->name.s);
	} else if (!why.len && R->ntables == 0) {
		strbuf_addstr(&why, ": the design has no table");
	} else if (!why.len) {
		strbuf_addstr(&why, ": it lacks the key attributes of every table (");
		for (size_t t = 0; t < R->ntables; t++) {
			const tableinfo *ti = &R->tables[t];
			strbuf_addf(&why, "%s'%s'%s%s%s of '%s'", t ? "; " : "", ti->pk ? ti->pk : "",
				    ti->sk ? " and '" : "", ti->sk ? ti->sk : "", ti->sk ? "'" : "",
				    ti->t->name.s);
		}
		strbuf_addch(&why, ')');
	}
	finding(R, K_UNMATCHED, NULL, R->span->pos, "matches no entity%s%s", why.len && why.buf[0] != ':' ? " " : "",
		strbuf_str(&why));
	strbuf_release(&why);
}

/* ---- checks ------------------------------------------------------------------------------------ */

static bool same_number(const char *a, const char *b)
{
	char *ea, *eb;
	double x = strtod(a, &ea), y = strtod(b, &eb);
	if (*ea || *eb)
		return !strcmp(a, b);
	return !strcmp(a, b) || !(x < y || x > y);
}

/* Whether a scalar text of type t equals enum value n. */
static bool enum_has(const ddbc_attr *a, ddbc_type t, const char *text, size_t len, bool boolean)
{
	for (size_t i = 0; i < a->nenum; i++) {
		const ddbc_node *n = a->enum_values[i];
		if (n->kind != DDBC_NODE_SCALAR)
			continue;
		bool b;
		if (t == DDBC_TYPE_BOOL ? ddbc_node_bool(n, &b) && b == boolean
		    : t == DDBC_TYPE_NULL ? ddbc_node_is_null(n)
		    : t == DDBC_TYPE_N ? ddbc_node_is_number(n) && same_number(text, n->u.text)
				       : n->n == len && !memcmp(n->u.text, text, len))
			return true;
	}
	return false;
}

static void report_enum(run *R, const ddbc_attr *a, const char *text, size_t len)
{
	strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "'%s' is ", a->name.s);
	add_quoted(&msg, text, len);
	strbuf_addstr(&msg, ", which is not one of its enum values (");
	for (size_t i = 0; i < a->nenum && i < 10; i++)
		strbuf_addf(&msg, "%s%s", i ? ", " : "", a->enum_values[i]->u.text);
	strbuf_addstr(&msg, a->nenum > 10 ? ", ...)" : ")");
	finding(R, K_ENUM, a->name.s, attr_pos(R, a->name.s), "%s", strbuf_str(&msg));
	strbuf_release(&msg);
}

static ddbc_type element_type(ddbc_type t)
{
	return t == DDBC_TYPE_SS ? DDBC_TYPE_S : t == DDBC_TYPE_NS ? DDBC_TYPE_N
			       : t == DDBC_TYPE_BS ? DDBC_TYPE_B : DDBC_TYPE_NONE;
}

static void check_enum(run *R, const ddbc_attr *a, const ddbc_ival *v)
{
	if (!a->nenum)
		return;
	ddbc_type et = element_type(a->type);
	if (et == DDBC_TYPE_NONE) {
		const char *text = v->text ? v->text : v->type == DDBC_TYPE_NULL ? "null"
						   : v->boolean ? "true" : "false";
		size_t len = v->text ? v->len : strlen(text);
		if (a->type != DDBC_TYPE_M && a->type != DDBC_TYPE_L &&
		    !enum_has(a, a->type, text, len, v->boolean))
			report_enum(R, a, text, len);
		return;
	}
	size_t i;
	const json_t *x;
	json_array_foreach((json_t *)v->payload, i, x) {
		char buf[40];
		size_t len;
		const char *text = ddbc_ival_scalar_text(x, buf, sizeof(buf), &len);
		if (text && !enum_has(a, et, text, len, false))
			report_enum(R, a, text, len);
	}
}

/* What a type is written as in plain JSON, for messages. */
static const char *plain_form(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_S: return "a JSON string";
	case DDBC_TYPE_N: return "a JSON number";
	case DDBC_TYPE_B: return "a base64 string";
	case DDBC_TYPE_BOOL: return "true or false";
	case DDBC_TYPE_NULL: return "null";
	case DDBC_TYPE_M: return "a JSON object";
	case DDBC_TYPE_L: return "a JSON array";
	case DDBC_TYPE_SS: return "an array of strings";
	case DDBC_TYPE_NS: return "an array of numbers";
	case DDBC_TYPE_BS: return "an array of base64 strings";
	case DDBC_TYPE_NONE: break;
	}
	return "";
}

static void check_type(run *R, const ddbc_attr *a, const ddbc_ival *v)
{
	if (a->type == DDBC_TYPE_NONE)
		return;
	if (!type_fits(R, v, a->type)) {
		if (R->dynamodb == 1)
			finding(R, K_WRONG_TYPE, a->name.s, attr_pos(R, a->name.s),
				"'%s' is %s, expected %s", a->name.s, ddbc_type_short(v->type),
				ddbc_type_short(a->type));
		else
			finding(R, K_WRONG_TYPE, a->name.s, attr_pos(R, a->name.s),
				"'%s' is %s (%s%s), expected %s (%s)", a->name.s,
				ddbc_type_short(v->type), plain_form(v->type),
				a->type == DDBC_TYPE_B && v->type == DDBC_TYPE_S ? " that is not base64"
										 : "",
				ddbc_type_short(a->type), plain_form(a->type));
		return;
	}
	check_enum(R, a, v);
}

static void report_unknown(run *R, const char *name)
{
	strbuf msg = STRBUF_INIT;
	add_quoted(&msg, name, strlen(name));
	strbuf_addf(&msg, " is not an attribute of '%s'", R->ent->e->name.s);
	finding(R, K_UNKNOWN, name, attr_pos(R, name), "%s", strbuf_str(&msg));
	strbuf_release(&msg);
}

/* Links the item's values to the entity's attributes (R->slot), and
 * checks each value. */
static void check_attributes(run *R)
{
	const ddbc_entity *e = R->ent->e;
	xgrow((void **)&R->slot, &R->slot_cap, e->nattrs + 1, sizeof(*R->slot));
	memset(R->slot, 0, (e->nattrs + 1) * sizeof(*R->slot));
	for (size_t i = 0; i < R->nattrs; i++) {
		const ddbc_ival *v = &R->attrs[i];
		const ddbc_attr *a = ddbc_entity_attr(e, v->name);
		if (a)
			R->slot[a - e->attrs] = v;
	}
	for (size_t i = 0; i < R->nattrs; i++) {
		const ddbc_ival *v = &R->attrs[i];
		const ddbc_attr *a = ddbc_entity_attr(e, v->name);
		if (a)
			check_type(R, a, v);
		else
			report_unknown(R, v->name);
	}
}



static void check_required(run *R)
{
	const ddbc_entity *e = R->ent->e;
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		strbuf why = STRBUF_INIT;
		if (a->name.s && !value_of(R, a) && ddbc_attr_required(a, &why))
			finding(R, K_MISSING, a->name.s, R->span->pos, "'%s' is missing (%s)",
				a->name.s, strbuf_str(&why));
		strbuf_release(&why);
	}
}

/* Whether text is a whole number that fits in a long long. */
static bool whole_number(const char *text, long long *out)
{
	char *end;
	if (!*text || strchr(text, '.') || strchr(text, 'e') || strchr(text, 'E'))
		return false;
	errno = 0;
	*out = strtoll(text, &end, 10);
	return !errno && !*end;
}

/* The value of placeholder seg in the current item (the callback of
 * ddbc_template_render): absent and mistyped values are reported by the
 * other checks. */
static ddbc_tvalue item_value(void *ctx, const ddbc_segment *seg)
{
	const run *R = ctx;
	const ddbc_attr *b = seg->ref;
	ddbc_tvalue t = { .kind = DDBC_TVALUE_UNUSABLE };
	if (!b || (b->type != DDBC_TYPE_S && b->type != DDBC_TYPE_N))
		return t;
	const ddbc_ival *v = value_of(R, b);
	if (!v) {
		t.kind = DDBC_TVALUE_MISSING;
		return t;
	}
	if (!type_fits(R, v, b->type))
		return t;
	t.kind = b->type == DDBC_TYPE_S ? DDBC_TVALUE_TEXT : DDBC_TVALUE_NUMBER;
	t.text = v->text;
	t.len = v->len;
	t.is_int = b->type == DDBC_TYPE_N && whole_number(v->text, &t.n);
	t.source = v;
	return t;
}

/* Why a's template could not be checked, in msg; nothing when the reason
 * is reported by another check. */
static void explain_render(const ddbc_attr *a, ddbc_render_result r,
			   const ddbc_render_problem *p, strbuf *msg)
{
	if (r == DDBC_RENDER_MISSING) {
		const ddbc_attr *gone = p->seg->ref;
		/* A lacking placeholder that is itself required is reported as such. */
		if (!ddbc_attr_required(gone, NULL))
			strbuf_addf(msg, "'%s' cannot be checked against its template '%s': the item "
				    "has no '%s'", a->name.s, a->template.s, gone->name.s);
	} else if (r == DDBC_RENDER_UNPADDABLE) {
		const ddbc_ival *bad = p->value.source;
		strbuf_addf(msg, "'%s' pads '%s' to %u digits, but ", a->name.s, bad->name,
			    p->seg->width);
		add_quoted(msg, bad->text, bad->len);
		strbuf_addstr(msg, " is not a non-negative whole number");
	}
}

static void check_template(run *R, const ddbc_attr *a)
{
	const ddbc_ival *v = value_of(R, a);
	if (!v || !a->has_template || a->in_cycle || !type_fits(R, v, DDBC_TYPE_S))
		return;
	strbuf *want = &R->render, msg = STRBUF_INIT;
	strbuf_reset(want);
	ddbc_render_problem p;
	ddbc_render_result r = ddbc_template_render(&a->tpl, item_value, R, want, &p);
	if (r != DDBC_RENDER_OK) {
		explain_render(a, r, &p, &msg);
	} else if (want->len != v->len || memcmp(strbuf_str(want), v->text, v->len)) {
		strbuf_addf(&msg, "'%s' is ", a->name.s);
		add_quoted(&msg, v->text, v->len);
		strbuf_addf(&msg, ", but its template '%s' gives ", a->template.s);
		add_quoted(&msg, want->buf, want->len);
		strbuf_addstr(&msg, " from this item's values");
	}
	if (msg.len)
		finding(R, K_KEY_MISMATCH, a->name.s, attr_pos(R, a->name.s), "%s",
			strbuf_str(&msg));
	strbuf_release(&msg);
}

static bool contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; n && i + n <= len; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, n))
			return true;
	return false;
}

/* The first templated attribute of e that has b as a placeholder. */
static const ddbc_attr *template_using(const ddbc_entity *e, const ddbc_attr *b)
{
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		for (size_t k = 0; a->has_template && k < a->tpl.nsegs; k++)
			if (a->tpl.segs[k].kind == DDBC_SEG_PLACEHOLDER && a->tpl.segs[k].ref == b)
				return a;
	}
	return NULL;
}

/* A placeholder value must not hold the key delimiter (SPEC: key-overlap
 * relies on it). A placeholder that is itself templated holds it by
 * design, and is not looked at. */
static void check_delimiter(run *R, const ddbc_attr *b)
{
	const char *delim = R->g->key_delimiter;
	const ddbc_ival *v = value_of(R, b);
	if (!v || !v->text || b->has_template || !delim || !*delim)
		return;
	const ddbc_attr *a = template_using(R->ent->e, b);
	if (!a || !contains(v->text, v->len, delim))
		return;
	strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "'%s' is ", b->name.s);
	add_quoted(&msg, v->text, v->len);
	strbuf_addf(&msg, ", which contains the key delimiter '%s'; as a placeholder of '%s' "
		    "('%s') it makes the key ambiguous", delim, a->name.s, a->template.s);
	finding(R, K_DELIMITER, b->name.s, attr_pos(R, b->name.s), "%s", strbuf_str(&msg));
	strbuf_release(&msg);
}

static void check_entity(run *R)
{
	const ddbc_entity *e = R->ent->e;
	check_attributes(R);
	check_required(R);
	for (size_t i = 0; i < e->nattrs; i++)
		check_template(R, &e->attrs[i]);
	for (size_t i = 0; i < e->nattrs; i++)
		check_delimiter(R, &e->attrs[i]);
}

/* ---- one item -------------------------------------------------------------------------------------- */

static int bad_item(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad_item(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	err->pos = pos;
	return -1;
}

static bool is_export_line(const json_t *v)
{
	return json_object_size(v) == 1 && json_is_object(json_object_get(v, "Item"));
}

static json_t *parse_item(const ddbc_item_span *sp, ddbc_items_error *err)
{
	json_error_t je;
	size_t flags = JSON_REJECT_DUPLICATES | JSON_DECODE_ANY;
	json_t *root = json_loadb(sp->data, sp->len, flags, &je);
	/* An integer beyond 64 bits is still a DynamoDB number. */
	if (!root && json_error_code(&je) == json_error_numeric_overflow)
		root = json_loadb(sp->data, sp->len, flags | JSON_DECODE_INT_AS_REAL, &je);
	if (!root)
		bad_item(err, ddbc_items_json_error_pos(sp, je.position), "item %lu: %s", sp->index,
			 je.text);
	return root;
}

/* The item object inside root: root itself, or an export line's "Item";
 * decides export lines and DynamoDB JSON on the first items. */
static const json_t *item_object(run *R, const json_t *root, ddbc_items_error *err)
{
	const ddbc_item_span *sp = R->span;
	if (!json_is_object(root)) {
		bad_item(err, sp->pos, "item %lu is %s; an item is a JSON object", sp->index,
			 ddbc_json_kind(root));
		return NULL;
	}
	if (R->export_lines < 0)
		R->export_lines = R->shape != DDBC_SHAPE_SCAN && is_export_line(root);
	const json_t *item = root;
	if (R->export_lines) {
		if (!is_export_line(root)) {
			bad_item(err, sp->pos, "item %lu is not an export line {\"Item\": {...}} as "
				 "the first item is", sp->index);
			return NULL;
		}
		item = json_object_get(root, "Item");
	}
	if (R->dynamodb < 0 && (R->shape == DDBC_SHAPE_SCAN || R->export_lines))
		R->dynamodb = 1;
	else if (R->dynamodb < 0 && json_object_size(item) > 0)
		R->dynamodb = ddbc_ival_looks_typed(item);
	R->key_depth = R->export_lines ? 2 : 1;
	return item;
}

static int type_values(run *R, const json_t *item, ddbc_items_error *err)
{
	size_t n = json_object_size(item);
	xgrow((void **)&R->attrs, &R->attrs_cap, n + 1, sizeof(ddbc_ival));
	R->nattrs = 0;
	const char *key;
	const json_t *v;
	strbuf why = STRBUF_INIT;
	json_object_foreach((json_t *)item, key, v) {
		if (!ddbc_ival_make(&R->attrs[R->nattrs], key, v, R->dynamodb == 1, &why)) {
			bad_item(err, attr_pos(R, key), "item %lu: %s", R->span->index,
				 strbuf_str(&why));
			strbuf_release(&why);
			return -1;
		}
		R->nattrs++;
	}
	return 0;
}

static int check_item(run *R, const ddbc_item_span *sp, ddbc_items_error *err)
{
	R->span = sp;
	R->ent = NULL;
	R->failed = false;
	R->key_depth = 1;
	json_t *root = parse_item(sp, err);
	if (!root)
		return -1;
	const json_t *item = item_object(R, root, err);
	if (!item || type_values(R, item, err) < 0) {
		json_decref(root);
		return -1;
	}
	R->items++;
	R->ent = assign(R);
	if (!R->ent) {
		report_unmatched(R);
		R->unmatched++;
	} else {
		check_entity(R);
		if (R->failed)
			R->nfailed++;
		else
			R->ok++;
	}
	json_decref(root);
	return 0;
}

/* ---- the command --------------------------------------------------------------------------------------- */

int ddbc_check_items(FILE *out, const ddbc_design *g, FILE *in, const char *name,
		     ddbc_items_format format)
{
	run R;
	memset(&R, 0, sizeof(R));
	R.out = out;
	R.g = g;
	R.name = name;
	R.format = format;
	R.export_lines = R.dynamodb = -1;
	prepare(&R);
	begin_output(&R);

	ddbc_items_reader *reader = ddbc_items_reader_new(in, DDBC_ITEMS_MAX_ITEM);
	ddbc_items_error err;
	ddbc_item_span span;
	int rc;
	while ((rc = ddbc_items_next(reader, &span, &err)) > 0) {
		R.shape = ddbc_items_shape_of(reader);
		if (check_item(&R, &span, &err) < 0) {
			rc = -1;
			break;
		}
	}
	R.shape = ddbc_items_shape_of(reader);
	end_output(&R, rc < 0 ? &err : NULL);
	ddbc_items_reader_free(reader);
	release(&R);
	fflush(out);
	if (rc < 0)
		return DDBC_EMIT_FAILED;
	return R.nfailed || R.unmatched ? DDBC_EMIT_FINDINGS : DDBC_EMIT_OK;
}
