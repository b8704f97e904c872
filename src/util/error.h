/* error.h - what stopped ddbc that is no finding (git's error())
 *
 * A file that cannot be read or written, a build without its template, an
 * output that cannot hold the design: said on stderr as "ddbc: MESSAGE",
 * one prefix for all of them. A problem with one of the design's own
 * values is never said so: it is a finding at the value's position
 * (diag.h), which every output format carries. A mistake on the command
 * line is a usage error (cli.c), which names the command and its help.
 */
#ifndef DDBC_ERROR_H
#define DDBC_ERROR_H

#include <stdarg.h>

void ddbc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ddbc_verror(const char *fmt, va_list ap);

#endif
