/* diff_settings.c - what changed in a table's settings (SPEC 8.7)
 *
 * One comparison for two readers: diff.c makes each change a finding,
 * diff_plan.c makes it a step. A setting NEW no longer writes is
 * DynamoDB's default again (off, none), as the model reads an absent
 * one; warm throughput is the exception, as DynamoDB keeps it.
 */
#include "diff/diff_int.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* A table without settings: what OLD is for a table NEW creates. */
static const ddbc_table_settings no_settings;

static diff_setting *add(diff_settings *out, diff_setting_kind kind, const char *field,
			 ddbc_loc old_loc, ddbc_loc new_loc)
{
	if (out->n == out->cap) {
		out->cap = out->cap ? 2 * out->cap : 16;
		out->v = ddbc_xrealloc(out->v, out->cap * sizeof(*out->v));
	}
	diff_setting *s = &out->v[out->n++];
	*s = (diff_setting){ .kind = kind, .field = field, .old_loc = old_loc,
			     .new_loc = new_loc };
	return s;
}

void ddbc_diff_settings_release(diff_settings *s)
{
	free(s->v);
	*s = (diff_settings){ NULL, 0, 0 };
}

int ddbc_diff_recovery_days(const ddbc_table_settings *s)
{
	return s->recovery_days ? s->recovery_days : 35;
}

json_t *ddbc_diff_warm_raise(const ddbc_throughput *t0, const ddbc_throughput *t1)
{
	json_t *o = json_object();
	if (t1->read > t0->read)
		json_object_set_new(o, "ReadUnitsPerSecond", json_integer(t1->read));
	if (t1->write > t0->write)
		json_object_set_new(o, "WriteUnitsPerSecond", json_integer(t1->write));
	if (!json_object_size(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Maximum throughput: the figures (an empty mapping limits nothing). */
static void on_demand(diff_settings *out, const ddbc_throughput *a, const ddbc_throughput *b,
		      const ddbc_index *g0, const ddbc_index *g1)
{
	if (a->read == b->read && a->write == b->write)
		return;
	diff_setting *s = add(out, DIFF_SET_ON_DEMAND_MAX, "on_demand_max", a->loc, b->loc);
	s->g0 = g0, s->g1 = g1;
	s->on = b->read || b->write;
}

/* Warm throughput: a figure NEW raises, or lowers below OLD's; one NEW
 * no longer writes is kept by DynamoDB, no change. */
static void warm(diff_settings *out, const ddbc_throughput *a, const ddbc_throughput *b,
		 const ddbc_index *g0, const ddbc_index *g1)
{
	bool raised = b->read > a->read || b->write > a->write;
	bool lowered = (b->read && b->read < a->read) || (b->write && b->write < a->write);
	if (!raised && !lowered)
		return;
	diff_setting *s = add(out, DIFF_SET_WARM, "warm_throughput", a->loc, b->loc);
	s->g0 = g0, s->g1 = g1;
	s->on = raised;
	s->lowered = lowered;
	if (lowered)
		s->new_loc = b->read && b->read < a->read ? b->read_loc : b->write_loc;
}

/* What UpdateTable changes of the table itself and of each GSI kept. */
static void update_table_fields(const ddbc_table *t0, const ddbc_table *t1, diff_settings *out)
{
	const ddbc_table_settings *s0 = &t0->settings, *s1 = &t1->settings;
	/* An absent table_class is STANDARD, DynamoDB's default, as the model
	 * reads it. */
	if (t0->table_class != t1->table_class)
		add(out, DIFF_SET_TABLE_CLASS, "table_class", t0->table_class_loc,
		    t1->table_class_loc)->on = t1->table_class == DDBC_CLASS_STANDARD_IA;
	bool dp0 = s0->has_deletion_protection && s0->deletion_protection;
	bool dp1 = s1->has_deletion_protection && s1->deletion_protection;
	if (dp0 != dp1)
		add(out, DIFF_SET_DELETION_PROTECTION, "deletion_protection",
		    s0->deletion_protection_loc, s1->deletion_protection_loc)->on = dp1;
	if (s0->stream != s1->stream)
		add(out, DIFF_SET_STREAM, "stream", s0->stream_loc, s1->stream_loc)->on =
			s1->stream != DDBC_STREAM_NONE;
	if (s0->has_sse != s1->has_sse || !ddbc_diff_str_same(s0->kms_key.s, s1->kms_key.s))
		add(out, DIFF_SET_SSE, "sse", s0->sse_loc, s1->sse_loc)->on = s1->has_sse;
	on_demand(out, &s0->on_demand_max, &s1->on_demand_max, NULL, NULL);
	warm(out, &s0->warm, &s1->warm, NULL, NULL);
	for (size_t i = 0; i < t1->ngsi; i++) {
		const ddbc_index *g1 = &t1->gsi[i], *g0 = ddbc_diff_gsi(t0, g1->name.s);
		if (!g0 || !ddbc_diff_index_same(g0, g1))
			continue;   /* a GSI created here takes its settings with it */
		on_demand(out, &g0->on_demand_max, &g1->on_demand_max, g0, g1);
		warm(out, &g0->warm, &g1->warm, g0, g1);
	}
}

static const ddbc_name *region_in(const ddbc_table_settings *s, const char *region)
{
	for (size_t i = 0; i < s->nreplicas; i++)
		if (ddbc_diff_str_same(s->replicas[i].s, region))
			return &s->replicas[i];
	return NULL;
}

/* Replicas removed, then added; the table's own Region, NEW's first, is
 * no replica of it. */
static void replicas(const ddbc_table_settings *s0, const ddbc_table_settings *s1,
		     diff_settings *out)
{
	for (size_t i = 1; i < s0->nreplicas; i++) {
		const char *r = s0->replicas[i].s;
		if (r && !region_in(s1, r))
			add(out, DIFF_SET_REPLICA, "replicas", s0->replicas[i].loc,
			    s1->replicas_loc)->region = r;
	}
	for (size_t i = 1; i < s1->nreplicas; i++) {
		const char *r = s1->replicas[i].s;
		if (!r || region_in(s0, r))
			continue;
		diff_setting *s = add(out, DIFF_SET_REPLICA, "replicas", s0->replicas_loc,
				      s1->replicas[i].loc);
		s->region = r;
		s->on = true;
	}
	if (!ddbc_diff_str_same(s0->witness.s, s1->witness.s)) {
		if (s0->witness.s)
			add(out, DIFF_SET_WITNESS, "witness", s0->witness.loc,
			    s1->witness.loc)->region = s0->witness.s;
		if (s1->witness.s) {
			diff_setting *s = add(out, DIFF_SET_WITNESS, "witness", s0->witness.loc,
					      s1->witness.loc);
			s->region = s1->witness.s;
			s->on = true;
		}
	}
}

static bool tags_same(const ddbc_table_settings *a, const ddbc_table_settings *b)
{
	if (a->ntags != b->ntags)
		return false;
	for (size_t i = 0; i < a->ntags; i++) {
		bool found = false;
		for (size_t k = 0; k < b->ntags && !found; k++)
			found = ddbc_diff_str_same(a->tags[i].key.s, b->tags[k].key.s) &&
				ddbc_diff_str_same(a->tags[i].value, b->tags[k].value);
		if (!found)
			return false;
	}
	return true;
}

/* The same policy: the same JSON document, however it is laid out (a
 * file in one, inline in the other); text that is no JSON by its bytes. */
static bool policy_same(const ddbc_table_settings *a, const ddbc_table_settings *b)
{
	if (!a->policy || !b->policy)
		return !a->policy && !b->policy;
	json_t *ja = json_loadb(a->policy, a->policy_bytes, 0, NULL);
	json_t *jb = json_loadb(b->policy, b->policy_bytes, 0, NULL);
	bool same = ja && jb ? json_equal(ja, jb)
		    : a->policy_bytes == b->policy_bytes &&
		      !memcmp(a->policy, b->policy, a->policy_bytes);
	json_decref(ja);
	json_decref(jb);
	return same;
}

/* Each GSI's own Contributor Insights: a GSI created (or created again,
 * which drops its insights with the old index) starts with none. */
static void gsi_insights(const ddbc_table *t0, const ddbc_table *t1, diff_settings *out)
{
	for (size_t i = 0; i < t1->ngsi; i++) {
		const ddbc_index *g1 = &t1->gsi[i], *g0 = t0 ? ddbc_diff_gsi(t0, g1->name.s) : NULL;
		if (g0 && !ddbc_diff_index_same(g0, g1))
			g0 = NULL;
		if ((g0 ? g0->insights : DDBC_INSIGHTS_NONE) == g1->insights)
			continue;
		diff_setting *s = add(out, DIFF_SET_INSIGHTS, "contributor_insights",
				      g0 ? g0->insights_loc : (ddbc_loc){ 0, 0 }, g1->insights_loc);
		s->g0 = g0, s->g1 = g1;
		s->on = g1->insights != DDBC_INSIGHTS_NONE;
	}
}

/* The calls of their own: PITR, Contributor Insights, tags, the policy. */
static void other_calls(const ddbc_table *t0, const ddbc_table *t1, diff_settings *out)
{
	const ddbc_table_settings *s0 = t0 ? &t0->settings : &no_settings, *s1 = &t1->settings;
	bool created = !t0;
	bool on0 = s0->has_pitr && s0->pitr, on1 = s1->has_pitr && s1->pitr;
	if (on0 != on1 || (on1 && ddbc_diff_recovery_days(s0) != ddbc_diff_recovery_days(s1)))
		add(out, DIFF_SET_PITR, "pitr", s0->pitr_loc, s1->pitr_loc)->on = on1;
	if (s0->insights != s1->insights)
		add(out, DIFF_SET_INSIGHTS, "contributor_insights", s0->insights_loc,
		    s1->insights_loc)->on = s1->insights != DDBC_INSIGHTS_NONE;
	gsi_insights(t0, t1, out);
	if (created)
		return;   /* CreateTable holds the tags and the policy */
	if (!tags_same(s0, s1))
		add(out, DIFF_SET_TAGS, "tags", s0->tags_loc, s1->tags_loc)->on = s1->ntags > 0;
	if (!policy_same(s0, s1))
		add(out, DIFF_SET_POLICY, "resource_policy", s0->policy_loc, s1->policy_loc)->on =
			s1->policy != NULL;
}

void ddbc_diff_settings(const ddbc_table *t0, const ddbc_table *t1, diff_settings *out)
{
	const ddbc_table_settings *s0 = t0 ? &t0->settings : &no_settings;
	if (t0)
		update_table_fields(t0, t1, out);
	replicas(s0, &t1->settings, out);
	other_calls(t0, t1, out);
}
