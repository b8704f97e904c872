/* doc_render.c - the documentation's output, in pieces */
#include "emit/doc_render.h"
#include "emit/doc_writer.h"

#include <stdarg.h>

/* ---- output ---------------------------------------------------------------------------- */

/* The output goes to the file once this much is waiting. */
enum { PIECE_SIZE = 64 * 1024 };

void ddbc_doc_flush(ddbc_doc_out *o)
{
	if (o->file && o->sb.len >= PIECE_SIZE) {
		fwrite(o->sb.buf, 1, o->sb.len, o->file);
		ddbc_strbuf_reset(&o->sb);
	}
}

void ddbc_doc_wordsf(writer *w, const char *fmt, ...)
{
	strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	ddbc_strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	words(w, ddbc_strbuf_str(&sb));
	ddbc_strbuf_release(&sb);
}

