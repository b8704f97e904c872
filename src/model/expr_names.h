/* expr_names.h - attribute names inside DynamoDB expressions
 *
 * Key condition, condition and update expressions name attributes either
 * directly or through an ExpressionAttributeNames placeholder ("#name").
 * The C header's #name constants and the exported requests decide the same
 * way, here.
 */
#ifndef DDBC_EXPR_NAMES_H
#define DDBC_EXPR_NAMES_H

#include <stdbool.h>

/* Whether an expression must refer to name through a placeholder: it is a
 * reserved word, or not of the form [A-Za-z][A-Za-z0-9]*. */
bool ddbc_name_needs_placeholder(const char *name);

/* Whether name may itself follow '#' or ':' in a placeholder: one or more
 * of [A-Za-z0-9_]. */
bool ddbc_name_placeholder_safe(const char *name);

#endif
