/*
** What a change would save: the trace re-timed on its dependency graph
** (deps.h) with the change applied (docs/dependencies.md, "What-if").
**
** Each thread's CPU work keeps its length (less what the change removes)
** and moves only when a blocking call waits longer or shorter for the GPU;
** each piece of GPU work starts when its binding constraints allow it
** (its launch call plus the launch latency, the work before it on its
** stream, the work it waits for through an event) and runs as long as the
** change says.  Latencies that bound nothing in the trace (a launch that
** came early, a gap behind work that finished early) are not measured
** there: they take the stream's typical value when the change makes them
** binding.  Unchanged, the replay reproduces every recorded time.
**
** Ownership: a gp_whatif_spec borrows the factor array it points to;
** gp_whatif_run fills a caller-owned result whose iteration array it
** allocates (gp_whatif_result_free).
*/
#ifndef GP_WHATIF_H
#define GP_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/critpath.h"
#include "analysis/deps.h"
#include "ops/ops.h"
#include "util/error.h"

struct gp_whatif_spec {
	/* per unit (deps numbering): the new duration as a share of the
	** recorded one (0.5: twice as fast); NULL = all unchanged */
	const float *unit_factor;
	/* CPU time of these causes (1u << enum gp_cause, CPU causes only:
	** dataloader, allocator, first_alloc, jit, autotune, python, ...) is taken out of its thread */
	uint32_t remove_cpu;
	bool no_launch_latency;   /* GPU work starts when its launch call returns */
	bool no_gpu_gaps;         /* back-to-back work on a stream has no gap between */
	bool pinned_copies;       /* calls no longer wait for the copies they issue */
	/* the copies their calls stage (gp_deps_staged_copy) from pinned memory:
	** each starts after its call or the work before it with the stream's
	** typical latency, and its call no longer waits for it */
	bool no_staging;
	/* per unit (deps numbering): its call no longer waits for it (a copy
	** issued from pinned memory); NULL = as pinned_copies says */
	const uint8_t *unit_pinned;
	bool no_syncs;            /* stream, device and event syncs no longer wait */
	bool no_launch_waits;     /* GPU work no longer waits for its launch (the step
				  ** captured in a CUDA graph launched up front) */
	/* no_launch_latency, no_gpu_gaps and no_launch_waits leave the units
	** replayed from CUDA/HIP graphs (gp_unit_replayed) as recorded: the
	** eager launches' latencies go, a graph's own stay (advise: those are
	** its graph rules' to change, per unit below) */
	bool keep_graphs;
	/* per unit (deps numbering): GP_WI_UNIT_* bits of what no longer holds
	** it; NULL = none */
	const uint8_t *unit_loose;
};

/* unit_loose's bits. */
#define GP_WI_UNIT_UNLAUNCHED 1   /* it no longer waits for its launch call (the
				  ** host issued it ahead: a graph replay prepared
				  ** while the one before ran) */
#define GP_WI_UNIT_NO_GAP 2       /* no gap after the work before it on its
				  ** stream (a graph's latency between nodes gone) */

/* Step times before and after, on the step clock of the process walked
** (critpath.h's windows). */
struct gp_whatif_iter {
	int32_t iter;
	gp_ns before, after;
};

struct gp_whatif_result {
	gp_ns span_before, span_after;   /* the process's first activity to its last */
	gp_ns gpu_before, gpu_after;     /* its GPU span: first GPU work to last (0: none) */
	gp_ns gpu_first, gpu_first_after;   /* its first GPU work's start (0: none) */
	struct gp_whatif_iter *iters;    /* steps in start order, the last one ending with the span */
	size_t niters;
	uint32_t pid;
};

/* One change asked for on the command line (--what-if EXPR), parsed:
**   op:NAME=F        kernels of op NAME (as summary --by op names it; a
**   kernel:GLOB=F    shell glob on the kernel's short or full name;
**   layer:GLOB=F     a glob on its layer path) run F faster: "2x" is
**                    twice as fast, "0.5x" half as fast, "roofline" at
**                    their roofline (when the op model knows it)
**   cause:NAME=0     CPU time of that cause is removed (dataloader,
**                    allocator, first_alloc, jit, autotune, python,
**                    comm_wait, annotation, cuda_api, cpu_op, untraced),
**                    or for launch / gpu_gap the GPU-side latency of that
**                    kind, for pageable_copy
**                    the staging (no_staging)
**   cause:comm=F     the communication kernels (gp_kernel_is_comm) removed
**                    (F = 0) or F faster ("0.5x": twice as slow)
**   copies=pinned    calls no longer wait for the copies they issue
**   rank:R=on-time   rank R of a job arrives at its collectives with the
**                    next-to-last rank (a change of the job's rank files
**                    together: analysis/ranks.h, gp_rank_job_on_time)
*/
enum gp_whatif_target { GP_WI_OP, GP_WI_KERNEL, GP_WI_LAYER, GP_WI_CAUSE, GP_WI_COPIES, GP_WI_RANK };
struct gp_whatif_expr {
	uint8_t target;         /* enum gp_whatif_target */
	uint8_t cause;          /* GP_WI_CAUSE: enum gp_cause */
	bool roofline;          /* run at the roofline instead of faster by speedup */
	double speedup;         /* op, kernel, layer, cause:comm: the new duration is
				** old / speedup (cause:comm: 0 = removed) */
	char pattern[256];      /* op name or glob */
	int32_t rank;           /* GP_WI_RANK: the rank */
};

/* The speed-ups F an EXPR may ask for: from a thousand times slower to a
** million times faster (durations stay within what a gp_ns holds). */
#define GP_WHATIF_SPEEDUP_MIN 0.001
#define GP_WHATIF_SPEEDUP_MAX 1e6

/* Parses one EXPR (above) into x.  Fails with GP_ERR_USAGE and a message
** that quotes EXPR and says what was expected. */
int gp_whatif_parse(const char *expr, struct gp_whatif_expr *x, gp_error *err);

/* Adds x's change to spec.  factors is the caller's per-unit array (deps
** numbering, all 1 to start; spec->unit_factor points to it); ops is the
** op model run over t (its op names, its roofline for "roofline"; NULL:
** the correlation's op names, and "roofline" selects nothing).  Returns
** the number of GPU units the change selects (0 for cause and copies
** changes). */
size_t gp_whatif_apply(const gp_trace *t, const struct gp_ops *ops, const struct gp_whatif_expr *x, float *factors,
		       struct gp_whatif_spec *spec);

/* A replay prepared once for many changes: the trace's points in time
** order, the typical latencies, the threads' handoffs. */
struct gp_replay;

/* Prepares the replay of d (built with gp_deps_build), which must outlive
** it; NULL for a trace with nothing to replay. */
struct gp_replay *gp_replay_new(gp_deps *d);
void gp_replay_free(struct gp_replay *rp);

/* Re-times the process whose work ends last (as gp_critpath_run picks it)
** under spec into r (gp_whatif_result_free it).  Never fails; a trace
** without GPU work replays its CPU time only.  O(points) a call, plus a
** sweep of the CPU timelines when spec removes CPU time. */
void gp_replay_run(struct gp_replay *rp, const struct gp_whatif_spec *spec, struct gp_whatif_result *r);

/* Unit u's (deps numbering) start and end in rp's last run
** (gp_replay_run), as recorded before any. */
void gp_replay_unit(const struct gp_replay *rp, size_t u, gp_ns *start, gp_ns *end);

/* The changes x[0..n) applied together (gp_whatif_apply each, on ops as
** there) and replayed on d into r (gp_whatif_result_free it); units[i]
** receives how many GPU units x[i] selects.  Never fails. */
void gp_whatif_changes(gp_deps *d, const struct gp_ops *ops, const struct gp_whatif_expr *x, size_t n,
		       struct gp_whatif_result *r, size_t *units);

/* One replay: gp_replay_new, gp_replay_run, gp_replay_free. */
void gp_whatif_run(gp_deps *d, const struct gp_whatif_spec *spec, struct gp_whatif_result *r);
void gp_whatif_result_free(struct gp_whatif_result *r);

/* The median step time of r before (after = false) or after; the span
** when r has no iterations. */
gp_ns gp_whatif_median_step(const struct gp_whatif_result *r, bool after);

#endif
