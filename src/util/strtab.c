/*
** Interned strings; see strtab.h.
**
** Text: each string is a record [length prefix][bytes][NUL] appended to
** chunked text, and an id names it by the offset of its first byte (4
** bytes an id instead of a pointer and a length: 12 -> 4).  The length
** prefix is one byte below 255, else the 32-bit length followed by a 255
** byte, so that it is read backwards from the string in one or two loads.
** Offsets map to memory through 1 MiB chunks: a record never spans two
** allocations, and a record longer than a chunk gets an allocation of its
** own that fills as many consecutive chunk entries.  Offsets grow with the
** id, so the 33rd and higher bits of an offset are kept once, as the first
** id past each 4 GiB of text (wraps[]), not per id.
**
** Lookup: open addressing with linear probing, at most three quarters
** full.  A slot is 32 bits: the id + 1 in its low slotbits bits (an id is
** always below nslots), the hash's high bits above them as a tag, so a
** probe that meets another string rejects it without touching its text
** unless the tags collide.  Growing the table hashes the text again (the
** whole slot is needed to tell position and tag apart).
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/strtab.h"

#define CHUNK_BITS 20
#define CHUNK ((size_t)1 << CHUNK_BITS)
#define LONG_PREFIX 255   /* marks a 32-bit length before it */

/* The 128-bit product of a and b folded to 64 bits (its halves xored):
** every bit of either factor reaches the middle bits of the product, and
** the fold brings the high half down to the low one. */
static uint64_t fold_mul(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
	unsigned __int128 p = (unsigned __int128)a * b;
	return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	uint64_t lo = (mid << 32) | (ll & 0xffffffffu);
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return lo ^ hi;
#endif
}

/*
** Hashes s[0..n) sixteen bytes at a time (NVTX texts and kernel names are
** tens to hundreds of bytes, and hashing them is a top cost of loading a
** trace: byte-at-a-time FNV-1a first, then a multiply per eight bytes).
** Each 16-byte block is folded into the state with one 64 x 64 -> 128-bit
** multiply of its two words, one xored with a constant and the other with
** the state; the tail is the last 16 bytes (overlapping the blocks before)
** and a string under 16 bytes two loads that overlap, without a call to
** copy a partial word; the length seeds the state (so that "a" and "a\0"
** differ), and a last multiply spreads every bit over the result.  Not cryptographic: only the spread of ordinary
** strings matters (the table compares texts, so the hash decides speed,
** never a result).
*/
uint32_t gp_strtab_hash(const void *p, size_t n)
{
	const char *s = p;
	const uint64_t k0 = 0x9E3779B97F4A7C15ull;   /* 2^64 / golden ratio */
	const uint64_t k1 = 0xD6E8FEB86659FD93ull;   /* odd, bits spread */
	uint64_t h = (uint64_t)n * k0, a, b;
	size_t i = 0;

	if (n >= 16) {
		for (; i + 16 <= n; i += 16) {
			memcpy(&a, s + i, 8);   /* unaligned loads, one instruction each */
			memcpy(&b, s + i + 8, 8);
			h = fold_mul(a ^ k1, b ^ h);
		}
		if (i < n) {   /* the last 16 bytes, some hashed already */
			memcpy(&a, s + n - 16, 8);
			memcpy(&b, s + n - 8, 8);
			h = fold_mul(a ^ k1, b ^ h);
		}
	} else if (n > 0) {
		/* two loads that overlap where n is not their sum cover every byte */
		if (n >= 8) {
			memcpy(&a, s, 8);
			memcpy(&b, s + n - 8, 8);
		} else if (n >= 4) {
			uint32_t x, y;
			memcpy(&x, s, 4);
			memcpy(&y, s + n - 4, 4);
			a = x;
			b = y;
		} else {
			const unsigned char *u = p;
			a = (uint64_t)u[0] | (uint64_t)u[n / 2] << 8 | (uint64_t)u[n - 1] << 16;
			b = 0;
		}
		h = fold_mul(a ^ k1, b ^ h);
	}
	h = fold_mul(h ^ k1, k0);
	return (uint32_t)(h ^ (h >> 32));
}

void gp_strtab_init(gp_strtab *st)
{
	memset(st, 0, sizeof(*st));
	st->cap = 1024;
	st->offs = gp_xmalloc(st->cap * sizeof(*st->offs));
	st->offs[0] = 0;   /* never read: id 0 is "" */
	st->n = 1;
	st->slotbits = 11;
	st->nslots = 1u << st->slotbits;
	st->slots = gp_xcalloc(st->nslots, sizeof(*st->slots));
}

void gp_strtab_free(gp_strtab *st)
{
	for (size_t i = 0; i < st->blocks.n; i++)
		free(st->blocks.v[i]);
	gp_vec_free(st->blocks);
	gp_vec_free(st->chunks);
	free(st->offs);
	free(st->wraps);
	free(st->slots);
	memset(st, 0, sizeof(*st));
}

/* The full text offset of id (1 <= id < n). */
static uint64_t text_offset(const gp_strtab *st, uint32_t id)
{
	uint64_t high = 0;

	while (high < st->nwraps && id >= st->wraps[high])
		high++;
	return high << 32 | st->offs[id];
}

static const char *text_at(const gp_strtab *st, uint64_t off)
{
	return st->chunks.v[off >> CHUNK_BITS] + (off & (CHUNK - 1));
}

/* The length of the string whose text starts at p, from its prefix. */
static uint32_t prefix_len(const char *p)
{
	const unsigned char *u = (const unsigned char *)p;
	uint32_t len;

	if (u[-1] != LONG_PREFIX)
		return u[-1];
	memcpy(&len, p - 5, sizeof(len));
	return len;
}

/* Reserves a record of need bytes at text_end and returns where it goes:
** in the current chunk when it fits, else at the next chunk, in an
** allocation of its own of one chunk or of as many as the record needs. */
static char *text_reserve(gp_strtab *st, size_t need)
{
	size_t c = st->text_end >> CHUNK_BITS, span;
	char *block;

	if (c < st->chunks.n && CHUNK - (st->text_end & (CHUNK - 1)) >= need) {
		char *p = st->chunks.v[c] + (st->text_end & (CHUNK - 1));
		st->text_end += need;
		return p;
	}
	span = (need + CHUNK - 1) / CHUNK;
	c = st->chunks.n;   /* the tail of the current chunk stays unused */
	block = gp_xmalloc(span * CHUNK);
	*(char **)gp_vec_push(st->blocks) = block;
	gp_vec_reserve(st->chunks, st->chunks.n + span);
	for (size_t i = 0; i < span; i++)
		st->chunks.v[st->chunks.n++] = block + i * CHUNK;
	st->text_end = ((uint64_t)c << CHUNK_BITS) + need;
	return block;
}

/* Appends s[0..len) as a record and returns the offset of its text. */
static uint64_t text_append(gp_strtab *st, const char *s, uint32_t len)
{
	size_t pre = len < LONG_PREFIX ? 1 : 5;
	char *p = text_reserve(st, pre + len + 1);
	uint64_t off = st->text_end - len - 1;

	if (pre == 1) {
		p[0] = (char)len;
	} else {
		memcpy(p, &len, sizeof(len));
		p[4] = (char)LONG_PREFIX;
	}
	memcpy(p + pre, s, len);
	p[pre + len] = '\0';
	return off;
}

/* The slot's tag for hash h: the bits above the position's. */
static uint32_t slot_tag(const gp_strtab *st, uint32_t h)
{
	return h >> st->slotbits << st->slotbits;
}

/* Doubles the slot array and places every id again by its text's hash. */
static void grow_slots(gp_strtab *st)
{
	free(st->slots);
	st->slotbits++;
	st->nslots = 1u << st->slotbits;
	st->slots = gp_xcalloc(st->nslots, sizeof(*st->slots));
	for (uint32_t id = 1; id < st->n; id++) {
		const char *p = text_at(st, text_offset(st, id));
		uint32_t h = gp_strtab_hash(p, prefix_len(p));
		uint32_t i = h & (st->nslots - 1);
		while (st->slots[i])
			i = (i + 1) & (st->nslots - 1);
		st->slots[i] = slot_tag(st, h) | (id + 1);
	}
}

/* Strings are at most 4 GiB - 1 bytes: a longer one keeps that much. */
gp_str gp_strtab_intern_n(gp_strtab *st, const char *s, size_t n)
{
	uint32_t len = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
	uint32_t h, i, tag, idmask = st->nslots - 1;
	uint64_t off;

	if (!s || len == 0)
		return 0;
	h = gp_strtab_hash(s, len);
	tag = slot_tag(st, h);
	i = h & idmask;
	for (; st->slots[i]; i = (i + 1) & idmask) {
		if ((st->slots[i] & ~idmask) != tag)
			continue;
		uint32_t id = (st->slots[i] & idmask) - 1;
		const char *p = text_at(st, text_offset(st, id));
		if (prefix_len(p) == len && memcmp(p, s, len) == 0)
			return id;
	}
	if (st->n == st->cap) {
		st->cap *= 2;
		st->offs = gp_xrealloc(st->offs, st->cap * sizeof(*st->offs));
	}
	off = text_append(st, s, len);
	while (off >> 32 > st->nwraps) {   /* this id starts a new 4 GiB */
		st->wraps = gp_xrealloc(st->wraps, (st->nwraps + 1) * sizeof(*st->wraps));
		st->wraps[st->nwraps++] = st->n;
	}
	st->offs[st->n] = (uint32_t)off;
	st->slots[i] = tag | (st->n + 1);
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
	return id && id < st->n ? text_at(st, text_offset(st, id)) : "";
}

size_t gp_strtab_len(const gp_strtab *st, gp_str id)
{
	return id && id < st->n ? prefix_len(text_at(st, text_offset(st, id))) : 0;
}
