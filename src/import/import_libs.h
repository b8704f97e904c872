/* import_libs.h - the readers of library models (OneTable, ElectroDB,
 * DynamoDB-Toolbox) and what they share (import_libs.c)
 */
#ifndef DDBC_IMPORT_LIBS_H
#define DDBC_IMPORT_LIBS_H

#include <jansson.h>
#include <stdbool.h>

struct strbuf;
struct ddbc_import_run;

/* How a ${name} template is read: file and what (for messages: "entity
 * 'User' field 'pk'"), whether ${name:WIDTH:0} is read (pad), and name,
 * which appends what the placeholder is in ddbc's template to out (a
 * {name}, {name:0WIDTH} or a literal) or says why not and returns -1. */
typedef struct lib_braced_how {
	const char *file, *what;
	bool pad;
	int (*name)(void *ctx, const char *name, unsigned width, struct strbuf *out);
	void *ctx;
} lib_braced_how;

/* Appends template tpl as a ddbc template to out: 0, or -1 after saying
 * which entity and field hold what ddbc cannot. */
int ddbc_import_braced(const lib_braced_how *how, const char *tpl, struct strbuf *out);

/* Appends n bytes of literal text to a ddbc template ({ and } doubled). */
void ddbc_import_literal(struct strbuf *out, const char *s, size_t n);

/* Adds table (taken) to design under name, or merges it into the table of
 * that name another entity gave (the same keys; indexes joined). 0 or -1. */
int ddbc_import_lib_table(const char *file, json_t *design, const char *name, json_t *table);

/* Whether version v (a string like "3.9.3", or NULL: not given) is of a
 * major version in known ("2,3"): 0, or -1 after saying so. */
/* One entity of a library's model, the i-th of its list. */
typedef int ddbc_lib_entity_fn(struct ddbc_import_run *run, const char *file, const json_t *e,
			       size_t i, json_t *design);

/* The entities of root: a bundle {KEY: version, "entities": [...]} (the
 * version checked against versions), a list, or one entity; each read by
 * fn. none is the message when there are none. */
int ddbc_import_lib_entities(struct ddbc_import_run *run, const char *file, const json_t *root,
			     const char *key, const char *lib, const char *versions,
			     const char *none, ddbc_lib_entity_fn *fn, json_t *design);

int ddbc_import_lib_version(const char *file, const json_t *v, const char *library,
			    const char *known);

/* A copy of a library's enum values when they are a list of scalars (what
 * a design's enum holds); NULL otherwise. */
json_t *ddbc_import_lib_enum(const json_t *values);

/* The readers: each adds the tables and entities of root to design. */
int ddbc_import_onetable(struct ddbc_import_run *run, const char *file, const json_t *root,
			 json_t *design);
int ddbc_import_electrodb(struct ddbc_import_run *run, const char *file, const json_t *root,
			  json_t *design);
int ddbc_import_toolbox(struct ddbc_import_run *run, const char *file, const json_t *root,
			json_t *design);

#endif
