/* rules/keys.c - key-attribute-type, key-type-conflict, entity-missing-key, gsi-key-arity,
 * workbench-multi-key, hot-partition, ttl-type, billing */
#include "rules/checks.h"
#include "rules/check_capacity.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

/* "table 'T'", "GSI 'X'" or "LSI 'Y'" appended to sb, for messages. */
static const char *index_label(const ddbc_index *ix, strbuf *sb)
{
	static const char *const kinds[] = { "table", "GSI", "LSI" };
	ddbc_strbuf_addf(sb, "%s '%s'", kinds[ix->kind], ix->name.s);
	return ddbc_strbuf_str(sb);
}

/* The first index of t (in slot order) that has name as a key attribute;
 * *partition tells whether as a partition key attribute. */
static const ddbc_index *first_index_keyed_by(const ddbc_table *t, const char *name,
					       bool *partition)
{
	for (size_t s = 0; s < t->nindexes; s++) {
		const ddbc_index *ix = t->indexes[s];
		if (!ddbc_index_has_key(ix, name))
			continue;
		*partition = false;
		for (size_t i = 0; i < ix->npk; i++)
			if (!strcmp(ix->pk[i].s, name))
				*partition = true;
		return ix;
	}
	return NULL;
}

/* Whether the j-th key attribute of the index in slot `slot` already
 * appeared as a key attribute, in an earlier index or earlier in this one. */
static bool seen_key(const ddbc_table *t, size_t slot, size_t j)
{
	const ddbc_index *ix = t->indexes[slot];
	const char *name = ddbc_index_key(ix, j);
	for (size_t k = 0; k < j; k++)
		if (!strcmp(ddbc_index_key(ix, k), name))
			return true;
	for (size_t s = 0; s < slot; s++)
		if (ddbc_index_has_key(t->indexes[s], name))
			return true;
	return false;
}

/* ---- key-attribute-type ------------------------------------------------------ */

static bool scalar_key_type(ddbc_type t)
{
	return t == DDBC_TYPE_S || t == DDBC_TYPE_N || t == DDBC_TYPE_B;
}

static void key_attribute_type(ddbc_diags *d, const ddbc_attr *a)
{
	bool partition = false;
	const ddbc_index *ix = first_index_keyed_by(a->entity->table, a->name.s, &partition);
	if (!ix)
		return;
	strbuf label = STRBUF_INIT;
	ddbc_diag_add(d, DDBC_RULE_KEY_ATTRIBUTE_TYPE, ddbc_attr_type_loc(a),
		      "'%s' is the %s key of %s but %s in '%s'; key attributes must be S, N or B",
		      a->name.s, partition ? "partition" : "sort", index_label(ix, &label),
		      ddbc_type_short(a->type), a->entity->name.s);
	ddbc_strbuf_release(&label);
}

void ddbc_check_key_attribute_type(const ddbc_design *g, ddbc_diags *d)
{
	/* Every entity that defines a key attribute must give it a key type:
	 * DynamoDB rejects the write of an item whose key has another type. */
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		for (size_t k = 0; e->table && k < e->nattrs; k++) {
			const ddbc_attr *a = &e->attrs[k];
			if (a->is_key && a->type != DDBC_TYPE_NONE && !scalar_key_type(a->type))
				key_attribute_type(d, a);
		}
	}
}

/* ---- key-type-conflict ----------------------------------------------------------- */

/* Reports every entity of t after the first that gives key attribute name
 * a type other than the first one's. */
static void conflicts_of(ddbc_diags *d, const ddbc_table *t, const char *name)
{
	const ddbc_attr *first = NULL;
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_attr *a = ddbc_entity_stored_attr(t->entities[i], name);
		if (!a || a->type == DDBC_TYPE_NONE)
			continue;
		if (!first) {
			first = a;
			continue;
		}
		if (a->type == first->type)
			continue;
		ddbc_diag_add(d, DDBC_RULE_KEY_TYPE_CONFLICT, ddbc_attr_type_loc(a),
			      "attribute '%s' is %s in '%s' but %s in '%s'; key attributes must "
			      "have one type per table", name, ddbc_type_short(first->type),
			      first->entity->name.s, ddbc_type_short(a->type), a->entity->name.s);
	}
}

void ddbc_check_key_type_conflict(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t s = 0; s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			/* Each key attribute once, even if several indexes use it. */
			for (size_t j = 0; j < ix->npk + ix->nsk; j++)
				if (!seen_key(t, s, j))
					conflicts_of(d, t, ddbc_index_key(ix, j));
		}
	}
}

/* ---- entity-missing-key ------------------------------------------------------------- */

/* The entity must store key attribute name (what: "partition" or "sort"). */
static void missing_key(ddbc_diags *d, const ddbc_entity *e, const char *name, const char *what)
{
	const ddbc_attr *a = ddbc_entity_attr(e, name);
	if (!a)
		ddbc_diag_add(d, DDBC_RULE_ENTITY_MISSING_KEY, e->name.loc,
			      "entity '%s' does not define '%s', the %s key of table '%s'; every "
			      "item needs it", e->name.s, name, what, e->table->name.s);
	else if (a->not_stored)
		ddbc_diag_add(d, DDBC_RULE_ENTITY_MISSING_KEY, a->name.loc,
			      "'%s' of entity '%s' has 'stored: false', but it is the %s key of "
			      "table '%s' and every item holds it; remove 'stored: false'", name,
			      e->name.s, what, e->table->name.s);
}

void ddbc_check_entity_missing_key(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		/* Attributes or a key not read whole: the key may be there. */
		if (!e->table || e->incomplete || e->table->primary.incomplete)
			continue;
		/* A key attribute no entity declares is index-key-unknown's. */
		const ddbc_index *p = &e->table->primary;
		for (size_t k = 0; k < p->npk; k++)
			if (p->key_declared[k])
				missing_key(d, e, p->pk[k].s, "partition");
		for (size_t k = 0; k < p->nsk; k++)
			if (p->key_declared[p->npk + k])
				missing_key(d, e, p->sk[k].s, "sort");
	}
}

/* ---- optional-table-key ----------------------------------------------------------- */

/* `required: false` or `present:` on key attribute a of e's table (what:
 * "partition" or "sort"): every item holds its table's key, so the
 * field cannot hold; reported at its value rather than read as required
 * without a word. (On a GSI's or LSI's key it makes the index sparse.) */
static void optional_key(ddbc_diags *d, const ddbc_entity *e, const char *name, const char *what)
{
	const ddbc_attr *a = ddbc_entity_attr(e, name);
	if (!a || a->incomplete)
		return;
	if (ddbc_attr_optional(a))
		ddbc_diag_add(d, DDBC_RULE_OPTIONAL_TABLE_KEY, a->more->optional_loc,
			      "'%s' of entity '%s' has 'required: false', but it is the %s key of "
			      "table '%s' and every item holds it; remove 'required: false'", name,
			      e->name.s, what, e->table->name.s);
	if (a->more->present->set)
		ddbc_diag_add(d, DDBC_RULE_OPTIONAL_TABLE_KEY, a->more->present->loc,
			      "'%s' of entity '%s' has 'present: %s', but it is the %s key of "
			      "table '%s' and every item holds it; remove 'present'", name,
			      e->name.s, a->more->present->text, what, e->table->name.s);
}

void ddbc_check_optional_table_key(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		if (!e->table || e->table->primary.incomplete)
			continue;
		const ddbc_index *p = &e->table->primary;
		for (size_t k = 0; k < p->npk; k++)
			optional_key(d, e, p->pk[k].s, "partition");
		for (size_t k = 0; k < p->nsk; k++)
			optional_key(d, e, p->sk[k].s, "sort");
	}
}

/* ---- gsi-key-arity ----------------------------------------------------------------- */

/* DynamoDB's limit on the attributes of each part of a multi-attribute
 * GSI key (4 partition + 4 sort, since November 2025). */
enum { GSI_KEY_PART_MAX = 4 };

static void arity(ddbc_diags *d, const ddbc_index *ix, const ddbc_name *names, size_t n,
		  const char *part)
{
	if (n <= GSI_KEY_PART_MAX)
		return;
	ddbc_diag_add(d, DDBC_RULE_GSI_KEY_ARITY, names[GSI_KEY_PART_MAX].loc,
		      "GSI '%s' has %zu %s key attributes; DynamoDB allows at most %d, so "
		      "combine some into one attribute", ix->name.s, n, part, GSI_KEY_PART_MAX);
}

static bool in_names(const ddbc_name *names, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i].s, s))
			return true;
	return false;
}

/* Reports names[i] of one part of ix's key (part: "partition" or "sort")
 * when the same attribute came earlier in that part or, for the sort
 * part, in the partition part: DynamoDB rejects a key schema that names
 * one attribute twice. */
static void twice(ddbc_diags *d, const ddbc_index *ix, const ddbc_name *names, size_t i,
		  const char *part)
{
	strbuf sb = STRBUF_INIT;
	const char *label = index_label(ix, &sb);
	if (in_names(names, i, names[i].s))
		ddbc_diag_add(d, DDBC_RULE_GSI_KEY_ARITY, names[i].loc,
			      "'%s' appears twice in the %s key of %s; use each attribute "
			      "once", names[i].s, part, label);
	else if (!strcmp(part, "sort") && in_names(ix->pk, ix->npk, names[i].s))
		ddbc_diag_add(d, DDBC_RULE_GSI_KEY_ARITY, names[i].loc,
			      "'%s' is both a partition and a sort key attribute of %s; use "
			      "each attribute once", names[i].s, label);
	ddbc_strbuf_release(&sb);
}

static void duplicates(ddbc_diags *d, const ddbc_index *ix)
{
	/* An LSI's partition key is the table's own, checked there. */
	if (ix->kind != DDBC_INDEX_LSI)
		for (size_t i = 0; i < ix->npk; i++)
			twice(d, ix, ix->pk, i, "partition");
	for (size_t i = 0; i < ix->nsk; i++)
		twice(d, ix, ix->sk, i, "sort");
}

void ddbc_check_gsi_key_arity(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t s = 0; s < t->nindexes; s++) {
			const ddbc_index *ix = t->indexes[s];
			if (ix->kind == DDBC_INDEX_GSI) {
				arity(d, ix, ix->pk, ix->npk, "partition");
				arity(d, ix, ix->sk, ix->nsk, "sort");
			}
			duplicates(d, ix);
		}
	}
}

/* ---- workbench-multi-key ------------------------------------------------------------ */

/* A NoSQL Workbench model (its KeyAttributes) has one PartitionKey and one
 * SortKey object per index, each naming one attribute: a multi-attribute
 * GSI key has no place in it, and `export --format workbench` refuses the
 * table. Only a design meant for Workbench must avoid one, so this is a
 * note unless the design says it goes there (lint --target workbench, or
 * the rule set to error); the export itself raises it to an error. It is
 * reported at the first attribute the model has no room for. */
void ddbc_check_workbench_multi_key(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		for (size_t k = 0; k < t->ngsi; k++) {
			const ddbc_index *ix = &t->gsi[k];
			bool pk = ix->npk > 1;
			/* Over DynamoDB's own limit, gsi-key-arity's error says it all. */
			if ((!pk && ix->nsk <= 1) || ix->npk > GSI_KEY_PART_MAX ||
			    ix->nsk > GSI_KEY_PART_MAX)
				continue;
			strbuf parts = STRBUF_INIT;
			if (pk)
				ddbc_strbuf_addf(&parts, "%zu partition", ix->npk);
			if (ix->nsk > 1)
				ddbc_strbuf_addf(&parts, "%s%zu sort", pk ? " and " : "", ix->nsk);
			ddbc_diag_add(d, DDBC_RULE_WORKBENCH_MULTI_KEY, pk ? ix->pk[1].loc : ix->sk[1].loc,
				      "GSI '%s' has %s key attributes; a NoSQL Workbench model "
				      "holds one attribute a key, so export --format workbench "
				      "refuses table '%s'", ix->name.s, ddbc_strbuf_str(&parts), t->name.s);
			ddbc_strbuf_release(&parts);
		}
	}
}

/* ---- hot-partition ---------------------------------------------------------------- */

/* Up to this many distinct values, a partition key concentrates a table's
 * traffic on a few partitions (the AWS100本ノック article: a Status of two
 * values). */
enum { HOT_MAX_VALUES = 10 };

/* How many values attribute a can hold when that is few: 2 for BOOL, the
 * enum's size, or for a template the product over its placeholders; 0
 * when it can hold many (or HOT_MAX_VALUES is exceeded). */
static size_t value_count(const ddbc_attr *a, unsigned depth)
{
	if (a->type == DDBC_TYPE_BOOL)
		return 2;
	if (a->type == DDBC_TYPE_NULL)
		return 1;
	if (a->more->nenum > 0)
		return a->more->nenum <= HOT_MAX_VALUES ? a->more->nenum : 0;
	if (!a->has_template || a->in_cycle || depth > 16)
		return 0;
	size_t n = 1;
	for (size_t k = 0; k < a->tpl.nsegs && n; k++) {
		const ddbc_segment *seg = &a->tpl.segs[k];
		if (seg->kind != DDBC_SEG_PLACEHOLDER)
			continue;
		size_t m = seg->ref ? value_count(seg->ref, depth + 1) : 0;
		n = m && n * m <= HOT_MAX_VALUES ? n * m : 0;
	}
	return n;
}

/* Why value_count found few values, for the message. */
static const char *few_values_reason(const ddbc_attr *a)
{
	if (a->type == DDBC_TYPE_BOOL)
		return "it is BOOL";
	if (a->type == DDBC_TYPE_NULL)
		return "it is NULL";
	if (a->more->nenum > 0)
		return "its enum";
	return "its template draws only on BOOL and enum attributes";
}

/* Whether a's template has no placeholder: a constant key. */
static bool constant_template(const ddbc_attr *a)
{
	for (size_t k = 0; k < a->tpl.nsegs; k++)
		if (a->tpl.segs[k].kind == DDBC_SEG_PLACEHOLDER)
			return false;
	return true;
}

static void hot_partition(ddbc_diags *d, const ddbc_table *t, const ddbc_name *pk)
{
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_attr *a = ddbc_entity_attr(t->entities[i], pk->s);
		/* A constant key is a deliberate singleton or collection, not a
		 * value drawn from a small set. */
		if (!a || (a->has_template && constant_template(a)))
			continue;
		size_t n = value_count(a, 0);
		if (n == 0)
			continue;
		ddbc_diag_add(d, DDBC_RULE_HOT_PARTITION, pk->loc,
			      "partition key '%s' of table '%s' can hold only %zu value%s in "
			      "'%s' (%s); its items crowd into a few hot partitions, so key the "
			      "table by an attribute with many values and query this one through "
			      "a GSI", pk->s, t->name.s, n, n == 1 ? "" : "s", a->entity->name.s,
			      few_values_reason(a));
		return;  /* one finding per table: its partition key is one place */
	}
}

/* ddbc_hot_values_fn: a constant key is one value. */
static size_t hot_values(const ddbc_attr *a, const char **why)
{
	if (a->has_template && !a->in_cycle && constant_template(a)) {
		*why = "its template is a constant";
		return 1;
	}
	size_t n = value_count(a, 0);
	*why = few_values_reason(a);
	return n;
}

void ddbc_check_hot_partition(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_hot_partition_rates(g, d, hot_values);
	for (size_t i = 0; i < g->ntables; i++) {
		const ddbc_table *t = &g->tables[i];
		if (t->primary.npk == 1)
			hot_partition(d, t, &t->primary.pk[0]);
	}
}

/* ---- ttl-type ---------------------------------------------------------------------- */

/* Reports the first entity of t whose TTL attribute is not a Number, and
 * how many more there are: every finding would point at the same 'ttl'. */
static void ttl_type(ddbc_diags *d, const ddbc_table *t)
{
	const ddbc_attr *first = NULL;
	size_t more = 0;
	for (size_t k = 0; k < t->nentities; k++) {
		const ddbc_attr *a = ddbc_entity_stored_attr(t->entities[k], t->ttl.s);
		if (!a || a->type == DDBC_TYPE_NONE || a->type == DDBC_TYPE_N)
			continue;
		if (first)
			more++;
		else
			first = a;
	}
	if (!first)
		return;
	char others[64] = "";
	if (more)
		snprintf(others, sizeof(others), " (and %zu more entit%s)", more,
			 more == 1 ? "y" : "ies");
	ddbc_diag_add(d, DDBC_RULE_TTL_TYPE, t->ttl.loc,
		      "TTL attribute '%s' of table '%s' is %s in '%s'%s; DynamoDB expires only "
		      "items whose TTL attribute is a Number of epoch seconds, so make it N",
		      t->ttl.s, t->name.s, ddbc_type_short(first->type), first->entity->name.s,
		      others);
}

void ddbc_check_ttl_type(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++)
		if (g->tables[i].ttl.s)
			ttl_type(d, &g->tables[i]);
}

/* ---- billing ------------------------------------------------------------------------ */

static void billing_of(ddbc_diags *d, const ddbc_table *t)
{
	if (t->incomplete)
		return;
	if (t->billing == DDBC_BILLING_PROVISIONED) {
		if (!t->capacity.set)
			ddbc_diag_add(d, DDBC_RULE_BILLING, t->billing_loc,
				      "table '%s' is provisioned but sets no capacity; add "
				      "'capacity: { read: N, write: N }'", t->name.s);
		return;
	}
	if (t->capacity.set)
		ddbc_diag_add(d, DDBC_RULE_BILLING, t->capacity.loc,
			      "table '%s' is billed on demand, which takes no capacity; remove "
			      "'capacity' or set 'billing: provisioned'", t->name.s);
	for (size_t k = 0; k < t->ngsi; k++)
		if (t->gsi[k].capacity.set)
			ddbc_diag_add(d, DDBC_RULE_BILLING, t->gsi[k].capacity.loc,
				      "GSI '%s' sets capacity but table '%s' is billed on "
				      "demand; remove 'capacity' or set 'billing: provisioned' "
				      "on the table", t->gsi[k].name.s, t->name.s);
}

void ddbc_check_billing(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->ntables; i++)
		billing_of(d, &g->tables[i]);
}
