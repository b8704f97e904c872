/* import_mcp.h - the two halves of the MCP schema reader
 *
 * import_mcp.c reads tables and entities; import_mcp_patterns.c turns an
 * entity's access patterns into the design's.
 */
#ifndef DDBC_IMPORT_MCP_H
#define DDBC_IMPORT_MCP_H

#include <jansson.h>

struct ddbc_import_run;

/* One table of the schema, as read (all borrowed). */
struct mcp_table {
	struct ddbc_import_run *run;
	const char *file;
	const char *name;
	const json_t *config;     /* table_config */
	const json_t *gsi_list;
	const json_t *table;      /* the design's table */
	const json_t *entities;   /* the schema's entities of the table */
};

/* Adds the access patterns of entity ename (schema object e) to design.
 * Returns 0 or -1. */
int ddbc_import_mcp_patterns(const struct mcp_table *t, const char *ename, const json_t *e,
			     json_t *design);

/* Checks root as the MCP server's validator does, saying every defect
 * with its path; -1 when there is one. */
int ddbc_import_mcp_check(const char *file, const json_t *root);

#endif
