/* prices.h - DynamoDB's prices, compiled in or read from a file
 *
 * The compiled-in table is us-east-1's, as AWS lists it on
 * https://aws.amazon.com/dynamodb/pricing/ since the on-demand price cut of
 * 1 November 2024. Standard-IA costs 1.25 times Standard per request and
 * per capacity unit, and 0.4 times per GB stored. `ddbc cost --prices
 * FILE` replaces the table with a JSON file of the same shape:
 *
 *   {"date": "2024-11-01", "source": "https://...",
 *    "regions": {"us-east-1": {
 *      "standard":    {"write_request_million": 0.625, "read_request_million": 0.125,
 *                      "wcu_hour": 0.00065, "rcu_hour": 0.00013, "storage_gb_month": 0.25},
 *      "standard_ia": {...the same five figures...}}}}
 */
#ifndef DDBC_PRICES_H
#define DDBC_PRICES_H

#include "model/model.h"
#include "util/strbuf.h"

#include <stdbool.h>

/* The prices of one table class in one region, in US dollars. */
typedef struct ddbc_class_prices {
	double write_request_million;  /* on-demand: a million write request units */
	double read_request_million;   /* on-demand: a million read request units */
	double wcu_hour;               /* provisioned: one write capacity unit for an hour */
	double rcu_hour;               /* provisioned: one read capacity unit for an hour */
	double storage_gb_month;       /* one GB (2^30 bytes) for a month */
} ddbc_class_prices;

typedef struct ddbc_prices {
	char *region, *date, *source, *file;  /* file: NULL when compiled in */
	ddbc_class_prices cls[2];      /* per ddbc_table_class */
} ddbc_prices;

/* Fills out with the prices of region from file (NULL: the compiled-in
 * table). false, with the reason in err (naming the file and the field),
 * when the file cannot be read or has no such region or a figure that is
 * not a number of at least 0. */
bool ddbc_prices_load(const char *file, const char *region, ddbc_prices *out, strbuf *err);
/* The regions the compiled-in table holds, comma-separated. */
const char *ddbc_prices_builtin_regions(void);
void ddbc_prices_release(ddbc_prices *p);

#endif
