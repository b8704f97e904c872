/* sample_int.h - what sample.c and sample_value.c share
 *
 * The generator is splitmix64 (Steele, Lea and Flood), seeded once per
 * run: small, fast, good enough for test data, and ddbc's own, so the
 * items are the same on every machine for a seed.
 */
#ifndef DDBC_LIVE_SAMPLE_INT_H
#define DDBC_LIVE_SAMPLE_INT_H

#include "live/sample.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct ddbc_rng {
	uint64_t state;
} ddbc_rng;

uint64_t ddbc_rng_next(ddbc_rng *r);
/* A number in [0, n); 0 when n is 0. */
uint64_t ddbc_rng_below(ddbc_rng *r, uint64_t n);
/* True with probability p. */
bool ddbc_rng_chance(ddbc_rng *r, double p);

/* What the `format:` text (and failing that the name) of an attribute
 * says its values look like. */
typedef enum ddbc_vformat {
	DDBC_VF_NONE,
	DDBC_VF_ULID,
	DDBC_VF_UUID,
	DDBC_VF_DATE,            /* 2025-01-15 */
	DDBC_VF_DATETIME,        /* 2025-01-15T10:00:00Z */
	DDBC_VF_DATETIME_MS,     /* 2025-01-15T10:00:00.000Z */
	DDBC_VF_EPOCH,           /* seconds since 1970 */
	DDBC_VF_EPOCH_MS,
	DDBC_VF_EMAIL
} ddbc_vformat;

ddbc_vformat ddbc_vformat_of(const ddbc_attr *a);

/* A format of a literal prefix and a count of characters ("U + 3 桁",
 * "C + 6 digits", "P + 32 hex digits", "3 桁の連番", "#rrggbb"): the
 * prefix, the count and the characters; false for any other format. */
bool ddbc_format_pattern(const char *f, strbuf *prefix, unsigned *count, const char **alphabet);

/* How one value is to be made. */
typedef struct ddbc_vspec {
	const ddbc_attr *a;
	const char *delim;       /* the design's key delimiter, never in a key part */
	bool key_part;           /* a key or a template interpolates it: varied widely */
	unsigned width;          /* the narrowest :0WIDTH it stands in, or 0 */
	const ddbc_pval *example; /* an example value of it, or NULL */
} ddbc_vspec;

/* A value for s->a: its DynamoDB JSON into *ddb (new reference) and, for a
 * scalar, its text into text. */
void ddbc_sample_value(ddbc_rng *r, const ddbc_vspec *s, json_t **ddb, strbuf *text);

/* A YAML value (an example's) as DynamoDB JSON, typed by its shape. */
json_t *ddbc_sample_pval_json(const ddbc_pval *v);

#endif
