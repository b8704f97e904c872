/* capacity.h - the read and write units of requests, and storage, as
 * DynamoDB counts them (developer guide: "DynamoDB read and write
 * operations", "Global secondary indexes", "Local secondary indexes")
 *
 * Units are per slot of table->indexes: slot 0 is the table, then its
 * GSIs, then its LSIs. A figure the design cannot give is DDBC_UNKNOWN.
 *   write   ceil(item bytes / 1 KB) on the table; on each index that holds
 *           the item, ceil(entry bytes / 1 KB): one write to put or delete
 *           the entry, two (a delete and a put) when the index key changes,
 *           none when the index holds the item neither before nor after
 *   get     ceil(item bytes / 4 KB), half of that eventually consistent;
 *           an item that is not there still costs one 4 KB read
 *   query   the bytes of every item returned (an index: of its entries),
 *           summed and rounded up to 4 KB once, halved when eventually
 *           consistent (a GSI always is); one that returns nothing still
 *           costs one 4 KB read (API reference, Query); an LSI query that
 *           returns attributes the LSI does not project also reads each
 *           whole item from the table, each rounded up to 4 KB
 *   scan    as a query over every item of the table (or index); the API
 *           reference says no minimum for a Scan: an empty one costs 0
 * Storage: each item plus 100 bytes, each index entry plus 100 bytes.
 */
#ifndef DDBC_CAPACITY_H
#define DDBC_CAPACITY_H

#include "model/model.h"
#include "model/request_rows.h"

#include <stdbool.h>
#include <stdint.h>

#define DDBC_UNKNOWN (-1.0)
/* Bytes DynamoDB adds to every item and every index entry for storage. */
#define DDBC_STORAGE_OVERHEAD 100

/* An example item and the entity it belongs to. */
typedef struct ddbc_cap_item {
	const ddbc_entity *entity;
	const ddbc_pval *item;
} ddbc_cap_item;

/* Units of one write on index ix: the item's entry before (NULL: not
 * there) and after (NULL: deleted). changed: the write rewrites the
 * entry's attributes even where before and after are the same item (an
 * update whose new values the design does not give). */
double ddbc_index_write_units(const ddbc_index *ix, const ddbc_entity *e,
			      const ddbc_pval *before, const ddbc_pval *after, bool changed);

/* Read units of bytes read in one request: 4 KB rounding once. */
double ddbc_read_units(uint64_t bytes, bool consistent);
/* Write units of an item of bytes: 1 KB rounding. */
double ddbc_write_units(uint64_t bytes);

typedef struct ddbc_entity_cap {
	size_t examples;
	bool size_known;         /* from the examples, else from item_bytes */
	uint64_t max_bytes;
	double mean_bytes;
	double *write;           /* per slot: a put of the largest item; 0 on an
				  * index that never holds it */
	double *storage;         /* per slot: bytes stored, with count */
} ddbc_entity_cap;

/* The entity's sizes, the units of one put, and with `count` the bytes
 * stored. The arrays live in arena. */
void ddbc_entity_capacity(ddbc_arena *arena, const ddbc_entity *e, ddbc_entity_cap *out);

/* DynamoDB's page: a Query or Scan reads up to 1 MB a request (API
 * reference, Query and Scan: "a maximum of 1 MB of data"), about 256 units
 * strongly consistent, 128 eventually: the page ends with the item that
 * brings it to 1 MB, so it may hold that item's bytes more (capacity.c). */
#define DDBC_PAGE_BYTES 1048576u

typedef struct ddbc_pattern_cap {
	bool known;              /* the items it reads or writes are known */
	bool fetches;            /* an LSI query that reads the table too */
	bool declared;           /* a read's items come from `items:` or `limit:` */
	size_t items;            /* items returned (over every page) or written */
	size_t requests;         /* requests one use takes: a read's pages, else 1 */
	double bytes;            /* bytes read (index: of the entries) or written */
	double *read;            /* per slot, summed over the pages; 0 for a write */
	double *write;           /* per slot; all 0 for a read */
} ddbc_pattern_cap;

/* The units of p's request over items: the example items it returns (a
 * read), or the one it writes (put, update, delete: items[0], or none).
 * A query's or scan's `items:` (else `limit:`, a full page) wins over the
 * examples: that many entries of the mean size of the example items it
 * returns (none: of every example of the entities it matches that the
 * index holds; none either: their item_bytes where the entry is the whole
 * item; else unknown). The items are read in pages of at most `limit`
 * items and 1 MB (the item that reaches 1 MB ends a page), each page
 * rounded up to 4 KB on its own.
 * When a write names no example item, the first example of its first
 * entity stands for it, else that entity's item_bytes. */
void ddbc_pattern_capacity(ddbc_arena *arena, const ddbc_pattern *p, const ddbc_cap_item *items,
			   size_t n, ddbc_pattern_cap *out);

/* The example items p's request returns or names (request_rows.h), given
 * what it sends of its key, with their entities; the caller frees *out. */
size_t ddbc_request_items(const ddbc_pattern *p, const ddbc_key_sent *sent, ddbc_views *views,
			  ddbc_cap_item **out);

/* The units of a read, delete or update of p over the example items its
 * request returns or names, the request made from the design alone
 * (ddbc_request_key_sent): what the documentation and `ddbc cost` count.
 * False, *out untouched, when the design cannot make the request, or p
 * is a put (the items it writes are the export's). */
bool ddbc_pattern_design_capacity(ddbc_arena *arena, const ddbc_design *g, const ddbc_pattern *p,
				  ddbc_views *views, ddbc_pattern_cap *out);

/* Whether an LSI query of p returns an attribute that ix does not project. */
bool ddbc_pattern_fetches(const ddbc_pattern *p);

#endif
