/* doc_capacity.h - capacity in the documentation (doc_capacity.c) */
#ifndef DDBC_DOC_CAPACITY_H
#define DDBC_DOC_CAPACITY_H

#include "emit/doc_writer.h"

/* "- **Capacity**: read units per request: table 0.5 (2 items, 507 bytes)",
 * with the month at the pattern's rate; an item of the pattern's list. */
void ddbc_doc_pattern_capacity(writer *w, const ddbc_pattern *p);
/* "**One write**: write units per request: table 1, GSI1 1 (...)": a
 * paragraph, for an entity whose size is known. */
void ddbc_doc_entity_capacity(writer *w, const ddbc_entity *e);
/* "**A month**: on demand $..., provisioned $...": a paragraph, for a
 * table with a pattern that gives a rate. */
void ddbc_doc_table_capacity(writer *w, const ddbc_table *t);
/* Releases what the document's capacity figures hold. */
void ddbc_doc_capacity_release(writer *w);

#endif
