/* items_run.h - the state of one check-items run, shared by its phases
 *
 * A run goes item by item: items.c reads and types an item, items_assign.c
 * finds the entity it belongs to, items_check.c checks it against that
 * entity, and items_report.c writes every finding as it is made.
 *
 * The kinds of findings are listed, with their default severities, in
 * diag/item_kinds.def. An item is ok when it is assigned and has no error;
 * failed when it has one or is ambiguous; unmatched when no entity fits it; malformed when
 * it cannot be read as an item at all.
 *
 * items_files.c runs that over every file of the command (export folders
 * expanded from their manifests), one worker or several, and items_merge.c
 * adds up the results of separate runs.
 */
#ifndef DDBC_ITEMS_RUN_H
#define DDBC_ITEMS_RUN_H

#include "items/items.h"
#include "items/items_export.h"
#include "items/items_jalloc.h"
#include "items/items_keyindex.h"
#include "items/items_match.h"
#include "items/items_stream.h"
#include "items/items_value.h"
#include "model/template.h"
#include "util/strbuf.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* What the first items tell about the input: not yet, no or yes. */
typedef enum ddbc_items_fact {
	DDBC_FACT_UNKNOWN,
	DDBC_FACT_NO,
	DDBC_FACT_YES
} ddbc_items_fact;

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
	ddbc_keyindex index;     /* by_literal's positions by their keys' leading literals */
} ddbc_items_table;

/* The counts of one file's check, or of a whole run. */
typedef struct ddbc_items_tally {
	unsigned long items, ok, failed, unmatched, malformed;
	unsigned long kinds[DDBC_ITEM_KIND_COUNT];  /* findings by kind */
	unsigned long errors;                       /* findings of severity error */
} ddbc_items_tally;

void ddbc_items_tally_add(ddbc_items_tally *to, const ddbc_items_tally *from);
unsigned long ddbc_items_tally_findings(const ddbc_items_tally *t);

/* Where finding lines go in the end: the output, up to the cap, each JSON
 * finding after its separator. Every finding is one line, so findings
 * spooled by parallel workers are written exactly as a single worker's. */
typedef struct ddbc_items_sink {
	FILE *out;
	ddbc_items_format format;
	unsigned long max;       /* written at most (ULONG_MAX: no cap) */
	unsigned long shown;
	/* called before a line is written, when set (to clear a progress
	 * line off the terminal the output shares) */
	void (*before)(void *arg);
	void *before_arg;
} ddbc_items_sink;

/* Writes one finding's line (len bytes, no newline) unless the cap is
 * reached. */
void ddbc_items_sink_line(ddbc_items_sink *s, const char *line, size_t len);

/* Everything a run writes after its findings. */
typedef struct ddbc_items_outcome {
	ddbc_items_tally t;
	unsigned long shown;
	const char *shape, *json;    /* the input's words (items.h), or NULL */
	bool failed_input;           /* some input was bad: no text summary */
	json_t *error;               /* the first bad input, as in the JSON output, or NULL */
} ddbc_items_outcome;

/* One worker's state: the design's languages, the current file and item.
 * Everything it owns is freed by ddbc_items_run_release (items.c). */
typedef struct ddbc_items_run {
	const ddbc_design *g;
	const ddbc_items_opts *opts;
	ddbc_severity sev[DDBC_ITEM_KIND_COUNT];  /* resolved */
	ddbc_items_table *tables;
	size_t ntables;
	ddbc_match_scratch scratch;

	/* called every DDBC_ITEMS_TICK items with their number, when set */
	void (*tick)(void *arg, unsigned long items);
	void *tick_arg;

	/* where findings go: the sink itself, or a spool file of lines */
	ddbc_items_sink *sink;
	FILE *spool;
	unsigned long spooled;

	/* the current file, as its first items decide it */
	const char *name;
	ddbc_items_shape shape;
	ddbc_items_fact export_lines;  /* {"Item": {...}} lines */
	ddbc_items_fact dynamodb;      /* DynamoDB JSON, not plain */
	ddbc_items_tally t;

	/* the current item */
	const ddbc_item_span *span;
	int key_depth;           /* where its attribute names are: 1, 2 in export lines, 3 in batches */
	ddbc_ival *attrs;
	size_t nattrs, attrs_cap;
	const ddbc_items_entity *ent;
	const ddbc_items_entity **tied; /* an ambiguous item's entities */
	size_t ntied, tied_cap;
	size_t *cand;            /* the by_literal positions add_fits tries */
	size_t ncand, cand_cap;
	const ddbc_ival **slot;  /* per attribute of ent's entity: the item's value */
	size_t slot_cap;
	const ddbc_attr **found; /* per value of the item: its attribute, or NULL */
	size_t found_cap;
	ddbc_jalloc jalloc;      /* where the current item's JSON tree is */
	strbuf marked;           /* reused for a plain item's marked text (util/json_number.c) */
	strbuf render;           /* reused for rendering templates */
	strbuf line;             /* reused for a finding's line */
	bool failed;
} ddbc_items_run;

#define DDBC_ITEMS_TICK 4096

/* ---- items.c: one file ------------------------------------------------------------ */

void ddbc_items_run_init(ddbc_items_run *R, const ddbc_design *g, const ddbc_items_opts *o);
void ddbc_items_run_release(ddbc_items_run *R);
/* Checks the items of in (named name) into R->t, from zeroed counts.
 * Returns 0, or -1 when the input is bad (err says why and where). */
int ddbc_items_check_stream(ddbc_items_run *R, FILE *in, const char *name,
			    ddbc_items_error *err);
/* Reads, assigns and checks the item of sp, counting it in R->t as ok,
 * failed, unmatched or malformed (nothing for a request without an item). */
void ddbc_items_check_span(ddbc_items_run *R, const ddbc_item_span *sp);
/* The words of the file just checked (items.h "input"), or NULL. */
const char *ddbc_items_shape_word(const ddbc_items_run *R);
const char *ddbc_items_json_word(const ddbc_items_run *R);

/* ---- items_files.c: the parts of a run -------------------------------------------- */

/* Checks the parts of plan, one worker or o->jobs, as ddbc_check_items
 * does; paths are the arguments, for the output. */
ddbc_items_result ddbc_items_run_plan(FILE *out, const ddbc_design *g,
				      const ddbc_items_plan *plan, const char *const *paths,
				      size_t npaths, const ddbc_items_opts *o);

/* ---- items_report.c: the output --------------------------------------------------- */

/* Opens the JSON object (--format json); nothing for text. */
void ddbc_items_begin_output(FILE *out, ddbc_items_format format, const char *const *paths,
			     size_t npaths);
/* Writes one finding about the current item (nothing when its kind is
 * off); marks the item failed when the finding is an error. */
/* A finding about the file name as a whole (no item: a file deleted
 * before it was read), counted in R->t, which it resets. */
void ddbc_items_file_finding(ddbc_items_run *R, ddbc_item_kind k, const char *name,
			     const char *msg);
void ddbc_items_finding(ddbc_items_run *R, ddbc_item_kind k, const char *attr, ddbc_ipos pos,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Writes what follows the findings: the summary and the count by kind. */
void ddbc_items_end_output(FILE *out, ddbc_items_format format, const ddbc_items_outcome *o);
/* The JSON object of a bad input (file, line, column, message). */
json_t *ddbc_items_error_json(const char *file, const ddbc_items_error *err);
/* A JSON string of s; bytes that are not UTF-8 become '?'. */
json_t *ddbc_items_jstr(const char *s);
/* The progress line's text: "check-items: 1200 of 5000 items (24%), 1 of 8
 * files, 0:12 left" when the manifests give the total (total > 0), else
 * "check-items: 1200 items, 1 of 8 files". */
void ddbc_items_progress_text(strbuf *out, unsigned long seen, long long total,
			      size_t finished, size_t nfiles, double elapsed);
/* The same, the parts called noun ("segment": "1 of 4 segments"). */
void ddbc_items_progress_parts(strbuf *out, unsigned long seen, long long total,
			       size_t finished, size_t nparts, const char *noun, double elapsed);

/* The current item's attribute name, or NULL when it has none. */
const ddbc_ival *ddbc_items_value(const ddbc_items_run *R, const char *name);
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
