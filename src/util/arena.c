/*
** Bump allocator; see arena.h.  Blocks grow to 1 MiB; a request larger than
** a block gets a block of its own.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/arena.h"

struct gp_arena_block {
	gp_arena_block *next;
	size_t size, off;
	_Alignas(8) unsigned char data[];
};

#define ARENA_BLOCK (1u << 20)

/* Returns n bytes from the current block at offset rounded up to align (a
** power of two), starting a new block when they do not fit.  Not zeroed. */
static void *take(gp_arena *a, size_t n, size_t align)
{
	gp_arena_block *b = a->head;
	size_t off = b ? (b->off + align - 1) & ~(align - 1) : 0;
	void *p;

	if (!b || off > b->size || b->size - off < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		b = gp_xmalloc(sizeof(*b) + size);
		b->size = size;
		b->off = 0;
		b->next = a->head;
		a->head = b;
		off = 0;
	}
	p = b->data + off;
	b->off = off + n;
	a->used += n;
	return p;
}

void *gp_arena_alloc(gp_arena *a, size_t n)
{
	return memset(take(a, n, 8), 0, n);
}

/* Strings need no alignment: packing them saves ~4 bytes per string
** (millions of NVTX texts), and the copy needs no zero-fill first. */
char *gp_arena_strndup(gp_arena *a, const char *s, size_t n)
{
	char *p = take(a, n + 1, 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void gp_arena_free(gp_arena *a)
{
	gp_arena_block *b = a->head, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
	a->head = NULL;
	a->used = 0;
}
