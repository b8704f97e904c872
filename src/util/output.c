/* output.c - writing a command's result, atomically */
#include "util/output.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int ddbc_output_open(ddbc_output *o, const char *path)
{
	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = tmpfile();
		if (!o->f) {
			fprintf(stderr, "ddbc: cannot create a temporary file: %s\n", strerror(errno));
			return -1;
		}
		return 0;
	}
	o->path = xstrdup(path);
	o->tmp = temp_template(path);
	int fd = mkstemp(o->tmp);
	if (fd < 0 || !(o->f = fdopen(fd, "wb"))) {
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->path);
		free(o->tmp);
		return -1;
	}
	/* mkstemp makes the file 0600; give it the mode a plain create would. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return 0;
}

static int copy_to_stdout(FILE *f)
{
	char buf[65536];
	size_t n;
	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			return -1;
	return ferror(f) || fflush(stdout) ? -1 : 0;
}

static void release(ddbc_output *o)
{
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
}

int ddbc_output_commit(ddbc_output *o)
{
	int err = 0;
	if (!o->tmp) {
		if (copy_to_stdout(o->f) < 0)
			err = errno ? errno : EIO;
		fclose(o->f);
		if (err)
			fprintf(stderr, "ddbc: cannot write to standard output: %s\n", strerror(err));
		release(o);
		return err ? -1 : 0;
	}
	if (fflush(o->f) != 0 || fsync(fileno(o->f)) < 0)
		err = errno;
	if (fclose(o->f) != 0 && !err)
		err = errno;
	if (!err && rename(o->tmp, o->path) < 0)
		err = errno;
	if (err) {
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", o->path, strerror(err));
		unlink(o->tmp);
	}
	release(o);
	return err ? -1 : 0;
}

void ddbc_output_abort(ddbc_output *o)
{
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
}

int ddbc_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
