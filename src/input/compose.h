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

#include "diag/diag.h"
#include "model/node.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * mapping that keeps only the entry's position.
 *
 * One mapping inside each entry may be streamed too (an entity's
 * attributes: one entity may have 40,000): the value of key nested[section]
 * in an entry's mapping. Its members reach member() one at a time as they
 * complete, like entries, and then the entry reaches entry() with nested
 * set; in that entry the nested mapping is an empty mapping at its
 * position. Composed whole instead, as part of the entry (nested unset),
 * is a nested mapping that an alias could use (it or its entry holds an
 * anchor), a repeated key's, a repeated or merged entry's. */
typedef struct ddbc_yaml_sink {
	const char *const *sections;  /* keys of the root mapping to stream */
	size_t nsections;
	void (*entry)(void *ctx, size_t section, const ddbc_pair *entry, bool nested);
	void *ctx;
	const char *const *nested;    /* per section, a key or NULL; may be NULL */
	void (*member)(void *ctx, size_t section, const ddbc_pair *member);
	/* Where every event also goes, to find the comments (suppress.h);
	 * may be NULL. */
	struct ddbc_comments *comments;
} ddbc_yaml_sink;

/* As ddbc_yaml_load, streaming the sections sink names (sink may be NULL).
 * On failure the sink may have seen some entries already. */
ddbc_node *ddbc_yaml_load_streamed(ddbc_arena *arena, const ddbc_source *src, ddbc_diags *d,
				   const ddbc_yaml_sink *sink);

#endif
