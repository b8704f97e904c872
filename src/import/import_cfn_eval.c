/* import_cfn_eval.c - CloudFormation's intrinsic functions, as a stack evaluates them
 *
 * What the stack's parameters decide is decided here: Ref to a parameter
 * (its --param value, else its Default; a CommaDelimitedList is a list),
 * the pseudo parameters (AWS::Region is us-east-1 unless --param says
 * otherwise, AWS::NoValue removes the property it stands in), Conditions,
 * Fn::If, Fn::Sub, Fn::Join, Fn::Select, Fn::Split and Fn::FindInMap. What
 * only a deployed stack knows (Fn::GetAtt, Fn::ImportValue, a resource's
 * Ref) cannot be decided: the evaluation fails, saying which function.
 *
 * Every expansion is bounded, as the YAML alias limit bounds a design: a
 * template of a few hundred bytes can nest Fn::Sub into gigabytes, so the
 * bytes produced and the functions evaluated per value are counted.
 */
#include "import/import_cfn.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The bounds: far past any real table definition. */
#define MAX_BYTES (1u << 20)        /* text made by Fn::Sub and Fn::Join per value */
#define MAX_STEPS 100000u           /* functions evaluated per value */
#define MAX_DEPTH 64                /* conditions and functions nested */

void ddbc_cfn_init(ddbc_cfn *c, const char *file, const json_t *root,
		   const ddbc_import_param *params, size_t nparams)
{
	memset(c, 0, sizeof(*c));
	c->file = file;
	c->declared = json_object_get(root, "Parameters");
	c->conditions = json_object_get(root, "Conditions");
	c->mappings = json_object_get(root, "Mappings");
	c->params = params;
	c->nparams = nparams;
	c->novalue = json_object();
	c->cond_cache = json_object();
}

void ddbc_cfn_release(ddbc_cfn *c)
{
	ddbc_strbuf_release(&c->why);
	json_decref(c->novalue);
	json_decref(c->cond_cache);
}

json_t *ddbc_cfn_why(strbuf *why, const char *fmt, ...)
{
	if (why->len)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(why, fmt, ap);
	va_end(ap);
	return NULL;
}

/* Says why in c->why (the first reason stays); returns NULL. */
#define fail(c, ...) ddbc_cfn_why(&(c)->why, __VA_ARGS__)

/* Counts one function and n bytes made; false (saying why) past a bound. */
static bool spend(ddbc_cfn *c, const char *fn, size_t n)
{
	c->steps++;
	c->bytes += n;
	if (c->steps <= MAX_STEPS && c->bytes <= MAX_BYTES && c->depth <= MAX_DEPTH)
		return true;
	if (!c->why.len)
		ddbc_strbuf_addf(&c->why, "%s expands past ddbc's bound (%u functions, %u bytes, "
			    "%d levels): a template that large defines no table", fn, MAX_STEPS,
			    MAX_BYTES, MAX_DEPTH);
	return false;
}

/* A --param value given for name, or NULL. */
static const char *given(const ddbc_cfn *c, const char *name)
{
	for (size_t i = c->nparams; i-- > 0;)
		if (!strcmp(c->params[i].name, name))
			return c->params[i].value;
	return NULL;
}

/* A CommaDelimitedList's value as a list; any other as a string. */
static json_t *typed(const json_t *decl, const char *s)
{
	const char *type = ddbc_import_string_value(json_object_get(decl, "Type"));
	if (!type || (strcmp(type, "CommaDelimitedList") && strncmp(type, "List<", 5)))
		return ddbc_import_str(s);
	json_t *list = json_array();
	for (;;) {
		size_t n = strcspn(s, ",");
		char *part = ddbc_xstrndup(s, n);
		json_array_append_new(list, ddbc_import_str(part));
		free(part);
		if (!s[n])
			return list;
		s += n + 1;
	}
}

static json_t *pseudo(ddbc_cfn *c, const char *name)
{
	static const char *const defaults[][2] = {
		{ "AWS::Region", "us-east-1" }, { "AWS::Partition", "aws" },
		{ "AWS::URLSuffix", "amazonaws.com" }, { "AWS::AccountId", NULL },
		{ "AWS::StackName", NULL }, { "AWS::StackId", NULL },
		{ "AWS::NotificationARNs", NULL },
	};
	for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
		if (strcmp(name, defaults[i][0]))
			continue;
		const char *v = given(c, name);
		if (!v)
			v = defaults[i][1];
		if (v)
			return ddbc_import_str(v);
		return fail(c, "pseudo parameter '%s' is known only when the stack is deployed: "
			    "give --param %s=VALUE", name, name);
	}
	return fail(c, "'%s' is no pseudo parameter CloudFormation has", name);
}

static json_t *ref(ddbc_cfn *c, const char *name)
{
	if (!strcmp(name, "AWS::NoValue"))
		return json_incref(c->novalue);
	if (!strncmp(name, "AWS::", 5))
		return pseudo(c, name);
	const json_t *decl = json_object_get(c->declared, name);
	const char *v = given(c, name);
	if (v)
		return typed(decl, v);
	const json_t *d = json_object_get(decl, "Default");
	if (ddbc_import_is_string(d))
		return typed(decl, ddbc_import_string_text(d));
	if (d && !json_is_object(d) && !json_is_array(d))
		return json_deep_copy(d);
	if (decl)
		return fail(c, "Ref: parameter '%s' has no Default: give --param %s=VALUE", name,
			    name);
	return fail(c, "Ref: '%s' is a resource or a value known only when the stack is "
		    "deployed", name);
}

/* The text of a scalar value: strings as the source wrote them (a leading
 * number mark once, not doubled: the text goes into the middle of others),
 * numbers and booleans as JSON writes them; NULL for lists and objects.
 * Malloc'd; a string made of it goes through ddbc_import_str. */
static char *text_of(const json_t *v)
{
	const char *num = ddbc_import_number_text(v);
	if (num)
		return ddbc_xstrdup(num);
	if (ddbc_import_is_string(v))
		return ddbc_xstrdup(ddbc_import_string_text(v));
	if (json_is_boolean(v))
		return ddbc_xstrdup(json_is_true(v) ? "true" : "false");
	return ddbc_import_scalar_text(v);  /* integers; NULL otherwise */
}

/* v evaluated to a scalar's text; NULL (saying why) otherwise. */
static char *eval_text(ddbc_cfn *c, const json_t *v, const char *fn)
{
	json_t *r = ddbc_cfn_eval(c, v);
	if (!r)
		return NULL;
	char *t = r == c->novalue ? NULL : text_of(r);
	json_decref(r);
	if (!t)
		fail(c, "%s: an argument that is no string", fn);
	return t;
}

/* Fn::Sub's string with ${NAME} replaced from vars, then references. */
static json_t *sub(ddbc_cfn *c, const char *s, const json_t *vars)
{
	strbuf out = STRBUF_INIT;
	while (*s) {
		const char *open = strstr(s, "${");
		const char *close = open ? strchr(open, '}') : NULL;
		if (!open || !close) {
			ddbc_strbuf_addstr(&out, s);
			break;
		}
		ddbc_strbuf_add(&out, s, (size_t)(open - s));
		char *name = ddbc_xstrndup(open + 2, (size_t)(close - open - 2));
		char *val = NULL;
		if (name[0] == '!') {  /* ${!X} is the literal ${X} */
			ddbc_strbuf_addf(&out, "${%s}", name + 1);
		} else {
			json_t *r = json_object_get(vars, name) ? ddbc_cfn_eval(c, json_object_get(vars, name))
				  : strchr(name, '.') ? fail(c, "Fn::Sub: '${%s}' is an attribute known "
							  "only when the stack is deployed", name)
				  : ref(c, name);
			val = r && r != c->novalue ? text_of(r) : NULL;
			if (r && !val)
				fail(c, "Fn::Sub: '${%s}' is no string", name);
			json_decref(r);
			if (val)
				ddbc_strbuf_addstr(&out, val);
		}
		bool ok = name[0] == '!' || val;
		free(name);
		free(val);
		if (!ok || !spend(c, "Fn::Sub", out.len)) {
			ddbc_strbuf_release(&out);
			return NULL;
		}
		s = close + 1;
	}
	json_t *j = ddbc_import_str(ddbc_strbuf_str(&out));
	ddbc_strbuf_release(&out);
	return j;
}

static json_t *join(ddbc_cfn *c, const json_t *args)
{
	const char *delim = ddbc_import_string_text(json_array_get(args, 0));
	json_t *list = delim ? ddbc_cfn_eval(c, json_array_get(args, 1)) : NULL;
	if (!list || !json_is_array(list)) {
		json_decref(list);
		return fail(c, "%s: expected [DELIMITER, [VALUES...]]", "Fn::Join");
	}
	strbuf out = STRBUF_INIT;
	size_t i;
	const json_t *p;
	bool ok = true;
	json_array_foreach(list, i, p) {
		char *s = text_of(p);
		ok = s && spend(c, "Fn::Join", strlen(s) + strlen(delim));
		if (ok)
			ddbc_strbuf_addf(&out, "%s%s", i ? delim : "", s);
		free(s);
		if (!ok)
			break;
	}
	json_decref(list);
	json_t *j = ok ? ddbc_import_str(ddbc_strbuf_str(&out)) : fail(c, "%s: a value that is no string",
							       "Fn::Join");
	ddbc_strbuf_release(&out);
	return j;
}

static json_t *select_(ddbc_cfn *c, const json_t *args)
{
	char *idx = eval_text(c, json_array_get(args, 0), "Fn::Select");
	json_t *list = idx ? ddbc_cfn_eval(c, json_array_get(args, 1)) : NULL;
	char *end = NULL;
	long i = idx ? strtol(idx, &end, 10) : -1;
	json_t *r = list && json_is_array(list) && end && !*end && i >= 0 &&
		    (size_t)i < json_array_size(list)
		? json_incref(json_array_get(list, (size_t)i)) : NULL;
	free(idx);
	json_decref(list);
	return r ? r : fail(c, "%s: an index outside the list", "Fn::Select");
}

static json_t *split(ddbc_cfn *c, const json_t *args)
{
	const char *delim = ddbc_import_string_text(json_array_get(args, 0));
	char *s = delim && *delim ? eval_text(c, json_array_get(args, 1), "Fn::Split") : NULL;
	if (!s)
		return fail(c, "%s: expected [DELIMITER, STRING]", "Fn::Split");
	json_t *list = json_array();
	const char *p = s;
	for (;;) {
		const char *d = strstr(p, delim);
		char *part = d ? ddbc_xstrndup(p, (size_t)(d - p)) : ddbc_xstrdup(p);
		json_array_append_new(list, ddbc_import_str(part));
		free(part);
		if (!d)
			break;
		p = d + strlen(delim);
	}
	free(s);
	return list;
}

static json_t *find_in_map(ddbc_cfn *c, const json_t *args)
{
	const json_t *v = c->mappings;
	for (size_t i = 0; i < 3; i++) {
		char *k = eval_text(c, json_array_get(args, i), "Fn::FindInMap");
		if (!k)
			return NULL;
		/* Keys are in the tree's spelling (a leading mark doubled). */
		json_t *key = ddbc_import_str(k);
		v = json_object_get(v, json_string_value(key));
		json_decref(key);
		if (!v) {
			json_t *r = fail(c, "Fn::FindInMap: Mappings has no '%s'", k);
			free(k);
			return r;
		}
		free(k);
	}
	return json_deep_copy(v);
}

int ddbc_cfn_condition(ddbc_cfn *c, const char *name);

/* A condition function (Fn::Equals, Fn::Not, Fn::And, Fn::Or, Condition):
 * 1, 0, or -1 (saying why). */
static int truth(ddbc_cfn *c, const json_t *v)
{
	if (json_is_boolean(v))
		return json_is_true(v);
	if (ddbc_import_is_string(v) && (!strcmp(ddbc_import_string_value(v), "true") ||
				  !strcmp(ddbc_import_string_value(v), "false")))
		return !strcmp(ddbc_import_string_value(v), "true");
	const char *fn = json_is_object(v) && json_object_size(v) == 1
		? json_object_iter_key(json_object_iter((json_t *)v)) : NULL;
	const json_t *args = fn ? json_object_get(v, fn) : NULL;
	if (!fn) {
		fail(c, "%s: not a condition function", "Conditions");
		return -1;
	}
	if (!strcmp(fn, "Condition") && ddbc_import_is_string(args))
		return ddbc_cfn_condition(c, ddbc_import_string_value(args));
	if (!strcmp(fn, "Fn::Equals") && json_array_size(args) == 2) {
		char *a = eval_text(c, json_array_get(args, 0), "Fn::Equals");
		char *b = a ? eval_text(c, json_array_get(args, 1), "Fn::Equals") : NULL;
		int r = a && b ? !strcmp(a, b) : -1;
		free(a);
		free(b);
		return r;
	}
	bool and = !strcmp(fn, "Fn::And"), or = !strcmp(fn, "Fn::Or");
	if (!strcmp(fn, "Fn::Not") && json_array_size(args) == 1) {
		int r = truth(c, json_array_get(args, 0));
		return r < 0 ? -1 : !r;
	}
	if ((and || or) && json_is_array(args)) {
		size_t i;
		const json_t *x;
		json_array_foreach(args, i, x) {
			int r = truth(c, x);
			if (r < 0 || r == or)
				return r;
		}
		return and;
	}
	fail(c, "'%s' is no condition function CloudFormation has", fn);
	return -1;
}

int ddbc_cfn_condition(ddbc_cfn *c, const char *name)
{
	const json_t *known = json_object_get(c->cond_cache, name);
	if (json_is_integer(known))
		return (int)json_integer_value(known);
	const json_t *def = json_object_get(c->conditions, name);
	if (!def) {
		fail(c, "condition '%s' is not in the template's Conditions", name);
		return -1;
	}
	if (known || ++c->depth > MAX_DEPTH) {  /* null: under evaluation */
		fail(c, "condition '%s' refers to itself", name);
		return -1;
	}
	json_object_set_new(c->cond_cache, name, json_null());
	int r = truth(c, def);
	c->depth--;
	if (r < 0)
		json_object_del(c->cond_cache, name);
	else
		json_object_set_new(c->cond_cache, name, json_integer(r));
	return r;
}

static json_t *if_(ddbc_cfn *c, const json_t *args)
{
	const char *cond = ddbc_import_string_value(json_array_get(args, 0));
	if (!cond || json_array_size(args) != 3)
		return fail(c, "%s: expected [CONDITION, VALUE_IF_TRUE, VALUE_IF_FALSE]", "Fn::If");
	int r = ddbc_cfn_condition(c, cond);
	if (r < 0)
		return NULL;
	return ddbc_cfn_eval(c, json_array_get(args, r ? 1 : 2));
}

/* The function v calls, when v is one ({"Ref": ...} or {"Fn::X": ...}). */
const char *ddbc_cfn_function(const json_t *v)
{
	if (!json_is_object(v) || json_object_size(v) != 1)
		return NULL;
	const char *k = json_object_iter_key(json_object_iter((json_t *)v));
	return !strcmp(k, "Ref") || !strcmp(k, "Condition") || !strncmp(k, "Fn::", 4) ? k : NULL;
}

static json_t *call(ddbc_cfn *c, const char *fn, const json_t *args)
{
	if (!strcmp(fn, "Ref"))
		return ddbc_import_is_string(args) ? ref(c, ddbc_import_string_value(args))
					    : fail(c, "%s: expected a name", fn);
	if (!strcmp(fn, "Fn::Sub") && ddbc_import_is_string(args))
		return sub(c, ddbc_import_string_text(args), NULL);
	if (!strcmp(fn, "Fn::Sub") && ddbc_import_is_string(json_array_get(args, 0)))
		return sub(c, ddbc_import_string_text(json_array_get(args, 0)),
			   json_array_get(args, 1));
	if (!strcmp(fn, "Fn::Join"))
		return join(c, args);
	if (!strcmp(fn, "Fn::If"))
		return if_(c, args);
	if (!strcmp(fn, "Fn::Select"))
		return select_(c, args);
	if (!strcmp(fn, "Fn::Split"))
		return split(c, args);
	if (!strcmp(fn, "Fn::FindInMap"))
		return find_in_map(c, args);
	static const char *const deployed[] = { "Fn::GetAtt", "Fn::ImportValue", "Fn::GetAZs",
		"Fn::Cidr", "Fn::Base64", "Fn::Transform", "Fn::GetStackOutput", NULL };
	for (int i = 0; deployed[i]; i++)
		if (!strcmp(fn, deployed[i]))
			return fail(c, "%s gives a value known only when the stack is deployed", fn);
	if (!strcmp(fn, "Fn::Sub"))
		return fail(c, "%s: expected a string or [STRING, {VARIABLES}]", fn);
	return fail(c, "'%s' is no intrinsic function ddbc or CloudFormation knows", fn);
}

json_t *ddbc_cfn_eval(ddbc_cfn *c, const json_t *v)
{
	const char *fn = ddbc_cfn_function(v);
	if (fn && strcmp(fn, "Condition")) {
		if (!spend(c, fn, 0))
			return NULL;
		c->depth++;
		json_t *r = call(c, fn, json_object_get(v, fn));
		c->depth--;
		return r;
	}
	if (json_is_array(v)) {
		json_t *out = json_array();
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			json_t *r = ddbc_cfn_eval(c, e);
			if (!r) {
				json_decref(out);
				return NULL;
			}
			if (r != c->novalue)  /* AWS::NoValue removes a list member too */
				json_array_append(out, r);
			json_decref(r);
		}
		return out;
	}
	if (json_is_object(v) && !ddbc_import_number_text(v)) {
		json_t *out = json_object();
		const char *k;
		const json_t *e;
		json_object_foreach((json_t *)v, k, e) {
			json_t *r = ddbc_cfn_eval(c, e);
			if (!r) {
				json_decref(out);
				return NULL;
			}
			if (r != c->novalue)
				json_object_set(out, k, r);
			json_decref(r);
		}
		return out;
	}
	return json_incref((json_t *)v);
}

json_t *ddbc_cfn_eval_value(ddbc_cfn *c, const json_t *v)
{
	ddbc_strbuf_reset(&c->why);
	c->steps = c->bytes = 0;
	c->depth = 0;
	return ddbc_cfn_eval(c, v);
}
