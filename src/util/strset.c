/* strset.c - a set of byte strings, compared by content */
#include "util/strset.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hash_of(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
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
	return set->slots[find(set, s, len, hash_of(s, len))].s;
}

void ddbc_strset_put(ddbc_strset *set, const char *s, size_t len)
{
	if ((set->n + 1) * 2 > set->cap) {
		ddbc_strset bigger = { xcalloc(set->cap ? set->cap * 2 : 64, sizeof(ddbc_strset_entry)),
				       set->cap ? set->cap * 2 : 64, set->n };
		for (size_t i = 0; i < set->cap; i++) {
			const ddbc_strset_entry *e = &set->slots[i];
			if (e->s)
				bigger.slots[find(&bigger, e->s, e->len, e->hash)] = *e;
		}
		free(set->slots);
		*set = bigger;
	}
	uint32_t h = hash_of(s, len);
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
