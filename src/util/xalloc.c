/* xalloc.c - allocation that never returns NULL */
#include "util/xalloc.h"

#include "util/error.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

void xalloc_die(void)
{
	ddbc_error("out of memory");
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

void xgrow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			xalloc_die();
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		xalloc_die();
	*p = xrealloc(*p, n * size);
	*cap = n;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static bool keep_free;

void xalloc_keep_free(bool keep)
{
	keep_free = keep;
}

bool xalloc_keeps_free(void)
{
	return keep_free;
}

void xalloc_release_free(void)
{
	if (keep_free)
		return;
#ifdef __GLIBC__
	/* glibc also releases the free pages inside the heap, not only its top. */
	malloc_trim(0);
#endif
}
