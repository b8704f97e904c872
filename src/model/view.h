/* view.h - item views: a table's example items as DynamoDB lays them out,
 * and the same items as each of its indexes holds them
 *
 * A table's view holds every example item of its entities; an index's view
 * holds the items that set every key attribute of the index (DynamoDB
 * leaves the others out of a GSI or LSI: a sparse index; item_size.h's
 * ddbc_index_holds). Items of one
 * partition stand together, partitions in the order they first appear,
 * items in sort key order within. The documentation writes them; which
 * example items a request returns is found on them (request_rows.h), for
 * the documentation, `ddbc cost` and the rules alike.
 */
#ifndef DDBC_VIEW_H
#define DDBC_VIEW_H

#include "model/request.h"

#include <stdbool.h>
#include <stddef.h>

/* One example item in a view. */
typedef struct ddbc_view_item {
	const ddbc_entity *entity;
	const ddbc_pval *item;   /* the example item, a mapping */
	size_t colour;           /* the entity's position in its table */
} ddbc_view_item;

/* An index's view: the items it holds in the view's order, each with its
 * key values, sorted once per document. */
typedef struct ddbc_view ddbc_view;

/* Every index's view of a design, each built when first asked for. */
typedef struct ddbc_views ddbc_views;
ddbc_views *ddbc_views_new(const ddbc_design *g);
void ddbc_views_free(ddbc_views *vs);
const ddbc_view *ddbc_views_get(ddbc_views *vs, const ddbc_index *ix);
/* Frees the views of t's indexes that no access pattern reads: a caller
 * done with a table's views keeps only those a pattern may ask for again
 * (~60 bytes an item and index). A view asked for again is rebuilt. */
void ddbc_views_release(ddbc_views *vs, const ddbc_table *t);

/* The view's items; *n receives how many. Owned by the view. */
const ddbc_view_item *ddbc_view_items(const ddbc_view *v, size_t *n);
/* Item i's value of key attribute k of the view's index (pk then sk), or
 * NULL when it has none. */
const ddbc_pval *ddbc_view_key(const ddbc_view *v, size_t i, size_t k);
/* The items [*from, *to) of the one partition whose partition key values
 * are pk (per partition key attribute, compared as the view orders them:
 * a Number by value, else by bytes), found by lookup; an empty range when
 * none. False when the view cannot be searched so (a key value that is no
 * scalar): then the caller tries every item. */
bool ddbc_view_partition(const ddbc_view *v, const ddbc_key_text *pk, size_t *from, size_t *to);

/* The index the view is of. */
const ddbc_index *ddbc_view_index(const ddbc_view *v);
/* Whether items a and b of the view stand in one partition (their
 * partition key values compare equal as the view orders them). */
bool ddbc_view_same_partition(const ddbc_view *v, size_t a, size_t b);

#endif
