/* import_cfn_sam.c - AWS::Serverless::SimpleTable, as SAM's transform makes it
 *
 * SAM (Transform: AWS::Serverless-2016-10-31) turns a SimpleTable into an
 * AWS::DynamoDB::Table before CloudFormation evaluates any function, so the
 * translation is done here first, on the resource as written, by SAM's own
 * rules (samtranslator's SamSimpleTable): the partition key is PrimaryKey
 * (Name, and Type String, Number or Binary), else `id` of type S; the table
 * is PAY_PER_REQUEST unless ProvisionedThroughput is given; TableName,
 * PointInTimeRecoverySpecification, SSESpecification and Tags pass through, and
 * Globals.SimpleTable (SAM allows only SSESpecification there) fills what a
 * table leaves out. What SAM refuses (another property, a PrimaryKey that
 * is not two strings, an unknown Type) refuses the resource alone. The
 * evaluation of what is passed through is import_cfn.c's, as for any table.
 */
#include "import/import_cfn.h"

#include <string.h>

static const char SIMPLE[] = "AWS::Serverless::SimpleTable";

bool ddbc_cfn_is_simple_table(const char *type)
{
	return type && !strcmp(type, SIMPLE);
}

/* Whether the template's Transform (a name or a list) names SAM's. */
static bool has_sam(const json_t *root)
{
	const json_t *t = json_object_get(root, "Transform");
	if (ddbc_import_is_string(t))
		return !strcmp(ddbc_import_string_value(t), "AWS::Serverless-2016-10-31");
	size_t i;
	const json_t *x;
	json_array_foreach(t, i, x)
		if (ddbc_import_is_string(x) &&
		    !strcmp(ddbc_import_string_value(x), "AWS::Serverless-2016-10-31"))
			return true;
	return false;
}

static bool one_of(const char *k, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (!strcmp(k, list[i]))
			return true;
	return false;
}

/* The key attribute's type from PrimaryKey.Type, or NULL. */
static const char *key_type(const char *t)
{
	static const char *const sam[] = { "String", "Number", "Binary" };
	static const char *const ddb[] = { "S", "N", "B" };
	for (int i = 0; i < 3; i++)
		if (!strcmp(t, sam[i]))
			return ddb[i];
	return NULL;
}

/* PrimaryKey as KeySchema and AttributeDefinitions in props; false after
 * saying why. SAM takes both members as plain strings: it translates
 * before any function could give them. */
static bool primary_key(const char *file, const char *logical, const json_t *pk, json_t *props)
{
	const char *name = "id", *type = "S";
	if (pk) {
		const json_t *n = json_object_get(pk, "Name"), *t = json_object_get(pk, "Type");
		const char *k;
		const json_t *v;
		bool strings = json_is_object(pk);
		json_object_foreach((json_t *)pk, k, v)
			strings = strings && ddbc_import_is_string(v);
		if (!strings || !n || !t) {
			ddbc_import_fail(file, "resource '%s': property PrimaryKey: %s needs Name and "
					 "Type, both plain strings (SAM reads them before any function "
					 "is evaluated)", logical, SIMPLE);
			return false;
		}
		name = ddbc_import_string_value(n);
		type = key_type(ddbc_import_string_value(t));
		if (!type) {
			ddbc_import_fail(file, "resource '%s': property PrimaryKey.Type: '%s' is none "
					 "of String, Number, Binary (SAM refuses it)", logical,
					 ddbc_import_string_value(t));
			return false;
		}
	}
	json_t *def = json_pack("{s:s,s:s}", "AttributeName", name, "AttributeType", type);
	json_t *key = json_pack("{s:s,s:s}", "AttributeName", name, "KeyType", "HASH");
	json_object_set_new(props, "AttributeDefinitions", json_pack("[o]", def));
	json_object_set_new(props, "KeySchema", json_pack("[o]", key));
	return true;
}

/* Globals.SimpleTable's members the table leaves out; false after saying
 * why when Globals names one SAM does not allow there. */
static bool globals(const char *file, const char *logical, const json_t *root, json_t *props)
{
	const json_t *g = json_object_get(json_object_get(root, "Globals"), "SimpleTable");
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)g, k, v) {
		if (strcmp(k, "SSESpecification")) {
			ddbc_import_fail(file, "resource '%s': Globals.SimpleTable.%s: SAM allows only "
					 "SSESpecification there", logical, k);
			return false;
		}
		if (!json_object_get(props, k))
			json_object_set(props, k, (json_t *)v);
	}
	return true;
}

json_t *ddbc_cfn_simple_table(const char *file, const json_t *root, const char *logical,
			      const json_t *res)
{
	static const char *const pass[] = { "TableName", "ProvisionedThroughput",
		"PointInTimeRecoverySpecification", "SSESpecification", "Tags", NULL };
	if (!has_sam(root)) {
		ddbc_import_fail(file, "resource '%s': %s exists only with Transform: "
				 "AWS::Serverless-2016-10-31, which the template does not declare",
				 logical, SIMPLE);
		return NULL;
	}
	const json_t *in = json_object_get(res, "Properties");
	if (in && !json_is_object(in)) {
		ddbc_import_fail(file, "resource '%s': Properties: expected a mapping", logical);
		return NULL;
	}
	json_t *props = json_object();
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)in, k, v) {
		if (one_of(k, pass)) {
			json_object_set(props, k, (json_t *)v);
		} else if (strcmp(k, "PrimaryKey")) {
			ddbc_import_fail(file, "resource '%s': property %s: %s has no such property "
					 "(SAM refuses it)", logical, k, SIMPLE);
			json_decref(props);
			return NULL;
		}
	}
	/* SAM tests ProvisionedThroughput for truth: an empty one is none. */
	const json_t *pt = json_object_get(props, "ProvisionedThroughput");
	if (!pt || (json_is_object(pt) && !json_object_size(pt))) {
		json_object_del(props, "ProvisionedThroughput");
		json_object_set_new(props, "BillingMode", json_string("PAY_PER_REQUEST"));
	}
	if (!primary_key(file, logical, json_object_get(in, "PrimaryKey"), props) ||
	    !globals(file, logical, root, props)) {
		json_decref(props);
		return NULL;
	}
	json_t *out = json_deep_copy(res);
	json_object_set_new(out, "Type", json_string("AWS::DynamoDB::Table"));
	json_object_set_new(out, "Properties", props);
	return out;
}
