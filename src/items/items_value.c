/* items_value.c - an item's attributes, typed as DynamoDB types them */
#include "items/items_value.h"
#include "model/params.h"
#include "util/decimal.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *tag;
	ddbc_type type;
} tags[] = {
	{ "S", DDBC_TYPE_S }, { "N", DDBC_TYPE_N }, { "B", DDBC_TYPE_B },
	{ "BOOL", DDBC_TYPE_BOOL }, { "NULL", DDBC_TYPE_NULL }, { "M", DDBC_TYPE_M },
	{ "L", DDBC_TYPE_L }, { "SS", DDBC_TYPE_SS }, { "NS", DDBC_TYPE_NS },
	{ "BS", DDBC_TYPE_BS },
};

static ddbc_type tag_type(const char *tag)
{
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (!strcmp(tag, tags[i].tag))
			return tags[i].type;
	return DDBC_TYPE_NONE;
}

bool ddbc_ival_looks_typed(const json_t *obj)
{
	const char *key;
	const json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		if (!json_is_object(v) || json_object_size(v) != 1)
			return false;
		void *it = json_object_iter((json_t *)v);
		if (tag_type(json_object_iter_key(it)) == DDBC_TYPE_NONE)
			return false;
	}
	return true;
}

/* ---- scalar texts ------------------------------------------------------------------ */

/* A real as the shortest text that reads back as the same double. */
static void format_real(double d, char *buf, size_t size)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

const char *ddbc_ival_scalar_text(const json_t *v, bool marked, char *buf, size_t size,
				  size_t *len)
{
	const char *text = marked ? ddbc_json_marked_number(v, len) : NULL;
	if (text)
		return text;
	if (json_is_string(v)) {
		if (marked)
			return ddbc_json_marked_string(v, len);
		*len = json_string_length(v);
		return json_string_value(v);
	}
	/* Unmarked numbers: those of DynamoDB JSON, where a number is a string
	 * and a bare one is refused (said in its words). */
	if (json_is_integer(v))
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_real(v))
		format_real(json_real_value(v), buf, size);
	else
		return NULL;
	*len = strlen(buf);
	return buf;
}

/* ---- plain JSON ----------------------------------------------------------------------- */

static ddbc_type plain_type(const json_t *v)
{
	size_t len;
	switch (json_typeof(v)) {
	case JSON_STRING: return ddbc_json_marked_number(v, &len) ? DDBC_TYPE_N : DDBC_TYPE_S;
	case JSON_INTEGER:
	case JSON_REAL: return DDBC_TYPE_N;
	case JSON_TRUE:
	case JSON_FALSE: return DDBC_TYPE_BOOL;
	case JSON_NULL: return DDBC_TYPE_NULL;
	case JSON_OBJECT: return DDBC_TYPE_M;
	case JSON_ARRAY: return DDBC_TYPE_L;
	}
	return DDBC_TYPE_NONE;
}

/* ---- DynamoDB JSON --------------------------------------------------------------------- */

const char *ddbc_json_kind(const json_t *v)
{
	size_t len;
	switch (json_typeof(v)) {
	case JSON_STRING: return ddbc_json_marked_number(v, &len) ? "a number" : "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	case JSON_NULL: return "null";
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	}
	return "a value";
}

/* Where a value is inside the item: written out only for a message. */
typedef struct path {
	const struct path *up;
	const char *key;         /* a member name; NULL for an element */
	size_t index;
} path;

static const char *path_str(const path *p, strbuf *out)
{
	if (p->up)
		path_str(p->up, out);
	if (p->key)
		ddbc_strbuf_addf(out, "%s%s", p->up ? "." : "", p->key);
	else
		ddbc_strbuf_addf(out, "[%zu]", p->index);
	return ddbc_strbuf_str(out);
}

/* Starts the message about the value at p: "'a.b[2]' ". */
static void at(strbuf *why, const path *p)
{
	ddbc_strbuf_addch(why, '\'');
	path_str(p, why);
	ddbc_strbuf_addstr(why, "' ");
}

static bool check_typed(const json_t *v, const path *p, strbuf *why, ddbc_type *type,
			const json_t **payload);

/* What each tag's payload must be, for messages. */
static const char *payload_hint(ddbc_type t)
{
	switch (t) {
	case DDBC_TYPE_S: return "a string: {\"S\": \"text\"}";
	case DDBC_TYPE_N: return "a number in a string: {\"N\": \"1\"}";
	case DDBC_TYPE_B: return "a base64 string: {\"B\": \"AAE=\"}";
	case DDBC_TYPE_BOOL: return "true or false: {\"BOOL\": true}";
	case DDBC_TYPE_NULL: return "true: {\"NULL\": true}";
	case DDBC_TYPE_M: return "an object of typed values: {\"M\": {\"a\": {\"S\": \"x\"}}}";
	case DDBC_TYPE_L: return "an array of typed values: {\"L\": [{\"S\": \"x\"}]}";
	case DDBC_TYPE_SS: return "an array of strings: {\"SS\": [\"a\"]}";
	case DDBC_TYPE_NS: return "an array of numbers in strings: {\"NS\": [\"1\"]}";
	case DDBC_TYPE_BS: return "an array of base64 strings: {\"BS\": [\"AAE=\"]}";
	case DDBC_TYPE_NONE: break;
	}
	return "";
}

/* Whether s is a scalar payload of type t (S, N, B). */
static bool scalar_payload_ok(const json_t *s, ddbc_type t)
{
	if (!json_is_string(s))
		return false;
	const char *text = json_string_value(s);
	size_t len = json_string_length(s);
	if (t == DDBC_TYPE_N)
		return ddbc_number_text(text, len);
	if (t == DDBC_TYPE_B)
		return ddbc_is_base64(text, len);
	return true;
}

static bool check_set(const json_t *p, ddbc_type t, const path *where, strbuf *why)
{
	ddbc_type et = t == DDBC_TYPE_SS ? DDBC_TYPE_S : t == DDBC_TYPE_NS ? DDBC_TYPE_N
									  : DDBC_TYPE_B;
	size_t i;
	const json_t *x;
	json_array_foreach((json_t *)p, i, x) {
		if (scalar_payload_ok(x, et)) {
			if (et != DDBC_TYPE_N)
				continue;
			const char *text = json_string_value(x);
			size_t len = json_string_length(x);
			if (ddbc_decimal_dynamodb(text, len, NULL))
				continue;
			at(why, where);
			ddbc_strbuf_addf(why, "element %zu ", i + 1);
			return ddbc_decimal_dynamodb(text, len, why);
		}
		at(why, where);
		ddbc_strbuf_addf(why, "is tagged %s, but its element %zu is %s%s; expected %s",
			    ddbc_type_short(t), i + 1, ddbc_json_kind(x),
			    json_is_string(x) ? (et == DDBC_TYPE_N ? " that is no number"
								   : " that is not base64")
					      : "",
			    payload_hint(t));
		return false;
	}
	if (ddbc_items_set_ok(p, t, NULL))
		return true;
	at(why, where);
	return ddbc_items_set_ok(p, t, why);
}

/* How many Maps and Lists hold the value at p, itself included. */
static size_t depth_of(const path *p)
{
	size_t n = 0;
	for (; p; p = p->up)
		n++;
	return n;
}

/* A Map or List deeper than DynamoDB nests. */
static bool too_deep(const path *where, strbuf *why)
{
	if (depth_of(where) <= DDBC_ITEMS_MAX_DEPTH)
		return false;
	at(why, where);
	ddbc_strbuf_addf(why, "is nested %zu levels deep; DynamoDB nests Maps and Lists at most %d",
		    depth_of(where), DDBC_ITEMS_MAX_DEPTH);
	return true;
}

static bool check_children(const json_t *p, ddbc_type t, const path *where, strbuf *why)
{
	ddbc_type ct;
	const json_t *cp;
	if (too_deep(where, why))
		return false;
	if (t == DDBC_TYPE_M) {
		const char *key;
		const json_t *x;
		json_object_foreach((json_t *)p, key, x) {
			path child = { where, key, 0 };
			if (!check_typed(x, &child, why, &ct, &cp))
				return false;
		}
		return true;
	}
	size_t i;
	const json_t *x;
	json_array_foreach((json_t *)p, i, x) {
		path child = { where, NULL, i };
		if (!check_typed(x, &child, why, &ct, &cp))
			return false;
	}
	return true;
}

static bool payload_ok(const json_t *p, ddbc_type t, const path *where, strbuf *why)
{
	bool kind_ok;
	switch (t) {
	case DDBC_TYPE_S:
	case DDBC_TYPE_N:
	case DDBC_TYPE_B: kind_ok = json_is_string(p); break;
	case DDBC_TYPE_BOOL:
	case DDBC_TYPE_NULL: kind_ok = json_is_boolean(p); break;
	case DDBC_TYPE_M: kind_ok = json_is_object(p); break;
	default: kind_ok = json_is_array(p); break;
	}
	if (!kind_ok) {
		at(why, where);
		ddbc_strbuf_addf(why, "is tagged %s but holds %s; expected %s", ddbc_type_short(t),
			    ddbc_json_kind(p), payload_hint(t));
		return false;
	}
	if ((t == DDBC_TYPE_N || t == DDBC_TYPE_B) && !scalar_payload_ok(p, t)) {
		at(why, where);
		ddbc_strbuf_addf(why, "is tagged %s, but \"%.40s\" is %s", ddbc_type_short(t),
			    json_string_value(p), t == DDBC_TYPE_N ? "no number" : "not base64");
		return false;
	}
	if (t == DDBC_TYPE_N &&
	    !ddbc_decimal_dynamodb(json_string_value(p), json_string_length(p), NULL)) {
		at(why, where);
		return ddbc_decimal_dynamodb(json_string_value(p), json_string_length(p), why);
	}
	if (t == DDBC_TYPE_SS || t == DDBC_TYPE_NS || t == DDBC_TYPE_BS)
		return check_set(p, t, where, why);
	if (t == DDBC_TYPE_M || t == DDBC_TYPE_L)
		return check_children(p, t, where, why);
	return true;
}

static bool check_typed(const json_t *v, const path *where, strbuf *why, ddbc_type *type,
			const json_t **payload)
{
	if (!json_is_object(v) || json_object_size(v) != 1) {
		at(why, where);
		ddbc_strbuf_addstr(why, "is not DynamoDB JSON: expected an object with one type tag "
			      "such as {\"S\": \"text\"}, found ");
		if (json_is_object(v))
			ddbc_strbuf_addf(why, "an object with %zu members", json_object_size(v));
		else
			ddbc_strbuf_addstr(why, ddbc_json_kind(v));
		return false;
	}
	void *it = json_object_iter((json_t *)v);
	const char *tag = json_object_iter_key(it);
	*type = tag_type(tag);
	*payload = json_object_iter_value(it);
	if (*type == DDBC_TYPE_NONE) {
		at(why, where);
		ddbc_strbuf_addf(why, "has the unknown type tag \"%.40s\"; DynamoDB JSON uses S, N, B, "
			    "BOOL, NULL, M, L, SS, NS and BS", tag);
		return false;
	}
	return payload_ok(*payload, *type, where, why);
}

/* A plain JSON value within DynamoDB's limits: its numbers, its depth. */
static bool check_plain(const json_t *v, const path *where, strbuf *why)
{
	size_t len;
	if (json_is_number(v) || ddbc_json_marked_number(v, &len)) {
		char buf[64];
		const char *text = ddbc_ival_scalar_text(v, true, buf, sizeof(buf), &len);
		if (ddbc_decimal_dynamodb(text, len, NULL))
			return true;
		at(why, where);
		return ddbc_decimal_dynamodb(text, len, why);
	}
	if (!json_is_object(v) && !json_is_array(v))
		return true;
	if (too_deep(where, why))
		return false;
	const char *key;
	const json_t *x;
	size_t i;
	json_object_foreach((json_t *)v, key, x) {
		path child = { where, key, 0 };
		if (!check_plain(x, &child, why))
			return false;
	}
	json_array_foreach(v, i, x) {
		path child = { where, NULL, i };
		if (!check_plain(x, &child, why))
			return false;
	}
	return true;
}

/* ---- one attribute ----------------------------------------------------------------------- */

bool ddbc_ival_make(ddbc_ival *out, const char *name, const json_t *v, bool dynamodb,
		    strbuf *why)
{
	out->name = name;
	out->text = NULL;
	out->len = 0;
	out->boolean = false;
	if (dynamodb) {
		path top = { NULL, name, 0 };
		if (!check_typed(v, &top, why, &out->type, &out->payload))
			return false;
	} else {
		path top = { NULL, name, 0 };
		out->type = plain_type(v);
		out->payload = v;
		if (!check_plain(v, &top, why))
			return false;
	}
	const json_t *p = out->payload;
	if (out->type == DDBC_TYPE_S || out->type == DDBC_TYPE_N || out->type == DDBC_TYPE_B)
		out->text = ddbc_ival_scalar_text(p, !dynamodb, out->num, sizeof(out->num),
						  &out->len);
	else if (out->type == DDBC_TYPE_BOOL)
		out->boolean = json_is_true(p);
	return true;
}
