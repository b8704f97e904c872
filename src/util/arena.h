/* arena.h - one allocation region per design, freed in one call
 *
 * Everything the loader and the semantics pass build for a design (nodes,
 * strings, arrays) lives in the design's arena and dies with it, so no part
 * of the model has an owner of its own. The composer also keeps a scratch
 * arena that it clears after each streamed entry.
 */
#ifndef DDBC_ARENA_H
#define DDBC_ARENA_H

#include <stddef.h>

typedef struct ddbc_arena ddbc_arena;

/* Returns a new, empty arena; aborts on out-of-memory. */
ddbc_arena *ddbc_arena_new(void);
/* Frees the arena and everything allocated from it; NULL is fine. */
void ddbc_arena_free(ddbc_arena *a);

/* Zeroed memory, aligned for any type. Never NULL. */
void *ddbc_arena_alloc(ddbc_arena *a, size_t size);
/* Zeroed array of n elements of size each, with overflow checking. */
void *ddbc_arena_array(ddbc_arena *a, size_t n, size_t size);
/* A NUL-terminated copy of the first len bytes of s. */
char *ddbc_arena_strndup(ddbc_arena *a, const char *s, size_t len);
char *ddbc_arena_strdup(ddbc_arena *a, const char *s);
/* printf into the arena. */
char *ddbc_arena_printf(ddbc_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Frees everything allocated from a but keeps its first block for reuse:
 * a scratch arena cleared after each piece of work stays in the cache. */
void ddbc_arena_clear(ddbc_arena *a);
/* Makes child live as long as a: freeing a frees child too. */
void ddbc_arena_adopt(ddbc_arena *a, ddbc_arena *child);

/* Total bytes handed out, for the benchmark's memory report. */
size_t ddbc_arena_used(const ddbc_arena *a);

#endif
