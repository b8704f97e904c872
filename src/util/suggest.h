/* suggest.h - "did you mean" by edit distance */
#ifndef DDBC_SUGGEST_H
#define DDBC_SUGGEST_H

#include <stddef.h>

/* The candidate closest to word, if close enough to be a likely typo
 * (an edit distance of at most a third of the word, and at least 1);
 * NULL otherwise. Ties go to the earlier candidate. */
const char *ddbc_suggest(const char *word, const char *const *candidates, size_t n);

/* Levenshtein distance, capped: returns limit+1 once it exceeds limit. */
size_t ddbc_edit_distance(const char *a, const char *b, size_t limit);

#endif
