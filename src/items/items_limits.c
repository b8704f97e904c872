/* items_limits.c - what DynamoDB refuses in an item, though JSON allows it
 *
 * DynamoDB's documented limits (Developer Guide, "Supported data types"
 * and "Quotas"): a Number has at most 38 significant digits, and a
 * non-zero one lies between 1E-130 and 9.9999999999999999999999999999999999999E+125
 * in magnitude; a set has at least one element and no two equal ones (two
 * numbers are equal by value: 1 and 1.0); a Map or List nests at most 32
 * levels deep. PutItem refuses an item past any of them, so check-items
 * does too. The number limits are util/decimal.h's, which lint holds a
 * design's examples to as well.
 */
#include "items/items_value.h"
#include "util/decimal.h"
#include "util/strbuf.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Numbers by value (1 and 1.0 are one), as DynamoDB tells set elements apart. */
static int by_number(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
	return ddbc_decimal_cmp(json_string_value(x), json_string_length(x), json_string_value(y),
				json_string_length(y));
}

static int by_string(const void *a, const void *b)
{
	const json_t *x = *(const json_t *const *)a, *y = *(const json_t *const *)b;
	size_t nx = json_string_length(x), ny = json_string_length(y);
	int c = memcmp(json_string_value(x), json_string_value(y), nx < ny ? nx : ny);
	return c ? c : nx < ny ? -1 : nx > ny;
}

/* Whether two elements of set are equal. */
static bool has_duplicate(const json_t *set, bool numbers)
{
	size_t n = json_array_size(set);
	bool dup = false;
	const json_t **v = calloc(n, sizeof(*v));
	if (!v)
		return false;
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(set, i);
	int (*cmp)(const void *, const void *) = numbers ? by_number : by_string;
	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 1; i < n && !dup; i++)
		dup = !cmp(&v[i - 1], &v[i]);
	free(v);
	return dup;
}

bool ddbc_items_set_ok(const json_t *set, ddbc_type t, strbuf *why)
{
	if (!json_array_size(set)) {
		if (why)
			ddbc_strbuf_addf(why, "is an empty %s; DynamoDB holds no empty set (leave the attribute "
			    "out)", ddbc_type_short(t));
		return false;
	}
	if (has_duplicate(set, t == DDBC_TYPE_NS)) {
		if (why)
			ddbc_strbuf_addf(why, "is a %s holding one element twice%s; a set's elements are "
			    "distinct", ddbc_type_short(t), t == DDBC_TYPE_NS ? " (by value)" : "");
		return false;
	}
	return true;
}

/* JSON text is scanned for its numbers where jansson cannot keep them
 * (an integer past 64 bits is decoded as a double, its digits lost). */
long ddbc_items_bad_number_at(const char *s, size_t len, strbuf *why)
{
	bool in_string = false;
	for (size_t i = 0; i < len; i++) {
		if (in_string) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				in_string = false;
			continue;
		}
		if (s[i] == '"') {
			in_string = true;
			continue;
		}
		if (s[i] != '-' && (s[i] < '0' || s[i] > '9'))
			continue;
		size_t start = i;
		while (i < len && (strchr("+-.eE", s[i]) || (s[i] >= '0' && s[i] <= '9')))
			i++;
		if (ddbc_decimal_valid(s + start, i - start) &&
		    !ddbc_decimal_dynamodb(s + start, i - start, NULL)) {
			size_t n = i - start;
			ddbc_strbuf_addf(why, "%.*s%s ", n > 24 ? 24 : (int)n, s + start,
				    n > 24 ? "..." : "");
			ddbc_decimal_dynamodb(s + start, n, why);
			return (long)start;
		}
		i--;
	}
	return -1;
}
