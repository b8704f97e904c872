/* view.c - item views of a table and of its indexes (view.h) */
#include "model/view.h"
#include "model/item_size.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const ddbc_pval *value_of(const ddbc_pval *item, const char *name)
{
	const ddbc_pval *v = name ? ddbc_pval_get(item, name) : NULL;
	return v && !ddbc_pval_is_null(v) ? v : NULL;
}

/* ---- order ----------------------------------------------------------------------------- */

/* A key value as the sort compares it, read out of its packed value once
 * (a sort compares each item's keys some log2(n) times). */
typedef struct key_text {
	const char *s;           /* a scalar's text; NULL for no scalar */
	uint32_t n;
	bool set;                /* the item has the key */
} key_text;

/* Items being sorted, each with its key values looked up once. */
typedef struct sorted {
	ddbc_view_item item;
	const ddbc_pval **keys;  /* per key attribute of the index: value_of */
	const key_text *text;    /* the same values' texts */
	size_t seq;              /* position in the table's items */
	size_t group;            /* seq of its partition's first item */
	const ddbc_index *ix;
	const ddbc_type *types;  /* per key attribute: S or N, as compare_values orders */
} sorted;

/* Two key values as DynamoDB orders them (by the attribute's type,
 * resolved once); a value that is no scalar orders with anything. */
static int compare_values(ddbc_type t, const ddbc_pval *a, const ddbc_pval *b)
{
	uint32_t na, nb;
	const char *ta = ddbc_pval_str(a, &na), *tb = ddbc_pval_str(b, &nb);
	if (!ta || !tb)
		return 0;
	return ddbc_key_compare(t == DDBC_TYPE_N ? DDBC_TYPE_N : DDBC_TYPE_S, ta, na, tb, nb);
}

/* Compares key attributes from .. to (pk then sk positions) of two items. */
static int compare_key(const ddbc_index *ix, size_t from, size_t to, const ddbc_pval *const *a,
		       const ddbc_pval *const *b)
{
	for (size_t i = from; i < to; i++) {
		const ddbc_pval *x = a[i], *y = b[i];
		if (!x || !y) {
			if (x != y)
				return x ? 1 : -1;
			continue;
		}
		int c = compare_values(ddbc_index_key_type(ix, i), x, y);
		if (c)
			return c;
	}
	return 0;
}

/* compare_key over the texts of two items being sorted. */
static int compare_text(const sorted *a, const sorted *b, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++) {
		const key_text *x = &a->text[i], *y = &b->text[i];
		if (!x->set || !y->set) {
			if (x->set != y->set)
				return x->set ? 1 : -1;
			continue;
		}
		if (!x->s || !y->s)
			continue;
		int c = ddbc_key_compare(a->types[i], x->s, x->n, y->s, y->n);
		if (c)
			return c;
	}
	return 0;
}

static int by_partition(const void *pa, const void *pb)
{
	const sorted *a = pa, *b = pb;
	int c = compare_text(a, b, 0, a->ix->npk);
	return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

static int by_group_then_sort_key(const void *pa, const void *pb)
{
	const sorted *a = pa, *b = pb;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	const ddbc_index *ix = a->ix;
	int c = compare_text(a, b, ix->npk, ix->npk + ix->nsk);
	return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

static sorted *collect(const ddbc_index *ix, const ddbc_pval ***keys, key_text **texts,
		       const ddbc_type *types, size_t *n)
{
	const ddbc_table *t = ix->table;
	/* Room for every example, so each is asked whether ix holds it once. */
	size_t nk = ix->npk + ix->nsk, len = 0;
	for (size_t k = 0; k < t->nentities; k++)
		len += t->entities[k]->nexamples;
	sorted *all = ddbc_xcalloc(len + 1, sizeof *all);
	*keys = ddbc_xcalloc(len * nk + 1, sizeof **keys);
	*texts = ddbc_xcalloc(len * nk + 1, sizeof **texts);
	len = 0;
	for (size_t k = 0; k < t->nentities; k++) {
		const ddbc_entity *e = t->entities[k];
		for (size_t i = 0; i < e->nexamples; i++) {
			if (!ddbc_index_holds(ix, e->examples[i]))
				continue;
			const ddbc_pval **kv = *keys + len * nk;
			key_text *kt = *texts + len * nk;
			for (size_t a = 0; a < nk; a++) {
				kv[a] = value_of(e->examples[i], ddbc_index_key(ix, a));
				kt[a].set = kv[a] != NULL;
				kt[a].s = kv[a] ? ddbc_pval_str(kv[a], &kt[a].n) : NULL;
			}
			all[len] = (sorted){ { e, e->examples[i], k }, kv, kt, len, len, ix, types };
			len++;
		}
	}
	*n = len;
	return all;
}

/* An index's view, sorted once: its items, their key values, and its
 * partitions (runs of items with equal partition keys), with an order of
 * the partitions by key for lookups. */
struct ddbc_view {
	const ddbc_index *ix;
	ddbc_view_item *items;
	size_t n;
	const ddbc_pval **keys;  /* n rows of npk + nsk values (NULL: none) */
	size_t *parts;           /* the first item of each partition, then n */
	size_t nparts;
	size_t *by_key;          /* the partitions ordered by partition key */
	bool scalar_keys;        /* every key value is a scalar: lookups are sound */
};

/* A partition being ordered by its partition key, for ddbc_view_partition. */
typedef struct part_ref {
	size_t part;
	const ddbc_pval *const *keys;    /* its first item's */
	const ddbc_index *ix;
} part_ref;

static int partition_order(const void *pa, const void *pb)
{
	const part_ref *a = pa, *b = pb;
	int c = compare_key(a->ix, 0, a->ix->npk, a->keys, b->keys);
	return c ? c : (a->part > b->part) - (a->part < b->part);
}

static void index_partitions(ddbc_view *v)
{
	size_t nk = v->ix->npk + v->ix->nsk;
	v->parts = ddbc_xcalloc(v->n + 1, sizeof *v->parts);
	for (size_t i = 0; i < v->n; i++)
		if (i == 0 || compare_key(v->ix, 0, v->ix->npk, v->keys + (i - 1) * nk,
					  v->keys + i * nk))
			v->parts[v->nparts++] = i;
	v->parts[v->nparts] = v->n;
	part_ref *refs = ddbc_xcalloc(v->nparts + 1, sizeof *refs);
	for (size_t i = 0; i < v->nparts; i++)
		refs[i] = (part_ref){ i, v->keys + v->parts[i] * nk, v->ix };
	qsort(refs, v->nparts, sizeof *refs, partition_order);
	v->by_key = ddbc_xcalloc(v->nparts + 1, sizeof *v->by_key);
	for (size_t i = 0; i < v->nparts; i++)
		v->by_key[i] = refs[i].part;
	free(refs);
	v->scalar_keys = true;
	for (size_t i = 0; i < v->n * nk; i++)
		v->scalar_keys &= !v->keys[i] || ddbc_pval_kind(v->keys[i]) == DDBC_NODE_SCALAR;
}

static ddbc_view *build_view(const ddbc_index *ix)
{
	ddbc_view *v = ddbc_xcalloc(1, sizeof *v);
	v->ix = ix;
	size_t len, nk = ix->npk + ix->nsk;
	const ddbc_pval **store;
	key_text *texts;
	/* compare_values' order of each key attribute, resolved once. */
	ddbc_type *types = ddbc_xcalloc(nk + 1, sizeof *types);
	for (size_t i = 0; i < nk; i++)
		types[i] = ddbc_index_key_type(ix, i) == DDBC_TYPE_N ? DDBC_TYPE_N : DDBC_TYPE_S;
	sorted *all = collect(ix, &store, &texts, types, &len);
	/* Partitions in the order they first appear: sort by partition key,
	 * give each item its partition's first position, then sort by that
	 * and the sort key. */
	if (len)
		qsort(all, len, sizeof *all, by_partition);
	for (size_t i = 1; i < len; i++)
		if (!compare_text(&all[i - 1], &all[i], 0, ix->npk))
			all[i].group = all[i - 1].group;
	if (len)
		qsort(all, len, sizeof *all, by_group_then_sort_key);
	v->items = ddbc_xcalloc(len + 1, sizeof *v->items);
	v->keys = ddbc_xcalloc(len * nk + 1, sizeof *v->keys);
	for (size_t i = 0; i < len; i++) {
		v->items[i] = all[i].item;
		memcpy(v->keys + i * nk, all[i].keys, nk * sizeof *v->keys);
	}
	v->n = len;
	free(all);
	free(store);
	free(texts);
	free(types);
	index_partitions(v);
	return v;
}

static void free_view(ddbc_view *v)
{
	if (!v)
		return;
	free(v->items);
	free(v->keys);
	free(v->parts);
	free(v->by_key);
	free(v);
}

struct ddbc_views {
	const ddbc_design *g;
	ddbc_view ***byslot;     /* per table, per slot of its indexes */
	bool **read;             /* per table and slot: a pattern reads the view;
				    NULL until ddbc_views_release first asks */
};

ddbc_views *ddbc_views_new(const ddbc_design *g)
{
	ddbc_views *vs = ddbc_xcalloc(1, sizeof *vs);
	vs->g = g;
	vs->byslot = ddbc_xcalloc(g->ntables + 1, sizeof *vs->byslot);
	for (size_t i = 0; i < g->ntables; i++)
		vs->byslot[i] = ddbc_xcalloc(g->tables[i].nindexes + 1, sizeof **vs->byslot);
	return vs;
}

void ddbc_views_free(ddbc_views *vs)
{
	if (!vs)
		return;
	for (size_t i = 0; i < vs->g->ntables; i++) {
		for (size_t s = 0; s < vs->g->tables[i].nindexes; s++)
			free_view(vs->byslot[i][s]);
		free(vs->byslot[i]);
	}
	free(vs->byslot);
	for (size_t i = 0; vs->read && i < vs->g->ntables; i++)
		free(vs->read[i]);
	free(vs->read);
	free(vs);
}

/* Marks the views the access patterns read: the index each one names,
 * and its table's primary index (a get or a put reads the table's). */
static void mark_read(ddbc_views *vs)
{
	const ddbc_design *g = vs->g;
	vs->read = ddbc_xcalloc(g->ntables + 1, sizeof *vs->read);
	for (size_t i = 0; i < g->ntables; i++)
		vs->read[i] = ddbc_xcalloc(g->tables[i].nindexes + 1, sizeof **vs->read);
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->table)
			continue;
		bool *read = vs->read[p->table - g->tables];
		size_t n = p->table->nindexes;
		if (p->table->primary.slot < n)
			read[p->table->primary.slot] = true;
		if (p->index && p->index->table == p->table && p->index->slot < n)
			read[p->index->slot] = true;
	}
}

void ddbc_views_release(ddbc_views *vs, const ddbc_table *t)
{
	if (!vs->read)
		mark_read(vs);
	size_t no = (size_t)(t - vs->g->tables);
	for (size_t s = 0; s < t->nindexes; s++) {
		if (vs->read[no][s])
			continue;
		free_view(vs->byslot[no][s]);
		vs->byslot[no][s] = NULL;
	}
}

const ddbc_view *ddbc_views_get(ddbc_views *vs, const ddbc_index *ix)
{
	ddbc_view **slot = &vs->byslot[ix->table - vs->g->tables][ix->slot];
	if (!*slot)
		*slot = build_view(ix);
	return *slot;
}

const ddbc_view_item *ddbc_view_items(const ddbc_view *v, size_t *n)
{
	*n = v->n;
	return v->items;
}

const ddbc_pval *ddbc_view_key(const ddbc_view *v, size_t item, size_t k)
{
	return v->keys[item * (v->ix->npk + v->ix->nsk) + k];
}

/* The partition key values pk (one per partition key attribute) against
 * partition part's. */
static int partition_against(const ddbc_view *v, size_t part, const ddbc_key_text *pk)
{
	size_t first = v->parts[part];
	for (size_t i = 0; i < v->ix->npk; i++) {
		const ddbc_pval *x = ddbc_view_key(v, first, i);
		if (!x)
			return -1;
		ddbc_type t = ddbc_index_key_type(v->ix, i) == DDBC_TYPE_N ? DDBC_TYPE_N : DDBC_TYPE_S;
		uint32_t len;
		const char *text = ddbc_pval_str(x, &len);
		int c = ddbc_key_compare(t, text, len, pk[i].text, pk[i].len);
		if (c)
			return c;
	}
	return 0;
}

bool ddbc_view_partition(const ddbc_view *v, const ddbc_key_text *pk, size_t *from, size_t *to)
{
	if (!v->scalar_keys || !v->ix->npk)
		return false;
	*from = *to = 0;
	size_t lo = 0, hi = v->nparts;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (partition_against(v, v->by_key[mid], pk) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < v->nparts && !partition_against(v, v->by_key[lo], pk)) {
		*from = v->parts[v->by_key[lo]];
		*to = v->parts[v->by_key[lo] + 1];
	}
	return true;
}

const ddbc_index *ddbc_view_index(const ddbc_view *v)
{
	return v->ix;
}

bool ddbc_view_same_partition(const ddbc_view *v, size_t a, size_t b)
{
	size_t nk = v->ix->npk + v->ix->nsk;
	return !compare_key(v->ix, 0, v->ix->npk, v->keys + a * nk, v->keys + b * nk);
}
