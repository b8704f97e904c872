/* live_describe.h - the deployed tables, as `aws dynamodb describe-table` gives them
 *
 * For `ddbc diff --live`: each table's DescribeTable answer, with its
 * DescribeTimeToLive answer's TimeToLiveDescription beside "Table", is
 * written to DIR/TABLE.json, the files `ddbc diff --from describe-table`
 * reads (import_describe.c reads the TTL member too). So the live diff is
 * exactly the diff of described tables, with TTL compared as well.
 */
#ifndef DDBC_LIVE_DESCRIBE_H
#define DDBC_LIVE_DESCRIBE_H

#include "aws/dynamo.h"
#include "util/strbuf.h"

#include <stddef.h>

/* Describes the n tables into dir: design table tables[i], deployed as
 * deployed[i] (a stage's "prod-Orders" for "Orders"), is written under
 * its design name. *paths (the caller's, each freed and the list) gets a
 * file per table that exists; a table that does not is said on stderr as
 * not deployed (the diff then reports it added). Returns 0, or -1 with
 * err saying which table could not be read. */
int ddbc_live_describe(ddbc_dynamo *c, const char *const *tables, const char *const *deployed,
		       size_t n, const char *dir, char ***paths, size_t *npaths, strbuf *err);

#endif
