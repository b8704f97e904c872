/* header_plan.c - deciding the header's identifiers and builders */
#include "emit/header_plan.h"
#include "model/expr_names.h"
#include "model/reserved.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expansion depth of nested templates; cycles are reported by the rules,
 * this only bounds the walk on a design that was not checked. */
#define MAX_DEPTH 16

typedef struct planner {
	ddbc_header_plan *plan;
	const ddbc_design *g;
	ddbc_diags *d;
	bool findings;
} planner;

/* ---- identifiers ------------------------------------------------------------ */

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static char to_case(char c, bool upper)
{
	if (upper && is_lower(c))
		return (char)(c - 'a' + 'A');
	if (!upper && is_upper(c))
		return (char)(c - 'A' + 'a');
	return c;
}

/* The identifier part of name (see header_plan.h), or NULL when the name
 * has no ASCII letter or digit. */
static const char *ident_part(ddbc_arena *arena, const char *name, bool upper)
{
	strbuf sb = STRBUF_INIT;
	bool gap = false;
	for (size_t i = 0; name[i]; i++) {
		char c = name[i];
		if (!is_alnum(c)) {
			gap = true;
			continue;
		}
		if (sb.len && (gap || (is_upper(c) && is_lower(name[i - 1]))))
			strbuf_addch(&sb, '_');
		gap = false;
		strbuf_addch(&sb, to_case(c, upper));
	}
	const char *r = sb.len ? ddbc_arena_strndup(arena, sb.buf, sb.len) : NULL;
	strbuf_release(&sb);
	return r;
}

static const char *lower_of(ddbc_arena *arena, const char *s)
{
	char *r = ddbc_arena_strdup(arena, s);
	for (char *p = r; *p; p++)
		*p = to_case(*p, false);
	return r;
}

/* A C identifier: a letter or '_', then letters, digits and '_'. */
static bool is_c_identifier(const char *s)
{
	if (!*s || is_digit(*s))
		return false;
	for (; *s; s++)
		if (!is_alnum(*s) && *s != '_')
			return false;
	return true;
}

/* Words a parameter may not be: C and C++ keywords (C++ alternative
 * tokens included), lower-case macros of the C library and of GNU
 * compilers, and the builders' own names. Sorted for bsearch. */
static const char *const param_words[] = {
	"alignas", "alignof", "and", "and_eq", "asm", "assert", "auto", "bitand", "bitor",
	"bool", "break", "buf", "case", "catch", "char", "char16_t", "char32_t", "char8_t",
	"class", "co_await", "co_return", "co_yield", "compl", "complex", "concept", "const",
	"const_cast", "consteval", "constexpr", "constinit", "continue", "decltype", "default",
	"delete", "do", "double", "dynamic_cast", "else", "enum", "errno", "explicit", "export",
	"extern", "false", "float", "for", "friend", "goto", "i386", "if", "imaginary", "inline",
	"int", "linux", "long", "mutable", "namespace", "new", "noexcept", "noreturn", "not",
	"not_eq", "nullptr", "offsetof", "operator", "or", "or_eq", "private", "protected",
	"public", "register", "reinterpret_cast", "requires", "restrict", "return", "short",
	"signed", "size", "size_t", "sizeof", "snprintf", "static", "static_assert",
	"static_cast", "stderr", "stdin", "stdout", "struct", "switch", "template", "this",
	"thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "typeof",
	"typeof_unqual", "union", "unix", "unsigned", "using", "va_arg", "virtual", "void",
	"volatile", "wchar_t", "while", "xor", "xor_eq",
};

static int compare_word(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static const char *param_name(ddbc_arena *arena, const char *member_lower)
{
	if (is_digit(member_lower[0]))
		return ddbc_arena_printf(arena, "_%s", member_lower);
	if (bsearch(member_lower, param_words, sizeof(param_words) / sizeof(param_words[0]),
		    sizeof(param_words[0]), compare_word))
		return ddbc_arena_printf(arena, "%s_", member_lower);
	return member_lower;
}

/* ---- the prefix ---------------------------------------------------------------- */

static bool usable_prefix(const char *s)
{
	size_t n = strlen(s);
	return n && !is_digit(s[0]) && s[0] != '_' && is_c_identifier(s) && s[n - 1] != '_' &&
	       !strstr(s, "__");
}

static int plan_prefix(planner *p, const ddbc_header_opts *o)
{
	ddbc_header_plan *plan = p->plan;
	const char *prefix;
	if (o && o->prefix) {
		if (!usable_prefix(o->prefix)) {
			fprintf(stderr, "ddbc header: --prefix '%s' is not a usable C identifier; "
				"write a letter, then letters, digits and single '_' (e.g. "
				"--prefix SR)\n", o->prefix);
			return DDBC_EMIT_FAILED;
		}
		prefix = o->prefix;
	} else {
		const char *name = p->g->name.s ? p->g->name.s : "";
		prefix = ident_part(plan->arena, name, true);
		if (!prefix || is_digit(prefix[0])) {
			ddbc_diag_add(p->d, DDBC_RULE_SCHEMA, p->g->name.loc,
				      "design name '%s' gives no C identifier for the header's "
				      "prefix; pass one with --prefix ID", name);
			return DDBC_EMIT_FINDINGS;
		}
	}
	char *upper = ddbc_arena_strdup(plan->arena, prefix);
	for (char *c = upper; *c; c++)
		*c = to_case(*c, true);
	plan->prefix = upper;
	plan->prefix_lower = lower_of(plan->arena, upper);
	plan->guard = ddbc_arena_printf(plan->arena, "%s_DDBC_H", upper);
	return DDBC_EMIT_OK;
}

/* ---- tables and entities ------------------------------------------------------- */

static void plan_table(planner *p, ddbc_htable *ht, const ddbc_table *t)
{
	ddbc_arena *arena = p->plan->arena;
	ht->table = t;
	/* DynamoDB table and index names always hold a letter or digit. */
	const char *tid = ident_part(arena, t->name.s, true);
	if (!tid)
		tid = "_";
	ht->macro = ddbc_arena_printf(arena, "%s_%s_TABLE", p->plan->prefix, tid);
	ht->nindexes = t->ngsi + t->nlsi;
	ht->indexes = ddbc_arena_array(arena, ht->nindexes, sizeof(ddbc_hindex));
	for (size_t i = 0; i < ht->nindexes; i++) {
		const ddbc_index *ix = i < t->ngsi ? &t->gsi[i] : &t->lsi[i - t->ngsi];
		const char *iid = ident_part(arena, ix->name.s, true);
		ht->indexes[i].index = ix;
		ht->indexes[i].macro = ddbc_arena_printf(arena, "%s_%s_%s_INDEX", p->plan->prefix,
							 tid, iid ? iid : "_");
	}
}

/* The entity's identifier part from c_name or its name; NULL (reported)
 * when there is none. */
static const char *entity_ident(planner *p, const ddbc_entity *e)
{
	ddbc_arena *arena = p->plan->arena;
	if (e->c_name.s) {
		if (!is_c_identifier(e->c_name.s)) {
			ddbc_diag_add(p->d, DDBC_RULE_SCHEMA, e->c_name.loc,
				      "c_name '%s' of entity '%s' is not a C identifier; write "
				      "ASCII letters, digits and '_', not starting with a digit",
				      e->c_name.s, e->name.s);
			return NULL;
		}
		const char *id = ident_part(arena, e->c_name.s, true);
		if (!id)
			ddbc_diag_add(p->d, DDBC_RULE_SCHEMA, e->c_name.loc,
				      "c_name '%s' of entity '%s' has no letter or digit; name the "
				      "entity in C with letters", e->c_name.s, e->name.s);
		return id;
	}
	const char *id = ident_part(arena, e->name.s, true);
	if (!id)
		ddbc_diag_add(p->d, DDBC_RULE_SCHEMA, e->name.loc,
			      "entity '%s' gives no C identifier: the header keeps only ASCII "
			      "letters and digits of names; set c_name, e.g. 'c_name: Item'",
			      e->name.s);
	return id;
}

static void plan_attr_names(planner *p, const ddbc_hentity *he, ddbc_hattr *ha,
			    const ddbc_attr *a)
{
	ddbc_arena *arena = p->plan->arena;
	ha->attr = a;
	const char *member = ident_part(arena, a->name.s, true);
	if (!member) {
		ddbc_diag_add(p->d, DDBC_RULE_SCHEMA, a->name.loc,
			      "attribute '%s' of entity '%s' gives no C identifier: the header "
			      "keeps only ASCII letters and digits of names; give the attribute a "
			      "name with ASCII letters", a->name.s, he->entity->name.s);
		p->findings = true;
		return;
	}
	const char *member_lower = lower_of(arena, member);
	const char *stem = ddbc_arena_printf(arena, "%s_%s_%s", p->plan->prefix, he->ident,
					     member);
	ha->name_macro = ddbc_arena_printf(arena, "%s_NAME", stem);
	if (ddbc_name_needs_placeholder(a->name.s)) {
		ha->expr_macro = ddbc_arena_printf(arena, "%s_EXPR_NAME", stem);
		/* The name itself where DynamoDB allows it after '#'. */
		ha->expr_name = ddbc_arena_printf(arena, "#%s", ddbc_name_placeholder_safe(a->name.s) ? a->name.s
											: member_lower);
	}
	ha->param = param_name(arena, member_lower);
	if (!a->has_template)
		return;
	ha->builder = stem;
}

/* ---- keys ------------------------------------------------------------------------ */

typedef struct key_builder {
	ddbc_hkey *key;
	size_t pieces_cap, params_cap;
	strbuf lit;              /* the literal being gathered */
} key_builder;

static void flush_literal(ddbc_arena *arena, key_builder *kb)
{
	if (!kb->lit.len)
		return;
	ddbc_hkey *k = kb->key;
	xgrow((void **)&k->pieces, &kb->pieces_cap, k->npieces + 1, sizeof(ddbc_hpiece));
	ddbc_hpiece *pc = &k->pieces[k->npieces++];
	pc->text = ddbc_arena_strndup(arena, kb->lit.buf, kb->lit.len);
	pc->len = kb->lit.len;
	pc->param = 0;
	pc->width = 0;
	strbuf_reset(&kb->lit);
}

static size_t add_param(key_builder *kb, const ddbc_hentity *he, const ddbc_attr *b)
{
	ddbc_hkey *k = kb->key;
	for (size_t i = 0; i < k->nparams; i++)
		if (k->params[i].attr == b)
			return i;
	const ddbc_hattr *hb = &he->attrs[b - he->entity->attrs];
	xgrow((void **)&k->params, &kb->params_cap, k->nparams + 1, sizeof(ddbc_hparam));
	ddbc_hparam *pm = &k->params[k->nparams];
	pm->attr = b;
	pm->name = hb->param;
	pm->number = b->type == DDBC_TYPE_N;
	return k->nparams++;
}

/* Appends a's template to kb, expanding placeholders that name an
 * attribute with a template. Returns false on a placeholder that names no
 * attribute (a design that was not checked). */
static bool expand(key_builder *kb, const ddbc_hentity *he, const ddbc_attr *a,
		   ddbc_arena *arena, unsigned depth)
{
	for (size_t i = 0; i < a->tpl.nsegs; i++) {
		const ddbc_segment *seg = &a->tpl.segs[i];
		const ddbc_attr *b = seg->ref;
		if (seg->kind == DDBC_SEG_LITERAL) {
			strbuf_add(&kb->lit, seg->text, seg->len);
			continue;
		}
		if (!b)
			return false;
		if (b->has_template && !b->in_cycle && depth < MAX_DEPTH) {
			if (!expand(kb, he, b, arena, depth + 1))
				return false;
			continue;
		}
		flush_literal(arena, kb);
		ddbc_hkey *k = kb->key;
		size_t param = add_param(kb, he, b);
		xgrow((void **)&k->pieces, &kb->pieces_cap, k->npieces + 1, sizeof(ddbc_hpiece));
		k->pieces[k->npieces++] = (ddbc_hpiece){ NULL, 0, param, seg->width };
	}
	return true;
}

/* Moves a grown array into the arena, so that the plan has one owner. */
static void *to_arena(ddbc_arena *arena, void *p, size_t n, size_t size)
{
	void *r = ddbc_arena_array(arena, n, size);
	if (n)
		memcpy(r, p, n * size);
	free(p);
	return r;
}

static bool plan_key(planner *p, const ddbc_hentity *he, ddbc_hattr *ha)
{
	ddbc_arena *arena = p->plan->arena;
	ddbc_hkey *k = ddbc_arena_alloc(arena, sizeof(*k));
	key_builder kb = { k, 0, 0, STRBUF_INIT };
	bool ok = expand(&kb, he, ha->attr, arena, 0);
	flush_literal(arena, &kb);
	strbuf_release(&kb.lit);
	k->pieces = to_arena(arena, k->pieces, k->npieces, sizeof(ddbc_hpiece));
	k->params = to_arena(arena, k->params, k->nparams, sizeof(ddbc_hparam));
	if (!ok)
		return false;
	k->constant = k->nparams == 0;
	k->prefix = "";
	if (k->npieces && k->pieces[0].text) {
		k->prefix = k->pieces[0].text;
		k->prefix_len = k->pieces[0].len;
	}
	ha->key = k;
	/* A template whose placeholders all expand to constants is a constant. */
	if (k->constant)
		return true;
	p->plan->has_builders = true;
	ha->func = lower_of(arena, ha->builder);
	ha->fmt_macro = ddbc_arena_printf(arena, "%s_FMT", ha->builder);
	if (k->prefix_len)
		ha->prefix_macro = ddbc_arena_printf(arena, "%s_PREFIX", ha->builder);
	return true;
}

/* ---- uniqueness ------------------------------------------------------------------ */

typedef enum owner_kind { OWN_GUARD, OWN_TABLE, OWN_INDEX, OWN_ENTITY, OWN_ATTR } owner_kind;

/* One identifier the header defines, and what it names. */
typedef struct ident {
	const char *id;
	const void *owner;       /* the table, index, entity or attribute */
	uint32_t hash;
	owner_kind kind;
} ident;

/* The table or entity an identifier's owner belongs to. */
static const void *group_of(const ident *x)
{
	switch (x->kind) {
	case OWN_ATTR: return ((const ddbc_attr *)x->owner)->entity;
	case OWN_INDEX: return ((const ddbc_index *)x->owner)->table;
	default: return x->owner;
	}
}

/* The identifiers seen so far, in a hash table (open addressing over
 * indexes into items), so that a design of any size is checked in linear
 * time and little memory. */
typedef struct ident_set {
	ident *items;
	size_t n, cap;
	uint32_t *slots;         /* 1 + an index into items; 0 = empty */
	size_t nslots;
	const void **pairs;      /* owner pairs already reported */
	size_t npairs, pairs_cap;
} ident_set;

static uint32_t hash_str(const char *s)
{
	uint64_t h = 14695981039346656037u;  /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return (uint32_t)(h ^ (h >> 32));
}

/* The slot of id: where it is, or the empty slot where it would go. */
static uint32_t *find_slot(const ident_set *s, const char *id, uint32_t hash)
{
	size_t mask = s->nslots - 1;
	for (size_t i = hash & mask;; i = (i + 1) & mask) {
		uint32_t k = s->slots[i];
		if (!k || (s->items[k - 1].hash == hash && !strcmp(s->items[k - 1].id, id)))
			return &s->slots[i];
	}
}

static void grow_set(ident_set *s)
{
	free(s->slots);
	s->nslots = s->nslots ? s->nslots * 2 : 1024;
	s->slots = xcalloc(s->nslots, sizeof(uint32_t));
	for (size_t i = 0; i < s->n; i++)
		*find_slot(s, s->items[i].id, s->items[i].hash) = (uint32_t)(i + 1);
}

static void clear_set(ident_set *s)
{
	free(s->items);
	free(s->slots);
	s->items = NULL;
	s->slots = NULL;
	s->n = s->cap = s->nslots = 0;
}

static ddbc_loc owner_loc(const planner *p, const ident *x)
{
	switch (x->kind) {
	case OWN_GUARD: return p->g->name.loc;
	case OWN_TABLE: return ((const ddbc_table *)x->owner)->name.loc;
	case OWN_INDEX: return ((const ddbc_index *)x->owner)->name.loc;
	case OWN_ENTITY: return ((const ddbc_entity *)x->owner)->name.loc;
	case OWN_ATTR: return ((const ddbc_attr *)x->owner)->name.loc;
	}
	return p->g->name.loc;
}

static void describe(strbuf *sb, const ident *x)
{
	const ddbc_index *ix = x->owner;
	const ddbc_attr *a = x->owner;
	switch (x->kind) {
	case OWN_GUARD: strbuf_addstr(sb, "the include guard"); break;
	case OWN_TABLE:
		strbuf_addf(sb, "table '%s'", ((const ddbc_table *)x->owner)->name.s);
		break;
	case OWN_INDEX:
		strbuf_addf(sb, "index '%s' of table '%s'", ix->name.s, ix->table->name.s);
		break;
	case OWN_ENTITY:
		strbuf_addf(sb, "entity '%s'", ((const ddbc_entity *)x->owner)->name.s);
		break;
	case OWN_ATTR:
		strbuf_addf(sb, "attribute '%s' of entity '%s'", a->name.s, a->entity->name.s);
		break;
	}
}

static bool loc_before(ddbc_loc a, ddbc_loc b)
{
	return a.line < b.line || (a.line == b.line && a.column < b.column);
}

static bool was_reported(const ident_set *s, const void *a, const void *b)
{
	for (size_t i = 0; i < s->npairs; i += 2)
		if ((s->pairs[i] == a && s->pairs[i + 1] == b) ||
		    (s->pairs[i] == b && s->pairs[i + 1] == a))
			return true;
	return false;
}

static void record(ident_set *s, const void *a, const void *b)
{
	xgrow((void **)&s->pairs, &s->pairs_cap, s->npairs + 2, sizeof(void *));
	s->pairs[s->npairs++] = a;
	s->pairs[s->npairs++] = b;
}

/* Reports that x and y get the same identifier, at the later of the two. */
static void collision(planner *p, ident_set *s, const ident *x, const ident *y)
{
	if (x->owner == y->owner || was_reported(s, x->owner, y->owner))
		return;
	/* Two entities or tables with one C name were reported as such. */
	if (group_of(x) != group_of(y) && (x->kind == OWN_ATTR || x->kind == OWN_INDEX) &&
	    (y->kind == OWN_ATTR || y->kind == OWN_INDEX) &&
	    was_reported(s, group_of(x), group_of(y)))
		return;
	record(s, x->owner, y->owner);
	ddbc_loc lx = owner_loc(p, x), ly = owner_loc(p, y);
	if (loc_before(ly, lx)) {
		const ident *t = x;
		x = y;
		y = t;
		ddbc_loc l = lx;
		lx = ly;
		ly = l;
	}
	strbuf later = STRBUF_INIT, earlier = STRBUF_INIT;
	describe(&later, y);
	describe(&earlier, x);
	bool entities = x->kind == OWN_ENTITY || y->kind == OWN_ENTITY;
	ddbc_diag_add(p->d, DDBC_RULE_SCHEMA, ly,
		      "C name '%s' of %s is also the C name of %s (line %u); the header "
		      "cannot tell them apart: %s", y->id, strbuf_str(&later),
		      strbuf_str(&earlier), lx.line,
		      entities ? "set c_name on one of the entities" : "rename one of them");
	strbuf_release(&later);
	strbuf_release(&earlier);
	p->findings = true;
}

/* Adds an identifier; one that is already there is a collision. */
static void add_ident(planner *p, ident_set *s, const char *id, owner_kind kind,
		      const void *owner)
{
	if (!id)
		return;
	if ((s->n + 1) * 4 > s->nslots * 3)
		grow_set(s);
	ident x = { id, owner, hash_str(id), kind };
	uint32_t *slot = find_slot(s, id, x.hash);
	if (*slot) {
		collision(p, s, &s->items[*slot - 1], &x);
		return;
	}
	xgrow((void **)&s->items, &s->cap, s->n + 1, sizeof(ident));
	s->items[s->n++] = x;
	*slot = (uint32_t)s->n;
}

/* Entities and tables with the same C name are reported once, before the
 * identifiers that follow from them. */
static void add_groups(planner *p, ident_set *s)
{
	const ddbc_header_plan *plan = p->plan;
	for (size_t i = 0; i < plan->ntables; i++)
		add_ident(p, s, plan->tables[i].macro, OWN_TABLE, plan->tables[i].table);
	for (size_t i = 0; i < plan->nentities; i++)
		add_ident(p, s, plan->entities[i].ident, OWN_ENTITY, plan->entities[i].entity);
}

static void add_idents(planner *p, ident_set *s)
{
	const ddbc_header_plan *plan = p->plan;
	add_ident(p, s, plan->guard, OWN_GUARD, plan);
	for (size_t i = 0; i < plan->ntables; i++) {
		const ddbc_htable *ht = &plan->tables[i];
		add_ident(p, s, ht->macro, OWN_TABLE, ht->table);
		for (size_t k = 0; k < ht->nindexes; k++)
			add_ident(p, s, ht->indexes[k].macro, OWN_INDEX, ht->indexes[k].index);
	}
	for (size_t i = 0; i < plan->nentities; i++) {
		const ddbc_hentity *he = &plan->entities[i];
		for (size_t k = 0; k < he->nattrs; k++) {
			const ddbc_hattr *ha = &he->attrs[k];
			const char *ids[] = { ha->name_macro, ha->expr_macro, ha->builder, ha->func,
					      ha->fmt_macro, ha->prefix_macro };
			for (size_t m = 0; m < sizeof(ids) / sizeof(ids[0]); m++)
				add_ident(p, s, ids[m], OWN_ATTR, ha->attr);
		}
	}
}

/* Sizes s for n identifiers at once: no growing on the way. */
static void reserve_set(ident_set *s, size_t n)
{
	xgrow((void **)&s->items, &s->cap, n, sizeof(ident));
	size_t nslots = 1024;
	while (nslots / 4 * 3 < n + 1)
		nslots *= 2;
	s->nslots = nslots / 2;
	grow_set(s);
}

static void plan_unique(planner *p)
{
	const ddbc_header_plan *plan = p->plan;
	ident_set s;
	memset(&s, 0, sizeof(s));
	reserve_set(&s, plan->ntables + plan->nentities);
	add_groups(p, &s);
	/* Keep the reported pairs: collisions that follow from them are not
	 * reported again. */
	clear_set(&s);
	size_t n = 1 + plan->ntables;
	for (size_t i = 0; i < plan->ntables; i++)
		n += plan->tables[i].nindexes;
	/* The identifiers there are, not the six an attribute may have: the
	 * set of a large design is sized for what it holds. */
	for (size_t i = 0; i < plan->nentities; i++) {
		for (size_t k = 0; k < plan->entities[i].nattrs; k++) {
			const ddbc_hattr *ha = &plan->entities[i].attrs[k];
			n += !!ha->name_macro + !!ha->expr_macro + !!ha->builder + !!ha->func +
			     !!ha->fmt_macro + !!ha->prefix_macro;
		}
	}
	reserve_set(&s, n);
	add_idents(p, &s);
	clear_set(&s);
	free(s.pairs);
}

/* ---- the plan ------------------------------------------------------------------------ */

static bool plan_entity(planner *p, ddbc_hentity *he, const ddbc_entity *e)
{
	ddbc_arena *arena = p->plan->arena;
	he->entity = e;
	he->ident = entity_ident(p, e);
	he->nattrs = e->nattrs;
	he->attrs = ddbc_arena_array(arena, e->nattrs, sizeof(ddbc_hattr));
	if (!he->ident) {
		p->findings = true;
		return true;
	}
	for (size_t i = 0; i < e->nattrs; i++)
		plan_attr_names(p, he, &he->attrs[i], &e->attrs[i]);
	for (size_t i = 0; i < e->nattrs; i++) {
		ddbc_hattr *ha = &he->attrs[i];
		if (ha->builder && !plan_key(p, he, ha))
			return false;
	}
	return true;
}

int ddbc_header_plan_build(ddbc_header_plan *plan, const ddbc_design *g,
			   const ddbc_header_opts *o, ddbc_diags *d)
{
	memset(plan, 0, sizeof(*plan));
	plan->arena = ddbc_arena_new();
	planner p = { plan, g, d, false };
	int r = plan_prefix(&p, o);
	if (r != DDBC_EMIT_OK)
		return r;
	plan->ntables = g->ntables;
	plan->tables = ddbc_arena_array(plan->arena, g->ntables, sizeof(ddbc_htable));
	for (size_t i = 0; i < g->ntables; i++)
		plan_table(&p, &plan->tables[i], &g->tables[i]);
	plan->nentities = g->nentities;
	plan->entities = ddbc_arena_array(plan->arena, g->nentities, sizeof(ddbc_hentity));
	for (size_t i = 0; i < g->nentities; i++) {
		if (!plan_entity(&p, &plan->entities[i], &g->entities[i])) {
			fprintf(stderr, "ddbc header: entity '%s' has a template placeholder that "
				"names no attribute; run 'ddbc lint' first\n", g->entities[i].name.s);
			return DDBC_EMIT_FAILED;
		}
	}
	plan_unique(&p);
	return p.findings ? DDBC_EMIT_FINDINGS : DDBC_EMIT_OK;
}

void ddbc_header_plan_free(ddbc_header_plan *plan)
{
	ddbc_arena_free(plan->arena);
	memset(plan, 0, sizeof(*plan));
}
