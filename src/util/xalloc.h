/* xalloc.h - allocation that never returns NULL
 *
 * ddbc is a batch tool: running out of memory ends the run with a message
 * rather than threading failure through every caller.
 */
#ifndef DDBC_XALLOC_H
#define DDBC_XALLOC_H

#include <stdbool.h>
#include <stddef.h>

void ddbc_xalloc_die(void) __attribute__((noreturn));
void *ddbc_xmalloc(size_t size);
void *ddbc_xcalloc(size_t n, size_t size);
void *ddbc_xrealloc(void *p, size_t size);
/* Grows *p (of *cap elements of size each) to hold at least need elements. */
void ddbc_xgrow(void **p, size_t *cap, size_t need, size_t size);
char *ddbc_xstrdup(const char *s);
char *ddbc_xstrndup(const char *s, size_t n);
/* Gives the pages of freed memory back to the system (where the C library
 * can): a phase that has freed much of what it used (the composer's
 * scratch, the semantics pass's temporaries) leaves holes in the heap that
 * would otherwise stay resident to the end of the run. */
void ddbc_xalloc_release_free(void);
/* A process that frees a model and builds the next one within moments
 * (the language server, at each edit) keeps its freed pages instead: given
 * back, each would be faulted in and zeroed again by the system at the next
 * check, a tenth of a check's time. Its resident size then stays at its
 * peak, which the next check reaches again anyway. */
void ddbc_xalloc_keep_free(bool keep);
bool ddbc_xalloc_keeps_free(void);

#endif
