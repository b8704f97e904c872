/* import_check.c - the type of every value a reader uses, checked first
 *
 * A source file is JSON anyone can write: a key that is a number where a
 * name belongs, a list where an object does. Before a reader looks at a
 * file, its values are checked against the shape the reader expects (a
 * table of paths and types below), so a reader never meets a value of the
 * wrong type, and the message names where the bad value is.
 *
 * A path is member names joined by '.'; "[]" after a name is each element
 * of that list, "*" each member of an object. A member that is absent is
 * no error here: the readers say what is missing.
 */
#include "import/import_int.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <string.h>

typedef enum {
	T_OBJECT, T_LIST, T_STRING, T_NAMES, T_STRINGS, T_BOOL, T_NUMBER, T_SCALAR,
	T_UNITS,
} want;

typedef struct {
	const char *path;
	want type;
} shape;

static const char *const wanted[] = {
	[T_OBJECT] = "an object", [T_LIST] = "a list", [T_STRING] = "a string",
	[T_NAMES] = "a name or a list of names", [T_STRINGS] = "a list of strings",
	[T_BOOL] = "true or false", [T_NUMBER] = "a number",
	[T_SCALAR] = "a string or a number",
	[T_UNITS] = "a whole number of capacity units",
};

static bool strings(const json_t *v)
{
	size_t i;
	const json_t *e;
	if (!json_is_array(v))
		return false;
	json_array_foreach(v, i, e)
		if (!ddbc_import_is_string(e))
			return false;
	return true;
}

static bool fits(const json_t *v, want t)
{
	switch (t) {
	case T_OBJECT: return json_is_object(v);
	case T_LIST: return json_is_array(v);
	case T_STRING: return ddbc_import_is_string(v);
	case T_NAMES: return ddbc_import_is_string(v) || (strings(v) && json_array_size(v));
	case T_STRINGS: return strings(v);
	case T_BOOL: return json_is_boolean(v);
	case T_NUMBER: return json_is_number(v) || ddbc_import_number_text(v);
	case T_SCALAR: return json_is_string(v) || json_is_number(v) || ddbc_import_number_text(v);
	case T_UNITS: return json_is_integer(v) && json_integer_value(v) >= 0;
	}
	return false;
}

static const char *found(const json_t *v)
{
	size_t i;
	const json_t *e;
	json_array_foreach(v, i, e)
		if (!ddbc_import_is_string(e))
			return json_is_number(e) || ddbc_import_number_text(e)
				       ? "a list holding a number"
				       : "a list holding something other than strings";
	if (ddbc_import_number_text(v))
		return "a decimal number";
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "a list";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "a number";
	case JSON_REAL: return "a decimal number";
	case JSON_TRUE: case JSON_FALSE: return "true or false";
	case JSON_NULL: return "null";
	}
	return "something else";
}

/* Where a value is: the member or element of the value one step up.
 * Kept on the stack as walk descends and written out only for a
 * message, so a value that fits costs no text. */
struct step {
	const struct step *up;
	const char *name;    /* a member's name (quoted when any), or NULL */
	size_t len;
	bool quoted;         /* a member of an object of any names ("*") */
	size_t index;        /* an element's index, when name is NULL */
};

static void where(strbuf *b, const struct step *s)
{
	if (!s)
		return;
	where(b, s->up);
	if (!s->name) {
		ddbc_strbuf_addf(b, "[%zu]", s->index);
		return;
	}
	if (b->len)
		ddbc_strbuf_addch(b, '.');
	if (s->quoted)
		ddbc_strbuf_addch(b, '\'');
	ddbc_strbuf_add(b, s->name, s->len);
	if (s->quoted)
		ddbc_strbuf_addch(b, '\'');
}

/* Says where v is and what it is instead of t; -1. A part only asked
 * whether it fits (ddbc_import_wb_facet_fits) has no file: nothing is
 * said then. */
static int misfit(const char *file, const json_t *v, want t, const struct step *at)
{
	if (!file)
		return -1;
	strbuf b = STRBUF_INIT;
	where(&b, at);
	int rc;
	if (ddbc_import_number_text(v))  /* as written: 5.0, 1e3, 21 digits */
		rc = ddbc_import_fail(file, "%s is the number %s, expected %s", ddbc_strbuf_str(&b),
				      ddbc_import_number_text(v), wanted[t]);
	else
		rc = ddbc_import_fail(file, "%s is %s, expected %s", ddbc_strbuf_str(&b), found(v),
				      wanted[t]);
	ddbc_strbuf_release(&b);
	return rc;
}

/* Checks every value at path (from v, which is at) against t. */
static int walk(const char *file, const json_t *v, const char *path, want t,
		const struct step *at)
{
	if (!*path)
		return fits(v, t) ? 0 : misfit(file, v, t, at);
	size_t n = strcspn(path, ".");
	const char *rest = path[n] ? path + n + 1 : path + n;
	size_t name_len = n;
	bool each = n >= 2 && !strncmp(path + n - 2, "[]", 2);
	if (each)
		name_len -= 2;
	if (name_len == 1 && path[0] == '*') {
		if (!json_is_object(v))
			return 0;
		const char *k;
		const json_t *e;
		json_object_foreach((json_t *)v, k, e) {
			struct step s = { at, k, strlen(k), true, 0 };
			if (walk(file, e, rest, t, &s))
				return -1;
		}
		return 0;
	}
	const json_t *m = json_is_object(v) ? json_object_getn(v, path, name_len) : NULL;
	if (!m)
		return 0;
	struct step s = { at, path, name_len, false, 0 };
	if (!each)
		return walk(file, m, rest, t, &s);
	if (!json_is_array(m))
		return 0;
	size_t i;
	const json_t *e;
	json_array_foreach(m, i, e) {
		struct step el = { &s, NULL, 0, false, i };
		if (walk(file, e, rest, t, &el))
			return -1;
	}
	return 0;
}

static int check(const char *file, const json_t *root, const shape *s, size_t n)
{
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = walk(file, root, s[i].path, s[i].type, NULL);
	return rc;
}

#define CHECK(file, root, s) check(file, root, s, sizeof(s) / sizeof(s[0]))

static const shape mcp[] = {
	{ "tables", T_LIST }, { "tables[]", T_OBJECT },
	{ "tables[].table_config", T_OBJECT },
	{ "tables[].table_config.table_name", T_STRING },
	{ "tables[].table_config.partition_key", T_NAMES },
	{ "tables[].table_config.sort_key", T_NAMES },
	{ "tables[].gsi_list", T_LIST }, { "tables[].gsi_list[]", T_OBJECT },
	{ "tables[].gsi_list[].name", T_STRING },
	{ "tables[].gsi_list[].partition_key", T_NAMES },
	{ "tables[].gsi_list[].sort_key", T_NAMES },
	{ "tables[].gsi_list[].projection", T_STRING },
	{ "tables[].gsi_list[].included_attributes", T_STRINGS },
	{ "tables[].entities", T_OBJECT }, { "tables[].entities.*", T_OBJECT },
	{ "tables[].entities.*.entity_type", T_STRING },
	{ "tables[].entities.*.pk_template", T_NAMES },
	{ "tables[].entities.*.sk_template", T_NAMES },
	{ "tables[].entities.*.fields", T_LIST }, { "tables[].entities.*.fields[]", T_OBJECT },
	{ "tables[].entities.*.fields[].name", T_STRING },
	{ "tables[].entities.*.fields[].type", T_STRING },
	{ "tables[].entities.*.fields[].required", T_BOOL },
	{ "tables[].entities.*.gsi_mappings", T_LIST },
	{ "tables[].entities.*.gsi_mappings[]", T_OBJECT },
	{ "tables[].entities.*.gsi_mappings[].name", T_STRING },
	{ "tables[].entities.*.gsi_mappings[].pk_template", T_NAMES },
	{ "tables[].entities.*.gsi_mappings[].sk_template", T_NAMES },
	{ "tables[].entities.*.access_patterns", T_LIST },
	{ "tables[].entities.*.access_patterns[]", T_OBJECT },
	{ "tables[].entities.*.access_patterns[].pattern_id", T_SCALAR },
	{ "tables[].entities.*.access_patterns[].name", T_STRING },
	{ "tables[].entities.*.access_patterns[].description", T_STRING },
	{ "tables[].entities.*.access_patterns[].operation", T_STRING },
	{ "tables[].entities.*.access_patterns[].index_name", T_STRING },
	{ "tables[].entities.*.access_patterns[].consistent_read", T_BOOL },
	{ "tables[].entities.*.access_patterns[].range_condition", T_STRING },
	{ "tables[].entities.*.access_patterns[].return_type", T_STRING },
	{ "tables[].entities.*.access_patterns[].parameters", T_LIST },
	{ "tables[].entities.*.access_patterns[].parameters[]", T_OBJECT },
	{ "tables[].entities.*.access_patterns[].parameters[].name", T_STRING },
	{ "tables[].entities.*.access_patterns[].parameters[].type", T_STRING },
};

/* Workbench's key attributes and facets; the items (TableData) are
 * DynamoDB JSON, which import_value.c reads checking as it goes. */
static const shape workbench[] = {
	{ "ModelName", T_STRING }, { "DataModel", T_LIST }, { "DataModel[]", T_OBJECT },
	{ "DataModel[].TableName", T_STRING },
	{ "DataModel[].KeyAttributes", T_OBJECT },
	{ "DataModel[].KeyAttributes.PartitionKey", T_OBJECT },
	{ "DataModel[].KeyAttributes.PartitionKey.AttributeName", T_STRING },
	{ "DataModel[].KeyAttributes.PartitionKey.AttributeType", T_STRING },
	{ "DataModel[].KeyAttributes.SortKey", T_OBJECT },
	{ "DataModel[].KeyAttributes.SortKey.AttributeName", T_STRING },
	{ "DataModel[].KeyAttributes.SortKey.AttributeType", T_STRING },
	{ "DataModel[].NonKeyAttributes", T_LIST }, { "DataModel[].NonKeyAttributes[]", T_OBJECT },
	{ "DataModel[].NonKeyAttributes[].AttributeName", T_STRING },
	{ "DataModel[].NonKeyAttributes[].AttributeType", T_STRING },
	{ "DataModel[].GlobalSecondaryIndexes", T_LIST },
	{ "DataModel[].GlobalSecondaryIndexes[]", T_OBJECT },
	{ "DataModel[].GlobalSecondaryIndexes[].IndexName", T_STRING },
	{ "DataModel[].GlobalSecondaryIndexes[].KeyAttributes", T_OBJECT },
	{ "DataModel[].GlobalSecondaryIndexes[].KeyAttributes.PartitionKey", T_OBJECT },
	{ "DataModel[].GlobalSecondaryIndexes[].KeyAttributes.PartitionKey.AttributeName",
	  T_STRING },
	{ "DataModel[].GlobalSecondaryIndexes[].KeyAttributes.PartitionKey.AttributeType",
	  T_STRING },
	{ "DataModel[].GlobalSecondaryIndexes[].KeyAttributes.SortKey", T_OBJECT },
	{ "DataModel[].GlobalSecondaryIndexes[].KeyAttributes.SortKey.AttributeName", T_STRING },
	{ "DataModel[].GlobalSecondaryIndexes[].KeyAttributes.SortKey.AttributeType", T_STRING },
	{ "DataModel[].GlobalSecondaryIndexes[].Projection", T_OBJECT },
	{ "DataModel[].GlobalSecondaryIndexes[].Projection.ProjectionType", T_STRING },
	{ "DataModel[].GlobalSecondaryIndexes[].Projection.NonKeyAttributes", T_STRINGS },
	{ "DataModel[].BillingMode", T_STRING },
	{ "DataModel[].ProvisionedCapacitySettings", T_OBJECT },
	{ "DataModel[].ProvisionedCapacitySettings.ProvisionedThroughput", T_OBJECT },
	{ "DataModel[].ProvisionedCapacitySettings.ProvisionedThroughput.ReadCapacityUnits",
	  T_UNITS },
	{ "DataModel[].ProvisionedCapacitySettings.ProvisionedThroughput.WriteCapacityUnits",
	  T_UNITS },
	{ "DataModel[].TableFacets", T_LIST }, { "DataModel[].TableFacets[]", T_OBJECT },
	{ "DataModel[].TableFacets[].FacetName", T_STRING },
	{ "DataModel[].TableFacets[].KeyAttributeAlias", T_OBJECT },
	{ "DataModel[].TableFacets[].KeyAttributeAlias.PartitionKeyAlias", T_STRING },
	{ "DataModel[].TableFacets[].KeyAttributeAlias.SortKeyAlias", T_STRING },
	{ "DataModel[].TableFacets[].NonKeyAttributes", T_STRINGS },
	{ "DataModel[].TableFacets[].TableData", T_LIST },
	{ "DataModel[].TableFacets[].TableData[]", T_OBJECT },
	{ "DataModel[].TableData", T_LIST }, { "DataModel[].TableData[]", T_OBJECT },
};

/* The DynamoDB API's table shape (describe-table's Table, a template's
 * resolved Properties). */
static const shape api[] = {
	{ "TableName", T_STRING }, { "BillingMode", T_STRING },
	{ "BillingModeSummary", T_OBJECT }, { "BillingModeSummary.BillingMode", T_STRING },
	{ "KeySchema", T_LIST }, { "KeySchema[]", T_OBJECT },
	{ "KeySchema[].AttributeName", T_STRING }, { "KeySchema[].KeyType", T_STRING },
	{ "AttributeDefinitions", T_LIST }, { "AttributeDefinitions[]", T_OBJECT },
	{ "AttributeDefinitions[].AttributeName", T_STRING },
	{ "AttributeDefinitions[].AttributeType", T_STRING },
	{ "ProvisionedThroughput", T_OBJECT },
	{ "ProvisionedThroughput.ReadCapacityUnits", T_SCALAR },
	{ "ProvisionedThroughput.WriteCapacityUnits", T_SCALAR },
	{ "GlobalSecondaryIndexes", T_LIST }, { "GlobalSecondaryIndexes[]", T_OBJECT },
	{ "GlobalSecondaryIndexes[].IndexName", T_STRING },
	{ "GlobalSecondaryIndexes[].KeySchema", T_LIST },
	{ "GlobalSecondaryIndexes[].KeySchema[]", T_OBJECT },
	{ "GlobalSecondaryIndexes[].KeySchema[].AttributeName", T_STRING },
	{ "GlobalSecondaryIndexes[].KeySchema[].KeyType", T_STRING },
	{ "GlobalSecondaryIndexes[].Projection", T_OBJECT },
	{ "GlobalSecondaryIndexes[].Projection.ProjectionType", T_STRING },
	{ "GlobalSecondaryIndexes[].Projection.NonKeyAttributes", T_STRINGS },
	{ "GlobalSecondaryIndexes[].ProvisionedThroughput", T_OBJECT },
	{ "GlobalSecondaryIndexes[].ProvisionedThroughput.ReadCapacityUnits", T_SCALAR },
	{ "GlobalSecondaryIndexes[].ProvisionedThroughput.WriteCapacityUnits", T_SCALAR },
	{ "LocalSecondaryIndexes", T_LIST }, { "LocalSecondaryIndexes[]", T_OBJECT },
	{ "LocalSecondaryIndexes[].IndexName", T_STRING },
	{ "LocalSecondaryIndexes[].KeySchema", T_LIST },
	{ "LocalSecondaryIndexes[].KeySchema[]", T_OBJECT },
	{ "LocalSecondaryIndexes[].KeySchema[].AttributeName", T_STRING },
	{ "LocalSecondaryIndexes[].KeySchema[].KeyType", T_STRING },
	{ "LocalSecondaryIndexes[].Projection", T_OBJECT },
	{ "LocalSecondaryIndexes[].Projection.ProjectionType", T_STRING },
	{ "LocalSecondaryIndexes[].Projection.NonKeyAttributes", T_STRINGS },
	{ "TimeToLiveSpecification", T_OBJECT },
	{ "TimeToLiveSpecification.AttributeName", T_STRING },
};

int ddbc_import_check_mcp(const char *file, const json_t *root)
{
	return CHECK(file, root, mcp);
}

int ddbc_import_check_workbench(const char *file, const json_t *root)
{
	return CHECK(file, root, workbench);
}

bool ddbc_import_wb_facet_fits(const json_t *facet)
{
	static const char prefix[] = "DataModel[].TableFacets[]";
	int rc = 0;
	for (size_t i = 0; i < sizeof(workbench) / sizeof(workbench[0]) && rc == 0; i++) {
		const char *p = workbench[i].path;
		if (!strncmp(p, prefix, strlen(prefix)) && p[strlen(prefix)] == '.')
			rc = walk(NULL, facet, p + strlen(prefix) + 1, workbench[i].type, NULL);
	}
	return rc == 0 && json_is_object(facet);
}

int ddbc_import_check_api(const char *file, const json_t *table)
{
	return CHECK(file, table, api);
}
