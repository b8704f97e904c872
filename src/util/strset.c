/* strset.c - hash sets of byte strings and of 64-bit hashes */
#include "util/strset.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 64

uint64_t ddbc_hash64_more(uint64_t h, const void *s, size_t len)
{
	const unsigned char *p = s;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 1099511628211u;
	return h;
}

uint64_t ddbc_hash64(const void *s, size_t len)
{
	return ddbc_hash64_more(DDBC_HASH64_START, s, len);
}

/* The number of slots for n members: a power of two, at most 3/4 full (at
 * most 1/2 with half_full), where linear probing stays short. */
static size_t slots_for(size_t n, bool half_full)
{
	size_t cap = MIN_SLOTS;
	while (half_full ? n > cap / 2 : n > cap / 4 * 3) {
		if (cap > SIZE_MAX / 2)
			ddbc_xalloc_die();
		cap *= 2;
	}
	return cap;
}

/* ---- strings ---------------------------------------------------------------------- */

static uint32_t hash32(const char *s, size_t len)
{
	uint64_t h = ddbc_hash64(s, len);
	return (uint32_t)(h ^ (h >> 32));
}

/* Where s is, or the empty slot where it would go. */
static size_t find(const ddbc_strset *set, const char *s, size_t len, uint32_t h)
{
	size_t mask = set->cap - 1, k = h & mask;
	for (; set->slots[k].s; k = (k + 1) & mask) {
		const ddbc_strset_entry *e = &set->slots[k];
		if (e->hash == h && e->len == len && !memcmp(e->s, s, len))
			break;
	}
	return k;
}

const char *ddbc_strset_get(const ddbc_strset *set, const char *s, size_t len)
{
	if (!set->n)
		return NULL;
	return set->slots[find(set, s, len, hash32(s, len))].s;
}

static void grow_strset(ddbc_strset *set)
{
	size_t cap = slots_for(set->n + 1, true);
	ddbc_strset bigger = { ddbc_xcalloc(cap, sizeof(ddbc_strset_entry)), cap, set->n };
	for (size_t i = 0; i < set->cap; i++) {
		const ddbc_strset_entry *e = &set->slots[i];
		if (e->s)
			bigger.slots[find(&bigger, e->s, e->len, e->hash)] = *e;
	}
	free(set->slots);
	*set = bigger;
}

void ddbc_strset_put(ddbc_strset *set, const char *s, size_t len)
{
	if ((set->n + 1) * 2 > set->cap)
		grow_strset(set);
	uint32_t h = hash32(s, len);
	ddbc_strset_entry e = { s, (uint32_t)len, h };
	set->slots[find(set, s, len, h)] = e;
	set->n++;
}

void ddbc_strset_release(ddbc_strset *set)
{
	free(set->slots);
	set->slots = NULL;
	set->cap = set->n = 0;
}

/* ---- hashes ------------------------------------------------------------------------ */

/* Where h (not 0) is, or the empty slot where it would go. */
static size_t find_hash(const ddbc_hashset *set, uint64_t h)
{
	size_t mask = set->cap - 1, k = (size_t)(h ^ (h >> 32)) & mask;
	while (set->slots[k] && set->slots[k] != h)
		k = (k + 1) & mask;
	return k;
}

static void rehash(ddbc_hashset *set, size_t cap)
{
	ddbc_hashset bigger = { ddbc_xcalloc(cap, sizeof(uint64_t)), cap, set->n, set->has_zero };
	for (size_t i = 0; i < set->cap; i++)
		if (set->slots[i])
			bigger.slots[find_hash(&bigger, set->slots[i])] = set->slots[i];
	free(set->slots);
	*set = bigger;
}

void ddbc_hashset_reserve(ddbc_hashset *set, size_t n)
{
	size_t cap = slots_for(n, false);
	if (cap > set->cap)
		rehash(set, cap);
}

bool ddbc_hashset_add(ddbc_hashset *set, uint64_t h)
{
	if (!h) {
		if (set->has_zero)
			return false;
		set->has_zero = true;
		set->n++;
		return true;
	}
	if (set->n + 1 > set->cap / 4 * 3)
		ddbc_hashset_reserve(set, set->n + 1);
	size_t k = find_hash(set, h);
	if (set->slots[k])
		return false;
	set->slots[k] = h;
	set->n++;
	return true;
}

bool ddbc_hashset_has(const ddbc_hashset *set, uint64_t h)
{
	if (!h)
		return set->has_zero;
	return set->cap && set->slots[find_hash(set, h)] == h;
}

void ddbc_hashset_release(ddbc_hashset *set)
{
	free(set->slots);
	*set = (ddbc_hashset)DDBC_HASHSET_INIT;
}

/* Sorts the n hashes at h in place: an MSD radix sort, a byte a level
 * from the top, each bucket permuted in place (American flag sort), small
 * buckets by insertion. Hashes are uniform, so two levels leave buckets of
 * a few: linear in n, and no second array of n (at 20,000 entities, 12 MiB
 * that the sort would need on top of the hashes). */
/* Both widths of hash (ddbc_hashes_repeated, ddbc_hashes32_repeated). */
#define HASH_SORT(type, insertion_sort, radix_sort)					\
static void insertion_sort(type *h, size_t n)						\
{											\
	for (size_t i = 1; i < n; i++) {						\
		type v = h[i];								\
		size_t j = i;								\
		for (; j > 0 && h[j - 1] > v; j--)					\
			h[j] = h[j - 1];						\
		h[j] = v;								\
	}										\
}											\
											\
static void radix_sort(type *h, size_t n, int shift)					\
{											\
	if (n <= 32 || shift < 0) {							\
		insertion_sort(h, n);							\
		return;									\
	}										\
	size_t count[256] = { 0 }, start[256], next[256];				\
	for (size_t i = 0; i < n; i++)							\
		count[(h[i] >> shift) & 0xff]++;					\
	for (size_t b = 0, at = 0; b < 256; b++) {					\
		start[b] = next[b] = at;						\
		at += count[b];								\
	}										\
	for (size_t b = 0; b < 256; b++) {						\
		/* Swap into place until bucket b's slots hold only its own. */	\
		while (next[b] < start[b] + count[b]) {					\
			type v = h[next[b]];						\
			size_t vb = (v >> shift) & 0xff;				\
			while (vb != b) {						\
				type w = h[next[vb]];					\
				h[next[vb]++] = v;					\
				v = w;							\
				vb = (v >> shift) & 0xff;				\
			}								\
			h[next[b]++] = v;						\
		}									\
	}										\
	for (size_t b = 0; b < 256; b++)						\
		if (count[b] > 1)							\
			radix_sort(h + start[b], count[b], shift - 8);			\
}

HASH_SORT(uint64_t, insertion_sort64, radix_sort64)
HASH_SORT(uint32_t, insertion_sort32, radix_sort32)

void ddbc_hashes_repeated(uint64_t *h, size_t n, ddbc_hashset *twice)
{
	if (n < 2)
		return;
	radix_sort64(h, n, 56);
	for (size_t i = 1; i < n; i++)
		if (h[i] == h[i - 1] && (i < 2 || h[i - 2] != h[i]))
			ddbc_hashset_add(twice, h[i]);
}

void ddbc_hashes32_repeated(uint32_t *h, size_t n, ddbc_hashset *twice)
{
	if (n < 2)
		return;
	radix_sort32(h, n, 24);
	for (size_t i = 1; i < n; i++)
		if (h[i] == h[i - 1] && (i < 2 || h[i - 2] != h[i]))
			ddbc_hashset_add(twice, h[i]);
}
