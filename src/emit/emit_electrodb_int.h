/* emit_electrodb_int.h - what emit_electrodb.c shares with
 * emit_electrodb_patterns.c
 */
#ifndef DDBC_EMIT_ELECTRODB_INT_H
#define DDBC_EMIT_ELECTRODB_INT_H

#include "emit/emit_keys_int.h"
#include "emit/emit_libs.h"

typedef struct electrodb_writer {
	strbuf sb;
	ddbc_arena *arena;
	const ddbc_design *g;
	bool pads;               /* a computed attribute pads: pad_ is needed */
	ddbc_err *err;           /* why a key cannot be written (NULL: not kept) */
} electrodb_writer;

/* What ElectroDB's key templates hold. */
extern const lib_caps ddbc_electrodb_caps;

/* The `patterns` object: services[i] names table i's Service function
 * (NULL for a table without entities). */
void ddbc_electrodb_patterns(electrodb_writer *w, const char **services);

#endif
