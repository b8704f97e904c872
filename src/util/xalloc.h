/* xalloc.h - allocation that never returns NULL
 *
 * ddbc is a batch tool: running out of memory ends the run with a message
 * rather than threading failure through every caller.
 */
#ifndef DDBC_XALLOC_H
#define DDBC_XALLOC_H

#include <stdbool.h>
#include <stddef.h>

void xalloc_die(void) __attribute__((noreturn));
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* Grows *p (of *cap elements of size each) to hold at least need elements. */
void xgrow(void **p, size_t *cap, size_t need, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Gives the pages of freed memory back to the system (where the C library
 * can): a phase that has freed much of what it used (the composer's
 * scratch, the semantics pass's temporaries) leaves holes in the heap that
 * would otherwise stay resident to the end of the run. */
void xalloc_release_free(void);
/* A process that frees a model and builds the next one within moments
 * (the language server, at each edit) keeps its freed pages instead: given
 * back, each would be faulted in and zeroed again by the system at the next
 * check, a tenth of a check's time. Its resident size then stays at its
 * peak, which the next check reaches again anyway. */
void xalloc_keep_free(bool keep);
bool xalloc_keeps_free(void);

#endif
