/* source.c - reading input files */
#define _GNU_SOURCE 1  /* vasprintf */
#include "util/source.h"
#include "util/output.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A UTF-8 byte order mark is not part of the text: libyaml skips it
 * without counting a column, and so must every position and quoted line. */
static size_t bom_len(const char *text, size_t len)
{
	return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

static ddbc_source *read_stream(FILE *f, const char *name)
{
	size_t cap = 0, len = 0;
	char *buf = NULL;
	for (;;) {
		ddbc_xgrow((void **)&buf, &cap, len + 65536 + 1, 1);
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno ? errno : EIO;
		free(buf);
		errno = e;
		return NULL;
	}
	size_t bom = bom_len(buf, len);
	len -= bom;
	memmove(buf, buf + bom, len);
	buf[len] = '\0';
	ddbc_source *src = ddbc_xcalloc(1, sizeof(*src));
	src->name = ddbc_xstrdup(name);
	src->text = buf;
	src->len = len;
	return src;
}

/* Maps a regular file whose size is not a multiple of the page size: the
 * rest of its last page reads as zeros, which ends the text with the NUL
 * the parser wants. Anything else (empty, pipes, exact pages) is read. */
static ddbc_source *map_file(FILE *f, const char *name)
{
	struct stat st;
	long page = sysconf(_SC_PAGESIZE);
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    page <= 0 || st.st_size % page == 0 || (unsigned long long)st.st_size > SIZE_MAX / 2)
		return NULL;
	size_t len = (size_t)st.st_size;
	void *base = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fileno(f), 0);
	if (base == MAP_FAILED)
		return NULL;
	ddbc_source *src = ddbc_xcalloc(1, sizeof(*src));
	size_t bom = bom_len(base, len);
	src->name = ddbc_xstrdup(name);
	src->text = (char *)base + bom;
	src->len = len - bom;
	src->base = base;
	src->mapped = len;
	return src;
}

bool ddbc_source_stop(const ddbc_source *src)
{
	return src->stop && src->stop(src->stop_ctx);
}

void ddbc_source_evict(const ddbc_source *src, size_t upto)
{
	if (!src->mapped)
		return;
	size_t end = src->mapped;
	if (upto < src->len) {
		size_t page = (size_t)sysconf(_SC_PAGESIZE);
		end = ((size_t)(src->text - (char *)src->base) + upto) / page * page;
	}
	if (end)
		madvise(src->base, end, MADV_DONTNEED);
}

FILE *ddbc_input_fopen(const char *path)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		errno = EISDIR;
		return NULL;
	}
	if (f)
		ddbc_output_note_input_fd(fileno(f), path);
	return f;
}

ddbc_source *ddbc_source_read(const char *path)
{
	if (strcmp(path, "-") == 0) {
		ddbc_output_note_input_fd(STDIN_FILENO, "-");
		return read_stream(stdin, path);
	}
	FILE *f = ddbc_input_fopen(path);
	if (!f)
		return NULL;
	ddbc_source *src = map_file(f, path);
	if (src) {
		fclose(f);
		return src;
	}
	src = read_stream(f, path);
	int e = errno;
	fclose(f);
	errno = e;
	return src;
}

/* What a file that is not regular is, for a message. */
static const char *kind_of(mode_t mode)
{
	return S_ISDIR(mode) ? "a folder" : S_ISFIFO(mode) ? "a FIFO" : S_ISSOCK(mode) ? "a socket"
	       : S_ISCHR(mode) || S_ISBLK(mode) ? "a device" : "a special file";
}

static ddbc_source *refuse(char **why, int err, char *reason)
{
	*why = reason;
	errno = err;
	return NULL;
}

/* The line and column of offset at, as a finding's (1-based, a column
 * counts characters: lead bytes). */
static ddbc_loc loc_of(const char *text, size_t at)
{
	ddbc_loc loc = { 1, 1 };
	for (size_t i = 0; i < at;) {
		size_t br = ddbc_break_len(text + i, text + at);
		if (br) {
			loc.line++;
			loc.column = 1;
			i += br;
			continue;
		}
		if (((unsigned char)text[i] & 0xC0) != 0x80)
			loc.column++;
		i++;
	}
	return loc;
}

/* Reads at most max + 1 bytes of fd; NULL with errno on a read error. */
static char *read_upto(int fd, size_t max, size_t hint, size_t *len)
{
	size_t cap = (hint < max ? hint : max) + 2, n = 0;
	char *buf = ddbc_xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			if (n > max)
				break;
			cap = cap * 2 > max + 2 ? max + 2 : cap * 2;
			buf = ddbc_xrealloc(buf, cap);
		}
		ssize_t got = read(fd, buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static char *saying(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *saying(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = NULL;
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s ? s : ddbc_xstrdup("cannot be read");
}

ddbc_source *ddbc_source_read_bounded(const char *path, size_t max, char **why)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		return refuse(why, e, saying("cannot be read: %s", strerror(e)));
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return refuse(why, e, saying("cannot be read: %s", strerror(e)));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(why, EINVAL, saying("is %s, not a file", kind_of(st.st_mode)));
	}
	ddbc_output_note_input_fd(fd, path);
	size_t len = 0;
	char *text = (unsigned long long)st.st_size > max ? NULL
		     : read_upto(fd, max, (size_t)st.st_size, &len);
	int e = errno;
	close(fd);
	if ((unsigned long long)st.st_size > max || (text && len > max)) {
		free(text);
		return refuse(why, EFBIG, saying("is larger than %zu bytes, the most it may hold", max));
	}
	if (!text)
		return refuse(why, e, saying("cannot be read: %s", strerror(e)));
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		ddbc_loc at = loc_of(text, (size_t)(nul - text));
		free(text);
		return refuse(why, EINVAL, saying("holds a NUL byte at line %u, column %u: it is no "
						  "text", at.line, at.column));
	}
	size_t bom = bom_len(text, len);
	memmove(text, text + bom, len - bom + 1);
	ddbc_source *src = ddbc_xcalloc(1, sizeof(*src));
	src->name = ddbc_xstrdup(path);
	src->text = text;
	src->len = len - bom;
	return src;
}

ddbc_source *ddbc_source_from_memory(const char *name, const char *text, size_t len)
{
	size_t bom = bom_len(text, len);
	text += bom;
	len -= bom;
	ddbc_source *src = ddbc_xcalloc(1, sizeof(*src));
	src->name = ddbc_xstrdup(name);
	src->text = ddbc_xmalloc(len + 1);
	memcpy(src->text, text, len);
	src->text[len] = '\0';
	src->len = len;
	return src;
}

void ddbc_source_free(ddbc_source *src)
{
	if (!src)
		return;
	free(src->name);
	if (src->mapped)
		munmap(src->base, src->mapped);
	else
		free(src->text);
	free(src->line_starts);
	free(src);
}

/* The bytes a line break can start with: \n, \r, and the lead bytes of
 * NEL (C2 85), LS and PS (E2 80 A8, E2 80 A9). */
static bool may_break(unsigned char c)
{
	return c == '\n' || c == '\r' || c == 0xC2 || c == 0xE2;
}

/* Line starts are offsets into the text: 32 bits each when every offset
 * fits, else 64. */
static bool narrow_starts(const ddbc_source *src)
{
	return src->len <= UINT32_MAX;
}

static size_t line_start(const ddbc_source *src, size_t i)
{
	return narrow_starts(src) ? ((const uint32_t *)src->line_starts)[i]
				  : ((const size_t *)src->line_starts)[i];
}

static void add_line_start(ddbc_source *src, size_t at)
{
	size_t width = narrow_starts(src) ? sizeof(uint32_t) : sizeof(size_t);
	ddbc_xgrow(&src->line_starts, &src->lines_cap, src->nlines + 1, width);
	if (narrow_starts(src))
		((uint32_t *)src->line_starts)[src->nlines++] = (uint32_t)at;
	else
		((size_t *)src->line_starts)[src->nlines++] = at;
}

/* How far behind the scan its pages are given back, and how much it
 * moves on before giving more (as the composer's EVICT_STEP). */
#define SCAN_EVICT_STEP ((size_t)1 << 20)

static void evict_behind(ddbc_source *src, size_t front)
{
	if (!src->mapped || front < src->scan_evicted + 2 * SCAN_EVICT_STEP)
		return;
	src->scan_evicted = front - SCAN_EVICT_STEP;
	ddbc_source_evict(src, src->scan_evicted);
}

/* Records where lines start, from src->scanned on, until line is known
 * or the text ends; lines end where libyaml's do (\n, \r\n, \r, NEL, LS,
 * PS), so positions and quoted lines agree. */
static void index_lines(ddbc_source *src, unsigned line)
{
	if (!src->line_starts)
		add_line_start(src, 0);
	const unsigned char *p = (const unsigned char *)src->text + src->scanned;
	const unsigned char *end = (const unsigned char *)src->text + src->len;
	while (p < end && src->nlines <= line) {
		while (p < end && !may_break(*p))
			p++;
		if (p == end)
			break;
		size_t br = ddbc_break_len((const char *)p, (const char *)end);
		if (!br) {
			p++;
			continue;
		}
		p += br;
		add_line_start(src, (size_t)((const char *)p - src->text));
		evict_behind(src, (size_t)((const char *)p - src->text));
	}
	src->scanned = (size_t)((const char *)p - src->text);
}

/* Whether the text has no line after the last one indexed. */
static bool all_indexed(const ddbc_source *src)
{
	return src->scanned >= src->len;
}

/* The length of the line break that ends [start, end) (0 when none). */
static size_t break_before(const char *start, const char *end)
{
	for (size_t n = 3; n > 0; n--)
		if ((size_t)(end - start) >= n && ddbc_break_len(end - n, end) == n)
			return n;
	return 0;
}

const char *ddbc_source_line(const ddbc_source *csrc, unsigned line, size_t *len)
{
	/* The index is a cache: building it does not change the source. */
	ddbc_source *src = (ddbc_source *)csrc;
	/* Line + 1's start ends line: index one further. */
	if (!src->line_starts || (src->nlines <= line && !all_indexed(src)))
		index_lines(src, line);
	if (line == 0 || line > src->nlines)
		return NULL;
	const char *start = src->text + line_start(src, line - 1);
	if (line == src->nlines) {
		/* The last line has no break: it ends with the text. */
		*len = src->len - line_start(src, line - 1);
		return start;
	}
	/* Every other line ends with the break that starts the next one: found
	 * from its end, so that quoting a long line many times stays linear. */
	const char *end = src->text + line_start(src, line);
	*len = (size_t)(end - start) - break_before(start, end);
	return start;
}
