/* cost_items.h - which example items each request reads or writes */
#ifndef DDBC_COST_ITEMS_H
#define DDBC_COST_ITEMS_H

#include "emit/doc_views.h"
#include "model/capacity.h"

/* The example items p's request returns (a read: those the documentation
 * shows it returning) or names (a delete, an update); for a put, the Item
 * its request writes, made in arena. None when the request cannot be
 * made (a parameter without a value). The caller frees *out. */
size_t ddbc_cost_items(ddbc_arena *arena, ddbc_views *views, const ddbc_design *g,
		       const ddbc_pattern *p, ddbc_cap_item **out);

#endif
