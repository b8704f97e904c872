/* doc_request.c - an access pattern's request and the items it returns */
#include "emit/doc_request.h"
#include "util/decimal.h"
#include "diag/diag.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the request ----------------------------------------------------------------------- */

/* The queries export's request for p, parsed; NULL when it has none (a
 * parameter without a value). The caller releases it. */
static json_t *request_of(const ddbc_design *g, const ddbc_pattern *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	ddbc_diags d;
	ddbc_diags_init(&d);
	ddbc_emit_result r = ddbc_emit_query(f, g, p, &d);
	fclose(f);
	ddbc_diags_release(&d);
	json_t *req = r == DDBC_EMIT_OK ? json_loadb(buf, len, 0, NULL) : NULL;
	free(buf);
	return req;
}

/* ---- which items it returns ------------------------------------------------------------ */

/* A key value of the request: {"S": "..."}, {"N": "..."} or {"B": "..."}. */
typedef struct key_value {
	const char *text;
	bool number;
} key_value;

static bool get_value(json_t *v, key_value *out)
{
	const char *type;
	json_t *text;
	json_object_foreach(v, type, text) {
		if (!json_is_string(text))
			return false;
		out->text = json_string_value(text);
		out->number = !strcmp(type, "N");
		return true;
	}
	return false;
}

/* Compares the item's value of name with k as DynamoDB orders keys;
 * false when the item has no scalar value. */
static bool compare(const ddbc_node *item, const char *name, const key_value *k, int *cmp)
{
	const ddbc_node *n = ddbc_node_get(item, name);
	if (!n || n->kind != DDBC_NODE_SCALAR || ddbc_node_is_null(n))
		return false;
	if (k->number) {
		*cmp = ddbc_decimal_cmp(n->u.text, n->n, k->text, strlen(k->text));
		return true;
	}
	size_t len = strlen(k->text), m = n->n < len ? n->n : len;
	int c = memcmp(n->u.text, k->text, m);
	*cmp = c ? c : (n->n > len) - (n->n < len);
	return true;
}

static bool begins_with(const ddbc_node *item, const char *name, const key_value *k)
{
	const ddbc_node *n = ddbc_node_get(item, name);
	size_t len = strlen(k->text);
	return n && n->kind == DDBC_NODE_SCALAR && n->n >= len && !memcmp(n->u.text, k->text, len);
}

/* The expression's words, one at a time: names, placeholders, operators;
 * parentheses and commas end a word. */
typedef struct lexer {
	const char *s;
	char word[256];
} lexer;

static const char *next_word(lexer *lx)
{
	while (*lx->s == ' ' || *lx->s == '(' || *lx->s == ')' || *lx->s == ',')
		lx->s++;
	size_t n = 0;
	while (*lx->s && !strchr(" (),", *lx->s)) {
		if (n + 1 < sizeof lx->word)
			lx->word[n++] = *lx->s;
		lx->s++;
	}
	lx->word[n] = '\0';
	return n ? lx->word : NULL;
}

/* A name in the expression: itself, or what its '#' placeholder stands for. */
static char *name_of(json_t *input, const char *word)
{
	json_t *names = json_object_get(input, "ExpressionAttributeNames");
	json_t *v = word[0] == '#' ? json_object_get(names, word) : NULL;
	return xstrdup(json_is_string(v) ? json_string_value(v) : word);
}

static bool value_of(json_t *input, const char *word, key_value *out)
{
	json_t *values = json_object_get(input, "ExpressionAttributeValues");
	json_t *v = word ? json_object_get(values, word) : NULL;
	return v && get_value(v, out);
}

/* One condition "a OP :v", "a BETWEEN :lo AND :hi" or "begins_with(a, :v)". */
static bool one_condition(json_t *input, lexer *lx, const char *first, const ddbc_node *item)
{
	bool prefix = !strcmp(first, "begins_with");
	char *name = name_of(input, prefix ? next_word(lx) ? lx->word : "" : first);
	char op[16] = "";
	if (!prefix && next_word(lx))
		snprintf(op, sizeof op, "%s", lx->word);
	key_value a = { 0 }, b = { 0 };
	bool ok = value_of(input, next_word(lx), &a);
	if (ok && !strcmp(op, "BETWEEN")) {
		next_word(lx);   /* AND */
		ok = value_of(input, next_word(lx), &b);
	}
	int lo = 0, hi = 0;
	if (ok && prefix)
		ok = begins_with(item, name, &a);
	else if (ok)
		ok = compare(item, name, &a, &lo) &&
		     (strcmp(op, "BETWEEN") || compare(item, name, &b, &hi));
	if (ok && !prefix)
		ok = !strcmp(op, "=")	  ? lo == 0
		     : !strcmp(op, "<")	  ? lo < 0
		     : !strcmp(op, "<=")  ? lo <= 0
		     : !strcmp(op, ">")	  ? lo > 0
		     : !strcmp(op, ">=")  ? lo >= 0
		     : !strcmp(op, "BETWEEN") ? lo >= 0 && hi <= 0
					    : false;
	free(name);
	return ok;
}

static bool key_condition_holds(json_t *input, const ddbc_node *item)
{
	json_t *expr = json_object_get(input, "KeyConditionExpression");
	if (!json_is_string(expr))
		return false;
	lexer lx = { json_string_value(expr), "" };
	const char *w;
	while ((w = next_word(&lx))) {
		if (!strcmp(w, "AND"))
			continue;
		char first[sizeof lx.word];
		snprintf(first, sizeof first, "%s", w);
		if (!one_condition(input, &lx, first, item))
			return false;
	}
	return true;
}

/* Every member of key (a Key, or an Item's key attributes) equals the item's. */
static bool key_equals(const ddbc_index *pk, json_t *key, const ddbc_node *item)
{
	for (size_t i = 0; i < pk->npk + pk->nsk; i++) {
		const char *name = i < pk->npk ? pk->pk[i].s : pk->sk[i - pk->npk].s;
		key_value k;
		int c;
		json_t *v = name ? json_object_get(key, name) : NULL;
		if (!v || !get_value(v, &k) || !compare(item, name, &k, &c) || c)
			return false;
	}
	return true;
}

static bool returns(const ddbc_pattern *p, json_t *input, const ddbc_node *item)
{
	switch (p->operation) {
	case DDBC_OP_QUERY:
		return key_condition_holds(input, item);
	case DDBC_OP_SCAN:
		return true;
	case DDBC_OP_PUT:
		return key_equals(&p->table->primary, json_object_get(input, "Item"), item);
	case DDBC_OP_GET:
	case DDBC_OP_UPDATE:
	case DDBC_OP_DELETE:
		break;
	}
	return key_equals(&p->table->primary, json_object_get(input, "Key"), item);
}

/* ---- writing --------------------------------------------------------------------------- */

static bool same_partition(const ddbc_index *ix, const ddbc_node *a, const ddbc_node *b)
{
	for (size_t i = 0; i < ix->npk; i++) {
		const ddbc_node *x = ddbc_node_get(a, ix->pk[i].s), *y = ddbc_node_get(b, ix->pk[i].s);
		if (!x || !y || x->kind != DDBC_NODE_SCALAR || y->kind != DDBC_NODE_SCALAR ||
		    x->n != y->n || memcmp(x->u.text, y->u.text, x->n))
			return false;
	}
	return true;
}

/* Keeps the partitions that hold a returned item, in order; returns how
 * many items are left. */
static size_t keep_partitions(const ddbc_index *ix, ddbc_view_item *items, bool *hit, size_t n)
{
	size_t kept = 0;
	for (size_t i = 0, end; i < n; i = end) {
		bool any = false;
		for (end = i; end < n && same_partition(ix, items[i].item, items[end].item); end++)
			any |= hit[end];
		if (end == i)
			end = i + 1, any = hit[i];
		for (size_t k = i; any && k < end; k++) {
			items[kept] = items[k];
			hit[kept++] = hit[k];
		}
	}
	return kept;
}

static void write_returned(const ddbc_view_out *v, const ddbc_pattern *p, json_t *input)
{
	size_t n;
	ddbc_view_item *items = ddbc_view_items(p->index, &n);
	bool *hit = xcalloc(n + 1, sizeof *hit);
	for (size_t i = 0; i < n; i++)
		hit[i] = returns(p, input, items[i].item);
	n = keep_partitions(p->index, items, hit, n);
	v->be->para(v->o);
	v->be->span(v->o, n ? v->L->d_items : v->L->d_no_items, DDBC_SPAN_WORDS);
	v->be->para_end(v->o);
	if (n)
		ddbc_view_write(v, p->index, items, n, hit);
	free(hit);
	free(items);
}

void ddbc_doc_pattern_request(const ddbc_view_out *v, const ddbc_design *g,
			      const ddbc_pattern *p)
{
	if (!p->table || !p->index)
		return;
	json_t *req = request_of(g, p);
	v->be->para(v->o);
	v->be->strong(v->o, v->L->d_request);
	v->be->span(v->o, req ? ":" : ": ", DDBC_SPAN_WORDS);
	if (!req)
		v->be->span(v->o, v->L->d_no_request, DDBC_SPAN_WORDS);
	v->be->para_end(v->o);
	if (!req)
		return;
	json_t *input = json_object_get(req, "input");
	char *text = json_dumps(input, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text)
		v->be->code_block(v->o, "json", text);
	free(text);
	ddbc_doc_flush(v->o);
	write_returned(v, p, input);
	json_decref(req);
}
