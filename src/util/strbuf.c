/* strbuf.c - growable byte buffer */
#define _GNU_SOURCE 1  /* strchrnul */
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

/* Inline and testing the room first: the documentation adds tens of
 * millions of short pieces, and nearly all fit. */
static inline void reserve(strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need < extra)
		ddbc_xalloc_die();
	if (need > sb->cap)
		ddbc_xgrow((void **)&sb->buf, &sb->cap, need, 1);
}

/* Copies n bytes to d, which does not overlap s. Most pieces are a few
 * bytes (a name, a comma): those take two loads and two stores of fixed
 * size (copies that overlap each other in d, not a call to memcpy). */
static inline void copy(char *d, const char *s, size_t n)
{
	if (n > 16) {
		memcpy(d, s, n);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

void ddbc_strbuf_add(strbuf *sb, const void *data, size_t len)
{
	reserve(sb, len);
	copy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void ddbc_strbuf_addstr(strbuf *sb, const char *s)
{
	ddbc_strbuf_add(sb, s, strlen(s));
}

void ddbc_strbuf_addch(strbuf *sb, char c)
{
	reserve(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

/* ---- the formats ddbc_strbuf_vaddf writes itself ------------------------------------------ */

/* Most formats of the emitters are strings and integers (the header's
 * 600,000 pieces): vsnprintf spends some 500 instructions a call setting
 * up, more than the piece takes. These conversions, without flags or
 * width, are written as vsnprintf writes them: %s %.*s %c %d %u %ld %lu
 * %lld %llu %zd %zu %%. The format is read once, its text copied a run at
 * a time up to each '%': reading it first to see whether it has only
 * those, then again to write it, cost as much as the writing. */

/* Appends n bytes; the caller writes the terminating NUL at its end. */
static inline void put(strbuf *sb, const char *s, size_t n)
{
	reserve(sb, n);
	copy(sb->buf + sb->len, s, n);
	sb->len += n;
}

static void add_unsigned(strbuf *sb, unsigned long long v, bool minus)
{
	char digits[24];
	size_t n = sizeof digits;
	do
		digits[--n] = (char)('0' + v % 10);
	while (v /= 10);
	if (minus)
		digits[--n] = '-';
	put(sb, digits + n, sizeof digits - n);
}

static void add_signed(strbuf *sb, long long v)
{
	/* The magnitude of LLONG_MIN does not fit a long long. */
	add_unsigned(sb, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0);
}

static void add_string(strbuf *sb, const char *s)
{
	if (!s)
		s = "(null)";
	put(sb, s, strlen(s));
}

/* %.*s, past its '%'. */
static void add_precise(strbuf *sb, va_list *ap)
{
	int prec = va_arg(*ap, int);
	const char *s = va_arg(*ap, const char *);
	/* glibc's: no "(null)" cut short. */
	if (!s)
		s = prec < 0 || prec >= 6 ? "(null)" : "";
	/* A negative precision is taken as none. */
	put(sb, s, prec < 0 ? strlen(s) : strnlen(s, (size_t)prec));
}

/* %l or %ll followed by d or u, at p (past its '%'); NULL for any other. */
static const char *add_long(strbuf *sb, const char *p, va_list *ap)
{
	bool ll = p[1] == 'l';
	const char *conv = p + (ll ? 2 : 1);
	if (*conv == 'd')
		add_signed(sb, ll ? va_arg(*ap, long long) : va_arg(*ap, long));
	else if (*conv == 'u')
		add_unsigned(sb, ll ? va_arg(*ap, unsigned long long) : va_arg(*ap, unsigned long),
			     false);
	else
		return NULL;
	return conv + 1;
}

/* One conversion at p (past its '%'); returns the byte after it, or NULL
 * (nothing taken from ap) for one that is not written here. */
static const char *add_conversion(strbuf *sb, const char *p, va_list *ap)
{
	switch (*p) {
	case 's': add_string(sb, va_arg(*ap, const char *)); return p + 1;
	case 'd': add_signed(sb, va_arg(*ap, int)); return p + 1;
	case 'u': add_unsigned(sb, va_arg(*ap, unsigned), false); return p + 1;
	case 'c': {
		char c = (char)va_arg(*ap, int);
		put(sb, &c, 1);
		return p + 1;
	}
	case '%': put(sb, "%", 1); return p + 1;
	case '.':
		if (p[1] != '*' || p[2] != 's')
			return NULL;
		add_precise(sb, ap);
		return p + 3;
	case 'z':
		if (p[1] == 'd')
			add_signed(sb, (long long)va_arg(*ap, ssize_t));
		else if (p[1] == 'u')
			add_unsigned(sb, va_arg(*ap, size_t), false);
		else
			return NULL;
		return p + 2;
	case 'l': return add_long(sb, p, ap);
	default: return NULL;
	}
}

/* Writes fmt when every conversion in it is one of those above; false,
 * with sb as it was, at the first that is not (ap is then spent: the
 * caller passes a copy). */
static bool add_plain(strbuf *sb, const char *fmt, va_list *ap)
{
	size_t start = sb->len;
	for (;;) {
		const char *pct = strchrnul(fmt, '%');
		put(sb, fmt, (size_t)(pct - fmt));
		if (!*pct)
			break;
		fmt = add_conversion(sb, pct + 1, ap);
		if (!fmt) {
			sb->len = start;
			sb->buf[start] = '\0';
			return false;
		}
	}
	sb->buf[sb->len] = '\0';
	return true;
}

/* Formats into the room the buffer has, and only when the text does not
 * fit grows it and formats again: a buffer reused for many short pieces
 * formats each once, not once to measure and once to write. */
void ddbc_strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap)
{
	/* A fresh buffer (a diagnostic's message) would otherwise grow a
	 * piece at a time, three reallocations for a sentence: room for the
	 * format and its arguments' usual length grows it once. */
	if (!sb->cap)
		reserve(sb, strlen(fmt) + 64);
	va_list cp;
	va_copy(cp, ap);
	bool done = add_plain(sb, fmt, &cp);
	va_end(cp);
	if (done)
		return;
	/* Room for a short piece first, so that a new buffer grows once. */
	reserve(sb, 64);
	size_t room = sb->cap - sb->len;
	va_copy(cp, ap);
	int n = vsnprintf(sb->buf + sb->len, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		reserve(sb, (size_t)n);
		vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void ddbc_strbuf_addf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void ddbc_strbuf_reset(strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *ddbc_strbuf_detach(strbuf *sb)
{
	char *p = sb->buf ? sb->buf : ddbc_xstrdup("");
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p;
}

void ddbc_strbuf_release(strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

const char *ddbc_strbuf_str(const strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
