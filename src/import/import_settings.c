/* import_settings.c - a table's settings (SPEC 8.7) read back from a
 * CloudFormation resource's properties
 *
 * AWS::DynamoDB::Table holds them as properties of the table; a
 * GlobalTable holds the table-wide ones (stream, encryption, consistency,
 * witness, warm throughput, the writes' maximum) once and the others per
 * replica, read from the stack's Region's replica (the first otherwise),
 * and its Regions become `replicas:`, the stack's first. A value that is
 * not what the property takes (an unresolved function) is not kept, and
 * said in the table's comment.
 */
#include "import/import_int.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* A boolean property: true/false, or the strings a template may hold. */
static int bool_of(const json_t *v)
{
	if (json_is_boolean(v))
		return json_is_true(v);
	const char *s = ddbc_import_string_value(v);
	if (s && (!strcmp(s, "true") || !strcmp(s, "false")))
		return !strcmp(s, "true");
	return -1;
}

/* A whole number property, or -1. */
static long long int_of(const json_t *v)
{
	if (json_is_integer(v))
		return json_integer_value(v);
	const char *s = ddbc_import_string_value(v);
	char *end;
	long long n = s ? strtoll(s, &end, 10) : -1;
	return s && *s && !*end ? n : -1;
}

static void not_kept(strbuf *lost, const char *what)
{
	ddbc_strbuf_addf(lost, "%s%s", lost->len ? ", " : "", what);
}

/* {read, write} of a throughput object's two members, when either is. */
static void throughput(json_t *out, const char *key, const json_t *o, const char *r,
		       const char *w, strbuf *lost)
{
	if (!o)
		return;
	json_t *t = json_object();
	long long rv = int_of(json_object_get(o, r)), wv = int_of(json_object_get(o, w));
	if (rv > 0)
		json_object_set_new(t, "read", json_integer(rv));
	if (wv > 0)
		json_object_set_new(t, "write", json_integer(wv));
	if (json_object_size(t))
		json_object_set_new(out, key, t);
	else {
		json_decref(t);
		not_kept(lost, key);
	}
}

static void lower_word(json_t *out, const char *key, const char *word)
{
	char *s = strdup(word);
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	json_object_set_new(out, key, json_string(s));
	free(s);
}

/* An enabled ContributorInsightsSpecification as `contributor_insights`
 * of out (a table or a GSI). */
static void insights(const json_t *ci, json_t *out)
{
	if (!ci || bool_of(json_object_get(ci, "Enabled")) != 1)
		return;
	const char *mode = ddbc_import_string_value(json_object_get(ci, "Mode"));
	json_object_set_new(out, "contributor_insights",
			    json_string(mode && !strcmp(mode, "THROTTLED_KEYS") ? "throttled" : "all"));
}

/* Tags as a list of {Key, Value} (CloudFormation, CreateTable,
 * ListTagsOfResource) or a map of strings (a SimpleTable's) as `tags`. */
static void tags_of(const json_t *tags, json_t *table, strbuf *lost)
{
	if (json_is_object(tags) && json_object_size(tags)) {
		/* AWS::Serverless::SimpleTable's Tags: a map of strings. */
		json_t *o = json_object();
		const char *k;
		const json_t *v;
		json_object_foreach((json_t *)tags, k, v) {
			if (ddbc_import_string_text(v))
				json_object_set_new(o, k, json_string(ddbc_import_string_text(v)));
			else
				not_kept(lost, "a tag");
		}
		json_object_set_new(table, "tags", o);
	} else if (json_is_array(tags) && json_array_size(tags)) {
		json_t *o = json_object();
		size_t i;
		const json_t *t;
		json_array_foreach(tags, i, t) {
			const char *k = ddbc_import_string_text(json_object_get(t, "Key"));
			const char *v = ddbc_import_string_text(json_object_get(t, "Value"));
			if (k && v)
				json_object_set_new(o, k, json_string(v));
			else
				not_kept(lost, "a tag");
		}
		json_object_set_new(table, "tags", o);
	}
}

/* A table class as DynamoDB names it (TableClass) as `table_class`;
 * STANDARD, the default a described table shows, only when standard (a
 * request that states it). */
static void table_class(const json_t *v, json_t *table, bool standard)
{
	const char *cls = ddbc_import_string_value(v);
	if (cls && !strcmp(cls, "STANDARD_INFREQUENT_ACCESS"))
		json_object_set_new(table, "table_class", json_string("standard_ia"));
	else if (cls && standard && !strcmp(cls, "STANDARD"))
		json_object_set_new(table, "table_class", json_string("standard"));
}

/* The settings a table (or a replica) holds of its own. */
static void own_settings(const json_t *p, json_t *table, strbuf *lost)
{
	const json_t *pitr = json_object_get(p, "PointInTimeRecoverySpecification");
	if (pitr) {
		int on = bool_of(json_object_get(pitr, "PointInTimeRecoveryEnabled"));
		long long days = int_of(json_object_get(pitr, "RecoveryPeriodInDays"));
		if (on < 0) {
			not_kept(lost, "PointInTimeRecoverySpecification");
		} else {
			json_t *o = json_pack("{s:b}", "enabled", on);
			if (on && days > 0)
				json_object_set_new(o, "recovery_days", json_integer(days));
			json_object_set_new(table, "pitr", o);
		}
	}
	const json_t *dp = json_object_get(p, "DeletionProtectionEnabled");
	if (dp && bool_of(dp) >= 0)
		json_object_set_new(table, "deletion_protection", json_boolean(bool_of(dp)));
	else if (dp)
		not_kept(lost, "DeletionProtectionEnabled");
	insights(json_object_get(p, "ContributorInsightsSpecification"), table);
	const json_t *policy = json_object_get(json_object_get(p, "ResourcePolicy"),
					       "PolicyDocument");
	if (policy) {
		char *text = json_is_string(policy) ? strdup(json_string_value(policy))
			     : json_dumps(policy, JSON_COMPACT | JSON_PRESERVE_ORDER);
		if (text && (text[0] == '{'))
			json_object_set_new(table, "resource_policy", json_string(text));
		else
			not_kept(lost, "ResourcePolicy");
		free(text);
	}
	tags_of(json_object_get(p, "Tags"), table, lost);
	table_class(json_object_get(p, "TableClass"), table, true);
}

/* The settings CloudFormation states once for the table. */
static void table_settings(const json_t *p, json_t *table, strbuf *lost)
{
	const char *view = ddbc_import_string_value(json_object_get(json_object_get(p,
				"StreamSpecification"), "StreamViewType"));
	if (view)
		lower_word(table, "stream", view);
	const json_t *sse = json_object_get(p, "SSESpecification");
	if (sse && bool_of(json_object_get(sse, "SSEEnabled")) == 1) {
		json_t *o = json_object();
		const char *key = ddbc_import_string_value(json_object_get(sse, "KMSMasterKeyId"));
		if (key)
			json_object_set_new(o, "kms_key", json_string(key));
		json_object_set_new(table, "sse", o);
	}
	throughput(table, "warm_throughput", json_object_get(p, "WarmThroughput"),
		   "ReadUnitsPerSecond", "WriteUnitsPerSecond", lost);
	throughput(table, "on_demand_max", json_object_get(p, "OnDemandThroughput"),
		   "MaxReadRequestUnits", "MaxWriteRequestUnits", lost);
}

/* The replica's (mine's) entry for GSI name, or NULL. */
static const json_t *replica_gsi(const json_t *mine, const char *name)
{
	size_t i;
	const json_t *x;
	json_array_foreach(json_object_get(mine, "GlobalSecondaryIndexes"), i, x) {
		const char *n = ddbc_import_string_value(json_object_get(x, "IndexName"));
		if (n && !strcmp(n, name))
			return x;
	}
	return NULL;
}

/* A GlobalTable GSI's maximum: its writes' on the table, its reads' on
 * the replica (mine) as OnDemandThroughput's members; NULL when neither. */
static json_t *global_gsi_max(const json_t *g, const json_t *mine, const char *name)
{
	const json_t *w = json_object_get(json_object_get(g, "WriteOnDemandThroughputSettings"),
					  "MaxWriteRequestUnits");
	const json_t *r = json_object_get(json_object_get(replica_gsi(mine, name),
							  "ReadOnDemandThroughputSettings"),
					  "MaxReadRequestUnits");
	if (!w && !r)
		return NULL;
	return json_pack("{s:O,s:O}", "MaxReadRequestUnits", r ? r : json_null(),
			 "MaxWriteRequestUnits", w ? w : json_null());
}

/* A GSI's warm and maximum throughput, into the table's gsi entry (a
 * GlobalTable's maximum from its write and read settings: mine is the
 * replica read, NULL for a Table). */
static void gsi_settings(const json_t *p, const json_t *mine, bool global, json_t *table,
			 strbuf *lost)
{
	json_t *gsis = json_object_get(table, "gsi");
	size_t i;
	const json_t *g;
	json_array_foreach(json_object_get(p, "GlobalSecondaryIndexes"), i, g) {
		const char *name = ddbc_import_string_value(json_object_get(g, "IndexName"));
		json_t *ix = name ? json_object_get(gsis, name) : NULL;
		if (!json_is_object(ix))
			continue;
		throughput(ix, "warm_throughput", json_object_get(g, "WarmThroughput"),
			   "ReadUnitsPerSecond", "WriteUnitsPerSecond", lost);
		json_t *max = global ? global_gsi_max(g, mine, name)
				     : json_incref(json_object_get(g, "OnDemandThroughput"));
		throughput(ix, "on_demand_max", max, "MaxReadRequestUnits", "MaxWriteRequestUnits",
			   lost);
		json_decref(max);
		/* A Table's GSI holds its Contributor Insights, a GlobalTable's
		 * replica holds each of its GSIs'. */
		insights(json_object_get(global ? replica_gsi(mine, name) : g,
					 "ContributorInsightsSpecification"), ix);
	}
}

/* A GlobalTable: its Regions (the stack's first), consistency, witness,
 * the table-wide settings, and the stack's replica's own. */
static const json_t *global_settings(const json_t *p, const char *region, json_t *table,
				     strbuf *lost)
{
	const json_t *replicas = json_object_get(p, "Replicas"), *mine = NULL, *r;
	size_t i;
	json_t *regions = json_array();
	json_array_foreach(replicas, i, r) {
		const char *name = ddbc_import_string_value(json_object_get(r, "Region"));
		if (!name) {
			not_kept(lost, "a replica's Region");
			continue;
		}
		if (region && !strcmp(name, region)) {
			mine = r;
			json_array_insert_new(regions, 0, json_string(name));
		} else {
			json_array_append_new(regions, json_string(name));
		}
	}
	if (json_array_size(regions))
		json_object_set_new(table, "replicas", regions);
	else
		json_decref(regions);
	const char *mode = ddbc_import_string_value(json_object_get(p, "MultiRegionConsistency"));
	if (mode)
		json_object_set_new(table, "consistency",
				    json_string(!strcmp(mode, "STRONG") ? "strong" : "eventual"));
	const char *witness = ddbc_import_string_value(json_object_get(
		json_array_get(json_object_get(p, "GlobalTableWitnesses"), 0), "Region"));
	if (witness)
		json_object_set_new(table, "witness", json_string(witness));
	table_settings(p, table, lost);
	/* The writes' maximum is the table's, the reads' each replica's. */
	const json_t *wmax = json_object_get(json_object_get(p, "WriteOnDemandThroughputSettings"),
					     "MaxWriteRequestUnits");
	if (!mine)
		mine = json_array_get(replicas, 0);
	const json_t *rmax = json_object_get(json_object_get(mine, "ReadOnDemandThroughputSettings"),
					     "MaxReadRequestUnits");
	if (wmax || rmax) {
		json_t *o = json_pack("{s:O,s:O}", "MaxReadRequestUnits", rmax ? rmax : json_null(),
				      "MaxWriteRequestUnits", wmax ? wmax : json_null());
		throughput(table, "on_demand_max", o, "MaxReadRequestUnits", "MaxWriteRequestUnits",
			   lost);
		json_decref(o);
	}
	if (mine) {
		own_settings(mine, table, lost);
		const char *key = ddbc_import_string_value(json_object_get(
			json_object_get(mine, "SSESpecification"), "KMSMasterKeyId"));
		if (key && json_object_get(table, "sse"))
			json_object_set_new(json_object_get(table, "sse"), "kms_key", json_string(key));
	}
	return mine;
}

void ddbc_import_cfn_settings(const json_t *props, bool global, const char *region,
			      json_t *table, strbuf *lost)
{
	const json_t *mine = NULL;
	if (global) {
		mine = global_settings(props, region, table, lost);
	} else {
		table_settings(props, table, lost);
		own_settings(props, table, lost);
	}
	gsi_settings(props, mine, global, table, lost);
}

/* ---- describe-table ---------------------------------------------------------------- */

/* A throughput object of a description, kept when it states a figure of
 * at least 1 (-1 and absence say there is none). */
static void described_throughput(json_t *out, const char *key, const json_t *o, const char *r,
				 const char *w, strbuf *lost)
{
	if (int_of(json_object_get(o, r)) > 0 || int_of(json_object_get(o, w)) > 0)
		throughput(out, key, o, r, w, lost);
}

/* The Region of a table's ARN (arn:aws:dynamodb:REGION:...), or NULL. */
static char *arn_region(const json_t *arn)
{
	const char *s = ddbc_import_string_value(arn);
	if (!s || strncmp(s, "arn:", 4))
		return NULL;
	const char *p = s;
	for (int colons = 0; *p && colons < 3; p++)
		colons += *p == ':';
	const char *end = strchr(p, ':');
	return end && end > p ? strndup(p, (size_t)(end - p)) : NULL;
}

void ddbc_import_described_settings(const json_t *t, json_t *table, strbuf *lost)
{
	const json_t *dp = json_object_get(t, "DeletionProtectionEnabled");
	if (bool_of(dp) >= 0)
		json_object_set_new(table, "deletion_protection", json_boolean(bool_of(dp)));
	const json_t *st = json_object_get(t, "StreamSpecification");
	const char *view = ddbc_import_string_value(json_object_get(st, "StreamViewType"));
	if (bool_of(json_object_get(st, "StreamEnabled")) == 1 && view)
		lower_word(table, "stream", view);
	const json_t *sse = json_object_get(t, "SSEDescription");
	const char *status = ddbc_import_string_value(json_object_get(sse, "Status"));
	if (status && (!strcmp(status, "ENABLED") || !strcmp(status, "ENABLING"))) {
		json_t *o = json_object();
		const char *key = ddbc_import_string_value(json_object_get(sse, "KMSMasterKeyArn"));
		if (key)
			json_object_set_new(o, "kms_key", json_string(key));
		json_object_set_new(table, "sse", o);
	}
	/* A live table always has a warm throughput (a new on-demand one
	 * 12,000 and 4,000): it is the table's, and kept as it is. */
	described_throughput(table, "warm_throughput", json_object_get(t, "WarmThroughput"),
			     "ReadUnitsPerSecond", "WriteUnitsPerSecond", lost);
	described_throughput(table, "on_demand_max", json_object_get(t, "OnDemandThroughput"),
			     "MaxReadRequestUnits", "MaxWriteRequestUnits", lost);
	json_t *gsis = json_object_get(table, "gsi");
	size_t i;
	const json_t *g;
	json_array_foreach(json_object_get(t, "GlobalSecondaryIndexes"), i, g) {
		const char *name = ddbc_import_string_value(json_object_get(g, "IndexName"));
		json_t *ix = name ? json_object_get(gsis, name) : NULL;
		if (!json_is_object(ix))
			continue;
		described_throughput(ix, "warm_throughput", json_object_get(g, "WarmThroughput"),
				     "ReadUnitsPerSecond", "WriteUnitsPerSecond", lost);
		described_throughput(ix, "on_demand_max", json_object_get(g, "OnDemandThroughput"),
				     "MaxReadRequestUnits", "MaxWriteRequestUnits", lost);
	}
	/* A global table's other Regions are its Replicas; its own is its ARN's. */
	const json_t *replicas = json_object_get(t, "Replicas"), *r;
	if (json_array_size(replicas)) {
		json_t *regions = json_array();
		char *own = arn_region(json_object_get(t, "TableArn"));
		if (own)
			json_array_append_new(regions, json_string(own));
		else
			not_kept(lost, "the table's own Region (no TableArn)");
		json_array_foreach(replicas, i, r) {
			const char *name = ddbc_import_string_value(json_object_get(r, "RegionName"));
			if (name && (!own || strcmp(name, own)))
				json_array_append_new(regions, json_string(name));
		}
		free(own);
		json_object_set_new(table, "replicas", regions);
		const char *mode = ddbc_import_string_value(json_object_get(t,
							   "MultiRegionConsistency"));
		json_object_set_new(table, "consistency",
				    json_string(mode && !strcmp(mode, "STRONG") ? "strong" : "eventual"));
		const char *witness = ddbc_import_string_value(json_object_get(
			json_array_get(json_object_get(t, "GlobalTableWitnesses"), 0), "RegionName"));
		if (witness)
			json_object_set_new(table, "witness", json_string(witness));
	}
}

/* One answer of DescribeContributorInsights, or one summary of
 * ListContributorInsights: the table's (no IndexName) or its GSI's,
 * `contributor_insights` of it when enabled. */
static void insights_answer(const json_t *a, json_t *table, strbuf *lost)
{
	const char *status = ddbc_import_string_value(json_object_get(a,
							"ContributorInsightsStatus"));
	if (!status || (strcmp(status, "ENABLED") != 0 && strcmp(status, "ENABLING") != 0))
		return;
	const char *index = ddbc_import_string_value(json_object_get(a, "IndexName"));
	json_t *out = table;
	if (index) {
		out = json_object_get(json_object_get(table, "gsi"), index);
		if (!json_is_object(out)) {
			not_kept(lost, "Contributor Insights of an index the table lacks");
			return;
		}
	}
	const char *mode = ddbc_import_string_value(json_object_get(a, "ContributorInsightsMode"));
	json_object_set_new(out, "contributor_insights",
			    json_string(mode && !strcmp(mode, "THROTTLED_KEYS") ? "throttled" : "all"));
}

void ddbc_import_answered_settings(const json_t *root, const json_t *t, json_t *table,
				   strbuf *lost)
{
	table_class(json_object_get(json_object_get(t, "TableClassSummary"), "TableClass"), table,
		    false);
	table_class(json_object_get(t, "TableClass"), table, true);
	tags_of(json_object_get(root, "Tags"), table, lost);
	/* GetResourcePolicy's Policy, or a CreateTable request's
	 * ResourcePolicy: the policy document as text. */
	const json_t *policy = json_object_get(root, "Policy");
	if (!policy)
		policy = json_object_get(root, "ResourcePolicy");
	const char *text = ddbc_import_string_value(policy);
	if (text && text[strspn(text, " \t\r\n")] == '{')
		json_object_set_new(table, "resource_policy", json_string(text));
	else if (policy)
		not_kept(lost, "the resource policy (no JSON document)");
	if (json_object_get(root, "ContributorInsightsStatus"))
		insights_answer(root, table, lost);
	size_t i;
	const json_t *a;
	json_array_foreach(json_object_get(root, "ContributorInsightsSummaries"), i, a) {
		const char *name = ddbc_import_string_value(json_object_get(a, "TableName"));
		const char *own = ddbc_import_string_value(json_object_get(t, "TableName"));
		if (!name || !own || !strcmp(name, own))
			insights_answer(a, table, lost);
	}
}
