/* emit_json.h - what the three JSON emitters share, and the pieces of
 * CreateTable that diff/'s deployment plan reuses in its requests
 *
 * Every output is written through one stream (below): objects in
 * insertion order, indented by 2, with a trailing newline, so one design
 * always gives the same bytes. Values reach DynamoDB in its own JSON
 * ({"S": "..."}, {"N": "..."}, ...), typed by the design's attributes.
 */
#ifndef DDBC_EMIT_JSON_H
#define DDBC_EMIT_JSON_H

#include "model/model.h"
#include "util/error.h"
#include "util/json_number.h"
#include "util/strbuf.h"

#include <jansson.h>
#include <stdio.h>

/* Writes a document container by container, member by member, in exactly
 * the layout jansson gives the whole tree (indented by 2, objects in
 * insertion order, a trailing newline), so that a big design's output
 * never exists as one tree: each member is built, written and released in
 * turn. */
typedef struct ddbc_json_stream {
	FILE *out;
	strbuf buf;              /* written to out in large pieces */
	char *value;             /* one value's text, before indenting */
	size_t value_cap;
	int depth;               /* containers open */
	bool empty[32];          /* per open container: no member written yet */
	bool failed;
	bool compact;            /* jansson's JSON_COMPACT layout: no line breaks,
				  * no indentation, "," and ":" alone */
} ddbc_json_stream;

void ddbc_json_stream_init(ddbc_json_stream *s, FILE *out);
/* s (len bytes) as a JSON string the way jansson's dump writes it without
 * JSON_ENSURE_ASCII or JSON_ESCAPE_SLASH: quotes, backslashes and control
 * characters escaped (\u00XX in upper case), every other byte as it is.
 * Returns how many control characters it wrote as \u00XX (a number's
 * mark is one: ddbc_json_unmark undoes it). The stream, the queries'
 * dumps and doc's example JSON all write strings through it. */
size_t ddbc_json_put_string(strbuf *out, const char *s, size_t len);
/* A line break and depth levels of jansson's two-space indentation. */
void ddbc_json_put_newline(strbuf *out, int depth);
/* emit.h's; declared here so that a file without emit.h (diff/) sees one type. */
struct ddbc_export_opts;
/* The layout o asks for (--compact); o may be NULL. */
void ddbc_json_stream_layout(ddbc_json_stream *s, const struct ddbc_export_opts *o);
/* Opens an object ('{') or array ('[') as a member named key (NULL in an
 * array or at the top). */
void ddbc_json_begin(ddbc_json_stream *s, const char *key, char bracket);
/* Writes member v (named key, or NULL in an array) and releases it. */
void ddbc_json_member(ddbc_json_stream *s, const char *key, json_t *v);
/* Members written without a jansson value, as jansson would write them:
 * a string (len bytes of UTF-8, or NULL for null), an integer, a boolean,
 * and an array of names. A large document is mostly these. */
void ddbc_json_string(ddbc_json_stream *s, const char *key, const char *str, size_t len);
void ddbc_json_text(ddbc_json_stream *s, const char *key, const char *str);
void ddbc_json_int(ddbc_json_stream *s, const char *key, long long v);
void ddbc_json_bool(ddbc_json_stream *s, const char *key, bool v);
void ddbc_json_name_list(ddbc_json_stream *s, const char *key, const ddbc_name *names, size_t n);
void ddbc_json_end(ddbc_json_stream *s, char bracket);
/* Ends the document; returns DDBC_EMIT_OK, or DDBC_EMIT_FAILED with why
 * added to err (NULL: not kept) when the output could not be written. */
int ddbc_json_stream_finish(ddbc_json_stream *s, ddbc_err *err);

/* A new JSON string of len bytes of s (which the loader checked is UTF-8). */
json_t *ddbc_json_strn(const char *s, size_t len);
json_t *ddbc_json_str(const char *s);

/* Appends the text a scalar stands for: integers in decimal (YAML's 0x and
 * 0o forms converted), everything else as written. */
void ddbc_json_scalar_text(const ddbc_node *n, strbuf *out);

/* An exact decimal number (len bytes of text) as a jansson value that
 * every writer here turns back into the same digits: a marked string
 * (util/json_number.h). ddbc_json_unmark (util/json_number.h) rewrites
 * the marks in jansson's output (the stream does it itself). */
json_t *ddbc_json_number(const char *text, size_t len);

/* A capacity figure (rate, count, item_bytes) as the design wrote it
 * (ddbc_figure_text's digits), or null when it is not set. */
void ddbc_json_figure(ddbc_json_stream *s, const char *key, const ddbc_figure *f);
/* Appends figure f (set) as the design wrote it, in JSON's form of the
 * decimal ("+5" as 5, ".5" as 0.5, 1e3 and 0.25 as they are); a YAML
 * integer of another base (0x1F) as its value in decimal. */
void ddbc_figure_text(strbuf *out, const ddbc_figure *f);

/* A YAML node as plain JSON: strings, numbers, booleans, null, arrays and
 * objects; NULL for nothing. */
json_t *ddbc_json_plain(const ddbc_node *n);
json_t *ddbc_json_pval(const ddbc_pval *v);

/* A value as DynamoDB JSON of type t; DDBC_TYPE_NONE infers the type from
 * the node (string S, number N, boolean BOOL, null NULL, sequence L,
 * mapping M), as do the members of M and L. */
json_t *ddbc_json_attr_value(const ddbc_pval *n, ddbc_type t);

/* A string as a DynamoDB key value of type t (S, N or B). */
json_t *ddbc_json_key_value(const char *s, size_t len, ddbc_type t);

/* The type AttributeDefinitions gives key attribute name of t: the type its
 * entities give it, S when no entity defines it (an unused index). */
ddbc_type ddbc_json_key_type(const ddbc_table *t, const char *name);

/* One table's CreateTable request, as `export --format create-table`
 * writes it; a secondary index as CreateTable (and UpdateTable's Create)
 * takes it; the AttributeDefinitions of ix's key attributes alone; a
 * ProvisionedThroughput. Each a new reference. */
json_t *ddbc_json_create_table(const ddbc_table *t);
json_t *ddbc_json_secondary_index(const ddbc_table *t, const ddbc_index *ix);
json_t *ddbc_json_index_definitions(const ddbc_table *t, const ddbc_index *ix);
json_t *ddbc_json_throughput(const ddbc_capacity *c);
/* WarmThroughput and OnDemandThroughput of th; NULL when not set. */
json_t *ddbc_json_warm_throughput(const ddbc_throughput *th);
json_t *ddbc_json_on_demand_throughput(const ddbc_throughput *th);
/* The table's tags as CreateTable's Tags: [{Key, Value}]. */
json_t *ddbc_json_tags(const ddbc_table_settings *s);

/* The KeyConditionExpression of query pattern p exactly as `export
 * --format queries` writes it (emit_json_queries.c), so that the header's
 * constant is the same text: the expression (malloc'd; "" without
 * conditions), *names its ExpressionAttributeNames (placeholder -> name)
 * and *refs its value placeholders, one per condition value in the
 * expression's order (new references). */
char *ddbc_query_key_condition(const ddbc_design *g, const ddbc_pattern *p, json_t **names,
			       json_t **refs);
/* The ProjectionExpression of read pattern p (its `returns`) exactly as
 * the queries export writes it (malloc'd; "" without returns), adding the
 * names it needs to names, after those already there, as the export adds
 * them after the key condition's. The header and `ddbc keys` build their
 * requests with both. */
char *ddbc_query_projection(const ddbc_design *g, const ddbc_pattern *p, json_t *names);
/* The operation as the DynamoDB API (and the queries export) names it:
 * "Query", "GetItem", "Scan", "PutItem", "UpdateItem", "DeleteItem". */
const char *ddbc_query_operation(ddbc_operation op);
/* The ConditionExpression of write pattern p (its `condition`) exactly as
 * the queries export writes it (malloc'd; "" without one), adding the
 * names it needs to names and each ':name' value to values (placeholder
 * -> DynamoDB JSON, in the condition's order, with the export's values
 * and types: ddbc_pattern_named_attr's, else the example's). NULL when a
 * ':name' has no value. */
char *ddbc_query_condition(const ddbc_design *g, const ddbc_pattern *p, json_t *names,
			   json_t *values);

#endif
