/* import_sls.c - Serverless Framework variables, resolved as `serverless` resolves them
 *
 * The framework resolves every ${SOURCE:ADDRESS, FALLBACK...} of
 * serverless.yml before CloudFormation sees the template under
 * `resources`, so a table's name or capacity often comes from `custom:`,
 * `params:` or the stage. The syntax is the framework's own parser's
 * (lib/configuration/variables/parse.js): a variable starts with `${` and a
 * lower-case source type followed by `:` or `(`; anything else inside `${}`
 * (`${AWS::Region}`, `${TableName}`) is CloudFormation's and stays as it
 * is. Sources are tried in order, the first that gives a value wins;
 * quoted strings, numbers, true and false are literal fallbacks.
 *
 * What the file alone decides is resolved: `self:` (any property of the
 * service, itself resolved), `sls:stage` and `aws:region` (an option, else
 * `provider.stage`/`provider.region`, else dev/us-east-1), `param:` (the
 * stage's `params`, else `params.default`). Options, the environment and
 * the sources only a deployment reads (ssm, cf, s3, file, aws:accountId,
 * ...) are --param SOURCE:ADDRESS=VALUE; without one, `opt:` and `env:`
 * give no value (a deploy without options, in an environment without the
 * variable: the fallback decides) and the others are undecided. A variable
 * no source resolves is refused, as the framework refuses it.
 */
#include "import/import_sls.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STEPS 100000u  /* variables resolved per resource */
#define MAX_TOTAL 1000000u /* variables resolved per service */
#define MAX_DEPTH 32       /* variables resolved inside the values of others */
#define MAX_ARGS 4         /* arguments of a call source read (file takes one) */

void ddbc_sls_init(ddbc_sls *s, const char *file, const json_t *service,
		   const ddbc_import_param *params, size_t nparams)
{
	memset(s, 0, sizeof(*s));
	s->service = service;
	s->params = params;
	s->nparams = nparams;
	/* file(...) paths start in the service's folder (standard input's is
	 * the working folder). */
	const char *slash = strcmp(file, "-") ? strrchr(file, '/') : NULL;
	s->dir = slash ? ddbc_xstrndup(file, slash == file ? 1 : (size_t)(slash - file)) : ddbc_xstrdup("");
	s->active = json_array();
}

void ddbc_sls_release(ddbc_sls *s)
{
	ddbc_strbuf_release(&s->why);
	free(s->dir);
	json_decref(s->files);
	json_decref(s->active);
}

/* Says why (the first reason stays); returns NULL. */
#define fail(s, ...) ddbc_cfn_why(&(s)->why, __VA_ARGS__)

/* The --param value given for SOURCE:ADDRESS, or NULL. */
static const char *given(const ddbc_sls *s, const char *type, const char *address)
{
	size_t n = strlen(type);
	for (size_t i = s->nparams; i-- > 0;) {
		const char *name = s->params[i].name;
		if (!strncmp(name, type, n) && name[n] == ':' && !strcmp(name + n + 1, address))
			return s->params[i].value;
	}
	return NULL;
}

static json_t *resolve(ddbc_sls *s, const json_t *v);

/* The property at a dotted path of the service, resolved; json null when
 * there is none (the next source is tried). */
static json_t *property(ddbc_sls *s, const char *path, bool raw)
{
	json_t *at = json_incref((json_t *)s->service);
	char *copy = ddbc_xstrdup(path);
	for (char *part = copy, *next; at && *path; part = next + 1) {
		/* A variable on the way stands for its value (custom:
		 * ${file(config.json)} and then ${self:custom.name}). */
		if (ddbc_import_is_string(at) && strstr(json_string_value(at), "${")) {
			json_t *v = resolve(s, at);
			json_decref(at);
			if (!(at = v))
				break;
		}
		next = strchr(part, '.');
		if (next)
			*next = '\0';
		char *end;
		unsigned long k = strtoul(part, &end, 10);
		json_t *in = json_is_array(at) && *part && !*end ? json_array_get(at, k)
			   : json_is_object(at) ? json_object_get(at, part) : NULL;
		json_incref(in);
		json_decref(at);
		at = in;
		if (!next)
			break;
	}
	free(copy);
	if (!at && s->why.len)
		return NULL;
	if (!at || json_is_null(at)) {
		json_decref(at);
		return json_null();
	}
	json_t *r = raw ? json_incref(at) : resolve(s, at);
	json_decref(at);
	return r;
}

/* A resolved property's string, or def; NULL after saying why. */
static char *property_text(ddbc_sls *s, const char *path, const char *def)
{
	json_t *v = property(s, path, false);
	if (!v)
		return NULL;
	const char *text = ddbc_import_number_text(v);
	if (!text)
		text = ddbc_import_string_text(v);
	char *t = ddbc_xstrdup(text ? text : def);
	json_decref(v);
	return t;
}

/* The stage a deploy without --stage uses. Malloc'd; NULL after why. */
static char *stage(ddbc_sls *s)
{
	const char *opt = given(s, "opt", "stage");
	return opt ? ddbc_xstrdup(opt) : property_text(s, "provider.stage", "dev");
}

/* A stage's parameter name, else json null. Framework v3 reads
 * params.<stage>, else params.default; v4 also stages.<stage>.params and
 * stages.default.params, each stage's over the defaults and `stages`
 * over `params` (resolvers/providers/param/param.js), which decides
 * nothing differently for a service that has no `stages`. */
static json_t *stage_param(ddbc_sls *s, const char *name, bool raw)
{
	char *st = stage(s);
	if (!st)
		return NULL;
	const json_t *params = json_object_get(s->service, "params");
	const json_t *stages = json_object_get(s->service, "stages");
	const json_t *from[] = {
		json_object_get(json_object_get(stages, st), "params"),
		json_object_get(params, st),
		json_object_get(json_object_get(stages, "default"), "params"),
		json_object_get(params, "default"),
	};
	const json_t *v = NULL;
	for (size_t i = 0; i < sizeof(from) / sizeof(*from) && (!v || json_is_null(v)); i++)
		v = json_is_object(from[i]) ? json_object_get(from[i], name) : NULL;
	free(st);
	if (!v || json_is_null(v))
		return json_null();
	return raw ? json_incref((json_t *)v) : resolve(s, v);
}

/* A call source's arguments (file(PATH), strToBool(VALUE)), as text. */
typedef struct {
	strbuf v[MAX_ARGS];
	bool has[MAX_ARGS];  /* an empty argument (`f(,x)`) has none */
	int n;
} args;

/* The --param value given for a call source (name `file(x.js):a`, or
 * `file(x.js)` without an address), or NULL. */
static const char *given_call(const ddbc_sls *s, const char *call, const char *address)
{
	size_t n = strlen(call);
	for (size_t i = s->nparams; i-- > 0;) {
		const char *name = s->params[i].name;
		if (!strncmp(name, call, n) &&
		    (*address ? name[n] == ':' && !strcmp(name + n + 1, address) : !name[n]))
			return s->params[i].value;
	}
	return NULL;
}

/* strToBool(VALUE), as the framework's str-to-bool source reads it. */
static json_t *str_to_bool(ddbc_sls *s, const char *var, const args *a)
{
	if (!a->n || !a->has[0])
		return fail(s, "'%s': strToBool has no input", var);
	const char *t = ddbc_strbuf_str(&a->v[0]);
	while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
		t++;
	size_t n = strlen(t);
	while (n && strchr(" \t\n\r", t[n - 1]))
		n--;
	static const char *const words[] = { "true", "1", "false", "0" };
	for (int i = 0; i < 4; i++)
		if (strlen(words[i]) == n && !strncasecmp(t, words[i], n))
			return json_boolean(i < 2);
	return fail(s, "'%s': strToBool takes \"true\", \"false\", \"0\" or \"1\", not \"%s\"",
		    var, ddbc_strbuf_str(&a->v[0]));
}

/* file(PATH):ADDRESS: the value at ADDRESS of the file's content (the
 * content itself without one), resolved in turn unless raw; json null
 * (with why in hint) when the file or the address holds nothing. */
static json_t *file_value(ddbc_sls *s, const char *var, const args *a, const char *address,
			  bool raw, strbuf *hint)
{
	if (!a->n || !a->has[0] || !a->v[0].len)
		return fail(s, "'%s': file(...) names no file", var);
	const char *path = ddbc_strbuf_str(&a->v[0]);
	const json_t *content = ddbc_sls_file(s, var, path);
	if (!content)
		return NULL;
	const json_t *at = json_is_null(content) ? NULL
			 : *address ? ddbc_sls_at(content, address) : content;
	if (!at) {
		if (!hint->len && json_is_null(content))
			ddbc_strbuf_addf(hint, "the service's folder holds no file %s", path);
		else if (!hint->len)
			ddbc_strbuf_addf(hint, "%s holds nothing at '%s'", path, address);
		return json_null();
	}
	if (raw)
		return json_incref((json_t *)at);
	/* A file whose value needs that same value again never ends. */
	json_t *key = json_sprintf("%s/%s:%s", s->dir, path, address);
	size_t i;
	json_t *e;
	json_array_foreach(s->active, i, e) {
		if (json_equal(e, key)) {
			json_decref(key);
			return fail(s, "'%s' needs its own value: %s includes itself", var, path);
		}
	}
	json_array_append_new(s->active, key);
	json_t *r = resolve(s, at);
	json_array_remove(s->active, json_array_size(s->active) - 1);
	return r;
}

/* What source type:address gives (args for a call source, NULL for
 * another): a new reference (json null when it has no value, so the next
 * source is tried; why then in hint), NULL when it is undecided. raw
 * leaves the variables inside the value as they are. */
static json_t *source(ddbc_sls *s, const char *type, const char *address, const args *call,
		      bool raw, strbuf *hint)
{
	if (call) {
		strbuf name = STRBUF_INIT, var = STRBUF_INIT;
		ddbc_strbuf_addf(&name, "%s(", type);
		for (int i = 0; i < call->n && i < MAX_ARGS; i++)
			ddbc_strbuf_addf(&name, "%s%s", i ? ", " : "", ddbc_strbuf_str(&call->v[i]));
		ddbc_strbuf_addch(&name, ')');
		ddbc_strbuf_addf(&var, "${%s%s%s}", ddbc_strbuf_str(&name), *address ? ":" : "", address);
		const char *g = given_call(s, ddbc_strbuf_str(&name), address);
		json_t *r = g                          ? json_string(g)
			  : !strcmp(type, "file")      ? file_value(s, ddbc_strbuf_str(&var), call, address,
								    raw, hint)
			  : !strcmp(type, "strToBool") ? str_to_bool(s, ddbc_strbuf_str(&var), call)
			  : fail(s, "'%s' names no variable source the Serverless Framework has",
				 ddbc_strbuf_str(&var));
		ddbc_strbuf_release(&name);
		ddbc_strbuf_release(&var);
		return r;
	}
	const char *g = given(s, type, address);
	if (g && strcmp(type, "self"))
		return json_string(g);
	if (!strcmp(type, "self"))
		return property(s, address, raw);
	if (!strcmp(type, "opt") || !strcmp(type, "env"))
		return *address ? json_null()
				: fail(s, "'${%s:}' has no address", type);
	if (!strcmp(type, "param"))
		return stage_param(s, address, raw);
	if (!strcmp(type, "sls") && !strcmp(address, "stage")) {
		char *st = stage(s);
		json_t *r = st ? json_string(st) : NULL;
		free(st);
		return r;
	}
	if (!strcmp(type, "aws") && !strcmp(address, "region")) {
		const char *opt = given(s, "opt", "region");
		char *r = opt ? ddbc_xstrdup(opt) : property_text(s, "provider.region", "us-east-1");
		json_t *j = r ? json_string(r) : NULL;
		free(r);
		return j;
	}
	/* v3's deploy-time sources, and v4's own (git, terraform, vault,
	 * doppler, output: resolvers/providers/). */
	static const char *const known[] = { "sls", "aws", "cf", "s3", "ssm", "git", "terraform",
					     "vault", "doppler", "output", NULL };
	for (int i = 0; known[i]; i++)
		if (!strcmp(type, known[i]))
			return fail(s, "'${%s:%s}' is known only when `serverless` deploys: give "
				    "--param %s:%s=VALUE", type, address, type, address);
	return fail(s, "'${%s:%s}' names no variable source the Serverless Framework has",
		    type, address);
}

/* Number text t as JavaScript's String(Number(t)) writes it, which is
 * what the framework (a YAML number is a JavaScript number there) puts
 * into a string: the shortest digits that read back as the same double,
 * in plain notation for exponents -7 < e < 21 (1.50 is 1.5, 1e3 is 1000,
 * 6.02E+23 is 6.02e+23). */
static void append_js_number(strbuf *out, const char *t)
{
	double d = strtod(t, NULL);
	char buf[40];
	int p = 1;
	for (; p < 17; p++) {
		snprintf(buf, sizeof(buf), "%.*e", p - 1, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*e", p - 1, d);
	char *e = strchr(buf, 'e');
	if (!e) {  /* inf or nan: no JSON number is either */
		ddbc_strbuf_addstr(out, buf);
		return;
	}
	int exp = atoi(e + 1);
	*e = '\0';
	char digits[24];
	size_t n = 0;
	bool neg = buf[0] == '-';
	for (const char *c = buf; *c; c++)
		if (isdigit((unsigned char)*c))
			digits[n++] = *c;
	while (n > 1 && digits[n - 1] == '0')
		n--;
	digits[n] = '\0';
	if (neg && d != 0)  /* String(-0) is "0" */
		ddbc_strbuf_addch(out, '-');
	if (exp >= 21 || exp <= -7) {
		ddbc_strbuf_addch(out, digits[0]);
		if (n > 1)
			ddbc_strbuf_addf(out, ".%s", digits + 1);
		ddbc_strbuf_addf(out, "e%c%d", exp < 0 ? '-' : '+', abs(exp));
	} else if (exp < 0) {
		ddbc_strbuf_addstr(out, "0.");
		for (int i = -1; i > exp; i--)
			ddbc_strbuf_addch(out, '0');
		ddbc_strbuf_addstr(out, digits);
	} else if ((size_t)exp + 1 >= n) {
		ddbc_strbuf_addstr(out, digits);
		for (size_t i = n; i < (size_t)exp + 1; i++)
			ddbc_strbuf_addch(out, '0');
	} else {
		ddbc_strbuf_addf(out, "%.*s.%s", exp + 1, digits, digits + exp + 1);
	}
}

/* The text a variable's value gives inside a longer string. */
static bool append_text(ddbc_sls *s, strbuf *out, const json_t *v, const char *var)
{
	const char *num = ddbc_import_number_text(v);
	if (num) {
		append_js_number(out, num);
	} else if (json_is_string(v)) {
		ddbc_strbuf_addstr(out, json_string_value(v));
	} else if (json_is_boolean(v)) {
		ddbc_strbuf_addstr(out, json_is_true(v) ? "true" : "false");
	} else {
		char *t = ddbc_import_scalar_text(v);  /* integers */
		if (t)
			append_js_number(out, t);
		else
			fail(s, "'%s' is part of a string, but its value is no string", var);
		free(t);
	}
	return !s->why.len;
}

typedef struct {
	const char *str;  /* the whole string, for messages */
	size_t i;         /* where the parser is */
	bool skip;        /* a value was found: the rest is parsed, not resolved */
	bool raw;         /* the outermost variable's value keeps its variables */
	int nest;         /* variables open at i */
	char first[128];  /* the first source of the variable being parsed */
	strbuf *hint;     /* why a source of that variable gave no value */
} parser;

static int variable(ddbc_sls *s, parser *p, json_t **out);

static void spaces(parser *p)
{
	while (p->str[p->i] == ' ')
		p->i++;
}

/* A quoted string at p (single quotes as they are, double quotes with
 * backslash escapes), appended to out; false if it does not end. */
static bool quoted(parser *p, strbuf *out)
{
	char q = p->str[p->i++];
	for (; p->str[p->i] && p->str[p->i] != q; p->i++) {
		if (q == '"' && p->str[p->i] == '\\' && p->str[p->i + 1])
			p->i++;
		ddbc_strbuf_addch(out, p->str[p->i]);
	}
	if (!p->str[p->i])
		return false;
	p->i++;
	return true;
}

/* Text up to one of stops (nested variables resolved) into out, trailing
 * spaces dropped; *vars says whether it held a variable. A ':' is refused
 * unless colon. */
static bool piece(ddbc_sls *s, parser *p, strbuf *out, const char *stops, bool colon,
		  bool *vars)
{
	while (p->str[p->i] && !strchr(stops, p->str[p->i])) {
		char ch = p->str[p->i];
		if (ch == ':' && !colon)
			return fail(s, "'%s': an address with ':' in it", p->str), false;
		if (ch == '$' && p->str[p->i + 1] == '{') {
			json_t *v = NULL;
			int r = variable(s, p, &v);
			bool ok = r > 0 && (p->skip || append_text(s, out, v, p->str));
			if (r == 0)
				fail(s, "'%s': a '${' in %s that is no variable", p->str,
				     colon ? "an argument" : "an address");
			json_decref(v);
			if (!ok)
				return false;
			*vars = true;
			continue;
		}
		ddbc_strbuf_addch(out, ch);
		p->i++;
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	return true;
}

/* An address (up to `,` or `}`, nested variables resolved) into out. */
static bool address(ddbc_sls *s, parser *p, strbuf *out)
{
	spaces(p);
	if (p->str[p->i] == '"' || p->str[p->i] == '\'') {
		if (!quoted(p, out))
			return fail(s, "'%s': a quoted address that does not end", p->str), false;
		spaces(p);
		return true;
	}
	bool vars = false;
	return piece(s, p, out, ",}", false, &vars);
}

/* A literal fallback: true, false, null or a number; NULL otherwise. */
static json_t *literal(const char *t)
{
	if (!strcmp(t, "true") || !strcmp(t, "false"))
		return json_boolean(!strcmp(t, "true"));
	if (!strcmp(t, "null"))
		return json_null();
	char *end;
	strtod(t, &end);
	if (!*t || *end)
		return NULL;
	long long n = strtoll(t, &end, 10);
	/* An integer JSON holds as it is; any other Number keeps its text. */
	return !*end && n > -(1LL << 53) && n < (1LL << 53) ? json_integer(n)
							  : ddbc_import_number(t);
}

/* The arguments of a call source at p (its `(`) into a, as the
 * framework's parser reads them: separated by `,`, each quoted, or text
 * whose variables are resolved, or a literal (a number as JavaScript
 * writes it: strToBool(1.0) is strToBool(1)). */
static bool arguments(ddbc_sls *s, parser *p, args *a)
{
	p->i++;
	for (;;) {
		spaces(p);
		char ch = p->str[p->i];
		if (ch == ')') {
			p->i++;
			return true;
		}
		if (!ch || ch == '}')
			return fail(s, "'%s': a '(' that does not end", p->str), false;
		int k = a->n < MAX_ARGS ? a->n : MAX_ARGS - 1;
		a->n++;
		if (ch == ',') {
			p->i++;
			continue;
		}
		ddbc_strbuf_reset(&a->v[k]);
		if (ch == '"' || ch == '\'') {
			if (!quoted(p, &a->v[k]))
				return fail(s, "'%s': a quoted argument that does not end", p->str),
				       false;
			spaces(p);
			if (p->str[p->i] != ',' && p->str[p->i] != ')')
				return fail(s, "'%s': a quoted argument followed by more text",
					    p->str), false;
		} else {
			bool vars = false;
			if (!piece(s, p, &a->v[k], ",)", true, &vars))
				return false;
			json_t *lit = vars ? NULL : literal(ddbc_strbuf_str(&a->v[k]));
			if (lit && ddbc_import_number_text(lit)) {
				char *t = ddbc_xstrdup(ddbc_import_number_text(lit));
				ddbc_strbuf_reset(&a->v[k]);
				append_js_number(&a->v[k], t);
				free(t);
			} else if (json_is_integer(lit)) {
				ddbc_strbuf_reset(&a->v[k]);
				ddbc_strbuf_addf(&a->v[k], "%lld", (long long)json_integer_value(lit));
			}
			json_decref(lit);
		}
		a->has[k] = true;
		if (p->str[p->i] == ',')
			p->i++;
	}
}

/* One source of a variable, its type already read; sets *value when it
 * gives one (unless skipping). */
static bool one_source(ddbc_sls *s, parser *p, const char *type, json_t **value)
{
	args call = { .n = 0 };
	for (int i = 0; i < MAX_ARGS; i++)
		call.v[i] = (strbuf)STRBUF_INIT;
	bool is_call = p->str[p->i] == '(';
	bool ok = !is_call || arguments(s, p, &call);
	if (ok && is_call)
		spaces(p);
	strbuf addr = STRBUF_INIT;
	if (ok && p->str[p->i] == ':') {
		p->i++;
		ok = address(s, p, &addr);
	}
	if (!p->first[0])
		snprintf(p->first, sizeof(p->first), "%s:%s", type, ddbc_strbuf_str(&addr));
	if (ok && !p->skip) {
		json_t *v = source(s, type, ddbc_strbuf_str(&addr), is_call ? &call : NULL,
				   p->raw && p->nest == 1, p->hint);
		ok = v != NULL;
		if (v && !json_is_null(v))
			*value = v;
		else
			json_decref(v);
	}
	ddbc_strbuf_release(&addr);
	for (int i = 0; i < MAX_ARGS; i++)
		ddbc_strbuf_release(&call.v[i]);
	return ok;
}

/* A fallback after a `,`: a source or a literal. */
static bool fallback(ddbc_sls *s, parser *p, json_t **value)
{
	spaces(p);
	char ch = p->str[p->i];
	strbuf t = STRBUF_INIT;
	bool ok = true;
	if (ch == '"' || ch == '\'') {
		ok = quoted(p, &t);
		if (ok && !p->skip)
			*value = json_string(ddbc_strbuf_str(&t));
		if (!ok)
			fail(s, "'%s': a quoted fallback that does not end", p->str);
		spaces(p);
	} else {
		/* strchr finds the terminator too: the end is no literal's */
		while (isalnum((unsigned char)p->str[p->i]) ||
		       (p->str[p->i] && strchr(".-+", p->str[p->i])))
			ddbc_strbuf_addch(&t, p->str[p->i++]);
		spaces(p);
		if (t.len && (p->str[p->i] == ':' || p->str[p->i] == '(') &&
		    islower((unsigned char)t.buf[0])) {
			ok = one_source(s, p, ddbc_strbuf_str(&t), value);
		} else {
			json_t *lit = literal(ddbc_strbuf_str(&t));
			ok = lit != NULL;
			if (!lit)
				fail(s, "'%s': the fallback '%s' is no source, quoted string, number "
				     "or boolean", p->str, ddbc_strbuf_str(&t));
			else if (!p->skip && !json_is_null(lit))
				*value = json_incref(lit);
			json_decref(lit);
		}
	}
	ddbc_strbuf_release(&t);
	return ok;
}

/* The variable at p->i (`${`): 1 with *out set (a new reference; json null
 * when skipping) and p->i past it; 0 when the `${` is CloudFormation's
 * (p->i unchanged); -1 when it cannot be resolved (why said). */
static int variable(ddbc_sls *s, parser *p, json_t **out)
{
	size_t start = p->i, j = start + 2;
	if (!islower((unsigned char)p->str[j]))
		return 0;
	while (isalnum((unsigned char)p->str[j]) || p->str[j] == '.')
		j++;
	if ((p->str[j] != ':' && p->str[j] != '(') ||
	    (p->str[j] == ':' && p->str[j + 1 + strspn(p->str + j + 1, " ")] == ':'))
		return 0;
	if (++s->steps > MAX_STEPS || ++s->total > MAX_TOTAL || s->depth > MAX_DEPTH) {
		fail(s, "'%s': variables nested past ddbc's bound (%u variables, %u in the "
		     "service, %d levels), or a property whose value needs itself", p->str,
		     MAX_STEPS, MAX_TOTAL, MAX_DEPTH);
		return -1;
	}
	char *type = ddbc_xstrndup(p->str + start + 2, j - start - 2);
	bool outer_skip = p->skip;
	char outer_first[sizeof(p->first)];
	memcpy(outer_first, p->first, sizeof(outer_first));
	p->first[0] = '\0';
	strbuf hint = STRBUF_INIT, *outer_hint = p->hint;
	p->hint = &hint;
	p->nest++;
	json_t *value = NULL;
	p->i = j;
	bool ok = one_source(s, p, type, &value);
	while (ok && p->str[p->i] == ',') {
		p->i++;
		p->skip = outer_skip || value;
		ok = fallback(s, p, &value);
	}
	p->skip = outer_skip;
	if (ok && p->str[p->i] != '}')
		ok = fail(s, "'%s': a variable that does not end with '}'", p->str) != NULL;
	if (ok && !value && !p->skip && hint.len)
		ok = fail(s, "'%.*s' resolves to no value, which `serverless` refuses too: %s",
			  (int)(p->i + 1 - start), p->str + start, ddbc_strbuf_str(&hint)) != NULL;
	else if (ok && !value && !p->skip)
		ok = fail(s, "'%.*s' resolves to no value, which `serverless` refuses too: %s%s%s",
			   (int)(p->i + 1 - start), p->str + start,
			   !strcmp(type, "self") ? "the service has no such property" : "give --param ",
			   !strcmp(type, "self") ? "" : p->first,
			   !strcmp(type, "self") ? "" : "=VALUE or a fallback") != NULL;
	free(type);
	memcpy(p->first, outer_first, sizeof(outer_first));
	ddbc_strbuf_release(&hint);
	p->hint = outer_hint;
	p->nest--;
	if (!ok) {
		json_decref(value);
		return -1;
	}
	p->i++;
	*out = value ? value : json_null();
	s->resolved |= !p->skip;
	return 1;
}

/* A string with its variables resolved: the variable's own value when it
 * is the whole string, else the text. NULL after saying why. */
static json_t *resolve_string(ddbc_sls *s, const char *str)
{
	if (!strstr(str, "${"))
		return json_string(str);
	parser p = { .str = str };
	strbuf out = STRBUF_INIT;
	json_t *whole = NULL;
	while (str[p.i]) {
		if (str[p.i] == '\\' && str[p.i + 1]) {  /* \$ is no variable */
			ddbc_strbuf_add(&out, str + p.i, 2);
			p.i += 2;
			continue;
		}
		if (str[p.i] != '$' || str[p.i + 1] != '{') {
			ddbc_strbuf_addch(&out, str[p.i++]);
			continue;
		}
		size_t start = p.i;
		json_t *v = NULL;
		int r = variable(s, &p, &v);
		if (r < 0) {
			ddbc_strbuf_release(&out);
			return NULL;
		}
		if (r == 0) {  /* CloudFormation's: kept, variables inside it resolved */
			ddbc_strbuf_add(&out, "${", 2);
			p.i += 2;
			continue;
		}
		if (start == 0 && !str[p.i]) {
			whole = v;
			break;
		}
		bool ok = append_text(s, &out, v, str);
		json_decref(v);
		if (!ok) {
			ddbc_strbuf_release(&out);
			return NULL;
		}
	}
	json_t *r = whole ? whole : json_string(ddbc_strbuf_str(&out));
	ddbc_strbuf_release(&out);
	return r;
}

/* v with every variable in its values resolved (keys stay as they are). */
static json_t *resolve(ddbc_sls *s, const json_t *v)
{
	if (s->depth > MAX_DEPTH)
		return fail(s, "variables nested past ddbc's bound (%d levels), or a property "
			    "whose value needs itself", MAX_DEPTH);
	s->depth++;
	json_t *r = NULL;
	if (ddbc_import_number_text(v)) {  /* a Number's text holds no variable */
		r = json_incref((json_t *)v);
	} else if (json_is_string(v)) {
		r = resolve_string(s, json_string_value(v));
	} else if (json_is_array(v)) {
		r = json_array();
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			json_t *x = resolve(s, e);
			if (!x) {
				json_decref(r);
				r = NULL;
				break;
			}
			json_array_append_new(r, x);
		}
	} else if (json_is_object(v)) {
		r = json_object();
		const char *k;
		const json_t *e;
		json_object_foreach((json_t *)v, k, e) {
			json_t *x = resolve(s, e);
			if (!x) {
				json_decref(r);
				r = NULL;
				break;
			}
			json_object_set_new(r, k, x);
		}
	} else {
		r = json_incref((json_t *)v);
	}
	s->depth--;
	return r;
}

json_t *ddbc_sls_resolve(ddbc_sls *s, const json_t *v)
{
	ddbc_strbuf_reset(&s->why);
	s->steps = 0;
	s->depth = 0;
	return resolve(s, v);
}

char *ddbc_sls_stage(ddbc_sls *s)
{
	ddbc_strbuf_reset(&s->why);
	s->depth = 0;
	return stage(s);
}

/* v, or the value of the one variable v is (again while it is one), the
 * variables inside that value kept: the framework puts a variable's value
 * in its place before it reads the structure (a fragment, the Resources
 * mapping, one resource). A string that is no single variable stays as
 * it is. NULL after saying why. A new reference. */
static json_t *expand(ddbc_sls *s, const json_t *v)
{
	json_t *r = json_incref((json_t *)v);
	json_t *seen = json_array();
	while (ddbc_import_is_string(r) &&
	       !strncmp(json_string_value(r), "${", 2)) {
		const char *str = json_string_value(r);
		size_t i;
		json_t *e;
		json_array_foreach(seen, i, e) {
			if (json_equal(e, r)) {
				fail(s, "'%s' stands for itself: a cycle", str);
				goto refused;
			}
		}
		json_array_append(seen, r);
		parser p = { .str = str, .raw = true };
		json_t *x = NULL;
		int rc = variable(s, &p, &x);
		if (rc < 0)
			goto refused;
		if (rc == 0 || str[p.i]) {  /* CloudFormation's, or more than one */
			json_decref(x);
			break;
		}
		json_decref(r);
		r = x;
	}
	json_decref(seen);
	return r;
refused:
	json_decref(seen);
	json_decref(r);
	return NULL;
}

/* Replaces s->why by "where: why". Returns NULL. */
static json_t *at_where(ddbc_sls *s, const char *where)
{
	char *why = ddbc_strbuf_detach(&s->why);
	ddbc_strbuf_addf(&s->why, "%s: %s", where, why);
	free(why);
	return NULL;
}

/* A fragment of resources with the variables standing for it, for its
 * members (Resources, Outputs, ...) and for theirs (each resource)
 * replaced by their values, as the framework has them before it merges
 * fragments. A member's member that cannot be had stays as it is (a
 * resource is then refused alone, by ddbc_sls_resolve). NULL after
 * saying why. A new reference. */
static json_t *fragment(ddbc_sls *s, const json_t *v, const char *where)
{
	json_t *f = expand(s, v);
	if (!f)
		return at_where(s, where);
	if (!json_is_object(f))
		return f;
	json_t *out = json_object();
	const char *k;
	json_t *e;
	json_object_foreach(f, k, e) {
		json_t *m = expand(s, e);
		if (!m && !ddbc_cfn_tables_read(k)) {  /* Outputs: no table reads it */
			ddbc_strbuf_reset(&s->why);
			continue;
		}
		if (!m) {
			json_decref(out);
			json_decref(f);
			char at[256];
			snprintf(at, sizeof(at), "%s.%s", where, k);
			return at_where(s, at);
		}
		if (json_is_object(m)) {
			json_t *each = json_object();
			const char *k2;
			json_t *e2;
			json_object_foreach(m, k2, e2) {
				json_t *x = expand(s, e2);
				ddbc_strbuf_reset(&s->why);
				json_object_set_new(each, k2, x ? x : json_incref(e2));
			}
			json_decref(m);
			m = each;
		}
		json_object_set_new(out, k, m);
	}
	json_decref(f);
	return out;
}

/* A list of fragments merged in order; NULL after saying why. */
static json_t *merge_fragments(ddbc_sls *s, const json_t *list)
{
	json_t *merged = json_object();
	for (size_t i = 0; i < json_array_size(list); i++) {
		char where[64];
		snprintf(where, sizeof(where), "resources[%zu]", i);
		json_t *f = fragment(s, json_array_get(list, i), where);
		if (!f) {
			json_decref(merged);
			return NULL;
		}
		bool empty = json_is_null(f) || json_is_false(f) ||
			     (json_is_integer(f) && !json_integer_value(f)) ||
			     (json_is_string(f) && !*json_string_value(f));
		if (!empty && !json_is_object(f)) {
			/* The framework: "Non-object value specified in resources array". */
			fail(s, "%s: %s, which the framework refuses", where,
			     json_is_array(f) ? "a list" : "no mapping");
			json_decref(f);
			json_decref(merged);
			return NULL;
		}
		if (!empty)  /* the framework skips a fragment that is falsy */
			merged = ddbc_sls_merge(merged, f);
		json_decref(f);
	}
	return merged;
}

json_t *ddbc_sls_resources(ddbc_sls *s)
{
	ddbc_strbuf_reset(&s->why);
	s->steps = 0;
	s->depth = 0;
	const json_t *res = json_object_get(s->service, "resources");
	if (json_is_array(res))
		return merge_fragments(s, res);
	json_t *list = expand(s, res);  /* resources: ${file(...)} may be a list */
	if (!list)
		return at_where(s, "resources");
	json_t *r = json_is_array(list) ? merge_fragments(s, list) : fragment(s, list, "resources");
	json_decref(list);
	return r;
}
