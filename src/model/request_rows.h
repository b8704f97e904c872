/* request_rows.h - which example items an access pattern's request
 * returns (or, a write, names)
 *
 * The request is the model's (request.h); what it sends of its key is
 * either what the queries export wrote (emit.h's ddbc_emit_query_input
 * records it, a put's Item included) or, for the rules, the same values
 * taken from the design here (ddbc_request_key_sent): the pattern's
 * example, then the first example item of a matched entity with the
 * parameter, then that attribute's own example. The items are found on the
 * index's view (view.h) with the model's one key comparator, the pattern's
 * partition by lookup. The documentation marks them, `ddbc cost` sizes
 * them, hot-partition counts their units.
 */
#ifndef DDBC_REQUEST_ROWS_H
#define DDBC_REQUEST_ROWS_H

#include "model/view.h"
#include "util/arena.h"
#include "util/strbuf.h"

/* What a request sends of its key (request.h's ddbc_request.key): per key
 * attribute, partition key first, the values it gives (two for a between;
 * text NULL where it gives none) and their type. */
typedef struct ddbc_key_sent {
	size_t n;
	ddbc_key_text (*values)[2];
	ddbc_type *types;        /* the table's type of each, S when none */
	ddbc_arena *arena;       /* the texts */
} ddbc_key_sent;

/* Makes sent hold nothing yet for the key of q (NULL: no key). */
void ddbc_key_sent_init(ddbc_key_sent *sent, const ddbc_request *q);
/* Records that the request sends text (len bytes) as value i (0 or 1) of
 * key attribute pos. */
void ddbc_key_sent_set(ddbc_key_sent *sent, size_t pos, size_t i, const char *text, size_t len);
void ddbc_key_sent_release(ddbc_key_sent *sent);

/* ---- parameter values from the design -------------------------------------------- */

/* The YAML value the design gives parameter name of p: the pattern's
 * example, else the first example item of a matched entity with an
 * attribute of that name that gives it, else such an attribute's own
 * example; NULL when none (the queries export's order after --param). */
const ddbc_pval *ddbc_pattern_param_node(const ddbc_pattern *p, const char *name);

/* Appends a scalar's text as a request sends it: a YAML integer in
 * decimal, anything else as written. */
void ddbc_scalar_text(const ddbc_node *n, strbuf *out);
void ddbc_pval_scalar_text(const ddbc_pval *n, strbuf *out);

/* A parameter's text as placeholder seg's value: a run of digits meeting
 * a :0WIDTH is a number the renderer pads, anything else is text. The
 * text is copied into arena. */
ddbc_tvalue ddbc_param_tvalue(ddbc_arena *arena, const ddbc_segment *seg, const char *text,
			      size_t len);

/* Fills sent (initialised here; release it in every case) with what p's
 * request sends of its key condition, values from the design alone. False
 * when the queries export would not write the request from the design
 * either: a parameter without a value (in the key or a write's
 * condition), a value that does not fit where the pattern puts it, a
 * Number key given no number. A put's Item key beyond its conditions is
 * the export's (ddbc_emit_query_input). */
bool ddbc_request_key_sent(const ddbc_design *g, const ddbc_pattern *p, ddbc_key_sent *sent);

/* ---- the items ---------------------------------------------------------------------- */

/* The view a request of p is evaluated on: its index's for a Query or a
 * Scan, the table's for the others. */
const ddbc_view *ddbc_request_view(ddbc_views *views, const ddbc_pattern *p);

/* Where in view (the view of the request's index) the items q may return
 * are: the one partition its partition key values name, found by lookup,
 * when it sends each of them by equality; else every item. */
void ddbc_request_candidates(const ddbc_request *q, const ddbc_key_sent *sent,
			     const ddbc_view *view, size_t *from, size_t *to);
/* Whether q returns (or writes) item i of view. */
bool ddbc_request_returns(const ddbc_request *q, const ddbc_key_sent *sent, const ddbc_view *view,
			  size_t i);

/* The rows of view (ddbc_request_view's) that p's request returns or
 * names, in the view's order: with a Limit and no `items:` (one use reads
 * one page), those of its first page (the last `limit` rows when the query
 * reads backwards); the caller frees *rows. */
size_t ddbc_request_rows(const ddbc_pattern *p, const ddbc_key_sent *sent,
			 const ddbc_view *view, size_t **rows);

#endif
