/* rules/indexes.c - lsi-requires-sort-key, lsi-limit, gsi-limit, projection-limit, projection-unknown-attribute, index-unused, inclusion-mismatch */
#include "rules/checks.h"
#include "semantics.h"

void ddbc_check_lsi_requires_sort_key(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_lsi_limit(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_gsi_limit(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_projection_limit(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_projection_unknown_attribute(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_index_unused(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_inclusion_mismatch(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}
