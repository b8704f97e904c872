/* diff_plan.c - the deployment steps from OLD's tables to NEW's
 *
 * DynamoDB's rules shape the graph (diff_graph.h): UpdateTable creates or
 * deletes at most one GSI per call, and each call on a table needs the one
 * before done (the table ACTIVE again, a new index backfilled), with the
 * AttributeDefinitions of the index it creates; LSIs and the key schema
 * exist only from CreateTable; TTL is switched off on the old attribute,
 * and DynamoDB refuses another UpdateTimeToLive on the table for an hour,
 * so the switch on for the new one needs a wait; a switch to provisioned
 * billing states the throughput of the table and of every GSI it keeps,
 * so it stands after the deletions and before the creations. What no API
 * call does (a new table, item rewrites, DeleteTable, the wait) is a
 * manual step carrying the facts it needs, placed where its needs are;
 * so are the deployments of the code around them (diff_plan_code.c).
 */
#include "diff/diff.h"
#include "diff/diff_graph.h"
#include "diff/diff_int.h"
#include "emit/emit_json.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* DynamoDB refuses a second UpdateTimeToLive on a table within one hour
 * of the last (UpdateTimeToLive, API reference). */
#define TTL_WAIT_SECONDS 3600

static size_t api_step(plan *p, const char *operation, json_t *input, const char *makes)
{
	json_t *o = json_object();
	json_object_set_new(o, "operation", json_string(operation));
	json_object_set_new(o, "input", input);
	return ddbc_diff_plan_add(&p->g, o, "%s", makes);
}

size_t ddbc_diff_plan_manual(plan *p, const char *action, json_t *facts, const char *makes,
		   const char *fmt, ...)
{
	strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	json_t *o = json_object();
	json_object_set_new(o, "manual", ddbc_json_str(ddbc_strbuf_str(&sb)));
	json_object_set_new(o, "action", json_string(action));
	json_object_update(o, facts);
	json_decref(facts);
	ddbc_strbuf_release(&sb);
	return ddbc_diff_plan_add(&p->g, o, "%s", makes);
}

plan_table *ddbc_diff_plan_table_named(plan *p, const char *name)
{
	for (size_t i = 0; name && i < p->new->ntables; i++)
		if (ddbc_diff_str_same(p->new->tables[i].name.s, name))
			return &p->tables[i];
	return NULL;
}

void ddbc_diff_plan_around_indexes(plan *p, const plan_table *pt, size_t step, const char *name)
{
	if (!pt || !pt->t0)
		return;
	for (size_t i = 0; pt->gsi_deleted && i < pt->t0->ngsi; i++)
		if (ddbc_index_has_key(&pt->t0->gsi[i], name))
			ddbc_diff_plan_need(&p->g, step, pt->gsi_deleted[i]);
	for (size_t i = 0; pt->gsi_created && i < pt->t1->ngsi; i++)
		if (ddbc_index_has_key(&pt->t1->gsi[i], name))
			ddbc_diff_plan_need(&p->g, pt->gsi_created[i], step);
}

/* ---- API steps ----------------------------------------------------------------------- */

static json_t *update_table(const ddbc_table *t)
{
	json_t *in = json_object();
	json_object_set_new(in, "TableName", ddbc_json_str(t->name.s));
	return in;
}

/* An UpdateTable on pt's table: after the one before it. */
static size_t update_step(plan *p, plan_table *pt, json_t *in, const char *makes)
{
	size_t s = api_step(p, "UpdateTable", in, makes);
	ddbc_diff_plan_need(&p->g, s, pt->last_update);
	pt->last_update = s;
	return s;
}

static json_t *one_gsi_update(const char *verb, json_t *body)
{
	json_t *update = json_object(), *list = json_array();
	json_object_set_new(update, verb, body);
	json_array_append_new(list, update);
	return list;
}

static size_t ttl_step(plan *p, const ddbc_table *t, const char *attr, bool enabled)
{
	json_t *in = json_object(), *spec = json_object();
	json_object_set_new(in, "TableName", ddbc_json_str(t->name.s));
	json_object_set_new(spec, "Enabled", json_boolean(enabled));
	json_object_set_new(spec, "AttributeName", ddbc_json_str(attr));
	json_object_set_new(in, "TimeToLiveSpecification", spec);
	strbuf makes = STRBUF_INIT;
	ddbc_strbuf_addf(&makes, "TTL of table '%s' is %s on '%s'", t->name.s,
		    enabled ? "enabled" : "disabled", attr);
	size_t s = api_step(p, "UpdateTimeToLive", in, ddbc_strbuf_str(&makes));
	ddbc_strbuf_release(&makes);
	return s;
}

static void gsi_deletes(plan *p, plan_table *pt)
{
	const ddbc_table *t0 = pt->t0, *t1 = pt->t1;
	for (size_t i = 0; i < t0->ngsi; i++) {
		const ddbc_index *g0 = &t0->gsi[i], *g1 = ddbc_diff_gsi(t1, g0->name.s);
		if (g1 && ddbc_diff_index_same(g0, g1))
			continue;
		json_t *in = update_table(t1), *del = json_object();
		json_object_set_new(del, "IndexName", ddbc_json_str(g0->name.s));
		json_object_set_new(in, "GlobalSecondaryIndexUpdates", one_gsi_update("Delete", del));
		strbuf makes = STRBUF_INIT;
		ddbc_strbuf_addf(&makes, "GSI '%s' of table '%s' is deleted", g0->name.s, t1->name.s);
		pt->gsi_deleted[i] = update_step(p, pt, in, ddbc_strbuf_str(&makes));
		ddbc_strbuf_release(&makes);
	}
}

/* Appends ix's key attribute definitions to defs, each name once. */
static void add_definitions(json_t *defs, const ddbc_table *t, const ddbc_index *ix)
{
	json_t *more = ddbc_json_index_definitions(t, ix);
	size_t i, k;
	json_t *d, *e;
	json_array_foreach(more, i, d) {
		const char *name = json_string_value(json_object_get(d, "AttributeName"));
		bool known = false;
		json_array_foreach(defs, k, e)
			known = known || !strcmp(name, json_string_value(json_object_get(e,
							"AttributeName")));
		if (!known)
			json_array_append(defs, d);
	}
	json_decref(more);
}

/* The AttributeDefinitions of the UpdateTable that creates t1's GSI
 * number upto: every key attribute of the table as it is once that GSI
 * exists (its keys, its LSIs, the GSIs kept, those created before). DynamoDB
 * needs the new index's; naming the others as they are keeps servers that
 * take the list as the whole table's (moto does) right too. */
static json_t *definitions_after(const ddbc_table *t0, const ddbc_table *t1, size_t upto)
{
	json_t *defs = json_array();
	add_definitions(defs, t1, &t1->primary);
	for (size_t i = 0; i < t1->nlsi; i++)
		add_definitions(defs, t1, &t1->lsi[i]);
	for (size_t i = 0; i < t1->ngsi; i++) {
		const ddbc_index *g0 = ddbc_diff_gsi(t0, t1->gsi[i].name.s);
		if (i <= upto || (g0 && ddbc_diff_index_same(g0, &t1->gsi[i])))
			add_definitions(defs, t1, &t1->gsi[i]);
	}
	return defs;
}

static void gsi_creates(plan *p, plan_table *pt)
{
	const ddbc_table *t0 = pt->t0, *t1 = pt->t1;
	for (size_t i = 0; i < t1->ngsi; i++) {
		const ddbc_index *g1 = &t1->gsi[i], *g0 = ddbc_diff_gsi(t0, g1->name.s);
		if (g0 && ddbc_diff_index_same(g0, g1))
			continue;
		json_t *in = update_table(t1);
		json_object_set_new(in, "AttributeDefinitions", definitions_after(t0, t1, i));
		json_object_set_new(in, "GlobalSecondaryIndexUpdates",
				    one_gsi_update("Create", ddbc_json_secondary_index(t1, g1)));
		strbuf makes = STRBUF_INIT;
		ddbc_strbuf_addf(&makes, "GSI '%s' of table '%s' exists as NEW defines it, backfilled",
			    g1->name.s, t1->name.s);
		pt->gsi_created[i] = update_step(p, pt, in, ddbc_strbuf_str(&makes));
		ddbc_strbuf_release(&makes);
	}
}

static bool capacity_same(const ddbc_capacity *a, const ddbc_capacity *b)
{
	return a->set == b->set && (!a->set || (a->read == b->read && a->write == b->write));
}

/* The throughput a GSI has under provisioned billing: its own, else the
 * table's (as CreateTable states it). */
static const ddbc_capacity *gsi_capacity(const ddbc_index *g)
{
	return g->capacity.set ? &g->capacity : &g->table->capacity;
}

/* Update entries for the GSIs kept as they are whose throughput must be
 * stated: all of them on a switch to provisioned, else those whose
 * capacity changed. NULL when none. */
static json_t *kept_gsi_throughput(const ddbc_table *t0, const ddbc_table *t1, bool switching)
{
	json_t *list = json_array();
	for (size_t i = 0; i < t1->ngsi; i++) {
		const ddbc_index *g1 = &t1->gsi[i], *g0 = ddbc_diff_gsi(t0, g1->name.s);
		if (!g0 || !ddbc_diff_index_same(g0, g1) || !gsi_capacity(g1)->set)
			continue;
		if (!switching && capacity_same(gsi_capacity(g0), gsi_capacity(g1)))
			continue;
		json_t *body = json_object(), *update = json_object();
		json_object_set_new(body, "IndexName", ddbc_json_str(g1->name.s));
		json_object_set_new(body, "ProvisionedThroughput",
				    ddbc_json_throughput(gsi_capacity(g1)));
		json_object_set_new(update, "Update", body);
		json_array_append_new(list, update);
	}
	if (json_array_size(list))
		return list;
	json_decref(list);
	return NULL;
}

static void billing_step(plan *p, plan_table *pt)
{
	const ddbc_table *t0 = pt->t0, *t1 = pt->t1;
	bool provisioned = t1->billing == DDBC_BILLING_PROVISIONED;
	bool switching = t0->billing != t1->billing;
	if (!switching && !provisioned)
		return;
	json_t *in = update_table(t1);
	if (switching)
		json_object_set_new(in, "BillingMode",
				    json_string(provisioned ? "PROVISIONED" : "PAY_PER_REQUEST"));
	if (provisioned && t1->capacity.set &&
	    (switching || !capacity_same(&t0->capacity, &t1->capacity)))
		json_object_set_new(in, "ProvisionedThroughput", ddbc_json_throughput(&t1->capacity));
	json_t *gsis = provisioned ? kept_gsi_throughput(t0, t1, switching) : NULL;
	if (gsis)
		json_object_set_new(in, "GlobalSecondaryIndexUpdates", gsis);
	if (json_object_size(in) < 2) {
		json_decref(in);
		return;
	}
	strbuf makes = STRBUF_INIT;
	ddbc_strbuf_addf(&makes, "table '%s' is billed %s%s", t1->name.s,
		    provisioned ? "for provisioned throughput" : "on demand",
		    provisioned ? " as NEW states it" : "");
	update_step(p, pt, in, ddbc_strbuf_str(&makes));
	ddbc_strbuf_release(&makes);
}

/* ---- the table settings (SPEC 8.7) ------------------------------------------------- */

/* An UpdateTable setting one field of t1 to v, after the table's last. */
static void setting_update(plan *p, plan_table *pt, const char *field, json_t *v,
			   const char *makes)
{
	json_t *in = update_table(pt->t1);
	json_object_set_new(in, field, v);
	strbuf m = STRBUF_INIT;
	ddbc_strbuf_addf(&m, "table '%s' %s", pt->t1->name.s, makes);
	update_step(p, pt, in, ddbc_strbuf_str(&m));
	ddbc_strbuf_release(&m);
}

/* OnDemandThroughput of NEW, -1 for a figure NEW no longer limits
 * (UpdateTable: "To remove the maximum ... set the value to -1"). */
static json_t *on_demand_update(const ddbc_throughput *t0, const ddbc_throughput *t1)
{
	json_t *o = json_object();
	if (t1->read || t0->read)
		json_object_set_new(o, "MaxReadRequestUnits", json_integer(t1->read ? t1->read : -1));
	if (t1->write || t0->write)
		json_object_set_new(o, "MaxWriteRequestUnits",
				    json_integer(t1->write ? t1->write : -1));
	return o;
}

/* The changes of GSI g1's own throughput from v[i] on, as one Update
 * entry (DynamoDB takes them together); *used: how many of v it took. */
static json_t *gsi_throughput(const diff_setting *v, size_t n, size_t *used)
{
	const ddbc_index *g0 = v[0].g0, *g1 = v[0].g1;
	json_t *body = json_pack("{s:s}", "IndexName", g1->name.s);
	size_t k = 0;
	for (; k < n && v[k].g1 == g1 && (v[k].kind == DIFF_SET_ON_DEMAND_MAX ||
					  v[k].kind == DIFF_SET_WARM); k++) {
		if (v[k].kind == DIFF_SET_ON_DEMAND_MAX)
			json_object_set_new(body, "OnDemandThroughput",
					    on_demand_update(&g0->on_demand_max, &g1->on_demand_max));
		else if (v[k].kind == DIFF_SET_WARM && v[k].on)
			json_object_set_new(body, "WarmThroughput",
					    ddbc_diff_warm_raise(&g0->warm, &g1->warm));
	}
	*used = k;
	if (json_object_size(body) > 1)
		return one_gsi_update("Update", body);
	json_decref(body);
	return NULL;
}

static json_t *stream_spec(ddbc_stream stream)
{
	return stream ? json_pack("{s:b,s:s}", "StreamEnabled", 1, "StreamViewType",
				  ddbc_stream_view_type(stream))
		      : json_pack("{s:b}", "StreamEnabled", 0);
}

static json_t *sse_spec(const ddbc_table_settings *s1)
{
	json_t *sse = json_pack("{s:b}", "Enabled", s1->has_sse);
	if (s1->has_sse)
		json_object_set_new(sse, "SSEType", json_string("KMS"));
	if (s1->kms_key.s)
		json_object_set_new(sse, "KMSMasterKeyId", ddbc_json_str(s1->kms_key.s));
	return sse;
}

/* The UpdateTable call of one change of the table itself. */
static void table_setting_step(plan *p, plan_table *pt, const diff_setting *c)
{
	const ddbc_table_settings *s0 = &pt->t0->settings, *s1 = &pt->t1->settings;
	switch (c->kind) {
	case DIFF_SET_TABLE_CLASS:
		setting_update(p, pt, "TableClass",
			       json_string(c->on ? "STANDARD_INFREQUENT_ACCESS" : "STANDARD"),
			       c->on ? "is of the Standard-IA class" : "is of the Standard class");
		break;
	case DIFF_SET_DELETION_PROTECTION:
		setting_update(p, pt, "DeletionProtectionEnabled", json_boolean(c->on),
			       c->on ? "is protected from deletion" : "may be deleted");
		break;
	case DIFF_SET_STREAM:
		/* A stream's view type is fixed: off, then on with the new one. */
		if (s0->stream)
			setting_update(p, pt, "StreamSpecification", stream_spec(DDBC_STREAM_NONE),
				       "has no stream");
		if (s1->stream)
			setting_update(p, pt, "StreamSpecification", stream_spec(s1->stream),
				       "streams its changes as NEW says");
		break;
	case DIFF_SET_SSE:
		setting_update(p, pt, "SSESpecification", sse_spec(s1), "is encrypted as NEW says");
		break;
	case DIFF_SET_ON_DEMAND_MAX:
		setting_update(p, pt, "OnDemandThroughput",
			       on_demand_update(&s0->on_demand_max, &s1->on_demand_max),
			       "has NEW's maximum throughput");
		break;
	case DIFF_SET_WARM:
		if (c->on)   /* only the figures raised: warm-throughput-lowered says the rest */
			setting_update(p, pt, "WarmThroughput",
				       ddbc_diff_warm_raise(&s0->warm, &s1->warm),
				       "has NEW's warm throughput");
		break;
	default:
		break;
	}
}

/* A replica added or removed per UpdateTable call (ReplicaUpdates). */
static void replica_step(plan *p, plan_table *pt, const diff_setting *c)
{
	json_t *list = json_pack("[{s:{s:s}}]", c->on ? "Create" : "Delete", "RegionName",
				 c->region);
	strbuf m = STRBUF_INIT;
	ddbc_strbuf_addf(&m, "has %s replica in %s", c->on ? "a" : "no", c->region);
	setting_update(p, pt, "ReplicaUpdates", list, ddbc_strbuf_str(&m));
	ddbc_strbuf_release(&m);
}

/* The UpdateTable that makes new table t1 multi-Region strongly
 * consistent: its replicas and its witness in one call, on the empty
 * table CreateTable made (CreateTable takes neither; a witness "must be
 * added when creating the MRSC global table"). */
static json_t *mrsc_input(const ddbc_table *t1)
{
	const ddbc_table_settings *s1 = &t1->settings;
	json_t *in = update_table(t1), *replicas = json_array();
	for (size_t i = 1; i < s1->nreplicas; i++)
		json_array_append_new(replicas, json_pack("{s:{s:s}}", "Create", "RegionName",
							  s1->replicas[i].s));
	json_object_set_new(in, "ReplicaUpdates", replicas);
	if (s1->witness.s)
		json_object_set_new(in, "GlobalTableWitnessUpdates",
				    json_pack("[{s:{s:s}}]", "Create", "RegionName", s1->witness.s));
	json_object_set_new(in, "MultiRegionConsistency", json_string("STRONG"));
	return in;
}

static void mrsc_step(plan *p, plan_table *pt)
{
	strbuf m = STRBUF_INIT;
	ddbc_strbuf_addf(&m, "table '%s' is multi-Region strongly consistent in NEW's Regions",
		    pt->t1->name.s);
	update_step(p, pt, mrsc_input(pt->t1), ddbc_strbuf_str(&m));
	ddbc_strbuf_release(&m);
}

/* MRSC table t0 made single-Region: its other replicas and its witness
 * deleted in one UpdateTable, as DynamoDB requires (it deletes no single
 * replica or witness of an MRSC table, nor all its replicas at once). */
static void dissolve_step(plan *p, plan_table *pt)
{
	const ddbc_table_settings *s0 = &pt->t0->settings;
	json_t *in = update_table(pt->t1), *replicas = json_array();
	for (size_t i = 1; i < s0->nreplicas; i++)
		json_array_append_new(replicas, json_pack("{s:{s:s}}", "Delete", "RegionName",
							  s0->replicas[i].s));
	json_object_set_new(in, "ReplicaUpdates", replicas);
	if (s0->witness.s)
		json_object_set_new(in, "GlobalTableWitnessUpdates",
				    json_pack("[{s:{s:s}}]", "Delete", "RegionName", s0->witness.s));
	strbuf m = STRBUF_INIT;
	ddbc_strbuf_addf(&m, "table '%s' is a single-Region table in %s", pt->t1->name.s,
		    s0->replicas[0].s);
	update_step(p, pt, in, ddbc_strbuf_str(&m));
	ddbc_strbuf_release(&m);
}

/* UpdateContinuousBackups's input for t1, PITR on or off; the period is
 * stated when NEW writes it or (days_changed) it differs from OLD's. */
static json_t *pitr_input(const ddbc_table *t1, bool on, bool days_changed)
{
	json_t *spec = json_pack("{s:b}", "PointInTimeRecoveryEnabled", on);
	if (on && (t1->settings.recovery_days || days_changed))
		json_object_set_new(spec, "RecoveryPeriodInDays",
				    json_integer(ddbc_diff_recovery_days(&t1->settings)));
	return json_pack("{s:s,s:o}", "TableName", t1->name.s,
			 "PointInTimeRecoverySpecification", spec);
}

static void pitr_step(plan *p, const diff_setting *c, const ddbc_table *t1, size_t made)
{
	strbuf m = STRBUF_INIT;
	ddbc_strbuf_addf(&m, "point-in-time recovery of table '%s' is %s", t1->name.s,
		    c->on ? "on as NEW says" : "off");
	ddbc_diff_plan_need(&p->g, api_step(p, "UpdateContinuousBackups",
				  pitr_input(t1, c->on, c->old_loc.line != 0), ddbc_strbuf_str(&m)),
		  made);
	ddbc_strbuf_release(&m);
}

/* UpdateContributorInsights's input for t1, or its GSI g1 (non-NULL),
 * turning it on in NEW's mode or off. */
static json_t *insights_input(const ddbc_table *t1, const ddbc_index *g1, bool on)
{
	ddbc_insights mode = g1 ? g1->insights : t1->settings.insights;
	json_t *in = json_pack("{s:s,s:s}", "TableName", t1->name.s, "ContributorInsightsAction",
			       on ? "ENABLE" : "DISABLE");
	if (g1)
		json_object_set_new(in, "IndexName", ddbc_json_str(g1->name.s));
	if (on)
		json_object_set_new(in, "ContributorInsightsMode",
				    json_string(mode == DDBC_INSIGHTS_ALL ? "ACCESSED_AND_THROTTLED_KEYS"
						: "THROTTLED_KEYS"));
	return in;
}

/* UpdateContributorInsights of the table, or of GSI c->g1 (its
 * IndexName), after made. */
static void insights_step(plan *p, const diff_setting *c, const ddbc_table *t1, size_t made)
{
	strbuf m = STRBUF_INIT;
	if (c->g1)
		ddbc_strbuf_addf(&m, "Contributor Insights of GSI '%s' of table '%s' is %s", c->g1->name.s,
			    t1->name.s, c->on ? "on as NEW says" : "off");
	else
		ddbc_strbuf_addf(&m, "Contributor Insights of table '%s' is %s", t1->name.s,
			    c->on ? "on as NEW says" : "off");
	ddbc_diff_plan_need(&p->g, api_step(p, "UpdateContributorInsights",
				  insights_input(t1, c->g1, c->on), ddbc_strbuf_str(&m)), made);
	ddbc_strbuf_release(&m);
}

/* Tags are set on the table's ARN, which only the account knows: a manual
 * step with what to set and what to remove. */
static void tags_step(plan *p, plan_table *pt)
{
	const ddbc_table_settings *s0 = &pt->t0->settings, *s1 = &pt->t1->settings;
	const char *name = pt->t1->name.s;
	json_t *f = json_pack("{s:s,s:o,s:[]}", "table", name, "tags", ddbc_json_tags(s1),
			      "untag");
	for (size_t i = 0; i < s0->ntags; i++) {
		bool kept = false;
		for (size_t k = 0; k < s1->ntags && !kept; k++)
			kept = !strcmp(s0->tags[i].key.s, s1->tags[k].key.s);
		if (!kept)
			json_array_append_new(json_object_get(f, "untag"),
					      ddbc_json_str(s0->tags[i].key.s));
	}
	strbuf m = STRBUF_INIT;
	ddbc_strbuf_addf(&m, "table '%s' has NEW's tags", name);
	ddbc_diff_plan_need(&p->g, ddbc_diff_plan_manual(p, "tag-table", f, ddbc_strbuf_str(&m),
				     "tag table '%s' as NEW says (TagResource with 'tags', "
				     "UntagResource with 'untag', on the table's ARN)", name),
		  pt->last_update);
	ddbc_strbuf_release(&m);
}

static void policy_step(plan *p, plan_table *pt)
{
	const ddbc_table_settings *s1 = &pt->t1->settings;
	const char *name = pt->t1->name.s;
	json_t *f = json_pack("{s:s}", "table", name);
	if (s1->policy)
		json_object_set_new(f, "policy", json_stringn(s1->policy, s1->policy_bytes));
	strbuf m = STRBUF_INIT;
	ddbc_strbuf_addf(&m, "table '%s' has NEW's resource policy", name);
	ddbc_diff_plan_need(&p->g, ddbc_diff_plan_manual(p, "put-resource-policy", f, ddbc_strbuf_str(&m),
				     "%s the resource policy of table '%s' on its ARN (DynamoDB "
				     "takes one policy update on a resource at a time, about 15 "
				     "seconds apart)", s1->policy ? "put" : "delete", name),
		  pt->last_update);
	ddbc_strbuf_release(&m);
}

/* The step that created GSI g1 of pt's kept table, or PLAN_NONE. */
static size_t gsi_creation(const plan_table *pt, const ddbc_index *g1)
{
	for (size_t i = 0; pt->t0 && pt->gsi_created && i < pt->t1->ngsi; i++)
		if (&pt->t1->gsi[i] == g1)
			return pt->gsi_created[i];
	return PLAN_NONE;
}

/* A step for each change of the settings (diff_settings.c: the changes
 * the findings announce), in their order: the UpdateTable calls one
 * after the other, then the calls of their own once the last is done.
 * The Contributor Insights of a GSI the table gets (created) waits for
 * its creation: a pass of its own, after the GSIs are created. */
static void settings_steps(plan *p, plan_table *pt, bool created)
{
	diff_settings changes = { NULL, 0, 0 };
	ddbc_diff_settings(pt->t0, pt->t1, &changes);
	bool mrsc = !pt->t0 && pt->t1->settings.strong;
	bool dissolve = pt->t0 && ddbc_diff_mrsc_dissolved(pt->t0, pt->t1);
	if (mrsc && pt->t1->settings.nreplicas > 1 && !created)
		mrsc_step(p, pt);
	if (dissolve && !created)
		dissolve_step(p, pt);
	for (size_t i = 0, used; i < changes.n; i += used) {
		const diff_setting *c = &changes.v[i];
		used = 1;
		bool of_created = pt->t0 && c->g1 && !c->g0 && c->kind == DIFF_SET_INSIGHTS;
		if (of_created != created)
			continue;
		if (of_created) {
			insights_step(p, c, pt->t1, gsi_creation(pt, c->g1));
		} else if (c->g1 && c->kind == DIFF_SET_INSIGHTS) {
			insights_step(p, c, pt->t1, pt->last_update);
		} else if (c->g1) {
			json_t *u = gsi_throughput(c, changes.n - i, &used);
			if (u)
				setting_update(p, pt, "GlobalSecondaryIndexUpdates", u,
					       "has NEW's GSI throughput");
		} else if (c->kind == DIFF_SET_REPLICA || c->kind == DIFF_SET_WITNESS) {
			if (!mrsc && !dissolve && c->kind == DIFF_SET_REPLICA)
				replica_step(p, pt, c);
		} else if (c->kind == DIFF_SET_PITR) {
			pitr_step(p, c, pt->t1, pt->last_update);
		} else if (c->kind == DIFF_SET_INSIGHTS) {
			insights_step(p, c, pt->t1, pt->last_update);
		} else if (c->kind == DIFF_SET_TAGS) {
			tags_step(p, pt);
		} else if (c->kind == DIFF_SET_POLICY) {
			policy_step(p, pt);
		} else if (pt->t0) {
			table_setting_step(p, pt, c);
		}
	}
	ddbc_diff_settings_release(&changes);
}

/* TTL moved from one attribute to another (or set, or removed): off on the
 * old, the items given the new attribute, an hour's wait, on for the new. */
static void ttl_steps(plan *p, plan_table *pt, size_t off)
{
	const ddbc_table *t0 = pt->t0, *t1 = pt->t1;
	if (ddbc_diff_str_same(t0->ttl.s, t1->ttl.s) || !t1->ttl.s)
		return;
	size_t backfill = PLAN_NONE, wait = PLAN_NONE;
	if (t0->ttl.s) {
		json_t *f = json_object();
		json_object_set_new(f, "table", ddbc_json_str(t1->name.s));
		json_object_set_new(f, "old_attribute", ddbc_json_str(t0->ttl.s));
		json_object_set_new(f, "new_attribute", ddbc_json_str(t1->ttl.s));
		/* The old attribute goes when no entity of NEW keeps it. */
		bool kept = false;
		for (size_t i = 0; i < t1->nentities && !kept; i++)
			kept = ddbc_entity_attr(t1->entities[i], t0->ttl.s) != NULL;
		json_object_set_new(f, "remove_old_attribute", json_boolean(!kept));
		strbuf makes = STRBUF_INIT;
		ddbc_strbuf_addf(&makes, "every item of table '%s' that holds '%s' holds '%s' with its "
			    "value", t1->name.s, t0->ttl.s, t1->ttl.s);
		backfill = ddbc_diff_plan_manual(p, "backfill-ttl", f, ddbc_strbuf_str(&makes),
				       "copy '%s' to '%s' in every item of table '%s' that lacks "
				       "'%s'%s: items that only hold the old attribute never expire "
				       "once TTL reads the new one", t0->ttl.s, t1->ttl.s,
				       t1->name.s, t1->ttl.s, kept ? "" :
				       ", and remove the old attribute");
		ddbc_diff_plan_need(&p->g, backfill, off);
		/* The new attribute's value is the item's own: migrate copies it. */
		p->g.v[backfill].migrate = true;
		pt->ttl_backfill = backfill;
		ddbc_strbuf_reset(&makes);
		ddbc_strbuf_addf(&makes, "DynamoDB accepts another UpdateTimeToLive on table '%s'",
			    t1->name.s);
		f = json_object();
		json_object_set_new(f, "table", ddbc_json_str(t1->name.s));
		json_object_set_new(f, "wait_seconds", json_integer(TTL_WAIT_SECONDS));
		wait = ddbc_diff_plan_manual(p, "wait", f, ddbc_strbuf_str(&makes),
				   "wait one hour after TTL was disabled on table '%s' (until "
				   "DescribeTimeToLive says DISABLED): DynamoDB refuses another "
				   "UpdateTimeToLive on the table within that hour", t1->name.s);
		ddbc_diff_plan_need(&p->g, wait, off);
		ddbc_strbuf_release(&makes);
	}
	size_t on = ttl_step(p, t1, t1->ttl.s, true);
	ddbc_diff_plan_need(&p->g, on, wait);
	ddbc_diff_plan_need(&p->g, on, backfill);
}

static void table_steps(plan *p, plan_table *pt)
{
	pt->gsi_deleted = ddbc_xcalloc(pt->t0->ngsi + 1, sizeof(size_t));
	pt->gsi_created = ddbc_xcalloc(pt->t1->ngsi + 1, sizeof(size_t));
	for (size_t i = 0; i < pt->t0->ngsi; i++)
		pt->gsi_deleted[i] = PLAN_NONE;
	for (size_t i = 0; i < pt->t1->ngsi; i++)
		pt->gsi_created[i] = PLAN_NONE;
	/* The hour's wait runs from the disable: it comes first, and the
	 * index work can be done while the hour passes. */
	bool ttl_moves = !ddbc_diff_str_same(pt->t0->ttl.s, pt->t1->ttl.s);
	size_t off = ttl_moves && pt->t0->ttl.s ? ttl_step(p, pt->t1, pt->t0->ttl.s, false)
		     : PLAN_NONE;
	gsi_deletes(p, pt);
	billing_step(p, pt);
	settings_steps(p, pt, false);
	gsi_creates(p, pt);
	settings_steps(p, pt, true);
	ttl_steps(p, pt, off);
}

static json_t *request(const char *operation, json_t *input)
{
	return json_pack("{s:s,s:o}", "operation", operation, "input", input);
}

/* The calls that give the new table t1 the settings CreateTable cannot
 * hold (the replicas of an eventually consistent global table, one per
 * UpdateTable as replica_step adds them; its TTL, PITR, Contributor
 * Insights of the table and of each GSI), in order, or NULL when it needs
 * none: CreateTable holds the rest (deletion protection, stream, SSE,
 * tags, the policy, table class, throughput), and make_mrsc an MRSC
 * table's Regions. */
static json_t *after_create(const ddbc_table *t1)
{
	const ddbc_table_settings *s1 = &t1->settings;
	json_t *calls = json_array();
	for (size_t i = 1; !s1->strong && i < s1->nreplicas; i++)
		json_array_append_new(calls, request("UpdateTable",
			json_pack("{s:s,s:[{s:{s:s}}]}", "TableName", t1->name.s, "ReplicaUpdates",
				  "Create", "RegionName", s1->replicas[i].s)));
	if (t1->ttl.s)
		json_array_append_new(calls, request("UpdateTimeToLive",
			json_pack("{s:s,s:{s:b,s:s}}", "TableName", t1->name.s,
				  "TimeToLiveSpecification", "Enabled", 1, "AttributeName",
				  t1->ttl.s)));
	if (s1->has_pitr && s1->pitr)
		json_array_append_new(calls, request("UpdateContinuousBackups",
						     pitr_input(t1, true, false)));
	if (s1->insights != DDBC_INSIGHTS_NONE)
		json_array_append_new(calls, request("UpdateContributorInsights",
						     insights_input(t1, NULL, true)));
	for (size_t i = 0; i < t1->ngsi; i++)
		if (t1->gsi[i].insights != DDBC_INSIGHTS_NONE)
			json_array_append_new(calls, request("UpdateContributorInsights",
							     insights_input(t1, &t1->gsi[i], true)));
	if (json_array_size(calls))
		return calls;
	json_decref(calls);
	return NULL;
}

/* A table whose key schema or LSIs changed: only a new table has them.
 * The new table is NEW's whole table: its settings come with it (in
 * create_table, make_mrsc and after_create), none is left behind with
 * the old one. */
static size_t replace_step(plan *p, const ddbc_table *t0, const ddbc_table *t1)
{
	json_t *f = json_object();
	json_object_set_new(f, "table", ddbc_json_str(t1->name.s));
	json_object_set_new(f, "create_table", ddbc_json_create_table(t1));
	if (t1->ttl.s)
		json_object_set_new(f, "ttl", ddbc_json_str(t1->ttl.s));
	if (t1->settings.strong && t1->settings.nreplicas > 1)
		json_object_set_new(f, "make_mrsc", mrsc_input(t1));
	json_t *calls = after_create(t1);
	if (calls)
		json_object_set_new(f, "after_create", calls);
	bool protected = t0->settings.has_deletion_protection && t0->settings.deletion_protection;
	strbuf makes = STRBUF_INIT;
	ddbc_strbuf_addf(&makes, "table '%s' has NEW's key schema and indexes and holds every item",
		    t1->name.s);
	size_t s = ddbc_diff_plan_manual(p, "replace-table", f, ddbc_strbuf_str(&makes),
			       "replace table '%s': its %s changed, which only CreateTable sets; "
			       "create the new table (under a new name, then switch the code)%s%s, "
			       "copy every item into it, and delete the old table once nothing "
			       "reads it%s", t1->name.s,
			       !ddbc_diff_keys_same(&t0->primary, &t1->primary) ? "key schema"
			       : ddbc_diff_lsis_differ(t0, t1) ? "local secondary indexes"
			       : "consistency mode or its Regions",
			       json_object_get(f, "make_mrsc") ? ", make it multi-Region strongly "
			       "consistent while it is empty (the UpdateTable in 'make_mrsc')" : "",
			       calls ? ", give it NEW's settings (the calls in 'after_create')" : "",
			       protected ? " (turn its deletion protection off first)" : "");
	ddbc_strbuf_release(&makes);
	return s;
}

static void table_plan(plan *p, plan_table *pt)
{
	const ddbc_table *t0 = pt->t0, *t1 = pt->t1;
	if (!t0) {
		/* CreateTable cannot set TTL: it is a call of its own. */
		strbuf makes = STRBUF_INIT;
		ddbc_strbuf_addf(&makes, "table '%s' exists as NEW defines it", t1->name.s);
		pt->made = api_step(p, "CreateTable", ddbc_json_create_table(t1),
				    ddbc_strbuf_str(&makes));
		ddbc_strbuf_release(&makes);
		if (t1->ttl.s)
			ddbc_diff_plan_need(&p->g, ttl_step(p, t1, t1->ttl.s, true), pt->made);
		/* CreateTable holds the rest of the settings. */
		pt->last_update = pt->made;
		settings_steps(p, pt, false);
	} else if (ddbc_diff_table_replaced(t0, t1)) {
		pt->made = replace_step(p, t0, t1);
	} else {
		table_steps(p, pt);
	}
}

static void dropped_tables(plan *p)
{
	for (size_t i = 0; i < p->old->ntables; i++) {
		const ddbc_table *t0 = &p->old->tables[i];
		if (ddbc_design_table(p->new, t0->name.s))
			continue;
		json_t *f = json_object();
		json_object_set_new(f, "table", ddbc_json_str(t0->name.s));
		strbuf makes = STRBUF_INIT;
		ddbc_strbuf_addf(&makes, "table '%s' is gone", t0->name.s);
		p->dropped[i] = ddbc_diff_plan_manual(p, "delete-table", f, ddbc_strbuf_str(&makes),
					    "table '%s' is no longer in the design: move what is "
					    "still needed, then delete it by hand (ddbc never plans "
					    "DeleteTable)", t0->name.s);
		ddbc_strbuf_release(&makes);
	}
}

ddbc_emit_result ddbc_diff_plan_for(FILE *out, const ddbc_design *old, const ddbc_design *new,
				    const char *migrate, ddbc_err *err)
{
	plan p = { { NULL, 0, 0 }, old, new, ddbc_xcalloc(new->ntables + 1, sizeof(plan_table)),
		   ddbc_xcalloc(old->ntables + 1, sizeof(size_t)),
		   ddbc_xcalloc(old->npatterns + 1, sizeof(size_t)) };
	for (size_t i = 0; i < old->npatterns; i++)
		p.pattern_stop[i] = PLAN_NONE;
	for (size_t i = 0; i < new->ntables; i++) {
		const ddbc_table *t1 = &new->tables[i];
		p.tables[i] = (plan_table){ ddbc_design_table(old, t1->name.s), t1, PLAN_NONE,
					    NULL, NULL, PLAN_NONE, PLAN_NONE };
		table_plan(&p, &p.tables[i]);
	}
	for (size_t i = 0; i < old->ntables; i++)
		p.dropped[i] = PLAN_NONE;
	dropped_tables(&p);
	ddbc_diff_plan_item_steps(&p);
	ddbc_diff_plan_code_steps(&p);
	ddbc_emit_result r = ddbc_diff_plan_write(&p.g, out, migrate, err);
	for (size_t i = 0; i < new->ntables; i++) {
		free(p.tables[i].gsi_deleted);
		free(p.tables[i].gsi_created);
	}
	free(p.tables);
	free(p.dropped);
	free(p.pattern_stop);
	return r;
}

ddbc_emit_result ddbc_diff_plan(FILE *out, const ddbc_design *old, const ddbc_design *new,
				ddbc_err *err)
{
	return ddbc_diff_plan_for(out, old, new, NULL, err);
}
