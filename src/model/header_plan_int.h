/* header_plan_int.h - what header_plan.c shares with header_plan_patterns.c
 *
 * Names are made one way for entities and access patterns alike: these
 * are header_plan.c's (see header_plan.h, Names). Strings go into arena.
 */
#ifndef DDBC_HEADER_PLAN_INT_H
#define DDBC_HEADER_PLAN_INT_H

#include "model/header_plan.h"

/* The identifier part of name, upper or lower case; NULL when it has no
 * ASCII letter or digit. */
const char *ddbc_hplan_ident(ddbc_arena *arena, const char *name, bool upper);
/* The strings up to the NULL one, joined. */
__attribute__((sentinel)) const char *ddbc_hplan_concat(ddbc_arena *arena, const char *s, ...);
const char *ddbc_hplan_lower(ddbc_arena *arena, const char *s);
/* A C parameter name for a lower-case identifier part: '_' after a word C
 * or C++ reserves, before a leading digit. */
const char *ddbc_hplan_param(ddbc_arena *arena, const char *member_lower);
/* Moves an array grown with xgrow (n elements of size) into arena and
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

#endif
