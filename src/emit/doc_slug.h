/* doc_slug.h - GitHub's heading ids, so links work on GitHub and in the page
 *
 * The documentation's table of contents and cross references link to
 * headings by the ids GitHub gives them (github-slugger): the heading's
 * text lower-cased, punctuation and symbols dropped, spaces turned into
 * '-'; a repeated id gets "-1", "-2", ... in document order. Both the
 * Markdown and the HTML page use these ids, so one slugger serves both.
 */
#ifndef DDBC_DOC_SLUG_H
#define DDBC_DOC_SLUG_H

#include "util/arena.h"
#include "util/strbuf.h"
#include "util/strset.h"

#include <stddef.h>

/* Every id given out or reserved. The ids' text lives in the arena, each
 * behind the count of headings that asked for it (for the next suffix). */
typedef struct ddbc_slugger {
	ddbc_strset ids;
	ddbc_arena *arena;
	strbuf base, id;           /* scratch, kept to spare allocations */
} ddbc_slugger;

void ddbc_slugger_init(ddbc_slugger *s);
void ddbc_slugger_release(ddbc_slugger *s);
/* The id of the next heading with text (len bytes). The string belongs
 * to s and lives until ddbc_slugger_release. */
const char *ddbc_slug(ddbc_slugger *s, const char *text, size_t len);
/* Marks id as used, so later headings do not get it. */
void ddbc_slug_reserve(ddbc_slugger *s, const char *id);
/* Frees the lookup of ids given so far once every id is given: their
 * text stays until ddbc_slugger_release; no ddbc_slug may follow. */
void ddbc_slugger_seal(ddbc_slugger *s);

#endif
