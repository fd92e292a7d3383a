/*
** Interned strings; see strtab.h.  FNV-1a hashing, linear probing, table
** kept at most half full.
*/
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strtab.h"

static uint32_t hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
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

static void rehash(gp_strtab *st)
{
	uint32_t nslots = st->nslots * 2;
	uint32_t *slots = gp_xcalloc(nslots, sizeof(*slots));

	for (uint32_t id = 1; id < st->n; id++) {
		uint32_t i = hash(st->strs[id], st->lens[id]) & (nslots - 1);
		while (slots[i])
			i = (i + 1) & (nslots - 1);
		slots[i] = id + 1;
	}
	free(st->slots);
	st->slots = slots;
	st->nslots = nslots;
}

gp_str gp_strtab_intern_n(gp_strtab *st, const char *s, size_t len)
{
	uint32_t i;

	if (!s || len == 0)
		return 0;
	i = hash(s, len) & (st->nslots - 1);
	while (st->slots[i]) {
		uint32_t id = st->slots[i] - 1;
		if (st->lens[id] == len && memcmp(st->strs[id], s, len) == 0)
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
	st->slots[i] = st->n + 1;
	st->n++;
	if (st->n * 2 > st->nslots)
		rehash(st);
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
