/* lsp_int.h - what the language server's files share
 *
 * lsp_rpc.c frames messages, lsp_text.c edits buffers and converts
 * positions, lsp_docs.c keeps the open designs and their findings,
 * lsp_diag.c publishes them, lsp_nav.c answers hover and definition,
 * lsp_complete.c completion, lsp_actions.c code actions, and lsp_server.c
 * dispatches the methods (a table).
 */
#ifndef DDBC_LSP_INT_H
#define DDBC_LSP_INT_H

#include "lsp/lsp.h"
#include "model/model.h"
#include "util/strbuf.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- framing (lsp_rpc.c) ---- */

typedef struct lsp_reader {
	int fd;
	char *buf;
	size_t len, cap;
	size_t pos;              /* the next message starts here */
	bool eof;
} lsp_reader;

typedef enum lsp_read_result {
	LSP_READ_MESSAGE,        /* *body holds a message of *len bytes */
	LSP_READ_TIMEOUT,        /* nothing whole arrived within the timeout */
	LSP_READ_BAD_HEADER,     /* a header without a usable Content-Length, skipped */
	LSP_READ_EOF
} lsp_read_result;

/* The largest body read (a bigger one is skipped as a bad header). */
#define LSP_MAX_BODY ((size_t)256 << 20)

void ddbc_lsp_reader_init(lsp_reader *r, int fd);
void ddbc_lsp_reader_release(lsp_reader *r);
/* Waits at most timeout_ms (negative: for ever) for a whole message. The
 * body stays valid until the next call. */
lsp_read_result ddbc_lsp_read(lsp_reader *r, int timeout_ms, const char **body, size_t *len);
/* Whether input waits: a whole message (or a bad header) read already,
 * or bytes on the descriptor. Never waits itself. */
bool ddbc_lsp_input_pending(lsp_reader *r);
/* The body just read did not parse: if it holds the start of a header
 * (a Content-Length that promised more than was sent swallows the next
 * message), reading resumes there. */
void ddbc_lsp_reader_resync(lsp_reader *r, const char *body, size_t len);
/* Sends msg (stolen) framed on fd. */
void ddbc_lsp_send(int fd, json_t *msg);

/* ---- buffers and positions (lsp_text.c) ---- */

/* The byte offset of LSP position (line, character in UTF-16 units) in
 * text; a position past a line's end is its end, past the text its end. */
size_t ddbc_lsp_offset(const char *text, size_t len, size_t line, size_t character);
/* The UTF-16 character of a byte offset into the line at line_text. */
size_t ddbc_lsp_utf16_of_bytes(const char *line_text, size_t nbytes);
/* The byte offset in a line of ddbc's 1-based character column. */
size_t ddbc_lsp_bytes_of_column(const char *line_text, size_t line_len, unsigned column);
/* Whether a contentChanges entry is well formed (a text, and a range
 * whose end is not before its start): 0, else -1. */
int ddbc_lsp_change_valid(const json_t *change);
/* Applies one contentChanges entry to buf, in place; -1 (buf untouched)
 * when it is malformed. */
int ddbc_lsp_apply_change(strbuf *buf, const json_t *change);
/* The extent of the token at byte offset at of a line (a quoted scalar,
 * else up to a YAML delimiter): its end offset. */
size_t ddbc_lsp_token_end(const char *line, size_t len, size_t at);

/* ---- documents (lsp_docs.c) ---- */

typedef struct lsp_doc {
	char *uri;
	strbuf text;             /* the buffer as the editor has it */
	long long version;
	bool analysed;           /* src, d and design are of text */
	bool publish_due;        /* the findings of text are not sent yet */
	double due_at;           /* when to send them (monotonic ms) */
	ddbc_source *src;        /* the checked copy of text */
	ddbc_diags d;
	ddbc_design *design;     /* NULL when the buffer is no design */
	double check_ms;         /* how long the last whole check took */
	/* The last check that gave a model, kept while the buffer does not
	 * parse (a quote just opened): completion and navigation read it. */
	ddbc_source *good_src;
	ddbc_design *good_design;
} lsp_doc;

typedef struct lsp_server {
	int in, out;
	lsp_reader rd;
	bool initialized;        /* initialize answered */
	bool shutdown;           /* shutdown answered */
	bool exiting;
	int exit_status;
	ddbc_settings base;      /* the command line's --rule */
	ddbc_settings settings;  /* base and the client's configuration */
	lsp_doc **docs;
	size_t ndocs, docs_cap;
	int debounce_ms;
	double release_at;       /* when to give freed pages back; 0: none to */
} lsp_server;

/* The idle time (ms) after a check when the pages its model freed go back
 * to the system: while the editor is typing they are kept for the next
 * check (ddbc_xalloc_keep_free). */
#define LSP_RELEASE_IDLE_MS 3000

double ddbc_lsp_now_ms(void);
lsp_doc *ddbc_lsp_doc_find(lsp_server *s, const char *uri);
lsp_doc *ddbc_lsp_doc_open(lsp_server *s, const char *uri, const char *text, size_t len,
		      long long version);
/* The document's text was edited in place: its findings are of the text
 * before, and version is the text's now. */
void ddbc_lsp_doc_changed(lsp_doc *doc, long long version);
void ddbc_lsp_doc_close(lsp_server *s, const char *uri);
void ddbc_lsp_docs_release(lsp_server *s);
/* Checks the document's buffer unless its findings are of it already. */
void ddbc_lsp_doc_analyse(lsp_server *s, lsp_doc *doc);
/* The same; when stoppable, input that arrives meanwhile (it may be a
 * newer edit) abandons the check: false, and the document is as before. */
bool ddbc_lsp_doc_check(lsp_server *s, lsp_doc *doc, bool stoppable);
/* The wait after a change before its check (ms): the debounce, less the
 * time the document's last check took. */
double ddbc_lsp_doc_debounce(const lsp_server *s, const lsp_doc *doc);
/* Forgets every document's findings (the settings changed). */
void ddbc_lsp_docs_invalidate(lsp_server *s);
/* The model of the buffer, or of its last text that gave one; NULL. */
const ddbc_design *ddbc_lsp_doc_model(const lsp_doc *doc);
/* A line of the analysed buffer (1-based), or NULL. */
const char *ddbc_lsp_doc_line(const lsp_doc *doc, unsigned line, size_t *len);

/* ---- diagnostics (lsp_diag.c) ---- */

/* The LSP range of a finding at loc: the token it points at. */
json_t *ddbc_lsp_range_of(const lsp_doc *doc, ddbc_loc loc);
/* A Position of ddbc's loc. */
json_t *ddbc_lsp_position_of(const lsp_doc *doc, ddbc_loc loc);
/* A finding as a Diagnostic. */
json_t *ddbc_lsp_diagnostic(const lsp_doc *doc, const ddbc_diag *g);
json_t *ddbc_lsp_diagnostics(const lsp_doc *doc);
/* Sends the diagnostics whose debounce has passed, unless a message waits
 * (it may be a newer change): then returns 0, read it first. Else returns
 * the time to wait for the next (ms), or -1 when none is due. */
int ddbc_lsp_publish_due(lsp_server *s);

/* ---- requests on a position (lsp_nav.c, lsp_complete.c, lsp_actions.c) ---- */

/* A position request's document and position: 0, or -1 with *code and
 * *why set (InvalidParams). */
typedef struct lsp_at {
	lsp_doc *doc;
	unsigned line;           /* 1-based, as the model */
	size_t byte;             /* offset in the line */
	const char *text;        /* the line */
	size_t len;
} lsp_at;

int ddbc_lsp_at_of(lsp_server *s, const json_t *params, lsp_at *at, const char **why);
/* The word at (or just before) the position: a name as YAML keys and
 * template placeholders write them. *start receives its offset. */
size_t ddbc_lsp_word_at(const lsp_at *at, size_t *start);

/* What encloses a line: the entity or pattern of the section it is in. */
typedef struct lsp_scope {
	const ddbc_entity *entity;
	const ddbc_pattern *pattern;
	const ddbc_table *table;
} lsp_scope;

lsp_scope ddbc_lsp_scope_of(const ddbc_design *g, unsigned line);

json_t *ddbc_lsp_hover(lsp_server *s, const json_t *params, const char **why);
json_t *ddbc_lsp_definition(lsp_server *s, const json_t *params, const char **why);
json_t *ddbc_lsp_completion(lsp_server *s, const json_t *params, const char **why);
json_t *ddbc_lsp_code_actions(lsp_server *s, const json_t *params, const char **why);

/* A Location: the document's uri and loc's range. */
json_t *ddbc_lsp_location(const lsp_doc *doc, ddbc_loc loc);

#endif
