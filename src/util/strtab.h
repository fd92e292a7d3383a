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

#include "util/alloc.h"

typedef uint32_t gp_str;

/* A table of a million strings costs, beside their text, 4 bytes of index
** and about 6 of hash slots a string; the layout is in strtab.c. */
typedef struct gp_strtab {
	GP_VEC(char *) chunks;   /* text by offset, 1 MiB of offsets a chunk */
	GP_VEC(char *) blocks;   /* the allocations behind chunks, to free */
	uint64_t text_end;   /* offset where the next string's record goes */
	uint32_t *offs;      /* id -> low 32 bits of the text's offset */
	uint32_t *wraps;     /* wraps[k]: first id at offset >= (k+1) << 32 */
	uint32_t nwraps;
	uint32_t n, cap;
	uint32_t *slots;     /* open addressing, see strtab.c */
	uint32_t nslots;
	unsigned slotbits;   /* nslots == 1 << slotbits */
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
