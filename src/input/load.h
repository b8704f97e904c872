/* load.h - from YAML text to a design model
 *
 * ddbc_load composes the YAML tree (compose.c), checks it against input
 * format v1 (docs/format.md) and fills a ddbc_design, reporting every
 * structural problem it finds (schema, duplicate-key) rather than stopping at the
 * first; then it resolves names (resolve.c, unresolved-reference).
 */
#ifndef DDBC_LOAD_H
#define DDBC_LOAD_H

#include "model/model.h"

/* Loads src. Returns NULL, with d->fatal set and a diagnostic added, when
 * the file is no usable YAML document or not a mapping; otherwise a design
 * (possibly with findings in d) that the caller frees with
 * ddbc_design_free. src must outlive the design. */
ddbc_design *ddbc_load(const ddbc_source *src, ddbc_diags *d);

/* Links names: entity -> table, pattern -> table, index and entities,
 * declared inclusion -> index. Reports unresolved-reference. Called by
 * ddbc_load. */
void ddbc_resolve(ddbc_design *design, ddbc_diags *d);

/* The fields of each part of a design, as the loader knows them: where
 * ("root", "table", "gsi", "lsi", "entity", "attribute", "access_pattern")
 * and their names, for the language server's completion. Ends with a
 * NULL where. */
typedef struct ddbc_field_list {
	const char *where;
	const char *const *names;
	size_t n;
} ddbc_field_list;

extern const ddbc_field_list ddbc_design_fields[];

#endif
