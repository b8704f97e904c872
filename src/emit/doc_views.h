/* doc_views.h - item views: a table's example items as DynamoDB lays them
 * out, and the same items as each of its indexes holds them
 *
 * A table's view holds every example item of its entities; an index's view
 * holds the items that set every key attribute of the index (DynamoDB
 * leaves the others out of a GSI or LSI: a sparse index), its keys first,
 * then only the attributes it projects. Items of one partition stand
 * together, partitions in the order they first appear, items in sort key
 * order within.
 */
#ifndef DDBC_DOC_VIEWS_H
#define DDBC_DOC_VIEWS_H

#include "emit/doc_labels.h"
#include "emit/doc_write.h"

#include <stdbool.h>
#include <stddef.h>

/* One example item in a view. */
typedef struct ddbc_view_item {
	const ddbc_entity *entity;
	const ddbc_node *item;   /* the example item, a mapping */
	size_t colour;           /* the entity's position in its table */
} ddbc_view_item;

/* Whether index ix holds item: it sets every key attribute of ix (for the
 * table's own key, always). */
bool ddbc_view_holds(const ddbc_index *ix, const ddbc_node *item);

/* Whether ix projects attribute name: its keys and the table's always,
 * the rest as its projection says. */
bool ddbc_view_projects(const ddbc_index *ix, const char *name);

/* The items ix holds, in the view's order; *n receives how many. The
 * caller frees the array. */
ddbc_view_item *ddbc_view_items(const ddbc_index *ix, size_t *n);

/* What a view is written with. */
typedef struct ddbc_view_out {
	const ddbc_doc_backend *be;
	ddbc_doc_out *o;
	const ddbc_doc_labels *L;
	const char *const *entity_ids;   /* per entity of the design: its heading id */
	const ddbc_entity *entities;     /* the design's entities */
} ddbc_view_out;

/* Writes ix's view of the n items. hit (NULL: none) marks the items an
 * access pattern returns: they get a mark column and are highlighted. */
void ddbc_view_write(const ddbc_view_out *v, const ddbc_index *ix, const ddbc_view_item *items,
		     size_t n, const bool *hit);

/* The legend of a table's entities and their colours. */
void ddbc_view_legend(const ddbc_view_out *v, const ddbc_table *t);

#endif
