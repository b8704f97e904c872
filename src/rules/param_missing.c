/* rules/param_missing.c - param-no-value, and the values examples lend
 *
 * `export --format queries` writes each pattern's request with a value for
 * every parameter: the pattern's `example`, else an example of a matched
 * entity (an example item, then the attribute's own example). A parameter
 * with none makes the export refuse (unresolved-reference, exit 1), and a
 * value borrowed from an entity that cannot stand where the pattern puts it
 * makes it refuse too. Lint reports both, at the same severity, so that a
 * design lint passes is one every command takes.
 */
#include "rules/checks.h"
#include "model/params.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

static bool usable(const ddbc_pval *v)
{
	return v && ddbc_pval_kind(v) == DDBC_NODE_SCALAR && !ddbc_pval_is_null(v);
}

/* The value an entity lends parameter name (as the export takes it), and
 * the entity in *from; NULL when none does. */
static const ddbc_pval *entity_value(const ddbc_pattern *p, const char *name,
				     const ddbc_entity **from)
{
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_entity *e = p->matched[i];
		for (size_t k = 0; ddbc_entity_attr(e, name) && k < e->nexamples; k++) {
			const ddbc_pval *v = ddbc_pval_get(e->examples[k], name);
			if (usable(v)) {
				*from = e;
				return v;
			}
		}
	}
	for (size_t i = 0; i < p->nmatched; i++) {
		const ddbc_attr *a = ddbc_entity_attr(p->matched[i], name);
		if (a && usable(a->more->example)) {
			*from = p->matched[i];
			return a->more->example;
		}
	}
	return NULL;
}

typedef struct walk {
	const ddbc_design *g;
	const ddbc_pattern *p;
	ddbc_diags *d;
	strbuf done;             /* "\nname\n" of each parameter reported */
} walk;

static bool reported(walk *w, const char *name)
{
	strbuf key = STRBUF_INIT;
	ddbc_strbuf_addf(&key, "\n%s\n", name);
	bool seen = w->done.len && strstr(ddbc_strbuf_str(&w->done), ddbc_strbuf_str(&key));
	if (!seen)
		ddbc_strbuf_addf(&w->done, "%s\n", name);
	ddbc_strbuf_release(&key);
	return seen;
}

static void check_use(void *ctx, const ddbc_param_use *use)
{
	walk *w = ctx;
	char name[256];
	if (use->len >= sizeof(name))
		return;
	memcpy(name, use->name, use->len);
	name[use->len] = '\0';
	const ddbc_pval *own = w->p->example ? ddbc_pval_get(w->p->example, name) : NULL;
	if (usable(own))
		return;              /* param-value checks the pattern's own values */
	const ddbc_entity *from = NULL;
	const ddbc_pval *v = entity_value(w->p, name, &from);
	strbuf text = STRBUF_INIT, why = STRBUF_INIT, where = STRBUF_INIT;
	/* The value as the export writes it: an integer in its own digits,
	 * else its text, used in place (as a C string) rather than copied. */
	const char *vs = NULL;
	size_t vn = 0;
	if (!v) {
		if (!reported(w, name))
			ddbc_diag_add(w->d, DDBC_RULE_PARAM_NO_VALUE, use->loc,
				      "parameter '%s' of access pattern '%s' has no value, which "
				      "`ddbc export --format queries` needs to write its request; give "
				      "it in the pattern's example (example: { %s: ... }) or an example "
				      "item of its entity, or pass --param %s=VALUE to the export",
				      name, w->p->id.s, name, name);
	} else {
		long long n;
		if (ddbc_pval_scalar(v) == DDBC_SCALAR_INT && ddbc_pval_int(v, &n)) {
			ddbc_strbuf_addf(&text, "%lld", n);
			vs = ddbc_strbuf_str(&text);
			vn = text.len;
		} else {
			vs = ddbc_pval_text(v);
			vn = strlen(vs);
		}
		if (!ddbc_param_fits(w->g, use, vs, vn, &why) &&
		    !reported(w, name)) {
			ddbc_param_place_text(use, &where);
			ddbc_diag_add(w->d, DDBC_RULE_PARAM_VALUE, use->loc,
				      "parameter '%s' of access pattern '%s' takes the value '%s' from "
				      "an example of '%s' (line %u), which %s; the pattern puts it in "
				      "%s: give the pattern an example value that fits", name,
				      w->p->id.s, vs, from->name.s, ddbc_pval_loc(v).line,
				      why.buf, where.buf);
		}
	}
	ddbc_strbuf_release(&text);
	ddbc_strbuf_release(&why);
	ddbc_strbuf_release(&where);
}

/* The condition's ':name' values that no attribute types (closedBy <>
 * :who): the export needs a value for each as well. */
static void condition_refs(walk *w)
{
	const char *c = w->p->condition;
	for (const char *s = c ? strchr(c, ':') : NULL; s; s = strchr(s + 1, ':')) {
		size_t len = strspn(s + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					   "0123456789_");
		if (!len || len >= 256)
			continue;
		ddbc_param_use use = { s + 1, len, DDBC_PARAM_IN_CONDITION, w->p->condition_loc,
				       NULL, DDBC_TYPE_S, 0, false, NULL };
		char name[256];
		memcpy(name, s + 1, len);
		name[len] = '\0';
		const ddbc_pval *own = w->p->example ? ddbc_pval_get(w->p->example, name) : NULL;
		const ddbc_entity *from;
		if (!usable(own) && !entity_value(w->p, name, &from) && !reported(w, name))
			ddbc_diag_add(w->d, DDBC_RULE_PARAM_NO_VALUE, use.loc,
				      "parameter '%s' of access pattern '%s' has no value, which "
				      "`ddbc export --format queries` needs to write its request; give "
				      "it in the pattern's example (example: { %s: ... }) or an example "
				      "item of its entity, or pass --param %s=VALUE to the export",
				      name, w->p->id.s, name, name);
	}
}

void ddbc_check_param_no_value(const ddbc_design *g, ddbc_diags *d)
{
	for (size_t i = 0; i < g->npatterns; i++) {
		const ddbc_pattern *p = &g->patterns[i];
		/* The export writes requests only for resolved patterns; a pattern
		 * or an entity read with an error may hold its values under the
		 * misspelt field that error names (one mistake, one finding). */
		if (!p->analysed || !p->table || !p->index || !p->id.s || p->incomplete)
			continue;
		/* The values come from the entities the pattern matches: when an
		 * error leaves those unknown, a missing value is its echo. */
		if (!ddbc_pattern_matches_known(p))
			continue;
		bool whole = true;
		for (size_t k = 0; k < p->nmatched && whole; k++)
			whole = !p->matched[k]->incomplete;
		if (!whole)
			continue;
		walk w = { g, p, d, STRBUF_INIT };
		ddbc_strbuf_addch(&w.done, '\n');
		ddbc_pattern_param_uses(p, check_use, &w);
		condition_refs(&w);
		ddbc_strbuf_release(&w.done);
	}
}
