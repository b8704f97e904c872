/* rules/indexes.c - lsi-requires-sort-key, lsi-limit, gsi-limit, projection-limit,
 * projection-unknown-attribute, include-key-attribute, index-unused, index-key-unknown,
 * inclusion-mismatch */
#include "rules/checks.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DynamoDB's limits per table (GSIs: the default quota, which can be
 * raised; LSIs and INCLUDE attributes: fixed). */
enum { LSI_MAX = 5, GSI_MAX = 20, INCLUDE_MAX = 100 };

static const char *kind_name(ddbc_index_kind kind)
{
	static const char *const kinds[] = { "table", "GSI", "LSI" };
	return kinds[kind];
}

/* Whether ix's key could be read: the loader reported the others, and
 * nothing derived from them is worth a second finding. */
static bool key_readable(const ddbc_index *ix)
{
	return ix->npk > 0 && (ix->kind != DDBC_INDEX_LSI || ix->nsk > 0);
}

/* ---- lsi-requires-sort-key, lsi-limit, gsi-limit -------------------------------- */

void ddbc_check_lsi_requires_sort_key(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		/* A table read with an error may have meant a sort key. */
		if (t->primary.nsk > 0 || t->primary.npk == 0 || t->incomplete)
			continue;
		for (size_t k = 0; k < t->nlsi; k++)
			ddbc_diag_add(d, DDBC_RULE_LSI_REQUIRES_SORT_KEY, t->lsi[k].name.loc,
				      "LSI '%s' needs a sort key on table '%s'; DynamoDB allows "
				      "local secondary indexes only on tables with a composite "
				      "primary key, so add 'sort_key' to the table or make '%s' "
				      "a GSI", t->lsi[k].name.s, t->name.s, t->lsi[k].name.s);
	}
}

void ddbc_check_lsi_limit(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		if (t->nlsi > LSI_MAX)
			ddbc_diag_add(d, DDBC_RULE_LSI_LIMIT, t->lsi[LSI_MAX].name.loc,
				      "table '%s' has %zu LSIs; DynamoDB allows at most %d per "
				      "table, so make '%s' and the ones after it GSIs", t->name.s,
				      t->nlsi, LSI_MAX, t->lsi[LSI_MAX].name.s);
	}
}

void ddbc_check_gsi_limit(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		if (t->ngsi > GSI_MAX)
			ddbc_diag_add(d, DDBC_RULE_GSI_LIMIT, t->gsi[GSI_MAX].name.loc,
				      "table '%s' has %zu GSIs, more than the default quota of %d; "
				      "overload generic GSIs (GSI1PK/GSI1SK) or request a quota "
				      "increase", t->name.s, t->ngsi, GSI_MAX);
	}
}

/* ---- projection-limit, projection-unknown-attribute ------------------------------ */

void ddbc_check_projection_limit(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		/* DynamoDB counts an attribute once per index that includes it. */
		size_t n = 0;
		for (size_t s = 0; s < t->nindexes; s++)
			if (t->indexes[s]->projection == DDBC_PROJ_INCLUDE)
				n += t->indexes[s]->ninclude;
		if (n > INCLUDE_MAX)
			ddbc_diag_add(d, DDBC_RULE_PROJECTION_LIMIT, t->name.loc,
				      "the indexes of table '%s' include %zu attributes in all; "
				      "DynamoDB allows at most %d over all secondary indexes, so "
				      "project fewer or use 'projection: all'", t->name.s, n,
				      INCLUDE_MAX);
	}
}

/* Whether some entity of t stores an attribute called name. */
static bool table_has_attr(const ddbc_table *t, const char *name)
{
	for (size_t i = 0; i < t->nentities; i++)
		if (ddbc_entity_stored_attr(t->entities[i], name))
			return true;
	return false;
}


/* The names of the attributes t's entities store, for "did you mean"; the
 * caller frees the array (the names are the model's). */
static const char **stored_names(const ddbc_table *t, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < t->nentities; i++)
		total += t->entities[i]->nattrs;
	const char **names = ddbc_xmalloc((total + 1) * sizeof(char *));
	*n = 0;
	for (size_t i = 0; i < t->nentities; i++)
		for (size_t k = 0; k < t->entities[i]->nattrs; k++)
			if (ddbc_attr_stored(&t->entities[i]->attrs[k]))
				names[(*n)++] = t->entities[i]->attrs[k].name.s;
	return names;
}

static void unknown_projected(ddbc_diags *d, const ddbc_table *t, const ddbc_index *ix)
{
	for (size_t k = 0; k < ix->ninclude; k++) {
		const ddbc_name *a = &ix->include[k];
		if (table_has_attr(t, a->s))
			continue;
		size_t n;
		const char **names = stored_names(t, &n);
		const char *hint = ddbc_suggest(a->s, names, n);
		if (ddbc_table_declares_unstored(t, a->s))
			ddbc_diag_add(d, DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE, a->loc,
				      "%s '%s' projects '%s', which no entity of table '%s' stores "
				      "(it is declared 'stored: false', a key part items never "
				      "hold); remove it", kind_name(ix->kind), ix->name.s, a->s,
				      t->name.s);
		else if (hint)
			ddbc_diag_add(d, DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE, a->loc,
				      "%s '%s' projects '%s', which no entity of table '%s' has; "
				      "did you mean '%s'?", kind_name(ix->kind), ix->name.s, a->s,
				      t->name.s, hint);
		else
			ddbc_diag_add(d, DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE, a->loc,
				      "%s '%s' projects '%s', which no entity of table '%s' has; "
				      "fix the name or remove it", kind_name(ix->kind), ix->name.s,
				      a->s, t->name.s);
		free(names);
	}
}

void ddbc_check_projection_unknown_attribute(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		if (t->members_incomplete)
			continue;
		for (size_t s = 0; s < t->nindexes; s++)
			if (t->indexes[s]->projection == DDBC_PROJ_INCLUDE)
				unknown_projected(d, t, t->indexes[s]);
	}
}

/* ---- include-key-attribute ------------------------------------------------------------ */

/* "table 'T'" or "GSI 'X'": what makes name a key attribute in ix, which
 * DynamoDB projects into every index; NULL when it is not one. */
static const char *key_owner(const ddbc_index *ix, const char *name, strbuf *sb)
{
	if (ddbc_index_has_key(&ix->table->primary, name))
		ddbc_strbuf_addf(sb, "table '%s'", ix->table->name.s);
	else if (ddbc_index_has_key(ix, name))
		ddbc_strbuf_addf(sb, "%s '%s'", kind_name(ix->kind), ix->name.s);
	else
		return NULL;
	return ddbc_strbuf_str(sb);
}

static bool only_keys(const ddbc_index *ix)
{
	for (size_t k = 0; k < ix->ninclude; k++)
		if (!ddbc_index_has_key(ix, ix->include[k].s) &&
		    !ddbc_index_has_key(&ix->table->primary, ix->include[k].s))
			return false;
	return true;
}

static void included_keys(ddbc_diags *d, const ddbc_index *ix)
{
	/* Nothing but keys: INCLUDE needs a non-key attribute, and what the
	 * index holds is what KEYS_ONLY gives (the export writes that). */
	if (only_keys(ix)) {
		ddbc_diag_add(d, DDBC_RULE_INCLUDE_KEY_ATTRIBUTE, ix->projection_loc,
			      "%s '%s' lists only key attributes in its projection, which every "
			      "index projects anyway, so it projects the keys only; write "
			      "'projection: keys_only'", kind_name(ix->kind), ix->name.s);
		return;
	}
	for (size_t k = 0; k < ix->ninclude; k++) {
		strbuf owner = STRBUF_INIT;
		const ddbc_name *a = &ix->include[k];
		if (key_owner(ix, a->s, &owner))
			ddbc_diag_add(d, DDBC_RULE_INCLUDE_KEY_ATTRIBUTE, a->loc,
				      "%s '%s' projects '%s', a key attribute of %s, which every "
				      "index projects anyway; remove it from the list",
				      kind_name(ix->kind), ix->name.s, a->s, owner.buf);
		ddbc_strbuf_release(&owner);
	}
}

void ddbc_check_include_key_attribute(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t s = 0; s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			if (ix->projection == DDBC_PROJ_INCLUDE && ix->ninclude && key_readable(ix))
				included_keys(d, ix);
		}
	}
}

/* ---- index-unused ------------------------------------------------------------------ */

static bool index_used(const ddbc_table *t, const ddbc_index *ix)
{
	for (size_t i = 0; i < t->nentities; i++)
		if (t->entities[i]->in_index && t->entities[i]->in_index[ix->slot])
			return true;
	return false;
}

/* The index's key attributes as "'a', 'b' and 'c'", appended to sb. */
static const char *key_list(const ddbc_index *ix, strbuf *sb)
{
	size_t n = ix->npk + ix->nsk;
	for (size_t i = 0; i < n; i++) {
		const char *s = ddbc_index_key(ix, i);
		const char *sep = i == 0 ? "" : i + 1 == n ? " and " : ", ";
		ddbc_strbuf_addf(sb, "%s'%s'", sep, s);
	}
	return ddbc_strbuf_str(sb);
}

void ddbc_check_index_unused(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t s = 0; s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			/* An undeclared key attribute empties the index too, but
			 * index-key-unknown names it. */
			if (ix->kind == DDBC_INDEX_PRIMARY || !key_readable(ix) || ix->key_unknown ||
			    ix->incomplete || t->members_incomplete || index_used(t, ix))
				continue;
			strbuf keys = STRBUF_INIT;
			ddbc_diag_add(d, DDBC_RULE_INDEX_UNUSED, ix->name.loc,
				      "no entity of table '%s' sets all of %s, the key of %s '%s', "
				      "so the index stays empty; add them to an entity or remove "
				      "the index", t->name.s, key_list(ix, &keys),
				      kind_name(ix->kind), ix->name.s);
			ddbc_strbuf_release(&keys);
		}
	}
}

/* ---- index-key-unknown ----------------------------------------------------------------- */

/* The attribute names of t's entities, for "did you mean"; the caller
 * frees the array (the names are the model's). */
static const char **table_attr_names(const ddbc_table *t, size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < t->nentities; i++)
		total += t->entities[i]->nattrs;
	const char **names = ddbc_xmalloc((total + 1) * sizeof(char *));
	*n = 0;
	for (size_t i = 0; i < t->nentities; i++)
		for (size_t k = 0; k < t->entities[i]->nattrs; k++)
			names[(*n)++] = t->entities[i]->attrs[k].name.s;
	return names;
}

static void report_unknown_key(ddbc_diags *d, const ddbc_table *t, const ddbc_index *ix,
			       const ddbc_name *key, const char *part)
{
	size_t n;
	const char **names = table_attr_names(t, &n);
	const char *hint = ddbc_suggest(key->s, names, n);
	strbuf what = STRBUF_INIT;
	if (ix->kind == DDBC_INDEX_PRIMARY)
		ddbc_strbuf_addf(&what, "table '%s'", t->name.s);
	else
		ddbc_strbuf_addf(&what, "%s '%s' of table '%s'", kind_name(ix->kind), ix->name.s,
			    t->name.s);
	if (hint)
		ddbc_diag_add(d, DDBC_RULE_INDEX_KEY_UNKNOWN, key->loc,
			      "%s has '%s' as %s key, but no entity of the table declares it; "
			      "did you mean '%s'?", what.buf, key->s, part, hint);
	else
		ddbc_diag_add(d, DDBC_RULE_INDEX_KEY_UNKNOWN, key->loc,
			      "%s has '%s' as %s key, but no entity of the table declares it; "
			      "fix the name, or define it in the entities the %s holds",
			      what.buf, key->s, part,
			      ix->kind == DDBC_INDEX_PRIMARY ? "table" : "index");
	ddbc_strbuf_release(&what);
	free(names);
}

void ddbc_check_index_key_unknown(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t s = 0; s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			/* An LSI's partition key is the table's, reported there. */
			size_t first = ix->kind == DDBC_INDEX_LSI ? ix->npk : 0;
			for (size_t j = first; ix->key_unknown && j < ix->npk + ix->nsk; j++) {
				if (ix->key_declared[j])
					continue;
				if (j < ix->npk)
					report_unknown_key(d, t, ix, &ix->pk[j], "partition");
				else
					report_unknown_key(d, t, ix, &ix->sk[j - ix->npk], "sort");
			}
		}
	}
}

/* ---- inclusion-mismatch -------------------------------------------------------------- */

/* "projects 'a'", "uses 'a' as sort key", ...: what index ix derives
 * for attribute a, as the predicate of a sentence about ix, appended to sb. */
static const char *derived_phrase(const ddbc_attr *a, const ddbc_index *ix, strbuf *sb)
{
	switch (ddbc_attr_roles(a)[ix->slot]) {
	case DDBC_ROLE_PARTITION_KEY:
		ddbc_strbuf_addf(sb, "uses '%s' as partition key", a->name.s);
		break;
	case DDBC_ROLE_SORT_KEY:
		ddbc_strbuf_addf(sb, "uses '%s' as sort key", a->name.s);
		break;
	case DDBC_ROLE_PROJECTED:
		ddbc_strbuf_addf(sb, "projects '%s'", a->name.s);
		break;
	case DDBC_ROLE_NONE:
		if (!a->entity->in_index[ix->slot])
			ddbc_strbuf_addf(sb, "does not hold '%s' items (they do not set all its key "
				    "attributes)", a->entity->name.s);
		else
			ddbc_strbuf_addf(sb, "does not project '%s'", a->name.s);
		break;
	}
	return ddbc_strbuf_str(sb);
}

/* Every index the attribute declares must derive the declared role. */
static void declared_roles(ddbc_diags *d, const ddbc_attr *a)
{
	for (size_t k = 0; k < a->more->nindexes; k++) {
		const ddbc_index_decl *decl = &a->more->indexes[k];
		/* A name that is no index of the table is an unresolved-reference. */
		const ddbc_index *ix = ddbc_table_index(a->entity->table, decl->index.s);
		if (!ix || !key_readable(ix) || ix->key_unknown || ix->incomplete ||
		    ix->key_undefined || ix->include_undefined ||
		    ddbc_attr_roles(a)[ix->slot] == decl->role)
			continue;
		strbuf derived = STRBUF_INIT;
		ddbc_diag_add(d, DDBC_RULE_INCLUSION_MISMATCH, decl->role_loc,
			      "%s '%s' %s but the attribute declares role '%s'",
			      kind_name(ix->kind), ix->name.s, derived_phrase(a, ix, &derived),
			      ddbc_role_name(decl->role));
		ddbc_strbuf_release(&derived);
	}
}

/* Whether the attribute names index ix in its `indexes:`; an entry whose
 * role could not be read counts too (the loader reported it already), and
 * so does any index when `indexes:` is not a mapping. */
static bool declares(const ddbc_attr *a, const ddbc_index *ix)
{
	if (!a->indexes_is_map)
		return true;
	for (size_t k = 0; k < a->more->ndeclared; k++)
		if (!strcmp(a->more->indexes[k].index.s, ix->name.s))
			return true;
	return false;
}

/* Every GSI and LSI the attribute is in must be declared. */
static void undeclared_roles(ddbc_diags *d, const ddbc_attr *a)
{
	const ddbc_table *t = a->entity->table;
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		ddbc_role role = ddbc_attr_roles(a)[s];
		if (ix->kind == DDBC_INDEX_PRIMARY || role == DDBC_ROLE_NONE || !key_readable(ix) ||
		    ix->key_unknown || ix->incomplete || ix->key_undefined ||
		    ix->include_undefined || declares(a, ix))
			continue;
		strbuf derived = STRBUF_INIT;
		ddbc_diag_add(d, DDBC_RULE_INCLUSION_MISMATCH, a->more->indexes_loc,
			      "%s '%s' %s but the attribute does not declare it; add "
			      "'%s: %s' to its indexes", kind_name(ix->kind), ix->name.s,
			      derived_phrase(a, ix, &derived), ix->name.s, ddbc_role_name(role));
		ddbc_strbuf_release(&derived);
	}
}

void ddbc_check_inclusion_mismatch(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		/* Roles derive from the table's key: unread, or missing from the
		 * entity, they are not what the file meant. */
		if (!e->table || e->table->incomplete || e->lacks_key)
			continue;
		for (size_t k = 0; k < e->nattrs; k++) {
			const ddbc_attr *a = &e->attrs[k];
			if (!a->has_indexes || !ddbc_attr_roles(a) || a->incomplete)
				continue;
			declared_roles(d, a);
			undeclared_roles(d, a);
		}
	}
}
