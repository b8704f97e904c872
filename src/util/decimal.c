/* decimal.c - exact comparison and JSON spelling of decimal numbers
 *
 * A number is read as sign, significant digits and the decimal exponent
 * of its first significant digit; two numbers compare by sign, then
 * exponent, then digits. No arithmetic, so no digit is ever lost.
 */
#include "util/decimal.h"
#include "util/strbuf.h"

#include <limits.h>
#include <string.h>

typedef struct {
	int sign;             /* -1, 0 (the number is zero) or 1 */
	const char *digits;   /* the significant digits, '.' possibly among them */
	const char *end;
	long exp;             /* decimal exponent of the first significant digit */
} decimal;

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool ddbc_decimal_valid(const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	if (p < end && (*p == '+' || *p == '-'))
		p++;
	size_t digits = 0;
	bool dot = false;
	for (; p < end && (is_digit(*p) || (*p == '.' && !dot)); p++) {
		if (*p == '.')
			dot = true;
		else
			digits++;
	}
	if (!digits)
		return false;
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p == end)
			return false;
		while (p < end && is_digit(*p))
			p++;
	}
	return p == end;
}

/* The exponent part after e/E, saturated far beyond any number's range. */
static long exponent(const char *p, const char *end)
{
	int sign = 1;
	if (p < end && (*p == '+' || *p == '-'))
		sign = *p++ == '-' ? -1 : 1;
	long e = 0;
	for (; p < end; p++)
		if (e < LONG_MAX / 20)
			e = e * 10 + (*p - '0');
	return sign * e;
}

static void parse(const char *s, size_t len, decimal *d)
{
	const char *p = s, *end = s + len;
	d->sign = 1;
	if (*p == '+' || *p == '-')
		d->sign = *p++ == '-' ? -1 : 1;
	const char *mant_end = p;
	while (mant_end < end && *mant_end != 'e' && *mant_end != 'E')
		mant_end++;
	long e = mant_end < end ? exponent(mant_end + 1, end) : 0;
	/* Position of the '.', or the mantissa's end: digits before it count up. */
	const char *dot = memchr(p, '.', (size_t)(mant_end - p));
	long int_digits = (long)((dot ? dot : mant_end) - p);
	const char *first = p;
	long lead = 0;  /* zeros (not counting the '.') before the first significant digit */
	while (first < mant_end && (*first == '0' || *first == '.')) {
		if (*first == '0')
			lead++;
		first++;
	}
	const char *last = mant_end;
	while (last > first && (last[-1] == '0' || last[-1] == '.'))
		last--;
	if (first == last) {
		d->sign = 0;
		d->digits = d->end = first;
		d->exp = 0;
		return;
	}
	d->digits = first;
	d->end = last;
	d->exp = e + int_digits - lead - 1;
}

/* The next significant digit at *p (skipping '.'), or 0 past the end. */
static char next_digit(const char **p, const char *end)
{
	while (*p < end && **p == '.')
		(*p)++;
	return *p < end ? *(*p)++ : 0;
}

static int compare_magnitude(const decimal *x, const decimal *y)
{
	if (x->exp != y->exp)
		return x->exp < y->exp ? -1 : 1;
	const char *a = x->digits, *b = y->digits;
	for (;;) {
		char ca = next_digit(&a, x->end), cb = next_digit(&b, y->end);
		if (!ca || !cb || ca != cb)
			return (ca > cb) - (ca < cb);
	}
}

int ddbc_decimal_cmp(const char *a, size_t alen, const char *b, size_t blen)
{
	bool va = ddbc_decimal_valid(a, alen), vb = ddbc_decimal_valid(b, blen);
	if (!va || !vb) {
		if (va != vb)
			return va ? -1 : 1;
		size_t n = alen < blen ? alen : blen;
		int c = memcmp(a, b, n);
		return c ? c : (alen > blen) - (alen < blen);
	}
	decimal x, y;
	parse(a, alen, &x);
	parse(b, blen, &y);
	if (x.sign != y.sign)
		return x.sign < y.sign ? -1 : 1;
	if (!x.sign)
		return 0;
	int c = compare_magnitude(&x, &y);
	return x.sign < 0 ? -c : c;
}

bool ddbc_decimal_digits(const char *s, size_t len, bool *neg, size_t *ndigits, long *power)
{
	if (!ddbc_decimal_valid(s, len))
		return false;
	decimal d;
	parse(s, len, &d);
	*neg = d.sign < 0;
	*ndigits = 0;
	for (const char *p = d.digits; p < d.end; p++)
		*ndigits += *p != '.';
	*power = d.sign ? d.exp : 0;
	return true;
}

bool ddbc_decimal_dynamodb(const char *s, size_t len, strbuf *why)
{
	bool neg;
	size_t n;
	long power;
	if (!ddbc_decimal_digits(s, len, &neg, &n, &power)) {
		if (why)
			ddbc_strbuf_addstr(why, "is no decimal number");
		return false;
	}
	if (n > 38) {
		if (why)
			ddbc_strbuf_addf(why, "is a number of %zu significant digits; DynamoDB keeps at "
				    "most 38", n);
		return false;
	}
	if (n && (power > 125 || power < -130)) {
		if (why)
			ddbc_strbuf_addf(why, "is a number of magnitude 1E%ld; DynamoDB's numbers lie "
				    "between 1E-130 and 9.9999999999999999999999999999999999999E+125",
				    power);
		return false;
	}
	return true;
}

void ddbc_decimal_json(strbuf *out, const char *s, size_t len)
{
	const char *p = s, *end = s + len;
	if (p < end && *p == '+')
		p++;
	else if (p < end && *p == '-')
		ddbc_strbuf_addch(out, *p++);
	/* Leading zeros of the integer part, all but the last before '.'. */
	while (end - p > 1 && p[0] == '0' && is_digit(p[1]))
		p++;
	if (p < end && *p == '.')
		ddbc_strbuf_addch(out, '0');
	for (; p < end; p++) {
		ddbc_strbuf_addch(out, *p);
		/* "5." and "5.e3": a '.' with no digit after it is dropped. */
		if (*p == '.' && (p + 1 == end || !is_digit(p[1])))
			out->len--, out->buf[out->len] = '\0';
	}
}
