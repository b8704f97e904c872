/* items_limits.c - what DynamoDB refuses in an item, though JSON allows it
 *
 * DynamoDB's documented limits (Developer Guide, "Supported data types"
 * and "Quotas"): a Number has at most 38 significant digits, and a
 * non-zero one lies between 1E-130 and 9.9999999999999999999999999999999999999E+125
 * in magnitude; a set has at least one element and no two equal ones (two
 * numbers are equal by value: 1 and 1.0); a Map or List nests at most 32
 * levels deep. PutItem refuses an item past any of them, so check-items
 * does too.
 */
#include "items/items_value.h"
#include "util/strbuf.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A number as DynamoDB compares it: sign, significant digits (no leading
 * or trailing zeros) and the exponent of the first of them (d.ddd x 10^e). */
typedef struct {
	bool negative, zero;
	char digits[40];     /* the first 39 significant digits */
	size_t ndigits;      /* all of them */
	long long exp;
} dnumber;

/* Reads text (a number, ddbc_number_text says so) into n. */
static void read_number(const char *s, size_t len, dnumber *n)
{
	memset(n, 0, sizeof(*n));
	size_t i = 0;
	if (i < len && (s[i] == '-' || s[i] == '+'))
		n->negative = s[i++] == '-';
	long long point = 0;       /* digits before the point, from the first significant */
	bool seen = false, after_point = false;
	size_t zeros = 0;          /* zeros since the last non-zero significant digit */
	for (; i < len && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.'); i++) {
		if (s[i] == '.') {
			after_point = true;
			continue;
		}
		if (!seen && s[i] == '0') {
			if (after_point)
				point--;
			continue;
		}
		if (!seen)
			seen = true;
		if (!after_point)
			point++;
		if (s[i] == '0') {
			zeros++;
			continue;
		}
		for (; zeros; zeros--, n->ndigits++)
			if (n->ndigits < sizeof(n->digits) - 1)
				n->digits[n->ndigits] = '0';
		if (n->ndigits < sizeof(n->digits) - 1)
			n->digits[n->ndigits] = s[i];
		n->ndigits++;
	}
	long long e = 0;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		bool neg = i < len && s[i] == '-';
		if (i < len && (s[i] == '-' || s[i] == '+'))
			i++;
		/* Clamped: anything past a million is out of range either way. */
		for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 1000000)
				e = e * 10 + (s[i] - '0');
		e = neg ? -e : e;
	}
	n->zero = !seen;
	n->exp = point - 1 + e;
}

bool ddbc_items_number_ok(const char *text, size_t len, strbuf *why)
{
	dnumber n;
	read_number(text, len, &n);
	if (n.zero)
		return true;
	if (n.ndigits > 38) {
		if (why)
			strbuf_addf(why, "is a number of %zu significant digits; DynamoDB keeps at most 38",
			    n.ndigits);
		return false;
	}
	if (n.exp > 125 || n.exp < -130) {
		if (why)
			strbuf_addf(why, "is a number of magnitude 1E%lld; DynamoDB's numbers lie between "
			    "1E-130 and 9.9999999999999999999999999999999999999E+125", n.exp);
		return false;
	}
	return true;
}

static int by_number(const void *a, const void *b)
{
	const dnumber *x = a, *y = b;
	if (x->zero != y->zero)
		return x->zero ? -1 : 1;
	if (x->negative != y->negative)
		return x->negative ? -1 : 1;
	if (x->exp != y->exp)
		return x->exp < y->exp ? -1 : 1;
	return strcmp(x->digits, y->digits);
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
	if (numbers) {
		dnumber *v = calloc(n, sizeof(*v));
		if (!v)
			return false;
		for (size_t i = 0; i < n; i++) {
			const json_t *x = json_array_get(set, i);
			read_number(json_string_value(x), json_string_length(x), &v[i]);
		}
		qsort(v, n, sizeof(*v), by_number);
		for (size_t i = 1; i < n && !dup; i++)
			dup = !by_number(&v[i - 1], &v[i]);
		free(v);
	} else {
		const json_t **v = calloc(n, sizeof(*v));
		if (!v)
			return false;
		for (size_t i = 0; i < n; i++)
			v[i] = json_array_get(set, i);
		qsort(v, n, sizeof(*v), by_string);
		for (size_t i = 1; i < n && !dup; i++)
			dup = !by_string(&v[i - 1], &v[i]);
		free(v);
	}
	return dup;
}

bool ddbc_items_set_ok(const json_t *set, ddbc_type t, strbuf *why)
{
	if (!json_array_size(set)) {
		if (why)
			strbuf_addf(why, "is an empty %s; DynamoDB holds no empty set (leave the attribute "
			    "out)", ddbc_type_short(t));
		return false;
	}
	if (has_duplicate(set, t == DDBC_TYPE_NS)) {
		if (why)
			strbuf_addf(why, "is a %s holding one element twice%s; a set's elements are "
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
		if (!ddbc_items_number_ok(s + start, i - start, NULL)) {
			size_t n = i - start;
			strbuf_addf(why, "%.*s%s ", n > 24 ? 24 : (int)n, s + start,
				    n > 24 ? "..." : "");
			ddbc_items_number_ok(s + start, n, why);
			return (long)start;
		}
		i--;
	}
	return -1;
}
