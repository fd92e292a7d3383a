/*
** The analysis runner: a command (or the sink it feeds) says which results
** it needs as a mask of GP_NEED_* bits; gp_analysis_run() adds the passes
** those results depend on, runs each pass once, in dependency order, over
** one loaded and correlated trace, and keeps every result in one struct
** gp_analysis.  The thresholds and defaults the passes share are here,
** once (docs/architecture.md, "A new analysis pass").
**
** Adding a pass = one GP_NEED_* bit below, its result in struct
** gp_analysis, one run function (and its free) in analysis.c, and one row
** in analysis.c's pass table naming the bits it reads.
**
** Ownership: a gp_analysis owns every result in it (gp_analysis_free()
** releases them) and borrows the trace, which must outlive it: the op
** model interns its params and op names in the trace, and results name
** the trace's strings.
*/
#ifndef GP_ANALYSIS_H
#define GP_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/advise.h"
#include "analysis/breakdown.h"
#include "analysis/critpath.h"
#include "analysis/deps.h"
#include "analysis/breakdown_tl.h"
#include "analysis/commclass.h"
#include "analysis/commover.h"
#include "analysis/graph_table.h"
#include "analysis/groups.h"
#include "analysis/layer_views.h"
#include "analysis/layers.h"
#include "analysis/memory.h"
#include "analysis/phases.h"
#include "analysis/serving.h"
#include "analysis/ranks.h"
#include "analysis/steps.h"
#include "analysis/timeline.h"
#include "model/trace.h"
#include "ops/ops.h"
#include "util/error.h"

/* The defaults the passes share; a command changes them in its
** gp_analysis_opts (breakdown --buckets, -n...). */
#define GP_TOP_GAPS 10                   /* the longest idle gaps kept per device with their CPU context */
#define GP_DEPTH_BUCKETS 100             /* buckets of each stream's queue depth series */
#define GP_TIMELINE_BUCKETS 400          /* buckets of the device timeline */

/* What a command needs; the runner adds what each needs in turn. */
enum gp_need {
	GP_NEED_OPS = 1u << 0,          /* the op model with per-kernel peaks: a->ops */
	GP_NEED_BREAKDOWN = 1u << 1,    /* the time breakdown: a->breakdown */
	/* parts of the breakdown's one sweep, asked for by their own bits: */
	GP_NEED_TOP_GAPS = 1u << 2,     /* its longest gaps with CPU context (opts.top_gaps per device) */
	GP_NEED_GAP_CAUSES = 1u << 3,   /* every idle gap with its time by cause */
	GP_NEED_DEPTH = 1u << 4,        /* each stream's queue depth series (opts.depth_buckets) */
	GP_NEED_MEMORY = 1u << 5,       /* memory over time from the allocator events: a->memory */
	GP_NEED_FINDINGS = 1u << 6,     /* advise's findings: a->findings */
	GP_NEED_RECORD = 1u << 7,       /* the trace's cross-rank record: a->record */
	GP_NEED_GROUPS = 1u << 8,       /* kernels by layer, op, op and shapes, name: a->groups */
	GP_NEED_TIMELINE = 1u << 9,     /* busy time, FLOPs and bytes per device in buckets: a->timeline */
	GP_NEED_DEPS = 1u << 10,        /* the step's dependency graph: a->deps */
	GP_NEED_CRITPATH = 1u << 11,    /* its critical path, by cause, op and layer: a->critpath */
	GP_NEED_TRACELENS = 1u << 12,   /* TraceLens's gpu_timeline, as it computes it: a->tracelens */
	GP_NEED_RANK_PATH = 1u << 13,   /* the record's critical path in legs: a->record.path */
	GP_NEED_PHASES = 1u << 14,      /* serving phases and batch sizes of replays: a->phases; serving steps: a->serving */
	GP_NEED_GRAPHS = 1u << 15,      /* graph replays per graph, with the idle inside them: a->graphs */
	GP_NEED_STEPS = 1u << 16,       /* the run's steps, the one definition (steps.h): a->steps */
	/* the findings with where each change puts the record's collective
	** kernels (a->findings.moves), for the job's replay across ranks */
	GP_NEED_RANK_ADVICE = 1u << 17,
	/* The kernels' layer paths read under opts.layers (--depth, --by
	** module-type): t->attrs' layers rewritten once, before any pass that
	** reads them; nothing changes when the view cuts nothing. */
	GP_NEED_LAYERS = 1u << 18,
	GP_NEED_KERNEL_PHASES = 1u << 19,   /* each kernel's serving phase and batch size: a->kernel_phases */
	/* communication hidden under compute and exposed, per device and per
	** layer and pass, and the SMs it holds under compute: a->comm_overlap */
	GP_NEED_COMM_OVERLAP = 1u << 20,
	/* the kernels' time by layer path and by module type at every depth,
	** and how much of it any layer covers: a->layer_views */
	GP_NEED_LAYER_VIEWS = 1u << 21,
};

struct gp_analysis_opts {
	struct gp_peak_opts peaks;      /* the op model's: --gpu, --peak-* (zero: the trace's GPUs) */
	size_t top_gaps;                /* GP_NEED_TOP_GAPS: gaps per device (GP_TOP_GAPS) */
	size_t depth_buckets;           /* GP_NEED_DEPTH: buckets per stream (GP_DEPTH_BUCKETS) */
	size_t timeline_buckets;        /* GP_NEED_TIMELINE (GP_TIMELINE_BUCKETS) */
	/* The window the trace was cut to (--iters, --start/--end), which
	** the timeline covers and a sink shows; both 0: the trace's span. */
	gp_ns window_start, window_end;
	/* The breakdown as other tools define it (breakdown --as): every
	** device as one timeline, memsets as compute (TraceLens), HTA's
	** kept work and idle categories. */
	bool one_timeline, memset_compute, hta;
	bool critpath_pieces;           /* GP_NEED_CRITPATH: keep the path's pieces */
	/* GP_NEED_CRITPATH: the path is these legs of a job's path across
	** ranks (gp_critpath_run_legs; borrowed), not the trace's own walk,
	** when not NULL */
	const struct gp_cp_leg *critpath_legs;
	size_t ncritpath_legs;
	/* GP_NEED_TRACELENS: every GPU event, not only those TraceLens links
	** to a launch (its include_unlinked_kernels) */
	bool tracelens_unlinked;
	/* GP_NEED_LAYERS: how layer paths are read (gp_layers_apply); zero:
	** whole, as the correlation made them */
	struct gp_layer_view layers;
};

/* Sets o to the defaults above. */
void gp_analysis_opts_init(struct gp_analysis_opts *o);

/* Everything the passes computed about one trace.  A result is valid when
** its bit is in done (gp_analysis_has); the others stay zeroed. */
struct gp_analysis {
	gp_trace *trace;                /* borrowed: loaded and correlated (attrs filled) */
	unsigned done;                  /* the GP_NEED_* bits computed */
	struct gp_analysis_opts opts;   /* what they were computed with */
	/* The run's facts, decided once before the passes that read them;
	** every pass, command and sink reads these, none finds its own: */
	struct gp_steps steps;          /* GP_NEED_STEPS */
	struct gp_gpu gpu;              /* the run's GPU, decided before any pass (gp_gpu_of_run):
					** --gpu, else the trace's; read through gp_analysis_gpu() */
	/* GP_NEED_KERNEL_PHASES: per kernel, its enum gp_phase
	** (gp_phases_of_kernels) and the batch size of its group
	** (gp_phase_batches); either NULL when no kernel has one */
	struct {
		uint8_t *phase;
		int32_t *batch;
	} kernel_phases;
	/* (GP_NEED_LAYERS is a fact of the trace: its kernels' layers) */
	struct gp_ops ops;
	gp_breakdown breakdown;
	struct gp_memory memory;
	struct gp_findings findings;
	struct gp_rank_record record;
	struct gp_kgroups groups;
	struct gp_timeline timeline;
	gp_deps deps;
	gp_critpath critpath;
	struct gp_tl_timeline tracelens;
	/* GP_NEED_PHASES: the kernels by serving phase and batch size
	** (gp_phase_groups), n = 0 when the trace marks no step and replays
	** no graph of a known batch size */
	struct {
		struct gp_phase_group *v;
		size_t n;
	} phases;
	/* GP_NEED_PHASES too: the serving steps (gp_serving_steps, start
	** order), n = 0 as for phases */
	struct {
		struct gp_serving_step *v;
		size_t n;
	} serving;
	struct gp_graph_table graphs;
	struct gp_comm_overlap comm_overlap;
	struct gp_layer_views layer_views;
	/* always: the kernels of unknown family (analysis/commclass.h), after
	** the runner marked communication by launcher and ops file */
	struct gp_comm_audit comm_audit;
};

/* Runs the passes that the results in needs (GP_NEED_* bits) require, each
** once, over t (loaded and correlated: t->attrs filled), with o (NULL: the
** defaults) into a, which owns the results: gp_analysis_free() it whatever
** the outcome.  Fails only with a pass's error (GP_ERR_USAGE for options a
** pass rejects: too many depth buckets); a then
** holds the results computed before it. */
int gp_analysis_run(gp_trace *t, unsigned needs, const struct gp_analysis_opts *o, struct gp_analysis *a,
		    gp_error *err);

/* Whether every result in needs was computed. */
static inline bool gp_analysis_has(const struct gp_analysis *a, unsigned needs)
{
	return (a->done & needs) == needs;
}

/* The run's GPU (a->gpu), NULL when neither --gpu nor the trace tells. */
static inline const struct gp_gpu *gp_analysis_gpu(const struct gp_analysis *a)
{
	return a->gpu.name ? &a->gpu : NULL;
}

void gp_analysis_free(struct gp_analysis *a);

#endif
