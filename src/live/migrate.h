/* migrate.h - `ddbc migrate`: the item steps of the plan carried out
 *
 * The plan from OLD to NEW (diff.h's ddbc_diff_plan) says which stored
 * items must change and how (action and facts of each manual step); this
 * is the executor of those steps. Each stored item is matched to its OLD
 * entity by check-items (items.h's ddbc_item_check_one), the values it
 * stands for are read from its attributes and, for the parts no attribute
 * holds, split back out of its OLD key templates; the attributes NEW needs
 * are rendered from those values through NEW's templates, and the item is
 * written back: an UpdateItem, or, when a primary-key attribute changes, a
 * TransactWriteItems of a Put of the new item and a Delete of the old one.
 * Every write is conditional on the values it was computed from, so a
 * concurrent writer's change is never overwritten: the item is read again
 * (consistently) and migrated anew. An item whose attributes already are
 * what NEW gives is left alone, which makes a second run write nothing.
 */
#ifndef DDBC_LIVE_MIGRATE_H
#define DDBC_LIVE_MIGRATE_H

#include "aws/dynamo.h"
#include "model/model.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct ddbc_migrate_opts {
	long step;               /* --step N: that item step only; 0: every item step */
	const char *table;       /* --table NAME: read the items by Scan */
	char *const *items;      /* --items PATH (an export folder, a file, "-") */
	size_t nitems;
	FILE *requests;          /* -o: request lines go there; NULL: none */
	bool apply;              /* --apply: write to the endpoint */
	bool dry_run;            /* --dry-run: count only */
	bool yes;                /* --yes: write to an endpoint not on this machine */
	const char *checkpoint;  /* --checkpoint FILE */
	double max_units;        /* --max-units N: write units a second; 0: no cap */
	int jobs;                /* -j N: Scan segments run here */
	int segment, segments;   /* --segment I --segments N; segments 0: not given */
	bool progress;           /* a progress line on stderr */
	ddbc_dynamo_opts dynamo; /* --endpoint, --region, --profile, --max-attempts */
	const char *old_name, *new_name; /* how the designs are named in messages */
} ddbc_migrate_opts;

/* Carries out the item steps from old to new (both checked, without
 * errors) as o says. Returns 0 when every item was migrated or already in
 * NEW's shape, 1 when some item could not be (each said on stderr, with
 * why), 2 when the migration cannot run at all (NEW needs a new table,
 * --step names no item step, the endpoint or an input cannot be used). */
int ddbc_migrate(const ddbc_design *old, const ddbc_design *new, const ddbc_migrate_opts *o);

#endif
