/* output.h - writing a command's result, atomically
 *
 * A result is written into a temporary file: beside the destination for
 * -o FILE (then renamed over it), or an anonymous one for standard output
 * (then copied there). Only a committed output reaches its destination, so
 * a failing run writes nothing, a reader never sees half a file, and an
 * existing file is left untouched. Memory does not grow with the output.
 */
#ifndef DDBC_OUTPUT_H
#define DDBC_OUTPUT_H

#include <stdio.h>

typedef struct ddbc_output {
	FILE *f;           /* write the result here */
	char *path;        /* the destination; NULL for standard output */
	char *tmp;         /* the temporary file's name; NULL when anonymous */
} ddbc_output;

/* Opens an output for path ("-" or NULL = standard output). Returns 0, or
 * -1 with a message printed to stderr. */
int ddbc_output_open(ddbc_output *o, const char *path);
/* Sends what was written to the destination and closes o. Returns 0, or
 * -1 with a message printed (the destination is then untouched). */
int ddbc_output_commit(ddbc_output *o);
/* Throws away what was written and closes o. */
void ddbc_output_abort(ddbc_output *o);

/* Whether a and b name the same existing file. */
int ddbc_same_file(const char *a, const char *b);

#endif
