/* check.c - the whole check of one design, and the rules' runner */
#include "rules/check.h"
#include "input/load.h"
#include "model/semantics.h"
#include "rules/checks.h"
#include "util/xalloc.h"

/* Each rule's check function, in the catalogue's order; NULL for the rules
 * the loader or `ddbc diff` reports. */
#define DDBC_CHECK_FN_CHECK(name) ddbc_check_##name
#define DDBC_CHECK_FN_LOADER(name) NULL
#define DDBC_CHECK_FN_FIXED(name) NULL
#define DDBC_CHECK_FN_DIFF(name) NULL
static ddbc_check_fn *const checks[DDBC_RULE_COUNT] = {
#define DDBC_RULE(NAME, name, id, sev, kind, summary) \
	[DDBC_RULE_##NAME] = DDBC_CHECK_FN_##kind(name),
#include "diag/rules.def"
#undef DDBC_RULE
};

static ddbc_severity severity_of(ddbc_rule rule, const ddbc_settings *cli,
				 const ddbc_settings *design)
{
	ddbc_severity sev = cli->sev[rule];
	if (sev == DDBC_SEV_DEFAULT)
		sev = design->sev[rule];
	if (sev == DDBC_SEV_DEFAULT)
		sev = ddbc_rule_get(rule)->default_severity;
	return sev;
}

/* Runs the check of every rule that has one, skipping the rules that cli
 * (or, where not set there, the design's lint.rules and then the rule's
 * default) turns off. */
static void rules_run(const ddbc_design *design, ddbc_diags *d, const ddbc_settings *cli)
{
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		if (checks[i] && severity_of((ddbc_rule)i, cli, &design->settings) != DDBC_SEV_OFF)
			checks[i](design, d);
	}
}

ddbc_design *ddbc_check(const ddbc_source *src, ddbc_diags *d, const ddbc_settings *cli)
{
	ddbc_diags_begin(d, src);
	ddbc_design *design = ddbc_load(src, d);
	/* The composer's scratch is gone, and the semantics pass's
	 * temporaries after it: their pages need not stay resident. */
	xalloc_release_free();
	if (design) {
		ddbc_semantics(design);
		xalloc_release_free();
		rules_run(design, d, cli);
	}
	ddbc_diags_finish(d, cli, design ? &design->settings : NULL);
	return design;
}
