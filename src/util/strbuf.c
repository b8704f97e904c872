/* strbuf.c - growable byte buffer */
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

void ddbc_strbuf_add(strbuf *sb, const void *data, size_t len)
{
	reserve(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
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
 * %lld %llu %zd %zu %%. Whether fmt has only those. */
static bool plain_format(const char *fmt)
{
	for (const char *p = fmt; (p = strchr(p, '%')) != NULL;) {
		p++;
		if (p[0] == '.' && p[1] == '*' && p[2] == 's')
			p += 2;
		else if (p[0] == 'z' || (p[0] == 'l' && p[1] != 'l'))
			p++;
		else if (p[0] == 'l')
			p += 2;
		if (*p != 's' && *p != 'c' && *p != '%' && *p != 'd' && *p != 'u')
			return false;
		/* %zs, %lc, %.*d and the like are not plain. */
		if ((*p == 's' || *p == 'c' || *p == '%') && p[-1] != '%' &&
		    !(*p == 's' && p[-1] == '*'))
			return false;
		p++;
	}
	return true;
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
	ddbc_strbuf_add(sb, digits + n, sizeof digits - n);
}

static void add_signed(strbuf *sb, long long v)
{
	/* The magnitude of LLONG_MIN does not fit a long long. */
	add_unsigned(sb, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, v < 0);
}

/* One conversion at p (past its '%'); returns the byte after it. */
static const char *add_conversion(strbuf *sb, const char *p, va_list *ap)
{
	if (p[0] == '.') {
		int prec = va_arg(*ap, int);
		const char *s = va_arg(*ap, const char *);
		/* glibc's: no "(null)" cut short. */
		if (!s)
			s = prec < 0 || prec >= 6 ? "(null)" : "";
		/* A negative precision is taken as none. */
		ddbc_strbuf_add(sb, s, prec < 0 ? strlen(s) : strnlen(s, (size_t)prec));
		return p + 3;
	}
	switch (*p) {
	case '%': ddbc_strbuf_addch(sb, '%'); return p + 1;
	case 'c': ddbc_strbuf_addch(sb, (char)va_arg(*ap, int)); return p + 1;
	case 's': {
		const char *s = va_arg(*ap, const char *);
		ddbc_strbuf_addstr(sb, s ? s : "(null)");
		return p + 1;
	}
	case 'd': add_signed(sb, va_arg(*ap, int)); return p + 1;
	case 'u': add_unsigned(sb, va_arg(*ap, unsigned), false); return p + 1;
	case 'z':
		if (p[1] == 'd')
			add_signed(sb, (long long)va_arg(*ap, ssize_t));
		else
			add_unsigned(sb, va_arg(*ap, size_t), false);
		return p + 2;
	default:
		break;
	}
	/* 'l' or "ll" */
	bool ll = p[1] == 'l';
	const char *conv = p + (ll ? 2 : 1);
	if (*conv == 'd')
		add_signed(sb, ll ? va_arg(*ap, long long) : va_arg(*ap, long));
	else
		add_unsigned(sb, ll ? va_arg(*ap, unsigned long long) : va_arg(*ap, unsigned long),
			     false);
	return conv + 1;
}

static void add_plain(strbuf *sb, const char *fmt, va_list *ap)
{
	reserve(sb, 0);
	sb->buf[sb->len] = '\0';
	for (;;) {
		const char *pct = strchr(fmt, '%');
		size_t n = pct ? (size_t)(pct - fmt) : strlen(fmt);
		if (n)
			ddbc_strbuf_add(sb, fmt, n);
		if (!pct)
			return;
		fmt = add_conversion(sb, pct + 1, ap);
	}
}

/* Formats into the room the buffer has, and only when the text does not
 * fit grows it and formats again: a buffer reused for many short pieces
 * formats each once, not once to measure and once to write. */
void ddbc_strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap)
{
	if (plain_format(fmt)) {
		va_list cp;
		va_copy(cp, ap);
		add_plain(sb, fmt, &cp);
		va_end(cp);
		return;
	}
	/* Room for a short piece first, so that a new buffer grows once. */
	reserve(sb, 64);
	size_t room = sb->cap - sb->len;
	va_list cp;
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
