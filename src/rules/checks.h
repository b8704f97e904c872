/* rules/checks.h - the check function of every rule that has one
 *
 * A check reads the derived model (model/semantics.h) and adds findings;
 * it never prints and never changes the model. The rules of kind CHECK in
 * diag/rules.def each have one, named ddbc_check_<name>, in the family file
 * of rules/ that fits it (names, keys, indexes, templates, examples,
 * patterns, bounds, params); rules/check.c runs them.
 */
#ifndef DDBC_RULES_CHECKS_H
#define DDBC_RULES_CHECKS_H

#include "diag/rules.h"

#include <stdbool.h>

struct ddbc_design;
struct ddbc_diags;

typedef void ddbc_check_fn(const struct ddbc_design *design, struct ddbc_diags *d);

#define DDBC_CHECK_PROTO_CHECK(name) ddbc_check_fn ddbc_check_##name;
#define DDBC_CHECK_PROTO_LOADER(name)
#define DDBC_CHECK_PROTO_FIXED(name)
#define DDBC_CHECK_PROTO_DIFF(name)
#define DDBC_RULE(NAME, name, id, sev, kind, part, summary) DDBC_CHECK_PROTO_##kind(name)
#include "diag/rules.def"
#undef DDBC_RULE
#undef DDBC_CHECK_PROTO_CHECK
#undef DDBC_CHECK_PROTO_LOADER
#undef DDBC_CHECK_PROTO_FIXED
#undef DDBC_CHECK_PROTO_DIFF

struct ddbc_pattern;

/* Whether a range bound or begins_with value of p is one range-bound-shape
 * reports (rules/bounds.c): what the condition matches is then the echo
 * of that mistake, which the pattern rules do not report again. */
bool ddbc_pattern_has_misshapen_bound(const struct ddbc_pattern *p);
/* Whether what p matches is known (rules/patterns.c): no error left its
 * index, its table or an entity that may be in it unread. */
bool ddbc_pattern_matches_known(const struct ddbc_pattern *p);

#endif
