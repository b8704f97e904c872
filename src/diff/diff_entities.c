/* diff_entities.c - entities, their attributes, and the access patterns
 *
 * Entities and patterns are matched by name; a design may hold thousands
 * of each, so both sides are looked up by binary search (the model's
 * sorted entities, a sorted copy of the patterns here).
 */
#include "diff/diff_int.h"
#include "emit/emit_json.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- attributes ---------------------------------------------------------------------- */

/* Whether an OLD pattern that can return a0's entity names a0 in its key
 * condition or its returns. */
static bool pattern_uses(const ddbc_design *g, const ddbc_attr *a0)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		bool returns_entity = false;
		for (size_t k = 0; k < p->nmatched && !returns_entity; k++)
			returns_entity = p->matched[k] == a0->entity;
		if (!returns_entity)
			continue;
		for (size_t k = 0; k < p->nconds; k++)
			if (ddbc_diff_str_same(p->conds[k].attr.s, a0->name.s))
				return true;
		for (size_t k = 0; k < p->nreturns; k++)
			if (ddbc_diff_str_same(p->returns[k].s, a0->name.s))
				return true;
	}
	return false;
}

const char *ddbc_diff_removed_use(const ddbc_design *old, const ddbc_attr *a0,
				  const ddbc_table *t1)
{
	if (a0->is_key)
		return "a key attribute of its table or one of its indexes";
	if (a0->used_by)
		return "a placeholder of another attribute's template";
	for (size_t s = 0; t1 && s < t1->nindexes; s++)
		if (ddbc_index_has_key(t1->indexes[s], a0->name.s))
			return "still a key attribute of an index of its table";
	if (pattern_uses(old, a0))
		return "named by an access pattern that returns the entity";
	return NULL;
}

ddbc_diff_rewrite ddbc_diff_attr_rewrite(const ddbc_attr *a0, const ddbc_attr *a1)
{
	if (ddbc_diff_str_same(a0->template.s, a1->template.s))
		return DIFF_REWRITE_NONE;
	const ddbc_table *t1 = a1->entity->table;
	if (t1 && ddbc_index_has_key(&t1->primary, a1->name.s))
		return DIFF_REWRITE_TABLE_KEY;
	return a1->is_key || a0->is_key ? DIFF_REWRITE_INDEX_KEY : DIFF_REWRITE_NONE;
}

static void diff_template(diff_ctx *c, const ddbc_attr *a0, const ddbc_attr *a1)
{
	ddbc_diff_rewrite r = ddbc_diff_attr_rewrite(a0, a1);
	if (r == DIFF_REWRITE_NONE)
		return;
	ddbc_loc loc = a1->template.s ? a1->template.loc : a1->name.loc;
	const char *was = a0->template.s ? a0->template.s : "(none)";
	const char *now = a1->template.s ? a1->template.s : "(none)";
	if (r == DIFF_REWRITE_TABLE_KEY)
		ddbc_diff_report(c, false, DDBC_RULE_KEY_TEMPLATE_CHANGED, loc,
				 "the key template of '%s.%s' changed from '%s' to '%s': stored items "
				 "keep their old keys, which the new design never reads or writes; "
				 "copy every item to its new key and delete the old one (a "
				 "migration), or keep the old template", a1->entity->name.s,
				 a1->name.s, was, now);
	else
		ddbc_diff_report(c, false, DDBC_RULE_INDEX_KEY_TEMPLATE_CHANGED, loc,
				 "the template of index key '%s.%s' changed from '%s' to '%s': stored "
				 "items keep the old value, so queries on the index miss them or "
				 "find them in the wrong place until every item is rewritten",
				 a1->entity->name.s, a1->name.s, was, now);
}

/* The values text of a JSON array: "4, 'closed'". */
static void values_text(const json_t *values, strbuf *out)
{
	size_t i;
	json_t *v;
	json_array_foreach(values, i, v) {
		char *text = json_dumps(v, JSON_ENCODE_ANY);
		if (!text)
			continue;
		/* A number's own digits, not the mark it travels behind. */
		text[ddbc_json_unmark(text, strlen(text))] = '\0';
		ddbc_strbuf_addf(out, "%s%s", i ? ", " : "", text);
		free(text);
	}
}

static void diff_enum(diff_ctx *c, const ddbc_attr *a0, const ddbc_attr *a1)
{
	bool unlimited;
	json_t *gone = ddbc_diff_enum_removed(a0, a1, &unlimited);
	if (!gone)
		return;
	ddbc_loc loc = a1->more->enum_loc.line ? a1->more->enum_loc : a1->name.loc;
	strbuf sb = STRBUF_INIT;
	values_text(gone, &sb);
	if (unlimited)
		ddbc_diff_report(c, false, DDBC_RULE_ENUM_VALUE_REMOVED, loc,
				 "'%s.%s' is limited to an enum it did not have: stored items may "
				 "hold any other value, which readers of the new design reject; "
				 "find and rewrite them before relying on the enum",
				 a1->entity->name.s, a1->name.s);
	else
		ddbc_diff_report(c, false, DDBC_RULE_ENUM_VALUE_REMOVED, loc,
				 "the enum of '%s.%s' no longer has %s: stored items may still hold "
				 "%s, which readers of the new design reject; rewrite those items "
				 "(ddbc diff --format plan lists them) or keep the value%s",
				 a1->entity->name.s, a1->name.s, ddbc_strbuf_str(&sb),
				 json_array_size(gone) == 1 ? "it" : "them",
				 json_array_size(gone) == 1 ? "" : "s");
	ddbc_strbuf_release(&sb);
	json_decref(gone);
}

/* The first index of a's entity that holds only the items having a (a
 * is an optional key attribute of it: a sparse index); NULL when none. */
static const ddbc_index *sparse_index_of(const ddbc_attr *a)
{
	const ddbc_entity *e = a->entity;
	for (size_t s = 0; e->table && e->membership && s < e->table->nindexes; s++) {
		const ddbc_membership *m = ddbc_entity_membership(e, e->table->indexes[s]);
		for (uint32_t i = 0; e->in_index[s] && i < m->nby; i++)
			if (m->by[i] == a)
				return e->table->indexes[s];
	}
	return NULL;
}

static void diff_attr_pair(diff_ctx *c, const ddbc_attr *a0, const ddbc_attr *a1)
{
	if (a0->type != DDBC_TYPE_NONE && a1->type != DDBC_TYPE_NONE && a0->type != a1->type)
		ddbc_diff_report(c, false, DDBC_RULE_ATTRIBUTE_TYPE_CHANGED,
				 ddbc_attr_type_loc(a1).line ? ddbc_attr_type_loc(a1) : a1->name.loc,
				 "the type of '%s.%s' changed from %s to %s: stored items still hold "
				 "%s values, which readers of the new type reject; rewrite them, or "
				 "add an attribute under a new name", a1->entity->name.s, a1->name.s,
				 ddbc_type_short(a0->type), ddbc_type_short(a1->type),
				 ddbc_type_short(a0->type));
	diff_template(c, a0, a1);
	if (!ddbc_attr_required(a0, NULL) && ddbc_attr_required(a1, NULL))
		ddbc_diff_report(c, false, DDBC_RULE_ATTRIBUTE_REQUIRED, a1->name.loc,
				 "'%s.%s' became required, but items stored before may lack it; "
				 "backfill it in every stored item before code relies on it",
				 a1->entity->name.s, a1->name.s);
	diff_enum(c, a0, a1);
	bool dropped = ddbc_attr_required(a0, NULL) && !ddbc_attr_required(a1, NULL) &&
		       ddbc_attr_stored(a1);
	/* An optional key of an index: its items without it leave the index. */
	const ddbc_index *sparse = dropped ? sparse_index_of(a1) : NULL;
	if (sparse)
		ddbc_diff_report(c, false, DDBC_RULE_REQUIRED_REMOVED, a1->name.loc,
				 "'%s.%s' is no longer required: items written without it leave "
				 "index '%s', whose queries return only the items that have it, and "
				 "code deployed from the old design expects it in every item; deploy "
				 "readers that do without it before writers that omit it",
				 a1->entity->name.s, a1->name.s, sparse->name.s);
	else if (dropped)
		ddbc_diff_report(c, false, DDBC_RULE_REQUIRED_REMOVED, a1->name.loc,
				 "'%s.%s' is no longer required: code deployed from the old design "
				 "expects it in every item, and items written from now on may lack "
				 "it; deploy readers that do without it before writers that omit it",
				 a1->entity->name.s, a1->name.s);
	if (c->all && (!ddbc_diff_str_same(a0->text->description, a1->text->description) ||
		       !ddbc_diff_str_same(a0->text->format, a1->text->format)))
		ddbc_diff_report(c, false, DDBC_RULE_DOC_CHANGED, a1->name.loc,
				 "the description or format of '%s.%s' changed", a1->entity->name.s,
				 a1->name.s);
}

static void diff_attrs(diff_ctx *c, const ddbc_entity *e0, const ddbc_entity *e1)
{
	for (size_t i = 0; i < e0->nattrs; i++) {
		const ddbc_attr *a0 = &e0->attrs[i];
		if (!a0->name.s)
			continue;
		const ddbc_attr *a1 = ddbc_entity_attr(e1, a0->name.s);
		if (a1) {
			diff_attr_pair(c, a0, a1);
			continue;
		}
		const char *use = ddbc_diff_removed_use(c->old, a0, e1->table);
		if (use)
			ddbc_diff_removed(c, DDBC_RULE_ATTRIBUTE_REMOVED, a0->name.loc,
					  ddbc_diff_field_loc(c->new, e1->name.loc, "attributes"), "'%s.%s' is removed but was %s: stored "
					  "items still hold it, and what used it finds nothing; keep "
					  "it until every use and every stored value is gone",
					  e0->name.s, a0->name.s, use);
		else if (ddbc_attr_required(a0, NULL))
			ddbc_diff_removed(c, DDBC_RULE_REQUIRED_REMOVED, a0->name.loc,
					  ddbc_diff_field_loc(c->new, e1->name.loc, "attributes"), "required attribute '%s.%s' is removed: "
					  "code deployed from the old design expects it in every "
					  "item, and items written from now on lack it; deploy "
					  "readers that do without it before writers that omit it",
					  e0->name.s, a0->name.s);
	}
	for (size_t i = 0; i < e1->nattrs; i++) {
		const ddbc_attr *a1 = &e1->attrs[i];
		if (ddbc_entity_attr(e0, a1->name.s))
			continue;
		if (ddbc_attr_required(a1, NULL))
			ddbc_diff_report(c, false, DDBC_RULE_ATTRIBUTE_REQUIRED, a1->name.loc,
					 "'%s.%s' is added as a required attribute, but items stored "
					 "before lack it; backfill it in every stored item before "
					 "code relies on it", e1->name.s, a1->name.s);
		else
			ddbc_diff_report(c, false, DDBC_RULE_ATTRIBUTE_ADDED, a1->name.loc,
					 "optional attribute '%s.%s' is added", e1->name.s,
					 a1->name.s);
	}
}

/* ---- entities ------------------------------------------------------------------------ */

const char *ddbc_diff_entity_table(const ddbc_entity *e)
{
	return e->table ? e->table->name.s : e->table_ref.s;
}

static void diff_entity_pair(diff_ctx *c, const ddbc_entity *e0, const ddbc_entity *e1)
{
	const char *t0 = ddbc_diff_entity_table(e0), *t1 = ddbc_diff_entity_table(e1);
	if (!ddbc_diff_str_same(t0, t1)) {
		ddbc_diff_report(c, false, DDBC_RULE_ENTITY_REMOVED,
				 e1->table_ref.s ? e1->table_ref.loc : e1->name.loc,
				 "entity '%s' moves from table '%s' to '%s': its stored items stay "
				 "in '%s', where the new design no longer reads them; copy them to "
				 "'%s' and delete the old ones", e1->name.s, t0 ? t0 : "(unknown)",
				 t1, t0 ? t0 : "(unknown)", t1);
		return;
	}
	if (c->all && !ddbc_diff_str_same(e0->description, e1->description))
		ddbc_diff_report(c, false, DDBC_RULE_DOC_CHANGED, e1->name.loc,
				 "the description of entity '%s' changed", e1->name.s);
	diff_attrs(c, e0, e1);
}

void ddbc_diff_entities(diff_ctx *c)
{
	for (size_t i = 0; i < c->old->nentities; i++) {
		const ddbc_entity *e0 = &c->old->entities[i];
		const ddbc_entity *e1 = ddbc_design_entity(c->new, e0->name.s);
		if (e1)
			diff_entity_pair(c, e0, e1);
		else
			ddbc_diff_removed(c, DDBC_RULE_ENTITY_REMOVED, e0->name.loc,
					  ddbc_diff_lost_loc(c, (ddbc_loc){ 0, 0 }, (ddbc_loc){ 0, 0 },
							     "entities"),
					 "entity '%s' is removed, but its stored items stay in table "
					 "'%s', where readers of the new design meet items they "
					 "cannot place; delete or migrate them", e0->name.s,
					 ddbc_diff_entity_table(e0) ?
					 ddbc_diff_entity_table(e0) : "(unknown)");
	}
	for (size_t i = 0; i < c->new->nentities; i++) {
		const ddbc_entity *e1 = &c->new->entities[i];
		if (!ddbc_design_entity(c->old, e1->name.s))
			ddbc_diff_report(c, false, DDBC_RULE_ENTITY_ADDED, e1->name.loc,
					 "entity '%s' is added", e1->name.s);
	}
}

/* ---- access patterns ------------------------------------------------------------------ */

static int by_id(const void *pa, const void *pb)
{
	const ddbc_pattern *a = *(const ddbc_pattern *const *)pa;
	const ddbc_pattern *b = *(const ddbc_pattern *const *)pb;
	return strcmp(a->id.s, b->id.s);
}

/* The design's patterns sorted by id; the caller frees the array. */
static const ddbc_pattern **sorted_patterns(const ddbc_design *g)
{
	const ddbc_pattern **v = ddbc_xcalloc(g->npatterns + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < g->npatterns; i++)
		if (g->patterns[i].id.s)
			v[n++] = &g->patterns[i];
	qsort(v, n, sizeof(*v), by_id);
	return v;
}

static const ddbc_pattern *find_pattern(const ddbc_pattern **v, size_t n, const char *id)
{
	ddbc_pattern key = { .id = { id, { 0, 0 } } };
	const ddbc_pattern *k = &key;
	const ddbc_pattern **hit = bsearch(&k, v, n, sizeof(*v), by_id);
	return hit ? *hit : NULL;
}

static size_t count_ids(const ddbc_design *g)
{
	size_t n = 0;
	for (size_t i = 0; i < g->npatterns; i++)
		n += g->patterns[i].id.s != NULL;
	return n;
}

static const char *index_of(const ddbc_pattern *p)
{
	return p->index_ref.s ? p->index_ref.s : "the base table";
}

static void diff_pattern_pair(diff_ctx *c, const ddbc_pattern *p0, const ddbc_pattern *p1)
{
	const char *t0 = p0->table ? p0->table->name.s : p0->table_ref.s;
	const char *t1 = p1->table ? p1->table->name.s : p1->table_ref.s;
	if (!ddbc_diff_str_same(t0, t1) || !ddbc_diff_str_same(p0->index_ref.s, p1->index_ref.s))
		ddbc_diff_report(c, false, DDBC_RULE_PATTERN_MOVED,
				 p1->index_ref.s ? p1->index_ref.loc : p1->id.loc,
				 "access pattern '%s' moves from %s to %s: deployed code still "
				 "queries the old place, so deploy the index first, then the code, "
				 "and remove the old index last", p1->id.s, index_of(p0),
				 index_of(p1));
	if (c->all && !ddbc_diff_str_same(p0->description, p1->description))
		ddbc_diff_report(c, false, DDBC_RULE_DOC_CHANGED, p1->id.loc,
				 "the description of access pattern '%s' changed", p1->id.s);
}

void ddbc_diff_patterns(diff_ctx *c)
{
	const ddbc_pattern **olds = sorted_patterns(c->old), **news = sorted_patterns(c->new);
	size_t nold = count_ids(c->old), nnew = count_ids(c->new);
	for (size_t i = 0; i < c->old->npatterns; i++) {
		const ddbc_pattern *p0 = &c->old->patterns[i];
		if (!p0->id.s)
			continue;
		const ddbc_pattern *p1 = find_pattern(news, nnew, p0->id.s);
		if (p1)
			diff_pattern_pair(c, p0, p1);
		else
			ddbc_diff_removed(c, DDBC_RULE_PATTERN_REMOVED, p0->id.loc,
					  ddbc_diff_lost_loc(c, (ddbc_loc){ 0, 0 }, (ddbc_loc){ 0, 0 },
							     "access_patterns"),
					 "access pattern '%s' is removed: deployed code may still run "
					 "it, and the index it used may now be deleted; remove its "
					 "callers first", p0->id.s);
	}
	for (size_t i = 0; i < c->new->npatterns; i++) {
		const ddbc_pattern *p1 = &c->new->patterns[i];
		if (p1->id.s && !find_pattern(olds, nold, p1->id.s))
			ddbc_diff_report(c, false, DDBC_RULE_PATTERN_ADDED, p1->id.loc,
					 "access pattern '%s' is added", p1->id.s);
	}
	free(olds);
	free(news);
}

/* ---- values and projections the new design no longer allows -------------------------- */

/* Whether enum value v is among a's: compared as text, since a type
 * change converts 4 to "4" and the enum with it. */
static bool enum_has(const ddbc_attr *a, const ddbc_node *v)
{
	strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	ddbc_json_scalar_text(v, &want);
	bool found = false;
	for (uint32_t k = 0; k < a->more->nenum && !found; k++) {
		ddbc_strbuf_reset(&got);
		ddbc_json_scalar_text(a->more->enum_values[k], &got);
		found = !strcmp(ddbc_strbuf_str(&want), ddbc_strbuf_str(&got));
	}
	ddbc_strbuf_release(&want);
	ddbc_strbuf_release(&got);
	return found;
}

json_t *ddbc_diff_enum_removed(const ddbc_attr *a0, const ddbc_attr *a1, bool *unlimited)
{
	*unlimited = false;
	if (!a1->more->nenum)
		return NULL;
	if (!a0->more->nenum) {
		*unlimited = true;
		return json_array();
	}
	json_t *gone = json_array();
	for (uint32_t i = 0; i < a0->more->nenum; i++)
		if (!enum_has(a1, a0->more->enum_values[i]))
			json_array_append_new(gone, ddbc_json_plain(a0->more->enum_values[i]));
	if (json_array_size(gone))
		return gone;
	json_decref(gone);
	return NULL;
}

/* The first attribute that pattern p (on g0) returns and g1 no longer
 * projects; a pattern without `returns` returns its entities' every
 * stored attribute. */
static const ddbc_name *narrowed_attr(const ddbc_pattern *p, const ddbc_index *g0,
				      const ddbc_index *g1)
{
	for (size_t i = 0; i < p->nreturns; i++)
		if (p->returns[i].s && ddbc_diff_projects(g0, p->returns[i].s) &&
		    !ddbc_diff_projects(g1, p->returns[i].s))
			return &p->returns[i];
	for (size_t k = 0; !p->nreturns && k < p->nmatched; k++) {
		const ddbc_entity *e = p->matched[k];
		for (size_t i = 0; i < e->nattrs; i++) {
			const ddbc_attr *a = &e->attrs[i];
			if (a->name.s && ddbc_attr_stored(a) && ddbc_diff_projects(g0, a->name.s) &&
			    !ddbc_diff_projects(g1, a->name.s))
				return &a->name;
		}
	}
	return NULL;
}

const ddbc_pattern *ddbc_diff_narrowed_pattern(const ddbc_design *old, const ddbc_index *g0,
					       const ddbc_index *g1, size_t *from,
					       const ddbc_name **attr)
{
	for (; *from < old->npatterns; (*from)++) {
		const ddbc_pattern *p = &old->patterns[*from];
		if (!p->analysed || p->index != g0 || !p->id.s)
			continue;
		*attr = narrowed_attr(p, g0, g1);
		if (*attr) {
			(*from)++;
			return p;
		}
	}
	return NULL;
}
