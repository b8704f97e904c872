/* import_describe.c - tables from `aws dynamodb describe-table` output
 *
 * One file per table: {"Table": {...}}, or the {"TableDescription": {...}}
 * that create-table, update-table and delete-table print. What only a live table has (status,
 * sizes, ARNs, timestamps) is left out. describe-table names no entities,
 * so each table gets one entity that declares its key attributes' types,
 * named after the table and marked as such.
 *
 * describe-table says nothing of TTL; describe-time-to-live's answer does,
 * and a file may hold its TimeToLiveDescription beside "Table" (as
 * `ddbc diff --live` writes them, or `jq -s add` of the two outputs).
 */
#include "import/import_int.h"

#include <string.h>

/* TTL on (or being switched on): the table's ttl, a Number as DynamoDB
 * expires items only by one. */
static void add_ttl(const json_t *root, json_t *table, json_t *attrs)
{
	const json_t *d = json_object_get(root, "TimeToLiveDescription");
	const char *status = ddbc_import_string_value(json_object_get(d, "TimeToLiveStatus"));
	const char *a = ddbc_import_string_value(json_object_get(d, "AttributeName"));
	if (!a || !status || (strcmp(status, "ENABLED") != 0 && strcmp(status, "ENABLING") != 0))
		return;
	json_object_set_new(table, "ttl", json_string(a));
	if (!json_object_get(attrs, a))
		json_object_set_new(attrs, a, json_string("N"));
}

int ddbc_import_describe(const char *file, const json_t *root, json_t *design)
{
	const json_t *t = json_object_get(root, "Table");
	if (!t)
		t = json_object_get(root, "TableDescription");
	const char *name = ddbc_import_string_value(json_object_get(t, "TableName"));
	if (!json_is_object(t) || !name)
		return ddbc_import_fail(file, "expected describe-table output, {\"Table\": "
					"{\"TableName\": ...}} (or create-table's "
					"{\"TableDescription\": ...})");
	if (json_object_get(json_object_get(design, "tables"), name))
		return ddbc_import_fail(file, "table '%s' is described twice", name);
	json_t *attrs = NULL;
	json_t *table = ddbc_import_api_table(file, t, &attrs);
	if (!table)
		return -1;
	add_ttl(root, table, attrs);
	if (!ddbc_import_is_string(json_object_get(design, "name")))
		json_object_set_new(design, "name", json_string(name));
	int rc = ddbc_import_add_key_table(file, design, name, table, attrs, "describe-table");
	json_decref(attrs);
	return rc;
}
