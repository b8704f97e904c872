/* diff_plan_code.c - the plan's steps for the application's code
 *
 * Tables change under code that is running. Before anything that code
 * reads goes away (a GSI deleted, a table deleted or replaced, an
 * attribute's stored values removed, an entity's items deleted) the plan
 * has a manual step "deploy the code that no longer uses it", naming the
 * access patterns (and attributes) whose callers change; the step that
 * removes the thing needs it. Once a new place exists (a table created, a
 * GSI created or created again), a step deploys the code that runs its
 * patterns as NEW defines them, after the step that makes it. A pattern
 * that moves to a place that exists before and after switches in one
 * deployment, before its old place goes. These are all action
 * "deploy-code", with "stops" (the patterns code no longer runs) and
 * "runs" (the patterns code runs as NEW defines them from then on).
 */
#include "diff/diff_graph.h"
#include "diff/diff_int.h"
#include "emit/emit_json.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *table_of(const ddbc_pattern *p)
{
	return p->table ? p->table->name.s : p->table_ref.s;
}

/* The number of OLD's table named name in p->old->tables, or SIZE_MAX. */
static size_t old_table_number(const plan *p, const char *name)
{
	for (size_t i = 0; name && i < p->old->ntables; i++)
		if (ddbc_diff_str_same(p->old->tables[i].name.s, name))
			return i;
	return SIZE_MAX;
}

/* The step after which OLD's place (table t, GSI index, NULL: the table)
 * is gone (the table deleted or replaced, the GSI deleted), or PLAN_NONE;
 * what names the place, then after a tab what becomes of it. */
static size_t gone_step(plan *p, const char *t, const char *index, strbuf *what)
{
	const plan_table *pt = ddbc_diff_plan_table_named(p, t);
	if (!pt) {
		size_t i = old_table_number(p, t);
		ddbc_strbuf_addf(what, "table '%s'\tit is deleted next", t ? t : "?");
		return i == SIZE_MAX ? PLAN_NONE : p->dropped[i];
	}
	if (!pt->t0)
		return PLAN_NONE;
	if (ddbc_diff_table_replaced(pt->t0, pt->t1)) {
		ddbc_strbuf_addf(what, "table '%s'\tit is replaced next, and its items copied to "
			    "the new table", t);
		return pt->made;
	}
	for (size_t i = 0; index && pt->gsi_deleted && i < pt->t0->ngsi; i++) {
		const ddbc_index *g0 = &pt->t0->gsi[i];
		if (!ddbc_diff_str_same(g0->name.s, index) || pt->gsi_deleted[i] == PLAN_NONE)
			continue;
		ddbc_strbuf_addf(what, "GSI '%s' of table '%s'\tit is deleted next%s", g0->name.s, t,
			    ddbc_diff_gsi(pt->t1, g0->name.s) ? ", and created again as NEW "
			    "defines it later (queries on it fail in between)" : "");
		return pt->gsi_deleted[i];
	}
	return PLAN_NONE;
}

/* The step that makes NEW's pattern p1's place (its table created or
 * replaced, its GSI created), or PLAN_NONE when the place is there
 * already; *what names the place. */
static size_t made_step(plan *p, const ddbc_pattern *p1, strbuf *what)
{
	const char *t = table_of(p1);
	const plan_table *pt = ddbc_diff_plan_table_named(p, t);
	if (!pt)
		return PLAN_NONE;
	if (!pt->t0 || ddbc_diff_table_replaced(pt->t0, pt->t1)) {
		ddbc_strbuf_addf(what, "table '%s'", t);
		return pt->made;
	}
	for (size_t i = 0; p1->index_ref.s && pt->gsi_created && i < pt->t1->ngsi; i++) {
		const ddbc_index *g1 = &pt->t1->gsi[i];
		if (!ddbc_diff_str_same(g1->name.s, p1->index_ref.s) || pt->gsi_created[i] == PLAN_NONE)
			continue;
		ddbc_strbuf_addf(what, "GSI '%s' of table '%s'", g1->name.s, t);
		return pt->gsi_created[i];
	}
	return PLAN_NONE;
}

static bool same_place(const ddbc_pattern *a, const ddbc_pattern *b)
{
	return ddbc_diff_str_same(table_of(a), table_of(b)) &&
	       ddbc_diff_str_same(a->index_ref.s, b->index_ref.s);
}

static const ddbc_pattern *pattern_named(const ddbc_design *g, const char *id)
{
	for (size_t i = 0; id && i < g->npatterns; i++)
		if (ddbc_diff_str_same(g->patterns[i].id.s, id))
			return &g->patterns[i];
	return NULL;
}

/* ---- one deployment: the patterns it changes ------------------------------------------ */

typedef enum deploy_kind {
	DEPLOY_STOP,             /* before step key: the code stops running them */
	DEPLOY_SWITCH,           /* before step key: runs them in their new place */
	DEPLOY_RUN,              /* after step key: runs them in the place it made */
	DEPLOY_DROPPED,          /* patterns NEW no longer has, whose place stays */
	DEPLOY_MOVED             /* a pattern moved between places that both stay */
} deploy_kind;

typedef struct deploy {
	deploy_kind kind;
	size_t key;              /* the step it stands before or after (MOVED: the
				  * pattern's number, one deployment each) */
	/* STOP, SWITCH: the place gone, a tab, what becomes of it; RUN: the
	 * place made; MOVED: "on NEW's place, no longer on OLD's". */
	char *what;
	json_t *names;           /* the patterns' ids */
	strbuf list;             /* the same, quoted, for the text */
	strbuf reads;            /* RUN: what each reads from the table now */
	json_t *from_table;      /* the same as facts */
} deploy;

typedef struct deploys {
	deploy *v;
	size_t n, cap;
} deploys;

static deploy *deploy_for(deploys *ds, deploy_kind kind, size_t key, const char *what)
{
	for (size_t i = 0; i < ds->n; i++)
		if (ds->v[i].kind == kind && ds->v[i].key == key)
			return &ds->v[i];
	ddbc_xgrow((void **)&ds->v, &ds->cap, ds->n + 1, sizeof(deploy));
	deploy *d = &ds->v[ds->n++];
	*d = (deploy){ kind, key, ddbc_xstrdup(what ? what : ""), json_array(), STRBUF_INIT,
		       STRBUF_INIT, json_array() };
	return d;
}

static void deploy_add(deploy *d, const char *id)
{
	json_array_append_new(d->names, ddbc_json_str(id));
	ddbc_strbuf_addf(&d->list, "%s'%s'", d->list.len ? ", " : "", id);
}

/* What a pattern of NEW that runs in a created GSI reads from the table:
 * the attributes its OLD version read from the index, which NEW's no
 * longer projects. */
static void note_narrowed(const plan *p, deploy *d, const ddbc_pattern *p1)
{
	const ddbc_pattern *p0 = pattern_named(p->old, p1->id.s);
	if (!p0 || !p0->analysed || !p1->analysed || !p1->index || p1->index->kind != DDBC_INDEX_GSI ||
	    p0->index->kind != DDBC_INDEX_GSI)
		return;
	const ddbc_name *attr;
	size_t from = (size_t)(p0 - p->old->patterns);
	const ddbc_pattern *hit = ddbc_diff_narrowed_pattern(p->old, p0->index, p1->index, &from,
							    &attr);
	if (hit != p0)
		return;
	json_array_append_new(d->from_table, json_pack("{s:o, s:o}", "pattern",
						       ddbc_json_str(p1->id.s), "attribute",
						       ddbc_json_str(attr->s)));
	ddbc_strbuf_addf(&d->reads, "; '%s' reads '%s' from the table (the index no longer projects "
		    "it)", p1->id.s, attr->s);
}

/* The text of a deployment: what the code does, and before or after what. */
static void deploy_text(const deploy *d, strbuf *sb)
{
	size_t n = json_array_size(d->names);
	const char *s = n == 1 ? "" : "s", *it = n == 1 ? "it" : "them";
	const char *list = ddbc_strbuf_str(&d->list);
	/* A place gone: its name, a tab, then its fate. */
	int place = (int)strcspn(d->what, "\t");
	const char *fate = d->what[place] ? d->what + place + 1 : "";
	switch (d->kind) {
	case DEPLOY_STOP:
		ddbc_strbuf_addf(sb, "deploy the code that no longer uses %.*s (", place, d->what);
		if (n)
			ddbc_strbuf_addf(sb, "access pattern%s %s", s, list);
		else
			ddbc_strbuf_addstr(sb, "no access pattern of the design does; check the code's own "
				      "queries");
		ddbc_strbuf_addf(sb, "): %s", fate);
		break;
	case DEPLOY_SWITCH:
		ddbc_strbuf_addf(sb, "deploy the code that runs access pattern%s %s where NEW puts %s, no "
			    "longer on %.*s: %s", s, list, it, place, d->what, fate);
		break;
	case DEPLOY_RUN:
		ddbc_strbuf_addf(sb, "deploy the code that runs access pattern%s %s on %s as NEW defines "
			    "%s, now that it exists%s", s, list, d->what, it, ddbc_strbuf_str(&d->reads));
		break;
	case DEPLOY_DROPPED:
		ddbc_strbuf_addf(sb, "deploy the code that no longer runs access pattern%s %s: NEW no "
			    "longer has %s", s, list, it);
		break;
	case DEPLOY_MOVED:
		ddbc_strbuf_addf(sb, "deploy the code that runs access pattern %s %s", list, d->what);
		break;
	}
}

static size_t deploy_step(plan *p, deploy *d)
{
	json_t *f = json_object();
	size_t n = json_array_size(d->names);
	bool runs = d->kind == DEPLOY_SWITCH || d->kind == DEPLOY_RUN || d->kind == DEPLOY_MOVED;
	json_object_set_new(f, "stops", runs ? json_array() : json_incref(d->names));
	json_object_set_new(f, "runs", runs ? json_incref(d->names) : json_array());
	if (json_array_size(d->from_table))
		json_object_set_new(f, "reads_from_table", json_incref(d->from_table));
	strbuf makes = STRBUF_INIT, text = STRBUF_INIT;
	if (d->kind == DEPLOY_STOP)
		ddbc_strbuf_addf(&makes, "no deployed code uses %.*s", (int)strcspn(d->what, "\t"),
			    d->what);
	else
		ddbc_strbuf_addf(&makes, runs ? "the deployed code runs access pattern%s %s as NEW "
			    "defines %s" : "no deployed code runs access pattern%s %s",
			    n == 1 ? "" : "s", ddbc_strbuf_str(&d->list), n == 1 ? "it" : "them");
	deploy_text(d, &text);
	size_t step = ddbc_diff_plan_manual(p, "deploy-code", f, ddbc_strbuf_str(&makes), "%s", ddbc_strbuf_str(&text));
	ddbc_strbuf_release(&makes);
	ddbc_strbuf_release(&text);
	return step;
}

static void deploys_release(deploys *ds)
{
	for (size_t i = 0; i < ds->n; i++) {
		free(ds->v[i].what);
		json_decref(ds->v[i].names);
		json_decref(ds->v[i].from_table);
		ddbc_strbuf_release(&ds->v[i].list);
		ddbc_strbuf_release(&ds->v[i].reads);
	}
	free(ds->v);
}

/* A deployment that stops the code using each place of OLD that goes (a
 * GSI, a table), whether or not a pattern of the design names it: code
 * may query it all the same. */
static void gone_places(plan *p, deploys *ds)
{
	strbuf what = STRBUF_INIT;
	for (size_t t = 0; t < p->old->ntables; t++) {
		const ddbc_table *t0 = &p->old->tables[t];
		ddbc_strbuf_reset(&what);
		size_t gone = gone_step(p, t0->name.s, NULL, &what);
		if (gone != PLAN_NONE)
			deploy_for(ds, DEPLOY_STOP, gone, ddbc_strbuf_str(&what));
		for (size_t i = 0; gone == PLAN_NONE && i < t0->ngsi; i++) {
			ddbc_strbuf_reset(&what);
			size_t g = gone_step(p, t0->name.s, t0->gsi[i].name.s, &what);
			if (g != PLAN_NONE)
				deploy_for(ds, DEPLOY_STOP, g, ddbc_strbuf_str(&what));
		}
	}
	ddbc_strbuf_release(&what);
}

/* The step after which p0's place is gone (its table, else its GSI). */
static size_t pattern_gone(plan *p, const ddbc_pattern *p0, strbuf *what)
{
	size_t gone = gone_step(p, table_of(p0), NULL, what);
	if (gone == PLAN_NONE && p0->index_ref.s) {
		ddbc_strbuf_reset(what);
		gone = gone_step(p, table_of(p0), p0->index_ref.s, what);
	}
	return gone;
}

/* Where p is, in words: "GSI 'x' of table 't'", "table 't'". */
static void place_text(const ddbc_pattern *p, strbuf *sb)
{
	if (p->index_ref.s)
		ddbc_strbuf_addf(sb, "%s '%s' of ", p->index && p->index->kind == DDBC_INDEX_LSI ? "LSI"
			    : "GSI", p->index_ref.s);
	ddbc_strbuf_addf(sb, "table '%s'", table_of(p) ? table_of(p) : "?");
}

/* Each OLD pattern: stopped, or switched, before its place goes; dropped
 * or moved when its place stays. */
static void old_patterns(plan *p, deploys *ds)
{
	strbuf what = STRBUF_INIT, made = STRBUF_INIT;
	for (size_t i = 0; i < p->old->npatterns; i++) {
		const ddbc_pattern *p0 = &p->old->patterns[i];
		if (!p0->id.s)
			continue;
		ddbc_strbuf_reset(&what);
		ddbc_strbuf_reset(&made);
		size_t gone = pattern_gone(p, p0, &what);
		const ddbc_pattern *p1 = pattern_named(p->new, p0->id.s);
		size_t make = p1 ? made_step(p, p1, &made) : PLAN_NONE;
		bool moved = p1 && !same_place(p0, p1);
		if (p->pattern_stop[i] != PLAN_NONE) {
			/* Stopped already with what it reads (diff_plan_items.c). */
			ddbc_diff_plan_need(&p->g, gone, p->pattern_stop[i]);
		} else if (gone != PLAN_NONE) {
			deploy_add(deploy_for(ds, moved && make == PLAN_NONE ? DEPLOY_SWITCH
					      : DEPLOY_STOP, gone, ddbc_strbuf_str(&what)), p0->id.s);
		} else if (!p1) {
			deploy_add(deploy_for(ds, DEPLOY_DROPPED, PLAN_NONE, NULL), p0->id.s);
		} else if (moved && make == PLAN_NONE) {
			/* One deployment each: each names its own places. */
			ddbc_strbuf_reset(&what);
			ddbc_strbuf_addstr(&what, "on ");
			place_text(p1, &what);
			ddbc_strbuf_addstr(&what, ", no longer on ");
			place_text(p0, &what);
			deploy_add(deploy_for(ds, DEPLOY_MOVED, i, ddbc_strbuf_str(&what)), p0->id.s);
		}
	}
	ddbc_strbuf_release(&what);
	ddbc_strbuf_release(&made);
}

/* Each NEW pattern whose place the plan makes runs once it is made. */
static void new_patterns(plan *p, deploys *ds)
{
	strbuf made = STRBUF_INIT;
	for (size_t i = 0; i < p->new->npatterns; i++) {
		const ddbc_pattern *p1 = &p->new->patterns[i];
		ddbc_strbuf_reset(&made);
		size_t make = p1->id.s ? made_step(p, p1, &made) : PLAN_NONE;
		if (make == PLAN_NONE)
			continue;
		deploy *d = deploy_for(ds, DEPLOY_RUN, make, ddbc_strbuf_str(&made));
		deploy_add(d, p1->id.s);
		/* A replaced table's indexes are new with it: the diff reports
		 * what they lost as the table's change, not as a projection's. */
		if (!strncmp(ddbc_strbuf_str(&made), "GSI ", 4))
			note_narrowed(p, d, p1);
	}
	ddbc_strbuf_release(&made);
}

void ddbc_diff_plan_code_steps(plan *p)
{
	deploys ds = { NULL, 0, 0 };
	gone_places(p, &ds);
	old_patterns(p, &ds);
	new_patterns(p, &ds);
	for (size_t i = 0; i < ds.n; i++) {
		deploy *d = &ds.v[i];
		size_t s = deploy_step(p, d);
		/* The code stops using what goes before anything else. */
		p->g.v[s].early = d->kind != DEPLOY_RUN;
		if (d->kind == DEPLOY_STOP || d->kind == DEPLOY_SWITCH)
			ddbc_diff_plan_need(&p->g, d->key, s);
		else if (d->kind == DEPLOY_RUN)
			ddbc_diff_plan_need(&p->g, s, d->key);
	}
	deploys_release(&ds);
}

/* ---- code that stops reading what the items lose ---------------------------------------- */

size_t ddbc_diff_plan_stop_reading(plan *p, const ddbc_entity *e0, const ddbc_attr *a0)
{
	json_t *stops = json_array(), *runs = json_array();
	strbuf list = STRBUF_INIT;
	size_t npatterns = 0;
	for (size_t i = 0; i < p->old->npatterns; i++) {
		const ddbc_pattern *p0 = &p->old->patterns[i];
		bool reads = false;
		for (size_t k = 0; k < p0->nmatched && !reads; k++)
			reads = p0->matched[k] == e0;
		/* With an attribute: the patterns that name it. */
		bool named = !a0;
		for (size_t k = 0; a0 && k < p0->nconds; k++)
			named = named || ddbc_diff_str_same(p0->conds[k].attr.s, a0->name.s);
		for (size_t k = 0; a0 && k < p0->nreturns; k++)
			named = named || ddbc_diff_str_same(p0->returns[k].s, a0->name.s);
		reads = reads && named;
		if (!reads || !p0->id.s)
			continue;
		bool kept = pattern_named(p->new, p0->id.s) != NULL;
		json_array_append_new(kept ? runs : stops, ddbc_json_str(p0->id.s));
		ddbc_strbuf_addf(&list, "%s'%s'", list.len ? ", " : "", p0->id.s);
		npatterns++;
	}
	json_t *f = json_object();
	const char *table = ddbc_diff_entity_table(e0);
	if (table)
		json_object_set_new(f, "table", ddbc_json_str(table));
	json_object_set_new(f, "entity", ddbc_json_str(e0->name.s));
	if (a0)
		json_object_set_new(f, "attributes", json_pack("[o]", ddbc_json_str(a0->name.s)));
	json_object_set_new(f, "stops", stops);
	json_object_set_new(f, "runs", runs);
	strbuf makes = STRBUF_INIT, what = STRBUF_INIT;
	if (a0)
		ddbc_strbuf_addf(&what, "'%s' of the '%s' items", a0->name.s, e0->name.s);
	else
		ddbc_strbuf_addf(&what, "the '%s' items", e0->name.s);
	ddbc_strbuf_addf(&makes, "no deployed code reads %s", ddbc_strbuf_str(&what));
	size_t s = ddbc_diff_plan_manual(p, "deploy-code", f, ddbc_strbuf_str(&makes), "deploy the code that no "
			       "longer reads or writes %s%s%s%s: %s next", ddbc_strbuf_str(&what),
			       !npatterns ? "" : npatterns == 1 ? " (access pattern " :
			       " (access patterns ", ddbc_strbuf_str(&list),
			       list.len ? ")" : "", a0 ? "its stored values are removed"
			       : "they are deleted");
	p->g.v[s].early = true;
	/* A pattern stopped here is stopped before its place goes too. */
	for (size_t i = 0; i < p->old->npatterns; i++) {
		const char *id = p->old->patterns[i].id.s;
		size_t k;
		json_t *v;
		json_array_foreach(stops, k, v)
			if (id && !strcmp(json_string_value(v), id) &&
			    p->pattern_stop[i] == PLAN_NONE)
				p->pattern_stop[i] = s;
	}
	ddbc_strbuf_release(&list);
	ddbc_strbuf_release(&makes);
	ddbc_strbuf_release(&what);
	return s;
}
