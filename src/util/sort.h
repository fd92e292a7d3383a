/*
** Sorting many small fixed records without a comparison callback: an LSD
** radix sort of (u64, u64) pairs, for the large sorts of a command (one
** item per kernel or API call) where qsort's callback per comparison is
** most of the time.
**
** Ownership: gp_sort_pairs() and gp_sort_keyed() sort the caller's array
** in place; they allocate their scratch arrays for the time of the call.
*/
#ifndef GP_SORT_H
#define GP_SORT_H

#include <stddef.h>
#include <stdint.h>

struct gp_pair {
	uint64_t a, b;
};

/* Sorts v[0..n) ascending by a, then b (unsigned); equal pairs are
** indistinguishable, so the result is the one any correct sort gives.
** Input already in order is only checked.  Never fails (allocation
** failure exits, as gp_xmalloc does). */
void gp_sort_pairs(struct gp_pair *v, size_t n);

/* Sorts n records of size bytes at base into the order a stable sort by
** cmp gives (gp_sort), where cmp orders records first by key(record),
** unsigned: the records are radix-sorted by their keys, moved into place
** along the permutation's cycles, and cmp sorts only runs of equal keys.
** Input already in order costs one cmp a record; input made of a few
** sorted runs (at most n / 32 + 16) that overlap little (3 n records
** moved, n / 16 records aside at most) is merged where the runs overlap,
** at about two cmps and two copies a record.  Otherwise it costs 32 bytes
** a record beside the array while it runs (gp_sort's merge sort: 16 for
** records over 32 bytes).  Never fails (allocation failure exits). */
void gp_sort_keyed(void *base, size_t n, size_t size, uint64_t (*key)(const void *),
		   int (*cmp)(const void *, const void *));

/* A table row's sort key (a command's -s/--sort): a number (largest
** first) or a text (A to Z), then the tie-breaker number (largest first),
** then the row's index (stable). */
struct gp_sort_key {
	double num, tie;
	const char *text;       /* non-NULL: sort by text */
	size_t row;
};

/* qsort's comparison of two struct gp_sort_key. */
int gp_sort_key_cmp(const void *a, const void *b);

#endif
