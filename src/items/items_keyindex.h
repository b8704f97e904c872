/* items_keyindex.h - the entities of a table whose key literals an item's keys begin with
 *
 * An item fits an entity only when its partition key value begins with
 * the literal that the entity's partition key language begins with
 * ("USER#" of "USER#{id}"), and its sort key value with the sort key's.
 * The index maps those leading literals to the entities, so that an item
 * is matched against the few entities whose literals it starts with, not
 * against every entity of its table: a single-table design has thousands.
 * An entity whose key begins with a placeholder has an empty literal and
 * is a candidate for every item, as it must be.
 */
#ifndef DDBC_ITEMS_KEYINDEX_H
#define DDBC_ITEMS_KEYINDEX_H

#include "model/template.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ddbc_keyindex_bucket ddbc_keyindex_bucket;

/* The lengths of the literals looked up, as a pair: the item's keys are
 * cut at each pair's lengths and the cuts looked up. */
typedef struct ddbc_keyindex_shape {
	size_t pk, sk;
} ddbc_keyindex_shape;

typedef struct ddbc_keyindex {
	ddbc_keyindex_bucket *buckets;  /* open addressing, a power of two */
	size_t mask;
	ddbc_keyindex_shape *shapes;
	size_t nshapes;
} ddbc_keyindex;

/* Indexes n entities, numbered 0..n-1, whose partition and sort key
 * languages are pk[i] and sk[i] (sk[i] NULL without a sort key). The
 * languages must outlive the index. */
void ddbc_keyindex_build(ddbc_keyindex *x, const ddbc_lang *const *pk,
			 const ddbc_lang *const *sk, size_t n);
void ddbc_keyindex_release(ddbc_keyindex *x);

/* Appends to *out (grown as ddbc_xgrow does, *cap its capacity) the numbers of
 * the entities whose leading literals the key values begin with, in
 * increasing order; sk is NULL when the table has no sort key. Every
 * entity the item can fit is among them. */
void ddbc_keyindex_find(const ddbc_keyindex *x, const char *pk, size_t pklen, const char *sk,
			size_t sklen, size_t **out, size_t *n, size_t *cap);

#endif
