/* emit_md.c - the documentation as Markdown */
#include "emit.h"

int ddbc_emit_md(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o, ddbc_diags *d)
{
	(void)out, (void)g, (void)o, (void)d;
	fputs("ddbc: doc is not built yet\n", stderr);
	return DDBC_EMIT_FAILED;
}
