/* emit_keys.c - `ddbc keys`: the header's plan as a TypeScript, Python or Go module
 *
 * Walks the plan in the header's order (tables, each entity's attributes
 * and keys, then the type guards, then the access patterns' requests) and
 * hands each part to the language's printer (emit_keys_int.h). The names
 * are the plan's, which header-name has checked; the few this module adds
 * (shapes, range-bound helpers, guards, requests) are checked here against
 * every other name of the module, and a clash stops the command before
 * anything is written (the output is a temporary file until it succeeds).
 * A pattern's request is put together in emit_keys_request.c.
 */
#include "emit/emit_keys_int.h"
#include "emit/emit_json.h"
#include "model/header_plan_int.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/error.h"
#include "util/json_number.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- names and text ---------------------------------------------------------- */

const char *ddbc_keys_ident(keys_writer *w, const char *name)
{
	if (!w->ops || !w->ops->ident)
		return name;
	strbuf sb = STRBUF_INIT;
	w->ops->ident(&sb, name);
	const char *r = ddbc_arena_strdup(w->arena, sb.buf ? sb.buf : "");
	ddbc_strbuf_release(&sb);
	return r;
}

bool ddbc_keys_name(keys_writer *w, const char *plan_name)
{
	const char *name = ddbc_keys_ident(w, plan_name);
	size_t len = strlen(name);
	if (!w->exact) {
		ddbc_xgrow((void **)&w->hashes, &w->hashes_cap, w->nhashes + 1, sizeof(uint64_t));
		w->hashes[w->nhashes++] = ddbc_hash64(name, len);
		return true;
	}
	const char *had = ddbc_strset_get(&w->names, name, len);
	if (had) {
		/* Each name is kept with its plan name after its '\0'. */
		const char *had_plan = had + len + 1;
		if (strcmp(name, plan_name) || strcmp(had_plan, plan_name))
			ddbc_err_add(w->err, "keys", "the module would have two things named '%s' "
				     "(%s's name for both '%s' and '%s' of the C header); give an "
				     "entity a c_name, or rename the attribute or access pattern",
				     name, w->ops->lang_name, had_plan, plan_name);
		else
			ddbc_err_add(w->err, "keys", "the module would have two things named '%s'; "
				     "give an entity a c_name, or rename the attribute or access "
				     "pattern", name);
		w->failed = true;
		return false;
	}
	size_t plan_len = strlen(plan_name);
	char *kept = ddbc_arena_alloc(w->names_arena, len + plan_len + 2);
	memcpy(kept, name, len + 1);
	memcpy(kept + len + 1, plan_name, plan_len + 1);
	ddbc_strset_put(&w->names, kept, len);
	return true;
}

const char *ddbc_keys_concat(keys_writer *w, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *r = ddbc_arena_alloc(w->arena, la + lb + 1);
	memcpy(r, a, la);
	memcpy(r + la, b, lb + 1);
	return r;
}

const char *ddbc_keys_lower(keys_writer *w, const char *s)
{
	char *r = ddbc_arena_strdup(w->arena, s);
	for (char *p = r; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return r;
}

void ddbc_keys_string(strbuf *sb, const char *s, size_t len, bool ts)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	ddbc_strbuf_addch(sb, '"');
	while (p < end) {
		unsigned cp = *p;
		size_t n = 1;
		if (cp >= 0x80 && !(n = ddbc_utf8_decode(p, end, &cp))) {
			cp = 0xFFFD;     /* the loader admits UTF-8 only */
			n = 1;
		}
		p += n;
		if (cp == '"' || cp == '\\')
			ddbc_strbuf_addf(sb, "\\%c", (char)cp);
		else if (cp == '\n')
			ddbc_strbuf_addstr(sb, "\\n");
		else if (cp == '\t')
			ddbc_strbuf_addstr(sb, "\\t");
		else if (cp >= 0x20 && cp < 0x7f)
			ddbc_strbuf_addch(sb, (char)cp);
		else if (cp < 0x10000)
			ddbc_strbuf_addf(sb, "\\u%04X", cp);
		else
			ddbc_strbuf_addf(sb, ts ? "\\u{%X}" : "\\U%08X", cp);
	}
	ddbc_strbuf_addch(sb, '"');
}

/* Whether a character cannot stand in a comment as written: one that
 * ends the line in some language (U+2028 and U+2029 end a TypeScript
 * comment, U+0085 Python's lines as some tools read them), turns the
 * text around (bidi controls: the comment would not read as the code
 * runs), the byte order mark (Go refuses one past the file's start), a
 * C1 control or a noncharacter (no text holds them). */
static bool comment_unsafe(unsigned cp)
{
	return (cp >= 0x80 && cp < 0xa0) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 ||
	       cp == 0x2029 || cp == 0xfeff || (cp >= 0xfdd0 && cp <= 0xfdef) ||
	       (cp & 0xfffe) == 0xfffe;
}

void ddbc_keys_comment(strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);
	while (p < end) {
		if (*p < 0x80) {
			ddbc_strbuf_addch(sb, *p < 0x20 || *p == 0x7f ? ' ' : (char)*p);
			p++;
			continue;
		}
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		if (n == 0 || comment_unsafe(cp))
			ddbc_strbuf_addch(sb, '?');
		else
			ddbc_strbuf_add(sb, p, n);
		p += n ? n : 1;
	}
}

void ddbc_keys_flush(keys_writer *w)
{
	/* An empty buffer may have none; the exact pass writes nothing. */
	if (w->sb.len && w->out)
		fwrite(w->sb.buf, 1, w->sb.len, w->out);
	ddbc_strbuf_reset(&w->sb);
}

/* The end of a part (an entity, the guards, a request): what the part
 * named was written and, in the exact pass, kept in names_arena. */
static void end_part(keys_writer *w)
{
	ddbc_keys_flush(w);
	ddbc_arena_clear(w->arena);
}

void ddbc_keys_origin(strbuf *sb, const ddbc_design *g)
{
	const char *path = g->src && g->src->name ? g->src->name : "-";
	const char *slash = strrchr(path, '/');
	ddbc_strbuf_addstr(sb, "the design '");
	ddbc_keys_comment(sb, g->name.s ? g->name.s : "");
	ddbc_strbuf_addstr(sb, "' (");
	ddbc_keys_comment(sb, slash ? slash + 1 : path);
	ddbc_strbuf_addch(sb, ')');
}

const char *ddbc_keys_type_name(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_S: return "S";
	case DDBC_TYPE_N: return "N";
	case DDBC_TYPE_B: return "B";
	case DDBC_TYPE_BOOL: return "BOOL";
	case DDBC_TYPE_NULL: return "NULL";
	default: return NULL;
	}
}

/* ---- what every language writes alike ---------------------------------------------- */

static void constant_n(strbuf *sb, const keys_syntax *sx, const char *name, const char *value,
		       size_t len, const char *comment)
{
	ddbc_strbuf_addf(sb, "%s%s = ", sx->const_open, name);
	ddbc_keys_string(sb, value, len, sx->ts);
	ddbc_strbuf_addstr(sb, sx->const_close);
	if (comment)
		ddbc_strbuf_addf(sb, "%s %s", sx->trail, comment);
	ddbc_strbuf_addch(sb, '\n');
}

static void constant(strbuf *sb, const keys_syntax *sx, const char *name, const char *value,
		     const char *comment)
{
	constant_n(sb, sx, name, value, strlen(value), comment);
}

static void section(strbuf *sb, const keys_syntax *sx, const char *what, const char *name)
{
	ddbc_strbuf_addf(sb, "%s%s ---- %s ", sx->gap, sx->comment, what);
	ddbc_keys_comment(sb, name);
	ddbc_strbuf_addstr(sb, "\n\n");
}

static void table(keys_writer *w, const keys_syntax *sx, const ddbc_htable *ht)
{
	section(&w->sb, sx, "table", ht->table->name.s);
	constant(&w->sb, sx, ddbc_keys_ident(w, ht->macro), ht->table->name.s, NULL);
	for (size_t i = 0; i < ht->nindexes; i++)
		constant(&w->sb, sx, ddbc_keys_ident(w, ht->indexes[i].macro), ht->indexes[i].index->name.s,
			 ht->indexes[i].index->kind == DDBC_INDEX_LSI ? "LSI" : "GSI");
}

/* An attribute's names; a key's template above them. */
static void attr(keys_writer *w, const keys_syntax *sx, const ddbc_hattr *ha)
{
	strbuf *sb = &w->sb;
	if (ha->key) {
		/* "key" first: a comment that starts with the design's text
		 * could be a directive ("// @ts-expect-error"). */
		ddbc_strbuf_addf(sb, "\n%s key ", sx->comment);
		ddbc_keys_comment(sb, ha->attr->name.s);
		ddbc_strbuf_addstr(sb, ": ");
		ddbc_keys_comment(sb, ha->attr->template.s);
		ddbc_strbuf_addch(sb, '\n');
	}
	constant(sb, sx, ddbc_keys_ident(w, ha->name_macro), ha->attr->name.s, NULL);
	if (ha->expr_macro)
		constant(sb, sx, ddbc_keys_ident(w, ha->expr_macro), ha->expr_name, "ExpressionAttributeNames placeholder");
}

/* ---- JSON as a literal ----------------------------------------------------------- */

static long slot_of(const keys_request *r, const json_t *v)
{
	for (size_t i = 0; r && i < r->hp->nvalues + r->ncond; i++)
		if (r->slots[i] == v)
			return (long)i;
	return -1;
}

static void indent(strbuf *sb, int depth)
{
	ddbc_strbuf_addch(sb, '\n');
	for (int i = 0; i < depth; i++)
		ddbc_strbuf_addstr(sb, "    ");
}

static void object_lit(strbuf *sb, const json_t *v, const keys_json_style *st,
		       const keys_request *r,
		       void (*value_expr)(strbuf *sb, const keys_request *r, size_t i), int depth)
{
	const char *key;
	json_t *member;
	ddbc_strbuf_addstr(sb, st->obj_open);
	json_object_foreach((json_t *)v, key, member) {
		indent(sb, depth + 1);
		ddbc_keys_string(sb, key, strlen(key), st->ts);
		ddbc_strbuf_addstr(sb, ": ");
		ddbc_keys_json(sb, member, st, r, value_expr, depth + 1);
		ddbc_strbuf_addch(sb, ',');
	}
	if (json_object_size(v))
		indent(sb, depth);
	ddbc_strbuf_addstr(sb, st->obj_close);
}

void ddbc_keys_json(strbuf *sb, const json_t *v, const keys_json_style *st, const keys_request *r,
	       void (*value_expr)(strbuf *sb, const keys_request *r, size_t i), int depth)
{
	if (r && v == r->item && st->item_open) {
		ddbc_strbuf_addstr(sb, st->item_open);
		object_lit(sb, v, st, r, value_expr, depth);
		ddbc_strbuf_addstr(sb, st->item_close);
		return;
	}
	long slot = slot_of(r, v);
	json_t *bin = json_is_object(v) && json_object_size(v) == 1 ? json_object_get(v, "B") : NULL;
	if (slot >= 0 || (bin && json_is_string(bin) && st->bytes_open)) {
		const char *type;
		json_t *member;
		json_object_foreach((json_t *)v, type, member) {
			bool bytes = !strcmp(type, "B") && st->bytes_open;
			ddbc_strbuf_addstr(sb, st->obj_open);
			ddbc_keys_string(sb, type, strlen(type), st->ts);
			ddbc_strbuf_addstr(sb, ": ");
			ddbc_strbuf_addstr(sb, bytes ? st->bytes_open : "");
			if (slot >= 0)
				value_expr(sb, r, (size_t)slot);
			else
				ddbc_keys_string(sb, json_string_value(member), json_string_length(member),
					    st->ts);
			ddbc_strbuf_addstr(sb, bytes ? st->bytes_close : "");
			ddbc_strbuf_addstr(sb, st->obj_close);
			break;
		}
		return;
	}
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		object_lit(sb, v, st, r, value_expr, depth);
		return;
	case JSON_ARRAY:
		ddbc_strbuf_addstr(sb, st->arr_open);
		for (size_t i = 0; i < json_array_size(v); i++) {
			ddbc_keys_json(sb, json_array_get(v, i), st, r, value_expr, depth);
			if (i + 1 < json_array_size(v))
				ddbc_strbuf_addstr(sb, ", ");
		}
		ddbc_strbuf_addstr(sb, st->arr_close);
		return;
	case JSON_STRING: {
		/* Unmarked as ddbc_json_unmark does: a marked number is the
		 * number's digits, a string marked twice the string it holds,
		 * anything else the string it is. */
		size_t n;
		const char *s = ddbc_json_marked_number(v, &n);
		if (s && ddbc_decimal_valid(s, n)) {
			ddbc_strbuf_add(sb, s, n);
			return;
		}
		if (!(s = ddbc_json_marked_string(v, &n))) {
			s = json_string_value(v);
			n = json_string_length(v);
		}
		ddbc_keys_string(sb, s, n, st->ts);
		return;
	}
	case JSON_INTEGER: ddbc_strbuf_addf(sb, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); return;
	case JSON_REAL: ddbc_strbuf_addf(sb, "%.17g", json_real_value(v)); return;
	case JSON_TRUE: ddbc_strbuf_addstr(sb, st->yes); return;
	case JSON_FALSE: ddbc_strbuf_addstr(sb, st->no); return;
	case JSON_NULL: ddbc_strbuf_addstr(sb, st->null); return;
	}
}

/* ---- keys ---------------------------------------------------------------------- */

/* The UTF-8 of the character after the first of text in code point order
 * (rules/bounds.c's next_char); 0 when there is none. */
static size_t next_char(const char *text, size_t len, char out[5])
{
	unsigned cp;
	const unsigned char *s = (const unsigned char *)text;
	if (!ddbc_utf8_decode(s, s + len, &cp) || cp >= 0x10FFFF)
		return 0;
	cp = cp + 1 == 0xD800 ? 0xE000 : cp + 1;
	strbuf sb = STRBUF_INIT;
	if (cp < 0x80) {
		ddbc_strbuf_addch(&sb, (char)cp);
	} else if (cp < 0x800) {
		ddbc_strbuf_addch(&sb, (char)(0xC0 | (cp >> 6)));
		ddbc_strbuf_addch(&sb, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		ddbc_strbuf_addch(&sb, (char)(0xE0 | (cp >> 12)));
		ddbc_strbuf_addch(&sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
		ddbc_strbuf_addch(&sb, (char)(0x80 | (cp & 0x3F)));
	} else {
		ddbc_strbuf_addch(&sb, (char)(0xF0 | (cp >> 18)));
		ddbc_strbuf_addch(&sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
		ddbc_strbuf_addch(&sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
		ddbc_strbuf_addch(&sb, (char)(0x80 | (cp & 0x3F)));
	}
	size_t n = sb.len;
	memcpy(out, sb.buf, n);
	out[n] = '\0';
	ddbc_strbuf_release(&sb);
	return n;
}

/* The range-bound helpers of k: one pair per parameter that a literal
 * follows, for its first such place. */
static void plan_cuts(keys_writer *w, const ddbc_hattr *ha, keys_key *kk)
{
	const ddbc_hkey *k = ha->key;
	kk->cuts = ddbc_arena_alloc(w->arena, (k->npieces + 1) * sizeof(keys_cut));
	kk->ncuts = 0;
	size_t used = 0;
	bool *done = ddbc_xcalloc(k->nparams + 1, sizeof(bool));
	for (size_t i = 0; i + 1 < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i], *next = &k->pieces[i + 1];
		if (pc->text)
			continue;
		if (pc->param + 1 > used)
			used = pc->param + 1;
		if (!next->text || done[pc->param])
			continue;
		done[pc->param] = true;
		keys_cut *c = &kk->cuts[kk->ncuts++];
		c->piece = i;
		c->nparams = used;
		const char *stem = ddbc_keys_concat(w, ha->func, "_prefix_to_");
		c->prefix_func = ddbc_keys_concat(w, stem, k->params[pc->param].name);
		c->after_len = next_char(next->text, next->len, c->after);
		c->after_func = NULL;
		if (c->after_len)
			c->after_func = ddbc_keys_concat(w, ddbc_keys_concat(w, ha->func, "_after_"),
						    k->params[pc->param].name);
		ddbc_keys_name(w, c->prefix_func);
		if (c->after_func)
			ddbc_keys_name(w, c->after_func);
	}
	free(done);
}

static void attr_part(keys_writer *w, const keys_ops *ops, const ddbc_hattr *ha)
{
	ddbc_keys_name(w, ha->name_macro);
	if (ha->expr_macro)
		ddbc_keys_name(w, ha->expr_macro);
	attr(w, ops->syntax, ha);
	if (!ha->key)
		return;
	keys_key kk = { ha, NULL, NULL, 0 };
	const ddbc_hkey *k = ha->key;
	if (k->constant) {
		ddbc_keys_name(w, ha->builder);
		strbuf lit = STRBUF_INIT;
		for (size_t i = 0; i < k->npieces; i++)
			ddbc_strbuf_add(&lit, k->pieces[i].text, k->pieces[i].len);
		constant_n(&w->sb, ops->syntax, ddbc_keys_ident(w, ha->builder), lit.buf ? lit.buf : "", lit.len,
			   "constant key");
		ddbc_strbuf_release(&lit);
		return;
	}
	kk.shape = ddbc_keys_concat(w, ha->fmt_macro, "_");
	ddbc_keys_name(w, kk.shape);
	ddbc_keys_name(w, ha->func);
	if (ha->prefix_macro) {
		ddbc_keys_name(w, ha->prefix_macro);
		constant_n(&w->sb, ops->syntax, ddbc_keys_ident(w, ha->prefix_macro), k->prefix, k->prefix_len,
			   "begins_with prefix");
	}
	if (ha->parse_func) {
		ddbc_keys_name(w, ha->parse_func);
		ddbc_keys_name(w, ha->parts_struct);
	}
	plan_cuts(w, ha, &kk);
	if (!w->failed)
		ops->key(w, &kk);
}

/* ---- type guards ----------------------------------------------------------------- */

void ddbc_keys_const_value(strbuf *sb, const ddbc_attr *a, bool ts)
{
	strbuf v = STRBUF_INIT;
	if (a->has_template) {
		for (size_t i = 0; i < a->tpl.nsegs; i++)
			ddbc_strbuf_add(&v, a->tpl.segs[i].text, a->tpl.segs[i].len);
	} else {
		ddbc_json_scalar_text(a->more->enum_values[0], &v);
	}
	ddbc_keys_string(sb, v.buf ? v.buf : "", v.len, ts);
	ddbc_strbuf_release(&v);
}

static size_t plan_guards(keys_writer *w, keys_guard **out)
{
	const ddbc_design *g = w->g;
	keys_guard *gs = ddbc_arena_alloc(w->arena, (g->nentities + 1) * sizeof(keys_guard));
	size_t n = 0;
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		const ddbc_table *t = e->table;
		const char *ident = w->plan->entity_idents[i];
		if (!t || !t->primary.npk || !ident)
			continue;
		const ddbc_attr *pk = ddbc_entity_attr(e, t->primary.pk[0].s);
		const ddbc_attr *sk = t->primary.nsk ? ddbc_entity_attr(e, t->primary.sk[0].s) : NULL;
		if (!pk || (t->primary.nsk && !sk))
			continue;
		keys_guard *kg = &gs[n++];
		memset(kg, 0, sizeof(*kg));
		kg->e = e;
		kg->pk = pk;
		kg->sk = sk;
		const char *stem = ddbc_keys_concat(w, w->plan->prefix_lower, "_is_");
		kg->func = ddbc_keys_concat(w, stem, ddbc_keys_lower(w, ident));
		ddbc_keys_name(w, kg->func);
		/* The languages semantics.c gave the key attributes, shared (a
		 * copy for each of the design's entities was megabytes). */
		ddbc_lang_init(&kg->sk_lang);
		kg->pk_lang = *ddbc_attr_key_lang(pk);
		if (sk)
			kg->sk_lang = *ddbc_attr_key_lang(sk);
		kg->literal = ddbc_lang_literal_bytes(&kg->pk_lang) + ddbc_lang_literal_bytes(&kg->sk_lang);
		kg->consts = ddbc_arena_alloc(w->arena, (e->nattrs + 1) * sizeof(*kg->consts));
		for (size_t k = 0; k < e->nattrs; k++)
			if (ddbc_attr_is_constant(&e->attrs[k], t))
				kg->consts[kg->nconsts++] = &e->attrs[k];
	}
	*out = gs;
	return n;
}

static void key_data(strbuf *sb, const ddbc_attr *a, const ddbc_lang *l, unsigned max,
		     const keys_data_style *st, bool ts)
{
	ddbc_strbuf_addstr(sb, st->key_open);
	ddbc_keys_string(sb, a->name.s, strlen(a->name.s), ts);
	const char *type = ddbc_keys_type_name(a->type) ? ddbc_keys_type_name(a->type) : "S";
	ddbc_strbuf_addstr(sb, ", ");
	ddbc_keys_string(sb, type, strlen(type), ts);
	ddbc_strbuf_addf(sb, ", %u, %s", max, st->runs_open);
	for (size_t i = 0; i < l->nruns; i++) {
		const ddbc_run *r = &l->runs[i];
		if (r->fixed) {
			ddbc_strbuf_addstr(sb, st->fixed_open);
			ddbc_keys_string(sb, r->text, r->len, ts);
			ddbc_strbuf_addstr(sb, st->fixed_close);
		} else {
			ddbc_strbuf_addf(sb, st->class_fmt, r->cls, (size_t)r->min, (size_t)r->max);
		}
		ddbc_strbuf_addstr(sb, ", ");
	}
	ddbc_strbuf_addf(sb, "%s%s", st->runs_close, st->key_close);
}

void ddbc_keys_guard_data(strbuf *sb, const keys_guard *kg, const keys_data_style *st, bool ts)
{
	const ddbc_entity *e = kg->e;
	ddbc_strbuf_addstr(sb, st->entity_open);
	ddbc_keys_string(sb, e->name.s, strlen(e->name.s), ts);
	ddbc_strbuf_addstr(sb, st->keys_open);
	/* DynamoDB's most bytes of a partition and of a sort key value. */
	key_data(sb, kg->pk, &kg->pk_lang, 2048, st, ts);
	if (kg->sk)
		key_data(sb, kg->sk, &kg->sk_lang, 1024, st, ts);
	ddbc_strbuf_addf(sb, st->literal_fmt, kg->literal);
	for (size_t i = 0; i < kg->nconsts; i++) {
		const ddbc_attr *a = kg->consts[i];
		const char *type = a->has_template ? "S" : ddbc_keys_type_name(a->type);
		ddbc_strbuf_addstr(sb, st->const_open);
		ddbc_keys_string(sb, a->name.s, strlen(a->name.s), ts);
		ddbc_strbuf_addstr(sb, ", ");
		ddbc_keys_string(sb, type, strlen(type), ts);
		ddbc_strbuf_addstr(sb, ", ");
		ddbc_keys_const_value(sb, a, ts);
		ddbc_strbuf_addstr(sb, st->const_close);
	}
	ddbc_strbuf_addstr(sb, st->stored_open);
	for (size_t i = 0; i < e->nattrs; i++) {
		if (!ddbc_attr_stored(&e->attrs[i]))
			continue;
		ddbc_keys_string(sb, e->attrs[i].name.s, strlen(e->attrs[i].name.s), ts);
		ddbc_strbuf_addstr(sb, st->stored_item);
	}
	ddbc_strbuf_addstr(sb, st->entity_close);
}

static void guards(keys_writer *w, const keys_ops *ops)
{
	keys_guard *gs;
	size_t n = plan_guards(w, &gs);
	const char *entity_of = ddbc_keys_concat(w, w->plan->prefix_lower, "_entity_of");
	ddbc_keys_name(w, entity_of);
	if (!w->failed)
		ops->guards(w, gs, n, entity_of);
}

/* ---- the module ---------------------------------------------------------------------- */

static void entities(keys_writer *w, const keys_ops *ops)
{
	for (size_t i = 0; i < w->g->nentities && !w->failed; i++) {
		ddbc_hentity he;
		if (ddbc_header_plan_entity(w->plan, i, &he, w->err) != 0) {
			w->failed = true;
			break;
		}
		section(&w->sb, ops->syntax, "entity", he.entity->name.s);
		/* The enum types first: a key's builder names the type of an
		 * enum part in its signature, which Python evaluates when it
		 * defines the function, whatever attribute comes first. */
		for (size_t k = 0; k < he.nattrs && !w->failed; k++) {
			const ddbc_hattr *ha = &he.attrs[k];
			if (!ha->enum_macro || ha->attr->type != DDBC_TYPE_S)
				continue;
			ddbc_keys_name(w, ha->enum_macro);
			ops->enum_type(w, ha);
			end_part(w);
		}
		/* A part per attribute: an entity may have 40,000. */
		for (size_t k = 0; k < he.nattrs && !w->failed; k++) {
			attr_part(w, ops, &he.attrs[k]);
			end_part(w);
		}
		end_part(w);
	}
}

static void requests(keys_writer *w, const keys_ops *ops)
{
	for (size_t i = 0; i < w->g->npatterns && !w->failed; i++) {
		ddbc_hpattern hp;
		keys_request r;
		if (!ddbc_header_plan_pattern(w->plan, i, &hp))
			continue;
		if (!ddbc_keys_plan_request(w, &hp, &r)) {
			free(r.params);
			continue;
		}
		if (!w->failed)
			ops->request(w, &r);
		json_decref(r.input);
		free(r.params);
		end_part(w);
	}
}

static void module(keys_writer *w, const keys_ops *ops)
{
	ops->head(w);
	for (size_t i = 0; i < w->plan->ntables && !w->failed; i++) {
		const ddbc_htable *ht = &w->plan->tables[i];
		ddbc_keys_name(w, ht->macro);
		for (size_t k = 0; k < ht->nindexes; k++)
			ddbc_keys_name(w, ht->indexes[k].macro);
		table(w, ops->syntax, ht);
	}
	ddbc_keys_flush(w);
	entities(w, ops);
	if (!w->failed)
		guards(w, ops);
	end_part(w);
	requests(w, ops);
	if (!w->failed)
		ops->tail(w);
	ddbc_keys_flush(w);
}

static bool word_in(const char *s, const char *const *words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

/* Every language takes an ASCII identifier (the TypeScript module only
 * says the name). Go writes it as the package clause: no keyword, not
 * the blank identifier, not "main" (a command, which `go build` wants a
 * main function of), not "init" (Go refuses to import a package as
 * init). Python names the module so in its docstring, and the file is
 * imported by that name: no keyword, and none of the modules it imports
 * itself (a typing.py would import itself). */
const char *ddbc_keys_module_problem(ddbc_keys_lang lang, const char *s)
{
	static const char *const go_words[] = { "break", "case", "chan", "const", "continue",
		"default", "defer", "else", "fallthrough", "for", "func", "go", "goto", "if",
		"import", "interface", "map", "package", "range", "return", "select", "struct",
		"switch", "type", "var", "_", "main", "init" };
	static const char *const py_words[] = { "False", "None", "True", "and", "as", "assert",
		"async", "await", "break", "class", "continue", "def", "del", "elif", "else",
		"except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
		"nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
		"base64", "dataclasses", "decimal", "re", "typing" };
	if (!*s || (*s >= '0' && *s <= '9'))
		return "it must be ASCII letters, digits and '_', not starting with a digit";
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return "it must be ASCII letters, digits and '_', not starting with a digit";
	if (lang == DDBC_KEYS_GO && word_in(s, go_words, sizeof(go_words) / sizeof(go_words[0])))
		return "a Go package cannot be a keyword, '_', 'main' or 'init'";
	if (lang == DDBC_KEYS_PYTHON &&
	    word_in(s, py_words, sizeof(py_words) / sizeof(py_words[0])))
		return "a Python module cannot be a keyword or a module it imports (base64, "
		       "dataclasses, decimal, re, typing)";
	return NULL;
}

/* Whether two of the names the module was written with have one hash:
 * a clash, or (one time in billions) two names whose hashes meet. */
static bool names_met(keys_writer *w)
{
	ddbc_hashset twice = DDBC_HASHSET_INIT;
	ddbc_hashes_repeated(w->hashes, w->nhashes, &twice);
	bool met = twice.n > 0;
	ddbc_hashset_release(&twice);
	return met;
}

/* Goes through the module again writing nothing, every name kept: whether
 * no two are equal (else the first clash is reported by name). */
static bool exact_pass(const keys_writer *first, const keys_ops *ops)
{
	keys_writer w = *first;
	w.out = NULL;
	w.sb = (strbuf)STRBUF_INIT;
	w.arena = ddbc_arena_new();
	w.names_arena = ddbc_arena_new();
	w.names = (ddbc_strset)DDBC_STRSET_INIT;
	w.exact = true;
	w.hashes = NULL;
	w.nhashes = w.hashes_cap = 0;
	module(&w, ops);
	ddbc_strbuf_release(&w.sb);
	ddbc_strset_release(&w.names);
	ddbc_arena_free(w.arena);
	ddbc_arena_free(w.names_arena);
	return !w.failed;
}

ddbc_emit_result ddbc_emit_keys(FILE *out, const ddbc_design *g, const ddbc_keys_opts *o,
				ddbc_diags *d)
{
	ddbc_header_plan plan;
	ddbc_emit_result r = DDBC_EMIT_FAILED;
	ddbc_err unkept = DDBC_ERR_INIT;
	switch (ddbc_header_plan_build(&plan, g, NULL, d, o ? o->err : NULL)) {
	case DDBC_PLAN_OK: {
		keys_writer w = { out, STRBUF_INIT, g, &plan, NULL, NULL, ddbc_arena_new(),
				  DDBC_STRSET_INIT, false, false, NULL, 0, 0, NULL, NULL };
		w.err = o && o->err ? o->err : &unkept;
		w.module = o && o->module ? o->module : plan.prefix_lower;
		ddbc_keys_lang lang = o ? o->lang : DDBC_KEYS_TS;
		const char *problem = ddbc_keys_module_problem(lang, w.module);
		if (problem) {
			/* --module is checked before (cli.c): this is the design's name. */
			ddbc_err_add(w.err, NULL, "keys: '%s' (from the design's name) cannot name "
				     "the module: %s; give a name with --module", w.module,
				     problem);
			ddbc_arena_free(w.arena);
			ddbc_err_release(&unkept);
			ddbc_header_plan_free(&plan);
			return DDBC_EMIT_FAILED;
		}
		const keys_ops *ops = lang == DDBC_KEYS_TS ? &ddbc_keys_ts_ops
				      : lang == DDBC_KEYS_PYTHON ? &ddbc_keys_py_ops
								 : &ddbc_keys_go_ops;
		w.ops = ops;
		module(&w, ops);
		if (!w.failed && names_met(&w))
			w.failed = !exact_pass(&w, ops);
		r = w.failed ? DDBC_EMIT_FAILED : DDBC_EMIT_OK;
		ddbc_strbuf_release(&w.sb);
		free(w.hashes);
		ddbc_arena_free(w.arena);
		break;
	}
	case DDBC_PLAN_FINDINGS: r = DDBC_EMIT_FINDINGS; break;
	case DDBC_PLAN_FAILED: break;
	}
	ddbc_header_plan_free(&plan);
	ddbc_err_release(&unkept);
	return r;
}
