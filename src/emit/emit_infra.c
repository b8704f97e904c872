/* emit_infra.c - the tables as infrastructure code
 *
 * `export --format cloudformation` writes a template with one
 * AWS::DynamoDB::Table per table (an AWS::DynamoDB::GlobalTable for one
 * with replicas), and `--format terraform` Terraform JSON
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
			ddbc_strbuf_addch(&b, word ? (char)toupper(c) : (char)c);
		else
			ddbc_strbuf_addf(&b, "%s%c", word && b.len ? "_" : "", (char)tolower(c));
		word = false;
	}
	if (!b.len || isdigit((unsigned char)b.buf[0]))
		ddbc_strbuf_reset(&b), ddbc_strbuf_addstr(&b, camel ? "Table" : "table");
	size_t base = b.len;
	for (int n = 2; json_object_get(used, ddbc_strbuf_str(&b)); n++) {
		b.len = base;
		ddbc_strbuf_addf(&b, "%d", n);
	}
	json_object_set_new(used, ddbc_strbuf_str(&b), json_true());
	return ddbc_strbuf_detach(&b);
}

/* ---- CloudFormation ---------------------------------------------------------------- */

/* A resource policy as CloudFormation's ResourcePolicy: its
 * PolicyDocument takes the document as JSON text too (the loader made
 * sure it is a JSON object; an output never parses). */
static json_t *cfn_policy(const ddbc_table_settings *s)
{
	return json_pack("{s:s%}", "PolicyDocument", s->policy, s->policy_bytes);
}

static json_t *cfn_pitr(const ddbc_table_settings *s)
{
	json_t *o = json_pack("{s:b}", "PointInTimeRecoveryEnabled", s->pitr);
	if (s->recovery_days)
		json_object_set_new(o, "RecoveryPeriodInDays", json_integer(s->recovery_days));
	return o;
}

static json_t *cfn_insights(ddbc_insights mode)
{
	return json_pack("{s:b,s:s}", "Enabled", 1, "Mode",
			 mode == DDBC_INSIGHTS_ALL ? "ACCESSED_AND_THROTTLED_KEYS" : "THROTTLED_KEYS");
}

/* The settings a table and a replica of a global table share. */
static void cfn_replica_settings(json_t *o, const ddbc_table_settings *s)
{
	if (s->has_pitr)
		json_object_set_new(o, "PointInTimeRecoverySpecification", cfn_pitr(s));
	if (s->insights)
		json_object_set_new(o, "ContributorInsightsSpecification", cfn_insights(s->insights));
	if (s->policy)
		json_object_set_new(o, "ResourcePolicy", cfn_policy(s));
}

/* A GSI's own Contributor Insights, which CreateTable cannot set: in its
 * entry of GlobalSecondaryIndexes (AWS::DynamoDB::Table's
 * GlobalSecondaryIndex has ContributorInsightsSpecification). */
static void cfn_gsi_insights(json_t *props, const ddbc_table *t)
{
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(props, "GlobalSecondaryIndexes"), i, x) {
		const ddbc_index *ix = ddbc_table_index(t, json_string_value(json_object_get(x,
									   "IndexName")));
		if (ix && ix->insights)
			json_object_set_new(x, "ContributorInsightsSpecification",
					    cfn_insights(ix->insights));
	}
}

/* CreateTable's request as AWS::DynamoDB::Table's properties: the names
 * that differ (StreamSpecification without StreamEnabled, SSEEnabled,
 * ResourcePolicy's PolicyDocument) and what CreateTable cannot set. */
static json_t *cfn_table(const ddbc_table *t)
{
	const ddbc_table_settings *s = &t->settings;
	json_t *props = ddbc_json_create_table(t);
	if (t->ttl.s)
		json_object_set_new(props, "TimeToLiveSpecification",
				    json_pack("{s:s,s:b}", "AttributeName", t->ttl.s,
					      "Enabled", 1));
	if (s->stream)
		json_object_set_new(props, "StreamSpecification",
				    json_pack("{s:s}", "StreamViewType",
					      ddbc_stream_view_type(s->stream)));
	json_t *sse = json_object_get(props, "SSESpecification");
	if (sse) {
		json_object_set(sse, "SSEEnabled", json_object_get(sse, "Enabled"));
		json_object_del(sse, "Enabled");
	}
	json_object_del(props, "ResourcePolicy");
	cfn_replica_settings(props, s);
	cfn_gsi_insights(props, t);
	return json_pack("{s:s,s:o}", "Type", "AWS::DynamoDB::Table", "Properties", props);
}

/* ---- CloudFormation's GlobalTable ---------------------------------------------------- */

/* A fixed provisioned capacity as GlobalTable's auto scaling settings,
 * which are the only form it takes for writes: minimum and maximum both
 * the design's figure. */
static json_t *cfn_fixed_scaling(long long units)
{
	return json_pack("{s:I,s:I,s:{s:f}}", "MinCapacity", (json_int_t)units, "MaxCapacity",
			 (json_int_t)units, "TargetTrackingScalingPolicyConfiguration",
			 "TargetValue", 70.0);
}

/* A GSI of a global table: its write settings here, its read settings in
 * each replica (cfn_replica_gsi). */
static json_t *cfn_global_gsi(const ddbc_table *t, const ddbc_index *ix)
{
	json_t *x = ddbc_json_secondary_index(t, ix);
	json_object_del(x, "ProvisionedThroughput");
	json_object_del(x, "OnDemandThroughput");
	if (ix->on_demand_max.write)
		json_object_set_new(x, "WriteOnDemandThroughputSettings",
				    json_pack("{s:I}", "MaxWriteRequestUnits",
					      (json_int_t)ix->on_demand_max.write));
	const ddbc_capacity *c = ix->capacity.set ? &ix->capacity : &t->capacity;
	if (t->billing == DDBC_BILLING_PROVISIONED && c->set)
		json_object_set_new(x, "WriteProvisionedThroughputSettings",
				    json_pack("{s:o}", "WriteCapacityAutoScalingSettings",
					      cfn_fixed_scaling(c->write)));
	return x;
}

static json_t *cfn_replica_gsi(const ddbc_table *t, const ddbc_index *ix)
{
	json_t *x = json_pack("{s:s}", "IndexName", ix->name.s);
	if (ix->on_demand_max.read)
		json_object_set_new(x, "ReadOnDemandThroughputSettings",
				    json_pack("{s:I}", "MaxReadRequestUnits",
					      (json_int_t)ix->on_demand_max.read));
	const ddbc_capacity *c = ix->capacity.set ? &ix->capacity : &t->capacity;
	if (t->billing == DDBC_BILLING_PROVISIONED && c->set)
		json_object_set_new(x, "ReadProvisionedThroughputSettings",
				    json_pack("{s:I}", "ReadCapacityUnits", (json_int_t)c->read));
	if (ix->insights)
		json_object_set_new(x, "ContributorInsightsSpecification", cfn_insights(ix->insights));
	return x;
}

/* One Region's replica: the settings each Region holds on its own. */
static json_t *cfn_replica(const ddbc_table *t, const char *region)
{
	const ddbc_table_settings *s = &t->settings;
	json_t *r = json_pack("{s:s}", "Region", region);
	cfn_replica_settings(r, s);
	if (s->has_deletion_protection)
		json_object_set_new(r, "DeletionProtectionEnabled", json_boolean(s->deletion_protection));
	if (s->kms_key.s)
		json_object_set_new(r, "SSESpecification",
				    json_pack("{s:s}", "KMSMasterKeyId", s->kms_key.s));
	if (s->ntags)
		json_object_set_new(r, "Tags", ddbc_json_tags(s));
	if (t->has_table_class)
		json_object_set_new(r, "TableClass",
				    json_string(t->table_class == DDBC_CLASS_STANDARD_IA
						? "STANDARD_INFREQUENT_ACCESS" : "STANDARD"));
	if (s->on_demand_max.read)
		json_object_set_new(r, "ReadOnDemandThroughputSettings",
				    json_pack("{s:I}", "MaxReadRequestUnits",
					      (json_int_t)s->on_demand_max.read));
	if (t->billing == DDBC_BILLING_PROVISIONED && t->capacity.set)
		json_object_set_new(r, "ReadProvisionedThroughputSettings",
				    json_pack("{s:I}", "ReadCapacityUnits", (json_int_t)t->capacity.read));
	json_t *gsis = json_array();
	for (size_t i = 0; i < t->ngsi; i++) {
		json_t *g = cfn_replica_gsi(t, &t->gsi[i]);
		if (json_object_size(g) > 1)
			json_array_append(gsis, g);
		json_decref(g);
	}
	if (json_array_size(gsis))
		json_object_set(r, "GlobalSecondaryIndexes", gsis);
	json_decref(gsis);
	return r;
}

/* A table with replicas as AWS::DynamoDB::GlobalTable: the table-wide
 * properties once, each Region's in Replicas. The stack must be deployed
 * in one of the replicas' Regions. */
static json_t *cfn_global_table(const ddbc_table *t)
{
	const ddbc_table_settings *s = &t->settings;
	json_t *req = ddbc_json_create_table(t);
	json_t *p = json_object();
	static const char *const same[] = { "TableName", "AttributeDefinitions", "KeySchema",
					    "BillingMode", "LocalSecondaryIndexes", "WarmThroughput" };
	for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
		if (json_object_get(req, same[i]))
			json_object_set(p, same[i], json_object_get(req, same[i]));
	json_decref(req);
	if (t->ngsi) {
		json_t *gsis = json_array();
		for (size_t i = 0; i < t->ngsi; i++)
			json_array_append_new(gsis, cfn_global_gsi(t, &t->gsi[i]));
		json_object_set_new(p, "GlobalSecondaryIndexes", gsis);
	}
	/* An eventually consistent global table of several Regions replicates
	 * through its stream: CloudFormation needs one (NEW_AND_OLD_IMAGES
	 * unless the design chooses). */
	ddbc_stream stream = s->stream;
	if (!stream && !s->strong && s->nreplicas > 1)
		stream = DDBC_STREAM_NEW_AND_OLD_IMAGES;
	if (stream)
		json_object_set_new(p, "StreamSpecification",
				    json_pack("{s:s}", "StreamViewType", ddbc_stream_view_type(stream)));
	if (s->has_sse)
		json_object_set_new(p, "SSESpecification",
				    json_pack("{s:b,s:s}", "SSEEnabled", 1, "SSEType", "KMS"));
	if (t->ttl.s)
		json_object_set_new(p, "TimeToLiveSpecification",
				    json_pack("{s:s,s:b}", "AttributeName", t->ttl.s, "Enabled", 1));
	if (s->on_demand_max.write)
		json_object_set_new(p, "WriteOnDemandThroughputSettings",
				    json_pack("{s:I}", "MaxWriteRequestUnits",
					      (json_int_t)s->on_demand_max.write));
	if (t->billing == DDBC_BILLING_PROVISIONED && t->capacity.set)
		json_object_set_new(p, "WriteProvisionedThroughputSettings",
				    json_pack("{s:o}", "WriteCapacityAutoScalingSettings",
					      cfn_fixed_scaling(t->capacity.write)));
	json_object_set_new(p, "MultiRegionConsistency", json_string(s->strong ? "STRONG" : "EVENTUAL"));
	if (s->witness.s)
		json_object_set_new(p, "GlobalTableWitnesses",
				    json_pack("[{s:s}]", "Region", s->witness.s));
	json_t *replicas = json_array();
	for (size_t i = 0; i < s->nreplicas; i++)
		json_array_append_new(replicas, cfn_replica(t, s->replicas[i].s));
	json_object_set_new(p, "Replicas", replicas);
	return json_pack("{s:s,s:o}", "Type", "AWS::DynamoDB::GlobalTable", "Properties", p);
}

ddbc_emit_result ddbc_emit_cloudformation(FILE *out, const ddbc_design *g,
					  const ddbc_export_opts *o, ddbc_diags *d)
{
	(void)d;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_stream_layout(&s, o);
	ddbc_json_begin(&s, NULL, '{');
	ddbc_json_text(&s, "AWSTemplateFormatVersion", "2010-09-09");
	strbuf desc = STRBUF_INIT;
	ddbc_strbuf_addf(&desc, "The tables of design %s", g->name.s);
	ddbc_json_text(&s, "Description", ddbc_strbuf_str(&desc));
	ddbc_strbuf_release(&desc);
	ddbc_json_begin(&s, "Resources", '{');
	json_t *used = json_object();
	for (size_t i = 0; i < g->ntables; i++) {
		char *id = resource_name(g->tables[i].name.s, true, used);
		const ddbc_table *t = &g->tables[i];
		ddbc_json_member(&s, id, t->settings.nreplicas ? cfn_global_table(t) : cfn_table(t));
		free(id);
	}
	json_decref(used);
	ddbc_json_end(&s, '}');
	ddbc_json_end(&s, '}');
	return ddbc_json_stream_finish(&s, o ? o->err : NULL);
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

/* A pair of figures of a request object as a block of two arguments,
 * each only when present. */
static json_t *tf_pair(const json_t *o, const char *from0, const char *to0, const char *from1,
		       const char *to1)
{
	json_t *b = json_object();
	if (json_object_get(o, from0))
		json_object_set(b, to0, json_object_get(o, from0));
	if (json_object_get(o, from1))
		json_object_set(b, to1, json_object_get(o, from1));
	return b;
}

/* OnDemandThroughput and WarmThroughput as on_demand_throughput and
 * warm_throughput blocks (the table's and a GSI's have the same shape). */
static void tf_throughput(json_t *r, const json_t *on_demand, const json_t *warm)
{
	if (on_demand)
		json_object_set_new(r, "on_demand_throughput",
				    tf_pair(on_demand, "MaxReadRequestUnits", "max_read_request_units",
					    "MaxWriteRequestUnits", "max_write_request_units"));
	if (warm)
		json_object_set_new(r, "warm_throughput",
				    tf_pair(warm, "ReadUnitsPerSecond", "read_units_per_second",
					    "WriteUnitsPerSecond", "write_units_per_second"));
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
	if (!local) {
		tf_capacity(b, json_object_get(x, "ProvisionedThroughput"));
		tf_throughput(b, json_object_get(x, "OnDemandThroughput"),
			      json_object_get(x, "WarmThroughput"));
	}
	return b;
}

static json_t *tf_attributes(const json_t *defs)
{
	static const char *const from[2] = { "AttributeName", "AttributeType" };
	static const char *const to[2] = { "name", "type" };
	return tf_blocks(defs, from, to);
}

/* A replica block for each Region of the table but its first, its own
 * (the provider's Region), and the witness of an MRSC table. */
static void tf_replicas(json_t *r, const ddbc_table_settings *s)
{
	if (s->nreplicas < 2)
		return;
	json_t *blocks = json_array();
	for (size_t i = 1; i < s->nreplicas; i++) {
		json_t *b = json_pack("{s:s,s:s}", "region_name", s->replicas[i].s,
				      "consistency_mode", s->strong ? "STRONG" : "EVENTUAL");
		if (s->kms_key.s)
			json_object_set_new(b, "kms_key_arn", ddbc_json_str(s->kms_key.s));
		if (s->has_pitr)
			json_object_set_new(b, "point_in_time_recovery", json_boolean(s->pitr));
		if (s->has_deletion_protection)
			json_object_set_new(b, "deletion_protection_enabled",
					    json_boolean(s->deletion_protection));
		if (s->ntags)
			json_object_set_new(b, "propagate_tags", json_true());
		json_array_append_new(blocks, b);
	}
	json_object_set_new(r, "replica", blocks);
	if (s->witness.s)
		json_object_set_new(r, "global_table_witness",
				    json_pack("{s:s}", "region_name", s->witness.s));
}

/* The settings aws_dynamodb_table holds itself (SPEC 8.7); Contributor
 * Insights and the resource policy are resources of their own
 * (tf_extras). Replicas replicate through the stream: one of
 * NEW_AND_OLD_IMAGES unless the design chooses, as the provider's
 * global table examples have it. */
static void tf_settings(json_t *r, const ddbc_table *t)
{
	const ddbc_table_settings *s = &t->settings;
	if (s->has_deletion_protection)
		json_object_set_new(r, "deletion_protection_enabled",
				    json_boolean(s->deletion_protection));
	ddbc_stream stream = s->stream;
	if (!stream && s->nreplicas > 1)
		stream = DDBC_STREAM_NEW_AND_OLD_IMAGES;
	if (stream) {
		json_object_set_new(r, "stream_enabled", json_true());
		json_object_set_new(r, "stream_view_type",
				    json_string(ddbc_stream_view_type(stream)));
	}
	if (s->has_sse) {
		json_t *b = json_pack("{s:b}", "enabled", 1);
		if (s->kms_key.s)
			json_object_set_new(b, "kms_key_arn", ddbc_json_str(s->kms_key.s));
		json_object_set_new(r, "server_side_encryption", b);
	}
	if (s->has_pitr) {
		json_t *b = json_pack("{s:b}", "enabled", s->pitr);
		if (s->recovery_days)
			json_object_set_new(b, "recovery_period_in_days",
					    json_integer(s->recovery_days));
		json_object_set_new(r, "point_in_time_recovery", b);
	}
	tf_replicas(r, s);
	if (s->ntags) {
		json_t *tags = json_object();
		for (size_t i = 0; i < s->ntags; i++)
			json_object_set_new(tags, s->tags[i].key.s, ddbc_json_str(s->tags[i].value));
		json_object_set_new(r, "tags", tags);
	}
}

/* The resources a table's settings need beside aws_dynamodb_table:
 * aws_dynamodb_contributor_insights (its documented arguments have no
 * mode: the provider enables DynamoDB's default, all keys), the table's
 * named as the table's resource, a GSI's (its index_name) as table and
 * index joined, unique among them (used: the names taken); and
 * aws_dynamodb_resource_policy. */
static void tf_extras(json_t *insights, json_t *policies, const ddbc_table *t, const char *name,
		      json_t *used)
{
	const ddbc_table_settings *s = &t->settings;
	strbuf ref = STRBUF_INIT;
	if (s->insights) {
		char *own = resource_name(t->name.s, false, used);
		ddbc_strbuf_addf(&ref, "${aws_dynamodb_table.%s.name}", name);
		json_object_set_new(insights, own, json_pack("{s:s}", "table_name", ddbc_strbuf_str(&ref)));
		free(own);
	}
	for (size_t i = 0; i < t->ngsi; i++) {
		if (!t->gsi[i].insights)
			continue;
		ddbc_strbuf_reset(&ref);
		ddbc_strbuf_addf(&ref, "%s-%s", t->name.s, t->gsi[i].name.s);
		char *gsi = resource_name(ddbc_strbuf_str(&ref), false, used);
		ddbc_strbuf_reset(&ref);
		ddbc_strbuf_addf(&ref, "${aws_dynamodb_table.%s.name}", name);
		json_object_set_new(insights, gsi, json_pack("{s:s,s:s}", "table_name",
							     ddbc_strbuf_str(&ref), "index_name",
							     t->gsi[i].name.s));
		free(gsi);
	}
	if (s->policy) {
		ddbc_strbuf_reset(&ref);
		ddbc_strbuf_addf(&ref, "${aws_dynamodb_table.%s.arn}", name);
		json_object_set_new(policies, name,
				    json_pack("{s:s,s:s%}", "resource_arn", ddbc_strbuf_str(&ref), "policy",
					      s->policy, s->policy_bytes));
	}
	ddbc_strbuf_release(&ref);
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
	tf_throughput(r, json_object_get(req, "OnDemandThroughput"),
		      json_object_get(req, "WarmThroughput"));
	tf_settings(r, t);
	json_decref(req);
	return r;
}

ddbc_emit_result ddbc_emit_terraform(FILE *out, const ddbc_design *g,
				     const ddbc_export_opts *o, ddbc_diags *d)
{
	(void)d;
	json_t *tables = json_object(), *used = json_object();
	json_t *insights = json_object(), *policies = json_object(), *named = json_object();
	bool key_schema = false;
	for (size_t i = 0; i < g->ntables; i++) {
		json_t *r = tf_table(&g->tables[i], &key_schema);
		char *name = resource_name(g->tables[i].name.s, false, used);
		json_object_set_new(tables, name, r);
		tf_extras(insights, policies, &g->tables[i], name, named);
		free(name);
	}
	json_decref(used);
	json_decref(named);
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
	if (json_object_size(insights))
		ddbc_json_member(&s, "aws_dynamodb_contributor_insights", insights);
	else
		json_decref(insights);
	if (json_object_size(policies))
		ddbc_json_member(&s, "aws_dynamodb_resource_policy", policies);
	else
		json_decref(policies);
	ddbc_json_end(&s, '}');
	ddbc_json_end(&s, '}');
	return ddbc_json_stream_finish(&s, o ? o->err : NULL);
}
