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

void ddbc_xalloc_die(void)
{
	ddbc_error("out of memory");
	exit(2);
}

void *ddbc_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		ddbc_xalloc_die();
	return p;
}

void *ddbc_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		ddbc_xalloc_die();
	return p;
}

void *ddbc_xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		ddbc_xalloc_die();
	return p;
}

void ddbc_xgrow(void **p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			ddbc_xalloc_die();
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		ddbc_xalloc_die();
	*p = ddbc_xrealloc(*p, n * size);
	*cap = n;
}

char *ddbc_xstrdup(const char *s)
{
	return ddbc_xstrndup(s, strlen(s));
}

char *ddbc_xstrndup(const char *s, size_t n)
{
	char *p = ddbc_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static bool keep_free;

void ddbc_xalloc_keep_free(bool keep)
{
	keep_free = keep;
}

bool ddbc_xalloc_keeps_free(void)
{
	return keep_free;
}

void ddbc_xalloc_release_free(void)
{
	if (keep_free)
		return;
#ifdef __GLIBC__
	/* glibc also releases the free pages inside the heap, not only its top. */
	malloc_trim(0);
#endif
}
