/* load_cost.h - the capacity fields of the format (SPEC 7.4): a pattern's
 * `rate`, an entity's `count` and `item_bytes`, a table's `table_class`,
 * the design's `pricing: { region }`. load.c calls these with the mapping
 * that holds the field; each reports what it cannot read as a schema
 * finding at the value and leaves the field unset. */
#ifndef DDBC_LOAD_COST_H
#define DDBC_LOAD_COST_H

#include "model/model.h"

/* `rate:` requests per second: a number of at least 0. */
void ddbc_load_rate(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *map, ddbc_pattern *p);
/* A query's or scan's `items:` (a whole number of at least 0) and
 * `limit:` (1 to 2147483647, DynamoDB's Limit); on another operation each
 * is a finding at its value. p->operation must be read already. */
void ddbc_load_page_figures(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *map,
			    ddbc_pattern *p);
/* `count:` a whole number of at least 0; `item_bytes:` 1 to 409,600.
 * Each sets its pointer, to ddbc_figure_none when the field is absent or
 * unreadable. */
void ddbc_load_entity_figures(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *map,
			      ddbc_entity *e);
/* An attribute's `present:` value v, a share of items from 0 to 1. */
const ddbc_figure *ddbc_load_present(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *v);
void ddbc_load_table_class(ddbc_diags *d, const ddbc_node *map, ddbc_table *t);
void ddbc_load_pricing(ddbc_arena *arena, ddbc_diags *d, const ddbc_node *root, ddbc_design *g);

#endif
