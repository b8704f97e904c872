/* items.h - check-items: real items against a checked design
 *
 * Text output, one line per finding, the summary and the count by kind:
 *   FILE:LINE:COL: error: item 3 (UserStamp): 'stampId' is N, expected S
 *   3 items: 1 ok, 1 failed, 1 unmatched
 *   findings: 1 wrong-type, 1 unmatched
 * LINE:COL is where the attribute's name is in the input (else where the
 * item starts); items are counted from 1 in each file's order. The summary
 * adds ", N malformed" when an item could not be read as one, and
 * "(N more not shown)" to the count when --max-findings cut the list.
 *
 * JSON output (--format json), one object, findings streamed one a line:
 *   {"file": F|null, "files": [F, ...], "findings": [
 *     {"file": F, "item": 3, "line": 12, "column": 5,
 *      "entity": "UserStamp"|null, "severity": "error"|"warning"|"note",
 *      "kind": K, "attribute": A|null, "message": M}, ...],
 *    "input": {"shape": "array"|"lines"|"scan"|"export"|"batch"|"mixed"|null,
 *              "json": "plain"|"dynamodb"|"mixed"|null},
 *    "summary": {"items": N, "ok": N, "failed": N, "unmatched": N,
 *                "malformed": N, "findings": N, "errors": N, "shown": N,
 *                "kinds": {K: N, ...}},
 *    "error": {"file": F, "line": L, "column": C, "message": M}}  (bad input only)
 * "file" is the one ITEMS argument, null when there are several. Such
 * results merge (ddbc_items_merge) into one of the same form.
 *
 * Bad input that is not one item's (truncated input, the wrong shape, an
 * item over the size cap, an export folder whose manifests do not add up)
 * stops that file: FILE:LINE:COL: error: MESSAGE on stderr; the findings
 * before it stay written, the other files are checked, and the run ends
 * unreadable.
 */
#ifndef DDBC_ITEMS_H
#define DDBC_ITEMS_H

#include "aws/dynamo.h"
#include "diag/item_kinds.h"
#include "model/model.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdio.h>

typedef enum ddbc_items_format {
	DDBC_ITEMS_TEXT,
	DDBC_ITEMS_JSON
} ddbc_items_format;

/* What checking the items came to. */
typedef enum ddbc_items_result {
	DDBC_ITEMS_ALL_OK,       /* every item is ok (or there is none) */
	DDBC_ITEMS_SOME_FAILED,  /* an item failed or matched no entity */
	DDBC_ITEMS_UNREADABLE    /* some input could not be read; said on stderr */
} ddbc_items_result;

typedef struct ddbc_items_opts {
	ddbc_items_format format;
	unsigned long max_findings;  /* findings written at most (0: none, as
				      * grep -m 0); ULONG_MAX, the default: all */
	ddbc_severity min_severity;  /* findings below it are counted, not written */
	unsigned long jobs;          /* files checked at once; 0 and 1: one */
	/* per kind: DDBC_SEV_DEFAULT keeps the kind's default */
	ddbc_severity sev[DDBC_ITEM_KIND_COUNT];
	bool progress;               /* a progress line on stderr after a second */
} ddbc_items_opts;

void ddbc_items_opts_init(ddbc_items_opts *o);

/* Validates the items of the npaths inputs against the design, streamed,
 * writing findings and the summary to out (owned by the caller). A path
 * is a file of items (gzip or not; "-" = stdin) or the folder of a
 * DynamoDB export to S3. */
ddbc_items_result ddbc_check_items(FILE *out, const ddbc_design *g, const char *const *paths,
				   size_t npaths, const ddbc_items_opts *o);

/* The same for one open stream of items named name (not closed). */
ddbc_items_result ddbc_check_items_stream(FILE *out, const ddbc_design *g, FILE *in,
					  const char *name, const ddbc_items_opts *o);

/* The same for the items stored in a table, read by a Scan in o->jobs
 * parallel segments, each a part of the run named "TABLE/segment-I-of-N"
 * (just TABLE with one). A Scan that fails is bad input: said on stderr,
 * DDBC_ITEMS_UNREADABLE. */
ddbc_items_result ddbc_check_items_table(FILE *out, const ddbc_design *g, ddbc_dynamo *c,
					 const char *table, const ddbc_items_opts *o);

/* The --format json result of a run that could not start, on out: the
 * members of a result over paths (the items files), no items, and an
 * "error" naming the design file and why it stopped the run. */
void ddbc_items_print_failure(FILE *out, const char *const *paths, size_t npaths,
			      const char *design, const char *message);

/* Merges the JSON results (--format json) of separate runs, read from
 * paths, into one result of the same form on out: counts added, findings
 * in argument order up to o->max_findings. Unreadable results are said on
 * stderr and make the result DDBC_ITEMS_UNREADABLE. */
ddbc_items_result ddbc_items_merge(FILE *out, const char *const *paths, size_t npaths,
				   const ddbc_items_opts *o);

/* ---- one item at a time (items_one.c) ------------------------------------------------ */

/* What check-items says of one item: ok, failed (an error finding, or
 * several entities it cannot be told from), unmatched, or malformed. */
typedef enum ddbc_item_verdict {
	DDBC_VERDICT_OK,
	DDBC_VERDICT_FAILED,
	DDBC_VERDICT_UNMATCHED,
	DDBC_VERDICT_MALFORMED
} ddbc_item_verdict;

/* A check-items run over one item after another, for the commands that
 * make items or read them back from an engine (sample, verify): the same
 * assignment and checks as a file's items get. */
typedef struct ddbc_item_checker ddbc_item_checker;

ddbc_item_checker *ddbc_item_checker_new(const ddbc_design *g);
void ddbc_item_checker_free(ddbc_item_checker *c);

/* Checks one item, the DynamoDB JSON text of its Item object (len bytes),
 * as an export line's item. *entity (unless NULL) gets the entity it was
 * assigned to, or NULL; why (unless NULL) the first finding's line. */
ddbc_item_verdict ddbc_item_check_one(ddbc_item_checker *c, const char *text, size_t len,
				      const ddbc_entity **entity, strbuf *why);

#endif
