/* arena.c - bump allocator in chained blocks */
#include "util/arena.h"
#include "util/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BLOCK_SIZE (64 * 1024)
/* An arena past BIG_FROM (a large design's) takes its ordinary blocks of
 * BIG_BLOCK bytes straight from the system: they come zeroed, where
 * calloc zeroed each 64 KiB block again, a pass over all of a design's
 * memory (a 10,000-entity design's 60 MiB) before it is used. */
#define BIG_BLOCK (1024 * 1024)
#define BIG_FROM (4 * 1024 * 1024)
/* Every struct of the model needs at most pointer alignment; 8 rather than
 * max_align_t's 16 keeps the many short strings small. */
#define ALIGN 8

struct block {
	struct block *next;
	size_t size, used;
	size_t mapped;       /* bytes mapped for it, or 0 when malloc'd */
	max_align_t data[];
};

struct ddbc_arena {
	/* The head block's free bytes: an allocation that fits moves next and
	 * does nothing else (a large design makes millions of them). The head
	 * block's used is brought up to date when it stops being the head,
	 * and its bytes are counted in total then. */
	char *next, *end;
	struct block *head;
	struct block *arrays;        /* ddbc_arena_resize's, the newest first */
	size_t total;                /* bytes handed out, but for the head's */
	size_t peak;                 /* the most total ever was, across clears */
	struct ddbc_arena *adopted;  /* arenas freed with this one */
	struct ddbc_arena *sibling;  /* next in the adopter's list */
};

/* Where next and end point without a head block: nothing fits there but
 * an allocation of 0 bytes, which is not NULL. */
static max_align_t no_block[1];

ddbc_arena *ddbc_arena_new(void)
{
	ddbc_arena *a = ddbc_xcalloc(1, sizeof(ddbc_arena));
	a->next = a->end = (char *)no_block;
	return a;
}

/* The bytes handed out of the head block. */
static size_t head_used(const ddbc_arena *a)
{
	return a->head ? (size_t)(a->next - (char *)a->head->data) : 0;
}

/* The head block's used, up to date (before it is freed or replaced). */
static void sync_head(ddbc_arena *a)
{
	if (a->head)
		a->head->used = head_used(a);
}

static void set_head(ddbc_arena *a, struct block *b)
{
	a->head = b;
	a->next = b ? (char *)b->data + b->used : (char *)no_block;
	a->end = b ? (char *)b->data + b->size : (char *)no_block;
}

/* Mapped blocks freed while the process keeps its freed memory
 * (ddbc_xalloc_keep_free: the language server, which builds the next model at
 * the next edit). Zeroing the bytes a block handed out costs less than the
 * system's faulting its pages in and zeroing them again. */
static struct block *pool;

static void free_blocks(struct block *b)
{
	while (b) {
		struct block *next = b->next;
		if (b->mapped && ddbc_xalloc_keeps_free()) {
			b->next = pool;
			pool = b;
		} else if (b->mapped) {
			munmap(b, b->mapped);
		} else {
			free(b);
		}
		b = next;
	}
}

void ddbc_arena_release_pool(void)
{
	while (pool) {
		struct block *next = pool->next;
		munmap(pool, pool->mapped);
		pool = next;
	}
}

/* A BIG_BLOCK of zero pages (a pooled one, zeroed where it was used, or
 * fresh ones), or NULL when the system has none to map (calloc is tried
 * then). */
static struct block *map_block(void)
{
	if (pool) {
		struct block *b = pool;
		pool = b->next;
		memset(b->data, 0, b->used);
		return b;
	}
	void *p = mmap(NULL, BIG_BLOCK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	struct block *b = p;
	b->mapped = BIG_BLOCK;
	b->size = BIG_BLOCK - sizeof(*b);
	return b;
}

void ddbc_arena_free(ddbc_arena *a)
{
	if (!a)
		return;
	while (a->adopted) {
		ddbc_arena *child = a->adopted;
		a->adopted = child->sibling;
		ddbc_arena_free(child);
	}
	sync_head(a);
	free_blocks(a->head);
	free_blocks(a->arrays);
	free(a);
}

void ddbc_arena_clear(ddbc_arena *a)
{
	size_t total = a->total + head_used(a);
	sync_head(a);
	/* The head is the newest and largest ordinary block: keep it. */
	struct block *keep = a->head;
	if (keep && keep->size > BLOCK_SIZE)
		keep = NULL;
	free_blocks(keep ? keep->next : a->head);
	free_blocks(a->arrays);
	a->arrays = NULL;
	if (keep) {
		memset(keep->data, 0, keep->used);
		keep->used = 0;
		keep->next = NULL;
	}
	set_head(a, keep);
	if (total > a->peak)
		a->peak = total;
	a->total = 0;
}

void ddbc_arena_adopt(ddbc_arena *a, ddbc_arena *child)
{
	child->sibling = a->adopted;
	a->adopted = child;
}

/* A new block with need bytes free (a multiple of ALIGN): the new head,
 * or, for a big allocation, a block of its own behind the head, so the
 * head's free space is not wasted. */
static struct block *new_block(ddbc_arena *a, size_t need)
{
	/* Blocks grow with the arena, from 1 KiB to BLOCK_SIZE: many arenas
	 * are small and short-lived. A cleared arena goes on at the size it
	 * had reached. */
	size_t total = a->total + head_used(a);
	size_t grown = total > a->peak ? total : a->peak;
	size_t size = grown < 1024 ? 1024 : grown < BLOCK_SIZE ? grown : BLOCK_SIZE;
	if (need > size)
		size = need;
	/* The end of a block's bytes stays aligned: an aligned next never
	 * passes it. */
	size &= ~(size_t)(ALIGN - 1);
	struct block *b = NULL;
	if (total >= BIG_FROM && need <= BLOCK_SIZE / 4)
		b = map_block();
	if (!b) {
		/* calloc: memory fresh from the system is zero already, and
		 * calloc knows when it is. */
		b = ddbc_xcalloc(1, sizeof(*b) + size);
		b->size = size;
	}
	b->used = 0;
	if (a->head && need > BLOCK_SIZE / 4) {
		b->next = a->head->next;
		a->head->next = b;
	} else {
		sync_head(a);
		a->total += head_used(a);
		b->next = a->head;
		set_head(a, b);
	}
	return b;
}

/* size bytes that do not fit the head block: from a new one. */
static void *alloc_slow(ddbc_arena *a, size_t size)
{
	if (size > SIZE_MAX - ALIGN)
		ddbc_xalloc_die();
	/* A new block's data is aligned for anything. */
	struct block *b = new_block(a, (size + ALIGN - 1) & ~(size_t)(ALIGN - 1));
	if (b != a->head) {
		b->used = size;
		a->total += size;
		return b->data;
	}
	a->next += size;
	return b->data;
}

/* The next size bytes of the head block at a multiple of align (a new
 * block when they do not fit); zero, like all memory not handed out
 * before. Strings take align 1: a design has hundreds of thousands of
 * short ones, and rounding each to 8 bytes cost 3.5 bytes a string. */
static inline void *alloc_aligned(ddbc_arena *a, size_t size, size_t align)
{
	char *p = (char *)(((uintptr_t)a->next + align - 1) & ~(uintptr_t)(align - 1));
	if (size <= (size_t)(a->end - p)) {
		a->next = p + size;
		return p;
	}
	return alloc_slow(a, size);
}

/* Blocks start zeroed and are never handed out twice (a cleared block is
 * zeroed again), so memory that is not handed out yet is zero. */
void *ddbc_arena_alloc(ddbc_arena *a, size_t size)
{
	return alloc_aligned(a, size, ALIGN);
}

void *ddbc_arena_array(ddbc_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		ddbc_xalloc_die();
	return ddbc_arena_alloc(a, n * size);
}

char *ddbc_arena_strndup(ddbc_arena *a, const char *s, size_t len)
{
	if (len == SIZE_MAX)
		ddbc_xalloc_die();
	char *p = alloc_aligned(a, len + 1, 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *ddbc_arena_strdup(ddbc_arena *a, const char *s)
{
	return ddbc_arena_strndup(a, s, strlen(s));
}

char *ddbc_arena_printf(ddbc_arena *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		ddbc_xalloc_die();
	char *p = ddbc_arena_alloc(a, (size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void *ddbc_arena_resize(ddbc_arena *a, void *p, size_t n, size_t size)
{
	if (size && n > (SIZE_MAX - sizeof(struct block)) / size)
		ddbc_xalloc_die();
	struct block *b = NULL;
	if (p) {
		b = a->arrays;
		if ((void *)b->data != p)
			abort(); /* not the newest array: a bug in the caller */
		a->arrays = b->next;
		a->total -= b->used;
	}
	/* realloc moves a large block by remapping its pages, not copying. */
	b = ddbc_xrealloc(b, sizeof(*b) + n * size);
	b->mapped = 0;
	b->size = b->used = n * size;
	b->next = a->arrays;
	a->arrays = b;
	a->total += b->used;
	return b->data;
}
