/* request.h - an access pattern's request, as data
 *
 * What a pattern asks DynamoDB for, derived once by semantics.c for every
 * analysed pattern (p->analysed): the operation, the table, the index it
 * reads, each key condition in the key order of the index it names with its
 * values parsed once (templates over the pattern's parameters, or numbers
 * and other constants as DynamoDB gets their text), what it returns, in
 * which order, how consistent. The queries export serialises it, the
 * documentation evaluates it on example items, the header plan, cost and
 * keys read it: none of them parses a condition value again.
 *
 * The request holds no parameter value: those come from the command line,
 * the pattern's example or example items, which is the caller's choice
 * (ddbc_req_value_render takes them through a callback).
 */
#ifndef DDBC_REQUEST_H
#define DDBC_REQUEST_H

#include "model/model.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Attribute i of ix's key, partition key attributes first, then sort key
 * attributes (i < ix->npk + ix->nsk). */
const char *ddbc_index_key(const ddbc_index *ix, size_t i);
const ddbc_name *ddbc_index_key_name(const ddbc_index *ix, size_t i);

/* The type the table gives key attribute i of ix (ddbc_table_key_type,
 * resolved once by semantics.c); DDBC_TYPE_NONE when no entity defines it. */
ddbc_type ddbc_index_key_type(const ddbc_index *ix, size_t i);

/* The first condition of p on attribute attr that has values; NULL when
 * there is none. Rules that must see a condition without values (one whose
 * operator was unreadable) look at p->conds themselves. */
const ddbc_key_cond *ddbc_pattern_cond(const ddbc_pattern *p, const char *attr);
/* The first condition of p on attr as written, with values or without:
 * the rules that say "no condition on" must not say it of a condition the
 * schema rule reported already (one mistake, one finding). */
const ddbc_key_cond *ddbc_pattern_cond_written(const ddbc_pattern *p, const char *attr);

/* One value of a key condition, parsed once. */
/* The request structs are ordered so that they have no holes, with
 * 32-bit counts: a design has tens of thousands of patterns. */
typedef struct ddbc_req_value {
	const ddbc_node *node;   /* as written: a scalar */
	ddbc_template tpl;
	const char *text;        /* !is_template: the text DynamoDB gets (a YAML
				  * integer in decimal, anything else as written) */
	uint32_t len;
	bool is_template;        /* a string that parses as a template: tpl holds it,
				  * its placeholders name parameters (ref NULL) */
} ddbc_req_value;

/* A key condition of the request. */
typedef struct ddbc_req_cond {
	const ddbc_key_cond *cond;   /* as written */
	const char *attr;
	ddbc_req_value *values;  /* as many as written (between: 2 when well formed) */
	uint32_t nvalues;
	uint32_t key_pos;        /* attr's position in the key of request->key */
	ddbc_cond_op op;
	ddbc_type type;          /* S, N or B: the key type the table gives attr,
				  * S when no entity defines it */
} ddbc_req_cond;

typedef struct ddbc_request {
	const ddbc_pattern *pattern;
	const ddbc_table *table;
	const ddbc_index *index;     /* the index it reads: the pattern's index */
	/* The key whose attributes the conditions give: the index for a
	 * Query, the table's primary key for GetItem, PutItem, UpdateItem and
	 * DeleteItem, NULL for a Scan (which sends no key). */
	const ddbc_index *key;
	ddbc_req_cond *conds;        /* one per attribute of key with a condition that
				      * has values (ddbc_pattern_cond), in key order */
	const ddbc_name *returns;    /* a read's ProjectionExpression, in order */
	const char *condition;       /* a write's ConditionExpression, as written */
	/* Per condition of the pattern (p->conds' order, on a key attribute of
	 * key or not), its values parsed: what conds[].values point into. */
	ddbc_req_value **cond_values;
	/* The placeholders of every condition value of the pattern (on a key
	 * attribute of key or not), in the pattern's order: its parameters. */
	const ddbc_segment **params;
	uint32_t nconds;
	uint32_t nreturns;
	uint32_t nparams;
	uint32_t limit;              /* a Query's or Scan's Limit (`limit:`); 0 unset */
	ddbc_operation op;
	int8_t order;                /* a Query's ScanIndexForward: 0 unset, 1, -1 */
	bool index_named;            /* a Query or Scan of a GSI or LSI: IndexName */
	bool reads;                  /* Query, Scan, GetItem: returns items */
	bool writes;                 /* PutItem, UpdateItem, DeleteItem */
	bool consistent;             /* a read's ConsistentRead */
} ddbc_request;

/* The request of an analysed pattern (semantics.c built it); NULL for a
 * pattern whose table or index did not resolve. */
const ddbc_request *ddbc_pattern_request(const ddbc_pattern *p);

/* The request's condition on key attribute attr; NULL when none. */
const ddbc_req_cond *ddbc_request_cond(const ddbc_request *r, const char *attr);

/* The first placeholder of the request's key values that names parameter
 * name and pads it (:0WIDTH), in key order; NULL when none does. A
 * condition's ':name' of that parameter is sent as that key writes it. */
const ddbc_segment *ddbc_request_padded(const ddbc_request *r, const char *name);

/* Appends value v rendered to out: a template with each placeholder's
 * value from param_of (ddbc_template_render's rules), a constant as its
 * text. */
ddbc_render_result ddbc_req_value_render(const ddbc_req_value *v, ddbc_tvalue_fn *param_of,
					 void *ctx, strbuf *out, ddbc_render_problem *problem);

/* ---- comparing keys as DynamoDB does --------------------------------------------- */

/* Compares two key values of type t: a Number by its exact decimal value
 * (util/decimal.h; 1, 1.0 and 1e0 are equal), a String or
 * Binary by its bytes (DynamoDB orders strings by their UTF-8 bytes).
 * <0, 0, >0. The one comparator of keys: the documentation's views and
 * which items a request returns both use it. */
int ddbc_key_compare(ddbc_type t, const char *a, size_t alen, const char *b, size_t blen);

/* A key value a condition compares with: a rendered value's text. */
typedef struct ddbc_key_text {
	const char *text;
	size_t len;
} ddbc_key_text;

/* Whether a key value s (len bytes) of type t satisfies "s op v[0]"
 * ("s BETWEEN v[0] AND v[1]", "begins_with(s, v[0])"). */
bool ddbc_key_op_holds(ddbc_cond_op op, ddbc_type t, const char *s, size_t len,
		       const ddbc_key_text *v);

/* ---- for semantics.c --------------------------------------------------------------- */

/* Builds p's request in the design's arena (p->request). Needs the
 * indexes' key types. */
void ddbc_request_build(ddbc_design *g, ddbc_pattern *p);

#endif
