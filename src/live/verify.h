/* verify.h - the design's promises checked on a running engine
 *
 * `ddbc verify` writes items to the design's tables (sample.h's, or the
 * caller's), sends every access pattern's request as the queries export
 * builds it (emit.h's ddbc_emit_query_input_with), its parameters taken
 * from the items written (several values a pattern), and compares what
 * came back with what the design says:
 *   a query or scan  returns exactly the items written whose keys satisfy
 *                    its key conditions and that are in its index (an
 *                    index holds the items that have its key attributes),
 *                    each of an entity the pattern names, with the
 *                    attributes it returns (or its index projects)
 *   a get            its item, or none when none was written with the key
 *   a conditional put or delete  succeeds once and fails the second time
 *                    with ConditionalCheckFailedException
 *   --capacity       each request's ConsumedCapacity equals the units
 *                    `ddbc cost` counts for the same items
 *                    (model/capacity.h over the items returned or written)
 * An update is not sent: a design does not say what it changes.
 * In place (in_place), the tables already hold the items (read by Scan,
 * or items_file says what they hold): nothing is written or deleted, only
 * the reads are sent, and each read must also return the item its values
 * came from when every parameter is one of that item's values, the proof
 * that the stored items are in the design's shape (a table between two
 * steps of a migration, live/migrate.h, is checked so).
 * Every pattern gets a report entry: ok, differs (with what was sent and
 * what came back), or skipped (why).
 */
#ifndef DDBC_LIVE_VERIFY_H
#define DDBC_LIVE_VERIFY_H

#include "aws/dynamo.h"
#include "model/model.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum ddbc_verify_format {
	DDBC_VERIFY_TEXT,
	DDBC_VERIFY_JSON,
	DDBC_VERIFY_SARIF
} ddbc_verify_format;

typedef struct ddbc_verify_opts {
	bool create;             /* create the tables first */
	bool capacity;           /* compare ConsumedCapacity with the cost model */
	bool yes;                /* write to an endpoint not on this machine */
	const char *items_file;  /* DynamoDB JSON items to write; NULL: sample items */
	unsigned long count;     /* sample items */
	uint64_t seed;
	ddbc_verify_format format;
	bool progress;           /* a progress line on stderr (a terminal's) */
	bool in_place;           /* the tables hold the items: send only reads */
	const char *const *patterns; /* only these access patterns (ids); NULL: all */
	size_t npatterns;
} ddbc_verify_opts;

typedef enum ddbc_verify_result {
	DDBC_VERIFY_OK,          /* every pattern did as the design says */
	DDBC_VERIFY_DIFFERS,     /* some pattern did not (exit status 1) */
	DDBC_VERIFY_FAILED       /* it could not run: said on stderr, nothing on out */
} ddbc_verify_result;

/* Verifies design g (read from file) on the engine of client c, writing
 * the report to out. It refuses, before anything is sent, an engine that
 * is not on this machine unless o->yes. */
ddbc_verify_result ddbc_verify(FILE *out, ddbc_dynamo *c, const ddbc_design *g, const char *file,
			       const ddbc_verify_opts *o);

#endif
