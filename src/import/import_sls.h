/* import_sls.h - what the Serverless Framework's variable resolver shares
 *
 * import_sls.c resolves variables; import_sls_file.c reads what
 * ${file(...)} names and merges `resources` given as a list.
 */
#ifndef DDBC_IMPORT_SLS_H
#define DDBC_IMPORT_SLS_H

#include "import/import_cfn.h"

/* The content of the file written (relative to the service's folder, as
 * the variable wrote it) for variable var: borrowed, kept until
 * ddbc_sls_release; json null when there is no such file (the framework's
 * "no value"); NULL after saying why (a file that cannot be read or
 * parsed, a module only the framework runs). */
const json_t *ddbc_sls_file(ddbc_sls *s, const char *var, const char *written);

/* The value at a dotted address of v (a list by index, `list[0]` too), or
 * NULL when there is none (or it is null). Borrowed. */
const json_t *ddbc_sls_at(const json_t *v, const char *address);

/* from merged into into as lodash's merge does (into's reference is
 * taken; the result is a new reference, into itself where it is a
 * container of the same kind). */
json_t *ddbc_sls_merge(json_t *into, const json_t *from);

#endif
