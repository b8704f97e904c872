/* migrate_item.c - one stored item taken to NEW
 *
 * The values an item stands for are its S and N attributes, and the
 * parts of its OLD key templates no attribute holds, split back out of
 * the stored keys at the templates' literals (as the header's parsers do:
 * a placeholder's value never holds the key delimiter, a :0WIDTH one is
 * WIDTH digits, an N one is a number). NEW's attributes are rendered from
 * those values by the model's renderer; the write is conditional on every
 * attribute it was computed from and every attribute it changes, with
 * the values read, so that nothing written in between is overwritten.
 */
#include "live/migrate_int.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* One value the item stands for. */
typedef struct mval {
	const char *name;
	size_t nlen;
	const char *text;
	size_t len;
	const char *origin;      /* the stored attribute it comes from */
	bool split;              /* its OLD template was split already */
} mval;

typedef struct mctx {
	const mig_work *w;
	const json_t *item;
	mval *v;
	size_t n, cap;
	const char **used;       /* stored attributes read */
	size_t nused, ucap;
	strbuf *nested;          /* values rendered from NEW's own nested templates */
	size_t nnested, ncap;
	const char *delim;
	const ddbc_segment *bad; /* a value that holds the delimiter */
	const char *bad_text;
	size_t bad_len;
	int depth;
} mctx;

static const char *delimiter(const ddbc_design *g)
{
	return g->key_delimiter ? g->key_delimiter : "#";
}

static void use(mctx *c, const char *origin)
{
	for (size_t i = 0; i < c->nused; i++)
		if (!strcmp(c->used[i], origin))
			return;
	ddbc_xgrow((void **)&c->used, &c->ucap, c->nused + 1, sizeof(*c->used));
	c->used[c->nused++] = origin;
}

static mval *find(mctx *c, const char *name, size_t nlen)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->v[i].nlen == nlen && !memcmp(c->v[i].name, name, nlen))
			return &c->v[i];
	return NULL;
}

static void add(mctx *c, const char *name, size_t nlen, const char *text, size_t len,
		const char *origin)
{
	if (find(c, name, nlen))
		return;
	ddbc_xgrow((void **)&c->v, &c->cap, c->n + 1, sizeof(*c->v));
	c->v[c->n++] = (mval){ name, nlen, text, len, origin, false };
}

/* The text of a scalar S or N value, else NULL. */
static const char *scalar(const json_t *v, size_t *len)
{
	const json_t *s = json_object_get(v, "S");
	if (!s)
		s = json_object_get(v, "N");
	if (!json_is_string(s))
		return NULL;
	*len = json_string_length(s);
	return json_string_value(s);
}

/* ---- splitting a stored key at its OLD template's literals ----------------------------- */

static bool fits(const ddbc_segment *seg, const char *s, size_t len, const char *delim)
{
	const ddbc_attr *a = seg->ref;
	if (len == 0)
		return false;
	if (seg->width) {
		if (len != seg->width)
			return false;
		for (size_t i = 0; i < len; i++)
			if (s[i] < '0' || s[i] > '9')
				return false;
		return true;
	}
	if (a && a->has_template)
		return true;     /* split again at its own literals */
	if (a && a->type == DDBC_TYPE_N)
		return ddbc_decimal_valid(s, len);
	size_t dl = strlen(delim);
	for (size_t i = 0; dl && i + dl <= len; i++)
		if (!memcmp(s + i, delim, dl))
			return false;
	return true;
}

/* Matches segments from k on against s[pos..len), placeholder ends in end[]. */
static bool split_from(const ddbc_template *t, size_t k, const char *s, size_t len, size_t pos,
		       const char *delim, size_t *end)
{
	if (k == t->nsegs)
		return pos == len;
	const ddbc_segment *seg = &t->segs[k];
	if (seg->kind == DDBC_SEG_LITERAL) {
		if (len - pos < seg->len || memcmp(s + pos, seg->text, seg->len))
			return false;
		return split_from(t, k + 1, s, len, pos + seg->len, delim, end);
	}
	for (size_t e = pos + 1; e <= len; e++) {
		if (!fits(seg, s + pos, e - pos, delim))
			continue;
		end[k] = e;
		if (split_from(t, k + 1, s, len, e, delim, end))
			return true;
	}
	return false;
}

/* Adds the values of a0's placeholders that the stored text of a0 holds. */
static void split_key(mctx *c, const ddbc_attr *a0, mval *stored)
{
	const ddbc_template *t = &a0->tpl;
	size_t *end = ddbc_xcalloc(t->nsegs + 1, sizeof(size_t));
	stored->split = true;
	const char *s = stored->text, *origin = stored->origin;
	size_t len = stored->len;
	if (split_from(t, 0, s, len, 0, delimiter(c->w->old), end)) {
		size_t pos = 0;
		for (size_t k = 0; k < t->nsegs; k++) {
			const ddbc_segment *seg = &t->segs[k];
			if (seg->kind == DDBC_SEG_LITERAL) {
				pos += seg->len;
				continue;
			}
			add(c, seg->text, seg->len, s + pos, end[k] - pos, origin);
			pos = end[k];
		}
	}
	free(end);
}

/* The item's values: its S and N attributes, then, over and over, the
 * parts of each OLD template attribute's stored text. */
static void gather(mctx *c, const ddbc_entity *e0)
{
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)c->item, k, v) {
		size_t len;
		const char *text = scalar(v, &len);
		if (text)
			add(c, k, strlen(k), text, len, k);
	}
	for (bool more = true; more;) {
		more = false;
		for (size_t i = 0; i < e0->nattrs; i++) {
			const ddbc_attr *a0 = &e0->attrs[i];
			if (!a0->has_template || a0->in_cycle || ddbc_template_is_constant(&a0->tpl))
				continue;
			mval *m = find(c, a0->name.s, strlen(a0->name.s));
			if (m && !m->split) {
				size_t before = c->n;
				split_key(c, a0, m);
				more = more || c->n > before;
			}
		}
	}
}

/* ---- rendering NEW's templates from the values ------------------------------------------- */

static bool render(mctx *c, const ddbc_attr *a1, strbuf *out, strbuf *why);

static ddbc_tvalue number(const char *text, size_t len)
{
	ddbc_tvalue v = { DDBC_TVALUE_NUMBER, text, len, false, 0, NULL };
	char buf[32];
	size_t i = len && text[0] == '-';
	bool digits = len > i && len < sizeof(buf);
	for (size_t k = i; digits && k < len; k++)
		digits = text[k] >= '0' && text[k] <= '9';
	if (digits) {
		memcpy(buf, text, len);
		buf[len] = 0;
		errno = 0;
		long long n = strtoll(buf, NULL, 10);
		if (!errno) {
			v.is_int = true;
			v.n = n;
		}
	}
	return v;
}

static ddbc_tvalue value_of(void *ctx, const ddbc_segment *seg)
{
	mctx *c = ctx;
	const ddbc_attr *a = seg->ref;
	ddbc_tvalue v = { DDBC_TVALUE_MISSING, NULL, 0, false, 0, NULL };
	mval *m = find(c, seg->text, seg->len);
	if (!m && a && a->has_template && !a->in_cycle && c->depth < 8) {
		/* A part NEW makes from other values: rendered from them. */
		ddbc_xgrow((void **)&c->nested, &c->ncap, c->nnested + 1, sizeof(strbuf));
		strbuf *sb = &c->nested[c->nnested++];
		*sb = (strbuf)STRBUF_INIT;
		strbuf why = STRBUF_INIT;
		c->depth++;
		bool ok = render(c, a, sb, &why);
		c->depth--;
		ddbc_strbuf_release(&why);
		if (!ok)
			return v;
		return (ddbc_tvalue){ DDBC_TVALUE_TEXT, ddbc_strbuf_str(sb), sb->len, false, 0, NULL };
	}
	if (!m)
		return v;
	use(c, m->origin);
	if ((a && a->type == DDBC_TYPE_N) || seg->width)
		return number(m->text, m->len);
	if (!(a && a->has_template)) {
		const char *d = delimiter(c->w->new);
		size_t dl = strlen(d);
		for (size_t i = 0; dl && i + dl <= m->len; i++)
			if (!memcmp(m->text + i, d, dl)) {
				c->bad = seg;
				c->bad_text = m->text;
				c->bad_len = m->len;
				v.kind = DDBC_TVALUE_UNUSABLE;
				return v;
			}
	}
	return (ddbc_tvalue){ DDBC_TVALUE_TEXT, m->text, m->len, false, 0, NULL };
}

static bool render(mctx *c, const ddbc_attr *a1, strbuf *out, strbuf *why)
{
	ddbc_render_problem p;
	ddbc_render_result r = ddbc_template_render(&a1->tpl, value_of, c, out, &p);
	const char *name = p.seg ? p.seg->text : "";
	int nl = p.seg ? (int)p.seg->len : 0;
	switch (r) {
	case DDBC_RENDER_OK:
		break;
	case DDBC_RENDER_MISSING:
		ddbc_strbuf_addf(why, "'%s' cannot be rendered from '%s': the item holds no value for "
			    "'%.*s'", a1->name.s, a1->template.s, nl, name);
		return false;
	case DDBC_RENDER_UNPADDABLE:
		ddbc_strbuf_addf(why, "'%.*s' (%.*s) cannot fill '{%.*s:0%u}' of '%s': it %s", nl, name,
			    (int)p.value.len, p.value.text, nl, name, p.seg->width, a1->template.s,
			    ddbc_padding_problem(p.value.text, p.value.len, p.seg->width));
		return false;
	case DDBC_RENDER_UNUSABLE:
		ddbc_strbuf_addf(why, "'%.*s' ('%.*s') holds the key delimiter '%s', so '%s' rendered "
			    "from '%s' could not be split again: fix the value first", nl, name,
			    (int)c->bad_len, c->bad_text, delimiter(c->w->new), a1->name.s,
			    a1->template.s);
		return false;
	}
	if (a1->lang && a1->lang->nruns) {
		ddbc_match_scratch m = { 0 };
		bool ok = ddbc_items_lang_matches(a1->lang, ddbc_strbuf_str(out), out->len,
						  delimiter(c->w->new), &m);
		ddbc_match_scratch_release(&m);
		if (!ok) {
			ddbc_strbuf_addf(why, "'%s' would be '%s', which NEW's template '%s' cannot "
				    "produce", a1->name.s, ddbc_strbuf_str(out), a1->template.s);
			return false;
		}
	}
	return true;
}

/* ---- the NEW value of each target --------------------------------------------------------- */

static json_t *typed(ddbc_type t, const char *text, size_t len)
{
	json_t *o = json_object();
	json_object_set_new(o, t == DDBC_TYPE_N ? "N" : "S", json_stringn(text, len));
	return o;
}

static json_t *convert(const mig_target *t, const json_t *cur, strbuf *why)
{
	ddbc_type to = t->a1 ? t->a1->type : DDBC_TYPE_NONE;
	size_t len;
	const char *text = scalar(cur, &len);
	if (to != DDBC_TYPE_S && to != DDBC_TYPE_N) {
		ddbc_strbuf_addf(why, "'%s' cannot be converted to %s", t->attr, ddbc_type_short(to));
		return NULL;
	}
	if (!text) {
		ddbc_strbuf_addf(why, "'%s' is not a string or a number, so it cannot become %s", t->attr,
			    ddbc_type_short(to));
		return NULL;
	}
	if (to == DDBC_TYPE_N) {
		strbuf w = STRBUF_INIT;
		bool ok = ddbc_decimal_valid(text, len) && ddbc_decimal_dynamodb(text, len, &w);
		if (!ok)
			ddbc_strbuf_addf(why, "'%s' ('%.*s') cannot become a Number: %s", t->attr, (int)len,
				    text, w.len ? ddbc_strbuf_str(&w) : "it is no decimal number");
		ddbc_strbuf_release(&w);
		if (!ok)
			return NULL;
	}
	return typed(to, text, len);
}

static bool rendered(mctx *c, const mig_target *t, json_t **out, strbuf *why)
{
	strbuf sb = STRBUF_INIT;
	bool ok = render(c, t->a1, &sb, why);
	if (ok)
		*out = typed(t->a1->type, ddbc_strbuf_str(&sb), sb.len);
	ddbc_strbuf_release(&sb);
	return ok;
}

/* The target's NEW value (a new reference), or NULL when it is to be
 * removed or left as it is (*keep); false on a failure said in why. */
static bool target_value(mctx *c, const mig_target *t, json_t **out, bool *keep, strbuf *why)
{
	const json_t *cur = json_object_get(c->item, t->attr);
	*out = NULL;
	*keep = false;
	switch (t->how) {
	case MIG_REMOVE:
		*keep = !cur;
		return true;
	case MIG_COPY: {
		const json_t *from = json_object_get(c->item, t->from);
		*keep = cur || !from;
		if (!*keep) {
			use(c, t->from);
			*out = json_deep_copy(from);
		}
		return true;
	}
	case MIG_CONVERT:
		*keep = !cur;
		if (cur)
			use(c, t->attr);
		return !cur || (*out = convert(t, cur, why)) != NULL;
	case MIG_BACKFILL:
		if (cur || (!t->a1->has_template && t->value)) {
			*keep = cur != NULL;
			if (!cur)
				*out = json_deep_copy(t->value);
			return true;
		}
		if (t->a1->has_template)
			return rendered(c, t, out, why);
		ddbc_strbuf_addf(why, "'%s' is missing and the design gives no value for it: give the "
			    "attribute an example, or backfill it by hand", t->attr);
		return false;
	case MIG_RENDER:
		return rendered(c, t, out, why);
	}
	return false;
}

/* ---- the write ---------------------------------------------------------------------------- */

typedef struct expr {
	json_t *names, *values;
	strbuf cond;
	int n;
} expr;

static const char *name_ref(expr *x, const char *attr, strbuf *ref)
{
	const char *k;
	json_t *v;
	json_object_foreach(x->names, k, v)
		if (!strcmp(json_string_value(v), attr)) {
			ddbc_strbuf_reset(ref);
			ddbc_strbuf_addstr(ref, k);
			return ddbc_strbuf_str(ref);
		}
	ddbc_strbuf_reset(ref);
	ddbc_strbuf_addf(ref, "#n%d", x->n++);
	json_object_set_new(x->names, ddbc_strbuf_str(ref), json_string(attr));
	return ddbc_strbuf_str(ref);
}

/* attr holds what the item held when read: its value, or nothing. */
static void cond_as_read(expr *x, const json_t *item, const char *attr)
{
	strbuf ref = STRBUF_INIT;
	name_ref(x, attr, &ref);
	if (x->cond.len)
		ddbc_strbuf_addstr(&x->cond, " AND ");
	const json_t *v = json_object_get(item, attr);
	if (v) {
		char val[24];
		snprintf(val, sizeof(val), ":c%zu", json_object_size(x->values));
		json_object_set_new(x->values, val, json_deep_copy(v));
		ddbc_strbuf_addf(&x->cond, "%s = %s", ddbc_strbuf_str(&ref), val);
	} else {
		ddbc_strbuf_addf(&x->cond, "attribute_not_exists(%s)", ddbc_strbuf_str(&ref));
	}
	ddbc_strbuf_release(&ref);
}

static void key_attrs(const ddbc_table *t, const char **pk, const char **sk)
{
	*pk = t->primary.npk ? t->primary.pk[0].s : NULL;
	*sk = t->primary.nsk ? t->primary.sk[0].s : NULL;
}

json_t *ddbc_migrate_item_key(const ddbc_entity *e, const json_t *item)
{
	json_t *key = json_object();
	const ddbc_table *t = e->table;
	for (size_t i = 0; t && i < t->primary.npk; i++)
		json_object_set(key, t->primary.pk[i].s, json_object_get(item, t->primary.pk[i].s));
	for (size_t i = 0; t && i < t->primary.nsk; i++)
		json_object_set(key, t->primary.sk[i].s, json_object_get(item, t->primary.sk[i].s));
	return key;
}

void ddbc_migrate_item_name(strbuf *out, const ddbc_table *t, const json_t *item)
{
	const char *names[2];
	key_attrs(t, &names[0], &names[1]);
	ddbc_strbuf_addch(out, '{');
	for (int i = 0; i < 2; i++) {
		size_t len = 0;
		const char *text = names[i] ? scalar(json_object_get(item, names[i]), &len) : NULL;
		if (names[i])
			ddbc_strbuf_addf(out, "%s%s=%.*s", i ? ", " : "", names[i], (int)len,
				    text ? text : "?");
	}
	ddbc_strbuf_addch(out, '}');
}

static double units_of(const json_t *item)
{
	char *s = json_dumps(item, JSON_COMPACT);
	double u = s ? (double)((strlen(s) + 1023) / 1024) : 1;
	free(s);
	return u < 1 ? 1 : u;
}

static json_t *update_request(const char *table, const ddbc_entity *e0, const json_t *item,
			      const json_t *changes, mctx *c)
{
	expr x = { json_object(), json_object(), STRBUF_INIT, 0 };
	strbuf set = STRBUF_INIT, rm = STRBUF_INIT, ref = STRBUF_INIT;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)changes, k, v) {
		name_ref(&x, k, &ref);
		if (json_is_null(v)) {
			ddbc_strbuf_addf(&rm, "%s%s", rm.len ? ", " : "REMOVE ", ddbc_strbuf_str(&ref));
		} else {
			char val[24];
			snprintf(val, sizeof(val), ":v%zu", json_object_size(x.values));
			json_object_set(x.values, val, v);
			ddbc_strbuf_addf(&set, "%s%s = %s", set.len ? ", " : "SET ", ddbc_strbuf_str(&ref), val);
		}
	}
	const char *pk, *sk;
	key_attrs(e0->table, &pk, &sk);
	cond_as_read(&x, item, pk);
	if (sk)
		cond_as_read(&x, item, sk);
	for (size_t i = 0; i < c->nused; i++)
		cond_as_read(&x, item, c->used[i]);
	json_object_foreach((json_t *)changes, k, v)
		cond_as_read(&x, item, k);
	json_t *in = json_object();
	json_object_set_new(in, "TableName", json_string(table));
	json_object_set_new(in, "Key", ddbc_migrate_item_key(e0, item));
	ddbc_strbuf_addf(&set, "%s%s", set.len && rm.len ? " " : "", ddbc_strbuf_str(&rm));
	json_object_set_new(in, "UpdateExpression", json_string(ddbc_strbuf_str(&set)));
	json_object_set_new(in, "ConditionExpression", json_string(ddbc_strbuf_str(&x.cond)));
	json_object_set_new(in, "ExpressionAttributeNames", x.names);
	json_object_set_new(in, "ExpressionAttributeValues", x.values);
	ddbc_strbuf_release(&set);
	ddbc_strbuf_release(&rm);
	ddbc_strbuf_release(&ref);
	ddbc_strbuf_release(&x.cond);
	return in;
}

/* A new primary key: the new item put where no item is, the old one
 * deleted as it was read (every attribute), both or neither. */
static json_t *move_request(const char *table, const ddbc_entity *e0, const json_t *item,
			    const json_t *after)
{
	const char *pk, *sk;
	key_attrs(e0->table, &pk, &sk);
	json_t *put = json_object(), *names = json_object();
	json_object_set_new(put, "TableName", json_string(table));
	json_object_set(put, "Item", (json_t *)after);
	json_object_set_new(names, "#pk", json_string(pk));
	json_object_set_new(put, "ConditionExpression", json_string("attribute_not_exists(#pk)"));
	json_object_set_new(put, "ExpressionAttributeNames", names);
	expr x = { json_object(), json_object(), STRBUF_INIT, 0 };
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)item, k, v)
		cond_as_read(&x, item, k);
	json_t *del = json_object();
	json_object_set_new(del, "TableName", json_string(table));
	json_object_set_new(del, "Key", ddbc_migrate_item_key(e0, item));
	json_object_set_new(del, "ConditionExpression", json_string(ddbc_strbuf_str(&x.cond)));
	json_object_set_new(del, "ExpressionAttributeNames", x.names);
	json_object_set_new(del, "ExpressionAttributeValues", x.values);
	ddbc_strbuf_release(&x.cond);
	json_t *list = json_array(), *a = json_object(), *b = json_object();
	json_object_set_new(a, "Put", put);
	json_object_set_new(b, "Delete", del);
	json_array_append_new(list, a);
	json_array_append_new(list, b);
	json_t *in = json_object();
	json_object_set_new(in, "TransactItems", list);
	return in;
}

/* ---- one item ----------------------------------------------------------------------------- */

void ddbc_migrate_scratch_init(mig_scratch *s, const mig_work *w)
{
	s->old_check = ddbc_item_checker_new(w->old);
	s->new_check = ddbc_item_checker_new(w->new);
	s->why = (strbuf)STRBUF_INIT;
}

void ddbc_migrate_scratch_release(mig_scratch *s)
{
	ddbc_item_checker_free(s->old_check);
	ddbc_item_checker_free(s->new_check);
	ddbc_strbuf_release(&s->why);
}

/* check-items' verdict on item, through checker k. */
static ddbc_item_verdict check(ddbc_item_checker *k, const json_t *item, const ddbc_entity **e,
			       strbuf *why)
{
	char *text = json_dumps(item, JSON_COMPACT);
	ddbc_item_verdict v = ddbc_item_check_one(k, text, strlen(text), e, why);
	free(text);
	return v;
}

static const mig_entity *work_of(const mig_work *w, const ddbc_entity *e)
{
	for (size_t i = 0; i < w->old->nentities; i++)
		if (w->ents[i].e0 == e)
			return &w->ents[i];
	return NULL;
}

/* The changes to item ({attr: value, attr: null for a removal}); NULL on a
 * failure said in why. */
static json_t *changes_of(mctx *c, const mig_entity *m, strbuf *why)
{
	json_t *changes = json_object();
	for (size_t i = 0; i < m->n; i++) {
		json_t *v;
		bool keep;
		if (!target_value(c, &m->t[i], &v, &keep, why)) {
			json_decref(changes);
			return NULL;
		}
		if (keep)
			continue;
		const json_t *cur = json_object_get(c->item, m->t[i].attr);
		if (v && cur && json_equal(v, (json_t *)cur))
			json_decref(v);
		else if (v || cur)
			json_object_set_new(changes, m->t[i].attr, v ? v : json_null());
	}
	return changes;
}

static void mctx_release(mctx *c)
{
	for (size_t i = 0; i < c->nnested; i++)
		ddbc_strbuf_release(&c->nested[i]);
	free(c->nested);
	free(c->v);
	free(c->used);
}

mig_verdict ddbc_migrate_item(const mig_work *w, mig_scratch *s, const char *table, json_t *item,
		     const char **op, json_t **input, double *units, strbuf *why)
{
	const ddbc_entity *e0 = NULL, *e1 = NULL;
	ddbc_strbuf_reset(&s->why);
	ddbc_item_verdict v0 = check(s->old_check, item, &e0, &s->why);
	if (!e0) {
		/* Already NEW's: a second run, or an item written since. */
		strbuf why1 = STRBUF_INIT;
		ddbc_item_verdict v1 = check(s->new_check, item, &e1, &why1);
		ddbc_strbuf_release(&why1);
		if (v1 == DDBC_VERDICT_OK)
			return MIG_SKIP;
		ddbc_strbuf_addf(why, "it %s: %s", v0 == DDBC_VERDICT_MALFORMED ? "is malformed" :
			    "matches no entity of OLD (nor of NEW)", ddbc_strbuf_str(&s->why));
		return MIG_FAIL;
	}
	const mig_entity *m = work_of(w, e0);
	if (table && e0->table && strcmp(e0->table->name.s, table)) {
		ddbc_strbuf_addf(why, "it is a '%s' item, which OLD keeps in table '%s'", e0->name.s,
			    e0->table->name.s);
		return MIG_FAIL;
	}
	if (!m || !m->n || !e0->table)
		return MIG_SKIP;
	mctx c = { .w = w, .item = item };
	gather(&c, e0);
	ddbc_strbuf_addf(why, "'%s' item: ", e0->name.s);
	json_t *changes = changes_of(&c, m, why);
	mig_verdict r = MIG_FAIL;
	if (!changes)
		goto out;
	json_t *after = json_deep_copy(item);
	const char *k;
	json_t *v;
	json_object_foreach(changes, k, v) {
		if (json_is_null(v))
			json_object_del(after, k);
		else
			json_object_set(after, k, v);
	}
	if (w->whole) {
		strbuf why1 = STRBUF_INIT;
		ddbc_item_verdict v1 = check(s->new_check, after, &e1, &why1);
		if (v1 != DDBC_VERDICT_OK || !e1 || strcmp(e1->name.s, e0->name.s)) {
			ddbc_strbuf_addf(why, "NEW would not accept it %s: %s", json_object_size(changes) ? "migrated" : "as it is",
				    v1 == DDBC_VERDICT_OK ? "it would be another entity's" :
				    ddbc_strbuf_str(&why1));
			ddbc_strbuf_release(&why1);
			json_decref(after);
			json_decref(changes);
			goto out;
		}
		ddbc_strbuf_release(&why1);
	}
	json_t *k0 = ddbc_migrate_item_key(e0, item), *k1 = ddbc_migrate_item_key(e0, after);
	bool moved = !json_equal(k0, k1);
	json_decref(k0);
	json_decref(k1);
	if (!json_object_size(changes)) {
		r = MIG_SKIP;
	} else if (moved) {
		*op = "TransactWriteItems";
		*input = move_request(table ? table : e0->table->name.s, e0, item, after);
		*units = 2 * (units_of(after) + units_of(item));
		r = MIG_WRITE;
	} else {
		*op = "UpdateItem";
		*input = update_request(table ? table : e0->table->name.s, e0, item, changes, &c);
		double a = units_of(after), b = units_of(item);
		*units = a > b ? a : b;
		r = MIG_WRITE;
	}
	json_decref(after);
	json_decref(changes);
out:
	mctx_release(&c);
	return r;
}
