/* embedded.h - the data files compiled into the binary
 *
 * The HTML page template (templates/) and the rule pages (docs/rules/) are
 * made into C arrays at build time (build-aux/embed-gen), so that ddbc runs
 * complete wherever its binary stands: in the build tree, installed under
 * any prefix, or copied alone. Names are the file's path below its folder's
 * kind: "templates/page.html", "rules/key-overlap.md".
 */
#ifndef DDBC_EMBEDDED_H
#define DDBC_EMBEDDED_H

#include <stddef.h>

typedef struct ddbc_embedded_file {
	const char *name;
	const char *data;        /* len bytes, then a NUL */
	size_t len;
} ddbc_embedded_file;

/* The generated table, sorted by name. */
extern const ddbc_embedded_file ddbc_embedded_files[];
extern const size_t ddbc_embedded_count;

/* The file called name, or NULL. Static data: never freed. */
const ddbc_embedded_file *ddbc_embedded_find(const char *name);

#endif
