/* doc_desc.h - the user's Markdown: descriptions, cleaned and rendered
 *
 * The design's description is block Markdown. It is parsed with cmark-gfm
 * (with GFM tables) and cleaned on the tree: raw HTML becomes text
 * showing it, unsafe link and image destinations are emptied, headings go
 * one level down (the document's title is the only h1). So no unclosed
 * fence or HTML block in it can swallow the rest of the document, in
 * either format. The other descriptions are inline Markdown; the HTML
 * page renders them with cmark-gfm too, in its safe mode (raw HTML not
 * passed through, dangerous URLs dropped), after the Markdown escaper made
 * them inert (doc_escape.h).
 */
#ifndef DDBC_DOC_DESC_H
#define DDBC_DOC_DESC_H

#include "emit/doc_slug.h"
#include "util/strbuf.h"

#include <stddef.h>

struct cmark_node;

/* A parsed, cleaned description. Owns its tree and the array ids (the
 * strings belong to the slugger). */
typedef struct ddbc_doc_desc {
	struct cmark_node *root;
	const char **ids;          /* its top-level headings' ids, in order */
	size_t nids, cap;
} ddbc_doc_desc;

/* Parses and cleans text, taking its top-level headings' ids from slugs
 * in document order (they come before the document's own headings). */
void ddbc_doc_desc_parse(ddbc_doc_desc *d, const char *text, ddbc_slugger *slugs);
void ddbc_doc_desc_release(ddbc_doc_desc *d);

/* The description as CommonMark, for the Markdown document. */
void ddbc_doc_desc_markdown(const ddbc_doc_desc *d, strbuf *out);
/* The description as HTML: top-level headings with their ids and a link
 * to themselves, top-level tables in scrolling containers. */
void ddbc_doc_desc_html(ddbc_doc_desc *d, strbuf *out);

/* Inline Markdown (a description of an entity, attribute, index or
 * pattern) as the HTML of its one paragraph's content. */
void ddbc_doc_inline_html(strbuf *out, const char *markdown);

#endif
