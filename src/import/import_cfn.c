/* import_cfn.c - tables from CloudFormation and SAM templates
 *
 * Every AWS::DynamoDB::Table and AWS::DynamoDB::GlobalTable resource
 * becomes a table. The properties CreateTable takes are resolved first:
 * Ref to a parameter (its --param value, else its Default), Fn::Sub and
 * Fn::Join over those. A name nothing resolves is an error that names the
 * parameter, never a name made up; only the table's own name falls back
 * to the logical id, as CloudFormation itself names a table without one.
 */
#include "import/import.h"
#include "import/import_int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct cfn {
	const char *file;
	const json_t *declared;            /* the template's Parameters */
	const ddbc_import_param *params;
	size_t nparams;
	strbuf why;                        /* what could not be resolved */
};

static char *resolve(struct cfn *c, const json_t *v);

/* The value of parameter name, or NULL (saying why in c->why). */
static char *ref(struct cfn *c, const char *name)
{
	for (size_t i = c->nparams; i-- > 0;)
		if (!strcmp(c->params[i].name, name))
			return xstrdup(c->params[i].value);
	const json_t *d = json_object_get(json_object_get(c->declared, name), "Default");
	if (d && !json_is_object(d) && !json_is_array(d))
		return resolve(c, d);
	strbuf_reset(&c->why);
	if (json_object_get(c->declared, name))
		strbuf_addf(&c->why, "parameter '%s' has no Default: give --param %s=VALUE",
			    name, name);
	else
		strbuf_addf(&c->why, "'%s' is known only when the stack is deployed", name);
	return NULL;
}

/* Fn::Sub's string with ${NAME} replaced from vars, then parameters. */
static char *sub(struct cfn *c, const char *s, const json_t *vars)
{
	strbuf out = STRBUF_INIT;
	while (*s) {
		const char *open = strstr(s, "${");
		const char *close = open ? strchr(open, '}') : NULL;
		if (!open || !close) {
			strbuf_addstr(&out, s);
			break;
		}
		strbuf_add(&out, s, (size_t)(open - s));
		char *name = xstrndup(open + 2, (size_t)(close - open - 2));
		char *val = name[0] == '!' ? xstrdup(name)  /* ${!X} is the literal ${X} */
			  : json_object_get(vars, name) ? resolve(c, json_object_get(vars, name))
			  : ref(c, name);
		if (name[0] == '!')
			strbuf_addf(&out, "${%s}", name + 1);
		else if (val)
			strbuf_addstr(&out, val);
		free(name);
		if (!val) {
			strbuf_release(&out);
			return NULL;
		}
		free(val);
		s = close + 1;
	}
	return strbuf_detach(&out);
}

static char *join(struct cfn *c, const json_t *args)
{
	const char *delim = json_string_value(json_array_get(args, 0));
	const json_t *list = json_array_get(args, 1);
	if (!delim || !json_is_array(list))
		return NULL;
	strbuf out = STRBUF_INIT;
	size_t i;
	const json_t *p;
	json_array_foreach(list, i, p) {
		char *s = resolve(c, p);
		if (!s) {
			strbuf_release(&out);
			return NULL;
		}
		strbuf_addf(&out, "%s%s", i ? delim : "", s);
		free(s);
	}
	return strbuf_detach(&out);
}

/* The text of scalar or intrinsic v, or NULL (saying why in c->why). */
static char *resolve(struct cfn *c, const json_t *v)
{
	char *text = ddbc_import_scalar_text(v);
	if (text)
		return text;
	const json_t *r = json_object_get(v, "Ref");
	if (json_is_string(r))
		return ref(c, json_string_value(r));
	const json_t *s = json_object_get(v, "Fn::Sub");
	if (json_is_string(s))
		return sub(c, json_string_value(s), NULL);
	if (json_is_array(s) && json_is_string(json_array_get(s, 0)))
		return sub(c, json_string_value(json_array_get(s, 0)), json_array_get(s, 1));
	if (json_object_get(v, "Fn::Join"))
		return join(c, json_object_get(v, "Fn::Join"));
	strbuf_reset(&c->why);
	strbuf_addstr(&c->why, "a value no parameter gives (an intrinsic function of the "
		      "deployed stack)");
	return NULL;
}

/* v with every intrinsic replaced by its text; NULL after saying which
 * property could not be resolved. A new reference. */
static json_t *resolve_tree(struct cfn *c, const char *res, const char *prop, const json_t *v)
{
	if (json_is_array(v)) {
		json_t *out = json_array();
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			json_t *r = resolve_tree(c, res, prop, e);
			if (!r) {
				json_decref(out);
				return NULL;
			}
			json_array_append_new(out, r);
		}
		return out;
	}
	bool intrinsic = json_is_object(v) && json_object_size(v) == 1 &&
			 (json_object_get(v, "Ref") || !strncmp(json_object_iter_key(
				  json_object_iter((json_t *)v)), "Fn::", 4));
	if (json_is_object(v) && !intrinsic) {
		json_t *out = json_object();
		const char *k;
		const json_t *e;
		json_object_foreach((json_t *)v, k, e) {
			json_t *r = resolve_tree(c, res, k, e);
			if (!r) {
				json_decref(out);
				return NULL;
			}
			json_object_set_new(out, k, r);
		}
		return out;
	}
	if (!intrinsic)
		return json_incref((json_t *)v);
	char *s = resolve(c, v);
	if (!s) {
		ddbc_import_fail(c->file, "resource '%s': %s of %s", res, strbuf_str(&c->why),
				 prop);
		return NULL;
	}
	json_t *out = json_string(s);
	free(s);
	return out;
}

/* The first number of a GlobalTable's capacity settings: fixed units, or
 * the auto scaling minimum (the capacity a new table starts from). */
static const json_t *units(const json_t *settings, const char *fixed, const char *scaling)
{
	const json_t *u = json_object_get(settings, fixed);
	return u ? u : json_object_get(json_object_get(settings, scaling), "MinCapacity");
}

static json_t *throughput(const json_t *read, const json_t *write)
{
	json_t *pt = json_object();
	if (read)
		json_object_set(pt, "ReadCapacityUnits", (json_t *)read);
	if (write)
		json_object_set(pt, "WriteCapacityUnits", (json_t *)write);
	return pt;
}

/* The read settings of index name in the first replica. */
static const json_t *replica_index(const json_t *replica, const char *name)
{
	size_t i;
	const json_t *x;
	json_array_foreach(json_object_get(replica, "GlobalSecondaryIndexes"), i, x)
		if (json_is_string(json_object_get(x, "IndexName")) &&
		    !strcmp(json_string_value(json_object_get(x, "IndexName")), name))
			return json_object_get(x, "ReadProvisionedThroughputSettings");
	return NULL;
}

/* A GlobalTable's properties in CreateTable's shape: write capacity is set
 * for the table, read capacity per replica (the first replica's is taken);
 * BillingMode defaults to PROVISIONED. */
static json_t *global_to_api(const json_t *p)
{
	static const char *const same[] = { "TableName", "AttributeDefinitions", "KeySchema",
					    "LocalSecondaryIndexes", "BillingMode",
					    "TimeToLiveSpecification" };
	json_t *out = json_object();
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		if (json_object_get(p, same[i]))
			json_object_set(out, same[i], json_object_get(p, same[i]));
	const json_t *mode = json_object_get(p, "BillingMode");
	bool prov = !json_is_string(mode) || !strcmp(json_string_value(mode), "PROVISIONED");
	const json_t *replica = json_array_get(json_object_get(p, "Replicas"), 0);
	const char *R = "ReadCapacityUnits", *RA = "ReadCapacityAutoScalingSettings";
	const char *WA = "WriteCapacityAutoScalingSettings";
	if (prov)
		json_object_set_new(out, "ProvisionedThroughput", throughput(
			units(json_object_get(replica, "ReadProvisionedThroughputSettings"), R, RA),
			units(json_object_get(p, "WriteProvisionedThroughputSettings"), "", WA)));
	json_t *gsis = json_array();
	size_t i;
	const json_t *g;
	json_array_foreach(json_object_get(p, "GlobalSecondaryIndexes"), i, g) {
		json_t *x = json_deep_copy(g);
		const char *name = json_string_value(json_object_get(g, "IndexName"));
		if (prov && name)
			json_object_set_new(x, "ProvisionedThroughput", throughput(
				units(replica_index(replica, name), R, RA),
				units(json_object_get(g, "WriteProvisionedThroughputSettings"),
				      "", WA)));
		json_array_append_new(gsis, x);
	}
	json_object_set_new(out, "GlobalSecondaryIndexes", gsis);
	return out;
}

/* What CreateTable takes of resource props, resolved (TableName aside). */
static json_t *resolved(struct cfn *c, const char *logical, const json_t *props)
{
	static const char *const wanted[] = { "AttributeDefinitions", "KeySchema",
		"GlobalSecondaryIndexes", "LocalSecondaryIndexes", "BillingMode",
		"ProvisionedThroughput", "TimeToLiveSpecification" };
	json_t *out = json_object();
	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
		const json_t *v = json_object_get(props, wanted[i]);
		if (!v)
			continue;
		json_t *r = resolve_tree(c, logical, wanted[i], v);
		if (!r) {
			json_decref(out);
			return NULL;
		}
		json_object_set_new(out, wanted[i], r);
	}
	return out;
}

/* The table's name: TableName resolved, else the logical id (commented). */
static char *table_name(struct cfn *c, const char *logical, const json_t *props,
			strbuf *comment)
{
	const json_t *tn = json_object_get(props, "TableName");
	char *name = tn ? resolve(c, tn) : NULL;
	if (name)
		return name;
	if (tn)
		strbuf_addf(comment, "TableName unresolved (%s): the logical id",
			    strbuf_str(&c->why));
	else
		strbuf_addstr(comment, "no TableName: the logical id (a stack names it "
			      "STACK-LogicalId-SUFFIX)");
	return xstrdup(logical);
}

static void add_ttl(const json_t *r, json_t *table, json_t *attrs)
{
	const json_t *ttl = json_object_get(r, "TimeToLiveSpecification");
	const json_t *on = json_object_get(ttl, "Enabled");
	const char *a = json_string_value(json_object_get(ttl, "AttributeName"));
	if (!a || !(json_is_true(on) || (json_is_string(on) &&
					 !strcmp(json_string_value(on), "true"))))
		return;
	json_object_set_new(table, "ttl", json_string(a));
	if (!json_object_get(attrs, a))  /* DynamoDB expires items only by a Number */
		json_object_set_new(attrs, a, json_string("N"));
}

static const json_t *table_or_null(const json_t *design, const char *name, int rc)
{
	return rc == 0 ? json_object_get(json_object_get(design, "tables"), name) : NULL;
}

static int one_table(struct cfn *c, const char *logical, const json_t *res, bool global,
		     json_t *design)
{
	const json_t *raw = json_object_get(res, "Properties");
	json_t *props = global ? global_to_api(raw) : json_incref((json_t *)raw);
	strbuf comment = STRBUF_INIT;
	char *name = table_name(c, logical, props, &comment);
	json_t *r = resolved(c, logical, props), *attrs = NULL;
	json_t *table = r ? ddbc_import_api_table(c->file, r, &attrs) : NULL;
	int rc = -1;
	if (table && json_object_get(json_object_get(design, "tables"), name)) {
		ddbc_import_fail(c->file, "two resources create table '%s'", name);
		json_decref(table);
	} else if (table) {
		add_ttl(r, table, attrs);
		rc = ddbc_import_add_key_table(c->file, design, name, table, attrs,
					       "a template");
	}
	const char *cond = json_string_value(json_object_get(res, "Condition"));
	if (cond)
		strbuf_addf(&comment, "%screated only when condition %s holds",
			    comment.len ? "; " : "", cond);
	if (global)
		strbuf_addf(&comment, "%sa global table%s", comment.len ? "; " : "",
			    json_object_get(table_or_null(design, name, rc), "capacity")
			    ? " (capacity: the first replica's reads, the least writes auto "
			      "scaling keeps)" : "");
	if (rc == 0 && comment.len)
		ddbc_import_set_comment(json_object_get(design, "tables"), name, "%s",
					strbuf_str(&comment));
	strbuf_release(&comment);
	free(name);
	json_decref(attrs);
	json_decref(r);
	json_decref(props);
	return rc;
}

int ddbc_import_cloudformation(const char *file, const json_t *root, json_t *design,
			       const ddbc_import_param *params, size_t nparams)
{
	const json_t *resources = json_object_get(root, "Resources");
	if (!json_is_object(resources))
		return ddbc_import_fail(file, "expected a CloudFormation template, a mapping with "
					"Resources");
	struct cfn c = { file, json_object_get(root, "Parameters"), params, nparams,
			 STRBUF_INIT };
	int rc = 0, found = 0;
	const char *logical;
	const json_t *res;
	json_object_foreach((json_t *)resources, logical, res) {
		const char *type = json_string_value(json_object_get(res, "Type"));
		bool table = type && !strcmp(type, "AWS::DynamoDB::Table");
		bool global = type && !strcmp(type, "AWS::DynamoDB::GlobalTable");
		if (!table && !global)
			continue;
		found++;
		if ((rc = one_table(&c, logical, res, global, design)) < 0)
			break;
	}
	strbuf_release(&c.why);
	if (rc == 0 && !found)
		return ddbc_import_fail(file, "the template has no AWS::DynamoDB::Table or "
					"AWS::DynamoDB::GlobalTable resource");
	return rc;
}
