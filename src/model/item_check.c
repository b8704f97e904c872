/* item_check.c - the checks an item of an entity is held to */
#include "model/item_check.h"
#include "model/request.h"
#include "model/semantics.h"

#include <stdlib.h>
#include <string.h>

/* Enum values a message lists before "...". */
#define MAX_LISTED 10
/* Bytes of a value a message quotes before "...". */
#define MAX_QUOTED 120

void ddbc_add_quoted(strbuf *sb, const char *s, size_t len)
{
	size_t n = len > MAX_QUOTED ? MAX_QUOTED : len;
	while (n < len && n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	ddbc_strbuf_addch(sb, '\'');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n')
			ddbc_strbuf_addstr(sb, "\\n");
		else if (c == '\t')
			ddbc_strbuf_addstr(sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			ddbc_strbuf_addf(sb, "\\x%02x", c);
		else
			ddbc_strbuf_addch(sb, (char)c);
	}
	ddbc_strbuf_addstr(sb, n < len ? "'..." : "'");
}

static bool is_base64_char(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       ch == '+' || ch == '/';
}

uint64_t ddbc_base64_bytes(const char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == '=' || s[len - 1] == '\n' || s[len - 1] == ' '))
		len--;
	return (uint64_t)len * 3 / 4;
}

bool ddbc_is_base64(const char *s, size_t len)
{
	if (len % 4)
		return false;
	size_t pad = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '=')
			pad++;
		else if (pad || !is_base64_char(s[i]))
			return false;
	}
	return pad <= 2;
}

/* ---- types ---------------------------------------------------------------------- */

void ddbc_type_message(const ddbc_attr *a, const char *who, const char *given, strbuf *msg)
{
	ddbc_strbuf_addf(msg, "'%s' is %s (%s), but %s gives %s", a->name.s, ddbc_type_short(a->type),
		    ddbc_type_long(a->type), who, given);
}

/* ---- enums ---------------------------------------------------------------------- */

/* Two numbers as DynamoDB compares them: by exact value, through the one
 * key comparator (1, 1.0 and 1e0 are one Number; 38 digits stay 38); a
 * text that is no number equals only itself. */
static bool same_number(const char *a, size_t alen, const char *b)
{
	return ddbc_key_compare(DDBC_TYPE_N, a, alen, b, strlen(b)) == 0;
}

bool ddbc_enum_has(const ddbc_attr *a, ddbc_type t, const ddbc_value *v)
{
	for (size_t i = 0; i < a->more->nenum; i++) {
		const ddbc_node *n = a->more->enum_values[i];
		if (n->kind != DDBC_NODE_SCALAR)
			continue;
		bool b;
		if (t == DDBC_TYPE_BOOL ? v->kind == DDBC_V_BOOL && ddbc_node_bool(n, &b) &&
					      b == v->boolean
		    : t == DDBC_TYPE_NULL ? ddbc_node_is_null(n)
		    : t == DDBC_TYPE_N ? v->text && ddbc_node_is_number(n) &&
					     same_number(v->text, v->len, n->u.text)
				       : v->text && n->n == v->len && !memcmp(n->u.text, v->text, v->len))
			return true;
	}
	return false;
}

/* A value's text for messages: a scalar's as written; null and booleans
 * as words when the source has no text for them. */
static void value_text(const ddbc_value *v, strbuf *msg)
{
	if (v->text)
		ddbc_add_quoted(msg, v->text, v->len);
	else
		ddbc_strbuf_addf(msg, "'%s'", v->kind == DDBC_V_NULL ? "null"
					 : v->boolean	     ? "true"
								 : "false");
}

void ddbc_enum_message(const ddbc_attr *a, const ddbc_value *v, strbuf *msg)
{
	ddbc_strbuf_addf(msg, "'%s' is ", a->name.s);
	value_text(v, msg);
	ddbc_strbuf_addstr(msg, ", which is not one of its enum values (");
	for (size_t i = 0; i < a->more->nenum && i < MAX_LISTED; i++)
		ddbc_strbuf_addf(msg, "%s%s", i ? ", " : "", a->more->enum_values[i]->u.text);
	ddbc_strbuf_addstr(msg, a->more->nenum > MAX_LISTED ? ", ...)" : ")");
}

/* ---- required attributes ------------------------------------------------------------ */

bool ddbc_item_lacks(const ddbc_item_view *iv, const ddbc_attr *a, strbuf *msg)
{
	if (!a->name.s)
		return false;
	ddbc_value v;
	iv->get(iv, a, &v);
	if (v.kind != DDBC_V_NONE)
		return false;
	strbuf why = STRBUF_INIT;
	bool lacks = ddbc_attr_required(a, &why);
	if (lacks)
		ddbc_strbuf_addf(msg, "'%s' is missing (%s)", a->name.s, ddbc_strbuf_str(&why));
	ddbc_strbuf_release(&why);
	return lacks;
}

/* ---- templates -------------------------------------------------------------------- */

/* The value of placeholder seg in the item (the callback of
 * ddbc_template_render): absent and mistyped values are reported by the
 * other checks. */
static ddbc_tvalue placeholder_value(void *ctx, const ddbc_segment *seg)
{
	const ddbc_item_view *iv = ctx;
	const ddbc_attr *b = seg->ref;
	ddbc_tvalue t = { .kind = DDBC_TVALUE_UNUSABLE };
	if (!b || (b->type != DDBC_TYPE_S && b->type != DDBC_TYPE_N))
		return t;
	ddbc_value v;
	iv->get(iv, b, &v);
	if (v.kind == DDBC_V_NONE) {
		t.kind = DDBC_TVALUE_MISSING;
		return t;
	}
	if (!v.fits || !v.text)
		return t;
	t.kind = b->type == DDBC_TYPE_S ? DDBC_TVALUE_TEXT : DDBC_TVALUE_NUMBER;
	t.text = v.text;
	t.len = v.len;
	t.is_int = b->type == DDBC_TYPE_N && v.is_int;
	t.n = v.n;
	t.source = v.source;
	return t;
}

/* v, the value of a in an item without gone, a key part that is not
 * stored: the parts the item holds must be rendered as they are, the
 * parts it lacks can only be held to their shape. */
static bool of_shape(const ddbc_item_view *iv, const ddbc_attr *a, const ddbc_value *v)
{
	ddbc_lang l;
	strbuf texts = STRBUF_INIT;
	ddbc_lang_init(&l);
	ddbc_attr_item_lang(a, placeholder_value, (void *)iv, &texts, &l);
	bool ok = ddbc_lang_matches(&l, v->text, v->len, iv->delim);
	ddbc_lang_release(&l);
	ddbc_strbuf_release(&texts);
	return ok;
}

ddbc_tcheck ddbc_item_check_template(const ddbc_item_view *iv, const ddbc_attr *a,
				     const ddbc_value *v, strbuf *msg, ddbc_value *at,
				     const ddbc_attr **gone)
{
	*at = *v;
	*gone = NULL;
	strbuf own = STRBUF_INIT, *want = iv->scratch ? iv->scratch : &own;
	ddbc_strbuf_reset(want);
	ddbc_render_problem p;
	ddbc_render_result r = ddbc_template_render(&a->tpl, placeholder_value, (void *)iv, want,
						    &p);
	ddbc_tcheck res = DDBC_TCHECK_OK;
	if (r == DDBC_RENDER_MISSING) {
		*gone = p.seg->ref;
		if (ddbc_attr_stored(*gone)) {
			ddbc_strbuf_addf(msg, "'%s' cannot be checked against its template '%s': the "
				    "item has no '%s'", a->name.s, a->template.s, (*gone)->name.s);
			res = DDBC_TCHECK_LACKS;
		} else if (!of_shape(iv, a, v)) {
			ddbc_strbuf_addf(msg, "'%s' is ", a->name.s);
			ddbc_add_quoted(msg, v->text, v->len);
			ddbc_strbuf_addf(msg, ", which its template '%s' cannot give from this item's "
				    "values (the item has no '%s', a key part that is not stored, "
				    "so that part is held to its shape)", a->template.s,
				    (*gone)->name.s);
			res = DDBC_TCHECK_SHAPE;
		}
	} else if (r == DDBC_RENDER_UNPADDABLE) {
		const ddbc_attr *b = p.seg->ref;
		iv->get(iv, b, at);
		ddbc_strbuf_addf(msg, "'%s' pads '%s' to %u digit%s, but ", a->name.s, b->name.s,
			    p.seg->width, p.seg->width == 1 ? "" : "s");
		ddbc_add_quoted(msg, at->text, at->len);
		ddbc_strbuf_addf(msg, " %s", ddbc_padding_problem(at->text, at->len, p.seg->width));
		res = DDBC_TCHECK_UNPADDABLE;
	} else if (r == DDBC_RENDER_OK &&
		   (want->len != v->len || memcmp(ddbc_strbuf_str(want), v->text, v->len))) {
		ddbc_strbuf_addf(msg, "'%s' is ", a->name.s);
		ddbc_add_quoted(msg, v->text, v->len);
		ddbc_strbuf_addf(msg, ", but its template '%s' gives ", a->template.s);
		ddbc_add_quoted(msg, want->buf, want->len);
		ddbc_strbuf_addstr(msg, " from this item's values");
		res = DDBC_TCHECK_MISMATCH;
	}
	ddbc_strbuf_release(&own);
	return res;
}

/* ---- the key delimiter --------------------------------------------------------------- */

static bool contains(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; n && i + n <= len; i++)
		if (s[i] == needle[0] && !memcmp(s + i, needle, n))
			return true;
	return false;
}

bool ddbc_item_delimiter_applies(const ddbc_attr *b)
{
	/* A templated b is expanded where it is used, delimiters and all. */
	return b->type == DDBC_TYPE_S && !(b->has_template && !b->in_cycle) && b->used_by;
}

const ddbc_attr *ddbc_item_delimiter(const ddbc_item_view *iv, const ddbc_attr *b,
				     const ddbc_value *v, strbuf *msg)
{
	if (!ddbc_item_delimiter_applies(b))
		return NULL;
	if (v->kind != DDBC_V_STRING || !iv->delim || !*iv->delim ||
	    !contains(v->text, v->len, iv->delim))
		return NULL;
	const ddbc_attr *a = b->used_by;
	ddbc_strbuf_addf(msg, "'%s' is ", b->name.s);
	ddbc_add_quoted(msg, v->text, v->len);
	ddbc_strbuf_addf(msg, ", which holds the key delimiter '%s'; the template of '%s' ('%s') "
		    "interpolates it, and keys assume such values never hold the delimiter",
		    iv->delim, a->name.s, a->template.s);
	return a;
}
