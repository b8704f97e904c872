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

char *ddbc_repo_path(const char *path)
{
	char *abs = realpath(path, NULL);
	if (!abs)
		return NULL;
	size_t n = strlen(abs);
	char *buf = xcalloc(n + sizeof("/.git"), 1);
	memcpy(buf, abs, n);
	char *result = NULL;
	/* From the file's folder up; "/" itself is no repository's root here. */
	for (size_t len = n; len > 0 && !result;) {
		while (len > 0 && buf[len] != '/')
			len--;
		buf[len] = '\0';
		if (len > 0 && has_git(buf, len))
			result = xstrdup(abs + len + 1);
	}
	free(buf);
	free(abs);
	return result;
}
