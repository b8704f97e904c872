/* output.c - writing a command's result, atomically, never over an input */
#define _GNU_SOURCE 1  /* fopencookie */
#include "util/output.h"
#include "util/error.h"
#include "util/output_int.h"
#include "util/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum out_kind {
	OUT_STDOUT,   /* an anonymous file, copied to standard output */
	OUT_FILE,     /* a temporary file renamed over the regular file */
	OUT_THROUGH,  /* an anonymous file, copied into a device or FIFO */
};

/* ---- the run's inputs ----------------------------------------------------------------- */

typedef struct {
	dev_t dev;
	ino_t ino;
	char *name;
} input_id;

static pthread_mutex_t inputs_mu = PTHREAD_MUTEX_INITIALIZER;
static input_id *inputs;
static size_t ninputs, inputs_cap;

/* Only a regular file can be destroyed by the output: a device or FIFO
 * read and written is written through, never replaced. */
static void note_stat(const struct stat *st, const char *path)
{
	if (!S_ISREG(st->st_mode))
		return;
	pthread_mutex_lock(&inputs_mu);
	bool known = false;
	for (size_t i = 0; i < ninputs && !known; i++)
		known = inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino;
	if (!known) {
		if (ninputs == inputs_cap) {
			inputs_cap = inputs_cap ? inputs_cap * 2 : 8;
			inputs = ddbc_xrealloc(inputs, inputs_cap * sizeof(*inputs));
		}
		inputs[ninputs++] = (input_id){ st->st_dev, st->st_ino, ddbc_xstrdup(path) };
	}
	pthread_mutex_unlock(&inputs_mu);
}

void ddbc_output_note_input(const char *path)
{
	struct stat st;
	if (path && strcmp(path, "-") && stat(path, &st) == 0)
		note_stat(&st, path);
}

void ddbc_output_note_input_fd(int fd, const char *path)
{
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0)
		note_stat(&st, path ? path : "-");
}

/* The input that st is, or NULL. */
static const char *input_named(const struct stat *st)
{
	const char *name = NULL;
	pthread_mutex_lock(&inputs_mu);
	for (size_t i = 0; i < ninputs && !name; i++)
		if (inputs[i].dev == st->st_dev && inputs[i].ino == st->st_ino)
			name = inputs[i].name;
	pthread_mutex_unlock(&inputs_mu);
	return name;
}

/* -1 with a message when st (of the output shown) is one of the inputs. */
static int refuse_stat(const struct stat *st, const char *shown)
{
	const char *in = input_named(st);
	if (!in)
		return 0;
	if (!strcmp(in, shown))
		ddbc_error("refusing to write the output over the input '%s'", in);
	else
		ddbc_error("refusing to write the output '%s' over the input '%s' (the same file)",
			   shown, in);
	return -1;
}

/* -1 with a message when the existing file target is one of the inputs. */
static int refuse_input(const ddbc_output *o)
{
	struct stat st;
	return stat(o->target, &st) == 0 ? refuse_stat(&st, o->path) : 0;
}

int ddbc_output_refuse_name(const char *name, const char *shown)
{
	struct stat st;
	if (lstat(name, &st) < 0)
		return 0;
	if (S_ISDIR(st.st_mode)) {
		ddbc_error("cannot write '%s': it is a directory", shown);
		return -1;
	}
	return refuse_stat(&st, shown);
}

/* ---- names ------------------------------------------------------------------------- */

char *ddbc_output_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return ddbc_xstrdup(".");
	if (slash == path)
		return ddbc_xstrdup("/");
	return ddbc_xstrndup(path, (size_t)(slash - path));
}

/* The target of symlink p, relative to p's folder when it is relative. */
static char *link_target(const char *p, off_t size)
{
	size_t cap = size > 0 ? (size_t)size + 1 : 256;
	for (;;) {
		char *buf = ddbc_xmalloc(cap);
		ssize_t n = readlink(p, buf, cap);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < cap) {
			buf[n] = '\0';
			if (buf[0] == '/' || !strchr(p, '/'))
				return buf;
			char *dir = ddbc_output_dirname(p);
			char *full = ddbc_xmalloc(strlen(dir) + strlen(buf) + 2);
			sprintf(full, "%s/%s", dir, buf);
			free(dir);
			free(buf);
			return full;
		}
		free(buf);
		cap *= 2;
	}
}

char *ddbc_output_resolve(const char *path)
{
	char *p = ddbc_xstrdup(path);
	for (int hops = 0;; hops++) {
		struct stat st;
		if (lstat(p, &st) < 0 || !S_ISLNK(st.st_mode))
			return p;
		/* The kernel's own limit on a chain of links. */
		char *next = hops < 40 ? link_target(p, st.st_size) : NULL;
		if (!next && hops >= 40)
			errno = ELOOP;
		free(p);
		if (!next)
			return NULL;
		p = next;
	}
}

/* The temporary file's template: beside path, so rename stays within one
 * file system. */
static char *temp_template(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = slash ? slash + 1 : path;
	size_t n = dirlen + strlen(base) + 16;
	char *t = ddbc_xmalloc(n);
	snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	return t;
}

/* ---- the one writer ------------------------------------------------------------------ */

/* Every byte of a result, from every backend, goes through this writer
 * into the temporary file, and it keeps the first error the file system
 * gave (ENOSPC, EFBIG, EIO). A stream forgets one: stdio drops a buffer
 * it could not write, so a later fflush succeeds, and rewind or clearerr
 * wipes the error flag; a backend may ignore what fwrite returned. The
 * commit asks this writer, so no error between a backend and the disk
 * is lost. */
struct ddbc_output_sink {
	int fd;
	int err;   /* the first write error, 0 while none */
};

static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
	struct ddbc_output_sink *s = cookie;
	for (size_t at = 0; at < n && !s->err;) {
		ssize_t w = write(s->fd, buf + at, n - at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			s->err = w < 0 ? errno : EIO;
		else
			at += (size_t)w;
	}
	/* After an error nothing more is written: the result is lost anyway,
	 * and the file is not to grow on a disk that is full. */
	if (s->err) {
		errno = s->err;
		return 0;
	}
	return (ssize_t)n;
}

/* The stream over fd that o's backend writes into. */
static int open_sink(ddbc_output *o, int fd)
{
	static const cookie_io_functions_t io = { NULL, sink_write, NULL, NULL };
	o->sink = ddbc_xcalloc(1, sizeof(*o->sink));
	o->sink->fd = fd;
	o->f = fopencookie(o->sink, "w", io);
	return o->f ? 0 : -1;
}

/* The first error writing o's result saw, its last buffer flushed. */
static int write_error(ddbc_output *o)
{
	int err = fflush(o->f) != 0 ? errno : 0;
	if (o->sink->err)
		return o->sink->err;
	return err ? err : ferror(o->f) ? EIO : 0;
}

/* ---- opening ----------------------------------------------------------------------- */

static void release(ddbc_output *o)
{
	if (o->sink && o->sink->fd >= 0)
		close(o->sink->fd);
	free(o->sink);
	free(o->path);
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
}

/* An unnamed temporary file: the result is copied from it when whole. */
static int open_anonymous(ddbc_output *o)
{
	FILE *t = tmpfile();
	int fd = t ? dup(fileno(t)) : -1;
	int err = errno;
	if (t)
		fclose(t);
	if (fd >= 0 && open_sink(o, fd) == 0)
		return 0;
	if (fd < 0)
		errno = err;
	ddbc_error("cannot create a temporary file: %s", strerror(errno));
	if (fd >= 0 && !o->sink)
		close(fd);
	release(o);
	return -1;
}

/* The temporary file beside the target, with the mode the file has (or a
 * plain create would give it). */
static int open_temp(ddbc_output *o, const struct stat *old)
{
	o->tmp = temp_template(o->target);
	sigset_t held;
	ddbc_cleanup_hold(&held);
	int fd = mkstemp(o->tmp);
	if (fd < 0 || open_sink(o, fd) < 0) {
		int err = errno;
		if (fd >= 0) {
			if (!o->sink)
				close(fd);
			unlink(o->tmp);
		}
		ddbc_cleanup_release(&held);
		ddbc_error("cannot write '%s': %s", o->path, strerror(err));
		release(o);
		return -1;
	}
	ddbc_cleanup_add(o->tmp, false);
	ddbc_cleanup_release(&held);
	if (old) {
		o->mode = old->st_mode & 07777;
		if (geteuid() == 0 && fchown(fd, old->st_uid, old->st_gid) < 0)
			o->mode &= 0777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		o->mode = 0666 & ~mask;
	}
	fchmod(fd, o->mode);
	return 0;
}

/* A page of a site is named in messages by where it was to go. */
static char *shown_name(const char *path)
{
	const char *tmp = ddbc_output_site_tmp;
	size_t n = tmp ? strlen(tmp) : 0;
	if (!tmp || strncmp(path, tmp, n) || path[n] != '/')
		return ddbc_xstrdup(path);
	char *s = ddbc_xmalloc(strlen(ddbc_output_site_dir) + strlen(path + n) + 1);
	sprintf(s, "%s%s", ddbc_output_site_dir, path + n);
	return s;
}

/* A path the kernel finds to be a FIFO, a device or a socket is written
 * into as it is named: the descriptor paths (/dev/stdout, /proc/self/fd/1)
 * are links to "pipe:[N]", which is no path, so only the kernel can follow
 * them. */
static bool is_through(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

static int open_fail(ddbc_output *o, const char *why)
{
	ddbc_error("cannot write '%s': %s", o->path, why);
	release(o);
	return -1;
}

int ddbc_output_open(ddbc_output *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->kind = OUT_STDOUT;
		return open_anonymous(o);
	}
	o->path = shown_name(path);
	if (is_through(path)) {
		/* A device or a FIFO is written into, never replaced. */
		o->kind = OUT_THROUGH;
		o->target = ddbc_xstrdup(path);
		return open_anonymous(o);
	}
	o->target = ddbc_output_resolve(path);
	if (!o->target)
		return open_fail(o, strerror(errno));
	struct stat st;
	bool exists = stat(o->target, &st) == 0;
	if (!exists && errno != ENOENT)
		return open_fail(o, strerror(errno));
	if (exists && S_ISDIR(st.st_mode))
		return open_fail(o, "it is a directory");
	if (exists && refuse_input(o) < 0) {
		release(o);
		return -1;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		o->kind = OUT_THROUGH;
		return open_anonymous(o);
	}
	o->kind = OUT_FILE;
	return open_temp(o, exists ? &st : NULL);
}

/* ---- committing -------------------------------------------------------------------- */

/* Copies the temporary file from's content to fd; -1 with errno. */
static int copy_to_fd(int from, int fd)
{
	char buf[65536];
	ssize_t n;
	if (lseek(from, 0, SEEK_SET) < 0)
		return -1;
	while ((n = read(from, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		for (ssize_t at = 0; at < n;) {
			ssize_t w = write(fd, buf + at, (size_t)(n - at));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			at += w;
		}
	}
	return 0;
}

/* Closes o's stream; the first error of the result's writing, or 0. */
static int close_stream(ddbc_output *o)
{
	int err = write_error(o);
	fclose(o->f);
	o->f = NULL;
	return err;
}

/* An anonymous result, whole, copied to fd (named shown in messages). */
static int copy_result(ddbc_output *o, int fd, const char *shown)
{
	int err = close_stream(o);
	if (!err && copy_to_fd(o->sink->fd, fd) < 0)
		err = errno;
	if (err)
		ddbc_error("cannot write %s: %s", shown, strerror(err));
	return err ? -1 : 0;
}

static int commit_stdout(ddbc_output *o)
{
	fflush(stdout);
	int rc = copy_result(o, STDOUT_FILENO, "to standard output");
	release(o);
	return rc;
}

static int commit_through(ddbc_output *o)
{
	int fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		ddbc_error("cannot write '%s': %s", o->path, strerror(errno));
		close_stream(o);
		release(o);
		return -1;
	}
	char *shown = ddbc_xmalloc(strlen(o->path) + 3);
	sprintf(shown, "'%s'", o->path);
	int rc = copy_result(o, fd, shown);
	if (close(fd) < 0 && rc == 0 && errno != EINTR) {
		ddbc_error("cannot write %s: %s", shown, strerror(errno));
		rc = -1;
	}
	free(shown);
	release(o);
	return rc;
}

/* The rename is durable once the folder is synced too. */
static void sync_dir_of(const char *path)
{
	char *dir = ddbc_output_dirname(path);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* A page of a site being written stays to remove until the site is done. */
static void keep_for_site(const char *target)
{
	if (!ddbc_output_site_tmp)
		return;
	char *dir = ddbc_output_dirname(target);
	if (!strcmp(dir, ddbc_output_site_tmp))
		ddbc_cleanup_add(target, false);
	free(dir);
}

static int commit_file(ddbc_output *o)
{
	int err = close_stream(o);
	if (!err && fsync(o->sink->fd) < 0)
		err = errno;
	int fd = o->sink->fd;
	o->sink->fd = -1;
	if (close(fd) < 0 && !err && errno != EINTR)
		err = errno;
	if (!err)
		keep_for_site(o->target);
	if (!err && rename(o->tmp, o->target) < 0)
		err = errno;
	if (err) {
		ddbc_error("cannot write '%s': %s", o->path, strerror(err));
		unlink(o->tmp);
	} else {
		sync_dir_of(o->target);
	}
	ddbc_cleanup_done_under(o->tmp);
	release(o);
	return err ? -1 : 0;
}

int ddbc_output_commit(ddbc_output *o)
{
	if (o->kind == OUT_STDOUT)
		return commit_stdout(o);
	/* Inputs read since the output was opened (the files of a folder) are
	 * known now. */
	if (refuse_input(o) < 0) {
		ddbc_output_abort(o);
		return -1;
	}
	return o->kind == OUT_THROUGH ? commit_through(o) : commit_file(o);
}

void ddbc_output_abort(ddbc_output *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp) {
		unlink(o->tmp);
		ddbc_cleanup_done_under(o->tmp);
	}
	release(o);
}

int ddbc_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
