/* import_wb.h - the two halves of the Workbench reader
 *
 * import_workbench.c reads a model's tables; import_wb_entity.c turns its
 * facets and sample items into entities.
 */
#ifndef DDBC_IMPORT_WB_H
#define DDBC_IMPORT_WB_H

#include <jansson.h>
#include <stdbool.h>

struct ddbc_import_run;

/* One table of a model, as read (all borrowed). */
struct wb_table {
	struct ddbc_import_run *run;
	const char *file;
	const char *name;
	const json_t *model;   /* the model's table object */
	const json_t *table;   /* the design's table */
	const json_t *types;   /* attribute name -> type, from the model */
	const json_t *keys;    /* the names of every key attribute */
	json_t *items;         /* the table-level sample items, plain (emptied
				 * once each is given to its facet) */
	const json_t *evidence; /* what its malformed items still show
				 * (ddbc_import_plain_part): evidence of key
				 * templates, never examples */
	char **settled;        /* the name of the last entity written to text
				 * (ddbc_import_wb_settle), each facet's as soon
				 * as it is made; NULL: the entities stay trees */
};

/* Adds the entities of table w to design: one per facet, or one named
 * after the table when the model has no facets. Returns 0 or -1. */
int ddbc_import_wb_entities(const struct wb_table *w, json_t *design);

/* Appends the plain items of Workbench sample list data to items, leaving
 * out (with a warning naming where, the item and the attribute path) each
 * that is not valid DynamoDB JSON; what such an item still shows goes to
 * evidence (ddbc_import_plain_part). Each item read is dropped from data.
 * An item the streamed reader read (most are) is appended as its compact
 * JSON text, a string, and parsed only when it is used: a tree is some
 * five times its text, and a table's items wait for their facets. */
void ddbc_import_wb_items(struct ddbc_import_run *run, const char *file, const char *where,
			  json_t *data, json_t *items, json_t *evidence);
/* The tree of an item of such a list: a new reference. */
json_t *ddbc_import_wb_item_tree(const json_t *item);
/* The trees of such a list's items, in a new array; copy: the items kept
 * as trees are deep copied (else shared). */
json_t *ddbc_import_wb_item_trees(const json_t *items, bool copy);

/* Reads a model, parsing each sample item of its TableData lists alone
 * into its plain item (import_wb_stream.c): the skeleton's lists are then
 * empty, their items kept for ddbc_import_wb_items. NULL after saying why.
 * A new reference; what it kept is in run->prepared. */
json_t *ddbc_import_wb_load(struct ddbc_import_run *run, const char *file);
/* The items read of skeleton list data (a plain item's compact JSON text,
 * or {"why": why that item is left out}, for each), or NULL; taken: a new reference,
 * which the reader no longer holds. */
json_t *ddbc_import_wb_take(struct ddbc_import_run *run, const json_t *data);
/* The tree of a facet of a table's TableFacets: a new reference. The
 * reader keeps a facet as its compact JSON text, or [that text, the items
 * of its TableData] (ddbc_import_wb_take of the model's empty list gives
 * them), parsed here, its items then kept for its TableData. */
json_t *ddbc_import_wb_facet(struct ddbc_import_run *run, const json_t *f);

/* Writes the entities of design not yet written (from the one after last,
 * NULL: from the first) as their YAML text, which then stands in the
 * design for their trees; last becomes the last entity's name. The
 * comments set since mark (ddbc_import_comments_mark), which were on those
 * entities, are dropped. */
void ddbc_import_wb_settle(struct ddbc_import_run *run, json_t *design, char **last, size_t mark);

#endif
