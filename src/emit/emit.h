/* emit.h - every output of a checked design
 *
 * Each emitter reads the derived model (semantics.h) and writes to out; none
 * changes the model or re-derives a fact. The command line runs an emitter
 * only on a design without errors, into memory, and writes the result to
 * its destination only when the emitter succeeded (output.h), so a failing
 * run writes nothing.
 *
 * Return value: 0 on success; DDBC_EMIT_FINDINGS when the emitter added
 * error findings to d (exit status 1); DDBC_EMIT_FAILED when it could not
 * run at all (a message was printed to stderr; exit status 2).
 */
#ifndef DDBC_EMIT_H
#define DDBC_EMIT_H

#include "model/model.h"

#include <stdio.h>

enum { DDBC_EMIT_OK = 0, DDBC_EMIT_FINDINGS = 1, DDBC_EMIT_FAILED = 2 };

typedef enum ddbc_lang_id {
	DDBC_LANG_EN,
	DDBC_LANG_JA
} ddbc_lang_id;

typedef struct ddbc_doc_opts {
	ddbc_lang_id lang;
	const char *template_dir;    /* page.html and style.css; NULL = installed */
} ddbc_doc_opts;

/* emit_md.c: the documentation as GitHub-flavoured Markdown. */
int ddbc_emit_md(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o, ddbc_diags *d);
/* emit_html.c: the same document as HTML, inside the page template. */
int ddbc_emit_html(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o, ddbc_diags *d);

typedef struct ddbc_header_opts {
	const char *prefix;          /* NULL = derived from the design name */
} ddbc_header_opts;

/* emit_header.c: the C header of key builders and name constants. */
int ddbc_emit_header(FILE *out, const ddbc_design *g, const ddbc_header_opts *o,
		     ddbc_diags *d);

typedef struct ddbc_param {
	const char *name, *value;
} ddbc_param;

typedef struct ddbc_export_opts {
	const ddbc_param *params;    /* from --param NAME=VALUE */
	size_t nparams;
} ddbc_export_opts;

/* emit_json.c: CreateTable requests, the normalized model, query requests. */
int ddbc_emit_create_table(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
			   ddbc_diags *d);
int ddbc_emit_model(FILE *out, const ddbc_design *g, const ddbc_export_opts *o, ddbc_diags *d);
int ddbc_emit_queries(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
		      ddbc_diags *d);

#endif
