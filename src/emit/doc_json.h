/* doc_json.h - an example item of the design as the JSON a reader knows
 *
 * The documentation shows each entity's example items as indented JSON,
 * keys in the design's order; YAML numbers become JSON numbers (an integer
 * too large for one becomes a real, as any JSON reader makes it).
 */
#ifndef DDBC_DOC_JSON_H
#define DDBC_DOC_JSON_H

#include "model/pval.h"

/* The item as indented JSON text, or NULL when jansson cannot write it.
 * The caller frees it. */
char *ddbc_doc_example_json(const ddbc_pval *item);

/* A value as JSON on one line, or NULL when jansson cannot write it. The
 * caller frees it. */
char *ddbc_doc_value_json(const ddbc_pval *value);

#endif
