/* import_toolbox.h - DynamoDB-Toolbox key links read as templates
 * (import_toolbox_link.c)
 */
#ifndef DDBC_IMPORT_TOOLBOX_H
#define DDBC_IMPORT_TOOLBOX_H

#include <jansson.h>
#include <stdbool.h>

struct strbuf;

/* What a placeholder is: name appends {attr} (or {attr:0WIDTH}) of
 * attribute name to out, or says why not and returns -1. */
typedef struct tb_link_how {
	int (*name)(void *ctx, const char *name, unsigned width, struct strbuf *out);
	void *ctx;
} tb_link_how;

/* The template that a link's source src computes, appended to out: 0, or
 * -1 when the code is none ddbc reads (nothing said, unless name said it).
 * *sparse: the link leaves the key out when a part is undefined. */
int ddbc_import_tb_link(const tb_link_how *how, const char *src, struct strbuf *out,
			bool *sparse);

/* The templates of a computeKey's source, by key attribute, into keys. */
int ddbc_import_tb_compute(const tb_link_how *how, const char *src, json_t *keys);

#endif
