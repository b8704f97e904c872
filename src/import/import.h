/* import.h - designs from other tools' descriptions of tables
 *
 * Reads NoSQL Workbench models, CloudFormation templates, the output of
 * `aws dynamodb describe-table`, the DynamoDB MCP server's schema.json or
 * the JSON of a OneTable, ElectroDB or DynamoDB-Toolbox model and writes a design in ddbc's YAML. Only what the source says is written;
 * what is recovered from sample items is marked by a comment.
 */
#ifndef DDBC_IMPORT_H
#define DDBC_IMPORT_H

#include <stddef.h>
#include <stdio.h>

/* The source formats. */
typedef enum ddbc_import_from {
	DDBC_IMPORT_WORKBENCH,
	DDBC_IMPORT_CLOUDFORMATION,
	DDBC_IMPORT_DESCRIBE_TABLE,
	DDBC_IMPORT_MCP,
	DDBC_IMPORT_ONETABLE,
	DDBC_IMPORT_ELECTRODB,
	DDBC_IMPORT_TOOLBOX
} ddbc_import_from;

/* One `ddbc import --from` word: its name, what it reads (for
 * --list-sources and the help), its format. name and help come first, as
 * in every table of words the command line reads. */
typedef struct ddbc_import_source {
	const char *name;
	const char *help;
	ddbc_import_from from;
} ddbc_import_source;

/* Every source (import.c); a NULL name ends it. */
extern const ddbc_import_source ddbc_import_sources[];

/* A value for a template parameter: --param NAME=VALUE (borrowed). */
typedef struct ddbc_import_param {
	const char *name, *value;
} ddbc_import_param;

/* Reads files (all in the format from) and writes one design to out.
 * Returns 0, or -1 after saying on stderr which file is wrong and why
 * (then what was written to out is to be thrown away). */
int ddbc_import(ddbc_import_from from, char *const *files, size_t nfiles,
		const ddbc_import_param *params, size_t nparams, FILE *out);

#endif
