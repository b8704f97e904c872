/* load.c - checking the YAML against input format v1 and filling the model
 *
 * The root's small fields are read from the composed tree; the entries of
 * tables, entities and access_patterns arrive one at a time while the file
 * is parsed (ddbc_yaml_sink), an entity's attributes one at a time before
 * the entity, and whatever the model keeps of them (names, texts, example
 * values) is copied, since their nodes are reused; an entity's example
 * items are packed (model/pval.h).
 *
 * Each kind of mapping (root, table, index, entity, attribute, pattern) has
 * its list of known fields. A reader is lenient in one way only: it reports
 * a problem and goes on with what it could read, so one run shows every
 * structural problem of a file. What could not be read is left empty (NULL
 * name, DDBC_TYPE_NONE) and later rules skip it.
 */
#include "input/compose.h"
#include "input/load.h"
#include "input/load_cost.h"
#include "input/load_int.h"
#include "input/suppress.h"
#include "util/decimal.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

/* A section's entries as they arrive, before the design's array is made. */
/* ---- tables and indexes ------------------------------------------------------ */

static void load_capacity(loader *L, const ddbc_node *v, ddbc_capacity *cap)
{
	static const char *const fields[] = { "read", "write" };
	cap->loc = v->loc;
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, "capacity"))
		return;
	ddbc_load_check_known(L, v, "capacity", fields, countof(fields));
	cap->set = true;
	for (size_t i = 0; i < countof(fields); i++) {
		const ddbc_node *u = ddbc_load_require(L, v, fields[i], "capacity");
		long long n;
		if (!u)
			continue;
		if (!ddbc_node_int(u, &n) || n < 1) {
			ddbc_load_schema(L, u->loc,
					 "'%s' capacity must be a whole number of at least 1",
					 fields[i]);
			continue;
		}
		if (i == 0)
			cap->read = n;
		else
			cap->write = n;
	}
}

static void load_projection(loader *L, const ddbc_node *index, ddbc_index *ix)
{
	const ddbc_node *v = ddbc_node_get(index, "projection");
	ix->projection = DDBC_PROJ_ALL;
	if (!v) {
		ix->projection_loc = ix->name.loc;
		return;
	}
	ix->projection_loc = v->loc;
	if (v->kind == DDBC_NODE_SEQ) {
		ix->projection = DDBC_PROJ_INCLUDE;
		ix->ninclude = ddbc_load_get_names(L, v, "projection", &ix->include);
		return;
	}
	static const char *const words[] = { "all", "keys_only" };
	if (v->kind == DDBC_NODE_SCALAR) {
		size_t w;
		if (ddbc_load_get_word(L, index, "projection", words, countof(words), &w) && w == 1)
			ix->projection = DDBC_PROJ_KEYS_ONLY;
		return;
	}
	ddbc_load_schema(L, v->loc,
			 "'projection' must be all, keys_only or a list of attribute names, "
			 "not a mapping");
}

static const char *const gsi_fields[] = {
	"description", "partition_key", "sort_key",
	"projection", "capacity", "warm_throughput", "on_demand_max", "contributor_insights"
};

static void load_gsi(loader *L, const ddbc_pair *pair, ddbc_table *t, ddbc_index *ix)
{
	ix->name = ddbc_load_name_of(L, pair->key);
	ix->kind = DDBC_INDEX_GSI;
	ix->table = t;
	const ddbc_node *m = pair->value;
	if (!ddbc_load_expect_kind(L, m, DDBC_NODE_MAP, ix->name.s))
		return;
	ddbc_load_check_known(L, m, "a global secondary index", gsi_fields, countof(gsi_fields));
	ix->description = ddbc_load_get_text(L, m, "description");
	const ddbc_node *pk = ddbc_load_require(L, m, "partition_key", "a global secondary index");
	if (pk)
		ix->npk = ddbc_load_get_key_names(L, pk, "partition_key", true, &ix->pk);
	const ddbc_node *sk = ddbc_node_get(m, "sort_key");
	if (sk)
		ix->nsk = ddbc_load_get_key_names(L, sk, "sort_key", true, &ix->sk);
	load_projection(L, m, ix);
	const ddbc_node *cap = ddbc_node_get(m, "capacity");
	if (cap)
		load_capacity(L, cap, &ix->capacity);
	ddbc_load_gsi_settings(L, m, ix);
}

static const char *const lsi_fields[] = {
	"description", "sort_key", "projection"
};

static void load_lsi(loader *L, const ddbc_pair *pair, ddbc_table *t, ddbc_index *ix)
{
	ix->name = ddbc_load_name_of(L, pair->key);
	ix->kind = DDBC_INDEX_LSI;
	ix->table = t;
	/* An LSI shares the table's partition key. */
	ix->pk = t->primary.pk;
	ix->npk = t->primary.npk;
	const ddbc_node *m = pair->value;
	if (!ddbc_load_expect_kind(L, m, DDBC_NODE_MAP, ix->name.s))
		return;
	ddbc_load_check_known(L, m, "a local secondary index", lsi_fields, countof(lsi_fields));
	ix->description = ddbc_load_get_text(L, m, "description");
	const ddbc_node *sk = ddbc_load_require(L, m, "sort_key", "a local secondary index");
	if (sk)
		ix->nsk = ddbc_load_get_key_names(L, sk, "sort_key", false, &ix->sk);
	load_projection(L, m, ix);
}

static size_t load_indexes(loader *L, const ddbc_node *m, const char *field, ddbc_table *t,
			   ddbc_index **out,
			   void (*one)(loader *, const ddbc_pair *, ddbc_table *, ddbc_index *))
{
	const ddbc_node *v = ddbc_node_get(m, field);
	if (!v)
		return 0;
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, field)) {
		t->indexes_incomplete = true;
		return 0;
	}
	*out = ddbc_arena_array(L->arena, v->n, sizeof(ddbc_index));
	/* Each part read with a finding is incomplete (see model.h); an LSI's
	 * partition key is its table's: unread there, unread here. */
	for (size_t i = 0; i < v->n; i++) {
		size_t before = L->d->n;
		one(L, &v->u.pairs[i], t, &(*out)[i]);
		(*out)[i].incomplete = L->d->n > before ||
				       ((*out)[i].kind == DDBC_INDEX_LSI && t->primary.incomplete);
	}
	return v->n;
}

static const char *const table_fields[] = {
	"description", "partition_key", "sort_key", "ttl",
	"billing", "capacity", "gsi", "lsi", "table_class",
	"pitr", "deletion_protection", "stream", "warm_throughput", "on_demand_max",
	"contributor_insights", "replicas", "consistency", "witness", "sse", "tags",
	"resource_policy"
};

/* The table's own fields; returns whether it is a mapping. */
static bool read_table(loader *L, const ddbc_pair *pair, ddbc_table *t)
{
	static const char *const billing[] = { "on_demand", "provisioned" };
	t->name = ddbc_load_name_of(L, pair->key);
	t->primary.name = t->name;
	t->primary.kind = DDBC_INDEX_PRIMARY;
	t->primary.table = t;
	t->billing_loc = t->name.loc;
	const ddbc_node *m = pair->value;
	if (!ddbc_load_expect_kind(L, m, DDBC_NODE_MAP, t->name.s))
		return false;
	bool unknown = ddbc_load_check_known(L, m, "a table", table_fields,
					     countof(table_fields)) > 0;
	t->indexes_incomplete = unknown && (!ddbc_node_get(m, "gsi") || !ddbc_node_get(m, "lsi"));
	t->settings.regions_incomplete = unknown;
	t->description = ddbc_load_get_text(L, m, "description");
	const ddbc_node *pk = ddbc_load_require(L, m, "partition_key", "a table");
	if (pk)
		t->primary.npk = ddbc_load_get_key_names(L, pk, "partition_key", false,
							 &t->primary.pk);
	const ddbc_node *sk = ddbc_node_get(m, "sort_key");
	if (sk)
		t->primary.nsk = ddbc_load_get_key_names(L, sk, "sort_key", false, &t->primary.sk);
	t->ttl = ddbc_load_get_name(L, m, "ttl");
	size_t b;
	if (ddbc_load_get_word(L, m, "billing", billing, countof(billing), &b) && b == 1)
		t->billing = DDBC_BILLING_PROVISIONED;
	if (ddbc_node_get(m, "billing"))
		t->billing_loc = ddbc_node_get(m, "billing")->loc;
	const ddbc_node *cap = ddbc_node_get(m, "capacity");
	if (cap)
		load_capacity(L, cap, &t->capacity);
	ddbc_load_table_class(L->d, m, t);
	return true;
}

/* A table whose own fields had an error has no key to trust: a misspelt
 * field may be its sort key. Its indexes are read after, each on its own. */
static void load_table(loader *L, const ddbc_pair *pair, ddbc_table *t)
{
	size_t before = L->d->n;
	bool is_map = read_table(L, pair, t);
	t->incomplete = t->primary.incomplete = L->d->n > before;
	if (!is_map)
		return;
	/* After the key: a bad setting leaves what the key tells whole. */
	ddbc_load_table_settings(L, pair->value, t);
	t->ngsi = load_indexes(L, pair->value, "gsi", t, &t->gsi, load_gsi);
	t->nlsi = load_indexes(L, pair->value, "lsi", t, &t->lsi, load_lsi);
}

/* ---- entities ----------------------------------------------------------------- */

/* Remembers that the entry being loaded (at index i of its section) has no
 * `table:`; see check_untabled. */
static void note_untabled(entries *list, size_t i)
{
	ddbc_xgrow(&list->items, &list->cap, list->n + 1, sizeof(size_t));
	((size_t *)list->items)[list->n++] = i;
}

/* A Number attribute's (or a set of Numbers') enum value is a Number
 * DynamoDB stores: every command takes it for one (the header's
 * initialisers, check-items' comparisons by value). */
static void check_number_enum(loader *L, const ddbc_attr *a, const ddbc_node *v)
{
	if (a->type != DDBC_TYPE_N && a->type != DDBC_TYPE_NS)
		return;
	strbuf why = STRBUF_INIT;
	if (!ddbc_decimal_dynamodb(v->u.text, v->n, &why))
		ddbc_load_schema(L, v->loc, "enum value '%s' of Number attribute '%s' %s", v->u.text,
				 a->name.s, ddbc_strbuf_str(&why));
	ddbc_strbuf_release(&why);
}

static void load_type(loader *L, const ddbc_node *v, ddbc_attr *a)
{
	static const char *const names[] = { "S", "N", "B", "BOOL", "NULL", "M", "L",
					     "SS", "NS", "BS", "String", "Number", "Binary",
					     "Boolean", "Null", "Map", "List", "StringSet",
					     "NumberSet", "BinarySet" };
	ddbc_attr_set_type_loc(L->arena, a, v->loc);
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_SCALAR, "type"))
		return;
	ddbc_type t = a->type;   /* a bit-field: no address */
	int bad = ddbc_type_parse(v->u.text, &t);
	a->type = t;
	if (bad == 0)
		return;
	const char *hint = ddbc_suggest(v->u.text, names, countof(names));
	if (hint)
		ddbc_load_schema(L, v->loc,
				 "unknown type '%s' for attribute '%s'; did you mean '%s'?",
				 v->u.text, a->name.s, hint);
	else
		ddbc_load_schema(L, v->loc,
				 "unknown type '%s' for attribute '%s'; expected S, N, B, BOOL, "
				 "NULL, M, L, SS, NS or BS", v->u.text, a->name.s);
}

static void load_index_decls(loader *L, const ddbc_node *v, ddbc_attr *a)
{
	static const char *const roles[] = { "partition_key", "sort_key", "projected" };
	ddbc_attr_more *more = ddbc_attr_more_of(L->arena, a);
	a->has_indexes = true;
	more->indexes_loc = v->loc;
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, "indexes"))
		return;
	a->indexes_is_map = true;
	more->indexes = ddbc_arena_array(L->arena, v->n, sizeof(ddbc_index_decl));
	more->ndeclared = (uint32_t)v->n;
	size_t unreadable = v->n;
	for (size_t i = 0; i < v->n; i++) {
		const ddbc_pair *p = &v->u.pairs[i];
		ddbc_index_decl *decl = &more->indexes[more->nindexes];
		decl->index = ddbc_load_word_of(L, p->key);
		decl->role_loc = p->value->loc;
		int r = -1;
		for (size_t k = 0; k < countof(roles) && p->value->kind == DDBC_NODE_SCALAR; k++)
			if (!strcmp(p->value->u.text, roles[k]))
				r = (int)k;
		if (r < 0) {
			const char *hint = p->value->kind == DDBC_NODE_SCALAR
				? ddbc_suggest(p->value->u.text, roles, countof(roles)) : NULL;
			ddbc_load_schema(L, p->value->loc,
					 "unknown role '%s' for index '%s'; expected "
					 "partition_key, sort_key or projected%s%s%s",
					 p->value->kind == DDBC_NODE_SCALAR ? p->value->u.text
									     : "?",
					 p->key->u.text, hint ? " (did you mean '" : "",
					 hint ? hint : "", hint ? "'?)" : "");
			ddbc_index_decl bad = *decl;
			memset(decl, 0, sizeof(*decl));
			more->indexes[--unreadable] = bad;
			continue;
		}
		decl->role = (ddbc_role)(r + DDBC_ROLE_PARTITION_KEY);
		more->nindexes++;
	}
}

/* `stored: false` marks a key part that items never hold (a key built
 * from values the application knows but does not store). Such a part
 * cannot be required of items, nor be in an index: saying so as well is
 * a contradiction the user must resolve. */
static void load_stored(loader *L, const ddbc_node *v, ddbc_attr *a)
{
	bool stored = true;
	ddbc_loc loc;
	if (!ddbc_load_bool_of(L, v, "stored", &stored, &loc) || stored)
		return;
	/* After the contradiction is reported the attribute is read as
	 * stored, so that no finding follows from the half that is ignored. */
	if (a->required)
		ddbc_load_schema(L, loc,
				 "attribute '%s' has 'stored: false' and 'required: true'; items "
				 "never hold a key part that is not stored: remove one of them",
				 a->name.s);
	else if (a->has_indexes)
		ddbc_load_schema(L, loc,
				 "attribute '%s' has 'stored: false' and 'indexes'; an index holds "
				 "only stored attributes: remove one of them", a->name.s);
	else
		a->not_stored = true;
}

/* `required:`; `required: false` is kept with its position: on a templated
 * attribute it makes the attribute optional (an item that has it matches
 * the template; one without it is in no index it keys), and where it
 * cannot hold (a table key) a rule points at it. */
static void load_required(loader *L, const ddbc_node *v, ddbc_attr *a)
{
	bool required = a->required; /* a bit-field: no address */
	ddbc_loc loc;
	if (!ddbc_load_bool_of(L, v, "required", &required, &loc))
		return;
	a->required = required;
	if (!required)
		ddbc_attr_more_of(L->arena, a)->optional_loc = loc;
}

/* `present:` the share of the entity's items that have the attribute,
 * which cost reads for the indexes it keys: only an attribute that items
 * may lack can have one. */
static void load_present(loader *L, const ddbc_node *m, const ddbc_node *v, ddbc_attr *a)
{
	if (!v)
		return;
	const ddbc_figure *f = ddbc_load_present(L->arena, L->d, v);
	if (!f->set)
		return;
	/* A misspelt 'required', or one that is no boolean, is reported
	 * already: the attribute is taken as meant, one mistake one finding. */
	const ddbc_node *r = ddbc_node_get(m, "required");
	bool said;
	bool unclear = ddbc_load_suggested(L, m, "required") || (r && !ddbc_node_bool(r, &said));
	if (a->required || (a->template.s && !a->more->optional_loc.line)) {
		if (!unclear)
			ddbc_load_schema(L, f->loc,
					 "'present' is for an attribute that items may lack, but '%s' "
					 "is required (%s); remove 'present' or write 'required: false'",
					 a->name.s, a->required ? "required: true" : "it has a template");
		return;
	}
	ddbc_attr_more_of(L->arena, a)->present = f;
}

static const char *const attr_fields[] = {
	"type", "description", "format", "template",
	"required", "stored", "enum", "example", "indexes",
	"c_name", "present"
};

/* The pair of words, shared with the attributes that had it lately. Its
 * words come from ddbc_load_word_of: equal pointers are equal words, and
 * a pair met again after another took its slot is only made twice. */
#define TEXT_SLOTS 256
static const ddbc_attr_text *attr_text(loader *L, const char *description, const char *format)
{
	if (!description && !format)
		return &ddbc_attr_text_none;
	if (!L->texts)
		L->texts = ddbc_xcalloc(TEXT_SLOTS, sizeof(*L->texts));
	uint64_t h = ((uint64_t)(uintptr_t)description * 31 + (uint64_t)(uintptr_t)format) >> 3;
	ddbc_attr_text **slot = &L->texts[(h ^ h >> 8) & (TEXT_SLOTS - 1)];
	if (!*slot || (*slot)->description != description || (*slot)->format != format) {
		ddbc_attr_text *t = ddbc_arena_alloc(L->arena, sizeof(*t));
		t->description = description;
		t->format = format;
		*slot = t;
	}
	return *slot;
}

static void read_attr(loader *L, const ddbc_pair *pair, ddbc_entity *e, ddbc_attr *a)
{
	enum { TYPE, DESCRIPTION, FORMAT, TEMPLATE, REQUIRED, STORED, ENUM, EXAMPLE, INDEXES,
	       C_NAME, PRESENT, NFIELDS };
	_Static_assert(NFIELDS == countof(attr_fields), "a name for each field");
	const ddbc_node *f[NFIELDS];
	a->name = ddbc_load_word_of(L, pair->key);
	a->more = &ddbc_attr_more_none;
	a->text = &ddbc_attr_text_none;
	a->entity = e;
	ddbc_attr_set_type_loc(L->arena, a, a->name.loc);
	const ddbc_node *m = pair->value;
	if (m->kind == DDBC_NODE_SCALAR) {
		/* Shorthand: `name: S`. */
		load_type(L, m, a);
		return;
	}
	if (m->kind != DDBC_NODE_MAP) {
		ddbc_load_schema(L, m->loc, "attribute '%s' must be a type or a mapping, not %s",
				 a->name.s,
				 ddbc_node_describe(m));
		return;
	}
	/* One pass over the mapping finds every field: an attribute is the
	 * most frequent mapping of a design. */
	ddbc_load_fields(L, m, "an attribute", attr_fields, NFIELDS, f);
	const ddbc_node *type = ddbc_load_require_value(L, m, f[TYPE], "type", "an attribute");
	if (type)
		load_type(L, type, a);
	a->text = attr_text(L, ddbc_load_attr_word_of(L, f[DESCRIPTION], "description"),
			    ddbc_load_attr_word_of(L, f[FORMAT], "format"));
	ddbc_name c_name = ddbc_load_name_field(L, m, f[C_NAME], "c_name");
	if (c_name.s) {
		ddbc_name *kept = ddbc_arena_alloc(L->arena, sizeof(*kept));
		*kept = c_name;
		ddbc_attr_more_of(L->arena, a)->c_name = kept;
	}
	const ddbc_node *tpl = f[TEMPLATE];
	/* A template may be empty text only if it is quoted; plain text is
	 * read as is, so `template: 001` is the string "001". */
	if (tpl && ddbc_load_expect_kind(L, tpl, DDBC_NODE_SCALAR, "template"))
		a->template = ddbc_load_word_of(L, tpl);
	load_required(L, f[REQUIRED], a);
	const ddbc_node *en = f[ENUM];
	if (en && ddbc_load_expect_kind(L, en, DDBC_NODE_SEQ, "enum")) {
		ddbc_attr_more *more = ddbc_attr_more_of(L->arena, a);
		more->enum_loc = en->loc;
		more->enum_values = ddbc_arena_array(L->arena, en->n, sizeof(ddbc_node *));
		for (size_t i = 0; i < en->n; i++) {
			if (en->u.items[i]->kind != DDBC_NODE_SCALAR) {
				ddbc_load_schema(L, en->u.items[i]->loc,
						 "enum values must be scalars, not %s",
						 ddbc_node_describe(en->u.items[i]));
				continue;
			}
			check_number_enum(L, a, en->u.items[i]);
			more->enum_values[more->nenum++] = ddbc_load_keep(L, en->u.items[i]);
		}
		if (en->n == 0)
			ddbc_load_schema(L, en->loc, "'enum' must list at least one value");
	}
	const ddbc_node *example = f[EXAMPLE];
	if (example)
		ddbc_attr_more_of(L->arena, a)->example = ddbc_pval_pack(L->arena, example);
	const ddbc_node *ix = f[INDEXES];
	if (ix)
		load_index_decls(L, ix, a);
	load_stored(L, f[STORED], a);
	load_present(L, m, f[PRESENT], a);
}

static void load_attr(loader *L, const ddbc_pair *pair, ddbc_entity *e, ddbc_attr *a)
{
	size_t before = L->d->n;
	read_attr(L, pair, e, a);
	a->incomplete = L->d->n > before;
}

static void load_examples(loader *L, const ddbc_node *v, ddbc_entity *e)
{
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_SEQ, "examples"))
		return;
	e->examples = ddbc_arena_array(L->arena, v->n, sizeof(*e->examples));
	for (size_t i = 0; i < v->n; i++) {
		ddbc_node *item = v->u.items[i];
		if (item->kind != DDBC_NODE_MAP) {
			ddbc_load_schema(L, item->loc,
					 "an example item must be a mapping of attributes, not %s",
					 ddbc_node_describe(item));
			continue;
		}
		/* Packed: the tree goes with the entry's scratch. */
		e->examples[e->nexamples++] = ddbc_pval_pack(L->arena, item);
	}
}

/* An attribute of the entity being read, streamed in before the entity's
 * other fields; its entity is set once the entities have their final
 * place (link_parents). */
static void on_attr(loader *L, const ddbc_pair *pair)
{
	if (L->nattrs == L->attrs_cap) {
		L->attrs_cap = L->attrs_cap ? 2 * L->attrs_cap : 16;
		L->attrs = ddbc_arena_resize(L->arena, L->attrs, L->attrs_cap, sizeof(ddbc_attr));
	}
	ddbc_attr *a = &L->attrs[L->nattrs++];
	memset(a, 0, sizeof(*a));
	load_attr(L, pair, NULL, a);
}

/* Gives e the attributes streamed in. A large array becomes e's as it is,
 * cut to their number (realloc gives the rest of its pages back); a small
 * one is copied into the arena and the array kept for the next entity: cut
 * in place, each would leave a hole in the heap behind it that stays
 * resident (some 500 bytes an entity). */
#define TAKEN_WHOLE (256 * 1024)
static void take_streamed_attrs(loader *L, ddbc_entity *e)
{
	e->nattrs = L->nattrs;
	if (L->nattrs * sizeof(ddbc_attr) < TAKEN_WHOLE) {
		e->attrs = ddbc_arena_array(L->arena, L->nattrs, sizeof(ddbc_attr));
		if (L->nattrs)
			memcpy(e->attrs, L->attrs, L->nattrs * sizeof(ddbc_attr));
		L->nattrs = 0;
		return;
	}
	e->attrs = ddbc_arena_resize(L->arena, L->attrs, L->nattrs, sizeof(ddbc_attr));
	L->attrs = NULL;
	L->nattrs = L->attrs_cap = 0;
}

static const char *const entity_fields[] = {
	"table", "description", "c_name", "attributes",
	"examples", "count", "item_bytes"
};

/* nested: the attributes were streamed in already (on_attr); in m they
 * are an empty mapping. */
static const ddbc_node *read_entity(loader *L, const ddbc_pair *pair, ddbc_entity *e,
				    bool nested)
{
	enum { TABLE, DESCRIPTION, C_NAME, ATTRIBUTES, NFIELDS = 7 };
	_Static_assert(NFIELDS == countof(entity_fields), "a name for each field");
	const ddbc_node *f[NFIELDS];
	e->name = ddbc_load_name_of(L, pair->key);
	const ddbc_node *m = pair->value;
	if (!ddbc_load_expect_kind(L, m, DDBC_NODE_MAP, e->name.s))
		return NULL;
	ddbc_load_fields(L, m, "an entity", entity_fields, NFIELDS, f);
	e->table_ref = ddbc_load_name_field(L, m, f[TABLE], "table");
	if (!f[TABLE] && !ddbc_load_suggested(L, m, "table"))
		note_untabled(&L->untabled_entities, L->entities.n - 1);
	e->description = ddbc_load_name_field(L, m, f[DESCRIPTION], "description").s;
	e->c_name = ddbc_load_name_field(L, m, f[C_NAME], "c_name");
	ddbc_load_entity_figures(L->arena, L->d, m, e);
	const ddbc_node *attrs = ddbc_load_require_value(L, m, f[ATTRIBUTES], "attributes",
							 "an entity");
	if (nested)
		take_streamed_attrs(L, e);
	else if (attrs && ddbc_load_expect_kind(L, attrs, DDBC_NODE_MAP, "attributes")) {
		e->attrs = ddbc_arena_array(L->arena, attrs->n, sizeof(ddbc_attr));
		e->nattrs = attrs->n;
		for (size_t i = 0; i < attrs->n; i++)
			load_attr(L, &attrs->u.pairs[i], e, &e->attrs[i]);
	}
	return m;
}

/* An entity is incomplete when its own fields had an error: the names of
 * its attributes are then not all the file meant (an attribute read with
 * an error still has its name, and is marked itself). Its examples are
 * read after: a bad example item hides nothing else. */
static void load_entity(loader *L, const ddbc_pair *pair, ddbc_entity *e, bool nested)
{
	size_t before = L->d->n;
	e->count = e->item_bytes = &ddbc_figure_none;
	const ddbc_node *m = read_entity(L, pair, e, nested);
	e->incomplete = L->d->n > before;
	const ddbc_node *ex = m ? ddbc_node_get(m, "examples") : NULL;
	if (ex)
		load_examples(L, ex, e);
}

/* ---- access patterns ---------------------------------------------------------- */

static void load_cond(loader *L, const ddbc_pair *pair, ddbc_key_cond *c)
{
	static const char *const ops[] = { "eq", "lt", "le", "gt", "ge", "between",
					   "begins_with" };
	c->attr = ddbc_load_word_of(L, pair->key);
	ddbc_node *v = pair->value;
	c->op_loc = v->loc;
	if (v->kind == DDBC_NODE_SCALAR) {
		c->op = DDBC_COND_EQ;
		c->values = ddbc_arena_alloc(L->arena, sizeof(ddbc_node *));
		c->values[0] = ddbc_load_keep(L, v);
		c->nvalues = 1;
		return;
	}
	if (v->kind != DDBC_NODE_MAP || v->n != 1) {
		ddbc_load_schema(L, v->loc,
				 "the condition on '%s' must be a value or a mapping with one "
				 "operator (eq, lt, le, gt, ge, between, begins_with)", c->attr.s);
		return;
	}
	const ddbc_pair *op = &v->u.pairs[0];
	c->op_loc = op->key->loc;
	int found = -1;
	for (size_t i = 0; i < countof(ops); i++)
		if (!strcmp(op->key->u.text, ops[i]))
			found = (int)i;
	if (found < 0) {
		const char *hint = ddbc_suggest(op->key->u.text, ops, countof(ops));
		ddbc_load_schema(L, op->key->loc, "unknown operator '%s' on '%s'%s%s%s",
				 op->key->u.text,
				 c->attr.s, hint ? "; did you mean '" : "", hint ? hint : "",
				 hint ? "'?" : "");
		return;
	}
	c->op = (ddbc_cond_op)found;
	ddbc_node *arg = op->value;
	c->nvalues = arg->kind == DDBC_NODE_SEQ ? arg->n : 1;
	c->values = ddbc_arena_array(L->arena, c->nvalues, sizeof(ddbc_node *));
	for (size_t i = 0; i < c->nvalues; i++)
		c->values[i] = ddbc_load_keep(L,
					      arg->kind == DDBC_NODE_SEQ ? arg->u.items[i] : arg);
	for (size_t i = 0; i < c->nvalues; i++)
		if (c->values[i]->kind != DDBC_NODE_SCALAR)
			ddbc_load_schema(L, c->values[i]->loc,
					 "a key condition value must be a scalar, not %s",
					 ddbc_node_describe(c->values[i]));
}

static const char *const pattern_fields[] = {
	"description", "table", "index", "operation",
	"key", "order", "consistent_read", "returns",
	"entities", "example", "condition", "rate", "items",
	"limit"
};

static void read_pattern(loader *L, const ddbc_pair *pair, ddbc_pattern *p)
{
	static const char *const ops[] = { "get", "query", "scan", "put", "update", "delete" };
	static const char *const orders[] = { "asc", "desc" };
	enum { DESCRIPTION, TABLE, INDEX, OPERATION, KEY, ORDER, CONSISTENT_READ, RETURNS,
	       ENTITIES, EXAMPLE, CONDITION, RATE, ITEMS, LIMIT, NFIELDS };
	_Static_assert(NFIELDS == countof(pattern_fields), "a name for each field");
	const ddbc_node *f[NFIELDS];
	p->id = ddbc_load_name_of(L, pair->key);
	const ddbc_node *m = pair->value;
	if (!ddbc_load_expect_kind(L, m, DDBC_NODE_MAP, p->id.s))
		return;
	/* One pass over the mapping finds every field. */
	ddbc_load_fields(L, m, "an access pattern", pattern_fields, NFIELDS, f);
	p->description = ddbc_load_name_field(L, m, f[DESCRIPTION], "description").s;
	p->table_ref = ddbc_load_name_field(L, m, f[TABLE], "table");
	if (!f[TABLE] && !ddbc_load_suggested(L, m, "table"))
		note_untabled(&L->untabled_patterns, L->patterns.n - 1);
	p->index_ref = ddbc_load_name_field(L, m, f[INDEX], "index");
	const ddbc_node *op = ddbc_load_require_value(L, m, f[OPERATION], "operation",
						      "an access pattern");
	p->operation_loc = op ? op->loc : p->id.loc;
	size_t w;
	bool has_op = ddbc_load_word_in(L, f[OPERATION], "operation", ops, countof(ops), &w);
	p->operation = has_op ? (ddbc_operation)w : DDBC_OP_QUERY;
	const ddbc_node *key = f[KEY];
	p->key_loc = key ? key->loc : p->id.loc;
	if (key && ddbc_load_expect_kind(L, key, DDBC_NODE_MAP, "key")) {
		p->conds = ddbc_arena_array(L->arena, key->n, sizeof(ddbc_key_cond));
		p->nconds = key->n;
		for (size_t i = 0; i < key->n; i++)
			load_cond(L, &key->u.pairs[i], &p->conds[i]);
	} else if (!key && has_op && p->operation != DDBC_OP_SCAN &&
		   !ddbc_load_suggested(L, m, "key")) {
		ddbc_load_schema(L, m->loc,
				 "missing required field 'key' in access pattern '%s' (a %s "
				 "needs a key condition)", p->id.s, ops[w]);
	}
	size_t o;
	bool has_order = ddbc_load_word_in(L, f[ORDER], "order", orders, countof(orders), &o);
	p->order = !has_order ? 0 : o == 0 ? 1 : -1;
	if (has_order)
		p->order_loc = f[ORDER]->loc;
	ddbc_load_bool_of(L, f[CONSISTENT_READ], "consistent_read", &p->consistent_read,
			  &p->consistent_loc);
	const ddbc_node *ret = f[RETURNS];
	if (ret && ddbc_load_expect_kind(L, ret, DDBC_NODE_SEQ, "returns"))
		p->nreturns = ddbc_load_get_names(L, ret, "returns", &p->returns);
	const ddbc_node *ents = f[ENTITIES];
	if (ents && ddbc_load_expect_kind(L, ents, DDBC_NODE_SEQ, "entities")) {
		p->has_entities = true;
		p->entities_loc = ents->loc;
		p->nentities = ddbc_load_get_names(L, ents, "entities", &p->entities);
	}
	const ddbc_node *ex = f[EXAMPLE];
	if (ex && ddbc_load_expect_kind(L, ex, DDBC_NODE_MAP, "example"))
		p->example = ddbc_pval_pack(L->arena, ex);
	p->condition = ddbc_load_name_field(L, m, f[CONDITION], "condition").s;
	const ddbc_node *cond = f[CONDITION];
	p->condition_loc = cond ? cond->loc : p->id.loc;
	ddbc_load_rate(L->arena, L->d, m, p);
	ddbc_load_page_figures(L->arena, L->d, m, p);
}

static void load_pattern(loader *L, const ddbc_pair *pair, ddbc_pattern *p)
{
	size_t before = L->d->n;
	p->rate = p->items = p->limit = &ddbc_figure_none;
	read_pattern(L, pair, p);
	p->incomplete = L->d->n > before;
}

/* ---- the root -------------------------------------------------------------------- */

static void load_lint(loader *L, const ddbc_node *v)
{
	static const char *const fields[] = { "rules" };
	if (!ddbc_load_expect_kind(L, v, DDBC_NODE_MAP, "lint"))
		return;
	ddbc_load_check_known(L, v, "'lint'", fields, countof(fields));
	const ddbc_node *rules = ddbc_node_get(v, "rules");
	if (!rules || !ddbc_load_expect_kind(L, rules, DDBC_NODE_MAP, "rules"))
		return;
	for (size_t i = 0; i < rules->n; i++) {
		const ddbc_pair *p = &rules->u.pairs[i];
		ddbc_rule rule;
		if (ddbc_rule_find(p->key->u.text, &rule) < 0) {
			const char *hint = ddbc_rule_suggest(p->key->u.text);
			if (hint)
				ddbc_load_schema(L, p->key->loc,
						 "unknown rule '%s'; did you mean '%s'?",
						 p->key->u.text, hint);
			else
				ddbc_load_schema(L, p->key->loc,
						 "unknown rule '%s'; 'ddbc explain' lists "
						 "the rules", p->key->u.text);
			continue;
		}
		/* YAML 1.1 readers turn a plain `off` into false; accept that too. */
		ddbc_severity sev;
		bool b;
		if (ddbc_node_bool(p->value, &b) && !b) {
			sev = DDBC_SEV_OFF;
		} else if (p->value->kind != DDBC_NODE_SCALAR ||
			   ddbc_severity_parse(p->value->u.text, &sev) < 0) {
			ddbc_load_schema(L, p->value->loc,
					 "unknown severity for rule '%s'; use off, note, "
					 "warning or error", p->key->u.text);
			continue;
		}
		if (ddbc_rule_get(rule)->fixed) {
			ddbc_load_schema(L, p->key->loc,
					 "the severity of rule '%s' cannot be changed",
					 p->key->u.text);
			continue;
		}
		L->design->settings.sev[rule] = sev;
	}
}

static void load_version(loader *L, const ddbc_node *root)
{
	const ddbc_node *v = ddbc_load_require(L, root, "ddbc", "the design");
	if (!v)
		return;
	long long n;
	if (!ddbc_node_int(v, &n)) {
		ddbc_load_schema(L, v->loc, "'ddbc' must be the format version 1, not %s",
				 ddbc_node_describe(v));
		return;
	}
	L->design->version = n;
	if (n != 1)
		ddbc_load_schema(L, v->loc,
				 "unsupported format version %lld; this ddbc reads version 1", n);
}

static void load_key_delimiter(loader *L, const ddbc_node *root)
{
	ddbc_design *g = L->design;
	g->key_delimiter = "#";
	g->key_delimiter_loc = root->loc;
	const ddbc_node *v = ddbc_node_get(root, "key_delimiter");
	if (!v)
		return;
	g->key_delimiter_loc = v->loc;
	if (ddbc_load_expect_kind(L, v, DDBC_NODE_SCALAR, "key_delimiter") && v->n > 0 &&
	    v->scalar == DDBC_SCALAR_STR)
		g->key_delimiter = v->u.text;
	else if (v->kind == DDBC_NODE_SCALAR)
		ddbc_load_schema(L, v->loc, "'key_delimiter' must be a non-empty string");
}

/* ---- the sections -------------------------------------------------------------- */

/* The top-level sections, mappings keyed by name, are streamed: the
 * composer hands the loader one entry at a time (see ddbc_yaml_sink), in
 * file order, and forgets it after. */
static const char *const section_names[] = { "tables", "entities", "access_patterns" };

static void *next_entry(entries *list, size_t size)
{
	if (list->n == list->cap) {
		if (!list->arena)
			list->arena = ddbc_arena_new();
		list->cap = list->cap ? 2 * list->cap : 16;
		list->items = ddbc_arena_resize(list->arena, list->items, list->cap, size);
	}
	void *item = (char *)list->items + list->n++ * size;
	memset(item, 0, size);
	return item;
}

/* Inside each entity, its attributes are streamed too. */
static const char *const nested_names[] = { NULL, "attributes", NULL };

static void on_member(void *ctx, size_t section, const ddbc_pair *member)
{
	(void)section;  /* only entities have a nested mapping */
	on_attr(ctx, member);
}

static void on_entry(void *ctx, size_t section, const ddbc_pair *entry, bool nested)
{
	loader *L = ctx;
	switch (section) {
	case 0:
		load_table(L, entry, next_entry(&L->tables, sizeof(ddbc_table)));
		break;
	case 1:
		load_entity(L, entry, next_entry(&L->entities, sizeof(ddbc_entity)), nested);
		break;
	default:
		load_pattern(L, entry, next_entry(&L->patterns, sizeof(ddbc_pattern)));
		break;
	}
}

/* Gives a section's entries to the design's arena where they are, cut to
 * their number: a 20,000-entity design's entities and patterns were
 * 11 MiB copied once more. */
static void *settle(loader *L, entries *list, size_t size, size_t *n)
{
	*n = list->n;
	if (!list->arena)
		return ddbc_arena_array(L->arena, 0, size);
	void *items = ddbc_arena_resize(list->arena, list->items, list->n, size);
	ddbc_arena_adopt(L->arena, list->arena);
	list->arena = NULL;
	list->items = NULL;
	return items;
}

/* The parts that point back at their table or entity, once the arrays
 * have their final place. */
static void link_parents(ddbc_design *g)
{
	for (size_t i = 0; i < g->ntables; i++) {
		ddbc_table *t = &g->tables[i];
		t->primary.table = t;
		for (size_t k = 0; k < t->ngsi; k++)
			t->gsi[k].table = t;
		for (size_t k = 0; k < t->nlsi; k++)
			t->lsi[k].table = t;
	}
	for (size_t i = 0; i < g->nentities; i++)
		for (size_t k = 0; k < g->entities[i].nattrs; k++)
			g->entities[i].attrs[k].entity = &g->entities[i];
}

/* With several tables, every entity and pattern must say which. */
static void check_untabled(loader *L)
{
	ddbc_design *g = L->design;
	const size_t *ents = L->untabled_entities.items, *pats = L->untabled_patterns.items;
	for (size_t i = 0; g->ntables > 1 && i < L->untabled_entities.n; i++)
		ddbc_load_schema(L, g->entities[ents[i]].name.loc,
				 "missing required field 'table' in entity "
				 "'%s'; the design has %zu tables", g->entities[ents[i]].name.s,
				 g->ntables);
	for (size_t i = 0; g->ntables > 1 && i < L->untabled_patterns.n; i++)
		ddbc_load_schema(L, g->patterns[pats[i]].id.loc,
				 "missing required field 'table' in access "
				 "pattern '%s'; the design has %zu tables",
				 g->patterns[pats[i]].id.s, g->ntables);
}

static void finish_sections(loader *L, const ddbc_node *root)
{
	ddbc_design *g = L->design;
	g->tables = settle(L, &L->tables, sizeof(ddbc_table), &g->ntables);
	g->entities = settle(L, &L->entities, sizeof(ddbc_entity), &g->nentities);
	g->patterns = settle(L, &L->patterns, sizeof(ddbc_pattern), &g->npatterns);
	link_parents(g);
	check_untabled(L);
	for (size_t i = 0; i < countof(section_names); i++) {
		const ddbc_node *sec = ddbc_node_get(root, section_names[i]);
		if (sec && !ddbc_load_expect_kind(L, sec, DDBC_NODE_MAP, section_names[i]))
			g->incomplete = true;
	}
	const ddbc_node *tables = ddbc_node_get(root, "tables");
	if (tables && tables->kind == DDBC_NODE_MAP && tables->n == 0)
		ddbc_load_schema(L, tables->loc, "'tables' must define at least one table");
}

static const char *const root_fields[] = {
	"ddbc", "name", "description", "key_delimiter",
	"lint", "tables", "entities", "access_patterns",
	"pricing"
};

static void load_root(loader *L, const ddbc_node *root)
{
	ddbc_design *g = L->design;
	/* An absent section may hide under an unknown field like its name. */
	ddbc_load_check_known(L, root, "the design", root_fields, countof(root_fields));
	for (size_t i = 0; i < countof(section_names); i++)
		g->incomplete |= !ddbc_node_get(root, section_names[i]) &&
				 ddbc_load_suggested(L, root, section_names[i]);
	ddbc_load_require(L, root, "tables", "the design");
	load_version(L, root);
	if (ddbc_load_require(L, root, "name", "the design"))
		g->name = ddbc_load_get_name(L, root, "name");
	g->description = ddbc_load_get_text(L, root, "description");
	load_key_delimiter(L, root);
	const ddbc_node *lint = ddbc_node_get(root, "lint");
	if (lint)
		load_lint(L, lint);
	ddbc_load_pricing(L->arena, L->d, root, g);
	finish_sections(L, root);
}

static void release_entries(loader *L)
{
	free(L->words);
	free(L->texts);
	ddbc_arena_free(L->tables.arena);
	ddbc_arena_free(L->entities.arena);
	ddbc_arena_free(L->patterns.arena);
	free(L->untabled_entities.items);
	free(L->untabled_patterns.items);
}

ddbc_design *ddbc_load(const ddbc_source *src, ddbc_diags *d)
{
	ddbc_arena *arena = ddbc_arena_new();
	ddbc_design *g = ddbc_arena_alloc(arena, sizeof(*g));
	g->arena = arena;
	g->src = src;
	ddbc_settings_init(&g->settings);
	loader L = { .design = g, .arena = arena, .d = d };
	ddbc_yaml_sink sink = { section_names, countof(section_names), on_entry, &L,
				nested_names, on_member, ddbc_comments_new(src) };
	size_t before = d->n;
	ddbc_node *root = ddbc_yaml_load_streamed(arena, src, d, &sink);
	if (root && root->kind == DDBC_NODE_MAP && sink.comments)
		ddbc_comments_read(sink.comments, d);
	ddbc_comments_free(sink.comments);
	if (!root) {
		/* A file that is not YAML gets its syntax errors only: what the
		 * sink read before the error is not reported. */
		ddbc_diags_drop(d, before, DDBC_RULE_SCHEMA);
		release_entries(&L);
		ddbc_arena_free(arena);
		return NULL;
	}
	if (root->kind != DDBC_NODE_MAP) {
		/* Nothing of a design can be read from a list or a scalar. */
		ddbc_diag_add(d, DDBC_RULE_SCHEMA, root->loc,
			      "the design must be a mapping (starting with 'ddbc: 1'), not %s",
			      ddbc_node_describe(root));
		d->fatal = true;
		release_entries(&L);
		ddbc_arena_free(arena);
		return NULL;
	}
	g->root = root;
	load_root(&L, root);
	release_entries(&L);
	ddbc_design_index_entities(g);
	ddbc_resolve(g, d);
	return g;
}

const ddbc_field_list ddbc_design_fields[] = {
	{ "root", root_fields, countof(root_fields) },
	{ "table", table_fields, countof(table_fields) },
	{ "gsi", gsi_fields, countof(gsi_fields) },
	{ "lsi", lsi_fields, countof(lsi_fields) },
	{ "entity", entity_fields, countof(entity_fields) },
	{ "attribute", attr_fields, countof(attr_fields) },
	{ "access_pattern", pattern_fields, countof(pattern_fields) },
	{ NULL, NULL, 0 },
};
