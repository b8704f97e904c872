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

struct ddbc_import_run;   /* one import's state (import_int.h) */
struct json_t;

/* One `ddbc import --from` word: its name, what it reads (for
 * --list-sources, the help, did-you-mean, the shell completion and the
 * man page, which all read this table), and how its files are read.
 * name and help come first, as in every table of words the command line
 * reads. A new source is its reader's file and one row (import.c). */
typedef struct ddbc_import_source {
	const char *name;
	const char *help;
	/* The tree of a file: NULL after saying why. A new reference. */
	struct json_t *(*load)(struct ddbc_import_run *run, const char *file);
	/* Adds the tables (and entities) of the file's tree root to design
	 * (its types checked first): 0, or -1 after saying why. */
	int (*read)(struct ddbc_import_run *run, const char *file, const struct json_t *root,
		    struct json_t *design);
} ddbc_import_source;

/* Every source (import.c); a NULL name ends it. */
extern const ddbc_import_source ddbc_import_sources[];
/* The source of that name, or NULL. */
const ddbc_import_source *ddbc_import_source_named(const char *name);

/* A value for a template parameter: --param NAME=VALUE (borrowed). */
typedef struct ddbc_import_param {
	const char *name, *value;
} ddbc_import_param;

/* Reads files (all in the format of from) and writes one design to out.
 * Returns 0, or -1 after saying on stderr which file is wrong and why
 * (then what was written to out is to be thrown away). */
int ddbc_import(const ddbc_import_source *from, char *const *files, size_t nfiles,
		const ddbc_import_param *params, size_t nparams, FILE *out);

#endif
