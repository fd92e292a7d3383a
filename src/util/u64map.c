/*
** 64-bit key -> int32 value hash map; see u64map.h.  Grown (doubled) when
** it would be more than three quarters full: at most half full cost 24
** bytes a key where 16 do (a million External ids or sequence numbers),
** and a probe run stays short with the murmur3 finaliser spreading keys.
** A reserved map has exactly the slots its keys need at that fill.  A map
** reserved for a narrow range of keys is dense (keys == NULL, cap > 0): an
** array of values indexed by key - base, until a key outside it comes.
*/
#include <stdlib.h>

#include "util/alloc.h"
#include "util/u64map.h"

/* The home slot of key: the murmur3 finaliser (ids are often sequential)
** mapped onto [0, cap) by a multiply (any cap, no modulo). */
static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)(((unsigned __int128)key * cap) >> 64);
}

/* Rehashes m into cap slots (cap * 3 / 4 >= m->n); a dense map becomes a
** hashed one. */
static void resize(gp_u64map *m, size_t cap)
{
	uint64_t *keys = gp_xmalloc(cap * sizeof(*keys));
	int32_t *vals = gp_xmalloc(cap * sizeof(*vals));

	for (size_t i = 0; i < cap; i++)
		vals[i] = -1;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->vals[i] < 0)
			continue;
		uint64_t key = m->keys ? m->keys[i] : m->base + i;
		size_t s = slot_of(key, cap);
		while (vals[s] >= 0)
			s = s + 1 < cap ? s + 1 : 0;
		keys[s] = key;
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find(const gp_u64map *m, uint64_t key)
{
	size_t s = slot_of(key, m->cap);

	while (m->vals[s] >= 0 && m->keys[s] != key)
		s = s + 1 < m->cap ? s + 1 : 0;
	return s;
}

static void grow(gp_u64map *m)
{
	resize(m, m->cap ? m->cap * 2 : 64);
}

/* The slots a hashed map of n keys needs at most three quarters full. */
static size_t hashed_cap(size_t n)
{
	size_t cap = n + n / 3 + 1;

	return cap < 64 ? 64 : cap;
}

void gp_u64map_reserve(gp_u64map *m, size_t n)
{
	if (!m->keys && m->cap)
		resize(m, hashed_cap(m->n > n ? m->n : n));
	else if (n + n / 3 + 1 > m->cap)
		resize(m, hashed_cap(n));
}

void gp_u64map_reserve_range(gp_u64map *m, size_t n, uint64_t lo, uint64_t hi)
{
	if (m->cap || hi < lo || hi - lo >= 8 * (uint64_t)n + 64) {
		gp_u64map_reserve(m, n);
		return;
	}
	m->cap = (size_t)(hi - lo) + 1;
	m->base = lo;
	m->vals = gp_xmalloc(m->cap * sizeof(*m->vals));
	for (size_t i = 0; i < m->cap; i++)
		m->vals[i] = -1;
}

/* The slot of key in m, made hashed first when m is dense and key lies
** outside it; the room for one more key is made by the caller. */
static size_t place(gp_u64map *m, uint64_t key)
{
	if (!m->keys && m->cap) {
		if (key - m->base < m->cap)
			return (size_t)(key - m->base);
		resize(m, hashed_cap(m->n + 1));
	}
	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	return find(m, key);
}

int32_t gp_u64map_add(gp_u64map *m, uint64_t key, int32_t val)
{
	size_t s = place(m, key);
	if (m->vals[s] >= 0)
		return m->vals[s];
	if (m->keys)
		m->keys[s] = key;
	m->vals[s] = val;
	m->n++;
	return val;
}

void gp_u64map_put(gp_u64map *m, uint64_t key, int32_t val)
{
	size_t s = place(m, key);
	if (m->vals[s] < 0)
		m->n++;
	if (m->keys)
		m->keys[s] = key;
	m->vals[s] = val;
}

int32_t gp_u64map_get(const gp_u64map *m, uint64_t key)
{
	if (!m->cap)
		return -1;
	if (!m->keys)
		return key - m->base < m->cap ? m->vals[key - m->base] : -1;
	return m->vals[find(m, key)];
}

void gp_u64map_free(gp_u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->n = m->cap = 0;
	m->base = 0;
}
