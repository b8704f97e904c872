/* rules/settings.c - what a table's settings (SPEC 8.7) allow:
 * on-demand-max, warm-throughput, resource-policy-size, mrsc-regions */
#include "rules/checks.h"
#include "rules/check_capacity.h"
#include "model/model.h"
#include "model/regions.h"

#include <string.h>

/* ---- on-demand-max and warm-throughput ----------------------------------------------- */

/* What a new on-demand table serves at once ("Understanding DynamoDB warm
 * throughput in different scenarios": it "starts with a warm throughput
 * of 12,000 read units per second and 4,000 write units per second"). */
#define NEW_TABLE_WARM_READ 12000
#define NEW_TABLE_WARM_WRITE 4000

typedef void limit_fn(ddbc_diags *d, const ddbc_index *ix, const ddbc_index_load *l,
		      bool write, double limit, bool assumed);

/* The limit of one direction, or 0. */
static double limit_of(const ddbc_throughput *th, bool write)
{
	return th->set ? (double)(write ? th->write : th->read) : 0;
}

/* For each index with a load: the direction furthest over its limit, if
 * any is, reported by report. */
static void over_limits(const ddbc_design *g, ddbc_diags *d, bool warm, limit_fn *report)
{
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_index_load **loads = ddbc_index_loads(g, arena);
	for (size_t i = 0; loads && i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t s = 0; loads[i] && s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			if (ix->kind == DDBC_INDEX_LSI)
				continue;
			const ddbc_throughput *th =
				s == 0 ? (warm ? &t->settings.warm : &t->settings.on_demand_max)
				       : (warm ? &ix->warm : &ix->on_demand_max);
			const ddbc_index_load *l = &loads[i][s];
			double lim[2] = { limit_of(th, false), limit_of(th, true) };
			/* A new on-demand table is warm up to its default unless it
			 * says otherwise. */
			bool assumed = warm && s == 0 && !th->set && t->billing == DDBC_BILLING_ON_DEMAND;
			if (assumed) {
				lim[0] = NEW_TABLE_WARM_READ;
				lim[1] = NEW_TABLE_WARM_WRITE;
			}
			double over[2] = { lim[0] > 0 ? l->read / lim[0] : 0,
					   lim[1] > 0 ? l->write / lim[1] : 0 };
			bool write = over[1] > over[0];
			if (over[write] > 1)
				report(d, ix, l, write, lim[write], assumed && limit_of(th, write) == 0);
		}
	}
	ddbc_arena_free(arena);
}

static const char *index_kind(const ddbc_index *ix)
{
	return ix->kind == DDBC_INDEX_GSI ? "GSI" : "table";
}

static void on_demand_finding(ddbc_diags *d, const ddbc_index *ix, const ddbc_index_load *l,
			      bool write, double limit, bool assumed)
{
	(void)assumed;
	const ddbc_pattern *top = write ? l->top_write : l->top_read;
	/* The reason a throttled request's ThrottlingReasons gives:
	 * ResourceType (Table, Index) + OperationType + LimitType. */
	ddbc_diag_add(d, DDBC_RULE_ON_DEMAND_MAX, top->rate->loc,
		      "the access patterns' rates put %s%.0f %s units a second on %s '%s', over "
		      "its on_demand_max of %.0f: DynamoDB throttles every request past it "
		      "(ThrottlingReason %s%sMaxOnDemandThroughputExceeded), by design; raise "
		      "on_demand_max or lower the rates ('%s' adds the most, %.0f)",
		      !write && l->read_least ? "at least " : "", write ? l->write : l->read,
		      write ? "write" : "read", index_kind(ix), ix->name.s, limit,
		      ix->kind == DDBC_INDEX_GSI ? "Index" : "Table", write ? "Write" : "Read",
		      top->id.s, write ? l->top_write_units : l->top_read_units);
}

void ddbc_check_on_demand_max(const ddbc_design *g, ddbc_diags *d)
{
	over_limits(g, d, false, on_demand_finding);
}

static void warm_finding(ddbc_diags *d, const ddbc_index *ix, const ddbc_index_load *l,
			 bool write, double limit, bool assumed)
{
	const ddbc_pattern *top = write ? l->top_write : l->top_read;
	double load = write ? l->write : l->read;
	ddbc_diag_add(d, DDBC_RULE_WARM_THROUGHPUT, top->rate->loc,
		      "the access patterns' rates put %s%.0f %s units a second on %s '%s', over "
		      "its warm throughput of %.0f%s: until DynamoDB splits its partitions the "
		      "excess is throttled, as on hot partitions; set warm_throughput to at least "
		      "%.0f %s units ('%s' adds the most, %.0f)",
		      !write && l->read_least ? "at least " : "", load, write ? "write" : "read",
		      index_kind(ix), ix->name.s, limit,
		      assumed ? " (where a new on-demand table starts)" : "", load,
		      write ? "write" : "read", top->id.s,
		      write ? l->top_write_units : l->top_read_units);
}

void ddbc_check_warm_throughput(const ddbc_design *g, ddbc_diags *d)
{
	over_limits(g, d, true, warm_finding);
}

/* ---- resource-policy-size ------------------------------------------------------------ */

/* "The maximum size supported for a resource-based policy document is
 * 20 KB", whitespace counted (the developer guide's "Resource-based
 * policy considerations"). */
#define POLICY_MAX 20480

void ddbc_check_resource_policy_size(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table_settings *s = &g->tables[i].settings;
		if (!s->policy || s->policy_bytes <= POLICY_MAX)
			continue;
		ddbc_diag_add(d, DDBC_RULE_RESOURCE_POLICY_SIZE, s->policy_loc,
			      "the resource policy of table '%s'%s%s%s is %zu bytes, over DynamoDB's "
			      "limit of 20 KB (20,480 bytes, whitespace counted): PutResourcePolicy "
			      "refuses it; remove whitespace or statements, or grant through IAM "
			      "identity policies instead", g->tables[i].name.s,
			      s->policy_file ? " ('" : "", s->policy_file ? s->policy_file : "",
			      s->policy_file ? "')" : "", s->policy_bytes);
	}
}

/* ---- mrsc-regions -------------------------------------------------------------------- */

/* A Region of an MRSC table outside the first one's Region set. */
static bool outside_set(ddbc_diags *d, const ddbc_table *t, const ddbc_name *r, const char *set)
{
	const char *its = ddbc_region_mrsc_set(r->s);
	if (its && !strcmp(its, set))
		return false;
	ddbc_diag_add(d, DDBC_RULE_MRSC_REGIONS, r->loc,
		      "Region '%s' of table '%s' is %s%s%s, but multi-Region strong consistency "
		      "keeps every replica and the witness in one Region set; use Regions of the "
		      "%s set (%s)", r->s, t->name.s, its ? "in the " : "in no MRSC Region set",
		      its ? its : "", its ? " set" : "", set, ddbc_region_mrsc_members(set));
	return true;
}

static void check_mrsc(ddbc_diags *d, const ddbc_table *t)
{
	const ddbc_table_settings *s = &t->settings;
	size_t want = s->witness.s ? 2 : 3;
	if (s->nreplicas != want) {
		ddbc_diag_add(d, DDBC_RULE_MRSC_REGIONS, s->consistency_loc,
			      "'consistency: strong' on table '%s' with %zu Region%s%s: a "
			      "multi-Region strongly consistent table has three replicas, or two "
			      "and a witness; %s", t->name.s, s->nreplicas,
			      s->nreplicas == 1 ? "" : "s", s->witness.s ? " and a witness" : "",
			      s->nreplicas == 2 ? "add a third Region or a 'witness:' Region"
			      : s->witness.s ? "list two Regions besides the witness"
			      : "list three Regions");
		return;
	}
	for (size_t i = 0; s->witness.s && i < s->nreplicas; i++) {
		if (!strcmp(s->replicas[i].s, s->witness.s)) {
			ddbc_diag_add(d, DDBC_RULE_MRSC_REGIONS, s->witness.loc,
				      "witness Region '%s' of table '%s' is also a replica; the "
				      "witness must be a third Region", s->witness.s, t->name.s);
			return;
		}
	}
	const char *set = ddbc_region_mrsc_set(s->replicas[0].s);
	if (!set) {
		outside_set(d, t, &s->replicas[0], "US");
		return;
	}
	for (size_t i = 1; i < s->nreplicas; i++)
		if (outside_set(d, t, &s->replicas[i], set))
			return;
	if (s->witness.s)
		outside_set(d, t, &s->witness, set);
}

void ddbc_check_mrsc_regions(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++)
		if (g->tables[i].settings.strong && g->tables[i].settings.nreplicas &&
		    !g->tables[i].settings.regions_incomplete)
			check_mrsc(d, &g->tables[i]);
}
