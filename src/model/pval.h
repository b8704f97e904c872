/* pval.h - a YAML value packed into one byte run
 *
 * A design's example items (and an attribute's own example) are the bulk
 * of a large design: as node trees they took about 1,130 bytes an item
 * (28 nodes, their pairs, their texts). Packed, a value is a byte run
 * in the design's arena, its members inline:
 *
 *   tag      1 byte: kind (2 bits), scalar kind (3), plain (1), and the
 *            line's bytes less one (2)
 *   n        varint (LEB128): bytes of text, items or pairs
 *   body     seq/map: varint, the bytes of the body
 *   line     1 to 4 bytes, little-endian
 *   column   varint
 *   scalar:  n bytes of text and a NUL
 *   seq/map: the body: the items (a mapping: key, value, key, value ...),
 *            and for a mapping of more than DDBC_NODE_INDEX_MIN pairs, n
 *            4-byte offsets of its keys from the body's start in strcmp
 *            order of the keys, so a lookup in a wide item is a binary
 *            search, as ddbc_node_get's.
 * Sizes come first and the position has its length in the tag, so that
 * stepping over a value reads two varints and adds.
 *
 * A value is named by a pointer to its tag: a `const ddbc_pval *` is all
 * a reader keeps (a view of a table keeps millions). The readers below
 * mirror node.h's; ddbc_pval_next steps over a value to the one after it.
 */
#ifndef DDBC_PVAL_H
#define DDBC_PVAL_H

#include "model/node.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct ddbc_pval ddbc_pval;  /* opaque: the packed bytes */

/* node packed into arena (aliases expanded, as ddbc_node_copy does). */
const ddbc_pval *ddbc_pval_pack(ddbc_arena *arena, const ddbc_node *node);
/* Bytes the packed value takes. */
size_t ddbc_pval_bytes(const ddbc_pval *v);

ddbc_node_kind ddbc_pval_kind(const ddbc_pval *v);
ddbc_scalar_kind ddbc_pval_scalar(const ddbc_pval *v); /* scalars only */
bool ddbc_pval_plain(const ddbc_pval *v);
uint32_t ddbc_pval_n(const ddbc_pval *v);           /* bytes of text, items or pairs */
ddbc_loc ddbc_pval_loc(const ddbc_pval *v);
const char *ddbc_pval_text(const ddbc_pval *v);     /* a scalar's; NULL for others */
/* A scalar's text and its length in one reading of the header. */
const char *ddbc_pval_str(const ddbc_pval *v, uint32_t *len);

/* A sequence's first item or a mapping's first key; NULL when empty or a
 * scalar. A mapping's pairs are key, value, key, value ...: */
const ddbc_pval *ddbc_pval_first(const ddbc_pval *v);
/* The value right behind v in its container (past the last: not a value). */
const ddbc_pval *ddbc_pval_next(const ddbc_pval *v);

/* Walking a sequence's items or a mapping's pairs:
 *   ddbc_pval_iter it = ddbc_pval_members(map);
 *   const ddbc_pval *k, *v;
 *   while (ddbc_pval_pair(&it, &k, &v)) ...          (or ddbc_pval_item) */
typedef struct ddbc_pval_iter {
	const ddbc_pval *at;
	uint32_t left;
} ddbc_pval_iter;
ddbc_pval_iter ddbc_pval_members(const ddbc_pval *v);
bool ddbc_pval_item(ddbc_pval_iter *it, const ddbc_pval **item);
bool ddbc_pval_pair(ddbc_pval_iter *it, const ddbc_pval **key, const ddbc_pval **value);

/* The value under key in a mapping, or NULL. */
const ddbc_pval *ddbc_pval_get(const ddbc_pval *map, const char *key);

/* Whether a and b are both scalars of the same text, byte for byte. */
bool ddbc_pval_same_text(const ddbc_pval *a, const ddbc_pval *b);

/* node.h's scalar readers, for packed values. */
bool ddbc_pval_bool(const ddbc_pval *v, bool *out);
bool ddbc_pval_int(const ddbc_pval *v, long long *out);
bool ddbc_pval_is_null(const ddbc_pval *v);
bool ddbc_pval_is_number(const ddbc_pval *v);
const char *ddbc_pval_describe(const ddbc_pval *v);

/* The value as a node tree in arena again: what it was packed from, but
 * that an alias's copies are no longer shared (tests/check_load.c reads
 * items back through it). */
ddbc_node *ddbc_pval_unpack(ddbc_arena *arena, const ddbc_pval *v);

#endif
