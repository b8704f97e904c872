/* item_kinds.c - the table of check-items finding kinds */
#include "diag/item_kinds.h"

#include <string.h>

static const ddbc_item_kind_info kinds[DDBC_ITEM_KIND_COUNT] = {
#define DDBC_ITEM_KIND(NAME, id, sev, summary) { id, DDBC_SEV_##sev, summary },
#include "diag/item_kinds.def"
#undef DDBC_ITEM_KIND
};

const ddbc_item_kind_info *ddbc_item_kind_get(ddbc_item_kind k)
{
	return &kinds[k];
}

int ddbc_item_kind_find(const char *id, ddbc_item_kind *out)
{
	for (int i = 0; i < DDBC_ITEM_KIND_COUNT; i++) {
		if (!strcmp(kinds[i].id, id)) {
			*out = (ddbc_item_kind)i;
			return 0;
		}
	}
	return -1;
}
