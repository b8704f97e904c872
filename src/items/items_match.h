/* items_match.h - whether a concrete key belongs to a template's language
 *
 * ddbc_lang_matches (template.h) decides it by the product search the
 * linter uses for overlaps, which builds an automaton per call: about
 * 100 microseconds for a typical key, too slow for millions of items. This
 * is the same decision for the same languages (ddbc_attr_lang), made
 * directly: a backtracking match of the runs, memoized on (run, offset),
 * so O(runs x length^2) at worst and linear for the usual templates.
 * tests/check_items.c checks that both answer alike.
 */
#ifndef DDBC_ITEMS_MATCH_H
#define DDBC_ITEMS_MATCH_H

#include "model/template.h"

#include <stdbool.h>
#include <stddef.h>

/* Memo space reused across calls; zero-initialise, release when done. */
typedef struct ddbc_match_scratch {
	unsigned char *memo;
	size_t cap;
} ddbc_match_scratch;

void ddbc_match_scratch_release(ddbc_match_scratch *m);

/* Whether the len bytes at s belong to l, delim being the key delimiter
 * that DDBC_CLASS_NO_DELIM values never contain: ddbc_lang_matches's
 * answer. */
bool ddbc_items_lang_matches(const ddbc_lang *l, const char *s, size_t len, const char *delim,
			     ddbc_match_scratch *m);

#endif
