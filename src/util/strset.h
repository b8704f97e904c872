/* strset.h - the project's hash sets: of byte strings, and of 64-bit hashes
 *
 * One hash function (ddbc_hash64, 64-bit FNV-1a) and one scheme (open
 * addressing, linear probing, a power-of-two number of slots) serve every
 * lookup by content in ddbc.
 *
 * A ddbc_strset keeps pointers, not copies: the strings must outlive the
 * set. The composer finds a section's repeated keys with it. The loader
 * keeps its recent attribute words in entries of the same kind, one per
 * slot of a fixed table (a cache, which forgets, where a set keeps all).
 *
 * A ddbc_hashset keeps only the 64-bit hashes, 8 bytes a member, for a set
 * too large to keep its strings: the header planner finds repeated C
 * identifiers among hundreds of thousands with it. Equal hashes do not
 * prove equal strings; the caller compares the strings of the few members
 * whose hashes met.
 */
#ifndef DDBC_STRSET_H
#define DDBC_STRSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The 64-bit FNV-1a hash of the len bytes at s. */
uint64_t ddbc_hash64(const void *s, size_t len);
/* The hash h of some bytes, continued over the len bytes at s: the hash of
 * a joined string, taken part by part without joining them. */
#define DDBC_HASH64_START 14695981039346656037u
uint64_t ddbc_hash64_more(uint64_t h, const void *s, size_t len);

/* ---- a set of byte strings ---------------------------------------------------- */

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

/* ---- a set of 64-bit hashes ------------------------------------------------------ */

typedef struct ddbc_hashset {
	uint64_t *slots;         /* 0 = an empty slot */
	size_t cap, n;           /* n counts the hash 0 too */
	bool has_zero;           /* the hash 0, which has no slot */
} ddbc_hashset;

#define DDBC_HASHSET_INIT { NULL, 0, 0, false }

/* Makes room for n members in all, so that adding up to n never grows the
 * set: a large set sized at once never holds its old and new slots
 * together. */
void ddbc_hashset_reserve(ddbc_hashset *set, size_t n);
/* Adds h; returns false when h was in the set already. */
bool ddbc_hashset_add(ddbc_hashset *set, uint64_t h);
bool ddbc_hashset_has(const ddbc_hashset *set, uint64_t h);
void ddbc_hashset_release(ddbc_hashset *set);

/* Sorts the n hashes at h and adds to twice each that occurs more than
 * once. For a walk that only asks which hashes met: an array filled in
 * order and sorted once (a radix sort, linear in n) costs a fraction of a
 * set's random probes, and goes as soon as the answer is known. */
void ddbc_hashes_repeated(uint64_t *h, size_t n, ddbc_hashset *twice);
/* The same for hashes folded to 32 bits (ddbc_hash32): half the memory,
 * and a sieve, as 64-bit hashes that meet meet folded too; those folded
 * ones that meet are far more (two million hashes have some 500 pairs). */
void ddbc_hashes32_repeated(uint32_t *h, size_t n, ddbc_hashset *twice);
static inline uint32_t ddbc_hash32(uint64_t h)
{
	return (uint32_t)(h ^ (h >> 32));
}

#endif
