/* header_plan_unique.c - no two things get one identifier in the header
 *
 * The bookkeeping of header_plan.c's walks over the header's names (see
 * name_check in header_plan_unique.h) and the header-name finding for two
 * owners that get one identifier, at the later of the two, once a pair.
 */
#include "model/header_plan_unique.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- collisions -------------------------------------------------------------------- */

/* The table or entity an identifier's owner belongs to. */
static const void *group_of(const owned_ident *x)
{
	switch (x->kind) {
	case OWN_ATTR: return ((const ddbc_attr *)x->owner)->entity;
	case OWN_INDEX: return ((const ddbc_index *)x->owner)->table;
	default: return x->owner;
	}
}

static ddbc_loc owner_loc(const planner *p, const owned_ident *x)
{
	switch (x->kind) {
	case OWN_GUARD: return p->g->name.loc;
	case OWN_TABLE: return ((const ddbc_table *)x->owner)->name.loc;
	case OWN_INDEX: return ((const ddbc_index *)x->owner)->name.loc;
	case OWN_ENTITY: return ((const ddbc_entity *)x->owner)->name.loc;
	case OWN_ATTR: return ((const ddbc_attr *)x->owner)->name.loc;
	case OWN_PATTERN: return ((const ddbc_pattern *)x->owner)->id.loc;
	}
	return p->g->name.loc;
}

static void describe(strbuf *sb, const owned_ident *x)
{
	const ddbc_index *ix = x->owner;
	const ddbc_attr *a = x->owner;
	switch (x->kind) {
	case OWN_GUARD: ddbc_strbuf_addstr(sb, "the include guard"); break;
	case OWN_TABLE:
		ddbc_strbuf_addf(sb, "table '%s'", ((const ddbc_table *)x->owner)->name.s);
		break;
	case OWN_INDEX:
		ddbc_strbuf_addf(sb, "index '%s' of table '%s'", ix->name.s, ix->table->name.s);
		break;
	case OWN_ENTITY:
		ddbc_strbuf_addf(sb, "entity '%s'", ((const ddbc_entity *)x->owner)->name.s);
		break;
	case OWN_ATTR:
		ddbc_strbuf_addf(sb, "attribute '%s' of entity '%s'", a->name.s, a->entity->name.s);
		break;
	case OWN_PATTERN:
		ddbc_strbuf_addf(sb, "access pattern '%s'", ((const ddbc_pattern *)x->owner)->id.s);
		break;
	}
}

static bool loc_before(ddbc_loc a, ddbc_loc b)
{
	return a.line < b.line || (a.line == b.line && a.column < b.column);
}

/* Two owners in address order, looked up as a byte string: a design where
 * thousands of entities share a C name asks for every attribute whether
 * its pair of entities was reported. */
typedef struct owner_pair {
	const void *lo, *hi;
} owner_pair;

static owner_pair pair_of(const void *a, const void *b)
{
	return (uintptr_t)a < (uintptr_t)b ? (owner_pair){ a, b } : (owner_pair){ b, a };
}

static bool was_reported(const planner *p, const void *a, const void *b)
{
	owner_pair k = pair_of(a, b);
	return ddbc_strset_get(&p->reported, (const char *)&k, sizeof(k)) != NULL;
}

static void record(planner *p, const void *a, const void *b)
{
	owner_pair *k = ddbc_arena_alloc(p->plan->arena, sizeof(*k));
	*k = pair_of(a, b);
	ddbc_strset_put(&p->reported, (const char *)k, sizeof(*k));
}

/* Reports that x and y get the same identifier, at the later of the two. */
static void collision(planner *p, const owned_ident *x, const owned_ident *y)
{
	if (x->owner == y->owner || was_reported(p, x->owner, y->owner))
		return;
	/* Two entities or tables with one C name were reported as such. */
	if (group_of(x) != group_of(y) && (x->kind == OWN_ATTR || x->kind == OWN_INDEX) &&
	    (y->kind == OWN_ATTR || y->kind == OWN_INDEX) &&
	    was_reported(p, group_of(x), group_of(y)))
		return;
	record(p, x->owner, y->owner);
	ddbc_loc lx = owner_loc(p, x), ly = owner_loc(p, y);
	if (loc_before(ly, lx)) {
		const owned_ident *t = x;
		x = y;
		y = t;
		ddbc_loc l = lx;
		lx = ly;
		ly = l;
	}
	strbuf later = STRBUF_INIT, earlier = STRBUF_INIT;
	describe(&later, y);
	describe(&earlier, x);
	/* Only entities and attributes have a c_name; tables and indexes
	 * are named in DynamoDB, and a rename is theirs to make. */
	const char *fix = "rename one of them";
	if (x->kind == OWN_ENTITY || y->kind == OWN_ENTITY)
		fix = "set c_name on one of the entities";
	else if (x->kind == OWN_ATTR || y->kind == OWN_ATTR)
		fix = "set c_name on one of the attributes";
	ddbc_diag_add(p->d, DDBC_RULE_HEADER_NAME, ly,
		      "C name '%s' of %s is also the C name of %s (line %u); the header "
		      "cannot tell them apart: %s", y->id, ddbc_strbuf_str(&later),
		      ddbc_strbuf_str(&earlier), lx.line, fix);
	ddbc_strbuf_release(&later);
	ddbc_strbuf_release(&earlier);
	p->findings = true;
}

/* ---- uniqueness ---------------------------------------------------------------------- */

void ddbc_hplan_check_init(name_check *c, size_t n)
{
	memset(c, 0, sizeof(*c));
	/* n exactly: n is counted to hold every identifier, and doubling
	 * would hold up to as much again for nothing. */
	c->seen = ddbc_xmalloc((n ? n : 1) * sizeof(uint64_t));
	c->seen_cap = n ? n : 1;
	c->texts = ddbc_arena_new();
}

/* check_init for a check whose first walk folds its hashes. */
void ddbc_hplan_check_init_folded(name_check *c, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->mode = FOLD;
	c->folded = ddbc_xmalloc((n ? n : 1) * sizeof(uint32_t));
	c->folded_cap = n ? n : 1;
	c->texts = ddbc_arena_new();
}

void ddbc_hplan_check_end_fold(name_check *c)
{
	free(c->folded);
	c->folded = NULL;
	free(c->starts);
	c->starts = NULL;
	ddbc_hashset_release(&c->met);
}

void ddbc_hplan_check_release(name_check *c)
{
	free(c->seen);
	c->seen = NULL;
	ddbc_hplan_check_end_fold(c);
	ddbc_hashset_release(&c->twice);
	free(c->suspects);
	ddbc_arena_free(c->texts);
}

void ddbc_hplan_seen_hash_more(name_check *c, uint64_t h)
{
	if (c->mode == FOLD) {
		ddbc_xgrow((void **)&c->folded, &c->folded_cap, c->nfolded + 1, sizeof(uint32_t));
		c->folded[c->nfolded++] = ddbc_hash32(h);
		return;
	}
	if (c->mode == SIEVE && !ddbc_hashset_has(&c->met, ddbc_hash32(h)))
		return;
	ddbc_xgrow((void **)&c->seen, &c->seen_cap, c->nseen + 1, sizeof(uint64_t));
	c->seen[c->nseen++] = h;
}

void ddbc_hplan_check_name(name_check *c, const char *id, owner_kind kind, const void *owner)
{
	if (!id)
		return;
	uint64_t h = ddbc_hplan_hash(DDBC_HPLAN_START, id, strlen(id), false);
	if (!c->second) {
		ddbc_hplan_seen_hash(c, h);
		return;
	}
	if (!ddbc_hashset_has(&c->twice, h))
		return;
	ddbc_xgrow((void **)&c->suspects, &c->cap, c->nsuspects + 1, sizeof(suspect));
	suspect *s = &c->suspects[c->nsuspects];
	memset(s, 0, sizeof(*s));
	s->x = (owned_ident){ ddbc_arena_strdup(c->texts, id), owner, kind };
	s->seq = c->nsuspects++;
}

static int by_text(const void *a, const void *b)
{
	const suspect *x = a, *y = b;
	int r = strcmp(x->x.id, y->x.id);
	return r ? r : (x->seq > y->seq) - (x->seq < y->seq);
}

static int by_seq(const void *a, const void *b)
{
	const suspect *x = a, *y = b;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Reports each suspect whose text an earlier one had, against the first
 * with that text, in walk order: what one walk keeping every text would
 * report. Suspects alone with their text were hash collisions. */
static void report_suspects(planner *p, name_check *c)
{
	suspect *s = c->suspects;
	size_t n = c->nsuspects;
	if (!n)
		return;
	qsort(s, n, sizeof(*s), by_text);
	for (size_t i = 1, first = 0; i < n; i++) {
		if (strcmp(s[i].x.id, s[first].x.id)) {
			first = i;
			continue;
		}
		s[i].first = s[first].x;
		s[i].later = true;
	}
	qsort(s, n, sizeof(*s), by_seq);
	for (size_t i = 0; i < n; i++)
		if (s[i].later)
			collision(p, &s[i].first, &s[i].x);
}

void ddbc_hplan_settle(planner *p, name_check *c, void (*walk)(planner *, name_check *))
{
	if (c->seen) {
		ddbc_hashes_repeated(c->seen, c->nseen, &c->twice);
		free(c->seen);
		c->seen = NULL;
	}
	if (!c->twice.n)
		return;
	c->second = true;
	walk(p, c);
	report_suspects(p, c);
}
