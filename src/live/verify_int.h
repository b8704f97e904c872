/* verify_int.h - what the phases of verify share (verify.h)
 *
 * verify.c runs them: verify_items.c gets the items and their keys,
 * verify_tables.c creates the tables and writes the items, verify_pattern.c
 * sends each pattern's requests and compares, verify_report.c prints.
 */
#ifndef DDBC_LIVE_VERIFY_INT_H
#define DDBC_LIVE_VERIFY_INT_H

#include "aws/dynamo.h"
#include "items/items.h"
#include "live/sample.h"
#include "live/verify.h"
#include "util/arena.h"
#include "util/strbuf.h"

#include <jansson.h>

/* One item written. */
typedef struct vitem {
	const ddbc_entity *entity;   /* NULL: an item of no entity (--items) */
	const ddbc_table *table;
	json_t *item;                /* DynamoDB JSON */
	json_t *values;              /* parameter values: attribute -> text */
	char *key;                   /* ddbc_verify_item_key's */
	const ddbc_pval *pval;       /* the item as the cost model reads it, or NULL */
} vitem;

typedef struct verify_run {
	const ddbc_design *g;
	const char *file;
	const ddbc_verify_opts *o;
	const char *source;          /* where the items come from, in messages */
	ddbc_dynamo *client;
	ddbc_item_checker *checker;
	ddbc_arena *arena;
	vitem *items;
	size_t n;
	json_t *by_key;              /* "TABLE\x1fKEY" -> position in items */
	ddbc_sample fresh;           /* items not written, for the puts */
	json_t *report;              /* per pattern, in the design's order */
	json_t *puts;                /* [{"table", "item"}] the puts wrote */
	bool transport_failed;       /* a request got no answer: exit 2 */
	strbuf error;
} verify_run;

/* ---- verify_items.c -------------------------------------------------------------- */

/* The items to write: --items FILE's (each assigned an entity by
 * check-items, else its table found by its key attributes) or sample
 * items; 0, or -1 with V->error set. */
int ddbc_verify_items_load(verify_run *V);
void ddbc_verify_items_release(verify_run *V);
/* The table key of item in t: its key attributes' typed values as compact
 * JSON, in key order; NULL when it lacks one (free it). */
char *ddbc_verify_item_key(const ddbc_table *t, const json_t *item);
/* The written item of t with key, or NULL. */
const vitem *ddbc_verify_item_find(const verify_run *V, const ddbc_table *t, const char *key);
/* item (DynamoDB JSON) as a packed YAML value in arena, as the cost model
 * reads example items. */
const ddbc_pval *ddbc_verify_item_pval(ddbc_arena *arena, const json_t *item);
/* The text of a scalar typed value ({"S": "x"}, {"N": "1"}, {"B": ...}). */
const char *ddbc_verify_scalar_text(const json_t *typed);

/* ---- verify_tables.c ------------------------------------------------------------- */

/* Creates every table of the design and waits until they are ACTIVE. */
int ddbc_verify_create_tables(verify_run *V);
/* Writes the items with BatchWriteItem, retrying UnprocessedItems. */
int ddbc_verify_write_items(verify_run *V);
/* Deletes what verify wrote, the items and what the puts wrote, so that
 * the tables are as they were (a run after it finds them so). */
int ddbc_verify_delete_items(verify_run *V);
/* "TYPE: message" of a failed call into V->error. */
void ddbc_verify_call_error(verify_run *V, const char *what, const ddbc_dynamo_error *e);

/* ---- verify_pattern.c ------------------------------------------------------------ */

/* Sends p's requests and appends its entry to V->report. Writes go last:
 * with_writes false sends only reads (and skips writes), true only writes. */
void ddbc_verify_pattern(verify_run *V, const ddbc_pattern *p, bool writes);

/* ---- verify_report.c ------------------------------------------------------------- */

/* The report in o->format; 0, or -1 on a write error. */
int ddbc_verify_print(FILE *out, const verify_run *V);
/* Why the run stopped (V->error), in JSON or SARIF; nothing for text. */
int ddbc_verify_print_failure(FILE *out, const verify_run *V);

#endif
