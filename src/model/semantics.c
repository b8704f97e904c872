/* semantics.c - deriving what the rules and the outputs read */
#include "model/semantics.h"
#include "model/item_size.h"
#include "model/request.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- tables and indexes ----------------------------------------------------- */

/* Whether two names are equal; the first byte rules out most pairs without
 * a call: every attribute is asked about every index's key names. */
static bool same_name(const char *a, const char *b)
{
	return a[0] == b[0] && !strcmp(a, b);
}

static bool in_names(const ddbc_name *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (same_name(names[i].s, s))
			return true;
	return false;
}

static int by_string(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* An INCLUDE projection may list thousands of attributes: each attribute's
 * role is then found by a binary search, not a scan of the list. */
static void sort_include(ddbc_arena *arena, ddbc_index *ix)
{
	ix->include_sorted = ddbc_arena_array(arena, ix->ninclude, sizeof(char *));
	for (size_t i = 0; i < ix->ninclude; i++)
		ix->include_sorted[i] = ix->include[i].s;
	qsort(ix->include_sorted, ix->ninclude, sizeof(char *), by_string);
}

static bool included(const ddbc_index *ix, const char *name)
{
	if (!ix->include_sorted)
		return in_names(ix->include, ix->ninclude, name);
	return bsearch(&name, ix->include_sorted, ix->ninclude, sizeof(char *), by_string);
}

static void list_indexes(ddbc_arena *arena, ddbc_table *t)
{
	t->nindexes = 1 + t->ngsi + t->nlsi;
	t->indexes = ddbc_arena_array(arena, t->nindexes, sizeof(ddbc_index *));
	size_t n = 0;
	t->indexes[n++] = &t->primary;
	for (size_t i = 0; i < t->ngsi; i++)
		t->indexes[n++] = &t->gsi[i];
	for (size_t i = 0; i < t->nlsi; i++)
		t->indexes[n++] = &t->lsi[i];
	for (size_t i = 0; i < n; i++) {
		t->indexes[i]->slot = i;
		sort_include(arena, t->indexes[i]);
	}
}


bool ddbc_index_has_key(const ddbc_index *ix, const char *name)
{
	return in_names(ix->pk, ix->npk, name) || in_names(ix->sk, ix->nsk, name);
}

bool ddbc_attr_optional(const ddbc_attr *a)
{
	return a->more->optional_loc.line != 0;
}

bool ddbc_attr_required(const ddbc_attr *a, strbuf *why)
{
	const ddbc_entity *e = a->entity;
	const char *reason = NULL;
	/* A key part that is not stored is never in an item. */
	if (!ddbc_attr_stored(a))
		return false;
	if (e->table && ddbc_index_has_key(&e->table->primary, a->name.s))
		reason = "a key attribute of table '%s'";
	else if (a->template.s && !ddbc_attr_optional(a))
		reason = "it has the template '%s'";
	else if (a->required)
		reason = "required: true%s";
	if (!reason)
		return false;
	if (why)
		ddbc_strbuf_addf(why, reason, e->table && ddbc_index_has_key(&e->table->primary,
			    a->name.s) ? e->table->name.s : a->template.s ? a->template.s : "");
	return true;
}

ddbc_type ddbc_table_key_type(const ddbc_table *t, const char *name)
{
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_attr *a = ddbc_entity_stored_attr(t->entities[i], name);
		if (a && a->type != DDBC_TYPE_NONE)
			return a->type;
	}
	return DDBC_TYPE_NONE;
}

/* ---- templates ---------------------------------------------------------------- */

static void parse_templates(ddbc_design *g, ddbc_entity *e)
{
	for (size_t i = 0; i < e->nattrs; i++) {
		ddbc_attr *a = &e->attrs[i];
		if (!a->template.s)
			continue;
		size_t off = 0;
		const char *err = ddbc_template_parse(g->arena, a->template.s, &a->tpl, &off);
		if (err) {
			ddbc_attr_more_of(g->arena, a)->tpl_error = err;
			continue;
		}
		a->has_template = true;
		for (size_t k = 0; k < a->tpl.nsegs; k++) {
			ddbc_segment *seg = &a->tpl.segs[k];
			if (seg->kind != DDBC_SEG_PLACEHOLDER)
				continue;
			ddbc_attr *b = ddbc_entity_attr(e, seg->text);
			seg->ref = b;
			if (b && !b->used_by)
				b->used_by = a;
		}
	}
}

enum { WHITE, GREY, BLACK };

/* Depth-first search over "template of a names b"; an edge back to a grey
 * attribute closes a cycle, and every attribute on it is marked. */
static void visit(ddbc_attr *a, unsigned char *color, ddbc_attr **stack, size_t depth,
		  const ddbc_entity *e)
{
	size_t me = (size_t)(a - e->attrs);
	color[me] = GREY;
	stack[depth] = a;
	for (size_t k = 0; a->has_template && k < a->tpl.nsegs; k++) {
		ddbc_attr *b = a->tpl.segs[k].ref;
		if (!b)
			continue;
		size_t j = (size_t)(b - e->attrs);
		if (color[j] == GREY) {
			for (size_t s = depth + 1; s-- > 0;) {
				stack[s]->in_cycle = true;
				if (stack[s] == b)
					break;
			}
		} else if (color[j] == WHITE) {
			visit(b, color, stack, depth + 1, e);
		}
	}
	color[me] = BLACK;
}

static void find_cycles(ddbc_entity *e)
{
	unsigned char *color = ddbc_xcalloc(e->nattrs, 1);
	ddbc_attr **stack = ddbc_xcalloc(e->nattrs + 1, sizeof(*stack));
	for (size_t i = 0; i < e->nattrs; i++)
		if (color[i] == WHITE)
			visit(&e->attrs[i], color, stack, 0, e);
	free(stack);
	free(color);
}

static void class_of_type(ddbc_type t, unsigned width, ddbc_lang *out)
{
	if (t == DDBC_TYPE_N && width)
		ddbc_lang_digits(out, width);
	else if (t == DDBC_TYPE_N)
		ddbc_lang_class(out, DDBC_CLASS_NUMBER, 1);
	else if (t == DDBC_TYPE_S)
		ddbc_lang_class(out, DDBC_CLASS_NO_DELIM, 1);
	else
		ddbc_lang_class(out, DDBC_CLASS_ANY, 0);
}

static void template_lang(const ddbc_attr *a, ddbc_lang *out, unsigned depth)
{
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		const ddbc_attr *b = seg->ref;
		if (seg->kind == DDBC_SEG_LITERAL)
			ddbc_lang_fixed(out, seg->text, seg->len);
		else if (b && b->has_template && !b->in_cycle && depth < 16)
			template_lang(b, out, depth + 1);
		else if (b)
			class_of_type(b->type, seg->width, out);
		else
			ddbc_lang_class(out, DDBC_CLASS_ANY, 0);
	}
}

void ddbc_attr_lang(const ddbc_attr *a, ddbc_lang *out)
{
	if (a->has_template && !a->in_cycle) {
		template_lang(a, out, 0);
		return;
	}
	/* A plain S key value may hold anything, the delimiter included. */
	if (a->type == DDBC_TYPE_N)
		ddbc_lang_class(out, DDBC_CLASS_NUMBER, 1);
	else
		ddbc_lang_class(out, DDBC_CLASS_ANY, 1);
}

bool ddbc_attr_is_constant(const ddbc_attr *a, const ddbc_table *t)
{
	if (!ddbc_attr_stored(a) || ddbc_index_has_key(&t->primary, a->name.s))
		return false;
	if (a->has_template && a->type == DDBC_TYPE_S)
		return ddbc_template_is_constant(&a->tpl);
	return !a->template.s && a->more->nenum == 1 &&
	       (a->type == DDBC_TYPE_S || a->type == DDBC_TYPE_N || a->type == DDBC_TYPE_B ||
		a->type == DDBC_TYPE_BOOL || a->type == DDBC_TYPE_NULL);
}

/* Renders placeholder seg alone into texts; whether value_of had a usable
 * value for it. */
static bool render_one(const ddbc_segment *seg, ddbc_tvalue_fn *value_of, void *ctx,
		       strbuf *texts)
{
	ddbc_template one = { (ddbc_segment *)seg, 1 };
	strbuf part = STRBUF_INIT;
	ddbc_render_problem p;
	bool ok = ddbc_template_render(&one, value_of, ctx, &part, &p) == DDBC_RENDER_OK;
	if (ok)
		ddbc_strbuf_add(texts, part.buf, part.len);
	ddbc_strbuf_release(&part);
	return ok;
}

void ddbc_attr_item_lang(const ddbc_attr *a, ddbc_tvalue_fn *value_of, void *ctx,
			 strbuf *texts, ddbc_lang *out)
{
	ddbc_strbuf_reset(texts);
	if (!a->has_template || a->in_cycle) {
		ddbc_attr_lang(a, out);
		return;
	}
	/* Rendered first, then pointed at: texts may move while it grows. */
	size_t *end = ddbc_xcalloc(a->tpl.nsegs + 1, sizeof(size_t));
	bool *known = ddbc_xcalloc(a->tpl.nsegs + 1, sizeof(bool));
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		known[k] = seg->kind == DDBC_SEG_PLACEHOLDER && render_one(seg, value_of, ctx, texts);
		end[k] = texts->len;
	}
	for (size_t k = 0, start = 0; k < a->tpl.nsegs; start = end[k], k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		const ddbc_attr *b = seg->ref;
		if (seg->kind == DDBC_SEG_LITERAL)
			ddbc_lang_fixed(out, seg->text, seg->len);
		else if (known[k])
			ddbc_lang_fixed(out, texts->buf + start, end[k] - start);
		else if (b && b->has_template && !b->in_cycle)
			template_lang(b, out, 1);
		else if (b)
			class_of_type(b->type, seg->width, out);
		else
			ddbc_lang_class(out, DDBC_CLASS_ANY, 0);
	}
	free(end);
	free(known);
}

const ddbc_lang *ddbc_attr_key_lang(const ddbc_attr *a)
{
	static const ddbc_lang none = { NULL, 0, 0 };
	return a->lang ? a->lang : &none;
}

/* Moves l's runs into the arena, so the model owns them and the design's
 * one free releases them; with copy_texts, the literals they point at too
 * (they were parsed into a scratch arena). */
static void lang_to_arena(ddbc_arena *arena, ddbc_lang *l, bool copy_texts)
{
	ddbc_run *runs = ddbc_arena_array(arena, l->nruns, sizeof(ddbc_run));
	if (l->nruns)
		memcpy(runs, l->runs, l->nruns * sizeof(ddbc_run));
	for (size_t i = 0; copy_texts && i < l->nruns; i++)
		if (runs[i].fixed)
			runs[i].text = ddbc_arena_strndup(arena, runs[i].text, runs[i].len);
	size_t n = l->nruns;
	ddbc_lang_release(l);
	l->runs = runs;
	l->nruns = n;
	l->cap = 0;
}

/* ---- roles and membership ---------------------------------------------------- */


/* The role in ix of stored attribute a of a member of ix, when it is no
 * key attribute of ix; in_primary: it is one of the table's. */
static ddbc_role non_key_role(const ddbc_attr *a, const ddbc_index *ix, bool in_primary)
{
	if (ix->kind == DDBC_INDEX_PRIMARY)
		return DDBC_ROLE_PROJECTED;
	/* The table's key attributes are projected into every index. */
	if (in_primary)
		return DDBC_ROLE_PROJECTED;
	switch (ix->projection) {
	case DDBC_PROJ_ALL: return DDBC_ROLE_PROJECTED;
	case DDBC_PROJ_KEYS_ONLY: return DDBC_ROLE_NONE;
	case DDBC_PROJ_INCLUDE:
		return included(ix, a->name.s) ? DDBC_ROLE_PROJECTED : DDBC_ROLE_NONE;
	}
	return DDBC_ROLE_NONE;
}

/* Which key of ix the name is (DDBC_ROLE_NONE when neither). */
static ddbc_role key_role(const ddbc_index *ix, const char *name)
{
	if (in_names(ix->pk, ix->npk, name))
		return DDBC_ROLE_PARTITION_KEY;
	if (in_names(ix->sk, ix->nsk, name))
		return DDBC_ROLE_SORT_KEY;
	return DDBC_ROLE_NONE;
}

ddbc_role ddbc_attr_role(const ddbc_attr *a, const ddbc_index *ix)
{
	const ddbc_entity *e = a->entity;
	if (!ddbc_attr_stored(a) || !e->in_index || !e->in_index[ix->slot])
		return DDBC_ROLE_NONE;
	ddbc_role key = key_role(ix, a->name.s);
	if (key != DDBC_ROLE_NONE)
		return key;
	return non_key_role(a, ix, ddbc_index_has_key(&ix->table->primary, a->name.s));
}

static bool sets_all(const ddbc_entity *e, const ddbc_index *ix)
{
	if (ix->npk == 0)
		return false;
	for (size_t i = 0; i < ix->npk; i++)
		if (!ddbc_entity_stored_attr(e, ix->pk[i].s))
			return false;
	for (size_t i = 0; i < ix->nsk; i++)
		if (!ddbc_entity_stored_attr(e, ix->sk[i].s))
			return false;
	return true;
}

/* The language of a key attribute without a template (ddbc_attr_lang):
 * one of two, shared by every such attribute of the design rather than
 * copied into the arena for each. */
static const ddbc_lang *plain_key_lang(ddbc_type t)
{
	static ddbc_run runs[2] = {
		{ .cls = DDBC_CLASS_NUMBER, .min = 1 },
		{ .cls = DDBC_CLASS_ANY, .min = 1 },
	};
	static const ddbc_lang langs[2] = { { &runs[0], 1, 0 }, { &runs[1], 1, 0 } };
	return &langs[t == DDBC_TYPE_N ? 0 : 1];
}

/* ddbc_attr_role for stored attribute a in every index of t, and is_key,
 * each index's key names looked up once for both (indexes[0] is the
 * primary key, whose answer says whether a is one of the table's). */
static void derive_roles(ddbc_attr *a, uint8_t *roles, const ddbc_entity *e,
			 const ddbc_table *t)
{
	bool in_primary = false;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		ddbc_role key = key_role(ix, a->name.s);
		if (s == 0)
			in_primary = key != DDBC_ROLE_NONE;
		if (key != DDBC_ROLE_NONE)
			a->is_key = true;
		if (!e->in_index[s])
			roles[s] = DDBC_ROLE_NONE;
		else
			roles[s] = key != DDBC_ROLE_NONE ? key : non_key_role(a, ix, in_primary);
	}
}

/* The stored attributes of e that key ix and that e's items may lack,
 * in key order, into by (room for every key attribute); how many. The
 * table's own key is never optional (optional-table-key tells). */
static uint32_t optional_keys(const ddbc_entity *e, const ddbc_index *ix, const ddbc_attr **by)
{
	uint32_t n = 0;
	if (ix->kind == DDBC_INDEX_PRIMARY)
		return 0;
	for (size_t j = 0; j < ix->npk + ix->nsk; j++) {
		const char *name = ddbc_index_key(ix, j);
		const ddbc_attr *a = name ? ddbc_entity_stored_attr(e, name) : NULL;
		if (a && ddbc_attr_optional(a) &&
		    !ddbc_index_has_key(&e->table->primary, name))
			by[n++] = a;
	}
	return n;
}

bool ddbc_example_in_index(const ddbc_entity *e, const ddbc_index *ix, const ddbc_pval *item)
{
	/* DynamoDB's rule: an item is in an index when it has every key
	 * attribute of it, the optional ones above all. */
	return e->in_index && e->in_index[ix->slot] && ddbc_index_holds(ix, item);
}

/* The share of e's items in the index m is about: the product of the
 * `present:` shares written on its optional key attributes (read as
 * independent), else the share of e's examples that have them all, else
 * all (a design that says nothing is costed as a dense index). */
static void derive_share(const ddbc_entity *e, const ddbc_index *ix, ddbc_membership *m)
{
	double share = 1;
	bool written = false;
	for (uint32_t i = 0; i < m->nby; i++) {
		const ddbc_figure *f = m->by[i]->more->present;
		if (f->set) {
			share *= f->value;
			written = true;
		}
	}
	if (written) {
		m->source = DDBC_SHARE_PRESENT;
		m->share = share;
		return;
	}
	if (!e->nexamples) {
		m->source = DDBC_SHARE_ASSUMED;
		m->share = 1;
		return;
	}
	size_t have = 0;
	for (size_t k = 0; k < e->nexamples; k++)
		have += ddbc_example_in_index(e, ix, e->examples[k]);
	m->source = DDBC_SHARE_EXAMPLES;
	m->share = (double)have / (double)e->nexamples;
}

const ddbc_membership *ddbc_entity_membership(const ddbc_entity *e, const ddbc_index *ix)
{
	static const ddbc_membership all = { NULL, 0, DDBC_SHARE_ALL, 1 };
	return e->membership ? &e->membership[ix->slot] : &all;
}

/* e->membership, for an entity with an optional key attribute of an
 * index it is in; left NULL (every item in every index) for the others. */
static void derive_sparse(ddbc_design *g, ddbc_entity *e)
{
	ddbc_table *t = e->table;
	ddbc_membership *ms = NULL;
	/* Most entities have no optional attribute at all: nothing to look up. */
	bool any = false;
	for (size_t i = 0; i < e->nattrs && !any; i++)
		any = ddbc_attr_optional(&e->attrs[i]);
	for (size_t s = 0; any && s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		if (!e->in_index[s])
			continue;
		const ddbc_attr **scratch = ddbc_xcalloc(ix->npk + ix->nsk + 1, sizeof(*scratch));
		uint32_t n = optional_keys(e, ix, scratch);
		const ddbc_attr **by = NULL;
		if (n) {
			by = ddbc_arena_array(g->arena, n, sizeof(*by));
			memcpy(by, scratch, n * sizeof(*by));
		}
		free(scratch);
		if (!n)
			continue;
		if (!ms) {
			ms = ddbc_arena_array(g->arena, t->nindexes, sizeof(*ms));
			for (size_t k = 0; k < t->nindexes; k++)
				ms[k] = (ddbc_membership){ NULL, 0, DDBC_SHARE_ALL, 1 };
			e->membership = ms;
		}
		ms[s].by = by;
		ms[s].nby = n;
	}
	for (size_t s = 0; ms && s < t->nindexes; s++)
		if (ms[s].nby)
			derive_share(e, t->indexes[s], &ms[s]);
}

static void derive_membership(ddbc_design *g, ddbc_entity *e)
{
	ddbc_table *t = e->table;
	e->in_index = ddbc_arena_array(g->arena, t->nindexes, sizeof(bool));
	for (size_t s = 0; s < t->nindexes; s++)
		e->in_index[s] = sets_all(e, t->indexes[s]);
	derive_sparse(g, e);
	/* One array of roles for the entity, each attribute's row in it: an
	 * arena array of its own would round each row of a few bytes up to 8. */
	e->roles = ddbc_arena_array(g->arena, e->nattrs, t->nindexes);
	for (size_t i = 0; i < e->nattrs; i++) {
		ddbc_attr *a = &e->attrs[i];
		/* An attribute not stored has no role (the arena's rows are
		 * zero: DDBC_ROLE_NONE) and is no key. */
		if (ddbc_attr_stored(a))
			derive_roles(a, e->roles + i * t->nindexes, e, t);
		if (a->is_key && (!a->has_template || a->in_cycle)) {
			a->lang = plain_key_lang(a->type);
		} else if (a->is_key) {
			ddbc_lang *l = ddbc_arena_alloc(g->arena, sizeof(*l));
			ddbc_lang_init(l);
			ddbc_attr_lang(a, l);
			lang_to_arena(g->arena, l, false);
			a->lang = l;
		}
	}
}

/* ---- undeclared key attributes -------------------------------------------------- */

static bool declared_in(const ddbc_table *t, const char *name)
{
	for (size_t i = 0; i < t->nentities; i++)
		if (ddbc_entity_attr(t->entities[i], name))
			return true;
	return false;
}

/* Whether every entity of t was read without error: one read with an
 * error (a misspelt `attributes`) may be the one that declares a key. */
static bool entities_whole(const ddbc_table *t)
{
	for (size_t i = 0; i < t->nentities; i++)
		if (t->entities[i]->incomplete)
			return false;
	return true;
}

/* Which key attributes of each index some entity of its table declares,
 * and their types.
 * Only a table whose entities are all known can say "none declares it":
 * without entities there is nothing to compare with, and an entity whose
 * table did not resolve, or that was read with an error (a misspelt
 * `attributes`), may be the one that declares it. An LSI's
 * partition key is the table's (the primary key comes first in
 * t->indexes, so it was judged already). */
static void find_undeclared_keys(ddbc_design *g)
{
	bool complete = true;
	for (size_t i = 0; i < g->nentities; i++)
		complete &= g->entities[i].table != NULL;
	for (size_t i = 0; i < g->ntables; i++) {
		ddbc_table *t = &g->tables[i];
		for (size_t s = 0; s < t->nindexes; s++) {
			ddbc_index *ix = t->indexes[s];
			size_t n = ix->npk + ix->nsk;
			ix->key_declared = ddbc_arena_array(g->arena, n, sizeof(bool));
			/* The key's types, once: a view of example items
			 * compares keys by them at every step of a sort. */
			ix->key_types = ddbc_arena_array(g->arena, n, sizeof(ddbc_type));
			for (size_t j = 0; j < n; j++) {
				const char *name = ddbc_index_key(ix, j);
				ix->key_types[j] = name ? ddbc_table_key_type(t, name) : DDBC_TYPE_NONE;
				bool judged = complete && t->nentities && entities_whole(t);
				if (ix->kind == DDBC_INDEX_LSI && j < ix->npk && j < t->primary.npk)
					ix->key_declared[j] = t->primary.key_declared[j];
				else
					ix->key_declared[j] = !judged || declared_in(t, name);
				ix->key_unknown |= !ix->key_declared[j];
			}
			/* The table's key attributes are projected into every
			 * index: what an index projects is unsure with them. */
			ix->key_unknown |= t->primary.key_unknown;
		}
	}
}

/* Whether s can be a string of l as far as l's literal runs tell: each in
 * order, the first at the start, the last at the end, and between them at
 * least the characters the classes need. A cheap test of a necessary
 * condition (ddbc_lang_matches is exact, and costs a search per item):
 * a value it rejects is surely not one the template renders. */
static bool literals_fit(const ddbc_lang *l, const char *s, size_t len)
{
	size_t pos = 0;
	for (size_t r = 0; r < l->nruns; r++) {
		const ddbc_run *run = &l->runs[r];
		if (!run->fixed) {
			pos += run->min;
			if (pos > len)
				return false;
			continue;
		}
		const char *at = NULL;
		if (r == 0)
			at = run->len <= len && !memcmp(s, run->text, run->len) ? s : NULL;
		else if (r + 1 == l->nruns)
			at = pos + run->len <= len &&
			     !memcmp(s + len - run->len, run->text, run->len) ? s + len - run->len : NULL;
		for (size_t i = pos; r > 0 && r + 1 < l->nruns && !at && i + run->len <= len; i++)
			at = memcmp(s + i, run->text, run->len) ? NULL : s + i;
		if (!at)
			return false;
		pos = (size_t)(at - s) + run->len;
	}
	return pos <= len && (l->nruns == 0 || !l->runs[l->nruns - 1].fixed || pos == len);
}

/* Whether a key attribute of e was read with an error, or an example item
 * of e holds, for a templated key attribute, a string that the template
 * cannot produce. */
static bool keys_disputed(const ddbc_entity *e)
{
	for (size_t i = 0; i < e->nattrs; i++) {
		const ddbc_attr *a = &e->attrs[i];
		if (a->is_key && a->incomplete)
			return true;
		if (!a->is_key || !a->has_template || a->in_cycle)
			continue;
		for (size_t k = 0; k < e->nexamples; k++) {
			const ddbc_pval *v = ddbc_pval_get(e->examples[k], a->name.s);
			if (!v || ddbc_pval_kind(v) != DDBC_NODE_SCALAR ||
			    ddbc_pval_scalar(v) != DDBC_SCALAR_STR)
				continue;
			uint32_t len;
			const char *text = ddbc_pval_str(v, &len);
			if (!literals_fit(ddbc_attr_key_lang(a), text, len))
				return true;
		}
	}
	return false;
}

/* ---- access patterns ------------------------------------------------------------ */

/* Condition values are parsed as templates once, into a scratch arena
 * cleared after each pattern: of the parse, the model keeps only the
 * literals, in the design's arena. */
typedef struct parsing {
	ddbc_arena *arena;       /* the design's */
	ddbc_arena *scratch;
} parsing;

/* A condition value as a template: the request's parse of a string; any
 * other scalar (a YAML number compared with a String key) read as its
 * text, in scratch. */
static bool value_template(const parsing *ps, const ddbc_req_value *rv, ddbc_template *t)
{
	const ddbc_node *v = rv->node;
	size_t off;
	if (rv->is_template) {
		*t = rv->tpl;
		return true;
	}
	/* A string that is no template has none. */
	return v && v->kind == DDBC_NODE_SCALAR && v->scalar != DDBC_SCALAR_STR &&
	       !ddbc_template_parse(ps->scratch, v->u.text, t, &off);
}

/* The language of a condition value: a template over free parameters,
 * each standing for a value of the key's type. */
static bool value_lang(const parsing *ps, const ddbc_req_value *v, ddbc_type type,
		       ddbc_lang *out)
{
	ddbc_template t;
	if (!value_template(ps, v, &t))
		return false;
	for (size_t k = 0; k < t.nsegs; k++) {
		if (t.segs[k].kind == DDBC_SEG_LITERAL)
			ddbc_lang_fixed(out, t.segs[k].text, t.segs[k].len);
		else
			class_of_type(type == DDBC_TYPE_N ? DDBC_TYPE_N : DDBC_TYPE_S,
				      t.segs[k].width, out);
	}
	return true;
}

/* A range bound from a condition value: its literal prefix (kept in
 * arena), open when parameters follow it (then only the prefix is known). */
static bool bound_of(const parsing *ps, const ddbc_req_value *v, ddbc_bound *b, bool inclusive)
{
	ddbc_template t;
	if (!value_template(ps, v, &t))
		return false;
	const char *prefix;
	size_t len = ddbc_template_prefix(&t, &prefix);
	if (len > UINT32_MAX)
		return false;
	b->len = (uint32_t)len;
	b->text = ddbc_arena_strndup(ps->arena, prefix, len);
	b->open = !ddbc_template_is_constant(&t);
	b->inclusive = inclusive || b->open;
	return true;
}

static void derive_bounds(const parsing *ps, ddbc_key_cond *c, const ddbc_req_value *v)
{
	switch (c->op) {
	case DDBC_COND_LT:
	case DDBC_COND_LE:
		c->has_bound[1] = c->nvalues == 1 &&
				  bound_of(ps, &v[0], &c->bounds[1], c->op == DDBC_COND_LE);
		break;
	case DDBC_COND_GT:
	case DDBC_COND_GE:
		c->has_bound[0] = c->nvalues == 1 &&
				  bound_of(ps, &v[0], &c->bounds[0], c->op == DDBC_COND_GE);
		break;
	case DDBC_COND_BETWEEN:
		if (c->nvalues == 2 && bound_of(ps, &v[0], &c->bounds[0], true) &&
		    bound_of(ps, &v[1], &c->bounds[1], true))
			c->has_bound[0] = c->has_bound[1] = true;
		break;
	default:
		break;
	}
}

/* The type the table gives c's attribute: the request's (resolved once)
 * when it sends the attribute, else looked up. */
static ddbc_type cond_key_type(const ddbc_pattern *p, const ddbc_key_cond *c)
{
	const ddbc_req_cond *rc = ddbc_request_cond(p->request, c->attr.s);
	return rc ? rc->type : ddbc_table_key_type(p->table, c->attr.s);
}

/* Derives what a condition's value(s) allow once, for every entity it is
 * tried on, from the request's parse (values). */
static void derive_cond(const parsing *ps, const ddbc_pattern *p, ddbc_key_cond *c,
			const ddbc_req_value *values)
{
	if (!c->attr.s || !c->nvalues)
		return;
	if (c->op == DDBC_COND_EQ || c->op == DDBC_COND_BEGINS_WITH) {
		ddbc_lang l;
		ddbc_lang_init(&l);
		c->has_lang = c->nvalues == 1 &&
			      value_lang(ps, &values[0], cond_key_type(p, c), &l);
		if (c->has_lang && c->op == DDBC_COND_BEGINS_WITH)
			ddbc_lang_class(&l, DDBC_CLASS_ANY, 0);
		if (c->has_lang) {
			ddbc_lang *kept = ddbc_arena_alloc(ps->arena, sizeof(*kept));
			*kept = l;
			lang_to_arena(ps->arena, kept, true);
			c->lang = kept;
		} else {
			ddbc_lang_release(&l);
		}
		return;
	}
	derive_bounds(ps, c, values);
}

/* The literal text a language starts with. */
static size_t lang_prefix(const ddbc_lang *l, const char **text)
{
	*text = l->nruns && l->runs[0].fixed ? l->runs[0].text : "";
	return l->nruns && l->runs[0].fixed ? l->runs[0].len : 0;
}

bool ddbc_cond_matches(const ddbc_design *g, const ddbc_key_cond *c, const ddbc_attr *a)
{
	ddbc_lang own;
	const ddbc_lang *la = ddbc_attr_key_lang(a);
	if (!a->is_key) {
		ddbc_lang_init(&own);
		ddbc_attr_lang(a, &own);
		la = &own;
	}
	bool r = true;
	if (c->has_lang)
		r = ddbc_lang_intersects(la, c->lang, g->key_delimiter);
	else if ((c->has_bound[0] || c->has_bound[1]) && a->type == DDBC_TYPE_S)
		r = ddbc_lang_in_range(la, c->has_bound[0] ? &c->bounds[0] : NULL,
				       c->has_bound[1] ? &c->bounds[1] : NULL, g->key_delimiter);
	if (la == &own)
		ddbc_lang_release(&own);
	return r;
}

static bool entity_matches(const ddbc_design *g, const ddbc_pattern *p, const ddbc_entity *e)
{
	if (!e->in_index || !e->in_index[p->index->slot])
		return false;
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		if (!c->on_key)
			continue;
		const ddbc_attr *a = ddbc_entity_attr(e, c->attr.s);
		if (a && !ddbc_cond_matches(g, c, a))
			return false;
	}
	return true;
}

/* Entities of an index sorted by the literal prefix of their first
 * partition-key attribute, so that a pattern is tried only on entities
 * whose prefix agrees with its condition's: a table of thousands of
 * entities is not searched whole for each of its patterns. */
typedef struct prefixed {
	const char *text;
	size_t len;
	size_t pos;              /* the entity's place in table->entities */
} prefixed;

typedef struct prefix_index {
	prefixed *items;
	size_t n;
} prefix_index;

static int by_prefix(const void *pa, const void *pb)
{
	const prefixed *a = pa, *b = pb;
	int r = memcmp(a->text, b->text, a->len < b->len ? a->len : b->len);
	if (r)
		return r;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static void build_prefix_index(const ddbc_table *t, const ddbc_index *ix, prefix_index *pi)
{
	pi->items = ddbc_xmalloc((t->nentities + 1) * sizeof(prefixed));
	pi->n = 0;
	for (size_t i = 0; ix->npk && i < t->nentities; i++) {
		const ddbc_entity *e = t->entities[i];
		const ddbc_attr *a = e->in_index[ix->slot] ? ddbc_entity_attr(e, ix->pk[0].s) : NULL;
		if (!a)
			continue;
		prefixed *p = &pi->items[pi->n++];
		p->len = lang_prefix(ddbc_attr_key_lang(a), &p->text);
		p->pos = i;
	}
	qsort(pi->items, pi->n, sizeof(prefixed), by_prefix);
}

/* The first position in pi whose prefix is >= (text, len). */
static size_t lower_bound(const prefix_index *pi, const char *text, size_t len)
{
	prefixed key = { text, len, 0 };
	size_t lo = 0, hi = pi->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_prefix(&pi->items[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int by_pos(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return a < b ? -1 : a > b;
}

/* The positions of the entities whose prefix is compatible with P (one is
 * a prefix of the other), in file order: those extending P are one run of
 * pi; those P extends have each one of P's own prefixes. */
static size_t candidates(const prefix_index *pi, const char *P, size_t plen, size_t *out)
{
	size_t n = 0;
	for (size_t i = lower_bound(pi, P, plen);
	     i < pi->n && pi->items[i].len >= plen && !memcmp(pi->items[i].text, P, plen); i++)
		out[n++] = pi->items[i].pos;
	for (size_t len = 0; len < plen; len++)
		for (size_t i = lower_bound(pi, P, len);
		     i < pi->n && pi->items[i].len == len && !memcmp(pi->items[i].text, P, len); i++)
			out[n++] = pi->items[i].pos;
	qsort(out, n, sizeof(size_t), by_pos);
	return n;
}

/* The equality condition on the index's first partition attribute. */
static const ddbc_key_cond *partition_eq(const ddbc_pattern *p)
{
	for (size_t i = 0; p->index->npk && i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		if (c->on_key && c->op == DDBC_COND_EQ && c->has_lang &&
		    !strcmp(c->attr.s, p->index->pk[0].s))
			return c;
	}
	return NULL;
}

static void match_pattern(ddbc_design *g, ddbc_pattern *p, prefix_index *indexes,
			  ddbc_arena *scratch)
{
	if (!p->table || !p->index)
		return;
	p->analysed = true;
	const ddbc_table *t = p->table;
	parsing ps = { g->arena, scratch };
	ddbc_request_build(g, p);
	for (size_t i = 0; i < p->nconds; i++) {
		ddbc_key_cond *c = &p->conds[i];
		c->on_key = c->attr.s && c->nvalues && ddbc_index_has_key(p->index, c->attr.s);
		derive_cond(&ps, p, c, p->request->cond_values[i]);
	}
	ddbc_arena_clear(scratch);
	/* Candidates: every entity of the table, or with an equality on the
	 * partition key only those whose prefix agrees. */
	size_t *pos = ddbc_xmalloc((t->nentities + 1) * sizeof(size_t));
	size_t n = 0;
	const ddbc_key_cond *eq = partition_eq(p);
	if (eq) {
		prefix_index *pi = &indexes[p->index->slot];
		if (!pi->items)
			build_prefix_index(t, p->index, pi);
		const char *P;
		size_t plen = lang_prefix(eq->lang, &P);
		n = candidates(pi, P, plen, pos);
	} else {
		for (size_t i = 0; i < t->nentities; i++)
			pos[n++] = i;
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (entity_matches(g, p, t->entities[pos[i]]))
			pos[k++] = pos[i];
	/* Sized to the matches: a table of thousands of entities has as many
	 * patterns, and most match one entity. */
	p->matched = ddbc_arena_array(g->arena, k, sizeof(ddbc_entity *));
	for (size_t i = 0; i < k; i++)
		p->matched[p->nmatched++] = t->entities[pos[i]];
	free(pos);
}

static void match_patterns(ddbc_design *g)
{
	/* One prefix index per table index, built when a pattern first needs it. */
	prefix_index **byslot = ddbc_xcalloc(g->ntables + 1, sizeof(prefix_index *));
	for (size_t i = 0; i < g->ntables; i++)
		byslot[i] = ddbc_xcalloc(g->tables[i].nindexes + 1, sizeof(prefix_index));
	ddbc_arena *scratch = ddbc_arena_new();
	for (size_t i = 0; i < g->npatterns; i++) {
		ddbc_pattern *p = &g->patterns[i];
		size_t t = p->table ? (size_t)(p->table - g->tables) : 0;
		match_pattern(g, p, byslot[t], scratch);
	}
	ddbc_arena_free(scratch);
	for (size_t i = 0; i < g->ntables; i++) {
		for (size_t s = 0; s < g->tables[i].nindexes; s++)
			free(byslot[i][s].items);
		free(byslot[i]);
	}
	free(byslot);
}

void ddbc_semantics(ddbc_design *g)
{
	for (size_t i = 0; i < g->ntables; i++)
		list_indexes(g->arena, &g->tables[i]);
	for (size_t i = 0; i < g->nentities; i++) {
		ddbc_entity *e = &g->entities[i];
		parse_templates(g, e);
		find_cycles(e);
		if (e->table) {
			derive_membership(g, e);
			e->table->keys_disputed |= keys_disputed(e);
		}
	}
	find_undeclared_keys(g);
	match_patterns(g);
}
