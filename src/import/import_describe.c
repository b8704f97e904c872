/* import_describe.c - tables from `aws dynamodb describe-table` output
 *
 * One file per table: {"Table": {...}}, or the {"TableDescription": {...}}
 * that create-table, update-table and delete-table print. What only a live table has (status,
 * sizes, ARNs, timestamps) is left out. describe-table names no entities,
 * so each table gets one entity that declares its key attributes' types,
 * named after the table and marked as such.
 */
#include "import/import_int.h"
#include "util/strbuf.h"

#include <stdio.h>


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
	strbuf lost = STRBUF_INIT;
	ddbc_import_described_settings(t, table, &lost);
	if (lost.len)
		fprintf(stderr, "ddbc import: %s: table '%s': not kept: %s\n", file, name,
			strbuf_str(&lost));
	strbuf_release(&lost);
	if (!ddbc_import_is_string(json_object_get(design, "name")))
		json_object_set_new(design, "name", json_string(name));
	int rc = ddbc_import_add_key_table(file, design, name, table, attrs, "describe-table");
	json_decref(attrs);
	return rc;
}
