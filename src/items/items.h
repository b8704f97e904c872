/* items.h - check-items: real items against a checked design
 *
 * Text output, one line per finding and the summary:
 *   FILE:LINE:COL: error: item 3 (UserStamp): 'stampId' is N, expected S
 *   3 items: 1 ok, 1 failed, 1 unmatched
 * LINE:COL is where the attribute's name is in the input (else where the
 * item starts); items are counted from 1 in input order.
 *
 * JSON output (--format json), one object, findings streamed one a line:
 *   {"file": F, "findings": [
 *     {"item": 3, "line": 12, "column": 5, "entity": "UserStamp"|null,
 *      "severity": "error"|"note", "kind": K, "attribute": A|null,
 *      "message": M}, ...],
 *    "input": {"shape": "array"|"lines"|"scan"|"export"|null,
 *              "json": "plain"|"dynamodb"|null},
 *    "summary": {"items": N, "ok": N, "failed": N, "unmatched": N},
 *    "error": {"line": L, "column": C, "message": M}}   (bad input only)
 * The kinds K are listed in items_run.h.
 *
 * Bad input (not JSON, truncated, the wrong shape, invalid DynamoDB JSON,
 * an item over the size cap) stops the check: FILE:LINE:COL: error: MESSAGE
 * on stderr; the findings before it stay written.
 */
#ifndef DDBC_ITEMS_H
#define DDBC_ITEMS_H

#include "model/model.h"

#include <stdio.h>

typedef enum ddbc_items_format {
	DDBC_ITEMS_TEXT,
	DDBC_ITEMS_JSON
} ddbc_items_format;

/* What checking the items came to. */
typedef enum ddbc_items_result {
	DDBC_ITEMS_ALL_OK,       /* every item is ok (or there is none) */
	DDBC_ITEMS_SOME_FAILED,  /* an item failed or matched no entity */
	DDBC_ITEMS_UNREADABLE    /* the items could not be read; said on stderr */
} ddbc_items_result;

/* Validates the items read from in (named name, "-" = stdin) against the
 * design, streamed, writing per-item findings and the summary to out. The
 * caller owns (and closes) in and out. */
ddbc_items_result ddbc_check_items(FILE *out, const ddbc_design *g, FILE *in, const char *name,
				   ddbc_items_format format);

#endif
