/* strbuf.c - growable byte buffer */
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Inline and testing the room first: the documentation adds tens of
 * millions of short pieces, and nearly all fit. */
static inline void reserve(strbuf *sb, size_t extra)
{
	size_t need = sb->len + extra + 1;
	if (need < extra)
		xalloc_die();
	if (need > sb->cap)
		xgrow((void **)&sb->buf, &sb->cap, need, 1);
}

void strbuf_add(strbuf *sb, const void *data, size_t len)
{
	reserve(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(strbuf *sb, char c)
{
	reserve(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

/* Formats into the room the buffer has, and only when the text does not
 * fit grows it and formats again: a buffer reused for many short pieces
 * (the header's 600,000) formats each once, not once to measure and once
 * to write. */
void strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap)
{
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

void strbuf_addf(strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_reset(strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

char *strbuf_detach(strbuf *sb)
{
	char *p = sb->buf ? sb->buf : xstrdup("");
	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return p;
}

void strbuf_release(strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

const char *strbuf_str(const strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}
