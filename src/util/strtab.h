/*
** String interning: each distinct string is stored once and named by a
** small integer (gp_str).  Id 0 is the empty string, which also stands for
** "absent".
**
** Ownership: the table owns every string; gp_strtab_get() returns a pointer
** that stays valid until gp_strtab_free().
*/
#ifndef GP_STRTAB_H
#define GP_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

typedef uint32_t gp_str;

/* A hash-table slot: the string's id + 1 (0 = empty slot) and its hash, so
** that probing past other strings compares integers, not text. */
struct gp_strslot {
	uint32_t id1;
	uint32_t hash;
};

typedef struct gp_strtab {
	gp_arena arena;
	const char **strs;  /* id -> string */
	uint32_t *lens;     /* id -> length */
	uint32_t n, cap;
	struct gp_strslot *slots;  /* open addressing, see strtab.c */
	uint32_t nslots;
} gp_strtab;

void gp_strtab_init(gp_strtab *st);
void gp_strtab_free(gp_strtab *st);

/* Interns s[0..len) (need not be NUL-terminated) and returns its id. */
gp_str gp_strtab_intern_n(gp_strtab *st, const char *s, size_t len);
gp_str gp_strtab_intern(gp_strtab *st, const char *s);  /* NULL -> 0 */

/* The string for id (never NULL; "" for 0 or an id out of range). */
const char *gp_strtab_get(const gp_strtab *st, gp_str id);
size_t gp_strtab_len(const gp_strtab *st, gp_str id);

/* The table's 32-bit hash of p[0..n): also for other byte runs that are
** shared by content (gp_trace_args_share). */
uint32_t gp_strtab_hash(const void *p, size_t n);

#endif
