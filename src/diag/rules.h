/* rules.h - the rule catalogue as data: one entry per rule id
 *
 * Every finding names one of these rules. rules.def lists them once; the
 * enum below and the table in rules.c are made from it, with each rule's
 * stable id, default severity, who reports it and one-line summary. This
 * is plain data, below the findings: the checks themselves and the runner
 * that calls them live in rules/ (rules/check.h), above the model.
 */
#ifndef DDBC_RULES_H
#define DDBC_RULES_H

#include <stdbool.h>
#include <stddef.h>

typedef enum ddbc_severity {
	DDBC_SEV_DEFAULT = -1,   /* in settings: not set */
	DDBC_SEV_OFF = 0,
	DDBC_SEV_NOTE,
	DDBC_SEV_WARNING,
	DDBC_SEV_ERROR
} ddbc_severity;

typedef enum ddbc_rule {
#define DDBC_RULE(NAME, name, id, sev, kind, part, summary) DDBC_RULE_##NAME,
#include "diag/rules.def"
#undef DDBC_RULE
	DDBC_RULE_COUNT
} ddbc_rule;

/* Who reports a rule's findings (rules.def's KIND). */
typedef enum ddbc_rule_kind {
	DDBC_RULE_KIND_CHECK,    /* its check function in rules/, over the derived model */
	DDBC_RULE_KIND_LOADER,   /* the loader, while it reads the file */
	DDBC_RULE_KIND_FIXED,    /* the loader; the file is no design; severity fixed */
	DDBC_RULE_KIND_DIFF      /* `ddbc diff`, comparing two designs (diff/) */
} ddbc_rule_kind;

typedef struct ddbc_rule_info {
	const char *id;
	ddbc_severity default_severity;
	ddbc_rule_kind kind;
	/* A rule whose findings mean the file could not be read as a design:
	 * its severity cannot be changed (kind == DDBC_RULE_KIND_FIXED). */
	bool fixed;
	const char *summary;
} ddbc_rule_info;

const ddbc_rule_info *ddbc_rule_get(ddbc_rule rule);

/* Looks a rule up by id; returns 0 and sets *out, or -1. */
int ddbc_rule_find(const char *id, ddbc_rule *out);
/* The rule id closest to id (for "did you mean"), or NULL. */
const char *ddbc_rule_suggest(const char *id);

const char *ddbc_severity_name(ddbc_severity sev);
/* "off", "note", "warning", "error" -> severity; returns 0 or -1. */
int ddbc_severity_parse(const char *s, ddbc_severity *out);

#endif
