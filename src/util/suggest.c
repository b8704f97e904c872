/* suggest.c - "did you mean" by edit distance */
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_WORD 64

/* Optimal string alignment distance: Levenshtein plus the swap of two
 * adjacent characters, the commonest typo ("tabel"). */
size_t ddbc_edit_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > MAX_WORD || lb > MAX_WORD)
		return limit + 1;
	if ((la > lb ? la - lb : lb - la) > limit)
		return limit + 1;
	size_t prev2[MAX_WORD + 1], prev[MAX_WORD + 1], cur[MAX_WORD + 1];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		size_t best = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t v = prev[j - 1] + (a[i - 1] != b[j - 1]);
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
			if (v < best)
				best = v;
		}
		if (best > limit)
			return limit + 1;
		memcpy(prev2, prev, sizeof(prev));
		memcpy(prev, cur, sizeof(cur));
	}
	return prev[lb] > limit ? limit + 1 : prev[lb];
}

const char *ddbc_suggest(const char *word, const char *const *candidates, size_t n)
{
	size_t len = strlen(word);
	size_t limit = len / 3 ? len / 3 : 1;
	if (limit > 3)
		limit = 3;
	const char *best = NULL;
	size_t best_d = limit + 1;
	for (size_t i = 0; i < n; i++) {
		/* A difference of case alone is always a likely typo. */
		if (strcasecmp(word, candidates[i]) == 0)
			return candidates[i];
		size_t d = ddbc_edit_distance(word, candidates[i], limit);
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best;
}
