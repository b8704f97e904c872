/* embedded.c - looking up the data files compiled into the binary */
#include "util/embedded.h"

#include <stdlib.h>
#include <string.h>

static int by_name(const void *key, const void *elem)
{
	return strcmp(key, ((const ddbc_embedded_file *)elem)->name);
}

const ddbc_embedded_file *ddbc_embedded_find(const char *name)
{
	return bsearch(name, ddbc_embedded_files, ddbc_embedded_count,
		       sizeof(ddbc_embedded_files[0]), by_name);
}
