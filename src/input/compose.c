/* compose.c - composing libyaml's events into a positioned node tree */
#include "input/compose.h"
#include "input/suppress.h"
#include "util/strset.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

/* A collection under construction. */
struct frame {
	ddbc_node *node;
	size_t base, n;         /* its children: kids[base..base+n); for a mapping,
				   key and value alternate */
	size_t anchor;          /* index into anchors + 1, or 0 */
	size_t section;         /* a streamed section, or a nested mapping
				   streamed in its entries: the sink's index + 1 */
	bool nested;            /* the nested mapping of a section's entry */
	ddbc_strset seen;       /* a streamed section's keys (their nodes outlive it),
				   once it has more than KEYS_SCANNED */
	size_t keyed;           /* how many of its keys are in seen */
	bool repeated;          /* a streamed mapping: a key of its came twice */
};

struct anchor {
	char *name;
	ddbc_node *node;
	bool open;              /* its node is still being composed */
};

struct composer {
	ddbc_arena *arena;
	const ddbc_source *src;
	ddbc_diags *d;
	yaml_parser_t parser;
	struct frame *stack;
	size_t depth, stack_cap;
	/* The children of every open collection, the innermost last: one
	 * array for all, so a collection costs no allocation of its own. */
	ddbc_node **kids;
	size_t nkids, kids_cap;
	/* finish_map's pairs before duplicates and merges are settled: one
	 * array for every mapping, not an allocation each (a design has
	 * tens of thousands of mappings). */
	ddbc_pair *pairs;
	size_t pairs_cap;
	struct anchor *anchors;
	size_t nanchors, anchors_cap;
	size_t aliased;         /* nodes that aliases expand to, so far */
	ddbc_node *root;
	bool failed;
	const ddbc_yaml_sink *sink;
	unsigned streamed;      /* bit per section already streamed */
	ddbc_arena *scratch;    /* the nodes of the entry being streamed */
	bool scratch_pinned;    /* scratch holds a node used later: keep it */
	ddbc_arena *member_scratch; /* the nodes of a nested member being streamed */
	bool member_pinned;
	bool nested_streamed;   /* the current entry's nested mapping was streamed */
	size_t read, evicted;   /* how much of the text libyaml has, and we gave back */
};

static ddbc_loc loc_of(yaml_mark_t m)
{
	ddbc_loc loc = { (unsigned)m.line + 1, (unsigned)m.column + 1 };
	return loc;
}

static void fail(struct composer *c, ddbc_loc loc, const char *fmt, const char *arg)
{
	ddbc_diag_add(c->d, DDBC_RULE_YAML_SYNTAX, loc, fmt, arg);
	c->failed = true;
}

/* ---- scalars ------------------------------------------------------------ */

static bool all_digits(const char *s, const char *digits)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr(digits, *s))
			return false;
	return true;
}

static bool all_decimal(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool is_float(const char *s)
{
	if (*s == '+' || *s == '-')
		s++;
	if (!strcmp(s, ".inf") || !strcmp(s, ".Inf") || !strcmp(s, ".INF"))
		return true;
	size_t ndigits = 0;
	while (*s >= '0' && *s <= '9')
		s++, ndigits++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++, ndigits++;
	}
	if (!ndigits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!all_decimal(s))
			return false;
		return true;
	}
	return *s == '\0';
}

/* Whether the n bytes at s are one of the three spellings YAML's core
 * schema gives a word (lower, capitalised, upper case): the caller knows
 * the length and the first byte already. */
static bool core_word(const char *s, size_t n, const char *lower, const char *capital,
		      const char *upper)
{
	return !memcmp(s, lower, n) || !memcmp(s, capital, n) || !memcmp(s, upper, n);
}

/* The YAML 1.2 core schema's resolution of the rare plain scalars whose
 * first byte may start a null, a bool or a number. */
static ddbc_scalar_kind resolve_plain_slow(const char *s, size_t n)
{
	switch (*s) {
	case '~':
		return n == 1 ? DDBC_SCALAR_NULL : DDBC_SCALAR_STR;
	case 'n':
	case 'N':
		return n == 4 && core_word(s, 4, "null", "Null", "NULL")
			? DDBC_SCALAR_NULL : DDBC_SCALAR_STR;
	case 't':
	case 'T':
		return n == 4 && core_word(s, 4, "true", "True", "TRUE")
			? DDBC_SCALAR_BOOL : DDBC_SCALAR_STR;
	case 'f':
	case 'F':
		return n == 5 && core_word(s, 5, "false", "False", "FALSE")
			? DDBC_SCALAR_BOOL : DDBC_SCALAR_STR;
	default:
		break;
	}
	const char *t = (*s == '+' || *s == '-') ? s + 1 : s;
	if (all_decimal(t))
		return DDBC_SCALAR_INT;
	if ((!strncmp(s, "0x", 2) && all_digits(s + 2, "0123456789abcdefABCDEF")) ||
	    (!strncmp(s, "0o", 2) && all_digits(s + 2, "01234567")))
		return DDBC_SCALAR_INT;
	if (is_float(s) || !strcmp(s, ".nan") || !strcmp(s, ".NaN") || !strcmp(s, ".NAN"))
		return DDBC_SCALAR_FLOAT;
	return DDBC_SCALAR_STR;
}

/* The first bytes that can start a core-schema null, bool, int or float
 * (a NUL only ends an empty scalar, which n settles). */
static const bool may_resolve[256] = {
	['~'] = true, ['n'] = true, ['N'] = true, ['t'] = true, ['T'] = true,
	['f'] = true, ['F'] = true, ['+'] = true, ['-'] = true, ['.'] = true,
	['0'] = true, ['1'] = true, ['2'] = true, ['3'] = true, ['4'] = true,
	['5'] = true, ['6'] = true, ['7'] = true, ['8'] = true, ['9'] = true,
};

/* The YAML 1.2 core schema's resolution of a plain scalar of n bytes
 * (NUL-terminated). Most plain scalars are names: their first byte settles
 * them with one look-up, here, in the per-scalar path. */
static inline ddbc_scalar_kind resolve_plain(const char *s, size_t n)
{
	if (n == 0)
		return DDBC_SCALAR_NULL;
	if (!may_resolve[(unsigned char)*s])
		return DDBC_SCALAR_STR;
	return resolve_plain_slow(s, n);
}

static ddbc_scalar_kind resolve_tagged(const char *tag, const char *text)
{
	static const char prefix[] = "tag:yaml.org,2002:";
	if (strncmp(tag, prefix, sizeof(prefix) - 1) != 0)
		return DDBC_SCALAR_STR;
	tag += sizeof(prefix) - 1;
	ddbc_scalar_kind plain = resolve_plain(text, strlen(text));
	if (!strcmp(tag, "int") && plain == DDBC_SCALAR_INT)
		return DDBC_SCALAR_INT;
	if (!strcmp(tag, "float") && (plain == DDBC_SCALAR_INT || plain == DDBC_SCALAR_FLOAT))
		return DDBC_SCALAR_FLOAT;
	if (!strcmp(tag, "bool") && plain == DDBC_SCALAR_BOOL)
		return DDBC_SCALAR_BOOL;
	if (!strcmp(tag, "null") && plain == DDBC_SCALAR_NULL)
		return DDBC_SCALAR_NULL;
	return DDBC_SCALAR_STR;
}

/* Nodes inside an entry of a streamed section go to the scratch arena,
 * which is cleared once the sink has taken the entry. The section's keys
 * (stack[1]'s even children) stay: duplicates are found among them. Inside
 * an entry, the members of its streamed nested mapping (stack[3]) are
 * cleared member by member, their keys with the entry. */
static inline ddbc_arena *node_arena(const struct composer *c)
{
	if (c->depth < 2 || !c->stack[1].section)
		return c->arena;
	if (c->depth == 2 && c->stack[1].n % 2 == 0)
		return c->arena;
	if (c->depth >= 4 && c->stack[3].nested && (c->depth > 4 || c->stack[3].n % 2 == 1))
		return c->member_scratch;
	return c->scratch;
}

/* Keeps the scratch memory of the entry or member being read for as long
 * as the tree: it holds a node used later. An inline merge source is one:
 * its mapping gets the source's pairs. */
static void pin(struct composer *c, const ddbc_arena *arena)
{
	if (arena == c->scratch)
		c->scratch_pinned = true;
	if (arena == c->member_scratch)
		c->member_pinned = true;
}

/* A scalar node in arena, which is node_arena(c). */
static ddbc_node *new_scalar(ddbc_arena *arena, const yaml_event_t *ev)
{
	size_t len = ev->data.scalar.length;
	/* The text right behind its node: one allocation a scalar, not two,
	 * and the two share a cache line when the node is read. (len is
	 * below 4 GiB: on_event checked.) */
	ddbc_node *node = ddbc_arena_alloc(arena, sizeof(*node) + len + 1);
	node->kind = DDBC_NODE_SCALAR;
	node->loc = loc_of(ev->start_mark);
	node->n = (uint32_t)len;
	node->u.text = (char *)(node + 1);
	memcpy(node->u.text, ev->data.scalar.value, len);
	node->u.text[len] = '\0';
	node->weight = 1;
	const char *tag = (const char *)ev->data.scalar.tag;
	if (tag && strcmp(tag, "!") != 0)
		node->scalar = resolve_tagged(tag, node->u.text);
	else if (ev->data.scalar.plain_implicit && !tag)
		node->scalar = resolve_plain(node->u.text, node->n), node->plain = 1;
	else
		node->scalar = DDBC_SCALAR_STR;
	return node;
}

/* ---- anchors and aliases -------------------------------------------------- */

static size_t add_anchor(struct composer *c, const yaml_char_t *name, ddbc_node *node, bool open,
			 ddbc_arena *arena)
{
	/* A later alias may use the node: its entry's memory must stay. */
	pin(c, arena);
	ddbc_xgrow((void **)&c->anchors, &c->anchors_cap, c->nanchors + 1, sizeof(struct anchor));
	struct anchor *a = &c->anchors[c->nanchors++];
	a->name = ddbc_xstrdup((const char *)name);
	a->node = node;
	a->open = open;
	return c->nanchors;
}

static ddbc_node *resolve_alias(struct composer *c, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	ddbc_loc loc = loc_of(ev->start_mark);
	/* The latest definition wins: YAML lets an anchor be redefined. */
	for (size_t i = c->nanchors; i-- > 0;) {
		if (strcmp(c->anchors[i].name, name) != 0)
			continue;
		if (c->anchors[i].open) {
			fail(c, loc, "alias '*%s' refers to a node that contains it", name);
			return NULL;
		}
		ddbc_node *node = c->anchors[i].node;
		c->aliased += node->weight;
		if (node->weight > DDBC_YAML_MAX_ALIAS_EXPANSION ||
		    c->aliased > DDBC_YAML_MAX_ALIAS_EXPANSION) {
			fail(c, loc, "aliases expand to more than 1000000 nodes at '*%s'; "
				     "the file looks like an alias bomb", name);
			return NULL;
		}
		return node;
	}
	fail(c, loc, "alias '*%s' names no anchor defined before it", name);
	return NULL;
}

/* ---- collections ----------------------------------------------------------- */

/* Whether a mapping opened now is the value of one of the sink's sections
 * (not yet streamed: a repeated section is composed and dropped whole).
 * Returns the section's index + 1, or 0. */
static size_t streamed_section(struct composer *c, ddbc_node_kind kind)
{
	if (!c->sink || kind != DDBC_NODE_MAP || c->depth != 1)
		return 0;
	const struct frame *root = &c->stack[0];
	if (root->node->kind != DDBC_NODE_MAP || root->n % 2 == 0)
		return 0;
	const ddbc_node *key = c->kids[root->base + root->n - 1];
	for (size_t i = 0; i < c->sink->nsections && i < 32; i++) {
		if (strcmp(key->u.text, c->sink->sections[i]) != 0 || (c->streamed & 1u << i))
			continue;
		c->streamed |= 1u << i;
		return i + 1;
	}
	return 0;
}

/* Only a plain "<<" merges; a quoted one is an ordinary key. */
static bool is_merge_key(const ddbc_node *key)
{
	return key->plain && key->n == 2 && key->u.text[0] == '<' && key->u.text[1] == '<';
}

/* The last key of an open mapping frame, or NULL if none is waiting for
 * its value. */
static const ddbc_node *pending_key(const struct composer *c, const struct frame *f)
{
	if (f->node->kind != DDBC_NODE_MAP || f->n % 2 == 0)
		return NULL;
	return c->kids[f->base + f->n - 1];
}

/* A streamed mapping of up to KEYS_SCANNED keys (an entity's attributes,
 * an attribute's fields) finds a repeated key by a scan of its own keys:
 * a set of them cost an allocation of 1 KiB a mapping. */
#define KEYS_SCANNED 16

/* Whether key came before in f, a streamed mapping, among its first
 * `before` keys. Past KEYS_SCANNED the set catches up with the keys
 * first: every key that came is handed over or a repeat of one that was. */
static bool key_before(const struct composer *c, struct frame *f, const ddbc_node *key,
		       size_t before)
{
	if (before <= KEYS_SCANNED) {
		for (size_t i = 0; i < before; i++) {
			const ddbc_node *k = c->kids[f->base + 2 * i];
			/* A merge key was never handed over. */
			if (k->n == key->n && !is_merge_key(k) &&
			    !memcmp(k->u.text, key->u.text, key->n))
				return true;
		}
		return false;
	}
	for (; f->keyed < before; f->keyed++) {
		const ddbc_node *k = c->kids[f->base + 2 * f->keyed];
		if (!is_merge_key(k) && !ddbc_strset_get(&f->seen, k->u.text, k->n))
			ddbc_strset_put(&f->seen, k->u.text, k->n);
	}
	return ddbc_strset_get(&f->seen, key->u.text, key->n) != NULL;
}

/* Whether a mapping opened now is the nested mapping of a streamed
 * section's entry (see ddbc_yaml_sink). Returns the section's index + 1,
 * or 0. A mapping that an alias could reach, through its own anchor or an
 * enclosing one, is composed whole: the alias must see all of it. */
static size_t nested_section(struct composer *c, ddbc_node_kind kind, bool anchored)
{
	if (!c->sink || !c->sink->nested || kind != DDBC_NODE_MAP || c->depth != 3 || anchored)
		return 0;
	struct frame *sec = &c->stack[1];
	const struct frame *entry = &c->stack[2];
	if (!sec->section || sec->nested || c->nested_streamed)
		return 0;
	const char *name = c->sink->nested[sec->section - 1];
	const ddbc_node *entry_key = pending_key(c, sec), *key = pending_key(c, entry);
	if (!name || !entry_key || !key || strcmp(key->u.text, name) != 0)
		return 0;
	/* A merged or repeated entry never reaches the sink. */
	if (is_merge_key(entry_key) || key_before(c, sec, entry_key, sec->n / 2))
		return 0;
	for (size_t i = 0; i < 3; i++)
		if (c->stack[i].anchor)
			return 0;
	c->nested_streamed = true;
	return sec->section;
}

static void push(struct composer *c, ddbc_node_kind kind, const yaml_event_t *ev,
		 const yaml_char_t *anchor)
{
	ddbc_arena *arena = node_arena(c);
	ddbc_node *node = ddbc_arena_alloc(arena, sizeof(*node));
	node->kind = kind;
	node->loc = loc_of(ev->start_mark);
	size_t section = streamed_section(c, kind);
	size_t nested = section ? 0 : nested_section(c, kind, anchor != NULL);
	if (c->depth == c->stack_cap)
		ddbc_xgrow((void **)&c->stack, &c->stack_cap, c->depth + 1, sizeof(struct frame));
	struct frame *f = &c->stack[c->depth++];
	memset(f, 0, sizeof(*f));
	f->node = node;
	f->base = c->nkids;
	f->section = section ? section : nested;
	f->nested = nested != 0;
	if (anchor)
		f->anchor = add_anchor(c, anchor, node, true, arena);
}

static uint32_t add_weight(uint32_t a, uint32_t b)
{
	return a > DDBC_NODE_WEIGHT_MAX - b ? DDBC_NODE_WEIGHT_MAX : a + b;
}

/* Gives the sink a section's entry or a nested member, unless its key came
 * before (that repeat is reported when the mapping closes). */
static void hand_over(struct composer *c, struct frame *f, const ddbc_pair *entry)
{
	/* The entry of a key still pending (f->n odd), or one merged in as
	 * the mapping closes, after all of its keys (those were handed over
	 * first, and mark_duplicates dropped a merged key they or an earlier
	 * merge set). */
	if (key_before(c, f, entry->key, f->n / 2)) {
		f->repeated = true;
		return;
	}
	if (f->nested)
		c->sink->member(c->sink->ctx, f->section - 1, entry);
	else
		c->sink->entry(c->sink->ctx, f->section - 1, entry, c->nested_streamed);
}

/* After an entry or member: its scratch memory is reused, unless it holds
 * a node used later (an anchored node, an inline merge source), in which
 * case it lives as long as the tree. */
static void recycle_scratch(struct composer *c, ddbc_arena **scratch, bool *pinned)
{
	if (!*pinned) {
		ddbc_arena_clear(*scratch);
		return;
	}
	ddbc_arena_adopt(c->arena, *scratch);
	*scratch = ddbc_arena_new();
	*pinned = false;
}

/* A streamed entry's value, once handed over: an empty mapping at its
 * position, as heavy as the value for the alias bound. A member's lives
 * with its entry. */
static ddbc_node *stub_of(struct composer *c, const struct frame *f, const ddbc_node *value)
{
	ddbc_node *stub = ddbc_arena_alloc(f->nested ? c->scratch : c->arena, sizeof(*stub));
	stub->kind = DDBC_NODE_MAP;
	stub->loc = value->loc;
	stub->weight = value->weight;
	return stub;
}

/* append's work for a streamed mapping (f->section) once a value comes:
 * the entry or member goes to the sink, and child becomes what stays in
 * the tree. Out of line: most nodes are not values of a streamed mapping,
 * and append stays small. */
static __attribute__((noinline)) ddbc_node *streamed_value(struct composer *c, struct frame *f,
							   ddbc_node *child)
{
	ddbc_node *key = c->kids[c->nkids - 1];
	if (is_merge_key(key)) {
		/* Merged when the mapping closes: keep it till then. */
		*(f->nested ? &c->member_pinned : &c->scratch_pinned) = true;
	} else if (f->nested) {
		ddbc_pair member = { key, child };
		hand_over(c, f, &member);
		child = stub_of(c, f, child);
		recycle_scratch(c, &c->member_scratch, &c->member_pinned);
	} else {
		ddbc_pair entry = { key, child };
		hand_over(c, f, &entry);
		child = stub_of(c, f, child);
		recycle_scratch(c, &c->scratch, &c->scratch_pinned);
		c->nested_streamed = false;
	}
	return child;
}

/* Adds child to the open collection; where is the event that brought it,
 * which for an alias is not the shared node's own position. */
static void append(struct composer *c, ddbc_node *child, ddbc_loc where)
{
	if (c->depth == 0) {
		c->root = child;
		return;
	}
	struct frame *f = &c->stack[c->depth - 1];
	/* The child's kind first: it is at hand, and most nodes are scalars. */
	if (child->kind != DDBC_NODE_SCALAR && f->node->kind == DDBC_NODE_MAP && f->n % 2 == 0) {
		fail(c, where, "a mapping key must be a scalar, not %s",
		     ddbc_node_describe(child));
		return;
	}
	if (f->section && f->n % 2 == 1)
		child = streamed_value(c, f, child);
	/* Every node comes here: the call only when the array is full. */
	if (c->nkids == c->kids_cap)
		ddbc_xgrow((void **)&c->kids, &c->kids_cap, c->nkids + 1, sizeof(ddbc_node *));
	c->kids[c->nkids++] = child;
	f->n++;
}

static int cmp_pair_key(const void *pa, const void *pb)
{
	const ddbc_pair *a = *(ddbc_pair *const *)pa, *b = *(ddbc_pair *const *)pb;
	size_t n = a->key->n < b->key->n ? a->key->n : b->key->n;
	int r = memcmp(a->key->u.text, b->key->u.text, n);
	if (r)
		return r;
	if (a->key->n != b->key->n)
		return a->key->n < b->key->n ? -1 : 1;
	/* Equal keys: the earlier one in the file first. */
	return a < b ? -1 : a > b;
}

static bool same_key(const ddbc_node *a, const ddbc_node *b)
{
	/* The first bytes first: most keys of a mapping that have the same
	 * length differ there (PK and SK), and the call is saved. */
	return a->n == b->n && (a->n == 0 || (a->u.text[0] == b->u.text[0] &&
					      memcmp(a->u.text, b->u.text, a->n) == 0));
}

/* Marks the later of every two pairs with the same key (key set to NULL;
 * pairs already marked are skipped) and, if report, reports it. Sorting
 * pointers keeps this O(n log n) for the 10,000-entry mappings of a large
 * design. Returns how many pairs it marked. */
static void report_duplicate(struct composer *c, const ddbc_node *key, const ddbc_node *first)
{
	ddbc_diag_add(c->d, DDBC_RULE_DUPLICATE_KEY, key->loc,
		      "duplicate key '%s' (first defined at %u:%u); remove one", key->u.text,
		      first->loc.line, first->loc.column);
}

#define PAIRS_SCANNED 16

/* mark_duplicates for the small mappings (up to PAIRS_SCANNED pairs)
 * that are most of a design: every pair against the earlier ones, no
 * allocation. */
static size_t mark_duplicates_small(struct composer *c, ddbc_pair *pairs, size_t n, bool report)
{
	size_t dropped = 0;
	for (size_t i = 1; i < n; i++) {
		for (size_t j = 0; pairs[i].key && j < i; j++) {
			if (!pairs[j].key || !same_key(pairs[j].key, pairs[i].key))
				continue;
			if (report)
				report_duplicate(c, pairs[i].key, pairs[j].key);
			pairs[i].key = NULL;
			dropped++;
		}
	}
	return dropped;
}

static size_t mark_duplicates(struct composer *c, ddbc_pair *pairs, size_t n, bool report)
{
	if (n <= PAIRS_SCANNED)
		return mark_duplicates_small(c, pairs, n, report);
	ddbc_pair **order = ddbc_xmalloc((n ? n : 1) * sizeof(*order));
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (pairs[i].key)
			order[m++] = &pairs[i];
	qsort(order, m, sizeof(*order), cmp_pair_key);
	size_t dropped = 0;
	for (size_t i = 1, first = 0; i < m; i++) {
		if (!same_key(order[first]->key, order[i]->key)) {
			first = i;
			continue;
		}
		if (report)
			report_duplicate(c, order[i]->key, order[first]->key);
		order[i]->key = NULL;
		dropped++;
	}
	free(order);
	return dropped;
}

/* Adds the pairs of a merge source (a mapping, or a sequence of them)
 * behind the explicit pairs; explicit keys win, then earlier sources. */
static void collect_merge(struct composer *c, ddbc_node *src, ddbc_pair **out, size_t *n,
			  size_t *cap)
{
	if (src->kind == DDBC_NODE_SEQ) {
		for (size_t i = 0; i < src->n; i++)
			if (src->u.items[i]->kind == DDBC_NODE_MAP)
				collect_merge(c, src->u.items[i], out, n, cap);
			else
				fail(c, src->u.items[i]->loc, "a merge key ('<<') takes mappings, not %s",
				     ddbc_node_describe(src->u.items[i]));
		return;
	}
	if (src->kind != DDBC_NODE_MAP) {
		fail(c, src->loc, "a merge key ('<<') takes a mapping, not %s",
		     ddbc_node_describe(src));
		return;
	}
	ddbc_xgrow((void **)out, cap, *n + src->n, sizeof(ddbc_pair));
	memcpy(*out + *n, src->u.pairs, src->n * sizeof(ddbc_pair));
	*n += src->n;
}

static void finish_map(struct composer *c, struct frame *f)
{
	/* kids is NULL until some collection has a child. */
	ddbc_node **items = f->n ? c->kids + f->base : NULL;
	size_t n = 0, explicit_n;
	if (f->n / 2 + 1 > c->pairs_cap)
		ddbc_xgrow((void **)&c->pairs, &c->pairs_cap, f->n / 2 + 1, sizeof(ddbc_pair));
	ddbc_pair *pairs = c->pairs;
	ddbc_node **merges = NULL;
	size_t nmerges = 0, merges_cap = 0;
	for (size_t i = 0; i + 1 < f->n; i += 2) {
		if (is_merge_key(items[i])) {
			ddbc_xgrow((void **)&merges, &merges_cap, nmerges + 1, sizeof(*merges));
			merges[nmerges++] = items[i + 1];
			continue;
		}
		pairs[n].key = items[i];
		pairs[n].value = items[i + 1];
		n++;
	}
	/* A streamed mapping's keys were each compared with the earlier ones
	 * as they came (hand_over): unless one came twice, there is nothing
	 * to mark or report. */
	size_t dropped = f->section && !f->repeated ? 0 : mark_duplicates(c, pairs, n, true);
	explicit_n = n;
	for (size_t i = 0; i < nmerges; i++)
		collect_merge(c, merges[i], &c->pairs, &n, &c->pairs_cap);
	pairs = c->pairs;
	free(merges);
	/* Merged keys that an explicit key (or an earlier merge) already set
	 * are dropped silently: that is what merging means. */
	if (n > explicit_n)
		dropped += mark_duplicates(c, pairs, n, false);
	/* A streamed section's merged entries reach the sink only now. */
	for (size_t i = explicit_n; f->section && i < n; i++)
		if (pairs[i].key)
			hand_over(c, f, &pairs[i]);
	/* A streamed nested mapping is spent: it stays empty in its entry. */
	ddbc_node *node = f->node;
	node->n = f->nested ? 0 : n - dropped;
	node->u.pairs = f->nested ? NULL
		: ddbc_arena_alloc(node_arena(c), ddbc_node_pairs_size(node->n));
	uint32_t w = 1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (!pairs[i].key)
			continue;
		if (!f->nested)
			node->u.pairs[k++] = pairs[i];
		w = add_weight(w, add_weight(pairs[i].key->weight, pairs[i].value->weight));
	}
	node->weight = w;
	/* Only a large mapping has an index to build: no call for the rest. */
	if (node->n > DDBC_NODE_INDEX_MIN)
		ddbc_node_index_pairs(node);
}

static void finish_seq(struct composer *c, struct frame *f)
{
	ddbc_node *node = f->node;
	node->n = f->n;
	node->u.items = ddbc_arena_array(node_arena(c), f->n, sizeof(ddbc_node *));
	uint32_t w = 1;
	for (size_t i = 0; i < f->n; i++) {
		node->u.items[i] = c->kids[f->base + i];
		w = add_weight(w, node->u.items[i]->weight);
	}
	node->weight = w;
}

static void pop(struct composer *c)
{
	struct frame *f = &c->stack[--c->depth];
	/* Back at the parent, node_arena(c) is again where f's node went: its
	 * pairs or items go there too. */
	if (f->node->kind == DDBC_NODE_MAP)
		finish_map(c, f);
	else
		finish_seq(c, f);
	c->nkids = f->base;
	ddbc_strset_release(&f->seen);
	if (f->anchor)
		c->anchors[f->anchor - 1].open = false;
	if (c->depth > 0 && pending_key(c, &c->stack[c->depth - 1]) &&
	    is_merge_key(pending_key(c, &c->stack[c->depth - 1])))
		pin(c, node_arena(c));
	if (!c->failed)
		append(c, f->node, f->node->loc);
}

/* ---- the event loop ---------------------------------------------------------- */

/* The byte at loc of the source, or -1 past its line's end: column is
 * taken as a byte offset, which it is in indentation (ASCII). */
static int char_at(const ddbc_source *src, ddbc_loc loc)
{
	size_t len;
	const char *line = ddbc_source_line(src, loc.line, &len);
	return line && loc.column >= 1 && loc.column <= len ? (unsigned char)line[loc.column - 1]
							    : -1;
}

/* Says in the user's terms two mistakes libyaml reports in its own: a key
 * without its ':' (libyaml notices only on a later line, so the finding
 * goes to the key's), and a tab in the indentation. Returns whether it
 * reported the error. */
static bool explain_error(struct composer *c, const yaml_parser_t *p, ddbc_loc loc)
{
	if (p->context && !strcmp(p->problem, "could not find expected ':'") &&
	    !strcmp(p->context, "while scanning a simple key")) {
		ddbc_diag_add(c->d, DDBC_RULE_YAML_SYNTAX, loc_of(p->context_mark), "%s",
			      "this key has no ':' after it (write 'key: value')");
		return true;
	}
	if (char_at(c->src, loc) == '\t') {
		ddbc_diag_add(c->d, DDBC_RULE_YAML_SYNTAX, loc, "%s",
			      "a tab character: YAML does not allow tabs here; indent with spaces");
		return true;
	}
	return false;
}

static void parser_error(struct composer *c)
{
	yaml_parser_t *p = &c->parser;
	ddbc_loc loc = loc_of(p->problem_mark);
	if (p->error == YAML_READER_ERROR || (loc.line == 1 && loc.column == 1 && p->problem_offset)) {
		/* Reader errors carry only an offset. */
		loc.line = 1;
		loc.column = 1;
		const char *s = c->src->text, *end = s + (p->problem_offset < c->src->len
							     ? p->problem_offset : c->src->len);
		while (s < end) {
			size_t br = ddbc_break_len(s, end);
			if (br) {
				s += br, loc.line++, loc.column = 1;
				continue;
			}
			unsigned cp;
			size_t n = ddbc_utf8_decode((const unsigned char *)s,
						    (const unsigned char *)end, &cp);
			s += n ? n : 1;
			loc.column++;
		}
	}
	if (!p->problem || !explain_error(c, p, loc)) {
		const char *problem = p->problem ? p->problem : "invalid YAML";
		if (p->context)
			ddbc_diag_add(c->d, DDBC_RULE_YAML_SYNTAX, loc, "%s (%s at line %u)",
				      problem, p->context, (unsigned)p->context_mark.line + 1);
		else
			ddbc_diag_add(c->d, DDBC_RULE_YAML_SYNTAX, loc, "%s", problem);
	}
	c->failed = true;
}

static void on_event(struct composer *c, yaml_event_t *ev, int *documents)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if (++*documents > 1)
			fail(c, loc_of(ev->start_mark), "%s",
			     "a second YAML document; a design is one document per file");
		break;
	case YAML_SCALAR_EVENT: {
		if (ev->data.scalar.length > UINT32_MAX) {
			fail(c, loc_of(ev->start_mark), "%s", "a scalar longer than 4 GiB");
			break;
		}
		ddbc_arena *arena = node_arena(c);
		ddbc_node *node = new_scalar(arena, ev);
		if (ev->data.scalar.anchor)
			add_anchor(c, ev->data.scalar.anchor, node, false, arena);
		append(c, node, node->loc);
		break;
	}
	case YAML_ALIAS_EVENT: {
		ddbc_node *node = resolve_alias(c, ev);
		if (node)
			append(c, node, loc_of(ev->start_mark));
		break;
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (c->depth >= DDBC_YAML_MAX_DEPTH) {
			fail(c, loc_of(ev->start_mark), "%s",
			     "nesting deeper than 256 levels; a design is never this deep");
			break;
		}
		if (ev->type == YAML_SEQUENCE_START_EVENT)
			push(c, DDBC_NODE_SEQ, ev, ev->data.sequence_start.anchor);
		else
			push(c, DDBC_NODE_MAP, ev, ev->data.mapping_start.anchor);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		pop(c);
		break;
	default:
		break;
	}
}

static void release(struct composer *c)
{
	for (size_t i = 0; i < c->depth; i++)
		ddbc_strset_release(&c->stack[i].seen);
	free(c->kids);
	free(c->pairs);
	free(c->stack);
	for (size_t i = 0; i < c->nanchors; i++)
		free(c->anchors[i].name);
	free(c->anchors);
	yaml_parser_delete(&c->parser);
	if (c->scratch && c->scratch_pinned)
		ddbc_arena_adopt(c->arena, c->scratch);
	else
		ddbc_arena_free(c->scratch);
	if (c->member_scratch && c->member_pinned)
		ddbc_arena_adopt(c->arena, c->member_scratch);
	else
		ddbc_arena_free(c->member_scratch);
}

ddbc_node *ddbc_yaml_load(ddbc_arena *arena, const ddbc_source *src, ddbc_diags *d)
{
	return ddbc_yaml_load_streamed(arena, src, d, NULL);
}

/* The text is read front to back twice (checked, then parsed) and never
 * again but for findings: both passes give back the pages behind them, so
 * a large file is never resident whole (ddbc_source_evict). */
#define EVICT_STEP (1u << 20)

/* ddbc_utf8_check over the whole text, a piece at a time. */
static const char *check_encoding(const ddbc_source *src, ddbc_loc *where)
{
	size_t at = 0;
	while (at < src->len) {
		size_t n = src->len - at < EVICT_STEP ? src->len - at : EVICT_STEP;
		/* End the piece on a character boundary. */
		while (at + n < src->len && n > 1 && ((unsigned char)src->text[at + n] & 0xC0) == 0x80)
			n--;
		if (ddbc_utf8_check(src->text + at, n, where))
			return ddbc_utf8_check(src->text, src->len, where);
		at += n;
		ddbc_source_evict(src, at);
	}
	return NULL;
}

/* libyaml's input: the text, in the pieces it asks for. A megabyte at a
 * time, the source's stop may abandon the parse (an input error). */
static int read_input(void *data, unsigned char *buffer, size_t size, size_t *size_read)
{
	struct composer *c = data;
	size_t n = c->src->len - c->read < size ? c->src->len - c->read : size;
	memcpy(buffer, c->src->text + c->read, n);
	c->read += n;
	*size_read = n;
	if (c->read - c->evicted >= EVICT_STEP || c->read == c->src->len) {
		ddbc_source_evict(c->src, c->read);
		c->evicted = c->read;
		if (ddbc_source_stop(c->src))
			return 0;
	}
	return 1;
}

ddbc_node *ddbc_yaml_load_streamed(ddbc_arena *arena, const ddbc_source *src, ddbc_diags *d,
				   const ddbc_yaml_sink *sink)
{
	ddbc_loc where;
	const char *bad = check_encoding(src, &where);
	if (bad) {
		ddbc_diag_add(d, DDBC_RULE_YAML_SYNTAX, where, "%s; a design must be UTF-8 text",
			      bad);
		return NULL;
	}

	struct composer c;
	memset(&c, 0, sizeof(c));
	c.arena = arena;
	c.src = src;
	c.d = d;
	c.sink = sink;
	if (sink) {
		c.scratch = ddbc_arena_new();
		c.member_scratch = ddbc_arena_new();
	}
	if (!yaml_parser_initialize(&c.parser))
		ddbc_xalloc_die();
	yaml_parser_set_input(&c.parser, read_input, &c);
	yaml_parser_set_encoding(&c.parser, YAML_UTF8_ENCODING);

	int documents = 0;
	struct ddbc_comments *comments = sink ? sink->comments : NULL;
	while (!c.failed) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&c.parser, &ev)) {
			parser_error(&c);
			break;
		}
		yaml_event_type_t type = ev.type;
		on_event(&c, &ev, &documents);
		if (comments)
			ddbc_comments_event(comments, &ev);
		/* A collection's end holds no pointer (its data is empty): nothing
		 * to free, the call spared for one event in seven or so. */
		if (type != YAML_MAPPING_END_EVENT && type != YAML_SEQUENCE_END_EVENT)
			yaml_event_delete(&ev);
		if (type == YAML_STREAM_END_EVENT)
			break;
	}
	if (!c.failed && !c.root) {
		ddbc_loc start = { 1, 1 };
		fail(&c, start, "%s", "the file holds no YAML document; a design starts with 'ddbc: 1'");
	}
	release(&c);
	if (c.failed)
		return NULL;
	return c.root;
}
