/* paths.h - finding the installed data files (rule pages, page template)
 *
 * Looked for in order: the directory an environment variable names; the
 * directory configure chose; the same directory relative to the running
 * binary (BIN/../share/...), so an installation moved elsewhere or staged
 * with DESTDIR still finds its files.
 */
#ifndef DDBC_PATHS_H
#define DDBC_PATHS_H

/* The path of file in the first of those directories that holds it, or
 * NULL. env: the variable's name; installed: the configured directory;
 * from_prefix: that directory relative to the prefix, e.g.
 * "share/doc/ddbc/rules". Free the result. */
char *ddbc_find_data(const char *env, const char *installed, const char *from_prefix,
		     const char *file);

#endif
