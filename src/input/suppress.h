/* suppress.h - the `# ddbc-ignore: RULE[, RULE...] [-- reason]` comments of a design
 *
 * A suppression comment at the end of a line suppresses its rules' findings
 * on that line; alone on its line, on the next line that holds YAML (comment
 * lines and blank lines between are skipped). docs/format.md describes them
 * for users. The comments are collected while the composer reads the file
 * (it hands over every libyaml event) and read once it has composed.
 */
#ifndef DDBC_SUPPRESS_H
#define DDBC_SUPPRESS_H

#include "diag/diag.h"

#include <yaml.h>

typedef struct ddbc_comments ddbc_comments;

/* A collector of src's suppression comments, or NULL when src holds no
 * "ddbc-ignore" at all (nothing to collect). Free with ddbc_comments_free;
 * src must outlive it. */
ddbc_comments *ddbc_comments_new(const ddbc_source *src);

/* Takes the next of src's events, in the order libyaml produces them. */
void ddbc_comments_event(ddbc_comments *c, const yaml_event_t *ev);

/* Hands each rule the comments name to d (ddbc_diags_suppress), d's
 * current source being src. A comment that cannot suppress anything
 * (malformed, an unknown rule, a rule that cannot be suppressed) is
 * reported as unused-suppression instead. Call it only once the file was
 * composed: a file that is no YAML gets no finding about its comments. */
void ddbc_comments_read(ddbc_comments *c, ddbc_diags *d);

void ddbc_comments_free(ddbc_comments *c);

#endif
