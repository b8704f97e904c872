/* import_describe.c - tables from `aws dynamodb describe-table` output
 *
 * One file per table: {"Table": {...}}. What only a live table has (status,
 * sizes, ARNs, timestamps) is left out. describe-table names no entities,
 * so each table gets one entity that declares its key attributes' types,
 * named after the table and marked as such.
 */
#include "import/import_int.h"

#include <string.h>

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

int ddbc_import_describe(const char *file, const json_t *root, json_t *design)
{
	const json_t *t = json_object_get(root, "Table");
	const char *name = json_string_value(json_object_get(t, "TableName"));
	if (!json_is_object(t) || !name)
		return ddbc_import_fail(file, "expected describe-table output, {\"Table\": "
					"{\"TableName\": ...}}");
	json_t *tables = json_object_get(design, "tables");
	json_t *entities = json_object_get(design, "entities");
	if (json_object_get(tables, name))
		return ddbc_import_fail(file, "table '%s' is described twice", name);
	if (json_object_get(entities, name))
		return ddbc_import_fail(file, "an entity is already named '%s'", name);
	json_t *attrs = NULL;
	json_t *table = ddbc_import_api_table(file, t, &attrs);
	if (!table)
		return -1;
	if (!json_is_string(json_object_get(design, "name")))
		json_object_set_new(design, "name", json_string(name));
	json_object_set_new(tables, name, table);
	json_object_set_new(entities, name, key_entity(name, attrs));
	ddbc_import_set_comment(entities, name, "the table's key attributes: describe-table "
				"names no entities");
	json_decref(attrs);
	return 0;
}
