/*
** What the two rocprofv3 readers share: the JSON reader (rocprof.c) and the
** CSV reader (rocprof_csv.c) read the same records in two layouts, and
** make the same model of them through these functions.
** docs/trace-model.md ("rocprofv3 mapping").
**
** Ownership: every function fills the caller's trace; the arrays passed
** stay the caller's.
*/
#ifndef GP_ROCPROF_INT_H
#define GP_ROCPROF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* The names the model gives a kernel rocprofv3 names raw (a mangled
** "_Z...kd" symbol, or the formatted name it writes by default): d->name
** (the short name), d->demangled and, for a mangled one, d->mangled (the
** symbol without its ".kd" suffix).  A raw name that is not mangled is
** demangled already: it is d->demangled, unless formatted (the symbol's
** formatted name, 0 if none) is given. */
void gp_rocprof_kernel_names(gp_trace *t, const char *raw, gp_str formatted,
			     struct gp_kernel_def *d);

/* A dispatch's workgroup and grid sizes (rocprofv3 counts the grid in
** work-items, as the HSA dispatch packet does) as the model's block and
** grid (counted in blocks: rounded up per dimension).  Returns false when
** a workgroup dimension is 0 (that dimension's grid is then 0). */
bool gp_rocprof_launch(const uint64_t wg[3], const uint64_t grid[3], uint32_t block[3],
		       uint32_t blocks[3]);

/* gfx_target_version (90402 = gfx942) as the model's AMD compute
** capability (9.4, as ROCm's hipDeviceProp reports it). */
void gp_rocprof_gfx(uint64_t version, struct gp_device *d);

/* A memory_copy record's ends: m's source and destination devices and
** memory kinds, its device (the GPU side; a GPU-to-GPU copy's source) and
** copy kind, from its agents: sg (dg) tells whether the source
** (destination) is a GPU, s (d) its device id, or GP_MEM_HOST for a CPU. */
void gp_rocprof_copy_ends(struct gp_memcpy *m, bool sg, int32_t s, bool dg, int32_t d);

/* One memory_allocation record: an allocation's device is the GPU's id or
** GP_MEM_HOST, unless its agent is one the file does not describe
** (undescribed); a free records neither its size nor its agent. */
struct gp_rocprof_alloc {
	gp_ns ts;
	uint64_t addr, size;
	uint32_t tid, order;     /* order: the record's position, for equal times */
	int32_t device;
	bool frees, undescribed;
	bool live;               /* gp_rocprof_add_allocs' own */
};

/* Adds allocations and frees v[0..n) of process pid to t's memory events in
** time order (sorting v); a free takes its size and device from the live
** allocation at its address.  Returns the number of frees with none
** (allocated before tracing: skipped).  Allocations of an undescribed
** agent are skipped. */
uint64_t gp_rocprof_add_allocs(gp_trace *t, struct gp_rocprof_alloc *v, size_t n, uint32_t pid);

/* The notes both readers write: records that end before they start (read
** as zero-length), dispatches with a workgroup size of 0, frees without an
** allocation (each only when its count is not 0). */
void gp_rocprof_notes(gp_trace *t, uint64_t neg_dur, uint64_t zero_wg, uint64_t unpaired_free);

/* Adds the threads of process pid's API calls from api_first on and its
** ranges from range_first on to t->threads, each (pid, tid) once. */
void gp_rocprof_add_threads(gp_trace *t, uint32_t pid, size_t api_first, size_t range_first);

#endif
