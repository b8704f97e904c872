/* rules/keys.c - key-attribute-type, key-type-conflict, entity-missing-key, gsi-key-arity, hot-partition, ttl-type, billing */
#include "rules/checks.h"
#include "semantics.h"

void ddbc_check_key_attribute_type(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_key_type_conflict(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_entity_missing_key(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_gsi_key_arity(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_hot_partition(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_ttl_type(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}

void ddbc_check_billing(const ddbc_design *g, ddbc_diags *d)
{
	(void)g;
	(void)d;
}
