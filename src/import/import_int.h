/* import_int.h - what the readers of import/ share
 *
 * A reader builds the design as a jansson tree shaped like the YAML it
 * becomes (tables, entities, examples); import_yaml.c writes it. A comment
 * written after a member's line (how a guess is marked) is kept beside the
 * tree (import_comment.c).
 */
#ifndef DDBC_IMPORT_INT_H
#define DDBC_IMPORT_INT_H

#include "import/import.h"
#include "util/strbuf.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ddbc_import_param;

/* One import: what its readers share while they read the files of one
 * design, passed to each explicitly (no file of import/ keeps a variable
 * of its own), set up by ddbc_import_run_init and freed, all of it, by
 * ddbc_import_run_release. */
typedef struct ddbc_import_run {
	const ddbc_import_source *source;   /* the format of every file */
	const struct ddbc_import_param *params;   /* --param NAME=VALUE */
	size_t nparams;
	bool settle;   /* the design is only for writing (ddbc_import) */
	bool whole;    /* a template read whole (the streamed reader's oracle) */
	/* What a source's load kept beside the file's tree for its reader (a
	 * template's table resources as text): dropped after each file. */
	json_t *stash;
	/* The sample items of a Workbench model's lists, parsed by its load,
	 * by the address of their emptied list (import_wb_stream.c): dropped
	 * after each file, whose addresses they are. */
	json_t *prepared;
	/* The comments written after members' lines (import_comment.c). */
	json_t *comments;  /* "ADDRESS\nNAME" -> the comment */
	json_t *held;      /* every object that has a comment */
	json_t *keys;      /* the key of each of held's comments, in its order */
	json_t *written;   /* "ADDRESS" -> a stand-in (held by this) */
	/* One memory stream for every member written to text (import_yaml.c):
	 * opening one costs more than writing a small entity. */
	FILE *member_mem;
	char *member_text;
	size_t member_len;
	strbuf why;   /* why a value was refused, until it is said (import_api.c) */
} ddbc_import_run;

void ddbc_import_run_init(ddbc_import_run *run, const ddbc_import_source *from,
			  const struct ddbc_import_param *params, size_t nparams);
void ddbc_import_run_release(ddbc_import_run *run);

/* The design the files give, as the tree import_yaml.c writes (its
 * comments kept in run); NULL after saying why. A new reference. */
json_t *ddbc_import_tree(ddbc_import_run *run, char *const *files, size_t nfiles);

/* ddbc_import, a template read whole and the design kept a tree when
 * whole: what the streamed reading must equal (tests/import_whole.c). */
int ddbc_import_how(const ddbc_import_source *from, char *const *files, size_t nfiles,
		    const struct ddbc_import_param *params, size_t nparams, FILE *out,
		    bool whole);

/* Writes design (made in run) as block YAML to out. */
void ddbc_import_write_yaml(ddbc_import_run *run, FILE *out, const json_t *design);

/* The JSON value of file, read whole, its numbers as written
 * (util/json_number.h); NULL after saying why (with the error's line and
 * column). A new reference. ddbc_import_parse_json reads len bytes of
 * text already read from file; ddbc_import_mark_numbers is the pre-pass
 * both use (false, out empty, when nothing needed marking). */
json_t *ddbc_import_load_json(const char *file);
json_t *ddbc_import_parse_json(const char *file, const char *text, size_t len);
struct strbuf;
bool ddbc_import_mark_numbers(const char *text, size_t len, struct strbuf *out);

/* Says "ddbc import: FILE: MESSAGE" on stderr; returns -1. */
int ddbc_import_fail(const char *file, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The plain JSON value of a DynamoDB JSON attribute value ({"S": "x"} is
 * "x", {"N": "5"} is 5, sets are lists); NULL when av is no attribute
 * value. A new reference. */
json_t *ddbc_import_plain_value(const json_t *av);

/* A Number that no JSON integer holds exactly (141.96, 38 digits, 1e2),
 * as its own text: a marked string, as the JSON sources' pre-pass makes
 * it (util/json_number.h), which the YAML writer writes as that text. The
 * text of such a value, or NULL for any other value. */
json_t *ddbc_import_number(const char *text);
const char *ddbc_import_number_text(const json_t *v);
/* A string read from a source: one that begins with the mark holds it
 * twice, so that it is never taken for a number. ddbc_import_str makes
 * one of text s; ddbc_import_is_string says whether v is a string (not a
 * number); ddbc_import_string_value is json_string_value for strings
 * alone (NULL for a number too: the tree's own spelling, to look names
 * up with), ddbc_import_string_text the text as the source wrote it
 * (for messages and outputs). */
json_t *ddbc_import_str(const char *s);
bool ddbc_import_is_string(const json_t *v);
const char *ddbc_import_string_value(const json_t *v);
const char *ddbc_import_string_text(const json_t *v);

/* An item of DynamoDB JSON as a plain object, or NULL. A new reference.
 * The _why form says in why which attribute path is wrong and how. */
json_t *ddbc_import_plain_item(const json_t *item);
struct strbuf;
json_t *ddbc_import_plain_item_why(const json_t *item, struct strbuf *why);
/* What a malformed sample item still shows: {"ok": {NAME: plain value} of
 * each top-level attribute that is valid DynamoDB JSON, "bad": {NAME: true}
 * of each that is not}; NULL when item is no object or nothing in it is
 * valid. A new reference. */
json_t *ddbc_import_plain_part(const json_t *item);

/* How a key template is guessed from sample items (plain objects). */
typedef struct ddbc_import_guess {
	const char *key;        /* the key attribute */
	const json_t *keys;     /* names no placeholder may be (the caller's way
				 * to keep a template from referring to itself) */
	const char *delim;
	/* The partition key whose values tell partitions apart when key is a
	 * sort key; NULL for a partition key. A constant template needs samples
	 * from more than one partition: one customer's items C1/A1, C1/A2 are
	 * no evidence of a constant C1. */
	const char *partition;
	/* The name for a key part no attribute holds after a literal prefix
	 * every sample shares (c#12345, c#67890 is c#{unstored}); NULL for
	 * none. The caller declares it stored: false. */
	const char *unstored;
} ddbc_import_guess;

/* Guesses the template of g->key from sample items: each sample key split
 * at g->delim, each part the same literal in every sample, or the value of
 * one attribute (after a literal) not among g->keys, or g->unstored.
 * Returns the template (malloc'd) and sets *nsamples, or NULL when no
 * sample has the key as a string, the samples fit no such template, or
 * the evidence is too thin (see above). */
char *ddbc_import_guess_template(const json_t *items, const ddbc_import_guess *g,
				 size_t *nsamples);

/* The text of value that placeholder {name} of guessed template tmpl
 * stands for (the template and value split at delim alike), or NULL.
 * Malloc'd. */
char *ddbc_import_template_part(const char *tmpl, const char *value, const char *name,
				const char *delim);

/* Declares each placeholder of template tmpl that names no attribute of
 * attrs as an attribute held only inside the key ({type, stored: false}),
 * typed by types (name -> type) where it names one, else S. */
void ddbc_import_add_unstored(ddbc_import_run *run, json_t *attrs, const char *tmpl,
			      const json_t *types);

/* The attribute type letter ("S", "N", ...) of a plain JSON value. */
const char *ddbc_import_value_type(const json_t *v);
/* A scalar's text as it appears inside a key: strings as they are,
 * integers in decimal; NULL for anything else. Malloc'd. */
char *ddbc_import_scalar_text(const json_t *v);

/* Sets the comment written after the line of member name of obj. */
void ddbc_import_set_comment(ddbc_import_run *run, json_t *obj, const char *name, const char *fmt,
			     ...)
	__attribute__((format(printf, 4, 5)));
/* The comment of member name of obj, or NULL. */
const char *ddbc_import_comment(const ddbc_import_run *run, const json_t *obj, const char *name);
/* Forgets every comment (ddbc_import_run_release). */
void ddbc_import_comments_clear(ddbc_import_run *run);
/* How many comments are kept; forget drops those set since mark. */
size_t ddbc_import_comments_mark(const ddbc_import_run *run);
void ddbc_import_comments_forget(ddbc_import_run *run, size_t mark);
/* A string that stands in the design for a member written already: the
 * YAML writer writes its text as it is (kept until comments_clear). text
 * is the stand-in's text, or NULL for any other value. */
void ddbc_import_set_written(ddbc_import_run *run, json_t *stand_in);
const char *ddbc_import_written(const ddbc_import_run *run, const json_t *v);
/* The YAML text of member k of obj at indent, as the writer writes it
 * within the design (its comments too): a new string. */
json_t *ddbc_import_yaml_member(ddbc_import_run *run, const json_t *obj, const char *k, int indent);

/* Whether the values a reader uses have the types it expects (MCP
 * schema, Workbench model, the API's table shape): 0, or -1 after saying
 * which value is what instead (import_check.c). */
int ddbc_import_check_mcp(const char *file, const json_t *root);
int ddbc_import_check_workbench(const char *file, const json_t *root);
/* Whether a Workbench facet alone fits the checks made of every facet:
 * nothing is said (the model's check says it, at its place). */
bool ddbc_import_wb_facet_fits(const json_t *facet);
int ddbc_import_check_api(const char *file, const json_t *table);

/* The readers of ddbc_import_sources' rows (ddbc_import_source's read):
 * each adds the tables (and entities) of the file's root to design.
 * Returns 0, or -1 after saying why. A Workbench model's tables have their
 * entities written to text as soon as they are complete when run->settle
 * (ddbc_import_wb_settle): the design is then only for writing. */
int ddbc_import_workbench(ddbc_import_run *run, const char *file, const json_t *root,
			  json_t *design);
int ddbc_import_describe(ddbc_import_run *run, const char *file, const json_t *root,
			 json_t *design);
int ddbc_import_mcp(ddbc_import_run *run, const char *file, const json_t *root,
		    json_t *design);

/* A table object from the key schema of a DynamoDB API shape (KeySchema,
 * AttributeDefinitions, GlobalSecondaryIndexes, LocalSecondaryIndexes,
 * BillingMode, ProvisionedThroughput): shared by describe-table and
 * CloudFormation. Returns a new table, or NULL after saying why. */
json_t *ddbc_import_api_table(ddbc_import_run *run, const char *file, const json_t *t,
			      json_t **attrs);

/* A table's settings (SPEC 8.7) from a CloudFormation resource's
 * properties, AWS::DynamoDB::Table's or (global) GlobalTable's, region
 * the stack's, into the design's table; what cannot be kept is named in
 * lost (import_settings.c). */
void ddbc_import_cfn_settings(const json_t *props, bool global, const char *region,
			      json_t *table, struct strbuf *lost);

/* The same from describe-table's TableDescription (what it holds:
 * deletion protection, the stream, encryption, warm and maximum
 * throughput, replicas, consistency, witness). */
void ddbc_import_described_settings(const json_t *t, json_t *table, struct strbuf *lost);
/* The settings of table t (described, or requested) that other answers
 * hold, read from root, the object they are merged into beside "Table"
 * (`jq -s add` of the answers, or `ddbc diff --live`'s files): Tags
 * (ListTagsOfResource, or the request's), Policy (GetResourcePolicy, or
 * the request's ResourcePolicy), Contributor Insights (a
 * DescribeContributorInsights answer, ListContributorInsights'
 * ContributorInsightsSummaries for the table and its GSIs), and t's table
 * class (TableClassSummary, or the request's TableClass). */
void ddbc_import_answered_settings(const json_t *root, const json_t *t, json_t *table,
				   struct strbuf *lost);

/* Adds table (taken) to design under name, with one entity of that name
 * that declares attrs (name -> type): the source (named in the entity's
 * comment) names no entities. Returns 0 or -1. */
int ddbc_import_add_key_table(ddbc_import_run *run, const char *file, json_t *design,
			      const char *name,
			      json_t *table, const json_t *attrs, const char *source);

/* A CloudFormation template (YAML with short tags, or JSON) as a tree in
 * the long form; NULL after saying why. A new reference. */
json_t *ddbc_import_load_template(const char *file);
/* The same of len bytes of text already read from file. */
json_t *ddbc_import_parse_template(const char *file, const char *text, size_t len);
/* The same, its Resources streamed (import_cfn_yaml.c): each table
 * resource kept as text, in *stash (logical id -> the same string as
 * Resources holds, a new reference) too; any other resource as null. */
json_t *ddbc_import_stream_template(const char *file, json_t **stash);

/* The load of templates (ddbc_import_source's load): read whole when
 * run->whole, else streamed, its stash kept in run->stash. */
json_t *ddbc_import_cfn_load(ddbc_import_run *run, const char *file);
/* The reader of templates: run's params are --param NAME=VALUE; its stash
 * is what ddbc_import_stream_template kept (NULL for a template read
 * whole); when it settles, each table and its entity are written to text
 * once complete (the design is then only for writing). */
int ddbc_import_cloudformation(ddbc_import_run *run, const char *file, const json_t *root,
			       json_t *design);

#endif
