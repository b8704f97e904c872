/* rules/params.c - param-value
 *
 * A pattern's `example` gives its parameters values that the docs print
 * and the queries export sends. Each value must fit every place the
 * pattern puts its parameter (model/params.h): a value that does not
 * becomes a request DynamoDB rejects ({"N": "abc"}) or, worse, one it
 * runs against the wrong keys.
 */
#include "rules/checks.h"
#include "model/params.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

/* One example value, tried against the uses of its parameter. */
typedef struct trial {
	const ddbc_design *g;
	const char *name;
	const ddbc_pval *value;
	const char *text;        /* NULL for a list or a mapping */
	bool reported;
	ddbc_diags *d;
} trial;

static void try_use(void *ctx, const ddbc_param_use *use)
{
	trial *t = ctx;
	if (t->reported || use->len != strlen(t->name) || memcmp(use->name, t->name, use->len))
		return;
	strbuf why = STRBUF_INIT, where = STRBUF_INIT;
	if (!t->text) {
		/* A list or a mapping: the export would pass it over for another
		 * value without a word. */
		ddbc_diag_add(t->d, DDBC_RULE_PARAM_VALUE, ddbc_pval_loc(t->value),
			      "example value of parameter '%s' is a %s; a parameter takes one "
			      "value, a string or a number", t->name,
			      ddbc_pval_kind(t->value) == DDBC_NODE_SEQ ? "list" : "mapping");
		t->reported = true;
	} else if (!ddbc_param_fits(t->g, use, t->text, strlen(t->text), &why)) {
		ddbc_param_place_text(use, &where);
		ddbc_diag_add(t->d, DDBC_RULE_PARAM_VALUE, ddbc_pval_loc(t->value),
			      "example value '%s' of parameter '%s' %s; the pattern puts it in %s",
			      t->text, t->name, why.buf, where.buf);
		t->reported = true;
	}
	ddbc_strbuf_release(&why);
	ddbc_strbuf_release(&where);
}

/* The text a scalar example value is sent as: an integer in decimal (YAML
 * writes 0x and 0o forms too), anything else as written. */
static const char *value_text(const ddbc_pval *v, char *buf, size_t size)
{
	long long n;
	if (ddbc_pval_scalar(v) == DDBC_SCALAR_INT && ddbc_pval_int(v, &n)) {
		snprintf(buf, size, "%lld", n);
		return buf;
	}
	return ddbc_pval_text(v);
}

static void check_example(const ddbc_design *g, const ddbc_pattern *p, ddbc_diags *d)
{
	const ddbc_pval *ex = p->example;
	ddbc_pval_iter it = ex && ddbc_pval_kind(ex) == DDBC_NODE_MAP ? ddbc_pval_members(ex)
								     : (ddbc_pval_iter){ NULL, 0 };
	const ddbc_pval *key, *v;
	while (ddbc_pval_pair(&it, &key, &v)) {
		if (ddbc_pval_is_null(v))
			continue;
		char buf[32];
		trial t = { g, ddbc_pval_text(key), v,
			    ddbc_pval_kind(v) == DDBC_NODE_SCALAR ? value_text(v, buf, sizeof(buf))
								   : NULL,
			    false, d };
		ddbc_pattern_param_uses(p, try_use, &t);
	}
}

void ddbc_check_param_value(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++)
		if (g->patterns[i].analysed)
			check_example(g, &g->patterns[i], d);
}
