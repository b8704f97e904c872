/* items_stream.h - splitting a stream of JSON items into single items
 *
 * jansson parses whole documents only, and a table export can be larger
 * than memory. The reader reads its input in fixed-size chunks and finds
 * the byte span of one item at a time, tracking strings, escapes, nesting
 * and positions; each span is then parsed into a jansson tree (items.c).
 * Memory is bounded by the chunk size plus the largest single item, never
 * by the number of items.
 *
 * The shape of the input is decided by its first value:
 *   '['  a JSON array of items                       DDBC_SHAPE_ARRAY
 *   '{'  a scan result {"Items": [...], "Count": ...}  DDBC_SHAPE_SCAN
 *        when its "Items" member comes first or after scan metadata only
 *        (Count, ScannedCount, LastEvaluatedKey, ConsumedCapacity,
 *        NextToken, ResponseMetadata), and must then be an array; several scan
 *        results one after the other (pages) are read in turn, and every
 *        member other than "Items" is checked to be JSON and skipped;
 *   '{'  a BatchWriteItem request file                   DDBC_SHAPE_BATCH
 *        {"Table": [{"PutRequest": {"Item": {...}}}, ...], "Other": [...]}
 *        when its first member is an array whose first element's first
 *        member is PutRequest or DeleteRequest; each request is one span,
 *        with the table it is for (unwrapping it is the caller's
 *        business); several such objects may follow one another;
 *   '{'  otherwise: JSON lines, one item per value     DDBC_SHAPE_LINES
 *        (export lines {"Item": {...}} too: unwrapping them is the
 *        caller's business). Values may be separated by any whitespace;
 *        when the first is on one line, every item is taken to be (as in
 *        exports), and a line whose brackets do not close before a line
 *        that starts with '{' is an item of its own, marked cut, so that
 *        one damaged line does not swallow the rest of the file.
 * Anything else is not an input of items, reported as such.
 */
#ifndef DDBC_ITEMS_STREAM_H
#define DDBC_ITEMS_STREAM_H

#include "util/strbuf.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

typedef enum ddbc_items_shape {
	DDBC_SHAPE_UNKNOWN,      /* nothing read yet, or an empty input */
	DDBC_SHAPE_ARRAY,
	DDBC_SHAPE_LINES,
	DDBC_SHAPE_SCAN,
	DDBC_SHAPE_BATCH
} ddbc_items_shape;

/* A position in the input: 1-based line and column; the column counts
 * characters (UTF-8 sequences), as jansson's errors do. */
typedef struct ddbc_ipos {
	unsigned long line, column;
} ddbc_ipos;

/* One item's JSON text. data is valid until the next call of
 * ddbc_items_next and is not NUL-terminated. */
typedef struct ddbc_item_span {
	const char *data;
	size_t len;
	unsigned long index;     /* 1-based: the index-th item of the input */
	ddbc_ipos pos;           /* where its first byte is */
	const char *table;       /* a batch's request: the table it is for; else NULL */
	bool cut;                /* one item a line: the line ended before the item */
} ddbc_item_span;

/* A problem with the input, positioned. The message, of any length, is
 * the error's own: zero-initialise the error, and ddbc_strbuf_release its
 * message when done. */
typedef struct ddbc_items_error {
	ddbc_ipos pos;
	strbuf message;
} ddbc_items_error;

/* Sets err to the message fmt formats, at pos. */
void ddbc_items_error_vset(ddbc_items_error *err, ddbc_ipos pos, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* The default cap on one item's JSON text. DynamoDB items are at most
 * 400 KB, and DynamoDB JSON adds little more than the type tags. */
#define DDBC_ITEMS_MAX_ITEM (4u << 20)

typedef struct ddbc_items_reader ddbc_items_reader;

/* A reader of in (not closed by the reader) that rejects items whose
 * text is longer than max_item bytes. Free with ddbc_items_reader_free. */
ddbc_items_reader *ddbc_items_reader_new(FILE *in, size_t max_item);
void ddbc_items_reader_free(ddbc_items_reader *r);

typedef enum ddbc_items_step {
	DDBC_ITEMS_ITEM,         /* *span holds the next item */
	DDBC_ITEMS_END,          /* the input ended */
	DDBC_ITEMS_BAD           /* the input is bad (truncated, not JSON, the wrong
				  * shape, an item over the cap, unreadable): *err
				  * says why, and the reader is done */
} ddbc_items_step;

/* Reads the next item. */
ddbc_items_step ddbc_items_next(ddbc_items_reader *r, ddbc_item_span *span, ddbc_items_error *err);

/* The shape decided by the first value (DDBC_SHAPE_UNKNOWN before it). */
ddbc_items_shape ddbc_items_shape_of(const ddbc_items_reader *r);

/* Position of the character at byte offset off of span's text, counting
 * from span->pos (so an error jansson reports inside an item, or a key
 * found in it, can be given in the input's terms). */
ddbc_ipos ddbc_items_offset_pos(const ddbc_item_span *span, size_t off);

/* Where the error jansson reported in json_loadb(span's text) is: its
 * position counts the bytes read, which end just past the offending
 * token, or at the offending byte inside a string (a control character,
 * invalid UTF-8); the position returned is that byte, or the token's last. */
ddbc_ipos ddbc_items_json_error_pos(const ddbc_item_span *span, int position);

#endif
