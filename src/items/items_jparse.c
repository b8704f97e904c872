/* items_jparse.c - the common item read without jansson's lexer
 *
 * A recursive descent over the text; strings without escapes go to
 * jansson's constructors straight from the input, escaped ones are
 * decoded first into a buffer of the reader's. Every refusal is the same
 * NULL: the caller's jansson read says what is wrong, if anything.
 */
#include "items/items_jparse.h"
#include "util/strbuf.h"
#include "util/utf8.h"

#include <stdbool.h>
#include <string.h>

typedef struct jp {
	const unsigned char *p, *end;
	strbuf esc;              /* the decoded text of an escaped string */
	int depth;
} jp;

static void skip_ws(jp *J)
{
	while (J->p < J->end && (*J->p == ' ' || *J->p == '\n' || *J->p == '\r' || *J->p == '\t'))
		J->p++;
}

static int hex(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The 4 hex digits after "\u" at p, or -1. */
static long hex4(const unsigned char *p, const unsigned char *end)
{
	if (end - p < 4)
		return -1;
	long v = 0;
	for (int i = 0; i < 4; i++) {
		int d = hex(p[i]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static void add_utf8(strbuf *b, unsigned long cp)
{
	char u[4];
	size_t n;
	if (cp < 0x80) {
		u[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
	} else {
		u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
	}
	ddbc_strbuf_add(b, u, n);
}

/* The escape after a backslash at J->p (past the backslash), decoded onto
 * J->esc; false where jansson would refuse it (or might: \u0000). */
static bool unescape(jp *J)
{
	if (J->p == J->end)
		return false;
	unsigned char c = *J->p++;
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at = c ? strchr(from, c) : NULL;
	if (at) {
		ddbc_strbuf_addch(&J->esc, to[at - from]);
		return true;
	}
	if (c != 'u')
		return false;
	long cp = hex4(J->p, J->end);
	if (cp <= 0)
		return false;
	J->p += 4;
	if (cp >= 0xDC00 && cp <= 0xDFFF)
		return false;
	if (cp >= 0xD800 && cp <= 0xDBFF) {
		if (J->end - J->p < 6 || J->p[0] != '\\' || J->p[1] != 'u')
			return false;
		long lo = hex4(J->p + 2, J->end);
		if (lo < 0xDC00 || lo > 0xDFFF)
			return false;
		J->p += 6;
		cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
	}
	add_utf8(&J->esc, (unsigned long)cp);
	return true;
}

/* The string whose opening quote is at J->p: *s and *len are its text,
 * in the input or in J->esc. */
static bool string(jp *J, const char **s, size_t *len)
{
	const unsigned char *start = ++J->p;
	bool escaped = false;
	while (J->p < J->end) {
		unsigned char c = *J->p;
		if (c == '"') {
			if (escaped) {
				*s = J->esc.buf;
				*len = J->esc.len;
			} else {
				*s = (const char *)start;
				*len = (size_t)(J->p - start);
			}
			J->p++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c == '\\') {
			if (!escaped) {
				ddbc_strbuf_reset(&J->esc);
				ddbc_strbuf_add(&J->esc, (const char *)start, (size_t)(J->p - start));
				escaped = true;
			}
			J->p++;
			if (!unescape(J))
				return false;
			continue;
		}
		size_t n = 1;
		unsigned cp;
		if (c >= 0x80 && !(n = ddbc_utf8_decode(J->p, J->end, &cp)))
			return false;
		if (escaped)
			ddbc_strbuf_add(&J->esc, (const char *)J->p, n);
		J->p += n;
	}
	return false;
}

static bool literal(jp *J, const char *word, size_t n)
{
	if ((size_t)(J->end - J->p) < n || memcmp(J->p, word, n))
		return false;
	J->p += n;
	return true;
}

static json_t *value(jp *J);

/* Past an opening bracket: whether close follows at once (then consumed). */
static bool opens_empty(jp *J, char close)
{
	J->p++;
	skip_ws(J);
	if (J->p < J->end && *J->p == close) {
		J->p++;
		return true;
	}
	return false;
}

/* After a member or element: 1 past a ',' (another follows), 0 past close
 * (the last), -1 at anything else. */
static int after_item(jp *J, char close)
{
	skip_ws(J);
	if (J->p == J->end || (*J->p != ',' && *J->p != close))
		return -1;
	return *J->p++ == ',';
}

static json_t *object(jp *J)
{
	json_t *obj = json_object();
	if (opens_empty(J, '}'))
		return obj;
	int more;
	do {
		const char *k;
		size_t klen;
		char kbuf[256];
		skip_ws(J);
		if (J->p == J->end || *J->p != '"' || !string(J, &k, &klen))
			break;
		if (k == J->esc.buf) {
			/* the value may need the buffer: the key is kept here */
			if (klen > sizeof(kbuf) || memchr(k, '\0', klen))
				break;
			memcpy(kbuf, k, klen);
			k = kbuf;
		}
		if (json_object_getn(obj, k, klen))
			break;
		skip_ws(J);
		if (J->p == J->end || *J->p != ':')
			break;
		J->p++;
		json_t *v = value(J);
		if (!v || json_object_setn_new_nocheck(obj, k, klen, v) < 0)
			break;
		if ((more = after_item(J, '}')) == 0)
			return obj;
	} while (more > 0);
	json_decref(obj);
	return NULL;
}

static json_t *array(jp *J)
{
	json_t *arr = json_array();
	if (opens_empty(J, ']'))
		return arr;
	int more;
	do {
		json_t *v = value(J);
		if (!v || json_array_append_new(arr, v) < 0)
			break;
		if ((more = after_item(J, ']')) == 0)
			return arr;
	} while (more > 0);
	json_decref(arr);
	return NULL;
}

/* The value at J->p (whitespace before it skipped), or NULL. */
static json_t *value(jp *J)
{
	skip_ws(J);
	if (J->p == J->end)
		return NULL;
	const char *s;
	size_t len;
	json_t *v = NULL;
	switch (*J->p) {
	case '{':
	case '[':
		if (++J->depth > DDBC_JPARSE_MAX_DEPTH)
			return NULL;
		v = *J->p == '{' ? object(J) : array(J);
		J->depth--;
		return v;
	case '"':
		return string(J, &s, &len) ? json_stringn_nocheck(s, len) : NULL;
	case 't':
		return literal(J, "true", 4) ? json_true() : NULL;
	case 'f':
		return literal(J, "false", 5) ? json_false() : NULL;
	case 'n':
		return literal(J, "null", 4) ? json_null() : NULL;
	default:
		return NULL;     /* a number, or no value: jansson's to read */
	}
}

json_t *ddbc_items_jparse(const char *s, size_t len)
{
	jp J = { (const unsigned char *)s, (const unsigned char *)s + len, STRBUF_INIT, 0 };
	json_t *v = value(&J);
	skip_ws(&J);
	if (v && J.p != J.end) {
		json_decref(v);
		v = NULL;
	}
	ddbc_strbuf_release(&J.esc);
	return v;
}
