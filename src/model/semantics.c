/* semantics.c - deriving what the rules and the outputs read */
#include "model/semantics.h"
#include "model/semantics_int.h"
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

/* The placeholders of a's template, parsed in place, resolved (when
 * resolve) and named: the name of the attribute one names is its text,
 * a copy in the arena only for one that names none. Whether a
 * placeholder names an attribute that has a template: without one, e has
 * no cycle to look for. */
static bool name_placeholders(ddbc_design *g, ddbc_entity *e, ddbc_attr *a, bool resolve)
{
	bool nested = false;
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		ddbc_segment *seg = &a->tpl.segs[k];
		if (seg->kind != DDBC_SEG_PLACEHOLDER)
			continue;
		ddbc_attr *b = resolve ? ddbc_entity_attr_n(e, seg->text, seg->len) : NULL;
		seg->text = b ? b->name.s : ddbc_arena_strndup(g->arena, seg->text, seg->len);
		if (!b)
			continue;
		seg->ref = b;
		nested |= b->template.s != NULL;
		if (!b->used_by)
			b->used_by = a;
	}
	return nested;
}

/* Parses e's templates (their literals stay in the template text, which
 * the model holds); whether a template names an attribute with one. */
static bool parse_templates(ddbc_design *g, ddbc_entity *e)
{
	bool nested = false;
	for (size_t i = 0; i < e->nattrs; i++) {
		ddbc_attr *a = &e->attrs[i];
		if (!a->template.s)
			continue;
		size_t off = 0;
		const char *err = ddbc_template_parse_in_place(g->arena, a->template.s, &a->tpl,
							       &off);
		nested |= name_placeholders(g, e, a, !err);
		if (err)
			ddbc_attr_more_of(g->arena, a)->tpl_error = err;
		else
			a->has_template = true;
	}
	return nested;
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

void ddbc_lang_of_type(ddbc_type t, unsigned width, ddbc_lang *out)
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
			ddbc_lang_of_type(b->type, seg->width, out);
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
			ddbc_lang_of_type(b->type, seg->width, out);
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

/* What the pass reuses from one entity to the next, and the key
 * languages it made, each kept once for every attribute whose language
 * is the same (the same literals around the same placeholders' types:
 * `R#{seq:06}` in every entity of a table). */
typedef struct sem {
	ddbc_design *g;
	uint8_t *claimed;        /* per key name of each index of a table */
	size_t nclaimed;
	/* The key names of every index of keys_of, flat in claimed's order:
	 * claim_keys compares an attribute's name with each in one loop
	 * rather than an index's pk and sk in turn. */
	const ddbc_table *keys_of;
	struct key_name {
		const char *s;
		uint32_t slot;   /* the index's place in the table's */
		uint8_t role;    /* DDBC_ROLE_PARTITION_KEY or DDBC_ROLE_SORT_KEY */
	} *keys;
	size_t nkeys_cap;
	ddbc_lang lang;          /* a key attribute's language, before it is kept */
	struct kept {            /* open addressing, at most half full */
		const ddbc_lang *l;
		uint64_t hash;
	} *kept;
	size_t mask, nkept;
} sem;

/* How the first attribute of an entity with a key name is stored. */
enum { UNCLAIMED, CLAIMED_UNSTORED, CLAIMED_STORED };

/* For a, an attribute of an entity of t in file order: claims every key
 * name of each index that no attribute before it claimed (the one
 * ddbc_entity_stored_attr would find), and, when stored, writes into row
 * (all DDBC_ROLE_NONE) the key role it has in each index, its first key
 * name's in the index, and sets is_key. keys: t's key names (key_names). */
static void claim_keys(ddbc_attr *a, bool stored, const struct key_name *keys, size_t n,
		       uint8_t *claimed, uint8_t *row)
{
	const char *name = a->name.s;
	if (!name)
		return;
	for (size_t j = 0; j < n; j++) {
		if (!same_name(keys[j].s, name))
			continue;
		if (!claimed[j])
			claimed[j] = stored ? CLAIMED_STORED : CLAIMED_UNSTORED;
		if (stored && row[keys[j].slot] == DDBC_ROLE_NONE) {
			row[keys[j].slot] = keys[j].role;
			a->is_key = true;
		}
	}
}

/* e->in_index: whether e stores every key attribute of each index (an
 * index without a partition key holds nothing); claimed as claim_keys
 * left it after every attribute of e. */
static void derive_in_index(ddbc_entity *e, const ddbc_table *t, const uint8_t *claimed)
{
	/* An offset, not a moving pointer: claimed is NULL when no index
	 * has a key name (a misspelt partition_key). */
	size_t at = 0;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		bool all = ix->npk != 0;
		for (size_t j = 0; j < ix->npk + ix->nsk; j++)
			all &= claimed[at + j] == CLAIMED_STORED;
		at += ix->npk + ix->nsk;
		e->in_index[s] = all;
	}
}

/* The roles of stored attribute a that are no key roles, and none in
 * the indexes e is not in; row holds its key roles (claim_keys), and its
 * role in the primary key says whether it is one of the table's. */
static void derive_roles(const ddbc_attr *a, uint8_t *row, const ddbc_entity *e,
			 const ddbc_table *t)
{
	bool in_primary = row[0] != DDBC_ROLE_NONE;
	for (size_t s = 0; s < t->nindexes; s++) {
		if (!e->in_index[s])
			row[s] = DDBC_ROLE_NONE;
		else if (row[s] == DDBC_ROLE_NONE)
			row[s] = non_key_role(a, t->indexes[s], in_primary);
	}
}

static uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

/* A hash of l's runs, a word at a time: every key attribute's language
 * is hashed once. */
static uint64_t lang_hash(const ddbc_lang *l)
{
	uint64_t h = l->nruns;
	for (size_t r = 0; r < l->nruns; r++) {
		const ddbc_run *run = &l->runs[r];
		h = mix(h, (uint64_t)run->min << 32 | run->max);
		h = mix(h, (uint64_t)run->len << 16 | (uint64_t)run->cls << 8 | run->fixed);
		size_t i = 0;
		for (; run->fixed && i + 8 <= run->len; i += 8) {
			uint64_t w;
			memcpy(&w, run->text + i, 8);
			h = mix(h, w);
		}
		if (run->fixed && i < run->len) {
			uint64_t w = 0;
			memcpy(&w, run->text + i, run->len - i);
			h = mix(h, w);
		}
	}
	return h;
}

static bool same_lang(const ddbc_lang *a, const ddbc_lang *b)
{
	if (a->nruns != b->nruns)
		return false;
	for (size_t r = 0; r < a->nruns; r++) {
		const ddbc_run *x = &a->runs[r], *y = &b->runs[r];
		if (x->fixed != y->fixed || x->cls != y->cls || x->min != y->min ||
		    x->max != y->max || x->len != y->len ||
		    (x->fixed && memcmp(x->text, y->text, x->len)))
			return false;
	}
	return true;
}

/* Doubles the table of kept languages. */
static void grow_kept(sem *S)
{
	size_t cap = S->kept ? 2 * (S->mask + 1) : 256;
	struct kept *old = S->kept;
	size_t oldcap = old ? S->mask + 1 : 0;
	S->kept = ddbc_xcalloc(cap, sizeof(*S->kept));
	S->mask = cap - 1;
	for (size_t i = 0; i < oldcap; i++) {
		if (!old[i].l)
			continue;
		size_t k = old[i].hash & S->mask;
		while (S->kept[k].l)
			k = (k + 1) & S->mask;
		S->kept[k] = old[i];
	}
	free(old);
}

/* The language of l's strings in the arena: one already kept when it is
 * the same, else a copy of l (its literals stay where l's point: in the
 * templates, which the model holds). */
static const ddbc_lang *keep_lang(sem *S, const ddbc_lang *l)
{
	if (2 * (S->nkept + 1) > (S->kept ? S->mask + 1 : 0))
		grow_kept(S);
	uint64_t h = lang_hash(l);
	size_t k = h & S->mask;
	for (; S->kept[k].l; k = (k + 1) & S->mask)
		if (S->kept[k].hash == h && same_lang(S->kept[k].l, l))
			return S->kept[k].l;
	ddbc_lang *copy = ddbc_arena_alloc(S->g->arena, sizeof(*copy));
	copy->runs = ddbc_arena_array(S->g->arena, l->nruns, sizeof(ddbc_run));
	if (l->nruns)
		memcpy(copy->runs, l->runs, l->nruns * sizeof(ddbc_run));
	copy->nruns = l->nruns;
	copy->cap = 0;
	S->kept[k] = (struct kept){ copy, h };
	S->nkept++;
	return copy;
}

/* The key names of t's indexes, flat (S->keys); their count. Made once
 * for the entities of one table in a row. */
static size_t key_names(sem *S, const ddbc_table *t)
{
	size_t n = 0;
	for (size_t s = 0; s < t->nindexes; s++)
		n += t->indexes[s]->npk + t->indexes[s]->nsk;
	if (S->keys_of == t)
		return n;
	ddbc_xgrow((void **)&S->keys, &S->nkeys_cap, n, sizeof(*S->keys));
	size_t f = 0;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		for (size_t j = 0; j < ix->npk + ix->nsk; j++, f++)
			S->keys[f] = (struct key_name){
				j < ix->npk ? ix->pk[j].s : ix->sk[j - ix->npk].s, (uint32_t)s,
				j < ix->npk ? DDBC_ROLE_PARTITION_KEY : DDBC_ROLE_SORT_KEY };
	}
	S->keys_of = t;
	return n;
}

/* The scratch of claim_keys for t's indexes (n key names), zeroed. */
static uint8_t *claims_for(sem *S, size_t n)
{
	if (n > S->nclaimed) {
		free(S->claimed);
		S->claimed = ddbc_xmalloc(n);
		S->nclaimed = n;
	}
	if (n)
		memset(S->claimed, 0, n);
	return S->claimed;
}

/* in_index, membership, roles, is_key and the key languages of e's
 * attributes: one walk over the attributes finds the key names (each
 * index's key names compared with each name once), a second derives the
 * rest. */
static void derive_membership(sem *S, ddbc_entity *e)
{
	ddbc_design *g = S->g;
	ddbc_table *t = e->table;
	size_t nix = t->nindexes;
	e->in_index = ddbc_arena_array(g->arena, nix, sizeof(bool));
	/* One array of roles for the entity, each attribute's row in it: an
	 * arena array of its own would round each row of a few bytes up to 8.
	 * An attribute not stored has no role (the arena's rows are zero:
	 * DDBC_ROLE_NONE) and is no key. */
	e->roles = ddbc_arena_array(g->arena, e->nattrs, nix);
	size_t nkeys = key_names(S, t);
	uint8_t *claimed = claims_for(S, nkeys);
	for (size_t i = 0; i < e->nattrs; i++)
		claim_keys(&e->attrs[i], ddbc_attr_stored(&e->attrs[i]), S->keys, nkeys, claimed,
			   e->roles + i * nix);
	derive_in_index(e, t, claimed);
	derive_sparse(g, e);
	for (size_t i = 0; i < e->nattrs; i++) {
		ddbc_attr *a = &e->attrs[i];
		if (ddbc_attr_stored(a))
			derive_roles(a, e->roles + i * nix, e, t);
		if (a->is_key && (!a->has_template || a->in_cycle)) {
			a->lang = plain_key_lang(a->type);
		} else if (a->is_key) {
			S->lang.nruns = 0;
			ddbc_attr_lang(a, &S->lang);
			a->lang = keep_lang(S, &S->lang);
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

void ddbc_semantics(ddbc_design *g)
{
	for (size_t i = 0; i < g->ntables; i++)
		list_indexes(g->arena, &g->tables[i]);
	sem S = { .g = g };
	ddbc_lang_init(&S.lang);
	for (size_t i = 0; i < g->nentities; i++) {
		ddbc_entity *e = &g->entities[i];
		if (parse_templates(g, e))
			find_cycles(e);
		if (e->table) {
			derive_membership(&S, e);
			e->table->keys_disputed |= keys_disputed(e);
		}
	}
	ddbc_lang_release(&S.lang);
	free(S.kept);
	free(S.claimed);
	free(S.keys);
	find_undeclared_keys(g);
	ddbc_match_patterns(g);
}
