/* rules/examples.c - example-mismatch */
#include "rules/checks.h"
#include "semantics.h"

void ddbc_check_example_mismatch(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}
