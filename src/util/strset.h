/* strset.h - a set of byte strings, compared by content
 *
 * It keeps pointers, not copies: the strings must outlive the set. The
 * composer finds a section's repeated keys with it, the loader stores
 * each attribute word once. Open addressing over FNV-1a hashes.
 */
#ifndef DDBC_STRSET_H
#define DDBC_STRSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct ddbc_strset_entry {
	const char *s;
	uint32_t len, hash;
} ddbc_strset_entry;

typedef struct ddbc_strset {
	ddbc_strset_entry *slots;
	size_t cap, n;
} ddbc_strset;

#define DDBC_STRSET_INIT { NULL, 0, 0 }

/* The string of the set equal to the len bytes at s, or NULL. */
const char *ddbc_strset_get(const ddbc_strset *set, const char *s, size_t len);
/* Adds the len bytes at s, which are not in the set yet. */
void ddbc_strset_put(ddbc_strset *set, const char *s, size_t len);
void ddbc_strset_release(ddbc_strset *set);

#endif
