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
#include "emit/emit.h"
#include "model/request.h"
#include "emit/emit_json.h"
#include "model/semantics.h"

#include "util/decimal.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Every part is written straight into the stream (a 10,000-entity model
 * is 80 MB of JSON); only example values go through jansson. */

/* A member that is left out when s is NULL. */
static void opt_text(ddbc_json_stream *js, const char *key, const char *s)
{
	if (s)
		ddbc_json_text(js, key, s);
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

static void capacity(ddbc_json_stream *js, const ddbc_capacity *c)
{
	ddbc_json_begin(js, "capacity", '{');
	ddbc_json_int(js, "read", c->read);
	ddbc_json_int(js, "write", c->write);
	ddbc_json_end(js, '}');
}

/* ---- tables ---------------------------------------------------------------------------- */

static void projection(ddbc_json_stream *js, const ddbc_index *ix)
{
	switch (ix->projection) {
	case DDBC_PROJ_KEYS_ONLY: ddbc_json_text(js, "projection", "keys_only"); return;
	case DDBC_PROJ_INCLUDE: ddbc_json_name_list(js, "projection", ix->include, ix->ninclude); return;
	case DDBC_PROJ_ALL: break;
	}
	ddbc_json_text(js, "projection", "all");
}

static void index_members(ddbc_json_stream *js, const ddbc_table *t, const ddbc_index *ix)
{
	ddbc_json_begin(js, "entities", '[');
	for (size_t i = 0; i < t->nentities; i++)
		if (t->entities[i]->in_index && t->entities[i]->in_index[ix->slot])
			ddbc_json_text(js, NULL, t->entities[i]->name.s);
	ddbc_json_end(js, ']');
}

/* `warm_throughput` or `on_demand_max` as written: the figures given. */
static void throughput(ddbc_json_stream *js, const char *key, const ddbc_throughput *th)
{
	if (!th->set)
		return;
	ddbc_json_begin(js, key, '{');
	if (th->read)
		ddbc_json_int(js, "read", th->read);
	if (th->write)
		ddbc_json_int(js, "write", th->write);
	ddbc_json_end(js, '}');
}

static void model_index(ddbc_json_stream *js, const ddbc_table *t, const ddbc_index *ix)
{
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "name", ix->name.s);
	ddbc_json_text(js, "kind", index_kind(ix));
	if (ix->kind != DDBC_INDEX_PRIMARY)
		opt_text(js, "description", ix->description);
	ddbc_json_name_list(js, "partition_key", ix->pk, ix->npk);
	ddbc_json_name_list(js, "sort_key", ix->sk, ix->nsk);
	projection(js, ix);
	if (ix->capacity.set)
		capacity(js, &ix->capacity);
	throughput(js, "warm_throughput", &ix->warm);
	throughput(js, "on_demand_max", &ix->on_demand_max);
	if (ix->insights)
		ddbc_json_text(js, "contributor_insights",
			       ix->insights == DDBC_INSIGHTS_ALL ? "all" : "throttled");
	index_members(js, t, ix);
	ddbc_json_end(js, '}');
}

/* Whether key attribute i of index slot s was named by an earlier key. */
static bool key_seen_before(const ddbc_table *t, size_t s, size_t i)
{
	const ddbc_index *ix = t->indexes[s];
	const char *name = ddbc_index_key(ix, i);
	for (size_t ps = 0; ps <= s; ps++) {
		const ddbc_index *px = t->indexes[ps];
		size_t n = ps < s ? px->npk + px->nsk : i;
		for (size_t k = 0; k < n; k++)
			if (!strcmp(ddbc_index_key(px, k), name))
				return true;
	}
	return false;
}

/* Every key attribute of the table and its indexes with its type: what
 * CreateTable's AttributeDefinitions holds. */
static void key_attributes(ddbc_json_stream *js, const ddbc_table *t)
{
	ddbc_json_begin(js, "key_attributes", '[');
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
			const char *name = ddbc_index_key(ix, i);
			if (key_seen_before(t, s, i))
				continue;
			ddbc_json_begin(js, NULL, '{');
			ddbc_json_text(js, "name", name);
			ddbc_json_text(js, "type", ddbc_type_short(ddbc_json_key_type(t, name)));
			ddbc_json_end(js, '}');
		}
	}
	ddbc_json_end(js, ']');
}

/* A capacity figure of the design (rate, count, item_bytes) when written:
 * as the design writes it when that is a decimal (a count of 17 digits
 * stays 17 digits; these are estimates, not DynamoDB Numbers, but the
 * export repeats what it was given), else an integer as one, else the
 * number. */
static void figure(ddbc_json_stream *js, const char *key, const ddbc_figure *f)
{
	if (f->set)
		ddbc_json_figure(js, key, f);
}

/* The table's settings (SPEC 8.7), each as the design writes it. */
static void model_settings(ddbc_json_stream *js, const ddbc_table_settings *s)
{
	if (s->has_pitr) {
		ddbc_json_begin(js, "pitr", '{');
		ddbc_json_bool(js, "enabled", s->pitr);
		if (s->recovery_days)
			ddbc_json_int(js, "recovery_days", s->recovery_days);
		ddbc_json_end(js, '}');
	}
	if (s->has_deletion_protection)
		ddbc_json_bool(js, "deletion_protection", s->deletion_protection);
	if (s->stream)
		ddbc_json_text(js, "stream", ddbc_stream_word(s->stream));
	throughput(js, "warm_throughput", &s->warm);
	throughput(js, "on_demand_max", &s->on_demand_max);
	if (s->insights)
		ddbc_json_text(js, "contributor_insights",
			       s->insights == DDBC_INSIGHTS_ALL ? "all" : "throttled");
	if (s->nreplicas) {
		ddbc_json_name_list(js, "replicas", s->replicas, s->nreplicas);
		ddbc_json_text(js, "consistency", s->strong ? "strong" : "eventual");
	}
	opt_text(js, "witness", s->witness.s);
	if (s->has_sse) {
		ddbc_json_begin(js, "sse", '{');
		opt_text(js, "kms_key", s->kms_key.s);
		ddbc_json_end(js, '}');
	}
	if (s->ntags) {
		ddbc_json_begin(js, "tags", '{');
		for (size_t i = 0; i < s->ntags; i++)
			ddbc_json_text(js, s->tags[i].key.s, s->tags[i].value);
		ddbc_json_end(js, '}');
	}
	if (s->policy)
		ddbc_json_string(js, "resource_policy", s->policy, s->policy_bytes);
}

static void model_table(ddbc_json_stream *js, const ddbc_table *t)
{
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "name", t->name.s);
	opt_text(js, "description", t->description);
	opt_text(js, "ttl", t->ttl.s);
	ddbc_json_text(js, "billing",
		       t->billing == DDBC_BILLING_PROVISIONED ? "provisioned" : "on_demand");
	if (t->capacity.set)
		capacity(js, &t->capacity);
	if (t->has_table_class)
		ddbc_json_text(js, "table_class",
			       t->table_class == DDBC_CLASS_STANDARD_IA ? "standard_ia" : "standard");
	model_settings(js, &t->settings);
	key_attributes(js, t);
	ddbc_json_begin(js, "indexes", '[');
	for (size_t s = 0; s < t->nindexes; s++)
		model_index(js, t, t->indexes[s]);
	ddbc_json_end(js, ']');
	ddbc_json_begin(js, "entities", '[');
	for (size_t i = 0; i < t->nentities; i++)
		ddbc_json_text(js, NULL, t->entities[i]->name.s);
	ddbc_json_end(js, ']');
	ddbc_json_end(js, '}');
}

/* ---- entities --------------------------------------------------------------------------- */

static void placeholders(ddbc_json_stream *js, const ddbc_attr *a)
{
	ddbc_json_begin(js, "placeholders", '[');
	for (size_t k = 0; k < a->tpl.nsegs; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		if (seg->kind == DDBC_SEG_PLACEHOLDER)
			ddbc_json_string(js, NULL, seg->text, seg->len);
	}
	ddbc_json_end(js, ']');
}

static void roles(ddbc_json_stream *js, const ddbc_attr *a, const ddbc_table *t)
{
	ddbc_json_begin(js, "roles", '[');
	const uint8_t *of = ddbc_attr_roles(a);
	for (size_t s = 0; of && s < t->nindexes; s++) {
		if (of[s] == DDBC_ROLE_NONE)
			continue;
		ddbc_json_begin(js, NULL, '{');
		ddbc_json_text(js, "index", t->indexes[s]->name.s);
		ddbc_json_text(js, "role", ddbc_role_name(of[s]));
		ddbc_json_end(js, '}');
	}
	ddbc_json_end(js, ']');
}

/* The roles the attribute's `indexes:` declares, as written. */
static void declared_roles(ddbc_json_stream *js, const ddbc_attr *a)
{
	ddbc_json_begin(js, "declared_roles", '[');
	for (size_t i = 0; i < a->more->nindexes; i++) {
		ddbc_json_begin(js, NULL, '{');
		ddbc_json_text(js, "index", a->more->indexes[i].index.s);
		ddbc_json_text(js, "role", ddbc_role_name(a->more->indexes[i].role));
		ddbc_json_end(js, '}');
	}
	ddbc_json_end(js, ']');
}

static void model_attr(ddbc_json_stream *js, const ddbc_attr *a, const ddbc_table *t)
{
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "name", a->name.s);
	ddbc_json_text(js, "type", ddbc_type_short(a->type));
	opt_text(js, "description", a->text->description);
	opt_text(js, "format", a->text->format);
	opt_text(js, "c_name", a->more->c_name ? a->more->c_name->s : NULL);
	if (a->template.s) {
		ddbc_json_text(js, "template", a->template.s);
		placeholders(js, a);
	}
	ddbc_json_bool(js, "required", ddbc_attr_required(a, NULL));
	figure(js, "present", a->more->present);
	if (!ddbc_attr_stored(a))
		ddbc_json_bool(js, "stored", false);
	ddbc_json_bool(js, "key", a->is_key);
	if (a->more->nenum) {
		ddbc_json_begin(js, "enum", '[');
		for (size_t i = 0; i < a->more->nenum; i++)
			ddbc_json_member(js, NULL, ddbc_json_plain(a->more->enum_values[i]));
		ddbc_json_end(js, ']');
	}
	if (a->more->example)
		ddbc_json_member(js, "example", ddbc_json_pval(a->more->example));
	if (a->has_indexes)
		declared_roles(js, a);
	if (t)
		roles(js, a, t);
	ddbc_json_end(js, '}');
}

static void membership(ddbc_json_stream *js, const ddbc_entity *e)
{
	ddbc_json_begin(js, "indexes", '[');
	const ddbc_table *t = e->table;
	for (size_t s = 0; t && e->in_index && s < t->nindexes; s++)
		if (e->in_index[s])
			ddbc_json_text(js, NULL, t->indexes[s]->name.s);
	ddbc_json_end(js, ']');
}

/* The indexes that hold only the items having their optional key
 * attributes (a sparse index): written only for an entity that has one,
 * so that the model of every other design stays as it was. */
static void sparse_membership(ddbc_json_stream *js, const ddbc_entity *e)
{
	const ddbc_table *t = e->table;
	if (!t || !e->membership)
		return;
	ddbc_json_begin(js, "sparse", '[');
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_membership *m = ddbc_entity_membership(e, t->indexes[s]);
		if (!e->in_index[s] || !m->nby)
			continue;
		ddbc_json_begin(js, NULL, '{');
		ddbc_json_text(js, "index", t->indexes[s]->name.s);
		ddbc_json_begin(js, "items_having", '[');
		for (uint32_t i = 0; i < m->nby; i++)
			ddbc_json_text(js, NULL, m->by[i]->name.s);
		ddbc_json_end(js, ']');
		ddbc_json_end(js, '}');
	}
	ddbc_json_end(js, ']');
}

static void model_entity(ddbc_json_stream *js, const ddbc_entity *e)
{
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "name", e->name.s);
	ddbc_json_text(js, "table", e->table ? e->table->name.s : NULL);
	opt_text(js, "description", e->description);
	opt_text(js, "c_name", e->c_name.s);
	figure(js, "count", e->count);
	figure(js, "item_bytes", e->item_bytes);
	ddbc_json_begin(js, "attributes", '[');
	for (size_t i = 0; i < e->nattrs; i++)
		model_attr(js, &e->attrs[i], e->table);
	ddbc_json_end(js, ']');
	membership(js, e);
	sparse_membership(js, e);
	ddbc_json_begin(js, "examples", '[');
	for (size_t i = 0; i < e->nexamples; i++)
		ddbc_json_member(js, NULL, ddbc_json_pval(e->examples[i]));
	ddbc_json_end(js, ']');
	ddbc_json_end(js, '}');
}

/* ---- access patterns ------------------------------------------------------------------------ */

static void model_cond(ddbc_json_stream *js, const ddbc_key_cond *c)
{
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "attribute", c->attr.s);
	ddbc_json_text(js, "op", ddbc_cond_op_name(c->op));
	ddbc_json_begin(js, "values", '[');
	for (size_t i = 0; i < c->nvalues; i++)
		ddbc_json_member(js, NULL, ddbc_json_plain(c->values[i]));
	ddbc_json_end(js, ']');
	ddbc_json_end(js, '}');
}

static bool same_name(const ddbc_segment *a, const ddbc_segment *b)
{
	return a->len == b->len && !memcmp(a->text, b->text, a->len);
}

/* The free parameters of the pattern's key condition, in order of first
 * use (the request's, parsed once; a pattern whose table or index did not
 * resolve has none). */
static void parameters(ddbc_json_stream *js, const ddbc_pattern *p)
{
	const ddbc_request *r = ddbc_pattern_request(p);
	ddbc_json_begin(js, "parameters", '[');
	for (size_t i = 0; r && i < r->nparams; i++) {
		size_t j = 0;
		while (j < i && !same_name(r->params[j], r->params[i]))
			j++;
		if (j == i)
			ddbc_json_string(js, NULL, r->params[i]->text, r->params[i]->len);
	}
	ddbc_json_end(js, ']');
}

static void model_pattern(ddbc_json_stream *js, const ddbc_pattern *p)
{
	ddbc_json_begin(js, NULL, '{');
	ddbc_json_text(js, "id", p->id.s);
	opt_text(js, "description", p->description);
	ddbc_json_text(js, "table", p->table ? p->table->name.s : NULL);
	ddbc_json_text(js, "index", p->index ? p->index->name.s : NULL);
	ddbc_json_text(js, "operation", ddbc_operation_name(p->operation));
	ddbc_json_begin(js, "key", '[');
	for (size_t i = 0; i < p->nconds; i++)
		model_cond(js, &p->conds[i]);
	ddbc_json_end(js, ']');
	parameters(js, p);
	if (p->order)
		ddbc_json_text(js, "order", p->order > 0 ? "asc" : "desc");
	ddbc_json_bool(js, "consistent_read", p->consistent_read);
	if (p->nreturns)
		ddbc_json_name_list(js, "returns", p->returns, p->nreturns);
	if (p->has_entities)
		ddbc_json_name_list(js, "entities", p->entities, p->nentities);
	ddbc_json_begin(js, "matched", '[');
	for (size_t i = 0; i < p->nmatched; i++)
		ddbc_json_text(js, NULL, p->matched[i]->name.s);
	ddbc_json_end(js, ']');
	if (p->example)
		ddbc_json_member(js, "example", ddbc_json_pval(p->example));
	opt_text(js, "condition", p->condition);
	figure(js, "rate", p->rate);
	figure(js, "items", p->items);
	figure(js, "limit", p->limit);
	ddbc_json_end(js, '}');
}

/* The design's own lint.rules settings. */
static void lint_rules(ddbc_json_stream *js, const ddbc_design *g)
{
	ddbc_json_begin(js, "lint_rules", '{');
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		if (g->settings.sev[i] != DDBC_SEV_DEFAULT)
			ddbc_json_text(js, ddbc_rule_get((ddbc_rule)i)->id,
				       ddbc_severity_name(g->settings.sev[i]));
	ddbc_json_end(js, '}');
}

/* ---- the document ------------------------------------------------------------------------------- */

ddbc_emit_result ddbc_emit_model(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
				 ddbc_diags *d)
{
	(void)d;
	ddbc_json_stream s;
	ddbc_json_stream_init(&s, out);
	ddbc_json_stream_layout(&s, o);
	ddbc_json_begin(&s, NULL, '{');
	ddbc_json_int(&s, "ddbc", g->version);
	ddbc_json_text(&s, "name", g->name.s);
	opt_text(&s, "description", g->description);
	ddbc_json_text(&s, "key_delimiter", g->key_delimiter);
	if (g->pricing_region.s) {
		ddbc_json_begin(&s, "pricing", '{');
		ddbc_json_text(&s, "region", g->pricing_region.s);
		ddbc_json_end(&s, '}');
	}
	lint_rules(&s, g);
	ddbc_json_begin(&s, "tables", '[');
	for (size_t i = 0; i < g->ntables; i++)
		model_table(&s, &g->tables[i]);
	ddbc_json_end(&s, ']');
	ddbc_json_begin(&s, "entities", '[');
	for (size_t i = 0; i < g->nentities; i++)
		model_entity(&s, &g->entities[i]);
	ddbc_json_end(&s, ']');
	ddbc_json_begin(&s, "access_patterns", '[');
	for (size_t i = 0; i < g->npatterns; i++)
		model_pattern(&s, &g->patterns[i]);
	ddbc_json_end(&s, ']');
	ddbc_json_end(&s, '}');
	return ddbc_json_stream_finish(&s, o ? o->err : NULL);
}
