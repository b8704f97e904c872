/* doc_escape.h - user text made safe for the place it is written to
 *
 * Every string of the design that reaches the documentation goes through
 * ddbc_doc_escape with the mode of its place. In Markdown:
 *
 *   TEXT         a name or free text shown literally (punctuation escaped);
 *   CODE         a template or value shown as a code span;
 *   INLINE       a description, kept as inline Markdown but made inert: one
 *                line, raw HTML and unsafe link destinations escaped;
 *   ..._CELL     the same inside a GFM table cell, where every '|' would
 *                end the cell and is escaped too;
 *   INLINE_PARA  at a paragraph's start, where it could open a block.
 *
 * In HTML: text (and double-quoted attribute values), the same on one
 * line, and an in-page link's fragment. In plain text (a terminal): every
 * control character (C0, DEL, C1) written as \xNN, so no input can move
 * the cursor, colour the screen or start a line of its own.
 */
#ifndef DDBC_DOC_ESCAPE_H
#define DDBC_DOC_ESCAPE_H

#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum ddbc_esc {
	DDBC_ESC_MD_TEXT,
	DDBC_ESC_MD_CODE,
	DDBC_ESC_MD_CODE_CELL,
	DDBC_ESC_MD_INLINE,
	DDBC_ESC_MD_INLINE_CELL,
	DDBC_ESC_MD_INLINE_PARA,
	DDBC_ESC_HTML,             /* & < > " as entities, the rest as it is */
	DDBC_ESC_HTML_LINE,        /* the same, line breaks as spaces */
	DDBC_ESC_HREF,             /* percent-encoded, as cmark writes link targets */
	DDBC_ESC_TEXT              /* control characters as \xNN, the rest as it is */
} ddbc_esc;

/* Appends s (NULL is empty) to sb, escaped for mode. */
void ddbc_doc_escape(strbuf *sb, const char *s, ddbc_esc mode);

/* Whether a link destination is safe to keep: relative, or http(s) or
 * mailto. Anything else with a scheme (javascript:, data:, ...) or with
 * an entity or escape that could hide one is not. */
bool ddbc_doc_safe_url(const char *url, size_t len);

/* s on one line: line breaks as spaces, surrounding white space dropped.
 * The caller frees the copy. */
char *ddbc_doc_one_line(const char *s);

/* The longest run of backticks in s, so a fence can be longer. */
size_t ddbc_doc_longest_backticks(const char *s);

#endif
