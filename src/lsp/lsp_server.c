/* lsp_server.c - the server's loop and its methods (a table)
 *
 * One thread: it reads a message, answers it, and when no message waits
 * sends the diagnostics whose debounce has passed. A malformed message
 * gets the protocol's error and the server reads on: ParseError for a body
 * that is no JSON, InvalidRequest for JSON that is no request, MethodNotFound,
 * InvalidParams (a document never opened among them), and
 * ServerNotInitialized for a request before `initialize`. Only `exit`, or
 * the end of the input, ends it: with 0 after `shutdown`, else 1.
 */
#include "lsp/lsp_int.h"
#include "util/arena.h"
#include "util/xalloc.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

enum {
	PARSE_ERROR = -32700,
	INVALID_REQUEST = -32600,
	METHOD_NOT_FOUND = -32601,
	INVALID_PARAMS = -32602,
	SERVER_NOT_INITIALIZED = -32002,
};

/* The debounce of diagnostics after a change, in ms (initializationOptions
 * may set another: "debounceMs"). */
#define DEBOUNCE_MS 150

typedef json_t *method_fn(lsp_server *s, const json_t *params, const char **why);

static void reply_error(lsp_server *s, const json_t *id, int code, const char *message)
{
	ddbc_lsp_send(s->out, json_pack("{s:O, s:{s:i, s:s}}", "id", id ? id : json_null(), "error",
				   "code", code, "message", message));
}

static void show_message(lsp_server *s, int type, const char *message)
{
	ddbc_lsp_send(s->out, json_pack("{s:s, s:{s:i, s:s}}", "method", "window/showMessage", "params",
				   "type", type, "message", message));
}

/* A notification cannot be answered: what was wrong with it goes to the
 * client's log. */
static void log_message(lsp_server *s, const char *method, const char *why)
{
	strbuf msg = STRBUF_INIT;
	ddbc_strbuf_addf(&msg, "ddbc: %s ignored: %s", method, why);
	ddbc_lsp_send(s->out, json_pack("{s:s, s:{s:i, s:s}}", "method", "window/logMessage", "params",
				   "type", 2, "message", msg.buf));
	ddbc_strbuf_release(&msg);
}

/* ---- configuration: the --rule settings ---- */

/* Applies "RULE=SEVERITY" strings, or a {RULE: SEVERITY} object, over the
 * command line's settings. Settings may come wrapped in {"ddbc": ...}. */
static void configure(lsp_server *s, const json_t *settings)
{
	const json_t *own = json_object_get(settings, "ddbc");
	if (own)
		settings = own;
	ddbc_settings next = s->base;
	strbuf err = STRBUF_INIT, arg = STRBUF_INIT;
	const json_t *rule = json_object_get(settings, "rule"), *v;
	size_t i;
	json_array_foreach(rule, i, v)
		if (json_is_string(v) && ddbc_settings_parse(&next, json_string_value(v), &err) < 0)
			ddbc_strbuf_addstr(&err, "; ");
	const char *key;
	json_object_foreach((json_t *)json_object_get(settings, "rules"), key, v) {
		ddbc_strbuf_reset(&arg);
		ddbc_strbuf_addf(&arg, "%s=%s", key, json_is_string(v) ? json_string_value(v) : "?");
		if (ddbc_settings_parse(&next, arg.buf, &err) < 0)
			ddbc_strbuf_addstr(&err, "; ");
	}
	if (err.len) {
		strbuf msg = STRBUF_INIT;
		ddbc_strbuf_addf(&msg, "ddbc: ignored rule settings: %.*s", (int)err.len - 2, err.buf);
		show_message(s, 1, msg.buf);
		ddbc_strbuf_release(&msg);
	}
	s->settings = next;
	s->debounce_ms = DEBOUNCE_MS;
	const json_t *ms = json_object_get(settings, "debounceMs");
	if (json_is_integer(ms) && json_integer_value(ms) >= 0 && json_integer_value(ms) < 10000)
		s->debounce_ms = (int)json_integer_value(ms);
	ddbc_strbuf_release(&err);
	ddbc_strbuf_release(&arg);
}

/* ---- lifecycle ---- */

static json_t *m_initialize(lsp_server *s, const json_t *params, const char **why)
{
	if (s->initialized) {
		*why = "initialize was sent twice";
		return NULL;
	}
	s->initialized = true;
	configure(s, json_object_get(params, "initializationOptions"));
	return json_pack("{s:{s:{s:b, s:i}, s:b, s:b, s:{s:[s, s, s, s]}, s:{s:[s]}}, "
			 "s:{s:s, s:s}}",
			 "capabilities", "textDocumentSync", "openClose", 1, "change", 2,
			 "hoverProvider", 1, "definitionProvider", 1,
			 "completionProvider", "triggerCharacters", "{", ":", " ", "-",
			 "codeActionProvider", "codeActionKinds", "quickfix",
			 "serverInfo", "name", "ddbc", "version", PACKAGE_VERSION);
}

static json_t *m_initialized(lsp_server *s, const json_t *params, const char **why)
{
	return json_null();
}

static json_t *m_shutdown(lsp_server *s, const json_t *params, const char **why)
{
	s->shutdown = true;
	return json_null();
}

static json_t *m_exit(lsp_server *s, const json_t *params, const char **why)
{
	s->exiting = true;
	s->exit_status = s->shutdown ? 0 : 1;
	return json_null();
}

static json_t *m_configuration(lsp_server *s, const json_t *params, const char **why)
{
	configure(s, json_object_get(params, "settings"));
	ddbc_lsp_docs_invalidate(s);
	return json_null();
}

/* ---- document sync ---- */

static json_t *m_did_open(lsp_server *s, const json_t *params, const char **why)
{
	const char *uri;
	json_t *text;
	json_int_t version = 0;
	if (json_unpack((json_t *)params, "{s:{s:s, s:o, s?I}}", "textDocument", "uri", &uri,
			"text", &text, "version", &version) < 0 || !json_is_string(text)) {
		*why = "expected textDocument {uri, text, version}";
		return NULL;
	}
	lsp_doc *doc = ddbc_lsp_doc_open(s, uri, json_string_value(text), json_string_length(text),
				    version);
	doc->publish_due = true;
	doc->due_at = 0;
	return json_null();
}

static json_t *m_did_change(lsp_server *s, const json_t *params, const char **why)
{
	const char *uri;
	json_t *changes;
	json_int_t version = 0;
	if (json_unpack((json_t *)params, "{s:{s:s, s?I}, s:o}", "textDocument", "uri", &uri,
			"version", &version, "contentChanges", &changes) < 0 ||
	    !json_is_array(changes)) {
		*why = "expected textDocument {uri, version} and contentChanges";
		return NULL;
	}
	lsp_doc *doc = ddbc_lsp_doc_find(s, uri);
	if (!doc) {
		*why = "the document is not open: send textDocument/didOpen first";
		return NULL;
	}
	/* Every change is looked at before any is applied: a malformed one
	 * leaves the buffer as it was. They are applied in place (a 20 MB
	 * buffer is not copied per keystroke). */
	size_t i;
	json_t *change;
	json_array_foreach(changes, i, change)
		if (ddbc_lsp_change_valid(change) < 0) {
			*why = "a content change has no text, or a bad range";
			return NULL;
		}
	json_array_foreach(changes, i, change)
		ddbc_lsp_apply_change(&doc->text, change);
	ddbc_lsp_doc_changed(doc, version);
	doc->publish_due = true;
	doc->due_at = ddbc_lsp_now_ms() + ddbc_lsp_doc_debounce(s, doc);
	return json_null();
}

static json_t *m_did_close(lsp_server *s, const json_t *params, const char **why)
{
	const char *uri;
	if (json_unpack((json_t *)params, "{s:{s:s}}", "textDocument", "uri", &uri) < 0) {
		*why = "expected textDocument.uri";
		return NULL;
	}
	if (ddbc_lsp_doc_find(s, uri)) {
		ddbc_lsp_doc_close(s, uri);
		/* A closed file's findings leave the editor's list. */
		ddbc_lsp_send(s->out, json_pack("{s:s, s:{s:s, s:[]}}", "method",
					   "textDocument/publishDiagnostics", "params", "uri", uri,
					   "diagnostics"));
	}
	return json_null();
}

static json_t *m_ignore(lsp_server *s, const json_t *params, const char **why)
{
	return json_null();
}

static const struct method {
	const char *name;
	method_fn *fn;
} methods[] = {
	{ "initialize", m_initialize },
	{ "initialized", m_initialized },
	{ "shutdown", m_shutdown },
	{ "exit", m_exit },
	{ "textDocument/didOpen", m_did_open },
	{ "textDocument/didChange", m_did_change },
	{ "textDocument/didClose", m_did_close },
	{ "textDocument/didSave", m_ignore },
	{ "textDocument/hover", ddbc_lsp_hover },
	{ "textDocument/definition", ddbc_lsp_definition },
	{ "textDocument/completion", ddbc_lsp_completion },
	{ "textDocument/codeAction", ddbc_lsp_code_actions },
	{ "workspace/didChangeConfiguration", m_configuration },
	{ "$/cancelRequest", m_ignore },
	{ "$/setTrace", m_ignore },
};

static const struct method *method_named(const char *name)
{
	for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
		if (!strcmp(methods[i].name, name))
			return &methods[i];
	return NULL;
}

/* Whether a message may be handled now; answers it when not. */
static bool admissible(lsp_server *s, const json_t *id, const char *method)
{
	if (!s->initialized && strcmp(method, "initialize") && strcmp(method, "exit")) {
		if (id)
			reply_error(s, id, SERVER_NOT_INITIALIZED,
				    "the server is not initialized: send initialize first");
		return false;
	}
	if (s->shutdown && strcmp(method, "exit")) {
		if (id)
			reply_error(s, id, INVALID_REQUEST, "the server is shut down: send exit");
		return false;
	}
	return true;
}

static void dispatch(lsp_server *s, const json_t *msg)
{
	const json_t *id = json_object_get(msg, "id");
	const json_t *method = json_object_get(msg, "method");
	const json_t *version = json_object_get(msg, "jsonrpc");
	if (!method && (json_object_get(msg, "result") || json_object_get(msg, "error")))
		return;     /* a response to a request of ours: none needs reading */
	if (id && !json_is_string(id) && !json_is_integer(id)) {
		reply_error(s, NULL, INVALID_REQUEST, "a request's id is a string or an integer");
		return;
	}
	if (!json_is_string(method) || !json_is_string(version) ||
	    strcmp(json_string_value(version), "2.0")) {
		reply_error(s, id, INVALID_REQUEST,
			    "not a JSON-RPC 2.0 request: expected jsonrpc \"2.0\" and a method");
		return;
	}
	const char *name = json_string_value(method);
	if (!admissible(s, id, name))
		return;
	const struct method *m = method_named(name);
	if (!m) {
		if (id) {
			strbuf why = STRBUF_INIT;
			ddbc_strbuf_addf(&why, "unknown method '%s'", name);
			reply_error(s, id, METHOD_NOT_FOUND, why.buf);
			ddbc_strbuf_release(&why);
		}
		return;
	}
	json_t *params = json_object_get(msg, "params");
	json_t *none = params ? NULL : json_object();
	const char *why = "invalid params";
	json_t *result = m->fn(s, params ? params : none, &why);
	json_decref(none);
	if (!id && !result)
		log_message(s, name, why);
	if (!id)
		json_decref(result);
	else if (result)
		ddbc_lsp_send(s->out, json_pack("{s:O, s:o}", "id", id, "result", result));
	else
		reply_error(s, id, INVALID_PARAMS, why);
}

static void handle(lsp_server *s, const char *body, size_t len)
{
	json_error_t err;
	json_t *msg = json_loadb(body, len, 0, &err);
	if (!msg) {
		strbuf why = STRBUF_INIT;
		ddbc_strbuf_addf(&why, "the message is no JSON: %s", err.text);
		reply_error(s, NULL, PARSE_ERROR, why.buf);
		ddbc_strbuf_release(&why);
		ddbc_lsp_reader_resync(&s->rd, body, len);
		return;
	}
	if (json_is_object(msg))
		dispatch(s, msg);
	else
		reply_error(s, NULL, INVALID_REQUEST, "a message is a JSON object");
	json_decref(msg);
}

/* Gives the freed pages back when no check has run for a while and none
 * is due; returns the time to wait for a message, which the release may
 * shorten. */
static int release_when_idle(lsp_server *s, int wait)
{
	if (!s->release_at || wait >= 0)
		return wait;
	double now = ddbc_lsp_now_ms();
	if (now < s->release_at)
		return (int)(s->release_at - now) + 1;
	ddbc_xalloc_keep_free(false);
	ddbc_arena_release_pool();
	ddbc_xalloc_release_free();
	ddbc_xalloc_keep_free(true);
	s->release_at = 0;
	return wait;
}

int ddbc_lsp_serve(int in, int out, const ddbc_settings *settings)
{
	lsp_server s;
	memset(&s, 0, sizeof(s));
	s.in = in;
	s.out = out;
	s.base = s.settings = *settings;
	s.debounce_ms = DEBOUNCE_MS;
	s.exit_status = 1;
	ddbc_lsp_reader_init(&s.rd, in);
	/* A client that is gone is the end of the input, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	/* Each check frees the model of the text before and builds the next
	 * within moments: the freed pages are kept meanwhile (xalloc.h), and
	 * given back once the editor has been idle a while. */
	ddbc_xalloc_keep_free(true);
	while (!s.exiting) {
		int wait = ddbc_lsp_publish_due(&s);
		wait = release_when_idle(&s, wait);
		const char *body;
		size_t len;
		lsp_read_result r = ddbc_lsp_read(&s.rd, wait, &body, &len);
		if (r == LSP_READ_EOF)
			break;
		if (r == LSP_READ_BAD_HEADER)
			reply_error(&s, NULL, PARSE_ERROR,
				    "a message header without a usable Content-Length");
		else if (r == LSP_READ_MESSAGE)
			handle(&s, body, len);
	}
	ddbc_lsp_docs_release(&s);
	ddbc_lsp_reader_release(&s.rd);
	ddbc_xalloc_keep_free(false);
	ddbc_arena_release_pool();
	return s.exit_status;
}
