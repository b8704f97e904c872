/* cli_cost.h - `ddbc cost`: prices chosen, then the report written */
#ifndef DDBC_CLI_COST_H
#define DDBC_CLI_COST_H

#include "emit/emit.h"

#include <stdio.h>

/* Writes design g's cost report in format ("text", "json", "md") with the
 * prices of file prices (NULL: compiled in) for the design's region
 * (default us-east-1). A price file that cannot be used, or a region it
 * lacks, is reported on stderr naming the file and the field (the design's
 * line for its region): DDBC_EMIT_FAILED, nothing written. */
ddbc_emit_result ddbc_cli_cost(FILE *out, const ddbc_design *g, const char *file,
			       const char *prices, const char *format);

#endif
