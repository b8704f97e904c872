/* emit_workbench.c - the design as a NoSQL Workbench data model (v3.0)
 *
 * One DataModel entry per table, one facet per entity, the example items
 * as the table's TableData in DynamoDB JSON. Workbench keeps no key
 * templates: a facet's key aliases carry the entity's table-key templates
 * (the attribute's name when it has none), so `ddbc import --from
 * workbench` gets them back. Descriptions, formats and access patterns
 * have no place in a model and are left out. Local secondary indexes are
 * written as Workbench v2.0/v3.0 models hold them (LocalSecondaryIndexes,
 * shaped as the GSIs are). Workbench models hold one attribute per key: a
 * design with a multi-attribute key is refused, saying which index.
 */
#include "emit/emit.h"
#include "util/error.h"
#include "emit/emit_json.h"
#include "model/semantics.h"

#include <string.h>

static json_t *key_attr(const ddbc_table *t, const char *name)
{
	return json_pack("{s:s,s:s}", "AttributeName", name, "AttributeType",
			 ddbc_type_short(ddbc_json_key_type(t, name)));
}

static json_t *key_attributes(const ddbc_table *t, const ddbc_index *ix)
{
	json_t *k = json_pack("{s:o}", "PartitionKey", key_attr(t, ix->pk[0].s));
	if (ix->nsk)
		json_object_set_new(k, "SortKey", key_attr(t, ix->sk[0].s));
	return k;
}

static bool is_table_key(const ddbc_table *t, const char *name)
{
	return ddbc_index_has_key(&t->primary, name);
}

/* Every stored attribute of the table's entities but its keys, typed by
 * the first entity that has it. */
static json_t *non_key_attributes(const ddbc_table *t)
{
	json_t *list = json_array(), *seen = json_object();
	for (size_t e = 0; e < t->nentities; e++) {
		const ddbc_entity *en = t->entities[e];
		for (size_t i = 0; i < en->nattrs; i++) {
			const ddbc_attr *a = &en->attrs[i];
			if (!ddbc_attr_stored(a) || is_table_key(t, a->name.s) ||
			    json_object_get(seen, a->name.s))
				continue;
			json_object_set_new(seen, a->name.s, json_true());
			json_array_append_new(list, json_pack("{s:s,s:s}", "AttributeName",
				a->name.s, "AttributeType", ddbc_type_short(a->type)));
		}
	}
	json_decref(seen);
	return list;
}

/* The alias of key attribute name in entity en: its template, else its name. */
static json_t *alias(const ddbc_entity *en, const char *name)
{
	const ddbc_attr *a = ddbc_entity_attr(en, name);
	return json_string(a && a->template.s ? a->template.s : name);
}

static json_t *facet(const ddbc_table *t, const ddbc_entity *en)
{
	json_t *al = json_pack("{s:o}", "PartitionKeyAlias", alias(en, t->primary.pk[0].s));
	if (t->primary.nsk)
		json_object_set_new(al, "SortKeyAlias", alias(en, t->primary.sk[0].s));
	json_t *names = json_array();
	for (size_t i = 0; i < en->nattrs; i++)
		if (ddbc_attr_stored(&en->attrs[i]) && !is_table_key(t, en->attrs[i].name.s))
			json_array_append_new(names, json_string(en->attrs[i].name.s));
	return json_pack("{s:s,s:o,s:[],s:o,s:{s:{}}}", "FacetName", en->name.s,
			 "KeyAttributeAlias", al, "TableData", "NonKeyAttributes", names,
			 "DataAccess", "MySql");
}

/* The model's list of n indexes ix (GSIs or LSIs). */
static json_t *indexes(const ddbc_table *t, const ddbc_index *ix, size_t n)
{
	json_t *list = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *x = ddbc_json_secondary_index(t, &ix[i]);
		json_t *g = json_pack("{s:O,s:o,s:O}", "IndexName", json_object_get(x, "IndexName"),
				      "KeyAttributes", key_attributes(t, &ix[i]),
				      "Projection", json_object_get(x, "Projection"));
		json_decref(x);
		json_array_append_new(list, g);
	}
	return list;
}

/* The table's example items in DynamoDB JSON, typed by their entities. */
static json_t *table_data(const ddbc_table *t)
{
	json_t *items = json_array();
	for (size_t e = 0; e < t->nentities; e++) {
		const ddbc_entity *en = t->entities[e];
		for (size_t x = 0; x < en->nexamples; x++) {
			json_t *item = json_object();
			ddbc_pval_iter it = ddbc_pval_members(en->examples[x]);
			const ddbc_pval *key, *v;
			while (ddbc_pval_pair(&it, &key, &v)) {
				const char *k = ddbc_pval_text(key);
				const ddbc_attr *a = ddbc_entity_attr(en, k);
				json_object_set_new(item, k, ddbc_json_attr_value(v, a ? a->type
										  : DDBC_TYPE_NONE));
			}
			json_array_append_new(items, item);
		}
	}
	return items;
}

static json_t *model_table(const ddbc_table *t)
{
	json_t *o = json_pack("{s:s,s:o,s:o}", "TableName", t->name.s, "KeyAttributes",
			      key_attributes(t, &t->primary), "NonKeyAttributes",
			      non_key_attributes(t));
	json_t *facets = json_array();
	for (size_t e = 0; e < t->nentities; e++)
		json_array_append_new(facets, facet(t, t->entities[e]));
	json_object_set_new(o, "TableFacets", facets);
	if (t->ngsi)
		json_object_set_new(o, "GlobalSecondaryIndexes", indexes(t, t->gsi, t->ngsi));
	if (t->nlsi)
		json_object_set_new(o, "LocalSecondaryIndexes", indexes(t, t->lsi, t->nlsi));
	json_object_set_new(o, "TableData", table_data(t));
	json_object_set_new(o, "DataAccess", json_pack("{s:{}}", "MySql"));
	bool prov = t->billing == DDBC_BILLING_PROVISIONED && t->capacity.set;
	json_object_set_new(o, "BillingMode", json_string(prov ? "PROVISIONED"
								  : "PAY_PER_REQUEST"));
	if (prov)
		json_object_set_new(o, "ProvisionedCapacitySettings", json_pack("{s:o}",
			"ProvisionedThroughput", ddbc_json_throughput(&t->capacity)));
	return o;
}

/* Whether t fits a model; adds why not to err. */
static bool fits(const ddbc_table *t, ddbc_err *err)
{
	const char *why = NULL, *ix = NULL;
	for (size_t i = 0; i < t->ngsi && !why; i++)
		if (t->gsi[i].npk > 1 || t->gsi[i].nsk > 1)
			why = "a key of several attributes", ix = t->gsi[i].name.s;
	if (why)
		ddbc_err_add(err, NULL, "table '%s' has %s ('%s'), which a NoSQL Workbench "
			     "model cannot hold", t->name.s, why, ix);
	return !why;
}

ddbc_emit_result ddbc_emit_workbench(FILE *out, const ddbc_design *g,
				     const ddbc_export_opts *o, ddbc_diags *d)
{
	(void)d;
	for (size_t i = 0; i < g->ntables; i++)
		if (!fits(&g->tables[i], o ? o->err : NULL))
			return DDBC_EMIT_FAILED;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_stream_layout(&s, o);
	ddbc_json_begin(&s, NULL, '{');
	ddbc_json_text(&s, "ModelName", g->name.s);
	/* No dates: one design always gives the same bytes. */
	ddbc_json_member(&s, "ModelMetadata", json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}",
		"Author", "", "DateCreated", "", "DateLastModified", "", "Description",
		g->description ? g->description : "", "AWSService", "Amazon DynamoDB",
		"Version", "3.0"));
	ddbc_json_begin(&s, "DataModel", '[');
	for (size_t i = 0; i < g->ntables; i++)
		ddbc_json_member(&s, NULL, model_table(&g->tables[i]));
	ddbc_json_end(&s, ']');
	ddbc_json_end(&s, '}');
	return ddbc_json_stream_finish(&s, o ? o->err : NULL);
}
