/* diff_int.h - what the files of diff/ share (diff/ only)
 *
 * The comparisons the findings and the plan both need, so that the plan
 * takes exactly the steps the findings announce.
 */
#ifndef DDBC_DIFF_INT_H
#define DDBC_DIFF_INT_H

#include "model/model.h"

#include <jansson.h>

#include <stdbool.h>

typedef struct diff_ctx {
	const ddbc_design *old, *new;
	ddbc_diags *d;
	bool all;
	bool removed_in_new;     /* OLD is no file of the working tree (--against) */
	/* NEW's suppressions (the findings of its check), or NULL: a
	 * `# ddbc-ignore: RULE -- reason` on the line of NEW a change points
	 * at acknowledges it. */
	const ddbc_diags *acks;
} diff_ctx;

/* Adds a finding of rule at loc in old's source (in_old) or new's; one in
 * new's is suppressed when NEW acknowledges rule on loc's line. */
void ddbc_diff_report(diff_ctx *c, bool in_old, ddbc_rule rule, ddbc_loc loc, const char *fmt,
		      ...) __attribute__((format(printf, 5, 6)));

/* A finding about what NEW no longer has: at old_loc in OLD, or, when OLD
 * is no file of the working tree, at new_loc in NEW (the part of NEW that
 * lost it), saying where OLD had it. Either way NEW acknowledges it at
 * new_loc's line: OLD's lines are history, not to be edited. */
void ddbc_diff_removed(diff_ctx *c, ddbc_rule rule, ddbc_loc old_loc, ddbc_loc new_loc,
		       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Where field of the mapping whose key is at owner starts in g's text
 * (an entity's `attributes:`, a table's `gsi:`), else owner. */
ddbc_loc ddbc_diff_field_loc(const ddbc_design *g, ddbc_loc owner, const char *field);

/* Where a top-level section (tables, entities, access_patterns) of g
 * starts: its key, else the file's start. */
ddbc_loc ddbc_diff_section_loc(const ddbc_design *g, const char *section);

/* Where NEW has room for the key `field` that OLD wrote at old_at (its
 * line) and NEW lost: a removed scalar field (a table's ttl, the design's
 * key_delimiter) has no part of its own in NEW to point at, so this is the
 * line that now takes its place: the first sibling key after it in OLD's
 * block that NEW's block still has, else the nearest one before it, else
 * new_owner. new_owner is the key of NEW's mapping that lost it (a table's
 * name), or line 0 for the root. */
ddbc_loc ddbc_diff_gap_loc(const diff_ctx *c, ddbc_loc old_at, const char *field,
			   ddbc_loc new_owner);

/* Where a removal inside field (a table's gsi:, lsi:; with owners of line
 * 0 a top-level section) is shown in NEW: NEW's field, or when NEW lost
 * the whole field, the line in its place (ddbc_diff_gap_loc), else NEW's
 * owner (the design's name for the root). */
ddbc_loc ddbc_diff_lost_loc(const diff_ctx *c, ddbc_loc old_owner, ddbc_loc new_owner,
			    const char *field);

/* diff_entities.c: entities, their attributes, and the access patterns. */
void ddbc_diff_entities(diff_ctx *c);
void ddbc_diff_patterns(diff_ctx *c);

/* Why removing attribute a0 of old breaks something (t1: its entity's
 * table in NEW), or NULL when nothing used it. */
const char *ddbc_diff_removed_use(const ddbc_design *old, const ddbc_attr *a0,
				  const ddbc_table *t1);

/* What a template change of an attribute (a0 in OLD, a1 in NEW) leaves to
 * rewrite in stored items. */
typedef enum ddbc_diff_rewrite {
	DIFF_REWRITE_NONE,       /* nothing: not a key, or the same template */
	DIFF_REWRITE_TABLE_KEY,  /* the items' primary keys: a migration */
	DIFF_REWRITE_INDEX_KEY   /* an index key value: an update of each item */
} ddbc_diff_rewrite;
ddbc_diff_rewrite ddbc_diff_attr_rewrite(const ddbc_attr *a0, const ddbc_attr *a1);

/* The name of the table an entity lives in (as written when unresolved). */
const char *ddbc_diff_entity_table(const ddbc_entity *e);

/* The enum values of a0 (OLD) that a1 (NEW) no longer allows, as a JSON
 * array of plain values (NULL when a1 has no enum, or allows them all);
 * *unlimited is set when a0 had no enum at all, so any stored value may
 * now be outside. The caller releases the array. */
json_t *ddbc_diff_enum_removed(const ddbc_attr *a0, const ddbc_attr *a1, bool *unlimited);

/* An access pattern of OLD on GSI g0 that returns an attribute the GSI of
 * NEW, g1, no longer projects: the first such pattern from *from on (a
 * position in old->patterns, advanced past it), with the attribute in
 * *attr; NULL when there is none. */
const ddbc_pattern *ddbc_diff_narrowed_pattern(const ddbc_design *old, const ddbc_index *g0,
					       const ddbc_index *g1, size_t *from,
					       const ddbc_name **attr);

/* diff_index.c: the facts of a table as DynamoDB holds them. */

/* Whether items read through index ix hold attribute name: all of them,
 * its keys and the table's, or those INCLUDE names. */
bool ddbc_diff_projects(const ddbc_index *ix, const char *name);

/* Same key attributes, in the same order, with the same types. */
bool ddbc_diff_keys_same(const ddbc_index *a, const ddbc_index *b);
/* Same projection as CreateTable states it (key attributes left out of
 * INCLUDE, an empty INCLUDE being KEYS_ONLY). */
bool ddbc_diff_projection_same(const ddbc_index *a, const ddbc_index *b);
/* Same key and projection: the index DynamoDB holds is the same. */
bool ddbc_diff_index_same(const ddbc_index *a, const ddbc_index *b);
/* Whether some LSI was added, removed or changed. */
bool ddbc_diff_lsis_differ(const ddbc_table *a, const ddbc_table *b);
/* Whether going from a to b needs a new table: its key schema or its
 * LSIs changed. */
bool ddbc_diff_table_replaced(const ddbc_table *a, const ddbc_table *b);
/* Whether going from a to b changes multi-Region strong consistency:
 * an MRSC table made from one that is not (DynamoDB makes one only from
 * an empty table), or an MRSC table made eventually consistent; the mode
 * of a global table never changes (SPEC 8.7). So does a change of an MRSC
 * table's Regions or witness: DynamoDB sets them only as it makes the
 * table MRSC ("The witness must be added when creating the MRSC global
 * table", GlobalTableWitnessGroupUpdate). */
bool ddbc_diff_consistency_changed(const ddbc_table *a, const ddbc_table *b);
/* Whether going from a to b turns MRSC table a into a single-Region table
 * in a's own Region: b names at most that Region and no witness. DynamoDB
 * allows it as one UpdateTable deleting the other replicas and the
 * witness together ("The deletion of both a witness and replica converts
 * the remaining replica to a single-Region DynamoDB table",
 * DeleteGlobalTableWitnessGroupMemberAction), so it is no consistency
 * change. */
bool ddbc_diff_mrsc_dissolved(const ddbc_table *a, const ddbc_table *b);
/* The GSI of t named like ix, or NULL. */
const ddbc_index *ddbc_diff_gsi(const ddbc_table *t, const char *name);
/* The key delimiter in force. */
const char *ddbc_diff_delimiter(const ddbc_design *g);
/* Same string, NULL being equal only to NULL. */
bool ddbc_diff_str_same(const char *a, const char *b);

/* diff_settings.c: the changes of a table's settings (SPEC 8.7), the one
 * comparison that both the findings (diff.c) and the plan's steps
 * (diff_plan.c) read, so that every step the plan takes is a finding too. */
typedef enum diff_setting_kind {
	DIFF_SET_TABLE_CLASS,
	DIFF_SET_DELETION_PROTECTION,
	DIFF_SET_STREAM,
	DIFF_SET_SSE,
	DIFF_SET_ON_DEMAND_MAX,  /* the table's, or GSI g1's */
	DIFF_SET_WARM,           /* the table's, or GSI g1's */
	DIFF_SET_REPLICA,        /* region added (on) or removed */
	DIFF_SET_WITNESS,        /* region the witness added (on) or removed */
	DIFF_SET_PITR,
	DIFF_SET_INSIGHTS,       /* the table's, or GSI g1's */
	DIFF_SET_TAGS,
	DIFF_SET_POLICY
} diff_setting_kind;

typedef struct diff_setting {
	diff_setting_kind kind;
	const ddbc_index *g0, *g1;  /* the GSI whose own setting it is; NULL: the table's */
	const char *region;         /* DIFF_SET_REPLICA, DIFF_SET_WITNESS */
	bool on;                    /* enabled, added; DIFF_SET_WARM: some figure raised */
	bool lowered;               /* DIFF_SET_WARM: some figure below OLD's */
	const char *field;          /* the design's key ("pitr", "warm_throughput") */
	ddbc_loc old_loc, new_loc;  /* where OLD and NEW write it (line 0: they do not) */
} diff_setting;

typedef struct diff_settings {
	diff_setting *v;
	size_t n, cap;
} diff_settings;

/* Appends to out each change of the settings from t0 to t1 kept in
 * place, in the order the plan takes them (the table's UpdateTable
 * fields, then each kept GSI's, the replicas removed then added, the
 * witness, PITR, Contributor Insights, tags, the policy). t0 NULL: t1 is
 * created, and only what CreateTable cannot hold is a change (replicas
 * past the first Region, the witness, PITR, Contributor Insights, a
 * GSI's too). A GSI's Contributor Insights is a change of a GSI NEW
 * creates as well: no CreateTable or GSI Create takes it. */
void ddbc_diff_settings(const ddbc_table *t0, const ddbc_table *t1, diff_settings *out);
void ddbc_diff_settings_release(diff_settings *s);

/* The figures of t1 above t0's, as WarmThroughput; NULL when none is
 * (DynamoDB only raises warm throughput). */
json_t *ddbc_diff_warm_raise(const ddbc_throughput *t0, const ddbc_throughput *t1);
/* The point-in-time recovery period in force: 35 days when not written. */
int ddbc_diff_recovery_days(const ddbc_table_settings *s);

#endif
