/*
** The API calls of a trace indexed by (correlation id, process): the one
** way every reader and pass finds the call that launched a GPU record.
** A correlation id is unique only within a process: merged multi-process
** traces (Kineto, several ranks in one file) reuse ids, so lookups take the
** process and say when an id is ambiguous instead of storing a sentinel.
**
** Ownership: the index owns its key array (gp_call_index_free releases it)
** and borrows the trace, which must not add or drop API calls while the
** index is in use.
*/
#ifndef GP_CALLS_H
#define GP_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/sort.h"
#include "util/u64map.h"

typedef struct gp_call_index {
	struct gp_pair *keys;   /* a: corr, b: pid << 32 | index into t->apis; sorted */
	size_t n;
	/* Where every non-zero id names one call and the ids are dense (a
	** profiler counts them up), the index is this map instead of keys: id
	** -> call, a dense gp_u64map (an array by id); cap 0 and keys NULL
	** otherwise. */
	gp_u64map by_id;
	const gp_trace *t;      /* borrowed: the calls' processes */
} gp_call_index;

/* Builds the index of t's API calls: an array by id where the ids are
** unique and dense (4 bytes an id, and kernels in time order look their
** calls up in nearly sequential order), else one radix sort of keys. */
void gp_call_index_build(gp_call_index *ix, const gp_trace *t);

/* The call with correlation id corr in process pid (pid 0: in any process,
** the lowest pid); -1 when none, or when corr is 0. */
int32_t gp_call_find(const gp_call_index *ix, uint64_t corr, uint32_t pid);

/* The call with correlation id corr when all calls with that id are in one
** process (the first of them); -1 when there is none or the id is shared
** by several processes (then no process can claim the record). */
int32_t gp_call_find_unique(const gp_call_index *ix, uint64_t corr);

void gp_call_index_free(gp_call_index *ix);

#endif
