/* rules/check_capacity.h - hot-partition's rates part (rules/capacity.c),
 * run by hot-partition's check (rules/keys.c) */
#ifndef DDBC_CHECK_CAPACITY_H
#define DDBC_CHECK_CAPACITY_H

#include "model/model.h"

/* How many values partition key attribute a can take when few (1 for a
 * constant template), with why; 0 when many. */
typedef size_t ddbc_hot_values_fn(const ddbc_attr *a, const char **why);

/* With rates: a partition key whose few values put more than a
 * partition's 3,000 read or 1,000 write units a second on each, on the
 * table or a GSI; one finding per index and entity. */
void ddbc_hot_partition_rates(const ddbc_design *g, ddbc_diags *d, ddbc_hot_values_fn *values);

#endif
