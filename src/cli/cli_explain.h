/* cli_explain.h - `ddbc explain`: the rules and kinds of findings, and their pages */
#ifndef DDBC_CLI_EXPLAIN_H
#define DDBC_CLI_EXPLAIN_H

/* Lists every rule and kind of check-items finding (id NULL), or prints
 * the page of id. Returns the exit status: 0, or 2 for an unknown id or
 * a page that cannot be read (said on stderr). */
int ddbc_cli_explain(const char *id);

#endif
