/* rules/names.c - table-name, index-name, reserved-word, generic-key-names, missing-description */
#include "rules/checks.h"
#include "semantics.h"

void ddbc_check_table_name(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_index_name(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_reserved_word(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_generic_key_names(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_missing_description(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}
