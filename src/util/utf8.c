/* utf8.c - encoding checks and character widths */
#include "util/utf8.h"

#include <stdint.h>
#include <string.h>

size_t ddbc_break_len(const char *p, const char *end)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t left = (size_t)(end - p);
	if (left == 0)
		return 0;
	if (u[0] == '\n')
		return 1;
	if (u[0] == '\r')
		return left > 1 && u[1] == '\n' ? 2 : 1;
	if (left > 1 && u[0] == 0xC2 && u[1] == 0x85)
		return 2;
	if (left > 2 && u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9))
		return 3;
	return 0;
}

size_t ddbc_utf8_decode(const unsigned char *p, const unsigned char *end, unsigned *cp)
{
	size_t left = (size_t)(end - p);
	unsigned c = p[0];
	size_t n;
	unsigned min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xE0) == 0xC0) {
		n = 2, min = 0x80, c &= 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		n = 3, min = 0x800, c &= 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		n = 4, min = 0x10000, c &= 0x07;
	} else {
		return 0;
	}
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (p[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

bool ddbc_utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	while (p < end) {
		unsigned cp;
		size_t n = *p < 0x80 ? 1 : ddbc_utf8_decode(p, end, &cp);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

/* YAML 1.1's printable set, as libyaml's reader enforces it. */
static int printable(unsigned c)
{
	return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0x7E) || c == 0x85 ||
	       (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) ||
	       (c >= 0x10000 && c <= 0x10FFFF);
}

static const char *check_at(const char *text, size_t len, ddbc_loc *where);

const char *ddbc_utf8_check(const char *text, size_t len, ddbc_loc *where)
{
	/* A first pass only says yes or no; the position of a problem is
	 * worked out (by check_at) only when there is one. */
	const unsigned char *p = (const unsigned char *)text, *end = p + len;
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	while (p < end) {
		/* Eight bytes at a time while they are all printable ASCII or
		 * line feeds: none has its high bit set, is below 0x20, or is
		 * 0x7F, once each line feed is read as '*' (0x0A | 0x20; a
		 * design has one every few dozen bytes). */
		uint64_t w;
		if (end - p >= 8) {
			memcpy(&w, p, 8);
			uint64_t lf = w ^ (0x0A * ones);
			uint64_t lf_bytes = ~(((lf & ~highs) + ~highs) | lf) & highs;
			w |= lf_bytes >> 2;
			uint64_t del = w ^ (0x7F * ones);
			if (!((w | ((w - 0x20 * ones) & ~w) | ((del - ones) & ~del)) & highs)) {
				p += 8;
				continue;
			}
		}
		/* Printable ASCII and the usual line ends, most of any design. */
		if ((*p >= 0x20 && *p < 0x7F) || *p == '\n' || *p == '\t' || *p == '\r') {
			p++;
			continue;
		}
		unsigned cp;
		size_t n = *p >= 0x80 ? ddbc_utf8_decode(p, end, &cp) : 0;
		if (n == 0 || !printable(cp))
			return check_at(text, len, where);
		p += n;
	}
	where->line = 1;
	where->column = 1;
	return NULL;
}

static const char *check_at(const char *text, size_t len, ddbc_loc *where)
{
	const unsigned char *p = (const unsigned char *)text, *end = p + len;
	where->line = 1;
	where->column = 1;
	while (p < end) {
		/* Printable ASCII, the bulk of any design, needs no decoding. */
		if (*p >= 0x20 && *p < 0x7F) {
			p++;
			where->column++;
			continue;
		}
		size_t br = ddbc_break_len((const char *)p, (const char *)end);
		if (br) {
			p += br;
			where->line++;
			where->column = 1;
			continue;
		}
		unsigned cp;
		size_t n = ddbc_utf8_decode(p, end, &cp);
		if (n == 0)
			return "invalid UTF-8 byte sequence";
		if (cp == 0)
			return "NUL byte in the input";
		if (!printable(cp))
			return "control character in the input";
		p += n;
		where->column++;
	}
	return NULL;
}

int ddbc_char_width(unsigned c)
{
	if (c == 0)
		return 0;
	/* Combining marks take no cell. */
	if ((c >= 0x300 && c <= 0x36F) || (c >= 0x200B && c <= 0x200F) || c == 0xFEFF)
		return 0;
	/* East Asian wide and fullwidth ranges. */
	if ((c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF && c != 0x303F) ||
	    (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
	    (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
	    (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
	    (c >= 0x1F900 && c <= 0x1F9FF) || (c >= 0x20000 && c <= 0x3FFFD))
		return 2;
	return 1;
}
