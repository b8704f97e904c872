/* resolve.c - linking names to what they name (unresolved-reference) */
#include "input/load.h"
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
	if (t)
		return t;
	const char **names = xmalloc((g->ntables + 1) * sizeof(char *));
	for (size_t i = 0; i < g->ntables; i++)
		names[i] = g->tables[i].name.s;
	unresolved(d, ref, "table", "", names, g->ntables);
	free(names);
	return NULL;
}

static const char **index_names(const ddbc_table *t, size_t *n)
{
	const char **names = xmalloc((t->ngsi + t->nlsi + 1) * sizeof(char *));
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
	strbuf_addf(&where, " on table '%s'", t->name.s);
	unresolved(d, ref, "index", strbuf_str(&where), names, n);
	strbuf_release(&where);
	free(names);
}

static void resolve_entity(ddbc_design *g, ddbc_entity *e, ddbc_diags *d)
{
	e->table = find_table(g, e->table_ref, d);
	if (!e->table)
		return;
	for (size_t i = 0; i < e->nattrs; i++) {
		ddbc_attr *a = &e->attrs[i];
		for (size_t k = 0; k < a->nindexes; k++)
			if (!ddbc_table_index(e->table, a->indexes[k].index.s))
				unresolved_index(d, e->table, a->indexes[k].index);
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
	for (size_t i = 0; i < t->nentities; i++)
		if (ddbc_entity_stored_attr(t->entities[i], name))
			return true;
	return false;
}

/* Whether an entity of table t declares name with `stored: false`. */
static bool table_declares_unstored(const ddbc_table *t, const char *name)
{
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_attr *a = ddbc_entity_attr(t->entities[i], name);
		if (a && a->not_stored)
			return true;
	}
	return false;
}

/* Reports name, an attribute no entity of t stores (what says what it
 * is for); a key part that is not stored is named as such, since it is
 * defined. */
static void unstored_attr(ddbc_diags *d, const ddbc_table *t, ddbc_name name, const char *what)
{
	if (table_declares_unstored(t, name.s)) {
		ddbc_diag_add(d, DDBC_RULE_UNRESOLVED_REFERENCE, name.loc,
			      "attribute '%s' is not stored by any entity of table '%s'%s; it is "
			      "declared 'stored: false', a key part items never hold", name.s,
			      t->name.s, what);
		return;
	}
	strbuf where = STRBUF_INIT;
	strbuf_addf(&where, " on any entity of table '%s'%s", t->name.s, what);
	unresolved(d, name, "attribute", strbuf_str(&where), NULL, 0);
	strbuf_release(&where);
}

static void resolve_pattern_entities(ddbc_design *g, ddbc_pattern *p, ddbc_diags *d)
{
	const char **names = NULL;
	for (size_t i = 0; i < p->nentities; i++) {
		if (ddbc_design_entity(g, p->entities[i].s))
			continue;
		if (!names) {
			names = xmalloc((g->nentities + 1) * sizeof(char *));
			for (size_t k = 0; k < g->nentities; k++)
				names[k] = g->entities[k].name.s;
		}
		unresolved(d, p->entities[i], "entity", "", names, g->nentities);
	}
	free(names);
}

static void resolve_pattern(ddbc_design *g, ddbc_pattern *p, ddbc_diags *d)
{
	resolve_pattern_entities(g, p, d);
	p->table = find_table(g, p->table_ref, d);
	if (!p->table)
		return;
	p->index = &p->table->primary;
	if (p->index_ref.s) {
		p->index = ddbc_table_index(p->table, p->index_ref.s);
		if (!p->index)
			unresolved_index(d, p->table, p->index_ref);
	}
	for (size_t i = 0; i < p->nreturns; i++)
		if (!table_has_attr(g, p->table, p->returns[i].s))
			unstored_attr(d, p->table, p->returns[i], "");
}

static void resolve_ttl(ddbc_design *g, ddbc_table *t, ddbc_diags *d)
{
	if (t->ttl.s && !table_has_attr(g, t, t->ttl.s))
		unstored_attr(d, t, t->ttl, " (it is the TTL attribute)");
}

void ddbc_resolve(ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->nentities; i++)
		resolve_entity(g, &g->entities[i], d);
	list_entities(g);
	for (size_t i = 0; i < g->ntables; i++)
		resolve_ttl(g, &g->tables[i], d);
	for (size_t i = 0; i < g->npatterns; i++)
		resolve_pattern(g, &g->patterns[i], d);
}
