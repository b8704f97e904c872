/* compose.h - a YAML document as a tree of positioned nodes
 *
 * libyaml's events are composed into scalars, sequences and mappings that
 * keep their start mark. Aliases share the anchored node (the tree is a
 * DAG), and the total size that aliases would expand to is bounded, so a
 * walk over the tree is bounded too. Mapping keys are unique: a repeated key
 * is reported as duplicate-key and only its first occurrence is kept.
 * Merge keys ("<<: *base") are applied.
 */
#ifndef DDBC_COMPOSE_H
#define DDBC_COMPOSE_H

#include "util/arena.h"
#include "diag/diag.h"

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

/* Limits on hostile input. */
#define DDBC_YAML_MAX_DEPTH 256
#define DDBC_YAML_MAX_ALIAS_EXPANSION 1000000

/* Composes src's single document. Every problem is added to d; on a
 * problem that leaves no usable document (syntax, encoding, limits, no or
 * several documents, non-scalar keys) returns NULL with d->fatal set.
 * Nodes live in arena. */
ddbc_node *ddbc_yaml_load(ddbc_arena *arena, const ddbc_source *src, ddbc_diags *d);

/* A design's big sections (tables, entities, access patterns) are read
 * one entry at a time, so the tree of a 10,000-entity file never exists
 * whole: the composer hands each entry of a streamed section to the sink
 * as soon as it is complete, then reuses the entry's memory. The entry's
 * nodes are valid only during the call; the sink copies what it keeps
 * (ddbc_node_copy). A repeated entry is reported as duplicate-key and not
 * handed over. In the returned tree, a streamed entry's value is an empty
 * mapping that keeps only the entry's position. */
typedef struct ddbc_yaml_sink {
	const char *const *sections;  /* keys of the root mapping to stream */
	size_t nsections;
	void (*entry)(void *ctx, size_t section, const ddbc_pair *entry);
	void *ctx;
} ddbc_yaml_sink;

/* As ddbc_yaml_load, streaming the sections sink names (sink may be NULL).
 * On failure the sink may have seen some entries already. */
ddbc_node *ddbc_yaml_load_streamed(ddbc_arena *arena, const ddbc_source *src, ddbc_diags *d,
				   const ddbc_yaml_sink *sink);

/* A deep copy of node in arena (a subtree that aliases shared is copied
 * as many times as it is used; its size is bounded like every walk's). */
ddbc_node *ddbc_node_copy(ddbc_arena *arena, const ddbc_node *node);

/* The value under key in a mapping, or NULL. */
ddbc_node *ddbc_node_get(const ddbc_node *map, const char *key);

/* Scalar readers: return true and set *out when node is a scalar of that
 * kind (ddbc_node_int accepts only integers in long long's range). */
bool ddbc_node_bool(const ddbc_node *node, bool *out);
bool ddbc_node_int(const ddbc_node *node, long long *out);
bool ddbc_node_is_null(const ddbc_node *node);
bool ddbc_node_is_number(const ddbc_node *node);

/* "a mapping", "a sequence", "a string", "a number", ... for messages. */
const char *ddbc_node_describe(const ddbc_node *node);

#endif
