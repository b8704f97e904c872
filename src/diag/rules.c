/* rules.c - the rule catalogue, made from rules.def */
#include "diag/rules.h"
#include "util/suggest.h"

#include <string.h>

static const ddbc_rule_info catalogue[DDBC_RULE_COUNT] = {
#define DDBC_RULE(NAME, name, id, sev, kind, part, summary) \
	[DDBC_RULE_##NAME] = { id, DDBC_SEV_##sev, DDBC_RULE_KIND_##kind, \
			       DDBC_RULE_KIND_##kind == DDBC_RULE_KIND_FIXED, summary },
#include "diag/rules.def"
#undef DDBC_RULE
};

const ddbc_rule_info *ddbc_rule_get(ddbc_rule rule)
{
	return &catalogue[rule];
}

int ddbc_rule_find(const char *id, ddbc_rule *out)
{
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		if (strcmp(catalogue[i].id, id) == 0) {
			*out = (ddbc_rule)i;
			return 0;
		}
	}
	return -1;
}

const char *ddbc_rule_suggest(const char *id)
{
	const char *names[DDBC_RULE_COUNT];
	for (int i = 0; i < DDBC_RULE_COUNT; i++)
		names[i] = catalogue[i].id;
	return ddbc_suggest(id, names, DDBC_RULE_COUNT);
}

static const char *const severity_names[] = { "off", "note", "warning", "error" };

const char *ddbc_severity_name(ddbc_severity sev)
{
	if (sev < DDBC_SEV_OFF || sev > DDBC_SEV_ERROR)
		return "default";
	return severity_names[sev];
}

int ddbc_severity_parse(const char *s, ddbc_severity *out)
{
	for (int i = 0; i < 4; i++) {
		if (strcmp(s, severity_names[i]) == 0) {
			*out = (ddbc_severity)i;
			return 0;
		}
	}
	return -1;
}
