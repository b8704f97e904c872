/* doc_write.h - the documentation's structure, written through a backend
 *
 * ddbc_doc_write walks the design once and says what the document holds
 * -- headings, paragraphs, lists, tables, code blocks, links, the user's
 * descriptions -- to a backend, which writes it in its format: Markdown
 * (doc_md.c) or HTML (doc_html.c). Neither re-derives the structure from
 * the other's output, and the HTML page needs cmark-gfm only for the text
 * the user wrote in Markdown. The output goes to its FILE in pieces of
 * about 64 KiB, so memory does not grow with the design.
 *
 * Every heading has the id GitHub gives it (doc_slug.h), so the table of
 * contents links work both in the Markdown on GitHub and in the HTML page.
 */
#ifndef DDBC_DOC_WRITE_H
#define DDBC_DOC_WRITE_H

#include "emit/doc_desc.h"
#include "emit/doc_render.h"
#include "emit/emit.h"
#include "util/strbuf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes g's documentation in language lang through be, to file in pieces,
 * or, when file is NULL, whole into *whole (which the caller releases). */
void ddbc_doc_write(const ddbc_doc_backend *be, FILE *file, strbuf *whole,
		    const ddbc_design *g, ddbc_lang_id lang);

/* One page of a documentation site: the index page (table NULL), or the
 * page of one table, with its item views, entities and access patterns.
 * Links between pages name the page's file (ddbc_doc_page_file). */
typedef struct ddbc_doc_page {
	const ddbc_table *table;
} ddbc_doc_page;

/* As ddbc_doc_write, one page of a site. */
void ddbc_doc_write_page(const ddbc_doc_backend *be, FILE *file, strbuf *whole,
			 const ddbc_design *g, ddbc_lang_id lang, const ddbc_doc_page *page);

/* The file name of t's page ("table-NAME.html"), or "index.html" for NULL.
 * The caller frees it. */
char *ddbc_doc_page_file(const ddbc_table *t);

/* The page's title: "NAME — DynamoDB design". The caller frees it. */
char *ddbc_doc_title(const ddbc_design *g, ddbc_lang_id lang);

#endif
