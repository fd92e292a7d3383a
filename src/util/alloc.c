/*
** Aborting allocators and vector growth; see alloc.h.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

static void oom(size_t n)
{
	fprintf(stderr, "gpuprof: out of memory trying to allocate %zu bytes\n", n);
	abort();
}

void *gp_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *gp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *gp_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

char *gp_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(gp_xmalloc(n), s, n);
}

void gp_vec_grow_(void **v, size_t *cap, size_t elem, size_t need)
{
	size_t ncap;

	if (need <= *cap)
		return;
	ncap = *cap ? *cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	*v = gp_xrealloc(*v, ncap * elem);
	*cap = ncap;
}

void gp_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	const char *p = base;
	size_t i;

	for (i = 1; i < n && cmp(p + (i - 1) * size, p + i * size) <= 0; i++)
		;
	if (i < n)
		qsort(base, n, size, cmp);
}
