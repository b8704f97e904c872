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
#include "import/import_cfn.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STEPS 100000u  /* variables resolved per resource */
#define MAX_TOTAL 1000000u /* variables resolved per service */
#define MAX_DEPTH 32       /* variables resolved inside the values of others */

void ddbc_sls_init(ddbc_sls *s, const json_t *service, const ddbc_import_param *params,
		   size_t nparams)
{
	memset(s, 0, sizeof(*s));
	s->service = service;
	s->params = params;
	s->nparams = nparams;
}

void ddbc_sls_release(ddbc_sls *s)
{
	strbuf_release(&s->why);
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
static json_t *property(ddbc_sls *s, const char *path)
{
	const json_t *at = s->service;
	char *copy = xstrdup(path);
	for (char *part = copy, *next; at && *path; part = next + 1) {
		next = strchr(part, '.');
		if (next)
			*next = '\0';
		char *end;
		unsigned long k = strtoul(part, &end, 10);
		at = json_is_array(at) && *part && !*end ? json_array_get(at, k)
						       : json_object_get(at, part);
		if (!next)
			break;
	}
	free(copy);
	return at && !json_is_null(at) ? resolve(s, at) : json_null();
}

/* A resolved property's string, or def; NULL after saying why. */
static char *property_text(ddbc_sls *s, const char *path, const char *def)
{
	json_t *v = property(s, path);
	if (!v)
		return NULL;
	const char *text = ddbc_import_number_text(v);
	if (!text)
		text = ddbc_import_string_text(v);
	char *t = xstrdup(text ? text : def);
	json_decref(v);
	return t;
}

/* The stage a deploy without --stage uses. Malloc'd; NULL after why. */
static char *stage(ddbc_sls *s)
{
	const char *opt = given(s, "opt", "stage");
	return opt ? xstrdup(opt) : property_text(s, "provider.stage", "dev");
}

/* params.<stage>.name, else params.default.name, else json null. */
static json_t *stage_param(ddbc_sls *s, const char *name)
{
	char *st = stage(s);
	if (!st)
		return NULL;
	const json_t *params = json_object_get(s->service, "params");
	const json_t *v = json_object_get(json_object_get(params, st), name);
	if (!v || json_is_null(v))
		v = json_object_get(json_object_get(params, "default"), name);
	free(st);
	return v && !json_is_null(v) ? resolve(s, v) : json_null();
}

/* What source type:address gives: a new reference (json null when it has
 * no value, so the next source is tried), NULL when it is undecided. */
static json_t *source(ddbc_sls *s, const char *type, const char *address, const char *call)
{
	const char *g = given(s, type, address);
	if (g && strcmp(type, "self"))
		return json_string(g);
	if (call)
		return fail(s, "'${%s%s%s}' reads what only `serverless` reads when it runs "
			    "(another file, a function): give the value itself", call,
			    *address ? ":" : "", address);
	if (!strcmp(type, "self"))
		return property(s, address);
	if (!strcmp(type, "opt") || !strcmp(type, "env"))
		return *address ? json_null()
				: fail(s, "'${%s:}' has no address", type);
	if (!strcmp(type, "param"))
		return stage_param(s, address);
	if (!strcmp(type, "sls") && !strcmp(address, "stage")) {
		char *st = stage(s);
		json_t *r = st ? json_string(st) : NULL;
		free(st);
		return r;
	}
	if (!strcmp(type, "aws") && !strcmp(address, "region")) {
		const char *opt = given(s, "opt", "region");
		char *r = opt ? xstrdup(opt) : property_text(s, "provider.region", "us-east-1");
		json_t *j = r ? json_string(r) : NULL;
		free(r);
		return j;
	}
	static const char *const known[] = { "sls", "aws", "cf", "s3", "ssm", "file", NULL };
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
		strbuf_addstr(out, buf);
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
		strbuf_addch(out, '-');
	if (exp >= 21 || exp <= -7) {
		strbuf_addch(out, digits[0]);
		if (n > 1)
			strbuf_addf(out, ".%s", digits + 1);
		strbuf_addf(out, "e%c%d", exp < 0 ? '-' : '+', abs(exp));
	} else if (exp < 0) {
		strbuf_addstr(out, "0.");
		for (int i = -1; i > exp; i--)
			strbuf_addch(out, '0');
		strbuf_addstr(out, digits);
	} else if ((size_t)exp + 1 >= n) {
		strbuf_addstr(out, digits);
		for (size_t i = n; i < (size_t)exp + 1; i++)
			strbuf_addch(out, '0');
	} else {
		strbuf_addf(out, "%.*s.%s", exp + 1, digits, digits + exp + 1);
	}
}

/* The text a variable's value gives inside a longer string. */
static bool append_text(ddbc_sls *s, strbuf *out, const json_t *v, const char *var)
{
	const char *num = ddbc_import_number_text(v);
	if (num) {
		append_js_number(out, num);
	} else if (json_is_string(v)) {
		strbuf_addstr(out, json_string_value(v));
	} else if (json_is_boolean(v)) {
		strbuf_addstr(out, json_is_true(v) ? "true" : "false");
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
	char first[128];  /* the first source of the variable being parsed */
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
		strbuf_addch(out, p->str[p->i]);
	}
	if (!p->str[p->i])
		return false;
	p->i++;
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
	while (p->str[p->i] && p->str[p->i] != ',' && p->str[p->i] != '}') {
		char ch = p->str[p->i];
		if (ch == ':')
			return fail(s, "'%s': an address with ':' in it", p->str), false;
		if (ch == '$' && p->str[p->i + 1] == '{') {
			json_t *v = NULL;
			int r = variable(s, p, &v);
			bool ok = r > 0 && (p->skip || append_text(s, out, v, p->str));
			if (r == 0)
				fail(s, "'%s': a '${' in an address that is no variable", p->str);
			json_decref(v);
			if (!ok)
				return false;
			continue;
		}
		strbuf_addch(out, ch);
		p->i++;
	}
	while (out->len && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	return true;
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

/* One source of a variable, its type already read; sets *value when it
 * gives one (unless skipping). */
static bool one_source(ddbc_sls *s, parser *p, const char *type, json_t **value)
{
	char *call = NULL;  /* file(...), strToBool(...): never resolved here */
	if (p->str[p->i] == '(') {
		size_t open = p->i;
		int depth = 0;
		for (; p->str[p->i] && (p->str[p->i] != ')' || --depth > 0); p->i++)
			depth += p->str[p->i] == '(';
		if (!p->str[p->i])
			return fail(s, "'%s': a '(' that does not end", p->str), false;
		p->i++;
		call = xmalloc(strlen(type) + p->i - open + 1);
		sprintf(call, "%s%.*s", type, (int)(p->i - open), p->str + open);
		spaces(p);
	}
	strbuf addr = STRBUF_INIT;
	bool ok = true;
	if (p->str[p->i] == ':') {
		p->i++;
		ok = address(s, p, &addr);
	}
	if (!p->first[0])
		snprintf(p->first, sizeof(p->first), "%s:%s", type, strbuf_str(&addr));
	if (ok && !p->skip) {
		json_t *v = source(s, type, strbuf_str(&addr), call);
		ok = v != NULL;
		if (v && !json_is_null(v))
			*value = v;
		else
			json_decref(v);
	}
	strbuf_release(&addr);
	free(call);
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
			*value = json_string(strbuf_str(&t));
		if (!ok)
			fail(s, "'%s': a quoted fallback that does not end", p->str);
		spaces(p);
	} else {
		while (isalnum((unsigned char)p->str[p->i]) || strchr(".-+", p->str[p->i]))
			strbuf_addch(&t, p->str[p->i++]);
		spaces(p);
		if (t.len && (p->str[p->i] == ':' || p->str[p->i] == '(') &&
		    islower((unsigned char)t.buf[0])) {
			ok = one_source(s, p, strbuf_str(&t), value);
		} else {
			json_t *lit = literal(strbuf_str(&t));
			ok = lit != NULL;
			if (!lit)
				fail(s, "'%s': the fallback '%s' is no source, quoted string, number "
				     "or boolean", p->str, strbuf_str(&t));
			else if (!p->skip && !json_is_null(lit))
				*value = json_incref(lit);
			json_decref(lit);
		}
	}
	strbuf_release(&t);
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
	char *type = xstrndup(p->str + start + 2, j - start - 2);
	bool outer_skip = p->skip;
	char outer_first[sizeof(p->first)];
	memcpy(outer_first, p->first, sizeof(outer_first));
	p->first[0] = '\0';
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
	if (ok && !value && !p->skip)
		ok = fail(s, "'%.*s' resolves to no value, which `serverless` refuses too: %s%s%s",
			   (int)(p->i + 1 - start), p->str + start,
			   !strcmp(type, "self") ? "the service has no such property" : "give --param ",
			   !strcmp(type, "self") ? "" : p->first,
			   !strcmp(type, "self") ? "" : "=VALUE or a fallback") != NULL;
	free(type);
	memcpy(p->first, outer_first, sizeof(outer_first));
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
			strbuf_add(&out, str + p.i, 2);
			p.i += 2;
			continue;
		}
		if (str[p.i] != '$' || str[p.i + 1] != '{') {
			strbuf_addch(&out, str[p.i++]);
			continue;
		}
		size_t start = p.i;
		json_t *v = NULL;
		int r = variable(s, &p, &v);
		if (r < 0) {
			strbuf_release(&out);
			return NULL;
		}
		if (r == 0) {  /* CloudFormation's: kept, variables inside it resolved */
			strbuf_add(&out, "${", 2);
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
			strbuf_release(&out);
			return NULL;
		}
	}
	json_t *r = whole ? whole : json_string(strbuf_str(&out));
	strbuf_release(&out);
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
	} else if (json_is_object(v) && !ddbc_import_number_text(v)) {
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
	strbuf_reset(&s->why);
	s->steps = 0;
	s->depth = 0;
	return resolve(s, v);
}

char *ddbc_sls_stage(ddbc_sls *s)
{
	strbuf_reset(&s->why);
	s->depth = 0;
	return stage(s);
}
