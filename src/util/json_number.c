/* json_number.c - JSON text whose numbers keep their digits
 *
 * JSON writes numbers bare ({"price": 141.96}), and jansson reads a bare
 * number into a double: 17 digits of the 38 a DynamoDB Number holds, and
 * 141.96 read back as 141.96000000000001. So before jansson reads the
 * text, each number token is rewritten into a string that holds
 * the mark (MARK below) and the token as written, and the readers take
 * such a string for the number. A string value that itself
 * begins with the mark gets it twice, so that no string is ever taken for
 * a number: a value with the mark once is a number, with it twice a
 * string. Plain items (items/) and the JSON sources of import/ read
 * their text through here, and the writers (emit/) make their exact
 * numbers here and undo the marks in what jansson wrote.
 *
 * The mark is this file's own: every other file asks the functions of
 * json_number.h (tests/layers.test checks that no other source names it).
 */
#include "util/json_number.h"
#include "util/decimal.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

/* Two control bytes no text a person writes begins with. */
#define MARK "\x01\x02"
#define MARK_LEN 2

/* The mark as a JSON string spells it (the bytes are control characters,
 * which JSON writes only escaped, and "0001" has no hex letters to vary). */
#define MARK_ESCAPED "\\u0001\\u0002"
#define MARK_ESCAPED_LEN (sizeof(MARK_ESCAPED) - 1)

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The scan's byte classes: the bytes of a bare token (a number, true,
 * false, null: digits, letters, '.', '+', '-'), a string's quote, and
 * inside a string the bytes it stops at. Every other byte costs one
 * look-up: the scan passes over every byte of the text, and a model's
 * text is mostly indentation, names and short strings. */
enum { TOKEN = 1, QUOTE = 2, IN_STOP = 4 };
static const unsigned char byte_class[256] = {
	['0' ... '9'] = TOKEN, ['a' ... 'z'] = TOKEN, ['A' ... 'Z'] = TOKEN,
	['.'] = TOKEN, ['+'] = TOKEN, ['-'] = TOKEN,
	['"'] = QUOTE | IN_STOP, ['\\'] = IN_STOP,
};

/* Whether the n bytes at s are one JSON number as RFC 8259 writes it:
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?. Other tokens ("01",
 * ".5", "1.") are left for jansson to refuse. */
static bool json_number(const char *s, size_t n)
{
	size_t i = 0;
	if (i < n && s[i] == '-')
		i++;
	if (i >= n || !is_digit(s[i]))
		return false;
	if (s[i] == '0')
		i++;
	else
		while (i < n && is_digit(s[i]))
			i++;
	if (i < n && s[i] == '.') {
		if (++i >= n || !is_digit(s[i]))
			return false;
		while (i < n && is_digit(s[i]))
			i++;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		if (++i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i >= n || !is_digit(s[i]))
			return false;
		while (i < n && is_digit(s[i]))
			i++;
	}
	return i == n;
}

/* The end of the string whose opening quote is at s[i] (the index of its
 * closing quote), or len when the text ends inside it. */
static size_t string_end(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		while (i < len && !(byte_class[(unsigned char)s[i]] & IN_STOP))
			i++;
		if (i >= len || s[i] == '"')
			break;
		i++;   /* the byte a backslash escapes */
	}
	return i < len ? i : len;
}

/* Whether the string ending at s[end] is a member name: a ':' follows it. */
static bool is_name(const char *s, size_t len, size_t end)
{
	size_t i = end + 1;
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
		i++;
	return i < len && s[i] == ':';
}

/* Copies text[*done, upto) to out, then add; the first change starts out. */
static void splice(strbuf *out, const char *s, size_t *done, size_t upto, const char *add,
		   size_t addlen)
{
	ddbc_strbuf_add(out, s + *done, upto - *done);
	ddbc_strbuf_add(out, add, addlen);
	*done = upto;
}

/* Whether the n bytes of JSON number s are an integer jansson holds
 * exactly: at most 18 digits (below 2^63), and not -0. */
static bool exact_integer(const char *s, size_t n)
{
	size_t i = s[0] == '-';
	if (n - i > 18 || (i && s[i] == '0'))
		return false;
	for (; i < n; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

bool ddbc_json_mark_numbers_how(const char *s, size_t len, strbuf *out, unsigned how)
{
	size_t done = 0;
	bool changed = false;
	ddbc_strbuf_reset(out);
	for (size_t i = 0; i < len; i++) {
		while (i < len && !(byte_class[(unsigned char)s[i]] & (TOKEN | QUOTE)))
			i++;
		if (i >= len)
			break;
		if (s[i] == '"') {
			size_t end = string_end(s, len, i);
			if (end < len && end - i - 1 >= MARK_ESCAPED_LEN &&
			    !memcmp(s + i + 1, MARK_ESCAPED, MARK_ESCAPED_LEN) &&
			    ((how & DDBC_JSON_MARK_NAMES) || !is_name(s, len, end))) {
				splice(out, s, &done, i + 1, MARK_ESCAPED, MARK_ESCAPED_LEN);
				changed = true;
			}
			i = end;
			continue;
		}
		size_t n = 1;
		while (i + n < len && (byte_class[(unsigned char)s[i + n]] & TOKEN))
			n++;
		/* Only a token that begins as a number can be one (true, null: no). */
		if ((s[i] == '-' || is_digit(s[i])) && json_number(s + i, n) &&
		    !((how & DDBC_JSON_KEEP_INTEGERS) && exact_integer(s + i, n))) {
			splice(out, s, &done, i, "\"" MARK_ESCAPED, 1 + MARK_ESCAPED_LEN);
			ddbc_strbuf_add(out, s + i, n);
			ddbc_strbuf_addch(out, '"');
			done = i + n;
			changed = true;
		}
		i += n - 1;
	}
	if (changed)
		ddbc_strbuf_add(out, s + done, len - done);
	return changed;
}

bool ddbc_json_mark_numbers(const char *s, size_t len, strbuf *out)
{
	return ddbc_json_mark_numbers_how(s, len, out, 0);
}

const char *ddbc_json_marked_number(const json_t *v, size_t *len)
{
	/* Asked of every value the readers and writers meet: one call, and
	 * two bytes looked at, for a value that is no marked number (s is
	 * NUL-terminated, so s[1] is there when s[0] is the mark's). */
	const char *s = json_string_value(v);
	if (!s || s[0] != MARK[0] || s[1] != MARK[1])
		return NULL;
	if (json_string_length(v) <= MARK_LEN ||
	    !memcmp(s + MARK_LEN, MARK, MARK_LEN))
		return NULL;
	*len = json_string_length(v) - MARK_LEN;
	return s + MARK_LEN;
}

const char *ddbc_json_marked_string(const json_t *v, size_t *len)
{
	if (!json_is_string(v))
		return NULL;
	const char *s = json_string_value(v);
	size_t n = json_string_length(v);
	if (n < MARK_LEN || memcmp(s, MARK, MARK_LEN)) {
		*len = n;
		return s;
	}
	/* Marked once: a number; twice: a string that began with the mark. */
	if (n < 2 * MARK_LEN ||
	    memcmp(s + MARK_LEN, MARK, MARK_LEN))
		return NULL;
	*len = n - MARK_LEN;
	return s + MARK_LEN;
}

/* ---- values made for the writers ------------------------------------------------------ */

static bool begins_marked(const char *s, size_t len)
{
	return len >= MARK_LEN && !memcmp(s, MARK, MARK_LEN);
}

/* The len bytes of s behind the mark, as a JSON string (NULL when check
 * finds them no UTF-8). A number's text is short: it goes on the stack. */
static json_t *behind_mark(const char *s, size_t len, bool check)
{
	char small[64];
	char *b = len <= sizeof(small) - MARK_LEN ? small : ddbc_xmalloc(len + MARK_LEN);
	memcpy(b, MARK, MARK_LEN);
	if (len)
		memcpy(b + MARK_LEN, s, len);
	json_t *v = check ? json_stringn(b, len + MARK_LEN)
			  : json_stringn_nocheck(b, len + MARK_LEN);
	if (b != small)
		free(b);
	return v;
}

json_t *ddbc_json_number_new(const char *text, size_t len)
{
	return behind_mark(text, len, true);
}

json_t *ddbc_json_string_new(const char *s, size_t len)
{
	return begins_marked(s, len) ? behind_mark(s, len, true) : json_stringn(s, len);
}

json_t *ddbc_json_string_new_nocheck(const char *s, size_t len)
{
	return begins_marked(s, len) ? behind_mark(s, len, false) : json_stringn_nocheck(s, len);
}

const char *ddbc_json_source_text(const char *s)
{
	return !strncmp(s, MARK MARK, 2 * MARK_LEN) ? s + MARK_LEN : s;
}

/* ---- jansson's output unmarked -------------------------------------------------------- */

/* A marked string as jansson writes it: its quote, then the escaped mark. */
#define DUMPED_MARK "\"" MARK_ESCAPED
#define DUMPED_MARK_LEN (sizeof(DUMPED_MARK) - 1)

size_t ddbc_json_unmark(char *text, size_t n)
{
	const size_t ml = DUMPED_MARK_LEN;
	size_t r = 0, w = 0;
	while (r < n) {
		if (text[r] == '"' && n - r >= ml && !memcmp(text + r, DUMPED_MARK, ml)) {
			/* The mark twice: a string that starts with the mark once. */
			if (n - r - ml >= ml - 1 && !memcmp(text + r + ml, &DUMPED_MARK[1], ml - 1)) {
				text[w++] = '"';
				r += ml;
				continue;
			}
			/* A number's text holds no quote or backslash: it ends at the
			 * quote. Anything else behind one mark (a string made without
			 * ddbc_json_string_new) stays the string it is. */
			const char *q = memchr(text + r + ml, '"', n - r - ml);
			size_t len = q ? (size_t)(q - (text + r + ml)) : 0;
			if (q && ddbc_decimal_valid(text + r + ml, len)) {
				memmove(text + w, text + r + ml, len);
				w += len;
				r += ml + len + 1;
				continue;
			}
		}
		text[w++] = text[r++];
	}
	return w;
}
