/* import_cfn_foreach.c - Fn::ForEach, as AWS::LanguageExtensions expands it
 *
 * A member "Fn::ForEach::LoopName": [IDENTIFIER, COLLECTION, {OUTPUT_KEY:
 * VALUE, ...}] of Resources stands for one copy of each output per value of
 * the collection (a literal list, or a Ref to a CommaDelimitedList): in the
 * key ${IDENTIFIER} is the value and &{IDENTIFIER} the value without its
 * non-alphanumeric characters; in the value a Ref to IDENTIFIER and
 * ${IDENTIFIER} in an Fn::Sub string are the value. Loops nest. The copies
 * made are bounded, like every expansion of the importer.
 */
#include "import/import_cfn.h"
#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COPIES 10000u           /* resources one template may expand to */
#define MAX_LOOPS 8                 /* loops nested */

#define PREFIX "Fn::ForEach::"

/* s with ${id} replaced by val and, when amp, &{id} by val's letters and
 * digits alone. Malloc'd. */
static char *replace(const char *s, const char *id, const char *val, bool amp)
{
	strbuf out = STRBUF_INIT;
	size_t idn = strlen(id);
	while (*s) {
		bool dollar = s[0] == '$' || (amp && s[0] == '&');
		if (dollar && s[1] == '{' && !strncmp(s + 2, id, idn) && s[2 + idn] == '}') {
			for (const char *v = val; *v; v++)
				if (s[0] == '$' || isalnum((unsigned char)*v))
					ddbc_strbuf_addch(&out, *v);
			s += idn + 3;
			continue;
		}
		ddbc_strbuf_addch(&out, *s++);
	}
	return ddbc_strbuf_detach(&out);
}

/* A copy of v for one value of the loop. A new reference. */
static json_t *substitute(const json_t *v, const char *id, const char *val)
{
	const char *fn = ddbc_cfn_function(v);
	const json_t *args = fn ? json_object_get(v, fn) : NULL;
	if (fn && !strcmp(fn, "Ref") && ddbc_import_is_string(args) &&
	    !strcmp(ddbc_import_string_value(args), id))
		return json_string(val);
	if (fn && !strcmp(fn, "Fn::Sub")) {
		json_t *out = json_is_array(args) ? substitute(args, id, val) : NULL;
		const char *s = ddbc_import_is_string(args) ? ddbc_import_string_value(args)
			      : ddbc_import_string_value(json_array_get(args, 0));
		char *r = s ? replace(s, id, val, false) : NULL;
		if (r && out)
			json_array_set_new(out, 0, json_string(r));
		json_t *sub = out ? out : r ? json_string(r) : json_deep_copy(args);
		free(r);
		return json_pack("{so}", "Fn::Sub", sub);
	}
	if (json_is_array(v)) {
		json_t *out = json_array();
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e)
			json_array_append_new(out, substitute(e, id, val));
		return out;
	}
	if (!json_is_object(v))
		return json_incref((json_t *)v);
	json_t *out = json_object();
	const char *k;
	const json_t *e;
	json_object_foreach((json_t *)v, k, e) {
		char *key = replace(k, id, val, true);
		json_object_set_new(out, key, substitute(e, id, val));
		free(key);
	}
	return out;
}

struct expansion {
	ddbc_cfn *c;
	size_t copies;
	int loops;
	json_t *stash;   /* a streamed template's packed tables (import_cfn_yaml.c) */
};

static int expand_into(struct expansion *x, const json_t *members, json_t *out);

/* The values of a loop's collection, as strings; NULL after saying why. */
static json_t *collection(struct expansion *x, const char *loop, const json_t *coll)
{
	json_t *list = ddbc_cfn_eval_value(x->c, coll);
	json_t *texts = json_array();
	size_t i;
	const json_t *v;
	bool ok = json_is_array(list);
	json_array_foreach(list, i, v) {
		/* A YAML list of numbers is a list of their texts. */
		char *t = ok ? ddbc_import_scalar_text(v) : NULL;
		ok = t != NULL;
		if (t)
			json_array_append_new(texts, json_string(t));
		free(t);
	}
	json_decref(list);
	if (ok)
		return texts;
	json_decref(texts);
	ddbc_import_fail(x->c->file, "Resources: %s%s: its collection %s", PREFIX, loop,
			 x->c->why.len ? ddbc_strbuf_str(&x->c->why)
				       : "is no list of strings (a literal list or a Ref to a "
					 "CommaDelimitedList)");
	return NULL;
}

static int one_loop(struct expansion *x, const char *loop, const json_t *args, json_t *out)
{
	const char *id = ddbc_import_string_value(json_array_get(args, 0));
	const json_t *body = json_array_get(args, 2);
	if (json_array_size(args) != 3 || !id || !json_is_object(body))
		return ddbc_import_fail(x->c->file, "Resources: %s%s: expected [IDENTIFIER, "
					"COLLECTION, {OUTPUT_KEY: RESOURCE}]", PREFIX, loop);
	if (++x->loops > MAX_LOOPS)
		return ddbc_import_fail(x->c->file, "Resources: %s%s: loops nested deeper than "
					"%d", PREFIX, loop, MAX_LOOPS);
	json_t *values = collection(x, loop, json_array_get(args, 1));
	int rc = 0;
	if (!values)  /* only this loop's resources are lost: the others are imported */
		ddbc_warning("import", "%s: Resources: %s%s: its resources left out",
			     x->c->file, PREFIX, loop);
	size_t i;
	const json_t *v;
	json_array_foreach(values, i, v) {
		json_t *copy = substitute(body, id, ddbc_import_string_value(v));
		rc = expand_into(x, copy, out);
		json_decref(copy);
		if (rc < 0)
			break;
	}
	json_decref(values);
	x->loops--;
	return rc;
}

static int expand_into(struct expansion *x, const json_t *members, json_t *out)
{
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)members, k, v) {
		if (!strncmp(k, PREFIX, strlen(PREFIX))) {
			if (one_loop(x, k + strlen(PREFIX), v, out) < 0)
				return -1;
			continue;
		}
		if (json_object_get(out, k))
			return ddbc_import_fail(x->c->file, "Resources: two resources are named "
						"'%s' (after Fn::ForEach)", k);
		if (x->loops && ++x->copies > MAX_COPIES)
			return ddbc_import_fail(x->c->file, "Resources: Fn::ForEach expands past "
						"ddbc's bound of %u resources", MAX_COPIES);
		if (x->loops && x->stash)
			json_object_set_new(out, k, ddbc_cfn_keep(x->stash, k, v));
		else
			json_object_set(out, k, (json_t *)v);
	}
	return 0;
}

json_t *ddbc_cfn_expand_foreach(ddbc_cfn *c, const json_t *resources, json_t *stash)
{
	struct expansion x = { c, 0, 0, stash };
	json_t *out = json_object();
	if (expand_into(&x, resources, out) < 0) {
		json_decref(out);
		return NULL;
	}
	return out;
}
