/*
** Sorting many small fixed records without a comparison callback: an LSD
** radix sort of (u64, u64) pairs, for the large sorts of a command (one
** item per kernel or API call) where qsort's callback per comparison is
** most of the time.
**
** Ownership: gp_sort_pairs() sorts the caller's array in place; it
** allocates a scratch copy of the array for the time of the call.
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

#endif
