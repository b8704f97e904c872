/* repo_path.c - a file's path from the root of its repository */
#include "util/repo_path.h"
#include "util/xalloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Whether folder dir (len bytes of buf, room behind it) holds ".git". */
static int has_git(char *buf, size_t len)
{
	struct stat st;
	strcpy(buf + len, "/.git");
	int found = stat(buf, &st) == 0;
	buf[len] = '\0';
	return found;
}

/* Whether dir is one of GIT_CEILING_DIRECTORIES (absolute paths, ':' apart):
 * as git does, the search for a repository goes no higher than below
 * them. A tarball unpacked inside a checkout (make distcheck) is then no
 * part of that checkout. */
static int is_ceiling(const char *dir)
{
	const char *list = getenv("GIT_CEILING_DIRECTORIES");
	if (!list || !*list)
		return 0;
	int found = 0;
	char *copy = ddbc_xstrdup(list);
	for (char *save = NULL, *tok = strtok_r(copy, ":", &save); tok && !found;
	     tok = strtok_r(NULL, ":", &save)) {
		char *real = realpath(tok, NULL);
		found = real && !strcmp(real, dir);
		free(real);
	}
	free(copy);
	return found;
}

char *ddbc_repo_path(const char *path)
{
	char *abs = realpath(path, NULL);
	if (!abs)
		return NULL;
	size_t n = strlen(abs);
	char *buf = ddbc_xcalloc(n + sizeof("/.git"), 1);
	memcpy(buf, abs, n);
	char *result = NULL;
	/* From the file's folder up; "/" itself is no repository's root here. */
	for (size_t len = n; len > 0 && !result;) {
		while (len > 0 && buf[len] != '/')
			len--;
		buf[len] = '\0';
		if (len > 0 && is_ceiling(buf))
			break;
		if (len > 0 && has_git(buf, len))
			result = ddbc_xstrdup(abs + len + 1);
	}
	free(buf);
	free(abs);
	return result;
}
