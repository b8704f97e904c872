/* doc_diagram.h - the design in one picture: tables, indexes, entities
 *
 * Each table is a box of its indexes (its own key first); each entity
 * stands beside its table with a line to every index it is in (it sets
 * all the index's key attributes), so a sparse index has fewer lines. The
 * Markdown gets the picture as a Mermaid flowchart, which GitHub draws;
 * the HTML page gets it as inline SVG laid out here, by hand, in two
 * columns: the layout needs nothing but rows, and the page stays free of
 * script. A table of more than DDBC_DIAGRAM_ENTITIES entities shows one
 * box that counts them, with each index's count on its line.
 */
#ifndef DDBC_DOC_DIAGRAM_H
#define DDBC_DOC_DIAGRAM_H

#include "emit/doc_labels.h"
#include "model/model.h"
#include "util/strbuf.h"

enum { DDBC_DIAGRAM_ENTITIES = 40 };

/* Appends the Mermaid flowchart of the n tables at tables (without its
 * code fence). */
void ddbc_diagram_mermaid(strbuf *out, const ddbc_table *tables, size_t n,
			  const ddbc_doc_labels *L);

/* Appends the diagram as an <svg> element; every name is escaped. */
void ddbc_diagram_svg(strbuf *out, const ddbc_table *tables, size_t n, const ddbc_doc_labels *L);

#endif
