/* strbuf.h - growable byte buffer (after git's strbuf)
 *
 * buf is always NUL-terminated; a zero-initialised strbuf is empty and valid.
 * The caller owns buf and releases it with ddbc_strbuf_release.
 */
#ifndef DDBC_STRBUF_H
#define DDBC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
	char *buf;
	size_t len, cap;
} strbuf;

#define STRBUF_INIT { NULL, 0, 0 }

void ddbc_strbuf_add(strbuf *sb, const void *data, size_t len);
void ddbc_strbuf_addstr(strbuf *sb, const char *s);
void ddbc_strbuf_addch(strbuf *sb, char c);
void ddbc_strbuf_addf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ddbc_strbuf_vaddf(strbuf *sb, const char *fmt, va_list ap);
void ddbc_strbuf_reset(strbuf *sb);
/* Hands buf to the caller (never NULL) and leaves sb empty. */
char *ddbc_strbuf_detach(strbuf *sb);
void ddbc_strbuf_release(strbuf *sb);
/* The contents as a C string; "" for an empty, never-used buffer. */
const char *ddbc_strbuf_str(const strbuf *sb);

#endif
