/* header_plan_int.h - what header_plan.c shares with header_plan_patterns.c
 *
 * Names are made one way for entities and access patterns alike: these
 * are header_plan.c's (see header_plan.h, Names). Strings go into arena.
 */
#ifndef DDBC_HEADER_PLAN_INT_H
#define DDBC_HEADER_PLAN_INT_H

#include "model/header_plan.h"

#include <stdint.h>

/* The identifier part of name, upper or lower case; NULL when it has no
 * ASCII letter or digit. */
const char *ddbc_hplan_ident(ddbc_arena *arena, const char *name, bool upper);
/* The parts after P_E_A_ENUM_ of the constants naming a String enum's
 * values, one per value (header_plan_ident.c). */
const char **ddbc_hplan_enum_parts(ddbc_arena *arena, const ddbc_attr *a);
/* The strings up to the NULL one, joined. */
__attribute__((sentinel)) const char *ddbc_hplan_concat(ddbc_arena *arena, const char *s, ...);
/* The n bytes at s, then the m bytes at t: an identifier and its suffix. */
const char *ddbc_hplan_join(ddbc_arena *arena, const char *s, size_t n, const char *t, size_t m);
const char *ddbc_hplan_lower(ddbc_arena *arena, const char *s);
const char *ddbc_hplan_upper(ddbc_arena *arena, const char *s);
/* A C identifier: a letter or '_', then letters, digits and '_'. */
bool ddbc_hplan_is_c_identifier(const char *s);
/* The uniqueness check's hash of identifiers: h continued over the n bytes
 * at s, lower-cased when lower, as h = h * B + byte (mod 2^64) a byte. A
 * polynomial, not FNV-1a, because it composes: the hash of a stem and a
 * part is the stem's times B^len(part) plus the part's own (from 0), so
 * that a part said over and over (the suffixes _NAME, _FMT, ... of every
 * attribute) is hashed once, and joined to a stem in a multiply and an
 * add. Identifiers that meet in the hash are compared as text before
 * anything is reported, so the hash only decides how many are. */
#define DDBC_HPLAN_B 0x9e3779b97f4a7c15u
#define DDBC_HPLAN_START 14695981039346656037u
uint64_t ddbc_hplan_hash(uint64_t h, const char *s, size_t n, bool lower);
/* A part hashed once (ddbc_hplan_part_of): mul is B^len, add its hash from 0. */
typedef struct ddbc_hplan_part {
	uint64_t mul, add;
} ddbc_hplan_part;
ddbc_hplan_part ddbc_hplan_part_of(const char *s, size_t n, bool lower);
/* ddbc_hplan_hash(h, the part's bytes) without them. */
static inline uint64_t ddbc_hplan_hash_part(uint64_t h, ddbc_hplan_part part)
{
	return h * part.mul + part.add;
}
/* A C parameter name for a lower-case identifier part: '_' after a word C
 * or C++ reserves, before a leading digit. */
const char *ddbc_hplan_param(ddbc_arena *arena, const char *member_lower);
/* Moves an array grown with ddbc_xgrow (n elements of size) into arena and
 * frees it, so that the plan has one owner. */
void *ddbc_hplan_to_arena(ddbc_arena *arena, void *p, size_t n, size_t size);

/* id (an entity's or access pattern's identifier part) without leading
 * words equal to the prefix ("" when it has no other), unless
 * plan->whole_names; sets plan->shortened when it leaves words out. */
const char *ddbc_hplan_short(ddbc_header_plan *plan, const char *id);

/* Plans the tables' and indexes' names (header_plan_short.c). */
void ddbc_hplan_tables(ddbc_header_plan *plan);

/* Plans access pattern i of plan->g into *hp, in plan->pattern_scratch
 * (what the pattern before left there goes). Returns false when the
 * pattern gets no names. A value whose placeholders give one C name is
 * left out, a header-name finding in d (when not NULL) that sets
 * *findings (when not NULL). */
bool ddbc_hplan_pattern(ddbc_header_plan *plan, size_t i, ddbc_hpattern *hp, ddbc_diags *d,
			bool *findings);

/* Takes the hash of an identifier (the uniqueness check's first walk). */
typedef void ddbc_hseen_fn(void *ctx, uint64_t hash);
/* ddbc_hplan_pattern's findings and the hashes of the names it would give
 * access pattern i, each given to seen; none of the names is written out.
 * Returns false when the pattern gets no names. */
bool ddbc_hplan_pattern_hashes(ddbc_header_plan *plan, size_t i, ddbc_hseen_fn *seen,
			       void *ctx, ddbc_diags *d, bool *findings);

#endif
