/* cli_usage.h - the commands' help texts
 *
 * A text may hold @FORMATS@, @SOURCES@ or @LANGS@: ddbc_usage_print puts the words
 * of the command's table there (cli_words.h), so a format added to a table
 * is in the help at once.
 */
#ifndef DDBC_CLI_USAGE_H
#define DDBC_CLI_USAGE_H

#include "cli/cli_words.h"

#include <stdio.h>

extern const char ddbc_usage_main[];
extern const char ddbc_usage_lint[];
extern const char ddbc_usage_doc[];
extern const char ddbc_usage_header[];
extern const char ddbc_usage_keys[];
extern const char ddbc_usage_export[];
extern const char ddbc_usage_cost[];
extern const char ddbc_usage_items[];
extern const char ddbc_usage_sample[];
extern const char ddbc_usage_verify[];
extern const char ddbc_usage_migrate[];
extern const char ddbc_usage_diff[];
extern const char ddbc_usage_import[];
extern const char ddbc_usage_explain[];
extern const char ddbc_usage_lsp[];
extern const char ddbc_usage_init[];

/* Writes usage to out, @FORMATS@ as formats' words, @SOURCES@ as sources'
 * and @LANGS@ as langs' (the first format and language marked the
 * default), wrapped as the text is. */
void ddbc_usage_print(FILE *out, const char *usage, ddbc_words formats, ddbc_words sources,
		      ddbc_words langs);

#endif
