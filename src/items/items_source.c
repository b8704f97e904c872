/* items_source.c - the bytes of an items file, inflated when gzip
 *
 * zlib's inflate with windowBits 16 + 15 reads exactly one gzip member;
 * at its end the source resets the stream and goes on while input
 * remains, so that concatenated members read as one file. Bytes after a
 * member that are not another member are reported, as gzip -d does.
 */
#include "items/items_source.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define IN_CHUNK (64u << 10)

struct ddbc_items_source {
	FILE *in;
	bool started, gzip, ended;
	z_stream z;
	unsigned char *inbuf;    /* compressed bytes (gzip only) */
	unsigned char head[2];   /* the first bytes, before we know */
	size_t nhead, headpos;
	unsigned long long consumed;
	char error[160];
};

ddbc_items_source *ddbc_items_source_new(FILE *in)
{
	ddbc_items_source *s = ddbc_xcalloc(1, sizeof(*s));
	s->in = in;
	return s;
}

void ddbc_items_source_free(ddbc_items_source *s)
{
	if (!s)
		return;
	if (s->gzip)
		inflateEnd(&s->z);
	free(s->inbuf);
	free(s);
}

const char *ddbc_items_source_error(const ddbc_items_source *s)
{
	return s->error[0] ? s->error : NULL;
}

bool ddbc_items_source_gzip(const ddbc_items_source *s)
{
	return s->gzip;
}

unsigned long long ddbc_items_source_consumed(const ddbc_items_source *s)
{
	return s->consumed;
}

/* fread that notes a read error in s->error. */
static size_t raw_read(ddbc_items_source *s, unsigned char *buf, size_t n)
{
	size_t got = fread(buf, 1, n, s->in);
	s->consumed += got;
	if (got < n && ferror(s->in))
		snprintf(s->error, sizeof(s->error), "cannot read the input: %s", strerror(errno));
	return got;
}

/* Reads the first two bytes and decides whether the input is gzip. */
static void start(ddbc_items_source *s)
{
	s->started = true;
	s->nhead = raw_read(s, s->head, 2);
	if (s->nhead < 2 || s->head[0] != 0x1f || s->head[1] != 0x8b)
		return;
	s->gzip = true;
	s->inbuf = ddbc_xmalloc(IN_CHUNK);
	memcpy(s->inbuf, s->head, 2);
	s->nhead = 0;
	memset(&s->z, 0, sizeof(s->z));
	s->z.next_in = s->inbuf;
	s->z.avail_in = 2;
	if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
		snprintf(s->error, sizeof(s->error), "cannot start gzip decompression");
		s->ended = true;
	}
}

/* Refills the compressed buffer; false at the end of the file. */
static bool more_input(ddbc_items_source *s)
{
	if (s->z.avail_in > 0)
		return true;
	size_t got = raw_read(s, s->inbuf, IN_CHUNK);
	s->z.next_in = s->inbuf;
	s->z.avail_in = (uInt)got;
	return got > 0;
}

/* After a member: another member follows, or the file ends. */
static void member_end(ddbc_items_source *s)
{
	if (!more_input(s)) {
		s->ended = true;
		return;
	}
	if (s->z.next_in[0] != 0x1f) {
		snprintf(s->error, sizeof(s->error), "the gzip data is followed by bytes that "
			 "are not gzip (trailing garbage)");
		s->ended = true;
		return;
	}
	inflateReset(&s->z);
}

static size_t inflate_read(ddbc_items_source *s, unsigned char *buf, size_t n)
{
	s->z.next_out = buf;
	s->z.avail_out = (uInt)n;
	while (s->z.avail_out == n && !s->ended && !s->error[0]) {
		if (!more_input(s)) {
			if (!s->error[0])
				snprintf(s->error, sizeof(s->error), "the gzip data ends early "
					 "(truncated?)");
			break;
		}
		int rc = inflate(&s->z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			member_end(s);
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			snprintf(s->error, sizeof(s->error), "the gzip data is corrupt: %s",
				 s->z.msg ? s->z.msg : "inflate failed");
		}
	}
	return n - s->z.avail_out;
}

size_t ddbc_items_source_read(ddbc_items_source *s, unsigned char *buf, size_t n)
{
	if (!s->started)
		start(s);
	if (s->gzip)
		return s->error[0] ? 0 : inflate_read(s, buf, n);
	size_t got = 0;
	while (s->headpos < s->nhead && got < n)
		buf[got++] = s->head[s->headpos++];
	if (got < n && !s->error[0])
		got += raw_read(s, buf + got, n - got);
	return got;
}
