/* rules.h - the rule catalogue: one entry per rule id (SPEC §3)
 *
 * Every finding names one of these rules. The table in rules.c holds each
 * rule's stable id, default severity and one-line summary; its order is the
 * order of SPEC §3 and of `ddbc explain`.
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
	DDBC_RULE_YAML_SYNTAX,
	DDBC_RULE_SCHEMA,
	DDBC_RULE_DUPLICATE_KEY,
	DDBC_RULE_UNRESOLVED_REFERENCE,
	DDBC_RULE_TABLE_NAME,
	DDBC_RULE_INDEX_NAME,
	DDBC_RULE_KEY_ATTRIBUTE_TYPE,
	DDBC_RULE_KEY_TYPE_CONFLICT,
	DDBC_RULE_ENTITY_MISSING_KEY,
	DDBC_RULE_LSI_REQUIRES_SORT_KEY,
	DDBC_RULE_LSI_LIMIT,
	DDBC_RULE_GSI_LIMIT,
	DDBC_RULE_GSI_KEY_ARITY,
	DDBC_RULE_PROJECTION_LIMIT,
	DDBC_RULE_BILLING,
	DDBC_RULE_TTL_TYPE,
	DDBC_RULE_INCLUSION_MISMATCH,
	DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE,
	DDBC_RULE_INDEX_UNUSED,
	DDBC_RULE_TEMPLATE_SYNTAX,
	DDBC_RULE_TEMPLATE_UNKNOWN_ATTRIBUTE,
	DDBC_RULE_TEMPLATE_TYPE,
	DDBC_RULE_TEMPLATE_CYCLE,
	DDBC_RULE_UNPADDED_NUMBER_IN_KEY,
	DDBC_RULE_KEY_OVERLAP,
	DDBC_RULE_EXAMPLE_MISMATCH,
	DDBC_RULE_PATTERN_UNSERVABLE,
	DDBC_RULE_PATTERN_OPERATOR_TYPE,
	DDBC_RULE_PATTERN_CONSISTENT_GSI,
	DDBC_RULE_PATTERN_PROJECTION,
	DDBC_RULE_PATTERN_NO_MATCH,
	DDBC_RULE_PATTERN_ENTITIES,
	DDBC_RULE_PATTERN_SCAN,
	DDBC_RULE_RESERVED_WORD,
	DDBC_RULE_GENERIC_KEY_NAMES,
	DDBC_RULE_HOT_PARTITION,
	DDBC_RULE_MISSING_DESCRIPTION,
	DDBC_RULE_COUNT
} ddbc_rule;

struct ddbc_design;
struct ddbc_diags;
struct ddbc_settings;

/* A check reads the derived model (semantics.h) and adds findings; it
 * never prints and never changes the model. */
typedef void ddbc_check_fn(const struct ddbc_design *design, struct ddbc_diags *d);

typedef struct ddbc_rule_info {
	const char *id;
	ddbc_severity default_severity;
	/* A rule whose findings mean the file could not be read as a design:
	 * its severity cannot be changed. */
	bool fixed;
	const char *summary;
	/* NULL for the structural rules, which the loader reports. */
	ddbc_check_fn *check;
} ddbc_rule_info;

const ddbc_rule_info *ddbc_rule_get(ddbc_rule rule);

/* Runs every rule's check on a loaded design, skipping the rules that
 * settings (or, where not set there, design_settings and the default) turn
 * off. */
void ddbc_rules_run(const struct ddbc_design *design, struct ddbc_diags *d,
		    const struct ddbc_settings *cli);
/* Looks a rule up by id; returns 0 and sets *out, or -1. */
int ddbc_rule_find(const char *id, ddbc_rule *out);
/* The rule id closest to id (for "did you mean"), or NULL. */
const char *ddbc_rule_suggest(const char *id);

const char *ddbc_severity_name(ddbc_severity sev);
/* "off", "note", "warning", "error" -> severity; returns 0 or -1. */
int ddbc_severity_parse(const char *s, ddbc_severity *out);

#endif
