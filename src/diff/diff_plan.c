/* diff_plan.c - the deployment steps from OLD's tables to NEW's
 *
 * DynamoDB's rules shape the order: UpdateTable creates or deletes at
 * most one GSI per call (each call waits for the last to finish), with
 * the AttributeDefinitions of the index it creates; LSIs and the key
 * schema exist only from CreateTable; TTL is switched off on the old
 * attribute before it is switched on for the new one; a switch to
 * provisioned billing states the throughput of the table and of every GSI
 * it keeps. Deletions come before the billing switch and creations after
 * it, so every GSI the switch names exists before and after. What no API
 * call does (a new table, item rewrites, DeleteTable) is a manual step
 * carrying the facts it needs; such steps come last.
 */
#include "diff/diff.h"
#include "diff/diff_int.h"
#include "emit/emit_json.h"
#include "model/semantics.h"
#include "util/strbuf.h"

#include <stdarg.h>
#include <string.h>

typedef struct plan {
	ddbc_json_stream s;
	const ddbc_design *old, *new;
} plan;

static void api_step(plan *p, const char *operation, json_t *input)
{
	json_t *o = json_object();
	json_object_set_new(o, "operation", json_string(operation));
	json_object_set_new(o, "input", input);
	ddbc_json_member(&p->s, NULL, o);
}

static json_t *update_table(const ddbc_table *t)
{
	json_t *in = json_object();
	json_object_set_new(in, "TableName", ddbc_json_str(t->name.s));
	return in;
}

static json_t *one_gsi_update(const char *verb, json_t *body)
{
	json_t *update = json_object(), *list = json_array();
	json_object_set_new(update, verb, body);
	json_array_append_new(list, update);
	return list;
}

static void ttl_step(plan *p, const ddbc_table *t, const char *attr, bool enabled)
{
	json_t *in = json_object(), *spec = json_object();
	json_object_set_new(in, "TableName", ddbc_json_str(t->name.s));
	json_object_set_new(spec, "Enabled", json_boolean(enabled));
	json_object_set_new(spec, "AttributeName", ddbc_json_str(attr));
	json_object_set_new(in, "TimeToLiveSpecification", spec);
	api_step(p, "UpdateTimeToLive", in);
}

static void gsi_deletes(plan *p, const ddbc_table *t0, const ddbc_table *t1)
{
	for (size_t i = 0; i < t0->ngsi; i++) {
		const ddbc_index *g0 = &t0->gsi[i], *g1 = ddbc_diff_gsi(t1, g0->name.s);
		if (g1 && ddbc_diff_index_same(g0, g1))
			continue;
		json_t *in = update_table(t1), *del = json_object();
		json_object_set_new(del, "IndexName", ddbc_json_str(g0->name.s));
		json_object_set_new(in, "GlobalSecondaryIndexUpdates", one_gsi_update("Delete", del));
		api_step(p, "UpdateTable", in);
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

static void gsi_creates(plan *p, const ddbc_table *t0, const ddbc_table *t1)
{
	for (size_t i = 0; i < t1->ngsi; i++) {
		const ddbc_index *g1 = &t1->gsi[i], *g0 = ddbc_diff_gsi(t0, g1->name.s);
		if (g0 && ddbc_diff_index_same(g0, g1))
			continue;
		json_t *in = update_table(t1);
		json_object_set_new(in, "AttributeDefinitions", definitions_after(t0, t1, i));
		json_object_set_new(in, "GlobalSecondaryIndexUpdates",
				    one_gsi_update("Create", ddbc_json_secondary_index(t1, g1)));
		api_step(p, "UpdateTable", in);
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

static void billing_step(plan *p, const ddbc_table *t0, const ddbc_table *t1)
{
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
	if (json_object_size(in) > 1)
		api_step(p, "UpdateTable", in);
	else
		json_decref(in);
}

static void table_steps(plan *p, const ddbc_table *t0, const ddbc_table *t1)
{
	bool ttl_moves = !ddbc_diff_str_same(t0->ttl.s, t1->ttl.s);
	if (ttl_moves && t0->ttl.s)
		ttl_step(p, t1, t0->ttl.s, false);
	gsi_deletes(p, t0, t1);
	billing_step(p, t0, t1);
	gsi_creates(p, t0, t1);
	if (ttl_moves && t1->ttl.s)
		ttl_step(p, t1, t1->ttl.s, true);
}

static void api_steps(plan *p)
{
	for (size_t i = 0; i < p->new->ntables; i++) {
		const ddbc_table *t1 = &p->new->tables[i];
		const ddbc_table *t0 = ddbc_design_table(p->old, t1->name.s);
		if (!t0) {
			/* CreateTable cannot set TTL: it is a call of its own. */
			api_step(p, "CreateTable", ddbc_json_create_table(t1));
			if (t1->ttl.s)
				ttl_step(p, t1, t1->ttl.s, true);
		} else if (!ddbc_diff_table_replaced(t0, t1))
			table_steps(p, t0, t1);
	}
}

/* ---- manual steps -------------------------------------------------------------------- */

/* Writes {"manual": text, then the facts in members}, taking members. */
static void manual_step(plan *p, json_t *facts, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void manual_step(plan *p, json_t *facts, const char *fmt, ...)
{
	strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	json_t *o = json_object();
	json_object_set_new(o, "manual", ddbc_json_str(strbuf_str(&sb)));
	json_object_update(o, facts);
	json_decref(facts);
	ddbc_json_member(&p->s, NULL, o);
	strbuf_release(&sb);
}

static json_t *facts_table(const char *table)
{
	json_t *o = json_object();
	if (table)
		json_object_set_new(o, "table", ddbc_json_str(table));
	return o;
}

static void manual_tables(plan *p)
{
	for (size_t i = 0; i < p->new->ntables; i++) {
		const ddbc_table *t1 = &p->new->tables[i];
		const ddbc_table *t0 = ddbc_design_table(p->old, t1->name.s);
		if (!t0 || !ddbc_diff_table_replaced(t0, t1))
			continue;
		json_t *f = facts_table(t1->name.s);
		json_object_set_new(f, "create_table", ddbc_json_create_table(t1));
		manual_step(p, f, "replace table '%s': its %s changed, which only CreateTable sets; "
			    "create the new table (under a new name, then switch the code), copy "
			    "every item into it, and delete the old table once nothing reads it",
			    t1->name.s, ddbc_diff_keys_same(&t0->primary, &t1->primary) ?
			    "local secondary indexes" : "key schema");
	}
	for (size_t i = 0; i < p->old->ntables; i++) {
		const ddbc_table *t0 = &p->old->tables[i];
		if (!ddbc_design_table(p->new, t0->name.s))
			manual_step(p, facts_table(t0->name.s), "table '%s' is no longer in the "
				    "design: move what is still needed, then delete it by hand (ddbc "
				    "never plans DeleteTable)", t0->name.s);
	}
	const char *d0 = ddbc_diff_delimiter(p->old), *d1 = ddbc_diff_delimiter(p->new);
	if (strcmp(d0, d1)) {
		json_t *f = json_object();
		json_object_set_new(f, "old_delimiter", ddbc_json_str(d0));
		json_object_set_new(f, "new_delimiter", ddbc_json_str(d1));
		manual_step(p, f, "the key delimiter changed: rewrite every stored key that is "
			    "joined with the old delimiter");
	}
}

static json_t *facts_attr(const ddbc_entity *e, const ddbc_attr *a)
{
	json_t *f = facts_table(ddbc_diff_entity_table(e));
	json_object_set_new(f, "entity", ddbc_json_str(e->name.s));
	json_object_set_new(f, "attribute", ddbc_json_str(a->name.s));
	return f;
}

static void manual_attr_pair(plan *p, const ddbc_attr *a0, const ddbc_attr *a1)
{
	const ddbc_entity *e = a1->entity;
	ddbc_diff_rewrite r = ddbc_diff_attr_rewrite(a0, a1);
	if (r != DIFF_REWRITE_NONE) {
		json_t *f = facts_attr(e, a1);
		json_object_set_new(f, "old_template", a0->template.s ?
				    ddbc_json_str(a0->template.s) : json_null());
		json_object_set_new(f, "new_template", a1->template.s ?
				    ddbc_json_str(a1->template.s) : json_null());
		if (r == DIFF_REWRITE_TABLE_KEY)
			manual_step(p, f, "rewrite the keys of every '%s' item: put a copy under "
				    "the key rendered from new_template, then delete the item under "
				    "old_template's key", e->name.s);
		else
			manual_step(p, f, "rewrite '%s' in every '%s' item from old_template to "
				    "new_template", a1->name.s, e->name.s);
	}
	if (a0->type != DDBC_TYPE_NONE && a1->type != DDBC_TYPE_NONE && a0->type != a1->type) {
		json_t *f = facts_attr(e, a1);
		json_object_set_new(f, "old_type", json_string(ddbc_type_short(a0->type)));
		json_object_set_new(f, "new_type", json_string(ddbc_type_short(a1->type)));
		manual_step(p, f, "convert '%s' of every '%s' item from old_type to new_type",
			    a1->name.s, e->name.s);
	}
	if (!ddbc_attr_required(a0, NULL) && ddbc_attr_required(a1, NULL)) {
		json_t *f = facts_attr(e, a1);
		if (a1->template.s)
			json_object_set_new(f, "template", ddbc_json_str(a1->template.s));
		manual_step(p, f, "backfill '%s' in every stored '%s' item that lacks it",
			    a1->name.s, e->name.s);
	}
}

static void manual_entity(plan *p, const ddbc_entity *e0, const ddbc_entity *e1)
{
	if (!e1 || !ddbc_diff_str_same(ddbc_diff_entity_table(e0), ddbc_diff_entity_table(e1))) {
		json_t *f = facts_table(ddbc_diff_entity_table(e0));
		json_object_set_new(f, "entity", ddbc_json_str(e0->name.s));
		if (e1)
			json_object_set_new(f, "new_table", ddbc_json_str(ddbc_diff_entity_table(e1)));
		manual_step(p, f, e1 ? "copy the '%s' items to new_table and delete them from table"
				     : "delete or migrate the stored '%s' items", e0->name.s);
		return;
	}
	for (size_t i = 0; i < e0->nattrs; i++) {
		const ddbc_attr *a0 = &e0->attrs[i];
		const ddbc_attr *a1 = a0->name.s ? ddbc_entity_attr(e1, a0->name.s) : NULL;
		if (a1)
			manual_attr_pair(p, a0, a1);
		else if (a0->name.s && ddbc_diff_removed_use(p->old, a0, e1->table))
			manual_step(p, facts_attr(e0, a0), "'%s' is removed from '%s' while it was "
				    "in use: remove its uses and its stored values", a0->name.s,
				    e0->name.s);
	}
	for (size_t i = 0; i < e1->nattrs; i++) {
		const ddbc_attr *a1 = &e1->attrs[i];
		if (ddbc_entity_attr(e0, a1->name.s) || !ddbc_attr_required(a1, NULL))
			continue;
		json_t *f = facts_attr(e1, a1);
		if (a1->template.s)
			json_object_set_new(f, "template", ddbc_json_str(a1->template.s));
		manual_step(p, f, "backfill the new required '%s' in every stored '%s' item",
			    a1->name.s, e1->name.s);
	}
}

ddbc_emit_result ddbc_diff_plan(FILE *out, const ddbc_design *old, const ddbc_design *new)
{
	plan p = { .old = old, .new = new };
	ddbc_json_stream_init(&p.s, out);
	ddbc_json_begin(&p.s, NULL, '[');
	api_steps(&p);
	manual_tables(&p);
	for (size_t i = 0; i < old->nentities; i++)
		manual_entity(&p, &old->entities[i],
			      ddbc_design_entity(new, old->entities[i].name.s));
	ddbc_json_end(&p.s, ']');
	return ddbc_json_stream_finish(&p.s);
}
