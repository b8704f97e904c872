/* rules/bounds.c - range-bound-prefix, range-bound-shape
 *
 * A range condition on a String sort key compares whole keys byte by
 * byte, not the values a key template was built from. Two mistakes follow
 * from reading it as a comparison of values:
 *   - a bound that stops where a placeholder of the key stops, with more of
 *     the key after it ("ORDER#{end}" on "ORDER#{date}#{id}"), is a proper
 *     prefix of the keys of that value, which sort after it: an inclusive
 *     upper bound leaves them out, an exclusive lower bound lets them in;
 *   - a bound that does not start with the literal the keys start with
 *     ("{since}" on "ORDER#{date}") compares the parameter with that literal.
 * Both are decided on the template languages (model/template.h): the
 * bound's template over free parameters against the key attribute's
 * template of each entity the pattern matches. Number keys compare by value
 * and have no prefixes; they are not concerned.
 */
#include "rules/checks.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/strbuf.h"
#include "util/utf8.h"

#include <string.h>

/* Entities a message lists before it says "and N more". */
#define MAX_LISTED 5

/* A condition value read as a template over the pattern's parameters. */
typedef struct bound_value {
	const ddbc_node *node;
	const char *text;        /* the template as written: node's */
	ddbc_template tpl;
	const char *prefix;      /* the literal before the first parameter */
	size_t prefix_len;
	bool has_params;
} bound_value;

/* Condition c's value v (one of c->values) read as a template: the
 * request's parse of a string; a YAML number (`ge: 2026`) compared with a
 * String key is its text, parsed into arena. */
static bool read_value(ddbc_arena *arena, const ddbc_pattern *p, const ddbc_key_cond *c,
		       const ddbc_node *v, bound_value *out)
{
	size_t i = 0, off;
	while (i < c->nvalues && c->values[i] != v)
		i++;
	if (!v || i == c->nvalues || v->kind != DDBC_NODE_SCALAR || ddbc_node_is_null(v))
		return false;
	const ddbc_req_value *rv = &p->request->cond_values[c - p->conds][i];
	if (rv->is_template)
		out->tpl = rv->tpl;
	else if (v->scalar == DDBC_SCALAR_STR || ddbc_template_parse(arena, v->u.text, &out->tpl, &off))
		return false;
	out->node = v;
	out->text = v->u.text;
	out->prefix_len = ddbc_template_prefix(&out->tpl, &out->prefix);
	out->has_params = !ddbc_template_is_constant(&out->tpl);
	return true;
}

/* The key attribute of e that c is on, when it is a String built from a
 * template: the only keys with parts a bound can stop between. */
static const ddbc_attr *templated_key(const ddbc_entity *e, const ddbc_key_cond *c)
{
	const ddbc_attr *a = ddbc_entity_attr(e, c->attr.s);
	if (!a || !a->is_key || a->type != DDBC_TYPE_S || !a->has_template || a->in_cycle)
		return NULL;
	return a;
}

/* A query's condition on a sort key attribute of its index: where ranges
 * belong. Elsewhere pattern-unservable has said what is wrong. */
static bool on_sort_key(const ddbc_pattern *p, const ddbc_key_cond *c)
{
	if (p->operation != DDBC_OP_QUERY || !p->analysed || !c->on_key || !c->attr.s)
		return false;
	for (size_t i = 0; i < p->index->nsk; i++)
		if (!strcmp(p->index->sk[i].s, c->attr.s))
			return true;
	return false;
}

/* The literal every key of a starts with: its language's leading fixed
 * runs (a templated placeholder first expands to its own literal). */
static void key_literal(const ddbc_attr *a, strbuf *out)
{
	const ddbc_lang *l = ddbc_attr_key_lang(a);
	for (size_t r = 0; r < l->nruns && l->runs[r].fixed; r++)
		ddbc_strbuf_add(out, l->runs[r].text, l->runs[r].len);
}

/* Appends s as a template writes it: braces doubled. */
static void add_escaped(strbuf *sb, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '{' || s[i] == '}')
			ddbc_strbuf_addch(sb, s[i]);
		ddbc_strbuf_addch(sb, s[i]);
	}
}

static void list_entity(strbuf *sb, size_t *n, const ddbc_entity *e, const ddbc_attr *a)
{
	if (*n < MAX_LISTED)
		ddbc_strbuf_addf(sb, "%s'%s' ('%s')", *n ? ", " : "", e->name.s, a->template.s);
	(*n)++;
}

static void end_list(strbuf *sb, size_t n)
{
	if (n > MAX_LISTED)
		ddbc_strbuf_addf(sb, " and %zu more", n - MAX_LISTED);
}

/* ---- range-bound-shape -------------------------------------------------------- */

/* Whether v compares something other than e's keys' literal with it.
 * A bound with parameters does when a placeholder stands where every key
 * still has literal text. A constant does when it goes on after leaving
 * the literal ("2026-01-01" on "ORDER#{date}": a date compared with
 * "ORDER#"); one that stops at the byte where it leaves it is a sentinel
 * that says what it means: "ORDER$" sorts after every "ORDER#..." key
 * (the usual end of a range), "ORD" before all of them. */
static bool misshapen(const bound_value *v, const char *lit, size_t len)
{
	if (v->prefix_len >= len && !memcmp(v->prefix, lit, len))
		return false;
	if (v->has_params)
		return true;
	size_t common = 0;
	while (common < v->prefix_len && common < len && v->prefix[common] == lit[common])
		common++;
	return v->prefix_len > common + 1;
}

static bool declared(const ddbc_pattern *p, const ddbc_entity *e)
{
	for (size_t i = 0; i < p->nentities; i++)
		if (!strcmp(p->entities[i].s, e->name.s))
			return true;
	return false;
}

/* Whether the bound is aimed at the keys of matched entity i: the pattern
 * names the entities it means to return, and among those it matches, i is
 * one; or it names none of them, and every matched entity counts. */
static bool aimed_at(const ddbc_pattern *p, size_t i)
{
	if (!p->has_entities || declared(p, p->matched[i]))
		return true;
	for (size_t k = 0; k < p->nmatched; k++)
		if (declared(p, p->matched[k]))
			return false;
	return true;
}

/* Whether v fits the shape of no key it is aimed at. Lists those
 * entities into who; *common is the literal they all share, or empty. */
static bool fits_none(const ddbc_pattern *p, const ddbc_key_cond *c, const bound_value *v,
		      strbuf *who, strbuf *common)
{
	size_t n = 0;
	bool same = true;
	for (size_t i = 0; i < p->nmatched; i++) {
		if (!aimed_at(p, i))
			continue;
		const ddbc_attr *a = templated_key(p->matched[i], c);
		strbuf lit = STRBUF_INIT;
		if (a)
			key_literal(a, &lit);
		bool bad = a && lit.len && misshapen(v, lit.buf, lit.len);
		if (bad && !n)
			ddbc_strbuf_add(common, lit.buf, lit.len);
		else if (bad && (common->len != lit.len || memcmp(common->buf, lit.buf, lit.len)))
			same = false;
		if (bad)
			list_entity(who, &n, p->matched[i], a);
		ddbc_strbuf_release(&lit);
		if (!bad)
			return false;
	}
	end_list(who, n);
	if (!same)
		ddbc_strbuf_reset(common);
	return n > 0;
}

static const char *cond_word(const ddbc_key_cond *c)
{
	return c->op == DDBC_COND_BEGINS_WITH ? "begins_with value" : "range bound";
}

static void report_shape(ddbc_diags *d, const ddbc_key_cond *c, const bound_value *v,
			 const strbuf *who, const strbuf *lit)
{
	strbuf fix = STRBUF_INIT;
	if (!lit->len)
		ddbc_strbuf_addstr(&fix, "start it with the literal of the entity it is meant for");
	else if (!v->prefix_len) {
		ddbc_strbuf_addstr(&fix, "write '");
		add_escaped(&fix, lit->buf, lit->len);
		ddbc_strbuf_addf(&fix, "%s'", v->node->u.text);
	} else {
		ddbc_strbuf_addstr(&fix, "start it with '");
		add_escaped(&fix, lit->buf, lit->len);
		ddbc_strbuf_addch(&fix, '\'');
	}
	strbuf what = STRBUF_INIT;
	if (lit->len)
		ddbc_strbuf_addf(&what, "'%s', the literal that the keys of %s start with", lit->buf,
			    who->buf);
	else
		ddbc_strbuf_addf(&what, "the literal that the keys of %s start with", who->buf);
	ddbc_diag_add(d, DDBC_RULE_RANGE_BOUND_SHAPE, v->node->loc,
		      "%s '%s' on '%s' does not start with %s: it compares %s with that literal "
		      "and selects the wrong keys; %s", cond_word(c), v->node->u.text, c->attr.s,
		      what.buf, v->has_params ? "a parameter" : "its text", fix.buf);
	ddbc_strbuf_release(&what);
	ddbc_strbuf_release(&fix);
}

/* Whether range-bound-shape reports bound v of c (it does, when d is not
 * NULL): range-bound-prefix then says nothing more about the same text. */
static bool shape_finding(const ddbc_pattern *p, const ddbc_key_cond *c, const bound_value *v,
			  ddbc_diags *d)
{
	strbuf who = STRBUF_INIT, lit = STRBUF_INIT;
	bool bad = fits_none(p, c, v, &who, &lit);
	if (bad && d)
		report_shape(d, c, v, &who, &lit);
	ddbc_strbuf_release(&who);
	ddbc_strbuf_release(&lit);
	return bad;
}

/* Equality either fits a key's shape or matches nothing, which
 * pattern-no-match reports. */
static bool shaped_op(const ddbc_key_cond *c)
{
	return c->op != DDBC_COND_EQ && (c->op != DDBC_COND_BETWEEN || c->nvalues == 2);
}

/* Whether some condition of p is one range-bound-shape looks at. */
static bool has_shaped_cond(const ddbc_pattern *p)
{
	for (size_t k = 0; k < p->nconds; k++)
		if (on_sort_key(p, &p->conds[k]) && shaped_op(&p->conds[k]))
			return true;
	return false;
}

bool ddbc_pattern_has_misshapen_bound(const ddbc_pattern *p)
{
	/* Most patterns have none: they cost no arena. */
	if (!p->nmatched || !has_shaped_cond(p))
		return false;
	bool bad = false;
	ddbc_arena *arena = ddbc_arena_new();
	for (size_t k = 0; k < p->nconds && !bad; k++) {
		const ddbc_key_cond *c = &p->conds[k];
		if (!on_sort_key(p, c) || !p->nmatched || !shaped_op(c))
			continue;
		for (size_t v = 0; v < c->nvalues && !bad; v++) {
			bound_value bv;
			bad = read_value(arena, p, c, c->values[v], &bv) && shape_finding(p, c, &bv, NULL);
		}
	}
	ddbc_arena_free(arena);
	return bad;
}

void ddbc_check_range_bound_shape(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_arena *arena = ddbc_arena_new();
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		for (size_t k = 0; k < p->nconds; k++) {
			const ddbc_key_cond *c = &p->conds[k];
			if (!on_sort_key(p, c) || !p->nmatched || !shaped_op(c))
				continue;
			for (size_t v = 0; v < c->nvalues; v++) {
				bound_value bv;
				if (read_value(arena, p, c, c->values[v], &bv))
					shape_finding(p, c, &bv, d);
			}
		}
		ddbc_arena_clear(arena);
	}
	ddbc_arena_free(arena);
}

/* ---- range-bound-prefix ------------------------------------------------------- */

/* A bound split where its last parameter ends: the language of what comes
 * up to there (a parameter stands for a value of a String key's part, no
 * delimiter, or a padded number), and the literal after it. */
typedef struct split_bound {
	ddbc_lang head;
	const char *tail;
	size_t tail_len;
} split_bound;

static bool split(const bound_value *v, split_bound *out)
{
	ddbc_lang_init(&out->head);
	out->tail = "";
	out->tail_len = 0;
	if (!v->has_params)
		return false;
	size_t n = v->tpl.nsegs;
	if (v->tpl.segs[n - 1].kind == DDBC_SEG_LITERAL) {
		out->tail = v->tpl.segs[n - 1].text;
		out->tail_len = v->tpl.segs[--n].len;
	}
	for (size_t k = 0; k < n; k++) {
		const ddbc_segment *s = &v->tpl.segs[k];
		if (s->kind == DDBC_SEG_LITERAL)
			ddbc_lang_fixed(&out->head, s->text, s->len);
		else if (s->width)
			ddbc_lang_digits(&out->head, s->width);
		else
			ddbc_lang_class(&out->head, DDBC_CLASS_NO_DELIM, 1);
	}
	return true;
}

/* Where a bound stops inside a key: where a placeholder of the key ends,
 * having read `partial` bytes of the literal `next` that follows it. */
typedef struct stop {
	const ddbc_run *next;
	size_t partial;
} stop;

static void copy_run(ddbc_lang *out, const ddbc_run *r)
{
	if (r->fixed)
		ddbc_lang_fixed(out, r->text, r->len);
	else
		ddbc_lang_class(out, (ddbc_class)r->cls, r->min);
	if (!r->fixed)
		out->runs[out->nruns - 1].max = r->max;
}

/* Whether the bound's last parameter can end where the key's placeholder
 * run j ends: some rendering of the bound's head equals the key's runs up
 * to j. */
static bool ends_with_run(const split_bound *b, const ddbc_lang *key, size_t j,
			  const char *delim)
{
	ddbc_lang cut;
	ddbc_lang_init(&cut);
	for (size_t r = 0; r <= j; r++)
		copy_run(&cut, &key->runs[r]);
	bool found = ddbc_lang_intersects(&b->head, &cut, delim);
	ddbc_lang_release(&cut);
	return found;
}

/* Where in key a the bound stops short of the key's end, if it does: its
 * last parameter ends where a placeholder of the key ends (not an unknown
 * one, which may be empty), and the literal after the parameter is a
 * prefix of the literal after the placeholder, with more of the key after
 * the bound. */
static bool stops_short(const split_bound *b, const ddbc_attr *a, const char *delim, stop *at)
{
	const ddbc_lang *key = ddbc_attr_key_lang(a);
	for (size_t j = 0; j + 1 < key->nruns; j++) {
		const ddbc_run *r = &key->runs[j], *next = &key->runs[j + 1];
		if (r->fixed || r->cls == DDBC_CLASS_ANY || !next->fixed)
			continue;
		bool more = b->tail_len < next->len || (b->tail_len == next->len && j + 2 < key->nruns);
		if (!more || b->tail_len > next->len || memcmp(b->tail, next->text, b->tail_len))
			continue;
		if (ends_with_run(b, key, j, delim)) {
			at->next = next;
			at->partial = b->tail_len;
			return true;
		}
	}
	return false;
}

/* Appends the UTF-8 encoding of code point cp. */
static void add_utf8(strbuf *sb, unsigned cp)
{
	if (cp < 0x80) {
		ddbc_strbuf_addch(sb, (char)cp);
	} else if (cp < 0x800) {
		ddbc_strbuf_addch(sb, (char)(0xC0 | (cp >> 6)));
		ddbc_strbuf_addch(sb, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		ddbc_strbuf_addch(sb, (char)(0xE0 | (cp >> 12)));
		ddbc_strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
		ddbc_strbuf_addch(sb, (char)(0x80 | (cp & 0x3F)));
	} else {
		ddbc_strbuf_addch(sb, (char)(0xF0 | (cp >> 18)));
		ddbc_strbuf_addch(sb, (char)(0x80 | ((cp >> 12) & 0x3F)));
		ddbc_strbuf_addch(sb, (char)(0x80 | ((cp >> 6) & 0x3F)));
		ddbc_strbuf_addch(sb, (char)(0x80 | (cp & 0x3F)));
	}
}

/* The character that follows the first character of text in code point
 * order, which is the order of UTF-8 bytes DynamoDB compares: every key
 * that continues with text sorts below it. False when there is none (the
 * last code point, or text that is not UTF-8, which a key never holds). */
static bool next_char(const char *text, size_t len, strbuf *out)
{
	unsigned cp;
	const unsigned char *s = (const unsigned char *)text;
	if (!ddbc_utf8_decode(s, s + len, &cp) || cp >= 0x10FFFF)
		return false;
	cp = cp + 1 == 0xD800 ? 0xE000 : cp + 1;
	add_utf8(out, cp);
	return true;
}

/* Where the bound's fix goes: after the literal the bound ends with, when
 * the key's literal goes on past it (the key continues with a known
 * character there); else where the bound's last parameter ends, and the
 * key continues with the first character of its literal. */
static size_t fix_point(const bound_value *v, const stop *at, size_t *next)
{
	const ddbc_template *t = &v->tpl;
	if (at->partial < at->next->len) {
		*next = at->partial;
		return strlen(v->text);
	}
	*next = 0;
	return t->segs[t->nsegs - 1].offset;
}

/* The bound written so that it reaches past every key it stops in: as
 * written up to the fix point, then the character after the one the key
 * continues with there. False when no character follows that one. */
static bool fixed_bound(const bound_value *v, const stop *at, strbuf *after, strbuf *out)
{
	size_t next;
	size_t keep = fix_point(v, at, &next);
	const char *text = at->next->text + next;
	size_t len = at->next->len - next;
	unsigned cp;
	size_t clen = ddbc_utf8_decode((const unsigned char *)text,
				       (const unsigned char *)text + len, &cp);
	strbuf succ = STRBUF_INIT;
	bool ok = clen && next_char(text, len, &succ);
	if (ok) {
		ddbc_strbuf_add(after, text, clen);
		ddbc_strbuf_add(out, v->text, keep);
		add_escaped(out, succ.buf, succ.len);
	}
	ddbc_strbuf_release(&succ);
	return ok;
}

static void report_prefix(ddbc_diags *d, const ddbc_key_cond *c, const bound_value *v,
			  bool upper, const strbuf *who, const stop *at)
{
	strbuf fix = STRBUF_INIT, after = STRBUF_INIT, bound = STRBUF_INIT;
	if (fixed_bound(v, at, &after, &bound))
		ddbc_strbuf_addf(&fix, "end it with the character after '%s': '%s'", after.buf,
			    bound.buf);
	else
		ddbc_strbuf_addf(&fix, "use '%s' on the next value instead", upper ? "lt" : "ge");
	ddbc_diag_add(d, DDBC_RULE_RANGE_BOUND_PREFIX, v->node->loc,
		      "%s bound '%s' on '%s' is a proper prefix of keys of %s, which sort after "
		      "it and are %s; %s", upper ? "inclusive upper" : "exclusive lower",
		      v->node->u.text, c->attr.s, who->buf, upper ? "left out" : "let in", fix.buf);
	ddbc_strbuf_release(&fix);
	ddbc_strbuf_release(&after);
	ddbc_strbuf_release(&bound);
}

/* Reports bound v of c when it stops short of the keys of a matched
 * entity. */
static void check_bound(const ddbc_design *g, const ddbc_pattern *p, const ddbc_key_cond *c,
			const bound_value *v, bool upper, ddbc_diags *d)
{
	if (shape_finding(p, c, v, NULL))
		return;
	split_bound b;
	if (!split(v, &b))
		return;
	strbuf who = STRBUF_INIT;
	size_t n = 0;
	stop first = { NULL, 0 };
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_attr *a = aimed_at(p, i) ? templated_key(p->matched[i], c) : NULL;
		stop at;
		if (!a || !stops_short(&b, a, g->key_delimiter, &at))
			continue;
		if (!n)
			first = at;
		list_entity(&who, &n, p->matched[i], a);
	}
	end_list(&who, n);
	if (n)
		report_prefix(d, c, v, upper, &who, &first);
	ddbc_strbuf_release(&who);
	ddbc_lang_release(&b.head);
}

/* The bound of c that a prefix of the keys puts on the wrong side: an
 * inclusive upper bound (le, between's second value) or an exclusive lower
 * one (gt); NULL for the others: lt and ge on a prefix do what they say. */
static const ddbc_node *sensitive_bound(const ddbc_key_cond *c, bool *upper)
{
	*upper = c->op != DDBC_COND_GT;
	switch (c->op) {
	case DDBC_COND_LE:
	case DDBC_COND_GT: return c->nvalues == 1 ? c->values[0] : NULL;
	case DDBC_COND_BETWEEN: return c->nvalues == 2 ? c->values[1] : NULL;
	default: return NULL;
	}
}

void ddbc_check_range_bound_prefix(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_arena *arena = ddbc_arena_new();
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		for (size_t k = 0; k < p->nconds; k++) {
			const ddbc_key_cond *c = &p->conds[k];
			bool upper;
			const ddbc_node *v = on_sort_key(p, c) ? sensitive_bound(c, &upper) : NULL;
			bound_value bv;
			if (v && read_value(arena, p, c, v, &bv))
				check_bound(g, p, c, &bv, upper, d);
		}
		ddbc_arena_clear(arena);
	}
	ddbc_arena_free(arena);
}
