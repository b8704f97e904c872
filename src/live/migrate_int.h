/* migrate_int.h - what the files of migrate share (live/ only)
 *
 * migrate_plan.c turns the plan's item steps into work per OLD entity
 * (which attributes of its items to compute, and how); migrate_item.c
 * computes one item's writes from that work; migrate_run.c reads the
 * items, writes or applies, and keeps the counts and the checkpoint.
 */
#ifndef DDBC_LIVE_MIGRATE_INT_H
#define DDBC_LIVE_MIGRATE_INT_H

#include "items/items.h"
#include "items/items_match.h"
#include "live/migrate.h"
#include "util/strbuf.h"

#include <jansson.h>

/* How one attribute of an item gets its NEW value. */
typedef enum mig_how {
	MIG_RENDER,              /* NEW's template, rendered from the item's values */
	MIG_CONVERT,             /* the stored value, as NEW's type */
	MIG_BACKFILL,            /* when missing: the template's value, else value */
	MIG_COPY,                /* when missing: the value of attribute from */
	MIG_REMOVE               /* not at all */
} mig_how;

typedef struct mig_target {
	const char *attr;        /* the attribute written */
	mig_how how;
	const ddbc_attr *a1;     /* NEW's attribute (its template, its type), or NULL */
	const char *from;        /* MIG_COPY: the attribute copied */
	json_t *value;           /* MIG_BACKFILL without a template: a DynamoDB JSON value */
	long step;               /* the plan's step that asks for it */
} mig_target;

/* The work on the items of one OLD entity. */
typedef struct mig_entity {
	const ddbc_entity *e0, *e1;
	mig_target *t;
	size_t n, cap;
	bool key_change;         /* some target is a primary-key attribute */
} mig_entity;

typedef struct mig_work {
	const ddbc_design *old, *new;
	mig_entity *ents;        /* per old->entities */
	json_t *plan;            /* the plan, as ddbc_diff_plan writes it */
	bool whole;              /* every item step: the result must pass NEW's check */
	size_t ntargets;
} mig_work;

/* Builds the work of the plan's item steps (o->step: that one only).
 * Returns 0, or 2 with why on stderr (a table to replace, a step that is
 * no item rewrite ddbc can do, --step naming no item step). */
int ddbc_migrate_work_build(mig_work *w, const ddbc_design *old, const ddbc_design *new, long step);
void ddbc_migrate_work_release(mig_work *w);

/* What becomes of one item. */
typedef enum mig_verdict {
	MIG_SKIP,                /* already in NEW's shape, or no step touches it */
	MIG_WRITE,               /* *op and *input are the write */
	MIG_FAIL                 /* why says why */
} mig_verdict;

/* Per-thread state: check-items runs over OLD and NEW. */
typedef struct mig_scratch {
	ddbc_item_checker *old_check, *new_check;
	strbuf why;
} mig_scratch;

void ddbc_migrate_scratch_init(mig_scratch *s, const mig_work *w);
void ddbc_migrate_scratch_release(mig_scratch *s);

/* The write that takes item (DynamoDB JSON, as stored in table) to NEW:
 * *op "UpdateItem" or "TransactWriteItems", *input its request (the
 * caller's), *units the write units it costs at most. */
mig_verdict ddbc_migrate_item(const mig_work *w, mig_scratch *s, const char *table, json_t *item,
		     const char **op, json_t **input, double *units, strbuf *why);

/* The primary key of item in the table of entity e (a new object). */
json_t *ddbc_migrate_item_key(const ddbc_entity *e, const json_t *item);

/* An item named for a message: its key attributes, "{PK=A, SK=B}". */
void ddbc_migrate_item_name(strbuf *out, const ddbc_table *t, const json_t *item);

#endif
