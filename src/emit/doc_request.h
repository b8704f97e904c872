/* doc_request.h - an access pattern's request and the items it returns
 *
 * The request is the one `ddbc export --format queries` writes for the
 * pattern (emit.h's ddbc_emit_query), so the documentation never builds a
 * request of its own. Which example items it returns is read off that
 * request -- its KeyConditionExpression, Key or Item with their values --
 * applied to the example items of its index's view.
 */
#ifndef DDBC_DOC_REQUEST_H
#define DDBC_DOC_REQUEST_H

#include "emit/doc_views.h"
#include "model/capacity.h"

/* Writes p's request as a JSON block, then the partitions of its index's
 * view that hold the example items it returns, those marked. */
void ddbc_doc_pattern_request(const ddbc_view_out *v, const ddbc_design *g,
			      const ddbc_pattern *p);

/* The example items p's request returns (a read) or names (a delete or
 * an update), in its index's view order; for a put, the Item it writes,
 * made in arena. The caller frees *out. */
size_t ddbc_pattern_returned(ddbc_arena *arena, const ddbc_design *g, const ddbc_pattern *p,
			     ddbc_cap_item **out);

#endif
