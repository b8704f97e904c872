/* diff_index.c - tables and indexes compared as DynamoDB holds them */
#include "diff/diff_int.h"
#include "model/semantics.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

bool ddbc_diff_str_same(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

const char *ddbc_diff_delimiter(const ddbc_design *g)
{
	return g->key_delimiter ? g->key_delimiter : "#";
}

static bool names_same(const ddbc_table *ta, const ddbc_name *a, size_t na,
		       const ddbc_table *tb, const ddbc_name *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++) {
		if (!ddbc_diff_str_same(a[i].s, b[i].s))
			return false;
		/* A key attribute's type is part of the key schema
		 * (AttributeDefinitions). */
		if (a[i].s && ddbc_table_key_type(ta, a[i].s) != ddbc_table_key_type(tb, b[i].s))
			return false;
	}
	return true;
}

bool ddbc_diff_keys_same(const ddbc_index *a, const ddbc_index *b)
{
	return names_same(a->table, a->pk, a->npk, b->table, b->pk, b->npk) &&
	       names_same(a->table, a->sk, a->nsk, b->table, b->sk, b->nsk);
}

static int by_string(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* The INCLUDE names as the export writes them (emit_json.c): no key
 * attribute, no repeat, sorted; a list of key attributes alone keeps them
 * (*keys_only set), for NonKeyAttributes may not be empty. Returns how
 * many; *out is the caller's to free. */
static size_t non_key_names(const ddbc_index *ix, const char ***out, bool *keys_only)
{
	const char **v = ddbc_xcalloc(ix->ninclude + 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < ix->ninclude; i++) {
		const char *s = ix->include[i].s;
		if (s && !ddbc_index_has_key(ix, s) && !ddbc_index_has_key(&ix->table->primary, s))
			v[n++] = s;
	}
	*keys_only = n == 0;
	for (size_t i = 0; *keys_only && i < ix->ninclude; i++)
		if (ix->include[i].s)
			v[n++] = ix->include[i].s;
	qsort(v, n, sizeof(*v), by_string);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (k == 0 || strcmp(v[k - 1], v[i]))
			v[k++] = v[i];
	*out = v;
	return k;
}

/* Whether the two projections are one ProjectionType and NonKeyAttributes
 * as exported: INCLUDE of key attributes alone is not KEYS_ONLY, though it
 * holds the same (an index's projection cannot change in place). */
bool ddbc_diff_projection_same(const ddbc_index *a, const ddbc_index *b)
{
	const char **va = NULL, **vb = NULL;
	bool ka = false, kb = false;
	size_t na = a->projection == DDBC_PROJ_INCLUDE ? non_key_names(a, &va, &ka) : 0;
	size_t nb = b->projection == DDBC_PROJ_INCLUDE ? non_key_names(b, &vb, &kb) : 0;
	/* An INCLUDE with no name at all projects the keys only. */
	bool all_a = a->projection == DDBC_PROJ_ALL, all_b = b->projection == DDBC_PROJ_ALL;
	bool same = all_a == all_b && na == nb && ka == kb;
	for (size_t i = 0; same && i < na; i++)
		same = strcmp(va[i], vb[i]) == 0;
	free(va);
	free(vb);
	return same;
}

bool ddbc_diff_index_same(const ddbc_index *a, const ddbc_index *b)
{
	return ddbc_diff_keys_same(a, b) && ddbc_diff_projection_same(a, b);
}

static const ddbc_index *find_in(const ddbc_index *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (ddbc_diff_str_same(list[i].name.s, name))
			return &list[i];
	return NULL;
}

const ddbc_index *ddbc_diff_gsi(const ddbc_table *t, const char *name)
{
	return find_in(t->gsi, t->ngsi, name);
}

bool ddbc_diff_lsis_differ(const ddbc_table *a, const ddbc_table *b)
{
	if (a->nlsi != b->nlsi)
		return true;
	for (size_t i = 0; i < a->nlsi; i++) {
		const ddbc_index *other = find_in(b->lsi, b->nlsi, a->lsi[i].name.s);
		if (!other || !ddbc_diff_index_same(&a->lsi[i], other))
			return true;
	}
	return false;
}

/* The same Regions, in any order, and the same witness. */
static bool regions_same(const ddbc_table_settings *a, const ddbc_table_settings *b)
{
	if (a->nreplicas != b->nreplicas || !ddbc_diff_str_same(a->witness.s, b->witness.s))
		return false;
	for (size_t i = 0; i < a->nreplicas; i++) {
		bool found = false;
		for (size_t k = 0; k < b->nreplicas && !found; k++)
			found = ddbc_diff_str_same(a->replicas[i].s, b->replicas[k].s);
		if (!found)
			return false;
	}
	return true;
}

bool ddbc_diff_mrsc_dissolved(const ddbc_table *a, const ddbc_table *b)
{
	const ddbc_table_settings *s0 = &a->settings, *s1 = &b->settings;
	if (!s0->strong || s0->nreplicas < 2 || s1->nreplicas > 1 || s1->witness.s || s1->regions_incomplete)
		return false;
	return !s1->nreplicas || (s0->nreplicas &&
				  ddbc_diff_str_same(s0->replicas[0].s, s1->replicas[0].s));
}

bool ddbc_diff_consistency_changed(const ddbc_table *a, const ddbc_table *b)
{
	const ddbc_table_settings *s0 = &a->settings, *s1 = &b->settings;
	if (ddbc_diff_mrsc_dissolved(a, b))
		return false;
	if ((s1->strong && !s0->strong) || (s0->strong && s1->nreplicas && !s1->strong))
		return true;
	return s0->strong && s1->strong && !regions_same(s0, s1);
}

bool ddbc_diff_table_replaced(const ddbc_table *a, const ddbc_table *b)
{
	return !ddbc_diff_keys_same(&a->primary, &b->primary) || ddbc_diff_lsis_differ(a, b) ||
	       ddbc_diff_consistency_changed(a, b);
}

bool ddbc_diff_projects(const ddbc_index *ix, const char *name)
{
	if (ix->projection == DDBC_PROJ_ALL || ddbc_index_has_key(ix, name) ||
	    ddbc_index_has_key(&ix->table->primary, name))
		return true;
	for (size_t i = 0; ix->projection == DDBC_PROJ_INCLUDE && i < ix->ninclude; i++)
		if (ddbc_diff_str_same(ix->include[i].s, name))
			return true;
	return false;
}
