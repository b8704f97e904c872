/* lsp_rpc.c - JSON-RPC messages framed by Content-Length headers
 *
 * The reader owns its buffer and reads the descriptor itself (no stdio):
 * poll() then says truly whether more input waits, which the debounce of
 * the diagnostics needs. A header it cannot use is skipped, and a body
 * that does not parse may hold the next header (a Content-Length larger
 * than what was sent): the server never stops on a bad message.
 */
#include "lsp/lsp_int.h"
#include "util/xalloc.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

void ddbc_lsp_reader_init(lsp_reader *r, int fd)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
}

void ddbc_lsp_reader_release(lsp_reader *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

/* Drops what was consumed, so the buffer holds one message at most (and
 * what follows it). */
static void compact(lsp_reader *r)
{
	if (!r->pos)
		return;
	memmove(r->buf, r->buf + r->pos, r->len - r->pos);
	r->len -= r->pos;
	r->pos = 0;
}

/* Reads what is there, waiting at most timeout_ms. Returns false on a
 * timeout. */
static bool fill(lsp_reader *r, int timeout_ms)
{
	struct pollfd p = { r->fd, POLLIN, 0 };
	int n;
	while ((n = poll(&p, 1, timeout_ms)) < 0 && errno == EINTR)
		;
	if (n == 0)
		return false;
	compact(r);
	ddbc_xgrow((void **)&r->buf, &r->cap, r->len + 65536 + 1, 1);
	ssize_t got;
	while ((got = read(r->fd, r->buf + r->len, r->cap - r->len - 1)) < 0 && errno == EINTR)
		;
	if (got <= 0)
		r->eof = true;
	else
		r->len += (size_t)got;
	return true;
}

static const char *find_blank_line(const char *p, size_t n)
{
	for (size_t i = 0; i + 3 < n; i++)
		if (!memcmp(p + i, "\r\n\r\n", 4))
			return p + i;
	return NULL;
}

/* The Content-Length of the header at h (up to end); -1 when it has none
 * usable. Other fields (Content-Type) are ignored. */
static long long content_length(const char *h, const char *end)
{
	static const char name[] = "Content-Length:";
	long long n = -1;
	while (h < end) {
		const char *eol = memchr(h, '\r', (size_t)(end - h));
		if (!eol)
			eol = end;
		if ((size_t)(eol - h) > sizeof name - 1 && !strncasecmp(h, name, sizeof name - 1)) {
			const char *v = h + sizeof name - 1;
			while (*v == ' ')
				v++;
			char *stop;
			errno = 0;
			long long got = strtoll(v, &stop, 10);
			n = stop == v || stop != eol || errno || got < 0 ? -1 : got;
		}
		h = eol + 2;
	}
	return n;
}

bool ddbc_lsp_input_pending(lsp_reader *r)
{
	const char *start = r->buf + r->pos;
	size_t have = r->len - r->pos;
	const char *blank = have ? find_blank_line(start, have) : NULL;
	if (blank) {
		long long n = content_length(start, blank + 2);
		size_t head = (size_t)(blank + 4 - start);
		if (n < 0 || (size_t)n > LSP_MAX_BODY || have - head >= (size_t)n)
			return true;   /* a message, or a bad header, to read */
	}
	if (r->eof)
		return false;
	struct pollfd p = { r->fd, POLLIN, 0 };
	int got;
	while ((got = poll(&p, 1, 0)) < 0 && errno == EINTR)
		;
	return got > 0;
}

lsp_read_result ddbc_lsp_read(lsp_reader *r, int timeout_ms, const char **body, size_t *len)
{
	for (;;) {
		const char *start = r->buf + r->pos;
		size_t have = r->len - r->pos;
		const char *blank = have ? find_blank_line(start, have) : NULL;
		if (blank) {
			long long n = content_length(start, blank + 2);
			size_t head = (size_t)(blank + 4 - start);
			if (n < 0 || (size_t)n > LSP_MAX_BODY) {
				r->pos += head;
				return LSP_READ_BAD_HEADER;
			}
			if (have - head >= (size_t)n) {
				*body = start + head;
				*len = (size_t)n;
				r->pos += head + (size_t)n;
				return LSP_READ_MESSAGE;
			}
		} else if (have > 65536) {
			/* No header ends in 64 KiB of input: it is no header. */
			r->pos = r->len;
			return LSP_READ_BAD_HEADER;
		}
		if (r->eof)
			return LSP_READ_EOF;
		if (!fill(r, timeout_ms))
			return LSP_READ_TIMEOUT;
	}
}

void ddbc_lsp_reader_resync(lsp_reader *r, const char *body, size_t len)
{
	static const char name[] = "Content-Length:";
	for (size_t i = 1; i + sizeof name - 1 <= len; i++)
		if (!strncasecmp(body + i, name, sizeof name - 1)) {
			r->pos = (size_t)(body + i - r->buf);
			return;
		}
}

static void write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;     /* the client is gone: its reading end says so */
		p += w;
		n -= (size_t)w;
	}
}

void ddbc_lsp_send(int fd, json_t *msg)
{
	json_object_set_new(msg, "jsonrpc", json_string("2.0"));
	char *text = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(msg);
	if (!text)
		return;
	char head[64];
	int n = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", strlen(text));
	write_all(fd, head, (size_t)n);
	write_all(fd, text, strlen(text));
	free(text);
}
