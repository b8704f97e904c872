/* import_workbench.c - designs from NoSQL Workbench data models
 *
 * A model (v3.0, or v1.0 without AWSService and billing) lists tables in
 * DataModel: KeyAttributes, NonKeyAttributes with types, GSIs, TableFacets
 * and sample items (TableData, per table or, in older models, per facet).
 * Each facet becomes an entity. A facet's key alias is a display label,
 * unless it is a template (ddbc's own export writes them so); otherwise
 * key templates are recovered from the facet's sample keys.
 */
#include "import/import_int.h"
#include "import/import_wb.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Sets obj[member] to attribute a's name ({"AttributeName": ...}); returns
 * the name, or NULL when a has none. Adds the type to types. */
static const char *take_key(json_t *obj, const char *member, const json_t *a, json_t *types)
{
	const char *n = ddbc_import_string_value(json_object_get(a, "AttributeName"));
	const json_t *t = json_object_get(a, "AttributeType");
	if (!n)
		return NULL;
	json_object_set_new(obj, member, json_string(n));
	if (ddbc_import_is_string(t))
		json_object_set(types, n, (json_t *)t);
	return n;
}

/* The names of an index's INCLUDE list but the table's or the index's
 * keys (keys), which every index projects (Workbench lists them). */
static json_t *include_list(const json_t *nk, const json_t *keys)
{
	json_t *out = json_array();
	size_t i, j;
	const json_t *v, *k;
	json_array_foreach(nk, i, v) {
		bool key = false;
		json_array_foreach(keys, j, k)
			key = key || json_equal((json_t *)v, (json_t *)k);
		if (!key && ddbc_import_is_string(v))
			json_array_append(out, (json_t *)v);
	}
	return out;
}

/* The projection of a model index; keys are the names every index projects. */
static json_t *index_projection(const json_t *x, const json_t *keys)
{
	const json_t *p = json_object_get(x, "Projection");
	const char *pt = ddbc_import_string_value(json_object_get(p, "ProjectionType"));
	const json_t *nk = json_object_get(p, "NonKeyAttributes");
	json_t *proj = pt && !strcmp(pt, "KEYS_ONLY") ? json_string("keys_only")
		     : pt && !strcmp(pt, "INCLUDE") ? include_list(nk, keys)
		     : json_string("all");
	/* An INCLUDE of the keys alone stays as written: it holds what
	 * keys_only would, but a table made from the model says INCLUDE, and
	 * so must the design's export, or the two drift apart. */
	if (json_is_array(proj) && !json_array_size(proj)) {
		json_decref(proj);
		proj = include_list(nk, NULL);
	}
	if (json_is_array(proj) && !json_array_size(proj)) {
		json_decref(proj);
		proj = json_string("keys_only");
	}
	return proj;
}

/* An index's key attribute (which "PartitionKey" or "SortKey"): as
 * Workbench writes a GSI's, under KeyAttributes, or as CreateTable and
 * describe-table write one, a KeySchema element of KeyType HASH or RANGE
 * (its type is then the table's, from its attributes). No public model
 * holding an LSI has shown which of the two Workbench writes for LSIs, so
 * both are read. NULL when the index has neither. */
static const json_t *index_key(const json_t *x, const char *which)
{
	const json_t *ka = json_object_get(x, "KeyAttributes");
	if (ka)
		return json_object_get(ka, which);
	const char *type = strcmp(which, "PartitionKey") ? "RANGE" : "HASH";
	size_t i;
	const json_t *e;
	json_array_foreach(json_object_get(x, "KeySchema"), i, e) {
		const char *kt = ddbc_import_string_value(json_object_get(e, "KeyType"));
		if (kt && !strcmp(kt, type))
			return e;
	}
	return NULL;
}

/* The GSIs (local false) or LSIs (local true, v2.0/v3.0 models) of model
 * table t; an LSI's partition key is the table's, so only its sort key is
 * written. */
static int add_indexes(const char *file, const json_t *t, json_t *table, json_t *types,
		       json_t *keys, bool local)
{
	const char *list = local ? "LocalSecondaryIndexes" : "GlobalSecondaryIndexes";
	json_t *out = json_object();
	size_t i;
	const json_t *x;
	json_array_foreach(json_object_get(t, list), i, x) {
		const char *name = ddbc_import_string_value(json_object_get(x, "IndexName"));
		json_t *ix = json_object();
		const char *pk = take_key(ix, "partition_key", index_key(x, "PartitionKey"), types);
		const char *sk = take_key(ix, "sort_key", index_key(x, "SortKey"), types);
		if (!name || (!pk && !local) || (local && !sk)) {
			json_decref(ix);
			json_decref(out);
			return ddbc_import_fail(file, "%s[%zu] of table '%s': no IndexName or %s "
						"(KeyAttributes.%s, or KeySchema's %s)", list, i,
						ddbc_import_string_text(json_object_get(t, "TableName")),
						local ? "sort key" : "partition key",
						local ? "SortKey" : "PartitionKey",
						local ? "RANGE" : "HASH");
		}
		if (local)
			json_object_del(ix, "partition_key");
		else
			json_array_append_new(keys, json_string(pk));
		if (sk)
			json_array_append_new(keys, json_string(sk));
		json_object_set_new(ix, "projection", index_projection(x, keys));
		if (json_object_get(out, name)) {
			json_decref(ix);
			json_decref(out);
			return ddbc_import_fail(file, "table '%s' has two indexes named '%s'",
						ddbc_import_string_value(json_object_get(t, "TableName")),
						name);
		}
		json_object_set_new(out, name, ix);
	}
	if (json_object_size(out))
		json_object_set_new(table, local ? "lsi" : "gsi", out);
	else
		json_decref(out);
	return 0;
}

static void add_billing(const json_t *t, json_t *table)
{
	const char *m = ddbc_import_string_value(json_object_get(t, "BillingMode"));
	if (!m)  /* v1.0 models say nothing of billing */
		return;
	if (strcmp(m, "PROVISIONED")) {
		json_object_set_new(table, "billing", json_string("on_demand"));
		return;
	}
	const json_t *pt = json_object_get(json_object_get(t, "ProvisionedCapacitySettings"),
					   "ProvisionedThroughput");
	json_object_set_new(table, "billing", json_string("provisioned"));
	json_object_set_new(table, "capacity", json_pack("{sIsI}",
		"read", json_integer_value(json_object_get(pt, "ReadCapacityUnits")),
		"write", json_integer_value(json_object_get(pt, "WriteCapacityUnits"))));
}

/* The table of model table t; fills types (name -> type) and keys (every
 * key attribute's name). NULL after saying why. */
static json_t *read_table(const char *file, const json_t *t, json_t *types, json_t *keys)
{
	json_t *table = json_object();
	const json_t *ka = json_object_get(t, "KeyAttributes");
	const char *pk = take_key(table, "partition_key", json_object_get(ka, "PartitionKey"),
				  types);
	const char *sk = take_key(table, "sort_key", json_object_get(ka, "SortKey"), types);
	if (!pk) {
		json_decref(table);
		ddbc_import_fail(file, "table '%s' has no partition key",
				 ddbc_import_string_value(json_object_get(t, "TableName")));
		return NULL;
	}
	json_array_append_new(keys, json_string(pk));
	if (sk)
		json_array_append_new(keys, json_string(sk));
	add_billing(t, table);
	if (add_indexes(file, t, table, types, keys, false) < 0 ||
	    add_indexes(file, t, table, types, keys, true) < 0) {
		json_decref(table);
		return NULL;
	}
	size_t i;
	const json_t *a;
	json_array_foreach(json_object_get(t, "NonKeyAttributes"), i, a) {
		const char *n = ddbc_import_string_value(json_object_get(a, "AttributeName"));
		const json_t *ty = json_object_get(a, "AttributeType");
		if (n && ddbc_import_is_string(ty))
			json_object_set(types, n, (json_t *)ty);
	}
	return table;
}

/* Appends the plain items of DynamoDB JSON list data to items; an item
 * that is not valid DynamoDB JSON is left out with a warning naming it,
 * the facet it would belong to (where) and the attribute path. Each
 * source item is dropped from data once read (nothing reads it again):
 * the items are most of a model, and without this the model's tree and
 * the design's would both be held whole at the peak. */
void ddbc_import_wb_items(ddbc_import_run *run, const char *file, const char *where,
			  json_t *data, json_t *items, json_t *evidence)
{
	json_t *pre = ddbc_import_wb_take(run, data);
	size_t i;
	const json_t *d;
	json_array_foreach(pre, i, d) {   /* read already: a plain item's text, or why not */
		if (json_is_string(d)) {
			json_array_append(items, (json_t *)d);   /* parsed when used */
			continue;
		}
		ddbc_warning("import", "%s: %s, sample item %zu: %s: left out",
			     file, where, i + 1, json_string_value(json_object_get(d, "why")));
		if (json_object_get(d, "part"))
			json_array_append(evidence, json_object_get(d, "part"));
	}
	json_decref(pre);
	strbuf why = STRBUF_INIT;
	json_array_foreach(data, i, d) {
		json_t *p = ddbc_import_plain_item_why(d, &why);
		json_t *part = p ? NULL : ddbc_import_plain_part(d);
		if (p)
			json_array_append_new(items, p);
		else
			ddbc_warning("import", "%s: %s, sample item %zu: %s: left out",
				     file, where, i + 1, ddbc_strbuf_str(&why));
		if (part)
			json_array_append_new(evidence, part);
		json_array_set_new(data, i, json_null());
	}
	ddbc_strbuf_release(&why);
}

/* settled: as in struct wb_table. */
json_t *ddbc_import_wb_item_trees(const json_t *items, bool copy)
{
	json_t *trees = json_array();
	size_t i;
	const json_t *d;
	json_array_foreach(items, i, d) {
		if (json_is_string(d))
			json_array_append_new(trees, json_loadb(json_string_value(d),
								json_string_length(d), 0, NULL));
		else
			json_array_append_new(trees, copy ? json_deep_copy(d) : json_incref((json_t *)d));
	}
	return trees;
}

json_t *ddbc_import_wb_item_tree(const json_t *item)
{
	return json_is_string(item) ? json_loadb(json_string_value(item),
						  json_string_length(item), 0, NULL)
				    : json_incref((json_t *)item);
}

static int read_model_table(ddbc_import_run *run, const char *file, const json_t *t,
			    json_t *design, char **settled)
{
	const char *tname = ddbc_import_string_value(json_object_get(t, "TableName"));
	if (!tname)
		return ddbc_import_fail(file, "a table of DataModel has no TableName");
	json_t *tables = json_object_get(design, "tables");
	if (json_object_get(tables, tname))
		return ddbc_import_fail(file, "table '%s' appears twice", tname);
	json_t *types = json_object(), *keys = json_array(), *items = json_array();
	json_t *evidence = json_array();
	json_t *table = read_table(file, t, types, keys);
	int rc = -1;
	if (!table)
		goto out;
	strbuf where = STRBUF_INIT;
	ddbc_strbuf_addf(&where, "table '%s'", tname);
	ddbc_import_wb_items(run, file, ddbc_strbuf_str(&where), json_object_get(t, "TableData"), items,
			     evidence);
	ddbc_strbuf_release(&where);
	json_object_set(tables, tname, table);
	struct wb_table w = { run, file, tname, t, table, types, keys, items, evidence, settled };
	rc = ddbc_import_wb_entities(&w, design);
out:
	json_decref(table);
	json_decref(types);
	json_decref(keys);
	json_decref(items);
	json_decref(evidence);
	return rc;
}

int ddbc_import_workbench(ddbc_import_run *run, const char *file, const json_t *root,
			  json_t *design)
{
	/* Types first, so no reader meets a value of the wrong type. */
	if (ddbc_import_check_workbench(file, root) < 0)
		return -1;
	bool settle = run->settle;
	const json_t *dm = json_object_get(root, "DataModel");
	if (!json_is_array(dm))
		return ddbc_import_fail(file, "expected a NoSQL Workbench data model, an object "
					"with a DataModel list");
	const char *name = ddbc_import_string_value(json_object_get(root, "ModelName"));
	if (name && !ddbc_import_is_string(json_object_get(design, "name")))
		json_object_set_new(design, "name", json_string(name));
	size_t i;
	const json_t *t;
	char *last = NULL;
	int rc = 0;
	json_array_foreach(dm, i, t) {
		size_t mark = ddbc_import_comments_mark(run);
		rc = read_model_table(run, file, t, design, settle ? &last : NULL);
		if (rc < 0)
			break;
		/* The table's entities are complete: their text is smaller. */
		if (settle)
			ddbc_import_wb_settle(run, design, &last, mark);
	}
	free(last);
	return rc;
}
