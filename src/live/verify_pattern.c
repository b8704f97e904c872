/* verify_pattern.c - one access pattern's requests sent and compared
 *
 * The request is the queries export's, its parameters taken from a
 * written item's values (for a read, items of the entities its key
 * condition can return and its index holds, three spread over the items;
 * for a put, an item of another seed that was not written; for a delete,
 * a written item). What the request should return is worked out from the
 * items written with the model's key comparator (request.h's
 * ddbc_key_op_holds over what the request sent of its key) and the index
 * membership rule (an item is in an index when it has the index's key
 * attributes); the units from the cost model over the same items.
 */
#include "live/verify_int.h"
#include "emit/emit.h"
#include "model/capacity.h"
#include "model/item_size.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Parameter values a read pattern is tried with. */
#define VALUES_PER_PATTERN 3
/* Keys a difference lists at most. */
#define KEYS_LISTED 3
/* Differences a pattern reports at most. */
#define MAX_DIFFS 12
/* The longest pause before an eventually consistent read that misses
 * items is sent again (pauses of 0.2, 0.4, ... s: about 12 s in all). */
#define GSI_WAIT_MS 6400L

typedef struct pcheck {
	verify_run *V;
	const ddbc_pattern *p;
	const ddbc_request *q;
	json_t *entry;
	json_t *diffs;
	json_t *sent_texts;      /* requests sent, compact, to send each once */
	size_t requests, returned;
} pcheck;

static const char *op_name(ddbc_operation op)
{
	static const char *const names[] = { "GetItem", "Query", "Scan", "PutItem", "UpdateItem",
					     "DeleteItem" };
	return names[op];
}

/* ---- what the design says ------------------------------------------------------------ */

static bool names_entity(const ddbc_pattern *p, const ddbc_entity *e)
{
	if (p->has_entities) {
		for (size_t i = 0; i < p->nentities; i++)
			if (p->entities[i].s && !strcmp(p->entities[i].s, e->name.s))
				return true;
		return false;
	}
	for (size_t i = 0; i < p->nmatched; i++)
		if (p->matched[i] == e)
			return true;
	return false;
}

static bool matched(const ddbc_pattern *p, const ddbc_entity *e)
{
	for (size_t i = 0; i < p->nmatched; i++)
		if (p->matched[i] == e)
			return true;
	return false;
}

/* The index a request reads: its own for a Query or Scan, the table's for
 * the others. */
static const ddbc_index *read_index(const ddbc_request *q)
{
	return q->op == DDBC_OP_QUERY || q->op == DDBC_OP_SCAN ? q->index : &q->table->primary;
}

static bool in_index(const ddbc_index *ix, const json_t *item)
{
	for (size_t i = 0; i < ix->npk + ix->nsk; i++)
		if (!ddbc_verify_scalar_text(json_object_get(item, ddbc_index_key(ix, i))))
			return false;
	return true;
}

/* Whether item's key satisfies every condition the request sent. */
static bool satisfies(const ddbc_request *q, const ddbc_key_sent *sent, const json_t *item)
{
	for (size_t k = 0; k < q->nconds; k++) {
		const ddbc_req_cond *c = &q->conds[k];
		const char *text = ddbc_verify_scalar_text(json_object_get(item, c->attr));
		if (!text)
			return false;
		if (c->key_pos >= sent->n || !sent->values[c->key_pos][0].text)
			continue;
		if (!ddbc_key_op_holds(c->op, c->type, text, strlen(text), sent->values[c->key_pos]))
			return false;
	}
	return true;
}

/* ---- differences ---------------------------------------------------------------------- */

static void differ(pcheck *c, json_t *request, json_t *detail, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void differ(pcheck *c, json_t *request, json_t *detail, const char *fmt, ...)
{
	if (json_array_size(c->diffs) >= MAX_DIFFS) {
		json_decref(detail);
		return;
	}
	strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	json_t *d = json_pack("{s:s, s:O}", "message", ddbc_strbuf_str(&msg), "sent",
			      request ? request : json_null());
	if (detail)
		json_object_update(d, detail);
	json_decref(detail);
	json_array_append_new(c->diffs, d);
	ddbc_strbuf_release(&msg);
}

/* "K1, K2, K3 and 4 more" of the keys of a list. */
static void list_keys(strbuf *sb, json_t *keys)
{
	size_t i;
	json_t *k;
	json_array_foreach(keys, i, k) {
		if (i == KEYS_LISTED) {
			ddbc_strbuf_addf(sb, " and %zu more", json_array_size(keys) - KEYS_LISTED);
			break;
		}
		ddbc_strbuf_addf(sb, "%s%s", i ? ", " : "", json_string_value(k));
	}
}

/* ---- values compared ------------------------------------------------------------------ */

/* Whether two Number texts are one value (1.50 and 1.5 are). */
static bool same_number(const json_t *a, const json_t *b)
{
	const char *x = json_string_value(a), *y = json_string_value(b);
	return x && y && !ddbc_decimal_cmp(x, strlen(x), y, strlen(y));
}

/* Whether two sets (arrays of texts) hold the same elements, in any order;
 * numbers by value. */
static bool same_set(const json_t *a, const json_t *b, bool numbers)
{
	size_t n = json_array_size(a);
	if (n != json_array_size(b))
		return false;
	for (size_t i = 0; i < n; i++) {
		bool found = false;
		for (size_t k = 0; k < n && !found; k++)
			found = numbers ? same_number(json_array_get(a, i), json_array_get(b, k))
					: json_equal(json_array_get(a, i), json_array_get(b, k));
		if (!found)
			return false;
	}
	return true;
}

static bool same_value(const json_t *a, const json_t *b);

static bool same_map(const json_t *a, const json_t *b)
{
	if (json_object_size(a) != json_object_size(b))
		return false;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)a, k, v)
		if (!json_object_get(b, k) || !same_value(v, json_object_get(b, k)))
			return false;
	return true;
}

static bool same_list(const json_t *a, const json_t *b)
{
	if (json_array_size(a) != json_array_size(b))
		return false;
	for (size_t i = 0; i < json_array_size(a); i++)
		if (!same_value(json_array_get(a, i), json_array_get(b, i)))
			return false;
	return true;
}

/* Whether typed values a and b are one DynamoDB value: a Number by its
 * value, a set in any order, a Map or List member by member. */
static bool same_value(const json_t *a, const json_t *b)
{
	const char *tag;
	json_t *va;
	json_object_foreach((json_t *)a, tag, va) {
		json_t *vb = json_object_get(b, tag);
		if (!vb || json_object_size(b) != 1)
			return false;
		if (!strcmp(tag, "N"))
			return same_number(va, vb);
		if (!strcmp(tag, "SS") || !strcmp(tag, "NS") || !strcmp(tag, "BS"))
			return same_set(va, vb, tag[0] == 'N');
		if (!strcmp(tag, "M"))
			return same_map(va, vb);
		if (!strcmp(tag, "L"))
			return same_list(va, vb);
		return json_equal(va, vb);
	}
	return json_object_size(b) == 0;
}

/* ---- a read's answer compared --------------------------------------------------------- */

static bool returns(const ddbc_request *q, const char *name)
{
	for (size_t i = 0; i < q->nreturns; i++)
		if (!strcmp(q->returns[i].s, name))
			return true;
	return false;
}

/* The attributes a returned item should hold of the written one. */
static bool expected_attr(const pcheck *c, const char *name)
{
	const ddbc_request *q = c->q;
	if (ddbc_index_has_key(&q->table->primary, name))
		return true;
	if (q->nreturns)
		return returns(q, name);
	const ddbc_index *ix = read_index(q);
	return ix->kind == DDBC_INDEX_PRIMARY || ddbc_index_projects(ix, name);
}

/* Notes key under what[attr] ("lacks", "other", "extra"), so that a
 * request reports each attribute once, with how many items and which. */
static void note_attr(json_t *acc, const char *what, const char *attr, const char *key)
{
	json_t *kind = json_object_get(acc, what);
	if (!kind) {
		kind = json_object();
		json_object_set_new(acc, what, kind);
	}
	json_t *keys = json_object_get(kind, attr);
	if (!keys) {
		keys = json_array();
		json_object_set_new(kind, attr, keys);
	}
	json_array_append_new(keys, json_string(key));
}

/* A value that came back otherwise than written; the first of each
 * attribute is kept, to show what came back. */
static void note_other(json_t *acc, const char *attr, const char *key, const json_t *written,
		       const json_t *returned)
{
	note_attr(acc, "other", attr, key);
	json_t *values = json_object_get(acc, "values");
	if (!values) {
		values = json_object();
		json_object_set_new(acc, "values", values);
	}
	if (!json_object_get(values, attr))
		json_object_set_new(values, attr, json_pack("{s:O, s:O}", "written", written,
							    "returned", returned));
}

static void compare_attrs(pcheck *c, json_t *acc, const vitem *w, const json_t *got)
{
	const char *name;
	json_t *v;
	json_object_foreach(w->item, name, v) {
		if (!expected_attr(c, name))
			continue;
		json_t *r = json_object_get(got, name);
		if (!r)
			note_attr(acc, "lacks", name, w->key);
		else if (!same_value(v, r))
			note_other(acc, name, w->key, v, r);
	}
	json_object_foreach((json_t *)got, name, v)
		if (json_object_get(w->item, name) && !expected_attr(c, name))
			note_attr(acc, "extra", name, w->key);
}

/* One difference per attribute that came back otherwise than written. */
static void report_attrs(pcheck *c, json_t *request, json_t *acc)
{
	static const struct { const char *what, *says; } kinds[] = {
		{ "lacks", "come back without '%s'%s: %s" },
		{ "other", "come back with another '%s' than was written%s: %s" },
		{ "extra", "come back with '%s', which %s: %s" },
	};
	for (size_t k = 0; k < 3; k++) {
		const char *attr;
		json_t *keys;
		json_object_foreach(json_object_get(acc, kinds[k].what), attr, keys) {
			strbuf list = STRBUF_INIT, msg = STRBUF_INIT;
			list_keys(&list, keys);
			const char *why = k == 2 ? (c->q->nreturns ? "the pattern does not return"
						    : "the design's index does not project")
				  : k == 0 && c->q->index->kind != DDBC_INDEX_PRIMARY
				  ? " (does the index project it?)" : "";
			ddbc_strbuf_addf(&msg, "%zu item%s ", json_array_size(keys),
				    json_array_size(keys) == 1 ? "" : "s");
			ddbc_strbuf_addf(&msg, kinds[k].says, attr, why, ddbc_strbuf_str(&list));
			json_t *detail = json_pack("{s:s, s:O}", "attribute", attr, "items", keys);
			json_t *vals = json_object_get(json_object_get(acc, "values"), attr);
			if (k == 1 && vals) {
				char *wr = json_dumps(json_object_get(vals, "written"), JSON_COMPACT);
				char *re = json_dumps(json_object_get(vals, "returned"), JSON_COMPACT);
				ddbc_strbuf_addf(&msg, " (the first written %s, returned %s)", wr, re);
				json_object_update(detail, vals);
				free(wr);
				free(re);
			}
			differ(c, request, detail, "%s", ddbc_strbuf_str(&msg));
			ddbc_strbuf_release(&list);
			ddbc_strbuf_release(&msg);
		}
	}
}

/* Notes a returned item of an entity the pattern does not name (under
 * "" for an item of no entity). */
static void note_entity(pcheck *c, json_t *acc, const vitem *w)
{
	if (!w->entity || !names_entity(c->p, w->entity))
		note_attr(acc, "entity", w->entity ? w->entity->name.s : "", w->key);
}

/* One difference per entity returned that the pattern does not name. */
static void report_entities(pcheck *c, json_t *request, json_t *acc)
{
	const char *name;
	json_t *keys;
	json_object_foreach(json_object_get(acc, "entity"), name, keys) {
		strbuf list = STRBUF_INIT;
		list_keys(&list, keys);
		size_t n = json_array_size(keys);
		if (!*name)
			differ(c, request, json_pack("{s:n, s:O}", "entity", "items", keys),
			       "returns %zu item%s of no entity of the design: %s", n,
			       n == 1 ? "" : "s", ddbc_strbuf_str(&list));
		else
			differ(c, request, json_pack("{s:s, s:O}", "entity", name, "items", keys),
			       "returns %zu item%s of entity '%s', which the pattern does not name: "
			       "%s", n, n == 1 ? "" : "s", name, ddbc_strbuf_str(&list));
		ddbc_strbuf_release(&list);
	}
}

/* The units of one component of a ConsumedCapacity ({"CapacityUnits": N}),
 * or -1. */
static double units_of(const json_t *component)
{
	json_t *u = json_object_get(component, "CapacityUnits");
	return json_is_number(u) ? json_number_value(u) : -1;
}

static void capacity_differs(pcheck *c, json_t *request, const char *where, double got,
			     double want, size_t n, bool read)
{
	differ(c, request, json_pack("{s:s, s:f, s:f}", "capacity", where, "consumed", got, "cost",
				     want),
	       "consumes %g %s units on %s; ddbc cost counts %g for the %zu item%s it %s", got,
	       read ? "read" : "write", where, want, n, n == 1 ? "" : "s",
	       read ? "returns" : "writes");
}

/* Each index a ConsumedCapacity names (GlobalSecondaryIndexes,
 * LocalSecondaryIndexes) against the cost model's units of its slot. */
static void compare_indexes(pcheck *c, json_t *request, const json_t *map, const double *want,
			    size_t n, bool read)
{
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)map, name, v) {
		const ddbc_index *ix = ddbc_table_index(c->q->table, name);
		double got = units_of(v);
		if (ix && fabs(got - want[ix->slot]) > 1e-9 && !(got == 0 && n == 0))
			capacity_differs(c, request, name, got, want[ix->slot], n, read);
	}
}

/* The engine's ConsumedCapacity cc against the cost model's units for the
 * items. Each part the engine reports is compared (the table, each index
 * it names; the total when it names none): dynalite reports no index
 * writes, DynamoDB every one. An engine that charges nothing for a read
 * that returns nothing (dynalite; DynamoDB charges the minimum) is let be. */
static void compare_capacity(pcheck *c, json_t *request, const ddbc_cap_item *items, size_t n,
			     const json_t *cc, bool read)
{
	ddbc_pattern_cap cap;
	ddbc_pattern_capacity(c->V->arena, c->p, items, n, &cap);
	const double *want = read ? cap.read : cap.write;
	double total = 0;
	for (size_t s = 0; s < c->q->table->nindexes; s++)
		total += want[s];
	const json_t *table = json_object_get(cc, "Table");
	const json_t *gsi = json_object_get(cc, "GlobalSecondaryIndexes");
	const json_t *lsi = json_object_get(cc, "LocalSecondaryIndexes");
	if (!cc) {
		differ(c, request, NULL, "the answer has no ConsumedCapacity; ddbc cost counts %g "
		       "units", total);
		return;
	}
	if (!table && !gsi && !lsi) {
		double got = units_of(cc);
		if (fabs(got - total) > 1e-9 && !(got == 0 && n == 0))
			capacity_differs(c, request, "the request", got, total, n, read);
		return;
	}
	double got = units_of(table);
	if (table && fabs(got - want[0]) > 1e-9 && !(got == 0 && n == 0))
		capacity_differs(c, request, "the table", got, want[0], n, read);
	compare_indexes(c, request, gsi, want, n, read);
	compare_indexes(c, request, lsi, want, n, read);
}

/* The written items q should return, and their keys. */
static json_t *expected_keys(pcheck *c, const ddbc_key_sent *sent)
{
	json_t *keys = json_object();
	const ddbc_index *ix = read_index(c->q);
	for (size_t i = 0; i < c->V->n; i++) {
		const vitem *w = &c->V->items[i];
		if (w->table == c->q->table && in_index(ix, w->item) && satisfies(c->q, sent, w->item))
			json_object_set_new(keys, w->key, json_integer((json_int_t)i));
	}
	return keys;
}

/* The items missing from what came back, and those it should not hold. */
static void report_keys(pcheck *c, json_t *request, json_t *want, json_t *seen, json_t *extra)
{
	json_t *missing = json_array(), *at;
	const char *key;
	json_object_foreach(want, key, at)
		if (!json_object_get(seen, key))
			json_array_append_new(missing, json_string(key));
	strbuf sb = STRBUF_INIT;
	size_t n = json_array_size(missing);
	if (n) {
		list_keys(&sb, missing);
		differ(c, request, json_pack("{s:O}", "missing", missing),
		       "does not return %zu item%s it should: %s", n, n == 1 ? "" : "s",
		       ddbc_strbuf_str(&sb));
	}
	ddbc_strbuf_reset(&sb);
	if ((n = json_array_size(extra))) {
		list_keys(&sb, extra);
		differ(c, request, json_pack("{s:O}", "unexpected", extra),
		       "returns %zu item%s it should not: %s", n, n == 1 ? "" : "s", ddbc_strbuf_str(&sb));
	}
	ddbc_strbuf_release(&sb);
	json_decref(missing);
}

/* The units of the items a read should return, against the engine's. */
static void read_capacity(pcheck *c, json_t *request, json_t *want, const json_t *consumed)
{
	size_t n = json_object_size(want), k = 0;
	ddbc_cap_item *items = ddbc_xcalloc(n + 1, sizeof(*items));
	const char *key;
	json_t *at;
	json_object_foreach(want, key, at) {
		const vitem *w = &c->V->items[json_integer_value(at)];
		items[k++] = (ddbc_cap_item){ w->entity, w->pval };
	}
	compare_capacity(c, request, items, n, consumed, true);
	free(items);
}

/* Whether every parameter of the request is a value of item w, and each
 * key condition holds for the very value it compares with (=, <=, >=,
 * begins_with): then w itself is among what the request returns. */
static bool names_itself(const pcheck *c, const vitem *w)
{
	for (size_t k = 0; k < c->q->nconds; k++) {
		ddbc_cond_op op = c->q->conds[k].op;
		if (op != DDBC_COND_EQ && op != DDBC_COND_LE && op != DDBC_COND_GE &&
		    op != DDBC_COND_BEGINS_WITH)
			return false;
	}
	for (size_t i = 0; i < c->q->nparams; i++) {
		const ddbc_segment *s = c->q->params[i];
		char *name = ddbc_xstrndup(s->text, s->len);
		bool has = json_object_get(w->values, name) != NULL;
		free(name);
		if (!has)
			return false;
	}
	return c->q->nparams > 0;
}

/* In place, the item the values came from must be what the request finds:
 * a stored item the design's request misses is not in the design's shape
 * (a key rendered from an old template, a value of an old type). */
static void check_source(pcheck *c, json_t *request, json_t *want, const vitem *source)
{
	if (!c->V->o->in_place || !source || !names_itself(c, source) ||
	    json_object_get(want, source->key))
		return;
	differ(c, request, json_pack("{s:s}", "item", source->key),
	       "does not find the item its values came from, %s: its stored keys are not what "
	       "the design renders from its values", source->key);
}

/* What came back, against what the written items say it should be. */
static void compare_read(pcheck *c, json_t *request, const ddbc_key_sent *sent, json_t *got,
			 const json_t *consumed, size_t pages, const vitem *source)
{
	json_t *want = expected_keys(c, sent), *extra = json_array();
	check_source(c, request, want, source);
	json_t *seen = json_object(), *acc = json_object();
	size_t i;
	json_t *item;
	json_array_foreach(got, i, item) {
		char *key = ddbc_verify_item_key(c->q->table, item);
		if (!key) {
			differ(c, request, NULL, "returns an item without the table's key attributes");
			continue;
		}
		json_object_set_new(seen, key, json_true());
		const vitem *w = ddbc_verify_item_find(c->V, c->q->table, key);
		if (!json_object_get(want, key))
			json_array_append_new(extra, json_string(key));
		if (w) {
			note_entity(c, acc, w);
			compare_attrs(c, acc, w, item);
		}
		free(key);
	}
	report_keys(c, request, want, seen, extra);
	report_entities(c, request, acc);
	report_attrs(c, request, acc);
	/* The units of one page: several pages round each on its own. */
	if (c->V->o->capacity && pages == 1)
		read_capacity(c, request, want, consumed);
	c->returned += json_array_size(got);
	json_decref(acc);
	json_decref(want);
	json_decref(extra);
	json_decref(seen);
}

/* ---- requests ------------------------------------------------------------------------- */

/* p's request with parameter values from values (NULL: the design's), as
 * JSON; NULL when the export cannot build it. *sent is what it sends of
 * its key (release it in every case). */
static json_t *build(pcheck *c, const json_t *values, ddbc_query_sent *sent)
{
	size_t n = json_object_size(values), k = 0;
	ddbc_param *params = ddbc_xcalloc(n + 1, sizeof(*params));
	const char *name;
	json_t *v;
	json_object_foreach((json_t *)values, name, v)
		params[k++] = (ddbc_param){ name, json_string_value(v) };
	ddbc_err why = DDBC_ERR_INIT;
	ddbc_export_opts o = { params, k, true, &why };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		ddbc_xalloc_die();
	ddbc_diags d;
	ddbc_diags_init(&d);
	memset(sent, 0, sizeof(*sent));
	ddbc_emit_result r = ddbc_emit_query_input_with(f, c->V->g, c->p, &o, &d, sent);
	fclose(f);
	ddbc_err_print(&why);
	ddbc_err_release(&why);
	ddbc_diags_release(&d);
	free(params);
	json_t *req = r == DDBC_EMIT_OK ? json_loadb(buf, len, 0, NULL) : NULL;
	free(buf);
	if (req)
		json_object_set_new(req, "ReturnConsumedCapacity", json_string("INDEXES"));
	return req;
}

/* A projection names the table's key too, so that each item returned can
 * be told (a read's units do not depend on what it projects). */
static void project_keys(const ddbc_request *q, json_t *req)
{
	const char *expr = json_string_value(json_object_get(req, "ProjectionExpression"));
	if (!expr)
		return;
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, expr);
	const ddbc_index *ix = &q->table->primary;
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		if (returns(q, ddbc_index_key(ix, i)))
			continue;
		json_t *names = json_object_get(req, "ExpressionAttributeNames");
		if (!names) {
			names = json_object();
			json_object_set_new(req, "ExpressionAttributeNames", names);
		}
		strbuf ph = STRBUF_INIT;
		ddbc_strbuf_addf(&ph, "#ddbcKey%zu", i);
		json_object_set_new(names, ddbc_strbuf_str(&ph), json_string(ddbc_index_key(ix, i)));
		ddbc_strbuf_addf(&sb, ", %s", ddbc_strbuf_str(&ph));
		ddbc_strbuf_release(&ph);
	}
	json_object_set_new(req, "ProjectionExpression", json_string(ddbc_strbuf_str(&sb)));
	ddbc_strbuf_release(&sb);
}

/* Whether this request was sent already (two items gave the same values). */
static bool sent_before(pcheck *c, const json_t *req)
{
	char *s = json_dumps(req, JSON_COMPACT | JSON_SORT_KEYS);
	bool seen = json_object_get(c->sent_texts, s) != NULL;
	json_object_set_new(c->sent_texts, s, json_true());
	free(s);
	return seen;
}

typedef struct pages {
	json_t *items;
	json_t *consumed;        /* the last page's ConsumedCapacity */
	size_t n;
} pages;

static int on_page(void *ctx, int segment, json_t *page)
{
	(void)segment;
	pages *pg = ctx;
	json_array_extend(pg->items, json_object_get(page, "Items"));
	json_decref(pg->consumed);
	pg->consumed = json_incref(json_object_get(page, "ConsumedCapacity"));
	pg->n++;
	return 0;
}

/* A failed call: the run stops on no answer, else it is a difference. */
static void call_failed(pcheck *c, json_t *req, const ddbc_dynamo_error *e)
{
	if (e->transport) {
		ddbc_verify_call_error(c->V, op_name(c->q->op), e);
		return;
	}
	differ(c, req, json_pack("{s:s}", "error", e->type), "the engine refuses the request: %s%s%s",
	       e->type, *e->type ? ": " : "", e->message);
}

/* Sends a read, every page of it, into pg; 0, or -1 with *e. */
static int fetch(pcheck *c, json_t *req, pages *pg, ddbc_dynamo_error *e)
{
	json_array_clear(pg->items);
	json_decref(pg->consumed);
	pg->consumed = NULL;
	pg->n = 0;
	if (c->q->op != DDBC_OP_GET)
		return ddbc_dynamo_pages(c->V->client, op_name(c->q->op), req, on_page, pg, e);
	json_t *resp = NULL;
	int rc = ddbc_dynamo_call(c->V->client, "GetItem", req, &resp, e);
	if (rc == 0) {
		json_t *item = json_object_get(resp, "Item");
		if (item)
			json_array_append(pg->items, item);
		pg->consumed = json_incref(json_object_get(resp, "ConsumedCapacity"));
		pg->n = 1;
	}
	json_decref(resp);
	return rc;
}

/* Whether got lacks an item the written items say the read returns. */
static bool misses(pcheck *c, const ddbc_key_sent *sent, const json_t *got)
{
	json_t *want = expected_keys(c, sent);
	size_t i;
	json_t *item;
	json_array_foreach(got, i, item) {
		char *key = ddbc_verify_item_key(c->q->table, item);
		if (key)
			json_object_del(want, key);
		free(key);
	}
	bool missing = json_object_size(want) > 0;
	json_decref(want);
	return missing;
}

static void pause_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* One read with parameter values from values (NULL: the design's), taken
 * from the item source (or none). */
static void send_read(pcheck *c, const json_t *values, const vitem *source)
{
	ddbc_query_sent sent;
	json_t *req = build(c, values, &sent);
	if (!req || sent_before(c, req)) {
		ddbc_query_sent_release(&sent);
		json_decref(req);
		return;
	}
	project_keys(c->q, req);
	c->requests++;
	pages pg = { json_array(), NULL, 0 };
	ddbc_dynamo_error e;
	int rc = fetch(c, req, &pg, &e);
	/* A GSI is updated after the write that feeds it, and an eventually
	 * consistent read may not see the last writes yet: such a read that
	 * misses items is sent again, after a growing pause, before the
	 * difference is the design's. */
	bool eventual = c->q->index->kind == DDBC_INDEX_GSI || !c->q->consistent;
	for (long wait = 200;
	     rc == 0 && eventual && wait <= GSI_WAIT_MS && misses(c, &sent.key, pg.items);
	     wait *= 2) {
		pause_ms(wait);
		rc = fetch(c, req, &pg, &e);
	}
	if (rc < 0)
		call_failed(c, req, &e);
	else
		compare_read(c, req, &sent.key, pg.items, pg.consumed, pg.n, source);
	json_decref(pg.items);
	json_decref(pg.consumed);
	json_decref(req);
	ddbc_query_sent_release(&sent);
}

/* The written items a read takes its parameters from. */
static void reads(pcheck *c)
{
	const ddbc_index *ix = read_index(c->q);
	size_t *cand = ddbc_xcalloc(c->V->n + 1, sizeof(size_t)), n = 0;
	for (size_t i = 0; i < c->V->n; i++) {
		const vitem *w = &c->V->items[i];
		if (w->table == c->q->table && w->entity && matched(c->p, w->entity) &&
		    in_index(ix, w->item))
			cand[n++] = i;
	}
	if (!c->q->nparams || !n) {
		/* nothing to vary: the design's own values */
		send_read(c, NULL, NULL);
	} else {
		for (size_t k = 1; k <= VALUES_PER_PATTERN && k <= n; k++) {
			const vitem *w = &c->V->items[cand[n * k / (VALUES_PER_PATTERN + 1)]];
			send_read(c, w->values, w);
		}
	}
	free(cand);
}

/* ---- writes --------------------------------------------------------------------------- */

/* One write; 0 done, 1 refused by its condition, -1 failed otherwise. */
static int send_write(pcheck *c, json_t *req, json_t **consumed, ddbc_dynamo_error *e)
{
	json_t *resp = NULL;
	c->requests++;
	int rc = ddbc_dynamo_call(c->V->client, op_name(c->q->op), req, &resp, e);
	json_decref(*consumed);
	*consumed = rc == 0 ? json_incref(json_object_get(resp, "ConsumedCapacity")) : NULL;
	json_decref(resp);
	if (rc < 0 && !strcmp(e->type, "ConditionalCheckFailedException"))
		return 1;
	return rc;
}

/* The write sent twice: once it must do, the second time its condition
 * (when it has one) must refuse it. */
static void twice(pcheck *c, json_t *req, const ddbc_entity *e, const ddbc_pval *item)
{
	ddbc_dynamo_error err;
	json_t *consumed = NULL;
	int first = send_write(c, req, &consumed, &err);
	if (first != 0) {
		json_decref(consumed);
		if (first == 1)
			differ(c, req, NULL, "fails its condition the first time, on an item that "
			       "was not there");
		else
			call_failed(c, req, &err);
		return;
	}
	json_t *written = json_object_get(req, "Item");
	if (written)
		json_array_append_new(c->V->puts, json_pack("{s:s, s:O}", "table",
							    c->q->table->name.s, "item", written));
	if (c->V->o->capacity) {
		ddbc_cap_item it = { e, item };
		compare_capacity(c, req, &it, 1, consumed, false);
	}
	int second = send_write(c, req, &consumed, &err);
	if (second < 0)
		call_failed(c, req, &err);
	else if (c->q->condition && second == 0)
		differ(c, req, NULL, "succeeds the second time; its condition '%s' should refuse "
		       "it with ConditionalCheckFailedException", c->q->condition);
	json_decref(consumed);
}

static void put(pcheck *c)
{
	const ddbc_sample *fresh = &c->V->fresh;
	for (size_t i = 0; i < fresh->n; i++) {
		const ddbc_sample_item *s = &fresh->items[i];
		if (!matched(c->p, s->entity))
			continue;
		ddbc_query_sent sent;
		json_t *req = build(c, s->values, &sent);
		ddbc_query_sent_release(&sent);
		json_t *item = json_object_get(req, "Item");
		char *key = item ? ddbc_verify_item_key(c->q->table, item) : NULL;
		if (key && !ddbc_verify_item_find(c->V, c->q->table, key)) {
			twice(c, req, s->entity, ddbc_verify_item_pval(c->V->arena, item));
			free(key);
			json_decref(req);
			return;
		}
		free(key);
		json_decref(req);
	}
	json_object_set_new(c->entry, "note", json_string("no item that was not written gives "
							  "its parameters"));
}

static void delete(pcheck *c)
{
	for (size_t i = c->V->n; i-- > 0;) {
		const vitem *w = &c->V->items[i];
		if (w->table != c->q->table || !w->entity || !matched(c->p, w->entity))
			continue;
		ddbc_query_sent sent;
		json_t *req = build(c, w->values, &sent);
		bool names_it = req && satisfies(c->q, &sent.key, w->item);
		ddbc_query_sent_release(&sent);
		if (names_it)
			twice(c, req, w->entity, w->pval);
		json_decref(req);
		if (names_it)
			return;
	}
	json_object_set_new(c->entry, "note", json_string("no written item gives its parameters"));
}

/* ---- the pattern ---------------------------------------------------------------------- */

static const char *status_of(const pcheck *c)
{
	if (json_array_size(c->diffs))
		return "differs";
	return c->requests ? "ok" : "skipped";
}

void ddbc_verify_pattern(verify_run *V, const ddbc_pattern *p, bool writes)
{
	const ddbc_request *q = ddbc_pattern_request(p);
	if (!q || (q->writes != writes))
		return;
	pcheck c = { V, p, q, json_object(), json_array(), json_object(), 0, 0 };
	if (V->o->in_place && q->writes)
		json_object_set_new(c.entry, "note", json_string("a write is not sent in place: it "
								 "would change the items checked"));
	else if (q->op == DDBC_OP_UPDATE)
		json_object_set_new(c.entry, "note", json_string("an update is not sent: the "
								 "design does not say what it "
								 "changes"));
	else if (q->op == DDBC_OP_PUT)
		put(&c);
	else if (q->op == DDBC_OP_DELETE)
		delete(&c);
	else
		reads(&c);
	if (!c.requests && !json_object_get(c.entry, "note"))
		json_object_set_new(c.entry, "note", json_string("no request could be built"));
	json_object_set_new(c.entry, "pattern", json_string(p->id.s));
	json_object_set_new(c.entry, "operation", json_string(op_name(q->op)));
	json_object_set_new(c.entry, "line", json_integer(p->id.loc.line));
	json_object_set_new(c.entry, "column", json_integer(p->id.loc.column));
	json_object_set_new(c.entry, "status", json_string(status_of(&c)));
	json_object_set_new(c.entry, "requests", json_integer((json_int_t)c.requests));
	json_object_set_new(c.entry, "items", json_integer((json_int_t)c.returned));
	json_object_set_new(c.entry, "differences", c.diffs);
	json_array_append_new(V->report, c.entry);
	json_decref(c.sent_texts);
}
