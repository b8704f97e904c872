/* rules/patterns.c - pattern-unservable, pattern-operator-type, pattern-consistent-gsi, pattern-projection, pattern-no-match, pattern-entities, pattern-scan */
#include "rules/checks.h"
#include "semantics.h"

void ddbc_check_pattern_unservable(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_pattern_operator_type(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_pattern_consistent_gsi(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_pattern_projection(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_pattern_no_match(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_pattern_entities(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_pattern_scan(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}
