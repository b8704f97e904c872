/* migrate_plan.c - the plan's item steps as work on each OLD entity
 *
 * The plan decides which entities' items change and how; nothing here
 * compares the designs again. Each manual step's action and facts
 * (diff_plan_items.c) become targets: an attribute of an entity's items
 * and how its NEW value is found. A step that is no item rewrite (a new
 * table, items moved or deleted, values only a person can choose) stops
 * the migration before anything is read: NEW is not reached by rewriting
 * items in place.
 */
#include "diff/diff.h"
#include "live/migrate_int.h"
#include "util/error.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *fact(const json_t *step, const char *name)
{
	return json_string_value(json_object_get(step, name));
}

static mig_entity *entity_work(mig_work *w, const char *name)
{
	for (size_t i = 0; name && i < w->old->nentities; i++)
		if (w->ents[i].e1 && !strcmp(w->old->entities[i].name.s, name))
			return &w->ents[i];
	return NULL;
}

static bool primary_key(const ddbc_entity *e, const char *attr)
{
	const ddbc_table *t = e->table;
	if (!t)
		return false;
	for (size_t i = 0; i < t->primary.npk; i++)
		if (!strcmp(t->primary.pk[i].s, attr))
			return true;
	for (size_t i = 0; i < t->primary.nsk; i++)
		if (!strcmp(t->primary.sk[i].s, attr))
			return true;
	return false;
}

/* Adds a target; a rendered value wins over a conversion of the same
 * attribute (NEW's template gives the value in NEW's type). */
static void add_target(mig_work *w, mig_entity *m, mig_target t)
{
	for (size_t i = 0; i < m->n; i++) {
		mig_target *o = &m->t[i];
		if (strcmp(o->attr, t.attr) || (o->how == MIG_REMOVE) != (t.how == MIG_REMOVE))
			continue;
		if (t.how == MIG_RENDER && o->how != MIG_RENDER) {
			json_decref(o->value);
			*o = t;
		} else {
			json_decref(t.value);
		}
		return;
	}
	ddbc_xgrow((void **)&m->t, &m->cap, m->n + 1, sizeof(*m->t));
	m->t[m->n++] = t;
	m->key_change = m->key_change || primary_key(m->e0, t.attr);
	w->ntargets++;
}

/* The NEW attribute named by the step's "attribute", rendered when NEW
 * gives it a template, else as how says. */
static void attr_target(mig_work *w, const json_t *st, long n, mig_how how)
{
	mig_entity *m = entity_work(w, fact(st, "entity"));
	const char *name = fact(st, "attribute");
	const ddbc_attr *a1 = m && name ? ddbc_entity_attr(m->e1, name) : NULL;
	if (!a1 || !ddbc_attr_stored(a1))
		return;
	if (a1->has_template && how != MIG_REMOVE)
		how = how == MIG_BACKFILL ? MIG_BACKFILL : MIG_RENDER;
	json_t *value = json_object_get(st, "example");
	add_target(w, m, (mig_target){ a1->name.s, how, a1, NULL, value ? json_incref(value) : NULL,
				       n });
}

static void removed_target(mig_work *w, const json_t *st, long n)
{
	mig_entity *m = entity_work(w, fact(st, "entity"));
	const char *name = fact(st, "attribute");
	if (m && name)
		add_target(w, m, (mig_target){ name, MIG_REMOVE, NULL, NULL, NULL, n });
}

/* Every entity of the table: the new TTL attribute copied from the old. */
static void ttl_targets(mig_work *w, const json_t *st, long n)
{
	const char *table = fact(st, "table"), *from = fact(st, "old_attribute");
	const char *to = fact(st, "new_attribute");
	bool remove = json_is_true(json_object_get(st, "remove_old_attribute"));
	for (size_t i = 0; table && from && to && i < w->old->nentities; i++) {
		mig_entity *m = &w->ents[i];
		if (!m->e1 || !m->e0->table || strcmp(m->e0->table->name.s, table))
			continue;
		add_target(w, m, (mig_target){ to, MIG_COPY, ddbc_entity_attr(m->e1, to), from, NULL,
					       n });
		if (remove)
			add_target(w, m, (mig_target){ from, MIG_REMOVE, NULL, NULL, NULL, n });
	}
}

/* A new delimiter: every stored key NEW renders is rendered anew. */
static void delimiter_targets(mig_work *w, long n)
{
	for (size_t i = 0; i < w->old->nentities; i++) {
		mig_entity *m = &w->ents[i];
		for (size_t k = 0; m->e1 && k < m->e1->nattrs; k++) {
			const ddbc_attr *a1 = &m->e1->attrs[k];
			if (a1->has_template && ddbc_attr_stored(a1) &&
			    !ddbc_template_is_constant(&a1->tpl))
				add_target(w, m, (mig_target){ a1->name.s, MIG_RENDER, a1, NULL, NULL,
							       n });
		}
	}
}

/* Whether action is an item step ddbc carries out; *why says why not
 * for the item steps it cannot. */
static int take_step(mig_work *w, const json_t *st, long n, const char *action, const char **why)
{
	*why = NULL;
	if (!strcmp(action, "rewrite-keys") || !strcmp(action, "rewrite-attribute")) {
		if (json_is_string(json_object_get(st, "new_template")))
			attr_target(w, st, n, MIG_RENDER);
	} else if (!strcmp(action, "convert-type")) {
		attr_target(w, st, n, MIG_CONVERT);
	} else if (!strcmp(action, "backfill")) {
		attr_target(w, st, n, MIG_BACKFILL);
	} else if (!strcmp(action, "backfill-ttl")) {
		ttl_targets(w, st, n);
	} else if (!strcmp(action, "remove-attribute")) {
		removed_target(w, st, n);
	} else if (!strcmp(action, "rewrite-delimiter")) {
		delimiter_targets(w, n);
	} else if (!strcmp(action, "replace-table")) {
		*why = "its key schema or local secondary indexes changed, which only a new table "
		       "has: create it and copy the items, then migrate the copy";
	} else if (!strcmp(action, "move-items") || !strcmp(action, "delete-items")) {
		*why = "items move to another table or go: no rewrite in place does that";
	} else if (!strcmp(action, "rewrite-values")) {
		*why = "which allowed value each item takes is a choice ddbc cannot make";
	} else {
		return 0;        /* deploy-code, wait, delete-table: no item work */
	}
	return 1;
}

static int plan_of(mig_work *w)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		ddbc_xalloc_die();
	ddbc_err why = DDBC_ERR_INIT;
	ddbc_emit_result r = ddbc_diff_plan(mem, w->old, w->new, &why);
	fclose(mem);
	ddbc_err_print(&why);
	ddbc_err_release(&why);
	json_error_t err;
	w->plan = r == DDBC_EMIT_OK ? json_loadb(text, len, 0, &err) : NULL;
	free(text);
	if (!json_is_array(w->plan)) {
		ddbc_cmd_error("migrate", "the plan could not be made");
		return 2;
	}
	return 0;
}

int ddbc_migrate_work_build(mig_work *w, const ddbc_design *old, const ddbc_design *new, long step)
{
	memset(w, 0, sizeof(*w));
	w->old = old;
	w->new = new;
	w->whole = step == 0;
	w->ents = ddbc_xcalloc(old->nentities + 1, sizeof(*w->ents));
	for (size_t i = 0; i < old->nentities; i++) {
		w->ents[i].e0 = &old->entities[i];
		w->ents[i].e1 = ddbc_design_entity(new, old->entities[i].name.s);
	}
	if (plan_of(w))
		return 2;
	size_t i;
	json_t *st;
	bool found = false;
	int status = 0;
	json_array_foreach(w->plan, i, st) {
		long n = (long)json_integer_value(json_object_get(st, "step"));
		if (step && n != step)
			continue;
		found = true;
		const char *action = fact(st, "action"), *why;
		if (!action) {
			if (step)
				ddbc_cmd_error("migrate", "step %ld is an API call (%s), not an "
					       "item step: run it as the plan writes it", n,
					       fact(st, "operation") ? fact(st, "operation") : "?");
			status = step ? 2 : status;
			continue;
		}
		int item = take_step(w, st, n, action, &why);
		if (why) {
			const char *table = fact(st, "table");
			ddbc_cmd_error("migrate", "step %ld (%s%s%s%s%s) cannot be carried out by "
				       "rewriting items: %s", n, action, table ? " of table '" : "",
				       table ? table : "", table ? "'" : "",
				       fact(st, "entity") ? " for its items" : "", why);
			status = 2;
		} else if (!item && step) {
			ddbc_cmd_error("migrate", "step %ld (%s) is not an item step", n, action);
			status = 2;
		}
	}
	if (step && !found) {
		ddbc_cmd_error("migrate", "the plan from %s has no step %ld (it has %zu)",
			       "OLD to NEW", step, json_array_size(w->plan));
		status = 2;
	}
	return status;
}

void ddbc_migrate_work_release(mig_work *w)
{
	for (size_t i = 0; w->ents && i < w->old->nentities; i++) {
		for (size_t k = 0; k < w->ents[i].n; k++)
			json_decref(w->ents[i].t[k].value);
		free(w->ents[i].t);
	}
	free(w->ents);
	json_decref(w->plan);
	memset(w, 0, sizeof(*w));
}
