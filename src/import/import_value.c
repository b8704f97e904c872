/* import_value.c - DynamoDB JSON values and key templates from samples
 *
 * Sources that give items (Workbench's TableData) give them in DynamoDB
 * JSON; designs hold plain values. Sources that give no key templates give
 * sample keys: a template is recovered only where every sample agrees.
 */
#include "import/import_int.h"
#include "util/decimal.h"
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
	fprintf(stderr, "ddbc import: %s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

void ddbc_import_set_comment(json_t *obj, const char *name, const char *fmt, ...)
{
	strbuf key = STRBUF_INIT, text = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	strbuf_addf(&key, "%s#", name);
	json_object_set_new(obj, strbuf_str(&key), json_string(strbuf_str(&text)));
	strbuf_release(&key);
	strbuf_release(&text);
}

/* The member a number object holds its text under: no source key starts
 * with a control character. */
#define NUMBER_KEY "\x01N"

json_t *ddbc_import_number(const char *text)
{
	return json_pack("{ss}", NUMBER_KEY, text);
}

const char *ddbc_import_number_text(const json_t *v)
{
	if (!json_is_object(v) || json_object_size(v) != 1)
		return NULL;
	return json_string_value(json_object_get(v, NUMBER_KEY));
}

/* A DynamoDB number: an integer when it fits one exactly, else its own
 * text (never a double: 141.96 stays 141.96, 38 digits stay 38); NULL
 * when n is no number. */
static json_t *plain_number(const char *n)
{
	if (!ddbc_decimal_valid(n, strlen(n)))
		return NULL;
	char *end;
	errno = 0;
	long long i = strtoll(n, &end, 10);
	if (!*end && !errno && *n && n[0] != '+' && !(n[0] == '0' && n[1]) &&
	    !(n[0] == '-' && n[1] == '0'))
		return json_integer(i);
	return ddbc_import_number(n);
}

static json_t *plain_list(const json_t *a, bool numbers)
{
	json_t *out = json_array();
	size_t i;
	const json_t *v;
	json_array_foreach(a, i, v) {
		json_t *p = numbers && json_is_string(v) ? plain_number(json_string_value(v))
			  : numbers ? NULL
			  : json_is_string(v) ? json_incref((json_t *)v)
			  : ddbc_import_plain_value(v);
		if (!p) {
			json_decref(out);
			return NULL;
		}
		json_array_append_new(out, p);
	}
	return out;
}

json_t *ddbc_import_plain_value(const json_t *av)
{
	if (!json_is_object(av) || json_object_size(av) != 1)
		return NULL;
	const char *t = json_object_iter_key(json_object_iter((json_t *)av));
	const json_t *v = json_object_get(av, t);
	if ((!strcmp(t, "S") || !strcmp(t, "B")) && json_is_string(v))
		return json_incref((json_t *)v);
	if (!strcmp(t, "N") && json_is_string(v))
		return plain_number(json_string_value(v));
	if (!strcmp(t, "BOOL") && json_is_boolean(v))
		return json_incref((json_t *)v);
	if (!strcmp(t, "NULL"))
		return json_null();
	if (!strcmp(t, "M") && json_is_object(v))
		return ddbc_import_plain_item(v);
	if (json_is_array(v) && (!strcmp(t, "SS") || !strcmp(t, "BS")))
		return plain_list(v, false);
	if (json_is_array(v) && !strcmp(t, "NS"))
		return plain_list(v, true);
	if (json_is_array(v) && !strcmp(t, "L")) {
		json_t *out = json_array();
		size_t i;
		const json_t *e;
		json_array_foreach(v, i, e) {
			json_t *p = ddbc_import_plain_value(e);
			if (!p) {
				json_decref(out);
				return NULL;
			}
			json_array_append_new(out, p);
		}
		return out;
	}
	return NULL;
}

json_t *ddbc_import_plain_item(const json_t *item)
{
	if (!json_is_object(item))
		return NULL;
	json_t *out = json_object();
	const char *k;
	const json_t *v;
	json_object_foreach((json_t *)item, k, v) {
		json_t *p = ddbc_import_plain_value(v);
		if (!p) {
			json_decref(out);
			return NULL;
		}
		json_object_set_new(out, k, p);
	}
	return out;
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
