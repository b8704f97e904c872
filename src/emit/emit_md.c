/* emit_md.c - the documentation as GitHub-flavoured Markdown
 *
 * The document (doc_write.c) through the Markdown backend (doc_md.c),
 * written out in pieces as it goes.
 */
#include "emit/emit_md.h"
#include "emit/doc_write.h"

ddbc_emit_result ddbc_emit_md(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o,
			      ddbc_diags *d)
{
	(void)d;
	ddbc_doc_write(&ddbc_doc_markdown, out, NULL, g, o ? o->lang : DDBC_LANG_EN);
	return DDBC_EMIT_OK;
}
