/* items_match.c - whether a concrete key belongs to a template's language
 *
 * A language is a list of runs (template.h): fixed strings, and character
 * classes repeated at least min times. A class run may stop anywhere past
 * its minimum, so the match tries each end in turn; a memo of the (run,
 * offset) pairs that failed keeps that polynomial. The classes mean what
 * template.c's automaton makes them mean: NO_DELIM is any string without
 * the delimiter inside it (with an empty delimiter it is no string at all,
 * and a delimiter of 64 bytes or more is never looked for); no class holds
 * the NUL byte, which the automaton's alphabet never tries.
 */
#include "items/items_match.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

typedef struct ctx {
	const ddbc_lang *l;
	const unsigned char *s;
	size_t len;
	const char *delim;
	size_t dlen;
	unsigned char *failed;   /* a bit per (run, offset) that cannot match */
} ctx;

void ddbc_match_scratch_release(ddbc_match_scratch *m)
{
	free(m->memo);
	m->memo = NULL;
	m->cap = 0;
}

/* The first occurrence of the delimiter in s[i, j), or j. */
static size_t find_delim(const ctx *c, size_t i, size_t j)
{
	for (size_t q = i; q + c->dlen <= j; q++)
		if (c->s[q] == (unsigned char)c->delim[0] && !memcmp(c->s + q, c->delim, c->dlen))
			return q;
	return j;
}

/* The end of the longest span from i that a run of class cls may take. */
static size_t span_end(const ctx *c, ddbc_class cls, size_t i)
{
	size_t j = i;
	while (j < c->len && c->s[j] && ddbc_class_has(cls, (unsigned char)c->s[j]))
		j++;
	if (cls != DDBC_CLASS_NO_DELIM)
		return j;
	if (c->dlen == 0)
		return i;
	if (c->dlen >= 64)
		return j;
	size_t q = find_delim(c, i, j);
	/* The span may hold all of the delimiter but its last byte. */
	return q < j ? q + c->dlen - 1 : j;
}

static bool match_from(ctx *c, size_t r, size_t i)
{
	if (r == c->l->nruns)
		return i == c->len;
	size_t bit = r * (c->len + 1) + i;
	if (c->failed[bit / 8] & (1u << (bit % 8)))
		return false;
	const ddbc_run *run = &c->l->runs[r];
	bool ok = false;
	if (run->fixed) {
		ok = run->len <= c->len - i && !memcmp(c->s + i, run->text, run->len) &&
		     match_from(c, r + 1, i + run->len);
	} else {
		size_t end = span_end(c, run->cls, i);
		if (run->max && end > i + run->max)
			end = i + run->max;
		for (size_t j = i + run->min; j <= end && !ok; j++)
			ok = match_from(c, r + 1, j);
	}
	if (!ok)
		c->failed[bit / 8] |= (unsigned char)(1u << (bit % 8));
	return ok;
}

bool ddbc_items_lang_matches(const ddbc_lang *l, const char *s, size_t len, const char *delim,
			     ddbc_match_scratch *m)
{
	size_t bits = (l->nruns + 1) * (len + 1);
	ddbc_xgrow((void **)&m->memo, &m->cap, bits / 8 + 1, 1);
	memset(m->memo, 0, bits / 8 + 1);
	ctx c = { l, (const unsigned char *)s, len, delim, strlen(delim), m->memo };
	return match_from(&c, 0, 0);
}
