/* header_plan_patterns.c - the header's names and builders for access patterns
 *
 * Per access pattern: the table and index names it uses, and a builder for
 * each value of its key condition, planned like a key's (header_plan.c)
 * from the value's template over the pattern's parameters. The expression
 * text itself is the queries export's, printed by emit/emit_header.c.
 */
#include "model/header_plan_int.h"
#include "model/request.h"
#include "model/semantics.h"
#include "util/strset.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct value_builder {
	ddbc_arena *arena;
	ddbc_hkey *key;
	size_t pieces_cap, params_cap;
} value_builder;

static void add_piece(value_builder *vb, ddbc_hpiece pc)
{
	ddbc_hkey *k = vb->key;
	ddbc_xgrow((void **)&k->pieces, &vb->pieces_cap, k->npieces + 1, sizeof(ddbc_hpiece));
	k->pieces[k->npieces++] = pc;
}

const char *ddbc_header_param_name(ddbc_arena *arena, const char *source)
{
	const char *lower = ddbc_hplan_ident(arena, source, false);
	return ddbc_hplan_param(arena, lower ? lower : "_");
}

/* The parameter of placeholder seg, added at its first use; (size_t)-1
 * when another placeholder name gives the same C name. */
static size_t add_param(value_builder *vb, const ddbc_segment *seg, bool number)
{
	ddbc_hkey *k = vb->key;
	const char *source = ddbc_arena_strndup(vb->arena, seg->text, seg->len);
	const char *name = ddbc_header_param_name(vb->arena, source);
	for (size_t i = 0; i < k->nparams; i++) {
		if (!strcmp(k->params[i].source, source))
			return i;
		if (!strcmp(k->params[i].name, name))
			return (size_t)-1;
	}
	ddbc_xgrow((void **)&k->params, &vb->params_cap, k->nparams + 1, sizeof(ddbc_hparam));
	k->params[k->nparams] = (ddbc_hparam){ NULL, name, source, number, NULL };
	return k->nparams++;
}


/* Plans value v of a condition on key attribute of type key_type into
 * *k; -1 when two of its placeholders give one C name. */
static int plan_value_key(ddbc_arena *arena, const ddbc_req_value *rv, ddbc_type key_type,
			  ddbc_hkey *k)
{
	memset(k, 0, sizeof(*k));
	const ddbc_node *v = rv->node;
	/* A value that is no template (a number) is its text. */
	if (!rv->is_template) {
		k->pieces = ddbc_arena_alloc(arena, sizeof(ddbc_hpiece));
		k->pieces[0] = (ddbc_hpiece){ ddbc_arena_strndup(arena, v->u.text, v->n), v->n, 0, 0 };
		k->npieces = 1;
		k->constant = true;
		k->prefix = "";
		return 0;
	}
	const ddbc_template t = rv->tpl;
	value_builder vb = { arena, k, 0, 0 };
	int r = 0;
	for (size_t i = 0; i < t.nsegs && r == 0; i++) {
		const ddbc_segment *seg = &t.segs[i];
		if (seg->kind == DDBC_SEG_LITERAL) {
			add_piece(&vb, (ddbc_hpiece){ seg->text, seg->len, 0, 0 });
			continue;
		}
		/* The whole value of a Number key, or a padded number. */
		bool number = seg->width || (t.nsegs == 1 && key_type == DDBC_TYPE_N);
		size_t param = add_param(&vb, seg, number);
		if (param == (size_t)-1)
			r = -1;
		else
			add_piece(&vb, (ddbc_hpiece){ NULL, 0, param, seg->width });
	}
	k->pieces = ddbc_hplan_to_arena(arena, k->pieces, k->npieces, sizeof(ddbc_hpiece));
	k->params = ddbc_hplan_to_arena(arena, k->params, k->nparams, sizeof(ddbc_hparam));
	k->constant = k->nparams == 0;
	k->prefix = "";
	if (k->npieces && k->pieces[0].text) {
		k->prefix = k->pieces[0].text;
		k->prefix_len = k->pieces[0].len;
	}
	return r;
}

/* The type the table gives key attribute name (S when none): the
 * request's, resolved once, when it sends it. */
static ddbc_type key_type(const ddbc_pattern *p, const char *name)
{
	const ddbc_req_cond *rc = ddbc_request_cond(p->request, name);
	if (rc)
		return rc->type;
	ddbc_type type = ddbc_table_key_type(p->table, name);
	return type == DDBC_TYPE_NONE ? DDBC_TYPE_S : type;
}

/* Plans value i of condition c of pattern hp (identifier part X) into hv.
 * Returns false (reported in d) when two of its placeholders give one C
 * parameter name. */
static bool plan_value(ddbc_arena *arena, ddbc_hpattern *hp, const char *X,
		       const ddbc_key_cond *c, size_t i, ddbc_hvalue *hv, ddbc_diags *d)
{
	const ddbc_pattern *p = hp->pattern;
	hv->cond = c;
	hv->index = i;
	hv->node = c->values[i];
	const ddbc_req_value *rv = &p->request->cond_values[c - p->conds][i];
	if (plan_value_key(arena, rv, key_type(p, c->attr.s), &hv->key) != 0) {
		if (d)
			ddbc_diag_add(d, DDBC_RULE_HEADER_NAME, hv->node->loc,
				      "two parameters of access pattern '%s' give one C name in "
				      "'%s'; the header's builder cannot take both: rename one",
				      p->id.s, hv->node->u.text);
		return false;
	}
	const char *A = ddbc_hplan_ident(arena, c->attr.s, true);
	const char *bound = c->op != DDBC_COND_BETWEEN ? "" : i ? "_HI" : "_LO";
	const char *stem = ddbc_hplan_concat(arena, X, "_", A ? A : "_", bound, "_VALUE", NULL);
	if (hv->key.constant) {
		hv->value_macro = stem;
	} else {
		hv->value_macro = ddbc_hplan_concat(arena, stem, "_FMT", NULL);
		hv->func = ddbc_hplan_lower(arena, stem);
		hv->macro = stem;
	}
	if (p->operation == DDBC_OP_QUERY)
		hv->ref_macro = ddbc_hplan_concat(arena, X, "_", A ? A : "_", bound, "_PLACEHOLDER",
						  NULL);
	return true;
}

/* The values of p's key condition in the index's key order: partition
 * key attributes, then sort key attributes, as the expression has them. */
static bool plan_values(ddbc_arena *arena, ddbc_hpattern *hp, const char *X, ddbc_diags *d)
{
	const ddbc_pattern *p = hp->pattern;
	const ddbc_index *ix = p->index;
	size_t n = 0;
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		const ddbc_key_cond *c = ddbc_pattern_cond(p, ddbc_index_key(ix, i));
		n += c ? c->nvalues : 0;
	}
	hp->values = ddbc_arena_array(arena, n, sizeof(ddbc_hvalue));
	bool ok = true;
	for (size_t i = 0; i < ix->npk + ix->nsk; i++) {
		const ddbc_key_cond *c = ddbc_pattern_cond(p, ddbc_index_key(ix, i));
		for (size_t v = 0; c && v < c->nvalues && (c->op == DDBC_COND_BETWEEN || v == 0); v++) {
			memset(&hp->values[hp->nvalues], 0, sizeof(ddbc_hvalue));
			if (plan_value(arena, hp, X, c, v, &hp->values[hp->nvalues], d))
				hp->nvalues++;
			else
				ok = false;
		}
	}
	return ok;
}

bool ddbc_hplan_pattern(ddbc_header_plan *plan, size_t i, ddbc_hpattern *hp, ddbc_diags *d,
			bool *findings)
{
	ddbc_arena *arena = plan->pattern_scratch;
	ddbc_arena_clear(arena);
	memset(hp, 0, sizeof(*hp));
	const ddbc_pattern *p = &plan->g->patterns[i];
	const char *id = p->id.s ? ddbc_hplan_ident(arena, p->id.s, true) : NULL;
	/* Its requests are the queries export's; the header only helps. */
	if (!id || p->incomplete || !p->analysed || !p->table || !p->index)
		return false;
	hp->pattern = p;
	const char *part = ddbc_hplan_short(plan, id);
	const char *X = ddbc_hplan_concat(arena, plan->prefix, *part ? "_" : "", part, NULL);
	hp->table_macro = ddbc_hplan_concat(arena, X, "_TABLE_NAME", NULL);
	bool read = p->operation == DDBC_OP_QUERY || p->operation == DDBC_OP_SCAN;
	if (read && p->index->kind != DDBC_INDEX_PRIMARY)
		hp->index_macro = ddbc_hplan_concat(arena, X, "_INDEX_NAME", NULL);
	if (p->operation == DDBC_OP_QUERY)
		hp->kce_macro = ddbc_hplan_concat(arena, X, "_KEY_CONDITION", NULL);
	/* What the queries export sends: a read's ProjectionExpression (a
	 * get's too), a Query's ScanIndexForward. */
	if ((read || p->operation == DDBC_OP_GET) && p->nreturns)
		hp->projection_macro = ddbc_hplan_concat(arena, X, "_PROJECTION_EXPRESSION", NULL);
	if (p->operation == DDBC_OP_QUERY && p->order)
		hp->order_macro = ddbc_hplan_concat(arena, X, "_SCAN_INDEX_FORWARD", NULL);
	if (hp->kce_macro || hp->projection_macro)
		hp->names_macro = ddbc_hplan_concat(arena, X, "_EXPR_NAMES_JSON", NULL);
	if (p->operation != DDBC_OP_SCAN && !plan_values(arena, hp, X, d) && findings)
		*findings = true;
	for (size_t v = 0; v < hp->nvalues; v++)
		plan->has_builders |= !hp->values[v].key.constant;
	return true;
}

bool ddbc_header_plan_pattern(ddbc_header_plan *plan, size_t i, ddbc_hpattern *hp)
{
	return ddbc_hplan_pattern(plan, i, hp, NULL, NULL);
}

/* ---- the first walk's hashes -------------------------------------------------- */

typedef struct pattern_hasher {
	ddbc_hseen_fn *seen;
	void *ctx;
} pattern_hasher;

static void seen_suffix(const pattern_hasher *ph, uint64_t stem, const char *suffix)
{
	ph->seen(ph->ctx, ddbc_hplan_hash(stem, suffix, strlen(suffix), false));
}

/* Whether value rv is a constant (plan_value_key's k->constant), or -1
 * when two of its placeholders give one C name: only a value with two
 * placeholders or more is planned to find out. */
static int value_constant(ddbc_arena *arena, const ddbc_req_value *rv, ddbc_type key_type)
{
	size_t n = 0;
	for (size_t i = 0; rv->is_template && i < rv->tpl.nsegs; i++)
		n += rv->tpl.segs[i].kind != DDBC_SEG_LITERAL;
	if (n < 2)
		return n == 0;
	ddbc_hkey k;
	return plan_value_key(arena, rv, key_type, &k) != 0 ? -1 : k.constant;
}

/* h followed by "_", A and bound, lower-cased when lower. */
static uint64_t hash_mid(uint64_t h, const char *A, const char *bound, bool lower)
{
	h = ddbc_hplan_hash(h, "_", 1, lower);
	h = ddbc_hplan_hash(h, A, strlen(A), lower);
	return ddbc_hplan_hash(h, bound, strlen(bound), lower);
}

/* plan_value's names, hashed from their parts: x and lx hash the
 * pattern's X and its lower case. */
static bool hash_value(ddbc_header_plan *plan, const pattern_hasher *ph, const ddbc_pattern *p,
		       const ddbc_key_cond *c, size_t i, uint64_t x, uint64_t lx, ddbc_diags *d)
{
	ddbc_arena *arena = plan->pattern_scratch;
	const ddbc_req_value *rv = &p->request->cond_values[c - p->conds][i];
	int constant = value_constant(arena, rv, key_type(p, c->attr.s));
	if (constant < 0) {
		if (d)
			ddbc_diag_add(d, DDBC_RULE_HEADER_NAME, c->values[i]->loc,
				      "two parameters of access pattern '%s' give one C name in "
				      "'%s'; the header's builder cannot take both: rename one",
				      p->id.s, c->values[i]->u.text);
		return false;
	}
	const char *A = ddbc_hplan_ident(arena, c->attr.s, true);
	const char *bound = c->op != DDBC_COND_BETWEEN ? "" : i ? "_HI" : "_LO";
	/* The hash runs byte by byte: "_", A and bound hashed in turn are
	 * their concatenation hashed, without writing it. */
	uint64_t mid = hash_mid(x, A ? A : "_", bound, false);
	uint64_t stem = ddbc_hplan_hash(mid, "_VALUE", 6, false);
	/* The constant, or the builder's macro. */
	ph->seen(ph->ctx, stem);
	if (!constant) {
		seen_suffix(ph, stem, "_FMT");
		ph->seen(ph->ctx, ddbc_hplan_hash(hash_mid(lx, A ? A : "_", bound, true), "_value",
						  6, false));
		plan->has_builders = true;
	}
	if (p->operation == DDBC_OP_QUERY)
		seen_suffix(ph, mid, "_PLACEHOLDER");
	return true;
}

bool ddbc_hplan_pattern_hashes(ddbc_header_plan *plan, size_t i, ddbc_hseen_fn *seen,
			       void *ctx, ddbc_diags *d, bool *findings)
{
	ddbc_arena *arena = plan->pattern_scratch;
	ddbc_arena_clear(arena);
	const ddbc_pattern *p = &plan->g->patterns[i];
	const char *id = p->id.s ? ddbc_hplan_ident(arena, p->id.s, true) : NULL;
	if (!id || p->incomplete || !p->analysed || !p->table || !p->index)
		return false;
	pattern_hasher ph = { seen, ctx };
	const char *part = ddbc_hplan_short(plan, id);
	const char *sep = *part ? "_" : "";
	size_t n = strlen(part);
	uint64_t x = plan->prefix_hash, lx = plan->prefix_lower_hash;
	x = ddbc_hplan_hash(ddbc_hplan_hash(x, sep, strlen(sep), false), part, n, false);
	lx = ddbc_hplan_hash(ddbc_hplan_hash(lx, sep, strlen(sep), false), part, n, true);
	seen_suffix(&ph, x, "_TABLE_NAME");
	bool read = p->operation == DDBC_OP_QUERY || p->operation == DDBC_OP_SCAN;
	if (read && p->index->kind != DDBC_INDEX_PRIMARY)
		seen_suffix(&ph, x, "_INDEX_NAME");
	bool kce = p->operation == DDBC_OP_QUERY;
	bool projection = (read || p->operation == DDBC_OP_GET) && p->nreturns;
	if (kce)
		seen_suffix(&ph, x, "_KEY_CONDITION");
	if (projection)
		seen_suffix(&ph, x, "_PROJECTION_EXPRESSION");
	if (p->operation == DDBC_OP_QUERY && p->order)
		seen_suffix(&ph, x, "_SCAN_INDEX_FORWARD");
	if (kce || projection)
		seen_suffix(&ph, x, "_EXPR_NAMES_JSON");
	if (p->operation == DDBC_OP_SCAN)
		return true;
	/* plan_values' walk. */
	const ddbc_index *ix = p->index;
	bool ok = true;
	for (size_t k = 0; k < ix->npk + ix->nsk; k++) {
		const ddbc_key_cond *c = ddbc_pattern_cond(p, ddbc_index_key(ix, k));
		for (size_t v = 0; c && v < c->nvalues && (c->op == DDBC_COND_BETWEEN || v == 0); v++)
			ok &= hash_value(plan, &ph, p, c, v, x, lx, d);
	}
	if (!ok && findings)
		*findings = true;
	return true;
}
