/* output_site.c - a folder of outputs, moved into place only when whole
 *
 * The pages are written (each through output.c) into a temporary folder:
 * beside the destination when it does not exist yet, so one rename puts
 * the site in place; inside it when it does, so each page is renamed over
 * the old one (the folder may hold files that are not the site's: they
 * stay). A run that fails while writing (a full disk) moves nothing: the
 * old site is whole.
 */
#include "util/output.h"
#include "util/error.h"
#include "util/output_int.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ddbc_output_site_tmp, *ddbc_output_site_dir;

static char *join(const char *dir, const char *name)
{
	char *p = ddbc_xmalloc(strlen(dir) + strlen(name) + 2);
	sprintf(p, "%s/%s", dir, name);
	return p;
}

/* dir without trailing slashes ("/" stays). */
static char *trim_slashes(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return ddbc_xstrndup(dir, n);
}

static int site_fail(ddbc_output_site *s, const char *what, const char *dir)
{
	ddbc_error("cannot %s '%s': %s", what, dir, strerror(errno));
	free(s->dir);
	free(s->tmp);
	memset(s, 0, sizeof(*s));
	return -1;
}

int ddbc_output_site_open(ddbc_output_site *s, const char *dir)
{
	int rc;
	memset(s, 0, sizeof(*s));
	char *given = trim_slashes(dir);
	s->dir = ddbc_output_resolve(given);
	free(given);
	if (!s->dir)
		return site_fail(s, "write", dir);
	struct stat st;
	if (stat(s->dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			return site_fail(s, "write", dir);
		}
		s->existed = 1;
		s->tmp = join(s->dir, ".ddbc-site.XXXXXX");
	} else if (errno == ENOENT) {
		const char *slash = strrchr(s->dir, '/');
		s->tmp = ddbc_xmalloc(strlen(s->dir) + 16);
		sprintf(s->tmp, "%.*s.%s.XXXXXX", slash ? (int)(slash - s->dir + 1) : 0, s->dir,
			slash ? slash + 1 : s->dir);
	} else {
		return site_fail(s, "write", dir);
	}
	sigset_t held;
	ddbc_cleanup_hold(&held);
	if (!mkdtemp(s->tmp)) {
		/* Name the folder the temporary one was to be made in. */
		int err = errno;
		ddbc_cleanup_release(&held);
		char *in = s->existed ? ddbc_xstrdup(s->dir) : ddbc_output_dirname(s->dir);
		errno = err;
		rc = site_fail(s, "create a folder in", in);
		free(in);
		return rc;
	}
	mode_t mask = umask(0);
	umask(mask);
	chmod(s->tmp, 0777 & ~mask);
	ddbc_cleanup_add(s->tmp, true);
	ddbc_cleanup_release(&held);
	ddbc_output_site_tmp = s->tmp;
	ddbc_output_site_dir = s->dir;
	return 0;
}

/* Calls fn on every file of the temporary folder; stops at the first -1. */
static int each_file(ddbc_output_site *s, int (*fn)(ddbc_output_site *, const char *))
{
	DIR *d = opendir(s->tmp);
	if (!d)
		return -1;
	int rc = 0;
	struct dirent *e;
	while (rc == 0 && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			rc = fn(s, e->d_name);
	closedir(d);
	return rc;
}

/* Whether the page name may replace what the folder holds under its name
 * (an input of the run may not: -o D/ with the design D/index.html). */
static int may_move(ddbc_output_site *s, const char *name)
{
	char *to = join(s->dir, name);
	int rc = ddbc_output_refuse_name(to, to);
	free(to);
	return rc;
}

static int move_in(ddbc_output_site *s, const char *name)
{
	char *from = join(s->tmp, name), *to = join(s->dir, name);
	int rc = rename(from, to);
	if (rc < 0)
		ddbc_error("cannot write '%s': %s", to, strerror(errno));
	free(from);
	free(to);
	return rc;
}

static int remove_one(ddbc_output_site *s, const char *name)
{
	char *p = join(s->tmp, name);
	unlink(p);
	free(p);
	return 0;
}

static void finish(ddbc_output_site *s)
{
	ddbc_cleanup_done_under(s->tmp);
	ddbc_output_site_tmp = ddbc_output_site_dir = NULL;
	free(s->dir);
	free(s->tmp);
	memset(s, 0, sizeof(*s));
}

int ddbc_output_site_commit(ddbc_output_site *s)
{
	int rc;
	if (s->existed) {
		/* Every page is checked before any moves: the site is whole or
		 * the old one is left. */
		rc = each_file(s, may_move);
		if (rc == 0)
			rc = each_file(s, move_in);
		each_file(s, remove_one);
		rmdir(s->tmp);
	} else {
		rc = rename(s->tmp, s->dir);
		if (rc < 0) {
			ddbc_error("cannot write '%s': %s", s->dir, strerror(errno));
			each_file(s, remove_one);
			rmdir(s->tmp);
		}
	}
	int fd = rc == 0 ? open(s->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	finish(s);
	return rc;
}

void ddbc_output_site_abort(ddbc_output_site *s)
{
	if (!s->tmp)
		return;
	each_file(s, remove_one);
	rmdir(s->tmp);
	finish(s);
}
