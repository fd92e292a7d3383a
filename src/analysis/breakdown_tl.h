/*
** TraceLens's gpu_timeline (breakdown --as tracelens, docs/breakdown.md),
** computed as TraceLens computes it: which GPU events it counts and as
** what, their float microseconds, its interval merge and subtraction.
** TraceLens (AMD-AGI/TraceLens, TreePerf/tree_perf.py get_df_gpu_timeline)
** keeps only the GPU events its call tree links to a launch unless
** include_unlinked_kernels is set: a runtime or driver call reaches its GPU
** event through the launch flow ("ac2g", start and end) carrying the
** call's correlation id, and a cudaGraphLaunch or hipGraphLaunch reaches
** every GPU event with its correlation id.  Its communication is a kernel
** or memset whose name contains "nccl" or "deep_ep", its memcpy a copy,
** the rest computation (TreePerf/gpu_event_analyser.py).
**
** Ownership: the result is a plain value.
*/
#ifndef GP_BREAKDOWN_TL_H
#define GP_BREAKDOWN_TL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"

/* TraceLens's rows, in its order, in microseconds (float64, as it sums
** them). */
enum {
	GP_TL_COMPUTATION, GP_TL_EXPOSED_COMM, GP_TL_EXPOSED_MEMCPY, GP_TL_BUSY, GP_TL_IDLE, GP_TL_TOTAL,
	GP_TL_TOTAL_COMM, GP_TL_TOTAL_MEMCPY, GP_TL__COUNT
};

struct gp_tl_timeline {
	double us[GP_TL__COUNT];
	size_t events;              /* GPU events counted; 0: TraceLens finds none (and fails) */
	size_t unlinked;            /* GPU events left out as not linked to a launch */
};

/* The row names ("computation_time"). */
extern const char *const gp_tl_row_names[GP_TL__COUNT];

/* TraceLens's gpu_timeline of t (correlated: t->attrs filled) into *out:
** only the GPU events its tree links to a launch, or all of them with
** unlinked (its include_unlinked_kernels).  Never fails. */
void gp_tl_timeline(const gp_trace *t, bool unlinked, struct gp_tl_timeline *out);

#endif
