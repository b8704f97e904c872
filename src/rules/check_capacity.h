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

/* The units a second the rated access patterns put on one index: the
 * sums, and the pattern adding the most to each (NULL: none). */
typedef struct ddbc_index_load {
	double read, write;
	bool read_least;             /* some read's units are a lower bound */
	const ddbc_pattern *top_read, *top_write;
	double top_read_units, top_write_units;
} ddbc_index_load;

/* Per table of g (its position), per slot of its indexes, in arena: the
 * load of the rated patterns, as hot-partition counts it (an LSI's on
 * its table's slot 0, a write's on every index that holds the item).
 * NULL when no pattern has a rate, and a table's NULL when none of its
 * patterns has. */
ddbc_index_load **ddbc_index_loads(const ddbc_design *g, ddbc_arena *arena);

#endif
