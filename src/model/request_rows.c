/* request_rows.c - which example items a request returns (request_rows.h) */
#include "model/request_rows.h"
#include "model/params.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- what a request sends --------------------------------------------------------- */

void ddbc_key_sent_init(ddbc_key_sent *sent, const ddbc_request *q)
{
	memset(sent, 0, sizeof *sent);
	const ddbc_index *key = q ? q->key : NULL;
	sent->n = key ? key->npk + key->nsk : 0;
	sent->values = ddbc_xcalloc(sent->n + 1, sizeof *sent->values);
	sent->types = ddbc_xcalloc(sent->n + 1, sizeof *sent->types);
	for (size_t i = 0; i < sent->n; i++) {
		ddbc_type t = ddbc_index_key_type(key, i);
		sent->types[i] = t == DDBC_TYPE_NONE ? DDBC_TYPE_S : t;
	}
	sent->arena = ddbc_arena_new();
}

void ddbc_key_sent_set(ddbc_key_sent *sent, size_t pos, size_t i, const char *text, size_t len)
{
	if (i > 1 || pos >= sent->n)
		return;
	sent->values[pos][i] = (ddbc_key_text){ ddbc_arena_strndup(sent->arena, text, len), len };
}

void ddbc_key_sent_release(ddbc_key_sent *sent)
{
	free(sent->values);
	free(sent->types);
	ddbc_arena_free(sent->arena);
	memset(sent, 0, sizeof *sent);
}

static bool usable(const ddbc_pval *v)
{
	return v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR && !ddbc_pval_is_null(v);
}

const ddbc_pval *ddbc_pattern_param_node(const ddbc_pattern *p, const char *name)
{
	const ddbc_pval *v = p->example ? ddbc_pval_get(p->example, name) : NULL;
	if (usable(v))
		return v;
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_entity *e = p->matched[i];
		if (!ddbc_entity_attr(e, name))
			continue;
		for (size_t k = 0; k < e->nexamples; k++) {
			v = ddbc_pval_get(e->examples[k], name);
			if (usable(v))
				return v;
		}
	}
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], name);
		if (a && usable(a->more->example))
			return a->more->example;
	}
	return NULL;
}

void ddbc_scalar_text(const ddbc_node *n, strbuf *out)
{
	long long v;
	if (ddbc_node_int(n, &v))
		ddbc_strbuf_addf(out, "%lld", v);
	else if (n && n->kind == DDBC_NODE_SCALAR)
		ddbc_strbuf_add(out, n->u.text, n->n);
}

void ddbc_pval_scalar_text(const ddbc_pval *n, strbuf *out)
{
	long long v;
	uint32_t len;
	const char *text = n ? ddbc_pval_str(n, &len) : NULL;
	if (ddbc_pval_int(n, &v))
		ddbc_strbuf_addf(out, "%lld", v);
	else if (text)
		ddbc_strbuf_add(out, text, len);
}

ddbc_tvalue ddbc_param_tvalue(ddbc_arena *arena, const ddbc_segment *seg, const char *text,
			      size_t len)
{
	bool digits = seg->width && len;
	for (size_t i = 0; i < len && digits; i++)
		digits = text[i] >= '0' && text[i] <= '9';
	ddbc_tvalue v = { digits ? DDBC_TVALUE_NUMBER : DDBC_TVALUE_TEXT,
			  ddbc_arena_strndup(arena, len ? text : "", len), len, false, 0, NULL };
	return v;
}

/* A request's key values being rendered from the design. */
typedef struct from_design {
	const ddbc_design *g;
	const ddbc_pattern *p;
	ddbc_arena *arena;
	bool failed;
} from_design;

static ddbc_tvalue design_param(void *ctx, const ddbc_segment *seg)
{
	from_design *f = ctx;
	char *name = ddbc_arena_strndup(f->arena, seg->text, seg->len);
	const ddbc_pval *v = ddbc_pattern_param_node(f->p, name);
	strbuf text = STRBUF_INIT;
	if (v)
		ddbc_pval_scalar_text(v, &text);
	else
		f->failed = true;
	ddbc_tvalue t = ddbc_param_tvalue(f->arena, seg, text.len ? text.buf : "", text.len);
	ddbc_strbuf_release(&text);
	return t;
}

/* A value the design gives a parameter that cannot stand where the
 * pattern puts it: the export does not write the request. */
static void check_fit(void *ctx, const ddbc_param_use *use)
{
	from_design *f = ctx;
	char *name = ddbc_arena_strndup(f->arena, use->name, use->len);
	const ddbc_pval *v = ddbc_pattern_param_node(f->p, name);
	if (!v)
		return;
	strbuf text = STRBUF_INIT;
	ddbc_pval_scalar_text(v, &text);
	if (!ddbc_param_fits(f->g, use, text.len ? text.buf : "", text.len, NULL))
		f->failed = true;
	ddbc_strbuf_release(&text);
}

/* Renders value i of condition c into sent. */
static void sent_value(from_design *f, const ddbc_req_cond *c, size_t i, ddbc_key_sent *sent)
{
	strbuf sb = STRBUF_INIT;
	ddbc_render_problem problem;
	ddbc_req_value_render(&c->values[i], design_param, f, &sb, &problem);
	const ddbc_node *n = c->values[i].node;
	if (c->type == DDBC_TYPE_N && !strpbrk(n->u.text, "{}") &&
	    !ddbc_number_text(ddbc_strbuf_str(&sb), sb.len))
		f->failed = true;
	ddbc_key_sent_set(sent, c->key_pos, i, ddbc_strbuf_str(&sb), sb.len);
	ddbc_strbuf_release(&sb);
}

static bool word_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* Whether every ':name' of a write's condition has a value in the design,
 * as the export needs to write it. */
static bool condition_values(from_design *f, const char *cond)
{
	for (const char *s = cond ? strchr(cond, ':') : NULL; s; s = strchr(s + 1, ':')) {
		size_t len = 0;
		while (word_char(s[1 + len]))
			len++;
		if (len && !ddbc_pattern_param_node(f->p, ddbc_arena_strndup(f->arena, s + 1, len)))
			return false;
	}
	return true;
}

bool ddbc_request_key_sent(const ddbc_design *g, const ddbc_pattern *p, ddbc_key_sent *sent)
{
	const ddbc_request *q = ddbc_pattern_request(p);
	ddbc_key_sent_init(sent, q);
	if (!q || !p->table || !p->index)
		return false;
	from_design f = { g, p, sent->arena, false };
	ddbc_pattern_param_uses(p, check_fit, &f);
	f.failed |= !condition_values(&f, q->condition);
	for (size_t k = 0; k < q->nconds; k++) {
		const ddbc_req_cond *c = &q->conds[k];
		if (!c->nvalues)
			continue;
		/* As the export sends them: a between's two values, else the first. */
		sent_value(&f, c, 0, sent);
		if (q->op == DDBC_OP_QUERY && c->op == DDBC_COND_BETWEEN && c->nvalues == 2)
			sent_value(&f, c, 1, sent);
	}
	return !f.failed;
}

/* ---- which items it returns ------------------------------------------------------------ */

/* Item i's value of key attribute pos of the request's key: from the view
 * when the view's index is that key, else looked up by name. */
static const ddbc_pval *key_of(const ddbc_view *view, size_t i, const ddbc_index *key, size_t pos)
{
	if (key == ddbc_view_index(view))
		return ddbc_view_key(view, i, pos);
	size_t n;
	const ddbc_view_item *items = ddbc_view_items(view, &n);
	const char *name = ddbc_index_key(key, pos);
	const ddbc_pval *v = name ? ddbc_pval_get(items[i].item, name) : NULL;
	return v && !ddbc_pval_is_null(v) ? v : NULL;
}

/* Whether the item's value v satisfies "v op sent" of the key attribute. */
static bool holds(const ddbc_pval *v, ddbc_cond_op op, const ddbc_key_text *sent, ddbc_type t)
{
	uint32_t len;
	const char *text = v ? ddbc_pval_str(v, &len) : NULL;
	if (!text || !sent[0].text || (op == DDBC_COND_BETWEEN && !sent[1].text))
		return false;
	return ddbc_key_op_holds(op, t, text, len, sent);
}

bool ddbc_request_returns(const ddbc_request *q, const ddbc_key_sent *sent, const ddbc_view *view,
			  size_t i)
{
	if (q->op == DDBC_OP_SCAN)
		return true;
	if (q->op == DDBC_OP_QUERY) {
		for (size_t k = 0; k < q->nconds; k++) {
			const ddbc_req_cond *c = &q->conds[k];
			/* A between without two values sends no condition. */
			if (c->op == DDBC_COND_BETWEEN && c->nvalues != 2)
				continue;
			if (!holds(key_of(view, i, q->key, c->key_pos), c->op,
				   sent->values[c->key_pos], sent->types[c->key_pos]))
				return false;
		}
		return true;
	}
	/* GetItem, PutItem, UpdateItem, DeleteItem: the whole key, equal. */
	for (size_t k = 0; k < sent->n; k++)
		if (!holds(key_of(view, i, q->key, k), DDBC_COND_EQ, sent->values[k],
			   sent->types[k]))
			return false;
	return true;
}

void ddbc_request_candidates(const ddbc_request *q, const ddbc_key_sent *sent,
			     const ddbc_view *view, size_t *from, size_t *to)
{
	const ddbc_index *ix = ddbc_view_index(view);
	size_t n;
	ddbc_view_items(view, &n);
	*from = 0;
	*to = n;
	if (q->op == DDBC_OP_SCAN || q->key != ix || !ix->npk || sent->n < ix->npk)
		return;
	ddbc_key_text *pk = ddbc_xcalloc(ix->npk, sizeof *pk);
	bool pinned = true;
	for (size_t k = 0; k < ix->npk && pinned; k++) {
		const ddbc_req_cond *c = ddbc_request_cond(q, ddbc_index_key(ix, k));
		bool number = ddbc_index_key_type(ix, k) == DDBC_TYPE_N;
		pinned = sent->values[k][0].text && (sent->types[k] == DDBC_TYPE_N) == number &&
			 (q->op != DDBC_OP_QUERY || (c && c->op == DDBC_COND_EQ));
		pk[k] = sent->values[k][0];
	}
	size_t lo, hi;
	if (pinned && ddbc_view_partition(view, pk, &lo, &hi)) {
		*from = lo;
		*to = hi;
	}
	free(pk);
}

const ddbc_view *ddbc_request_view(ddbc_views *views, const ddbc_pattern *p)
{
	bool scan_or_query = p->operation == DDBC_OP_QUERY || p->operation == DDBC_OP_SCAN;
	return ddbc_views_get(views, scan_or_query ? p->index : &p->table->primary);
}

size_t ddbc_request_rows(const ddbc_pattern *p, const ddbc_key_sent *sent,
			 const ddbc_view *view, size_t **rows)
{
	const ddbc_request *q = ddbc_pattern_request(p);
	size_t from = 0, to = 0, n = 0;
	if (q)
		ddbc_request_candidates(q, sent, view, &from, &to);
	*rows = ddbc_xcalloc(to - from + 1, sizeof **rows);
	for (size_t i = from; q && i < to; i++)
		if (ddbc_request_returns(q, sent, view, i))
			(*rows)[n++] = i;
	/* A Limit ends the first page after that many items: the first of
	 * the view's order, or the last when the query reads it backwards. A
	 * use with items: reads on, page after page. */
	if (q && q->limit && !p->items->set && n > q->limit) {
		if (q->order < 0)
			memmove(*rows, *rows + (n - q->limit), q->limit * sizeof **rows);
		n = q->limit;
	}
	return n;
}
