/* items_jalloc.c - the memory of one item's JSON tree, freed at once
 *
 * A bump allocator: the region is one block, reused from item to item; an
 * item that needs more gets extra blocks for itself, freed when it is
 * done, and the region grows to their size (up to REGION_MAX) so the next
 * such item fits. Which memory is the region's is known by address, so
 * free tells it from malloc's without a header on every allocation.
 */
#include "items/items_jalloc.h"
#include "util/xalloc.h"

#include <jansson.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define REGION_FIRST (256u << 10)
#define REGION_MAX (8u << 20)
#define EXTRA_MIN (64u << 10)
#define ALIGN alignof(max_align_t)

struct ddbc_jalloc_block {
	ddbc_jalloc_block *next;
	size_t size;             /* bytes after the header */
	alignas(max_align_t) char data[];
};

/* The region this thread's jansson calls allocate from (while parsing),
 * and the one whose memory free leaves alone. */
static _Thread_local ddbc_jalloc *active;
static _Thread_local ddbc_jalloc *owner;

/* How many scopes (ddbc_jalloc_install .. ddbc_jalloc_uninstall) are
 * open, and jansson's functions from before the first: what memory that
 * is not a region's comes from and goes back to. */
static pthread_mutex_t scope_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned scopes;
static json_malloc_t outer_malloc = malloc;
static json_free_t outer_free = free;

static bool in_block(const char *p, const char *base, size_t size)
{
	return base && (uintptr_t)p - (uintptr_t)base < size;
}

static bool owned(const ddbc_jalloc *r, const void *p)
{
	if (in_block(p, r->base, r->cap))
		return true;
	for (const ddbc_jalloc_block *b = r->extra; b; b = b->next)
		if (in_block(p, b->data, b->size))
			return true;
	return false;
}

static void *take(ddbc_jalloc *r, size_t size)
{
	size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
	if (!r->base) {
		r->cap = REGION_FIRST;
		r->base = ddbc_xmalloc(r->cap);
	}
	if (size <= r->cap - r->used) {
		void *p = r->base + r->used;
		r->used += size;
		return p;
	}
	/* Past the region: the newest extra block, or a new one of at least
	 * 64 KiB that the next allocations fill in turn. */
	ddbc_jalloc_block *b = r->extra;
	if (!b || size > b->size - r->extra_used) {
		size_t bsize = size < EXTRA_MIN ? EXTRA_MIN : size;
		b = malloc(sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		b->next = r->extra;
		r->extra = b;
		r->extra_bytes += bsize;
		r->extra_used = 0;
	}
	void *p = b->data + r->extra_used;
	r->extra_used += size;
	return p;
}

static void *jmalloc(size_t size)
{
	ddbc_jalloc *r = active;
	return r ? take(r, size ? size : 1) : outer_malloc(size);
}

static void jfree(void *p)
{
	ddbc_jalloc *r = owner;
	if (p && r && owned(r, p))
		return;
	outer_free(p);
}

void ddbc_jalloc_install(void)
{
	pthread_mutex_lock(&scope_lock);
	if (scopes++ == 0) {
		json_get_alloc_funcs(&outer_malloc, &outer_free);
		json_set_alloc_funcs(jmalloc, jfree);
	}
	pthread_mutex_unlock(&scope_lock);
}

void ddbc_jalloc_uninstall(void)
{
	pthread_mutex_lock(&scope_lock);
	if (scopes && --scopes == 0)
		json_set_alloc_funcs(outer_malloc, outer_free);
	pthread_mutex_unlock(&scope_lock);
}

void ddbc_jalloc_begin(ddbc_jalloc *r)
{
	active = owner = r;
}

void ddbc_jalloc_end(void)
{
	active = NULL;
}

static void free_extra(ddbc_jalloc *r)
{
	while (r->extra) {
		ddbc_jalloc_block *b = r->extra;
		r->extra = b->next;
		free(b);
	}
	r->extra_bytes = 0;
}

void ddbc_jalloc_clear(ddbc_jalloc *r)
{
	if (r->extra) {
		size_t want = r->used + r->extra_bytes;
		free_extra(r);
		if (want > r->cap && want <= REGION_MAX) {
			free(r->base);
			r->cap = want + want / 4;
			r->base = ddbc_xmalloc(r->cap);
		}
	}
	r->used = 0;
}

void ddbc_jalloc_release(ddbc_jalloc *r)
{
	if (owner == r)
		owner = NULL;
	if (active == r)
		active = NULL;
	free_extra(r);
	free(r->base);
	r->base = NULL;
	r->used = r->cap = 0;
}
