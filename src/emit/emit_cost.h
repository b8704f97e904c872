/* emit_cost.h - `ddbc cost`: the capacity and monthly cost of a design
 *
 * ddbc_cost_compute works every figure out once (emit_cost.c); the JSON
 * (SPEC 7.4's shape), text and Markdown reports (emit_cost_text.c) and
 * the documentation (doc_capacity.c) print the same figures. A figure the
 * design cannot give is DDBC_UNKNOWN: null in JSON, "unknown" in text.
 */
#ifndef DDBC_EMIT_COST_H
#define DDBC_EMIT_COST_H

#include "input/prices.h"
#include "emit/doc_views.h"
#include "emit/emit.h"
#include "model/capacity.h"
#include "util/strbuf.h"

#include <stdio.h>

#define DDBC_MONTH_SECONDS 2592000.0
#define DDBC_MONTH_HOURS 720.0
#define DDBC_GB 1073741824.0

typedef enum ddbc_cost_format {
	DDBC_COST_TEXT,
	DDBC_COST_JSON,
	DDBC_COST_MD
} ddbc_cost_format;

typedef struct ddbc_cost_entity {
	const ddbc_entity *e;    /* NULL: an entity without a table */
	ddbc_entity_cap c;
} ddbc_cost_entity;

typedef struct ddbc_cost_pattern {
	const ddbc_pattern *p;   /* NULL: a pattern that was not analysed */
	ddbc_pattern_cap c;
	bool priced;             /* it has a rate and every unit is known */
	double on_demand, provisioned;  /* dollars a month, when priced */
} ddbc_cost_pattern;

/* Dollars a month of one billing mode. */
typedef struct ddbc_cost_mode {
	double read, write, storage;
	bool any;                /* some pattern has a price: reads and writes are known */
	bool storage_known;
} ddbc_cost_mode;

/* One replica Region of a global table other than its own (the first of
 * `replicas:`): every write is replicated there, to the table and its
 * GSIs, and it stores a whole copy; the design's reads are its own
 * Region's. Dollars a month at that Region's prices; priced false (the
 * figures DDBC_UNKNOWN) when the price table has no such Region. */
typedef struct ddbc_cost_replica {
	const char *region;
	bool priced;
	ddbc_cost_mode on_demand, provisioned;  /* read 0: writes and storage only */
} ddbc_cost_replica;

typedef struct ddbc_cost_table {
	const ddbc_table *t;
	double storage;          /* bytes; DDBC_UNKNOWN without every count */
	double *rcu, *wcu;       /* per slot: provisioned whole units (not LSIs) */
	ddbc_cost_mode on_demand, provisioned;  /* its own Region's, replicas added */
	double write_units;      /* write request units a month, every index */
	ddbc_cost_replica *replicas;
	size_t nreplicas;
} ddbc_cost_table;

typedef struct ddbc_cost {
	ddbc_arena *arena;
	const ddbc_design *g;
	const ddbc_prices *prices;
	ddbc_cost_entity *entities;   /* per entity of the design */
	ddbc_cost_pattern *patterns;  /* per pattern of the design */
	ddbc_cost_table *tables;      /* per table of the design */
	ddbc_cost_mode on_demand, provisioned;  /* the design's */
} ddbc_cost;

/* Every figure of g at prices pr, over views (the example items as the
 * documentation lays them out). pr must outlive the result. */
ddbc_cost *ddbc_cost_compute(const ddbc_design *g, const ddbc_prices *pr, ddbc_views *views);
void ddbc_cost_free(ddbc_cost *c);

/* A mode's total: reads, writes and storage, unknown when a part is. */
double ddbc_cost_total(const ddbc_cost_mode *m);

/* The text of the assumptions the figures rest on, in the report's order:
 * its key in JSON and its sentence. */
typedef struct ddbc_cost_assumption {
	const char *key, *text;
} ddbc_cost_assumption;
extern const ddbc_cost_assumption ddbc_cost_assumptions[];
extern const size_t ddbc_cost_nassumptions;

/* A size for a reader: "740 bytes" (word: the word for bytes, "bytes"
 * in English), "3.2 KiB", "8.7 GiB" (binary units, one decimal). The JSON
 * report keeps bytes. */
void ddbc_cost_size_text(char *buf, size_t size, double bytes, const char *word);

/* Writes the report of c in format fmt; DDBC_EMIT_FAILED with why in err
 * (NULL: not kept) for the command to print. */
ddbc_emit_result ddbc_emit_cost_json(FILE *out, const ddbc_cost *c, ddbc_err *err);
ddbc_emit_result ddbc_emit_cost_text(FILE *out, const ddbc_cost *c, bool markdown);

/* Computes and writes g's report in format fmt, as above. */
ddbc_emit_result ddbc_emit_cost(FILE *out, const ddbc_design *g, const ddbc_prices *pr,
				ddbc_cost_format fmt, ddbc_err *err);

/* How cost knows the share of e's items that index slot s holds when it
 * is sparse (ddbc_entity_membership): "present: 0.05 on escQueue", "the
 * share of its examples that have escQueue", ...; appended to out. */
void ddbc_cost_share_words(const ddbc_entity *e, size_t s, strbuf *out);

#endif
