/* rules/templates.c - template-syntax, template-unknown-attribute, template-type, template-cycle, unpadded-number-in-key, key-overlap */
#include "rules/checks.h"
#include "semantics.h"

void ddbc_check_template_syntax(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_template_unknown_attribute(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_template_type(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_template_cycle(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_unpadded_number_in_key(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_key_overlap(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}
