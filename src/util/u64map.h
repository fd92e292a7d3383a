/*
** A hash map from 64-bit keys to 32-bit values (indices into a record
** array): correlation id -> API call, External id -> op range, sequence
** number -> kernel.  Open addressing, linear probing, kept at most three
** quarters full; any capacity, not only powers of two, so a map reserved
** for its keys holds no more slots than it needs.
**
** Ownership: the map owns its slot array; gp_u64map_free() releases it.
*/
#ifndef GP_U64MAP_H
#define GP_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct gp_u64map {
	uint64_t *keys;    /* NULL while dense */
	int32_t *vals;     /* -1 = empty slot; dense: the value of key base + i */
	size_t n, cap;     /* keys held, slots */
	uint64_t base;     /* dense: the smallest key it can hold */
} gp_u64map;

/* Makes room for n keys in all (the caller knows how many at most), so no
** key added up to there grows the map: a grown map holds its old slots
** beside its new ones while it rehashes, and doubling may leave it at
** twice the slots it needs. */
void gp_u64map_reserve(gp_u64map *m, size_t n);

/* gp_u64map_reserve for n keys the caller knows lie in [lo, hi] (an
** empty map): where that range is at most eight times n wide, the map is
** an array indexed by key - lo (4 bytes a key in the range: at most twice
** the hashed slots' 16 bytes a key), no hashing, no probing, and keys that
** come in order touch its memory in order (External ids, correlation ids:
** counters, of which a trace's records hold a fraction).  A key outside the range turns it into
** a hashed map, so the promise is about speed, not correctness. */
void gp_u64map_reserve_range(gp_u64map *m, size_t n, uint64_t lo, uint64_t hi);

/* Sets key -> val (val >= 0), replacing an existing value. */
void gp_u64map_put(gp_u64map *m, uint64_t key, int32_t val);

/* Sets key -> val only when key is absent; returns the value now stored. */
int32_t gp_u64map_add(gp_u64map *m, uint64_t key, int32_t val);

/* The value for key, or -1 when absent. */
int32_t gp_u64map_get(const gp_u64map *m, uint64_t key);

void gp_u64map_free(gp_u64map *m);

/* Combines v into hash h: a key of several fields for the map (callers
** keep the fields beside it and probe on with gp_hash_mix(h, 1) when two
** keys collide). */
static inline uint64_t gp_hash_mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

#endif
