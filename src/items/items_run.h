/* items_run.h - the state of one check-items run, shared by its phases
 *
 * A run goes item by item: items.c reads and types an item, items_assign.c
 * finds the entity it belongs to, items_check.c checks it against that
 * entity, and items_report.c writes every finding as it is made.
 *
 * Findings (kinds, for --format json; all errors but unknown-attribute):
 *   wrong-type          a value of another type than the attribute's
 *   not-in-enum         a value outside the attribute's enum
 *   missing-required    a key attribute of the table, an attribute with a
 *                       template, or one marked required: true, is absent
 *   key-mismatch        a templated attribute differs from its template
 *                       rendered from the item's own values
 *   delimiter-in-value  a placeholder value contains the key delimiter
 *   unknown-attribute   (note) an attribute the entity does not define,
 *                       or one it declares `stored: false`
 *   unmatched           no entity's key templates fit the item
 *   ambiguous-entity    the item's keys fit several entities, and its
 *                       constant attributes do not single one out
 * An item is ok when it is assigned and has no error; failed when it has
 * one or is ambiguous; unmatched when no entity fits it.
 */
#ifndef DDBC_ITEMS_RUN_H
#define DDBC_ITEMS_RUN_H

#include "items/items.h"
#include "items/items_match.h"
#include "items/items_stream.h"
#include "items/items_value.h"
#include "model/template.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdio.h>

/* What the first items tell about the input: not yet, no or yes. */
typedef enum ddbc_items_fact {
	DDBC_FACT_UNKNOWN,
	DDBC_FACT_NO,
	DDBC_FACT_YES
} ddbc_items_fact;

typedef enum ddbc_item_kind {
	DDBC_ITEM_WRONG_TYPE,
	DDBC_ITEM_NOT_IN_ENUM,
	DDBC_ITEM_MISSING,
	DDBC_ITEM_KEY_MISMATCH,
	DDBC_ITEM_DELIMITER,
	DDBC_ITEM_UNKNOWN,
	DDBC_ITEM_UNMATCHED,
	DDBC_ITEM_AMBIGUOUS
} ddbc_item_kind;

/* One key attribute of an entity, with the strings it can hold. */
typedef struct ddbc_items_key {
	const ddbc_attr *attr;
	ddbc_lang lang;
} ddbc_items_key;

typedef struct ddbc_items_entity {
	const ddbc_entity *e;
	ddbc_items_key pk, sk;   /* sk.attr is NULL when the table has no sort key */
	size_t literal;          /* literal bytes of both key languages */
	const ddbc_attr **consts; /* its constant attributes (ddbc_items_assign) */
	size_t nconsts;
} ddbc_items_entity;

typedef struct ddbc_items_table {
	const ddbc_table *t;
	const char *pk, *sk;     /* the key attributes' names; sk NULL when none */
	ddbc_items_entity *ents;
	size_t nents;
	const ddbc_items_entity **by_literal; /* ents, most literal bytes first */
} ddbc_items_table;

/* Everything the run owns is freed by the command (items.c). */
typedef struct ddbc_items_run {
	FILE *out;
	const ddbc_design *g;
	const char *name;
	ddbc_items_format format;
	ddbc_items_table *tables;
	size_t ntables;
	ddbc_match_scratch scratch;

	/* the input, as the first items decide it */
	ddbc_items_shape shape;
	ddbc_items_fact export_lines;  /* {"Item": {...}} lines */
	ddbc_items_fact dynamodb;      /* DynamoDB JSON, not plain */

	/* the current item */
	const ddbc_item_span *span;
	int key_depth;           /* where its attribute names are: 1, or 2 in export lines */
	ddbc_ival *attrs;
	size_t nattrs, attrs_cap;
	const ddbc_items_entity *ent;
	const ddbc_items_entity **tied; /* an ambiguous item's entities */
	size_t ntied, tied_cap;
	const ddbc_ival **slot;  /* per attribute of ent's entity: the item's value */
	size_t slot_cap;
	strbuf render;           /* reused for rendering templates */
	bool failed;

	unsigned long items, ok, nfailed, unmatched, nfindings;
} ddbc_items_run;

/* ---- items_report.c: the output --------------------------------------------------- */

/* Opens the JSON object (--format json); nothing for text. */
void ddbc_items_begin_output(ddbc_items_run *R);
/* Writes one finding about the current item; marks it failed unless k is
 * a note. */
void ddbc_items_finding(ddbc_items_run *R, ddbc_item_kind k, const char *attr, ddbc_ipos pos,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Writes the summary, or err (bad input, also on stderr) when not NULL. */
void ddbc_items_end_output(ddbc_items_run *R, const ddbc_items_error *err);
/* Appends text as 'text': control characters escaped, cut after 120
 * bytes (at a character boundary). */
void ddbc_items_add_quoted(strbuf *sb, const char *s, size_t len);
/* Where the name of attribute key is in the current item's text; the
 * item's start when the name is not written plainly (escapes). */
ddbc_ipos ddbc_items_attr_pos(const ddbc_items_run *R, const char *key);

/* ---- items_assign.c: which entity an item is ------------------------------------------ */

/* The tables' key languages; released with ddbc_items_tables_release. */
void ddbc_items_tables_prepare(ddbc_items_run *R);
void ddbc_items_tables_release(ddbc_items_run *R);
/* How many entities the current item can be. */
typedef enum ddbc_items_fit {
	DDBC_FIT_ONE,            /* R->ent is the item's entity */
	DDBC_FIT_NONE,           /* no entity's keys fit it */
	DDBC_FIT_SEVERAL         /* R->tied lists the entities it cannot be told from */
} ddbc_items_fit;

/* Finds the entity the current item belongs to. */
ddbc_items_fit ddbc_items_assign(ddbc_items_run *R);
/* Reports why the current item matched no entity. */
void ddbc_items_report_unmatched(ddbc_items_run *R);
/* Reports the entities an ambiguous item could be (R->tied). */
void ddbc_items_report_ambiguous(ddbc_items_run *R);

/* ---- items_check.c: the checks of an assigned item ------------------------------------ */

/* Whether v, typed as the input types it, is of type t. */
bool ddbc_items_type_fits(const ddbc_items_run *R, const ddbc_ival *v, ddbc_type t);
/* Whether v is of a's scalar type and one of a's enum values. */
bool ddbc_items_in_enum(const ddbc_items_run *R, const ddbc_attr *a, const ddbc_ival *v);
/* Checks the current item against its entity R->ent, reporting each
 * problem. */
void ddbc_items_check_entity(ddbc_items_run *R);

#endif
