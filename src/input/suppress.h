/* suppress.h - the `# ddbc-ignore: RULE[, RULE...] [-- reason]` comments of a design
 *
 * A suppression comment at the end of a line suppresses its rules' findings
 * on that line; alone on its line, on the next line that holds YAML (comment
 * lines and blank lines between are skipped). docs/format.md describes them
 * for users.
 */
#ifndef DDBC_SUPPRESS_H
#define DDBC_SUPPRESS_H

#include "diag/diag.h"

/* Finds src's suppression comments and hands each rule they name to d
 * (ddbc_diags_suppress), d's current source being src. A comment that
 * cannot suppress anything (malformed, an unknown rule, a rule that cannot
 * be suppressed) is reported as unused-suppression instead. src must be
 * YAML that libyaml scans without an error: call it after composing. */
void ddbc_suppressions_read(const ddbc_source *src, ddbc_diags *d);

#endif
