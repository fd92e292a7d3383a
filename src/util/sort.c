/*
** LSD radix sort of (u64, u64) pairs.  See sort.h.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/sort.h"

/* Below this many pairs qsort is as fast and needs no 16 KiB of counts. */
#define RADIX_MIN 256

static int cmp_pair(const void *pa, const void *pb)
{
	const struct gp_pair *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

/* Byte d (0..15: b's bytes low to high, then a's) of p. */
static unsigned digit(const struct gp_pair *p, int d)
{
	return (unsigned)((d < 8 ? p->b >> (8 * d) : p->a >> (8 * (d - 8))) & 0xff);
}

void gp_sort_pairs(struct gp_pair *v, size_t n)
{
	size_t (*count)[256];
	struct gp_pair *tmp, *src = v, *dst;

	/* input already in order (a trace's calls by correlation id often
	** are) costs one look at each pair, not the passes */
	size_t in_order = 1;
	while (in_order < n && cmp_pair(&v[in_order - 1], &v[in_order]) <= 0)
		in_order++;
	if (in_order >= n)
		return;
	if (n < RADIX_MIN) {
		if (n > 1)
			qsort(v, n, sizeof(*v), cmp_pair);
		return;
	}
	/* one pass counts every digit; a digit all pairs share needs no pass */
	count = gp_xcalloc(16, sizeof(*count));
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < 16; d++)
			count[d][digit(&v[i], d)]++;
	tmp = gp_xmalloc(n * sizeof(*tmp));
	dst = tmp;
	for (int d = 0; d < 16; d++) {
		size_t pos = 0;
		if (count[d][digit(&v[0], d)] == n)
			continue;
		for (int k = 0; k < 256; k++) {
			size_t c = count[d][k];
			count[d][k] = pos;
			pos += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[count[d][digit(&src[i], d)]++] = src[i];
		struct gp_pair *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(count);
}
