/* doc_diagram.h - the design in one picture: tables, indexes, entities
 *
 * Each table is a box of its indexes (its own key first), each with its
 * key attributes; each entity is in the indexes it sets all the key
 * attributes of, so a sparse index holds fewer. The Markdown gets the
 * picture as a Mermaid flowchart, which GitHub draws (an entity beside its
 * table with a line to each index it is in); the HTML page gets it as
 * inline SVG laid out here, by hand, in one column a phone shows whole: a
 * card per index listing the entities it holds, each a link to its
 * section, and no lines to tangle. A table of more than
 * DDBC_DIAGRAM_ENTITIES entities shows counts instead of entities.
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

/* Where the diagram's entities link to: href gives the address of entity
 * e's section ("#entity-user", or another page's), or NULL for no link. */
typedef struct ddbc_diagram_links {
	const char *(*href)(void *ctx, const ddbc_entity *e);
	void *ctx;
} ddbc_diagram_links;

/* Appends the diagram as an <svg> element; every name is escaped. links
 * may be NULL. */
void ddbc_diagram_svg(strbuf *out, const ddbc_table *tables, size_t n, const ddbc_doc_labels *L,
		      const ddbc_diagram_links *links);

#endif
