/*
** Bump allocator: many small allocations, one free.
**
** Ownership: everything allocated from an arena lives until gp_arena_free();
** pointers stay valid (blocks never move).
*/
#ifndef GP_ARENA_H
#define GP_ARENA_H

#include <stddef.h>

typedef struct gp_arena_block gp_arena_block;

typedef struct gp_arena {
	gp_arena_block *head;
	size_t used;   /* bytes handed out, for memory reports */
} gp_arena;

/* Returns n bytes aligned to 8, zero-filled.  Aborts on out of memory. */
void *gp_arena_alloc(gp_arena *a, size_t n);

/* Copies n bytes of s plus a terminating NUL into the arena. */
char *gp_arena_strndup(gp_arena *a, const char *s, size_t n);

void gp_arena_free(gp_arena *a);

#endif
