/* vectors_guards.h - the type guards' vectors (vectors_guards.c) */
#ifndef DDBC_TESTS_VECTORS_GUARDS_H
#define DDBC_TESTS_VECTORS_GUARDS_H

#include "model/model.h"
#include "util/strbuf.h"

#include <jansson.h>

/* The attribute every guards.jsonl item holds and no entity defines. */
#define GUARD_PROBE "ddbcGuardProbe"

typedef struct guard_gen {
	json_t *vectors;         /* vectors.json "guards": {id, item, bytes, line} */
	strbuf jsonl;            /* guards.jsonl, for check-items */
	int lines;
	int next_id;             /* shared with the key vectors' ids */
} guard_gen;

/* Adds the guard vectors of every example item of g. */
void guard_vectors(guard_gen *G, const ddbc_design *g);

#endif
