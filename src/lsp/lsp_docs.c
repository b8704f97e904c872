/* lsp_docs.c - the open designs: their buffers, and their check
 *
 * A document is checked from the editor's buffer (never the file on disk)
 * through rules/check.h, as `ddbc lint` checks a file, with the command
 * line's --rule settings and the client's configuration over them. It is
 * checked when asked about (hover, completion, ...) or when its findings
 * are due, and only once per version of its text.
 */
#include "lsp/lsp_int.h"
#include "rules/check.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double ddbc_lsp_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1000.0 + (double)t.tv_nsec / 1e6;
}

lsp_doc *ddbc_lsp_doc_find(lsp_server *s, const char *uri)
{
	for (size_t i = 0; i < s->ndocs; i++)
		if (!strcmp(s->docs[i]->uri, uri))
			return s->docs[i];
	return NULL;
}

static void drop_good(lsp_doc *doc)
{
	ddbc_design_free(doc->good_design);
	ddbc_source_free(doc->good_src);
	doc->good_design = NULL;
	doc->good_src = NULL;
}

/* Drops the findings of the text checked last; its model, if it gave
 * one, is kept as the last good model. */
static void forget_check(lsp_doc *doc)
{
	if (!doc->analysed)
		return;
	ddbc_diags_release(&doc->d);
	if (doc->design) {
		drop_good(doc);
		doc->good_src = doc->src;
		doc->good_design = doc->design;
	} else {
		ddbc_source_free(doc->src);
	}
	doc->design = NULL;
	doc->src = NULL;
	doc->analysed = false;
}

const ddbc_design *ddbc_lsp_doc_model(const lsp_doc *doc)
{
	return doc->design ? doc->design : doc->good_design;
}

lsp_doc *ddbc_lsp_doc_open(lsp_server *s, const char *uri, const char *text, size_t len,
		      long long version)
{
	lsp_doc *doc = ddbc_lsp_doc_find(s, uri);
	if (!doc) {
		doc = ddbc_xcalloc(1, sizeof(*doc));
		doc->uri = ddbc_xstrdup(uri);
		ddbc_xgrow((void **)&s->docs, &s->docs_cap, s->ndocs + 1, sizeof(*s->docs));
		s->docs[s->ndocs++] = doc;
	}
	forget_check(doc);
	ddbc_strbuf_reset(&doc->text);
	ddbc_strbuf_add(&doc->text, text, len);
	doc->version = version;
	return doc;
}

void ddbc_lsp_doc_changed(lsp_doc *doc, long long version)
{
	forget_check(doc);
	doc->version = version;
}

static void doc_free(lsp_doc *doc)
{
	forget_check(doc);
	drop_good(doc);
	ddbc_strbuf_release(&doc->text);
	free(doc->uri);
	free(doc);
}

void ddbc_lsp_doc_close(lsp_server *s, const char *uri)
{
	for (size_t i = 0; i < s->ndocs; i++)
		if (!strcmp(s->docs[i]->uri, uri)) {
			doc_free(s->docs[i]);
			memmove(s->docs + i, s->docs + i + 1, (s->ndocs - i - 1) * sizeof(*s->docs));
			s->ndocs--;
			return;
		}
}

void ddbc_lsp_docs_release(lsp_server *s)
{
	for (size_t i = 0; i < s->ndocs; i++)
		doc_free(s->docs[i]);
	free(s->docs);
	s->docs = NULL;
	s->ndocs = s->docs_cap = 0;
}

/* The file name findings are about: the path of a file: URI, else the
 * URI itself (an unsaved buffer). */
static char *name_of_uri(const char *uri)
{
	if (strncmp(uri, "file://", 7))
		return ddbc_xstrdup(uri);
	strbuf sb = STRBUF_INIT;
	for (const char *p = uri + 7; *p; p++) {
		unsigned v;
		if (*p == '%' && sscanf(p + 1, "%2x", &v) == 1) {
			ddbc_strbuf_addch(&sb, (char)v);
			p += 2;
		} else {
			ddbc_strbuf_addch(&sb, *p);
		}
	}
	return ddbc_strbuf_detach(&sb);
}

/* A check's stop (util/source.h): input waits, which may be a newer edit.
 * fired says the check was abandoned. */
typedef struct stop_on_input {
	lsp_reader *rd;
	bool fired;
} stop_on_input;

static bool input_waits(void *ctx)
{
	stop_on_input *st = ctx;
	return st->fired = st->fired || ddbc_lsp_input_pending(st->rd);
}

bool ddbc_lsp_doc_check(lsp_server *s, lsp_doc *doc, bool stoppable)
{
	if (doc->analysed)
		return true;
	char *name = name_of_uri(doc->uri);
	ddbc_source *src = ddbc_source_from_memory(name, ddbc_strbuf_str(&doc->text), doc->text.len);
	free(name);
	stop_on_input st = { &s->rd, false };
	if (stoppable) {
		src->stop = input_waits;
		src->stop_ctx = &st;
	}
	double start = ddbc_lsp_now_ms();
	ddbc_diags_init(&doc->d);
	ddbc_design *design = ddbc_check(src, &doc->d, &s->settings);
	src->stop = NULL;
	/* The model of the text before is gone, or this one is; the pages are
	 * kept for the next check, and given back once the editor is idle
	 * (lsp_server.c). */
	s->release_at = ddbc_lsp_now_ms() + LSP_RELEASE_IDLE_MS;
	if (st.fired) {
		ddbc_diags_release(&doc->d);
		ddbc_design_free(design);
		ddbc_source_free(src);
		return false;
	}
	doc->check_ms = ddbc_lsp_now_ms() - start;
	doc->src = src;
	doc->design = design;
	doc->analysed = true;
	if (doc->design)
		drop_good(doc);
	return true;
}

/* The debounce keeps a burst of keystrokes from being checked at each,
 * and findings from flashing up mid-word: they come no sooner than
 * debounce_ms after the last change. A large design's check takes that
 * long itself (a 10,000-entity one, 0.6 s), so its check starts at once,
 * the time it takes counted in the debounce; a change that comes while it
 * runs abandons it (ddbc_lsp_doc_check). */
double ddbc_lsp_doc_debounce(const lsp_server *s, const lsp_doc *doc)
{
	double wait = s->debounce_ms - doc->check_ms;
	return wait > 0 ? wait : 0;
}

void ddbc_lsp_doc_analyse(lsp_server *s, lsp_doc *doc)
{
	ddbc_lsp_doc_check(s, doc, false);
}

void ddbc_lsp_docs_invalidate(lsp_server *s)
{
	for (size_t i = 0; i < s->ndocs; i++) {
		forget_check(s->docs[i]);
		s->docs[i]->publish_due = true;
		s->docs[i]->due_at = 0;
	}
}

const char *ddbc_lsp_doc_line(const lsp_doc *doc, unsigned line, size_t *len)
{
	return doc->src ? ddbc_source_line(doc->src, line, len) : NULL;
}
