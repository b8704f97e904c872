/* check.c - the whole check of one design */
#include "rules/check.h"
#include "input/load.h"
#include "model/semantics.h"

ddbc_design *ddbc_check(const ddbc_source *src, ddbc_diags *d, const ddbc_settings *cli)
{
	ddbc_diags_begin(d, src);
	ddbc_design *design = ddbc_load(src, d);
	if (design) {
		ddbc_semantics(design);
		ddbc_rules_run(design, d, cli);
	}
	ddbc_diags_finish(d, cli, design ? &design->settings : NULL);
	return design;
}
