/* resolve.c - linking names to what they name (unresolved-reference) */
#include "input/load.h"
#include "model/request.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Reports name as unresolved, suggesting the closest of candidates. */
static void unresolved(ddbc_diags *d, ddbc_name name, const char *what, const char *where,
		       const char **candidates, size_t n)
{
	const char *hint = ddbc_suggest(name.s, candidates, n);
	if (hint)
		ddbc_diag_add(d, DDBC_RULE_UNRESOLVED_REFERENCE, name.loc,
			      "%s '%s' is not defined%s; did you mean '%s'?", what, name.s, where,
			      hint);
	else
		ddbc_diag_add(d, DDBC_RULE_UNRESOLVED_REFERENCE, name.loc,
			      "%s '%s' is not defined%s", what, name.s, where);
}

static ddbc_table *find_table(const ddbc_design *g, ddbc_name ref, ddbc_diags *d)
{
	if (!ref.s)
		return g->ntables == 1 ? &g->tables[0] : NULL;
	ddbc_table *t = ddbc_design_table(g, ref.s);
	if (t || g->incomplete)
		return t;
	const char **names = ddbc_xmalloc((g->ntables + 1) * sizeof(char *));
	for (size_t i = 0; i < g->ntables; i++)
		names[i] = g->tables[i].name.s;
	unresolved(d, ref, "table", "", names, g->ntables);
	free(names);
	return NULL;
}

static const char **index_names(const ddbc_table *t, size_t *n)
{
	const char **names = ddbc_xmalloc((t->ngsi + t->nlsi + 1) * sizeof(char *));
	*n = 0;
	for (size_t i = 0; i < t->ngsi; i++)
		names[(*n)++] = t->gsi[i].name.s;
	for (size_t i = 0; i < t->nlsi; i++)
		names[(*n)++] = t->lsi[i].name.s;
	return names;
}

static void unresolved_index(ddbc_diags *d, const ddbc_table *t, ddbc_name ref)
{
	size_t n;
	const char **names = index_names(t, &n);
	strbuf where = STRBUF_INIT;
	ddbc_strbuf_addf(&where, " on table '%s'", t->name.s);
	unresolved(d, ref, "index", ddbc_strbuf_str(&where), names, n);
	ddbc_strbuf_release(&where);
	free(names);
}

/* Whether e lacks a key attribute of its table (entity-missing-key says
 * so): its attributes are then not what its items hold. */
static bool lacks_key(const ddbc_entity *e)
{
	const ddbc_index *p = &e->table->primary;
	for (size_t k = 0; k < p->npk; k++)
		if (!ddbc_entity_attr(e, p->pk[k].s))
			return true;
	for (size_t k = 0; k < p->nsk; k++)
		if (!ddbc_entity_attr(e, p->sk[k].s))
			return true;
	return false;
}

/* Returns false when e names a table that does not exist: e may belong to
 * any table then. */
static bool resolve_entity(ddbc_design *g, ddbc_entity *e, ddbc_diags *d)
{
	e->table = find_table(g, e->table_ref, d);
	if (!e->table)
		return !e->table_ref.s && g->ntables <= 1;
	e->lacks_key = !e->table->primary.incomplete && lacks_key(e);
	for (size_t i = 0; i < e->nattrs; i++) {
		ddbc_attr *a = &e->attrs[i];
		for (size_t k = 0; k < a->more->nindexes; k++) {
			if (ddbc_table_index(e->table, a->more->indexes[k].index.s))
				continue;
			/* A table read with an error may hide the index. */
			if (!e->table->indexes_incomplete)
				unresolved_index(d, e->table, a->more->indexes[k].index);
			a->incomplete = true;
		}
	}
	return true;
}

/* Marks the tables whose entities may not all be known whole. */
static void mark_members(ddbc_design *g, bool all)
{
	for (size_t i = 0; i < g->ntables; i++) {
		ddbc_table *t = &g->tables[i];
		t->members_incomplete = all;
		for (size_t k = 0; k < t->nentities && !t->members_incomplete; k++)
			t->members_incomplete = t->entities[k]->incomplete ||
						t->entities[k]->lacks_key;
	}
}

/* Gives each table the list of its entities, in file order, once every
 * entity knows its table: lookups by table then cost the table's size,
 * not the design's. */
static void list_entities(ddbc_design *g)
{
	for (size_t i = 0; i < g->nentities; i++)
		if (g->entities[i].table)
			g->entities[i].table->nentities++;
	for (size_t i = 0; i < g->ntables; i++) {
		ddbc_table *t = &g->tables[i];
		t->entities = ddbc_arena_array(g->arena, t->nentities, sizeof(ddbc_entity *));
		t->nentities = 0;
	}
	for (size_t i = 0; i < g->nentities; i++) {
		ddbc_table *t = g->entities[i].table;
		if (t)
			t->entities[t->nentities++] = &g->entities[i];
	}
}

/* Whether any entity of table t stores an attribute called name (a
 * returned attribute, the TTL). */
static bool table_has_attr(const ddbc_design *g, const ddbc_table *t, const char *name)
{
	(void)g;
	return ddbc_table_stores(t, name);
}


/* Reports name, an attribute no entity of t stores (what says what it
 * is for); a key part that is not stored is named as such, since it is
 * defined. */
static void unstored_attr(ddbc_diags *d, const ddbc_table *t, ddbc_name name, const char *what)
{
	if (ddbc_table_declares_unstored(t, name.s)) {
		ddbc_diag_add(d, DDBC_RULE_UNRESOLVED_REFERENCE, name.loc,
			      "attribute '%s' is not stored by any entity of table '%s'%s; it is "
			      "declared 'stored: false', a key part items never hold", name.s,
			      t->name.s, what);
		return;
	}
	strbuf where = STRBUF_INIT;
	ddbc_strbuf_addf(&where, " on any entity of table '%s'%s", t->name.s, what);
	unresolved(d, name, "attribute", ddbc_strbuf_str(&where), NULL, 0);
	ddbc_strbuf_release(&where);
}

/* Returns whether a name of the pattern's `entities:` is no entity. */
static bool resolve_pattern_entities(ddbc_design *g, ddbc_pattern *p, ddbc_diags *d)
{
	const char **names = NULL;
	bool any = false;
	for (size_t i = 0; i < p->nentities; i++) {
		if (ddbc_design_entity(g, p->entities[i].s))
			continue;
		any = true;
		if (g->incomplete)
			continue;
		if (!names) {
			names = ddbc_xmalloc((g->nentities + 1) * sizeof(char *));
			for (size_t k = 0; k < g->nentities; k++)
				names[k] = g->entities[k].name.s;
		}
		unresolved(d, p->entities[i], "entity", "", names, g->nentities);
	}
	free(names);
	return any;
}

static void resolve_pattern(ddbc_design *g, ddbc_pattern *p, ddbc_diags *d)
{
	p->entities_unresolved = resolve_pattern_entities(g, p, d);
	p->table = find_table(g, p->table_ref, d);
	if (!p->table) {
		p->incomplete = true;
		return;
	}
	p->index = &p->table->primary;
	if (p->index_ref.s) {
		p->index = ddbc_table_index(p->table, p->index_ref.s);
		if (!p->index) {
			if (!p->table->indexes_incomplete)
				unresolved_index(d, p->table, p->index_ref);
			p->incomplete = true;
		}
	}
	/* An attribute of an entity not known whole may be the one meant. */
	for (size_t i = 0; !p->table->members_incomplete && i < p->nreturns; i++)
		if (!table_has_attr(g, p->table, p->returns[i].s))
			unstored_attr(d, p->table, p->returns[i], "");
}

static void resolve_ttl(ddbc_design *g, ddbc_table *t, ddbc_diags *d)
{
	if (!t->ttl.s || t->members_incomplete || table_has_attr(g, t, t->ttl.s))
		return;
	unstored_attr(d, t, t->ttl, " (it is the TTL attribute)");
}

static bool key_undefined(const ddbc_design *g, const ddbc_index *ix)
{
	for (size_t i = 0; i < ix->npk + ix->nsk; i++)
		if (!table_has_attr(g, ix->table, ddbc_index_key(ix, i)))
			return true;
	return false;
}

static bool include_undefined(const ddbc_design *g, const ddbc_index *ix)
{
	for (size_t i = 0; ix->projection == DDBC_PROJ_INCLUDE && i < ix->ninclude; i++)
		if (!table_has_attr(g, ix->table, ix->include[i].s))
			return true;
	return false;
}

/* The flags only keep findings back: they are set whether or not every
 * entity of the table was read whole. */
static void mark_undefined_names(ddbc_design *g, ddbc_table *t)
{
	t->primary.key_undefined = key_undefined(g, &t->primary);
	for (size_t k = 0; k < t->ngsi; k++) {
		t->gsi[k].key_undefined = key_undefined(g, &t->gsi[k]);
		t->gsi[k].include_undefined = include_undefined(g, &t->gsi[k]);
	}
	for (size_t k = 0; k < t->nlsi; k++) {
		t->lsi[k].key_undefined = key_undefined(g, &t->lsi[k]);
		t->lsi[k].include_undefined = include_undefined(g, &t->lsi[k]);
	}
}

void ddbc_resolve(ddbc_design *g, ddbc_diags *d)
{
	bool all_known = true;
	for (size_t i = 0; i < g->nentities; i++)
		all_known &= resolve_entity(g, &g->entities[i], d);
	list_entities(g);
	mark_members(g, !all_known || g->incomplete);
	for (size_t i = 0; i < g->ntables; i++) {
		mark_undefined_names(g, &g->tables[i]);
		resolve_ttl(g, &g->tables[i], d);
	}
	for (size_t i = 0; i < g->npatterns; i++)
		resolve_pattern(g, &g->patterns[i], d);
}
