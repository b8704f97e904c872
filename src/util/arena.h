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

/* Resizes an array that is filled a piece at a time and then belongs to
 * the arena as it is, with no copy (an entity's attributes, streamed in
 * one by one): p is NULL at first, then what the last call returned.
 * Only the arena's newest such array may be resized, and it may move.
 * Unlike the arena's other memory, elements added are not zeroed: the
 * caller sets them, and the pages of a capacity never used stay untouched. */
void *ddbc_arena_resize(ddbc_arena *a, void *p, size_t n, size_t size);

/* Frees everything allocated from a but keeps its first block for reuse:
 * a scratch arena cleared after each piece of work stays in the cache. */
void ddbc_arena_clear(ddbc_arena *a);
/* Makes child live as long as a: freeing a frees child too. */
void ddbc_arena_adopt(ddbc_arena *a, ddbc_arena *child);
/* Gives back the blocks freed arenas left for reuse while the process kept
 * its freed memory (ddbc_xalloc_keep_free). */
void ddbc_arena_release_pool(void);

#endif
