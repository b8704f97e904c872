/* capacity.c - units per request and storage (capacity.h) */
#include "model/capacity.h"
#include "model/item_size.h"
#include "model/semantics.h"

#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double ddbc_read_units(uint64_t bytes, bool consistent)
{
	double units = (double)((bytes + 4095) / 4096);
	return consistent ? units : units / 2;
}

double ddbc_write_units(uint64_t bytes)
{
	uint64_t units = (bytes + 1023) / 1024;
	return (double)(units ? units : 1);
}

/* Whether before's and after's values of ix's key attributes differ. */
static bool key_changed(const ddbc_index *ix, const ddbc_pval *before, const ddbc_pval *after)
{
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		const ddbc_name *k = i < ix->npk ? &ix->pk[i] : &ix->sk[i - ix->npk];
		if (!ddbc_pval_same_text(ddbc_pval_get(before, k->s), ddbc_pval_get(after, k->s)))
			return true;
	}
	return false;
}

static bool same_value(const ddbc_pval *a, const ddbc_pval *b)
{
	if (!a || !b || ddbc_pval_kind(a) != ddbc_pval_kind(b) || ddbc_pval_n(a) != ddbc_pval_n(b))
		return false;
	if (ddbc_pval_kind(a) == DDBC_NODE_SCALAR)
		return ddbc_pval_same_text(a, b);
	ddbc_pval_iter ia = ddbc_pval_members(a), ib = ddbc_pval_members(b);
	const ddbc_pval *ka, *va, *kb, *vb;
	if (ddbc_pval_kind(a) == DDBC_NODE_SEQ) {
		while (ddbc_pval_item(&ia, &va) && ddbc_pval_item(&ib, &vb))
			if (!same_value(va, vb))
				return false;
		return true;
	}
	while (ddbc_pval_pair(&ia, &ka, &va) && ddbc_pval_pair(&ib, &kb, &vb))
		if (strcmp(ddbc_pval_text(ka), ddbc_pval_text(kb)) || !same_value(va, vb))
			return false;
	return true;
}

/* Whether an attribute that ix projects differs between the two items. */
static bool projected_changed(const ddbc_index *ix, const ddbc_pval *before,
			      const ddbc_pval *after)
{
	const ddbc_pval *pair[2] = { before, after };
	for (int k = 0; k < 2; k++) {
		const ddbc_pval *m = pair[k], *other = pair[1 - k];
		ddbc_pval_iter it = ddbc_pval_members(m);
		const ddbc_pval *key, *v;
		while (ddbc_pval_pair(&it, &key, &v)) {
			const char *name = ddbc_pval_text(key);
			if (ddbc_index_projects(ix, name) && !same_value(v, ddbc_pval_get(other, name)))
				return true;
		}
	}
	return false;
}

double ddbc_index_write_units(const ddbc_index *ix, const ddbc_entity *e,
			      const ddbc_pval *before, const ddbc_pval *after, bool changed)
{
	bool was = before && ddbc_index_holds(ix, before);
	bool is = after && ddbc_index_holds(ix, after);
	if (!was && !is)
		return 0;
	if (!was)
		return ddbc_write_units(ddbc_entry_size(ix, e, after));
	if (!is)
		return ddbc_write_units(ddbc_entry_size(ix, e, before));
	if (ix->kind != DDBC_INDEX_PRIMARY && key_changed(ix, before, after))
		return ddbc_write_units(ddbc_entry_size(ix, e, before)) +
		       ddbc_write_units(ddbc_entry_size(ix, e, after));
	if (!changed && !projected_changed(ix, before, after))
		return 0;
	return ddbc_write_units(ddbc_entry_size(ix, e, after));
}

static double *slots(ddbc_arena *arena, const ddbc_table *t, double v)
{
	double *a = ddbc_arena_array(arena, t->nindexes ? t->nindexes : 1, sizeof(double));
	for (size_t i = 0; i < t->nindexes; i++)
		a[i] = v;
	return a;
}

/* An entity without examples: what its item_bytes tells. An index that
 * projects everything holds the whole item; any other entry's size is not
 * known. */
static void from_item_bytes(const ddbc_entity *e, ddbc_entity_cap *out)
{
	const ddbc_table *t = e->table;
	out->size_known = true;
	out->max_bytes = (uint64_t)e->item_bytes->value;
	out->mean_bytes = e->item_bytes->value;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		bool member = s == 0 || (e->in_index && e->in_index[s]);
		bool whole = s == 0 || ix->projection == DDBC_PROJ_ALL;
		double share = member ? ddbc_entity_membership(e, ix)->share : 0;
		out->write[s] = !member ? 0 : whole ? share * ddbc_write_units(out->max_bytes)
						    : DDBC_UNKNOWN;
		out->storage[s] = !e->count->set || (member && !whole) ? DDBC_UNKNOWN
				  : !member ? 0
				  : share * e->count->value * (out->mean_bytes + DDBC_STORAGE_OVERHEAD);
	}
}

/* A sparse index of e (slot s): its writes and storage are the share of
 * e's items that have its optional key attributes (semantics.c: present:,
 * else the examples'), over the examples that do. held: the examples in
 * it, whose largest put wrote write and whose entries stored stored. */
static void sparse_share(const ddbc_entity *e, size_t s, size_t held, ddbc_entity_cap *out,
			 double stored)
{
	const ddbc_membership *m = ddbc_entity_membership(e, e->table->indexes[s]);
	if (!held) {
		/* No example shows an entry's size: unknown, unless none is made. */
		out->write[s] = m->share > 0 ? DDBC_UNKNOWN : 0;
		out->storage[s] = m->share > 0 || !e->count->set ? DDBC_UNKNOWN : 0;
		return;
	}
	out->write[s] *= m->share;
	out->storage[s] = e->count->set ? stored / (double)held * m->share * e->count->value
					: DDBC_UNKNOWN;
}

void ddbc_entity_capacity(ddbc_arena *arena, const ddbc_entity *e, ddbc_entity_cap *out)
{
	memset(out, 0, sizeof *out);
	const ddbc_table *t = e->table;
	if (!t || !t->nindexes)
		return;
	out->examples = e->nexamples;
	out->write = slots(arena, t, DDBC_UNKNOWN);
	out->storage = slots(arena, t, DDBC_UNKNOWN);
	if (!e->nexamples) {
		if (e->item_bytes->set)
			from_item_bytes(e, out);
		return;
	}
	out->size_known = true;
	double total = 0;
	size_t *held = ddbc_xcalloc(t->nindexes, sizeof(size_t));
	for (size_t s = 0; s < t->nindexes; s++) {
		out->write[s] = 0;
		out->storage[s] = 0;
	}
	/* Each item's attributes are measured once for its size and its
	 * entries in every index. */
	ddbc_attr_bytes *attrs = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < e->nexamples; i++) {
		const ddbc_pval *item = e->examples[i];
		size_t nattrs = ddbc_item_attr_bytes(e, item, &attrs, &cap);
		uint64_t bytes = 0;
		for (size_t a = 0; a < nattrs; a++)
			bytes += attrs[a].bytes;
		total += (double)bytes;
		if (bytes > out->max_bytes)
			out->max_bytes = bytes;
		for (size_t s = 0; s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			/* A put of a new item writes the entry it stores: the
			 * size serves both (ddbc_index_write_units with no
			 * item before). */
			if (!ddbc_index_holds(ix, item))
				continue;
			uint64_t entry = ddbc_entry_size_of(ix, attrs, nattrs);
			double w = ddbc_write_units(entry);
			if (w > out->write[s])
				out->write[s] = w;
			out->storage[s] += (double)entry + DDBC_STORAGE_OVERHEAD;
			held[s]++;
		}
	}
	free(attrs);
	out->mean_bytes = total / (double)e->nexamples;
	/* The examples stand for the count's items in their proportions,
	 * but in a sparse index the share of the membership. */
	for (size_t s = 0; s < t->nindexes; s++) {
		if (ddbc_entity_membership(e, t->indexes[s])->nby && e->in_index[s])
			sparse_share(e, s, held[s], out, out->storage[s]);
		else
			out->storage[s] = e->count->set ? out->storage[s] /
							  (double)e->nexamples * e->count->value
							: DDBC_UNKNOWN;
	}
	free(held);
}

bool ddbc_pattern_fetches(const ddbc_pattern *p)
{
	const ddbc_index *ix = p->index;
	if (p->operation != DDBC_OP_QUERY || !ix || ix->kind != DDBC_INDEX_LSI ||
	    ix->projection == DDBC_PROJ_ALL)
		return false;
	for (size_t i = 0; i < p->nreturns; i++)
		if (p->returns[i].s && !ddbc_index_projects(ix, p->returns[i].s))
			return true;
	return false;
}

/* A read's pages: items taken in order into a page until it holds
 * `limit` items or 1 MB; the item that brings it to 1 MB is the page's
 * last (DynamoDB stops reading once it has read 1 MB: a page of 1,042-byte
 * items is 1,007 items, 257 units, measured as 128.5 eventually
 * consistent; dynalite stops likewise). Each page is rounded up to 4 KB
 * on its own. */
typedef struct pager {
	double limit;            /* items a page; 0: no Limit */
	bool consistent;
	size_t pages;
	double units;            /* of the closed pages */
	double n, bytes;         /* in the open page */
} pager;

static void page_close(pager *pg)
{
	pg->units += ddbc_read_units((uint64_t)ceil(pg->bytes), pg->consistent);
	pg->pages++;
	pg->n = pg->bytes = 0;
}

static void page_add(pager *pg, double bytes)
{
	if (pg->n && ((pg->limit && pg->n >= pg->limit) || pg->bytes >= DDBC_PAGE_BYTES))
		page_close(pg);
	pg->n++;
	pg->bytes += bytes;
}

/* n entries of size bytes each, in pages: closed form, for `items:` of
 * millions. */
static void page_uniform(pager *pg, double n, double size)
{
	double fit = size > 0 ? ceil(DDBC_PAGE_BYTES / size) : n;
	double k = fmax(1, pg->limit && pg->limit < fit ? pg->limit : fit);
	double full = floor(n / k), rest = n - full * k;
	pg->pages += (size_t)full;
	pg->units += full * ddbc_read_units((uint64_t)ceil(k * size), pg->consistent);
	pg->n = rest;
	pg->bytes = rest * size;
}

/* The mean entry bytes (and table units of fetching the whole item) of
 * what a read with `items:` or `limit:` returns: the example items its
 * request selects; else every example of the entities it can return that
 * the index holds; else their item_bytes where the entry is the whole
 * item. False when none tells. */
static bool mean_entry(const ddbc_pattern *p, const ddbc_cap_item *items, size_t n,
		       bool consistent, double *entry, double *fetch)
{
	const ddbc_index *ix = p->index;
	double sum = 0, units = 0, count = 0;
	for (size_t i = 0; i < n; i++, count++) {
		sum += (double)ddbc_entry_size(ix, items[i].entity, items[i].item);
		units += ddbc_read_units(ddbc_item_size(items[i].entity, items[i].item), consistent);
	}
	for (size_t k = 0; !n && k < p->nmatched; k++) {
		const ddbc_entity *e = p->matched[k];
		for (size_t i = 0; i < e->nexamples; i++) {
			if (!ddbc_index_holds(ix, e->examples[i]))
				continue;
			sum += (double)ddbc_entry_size(ix, e, e->examples[i]);
			units += ddbc_read_units(ddbc_item_size(e, e->examples[i]), consistent);
			count++;
		}
	}
	bool whole = ix->kind == DDBC_INDEX_PRIMARY || ix->projection == DDBC_PROJ_ALL;
	for (size_t k = 0; !count && whole && k < p->nmatched; k++) {
		const ddbc_figure *b = p->matched[k]->item_bytes;
		if (p->matched[k]->nexamples || !b->set)
			continue;
		sum += b->value;
		units += ddbc_read_units((uint64_t)b->value, consistent);
		count++;
	}
	if (!count)
		return false;
	*entry = sum / count;
	*fetch = units / count;
	return true;
}

/* A query or scan: the items it returns, in pages. */
static void read_pages(const ddbc_pattern *p, const ddbc_cap_item *items, size_t n,
		       bool consistent, ddbc_pattern_cap *out)
{
	const ddbc_index *ix = p->index;
	pager pg = { p->limit->set ? p->limit->value : 0, consistent, 0, 0, 0, 0 };
	double fetched = 0, sum = 0;
	out->fetches = ddbc_pattern_fetches(p);
	out->declared = p->items->set || p->limit->set;
	if (out->declared) {
		double many = p->items->set ? p->items->value : p->limit->value, entry, fetch;
		if (!mean_entry(p, items, n, consistent, &entry, &fetch)) {
			out->known = false;
			out->items = (size_t)many;
			out->read[ix->slot] = DDBC_UNKNOWN;
			if (out->fetches)
				out->read[0] = DDBC_UNKNOWN;
			return;
		}
		out->items = (size_t)many;
		page_uniform(&pg, many, entry);
		sum = many * entry;
		fetched = many * fetch;
	} else {
		for (size_t i = 0; i < n; i++) {
			double bytes = (double)ddbc_entry_size(ix, items[i].entity, items[i].item);
			page_add(&pg, bytes);
			sum += bytes;
			if (out->fetches)
				fetched += ddbc_read_units(ddbc_item_size(items[i].entity,
									  items[i].item),
							   consistent);
		}
	}
	if (pg.n || !pg.pages)
		page_close(&pg);
	out->bytes = sum;
	out->requests = pg.pages;
	/* "Queries that do not return results consume the minimum number of
	 * read capacity units for that type of read operation" (API reference,
	 * Query): one 4 KB read, as a get that finds nothing. */
	bool none = p->operation == DDBC_OP_QUERY && !out->items;
	out->read[ix->slot] = none ? ddbc_read_units(1, consistent) : pg.units;
	if (out->fetches)
		out->read[0] += fetched;
}

static void reads(const ddbc_pattern *p, const ddbc_cap_item *items, size_t n,
		  ddbc_pattern_cap *out)
{
	bool gsi = p->index->kind == DDBC_INDEX_GSI;
	bool consistent = p->consistent_read && !gsi;
	out->items = n;
	out->known = true;
	out->requests = 1;
	if (p->operation == DDBC_OP_GET) {
		uint64_t bytes = n ? ddbc_item_size(items[0].entity, items[0].item) : 0;
		out->bytes = (double)bytes;
		/* A get that finds nothing still reads: one 4 KB unit. */
		out->read[0] = ddbc_read_units(bytes ? bytes : 1, consistent);
		return;
	}
	read_pages(p, items, n, consistent, out);
}

/* The item a write stands for when the request names no example item. */
static const ddbc_cap_item *stand_in(const ddbc_pattern *p, ddbc_cap_item *buf)
{
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_entity *e = p->matched[i];
		if (e->nexamples) {
			buf->entity = e;
			buf->item = e->examples[0];
			return buf;
		}
	}
	return NULL;
}

/* A write of an entity in sparse index ix stands for every write of the
 * entity: ix writes its entry for the share of them that have its
 * optional key attributes, each as an example that has them (the
 * request's own item when it does) would. Unknown when no example has. */
static double sparse_write(const ddbc_index *ix, const ddbc_cap_item *it, bool del, bool upd,
			   double share)
{
	const ddbc_entity *e = it->entity;
	const ddbc_pval *item = ddbc_example_in_index(e, ix, it->item) ? it->item : NULL;
	for (size_t k = 0; !item && k < e->nexamples; k++)
		if (ddbc_example_in_index(e, ix, e->examples[k]))
			item = e->examples[k];
	if (!item)
		return share > 0 ? DDBC_UNKNOWN : 0;
	return share * ddbc_index_write_units(ix, e, del || upd ? item : NULL, del ? NULL : item,
					      true);
}

static void writes(ddbc_arena *arena, const ddbc_pattern *p, const ddbc_cap_item *items,
		   size_t n, ddbc_pattern_cap *out)
{
	const ddbc_table *t = p->table;
	ddbc_cap_item buf;
	const ddbc_cap_item *it = n ? &items[0] : stand_in(p, &buf);
	if (!it) {
		/* No example: a matched entity's item_bytes gives the table's units. */
		for (size_t i = 0; i < p->nmatched; i++) {
			ddbc_entity_cap ec;
			ddbc_entity_capacity(arena, p->matched[i], &ec);
			if (!ec.size_known)
				continue;
			out->known = true;
			out->items = 1;
			out->requests = 1;
			out->bytes = (double)ec.max_bytes;
			memcpy(out->write, ec.write, t->nindexes * sizeof(double));
			return;
		}
		for (size_t s = 0; s < t->nindexes; s++)
			out->write[s] = DDBC_UNKNOWN;
		return;
	}
	out->known = true;
	out->items = 1;
	out->requests = 1;
	out->bytes = (double)ddbc_item_size(it->entity, it->item);
	bool del = p->operation == DDBC_OP_DELETE, upd = p->operation == DDBC_OP_UPDATE;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		/* A put writes a new item, a delete removes one, an update
		 * rewrites the item in place, its index keys unchanged. */
		out->write[s] = ddbc_index_write_units(ix, it->entity, del || upd ? it->item : NULL,
						       del ? NULL : it->item, true);
		/* A put no entity matches writes its own item: no membership
		 * to read, the index holds it when it has the index's keys. */
		if (!it->entity)
			continue;
		const ddbc_membership *m = ddbc_entity_membership(it->entity, ix);
		if (m->nby && it->entity->in_index[s])
			out->write[s] = sparse_write(ix, it, del, upd, m->share);
	}
}

void ddbc_pattern_capacity(ddbc_arena *arena, const ddbc_pattern *p, const ddbc_cap_item *items,
			   size_t n, ddbc_pattern_cap *out)
{
	memset(out, 0, sizeof *out);
	const ddbc_table *t = p->table;
	if (!p->analysed || !t || !p->index || !t->nindexes)
		return;
	out->read = slots(arena, t, 0);
	out->write = slots(arena, t, 0);
	switch (p->operation) {
	case DDBC_OP_GET:
	case DDBC_OP_QUERY:
	case DDBC_OP_SCAN:
		reads(p, items, n, out);
		break;
	default:
		writes(arena, p, items, n, out);
	}
}

size_t ddbc_request_items(const ddbc_pattern *p, const ddbc_key_sent *sent, ddbc_views *views,
			  ddbc_cap_item **out)
{
	const ddbc_view *view = ddbc_request_view(views, p);
	size_t *rows, nitems;
	const ddbc_view_item *items = ddbc_view_items(view, &nitems);
	size_t n = ddbc_request_rows(p, sent, view, &rows);
	*out = ddbc_xcalloc(n + 1, sizeof **out);
	for (size_t i = 0; i < n; i++) {
		(*out)[i].entity = items[rows[i]].entity;
		(*out)[i].item = items[rows[i]].item;
	}
	free(rows);
	return n;
}

bool ddbc_pattern_design_capacity(ddbc_arena *arena, const ddbc_design *g, const ddbc_pattern *p,
				  ddbc_views *views, ddbc_pattern_cap *out)
{
	if (!p->analysed || !p->table || !p->index || p->operation == DDBC_OP_PUT ||
	    !ddbc_pattern_request(p))
		return false;
	ddbc_key_sent sent;
	bool ok = ddbc_request_key_sent(g, p, &sent);
	if (ok) {
		ddbc_cap_item *items;
		size_t n = ddbc_request_items(p, &sent, views, &items);
		ddbc_pattern_capacity(arena, p, items, n, out);
		free(items);
	}
	ddbc_key_sent_release(&sent);
	return ok;
}
