/* items_jalloc.h - the memory of one item's JSON tree, freed at once
 *
 * jansson allocates each value, each object's table and each key on its
 * own (about a hundred malloc calls for an export line), and
 * json_decref walks the tree to free them one by one: together more
 * than check-items' own work on the item. A reader instead lets the tree
 * of the item it parses come from a region of its own, bumped while
 * jansson parses and cleared when the item is done, so the tree is never
 * walked to be freed.
 *
 * jansson's allocator is process-wide: ddbc_jalloc_install sets functions
 * that take from the calling thread's region while it parses
 * (ddbc_jalloc_begin .. ddbc_jalloc_end) and use malloc otherwise; free
 * leaves the region's own memory alone and frees the rest. Every other
 * use of jansson, in this thread or another, is malloc and free as
 * before. A tree parsed into a region must not be kept (or a value of it
 * put into another tree) past ddbc_jalloc_clear.
 */
#ifndef DDBC_ITEMS_JALLOC_H
#define DDBC_ITEMS_JALLOC_H

#include <stddef.h>

typedef struct ddbc_jalloc_block ddbc_jalloc_block;

typedef struct ddbc_jalloc {
	char *base;              /* the region kept from item to item */
	size_t used, cap;
	ddbc_jalloc_block *extra; /* blocks of an item larger than the region */
	size_t extra_bytes;      /* their sizes, added up */
	size_t extra_used;       /* bytes taken of the newest */
} ddbc_jalloc;

/* Makes jansson allocate through this file's functions (once a process). */
void ddbc_jalloc_install(void);

/* Allocations of this thread's jansson calls come from r until
 * ddbc_jalloc_end; r is the thread's region for free until it is
 * released. */
void ddbc_jalloc_begin(ddbc_jalloc *r);
void ddbc_jalloc_end(void);

/* Forgets every tree parsed into r (none may be used after it). */
void ddbc_jalloc_clear(ddbc_jalloc *r);
void ddbc_jalloc_release(ddbc_jalloc *r);

#endif
