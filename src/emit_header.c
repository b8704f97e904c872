/* emit_header.c - the C header */
#include "emit.h"

int ddbc_emit_header(FILE *out, const ddbc_design *g, const ddbc_header_opts *o,
		     ddbc_diags *d)
{
	(void)out, (void)g, (void)o, (void)d;
	fputs("ddbc: header is not built yet\n", stderr);
	return DDBC_EMIT_FAILED;
}
