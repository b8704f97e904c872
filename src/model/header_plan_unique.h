/* header_plan_unique.h - the check that no two things get one identifier in the header
 *
 * header_plan.c plans the header's names (a planner) and walks them,
 * handing each identifier to a name_check; header_plan_unique.c keeps
 * their hashes, walks again for those whose hashes met, and reports each
 * text met twice as a header-name finding, once per pair of owners.
 * Shared by the two files only.
 */
#ifndef DDBC_HEADER_PLAN_UNIQUE_H
#define DDBC_HEADER_PLAN_UNIQUE_H

#include "model/header_plan_int.h"
#include "util/strset.h"

#include <stdint.h>

/* One making of a plan (header_plan.c); the check adds its findings to d
 * and sets findings. */
typedef struct planner {
	ddbc_header_plan *plan;
	const ddbc_design *g;
	ddbc_diags *d;           /* NULL while entities are planned again */
	bool lenient;            /* checking any design: a key that cannot be
				  * planned is left out, not a failure */
	bool findings;
	ddbc_strset reported;    /* owner pairs reported as colliding (owner_pair) */
	ddbc_err *err;           /* why it cannot be planned, for the command to say
				  * (NULL: not kept) */
	ddbc_hplan_part suffixes[9]; /* the first walk's suffixes, hashed once
				      * (header_plan.c, SFX_) */
	ddbc_strset parts;       /* attribute names met by the first walk, each
				  * the name of an attr_part (header_plan.c) */
	ddbc_arena *parts_arena; /* their attr_parts (NULL: none yet) */
} planner;

/* What an identifier names. */
typedef enum owner_kind {
	OWN_GUARD, OWN_TABLE, OWN_INDEX, OWN_ENTITY, OWN_ATTR, OWN_PATTERN
} owner_kind;

/* One identifier the header defines, and what it names. */
typedef struct owned_ident {
	const char *id;
	const void *owner;       /* the table, index, entity or attribute */
	owner_kind kind;
} owned_ident;

/* An identifier whose hash was walked more than once, met in the second walk. */
typedef struct suspect {
	owned_ident x;           /* x.id is a copy in the check's arena */
	size_t seq;              /* its place among the suspects, in walk order */
	owned_ident first;       /* when later: the first suspect with x's text */
	bool later;
} suspect;

/* One uniqueness check: a walk over identifiers that hashes them all, and,
 * when hashes met, a second walk that gathers the identifiers with those
 * hashes to compare their texts. Only 8 bytes an identifier stay, in an
 * array sorted once after the walk (ddbc_hashes_repeated) and freed then:
 * a hash set of hundreds of thousands of members cost a cache miss an
 * identifier, and its megabytes stayed to the end.
 *
 * The names' check, the largest (fifty identifiers an entity), keeps 4
 * bytes an identifier: its first walk keeps the hashes folded to 32 bits
 * (FOLD), and when folded hashes met, a walk that hashes again (SIEVE)
 * keeps the 64-bit hashes of only those. The array is what the check adds
 * to the design's memory at its peak, and the walk again costs less than
 * the 4 bytes an identifier would. */
typedef enum { KEEP, FOLD, SIEVE } check_mode;

typedef struct name_check {
	uint64_t *seen;          /* every hash of the first walk, in walk order */
	size_t nseen, seen_cap;
	check_mode mode;
	uint32_t *folded;        /* FOLD: the hashes folded (ddbc_hash32) */
	size_t nfolded, folded_cap;
	uint32_t *starts;        /* FOLD: where each walk's hashes end in folded
				    (the tables', each pattern's, each entity's) */
	ddbc_hashset met;        /* SIEVE: the folded hashes that met */
	ddbc_hashset twice;      /* the hashes it met more than once */
	bool second;             /* in the second walk */
	suspect *suspects;
	size_t nsuspects, cap;
	ddbc_arena *texts;       /* the suspects' identifiers */
} name_check;

/* A check for about n identifiers; ddbc_hplan_check_init_folded for one
 * whose first walk folds its hashes. Released with ddbc_hplan_check_release. */
void ddbc_hplan_check_init(name_check *c, size_t n);
void ddbc_hplan_check_init_folded(name_check *c, size_t n);
void ddbc_hplan_check_release(name_check *c);
/* Frees what only the folding walk and its sieve need (the folded hashes,
 * each walk's start, the set of those that met); the check goes on. */
void ddbc_hplan_check_end_fold(name_check *c);
/* Keeps the hash of an identifier met in the first walk. Inline for the
 * folding walk's common case, a hash a few dozen instructions apart. */
void ddbc_hplan_seen_hash_more(name_check *c, uint64_t h);
static inline void ddbc_hplan_seen_hash(name_check *c, uint64_t h)
{
	if (c->mode == FOLD && c->nfolded < c->folded_cap) {
		c->folded[c->nfolded++] = ddbc_hash32(h);
		return;
	}
	ddbc_hplan_seen_hash_more(c, h);
}
/* Identifier id of owner (NULL: none): hashed in the first walk, kept as a
 * suspect in the second when its hash met. */
void ddbc_hplan_check_name(name_check *c, const char *id, owner_kind kind, const void *owner);
/* After the first walk: the hashes that met are found and the others go,
 * and the texts of those that met are compared in a second walk (walk),
 * each text met twice a finding in p->d. */
void ddbc_hplan_settle(planner *p, name_check *c, void (*walk)(planner *, name_check *));

#endif
