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
 * jansson's allocator is process-wide, and the design loader, the
 * emitters, the DynamoDB client and the language server use jansson too,
 * so the swap is scoped to check-items' runs: ddbc_jalloc_install sets
 * functions that take from the calling thread's region while it parses
 * (ddbc_jalloc_begin .. ddbc_jalloc_end) and use jansson's previous
 * functions (malloc) otherwise; free leaves the region's own memory alone
 * and gives the rest to the previous free. ddbc_jalloc_uninstall puts the
 * previous functions back. Scopes nest, across threads too: the first
 * install sets, the last uninstall restores, so the functions change only
 * when no run is open. Every other use of jansson, inside a scope or out,
 * is malloc and free as before, so a value made on either side of a
 * scope's edge is freed rightly on the other; only region memory must
 * never reach free, and it does not outlive its run (released before the
 * run's uninstall). Not per parse: two workers' parses overlap, so a
 * swap per parse would change jansson's functions under another
 * thread's parse, and a value of a region's tree that jansson frees
 * after the parse (one json_object_set_new replaces) must still meet
 * this free, not malloc's.
 *
 * A tree parsed into a region must not be kept (or a value of it put
 * into another tree) past ddbc_jalloc_clear.
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

/* Makes jansson allocate through this file's functions until the
 * matching ddbc_jalloc_uninstall (scopes nest; the last one out restores
 * jansson's previous functions). Open the scope before starting threads
 * that use jansson where that can be done: it writes jansson's two
 * function pointers. */
void ddbc_jalloc_install(void);
void ddbc_jalloc_uninstall(void);

/* Allocations of this thread's jansson calls come from r until
 * ddbc_jalloc_end; r is the thread's region for free until it is
 * released. */
void ddbc_jalloc_begin(ddbc_jalloc *r);
void ddbc_jalloc_end(void);

/* Forgets every tree parsed into r (none may be used after it). */
void ddbc_jalloc_clear(ddbc_jalloc *r);
void ddbc_jalloc_release(ddbc_jalloc *r);

#endif
