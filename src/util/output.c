/* output.c - writing a command's result, atomically, never over an input */
#include "util/output.h"
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
			inputs = xrealloc(inputs, inputs_cap * sizeof(*inputs));
		}
		inputs[ninputs++] = (input_id){ st->st_dev, st->st_ino, xstrdup(path) };
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

/* -1 with a message when the existing file target is one of the inputs. */
static int refuse_input(const ddbc_output *o)
{
	struct stat st;
	const char *in = stat(o->target, &st) == 0 ? input_named(&st) : NULL;
	if (!in)
		return 0;
	if (!strcmp(in, o->path))
		fprintf(stderr, "ddbc: refusing to write the output over the input '%s'\n", in);
	else
		fprintf(stderr, "ddbc: refusing to write the output '%s' over the input '%s' "
			"(the same file)\n", o->path, in);
	return -1;
}

/* ---- names ------------------------------------------------------------------------- */

char *ddbc_output_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* The target of symlink p, relative to p's folder when it is relative. */
static char *link_target(const char *p, off_t size)
{
	size_t cap = size > 0 ? (size_t)size + 1 : 256;
	for (;;) {
		char *buf = xmalloc(cap);
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
			char *full = xmalloc(strlen(dir) + strlen(buf) + 2);
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
	char *p = xstrdup(path);
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
	char *t = xmalloc(n);
	snprintf(t, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
	return t;
}

/* ---- opening ----------------------------------------------------------------------- */

static void release(ddbc_output *o)
{
	free(o->path);
	free(o->tmp);
	free(o->target);
	memset(o, 0, sizeof(*o));
}

static int open_anonymous(ddbc_output *o)
{
	o->f = tmpfile();
	if (o->f)
		return 0;
	fprintf(stderr, "ddbc: cannot create a temporary file: %s\n", strerror(errno));
	release(o);
	return -1;
}

/* The temporary file beside the target, with the mode the file has (or a
 * plain create would give it). */
static int open_temp(ddbc_output *o, const struct stat *old)
{
	o->tmp = temp_template(o->target);
	int fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", o->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		release(o);
		return -1;
	}
	ddbc_cleanup_add(o->tmp, false);
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
		return xstrdup(path);
	char *s = xmalloc(strlen(ddbc_output_site_dir) + strlen(path + n) + 1);
	sprintf(s, "%s%s", ddbc_output_site_dir, path + n);
	return s;
}

int ddbc_output_open(ddbc_output *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->kind = OUT_STDOUT;
		return open_anonymous(o);
	}
	o->path = shown_name(path);
	o->target = ddbc_output_resolve(path);
	if (!o->target) {
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", o->path, strerror(errno));
		release(o);
		return -1;
	}
	struct stat st;
	bool exists = stat(o->target, &st) == 0;
	if (!exists && errno != ENOENT) {
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", o->path, strerror(errno));
		release(o);
		return -1;
	}
	if (exists && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "ddbc: cannot write '%s': it is a directory\n", o->path);
		release(o);
		return -1;
	}
	if (exists && refuse_input(o) < 0) {
		release(o);
		return -1;
	}
	if (exists && !S_ISREG(st.st_mode)) {
		/* A device or a FIFO is written into, never replaced. */
		o->kind = OUT_THROUGH;
		return open_anonymous(o);
	}
	o->kind = OUT_FILE;
	return open_temp(o, exists ? &st : NULL);
}

/* ---- committing -------------------------------------------------------------------- */

static int copy_to_fd(FILE *f, int fd)
{
	char buf[65536];
	size_t n;
	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (size_t at = 0; at < n;) {
			ssize_t w = write(fd, buf + at, n - at);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			at += (size_t)w;
		}
	}
	if (ferror(f)) {
		errno = EIO;
		return -1;
	}
	return 0;
}

static int commit_stdout(ddbc_output *o)
{
	fflush(stdout);
	int err = copy_to_fd(o->f, STDOUT_FILENO) < 0 ? errno : 0;
	fclose(o->f);
	if (err)
		fprintf(stderr, "ddbc: cannot write to standard output: %s\n", strerror(err));
	release(o);
	return err ? -1 : 0;
}

static int commit_through(ddbc_output *o)
{
	int err = 0;
	int fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 || copy_to_fd(o->f, fd) < 0)
		err = errno;
	if (fd >= 0 && close(fd) < 0 && !err && errno != EINTR)
		err = errno;
	fclose(o->f);
	if (err)
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", o->path, strerror(err));
	release(o);
	return err ? -1 : 0;
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
	int err = 0;
	if (fflush(o->f) != 0 || fsync(fileno(o->f)) < 0)
		err = errno;
	if (fclose(o->f) != 0 && !err)
		err = errno;
	if (!err)
		keep_for_site(o->target);
	if (!err && rename(o->tmp, o->target) < 0)
		err = errno;
	if (err) {
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", o->path, strerror(err));
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
