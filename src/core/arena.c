/*
** Bump allocator; see arena.h.  Blocks grow to 1 MiB; a request larger than
** a block gets a block of its own.
*/
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/arena.h"

struct gp_arena_block {
	gp_arena_block *next;
	size_t size, off;
	_Alignas(8) unsigned char data[];
};

#define ARENA_BLOCK (1u << 20)

void *gp_arena_alloc(gp_arena *a, size_t n)
{
	gp_arena_block *b = a->head;
	void *p;

	n = (n + 7) & ~(size_t)7;
	if (!b || b->size - b->off < n) {
		size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		b = gp_xmalloc(sizeof(*b) + size);
		b->size = size;
		b->off = 0;
		b->next = a->head;
		a->head = b;
	}
	p = b->data + b->off;
	b->off += n;
	a->used += n;
	memset(p, 0, n);
	return p;
}

char *gp_arena_strndup(gp_arena *a, const char *s, size_t n)
{
	char *p = gp_arena_alloc(a, n + 1);
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
