/*
** Allocation helpers for the analyzer (never used by lib/, nor by the planned collector,
** which must not abort the host process).
**
** Ownership: memory returned by gp_x*alloc belongs to the caller.  Running
** out of memory prints one line and aborts, as Redis' zmalloc does: every
** caller would otherwise have to unwind half-built traces.
**
** GP_VEC(T) is a growable array; gp_vec_push() returns a pointer to a new
** zeroed slot, valid until the next push.
*/
#ifndef GP_ALLOC_H
#define GP_ALLOC_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void *gp_xmalloc(size_t n);
void *gp_xcalloc(size_t n, size_t size);
void *gp_xrealloc(void *p, size_t n);
char *gp_xstrdup(const char *s);

#define GP_VEC(T) struct { T *v; size_t n, cap; }

/* Grows v (any GP_VEC) so one more element fits. */
void gp_vec_grow_(void **v, size_t *cap, size_t elem, size_t need);

#define gp_vec_push(vec) \
	(gp_vec_grow_((void **)&(vec).v, &(vec).cap, sizeof(*(vec).v), (vec).n + 1), \
	 memset(&(vec).v[(vec).n], 0, sizeof(*(vec).v)), &(vec).v[(vec).n++])

#define gp_vec_reserve(vec, count) \
	gp_vec_grow_((void **)&(vec).v, &(vec).cap, sizeof(*(vec).v), (count))

/* qsort(), but input already in cmp's order is left as it is after one
** checking pass (records from a trace mostly arrive sorted).  glibc's qsort
** is a stable merge sort, so the result is the same either way.  n == 0
** with base == NULL is allowed. */
void gp_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* Sorts a GP_VEC with gp_sort(). */
#define gp_vec_sort(vec, cmp) gp_sort((vec).v, (vec).n, sizeof(*(vec).v), (cmp))

#define gp_vec_free(vec) \
	do { free((vec).v); (vec).v = NULL; (vec).n = (vec).cap = 0; } while (0)

#endif
