/* decimal.h - DynamoDB numbers as the exact decimals they are
 *
 * A DynamoDB Number holds up to 38 significant digits; a double holds 17,
 * so no number may pass through one. Numbers stay the text they were
 * written as; these functions compare them and write them in the forms
 * JSON and DynamoDB accept, digit for digit.
 */
#ifndef DDBC_DECIMAL_H
#define DDBC_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf;

/* Whether the len bytes of s are a decimal number: an optional sign,
 * digits with at most one '.', an optional exponent (e/E, sign, digits). */
bool ddbc_decimal_valid(const char *s, size_t len);

/* Compares two decimal numbers by value (1, 1.0 and 1e0 are equal):
 * <0, 0 or >0. A text that is no number compares by its bytes after every
 * number, so the order stays total. */
int ddbc_decimal_cmp(const char *a, size_t alen, const char *b, size_t blen);

/* The significant digits of decimal s: whether it is negative, how many
 * there are (none for a zero) and the power of ten of the first (123.4:
 * 4 digits, power 2; 0.05: 1 digit, power -2). False when s is no number. */
bool ddbc_decimal_digits(const char *s, size_t len, bool *neg, size_t *ndigits, long *power);

/* Whether decimal s is a number DynamoDB holds (Developer Guide,
 * "Supported data types"): at most 38 significant digits, and zero or of
 * a magnitude between 1E-130 and 9.9999999999999999999999999999999999999E+125.
 * When not, why (unless NULL) receives the reason, as words that follow a
 * name: "is a number of 39 significant digits; DynamoDB keeps at most 38". */
bool ddbc_decimal_dynamodb(const char *s, size_t len, struct strbuf *why);

/* Appends decimal s as JSON writes a number: no '+', a digit on each side
 * of a '.', no leading zeros; the digits and exponent kept as written
 * ("1e2" stays "1e2", "141.96" stays "141.96", ".5" becomes "0.5"). */
void ddbc_decimal_json(struct strbuf *out, const char *s, size_t len);

#endif
