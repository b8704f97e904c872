/* header_plan_short.c - the header's names without words said twice
 *
 * Tables and indexes, entities and access patterns leave out the words
 * the prefix (and, for an index, the table) already says; see
 * header_plan.h, Words said twice.
 */
#include "model/header_plan_int.h"
#include "util/strset.h"

#include <string.h>

/* Whether the words of part (an identifier part: words joined by single
 * '_') begin with the words of lead; returns how many bytes to drop (with
 * the '_' after them), or 0. */
static size_t leading_words(const char *part, const char *lead)
{
	size_t n = strlen(lead);
	if (!n || strncmp(part, lead, n) != 0)
		return 0;
	if (part[n] == '\0')
		return n;
	return part[n] == '_' ? n + 1 : 0;
}

/* part without its leading words equal to each of leads (in order, each
 * at most once) and without a last word equal to suffix: the words the
 * identifier around it says already. */
static const char *drop_repeats(ddbc_arena *arena, const char *part, const char *const *leads,
				size_t nleads, const char *suffix)
{
	for (size_t i = 0; i < nleads; i++)
		part += leading_words(part, leads[i]);
	size_t len = strlen(part), n = strlen(suffix);
	if (len >= n && !strcmp(part + len - n, suffix) && (len == n || part[len - n - 1] == '_'))
		len = len == n ? 0 : len - n - 1;
	return ddbc_arena_strndup(arena, part, len);
}

const char *ddbc_hplan_short(ddbc_header_plan *plan, const char *id)
{
	if (plan->whole_names)
		return id;
	size_t n = leading_words(id, plan->prefix);
	if (n)
		plan->shortened = true;
	return id + n;
}

/* prefix, the non-empty parts, then suffix, joined by '_'. */
static const char *join_macro(ddbc_arena *arena, const char *prefix, const char *a,
			      const char *b, const char *suffix)
{
	return ddbc_hplan_concat(arena, prefix, *a ? "_" : "", a, *b ? "_" : "", b, "_", suffix, NULL);
}

static void plan_table(ddbc_header_plan *plan, ddbc_htable *ht, const ddbc_table *t)
{
	ddbc_arena *arena = plan->arena;
	const char *P = plan->prefix;
	ht->table = t;
	/* DynamoDB table and index names always hold a letter or digit. */
	const char *tid = ddbc_hplan_ident(arena, t->name.s, true);
	if (!tid)
		tid = "_";
	const char *tshort = drop_repeats(arena, tid, &P, 1, "TABLE");
	ht->full_macro = ddbc_hplan_concat(arena, P, "_", tid, "_TABLE", NULL);
	ht->macro = plan->whole_names ? ht->full_macro : join_macro(arena, P, tshort, "", "TABLE");
	ht->nindexes = t->ngsi + t->nlsi;
	ht->indexes = ddbc_arena_array(arena, ht->nindexes, sizeof(ddbc_hindex));
	for (size_t i = 0; i < ht->nindexes; i++) {
		const ddbc_index *ix = i < t->ngsi ? &t->gsi[i] : &t->lsi[i - t->ngsi];
		const char *iid = ddbc_hplan_ident(arena, ix->name.s, true);
		if (!iid)
			iid = "_";
		const char *leads[] = { tid, P, tshort };
		const char *ishort = drop_repeats(arena, iid, leads, 3, "INDEX");
		ht->indexes[i].index = ix;
		ht->indexes[i].full_macro = ddbc_hplan_concat(arena, P, "_", tid, "_", iid, "_INDEX", NULL);
		ht->indexes[i].macro = plan->whole_names ? ht->indexes[i].full_macro :
				       join_macro(arena, P, tshort, ishort, "INDEX");
	}
}

/* A name made shorter that another table or index has too goes back to
 * its whole form, until none does: the shortening never makes a
 * collision. One that remains was there before, a header-name finding. */
static void keep_short_names_unique(ddbc_header_plan *plan)
{
	for (bool changed = true; changed;) {
		changed = false;
		ddbc_strset seen = DDBC_STRSET_INIT, twice = DDBC_STRSET_INIT;
		for (size_t i = 0; i < plan->ntables; i++) {
			ddbc_htable *ht = &plan->tables[i];
			for (size_t k = 0; k <= ht->nindexes; k++) {
				const char *m = k ? ht->indexes[k - 1].macro : ht->macro;
				if (ddbc_strset_get(&seen, m, strlen(m)))
					ddbc_strset_put(&twice, m, strlen(m));
				else
					ddbc_strset_put(&seen, m, strlen(m));
			}
		}
		for (size_t i = 0; i < plan->ntables; i++) {
			ddbc_htable *ht = &plan->tables[i];
			for (size_t k = 0; k <= ht->nindexes; k++) {
				const char **m = k ? &ht->indexes[k - 1].macro : &ht->macro;
				const char *full = k ? ht->indexes[k - 1].full_macro : ht->full_macro;
				if (*m != full && strcmp(*m, full) &&
				    ddbc_strset_get(&twice, *m, strlen(*m))) {
					*m = full;
					changed = true;
				}
			}
		}
		ddbc_strset_release(&seen);
		ddbc_strset_release(&twice);
	}
}

void ddbc_hplan_tables(ddbc_header_plan *plan)
{
	const ddbc_design *g = plan->g;
	plan->ntables = g->ntables;
	plan->tables = ddbc_arena_array(plan->arena, g->ntables, sizeof(ddbc_htable));
	for (size_t i = 0; i < g->ntables; i++)
		plan_table(plan, &plan->tables[i], &g->tables[i]);
	keep_short_names_unique(plan);
	for (size_t i = 0; i < plan->ntables; i++) {
		ddbc_htable *ht = &plan->tables[i];
		if (ht->table->ttl.s)
			ht->ttl_macro = ddbc_hplan_concat(plan->arena, ht->macro, "_TTL_ATTRIBUTE",
							  NULL);
		plan->shortened |= strcmp(ht->macro, ht->full_macro) != 0;
		for (size_t k = 0; k < ht->nindexes; k++)
			plan->shortened |= strcmp(ht->indexes[k].macro, ht->indexes[k].full_macro) != 0;
	}
}
