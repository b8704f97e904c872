/* import_api.c - tables from the DynamoDB API's shapes
 *
 * describe-table output and CloudFormation's table properties both spell a
 * table as CreateTable does: KeySchema, AttributeDefinitions, indexes with
 * Projection, BillingMode and ProvisionedThroughput. This file turns that
 * shape into a design table.
 */
#include "import/import_int.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The names of key schema ks with key type kt: a string for one, a list
 * for a multi-attribute key, NULL for none. A new reference. */
static json_t *key_names(const json_t *ks, const char *kt)
{
	json_t *names = json_array();
	size_t i;
	const json_t *e;
	json_array_foreach(ks, i, e) {
		const json_t *n = json_object_get(e, "AttributeName");
		const char *t = ddbc_import_string_value(json_object_get(e, "KeyType"));
		if (ddbc_import_is_string(n) && t && !strcmp(t, kt))
			json_array_append(names, (json_t *)n);
	}
	json_t *out = NULL;
	if (json_array_size(names) == 1)
		out = json_incref(json_array_get(names, 0));
	else if (json_array_size(names) > 1)
		out = json_incref(names);
	json_decref(names);
	return out;
}

/* Sets partition_key and sort_key of obj from key schema ks; -1 without a
 * partition key. */
static int set_keys(const char *file, const char *what, json_t *obj, const json_t *ks)
{
	json_t *pk = key_names(ks, "HASH"), *sk = key_names(ks, "RANGE");
	if (!pk) {
		json_decref(sk);
		return ddbc_import_fail(file, "%s has no HASH key in its KeySchema", what);
	}
	json_object_set_new(obj, "partition_key", pk);
	if (sk)
		json_object_set_new(obj, "sort_key", sk);
	return 0;
}

static json_t *projection(const json_t *p)
{
	const char *t = ddbc_import_string_value(json_object_get(p, "ProjectionType"));
	if (t && !strcmp(t, "KEYS_ONLY"))
		return json_string("keys_only");
	if (t && !strcmp(t, "INCLUDE")) {
		const json_t *nk = json_object_get(p, "NonKeyAttributes");
		return json_is_array(nk) ? json_deep_copy(nk) : json_array();
	}
	return json_string("all");
}

/* Capacity units: an integer, or a string of decimal digits (a template
 * parameter's value); 0 when absent. Anything else (0x10, 5.0, 1e400, -1)
 * is said and -1, never read as 0: that would make the table on-demand.
 * Why it said -1 is added to why (the run's, until units_fail says it). */

/* The text of number v when it is a whole number of digits too many for
 * an integer here (the readers keep such a number's text), else NULL. */
static const char *whole_text(const json_t *v)
{
	const char *s = ddbc_import_number_text(v);
	if (!s)
		return NULL;
	for (const char *p = *s == '+' ? s + 1 : s; *p; p++)
		if (*p < '0' || *p > '9')
			return NULL;
	return s;
}

static int units_of(const json_t *pt, const char *member, json_int_t *out, strbuf *why)
{
	const json_t *v = json_object_get(pt, member);
	const char *s = ddbc_import_string_text(v);  /* a number's text is not one */
	char *end = NULL;
	errno = 0;
	if (!v)
		*out = 0;
	else if (json_is_integer(v))
		*out = json_integer_value(v);
	else if (s && *s >= '0' && *s <= '9')
		*out = (json_int_t)strtoll(s, &end, 10);
	if (v && (json_is_integer(v) ? *out < 0
		  : !s || !end || *end || errno == ERANGE)) {
		ddbc_strbuf_addf(why, "%s ", member);
		if (s)
			ddbc_strbuf_addf(why, "'%s'", s);
		else if (json_is_integer(v))
			ddbc_strbuf_addf(why, "%lld", (long long)json_integer_value(v));
		else if (whole_text(v)) {
			ddbc_strbuf_addf(why, "%s is more capacity units than DynamoDB allows",
				    whole_text(v));
			return -1;
		} else if (ddbc_import_number_text(v))
			ddbc_strbuf_addf(why, "%s (written as a decimal: 5.0 and 1e3 are read so)",
				    ddbc_import_number_text(v));
		else if (json_is_real(v))
			ddbc_strbuf_addf(why, "%.17g (written as a decimal: 5.0, 0x10 and 1e3 are "
				    "read so)", json_real_value(v));
		else
			ddbc_strbuf_addstr(why, "(not a number)");
		ddbc_strbuf_addstr(why, " is not a whole number of capacity units");
		return -1;
	}
	return 0;
}

/* The capacity of throughput pt into *cap, NULL when it states none
 * (on-demand tables are described with 0 and 0); -1 when a number is not
 * units (why says why). */
static int capacity(const json_t *pt, json_t **cap, strbuf *why)
{
	json_int_t r, w;
	*cap = NULL;
	if (units_of(pt, "ReadCapacityUnits", &r, why) < 0 ||
	    units_of(pt, "WriteCapacityUnits", &w, why) < 0)
		return -1;
	if (r > 0 || w > 0)
		*cap = json_pack("{sIsI}", "read", r, "write", w);
	return 0;
}

/* Says why units_of refused, for what (a table or an index); -1. */
static int units_fail(const char *file, const char *what, strbuf *why)
{
	int rc = ddbc_import_fail(file, "%s: %s", what, ddbc_strbuf_str(why));
	ddbc_strbuf_release(why);
	return rc;
}

static json_t *indexes(ddbc_import_run *run, const char *file, const json_t *list,
		       bool provisioned, bool local)
{
	json_t *out = json_object();
	size_t i;
	const json_t *x;
	json_array_foreach(list, i, x) {
		const char *name = ddbc_import_string_value(json_object_get(x, "IndexName"));
		if (!name) {
			json_decref(out);
			ddbc_import_fail(file, "an index has no IndexName");
			return NULL;
		}
		json_t *ix = json_object();
		if (set_keys(file, name, ix, json_object_get(x, "KeySchema")) < 0) {
			json_decref(ix);
			json_decref(out);
			return NULL;
		}
		if (local)  /* an LSI's partition key is the table's */
			json_object_del(ix, "partition_key");
		json_object_set_new(ix, "projection", projection(json_object_get(x, "Projection")));
		json_t *cap = NULL;
		if (provisioned && !local &&
		    capacity(json_object_get(x, "ProvisionedThroughput"), &cap, &run->why) < 0) {
			units_fail(file, name, &run->why);
			json_decref(ix);
			json_decref(out);
			return NULL;
		}
		if (cap)
			json_object_set_new(ix, "capacity", cap);
		json_object_set_new(out, name, ix);
	}
	return out;
}

/* Whether t is billed per request: its BillingMode (CreateTable, the
 * template), its BillingModeSummary (describe-table), else a described
 * throughput of 0/0, which only on-demand tables show. */
static bool on_demand(ddbc_import_run *run, const json_t *t)
{
	const char *m = ddbc_import_string_value(json_object_get(t, "BillingMode"));
	if (!m)
		m = ddbc_import_string_value(
			json_object_get(json_object_get(t, "BillingModeSummary"), "BillingMode"));
	if (m)
		return !strcmp(m, "PAY_PER_REQUEST");
	const json_t *pt = json_object_get(t, "ProvisionedThroughput");
	json_t *cap = NULL;
	/* Units that are no number are said when the capacity is read. */
	bool zero = pt && capacity(pt, &cap, &run->why) == 0 && !cap;
	ddbc_strbuf_release(&run->why);
	json_decref(cap);
	return zero;
}

static int add_indexes(ddbc_import_run *run, const char *file, const json_t *t, json_t *table,
		       bool provisioned)
{
	static const char *const src[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
	static const char *const dst[] = { "gsi", "lsi" };
	for (int k = 0; k < 2; k++) {
		const json_t *list = json_object_get(t, src[k]);
		if (!json_array_size(list))
			continue;
		json_t *ix = indexes(run, file, list, provisioned, k == 1);
		if (!ix)
			return -1;
		json_object_set_new(table, dst[k], ix);
	}
	return 0;
}

static bool in_schema(const json_t *ks, const char *name)
{
	size_t i;
	const json_t *k;
	json_array_foreach(ks, i, k)
		if (ddbc_import_is_string(json_object_get(k, "AttributeName")) &&
		    !strcmp(ddbc_import_string_value(json_object_get(k, "AttributeName")), name))
			return true;
	return false;
}

/* Whether a key of the table or of one of its indexes is attribute name. */
static bool key_used(const json_t *t, const char *name)
{
	if (in_schema(json_object_get(t, "KeySchema"), name))
		return true;
	static const char *const lists[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
	for (int k = 0; k < 2; k++) {
		size_t i;
		const json_t *x;
		json_array_foreach(json_object_get(t, lists[k]), i, x)
			if (in_schema(json_object_get(x, "KeySchema"), name))
				return true;
	}
	return false;
}

json_t *ddbc_import_api_table(ddbc_import_run *run, const char *file, const json_t *t,
			      json_t **attrs)
{
	if (ddbc_import_check_api(file, t) < 0)
		return NULL;
	json_t *table = json_object();
	if (set_keys(file, "the table", table, json_object_get(t, "KeySchema")) < 0)
		goto fail;
	bool provisioned = !on_demand(run, t);
	json_object_set_new(table, "billing", json_string(provisioned ? "provisioned" : "on_demand"));
	if (provisioned) {
		json_t *cap = NULL;
		if (capacity(json_object_get(t, "ProvisionedThroughput"), &cap, &run->why) < 0) {
			units_fail(file, "the table", &run->why);
			goto fail;
		}
		if (!cap) {
			ddbc_import_fail(file, "a provisioned table without ProvisionedThroughput");
			goto fail;
		}
		json_object_set_new(table, "capacity", cap);
	}
	if (add_indexes(run, file, t, table, provisioned) < 0)
		goto fail;
	*attrs = json_object();
	size_t i;
	const json_t *d;
	json_array_foreach(json_object_get(t, "AttributeDefinitions"), i, d) {
		const json_t *n = json_object_get(d, "AttributeName");
		const json_t *ty = json_object_get(d, "AttributeType");
		if (ddbc_import_is_string(n) && ddbc_import_is_string(ty))
			json_object_set(*attrs, ddbc_import_string_value(n), (json_t *)ty);
		/* CreateTable refuses a definition no key uses: say so, keep it. */
		if (ddbc_import_is_string(n) && !key_used(t, ddbc_import_string_value(n)))
			ddbc_warning("import", "%s: AttributeDefinitions names '%s', which no "
				     "KeySchema uses: CreateTable refuses such a table", file,
				     ddbc_import_string_value(n));
	}
	return table;
fail:
	json_decref(table);
	return NULL;
}

/* The entity holding table t's key attributes, typed by attrs. */
static json_t *key_entity(const char *tname, const json_t *attrs)
{
	json_t *e = json_object(), *a = json_object();
	json_object_set_new(e, "table", json_string(tname));
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)attrs, k, v)
		json_object_set(a, k, (json_t *)v);
	json_object_set_new(e, "attributes", a);
	return e;
}

/* Marks each INCLUDE list of table's indexes that names attributes the
 * source does not type: the source keeps them in the projection but says
 * nothing of their entity, so projection-unknown-attribute would be false.
 * The suppression says why, where the user reads the design. */
static void mark_include_lists(ddbc_import_run *run, json_t *table, const json_t *attrs,
			       const char *source)
{
	static const char *const kinds[] = { "gsi", "lsi" };
	for (int k = 0; k < 2; k++) {
		const char *iname;
		json_t *ix;
		json_object_foreach(json_object_get(table, kinds[k]), iname, ix) {
			const json_t *p = json_object_get(ix, "projection");
			size_t i, untyped = 0;
			const json_t *n;
			json_array_foreach(p, i, n)
				untyped += ddbc_import_is_string(n) &&
					   !json_object_get(attrs, ddbc_import_string_value(n));
			if (untyped)
				ddbc_import_set_comment(run, ix, "projection", "ddbc-ignore: "
					"projection-unknown-attribute -- %s names these "
					"attributes, not their entities or types", source);
		}
	}
}

int ddbc_import_add_key_table(ddbc_import_run *run, const char *file, json_t *design,
			      const char *name,
			      json_t *table, const json_t *attrs, const char *source)
{
	json_t *entities = json_object_get(design, "entities");
	if (json_object_get(entities, name)) {
		json_decref(table);
		return ddbc_import_fail(file, "an entity is already named '%s'", name);
	}
	mark_include_lists(run, table, attrs, source);
	json_object_set_new(json_object_get(design, "tables"), name, table);
	json_object_set_new(entities, name, key_entity(name, attrs));
	ddbc_import_set_comment(run, entities, name, "the table's key attributes: %s names no "
				"entities", source);
	return 0;
}
