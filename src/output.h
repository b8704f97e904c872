/* output.h - writing a command's result, atomically
 *
 * A result is built in memory; ddbc_output_write then sends it to stdout,
 * or to a file through a temporary file in the same directory renamed over
 * it, so a reader never sees half a file and a failing run leaves an
 * existing file untouched.
 */
#ifndef DDBC_OUTPUT_H
#define DDBC_OUTPUT_H

#include <stddef.h>

/* Writes len bytes of data to path ("-" or NULL = stdout). Returns 0, or
 * -1 with a message printed to stderr. */
int ddbc_output_write(const char *path, const char *data, size_t len);

/* Whether a and b name the same existing file. */
int ddbc_same_file(const char *a, const char *b);

#endif
