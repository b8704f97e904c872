/* diff_graph.h - the deployment plan as a graph of steps (diff/ only)
 *
 * A step is an API call or a manual step; it names the steps that must be
 * done before it (needs) and says what it makes true (makes). The plan is
 * written in a topological order of that graph, ties broken by the order
 * in which the steps were added (an early step first: the deployments
 * that stop code using what goes come before the rest), so the same
 * designs always give the same plan, and each step's needs are done
 * before it whatever the kind.
 */
#ifndef DDBC_DIFF_GRAPH_H
#define DDBC_DIFF_GRAPH_H

#include "emit/emit.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* No step (a fact that needs no step, or a step not planned). */
#define PLAN_NONE SIZE_MAX

typedef struct plan_step {
	json_t *body;            /* {"operation", "input"} or {"manual", facts...} */
	char *makes;
	size_t *needs;           /* steps, by the number ddbc_diff_plan_add gave them */
	size_t nneeds, cap;
	bool migrate;            /* an item step `ddbc migrate --step N` carries out */
	bool early;              /* taken before the other steps ready with it */
	size_t refers;           /* the step "@STEP@" in its manual text names, or PLAN_NONE */
} plan_step;

typedef struct plan_graph {
	plan_step *v;
	size_t n, cap;
} plan_graph;

/* Adds a step whose body it takes; returns its number. */
size_t ddbc_diff_plan_add(plan_graph *g, json_t *body, const char *makes_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Step needs before done first (either PLAN_NONE: nothing). */
void ddbc_diff_plan_need(plan_graph *g, size_t step, size_t before);

/* Writes the steps as a JSON array in a topological order, each
 * {"step": N, "needs": [N...], "makes": TEXT, ...body} numbered from 1
 * in the order written, and releases the graph. A manual step's "@STEP@"
 * becomes the number of the step it refers to; an item step that migrate
 * (`ddbc migrate OLD NEW`, or NULL) carries out gets "command": "MIGRATE
 * --step N" and its text ends saying so. A write error is said in err. */
ddbc_emit_result ddbc_diff_plan_write(plan_graph *g, FILE *out, const char *migrate,
				      ddbc_err *err);

#endif

/* ---- the plan being built (diff_plan.c, diff_plan_items.c) ------------------------- */

#include "model/model.h"

/* What the plan does to one table of NEW. */
typedef struct plan_table {
	const ddbc_table *t0, *t1;   /* t0 NULL: a new table */
	size_t made;             /* its CreateTable, or the step that replaces it */
	size_t *gsi_deleted;     /* per t0->gsi: the step deleting it, or PLAN_NONE */
	size_t *gsi_created;     /* per t1->gsi: the step creating it, or PLAN_NONE */
	size_t last_update;      /* the last UpdateTable on it: the next waits for it */
	size_t ttl_backfill;     /* the copy of a renamed TTL attribute, or PLAN_NONE */
} plan_table;

typedef struct plan {
	plan_graph g;
	const ddbc_design *old, *new;
	plan_table *tables;      /* per new->tables */
	size_t *dropped;         /* per old->tables: its delete-by-hand step, or PLAN_NONE */
	size_t *pattern_stop;    /* per old->patterns: the step that stopped its callers
				  * with what it reads (ddbc_diff_plan_stop_reading), or PLAN_NONE */
} plan;

/* The plan's entry for NEW's table named name, or NULL. */
plan_table *ddbc_diff_plan_table_named(plan *p, const char *name);

/* Adds {"manual": TEXT, "action": action, then facts' members} (taking
 * facts), making what makes says; returns the step. */
size_t ddbc_diff_plan_manual(plan *p, const char *action, json_t *facts, const char *makes,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Item work on attribute name of table pt's items: it needs every GSI keyed
 * by name deleted first (a value of the new type or template could not be
 * written while the old index holds it) and stands before every GSI keyed
 * by name that is created (created earlier, the index would skip or
 * mis-sort the items not yet rewritten). */
void ddbc_diff_plan_around_indexes(plan *p, const plan_table *pt, size_t step, const char *name);

/* diff_plan_items.c: the manual steps on stored items. */
void ddbc_diff_plan_item_steps(plan *p);

/* diff_plan_code.c: the deployments of the application's code around the
 * tables' changes (after the tables' and the items' steps). */
void ddbc_diff_plan_code_steps(plan *p);

/* A step that deploys the code that no longer reads e0's items (a0 NULL)
 * or a0 of them, naming the patterns of OLD that do; the caller makes the
 * step that removes them need it. */
size_t ddbc_diff_plan_stop_reading(plan *p, const ddbc_entity *e0, const ddbc_attr *a0);
