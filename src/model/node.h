/* node.h - a YAML value: positioned scalars, sequences and mappings
 *
 * The composer (input/compose.h) builds these from libyaml's events; the
 * model keeps the subtrees it needs as they are (example items, enum
 * values, pattern examples), and the emitters and checks read them with
 * the readers below. The type sits at the bottom of the house so every
 * layer can read a value without depending on how it was parsed.
 */
#ifndef DDBC_NODE_H
#define DDBC_NODE_H

#include "util/arena.h"
#include "util/source.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ddbc_node_kind {
	DDBC_NODE_SCALAR,
	DDBC_NODE_SEQ,
	DDBC_NODE_MAP
} ddbc_node_kind;

/* What a scalar is under the YAML 1.2 core schema (quoted or !!str-tagged
 * scalars are always strings). */
typedef enum ddbc_scalar_kind {
	DDBC_SCALAR_STR,
	DDBC_SCALAR_INT,
	DDBC_SCALAR_FLOAT,
	DDBC_SCALAR_BOOL,
	DDBC_SCALAR_NULL
} ddbc_scalar_kind;

typedef struct ddbc_node ddbc_node;
typedef struct ddbc_pair {
	ddbc_node *key, *value;
} ddbc_pair;

/* A large design has millions of nodes: the fields are packed so a node
 * takes 24 bytes. */
#define DDBC_NODE_WEIGHT_MAX ((1u << 26) - 1)
struct ddbc_node {
	unsigned kind : 2;        /* ddbc_node_kind */
	unsigned scalar : 3;      /* ddbc_scalar_kind; scalars only */
	unsigned plain : 1;       /* scalars: written without quotes or a tag */
	unsigned weight : 26;     /* nodes in the expanded subtree, up to DDBC_NODE_WEIGHT_MAX */
	uint32_t n;               /* bytes of text, items or pairs */
	ddbc_loc loc;             /* where the node starts */
	union {
		char *text;       /* NUL-terminated; may hold other NULs only if n says so */
		ddbc_node **items;
		ddbc_pair *pairs;
	} u;
};

/* A mapping of more than DDBC_NODE_INDEX_MIN pairs keeps, right behind
 * its n pairs, their n positions (uint32_t) in the order of their keys, so
 * ddbc_node_get is a binary search: an example item of a wide entity has
 * thousands of keys. Smaller mappings, most of a design, are searched in
 * order. Whoever builds a mapping allocates ddbc_node_pairs_size(n) bytes
 * for its pairs and, once they are set, calls ddbc_node_index_pairs. */
#define DDBC_NODE_INDEX_MIN 16
size_t ddbc_node_pairs_size(size_t n);
void ddbc_node_index_pairs(ddbc_node *map);

/* A deep copy of node in arena (a subtree that aliases shared is copied
 * as many times as it is used; its size is bounded like every walk's). */
ddbc_node *ddbc_node_copy(ddbc_arena *arena, const ddbc_node *node);

/* The value under key in a mapping, or NULL. */
ddbc_node *ddbc_node_get(const ddbc_node *map, const char *key);

/* Scalar readers: return true and set *out when node is a scalar of that
 * kind (ddbc_node_int accepts only integers in long long's range). */
bool ddbc_node_bool(const ddbc_node *node, bool *out);
bool ddbc_node_int(const ddbc_node *node, long long *out);
/* The value of a number scalar (an integer or a float) as YAML's core
 * schema reads it: .inf, -.inf and .nan are infinite and not a number,
 * 0x1F and 0o17 integers. False when node is no number. */
bool ddbc_node_number(const ddbc_node *node, double *out);
bool ddbc_node_is_null(const ddbc_node *node);
bool ddbc_node_is_number(const ddbc_node *node);

/* An integer scalar's text (decimal, 0x or 0o) in long long's range. */
bool ddbc_int_text(const char *text, long long *out);

/* "a mapping", "a sequence", "a string", "a number", ... for messages. */
const char *ddbc_node_describe(const ddbc_node *node);
const char *ddbc_kind_describe(ddbc_node_kind kind, ddbc_scalar_kind scalar);

#endif
