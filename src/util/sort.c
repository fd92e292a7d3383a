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

/* Merges the sorted a[0..nl) and a[nl..nl + nr), the left one copied to
** buf first (nl records), from the front; equal records: the left first. */
static void merge_lo(char *a, size_t nl, size_t nr, size_t size, int (*cmp)(const void *, const void *),
		     char *buf)
{
	size_t x = 0, y = nl, k = 0;

	memcpy(buf, a, nl * size);
	while (x < nl && y < nl + nr) {
		if (cmp(a + y * size, buf + x * size) < 0)
			memcpy(a + k++ * size, a + y++ * size, size);
		else
			memcpy(a + k++ * size, buf + x++ * size, size);
	}
	memcpy(a + k * size, buf + x * size, (nl - x) * size);   /* what is left of the right is in place */
}

/* The same with the right one copied to buf (nr records), from the back. */
static void merge_hi(char *a, size_t nl, size_t nr, size_t size, int (*cmp)(const void *, const void *),
		     char *buf)
{
	size_t x = nl, y = nr, k = nl + nr;   /* one past the next record of each */

	memcpy(buf, a + nl * size, nr * size);
	while (x > 0 && y > 0) {
		if (cmp(buf + (y - 1) * size, a + (x - 1) * size) < 0)
			memcpy(a + --k * size, a + --x * size, size);
		else
			memcpy(a + --k * size, buf + --y * size, size);
	}
	memcpy(a, buf, y * size);   /* what is left of the left is in place */
}

/*
** Puts p[0..n), in order up to `from`, in the order a stable sort gives
** when it is made of few sorted runs: each run is merged into the sorted
** part before it, only where the two overlap (its place found by binary
** search), through a buffer holding the smaller overlapping piece.  Such
** is a trace read in file order: a thread's ranges of one kind before
** those of another (Kineto files hold a step's cpu_ops, then its
** python_functions), a range its thread closed after those it encloses, a
** late kernel of another stream.  At most n / 32 + 16 runs, 3 n records
** moved and a buffer of n / 16 + 64 records; past those it returns false,
** with p a permutation of what it was whose sorted part is the stable sort
** of what that part held, so a stable sort of p is still the input's.
*/
static bool merge_runs(char *p, size_t n, size_t size, int (*cmp)(const void *, const void *),
		       size_t from)
{
	size_t runs = 0, moved = 0, cap = n / 16 + 64, buf_n = 0;
	char *buf = NULL;
	bool ok = true;

	for (size_t i = from, j; i < n; i = j) {
		for (j = i + 1; j < n && cmp(p + (j - 1) * size, p + j * size) <= 0; j++)
			;
		size_t lo = 0, hi = i - 1;   /* p[i - 1] > p[i]: its place is in [0, i - 1] */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (cmp(p + mid * size, p + i * size) <= 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t left = i - lo, right = j - i, small = left < right ? left : right;
		moved += left + right;
		if (++runs > n / 32 + 16 || moved > 3 * n || small > cap) {
			ok = false;
			break;
		}
		if (small > buf_n) {
			buf = gp_xrealloc(buf, small * size);
			buf_n = small;
		}
		if (left <= right)
			merge_lo(p + lo * size, left, right, size, cmp, buf);
		else
			merge_hi(p + lo * size, left, right, size, cmp, buf);
	}
	free(buf);
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
	if (i >= n || merge_runs(p, n, size, cmp, i))
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

int gp_sort_key_cmp(const void *pa, const void *pb)
{
	const struct gp_sort_key *a = pa, *b = pb;
	int c = 0;

	if (a->text)
		c = strcmp(a->text, b->text);
	else if (a->num != b->num)
		c = a->num < b->num ? 1 : -1;
	if (!c && a->tie != b->tie)
		c = a->tie < b->tie ? 1 : -1;
	if (!c)
		c = a->row < b->row ? -1 : a->row > b->row;
	return c;
}
