/* emit_json_model.c - the normalized design with its derived facts
 *
 * `ddbc export --format model` writes the design as one JSON document in a
 * single canonical shape (long and short forms resolved, defaults filled
 * in, every key a list) plus what the semantics pass derived: each
 * attribute's role in each index, each entity's index membership, each
 * index's entities, each pattern's parameters and matched entities.
 * docs/model.schema.json describes it; tools read it instead of the YAML.
 * An index is named by its name; the base table's own key by the table's.
 */
#include "emit.h"
#include "emit_json.h"
#include "semantics.h"

#include <string.h>

static void set_text(json_t *o, const char *key, const char *s)
{
	if (s)
		json_object_set_new(o, key, ddbc_json_str(s));
}

static const char *index_kind(const ddbc_index *ix)
{
	switch (ix->kind) {
	case DDBC_INDEX_GSI: return "gsi";
	case DDBC_INDEX_LSI: return "lsi";
	case DDBC_INDEX_PRIMARY: break;
	}
	return "table";
}

static json_t *capacity(const ddbc_capacity *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "read", json_integer(c->read));
	json_object_set_new(o, "write", json_integer(c->write));
	return o;
}

/* ---- tables ---------------------------------------------------------------------------- */

static json_t *projection(const ddbc_index *ix)
{
	switch (ix->projection) {
	case DDBC_PROJ_KEYS_ONLY: return json_string("keys_only");
	case DDBC_PROJ_INCLUDE: return ddbc_json_names(ix->include, ix->ninclude);
	case DDBC_PROJ_ALL: break;
	}
	return json_string("all");
}

static json_t *index_members(const ddbc_table *t, const ddbc_index *ix)
{
	json_t *a = json_array();
	for (size_t i = 0; i < t->nentities; i++)
		if (t->entities[i]->in_index && t->entities[i]->in_index[ix->slot])
			json_array_append_new(a, ddbc_json_str(t->entities[i]->name.s));
	return a;
}

static json_t *model_index(const ddbc_table *t, const ddbc_index *ix)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", ddbc_json_str(ix->name.s));
	json_object_set_new(o, "kind", json_string(index_kind(ix)));
	if (ix->kind != DDBC_INDEX_PRIMARY)
		set_text(o, "description", ix->description);
	json_object_set_new(o, "partition_key", ddbc_json_names(ix->pk, ix->npk));
	json_object_set_new(o, "sort_key", ddbc_json_names(ix->sk, ix->nsk));
	json_object_set_new(o, "projection", projection(ix));
	if (ix->capacity.set)
		json_object_set_new(o, "capacity", capacity(&ix->capacity));
	json_object_set_new(o, "entities", index_members(t, ix));
	return o;
}

/* Every key attribute of the table and its indexes with its type: what
 * CreateTable's AttributeDefinitions holds. */
static json_t *key_attributes(const ddbc_table *t)
{
	json_t *a = json_array();
	json_t *seen = json_object();
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
			const char *name = i < ix->npk ? ix->pk[i].s : ix->sk[i - ix->npk].s;
			if (json_object_get(seen, name))
				continue;
			json_object_set_new(seen, name, json_true());
			json_t *k = json_object();
			json_object_set_new(k, "name", ddbc_json_str(name));
			json_object_set_new(k, "type",
					    json_string(ddbc_type_short(ddbc_json_key_type(t, name))));
			json_array_append_new(a, k);
		}
	}
	json_decref(seen);
	return a;
}

static json_t *model_table(const ddbc_table *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", ddbc_json_str(t->name.s));
	set_text(o, "description", t->description);
	set_text(o, "ttl", t->ttl.s);
	json_object_set_new(o, "billing", json_string(t->billing == DDBC_BILLING_PROVISIONED
							      ? "provisioned" : "on_demand"));
	if (t->capacity.set)
		json_object_set_new(o, "capacity", capacity(&t->capacity));
	json_object_set_new(o, "key_attributes", key_attributes(t));
	json_t *ixs = json_array();
	for (size_t s = 0; s < t->nindexes; s++)
		json_array_append_new(ixs, model_index(t, t->indexes[s]));
	json_object_set_new(o, "indexes", ixs);
	json_t *ents = json_array();
	for (size_t i = 0; i < t->nentities; i++)
		json_array_append_new(ents, ddbc_json_str(t->entities[i]->name.s));
	json_object_set_new(o, "entities", ents);
	return o;
}

/* ---- entities --------------------------------------------------------------------------- */

static json_t *placeholders(const ddbc_attr *a)
{
	json_t *arr = json_array();
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		if (seg->kind == DDBC_SEG_PLACEHOLDER)
			json_array_append_new(arr, ddbc_json_strn(seg->text, seg->len));
	}
	return arr;
}

static json_t *roles(const ddbc_attr *a, const ddbc_table *t)
{
	json_t *arr = json_array();
	for (size_t s = 0; a->roles && s < t->nindexes; s++) {
		if (a->roles[s] == DDBC_ROLE_NONE)
			continue;
		json_t *r = json_object();
		json_object_set_new(r, "index", ddbc_json_str(t->indexes[s]->name.s));
		json_object_set_new(r, "role", json_string(ddbc_role_name(a->roles[s])));
		json_array_append_new(arr, r);
	}
	return arr;
}

/* The roles the attribute's `indexes:` declares, as written. */
static json_t *declared_roles(const ddbc_attr *a)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < a->nindexes; i++) {
		json_t *r = json_object();
		json_object_set_new(r, "index", ddbc_json_str(a->indexes[i].index.s));
		json_object_set_new(r, "role", json_string(ddbc_role_name(a->indexes[i].role)));
		json_array_append_new(arr, r);
	}
	return arr;
}

/* Required as written, or because it is a table key or has a template. */
static bool required(const ddbc_attr *a, const ddbc_table *t)
{
	return a->required || a->template.s || (t && ddbc_index_has_key(&t->primary, a->name.s));
}

static json_t *model_attr(const ddbc_attr *a, const ddbc_table *t)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", ddbc_json_str(a->name.s));
	json_object_set_new(o, "type", json_string(ddbc_type_short(a->type)));
	set_text(o, "description", a->description);
	set_text(o, "format", a->format);
	if (a->template.s) {
		json_object_set_new(o, "template", ddbc_json_str(a->template.s));
		json_object_set_new(o, "placeholders", placeholders(a));
	}
	json_object_set_new(o, "required", json_boolean(required(a, t)));
	json_object_set_new(o, "key", json_boolean(a->is_key));
	if (a->nenum) {
		json_t *en = json_array();
		for (size_t i = 0; i < a->nenum; i++)
			json_array_append_new(en, ddbc_json_plain(a->enum_values[i]));
		json_object_set_new(o, "enum", en);
	}
	if (a->example)
		json_object_set_new(o, "example", ddbc_json_plain(a->example));
	if (a->has_indexes)
		json_object_set_new(o, "declared_roles", declared_roles(a));
	if (t)
		json_object_set_new(o, "roles", roles(a, t));
	return o;
}

static json_t *membership(const ddbc_entity *e)
{
	json_t *arr = json_array();
	const ddbc_table *t = e->table;
	for (size_t s = 0; t && e->in_index && s < t->nindexes; s++)
		if (e->in_index[s])
			json_array_append_new(arr, ddbc_json_str(t->indexes[s]->name.s));
	return arr;
}

static json_t *model_entity(const ddbc_entity *e)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", ddbc_json_str(e->name.s));
	json_object_set_new(o, "table", e->table ? ddbc_json_str(e->table->name.s) : json_null());
	set_text(o, "description", e->description);
	set_text(o, "c_name", e->c_name.s);
	json_t *attrs = json_array();
	for (size_t i = 0; i < e->nattrs; i++)
		json_array_append_new(attrs, model_attr(&e->attrs[i], e->table));
	json_object_set_new(o, "attributes", attrs);
	json_object_set_new(o, "indexes", membership(e));
	json_t *ex = json_array();
	for (size_t i = 0; i < e->nexamples; i++)
		json_array_append_new(ex, ddbc_json_plain(e->examples[i]));
	json_object_set_new(o, "examples", ex);
	return o;
}

/* ---- access patterns ------------------------------------------------------------------------ */

static json_t *model_cond(const ddbc_key_cond *c)
{
	json_t *o = json_object();
	json_object_set_new(o, "attribute", ddbc_json_str(c->attr.s));
	json_object_set_new(o, "op", json_string(ddbc_cond_op_name(c->op)));
	json_t *vals = json_array();
	for (size_t i = 0; i < c->nvalues; i++)
		json_array_append_new(vals, ddbc_json_plain(c->values[i]));
	json_object_set_new(o, "values", vals);
	return o;
}

/* The free parameters of the pattern's key condition, in order of first use. */
static json_t *parameters(const ddbc_pattern *p)
{
	json_t *arr = json_array();
	json_t *seen = json_object();
	ddbc_arena *arena = ddbc_arena_new();
	for (size_t i = 0; i < p->nconds; i++) {
		for (size_t v = 0; v < p->conds[i].nvalues; v++) {
			const ddbc_node *n = p->conds[i].values[v];
			ddbc_template t;
			size_t off;
			if (n->kind != DDBC_NODE_SCALAR ||
			    ddbc_template_parse(arena, n->u.text, &t, &off))
				continue;
			for (size_t k = 0; k < t.nsegs; k++) {
				if (t.segs[k].kind != DDBC_SEG_PLACEHOLDER)
					continue;
				char *name = ddbc_arena_strndup(arena, t.segs[k].text, t.segs[k].len);
				if (json_object_get(seen, name))
					continue;
				json_object_set_new(seen, name, json_true());
				json_array_append_new(arr, ddbc_json_str(name));
			}
		}
	}
	ddbc_arena_free(arena);
	json_decref(seen);
	return arr;
}

static json_t *entity_names(ddbc_entity *const *list, size_t n)
{
	json_t *arr = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, ddbc_json_str(list[i]->name.s));
	return arr;
}

static json_t *model_pattern(const ddbc_pattern *p)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", ddbc_json_str(p->id.s));
	set_text(o, "description", p->description);
	json_object_set_new(o, "table", p->table ? ddbc_json_str(p->table->name.s) : json_null());
	json_object_set_new(o, "index", p->index ? ddbc_json_str(p->index->name.s) : json_null());
	json_object_set_new(o, "operation", json_string(ddbc_operation_name(p->operation)));
	json_t *key = json_array();
	for (size_t i = 0; i < p->nconds; i++)
		json_array_append_new(key, model_cond(&p->conds[i]));
	json_object_set_new(o, "key", key);
	json_object_set_new(o, "parameters", parameters(p));
	if (p->order)
		json_object_set_new(o, "order", json_string(p->order > 0 ? "asc" : "desc"));
	json_object_set_new(o, "consistent_read", json_boolean(p->consistent_read));
	if (p->nreturns)
		json_object_set_new(o, "returns", ddbc_json_names(p->returns, p->nreturns));
	if (p->has_entities)
		json_object_set_new(o, "entities", ddbc_json_names(p->entities, p->nentities));
	json_object_set_new(o, "matched", entity_names(p->matched, p->nmatched));
	if (p->example)
		json_object_set_new(o, "example", ddbc_json_plain(p->example));
	set_text(o, "condition", p->condition);
	return o;
}

/* The design's own lint.rules settings. */
static json_t *lint_rules(const ddbc_design *g)
{
	json_t *rules = json_object();
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		if (g->settings.sev[i] != DDBC_SEV_DEFAULT)
			json_object_set_new(rules, ddbc_rule_get((ddbc_rule)i)->id,
					    json_string(ddbc_severity_name(g->settings.sev[i])));
	return rules;
}

/* ---- the document ------------------------------------------------------------------------------- */

int ddbc_emit_model(FILE *out, const ddbc_design *g, const ddbc_export_opts *o, ddbc_diags *d)
{
	(void)o, (void)d;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_begin(&s, NULL, '{');
	ddbc_json_member(&s, "ddbc", json_integer(g->version));
	ddbc_json_member(&s, "name", g->name.s ? ddbc_json_str(g->name.s) : json_null());
	if (g->description)
		ddbc_json_member(&s, "description", ddbc_json_str(g->description));
	ddbc_json_member(&s, "key_delimiter", ddbc_json_str(g->key_delimiter));
	ddbc_json_member(&s, "lint_rules", lint_rules(g));
	ddbc_json_begin(&s, "tables", '[');
	for (size_t i = 0; i < g->ntables; i++)
		ddbc_json_member(&s, NULL, model_table(&g->tables[i]));
	ddbc_json_end(&s, ']');
	ddbc_json_begin(&s, "entities", '[');
	for (size_t i = 0; i < g->nentities; i++)
		ddbc_json_member(&s, NULL, model_entity(&g->entities[i]));
	ddbc_json_end(&s, ']');
	ddbc_json_begin(&s, "access_patterns", '[');
	for (size_t i = 0; i < g->npatterns; i++)
		ddbc_json_member(&s, NULL, model_pattern(&g->patterns[i]));
	ddbc_json_end(&s, ']');
	ddbc_json_end(&s, '}');
	return ddbc_json_stream_finish(&s);
}
