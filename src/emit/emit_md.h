/* emit_md.h - the documentation's Markdown, as the HTML emitter reads it
 *
 * ddbc_doc_write writes the whole document (SPEC §4) and records where each
 * of its own headings and GFM tables starts (a mark per block, by line),
 * and what the block is. The Markdown emitter copies the text out; the
 * HTML emitter parses it with cmark-gfm and uses the marks to give the
 * nodes their anchors and classes, so it never re-derives the document's
 * structure. Both take the document in parts, so memory stays bounded on
 * a design of thousands of entities.
 *
 * Anchors are the ids GitHub gives headings (ddbc_slug), so the table of
 * contents links work both in the Markdown on GitHub and in the HTML page.
 */
#ifndef DDBC_EMIT_MD_H
#define DDBC_EMIT_MD_H

#include "emit/emit.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

/* ---- heading ids ------------------------------------------------------------ */

/* GitHub's heading ids (github-slugger): the heading's text lower-cased,
 * punctuation and symbols dropped, spaces turned into '-'; a repeated id
 * gets "-1", "-2", ... in document order. */
typedef struct ddbc_slugger {
	char **keys;
	unsigned *counts;
	size_t n, cap;
} ddbc_slugger;

void ddbc_slugger_init(ddbc_slugger *s);
void ddbc_slugger_release(ddbc_slugger *s);
/* The id of the next heading with text (len bytes). The string belongs
 * to s. */
const char *ddbc_slug(ddbc_slugger *s, const char *text, size_t len);
/* Marks id as used, so later headings do not get it. */
void ddbc_slug_reserve(ddbc_slugger *s, const char *id);

/* ---- the document -------------------------------------------------------------- */

typedef enum ddbc_doc_kind {
	/* headings */
	DDBC_DOC_TITLE,
	DDBC_DOC_CONTENTS,         /* the table of contents: the heading, then a list */
	DDBC_DOC_TABLE,
	DDBC_DOC_INDEXES,
	DDBC_DOC_INDEX_MAP,
	DDBC_DOC_ENTITY,
	DDBC_DOC_PATTERNS,
	DDBC_DOC_PATTERN,
	DDBC_DOC_OTHER,            /* "Entities without a table" */
	/* GFM tables */
	DDBC_DOC_INDEX_TABLE,
	DDBC_DOC_MAP_TABLE,
	DDBC_DOC_ATTR_TABLE,
	DDBC_DOC_PATTERN_TABLE
} ddbc_doc_kind;

typedef struct ddbc_doc_mark {
	size_t line;               /* 1-based line of md where the block starts */
	ddbc_doc_kind kind;
	const char *id;            /* headings: the anchor (owned by the slugger) */
	size_t rows;               /* tables: body rows */
} ddbc_doc_mark;

typedef struct ddbc_doc ddbc_doc;

/* Receives the document in parts: doc->md holds whole top-level blocks
 * (a part always starts at one of ddbc's headings), doc->marks their
 * marks, with lines counted from the part's start. The sink must not keep
 * pointers into md or marks; the document reuses them for the next part. */
typedef void ddbc_doc_sink(void *ctx, const ddbc_doc *doc);

struct ddbc_doc {
	strbuf md;                 /* the part being written */
	ddbc_doc_mark *marks;      /* its marks, in line order */
	size_t nmarks, cap;
	char *title;               /* plain text, for the page's <title> */
	ddbc_slugger slugs;        /* every id the document uses */
	const char **own;          /* the ids of ddbc's own headings */
	size_t nown, own_cap;
	ddbc_doc_sink *sink;       /* NULL: the whole document stays in md */
	void *ctx;
	bool text_parts;           /* parts may end inside a block (see ddbc_doc_write) */
	size_t line, counted;      /* internal: lines of md[0, counted) */
};

/* Writes g's documentation in language lang, handing it to sink part by
 * part (parts of a few tens of kilobytes, so memory does not grow with the
 * design), or, when sink is NULL, into doc->md whole. A part holds whole
 * blocks, unless text_parts: a sink that only writes the text out lets a
 * long table or list (a large design's contents and pattern table) go out
 * in several parts. doc->title and every id are set before the first part.
 * Release with ddbc_doc_release. */
void ddbc_doc_write(ddbc_doc *doc, const ddbc_design *g, ddbc_lang_id lang,
		    ddbc_doc_sink *sink, void *ctx, bool text_parts);
void ddbc_doc_release(ddbc_doc *doc);

/* Attaches the extensions the documentation uses (GFM tables) to a
 * cmark-gfm parser; the md emitter and the HTML emitter parse alike. */
struct cmark_parser;
void ddbc_doc_attach_extensions(struct cmark_parser *parser);

/* The text a heading shows, which GitHub's ids are made from. */
struct cmark_node;
void ddbc_doc_heading_text(struct cmark_node *heading, strbuf *out);

/* Whether a link destination is safe to keep: relative, or http(s) or
 * mailto. Anything else with a scheme (javascript:, data:, ...) or with
 * an entity or escape that could hide one is not. */
bool ddbc_doc_safe_url(const char *url, size_t len);

#endif
