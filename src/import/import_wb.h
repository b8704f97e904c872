/* import_wb.h - the two halves of the Workbench reader
 *
 * import_workbench.c reads a model's tables; import_wb_entity.c turns its
 * facets and sample items into entities.
 */
#ifndef DDBC_IMPORT_WB_H
#define DDBC_IMPORT_WB_H

#include <jansson.h>

/* One table of a model, as read (all borrowed). */
struct wb_table {
	const char *file;
	const char *name;
	const json_t *model;   /* the model's table object */
	const json_t *table;   /* the design's table */
	const json_t *types;   /* attribute name -> type, from the model */
	const json_t *keys;    /* the names of every key attribute */
	const json_t *items;   /* the table-level sample items, plain */
};

/* Adds the entities of table w to design: one per facet, or one named
 * after the table when the model has no facets. Returns 0 or -1. */
int ddbc_import_wb_entities(const struct wb_table *w, json_t *design);

/* Appends the plain items of Workbench sample list data to items, leaving
 * out (with a warning naming where, the item and the attribute path) each
 * that is not valid DynamoDB JSON. */
void ddbc_import_wb_items(const char *file, const char *where, const json_t *data,
			  json_t *items);

#endif
