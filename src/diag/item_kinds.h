/* item_kinds.h - the kinds of check-items findings as data
 *
 * item_kinds.def lists them once; the enum and the table in item_kinds.c
 * are made from it. Like the rule catalogue (rules.h) this is plain data:
 * the checks that report these kinds are in items/.
 */
#ifndef DDBC_ITEM_KINDS_H
#define DDBC_ITEM_KINDS_H

#include "diag/rules.h"

typedef enum ddbc_item_kind {
#define DDBC_ITEM_KIND(NAME, id, sev, summary) DDBC_ITEM_##NAME,
#include "diag/item_kinds.def"
#undef DDBC_ITEM_KIND
	DDBC_ITEM_KIND_COUNT
} ddbc_item_kind;

typedef struct ddbc_item_kind_info {
	const char *id;
	ddbc_severity default_severity;
	const char *summary;
} ddbc_item_kind_info;

const ddbc_item_kind_info *ddbc_item_kind_get(ddbc_item_kind k);
/* Looks a kind up by id; returns 0 and sets *out, or -1. */
int ddbc_item_kind_find(const char *id, ddbc_item_kind *out);

#endif
