/* rules/patterns.c - pattern-unservable, pattern-operator-type, pattern-consistent-gsi,
 * pattern-projection, pattern-no-match, pattern-entities, pattern-scan,
 * pattern-value-enum, returns-unknown-attribute, order-not-query
 *
 * The access-pattern rules compare what a pattern asks of its index with
 * what DynamoDB can do there: Query needs every partition key attribute by
 * equality and uses the sort key attributes left to right, with at most one
 * range condition, on the rightmost attribute used; GetItem and the writes
 * address one item of the base table by its full primary key. The entities
 * a condition can return come from semantics.c (pattern->matched).
 */
#include "rules/checks.h"
#include "model/request.h"
#include "model/params.h"
#include "model/semantics.h"
#include "util/decimal.h"
#include "util/strbuf.h"
#include "util/suggest.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Entities a message lists before it says "and N more": a generated
 * design may put thousands of entities in one index. */
#define MAX_LISTED 5

/* ---- helpers ------------------------------------------------------------------ */

/* "table", "GSI" or "LSI", for "%s '%s'" with the index's name. */
static const char *index_kind(const ddbc_index *ix)
{
	switch (ix->kind) {
	case DDBC_INDEX_GSI: return "GSI";
	case DDBC_INDEX_LSI: return "LSI";
	case DDBC_INDEX_PRIMARY: break;
	}
	return "table";
}

/* The API call a non-query operation becomes, for messages. */
static const char *api_name(ddbc_operation op)
{
	switch (op) {
	case DDBC_OP_GET: return "GetItem";
	case DDBC_OP_PUT: return "PutItem";
	case DDBC_OP_UPDATE: return "UpdateItem";
	case DDBC_OP_DELETE: return "DeleteItem";
	case DDBC_OP_QUERY: return "Query";
	case DDBC_OP_SCAN: return "Scan";
	}
	return "?";
}

/* A condition whose operator the loader could not read has no values; the
 * schema rule reported it, so the rules here take no view on its operator. */
static bool op_known(const ddbc_key_cond *c)
{
	return c->nvalues > 0;
}

static bool is_range(const ddbc_key_cond *c)
{
	return op_known(c) && c->op != DDBC_COND_EQ;
}

static void add_names(strbuf *sb, const ddbc_name *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ddbc_strbuf_addf(sb, "%s'%s'", i ? ", " : "", names[i].s);
}

/* Whether what the pattern matches is known: the pattern, its index, its
 * table's key and every entity that may be in the table were read whole,
 * the index's key attributes are declared (an undeclared one is
 * index-key-unknown's finding, and every entity misses the index), and no
 * entity's examples contradict its key templates. A name of an INCLUDE
 * list that no entity has (projection-unknown-attribute, a typo most
 * often) changes nothing here: the index still projects the names that
 * are attributes, so what it leaves out (pattern-projection) is known,
 * and is the very finding that shows which attribute the typo meant.
 * Otherwise "matches nothing" or "does not project" may be only the echo
 * of an error reported already. */
bool ddbc_pattern_matches_known(const ddbc_pattern *p)
{
	return p->analysed && !p->incomplete && !p->index->incomplete &&
	       !p->index->key_unknown && !p->index->key_undefined && !p->table->incomplete &&
	       !p->table->members_incomplete && !p->table->keys_disputed;
}

/* ---- pattern-unservable ---------------------------------------------------------- */

/* Collects the unservable findings of one pattern. With d NULL it only
 * counts them: pattern-entities asks whether a pattern is servable at all. */
typedef struct finder {
	ddbc_diags *d;
	size_t n;
} finder;

static void unservable(finder *f, ddbc_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void unservable(finder *f, ddbc_loc loc, const char *fmt, ...)
{
	f->n++;
	if (!f->d)
		return;
	va_list ap;
	va_start(ap, fmt);
	ddbc_diag_vadd(f->d, DDBC_RULE_PATTERN_UNSERVABLE, loc, fmt, ap);
	va_end(ap);
}

/* GetItem and the writes address the base table; an index is only read. */
static bool check_index_operation(const ddbc_pattern *p, finder *f)
{
	const ddbc_index *ix = p->index;
	if (p->operation == DDBC_OP_QUERY || p->operation == DDBC_OP_SCAN ||
	    ix->kind == DDBC_INDEX_PRIMARY)
		return true;
	if (p->operation == DDBC_OP_GET)
		unservable(f, p->operation_loc, "GetItem reads only the base table, not %s '%s'; "
			   "use operation 'query' on the index, or drop 'index' to get the "
			   "item by its primary key", index_kind(ix), ix->name.s);
	else
		unservable(f, p->operation_loc, "%s writes the base table, not %s '%s' (DynamoDB "
			   "maintains the index); drop 'index' and give the table's primary key",
			   api_name(p->operation), index_kind(ix), ix->name.s);
	return false;
}

static void check_key_attributes(const ddbc_pattern *p, finder *f)
{
	const ddbc_index *ix = p->index;
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		if (!c->attr.s || ddbc_index_has_key(ix, c->attr.s))
			continue;
		strbuf keys = STRBUF_INIT;
		add_names(&keys, ix->pk, ix->npk);
		if (ix->nsk)
			ddbc_strbuf_addstr(&keys, ", ");
		add_names(&keys, ix->sk, ix->nsk);
		unservable(f, c->attr.loc, "'%s' is not a key attribute of %s '%s'; a key "
			   "condition can only use its keys (%s): query an index keyed on '%s' "
			   "or filter the results", c->attr.s, index_kind(ix), ix->name.s,
			   ddbc_strbuf_str(&keys), c->attr.s);
		ddbc_strbuf_release(&keys);
	}
}

/* Query: every partition key attribute by equality (all of them, for a
 * multi-attribute GSI key). */
static void check_partition(const ddbc_pattern *p, finder *f)
{
	const ddbc_index *ix = p->index;
	for (size_t i = 0; i < ix->npk; i++) {
		const char *name = ix->pk[i].s;
		const ddbc_key_cond *c = ddbc_pattern_cond_written(p, name);
		if (!c)
			unservable(f, p->key_loc, "no condition on partition key attribute '%s' of "
				   "%s '%s'; a query must give every partition key attribute by "
				   "equality", name, index_kind(ix), ix->name.s);
		else if (is_range(c))
			unservable(f, c->attr.loc, "partition key attribute '%s' has a '%s' "
				   "condition; a query needs it by equality (only sort key "
				   "attributes take ranges and begins_with)", name,
				   ddbc_cond_op_name(c->op));
	}
}

/* Reports a range condition r followed by a condition on a later
 * sort key attribute c: the range must be the rightmost one used. */
static void range_not_last(finder *f, const ddbc_key_cond *r, const ddbc_key_cond *c)
{
	if (is_range(c))
		unservable(f, c->op_loc, "sort key attributes '%s' and '%s' both have range "
			   "conditions; a query allows one, on the rightmost sort key attribute "
			   "it uses: make '%s' an equality", r->attr.s, c->attr.s, r->attr.s);
	else
		unservable(f, r->op_loc, "range condition '%s' on sort key attribute '%s' is "
			   "followed by a condition on '%s'; only the rightmost sort key attribute "
			   "used may have a range: make '%s' an equality or drop the condition on "
			   "'%s'", ddbc_cond_op_name(r->op), r->attr.s, c->attr.s, r->attr.s,
			   c->attr.s);
}

/* Query: sort key attributes are used left to right without a gap, and
 * only the last one used may have a range. One finding per pattern: the
 * first break explains the rest. */
static void check_sort(const ddbc_pattern *p, finder *f)
{
	const ddbc_index *ix = p->index;
	const char *gap = NULL;
	const ddbc_key_cond *range = NULL;
	for (size_t i = 0; i < ix->nsk; i++) {
		const ddbc_key_cond *c = ddbc_pattern_cond_written(p, ix->sk[i].s);
		if (!c) {
			if (!gap)
				gap = ix->sk[i].s;
			continue;
		}
		if (gap) {
			unservable(f, c->attr.loc, "sort key attribute '%s' has a condition but "
				   "'%s' before it has none; the attributes of a multi-attribute "
				   "sort key are used left to right without gaps: add a condition "
				   "on '%s'", c->attr.s, gap, gap);
			return;
		}
		if (range) {
			range_not_last(f, range, c);
			return;
		}
		if (is_range(c))
			range = c;
	}
}

/* GetItem and the writes: the whole primary key by equality. */
static void check_full_key(const ddbc_pattern *p, finder *f)
{
	const ddbc_index *pk = &p->table->primary;
	const char *api = api_name(p->operation);
	for (size_t i = 0; i < pk->npk + pk->nsk; i++) {
		const char *name = ddbc_index_key(pk, i);
		const ddbc_key_cond *c = ddbc_pattern_cond_written(p, name);
		if (!c)
			unservable(f, p->operation_loc, "%s needs the full primary key by equality, "
				   "but key attribute '%s' has no condition; add it to 'key', or use "
				   "operation 'query'", api, name);
		else if (is_range(c))
			unservable(f, p->operation_loc, "%s needs the full primary key by equality, "
				   "but key attribute '%s' has a '%s' condition; give it by equality, "
				   "or use operation 'query'", api, name, ddbc_cond_op_name(c->op));
	}
}

/* Whether the pattern has a `key:` at all; the loader points key_loc at
 * the pattern's id when it has none (and reports that, unless a scan). */
static bool has_key(const ddbc_pattern *p)
{
	return p->key_loc.line != p->id.loc.line || p->key_loc.column != p->id.loc.column;
}

static void find_unservable(const ddbc_pattern *p, finder *f)
{
	/* A pattern, index or table key read with an error says nothing sure
	 * about what DynamoDB could serve. */
	if (!p->table || !p->index || !has_key(p) || p->index->key_unknown || p->incomplete ||
	    p->index->incomplete || p->index->key_undefined || p->table->primary.incomplete ||
	    p->table->primary.key_undefined)
		return;
	if (p->operation == DDBC_OP_SCAN) {
		if (p->nconds)
			unservable(f, p->key_loc, "a scan reads the whole %s and takes no key "
				   "condition; drop 'key', or make '%s' a query",
				   index_kind(p->index), p->id.s);
		return;
	}
	if (!check_index_operation(p, f))
		return;
	size_t before = f->n;
	check_key_attributes(p, f);
	/* A condition on no key attribute is most often one on a key attribute
	 * misspelt: what the key then lacks follows from it. */
	if (f->n > before)
		return;
	if (p->operation == DDBC_OP_QUERY) {
		check_partition(p, f);
		check_sort(p, f);
	} else {
		check_full_key(p, f);
	}
}

void ddbc_check_pattern_unservable(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		finder f = { d, 0 };
		find_unservable(&g->patterns[i], &f);
	}
}

/* ---- pattern-operator-type ----------------------------------------------------------- */

/* Whether a between's bounds are known constants in descending order,
 * which DynamoDB rejects (the lower bound must not exceed the upper). */
static bool bounds_reversed(const ddbc_key_cond *c, ddbc_type t)
{
	const ddbc_node *lo = c->values[0], *hi = c->values[1];
	if (lo->kind != DDBC_NODE_SCALAR || hi->kind != DDBC_NODE_SCALAR)
		return false;
	/* The one key comparator: numbers by exact value, S and B as bytes. */
	if (t == DDBC_TYPE_N) {
		if (!ddbc_node_is_number(lo) || !ddbc_node_is_number(hi))
			return false;
	} else if (t != DDBC_TYPE_S && t != DDBC_TYPE_B) {
		return false;
	} else if (strpbrk(lo->u.text, "{}") || strpbrk(hi->u.text, "{}")) {
		return false;   /* a bound with a parameter is not known */
	}
	return ddbc_key_compare(t, lo->u.text, lo->n, hi->u.text, hi->n) > 0;
}

static void check_between(const ddbc_pattern *p, const ddbc_key_cond *c, ddbc_diags *d)
{
	if (c->nvalues != 2) {
		ddbc_diag_add(d, DDBC_RULE_PATTERN_OPERATOR_TYPE, c->op_loc,
			      "'between' on '%s' takes a list of two values [low, high], not %zu "
			      "value%s", c->attr.s, (size_t)c->nvalues, c->nvalues == 1 ? "" : "s");
		return;
	}
	if (bounds_reversed(c, ddbc_table_key_type(p->table, c->attr.s)))
		ddbc_diag_add(d, DDBC_RULE_PATTERN_OPERATOR_TYPE, c->op_loc,
			      "'between' on '%s' has its low bound '%s' above its high bound "
			      "'%s'; DynamoDB rejects that: swap them", c->attr.s,
			      c->values[0]->u.text, c->values[1]->u.text);
}

/* Reports the constants among c's values that are no number, on a Number
 * key: DynamoDB rejects the request ("abc" is no N value), and the
 * queries export refuses to write it; so does a number past DynamoDB's
 * limits (39 digits, 1E126), in any condition. A value with a parameter
 * is param-value's to judge, with the parameter's example; an equality
 * that no number fits matches no entity, which pattern-no-match says,
 * and begins_with on a Number is reported below. */
static void check_number_values(const ddbc_pattern *p, const ddbc_key_cond *c, ddbc_diags *d)
{
	if (c->op == DDBC_COND_BEGINS_WITH || ddbc_table_key_type(p->table, c->attr.s) != DDBC_TYPE_N)
		return;
	for (size_t k = 0; k < c->nvalues; k++) {
		const ddbc_node *v = c->values[k];
		if (!v || v->kind != DDBC_NODE_SCALAR || ddbc_node_is_null(v) || strpbrk(v->u.text, "{}"))
			continue;
		strbuf why = STRBUF_INIT;
		if (!ddbc_number_text(v->u.text, v->n)) {
			if (c->op != DDBC_COND_EQ)
				ddbc_diag_add(d, DDBC_RULE_PATTERN_OPERATOR_TYPE, v->loc,
					      "'%s' compares '%s', a Number, with '%s', which is no "
					      "number; write a number, or a parameter such as '{%s}'",
					      ddbc_cond_op_name(c->op), c->attr.s, v->u.text, c->attr.s);
		} else if (!ddbc_decimal_dynamodb(v->u.text, v->n, &why)) {
			ddbc_diag_add(d, DDBC_RULE_PATTERN_OPERATOR_TYPE, v->loc,
				      "'%s' compares '%s', a Number, with '%s', which %s",
				      ddbc_cond_op_name(c->op), c->attr.s, v->u.text, ddbc_strbuf_str(&why));
		}
		ddbc_strbuf_release(&why);
	}
}

static void check_operators(const ddbc_pattern *p, ddbc_diags *d)
{
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		if (!c->attr.s || !op_known(c))
			continue;
		check_number_values(p, c, d);
		if (c->op == DDBC_COND_BETWEEN)
			check_between(p, c, d);
		/* DynamoDB's begins_with takes S and B sort keys, not N. */
		if (c->op == DDBC_COND_BEGINS_WITH &&
		    ddbc_table_key_type(p->table, c->attr.s) == DDBC_TYPE_N)
			ddbc_diag_add(d, DDBC_RULE_PATTERN_OPERATOR_TYPE, c->op_loc,
				      "'begins_with' on '%s', which is a Number; DynamoDB compares "
				      "numbers by value, so use 'between' or 'ge'/'lt' for a range",
				      c->attr.s);
	}
}

void ddbc_check_pattern_operator_type(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++)
		if (g->patterns[i].table)
			check_operators(&g->patterns[i], d);
}

/* ---- pattern-consistent-gsi ------------------------------------------------------------ */

void ddbc_check_pattern_consistent_gsi(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->consistent_read || !p->index || p->index->kind != DDBC_INDEX_GSI)
			continue;
		ddbc_diag_add(d, DDBC_RULE_PATTERN_CONSISTENT_GSI, p->consistent_loc,
			      "GSI '%s' supports only eventually consistent reads; drop "
			      "'consistent_read: true', or read the base table or an LSI",
			      p->index->name.s);
	}
}

/* ---- pattern-projection ------------------------------------------------------------------ */

static void projection_text(strbuf *sb, const ddbc_index *ix)
{
	switch (ix->projection) {
	case DDBC_PROJ_ALL: ddbc_strbuf_addstr(sb, "all"); break;
	case DDBC_PROJ_KEYS_ONLY: ddbc_strbuf_addstr(sb, "keys_only"); break;
	case DDBC_PROJ_INCLUDE:
		ddbc_strbuf_addch(sb, '[');
		for (size_t i = 0; i < ix->ninclude; i++)
			ddbc_strbuf_addf(sb, "%s%s", i ? ", " : "", ix->include[i].s);
		ddbc_strbuf_addch(sb, ']');
		break;
	}
}

/* Lists, into sb, the matched entities that store attribute name but not
 * in ix (one that does not store it has nothing to leave out). */
static size_t unprojected(const ddbc_pattern *p, const char *name, strbuf *sb)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_stored_attr(p->matched[i], name);
		if (!a || ddbc_attr_role(a, p->index) != DDBC_ROLE_NONE)
			continue;
		if (n < MAX_LISTED)
			ddbc_strbuf_addf(sb, "%s'%s'", n ? ", " : "", p->matched[i]->name.s);
		n++;
	}
	if (n > MAX_LISTED)
		ddbc_strbuf_addf(sb, " and %zu more", n - MAX_LISTED);
	return n;
}

static void check_returns(const ddbc_pattern *p, ddbc_diags *d)
{
	const ddbc_index *ix = p->index;
	for (size_t i = 0; i < p->nreturns; i++) {
		strbuf who = STRBUF_INIT, proj = STRBUF_INIT;
		if (unprojected(p, p->returns[i].s, &who)) {
			projection_text(&proj, ix);
			/* An LSI fetches what it lacks from the table, at extra cost;
			 * a GSI cannot. */
			ddbc_diag_add(d, DDBC_RULE_PATTERN_PROJECTION, p->returns[i].loc,
				      "%s '%s' does not project '%s' of %s (projection: %s); %s",
				      index_kind(ix), ix->name.s, p->returns[i].s, ddbc_strbuf_str(&who),
				      ddbc_strbuf_str(&proj),
				      ix->kind == DDBC_INDEX_LSI
					      ? "DynamoDB fetches it from the table at extra read "
						"cost: add it to the projection"
					      : "add it to the projection, or read the item from the "
						"table");
		}
		ddbc_strbuf_release(&who);
		ddbc_strbuf_release(&proj);
	}
}

void ddbc_check_pattern_projection(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		/* The base table returns every attribute. */
		if (ddbc_pattern_matches_known(p) && p->index->kind != DDBC_INDEX_PRIMARY)
			check_returns(p, d);
	}
}

/* ---- pattern-no-match ---------------------------------------------------------------------- */

static const char *op_symbol(ddbc_cond_op op)
{
	switch (op) {
	case DDBC_COND_EQ: return "=";
	case DDBC_COND_LT: return "<";
	case DDBC_COND_LE: return "<=";
	case DDBC_COND_GT: return ">";
	case DDBC_COND_GE: return ">=";
	case DDBC_COND_BETWEEN: return "between";
	case DDBC_COND_BEGINS_WITH: return "begins_with";
	}
	return "?";
}

static const char *value_text(const ddbc_node *v)
{
	return v->kind == DDBC_NODE_SCALAR ? v->u.text : "...";
}

static void describe_cond(strbuf *sb, const ddbc_key_cond *c)
{
	ddbc_strbuf_addf(sb, "%s %s '%s'", c->attr.s, op_symbol(c->op), value_text(c->values[0]));
	if (c->op == DDBC_COND_BETWEEN && c->nvalues > 1)
		ddbc_strbuf_addf(sb, " and '%s'", value_text(c->values[1]));
}

/* The conditions matching used: known ones on the index's keys. */
static bool used_cond(const ddbc_pattern *p, const ddbc_key_cond *c)
{
	return c->attr.s && op_known(c) && ddbc_index_has_key(p->index, c->attr.s);
}

/* How entity e fails the condition: the first condition it cannot satisfy,
 * shown with e's template for that attribute. */
static void describe_candidate(const ddbc_design *g, strbuf *sb, const ddbc_pattern *p,
			       const ddbc_entity *e)
{
	ddbc_strbuf_addf(sb, "'%s'", e->name.s);
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		const ddbc_attr *a = used_cond(p, c) ? ddbc_entity_attr(e, c->attr.s) : NULL;
		if (!a || ddbc_cond_matches(g, c, a))
			continue;
		if (a->template.s)
			ddbc_strbuf_addf(sb, " (%s '%s')", a->name.s, a->template.s);
		else
			ddbc_strbuf_addf(sb, " (%s of type %s)", a->name.s, ddbc_type_short(a->type));
		return;
	}
}

static void add_candidates(const ddbc_design *g, strbuf *sb, const ddbc_pattern *p)
{
	const ddbc_table *t = p->table;
	size_t n = 0;
	for (size_t i = 0; i < t->nentities; i++) {
		const ddbc_entity *e = t->entities[i];
		if (!e->in_index || !e->in_index[p->index->slot])
			continue;
		if (n < MAX_LISTED) {
			ddbc_strbuf_addstr(sb, n ? ", " : "; candidates: ");
			describe_candidate(g, sb, p, e);
		}
		n++;
	}
	if (n > MAX_LISTED)
		ddbc_strbuf_addf(sb, " and %zu more", n - MAX_LISTED);
	if (!n)
		ddbc_strbuf_addf(sb, "; no entity is in %s '%s' (none sets all its key attributes)",
			    index_kind(p->index), p->index->name.s);
	else
		ddbc_strbuf_addstr(sb, "; compare the condition with them for a typo");
}

static void report_no_match(const ddbc_design *g, const ddbc_pattern *p, ddbc_diags *d)
{
	strbuf sb = STRBUF_INIT;
	ddbc_strbuf_addstr(&sb, "key condition ");
	size_t n = 0;
	for (size_t i = 0; i < p->nconds; i++) {
		if (!used_cond(p, &p->conds[i]))
			continue;
		if (n++)
			ddbc_strbuf_addstr(&sb, " and ");
		describe_cond(&sb, &p->conds[i]);
	}
	ddbc_strbuf_addf(&sb, " matches no entity in %s '%s'", index_kind(p->index),
		    p->index->name.s);
	add_candidates(g, &sb, p);
	ddbc_diag_add(d, DDBC_RULE_PATTERN_NO_MATCH, p->key_loc, "%s", ddbc_strbuf_str(&sb));
	ddbc_strbuf_release(&sb);
}

/* Reversed between bounds match nothing, but pattern-operator-type says
 * why; a second finding about the same condition would only repeat it. */
static bool reversed_between(const ddbc_pattern *p)
{
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		if (c->attr.s && c->op == DDBC_COND_BETWEEN && c->nvalues == 2 &&
		    bounds_reversed(c, ddbc_table_key_type(p->table, c->attr.s)))
			return true;
	}
	return false;
}

static bool servable(const ddbc_pattern *p)
{
	finder f = { NULL, 0 };
	find_unservable(p, &f);
	return f.n == 0;
}

/* Whether p declares an entity that exists: names that are not entities
 * are unresolved-reference's, and say nothing about the condition. */
static bool declares_known(const ddbc_design *g, const ddbc_pattern *p)
{
	for (size_t i = 0; i < p->nentities; i++)
		if (ddbc_design_entity(g, p->entities[i].s))
			return true;
	return false;
}

/* A condition that matches nothing, on a pattern that declares what it
 * expects back, is the declaration's error (pattern-entities) and not a
 * second finding of pattern-no-match: the user sees one. */
static bool empty_match_declared(const ddbc_design *g, const ddbc_pattern *p)
{
	return p->has_entities && declares_known(g, p) && servable(p);
}

void ddbc_check_pattern_no_match(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (ddbc_pattern_matches_known(p) && p->nmatched == 0 && p->nconds > 0 &&
		    !reversed_between(p) && !empty_match_declared(g, p))
			report_no_match(g, p, d);
	}
}

/* ---- pattern-entities -------------------------------------------------------------------------- */

static bool declares(const ddbc_pattern *p, const char *name)
{
	for (size_t i = 0; i < p->nentities; i++)
		if (!strcmp(p->entities[i].s, name))
			return true;
	return false;
}

static bool matches(const ddbc_pattern *p, const char *name)
{
	for (size_t i = 0; i < p->nmatched; i++)
		if (!strcmp(p->matched[i]->name.s, name))
			return true;
	return false;
}

/* Matched entities the declaration omits; returns how many. */
static size_t list_missing(const ddbc_pattern *p, strbuf *sb)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nmatched; i++)
		if (!declares(p, p->matched[i]->name.s))
			ddbc_strbuf_addf(sb, "%s'%s'", n++ ? ", " : "", p->matched[i]->name.s);
	return n;
}

/* Declared entities the condition cannot return; names that are not
 * entities at all are unresolved-reference's. */
static size_t list_extra(const ddbc_design *g, const ddbc_pattern *p, strbuf *sb)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nentities; i++) {
		const char *name = p->entities[i].s;
		if (ddbc_design_entity(g, name) && !matches(p, name))
			ddbc_strbuf_addf(sb, "%s'%s'", n++ ? ", " : "", name);
	}
	return n;
}

static void report_entities(const ddbc_design *g, const ddbc_pattern *p, ddbc_diags *d)
{
	strbuf missing = STRBUF_INIT, extra = STRBUF_INIT, want = STRBUF_INIT;
	size_t nmissing = list_missing(p, &missing), nextra = list_extra(g, p, &extra);
	/* A bound range-bound-shape reports makes the condition match what
	 * it was not meant to: that finding says why. */
	if ((nmissing || nextra) && ddbc_pattern_has_misshapen_bound(p))
		nmissing = nextra = 0;
	for (size_t i = 0; (nmissing || nextra) && i < p->nmatched; i++)
		ddbc_strbuf_addf(&want, "%s%s", i ? ", " : "", p->matched[i]->name.s);
	if (nmissing && nextra)
		ddbc_diag_add(d, DDBC_RULE_PATTERN_ENTITIES, p->entities_loc,
			      "entities omits %s, which the key condition also returns, and lists "
			      "%s, which it cannot return; write entities: [%s]",
			      ddbc_strbuf_str(&missing), ddbc_strbuf_str(&extra), ddbc_strbuf_str(&want));
	else if (nmissing)
		ddbc_diag_add(d, DDBC_RULE_PATTERN_ENTITIES, p->entities_loc,
			      "entities omits %s, which the key condition also returns; write "
			      "entities: [%s], or narrow the condition", ddbc_strbuf_str(&missing),
			      ddbc_strbuf_str(&want));
	else if (nextra)
		ddbc_diag_add(d, DDBC_RULE_PATTERN_ENTITIES, p->entities_loc,
			      "entities lists %s, which the key condition cannot return; write "
			      "entities: [%s], or check the condition against %s templates",
			      ddbc_strbuf_str(&extra), ddbc_strbuf_str(&want), nextra == 1 ? "its" : "their");
	ddbc_strbuf_release(&missing);
	ddbc_strbuf_release(&extra);
	ddbc_strbuf_release(&want);
}

/* The declared entities when the condition matches none of them: the
 * candidates are listed as pattern-no-match lists them. */
static void report_empty(const ddbc_design *g, const ddbc_pattern *p, ddbc_diags *d)
{
	strbuf extra = STRBUF_INIT, cands = STRBUF_INIT;
	list_extra(g, p, &extra);
	add_candidates(g, &cands, p);
	ddbc_diag_add(d, DDBC_RULE_PATTERN_ENTITIES, p->entities_loc,
		      "entities lists %s, but the key condition matches no entity in %s "
		      "'%s'%s", ddbc_strbuf_str(&extra), index_kind(p->index), p->index->name.s,
		      ddbc_strbuf_str(&cands));
	ddbc_strbuf_release(&extra);
	ddbc_strbuf_release(&cands);
}

void ddbc_check_pattern_entities(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		/* An unservable condition returns nothing, so what it "matches"
		 * means little: pattern-unservable says why. */
		if (!p->has_entities || !ddbc_pattern_matches_known(p) || p->entities_unresolved ||
		    !servable(p))
			continue;
		if (p->nmatched > 0)
			report_entities(g, p, d);
		else if (p->nconds > 0 && !reversed_between(p) && declares_known(g, p))
			report_empty(g, p, d);
	}
}

/* ---- pattern-scan ---------------------------------------------------------------------------------- */

void ddbc_check_pattern_scan(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (p->operation != DDBC_OP_SCAN)
			continue;
		if (p->index)
			ddbc_diag_add(d, DDBC_RULE_PATTERN_SCAN, p->operation_loc,
				      "'%s' reads every item of %s '%s'; a scan's cost grows with "
				      "the table: key the data so that a query serves it",
				      p->id.s, index_kind(p->index), p->index->name.s);
		else
			ddbc_diag_add(d, DDBC_RULE_PATTERN_SCAN, p->operation_loc,
				      "'%s' reads every item of its table; a scan's cost grows with "
				      "the table: key the data so that a query serves it", p->id.s);
	}
}

/* ---- pattern-value-enum ---------------------------------------------------------- */

/* The literal a key condition value stands for, into out: the value
 * itself, or a template without placeholders ("{{" read as "{"). False
 * when the value holds a parameter: any value may then be meant. */
static bool literal_value(const ddbc_node *v, const ddbc_req_value *rv, ddbc_arena *scratch,
			  strbuf *out)
{
	if (v->kind != DDBC_NODE_SCALAR)
		return false;
	ddbc_template t;
	size_t off;
	if (v->scalar != DDBC_SCALAR_STR || !strchr(v->u.text, '{')) {
		ddbc_strbuf_addstr(out, v->u.text);
		return true;
	}
	/* The request parsed the value already (a string that fails to
	 * parse is no template there); a pattern without one parses it. */
	if (rv && rv->node == v) {
		if (!rv->is_template)
			return false;
		t = rv->tpl;
	} else if (ddbc_template_parse(scratch, v->u.text, &t, &off)) {
		return false;
	}
	for (size_t k = 0; k < t.nsegs; k++) {
		if (t.segs[k].kind == DDBC_SEG_PLACEHOLDER)
			return false;
		ddbc_strbuf_add(out, t.segs[k].text, t.segs[k].len);
	}
	return true;
}

/* Whether enum value e meets the literal under op: equal, or (begins_with)
 * starting with it. Ranges are not judged: a bound need not be a value. */
static bool enum_meets(const ddbc_node *e, ddbc_cond_op op, const strbuf *lit)
{
	if (op == DDBC_COND_BEGINS_WITH)
		return !strncmp(e->u.text, lit->buf, lit->len);
	return !strcmp(e->u.text, lit->buf);
}

/* The attribute with an enum that rules the literal out for every entity
 * the pattern can read, or NULL when some entity may hold it (no such
 * attribute, a template, no enum, or a value of the enum that meets it). */
static const ddbc_attr *enum_excludes(const ddbc_pattern *p, const ddbc_key_cond *c,
				      const strbuf *lit)
{
	const ddbc_attr *rules_out = NULL;
	size_t n = p->nmatched;
	for (size_t i = 0; i < n; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], c->attr.s);
		if (!a || a->has_template || a->template.s || !a->more->nenum)
			return NULL;
		for (size_t k = 0; k < a->more->nenum; k++)
			if (enum_meets(a->more->enum_values[k], c->op, lit))
				return NULL;
		rules_out = a;
	}
	return rules_out;
}

static void report_value_enum(const ddbc_key_cond *c, const ddbc_node *v, const ddbc_attr *a,
			      const strbuf *lit, ddbc_diags *d)
{
	strbuf list = STRBUF_INIT;
	const char **words = ddbc_xmalloc(a->more->nenum * sizeof(*words));
	for (size_t k = 0; k < a->more->nenum; k++) {
		words[k] = a->more->enum_values[k]->u.text;
		if (k < MAX_LISTED * 2)
			ddbc_strbuf_addf(&list, "%s%s", k ? ", " : "", words[k]);
	}
	if (a->more->nenum > MAX_LISTED * 2)
		ddbc_strbuf_addstr(&list, ", ...");
	const char *hint = c->op == DDBC_COND_EQ ? ddbc_suggest(lit->buf, words, a->more->nenum) : NULL;
	ddbc_diag_add(d, DDBC_RULE_PATTERN_VALUE_ENUM, v->loc,
		      "the condition on '%s' can match no item: %s '%s' is %s of its enum "
		      "values (%s)%s%s%s", c->attr.s,
		      c->op == DDBC_COND_BEGINS_WITH ? "the prefix" : "the value", lit->buf,
		      c->op == DDBC_COND_BEGINS_WITH ? "the start of none" : "none",
		      ddbc_strbuf_str(&list), hint ? "; did you mean '" : "", hint ? hint : "",
		      hint ? "'?" : "");
	free(words);
	ddbc_strbuf_release(&list);
}

void ddbc_check_pattern_value_enum(const ddbc_design *g, ddbc_diags *d)
{
	ddbc_arena *scratch = ddbc_arena_new();
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!ddbc_pattern_matches_known(p) || !p->nmatched)
			continue;
		for (size_t k = 0; k < p->nconds; k++) {
			const ddbc_key_cond *c = &p->conds[k];
			if (!c->attr.s || !op_known(c) ||
			    (c->op != DDBC_COND_EQ && c->op != DDBC_COND_BEGINS_WITH))
				continue;
			const ddbc_request *r = p->request;
			const ddbc_req_value *rv = r && r->cond_values && c->nvalues
						   ? &r->cond_values[k][0] : NULL;
			strbuf lit = STRBUF_INIT;
			const ddbc_attr *a = literal_value(c->values[0], rv, scratch, &lit)
					     ? enum_excludes(p, c, &lit) : NULL;
			if (a)
				report_value_enum(c, c->values[0], a, &lit, d);
			ddbc_strbuf_release(&lit);
		}
	}
	ddbc_arena_free(scratch);
}

/* ---- returns-unknown-attribute --------------------------------------------------- */

/* Whether an entity the pattern returns has attribute name. */
static bool returned_attr(const ddbc_pattern *p, const char *name)
{
	for (size_t i = 0; i < p->nmatched; i++)
		if (ddbc_entity_attr(p->matched[i], name))
			return true;
	return false;
}

/* The nearest attribute name of the entities p returns, or NULL. */
static const char *returned_hint(const ddbc_pattern *p, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nmatched; i++)
		n += p->matched[i]->nattrs;
	const char **names = ddbc_xmalloc((n ? n : 1) * sizeof(*names));
	n = 0;
	for (size_t i = 0; i < p->nmatched; i++)
		for (size_t k = 0; k < p->matched[i]->nattrs; k++)
			names[n++] = p->matched[i]->attrs[k].name.s;
	const char *hint = ddbc_suggest(name, names, n);
	free(names);
	return hint;
}

void ddbc_check_returns_unknown_attribute(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!ddbc_pattern_matches_known(p) || !p->nmatched)
			continue;
		for (size_t k = 0; k < p->nreturns; k++) {
			const ddbc_name *r = &p->returns[k];
			/* One no entity of the table has is unresolved-reference's. */
			if (returned_attr(p, r->s) || !ddbc_table_stores(p->table, r->s))
				continue;
			strbuf who = STRBUF_INIT;
			for (size_t e = 0; e < p->nmatched && e < MAX_LISTED; e++)
				ddbc_strbuf_addf(&who, "%s'%s'", e ? ", " : "", p->matched[e]->name.s);
			if (p->nmatched > MAX_LISTED)
				ddbc_strbuf_addf(&who, " and %zu more", (size_t)(p->nmatched - MAX_LISTED));
			const char *hint = returned_hint(p, r->s);
			ddbc_diag_add(d, DDBC_RULE_RETURNS_UNKNOWN_ATTRIBUTE, r->loc,
				      "pattern '%s' returns %s, %s '%s' (only other entities of "
				      "table '%s' have it); %s%s%s", p->id.s, ddbc_strbuf_str(&who),
				      p->nmatched == 1 ? "which has no" : "none of which has", r->s,
				      p->table->name.s,
				      hint ? "did you mean '" : "remove it from 'returns'",
				      hint ? hint : "", hint ? "'?" : "");
			ddbc_strbuf_release(&who);
		}
	}
}

/* ---- order-not-query ------------------------------------------------------------- */

void ddbc_check_order_not_query(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		if (!p->order || p->operation == DDBC_OP_QUERY)
			continue;
		ddbc_diag_add(d, DDBC_RULE_ORDER_NOT_QUERY, p->order_loc,
			      "'order: %s' does nothing on a %s: only a Query sorts what it "
			      "returns (ScanIndexForward); remove it%s",
			      p->order > 0 ? "asc" : "desc", api_name(p->operation),
			      p->operation == DDBC_OP_SCAN ? ", or make the pattern a query" : "");
	}
}
