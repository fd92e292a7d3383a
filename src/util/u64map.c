/*
** 64-bit key -> int32 value hash map; see u64map.h.  Grown (doubled) when
** it would be more than three quarters full: at most half full cost 24
** bytes a key where 16 do (a million External ids or sequence numbers),
** and a probe run stays short with the murmur3 finaliser spreading keys.
** A reserved map has exactly the slots its keys need at that fill.
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

/* Rehashes m into cap slots (cap * 3 / 4 >= m->n). */
static void resize(gp_u64map *m, size_t cap)
{
	uint64_t *keys = gp_xmalloc(cap * sizeof(*keys));
	int32_t *vals = gp_xmalloc(cap * sizeof(*vals));

	for (size_t i = 0; i < cap; i++)
		vals[i] = -1;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->vals[i] < 0)
			continue;
		size_t s = slot_of(m->keys[i], cap);
		while (vals[s] >= 0)
			s = s + 1 < cap ? s + 1 : 0;
		keys[s] = m->keys[i];
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

void gp_u64map_reserve(gp_u64map *m, size_t n)
{
	size_t cap = n + n / 3 + 1;   /* n at most three quarters of it */

	if (cap > m->cap)
		resize(m, cap < 64 ? 64 : cap);
}

int32_t gp_u64map_add(gp_u64map *m, uint64_t key, int32_t val)
{
	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	size_t s = find(m, key);
	if (m->vals[s] >= 0)
		return m->vals[s];
	m->keys[s] = key;
	m->vals[s] = val;
	m->n++;
	return val;
}

void gp_u64map_put(gp_u64map *m, uint64_t key, int32_t val)
{
	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	size_t s = find(m, key);
	if (m->vals[s] < 0)
		m->n++;
	m->keys[s] = key;
	m->vals[s] = val;
}

int32_t gp_u64map_get(const gp_u64map *m, uint64_t key)
{
	if (!m->cap)
		return -1;
	return m->vals[find(m, key)];
}

void gp_u64map_free(gp_u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->n = m->cap = 0;
}
