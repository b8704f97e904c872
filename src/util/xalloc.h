/* xalloc.h - allocation that never returns NULL
 *
 * ddbc is a batch tool: running out of memory ends the run with a message
 * rather than threading failure through every caller.
 */
#ifndef DDBC_XALLOC_H
#define DDBC_XALLOC_H

#include <stddef.h>

void xalloc_die(void) __attribute__((noreturn));
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grows *p (of *cap elements of size each) to hold at least need elements. */
void xgrow(void **p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
