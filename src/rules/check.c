/* check.c - the whole check of one design, and the rules' runner */
#include "rules/check.h"
#include "input/load.h"
#include "model/semantics.h"
#include "rules/checks.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>

/* Each rule's check function, in the catalogue's order; NULL for the rules
 * the loader or `ddbc diff` reports. */
#define DDBC_CHECK_FN_CHECK(name) ddbc_check_##name
#define DDBC_CHECK_FN_LOADER(name) NULL
#define DDBC_CHECK_FN_FIXED(name) NULL
#define DDBC_CHECK_FN_DIFF(name) NULL
static ddbc_check_fn *const checks[DDBC_RULE_COUNT] = {
#define DDBC_RULE(NAME, name, id, sev, kind, part, summary) \
	[DDBC_RULE_##NAME] = DDBC_CHECK_FN_##kind(name),
#include "diag/rules.def"
#undef DDBC_RULE
};

static ddbc_severity severity_of(ddbc_rule rule, const ddbc_settings *cli,
				 const ddbc_settings *design)
{
	ddbc_severity sev = cli->sev[rule];
	if (sev == DDBC_SEV_DEFAULT)
		sev = design->sev[rule];
	if (sev == DDBC_SEV_DEFAULT)
		sev = ddbc_rule_get(rule)->default_severity;
	return sev;
}

/* ---- the runner -----------------------------------------------------------------
 *
 * Most checks walk one of the design's arrays, entities, patterns or
 * tables, each element on its own. Run one after the other over the whole
 * design, every check would read the whole model again, and a model of
 * tens of thousands of entities is larger than the processor's last cache:
 * each pass would then fetch it from memory anew, so that time grew faster
 * than the design (lint's last-level read misses x3.8 from 10,000 to 20,000
 * entities). So those checks run block by block: every check of a block of
 * some hundred entities (and the patterns and tables at the same place in
 * their arrays) before the next block, while the block is in the cache.
 * A check sees a copy of the design whose one array is the block; lookups
 * by name (ddbc_design_entity, ddbc_design_table) read the other, whole
 * arrays, but not a block's own: so a check of ENTITIES must not call
 * ddbc_design_entity, nor one of TABLES ddbc_design_table. A check that
 * looks across elements (sums, lookups in its own array) stays WHOLE.
 * Which array a check walks, if any, is its rule's PART in rules.def.
 *
 * The findings are then numbered as if each check had run over the whole
 * design in the catalogue's order: a check walks its blocks in file order,
 * so its own findings come in the same order, and ddbc_diags_finish sorts
 * by position and then by that number. Output is the same byte for byte. */

typedef enum part { WHOLE, ENTITIES, TABLES, PATTERNS } part;

/* Each rule's PART in rules.def. */
static const unsigned char part_of[DDBC_RULE_COUNT] = {
#define DDBC_RULE(NAME, name, id, sev, kind, part, summary) [DDBC_RULE_##NAME] = part,
#include "diag/rules.def"
#undef DDBC_RULE
};

/* Entities in a block: a few hundred entities' attributes, examples and
 * patterns take a few MiB, well inside a last-level cache. */
enum { BLOCK_ENTITIES = 256 };

static size_t block_entities = BLOCK_ENTITIES;

void ddbc_check_block_entities(size_t n)
{
	block_entities = n ? n : BLOCK_ENTITIES;
}

/* The findings one call of a check added: items [from, to). */
typedef struct segment {
	int rule;
	size_t from, to;
} segment;

typedef struct runner {
	const ddbc_design *design;
	ddbc_diags *d;
	segment *segs;
	size_t nsegs, cap;
} runner;

static void run_one(runner *r, int rule, const ddbc_design *g)
{
	size_t from = r->d->n;
	checks[rule](g, r->d);
	ddbc_xgrow((void **)&r->segs, &r->cap, r->nsegs + 1, sizeof(segment));
	r->segs[r->nsegs++] = (segment){ rule, from, r->d->n };
}

/* Block b of nb of an array of n elements: [*from, *to). */
static void block_of(size_t n, size_t b, size_t nb, size_t *from, size_t *to)
{
	*from = n * b / nb;
	*to = n * (b + 1) / nb;
}

/* Every check of kind k on block b of nb. */
static void run_block(runner *r, const bool *on, part k, size_t b, size_t nb)
{
	ddbc_design g = *r->design;
	size_t from, to;
	if (k == ENTITIES) {
		block_of(g.nentities, b, nb, &from, &to);
		g.entities += from;
		g.nentities = to - from;
	} else if (k == TABLES) {
		block_of(g.ntables, b, nb, &from, &to);
		g.tables += from;
		g.ntables = to - from;
	} else {
		block_of(g.npatterns, b, nb, &from, &to);
		g.patterns += from;
		g.npatterns = to - from;
	}
	if (from == to)
		return;
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		if (on[i] && part_of[i] == k)
			run_one(r, i, &g);
}

/* Numbers the findings of the segments as the catalogue's order of checks
 * would have added them: each check's segments in the order they ran. */
static void renumber(runner *r, size_t first, size_t seq0)
{
	size_t n = r->d->n - first, k = 0;
	size_t *seq = ddbc_xmalloc((n + 1) * sizeof(size_t));
	for (int rule = 0; rule < DDBC_RULE_COUNT; rule++)
		for (size_t s = 0; s < r->nsegs; s++)
			if (r->segs[s].rule == rule)
				for (size_t i = r->segs[s].from; i < r->segs[s].to; i++)
					seq[i - first] = seq0 + k++;
	for (size_t i = 0; i < n; i++)
		r->d->items[first + i].seq = seq[i];
	free(seq);
}

/* Runs the check of every rule that has one, skipping the rules that cli
 * (or, where not set there, the design's lint.rules and then the rule's
 * default) turns off; between blocks, src's stop may end it early. */
static void rules_run(const ddbc_design *design, ddbc_diags *d, const ddbc_settings *cli,
		      const ddbc_source *src)
{
	bool on[DDBC_RULE_COUNT];
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		on[i] = checks[i] && severity_of((ddbc_rule)i, cli, &design->settings) != DDBC_SEV_OFF;
	runner r = { design, d, NULL, 0, 0 };
	size_t first = d->n, seq0 = d->seq;
	size_t nb = 1 + design->nentities / block_entities;
	bool stopped = false;
	for (size_t b = 0; b < nb && !(stopped = ddbc_source_stop(src)); b++)
		for (part k = ENTITIES; k <= PATTERNS; k++)
			run_block(&r, on, k, b, nb);
	for (int i = 0; i < DDBC_RULE_COUNT && !stopped; i++)
		if (on[i] && part_of[i] == WHOLE)
			run_one(&r, i, design);
	renumber(&r, first, seq0);
	free(r.segs);
}

ddbc_design *ddbc_check(const ddbc_source *src, ddbc_diags *d, const ddbc_settings *cli)
{
	ddbc_diags_begin(d, src);
	ddbc_design *design = ddbc_load(src, d);
	/* The composer's scratch is gone, and the semantics pass's
	 * temporaries after it: their pages need not stay resident. */
	ddbc_xalloc_release_free();
	if (design && !ddbc_source_stop(src)) {
		ddbc_semantics(design);
		ddbc_xalloc_release_free();
		rules_run(design, d, cli, src);
	}
	ddbc_diags_finish(d, cli, design ? &design->settings : NULL);
	return design;
}
