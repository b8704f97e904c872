/* output.c - writing a command's result, atomically */
#include "output.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return 0;
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

int ddbc_output_write(const char *path, const char *data, size_t len)
{
	if (!path || !strcmp(path, "-")) {
		if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0) {
			fprintf(stderr, "ddbc: cannot write to standard output: %s\n",
				strerror(errno));
			return -1;
		}
		return 0;
	}
	char *tmp = temp_template(path);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		fprintf(stderr, "ddbc: cannot create a temporary file for '%s': %s\n", path,
			strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp makes the file 0600; give it the mode a plain create would. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	int err = write_all(fd, data, len) < 0 || fsync(fd) < 0 ? errno : 0;
	if (close(fd) < 0 && !err)
		err = errno;
	if (!err && rename(tmp, path) < 0)
		err = errno;
	if (err) {
		fprintf(stderr, "ddbc: cannot write '%s': %s\n", path, strerror(err));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int ddbc_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}
