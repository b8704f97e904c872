/* rules/checks.h - the check function of every rule, by family file
 *
 * Each family file implements its rules over the derived model (semantics.h);
 * rules.c registers them in the catalogue.
 */
#ifndef DDBC_RULES_CHECKS_H
#define DDBC_RULES_CHECKS_H

#include "diag/rules.h"

/* rules/names.c */
ddbc_check_fn ddbc_check_table_name;
ddbc_check_fn ddbc_check_index_name;
ddbc_check_fn ddbc_check_reserved_word;
ddbc_check_fn ddbc_check_generic_key_names;
ddbc_check_fn ddbc_check_missing_description;

/* rules/keys.c */
ddbc_check_fn ddbc_check_key_attribute_type;
ddbc_check_fn ddbc_check_key_type_conflict;
ddbc_check_fn ddbc_check_entity_missing_key;
ddbc_check_fn ddbc_check_gsi_key_arity;
ddbc_check_fn ddbc_check_hot_partition;
ddbc_check_fn ddbc_check_ttl_type;
ddbc_check_fn ddbc_check_billing;

/* rules/indexes.c */
ddbc_check_fn ddbc_check_lsi_requires_sort_key;
ddbc_check_fn ddbc_check_lsi_limit;
ddbc_check_fn ddbc_check_gsi_limit;
ddbc_check_fn ddbc_check_projection_limit;
ddbc_check_fn ddbc_check_projection_unknown_attribute;
ddbc_check_fn ddbc_check_index_unused;
ddbc_check_fn ddbc_check_inclusion_mismatch;

/* rules/templates.c */
ddbc_check_fn ddbc_check_template_syntax;
ddbc_check_fn ddbc_check_template_unknown_attribute;
ddbc_check_fn ddbc_check_template_type;
ddbc_check_fn ddbc_check_template_cycle;
ddbc_check_fn ddbc_check_unpadded_number_in_key;
ddbc_check_fn ddbc_check_key_overlap;

/* rules/examples.c */
ddbc_check_fn ddbc_check_example_mismatch;

/* rules/patterns.c */
ddbc_check_fn ddbc_check_pattern_unservable;
ddbc_check_fn ddbc_check_pattern_operator_type;
ddbc_check_fn ddbc_check_pattern_consistent_gsi;
ddbc_check_fn ddbc_check_pattern_projection;
ddbc_check_fn ddbc_check_pattern_no_match;
ddbc_check_fn ddbc_check_pattern_entities;
ddbc_check_fn ddbc_check_pattern_scan;

#endif
