/* cli_live.h - `ddbc sample` and `ddbc verify`: the design taken to items
 * and to a running engine (src/live/) */
#ifndef DDBC_CLI_LIVE_H
#define DDBC_CLI_LIVE_H

#include "cli/cli_opts.h"
#include "emit/emit.h"

#include <stdio.h>

/* The words of --format. */
extern const ddbc_word ddbc_sample_formats[];
extern const ddbc_word ddbc_verify_formats[];

/* Writes the sample items of g to out in o's format: DDBC_EMIT_FAILED
 * (said on stderr) when some entity gets no item. */
ddbc_emit_result ddbc_cli_sample(FILE *out, const ddbc_design *g, const struct opts *o);

/* Runs verify for g (read from file) as o says; the exit status. */
exit_status ddbc_cli_verify(const ddbc_design *g, const char *file, const struct opts *o);

#endif
