/* rules.c - the rule catalogue (SPEC §3) */
#include "diag/rules.h"
#include "diag/diag.h"
#include "model/model.h"
#include "rules/checks.h"
#include "util/suggest.h"

#include <string.h>

#define E DDBC_SEV_ERROR
#define W DDBC_SEV_WARNING
#define N DDBC_SEV_NOTE
#define OFF DDBC_SEV_OFF

static const ddbc_rule_info catalogue[DDBC_RULE_COUNT] = {
	[DDBC_RULE_YAML_SYNTAX] = { "yaml-syntax", E, true,
		"the file is not a single well-formed YAML document" },
	[DDBC_RULE_SCHEMA] = { "schema", E, false,
		"unknown field, wrong node kind, missing required field, bad enum word or version" },
	[DDBC_RULE_DUPLICATE_KEY] = { "duplicate-key", E, false,
		"a YAML mapping has the same key twice" },
	[DDBC_RULE_UNRESOLVED_REFERENCE] = { "unresolved-reference", E, false,
		"a table, index, entity or attribute name that is not defined" },
	[DDBC_RULE_TABLE_NAME] = { "table-name", E, false,
		"a table name breaks DynamoDB's naming rules (3-255 characters of [A-Za-z0-9_.-])", ddbc_check_table_name },
	[DDBC_RULE_INDEX_NAME] = { "index-name", E, false,
		"an index name breaks DynamoDB's naming rules (3-255 characters of [A-Za-z0-9_.-])", ddbc_check_index_name },
	[DDBC_RULE_KEY_ATTRIBUTE_TYPE] = { "key-attribute-type", E, false,
		"a table or index key attribute whose type is not S, N or B", ddbc_check_key_attribute_type },
	[DDBC_RULE_KEY_TYPE_CONFLICT] = { "key-type-conflict", E, false,
		"entities of one table give a shared key attribute different types", ddbc_check_key_type_conflict },
	[DDBC_RULE_ENTITY_MISSING_KEY] = { "entity-missing-key", E, false,
		"an entity does not define its table's partition key or sort key", ddbc_check_entity_missing_key },
	[DDBC_RULE_LSI_REQUIRES_SORT_KEY] = { "lsi-requires-sort-key", E, false,
		"a local secondary index on a table without a sort key", ddbc_check_lsi_requires_sort_key },
	[DDBC_RULE_LSI_LIMIT] = { "lsi-limit", E, false,
		"more than 5 local secondary indexes on a table", ddbc_check_lsi_limit },
	[DDBC_RULE_GSI_LIMIT] = { "gsi-limit", W, false,
		"more than 20 global secondary indexes on a table (the default quota)", ddbc_check_gsi_limit },
	[DDBC_RULE_GSI_KEY_ARITY] = { "gsi-key-arity", E, false,
		"a GSI key with more than 4 partition or 4 sort attributes, or one attribute twice", ddbc_check_gsi_key_arity },
	[DDBC_RULE_PROJECTION_LIMIT] = { "projection-limit", E, false,
		"more than 100 INCLUDE attributes summed over all indexes of a table", ddbc_check_projection_limit },
	[DDBC_RULE_BILLING] = { "billing", E, false,
		"provisioned billing without capacity, or capacity with on-demand billing", ddbc_check_billing },
	[DDBC_RULE_TTL_TYPE] = { "ttl-type", E, false,
		"the TTL attribute is not a Number", ddbc_check_ttl_type },
	[DDBC_RULE_INCLUSION_MISMATCH] = { "inclusion-mismatch", E, false,
		"declared index inclusion disagrees with the inclusion the indexes imply", ddbc_check_inclusion_mismatch },
	[DDBC_RULE_PROJECTION_UNKNOWN_ATTRIBUTE] = { "projection-unknown-attribute", W, false,
		"an INCLUDE projection names an attribute no entity of the table has", ddbc_check_projection_unknown_attribute },
	[DDBC_RULE_INDEX_UNUSED] = { "index-unused", W, false,
		"no entity sets all key attributes of an index", ddbc_check_index_unused },
	[DDBC_RULE_TEMPLATE_SYNTAX] = { "template-syntax", E, false,
		"a template has unbalanced or empty braces or a bad width", ddbc_check_template_syntax },
	[DDBC_RULE_TEMPLATE_UNKNOWN_ATTRIBUTE] = { "template-unknown-attribute", E, false,
		"a template placeholder names no attribute of the entity", ddbc_check_template_unknown_attribute },
	[DDBC_RULE_TEMPLATE_TYPE] = { "template-type", E, false,
		"a template on a non-S attribute, a placeholder that is not S or N, or a width on S", ddbc_check_template_type },
	[DDBC_RULE_TEMPLATE_CYCLE] = { "template-cycle", E, false,
		"templates refer to each other in a cycle", ddbc_check_template_cycle },
	[DDBC_RULE_UNPADDED_NUMBER_IN_KEY] = { "unpadded-number-in-key", W, false,
		"a Number interpolated into a sort key without zero padding", ddbc_check_unpadded_number_in_key },
	[DDBC_RULE_KEY_OVERLAP] = { "key-overlap", E, false,
		"two entities of one table can produce the same primary key", ddbc_check_key_overlap },
	[DDBC_RULE_EXAMPLE_MISMATCH] = { "example-mismatch", E, false,
		"an example item disagrees with its entity's types, enums or key templates", ddbc_check_example_mismatch },
	[DDBC_RULE_PATTERN_UNSERVABLE] = { "pattern-unservable", E, false,
		"key conditions that the index cannot serve", ddbc_check_pattern_unservable },
	[DDBC_RULE_PATTERN_OPERATOR_TYPE] = { "pattern-operator-type", E, false,
		"a key condition operator that does not fit the key's type or operands", ddbc_check_pattern_operator_type },
	[DDBC_RULE_PATTERN_CONSISTENT_GSI] = { "pattern-consistent-gsi", E, false,
		"a strongly consistent read on a global secondary index", ddbc_check_pattern_consistent_gsi },
	[DDBC_RULE_PATTERN_PROJECTION] = { "pattern-projection", W, false,
		"an access pattern needs an attribute its index does not project", ddbc_check_pattern_projection },
	[DDBC_RULE_PATTERN_NO_MATCH] = { "pattern-no-match", W, false,
		"an access pattern's key condition matches no entity", ddbc_check_pattern_no_match },
	[DDBC_RULE_PATTERN_ENTITIES] = { "pattern-entities", E, false,
		"declared entities of a pattern differ from the entities its condition matches", ddbc_check_pattern_entities },
	[DDBC_RULE_PATTERN_SCAN] = { "pattern-scan", W, false,
		"a scan access pattern (its cost grows with the table)", ddbc_check_pattern_scan },
	[DDBC_RULE_RESERVED_WORD] = { "reserved-word", N, false,
		"an attribute name is a DynamoDB reserved word", ddbc_check_reserved_word },
	[DDBC_RULE_GENERIC_KEY_NAMES] = { "generic-key-names", N, false,
		"a table holding several entities uses non-generic key attribute names", ddbc_check_generic_key_names },
	[DDBC_RULE_HOT_PARTITION] = { "hot-partition", W, false,
		"a partition key with too few distinct values (boolean or a small enum)", ddbc_check_hot_partition },
	[DDBC_RULE_MISSING_DESCRIPTION] = { "missing-description", OFF, false,
		"an entity, attribute, index or access pattern without a description",
		ddbc_check_missing_description },
};

const ddbc_rule_info *ddbc_rule_get(ddbc_rule rule)
{
	return &catalogue[rule];
}

void ddbc_rules_run(const ddbc_design *design, ddbc_diags *d, const ddbc_settings *cli)
{
	for (int i = 0; i < DDBC_RULE_COUNT; i++) {
		const ddbc_rule_info *r = &catalogue[i];
		ddbc_severity sev = cli->sev[i];
		if (sev == DDBC_SEV_DEFAULT)
			sev = design->settings.sev[i];
		if (sev == DDBC_SEV_DEFAULT)
			sev = r->default_severity;
		if (r->check && sev != DDBC_SEV_OFF)
			r->check(design, d);
	}
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
