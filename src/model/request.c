/* request.c - an access pattern's request, as data */
#include "model/request.h"
#include "model/semantics.h"
#include "util/decimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const ddbc_name *ddbc_index_key_name(const ddbc_index *ix, size_t i)
{
	return i < ix->npk ? &ix->pk[i] : &ix->sk[i - ix->npk];
}

const char *ddbc_index_key(const ddbc_index *ix, size_t i)
{
	return ddbc_index_key_name(ix, i)->s;
}

ddbc_type ddbc_index_key_type(const ddbc_index *ix, size_t i)
{
	if (ix->key_types)
		return ix->key_types[i];
	const char *name = ddbc_index_key(ix, i);
	return name && ix->table ? ddbc_table_key_type(ix->table, name) : DDBC_TYPE_NONE;
}

const ddbc_key_cond *ddbc_pattern_cond(const ddbc_pattern *p, const char *attr)
{
	for (size_t i = 0; attr && i < p->nconds; i++)
		if (p->conds[i].attr.s && p->conds[i].nvalues && !strcmp(p->conds[i].attr.s, attr))
			return &p->conds[i];
	return NULL;
}

const ddbc_key_cond *ddbc_pattern_cond_written(const ddbc_pattern *p, const char *attr)
{
	for (size_t i = 0; attr && i < p->nconds; i++)
		if (p->conds[i].attr.s && !strcmp(p->conds[i].attr.s, attr))
			return &p->conds[i];
	return NULL;
}

const ddbc_request *ddbc_pattern_request(const ddbc_pattern *p)
{
	return p->request;
}

const ddbc_req_cond *ddbc_request_cond(const ddbc_request *r, const char *attr)
{
	for (size_t i = 0; attr && i < r->nconds; i++)
		if (!strcmp(r->conds[i].attr, attr))
			return &r->conds[i];
	return NULL;
}

const ddbc_segment *ddbc_request_padded(const ddbc_request *r, const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < r->nconds; i++) {
		const ddbc_req_cond *c = &r->conds[i];
		for (size_t j = 0; j < c->nvalues; j++) {
			const ddbc_template *t = &c->values[j].tpl;
			for (size_t k = 0; c->values[j].is_template && k < t->nsegs; k++) {
				const ddbc_segment *s = &t->segs[k];
				if (s->kind == DDBC_SEG_PLACEHOLDER && s->width && s->len == len &&
				    !memcmp(s->text, name, len))
					return s;
			}
		}
	}
	return NULL;
}

ddbc_render_result ddbc_req_value_render(const ddbc_req_value *v, ddbc_tvalue_fn *param_of,
					 void *ctx, strbuf *out, ddbc_render_problem *problem)
{
	if (v->is_template)
		return ddbc_template_render(&v->tpl, param_of, ctx, out, problem);
	ddbc_strbuf_add(out, v->text, v->len);
	return DDBC_RENDER_OK;
}

/* ---- comparing keys -------------------------------------------------------------- */

int ddbc_key_compare(ddbc_type t, const char *a, size_t alen, const char *b, size_t blen)
{
	/* Exact decimals: a double keeps 17 of a Number's 38 digits and would
	 * tie numbers DynamoDB orders apart. */
	if (t == DDBC_TYPE_N)
		return ddbc_decimal_cmp(a, alen, b, blen);
	size_t n = alen < blen ? alen : blen;
	int c = memcmp(a, b, n);
	return c ? c : (alen > blen) - (alen < blen);
}

bool ddbc_key_op_holds(ddbc_cond_op op, ddbc_type t, const char *s, size_t len,
		       const ddbc_key_text *v)
{
	if (op == DDBC_COND_BEGINS_WITH)
		return len >= v[0].len && !memcmp(s, v[0].text, v[0].len);
	int lo = ddbc_key_compare(t, s, len, v[0].text, v[0].len);
	switch (op) {
	case DDBC_COND_EQ: return lo == 0;
	case DDBC_COND_LT: return lo < 0;
	case DDBC_COND_LE: return lo <= 0;
	case DDBC_COND_GT: return lo > 0;
	case DDBC_COND_GE: return lo >= 0;
	case DDBC_COND_BETWEEN:
		return lo >= 0 && ddbc_key_compare(t, s, len, v[1].text, v[1].len) <= 0;
	case DDBC_COND_BEGINS_WITH:
		break;
	}
	return false;
}

/* ---- building ---------------------------------------------------------------------- */

/* Parses value n once: a string that is a template keeps its segments (in
 * the design's arena), anything else its text. */
static void parse_value(ddbc_design *g, const ddbc_node *n, ddbc_req_value *v)
{
	v->node = n;
	size_t off;
	if (n->kind == DDBC_NODE_SCALAR && n->scalar == DDBC_SCALAR_STR &&
	    !ddbc_template_parse(g->arena, n->u.text, &v->tpl, &off)) {
		v->is_template = true;
		return;
	}
	long long i;
	if (ddbc_node_int(n, &i)) {
		v->text = ddbc_arena_printf(g->arena, "%lld", i);
		v->len = (uint32_t)strlen(v->text);
	} else if (n->kind == DDBC_NODE_SCALAR) {
		v->text = n->u.text;
		v->len = n->n;
	} else {
		v->text = "";
	}
}

/* Parses the values of every condition of p, once; lists their
 * placeholders as r's parameters. */
static ddbc_req_value **parse_conds(ddbc_design *g, const ddbc_pattern *p, ddbc_request *r)
{
	ddbc_req_value **values = ddbc_arena_array(g->arena, p->nconds, sizeof(ddbc_req_value *));
	size_t nparams = 0;
	for (size_t i = 0; i < p->nconds; i++) {
		const ddbc_key_cond *c = &p->conds[i];
		values[i] = ddbc_arena_array(g->arena, c->nvalues, sizeof(ddbc_req_value));
		for (size_t v = 0; v < c->nvalues; v++) {
			parse_value(g, c->values[v], &values[i][v]);
			for (size_t k = 0; values[i][v].is_template && k < values[i][v].tpl.nsegs; k++)
				nparams += values[i][v].tpl.segs[k].kind == DDBC_SEG_PLACEHOLDER;
		}
	}
	r->params = ddbc_arena_array(g->arena, nparams, sizeof(ddbc_segment *));
	for (size_t i = 0; i < p->nconds; i++) {
		for (size_t v = 0; v < p->conds[i].nvalues; v++) {
			const ddbc_template *t = &values[i][v].tpl;
			for (size_t k = 0; values[i][v].is_template && k < t->nsegs; k++)
				if (t->segs[k].kind == DDBC_SEG_PLACEHOLDER)
					r->params[r->nparams++] = &t->segs[k];
		}
	}
	return values;
}

static void build_cond(const ddbc_key_cond *c, ddbc_req_value *values, const ddbc_index *key,
		       size_t pos, ddbc_req_cond *rc)
{
	ddbc_type t = ddbc_index_key_type(key, pos);
	rc->cond = c;
	rc->attr = c->attr.s;
	rc->key_pos = (uint32_t)pos;
	rc->op = c->op;
	rc->type = t == DDBC_TYPE_NONE ? DDBC_TYPE_S : t;
	rc->nvalues = (uint32_t)c->nvalues;
	rc->values = values;
}

void ddbc_request_build(ddbc_design *g, ddbc_pattern *p)
{
	if (!p->table || !p->index)
		return;
	ddbc_request *r = ddbc_arena_array(g->arena, 1, sizeof(ddbc_request));
	r->pattern = p;
	r->op = p->operation;
	r->table = p->table;
	r->index = p->index;
	r->reads = p->operation == DDBC_OP_QUERY || p->operation == DDBC_OP_SCAN ||
		   p->operation == DDBC_OP_GET;
	r->writes = !r->reads;
	r->index_named = (p->operation == DDBC_OP_QUERY || p->operation == DDBC_OP_SCAN) &&
			 p->index->kind != DDBC_INDEX_PRIMARY;
	r->key = p->operation == DDBC_OP_QUERY ? p->index
		 : p->operation == DDBC_OP_SCAN ? NULL
						 : &p->table->primary;
	if (r->reads) {
		r->returns = p->returns;
		r->nreturns = (uint32_t)p->nreturns;
		r->consistent = p->consistent_read;
	} else {
		r->condition = p->condition;
	}
	if (p->operation == DDBC_OP_QUERY)
		r->order = (int8_t)p->order;
	/* load_cost.c keeps a limit only on a query or scan. */
	if (p->limit->set)
		r->limit = (uint32_t)p->limit->value;
	ddbc_req_value **values = parse_conds(g, p, r);
	r->cond_values = values;
	size_t n = r->key ? r->key->npk + r->key->nsk : 0, nconds = 0;
	for (size_t i = 0; i < n; i++)
		nconds += ddbc_pattern_cond(p, ddbc_index_key(r->key, i)) != NULL;
	/* Sized to what is there: a design has tens of thousands of patterns. */
	r->conds = ddbc_arena_array(g->arena, nconds, sizeof(ddbc_req_cond));
	for (size_t i = 0; i < n; i++) {
		const ddbc_key_cond *c = ddbc_pattern_cond(p, ddbc_index_key(r->key, i));
		if (c)
			build_cond(c, values[c - p->conds], r->key, i, &r->conds[r->nconds++]);
	}
	p->request = r;
}
