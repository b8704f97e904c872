/* semantics_patterns.c - which entities each access pattern can return
 *
 * The last step of ddbc_semantics: each pattern's key conditions are
 * read once (their languages and bounds), then tried on the entities of
 * its index whose key prefix agrees with them.
 */
#include "model/semantics.h"
#include "model/semantics_int.h"
#include "model/request.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

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
			ddbc_lang_of_type(type == DDBC_TYPE_N ? DDBC_TYPE_N : DDBC_TYPE_S,
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
	size_t *lens;            /* the lengths of the prefixes, each once, increasing */
	size_t nlens;
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

static int by_size(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	return a < b ? -1 : a > b;
}

/* pi->lens: the entities of a table share a few prefix lengths (most one),
 * and candidates looks for each length below a condition's, not for
 * every one of them. */
static void list_lengths(prefix_index *pi)
{
	pi->lens = ddbc_xmalloc((pi->n + 1) * sizeof(size_t));
	for (size_t i = 0; i < pi->n; i++)
		pi->lens[i] = pi->items[i].len;
	qsort(pi->lens, pi->n, sizeof(size_t), by_size);
	pi->nlens = 0;
	for (size_t i = 0; i < pi->n; i++)
		if (!pi->nlens || pi->lens[pi->nlens - 1] != pi->lens[i])
			pi->lens[pi->nlens++] = pi->lens[i];
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
	list_lengths(pi);
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
	for (size_t k = 0; k < pi->nlens && pi->lens[k] < plen; k++) {
		size_t len = pi->lens[k];
		for (size_t i = lower_bound(pi, P, len);
		     i < pi->n && pi->items[i].len == len && !memcmp(pi->items[i].text, P, len); i++)
			out[n++] = pi->items[i].pos;
	}
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

void ddbc_match_patterns(ddbc_design *g)
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
		for (size_t s = 0; s < g->tables[i].nindexes; s++) {
			free(byslot[i][s].items);
			free(byslot[i][s].lens);
		}
		free(byslot[i]);
	}
	free(byslot);
}

