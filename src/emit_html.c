/* emit_html.c - the documentation as an HTML page */
#include "emit.h"

int ddbc_emit_html(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o, ddbc_diags *d)
{
	(void)out, (void)g, (void)o, (void)d;
	fputs("ddbc: doc --format html is not built yet\n", stderr);
	return DDBC_EMIT_FAILED;
}
