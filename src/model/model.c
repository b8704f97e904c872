/* model.c - names of the model's enums, lookups, release */
#include "model/model.h"
#include "util/strset.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *short_name, *long_name;
} type_names[] = {
	[DDBC_TYPE_NONE] = { "?", "?" },
	[DDBC_TYPE_S] = { "S", "String" },
	[DDBC_TYPE_N] = { "N", "Number" },
	[DDBC_TYPE_B] = { "B", "Binary" },
	[DDBC_TYPE_BOOL] = { "BOOL", "Boolean" },
	[DDBC_TYPE_NULL] = { "NULL", "Null" },
	[DDBC_TYPE_M] = { "M", "Map" },
	[DDBC_TYPE_L] = { "L", "List" },
	[DDBC_TYPE_SS] = { "SS", "StringSet" },
	[DDBC_TYPE_NS] = { "NS", "NumberSet" },
	[DDBC_TYPE_BS] = { "BS", "BinarySet" },
};

const char *ddbc_type_short(ddbc_type t)
{
	return type_names[t].short_name;
}

const char *ddbc_type_long(ddbc_type t)
{
	return type_names[t].long_name;
}

static const char *const stream_words[][2] = {
	{ "none", "NONE" }, { "keys_only", "KEYS_ONLY" }, { "new_image", "NEW_IMAGE" },
	{ "old_image", "OLD_IMAGE" }, { "new_and_old_images", "NEW_AND_OLD_IMAGES" },
};

const char *ddbc_stream_word(ddbc_stream s)
{
	return stream_words[s][0];
}

const char *ddbc_stream_view_type(ddbc_stream s)
{
	return stream_words[s][1];
}

int ddbc_type_parse(const char *s, ddbc_type *out)
{
	for (int t = DDBC_TYPE_S; t <= DDBC_TYPE_BS; t++) {
		if (!strcmp(s, type_names[t].short_name) ||
		    !strcasecmp(s, type_names[t].long_name)) {
			*out = (ddbc_type)t;
			return 0;
		}
	}
	if (!strcasecmp(s, "Bool")) {
		*out = DDBC_TYPE_BOOL;
		return 0;
	}
	return -1;
}

const char *ddbc_role_name(ddbc_role r)
{
	static const char *const names[] = { "absent", "partition_key", "sort_key", "projected" };
	return names[r];
}

const char *ddbc_operation_name(ddbc_operation op)
{
	static const char *const names[] = { "get", "query", "scan", "put", "update", "delete" };
	return names[op];
}

const char *ddbc_cond_op_name(ddbc_cond_op op)
{
	static const char *const names[] = { "eq", "lt", "le", "gt", "ge", "between",
					     "begins_with" };
	return names[op];
}

void ddbc_design_free(ddbc_design *design)
{
	if (!design)
		return;
	ddbc_arena *arena = design->arena;
	/* The design itself lives in its arena. */
	ddbc_arena_free(arena);
}

static int by_name(const void *pa, const void *pb)
{
	const ddbc_entity *a = *(ddbc_entity *const *)pa, *b = *(ddbc_entity *const *)pb;
	return strcmp(a->name.s, b->name.s);
}

/* A hash table of names: open addressing over a power-of-two number of
 * slots, each 0 (empty) or a position + 1, at most half full. The names
 * are the ddbc_name at the start of each of n structs stride bytes apart
 * (ddbc_attr and ddbc_table begin with theirs). */
typedef struct name_slots {
	uint32_t *slots;
	uint32_t mask;
} name_slots;

static const char *name_at(const void *base, size_t stride, size_t i)
{
	return ((const ddbc_name *)(const void *)((const char *)base + i * stride))->s;
}

/* The slot where a lookup of the len bytes at name starts. */
static uint32_t home_slot_n(uint32_t mask, const char *name, size_t len)
{
	uint64_t h = ddbc_hash64(name, len);
	return (uint32_t)(h ^ (h >> 32)) & mask;
}

static uint32_t home_slot(uint32_t mask, const char *name)
{
	return home_slot_n(mask, name, strlen(name));
}

/* Every attribute and table has a name (the loader takes it from the
 * key), and no two have the same: the composer drops repeated keys. Names
 * that only differ after a NUL (a quoted "\0") compare equal here, as
 * they do for a lookup's argument: the first in file order is kept, so a
 * lookup finds it, as a scan would. */
static name_slots index_names(ddbc_arena *arena, const void *base, size_t stride, size_t n)
{
	name_slots ns = { NULL, 0 };
	if (n >= UINT32_MAX / 4)
		return ns;
	size_t cap = 8;
	while (cap < 2 * n)
		cap *= 2;
	ns.slots = ddbc_arena_array(arena, cap, sizeof(uint32_t));
	ns.mask = (uint32_t)(cap - 1);
	for (size_t i = 0; i < n; i++) {
		const char *name = name_at(base, stride, i);
		uint32_t k = home_slot(ns.mask, name);
		while (ns.slots[k] && strcmp(name_at(base, stride, ns.slots[k] - 1), name))
			k = (k + 1) & ns.mask;
		if (!ns.slots[k])
			ns.slots[k] = (uint32_t)i + 1;
	}
	return ns;
}

/* The position of name among the n structs at base, or -1. */
static long find_name(const name_slots *ns, const void *base, size_t stride, const char *name)
{
	for (uint32_t k = home_slot(ns->mask, name); ns->slots[k]; k = (k + 1) & ns->mask) {
		const char *s = name_at(base, stride, ns->slots[k] - 1);
		if (s[0] == name[0] && !strcmp(s, name))
			return (long)ns->slots[k] - 1;
	}
	return -1;
}

#define ATTRS_SCANNED 16

void ddbc_design_index_entities(ddbc_design *design)
{
	size_t n = design->nentities;
	for (size_t i = 0; i < n; i++) {
		ddbc_entity *e = &design->entities[i];
		/* A few names are found as fast by a scan (ddbc_entity_attr's,
		 * which also finds the first of a name) as through a table of
		 * slots, which cost 128 bytes of every entity of ten attributes. */
		if (e->nattrs <= ATTRS_SCANNED)
			continue;
		name_slots ns = index_names(design->arena, e->attrs, sizeof(ddbc_attr), e->nattrs);
		e->attr_slots = ns.slots;
		e->attr_mask = ns.mask;
	}
	name_slots ts = index_names(design->arena, design->tables, sizeof(ddbc_table),
				    design->ntables);
	design->table_slots = ts.slots;
	design->table_mask = ts.mask;
	design->entities_by_name = ddbc_arena_array(design->arena, n, sizeof(ddbc_entity *));
	for (size_t i = 0; i < n; i++)
		design->entities_by_name[i] = &design->entities[i];
	qsort(design->entities_by_name, n, sizeof(ddbc_entity *), by_name);
}

ddbc_table *ddbc_design_table(const ddbc_design *design, const char *name)
{
	if (design->table_slots) {
		name_slots ns = { design->table_slots, design->table_mask };
		long i = find_name(&ns, design->tables, sizeof(ddbc_table), name);
		return i < 0 ? NULL : &design->tables[i];
	}
	for (size_t i = 0; i < design->ntables; i++)
		if (!strcmp(design->tables[i].name.s, name))
			return &design->tables[i];
	return NULL;
}

ddbc_entity *ddbc_design_entity(const ddbc_design *design, const char *name)
{
	if (!design->entities_by_name) {
		for (size_t i = 0; i < design->nentities; i++)
			if (!strcmp(design->entities[i].name.s, name))
				return &design->entities[i];
		return NULL;
	}
	size_t lo = 0, hi = design->nentities;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = strcmp(design->entities_by_name[mid]->name.s, name);
		if (r == 0)
			return design->entities_by_name[mid];
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const ddbc_figure ddbc_figure_none;
const ddbc_attr_more ddbc_attr_more_none = { .present = &ddbc_figure_none };
const ddbc_attr_text ddbc_attr_text_none;
_Static_assert(sizeof(void *) != 8 || sizeof(ddbc_attr) == 96,
	       "a hundred thousand attributes: keep ddbc_attr without holes");

ddbc_attr_more *ddbc_attr_more_of(ddbc_arena *arena, ddbc_attr *a)
{
	if (a->more && a->more != &ddbc_attr_more_none)
		return (ddbc_attr_more *)a->more;
	ddbc_attr_more *m = ddbc_arena_alloc(arena, sizeof(*m));
	m->present = &ddbc_figure_none;
	a->more = m;
	return m;
}

ddbc_loc ddbc_attr_type_loc(const ddbc_attr *a)
{
	if (a->type_far)
		return a->more->type_loc;
	ddbc_loc loc = { a->name.loc.line + a->type_dline, a->type_column };
	return loc;
}

void ddbc_attr_set_type_loc(ddbc_arena *arena, ddbc_attr *a, ddbc_loc loc)
{
	unsigned dline = loc.line - a->name.loc.line;
	a->type_far = loc.line < a->name.loc.line || dline > UINT16_MAX ||
		      loc.column > UINT16_MAX;
	if (a->type_far) {
		ddbc_attr_more_of(arena, a)->type_loc = loc;
		return;
	}
	a->type_dline = (uint16_t)dline;
	a->type_column = (uint16_t)loc.column;
}

uint8_t *ddbc_attr_roles(const ddbc_attr *a)
{
	const ddbc_entity *e = a->entity;
	/* An attribute outside its entity's array (a copy) has no row. */
	if (!e || !e->roles || a < e->attrs || a >= e->attrs + e->nattrs)
		return NULL;
	return e->roles + (size_t)(a - e->attrs) * e->table->nindexes;
}

ddbc_attr *ddbc_entity_attr(const ddbc_entity *entity, const char *name)
{
	if (!entity->attr_slots) {
		/* The first byte settles most of the names passed over. */
		for (size_t i = 0; i < entity->nattrs; i++) {
			const char *s = entity->attrs[i].name.s;
			if (s && s[0] == name[0] && !strcmp(s, name))
				return &entity->attrs[i];
		}
		return NULL;
	}
	name_slots ns = { entity->attr_slots, entity->attr_mask };
	long i = find_name(&ns, entity->attrs, sizeof(ddbc_attr), name);
	return i < 0 ? NULL : &entity->attrs[i];
}

/* Whether NUL-terminated s is the len bytes at name. */
static bool is_name_n(const char *s, const char *name, size_t len)
{
	return s[0] == name[0] && !strncmp(s, name, len) && s[len] == '\0';
}

ddbc_attr *ddbc_entity_attr_n(const ddbc_entity *entity, const char *name, size_t len)
{
	if (!entity->attr_slots) {
		for (size_t i = 0; i < entity->nattrs; i++) {
			const char *s = entity->attrs[i].name.s;
			if (s && is_name_n(s, name, len))
				return &entity->attrs[i];
		}
		return NULL;
	}
	uint32_t mask = entity->attr_mask;
	for (uint32_t k = home_slot_n(mask, name, len); entity->attr_slots[k]; k = (k + 1) & mask) {
		ddbc_attr *a = &entity->attrs[entity->attr_slots[k] - 1];
		if (is_name_n(a->name.s, name, len))
			return a;
	}
	return NULL;
}

ddbc_attr *ddbc_entity_attr_next(const ddbc_entity *entity, ddbc_attr_walk *w, const char *name)
{
	/* While the item's keys so far were the entity's first attributes in
	 * order, none of those has this name (a mapping's keys differ), so the
	 * next attribute, if it has it, is the first of that name. */
	if (w->run == w->pairs++ && w->run < entity->nattrs) {
		const char *s = entity->attrs[w->run].name.s;
		if (s && s[0] == name[0] && !strcmp(s, name))
			return &entity->attrs[w->run++];
	}
	return ddbc_entity_attr(entity, name);
}

static bool names_have(const ddbc_name *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (names[i].s && !strcmp(names[i].s, s))
			return true;
	return false;
}

bool ddbc_attr_stored(const ddbc_attr *a)
{
	if (!a->not_stored)
		return true;
	const ddbc_table *t = a->entity ? a->entity->table : NULL;
	return t && (names_have(t->primary.pk, t->primary.npk, a->name.s) ||
		     names_have(t->primary.sk, t->primary.nsk, a->name.s));
}

ddbc_attr *ddbc_entity_stored_attr(const ddbc_entity *entity, const char *name)
{
	ddbc_attr *a = ddbc_entity_attr(entity, name);
	return a && ddbc_attr_stored(a) ? a : NULL;
}

bool ddbc_table_stores(const ddbc_table *t, const char *name)
{
	for (size_t i = 0; i < t->nentities; i++)
		if (ddbc_entity_stored_attr(t->entities[i], name))
			return true;
	return false;
}

ddbc_index *ddbc_table_index(const ddbc_table *table, const char *name)
{
	for (size_t i = 0; i < table->ngsi; i++)
		if (!strcmp(table->gsi[i].name.s, name))
			return &table->gsi[i];
	for (size_t i = 0; i < table->nlsi; i++)
		if (!strcmp(table->lsi[i].name.s, name))
			return &table->lsi[i];
	return NULL;
}

bool ddbc_table_declares_unstored(const ddbc_table *t, const char *name)
{
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_attr *a = ddbc_entity_attr(t->entities[i], name);
		if (a && a->not_stored)
			return true;
	}
	return false;
}
