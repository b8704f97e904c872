/* doc_json.c - example items as JSON, through jansson */
#include "emit/doc_json.h"
#include "emit/emit_json.h"
#include "util/decimal.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static json_t *node_json(const ddbc_pval *n);

static json_t *scalar_json(const ddbc_pval *n)
{
	long long i;
	bool b;
	const char *s = ddbc_pval_text(n);
	switch (ddbc_pval_scalar(n)) {
	case DDBC_SCALAR_INT:
		if (ddbc_pval_int(n, &i))
			return json_integer(i);
		/* Too large for an integer: a real, like any JSON reader makes it. */
		/* fall through */
	case DDBC_SCALAR_FLOAT:
		/* The number's own digits, never a double's. */
		if (ddbc_decimal_valid(s, ddbc_pval_n(n)))
			return ddbc_json_number(s, ddbc_pval_n(n));
		return json_stringn(s, ddbc_pval_n(n));
	case DDBC_SCALAR_BOOL:
		return json_boolean(ddbc_pval_bool(n, &b) && b);
	case DDBC_SCALAR_NULL:
		return json_null();
	case DDBC_SCALAR_STR:
		break;
	}
	json_t *j = json_stringn(s, ddbc_pval_n(n));
	return j ? j : json_string("");
}

static json_t *node_json(const ddbc_pval *n)
{
	if (ddbc_pval_kind(n) == DDBC_NODE_SCALAR)
		return scalar_json(n);
	ddbc_pval_iter it = ddbc_pval_members(n);
	const ddbc_pval *k, *v;
	if (ddbc_pval_kind(n) == DDBC_NODE_SEQ) {
		json_t *a = json_array();
		while (ddbc_pval_item(&it, &v))
			json_array_append_new(a, node_json(v));
		return a;
	}
	json_t *o = json_object();
	while (ddbc_pval_pair(&it, &k, &v))
		if (ddbc_pval_kind(k) == DDBC_NODE_SCALAR)
			json_object_setn_new(o, ddbc_pval_text(k), ddbc_pval_n(k), node_json(v));
	return o;
}

char *ddbc_doc_example_json(const ddbc_pval *item)
{
	json_t *j = node_json(item);
	char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (text)
		text[ddbc_json_unmark(text, strlen(text))] = '\0';
	return text;
}

char *ddbc_doc_value_json(const ddbc_pval *value)
{
	json_t *j = node_json(value);
	char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
	json_decref(j);
	if (text)
		text[ddbc_json_unmark(text, strlen(text))] = '\0';
	return text;
}
