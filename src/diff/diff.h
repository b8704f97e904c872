/* diff.h - what a change of a design does to deployed tables and stored items
 *
 * `ddbc diff` compares two checked designs, OLD and NEW, matching tables,
 * indexes, entities, attributes and access patterns by name. Each change
 * becomes a finding of a change-class rule (rules.def's kind DIFF),
 * positioned in NEW, or in OLD for what NEW no longer has; the plan is
 * the ordered steps that take OLD's tables to NEW's.
 */
#ifndef DDBC_DIFF_H
#define DDBC_DIFF_H

#include "emit/emit.h"
#include "model/model.h"

#include <stdio.h>

/* Adds a finding to d for every change from old to new (both loaded and
 * derived; old may have errors, whose unresolved parts are skipped). Each
 * finding names the source of the design it points into. acks, when not
 * NULL, holds NEW's findings as its check left them (ddbc_check): their
 * source's `# ddbc-ignore: RULE -- reason` comments acknowledge the
 * changes of RULE on their line of NEW (a removal, at the line of NEW that
 * lost it), which are then marked suppressed with the reason. The caller
 * resolves severities (ddbc_diags_finish) and may then sort with
 * ddbc_diff_sort. Descriptions and formats are compared only when
 * all is set. */
void ddbc_diff(const ddbc_design *old, const ddbc_design *new, const ddbc_diags *acks,
	       ddbc_diags *d, bool all);

/* The same, for an OLD that is no file of the working tree (git show
 * REV:FILE): findings about what NEW no longer has point into NEW, at the
 * part that lost it, so that annotations land on a file of the checkout. */
void ddbc_diff_in_tree(const ddbc_design *old, const ddbc_design *new, const ddbc_diags *acks,
		       ddbc_diags *d, bool all);

/* Sorts the resolved findings of d by file name, then position, as lint
 * prints them. */
void ddbc_diff_sort(ddbc_diags *d);

/* diff_plan.c: writes the deployment steps from old to new as a JSON
 * array: API steps {"operation", "input"} in an order DynamoDB accepts,
 * and {"manual": TEXT, ...} steps for what no API call does. Returns
 * DDBC_EMIT_OK or DDBC_EMIT_FAILED (a write error, said in err for the
 * command to print; NULL: not kept). */
ddbc_emit_result ddbc_diff_plan(FILE *out, const ddbc_design *old, const ddbc_design *new,
				ddbc_err *err);

/* The same plan, each item step (the stored items rewritten from what they
 * hold: keys, index keys, types, templated backfills, the TTL copy, the
 * delimiter) naming the command that carries it out: migrate (`ddbc
 * migrate OLD NEW`, NULL: none) and ` --step N`, N being its number. */
ddbc_emit_result ddbc_diff_plan_for(FILE *out, const ddbc_design *old, const ddbc_design *new,
				    const char *migrate, ddbc_err *err);

#endif
