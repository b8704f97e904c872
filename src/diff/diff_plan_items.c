/* diff_plan_items.c - the plan's manual steps on stored items
 *
 * What no API call does to the items: rewrite keys and index keys from the
 * old template to the new, convert values to a new type, backfill what
 * became required, rewrite values an enum no longer allows, move or delete
 * an entity's items, rewrite keys joined with an old delimiter, and deploy
 * the callers of a pattern before its index stops projecting what they
 * read. Each step carries the facts a person or a script needs to do it
 * ("action" says which work it is), and stands where its needs are: the
 * work on an attribute that keys a GSI after that GSI's delete and before
 * its create (ddbc_diff_plan_around_indexes), the work on one entity's items in
 * the order it is listed, the work on a replaced table's items after the
 * replacement. A table key rewrite stands in a dual-write window: deploy
 * code that writes both shapes, migrate the stored items, deploy code
 * that reads the new shape only, then code that writes it only. The
 * steps `ddbc migrate` carries out are marked (ddbc_diff_plan_write names the
 * command).
 */
#include "diff/diff_graph.h"
#include "diff/diff_int.h"
#include "emit/emit_json.h"
#include "model/semantics.h"
#include "util/strbuf.h"

#include <stdlib.h>
#include <string.h>

/* One entity's work: each step after the one before. */
typedef struct entity_work {
	plan *p;
	const plan_table *pt;    /* NEW's table of the entity, or NULL */
	size_t last;
	/* The dual-write window of its table key rewrites: the step that
	 * opens it, the keys it rewrites (in that step's facts), the last
	 * rewrite (the migration its closing step runs again). */
	size_t window;
	json_t *window_keys;
	size_t migrated;
} entity_work;

static void migrate_step(plan *p, size_t s)
{
	p->g.v[s].migrate = true;
}

static json_t *facts_attr(const ddbc_entity *e, const ddbc_attr *a)
{
	json_t *f = json_object();
	const char *table = ddbc_diff_entity_table(e);
	if (table)
		json_object_set_new(f, "table", ddbc_json_str(table));
	json_object_set_new(f, "entity", ddbc_json_str(e->name.s));
	json_object_set_new(f, "attribute", ddbc_json_str(a->name.s));
	return f;
}

/* Chains step s after the entity's last, and after the replacement of its
 * table; an attribute's work also takes its place around the indexes. */
static void place(entity_work *w, size_t s, const char *attr)
{
	ddbc_diff_plan_need(&w->p->g, s, w->last);
	if (w->pt && w->pt->t0 && ddbc_diff_table_replaced(w->pt->t0, w->pt->t1))
		ddbc_diff_plan_need(&w->p->g, s, w->pt->made);
	if (attr)
		ddbc_diff_plan_around_indexes(w->p, w->pt, s, attr);
	w->last = s;
}

static void makes_attr(strbuf *sb, const ddbc_entity *e, const ddbc_attr *a, const char *what)
{
	ddbc_strbuf_reset(sb);
	ddbc_strbuf_addf(sb, "every '%s' item holds '%s'%s%s", e->name.s, a->name.s, *what ? " " : "",
		    what);
}

/* Opens e's dual-write window before its first table key rewrite, and
 * lists the key a1 in it: deployed code writes each item under both keys
 * while the stored items are migrated. */
static void open_window(entity_work *w, const ddbc_entity *e, const ddbc_attr *a0,
			const ddbc_attr *a1)
{
	if (w->window == PLAN_NONE) {
		json_t *f = json_object();
		const char *table = ddbc_diff_entity_table(e);
		if (table)
			json_object_set_new(f, "table", ddbc_json_str(table));
		json_object_set_new(f, "entity", ddbc_json_str(e->name.s));
		json_object_set_new(f, "change", json_string("write-both-shapes"));
		w->window_keys = json_array();
		json_object_set_new(f, "keys", w->window_keys);
		strbuf makes = STRBUF_INIT;
		ddbc_strbuf_addf(&makes, "the deployed code writes every '%s' item under its old key and "
			    "its new key, and reads it under either", e->name.s);
		w->window = ddbc_diff_plan_manual(w->p, "deploy-code", f, ddbc_strbuf_str(&makes), "deploy the "
					"code that writes each '%s' item in both shapes, under its "
					"old key and its new key (keys gives both templates), and "
					"reads it under either: the stored items are migrated next",
					e->name.s);
		ddbc_strbuf_release(&makes);
		place(w, w->window, NULL);
	}
	json_array_append_new(w->window_keys, json_pack("{s:o, s:o, s:o}", "attribute",
		ddbc_json_str(a1->name.s), "old_template",
		a0->template.s ? ddbc_json_str(a0->template.s) : json_null(), "new_template",
		a1->template.s ? ddbc_json_str(a1->template.s) : json_null()));
}

/* Closes e's dual-write window once its items are migrated: reads switch
 * to the new keys, then writes stop writing the old ones. */
static void close_window(entity_work *w, const ddbc_entity *e)
{
	if (w->window == PLAN_NONE)
		return;
	static const struct {
		const char *change, *makes, *text;
	} step[] = {
		{ "read-new-shape", "the deployed code reads the '%s' items under their new keys only",
		  "deploy the code that reads the '%s' items under their new keys only: every "
		  "stored item has its new key now" },
		{ "write-new-shape-only", "the deployed code writes the '%s' items under their new "
		  "keys only", "deploy the code that writes the '%s' items under their new keys "
		  "only, then run the command of step @STEP@ once more: it moves the copies "
		  "written under the old keys since, and leaves migrated items alone" },
	};
	const char *table = ddbc_diff_entity_table(e);
	for (size_t i = 0; i < 2; i++) {
		json_t *f = json_object();
		if (table)
			json_object_set_new(f, "table", ddbc_json_str(table));
		json_object_set_new(f, "entity", ddbc_json_str(e->name.s));
		json_object_set_new(f, "change", json_string(step[i].change));
		strbuf makes = STRBUF_INIT;
		ddbc_strbuf_addf(&makes, step[i].makes, e->name.s);
		size_t s = ddbc_diff_plan_manual(w->p, "deploy-code", f, ddbc_strbuf_str(&makes), step[i].text,
				       e->name.s);
		ddbc_strbuf_release(&makes);
		if (i == 1)
			w->p->g.v[s].refers = w->migrated;
		place(w, s, NULL);
	}
}

static void template_step(entity_work *w, const ddbc_attr *a0, const ddbc_attr *a1,
			  strbuf *makes)
{
	ddbc_diff_rewrite r = ddbc_diff_attr_rewrite(a0, a1);
	if (r == DIFF_REWRITE_NONE)
		return;
	const ddbc_entity *e = a1->entity;
	json_t *f = facts_attr(e, a1);
	json_object_set_new(f, "old_template", a0->template.s ? ddbc_json_str(a0->template.s)
			    : json_null());
	json_object_set_new(f, "new_template", a1->template.s ? ddbc_json_str(a1->template.s)
			    : json_null());
	ddbc_strbuf_reset(makes);
	ddbc_strbuf_addf(makes, "every '%s' item holds '%s' rendered from %s", e->name.s, a1->name.s,
		    a1->template.s ? "its new template" : "no template (its own value)");
	if (r == DIFF_REWRITE_TABLE_KEY)
		open_window(w, e, a0, a1);
	size_t s;
	if (r == DIFF_REWRITE_TABLE_KEY)
		s = ddbc_diff_plan_manual(w->p, "rewrite-keys", f, ddbc_strbuf_str(makes), "migrate the stored "
				"'%s' items: put a copy of each under the key new_template renders "
				"for '%s', then delete it under its old key (old_template)",
				e->name.s, a1->name.s);
	else
		s = ddbc_diff_plan_manual(w->p, "rewrite-attribute", f, ddbc_strbuf_str(makes), "rewrite '%s' in "
				"every stored '%s' item from old_template to new_template",
				a1->name.s, e->name.s);
	place(w, s, a1->name.s);
	migrate_step(w->p, s);
	if (r == DIFF_REWRITE_TABLE_KEY)
		w->migrated = s;
}

static void type_step(entity_work *w, const ddbc_attr *a0, const ddbc_attr *a1,
		      strbuf *makes)
{
	if (a0->type == DDBC_TYPE_NONE || a1->type == DDBC_TYPE_NONE || a0->type == a1->type)
		return;
	const ddbc_entity *e = a1->entity;
	json_t *f = facts_attr(e, a1);
	json_object_set_new(f, "old_type", json_string(ddbc_type_short(a0->type)));
	json_object_set_new(f, "new_type", json_string(ddbc_type_short(a1->type)));
	ddbc_strbuf_reset(makes);
	ddbc_strbuf_addf(makes, "every '%s' item holds '%s' as a value of type %s", e->name.s,
		    a1->name.s, ddbc_type_short(a1->type));
	size_t s = ddbc_diff_plan_manual(w->p, "convert-type", f, ddbc_strbuf_str(makes), "convert '%s' of every "
			       "stored '%s' item from type %s to %s", a1->name.s, e->name.s,
			       ddbc_type_short(a0->type), ddbc_type_short(a1->type));
	place(w, s, a1->name.s);
	migrate_step(w->p, s);
}

/* A value to backfill with where no template gives one: the attribute's
 * example, else the first example item's. */
static const ddbc_pval *example_value(const ddbc_attr *a)
{
	if (a->more->example)
		return a->more->example;
	for (size_t i = 0; i < a->entity->nexamples; i++) {
		const ddbc_pval *v = ddbc_pval_get(a->entity->examples[i], a->name.s);
		if (v)
			return v;
	}
	return NULL;
}

static void backfill_step(entity_work *w, const ddbc_attr *a1, bool added, strbuf *makes)
{
	const ddbc_entity *e = a1->entity;
	json_t *f = facts_attr(e, a1);
	bool known = a1->template.s || example_value(a1);
	if (a1->template.s)
		json_object_set_new(f, "template", ddbc_json_str(a1->template.s));
	else if (example_value(a1))
		json_object_set_new(f, "example", ddbc_json_attr_value(example_value(a1),
								       a1->type));
	if (a1->type != DDBC_TYPE_NONE)
		json_object_set_new(f, "type", json_string(ddbc_type_short(a1->type)));
	makes_attr(makes, e, a1, a1->template.s ? "rendered from its template" : "");
	size_t s = ddbc_diff_plan_manual(w->p, "backfill", f, ddbc_strbuf_str(makes), "backfill %s'%s' in every "
			       "stored '%s' item that lacks it%s", added ? (a1->is_key &&
			       !ddbc_attr_required(a1, NULL) ? "the new index key " :
			       "the new required ") : "", a1->name.s, e->name.s, known ? "" :
			       " (the design gives no value: choose a default of its type)");
	place(w, s, a1->name.s);
	/* What a template renders from the item's own values, migrate writes. */
	if (a1->template.s)
		migrate_step(w->p, s);
}

/* The values of a JSON array as text: 'open', 4. */
static void json_values_text(const json_t *values, strbuf *out)
{
	size_t i;
	json_t *v;
	json_array_foreach(values, i, v) {
		if (json_is_string(v))
			ddbc_strbuf_addf(out, "%s'%s'", i ? ", " : "", json_string_value(v));
		else {
			char *text = json_dumps(v, JSON_ENCODE_ANY);
			text[ddbc_json_unmark(text, strlen(text))] = '\0';
			ddbc_strbuf_addf(out, "%s%s", i ? ", " : "", text);
			free(text);
		}
	}
}

static void enum_step(entity_work *w, const ddbc_attr *a0, const ddbc_attr *a1,
		      strbuf *makes)
{
	bool unlimited;
	json_t *gone = ddbc_diff_enum_removed(a0, a1, &unlimited);
	if (!gone)
		return;
	const ddbc_entity *e = a1->entity;
	json_t *f = facts_attr(e, a1), *values = json_array();
	for (uint32_t i = 0; i < a1->more->nenum; i++)
		json_array_append_new(values, ddbc_json_plain(a1->more->enum_values[i]));
	strbuf allowed = STRBUF_INIT, removed = STRBUF_INIT;
	json_values_text(values, &allowed);
	json_values_text(gone, &removed);
	if (!unlimited)
		json_object_set_new(f, "removed_values", gone);
	else
		json_decref(gone);
	json_object_set_new(f, "values", values);
	ddbc_strbuf_reset(makes);
	ddbc_strbuf_addf(makes, "no '%s' item holds a '%s' outside its enum (%s)", e->name.s,
		    a1->name.s, ddbc_strbuf_str(&allowed));
	place(w, ddbc_diff_plan_manual(w->p, "rewrite-values", f, ddbc_strbuf_str(makes), "rewrite '%s' in "
			     "every stored '%s' item that holds %s%s to one of %s, or delete the "
			     "item", a1->name.s, e->name.s, unlimited ? "any value (it had no "
			     "enum)" : "", ddbc_strbuf_str(&removed), ddbc_strbuf_str(&allowed)), NULL);
	ddbc_strbuf_release(&allowed);
	ddbc_strbuf_release(&removed);
}

static void attr_pair_steps(entity_work *w, const ddbc_attr *a0, const ddbc_attr *a1)
{
	strbuf makes = STRBUF_INIT;
	template_step(w, a0, a1, &makes);
	type_step(w, a0, a1, &makes);
	if (!ddbc_attr_required(a0, NULL) && ddbc_attr_required(a1, NULL))
		backfill_step(w, a1, false, &makes);
	enum_step(w, a0, a1, &makes);
	ddbc_strbuf_release(&makes);
}

/* An entity gone from its table, or moved to another. */
static void entity_moved(plan *p, const ddbc_entity *e0, const ddbc_entity *e1)
{
	const char *t0 = ddbc_diff_entity_table(e0);
	json_t *f = json_object();
	if (t0)
		json_object_set_new(f, "table", ddbc_json_str(t0));
	json_object_set_new(f, "entity", ddbc_json_str(e0->name.s));
	strbuf makes = STRBUF_INIT;
	size_t s;
	if (e1) {
		const char *t1 = ddbc_diff_entity_table(e1);
		json_object_set_new(f, "new_table", ddbc_json_str(t1));
		ddbc_strbuf_addf(&makes, "the '%s' items are in table '%s' only", e0->name.s, t1);
		s = ddbc_diff_plan_manual(p, "move-items", f, ddbc_strbuf_str(&makes), "copy the '%s' items to "
				"new_table and delete them from table", e0->name.s);
		const plan_table *pt = ddbc_diff_plan_table_named(p, t1);
		if (pt)
			ddbc_diff_plan_need(&p->g, s, pt->made);
	} else {
		size_t stop = ddbc_diff_plan_stop_reading(p, e0, NULL);
		ddbc_strbuf_addf(&makes, "no '%s' item is left in table '%s'", e0->name.s,
			    t0 ? t0 : "(unknown)");
		s = ddbc_diff_plan_manual(p, "delete-items", f, ddbc_strbuf_str(&makes), "delete or migrate the "
				"stored '%s' items", e0->name.s);
		ddbc_diff_plan_need(&p->g, s, stop);
	}
	ddbc_strbuf_release(&makes);
	/* A table deleted by hand is deleted once its items are moved out. */
	for (size_t i = 0; t0 && i < p->old->ntables; i++)
		if (ddbc_diff_str_same(p->old->tables[i].name.s, t0))
			ddbc_diff_plan_need(&p->g, p->dropped[i], s);
}

static void entity_steps(plan *p, const ddbc_entity *e0, const ddbc_entity *e1)
{
	if (!e1 || !ddbc_diff_str_same(ddbc_diff_entity_table(e0), ddbc_diff_entity_table(e1))) {
		/* The items of a table deleted by hand go with it. */
		if (e1 || !e0->table || ddbc_design_table(p->new, e0->table->name.s))
			entity_moved(p, e0, e1);
		return;
	}
	entity_work w = { p, ddbc_diff_plan_table_named(p, ddbc_diff_entity_table(e1)), PLAN_NONE,
			  PLAN_NONE, NULL, PLAN_NONE };
	for (size_t i = 0; i < e0->nattrs; i++) {
		const ddbc_attr *a0 = &e0->attrs[i];
		const ddbc_attr *a1 = a0->name.s ? ddbc_entity_attr(e1, a0->name.s) : NULL;
		if (a1)
			attr_pair_steps(&w, a0, a1);
		else if (a0->name.s && ddbc_diff_removed_use(p->old, a0, e1->table)) {
			strbuf makes = STRBUF_INIT;
			ddbc_strbuf_addf(&makes, "no '%s' item holds '%s'", e0->name.s, a0->name.s);
			size_t stop = ddbc_diff_plan_stop_reading(p, e0, a0);
			place(&w, stop, NULL);
			/* A renamed TTL attribute's copy may remove the old one. */
			if (w.pt && w.pt->t0 && ddbc_diff_str_same(w.pt->t0->ttl.s, a0->name.s))
				ddbc_diff_plan_need(&p->g, w.pt->ttl_backfill, stop);
			place(&w, ddbc_diff_plan_manual(p, "remove-attribute", facts_attr(e0, a0),
					      ddbc_strbuf_str(&makes), "remove '%s' from every stored "
					      "'%s' item: NEW no longer has it", a0->name.s,
					      e0->name.s), NULL);
			ddbc_strbuf_release(&makes);
		}
	}
	close_window(&w, e1);
	strbuf makes = STRBUF_INIT;
	for (size_t i = 0; i < e1->nattrs; i++) {
		const ddbc_attr *a1 = &e1->attrs[i];
		/* New to the entity, and every item must hold it: required, or
		 * (rendered from a template) a key of an index, which leaves out
		 * the items that lack it. */
		if (!ddbc_entity_attr(e0, a1->name.s) &&
		    (ddbc_attr_required(a1, NULL) || (a1->is_key && a1->template.s)))
			backfill_step(&w, a1, true, &makes);
	}
	ddbc_strbuf_release(&makes);
}

void ddbc_diff_plan_item_steps(plan *p)
{
	const char *d0 = ddbc_diff_delimiter(p->old), *d1 = ddbc_diff_delimiter(p->new);
	if (strcmp(d0, d1)) {
		json_t *f = json_object();
		json_object_set_new(f, "old_delimiter", ddbc_json_str(d0));
		json_object_set_new(f, "new_delimiter", ddbc_json_str(d1));
		migrate_step(p, ddbc_diff_plan_manual(p, "rewrite-delimiter", f, "every stored key is joined "
					    "with the new delimiter", "the key delimiter changed: "
					    "rewrite every stored key that is joined with the old "
					    "delimiter"));
	}
	for (size_t i = 0; i < p->old->nentities; i++)
		entity_steps(p, &p->old->entities[i],
			     ddbc_design_entity(p->new, p->old->entities[i].name.s));
}
