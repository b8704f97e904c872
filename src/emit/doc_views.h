/* doc_views.h - item views written into the documentation: a table's
 * example items as DynamoDB lays them out, and the same items as each of
 * its indexes holds them (the views themselves: model/view.h), its keys
 * first, then only the attributes it projects.
 */
#ifndef DDBC_DOC_VIEWS_H
#define DDBC_DOC_VIEWS_H

#include "emit/doc_labels.h"
#include "emit/doc_write.h"
#include "model/view.h"

#include <stdbool.h>
#include <stddef.h>

/* What a view is written with. */
typedef struct ddbc_view_out {
	const ddbc_doc_backend *be;
	ddbc_doc_out *o;
	const ddbc_doc_labels *L;
	const char *const *entity_ids;   /* per entity of the design: its heading id */
	const ddbc_entity *entities;     /* the design's entities */
	ddbc_views *views;               /* the document's index views */
} ddbc_view_out;

/* Writes n items of the view: those at positions rows[0..n) (NULL: the
 * first n). hit (NULL: none) marks, per row written, the items an access
 * pattern returns: they get a mark column and are highlighted. */
void ddbc_view_write(const ddbc_view_out *v, const ddbc_view *view, const size_t *rows,
		     size_t n, const bool *hit);

/* The legend of a table's entities and their colours. */
void ddbc_view_legend(const ddbc_view_out *v, const ddbc_table *t);

#endif
