/* emit.h - every output of a checked design
 *
 * Each emitter reads the derived model (model/semantics.h) and streams its
 * output to out; none changes the model or re-derives a fact. The command
 * line runs an emitter only on a design without errors, with out a
 * temporary file that replaces the destination only when the emitter
 * succeeded (util/output.h), so a failing run writes nothing.
 */
#ifndef DDBC_EMIT_H
#define DDBC_EMIT_H

#include "diag/rules.h"
#include "model/model.h"
#include "model/request.h"
#include "model/request_rows.h"
#include "util/error.h"
#include "util/strbuf.h"

#include <stdio.h>

typedef enum ddbc_emit_result {
	DDBC_EMIT_OK,            /* the whole output was written */
	DDBC_EMIT_FINDINGS,      /* error findings were added to d (exit status 1) */
	DDBC_EMIT_FAILED         /* it could not run at all (exit status 2); why is in
				  * the opts' ddbc_err, for the command to say: no
				  * emitter prints (util/error.h) */
} ddbc_emit_result;

typedef enum ddbc_lang_id {
	DDBC_LANG_EN,
	DDBC_LANG_JA
} ddbc_lang_id;

/* One `ddbc doc --lang` word (emit_formats.c), as ddbc_keys_language. */
typedef struct ddbc_doc_language {
	const char *name;
	const char *help;
	ddbc_lang_id lang;
} ddbc_doc_language;

extern const ddbc_doc_language ddbc_doc_langs[];

typedef struct ddbc_doc_opts {
	ddbc_lang_id lang;
	const char *template_dir;    /* page.html and style.css; NULL = compiled in */
	ddbc_err *err;               /* DDBC_EMIT_FAILED: why (a template that cannot be
				      * read), for the caller to print; NULL: not kept */
} ddbc_doc_opts;

/* emit_md.c: the documentation as GitHub-flavoured Markdown. */
ddbc_emit_result ddbc_emit_md(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o,
			      ddbc_diags *d);
/* emit_html.c: the same document as HTML, inside the page template. */
ddbc_emit_result ddbc_emit_html(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o,
				ddbc_diags *d);
/* emit_html.c: the documentation as a site in directory dir (which must
 * exist): index.html (contents, diagram, the access patterns' list) and
 * one page per table (table-NAME.html), for designs too large for one
 * page. Each file is written whole or not at all. */
ddbc_emit_result ddbc_emit_html_site(const char *dir, const ddbc_design *g,
				     const ddbc_doc_opts *o, ddbc_diags *d);

typedef struct ddbc_header_opts {
	const char *prefix;          /* NULL = derived from the design name */
	ddbc_err *err;               /* DDBC_EMIT_FAILED: why, for the caller to print;
				      * NULL: not kept */
} ddbc_header_opts;

/* emit_header.c: the C header of key builders and name constants. */
ddbc_emit_result ddbc_emit_header(FILE *out, const ddbc_design *g, const ddbc_header_opts *o,
				  ddbc_diags *d);

/* emit_keys.c: key builders, parsers, type guards and pattern requests as
 * a TypeScript, Python or Go module, from the header's plan. */
typedef enum ddbc_keys_lang {
	DDBC_KEYS_TS,
	DDBC_KEYS_PYTHON,
	DDBC_KEYS_GO
} ddbc_keys_lang;

typedef struct ddbc_keys_opts {
	ddbc_keys_lang lang;
	const char *module;          /* the module's (Go: package) name; NULL = the prefix in
				      * lower case */
	ddbc_err *err;               /* DDBC_EMIT_FAILED: why, for the caller to print (a
				      * name clash, a module name); NULL: not kept */
} ddbc_keys_opts;

ddbc_emit_result ddbc_emit_keys(FILE *out, const ddbc_design *g, const ddbc_keys_opts *o,
				ddbc_diags *d);
/* Why name cannot name a module of lang ("a Go package cannot be ..."),
 * or NULL when it can. */
const char *ddbc_keys_module_problem(ddbc_keys_lang lang, const char *name);

/* emit_keys_goname.c: plan name `name` (snake case, either case) as Go
 * names it: MixedCaps with Go's initialisms, exported (EcommerceOrderSK)
 * or not (userID). */
void ddbc_go_name(strbuf *sb, const char *name, bool exported);

/* One `ddbc keys --lang` word (emit_formats.c); the default first, a NULL
 * name ends the table. */
typedef struct ddbc_keys_language {
	const char *name;
	const char *help;
	ddbc_keys_lang lang;
} ddbc_keys_language;

extern const ddbc_keys_language ddbc_keys_langs[];

typedef struct ddbc_param {
	const char *name, *value;
} ddbc_param;

typedef struct ddbc_export_opts {
	const ddbc_param *params;    /* from --param NAME=VALUE */
	size_t nparams;
	bool compact;                /* --compact: no line breaks or indentation */
	ddbc_err *err;               /* DDBC_EMIT_FAILED: why (a --param value, what the
				      * format cannot hold, a write that failed), for the
				      * caller to print; NULL: not kept */
} ddbc_export_opts;

/* emit_json.c: the CreateTable requests. */
ddbc_emit_result ddbc_emit_create_table(FILE *out, const ddbc_design *g,
					const ddbc_export_opts *o, ddbc_diags *d);
/* emit_json_model.c: the normalized model with every derived fact. */
ddbc_emit_result ddbc_emit_model(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
				 ddbc_diags *d);
/* emit_infra.c: a CloudFormation template, and Terraform JSON, that create
 * the tables the CreateTable requests create. */
ddbc_emit_result ddbc_emit_cloudformation(FILE *out, const ddbc_design *g,
					  const ddbc_export_opts *o, ddbc_diags *d);
ddbc_emit_result ddbc_emit_terraform(FILE *out, const ddbc_design *g,
				     const ddbc_export_opts *o, ddbc_diags *d);
/* emit_electrodb.c, emit_toolbox.c, emit_onetable.c: the design as the
 * data-access library's model (ElectroDB entities and services,
 * DynamoDB-Toolbox v2 tables and entities, a OneTable schema); a key
 * template the library cannot write is refused (DDBC_EMIT_FAILED). */
ddbc_emit_result ddbc_emit_electrodb(FILE *out, const ddbc_design *g,
				     const ddbc_export_opts *o, ddbc_diags *d);
ddbc_emit_result ddbc_emit_toolbox(FILE *out, const ddbc_design *g,
				   const ddbc_export_opts *o, ddbc_diags *d);
ddbc_emit_result ddbc_emit_onetable(FILE *out, const ddbc_design *g,
				    const ddbc_export_opts *o, ddbc_diags *d);
/* emit_workbench.c: a NoSQL Workbench data model (v3.0). */
ddbc_emit_result ddbc_emit_workbench(FILE *out, const ddbc_design *g,
				     const ddbc_export_opts *o, ddbc_diags *d);
/* emit_json_queries.c: one request per access pattern. */
ddbc_emit_result ddbc_emit_queries(FILE *out, const ddbc_design *g, const ddbc_export_opts *o,
				   ddbc_diags *d);
/* What a request sends of its key (model/request_rows.h), and a put's
 * Item member by member. */
struct json_t;
typedef void ddbc_query_item_fn(void *ctx, const char *name, const struct json_t *value);

typedef struct ddbc_query_sent {
	ddbc_key_sent key;
	/* Set by the caller (kept by ddbc_emit_query_input): called with each
	 * member of a PutItem's Item as it is written (`ddbc cost` sizes the
	 * item the request writes). */
	ddbc_query_item_fn *item_member;
	void *item_ctx;
} ddbc_query_sent;

/* emit_json_queries.c: the input of pattern p's request alone, as a JSON
 * document, with values from the design only (the documentation shows
 * it), and in *sent what it sends of its key (the documentation finds the
 * example items it returns with it). DDBC_EMIT_FINDINGS when a parameter
 * has no value (reported to d); DDBC_EMIT_FAILED for an unresolved
 * pattern, or a stream that failed, whose reason is not kept: the callers
 * write into memory and say in their own output that there is no request.
 * Release *sent with ddbc_query_sent_release in every case. */
ddbc_emit_result ddbc_emit_query_input(FILE *out, const ddbc_design *g, const ddbc_pattern *p,
				       ddbc_diags *d, ddbc_query_sent *sent);
/* The same with the --param values of o first (NULL: none), and a failed
 * stream's reason in o->err: `ddbc verify` takes them from the items it
 * wrote. */
ddbc_emit_result ddbc_emit_query_input_with(FILE *out, const ddbc_design *g,
					    const ddbc_pattern *p, const ddbc_export_opts *o,
					    ddbc_diags *d, ddbc_query_sent *sent);
void ddbc_query_sent_release(ddbc_query_sent *sent);

/* ---- the formats, as the command line offers them ---------------------------------- */

/* One `ddbc export --format` word: its name, what it writes (for
 * --list-formats and the help), its emitter, and the rule (when limited)
 * that reports what a valid design may hold and the format cannot: the
 * export raises it to an error, and `lint --target NAME` does too. The table (emit_formats.c)
 * is the one list: the help, --list-formats, the shell completion and the
 * man page are made from it. name and help come first, as in every table
 * of words the command line reads. */
typedef ddbc_emit_result ddbc_export_fn(FILE *out, const ddbc_design *g,
					const ddbc_export_opts *o, ddbc_diags *d);
typedef struct ddbc_export_format {
	const char *name;
	const char *help;
	ddbc_export_fn *fn;
	bool limited;
	ddbc_rule limit;
} ddbc_export_format;

/* Every export format, the default first; a NULL name ends it. */
extern const ddbc_export_format ddbc_export_formats[];

/* One `ddbc doc --format` word, the same way. */
typedef ddbc_emit_result ddbc_doc_fn(FILE *out, const ddbc_design *g, const ddbc_doc_opts *o,
				     ddbc_diags *d);
typedef struct ddbc_doc_format {
	const char *name;
	const char *help;
	ddbc_doc_fn *fn;
} ddbc_doc_format;

extern const ddbc_doc_format ddbc_doc_formats[];

#endif
