/* paths.c - finding the installed data files */
#include "util/paths.h"
#include "util/xalloc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *join(const char *dir, const char *file)
{
	size_t n = strlen(dir) + strlen(file) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s", dir, file);
	return p;
}

static char *if_readable(char *path)
{
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

/* BIN/.. of the running binary, or NULL. */
static char *exe_prefix(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	for (int i = 0; i < 2; i++) {
		char *slash = strrchr(buf, '/');
		if (!slash)
			return NULL;
		*slash = '\0';
	}
	return xstrdup(buf[0] ? buf : "/");
}

char *ddbc_find_data(const char *env, const char *installed, const char *from_prefix,
		     const char *file)
{
	const char *dir = env ? getenv(env) : NULL;
	char *p;
	if (dir && *dir && (p = if_readable(join(dir, file))))
		return p;
	if ((p = if_readable(join(installed, file))))
		return p;
	char *prefix = exe_prefix();
	if (!prefix)
		return NULL;
	char *reldir = join(prefix, from_prefix);
	p = if_readable(join(reldir, file));
	free(reldir);
	free(prefix);
	return p;
}
