/* output_int.h - what output.c and output_site.c share
 *
 * Paths to remove when a signal ends the run: a temporary file, or a
 * temporary folder (removed after the files in it, which are noted after
 * it). The list only grows, and a node is published whole, so the signal
 * handler can walk it at any moment.
 */
#ifndef DDBC_OUTPUT_INT_H
#define DDBC_OUTPUT_INT_H

#include <signal.h>
#include <stdbool.h>

typedef struct ddbc_cleanup ddbc_cleanup;

/* Holds back SIGTERM, SIGINT and SIGHUP (their handlers installed first),
 * saving the mask in old, from before a temporary path is made until it is
 * noted; ddbc_cleanup_release delivers what came meanwhile. Without it a
 * signal between mkstemp and ddbc_cleanup_add leaves the file behind. */
void ddbc_cleanup_hold(sigset_t *old);
void ddbc_cleanup_release(const sigset_t *old);

/* Notes path (copied) for removal on SIGTERM, SIGINT or SIGHUP. */
ddbc_cleanup *ddbc_cleanup_add(const char *path, bool is_dir);
/* path no longer needs removing. */
void ddbc_cleanup_done(ddbc_cleanup *c);
/* Every noted path under folder dir no longer needs removing, nor dir. */
void ddbc_cleanup_done_under(const char *dir);

/* -1 with a message (naming it shown) when a rename onto name would
 * replace an input of the run or a directory; a symlink there is itself
 * replaced, so its target is no matter. */
int ddbc_output_refuse_name(const char *name, const char *shown);
/* path with its symlinks followed (malloc'd), or NULL with errno set. */
char *ddbc_output_resolve(const char *path);
/* The folder part of path ("." when it has none), malloc'd. */
char *ddbc_output_dirname(const char *path);
/* The temporary folder of the site being written, or NULL, and the
 * folder it becomes (for messages). */
extern const char *ddbc_output_site_tmp, *ddbc_output_site_dir;

#endif
