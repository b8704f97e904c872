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
 *
 * The table files teams keep most are CreateTable requests, the shape
 * `aws dynamodb create-table --cli-input-json file://t.json` reads: the
 * table's members at the top (TableName, KeySchema, AttributeDefinitions,
 * ...), no wrapper. They are read as the same table; so is a JSON array of
 * them, which `ddbc export --format create-table` writes.
 */
#include "import/import_int.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdio.h>

#include <stdbool.h>
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

/* Point-in-time recovery as DescribeContinuousBackups' answer, beside
 * "Table", tells it (`ddbc diff --live` writes it there): on, with its
 * recovery period. Off is the design's default, written as nothing. */
static void add_pitr(const json_t *root, json_t *table)
{
	const json_t *d = json_object_get(json_object_get(root, "ContinuousBackupsDescription"),
					  "PointInTimeRecoveryDescription");
	const char *status = ddbc_import_string_value(json_object_get(d, "PointInTimeRecoveryStatus"));
	if (!status || (strcmp(status, "ENABLED") != 0 && strcmp(status, "ENABLING") != 0))
		return;
	json_t *pitr = json_pack("{s:b}", "enabled", 1);
	const json_t *days = json_object_get(d, "RecoveryPeriodInDays");
	if (json_is_integer(days))
		json_object_set_new(pitr, "recovery_days", json_integer(json_integer_value(days)));
	json_object_set_new(table, "pitr", pitr);
}

/* Whether t reads as a CreateTable request: a table's own members at its
 * top (TableName and KeySchema), no describe-table wrapper. */
static bool create_table_request(const json_t *t)
{
	return json_is_object(t) && json_object_get(t, "TableName") &&
	       json_object_get(t, "KeySchema") && !json_object_get(t, "Table") &&
	       !json_object_get(t, "TableDescription");
}

static int fail_shape(const char *file, const char *where)
{
	return ddbc_import_fail(file, "%sexpected describe-table output, {\"Table\": "
				"{\"TableName\": ...}} (or create-table's {\"TableDescription\": "
				"...}), or a CreateTable request, {\"TableName\": ..., \"KeySchema\": "
				"...} (--cli-input-json), or a JSON array of those requests",
				where);
}

/* Adds table object t (described, or requested) to design; root is the
 * object that may hold t's TimeToLiveDescription beside it. */
static int add_table(ddbc_import_run *run, const char *file, const json_t *root,
		     const json_t *t, json_t *design)
{
	const char *name = ddbc_import_string_value(json_object_get(t, "TableName"));
	if (json_object_get(json_object_get(design, "tables"), name))
		return ddbc_import_fail(file, "table '%s' is described twice", name);
	json_t *attrs = NULL;
	json_t *table = ddbc_import_api_table(run, file, t, &attrs);
	if (!table)
		return -1;
	add_ttl(root, table, attrs);
	add_pitr(root, table);
	strbuf lost = STRBUF_INIT;
	ddbc_import_described_settings(t, table, &lost);
	ddbc_import_answered_settings(root, t, table, &lost);
	if (lost.len)
		ddbc_warning("import", "%s: table '%s': not kept: %s", file, name,
			     ddbc_strbuf_str(&lost));
	ddbc_strbuf_release(&lost);
	if (!ddbc_import_is_string(json_object_get(design, "name")))
		json_object_set_new(design, "name", json_string(name));
	int rc = ddbc_import_add_key_table(run, file, design, name, table, attrs, "describe-table");
	json_decref(attrs);
	return rc;
}

/* Every element of a JSON array of CreateTable requests, in its order. */
static int add_requests(ddbc_import_run *run, const char *file, const json_t *list,
			json_t *design)
{
	if (!json_array_size(list))
		return fail_shape(file, "an empty array: ");
	size_t i;
	const json_t *t;
	/* Every element's shape first: a list that holds something else is
	 * said so, before what a request holds. */
	json_array_foreach(list, i, t) {
		if (!create_table_request(t) ||
		    !ddbc_import_string_value(json_object_get(t, "TableName"))) {
			char where[64];
			snprintf(where, sizeof(where), "[%zu]: ", i);
			return fail_shape(file, where);
		}
	}
	json_array_foreach(list, i, t)
		if (add_table(run, file, t, t, design) < 0)
			return -1;
	return 0;
}

int ddbc_import_describe(ddbc_import_run *run, const char *file, const json_t *root,
			 json_t *design)
{
	if (json_is_array(root))
		return add_requests(run, file, root, design);
	const json_t *t = create_table_request(root) ? root : json_object_get(root, "Table");
	if (!t)
		t = json_object_get(root, "TableDescription");
	if (!json_is_object(t) || !ddbc_import_string_value(json_object_get(t, "TableName")))
		return fail_shape(file, "");
	return add_table(run, file, root, t, design);
}
