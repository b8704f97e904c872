/* header_plan.c - deciding the header's identifiers and builders
 *
 * The walks over the identifiers are here; what they find, two things with
 * one identifier, is header_plan_unique.c's to keep and report.
 */
#include "model/header_plan_unique.h"
#include "util/error.h"
#include "model/expr_names.h"
#include "model/reserved.h"
#include "util/strbuf.h"
#include "util/strset.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expansion depth of nested templates; cycles are reported by the rules,
 * this only bounds the walk on a design that was not checked. */
#define MAX_DEPTH 16

/* ---- the prefix ---------------------------------------------------------------- */

/* The prefix the design's name gives; NULL (reported, unless the name is
 * missing, which is a schema finding) when it gives none. */
static const char *name_prefix(planner *p)
{
	const char *name = p->g->name.s;
	const char *prefix = name ? ddbc_hplan_ident(p->plan->arena, name, true) : NULL;
	if (prefix && !(prefix[0] >= '0' && prefix[0] <= '9'))
		return prefix;
	if (name)
		ddbc_diag_add(p->d, DDBC_RULE_HEADER_NAME, p->g->name.loc,
			      "design name '%s' gives no C identifier for the header's prefix; "
			      "put ASCII letters in the name, or pass a prefix to 'ddbc header' "
			      "with --prefix ID", name);
	p->findings = true;
	return NULL;
}

static ddbc_plan_result plan_prefix(planner *p, const char *given)
{
	ddbc_header_plan *plan = p->plan;
	const char *prefix = given;
	if (given && !ddbc_header_prefix_usable(given)) {
		ddbc_err_add(p->err, NULL, "the header prefix '%s' is not a usable C identifier",
			     given);
		return DDBC_PLAN_FAILED;
	}
	if (!given && !(prefix = name_prefix(p))) {
		/* Collisions do not depend on the prefix: a check goes on
		 * with a stand-in and reports them in the same run. */
		if (!p->lenient)
			return DDBC_PLAN_FINDINGS;
		prefix = "DDBC";
	}
	const char *upper = ddbc_hplan_upper(plan->arena, prefix);
	plan->prefix = upper;
	plan->prefix_lower = ddbc_hplan_lower(plan->arena, upper);
	plan->prefix_hash = ddbc_hplan_hash(DDBC_HPLAN_START, upper, strlen(upper), false);
	plan->prefix_lower_hash = ddbc_hplan_hash(DDBC_HPLAN_START, plan->prefix_lower,
						  strlen(plan->prefix_lower), false);
	plan->guard = ddbc_hplan_concat(plan->arena, upper, "_DDBC_H", NULL);
	return DDBC_PLAN_OK;
}

/* ---- tables and entities ------------------------------------------------------- */

/* The identifier part of a c_name (whose = "entity 'E'" or "attribute 'A'
 * of entity 'E'"); NULL (reported, when d is given) when there is none. */
static const char *c_name_ident(ddbc_arena *arena, ddbc_diags *d, ddbc_name c,
				const char *whose)
{
	if (!ddbc_hplan_is_c_identifier(c.s)) {
		if (d)
			ddbc_diag_add(d, DDBC_RULE_HEADER_NAME, c.loc,
				      "c_name '%s' of %s is not a C identifier; write ASCII "
				      "letters, digits and '_', not starting with a digit", c.s,
				      whose);
		return NULL;
	}
	const char *id = ddbc_hplan_ident(arena, c.s, true);
	if (!id && d)
		ddbc_diag_add(d, DDBC_RULE_HEADER_NAME, c.loc,
			      "c_name '%s' of %s has no letter or digit; name it in C with letters",
			      c.s, whose);
	return id;
}

/* The entity's identifier part from c_name or its name; NULL (reported)
 * when there is none. */
static const char *entity_ident(planner *p, const ddbc_entity *e)
{
	ddbc_arena *arena = p->plan->arena;
	if (e->c_name.s) {
		char whose[64 + 16];
		snprintf(whose, sizeof whose, "entity '%.64s'", e->name.s);
		return c_name_ident(arena, p->d, e->c_name, whose);
	}
	const char *id = ddbc_hplan_ident(arena, e->name.s, true);
	if (id)
		return ddbc_hplan_short(p->plan, id);
	/* An entity read with an error may have a c_name misspelt. */
	if (!e->incomplete)
		ddbc_diag_add(p->d, DDBC_RULE_HEADER_NAME, e->name.loc,
			      "entity '%s' gives no C identifier: the header keeps only ASCII "
			      "letters and digits of names; set c_name, e.g. 'c_name: Item'",
			      e->name.s);
	return id;
}

/* The attribute's identifier part from c_name or its name; NULL (reported
 * while names are checked) when there is none. */
static const char *attr_ident(planner *p, const ddbc_hentity *he, const ddbc_attr *a)
{
	ddbc_arena *arena = p->plan->scratch;
	if (a->more->c_name) {
		strbuf whose = STRBUF_INIT;
		ddbc_strbuf_addf(&whose, "attribute '%s' of entity '%s'", a->name.s,
			    he->entity->name.s);
		const char *id = c_name_ident(arena, p->d, *a->more->c_name, ddbc_strbuf_str(&whose));
		ddbc_strbuf_release(&whose);
		return id;
	}
	const char *id = ddbc_hplan_ident(arena, a->name.s, true);
	if (!id && p->d && !a->incomplete)
		ddbc_diag_add(p->d, DDBC_RULE_HEADER_NAME, a->name.loc,
			      "attribute '%s' of entity '%s' gives no C identifier: the header "
			      "keeps only ASCII letters and digits of names; set c_name, e.g. "
			      "'c_name: displayName'", a->name.s, he->entity->name.s);
	return id;
}

const char *ddbc_header_enum_type(const ddbc_header_plan *plan, ddbc_arena *arena,
				  const ddbc_attr *a)
{
	if (!a || a->type != DDBC_TYPE_S || !a->more->nenum)
		return NULL;
	const ddbc_design *g = plan->g;
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		if (a < e->attrs || a >= e->attrs + e->nattrs)
			continue;
		const char *ident = plan->entity_idents[i];
		const char *member = a->more->c_name ?
			c_name_ident(arena, NULL, *a->more->c_name, NULL) :
			ddbc_hplan_ident(arena, a->name.s, true);
		if (!ident || !member)
			return NULL;
		/* As plan_attr_names writes enum_macro. */
		return ddbc_hplan_concat(arena, plan->prefix, "_", ident, *ident ? "_" : "",
					 member, "_ENUM", NULL);
	}
	return NULL;
}

/* The part every identifier of an entity's attributes starts with:
 * P_ENTITY_ (P_ when the entity's part is empty: one named like the
 * design), made once an entity. */
typedef struct entity_head {
	const char *s;
	size_t n;
} entity_head;

/* A suffix literal and its length, for ddbc_hplan_join. */
#define SUFFIX(lit) lit, sizeof(lit) - 1

static void plan_attr_names(planner *p, const entity_head *head, const ddbc_hentity *he,
			    ddbc_hattr *ha, const ddbc_attr *a)
{
	ddbc_arena *arena = p->plan->scratch;
	ha->attr = a;
	const char *member = attr_ident(p, he, a);
	if (!member) {
		p->findings = true;
		return;
	}
	const char *member_lower = ddbc_hplan_lower(arena, member);
	size_t n = head->n + strlen(member);
	const char *stem = ddbc_hplan_join(arena, head->s, head->n, member, n - head->n);
	ha->name_macro = ddbc_hplan_join(arena, stem, n, SUFFIX("_NAME"));
	if (ddbc_name_needs_placeholder(a->name.s)) {
		ha->expr_macro = ddbc_hplan_join(arena, stem, n, SUFFIX("_EXPR_NAME"));
		/* The name itself where DynamoDB allows it after '#'. */
		const char *safe = ddbc_name_placeholder_safe(a->name.s) ? a->name.s : member_lower;
		ha->expr_name = ddbc_hplan_concat(arena, "#", safe, NULL);
	}
	ha->param = ddbc_hplan_param(arena, member_lower);
	if (a->more->nenum) {
		ha->enum_macro = ddbc_hplan_join(arena, stem, n, SUFFIX("_ENUM"));
		ha->enum_count_macro = ddbc_hplan_join(arena, stem, n, SUFFIX("_ENUM_COUNT"));
	}
	if (a->more->nenum && a->type == DDBC_TYPE_S) {
		const char **parts = ddbc_hplan_enum_parts(arena, a);
		ha->enum_consts = ddbc_arena_array(arena, a->more->nenum, sizeof(*ha->enum_consts));
		for (size_t i = 0; i < a->more->nenum; i++)
			ha->enum_consts[i] = ddbc_hplan_concat(arena, ha->enum_macro, "_", parts[i],
							       NULL);
	}
	if (!a->has_template)
		return;
	ha->builder = stem;
}

/* ---- keys ------------------------------------------------------------------------ */

/* The pieces and parameters of the key being planned, in arrays that serve
 * every key of an entity (each key's are copied into the arena when it is
 * done): a few allocations an entity, not a few a key. */
typedef struct key_builder {
	ddbc_hpiece *pieces;
	ddbc_hparam *params;
	size_t npieces, nparams, pieces_cap, params_cap;
	strbuf lit;              /* the literal being gathered */
} key_builder;

static void key_builder_release(key_builder *kb)
{
	free(kb->pieces);
	free(kb->params);
	ddbc_strbuf_release(&kb->lit);
}

static ddbc_hpiece *new_piece(key_builder *kb)
{
	ddbc_xgrow((void **)&kb->pieces, &kb->pieces_cap, kb->npieces + 1, sizeof(ddbc_hpiece));
	return &kb->pieces[kb->npieces++];
}

static void flush_literal(ddbc_arena *arena, key_builder *kb)
{
	if (!kb->lit.len)
		return;
	ddbc_hpiece *pc = new_piece(kb);
	pc->text = ddbc_arena_strndup(arena, kb->lit.buf, kb->lit.len);
	pc->len = kb->lit.len;
	pc->param = 0;
	pc->width = 0;
	ddbc_strbuf_reset(&kb->lit);
}

static size_t add_param(key_builder *kb, const ddbc_hentity *he, const ddbc_attr *b)
{
	for (size_t i = 0; i < kb->nparams; i++)
		if (kb->params[i].attr == b)
			return i;
	const ddbc_hattr *hb = &he->attrs[b - he->entity->attrs];
	ddbc_xgrow((void **)&kb->params, &kb->params_cap, kb->nparams + 1, sizeof(ddbc_hparam));
	ddbc_hparam *pm = &kb->params[kb->nparams];
	pm->attr = b;
	pm->name = hb->param;
	pm->source = b->name.s;
	pm->number = b->type == DDBC_TYPE_N;
	pm->enum_type = b->type == DDBC_TYPE_S ? hb->enum_macro : NULL;
	return kb->nparams++;
}

/* Appends a's template to kb, expanding placeholders that name an
 * attribute with a template. Returns -1 on a placeholder that names no
 * attribute (a design that was not checked), else 0. */
static int expand(key_builder *kb, const ddbc_hentity *he, const ddbc_attr *a,
		  ddbc_arena *arena, unsigned depth)
{
	for (size_t i = 0; i < a->tpl.nsegs; i++) {
		const ddbc_segment *seg = &a->tpl.segs[i];
		const ddbc_attr *b = seg->ref;
		if (seg->kind == DDBC_SEG_LITERAL) {
			ddbc_strbuf_add(&kb->lit, seg->text, seg->len);
			continue;
		}
		if (!b)
			return -1;
		if (b->has_template && !b->in_cycle && depth < MAX_DEPTH) {
			if (expand(kb, he, b, arena, depth + 1) != 0)
				return -1;
			continue;
		}
		flush_literal(arena, kb);
		size_t param = add_param(kb, he, b);
		*new_piece(kb) = (ddbc_hpiece){ NULL, 0, param, seg->width };
	}
	return 0;
}

/* A copy of the n elements of size at p in arena. */
static void *arena_copy(ddbc_arena *arena, const void *p, size_t n, size_t size)
{
	void *r = ddbc_arena_array(arena, n, size);
	if (n)
		memcpy(r, p, n * size);
	return r;
}

void *ddbc_hplan_to_arena(ddbc_arena *arena, void *p, size_t n, size_t size)
{
	void *r = ddbc_arena_array(arena, n, size);
	if (n)
		memcpy(r, p, n * size);
	free(p);
	return r;
}

/* Plans ha's key; -1 when its template names no attribute. */
static bool names_it(const ddbc_name *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (names[i].s && !strcmp(names[i].s, name))
			return true;
	return false;
}

/* The smallest of DynamoDB's key value limits (partition key 2048 bytes,
 * sort key 1024) over the keys of the entity's table and indexes that a
 * names; 0 when a keys none of them. */
static size_t key_limit(const ddbc_entity *e, const ddbc_attr *a)
{
	const ddbc_table *t = e->table;
	if (!t)
		return 0;
	size_t max = 0;
	for (size_t i = 0; i < 1 + t->ngsi + t->nlsi; i++) {
		const ddbc_index *x = i == 0 ? &t->primary : i <= t->ngsi ? &t->gsi[i - 1] :
			&t->lsi[i - 1 - t->ngsi];
		if (names_it(x->sk, x->nsk, a->name.s))
			return 1024;
		if (names_it(x->pk, x->npk, a->name.s))
			max = 2048;
	}
	return max;
}

static int plan_key(planner *p, const ddbc_hentity *he, ddbc_hattr *ha, key_builder *kb)
{
	ddbc_arena *arena = p->plan->scratch;
	ddbc_hkey *k = ddbc_arena_alloc(arena, sizeof(*k));
	kb->npieces = kb->nparams = 0;
	ddbc_strbuf_reset(&kb->lit);
	int r = expand(kb, he, ha->attr, arena, 0);
	flush_literal(arena, kb);
	k->pieces = arena_copy(arena, kb->pieces, kb->npieces, sizeof(ddbc_hpiece));
	k->npieces = kb->npieces;
	k->params = arena_copy(arena, kb->params, kb->nparams, sizeof(ddbc_hparam));
	k->nparams = kb->nparams;
	if (r != 0)
		return -1;
	k->constant = k->nparams == 0;
	k->max_bytes = key_limit(he->entity, ha->attr);
	k->prefix = "";
	if (k->npieces && k->pieces[0].text) {
		k->prefix = k->pieces[0].text;
		k->prefix_len = k->pieces[0].len;
	}
	ha->key = k;
	/* A template whose placeholders all expand to constants is a constant. */
	if (k->constant)
		return 0;
	p->plan->has_builders = true;
	size_t n = strlen(ha->builder);
	ha->func = ddbc_hplan_lower(arena, ha->builder);
	ha->fmt_macro = ddbc_hplan_join(arena, ha->builder, n, SUFFIX("_FMT"));
	if (k->prefix_len)
		ha->prefix_macro = ddbc_hplan_join(arena, ha->builder, n, SUFFIX("_PREFIX"));
	if (ddbc_hkey_parseable(k)) {
		p->plan->has_parsers = true;
		ha->parse_func = ddbc_hplan_join(arena, ha->func, n, SUFFIX("_parse"));
		ha->parts_struct = ddbc_hplan_join(arena, ha->func, n, SUFFIX("_parts"));
	}
	return 0;
}

/* Whether a Number written before literal lit would run on into it: a
 * padded one is digits only, any other a decimal, which a '.', an 'e' or
 * an 'E' would continue (a '-' or '+' only after the 'e'). */
static bool number_runs_on(const char *lit, unsigned width)
{
	char c = lit[0];
	return (c >= '0' && c <= '9') || (!width && (c == '.' || c == 'e' || c == 'E'));
}

bool ddbc_hkey_parseable(const ddbc_hkey *k)
{
	for (size_t i = 0; i + 1 < k->npieces; i++) {
		const ddbc_hpiece *pc = &k->pieces[i], *next = &k->pieces[i + 1];
		if (pc->text)
			continue;
		if (!next->text)
			return false;
		if (k->params[pc->param].number && number_runs_on(next->text, pc->width))
			return false;
	}
	return true;
}

/* Plans entity i, whose C name is decided, into the scratch arena (what the
 * entity before left there goes). -1 when a template names no attribute. */
static int plan_entity(planner *p, size_t i, ddbc_hentity *he)
{
	ddbc_header_plan *plan = p->plan;
	const ddbc_entity *e = &p->g->entities[i];
	ddbc_arena_clear(plan->scratch);
	he->entity = e;
	he->ident = plan->entity_idents[i];
	he->nattrs = e->nattrs;
	he->attrs = ddbc_arena_array(plan->scratch, e->nattrs, sizeof(ddbc_hattr));
	if (!he->ident)
		return 0;
	/* An entity named like the design has an empty part. */
	const char *s = ddbc_hplan_concat(plan->scratch, plan->prefix, "_", he->ident,
					  *he->ident ? "_" : "", NULL);
	entity_head head = { s, strlen(s) };
	for (size_t k = 0; k < e->nattrs; k++)
		plan_attr_names(p, &head, he, &he->attrs[k], &e->attrs[k]);
	key_builder kb = { 0 };
	int r = 0;
	for (size_t k = 0; k < e->nattrs && r == 0; k++) {
		ddbc_hattr *ha = &he->attrs[k];
		if (ha->builder && plan_key(p, he, ha, &kb) != 0 && !p->lenient)
			r = -1;
	}
	key_builder_release(&kb);
	return r;
}

static void no_attribute(ddbc_err *err, const ddbc_entity *e)
{
	ddbc_err_add(err, NULL, "entity '%s' has a template placeholder that names no "
		     "attribute; run 'ddbc lint' first", e->name.s);
}

/* Entities and tables with the same C name are reported once, before the
 * identifiers that follow from them. */
static void walk_groups(planner *p, name_check *c)
{
	const ddbc_header_plan *plan = p->plan;
	for (size_t i = 0; i < plan->ntables; i++)
		ddbc_hplan_check_name(c, plan->tables[i].macro, OWN_TABLE, plan->tables[i].table);
	for (size_t i = 0; i < p->g->nentities; i++)
		ddbc_hplan_check_name(c, plan->entity_idents[i], OWN_ENTITY, &p->g->entities[i]);
}

/* Each access pattern planned, in turn, into the plan's pattern scratch;
 * its findings are added when p->d is given (the first walk). */
static void seen_fn(void *ctx, uint64_t h)
{
	ddbc_hplan_seen_hash(ctx, h);
}

static void walk_pattern_names(planner *p, name_check *c)
{
	for (size_t i = 0; i < p->g->npatterns; i++) {
		ddbc_hpattern hp;
		/* The first walk only hashes. */
		if (!c->second) {
			ddbc_hplan_pattern_hashes(p->plan, i, seen_fn, c, p->d, &p->findings);
			continue;
		}
		if (!ddbc_hplan_pattern(p->plan, i, &hp, p->d, &p->findings))
			continue;
		const ddbc_pattern *pt = hp.pattern;
		ddbc_hplan_check_name(c, hp.table_macro, OWN_PATTERN, pt);
		ddbc_hplan_check_name(c, hp.index_macro, OWN_PATTERN, pt);
		ddbc_hplan_check_name(c, hp.kce_macro, OWN_PATTERN, pt);
		ddbc_hplan_check_name(c, hp.names_macro, OWN_PATTERN, pt);
		ddbc_hplan_check_name(c, hp.projection_macro, OWN_PATTERN, pt);
		ddbc_hplan_check_name(c, hp.order_macro, OWN_PATTERN, pt);
		for (size_t k = 0; k < hp.nvalues; k++) {
			ddbc_hplan_check_name(c, hp.values[k].value_macro, OWN_PATTERN, pt);
			ddbc_hplan_check_name(c, hp.values[k].func, OWN_PATTERN, pt);
			ddbc_hplan_check_name(c, hp.values[k].macro, OWN_PATTERN, pt);
			ddbc_hplan_check_name(c, hp.values[k].ref_macro, OWN_PATTERN, pt);
		}
	}
}

/* The guard's, the tables' and the indexes' names. */
static void walk_tables_only(planner *p, name_check *c)
{
	const ddbc_header_plan *plan = p->plan;
	ddbc_hplan_check_name(c, plan->guard, OWN_GUARD, plan);
	for (size_t i = 0; i < plan->ntables; i++) {
		const ddbc_htable *ht = &plan->tables[i];
		ddbc_hplan_check_name(c, ht->macro, OWN_TABLE, ht->table);
		ddbc_hplan_check_name(c, ht->ttl_macro, OWN_TABLE, ht->table);
		for (size_t k = 0; k < ht->nindexes; k++)
			ddbc_hplan_check_name(c, ht->indexes[k].macro, OWN_INDEX, ht->indexes[k].index);
	}
}

static void walk_table_names(planner *p, name_check *c)
{
	walk_tables_only(p, c);
	walk_pattern_names(p, c);
}

static void walk_entity_names(name_check *c, const ddbc_hentity *he)
{
	for (size_t k = 0; k < he->nattrs; k++) {
		const ddbc_hattr *ha = &he->attrs[k];
		const char *ids[] = { ha->name_macro, ha->expr_macro, ha->builder, ha->func,
				      ha->fmt_macro, ha->prefix_macro, ha->parse_func,
				      ha->parts_struct, ha->enum_macro, ha->enum_count_macro };
		for (size_t m = 0; m < sizeof(ids) / sizeof(ids[0]); m++)
			ddbc_hplan_check_name(c, ids[m], OWN_ATTR, ha->attr);
		for (size_t m = 0; ha->enum_consts && m < ha->attr->more->nenum; m++)
			ddbc_hplan_check_name(c, ha->enum_consts[m], OWN_ATTR, ha->attr);
	}
}

/* The second walk over the header's names: the entities planned again,
 * quietly (their findings were added the first time). */
static void walk_names_again(planner *p, name_check *c)
{
	ddbc_diags *d = p->d;
	p->d = NULL;
	walk_table_names(p, c);
	for (size_t i = 0; i < p->g->nentities; i++) {
		ddbc_hentity he;
		/* It did not fail the first time. */
		if (plan_entity(p, i, &he) == 0)
			walk_entity_names(c, &he);
	}
	p->d = d;
}

/* At least as many as the identifiers the header defines, so that the set
 * of their hashes is sized once. */
static size_t count_names(const ddbc_design *g)
{
	size_t n = 1;
	for (size_t i = 0; i < g->ntables; i++)
		n += 2 + g->tables[i].ngsi + g->tables[i].nlsi;
	for (size_t i = 0; i < g->nentities; i++) {
		const ddbc_entity *e = &g->entities[i];
		for (size_t k = 0; k < e->nattrs; k++) {
			const ddbc_attr *a = &e->attrs[k];
			/* NAME, EXPR_NAME (counted whether it is there or not:
			 * asking costs a reserved-word lookup); the builder,
			 * function, FMT, PREFIX, parser and its struct. */
			n += 2 + (a->has_template ? 6 : 0) + (a->more->nenum ? 2 + a->more->nenum : 0);
		}
	}
	/* TABLE_NAME, INDEX_NAME, KEY_CONDITION, EXPR_NAMES_JSON,
	 * PROJECTION_EXPRESSION, SCAN_INDEX_FORWARD; per value
	 * VALUE (or FMT), its function and PLACEHOLDER. */
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *pt = &g->patterns[i];
		n += 6;
		for (size_t k = 0; k < pt->nconds; k++)
			n += 3 * pt->conds[k].nvalues;
	}
	return n;
}

/* ---- the first walk over an entity's names ------------------------------------- */

/* What plan_key's pieces would be like, which is all the names depend on:
 * the first walk never builds a key. */
typedef struct key_shape {
	bool params;             /* a placeholder is left: the key is no constant */
	bool lead;               /* literal text comes before the first parameter */
	bool parseable;          /* ddbc_hkey_parseable of the pieces */
	int after;               /* the last piece is a parameter: 1 text, 2 number */
	unsigned width;          /* that number's :0WIDTH */
} key_shape;

/* expand() without its pieces. -1 on a placeholder that names no attribute. */
static int shape_of(key_shape *ks, const ddbc_attr *a, unsigned depth)
{
	for (size_t i = 0; i < a->tpl.nsegs; i++) {
		const ddbc_segment *seg = &a->tpl.segs[i];
		const ddbc_attr *b = seg->ref;
		if (seg->kind == DDBC_SEG_LITERAL) {
			/* Literal segments in a row make one piece. */
			if (!seg->len)
				continue;
			ks->lead |= !ks->params;
			if (ks->after == 2 && number_runs_on(seg->text, ks->width))
				ks->parseable = false;
			ks->after = 0;
			continue;
		}
		if (!b)
			return -1;
		if (b->has_template && !b->in_cycle && depth < MAX_DEPTH) {
			if (shape_of(ks, b, depth + 1) != 0)
				return -1;
			continue;
		}
		if (ks->after)
			ks->parseable = false;
		ks->params = true;
		ks->after = b->type == DDBC_TYPE_N ? 2 : 1;
		ks->width = seg->width;
	}
	return 0;
}

/* The suffixes hash_attr joins to an attribute's stem, each hashed once a
 * plan (planner.suffixes): joining one costs a multiply and an add, where
 * hashing its bytes anew cost a step a byte, for each of hundreds of
 * thousands of identifiers. */
enum { SFX_NAME, SFX_EXPR_NAME, SFX_ENUM, SFX_ENUM_COUNT, SFX_ENUM_, SFX_FMT, SFX_PREFIX,
       SFX_PARSE, SFX_PARTS, NSFX };

static void hash_suffixes(planner *p)
{
	static const char *const text[NSFX] = {
		[SFX_NAME] = "_NAME", [SFX_EXPR_NAME] = "_EXPR_NAME", [SFX_ENUM] = "_ENUM",
		[SFX_ENUM_COUNT] = "_ENUM_COUNT", [SFX_ENUM_] = "_ENUM_", [SFX_FMT] = "_FMT",
		[SFX_PREFIX] = "_PREFIX", [SFX_PARSE] = "_parse", [SFX_PARTS] = "_parts",
	};
	_Static_assert(NSFX == sizeof(((planner *)0)->suffixes) / sizeof(ddbc_hplan_part),
		       "planner.suffixes holds the SFX_ suffixes");
	for (size_t i = 0; i < NSFX; i++)
		p->suffixes[i] = ddbc_hplan_part_of(text[i], strlen(text[i]), false);
}

/* The hash of the identifier stem + suffix, kept by the first walk. */
static void seen_suffix(planner *p, name_check *c, uint64_t stem, int sfx)
{
	ddbc_hplan_seen_hash(c, ddbc_hplan_hash_part(stem, p->suffixes[sfx]));
}

/* What the first walk hashes of an attribute's part: its identifier part
 * (attr_ident), hashed upper and lower case, and whether its name needs an
 * expression placeholder. These depend on the attribute's name alone
 * (without a c_name), and a design says its names over and over (every
 * entity of a table has its PK, its SK, ...): each name's are made once,
 * kept under the name, which a lookup costs less than making them. */
typedef struct attr_part {
	ddbc_hplan_part up, low;
	bool placeholder;
	const char *name;        /* the key in planner.parts (NULL: not kept) */
} attr_part;

static void part_of(attr_part *ap, const char *member, const char *name)
{
	size_t n = strlen(member);
	ap->up = ddbc_hplan_part_of(member, n, false);
	ap->low = (ddbc_hplan_part){ ap->up.mul, ddbc_hplan_hash(0, member, n, true) };
	ap->placeholder = ddbc_name_needs_placeholder(name);
}

/* Attribute a's attr_part; NULL (reported, as by attr_ident) when it has
 * no identifier part. One with a c_name is made anew in the scratch arena:
 * its findings are said each time, as attr_ident says them. */
static const attr_part *attr_part_for(planner *p, const ddbc_hentity *he, const ddbc_attr *a)
{
	const char *name = a->name.s;
	size_t len = strlen(name);
	if (!a->more->c_name && p->parts.n) {
		const char *key = ddbc_strset_get(&p->parts, name, len);
		if (key) {
			const attr_part *ap;
			memcpy(&ap, key - sizeof(ap), sizeof(ap));
			return ap;
		}
	}
	const char *member = attr_ident(p, he, a);
	if (!member)
		return NULL;
	if (a->more->c_name) {
		attr_part *ap = ddbc_arena_alloc(p->plan->scratch, sizeof(*ap));
		part_of(ap, member, name);
		return ap;
	}
	if (!p->parts_arena)
		p->parts_arena = ddbc_arena_new();
	/* The name kept after a pointer to its part, which a lookup finds
	 * back from the key the set returns. */
	attr_part *ap = ddbc_arena_alloc(p->parts_arena, sizeof(*ap));
	char *kept = ddbc_arena_alloc(p->parts_arena, sizeof(attr_part *) + len + 1);
	memcpy(kept, &ap, sizeof(ap));
	memcpy(kept + sizeof(ap), name, len + 1);
	part_of(ap, member, name);
	ap->name = kept + sizeof(ap);
	ddbc_strset_put(&p->parts, ap->name, len);
	return ap;
}

/* The identifiers plan_attr_names and plan_key give attribute a of an
 * entity whose identifiers start with the bytes hashed in up (and, lower
 * case, in low), hashed from their parts: what walk_entity_names would
 * hash of the planned entity. ap is the attribute's part. */
static int hash_attr(planner *p, name_check *c, const ddbc_attr *a, const attr_part *ap,
		     uint64_t up, uint64_t low)
{
	uint64_t stem = ddbc_hplan_hash_part(up, ap->up);
	seen_suffix(p, c, stem, SFX_NAME);
	if (ap->placeholder)
		seen_suffix(p, c, stem, SFX_EXPR_NAME);
	if (a->more->nenum) {
		seen_suffix(p, c, stem, SFX_ENUM);
		seen_suffix(p, c, stem, SFX_ENUM_COUNT);
	}
	if (a->more->nenum && a->type == DDBC_TYPE_S) {
		/* The Go module's constant per value: P_E_A_ENUM_<value>. */
		uint64_t base = ddbc_hplan_hash_part(stem, p->suffixes[SFX_ENUM_]);
		const char **parts = ddbc_hplan_enum_parts(p->plan->scratch, a);
		for (size_t i = 0; i < a->more->nenum; i++)
			ddbc_hplan_seen_hash(c, ddbc_hplan_hash(base, parts[i], strlen(parts[i]),
								false));
	}
	if (!a->has_template)
		return 0;
	ddbc_hplan_seen_hash(c, stem);
	key_shape ks = { false, false, true, 0, 0 };
	if (shape_of(&ks, a, 0) != 0)
		return -1;
	if (!ks.params)
		return 0;
	p->plan->has_builders = true;
	uint64_t func = ddbc_hplan_hash_part(low, ap->low);
	ddbc_hplan_seen_hash(c, func);
	seen_suffix(p, c, stem, SFX_FMT);
	if (ks.lead)
		seen_suffix(p, c, stem, SFX_PREFIX);
	if (ks.parseable) {
		p->plan->has_parsers = true;
		seen_suffix(p, c, func, SFX_PARSE);
		seen_suffix(p, c, func, SFX_PARTS);
	}
	return 0;
}

/* plan_entity and walk_entity_names in one, for the first walk: entity
 * i's findings are added and its identifiers hashed, none of them written
 * out. -1 when a template names no attribute (unless lenient). */
static int hash_entity(planner *p, name_check *c, size_t i)
{
	ddbc_header_plan *plan = p->plan;
	const ddbc_entity *e = &p->g->entities[i];
	ddbc_hentity he = { e, plan->entity_idents[i], NULL, 0 };
	if (!he.ident)
		return 0;
	ddbc_arena_clear(plan->scratch);
	const attr_part **parts = ddbc_arena_array(plan->scratch, e->nattrs, sizeof(*parts));
	/* Every attribute's name findings come before any key is looked at,
	 * as in plan_entity. */
	for (size_t k = 0; k < e->nattrs; k++)
		if (!(parts[k] = attr_part_for(p, &he, &e->attrs[k])))
			p->findings = true;
	size_t n = strlen(he.ident);
	const char *sep = n ? "_" : "";
	uint64_t up = plan->prefix_hash, low = plan->prefix_lower_hash;
	up = ddbc_hplan_hash(ddbc_hplan_hash(up, "_", 1, false), he.ident, n, false);
	low = ddbc_hplan_hash(ddbc_hplan_hash(low, "_", 1, false), he.ident, n, true);
	up = ddbc_hplan_hash(up, sep, strlen(sep), false);
	low = ddbc_hplan_hash(low, sep, strlen(sep), false);
	for (size_t k = 0; k < e->nattrs; k++)
		if (parts[k] && hash_attr(p, c, &e->attrs[k], parts[k], up, low) != 0 &&
		    !p->lenient)
			return -1;
	return 0;
}

/* ---- the plan ------------------------------------------------------------------------ */

/* The first walk over the header's names: every entity is planned, its
 * findings added, and its identifiers hashed into c. */
/* Where the next entity's folded hashes start: a position in 32 bits,
 * which four billion identifiers (16 GiB of them) would pass. */
static uint32_t fold_position(const name_check *c)
{
	if (c->nfolded > UINT32_MAX)
		ddbc_xalloc_die();
	return (uint32_t)c->nfolded;
}

static int plan_entities(planner *p, name_check *c)
{
	ddbc_header_plan *plan = p->plan;
	size_t np = p->g->npatterns;
	/* walk_table_names, a pattern at a time: each is a walk of its own
	 * for the sieve. */
	walk_tables_only(p, c);
	for (size_t i = 0; i < np; i++) {
		if (c->starts)
			c->starts[i] = fold_position(c);
		ddbc_hplan_pattern_hashes(p->plan, i, seen_fn, c, p->d, &p->findings);
	}
	for (size_t i = 0; i < p->g->nentities; i++) {
		const ddbc_entity *e = &p->g->entities[i];
		if (c->starts)
			c->starts[np + i] = fold_position(c);
		plan->entity_idents[i] = entity_ident(p, e);
		if (!plan->entity_idents[i])
			p->findings = true;
		if (hash_entity(p, c, i) != 0) {
			no_attribute(p->err, e);
			return -1;
		}
	}
	if (c->starts)
		c->starts[np + p->g->nentities] = fold_position(c);
	return 0;
}

/* Whether a folded hash of folded[from..to) met another. filter: a bit
 * per value of a hash's low 12 bits, set for each hash of c->met; the few
 * that met (some 17 at 10,000 entities) leave nearly every bit clear, so
 * that the set is looked up for one hash in 200, not for all 400,000. */
static bool any_met(const name_check *c, const uint64_t *filter, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++)
		if ((filter[c->folded[k] >> 6 & 63] >> (c->folded[k] & 63) & 1) &&
		    ddbc_hashset_has(&c->met, c->folded[k]))
			return true;
	return false;
}

/* The folded hashes that met, into c->met. Sorting them all to find the
 * few that meet cost some 80 instructions a hash; a bitmap of 8 bits a
 * hash (a byte an identifier, beside the hashes' 4) leaves only those that
 * can meet to sort: a hash whose bit was set already is said twice or
 * shares its bit (one in 16 on average); every hash whose bit such a
 * hash sets again is kept, first sayings included, and sorted. A hash
 * said twice is among those kept each time it is said, so exactly the
 * hashes that meet in c->folded meet among the kept ones. c->folded keeps
 * its order (c->starts says which walk hashed each). */
static void find_met(name_check *c)
{
	size_t n = c->nfolded, bits = 64;
	while (bits < 8 * n && bits < ((size_t)1 << 32))
		bits *= 2;
	uint64_t *seen = ddbc_xcalloc(bits / 64, sizeof(*seen));
	uint32_t mask = (uint32_t)(bits - 1), *kept = NULL;
	size_t nkept = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t h = c->folded[i], k = h & mask;
		uint64_t bit = (uint64_t)1 << (k & 63);
		if (seen[k >> 6] & bit) {
			ddbc_xgrow((void **)&kept, &cap, nkept + 1, sizeof(*kept));
			kept[nkept++] = h;
		}
		seen[k >> 6] |= bit;
	}
	if (nkept) {
		/* The bits of the hashes said again, and every hash on them. */
		memset(seen, 0, bits / 8);
		for (size_t i = 0; i < nkept; i++)
			seen[(kept[i] & mask) >> 6] |= (uint64_t)1 << (kept[i] & mask & 63);
		nkept = 0;
		for (size_t i = 0; i < n; i++) {
			uint32_t h = c->folded[i], k = h & mask;
			if (!(seen[k >> 6] & ((uint64_t)1 << (k & 63))))
				continue;
			ddbc_xgrow((void **)&kept, &cap, nkept + 1, sizeof(*kept));
			kept[nkept++] = h;
		}
		ddbc_hashes32_repeated(kept, nkept, &c->met);
	}
	free(kept);
	free(seen);
}

/* After a first walk that folded its hashes: the 64-bit hashes of those
 * whose folded hashes met, from a quiet walk that hashes again (the first
 * walk added the findings and planned the entities' identifiers). */
static void sieve(planner *p, name_check *c)
{
	size_t np = p->g->npatterns, ne = p->g->nentities;
	find_met(c);
	c->mode = SIEVE;
	if (c->met.n) {
		ddbc_diags *d = p->d;
		p->d = NULL;
		/* An empty slot (0) sets the bit of the hash 0, which may be in it. */
		uint64_t filter[64] = { 0 };
		for (size_t i = 0; i < c->met.cap; i++)
			filter[c->met.slots[i] >> 6 & 63] |= (uint64_t)1 << (c->met.slots[i] & 63);
		/* Only the walks that hashed a folded hash that met are taken
		 * again: two identifiers of one 64-bit hash are both among
		 * them, and n folded hashes meet by chance in about n * n / 2^33
		 * pairs (some 17 among the 380,000 identifiers of 10,000
		 * entities), so that a large design walks a few entities
		 * and patterns again, not all. */
		if (any_met(c, filter, 0, c->starts[0]))
			walk_tables_only(p, c);
		for (size_t i = 0; i < np; i++)
			if (any_met(c, filter, c->starts[i], c->starts[i + 1]))
				ddbc_hplan_pattern_hashes(p->plan, i, seen_fn, c, NULL, &p->findings);
		/* It did not fail the first time. */
		for (size_t i = 0; i < ne; i++)
			if (any_met(c, filter, c->starts[np + i], c->starts[np + i + 1]))
				hash_entity(p, c, i);
		p->d = d;
	}
	ddbc_hplan_check_end_fold(c);
	c->mode = KEEP;
}

/* Plans every entity and checks that no two things get one identifier. */
static ddbc_plan_result plan_unique(planner *p)
{
	const ddbc_design *g = p->g;
	name_check groups, names;
	ddbc_hplan_check_init_folded(&names, count_names(g));
	/* Where each walk of the first ends: the tables', then one per
	 * pattern and per entity. */
	names.starts = ddbc_xmalloc((1 + g->npatterns + g->nentities) * sizeof(*names.starts));
	if (plan_entities(p, &names) != 0) {
		ddbc_hplan_check_release(&names);
		return DDBC_PLAN_FAILED;
	}
	sieve(p, &names);
	/* The names' repeated hashes are found and the others go before the
	 * groups' are taken. */
	ddbc_hashes_repeated(names.seen, names.nseen, &names.twice);
	free(names.seen);
	names.seen = NULL;
	ddbc_hplan_check_init(&groups, p->plan->ntables + g->nentities);
	walk_groups(p, &groups);
	ddbc_hplan_settle(p, &groups, walk_groups);
	/* The groups' reported pairs stay: collisions that follow from them
	 * are not reported again. */
	ddbc_hplan_settle(p, &names, walk_names_again);
	ddbc_hplan_check_release(&groups);
	ddbc_hplan_check_release(&names);
	return p->findings ? DDBC_PLAN_FINDINGS : DDBC_PLAN_OK;
}

static ddbc_plan_result build_once(ddbc_header_plan *plan, const ddbc_design *g,
				   const char *prefix, ddbc_diags *d, bool lenient, bool whole,
				   ddbc_err *err)
{
	memset(plan, 0, sizeof(*plan));
	plan->arena = ddbc_arena_new();
	plan->scratch = ddbc_arena_new();
	plan->pattern_scratch = ddbc_arena_new();
	plan->g = g;
	plan->whole_names = whole;
	planner p = { plan, g, d, lenient, false, DDBC_STRSET_INIT, err, { { 0, 0 } }, DDBC_STRSET_INIT, NULL };
	hash_suffixes(&p);
	ddbc_plan_result r = plan_prefix(&p, prefix);
	if (r != DDBC_PLAN_OK)
		return r;
	ddbc_hplan_tables(plan);
	plan->entity_idents = ddbc_arena_array(plan->arena, g->nentities, sizeof(const char *));
	r = plan_unique(&p);
	ddbc_strset_release(&p.reported);
	ddbc_strset_release(&p.parts);
	ddbc_arena_free(p.parts_arena);
	return r == DDBC_PLAN_OK && p.findings ? DDBC_PLAN_FINDINGS : r;
}

/* Plans with words said twice left out; when that plan has findings, plans
 * again with every word, and reports that plan's findings: leaving words
 * out never makes a finding, and one there is anyway names the whole
 * names. */
static ddbc_plan_result build(ddbc_header_plan *plan, const ddbc_design *g, const char *prefix,
			      ddbc_diags *d, bool lenient, ddbc_err *err)
{
	size_t from = d->n;
	ddbc_plan_result r = build_once(plan, g, prefix, d, lenient, false, err);
	if (r != DDBC_PLAN_FINDINGS || !plan->shortened)
		return r;
	ddbc_diags_drop(d, from, DDBC_RULE_HEADER_NAME);
	ddbc_header_plan_free(plan);
	return build_once(plan, g, prefix, d, lenient, true, err);
}

ddbc_plan_result ddbc_header_plan_build(ddbc_header_plan *plan, const ddbc_design *g,
					const char *prefix, ddbc_diags *d, ddbc_err *err)
{
	return build(plan, g, prefix, d, false, err);
}

void ddbc_header_names_check(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_header_plan plan;
	/* Lenient planning fails on nothing: no reason to keep. */
	build(&plan, g, NULL, d, true, NULL);
	ddbc_header_plan_free(&plan);
}

int ddbc_header_plan_entity(ddbc_header_plan *plan, size_t i, ddbc_hentity *he, ddbc_err *err)
{
	planner p = { plan, plan->g, NULL, false, false, DDBC_STRSET_INIT, err, { { 0, 0 } }, DDBC_STRSET_INIT, NULL };
	if (plan_entity(&p, i, he) == 0)
		return 0;
	no_attribute(err, he->entity);
	return -1;
}

void ddbc_header_plan_free(ddbc_header_plan *plan)
{
	ddbc_arena_free(plan->arena);
	ddbc_arena_free(plan->scratch);
	ddbc_arena_free(plan->pattern_scratch);
	memset(plan, 0, sizeof(*plan));
}
