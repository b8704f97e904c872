/* doc_request.h - an access pattern's request and the items it returns
 *
 * The request is the one `ddbc export --format queries` writes for the
 * pattern (emit.h's ddbc_emit_query_input), so the documentation never
 * builds a request of its own. Which example items it returns is the
 * model's evaluation (model/request_rows.h) of the values the export says
 * it sends, on the index's view (sorted once per document).
 */
#ifndef DDBC_DOC_REQUEST_H
#define DDBC_DOC_REQUEST_H

#include "emit/doc_views.h"

/* Writes p's request as a JSON block, then the partitions of its index's
 * view that hold the example items it returns, those marked. */
void ddbc_doc_pattern_request(const ddbc_view_out *v, const ddbc_design *g,
			      const ddbc_pattern *p);

/* Writes the input of p's request to f (NULL: an error) and closes it;
 * sent receives what it sends of its key (ddbc_emit_query_input). The
 * lint before the document reported what stops a request. */
ddbc_emit_result ddbc_doc_request_input(FILE *f, const ddbc_design *g, const ddbc_pattern *p,
					ddbc_query_sent *sent);

#endif
