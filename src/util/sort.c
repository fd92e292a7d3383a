/*
** LSD radix sort of (u64, u64) pairs.  See sort.h.
*/
#include <stdbool.h>
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

/* The 64-bit half of p that digit d (0..15: b's bytes low to high, then
** a's) is in, shifted so the digit is the low byte. */
static uint64_t digit_of(const struct gp_pair *p, int d)
{
	return d < 8 ? p->b >> (8 * d) : p->a >> (8 * (d - 8));
}

/* The radix passes over digits lo..hi-1 of v[0..n) (0, 16: by a, then b;
** 8, 16: by a alone, keeping the order of pairs with equal a; a lower hi
** where a's high bytes are known to be 0). */
static void radix(struct gp_pair *v, size_t n, int lo, int hi)
{
	size_t (*count)[256];
	struct gp_pair *tmp, *src = v, *dst;

	/* one pass counts every digit; a digit all pairs share needs no pass */
	count = gp_xcalloc(16, sizeof(*count));
	for (size_t i = 0; i < n; i++) {
		uint64_t a = v[i].a, b = v[i].b;
		for (int d = lo; d < 8; d++)
			count[d][(b >> (8 * d)) & 0xff]++;
		for (int d = 0; d < hi - 8; d++)
			count[8 + d][(a >> (8 * d)) & 0xff]++;
	}
	tmp = gp_xmalloc(n * sizeof(*tmp));
	dst = tmp;
	for (int d = lo; d < hi; d++) {
		size_t pos = 0, *at = count[d];
		int shift = 8 * (d & 7);
		if (at[digit_of(&v[0], d) & 0xff] == n)
			continue;
		for (int k = 0; k < 256; k++) {
			size_t c = at[k];
			at[k] = pos;
			pos += c;
		}
		if (d < 8) {
			for (size_t i = 0; i < n; i++)
				dst[at[(src[i].b >> shift) & 0xff]++] = src[i];
		} else {
			for (size_t i = 0; i < n; i++)
				dst[at[(src[i].a >> shift) & 0xff]++] = src[i];
		}
		struct gp_pair *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(count);
}

void gp_sort_pairs(struct gp_pair *v, size_t n)
{
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
	radix(v, n, 0, 16);
}

/*
** Moves the records of base so that position i holds the one that was at
** order[i].b, following the permutation's cycles: one record aside (rec),
** no second array.  order[].b is left as the identity.
*/
static void permute(char *base, size_t size, struct gp_pair *order, size_t n, char *rec)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		if (order[i].b == i)
			continue;
		memcpy(rec, base + i * size, size);
		for (;;) {
			size_t from = (size_t)order[j].b;
			order[j].b = j;
			if (from == i) {
				memcpy(base + j * size, rec, size);
				break;
			}
			memcpy(base + j * size, base + from * size, size);
			j = from;
		}
	}
}

/*
** Puts p[0..n), in order up to `from`, in the order a stable sort gives by
** moving each record that is out of place back to where it goes (binary
** insertion: after the records equal to it, so stable), as long as few
** are out of place: at most n / 32 + 16 of them, moving at most 2 n
** records in all.  Such is a trace read in file order: a range its
** thread closed after the ones it encloses, a late kernel of another
** stream.  Returns false past those bounds, with p a permutation of what
** it was (the caller sorts it).
*/
static bool insert_stragglers(char *p, size_t n, size_t size, int (*cmp)(const void *, const void *),
			      size_t from)
{
	size_t stragglers = 0, moved = 0;
	char *rec = gp_xmalloc(size);
	bool ok = true;

	for (size_t i = from; i < n; i++) {
		char *x = p + i * size;
		if (cmp(x - size, x) <= 0)
			continue;
		size_t lo = 0, hi = i - 1;   /* p[i - 1] > x: its place is in [0, i - 1] */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (cmp(p + mid * size, x) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		moved += i - lo;
		if (++stragglers > n / 32 + 16 || moved > 2 * n) {
			ok = false;
			break;
		}
		memcpy(rec, x, size);
		memmove(p + (lo + 1) * size, p + lo * size, (i - lo) * size);
		memcpy(p + lo * size, rec, size);
	}
	free(rec);
	return ok;
}

void gp_sort_keyed(void *base, size_t n, size_t size, uint64_t (*key)(const void *),
		   int (*cmp)(const void *, const void *))
{
	char *p = base;
	struct gp_pair *order;
	uint64_t lo = UINT64_MAX, hi = 0;
	int digits;
	char *rec;
	size_t i;

	for (i = 1; i < n && cmp(p + (i - 1) * size, p + i * size) <= 0; i++)
		;
	if (i >= n || insert_stragglers(p, n, size, cmp, i))
		return;
	if (n < RADIX_MIN) {
		qsort(base, n, size, cmp);
		return;
	}
	order = gp_xmalloc(n * sizeof(*order));
	for (i = 0; i < n; i++) {
		order[i] = (struct gp_pair){key(p + i * size), i};
		lo = order[i].a < lo ? order[i].a : lo;
		hi = order[i].a > hi ? order[i].a : hi;
	}
	/* keys as offsets from the least: only the bytes of the span count */
	for (i = 0; i < n; i++)
		order[i].a -= lo;
	for (digits = 8; hi - lo; digits++)
		hi = lo + ((hi - lo) >> 8);
	radix(order, n, 8, digits);
	rec = gp_xmalloc(size);
	permute(p, size, order, n, rec);
	free(rec);
	/* runs of equal keys, still in input order: cmp orders them (gp_sort
	** is stable, so this is the stable sort of the whole array) */
	for (i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && order[j].a == order[i].a)
			j++;
		if (j - i > 1)
			gp_sort(p + i * size, j - i, size, cmp);
		i = j;
	}
	free(order);
}
