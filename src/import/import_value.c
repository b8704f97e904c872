/* import_value.c - DynamoDB JSON values and key templates from samples
 *
 * Sources that give items (Workbench's TableData) give them in DynamoDB
 * JSON; designs hold plain values. Sources that give no key templates give
 * sample keys: a template is recovered only where every sample agrees.
 */
#include "import/import_int.h"
#include "util/decimal.h"
#include "util/error.h"
#include "util/json_number.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int ddbc_import_fail(const char *file, const char *fmt, ...)
{
	va_list ap;
	strbuf msg = STRBUF_INIT;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	ddbc_cmd_error("import", "%s: %s", file, msg.buf);
	ddbc_strbuf_release(&msg);
	return -1;
}

/* A number travels through the tree as JSON sources read through the
 * pre-pass give it (util/json_number.h): a marked string that holds the
 * number's text. A source string that begins with the mark has it twice
 * (ddbc_import_str), so only the mark once followed by a decimal is a
 * number. */
json_t *ddbc_import_number(const char *text)
{
	return ddbc_json_number_new(text, strlen(text));
}

const char *ddbc_import_number_text(const json_t *v)
{
	size_t len;
	const char *s = ddbc_json_marked_number(v, &len);
	return s && ddbc_decimal_valid(s, len) ? s : NULL;
}

bool ddbc_import_is_string(const json_t *v)
{
	return json_is_string(v) && !ddbc_import_number_text(v);
}

const char *ddbc_import_string_value(const json_t *v)
{
	return ddbc_import_is_string(v) ? json_string_value(v) : NULL;
}

const char *ddbc_import_string_text(const json_t *v)
{
	if (!ddbc_import_is_string(v))
		return NULL;
	size_t len;
	const char *s = ddbc_json_marked_string(v, &len);
	return s ? s : json_string_value(v);
}

json_t *ddbc_import_str(const char *s)
{
	return ddbc_json_string_new(s, strlen(s));
}

/* A DynamoDB number: an integer when it fits one exactly, else its own
 * text (never a double: 141.96 stays 141.96, 38 digits stay 38); NULL
 * when n is no number DynamoDB holds (number_refused says why). */
static json_t *plain_number(const char *n)
{
	if (!ddbc_decimal_dynamodb(n, strlen(n), NULL))
		return NULL;
	char *end;
	errno = 0;
	long long i = strtoll(n, &end, 10);
	if (!*end && !errno && *n && n[0] != '+' && !(n[0] == '0' && n[1]) &&
	    !(n[0] == '-' && n[1] == '0'))
		return json_integer(i);
	return ddbc_import_number(n);
}

/* Where a value is being read, and why it was refused. */
struct at {
	strbuf path;   /* the attribute path: Detail.Sizes[2] */
	strbuf *why;   /* NULL: the caller wants no reason */
};

static json_t *value_at(const json_t *av, struct at *at);
static json_t *item_at(const json_t *item, struct at *at);

static json_t *refuse(struct at *at, const char *what)
{
	if (at->why && !at->why->len)
		ddbc_strbuf_addf(at->why, "attribute '%s' %s", ddbc_strbuf_str(&at->path), what);
	return NULL;
}

/* Why text (NULL: no string) is no number DynamoDB holds. */
static json_t *number_refused(struct at *at, const char *text)
{
	strbuf why = STRBUF_INIT;
	if (!text || !ddbc_decimal_valid(text, strlen(text)))
		ddbc_strbuf_addstr(&why, "is no DynamoDB number (a string of decimal digits)");
	else
		ddbc_decimal_dynamodb(text, strlen(text), &why);
	refuse(at, ddbc_strbuf_str(&why));
	ddbc_strbuf_release(&why);
	return NULL;
}

/* The members of set or list a; kind is the member type SS/NS/BS gives,
 * or NULL for an L of attribute values. */
static json_t *plain_list(const json_t *a, const char *kind, struct at *at)
{
	json_t *out = json_array();
	size_t i, mark = at->path.len;
	const json_t *v;
	json_array_foreach(a, i, v) {
		ddbc_strbuf_addf(&at->path, "[%zu]", i);
		json_t *p = !kind ? value_at(v, at)
			  : !ddbc_import_is_string(v) ? refuse(at, "is not a string")
			  : strcmp(kind, "N") ? json_incref((json_t *)v)
			  : plain_number(ddbc_import_string_text(v));
		if (!p && kind && !strcmp(kind, "N") && ddbc_import_is_string(v))
			number_refused(at, ddbc_import_string_text(v));
		if (!p) {
			json_decref(out);
			return NULL;
		}
		at->path.len = mark;
		at->path.buf[mark] = '\0';
		json_array_append_new(out, p);
	}
	return out;
}

static json_t *value_at(const json_t *av, struct at *at)
{
	if (!json_is_object(av) || json_object_size(av) != 1)
		return refuse(at, "is not an object of one type ({\"S\": ...}, {\"N\": ...}, ...)");
	const char *t = json_object_iter_key(json_object_iter((json_t *)av));
	const json_t *v = json_object_get(av, t);
	if (!strcmp(t, "S") || !strcmp(t, "B"))
		return ddbc_import_is_string(v) ? json_incref((json_t *)v)
						: refuse(at, "is not a string");
	if (!strcmp(t, "N")) {
		const char *text = ddbc_import_string_text(v);
		json_t *n = text ? plain_number(text) : NULL;
		return n ? n : number_refused(at, text);
	}
	if (!strcmp(t, "BOOL"))
		return json_is_boolean(v) ? json_incref((json_t *)v) : refuse(at, "is not true or false");
	if (!strcmp(t, "NULL"))
		return json_null();
	if (!strcmp(t, "M"))
		return json_is_object(v) ? item_at(v, at) : refuse(at, "is not an object (M)");
	if (!json_is_array(v))
		return strstr("SS NS BS L", t) && strlen(t) <= 2 ? refuse(at, "is not a list")
		       : refuse(at, "has an unknown type");
	if (!strcmp(t, "SS") || !strcmp(t, "BS"))
		return plain_list(v, "S", at);
	if (!strcmp(t, "NS"))
		return plain_list(v, "N", at);
	if (!strcmp(t, "L"))
		return plain_list(v, NULL, at);
	return refuse(at, "has an unknown type");
}

static json_t *item_at(const json_t *item, struct at *at)
{
	if (!json_is_object(item))
		return refuse(at, "is not an object");
	json_t *out = json_object();
	size_t mark = at->path.len;
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)item, k, v) {
		if (mark)   /* every member of every sample: no printf */
			ddbc_strbuf_addch(&at->path, '.');
		ddbc_strbuf_addstr(&at->path, k);
		json_t *p = value_at(v, at);
		if (!p) {
			json_decref(out);
			return NULL;
		}
		at->path.len = mark;
		at->path.buf[mark] = '\0';
		json_object_set_new(out, k, p);
	}
	return out;
}

json_t *ddbc_import_plain_value(const json_t *av)
{
	struct at at = { STRBUF_INIT, NULL };
	ddbc_strbuf_addstr(&at.path, "");
	json_t *v = value_at(av, &at);
	ddbc_strbuf_release(&at.path);
	return v;
}

json_t *ddbc_import_plain_item_why(const json_t *item, strbuf *why)
{
	struct at at = { STRBUF_INIT, why };
	ddbc_strbuf_addstr(&at.path, "");
	if (why)
		ddbc_strbuf_reset(why);
	json_t *v = json_is_object(item) ? item_at(item, &at) : NULL;
	if (!v && why && !why->len)
		ddbc_strbuf_addstr(why, "it is not an object");
	ddbc_strbuf_release(&at.path);
	return v;
}

json_t *ddbc_import_plain_part(const json_t *item)
{
	if (!json_is_object(item))
		return NULL;
	json_t *ok = json_object(), *bad = json_object();
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)item, k, v) {
		json_t *p = ddbc_import_plain_value(v);
		json_object_set_new(p ? ok : bad, k, p ? p : json_true());
	}
	if (!json_object_size(ok)) {
		json_decref(ok);
		json_decref(bad);
		return NULL;
	}
	return json_pack("{soso}", "ok", ok, "bad", bad);
}

json_t *ddbc_import_plain_item(const json_t *item)
{
	return ddbc_import_plain_item_why(item, NULL);
}

const char *ddbc_import_value_type(const json_t *v)
{
	if (ddbc_import_number_text(v))
		return "N";
	if (json_is_string(v))
		return "S";
	if (json_is_number(v))
		return "N";
	if (json_is_boolean(v))
		return "BOOL";
	if (json_is_null(v))
		return "NULL";
	if (json_is_object(v))
		return "M";
	return "L";
}
