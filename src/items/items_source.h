/* items_source.h - the bytes of an items file, gzip or not
 *
 * Exports and dumps are often gzip-compressed (a DynamoDB export to S3
 * writes data/NAME.json.gz). The source looks at the first two bytes: the
 * gzip magic (1f 8b) means the rest is inflated with zlib as it is read,
 * member after member (concatenated gzip files are one stream, as gzip -d
 * reads them); anything else is passed through unchanged. Memory is two
 * fixed buffers whatever the size of the input.
 */
#ifndef DDBC_ITEMS_SOURCE_H
#define DDBC_ITEMS_SOURCE_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

typedef struct ddbc_items_source ddbc_items_source;

/* A source over in (not closed by the source). Free with
 * ddbc_items_source_free. */
ddbc_items_source *ddbc_items_source_new(FILE *in);
void ddbc_items_source_free(ddbc_items_source *s);

/* Reads up to n bytes into buf; returns how many, 0 at the end of the
 * input or on an error (then ddbc_items_source_error is not NULL). */
size_t ddbc_items_source_read(ddbc_items_source *s, unsigned char *buf, size_t n);

/* Why the last read failed (a read error, corrupt or truncated gzip
 * data), or NULL. The text is the source's. */
const char *ddbc_items_source_error(const ddbc_items_source *s);

/* Whether the input is gzip-compressed (known after the first read). */
bool ddbc_items_source_gzip(const ddbc_items_source *s);

/* Compressed bytes read so far (the file's own bytes), for progress. */
unsigned long long ddbc_items_source_consumed(const ddbc_items_source *s);

#endif
