/* emit_infra.c - the tables as infrastructure code
 *
 * `export --format cloudformation` writes a template with one
 * AWS::DynamoDB::Table per table, and `--format terraform` Terraform JSON
 * (*.tf.json) with one aws_dynamodb_table per table (a GSI keyed by several
 * attributes in key_schema blocks, with the AWS provider version that reads
 * them under terraform.required_providers). Both are made from the
 * CreateTable request that `--format create-table` writes, so the three
 * create the same tables.
 */
#include "emit/emit.h"
#include "emit/emit_json.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A logical id or resource name for table t: its letters and digits, the
 * first of each word capitalized for CloudFormation ("user-events" is
 * UserEvents), lower-case words joined by '_' for Terraform; unique in
 * used (ids already given). */
static char *resource_name(const char *table, bool camel, json_t *used)
{
	strbuf b = STRBUF_INIT;
	bool word = true;
	for (const char *p = table; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (!isalnum(c)) {
			word = true;
			continue;
		}
		if (camel)
			strbuf_addch(&b, word ? (char)toupper(c) : (char)c);
		else
			strbuf_addf(&b, "%s%c", word && b.len ? "_" : "", (char)tolower(c));
		word = false;
	}
	if (!b.len || isdigit((unsigned char)b.buf[0]))
		strbuf_reset(&b), strbuf_addstr(&b, camel ? "Table" : "table");
	size_t base = b.len;
	for (int n = 2; json_object_get(used, strbuf_str(&b)); n++) {
		b.len = base;
		strbuf_addf(&b, "%d", n);
	}
	json_object_set_new(used, strbuf_str(&b), json_true());
	return strbuf_detach(&b);
}

/* ---- CloudFormation ---------------------------------------------------------------- */

static json_t *cfn_table(const ddbc_table *t)
{
	json_t *props = ddbc_json_create_table(t);
	if (t->ttl.s)
		json_object_set_new(props, "TimeToLiveSpecification",
				    json_pack("{s:s,s:b}", "AttributeName", t->ttl.s,
					      "Enabled", 1));
	return json_pack("{s:s,s:o}", "Type", "AWS::DynamoDB::Table", "Properties", props);
}

ddbc_emit_result ddbc_emit_cloudformation(FILE *out, const ddbc_design *g,
					  const ddbc_export_opts *o, ddbc_diags *d)
{
	(void)o, (void)d;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_stream_layout(&s, o);
	ddbc_json_begin(&s, NULL, '{');
	ddbc_json_text(&s, "AWSTemplateFormatVersion", "2010-09-09");
	strbuf desc = STRBUF_INIT;
	strbuf_addf(&desc, "The tables of design %s", g->name.s);
	ddbc_json_text(&s, "Description", strbuf_str(&desc));
	strbuf_release(&desc);
	ddbc_json_begin(&s, "Resources", '{');
	json_t *used = json_object();
	for (size_t i = 0; i < g->ntables; i++) {
		char *id = resource_name(g->tables[i].name.s, true, used);
		ddbc_json_member(&s, id, cfn_table(&g->tables[i]));
		free(id);
	}
	json_decref(used);
	ddbc_json_end(&s, '}');
	ddbc_json_end(&s, '}');
	return ddbc_json_stream_finish(&s);
}

/* ---- Terraform --------------------------------------------------------------------- */

/* Sets hash_key and range_key of r from a KeySchema; -1 for a key of several
 * attributes, which hash_key and range_key cannot hold. */
static int tf_keys(json_t *r, const json_t *schema)
{
	size_t i, nh = 0, nr = 0;
	const json_t *k;
	json_array_foreach(schema, i, k) {
		bool hash = !strcmp(json_string_value(json_object_get(k, "KeyType")), "HASH");
		json_object_set(r, hash ? "hash_key" : "range_key", json_object_get(k, "AttributeName"));
		nh += hash;
		nr += !hash;
	}
	return nh > 1 || nr > 1 ? -1 : 0;
}

/* The AWS provider release whose global_secondary_index takes key_schema
 * blocks, which multi-attribute keys need (hash_key and range_key hold
 * one name each). */
#define TF_KEY_SCHEMA_PROVIDER ">= 6.29.0"

/* Each object of list (KeySchema, AttributeDefinitions) as a Terraform
 * block of two arguments: member from[i] becomes argument to[i]. */
static json_t *tf_blocks(const json_t *list, const char *const from[2], const char *const to[2])
{
	json_t *blocks = json_array();
	size_t i;
	const json_t *x;
	json_array_foreach(list, i, x)
		json_array_append_new(blocks, json_pack("{s:O,s:O}", to[0],
			json_object_get(x, from[0]), to[1], json_object_get(x, from[1])));
	return blocks;
}

/* A GSI's key as key_schema blocks, in KeySchema's order. */
static json_t *tf_key_schema(const json_t *schema)
{
	static const char *const from[2] = { "AttributeName", "KeyType" };
	static const char *const to[2] = { "attribute_name", "key_type" };
	return tf_blocks(schema, from, to);
}

static void tf_capacity(json_t *r, const json_t *pt)
{
	if (!pt)
		return;
	json_object_set(r, "read_capacity", json_object_get(pt, "ReadCapacityUnits"));
	json_object_set(r, "write_capacity", json_object_get(pt, "WriteCapacityUnits"));
}

/* One global_secondary_index or local_secondary_index block; a GSI keyed
 * by several attributes gets key_schema blocks and sets *key_schema. */
static json_t *tf_index(const json_t *x, bool local, bool *key_schema)
{
	json_t *b = json_pack("{s:O}", "name", json_object_get(x, "IndexName"));
	const json_t *ks = json_object_get(x, "KeySchema");
	if (tf_keys(b, ks) < 0) {
		json_object_del(b, "hash_key");
		json_object_del(b, "range_key");
		json_object_set_new(b, "key_schema", tf_key_schema(ks));
		*key_schema = true;
	}
	if (local)
		json_object_del(b, "hash_key");
	const json_t *p = json_object_get(x, "Projection");
	json_object_set(b, "projection_type", json_object_get(p, "ProjectionType"));
	if (json_object_get(p, "NonKeyAttributes"))
		json_object_set(b, "non_key_attributes", json_object_get(p, "NonKeyAttributes"));
	if (!local)
		tf_capacity(b, json_object_get(x, "ProvisionedThroughput"));
	return b;
}

static json_t *tf_attributes(const json_t *defs)
{
	static const char *const from[2] = { "AttributeName", "AttributeType" };
	static const char *const to[2] = { "name", "type" };
	return tf_blocks(defs, from, to);
}

/* The aws_dynamodb_table of t; sets *key_schema when an index needs the
 * provider's key_schema blocks. */
static json_t *tf_table(const ddbc_table *t, bool *key_schema)
{
	json_t *req = ddbc_json_create_table(t);
	json_t *r = json_pack("{s:s,s:O}", "name", t->name.s, "billing_mode",
			      json_object_get(req, "BillingMode"));
	/* A table's own key is one attribute each: DynamoDB allows no more. */
	tf_keys(r, json_object_get(req, "KeySchema"));
	tf_capacity(r, json_object_get(req, "ProvisionedThroughput"));
	json_object_set_new(r, "attribute", tf_attributes(json_object_get(req,
							  "AttributeDefinitions")));
	static const char *const lists[][2] = {
		{ "GlobalSecondaryIndexes", "global_secondary_index" },
		{ "LocalSecondaryIndexes", "local_secondary_index" },
	};
	for (int k = 0; k < 2; k++) {
		const json_t *list = json_object_get(req, lists[k][0]);
		if (!list)
			continue;
		json_t *blocks = json_array();
		size_t i;
		const json_t *x;
		json_array_foreach(list, i, x)
			json_array_append_new(blocks, tf_index(x, k == 1, key_schema));
		json_object_set_new(r, lists[k][1], blocks);
	}
	if (json_object_get(req, "TableClass"))
		json_object_set(r, "table_class", json_object_get(req, "TableClass"));
	if (t->ttl.s)
		json_object_set_new(r, "ttl", json_pack("{s:s,s:b}", "attribute_name", t->ttl.s,
							"enabled", 1));
	json_decref(req);
	return r;
}

ddbc_emit_result ddbc_emit_terraform(FILE *out, const ddbc_design *g,
				     const ddbc_export_opts *o, ddbc_diags *d)
{
	(void)o, (void)d;
	json_t *tables = json_object(), *used = json_object();
	bool key_schema = false;
	for (size_t i = 0; i < g->ntables; i++) {
		json_t *r = tf_table(&g->tables[i], &key_schema);
		char *name = resource_name(g->tables[i].name.s, false, used);
		json_object_set_new(tables, name, r);
		free(name);
	}
	json_decref(used);
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_stream_layout(&s, o);
	ddbc_json_begin(&s, NULL, '{');
	/* Only a design that needs key_schema blocks pins the provider. */
	if (key_schema)
		ddbc_json_member(&s, "terraform", json_pack("{s:{s:{s:s,s:s}}}",
			"required_providers", "aws", "source", "hashicorp/aws", "version",
			TF_KEY_SCHEMA_PROVIDER));
	ddbc_json_begin(&s, "resource", '{');
	ddbc_json_member(&s, "aws_dynamodb_table", tables);
	ddbc_json_end(&s, '}');
	ddbc_json_end(&s, '}');
	return ddbc_json_stream_finish(&s);
}
