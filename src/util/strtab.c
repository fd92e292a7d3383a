/*
** Interned strings; see strtab.h.  Open addressing with linear probing,
** table kept at most three quarters full (half full cost 24 bytes of slots
** per string at a million strings, a sixth of the model of a generated nsys
** trace; probes compare the hashes kept in the slots, eight to a cache line,
** so the longer runs cost little).  Each slot keeps the string's 32-bit hash
** next to its id: a probe that meets another string rejects it without
** touching the string (one cache miss saved per collision), and growing the
** table never rehashes text.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strtab.h"

/*
** Hashes s[0..n) eight bytes at a time (NVTX texts and kernel names are
** tens to hundreds of bytes, and byte-at-a-time FNV-1a was the top cost of
** loading a trace).  Each word is mixed in with a multiply by a large odd
** constant and a shift that folds the high bits down; the tail is read
** into a zeroed word, and the length is mixed in so that "a" and "a\0"
** differ.  Not cryptographic: only the spread of ordinary strings matters.
*/
uint32_t gp_strtab_hash(const void *p, size_t n)
{
	const char *s = p;
	const uint64_t k = 0x9E3779B97F4A7C15ull;   /* 2^64 / golden ratio */
	uint64_t h = (uint64_t)n * k, w;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&w, s + i, 8);   /* unaligned load, one instruction */
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	if (i < n) {
		w = 0;
		memcpy(&w, s + i, n - i);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	h *= k;
	return (uint32_t)(h >> 32);
}

void gp_strtab_init(gp_strtab *st)
{
	memset(st, 0, sizeof(*st));
	st->cap = 1024;
	st->strs = gp_xmalloc(st->cap * sizeof(*st->strs));
	st->lens = gp_xmalloc(st->cap * sizeof(*st->lens));
	st->nslots = 2048;
	st->slots = gp_xcalloc(st->nslots, sizeof(*st->slots));
	st->strs[0] = "";
	st->lens[0] = 0;
	st->n = 1;
}

void gp_strtab_free(gp_strtab *st)
{
	gp_arena_free(&st->arena);
	free(st->strs);
	free(st->lens);
	free(st->slots);
	memset(st, 0, sizeof(*st));
}

/* Doubles the slot array, placing every entry by its stored hash. */
static void grow_slots(gp_strtab *st)
{
	uint32_t nslots = st->nslots * 2;
	struct gp_strslot *slots = gp_xcalloc(nslots, sizeof(*slots));

	for (uint32_t j = 0; j < st->nslots; j++) {
		if (!st->slots[j].id1)
			continue;
		uint32_t i = st->slots[j].hash & (nslots - 1);
		while (slots[i].id1)
			i = (i + 1) & (nslots - 1);
		slots[i] = st->slots[j];
	}
	free(st->slots);
	st->slots = slots;
	st->nslots = nslots;
}

gp_str gp_strtab_intern_n(gp_strtab *st, const char *s, size_t len)
{
	uint32_t h, i;

	if (!s || len == 0)
		return 0;
	h = gp_strtab_hash(s, len);
	i = h & (st->nslots - 1);
	while (st->slots[i].id1) {
		uint32_t id = st->slots[i].id1 - 1;
		if (st->slots[i].hash == h && st->lens[id] == len && memcmp(st->strs[id], s, len) == 0)
			return id;
		i = (i + 1) & (st->nslots - 1);
	}
	if (st->n == st->cap) {
		st->cap *= 2;
		st->strs = gp_xrealloc(st->strs, st->cap * sizeof(*st->strs));
		st->lens = gp_xrealloc(st->lens, st->cap * sizeof(*st->lens));
	}
	st->strs[st->n] = gp_arena_strndup(&st->arena, s, len);
	st->lens[st->n] = (uint32_t)len;
	st->slots[i].id1 = st->n + 1;
	st->slots[i].hash = h;
	st->n++;
	if ((uint64_t)st->n * 4 > (uint64_t)st->nslots * 3)
		grow_slots(st);
	return st->n - 1;
}

gp_str gp_strtab_intern(gp_strtab *st, const char *s)
{
	return s ? gp_strtab_intern_n(st, s, strlen(s)) : 0;
}

const char *gp_strtab_get(const gp_strtab *st, gp_str id)
{
	return id < st->n ? st->strs[id] : "";
}

size_t gp_strtab_len(const gp_strtab *st, gp_str id)
{
	return id < st->n ? st->lens[id] : 0;
}
