/* error.c - what stopped ddbc that is no finding */
#include "util/error.h"

#include <stdio.h>

void ddbc_verror(const char *fmt, va_list ap)
{
	fputs("ddbc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ddbc_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ddbc_verror(fmt, ap);
	va_end(ap);
}
