/* import_toolbox_link.c - a DynamoDB-Toolbox key link read as a template
 *
 * Toolbox computes a key attribute with code: `.link((i) => ...)` on the
 * attribute, or the entity's `computeKey`. The JSON docs/import.md prints
 * keeps each function's source; what reads as a template is read here:
 * an arrow function (or `function`) of the item, its parameter a name or
 * a destructuring, returning a sum of string literals, template literals
 * and the item's attributes (`i.a`, `i["a"]`, `i?.a`, `a` destructured,
 * each bare, in String(...) or .toString(), padded with
 * .padStart(W, "0") or ddbc's own pad_(v, W)); computeKey returns an
 * object literal of such sums. Anything else is code ddbc cannot hold.
 */
#include "import/import_int.h"
#include "import/import_libs.h"
#include "import/import_toolbox.h"
#include "util/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct lp {
	const char *p;
	const char *item;       /* the parameter's name, or NULL */
	size_t item_len;
	json_t *locals;         /* destructured local -> attribute name */
	const tb_link_how *how;
	strbuf *out;
	unsigned depth;
} lp;

static void ws(lp *s)
{
	for (;;) {
		while (isspace((unsigned char)*s->p))
			s->p++;
		if (s->p[0] == '/' && s->p[1] == '*') {
			const char *e = strstr(s->p + 2, "*/");
			s->p = e ? e + 2 : s->p + strlen(s->p);
		} else if (s->p[0] == '/' && s->p[1] == '/') {
			s->p += strcspn(s->p, "\n");
		} else {
			return;
		}
	}
}

static bool eat(lp *s, const char *tok)
{
	ws(s);
	size_t n = strlen(tok);
	if (strncmp(s->p, tok, n))
		return false;
	/* a word ends where an identifier's characters do */
	if (isalpha((unsigned char)tok[n - 1]) && (isalnum((unsigned char)s->p[n]) ||
						   s->p[n] == '_' || s->p[n] == '$'))
		return false;
	s->p += n;
	return true;
}

static size_t ident(lp *s)
{
	ws(s);
	size_t n = 0;
	while (isalnum((unsigned char)s->p[n]) || s->p[n] == '_' || s->p[n] == '$' ||
	       (unsigned char)s->p[n] >= 0x80)
		n++;
	return isdigit((unsigned char)s->p[0]) ? 0 : n;
}

/* A quoted string literal into lit; false when there is none. */
static bool string_lit(lp *s, strbuf *lit)
{
	ws(s);
	char q = *s->p;
	if (q != '"' && q != '\'')
		return false;
	const char *p = s->p + 1;
	for (; *p && *p != q; p++) {
		if (*p != '\\') {
			ddbc_strbuf_addch(lit, *p);
			continue;
		}
		p++;
		switch (*p) {
		case 'n': ddbc_strbuf_addch(lit, '\n'); break;
		case 't': ddbc_strbuf_addch(lit, '\t'); break;
		case '\\': case '"': case '\'': case '`': case '$': case '/':
			ddbc_strbuf_addch(lit, *p); break;
		default: return false;
		}
	}
	if (*p != q)
		return false;
	s->p = p + 1;
	return true;
}

static bool number(lp *s, unsigned *w)
{
	ws(s);
	char *end;
	unsigned long v = strtoul(s->p, &end, 10);
	if (end == s->p || v == 0 || v > 64)
		return false;
	*w = (unsigned)v;
	s->p = end;
	return true;
}

/* A reference to an attribute: its name into name. */
static bool ref(lp *s, strbuf *name)
{
	size_t n = ident(s);
	if (!n)
		return false;
	if (s->item && n == s->item_len && !strncmp(s->p, s->item, n)) {
		const char *save = s->p;
		s->p += n;
		bool opt = eat(s, "?.");
		if (eat(s, "[")) {
			if (!string_lit(s, name) || !eat(s, "]")) {
				s->p = save;
				return false;
			}
			return true;
		}
		if (opt || eat(s, ".")) {
			size_t m = ident(s);
			if (!m) {
				s->p = save;
				return false;
			}
			ddbc_strbuf_add(name, s->p, m);
			s->p += m;
			return true;
		}
		s->p = save;
		return false;
	}
	strbuf local = STRBUF_INIT;
	ddbc_strbuf_add(&local, s->p, n);
	const char *attr = ddbc_import_string_value(json_object_get(s->locals, ddbc_strbuf_str(&local)));
	ddbc_strbuf_release(&local);
	if (!attr)
		return false;
	ddbc_strbuf_addstr(name, attr);
	s->p += n;
	return true;
}

static bool expr(lp *s);

/* A value: String(ref), ref, ref.toString(), each maybe .padStart(W, "0");
 * pad_(ref, W). */
static bool value(lp *s)
{
	strbuf name = STRBUF_INIT;
	unsigned width = 0;
	bool ok;
	if (eat(s, "pad_")) {
		ok = eat(s, "(") && ref(s, &name) && eat(s, ",") && number(s, &width) && eat(s, ")");
	} else if (eat(s, "String")) {
		ok = eat(s, "(") && ref(s, &name) && eat(s, ")");
	} else {
		ok = ref(s, &name);
		if (ok && eat(s, ".toString"))
			ok = eat(s, "(") && eat(s, ")");
	}
	if (ok && eat(s, ".padStart")) {
		strbuf pad = STRBUF_INIT;
		ok = eat(s, "(") && number(s, &width) && eat(s, ",") && string_lit(s, &pad) &&
		     eat(s, ")") && !strcmp(ddbc_strbuf_str(&pad), "0");
		ddbc_strbuf_release(&pad);
	}
	if (ok)
		ok = s->how->name(s->how->ctx, ddbc_strbuf_str(&name), width, s->out) == 0;
	ddbc_strbuf_release(&name);
	return ok;
}

static bool template_lit(lp *s)
{
	const char *p = s->p + 1;
	strbuf lit = STRBUF_INIT;
	bool ok = true;
	while (ok && *p && *p != '`') {
		if (p[0] == '$' && p[1] == '{') {
			ddbc_import_literal(s->out, lit.buf ? lit.buf : "", lit.len);
			ddbc_strbuf_reset(&lit);
			s->p = p + 2;
			ok = expr(s) && eat(s, "}");
			p = s->p;
		} else if (*p == '\\') {
			if (!strchr("\\`$'\"", p[1]))
				ok = false;
			else
				ddbc_strbuf_addch(&lit, p[1]);
			p += 2;
		} else {
			ddbc_strbuf_addch(&lit, *p++);
		}
	}
	ok = ok && *p == '`';
	ddbc_import_literal(s->out, lit.buf ? lit.buf : "", lit.len);
	ddbc_strbuf_release(&lit);
	s->p = ok ? p + 1 : p;
	return ok;
}

static bool term(lp *s)
{
	ws(s);
	if (*s->p == '`') {
		/* template literals nest inside ${...}: as deep as parentheses may */
		bool ok = ++s->depth < 32 && template_lit(s);
		s->depth--;
		return ok;
	}
	strbuf lit = STRBUF_INIT;
	if (string_lit(s, &lit)) {
		ddbc_import_literal(s->out, lit.buf ? lit.buf : "", lit.len);
		ddbc_strbuf_release(&lit);
		return true;
	}
	ddbc_strbuf_release(&lit);
	if (eat(s, "(")) {
		bool ok = ++s->depth < 32 && expr(s) && eat(s, ")");
		s->depth--;
		return ok;
	}
	return value(s);
}

static bool expr(lp *s)
{
	if (!term(s))
		return false;
	while (eat(s, "+"))
		if (!term(s))
			return false;
	return true;
}

/* The parameter: a name, or { a, b: local } destructured. */
static bool params(lp *s)
{
	bool paren = eat(s, "(");
	if (eat(s, "{")) {
		do {
			if (eat(s, "}"))
				goto closed;
			size_t n = ident(s);
			if (!n)
				return false;
			strbuf a = STRBUF_INIT;
			ddbc_strbuf_add(&a, s->p, n);
			s->p += n;
			if (eat(s, ":")) {
				size_t m = ident(s);
				if (!m) {
					ddbc_strbuf_release(&a);
					return false;
				}
				strbuf l = STRBUF_INIT;
				ddbc_strbuf_add(&l, s->p, m);
				s->p += m;
				json_object_set_new(s->locals, ddbc_strbuf_str(&l), json_string(ddbc_strbuf_str(&a)));
				ddbc_strbuf_release(&l);
			} else {
				json_object_set_new(s->locals, ddbc_strbuf_str(&a), json_string(ddbc_strbuf_str(&a)));
			}
			ddbc_strbuf_release(&a);
		} while (eat(s, ","));
		if (!eat(s, "}"))
			return false;
	} else {
		size_t n = ident(s);
		if (!n && paren && eat(s, ")"))
			return true;
		if (!n)
			return false;
		s->item = s->p;
		s->item_len = n;
		s->p += n;
	}
closed:
	eat(s, ",");   /* a second parameter (Toolbox passes none that keys use) */
	if (paren) {
		while (ident(s)) {
			s->p += ident(s);
			eat(s, ",");
		}
		return eat(s, ")");
	}
	return true;
}

/* The function's head, up to its body: `function (p) {` sets *block. */
static bool head(lp *s, bool *block)
{
	*block = false;
	if (eat(s, "function")) {
		ident(s) ? (void)(s->p += ident(s)) : (void)0;
		if (!params(s) || !eat(s, "{") || !eat(s, "return"))
			return false;
		*block = true;
		return true;
	}
	if (!params(s) || !eat(s, "=>"))
		return false;
	if (eat(s, "{")) {
		if (!eat(s, "return"))
			return false;
		*block = true;
	}
	return true;
}

static bool tail(lp *s, bool block)
{
	if (block) {
		eat(s, ";");
		if (!eat(s, "}"))
			return false;
	}
	ws(s);
	return *s->p == '\0';
}

/* A sparse key's guard: `a === undefined || ... ? undefined :` (the key
 * left out of items that lack a part). false, nothing read, when there is
 * none. */
static bool guard(lp *s)
{
	const char *save = s->p;
	strbuf name = STRBUF_INIT;
	bool ok;
	do {
		ddbc_strbuf_reset(&name);
		ok = ref(s, &name) && (eat(s, "===") || eat(s, "==")) && eat(s, "undefined");
	} while (ok && eat(s, "||"));
	ok = ok && eat(s, "?") && eat(s, "undefined") && eat(s, ":");
	ddbc_strbuf_release(&name);
	if (!ok)
		s->p = save;
	return ok;
}

int ddbc_import_tb_link(const tb_link_how *how, const char *src, strbuf *out, bool *sparse)
{
	lp s = { .p = src, .locals = json_object(), .how = how, .out = out };
	bool block;
	bool ok = head(&s, &block);
	*sparse = ok && guard(&s);
	ok = ok && expr(&s) && tail(&s, block);
	json_decref(s.locals);
	return ok ? 0 : -1;
}

int ddbc_import_tb_compute(const tb_link_how *how, const char *src, json_t *keys)
{
	lp s = { .p = src, .locals = json_object(), .how = how };
	bool block;
	bool ok = head(&s, &block);
	bool paren = ok && !block && eat(&s, "(");
	ok = ok && eat(&s, "{");
	while (ok && !eat(&s, "}")) {
		strbuf name = STRBUF_INIT, out = STRBUF_INIT;
		size_t n = ident(&s);
		if (n) {
			ddbc_strbuf_add(&name, s.p, n);
			s.p += n;
		} else {
			ok = string_lit(&s, &name);
		}
		s.out = &out;
		ok = ok && eat(&s, ":") && expr(&s);
		if (ok)
			json_object_set_new(keys, ddbc_strbuf_str(&name), json_string(ddbc_strbuf_str(&out)));
		ddbc_strbuf_release(&name);
		ddbc_strbuf_release(&out);
		if (ok && !eat(&s, ",")) {
			ok = eat(&s, "}");
			break;
		}
	}
	ok = ok && (!paren || eat(&s, ")")) && tail(&s, block);
	json_decref(s.locals);
	return ok ? 0 : -1;
}
