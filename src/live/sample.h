/* sample.h - items of every entity a design accepts, made up
 *
 * `ddbc sample` writes them, `ddbc verify` writes them to an engine. For
 * each entity of a table, in the design's order, as many items as its
 * share of the count: the entities' `count:` figures (those without one
 * weigh as the least that has one), or equal shares when none has one;
 * at least one each when the count allows. Every item holds what the
 * entity requires; an attribute that is not required is in some items
 * only (in the share of the entity's example items that hold it, else
 * every other), and with it whatever its template needs. Values follow
 * the attribute's type, enum, `format:` (ULID, UUID, ISO 8601 dates and
 * times, epoch seconds or milliseconds, email addresses) and the shape of
 * its examples; key templates are rendered by the model's renderer from
 * those values, and a value that a key interpolates is drawn again when
 * the key it makes is taken. Values of an attribute that keys interpolate
 * are shared between entities of the same name (an Order takes the UserId
 * of a User), so that the patterns' partitions hold several entities.
 *
 * Every item is held to check-items (items.h's ddbc_item_check_one)
 * before it is kept; one that does not pass is drawn again, so the output
 * is clean by construction, and the same for the same seed (splitmix64,
 * no global state).
 */
#ifndef DDBC_LIVE_SAMPLE_H
#define DDBC_LIVE_SAMPLE_H

#include "model/model.h"
#include "util/strbuf.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

typedef enum ddbc_sample_format {
	DDBC_SAMPLE_JSONL,       /* {"Item": {...}} a line, as an S3 export */
	DDBC_SAMPLE_BATCH        /* BatchWriteItem's RequestItems, 25 puts each, one a
				  * line: {"TABLE": [{"PutRequest": {"Item": ...}}]} */
} ddbc_sample_format;

/* BatchWriteItem takes at most 25 requests. */
#define DDBC_BATCH_MAX 25

typedef struct ddbc_sample_opts {
	unsigned long count;     /* items in all */
	uint64_t seed;
} ddbc_sample_opts;

/* One item made: its entity, the item in DynamoDB JSON, and the text of
 * every scalar value it was made from, stored or not (a key part that
 * is not stored too): verify takes its parameter values there. */
typedef struct ddbc_sample_item {
	const ddbc_entity *entity;
	json_t *item;            /* {"A": {"S": "..."}, ...} */
	json_t *values;          /* {"A": "text", ...} */
} ddbc_sample_item;

typedef struct ddbc_sample {
	ddbc_sample_item *items;
	size_t n;
	/* entities that have fewer items than their share: their keys
	 * cannot tell more apart (a constant key), or none passed */
	strbuf notes;
} ddbc_sample;

/* Makes the items of g (a design without errors). Returns 0, or -1 with
 * why in err when an entity can make no item that check-items accepts. */
int ddbc_sample_make(const ddbc_design *g, const ddbc_sample_opts *o, ddbc_sample *out,
		     strbuf *err);
void ddbc_sample_release(ddbc_sample *s);

/* Writes the items in format f; 0, or -1 on a write error. */
int ddbc_sample_write(FILE *out, const ddbc_sample *s, ddbc_sample_format f);

/* The BatchWriteItem requests of items [from, to) of s, for the table of
 * their entities: {"RequestItems": {TABLE: [{"PutRequest": ...}]}}; the
 * items of one request are of one table (the first's). *next is where
 * the next request starts. */
json_t *ddbc_sample_batch(const ddbc_sample *s, size_t from, size_t *next);

#endif
