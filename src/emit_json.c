/* emit_json.c - CreateTable, model and query JSON */
#include "emit.h"

int ddbc_emit_create_table(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
			   ddbc_diags *d)
{
	(void)out, (void)g, (void)o, (void)d;
	fputs("ddbc: export is not built yet\n", stderr);
	return DDBC_EMIT_FAILED;
}

int ddbc_emit_model(FILE *out, const ddbc_design *g, const ddbc_export_opts *o, ddbc_diags *d)
{
	return ddbc_emit_create_table(out, g, o, d);
}

int ddbc_emit_queries(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
		      ddbc_diags *d)
{
	return ddbc_emit_create_table(out, g, o, d);
}
