/* emit_cost.h - `ddbc cost`: the capacity and monthly cost of a design */
#ifndef DDBC_EMIT_COST_H
#define DDBC_EMIT_COST_H

#include "emit/cost_prices.h"
#include "emit/doc_views.h"
#include "emit/emit.h"

#include <jansson.h>

typedef enum ddbc_cost_format {
	DDBC_COST_TEXT,
	DDBC_COST_JSON,
	DDBC_COST_MD
} ddbc_cost_format;

/* The report (SPEC 7.4's JSON shape); the caller releases it. */
json_t *ddbc_cost_report(const ddbc_design *g, const ddbc_prices *pr);

/* The same with the views the caller holds (the documentation's). */
json_t *ddbc_cost_report_views(const ddbc_design *g, const ddbc_prices *pr, ddbc_views *views);

/* Writes the report in format fmt. */
ddbc_emit_result ddbc_emit_cost(FILE *out, const ddbc_design *g, const ddbc_prices *pr,
				ddbc_cost_format fmt);

#endif
