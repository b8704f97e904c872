/* items_keyindex.c - leading key literals to entities (items_keyindex.h)
 *
 * Each entity goes into one bucket, keyed by its two leading literals.
 * A lookup cuts the item's key values at every pair of literal lengths
 * that occurs (a shape) and looks each cut up: a design has few distinct
 * lengths, so a lookup costs a few hashes. So that a design of many
 * lengths cannot make that many, the literals are first shortened to at
 * most MAX_SHAPES shapes: a shorter literal is still a prefix every
 * fitting key begins with, so shortening only adds candidates, which the
 * full match then turns down.
 */
#include "items/items_keyindex.h"
#include "util/strset.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SHAPES 16

struct ddbc_keyindex_bucket {
	const char *pk, *sk;     /* the literals; pk NULL for an empty bucket */
	size_t pklen, sklen;
	uint64_t hash;
	size_t *ents;            /* increasing */
	size_t nents, cap;
};

/* The literal l begins with: its first run when that is fixed. */
static size_t leading(const ddbc_lang *l, const char **text)
{
	*text = "";
	if (!l || !l->nruns || !l->runs[0].fixed)
		return 0;
	*text = l->runs[0].text;
	return l->runs[0].len;
}

static uint64_t hash_of(const char *pk, size_t pklen, const char *sk, size_t sklen)
{
	uint64_t h = ddbc_hash64(pk, pklen);
	return h ^ (ddbc_hash64(sk, sklen) * 0x9e3779b97f4a7c15ull) ^ (pklen << 1);
}

typedef struct lit {
	const char *pk, *sk;
	size_t pklen, sklen;
} lit;

static size_t count_shapes(const lit *ls, size_t n, ddbc_keyindex_shape *out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < k && (out[j].pk != ls[i].pklen || out[j].sk != ls[i].sklen))
			j++;
		if (j < k)
			continue;
		if (k == max)
			return max + 1;
		out[k].pk = ls[i].pklen;
		out[k].sk = ls[i].sklen;
		k++;
	}
	return k;
}

/* The largest power of two not above len, or 0. */
static size_t floor_pow2(size_t len)
{
	size_t p = 1;
	if (!len)
		return 0;
	while (p <= len / 2)
		p *= 2;
	return p;
}

/* Shortens the literals until they make at most MAX_SHAPES shapes: the
 * sort keys' literals go first, then the partition keys' are cut to
 * powers of two (at most 12 lengths for DynamoDB's 2048 bytes), then the
 * sort keys' are given back cut the same way, while that still fits. */
static size_t settle_shapes(lit *ls, size_t n, ddbc_keyindex_shape *shapes)
{
	size_t k = count_shapes(ls, n, shapes, MAX_SHAPES);
	if (k <= MAX_SHAPES)
		return k;
	lit *cut = ddbc_xcalloc(n ? n : 1, sizeof(lit));
	for (size_t i = 0; i < n; i++) {
		cut[i] = ls[i];
		cut[i].pklen = floor_pow2(ls[i].pklen);
		cut[i].sklen = floor_pow2(ls[i].sklen);
	}
	k = count_shapes(cut, n, shapes, MAX_SHAPES);
	if (k > MAX_SHAPES) {
		for (size_t i = 0; i < n; i++)
			cut[i].sklen = 0;
		k = count_shapes(cut, n, shapes, MAX_SHAPES);
	}
	memcpy(ls, cut, n * sizeof(lit));
	free(cut);
	return k;
}

static ddbc_keyindex_bucket *slot_of(const ddbc_keyindex *x, const char *pk, size_t pklen,
				     const char *sk, size_t sklen, uint64_t h)
{
	for (size_t k = (size_t)(h ^ (h >> 29)) & x->mask;; k = (k + 1) & x->mask) {
		ddbc_keyindex_bucket *b = &x->buckets[k];
		if (!b->pk || (b->hash == h && b->pklen == pklen && b->sklen == sklen &&
			       !memcmp(b->pk, pk, pklen) && !memcmp(b->sk, sk, sklen)))
			return b;
	}
}

void ddbc_keyindex_build(ddbc_keyindex *x, const ddbc_lang *const *pk,
			 const ddbc_lang *const *sk, size_t n)
{
	memset(x, 0, sizeof(*x));
	lit *ls = ddbc_xcalloc(n ? n : 1, sizeof(lit));
	for (size_t i = 0; i < n; i++) {
		ls[i].pklen = leading(pk[i], &ls[i].pk);
		ls[i].sklen = leading(sk[i], &ls[i].sk);
	}
	x->shapes = ddbc_xcalloc(MAX_SHAPES + 1, sizeof(*x->shapes));
	x->nshapes = settle_shapes(ls, n, x->shapes);
	size_t cap = 8;
	while (cap < 2 * n)
		cap *= 2;
	x->buckets = ddbc_xcalloc(cap, sizeof(*x->buckets));
	x->mask = cap - 1;
	for (size_t i = 0; i < n; i++) {
		const lit *l = &ls[i];
		uint64_t h = hash_of(l->pk, l->pklen, l->sk, l->sklen);
		ddbc_keyindex_bucket *b = slot_of(x, l->pk, l->pklen, l->sk, l->sklen, h);
		if (!b->pk)
			*b = (ddbc_keyindex_bucket){ l->pk, l->sk, l->pklen, l->sklen, h, NULL, 0, 0 };
		ddbc_xgrow((void **)&b->ents, &b->cap, b->nents + 1, sizeof(size_t));
		b->ents[b->nents++] = i;
	}
	free(ls);
}

void ddbc_keyindex_release(ddbc_keyindex *x)
{
	for (size_t k = 0; x->buckets && k <= x->mask; k++)
		free(x->buckets[k].ents);
	free(x->buckets);
	free(x->shapes);
	memset(x, 0, sizeof(*x));
}

static int by_number(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

void ddbc_keyindex_find(const ddbc_keyindex *x, const char *pk, size_t pklen, const char *sk,
			size_t sklen, size_t **out, size_t *n, size_t *cap)
{
	size_t from = *n, found = 0;
	for (size_t i = 0; i < x->nshapes; i++) {
		const ddbc_keyindex_shape *s = &x->shapes[i];
		if (s->pk > pklen || s->sk > (sk ? sklen : 0))
			continue;
		const char *skp = sk ? sk : "";
		uint64_t h = hash_of(pk, s->pk, skp, s->sk);
		const ddbc_keyindex_bucket *b = slot_of(x, pk, s->pk, skp, s->sk, h);
		if (!b->pk)
			continue;
		ddbc_xgrow((void **)out, cap, *n + b->nents, sizeof(size_t));
		memcpy(*out + *n, b->ents, b->nents * sizeof(size_t));
		*n += b->nents;
		found++;
	}
	/* One bucket's entities are in order already; several are merged. */
	if (found > 1)
		qsort(*out + from, *n - from, sizeof(size_t), by_number);
}
