/*
** Where the GPU time goes: per device and per iteration, the time split
** into compute, communication and memory work, their overlaps and idle
** time (a union of intervals over all streams: concurrent work counts
** once), idle time by cause, and per stream the launch delay and queue
** depth.  One pass over the kernels, copies and memsets in start order (a
** merge of the trace's sorted arrays, no sort; only HTA's view, opts.hta,
** sorts its kept work to replay HTA's interval merge); docs/breakdown.md.
**
** The results are small records that merge exactly (the next step adds up
** many files and ranks): sums in ns, counts, and fixed log-bucket
** histograms instead of sample arrays.
**
** Ownership: gp_breakdown_run() fills a gp_breakdown that owns its arrays
** and strings (copied, so they outlive the trace); gp_breakdown_free()
** releases them.
*/
#ifndef GP_BREAKDOWN_H
#define GP_BREAKDOWN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "util/hist.h"
#include "model/trace.h"
#include "analysis/critpath.h"

/* Kinds of GPU work, as bits of a mask: the time with exactly the set m
** of kinds active is gp_bd_window.by_mask[m] (by_mask[0] is idle). */
enum gp_bd_kind { GP_BD_COMPUTE = 1, GP_BD_COMM = 2, GP_BD_MEMORY = 4 };
#define GP_BD_MASKS 8

/* Why the GPU was idle: every idle ns has exactly one cause (enum gp_cause
** of critpath.h, read off the dependency chain of the work that ended the
** gap: docs/dependencies.md); idle[] arrays are indexed by it. */
#define GP_IDLE__COUNT GP_CAUSE__COUNT

/* One (device, iteration): iter -1 is the whole trace on that device.
** span = end - start = sum of by_mask[] exactly; idle = by_mask[0] =
** sum of idle[] exactly. */
struct gp_bd_window {
	int32_t device;
	int32_t iter;
	gp_ns start, end;
	gp_ns by_mask[GP_BD_MASKS];
	gp_ns idle[GP_IDLE__COUNT];
	uint64_t kernels, copies, memsets;   /* that start inside the window */
	uint64_t gaps;                       /* idle gaps */
};

/* One bucket of a stream's queue depth over time: the launches whose call
** returned in [start, next bucket's start) and the largest depth sampled
** at them (max_depth -1 = no launch in the bucket). */
#define GP_BD_MAX_BUCKETS 100000
struct gp_bd_depth_bucket {
	gp_ns start;
	uint64_t launches;
	int64_t max_depth;
};

/* Per (device, stream): kernel launches (a CUDA graph launch is one unit),
** the delay from the end of each launch call to the start of its first
** kernel, and the queue depth (kernels launched on the stream and not yet
** finished) when each launch call returns. */
struct gp_bd_stream {
	int32_t device;
	uint32_t stream;
	uint64_t kernels;
	uint64_t launches;        /* units with a known launch call */
	uint64_t graph_launches;  /* of them, CUDA graph launches */
	uint64_t early;           /* kernel started before its launch call returned (clock skew): delay 0 */
	struct gp_hist delay;     /* ns */
	struct gp_hist depth;
};

/* One of the largest idle gaps, with what the CPU was doing then. */
struct gp_bd_gap {
	int32_t device;
	int32_t iter;             /* of the work that ends the gap, -1 = unknown */
	gp_ns start, end;
	uint8_t cause;            /* enum gp_cause of most of its time */
	int32_t unit;             /* the GPU work that ends it (deps.h's numbering) */
	char *context;            /* what held that work, largest first: "allocator cudaFree
				** (aten::cudnn_convolution) 788.5 ms; jit cudaLaunchKernel 726.3 ms",
				** or NULL */
};

/* Every idle gap of a device (the whole trace) with its time by cause: the
** gaps advise's findings and the perfetto sink's idle slices read.  Its
** time by cause is sparse, as a gap has a cause or two of the
** GP_IDLE__COUNT: the causes with time, ascending, are
** gp_breakdown.gap_part_cause[part ...] with their time in
** gap_part_ns[part ...], nparts of them (gp_bd_gap_idle reads one). */
struct gp_bd_gap_cause {
	int32_t device;
	int32_t iter;             /* of the work that ends the gap, -1 = unknown */
	gp_ns start, end;
	int32_t next;             /* the kernel that ends it (index), -1 = a copy or memset */
	int32_t unit;             /* the GPU work that ends it (deps.h's numbering) */
	uint64_t part;            /* its first cause in gp_breakdown.gap_part_* */
	uint8_t nparts;           /* causes with time, <= GP_IDLE__COUNT */
};

/* HTA's idle time breakdown of one stream: the gap before each GPU event
** (its start minus the end of the one before it on the stream, negative
** when they overlap) is host_wait when its launch call began after that
** end, kernel_wait when shorter than 30 us, other otherwise. */
enum { GP_HTA_HOST_WAIT, GP_HTA_KERNEL_WAIT, GP_HTA_OTHER, GP_HTA__COUNT };
struct gp_bd_hta_stream {
	int32_t device;
	uint32_t stream;
	gp_ns prev_end;           /* sweep state; INT64_MIN before the first event */
	gp_ns idle[GP_HTA__COUNT];
	uint64_t n[GP_HTA__COUNT];
};

/* HTA's get_temporal_breakdown and get_comm_comp_overlap of one device,
** as HTA computes them (docs/breakdown.md, "--as hta"): its intervals are
** the kept GPU work, rounded inward to whole microseconds when the trace's
** timestamps have fractions, merged by HTA's rule. */
struct gp_bd_hta_device {
	int32_t device;
	gp_ns kernel_time;        /* first merged start to last merged end */
	gp_ns idle;               /* kernel_time - the merged run time */
	gp_ns compute;            /* merged run time of the compute kernels */
	gp_ns comm;               /* merged run time of the communication kernels */
	gp_ns comm_overlap;       /* of it, the time with compute running */
};

struct gp_breakdown_opts {
	/* The dependency graph the idle causes are read from (NULL: every
	** idle ns is GP_CAUSE_UNKNOWN). */
	gp_deps *deps;
	size_t top_gaps;          /* gaps kept per device */
	bool one_timeline;        /* all devices as one (device -1): TraceLens' gpu_timeline */
	bool memset_compute;      /* a memset is compute work, not memory (TraceLens) */
	/* HTA's view: only GPU work launched inside a ProfilerStep#N range
	** other than the last one, and its per-stream idle categories. */
	bool hta;
	/* Buckets of each stream's queue depth series over its device's span
	** (gp_breakdown.depth); 0 = no series. */
	size_t depth_buckets;
	bool gap_causes;          /* fill gp_breakdown.gap_causes */
};

typedef struct gp_breakdown {
	struct gp_bd_window *win;     /* per device: the whole trace, then its iterations by start */
	size_t nwin;
	struct gp_bd_stream *streams; /* by device, stream */
	size_t nstreams;
	struct gp_bd_gap *gaps;       /* per device, longest first */
	size_t ngaps;
	struct gp_bd_hta_stream *hta; /* opts.hta only: by device, stream */
	size_t nhta;
	struct gp_bd_hta_device *hta_dev;   /* opts.hta only: by device */
	size_t nhta_dev;
	/* opts.depth_buckets per stream, in streams' order: the series of
	** streams[i] is depth[i * depth_buckets ...], its buckets cutting the
	** span of its device's whole-trace window into equal parts */
	struct gp_bd_depth_bucket *depth;
	size_t depth_buckets;
	/* opts.gap_causes only: every gap, by device (ascending) and start,
	** and the gaps' time by cause (gp_bd_gap_cause.part) */
	struct gp_bd_gap_cause *gap_causes;
	size_t ngap_causes;
	gp_ns *gap_part_ns;
	uint8_t *gap_part_cause;      /* enum gp_cause */
} gp_breakdown;

/* Computes the breakdown of trace t (correlated: t->attrs filled, or NULL
** for no iterations and no launch calls).  Never fails on odd data: a
** record ending before it starts counts as an instant.  Fails only with
** GP_ERR_USAGE for bad options (more than
** GP_BD_MAX_BUCKETS depth buckets). */
int gp_breakdown_run(const gp_trace *t, const struct gp_breakdown_opts *o, gp_breakdown *b,
		     gp_error *err);

void gp_breakdown_free(gp_breakdown *b);

/* Derived sums of a window. */
gp_ns gp_bd_kind_time(const struct gp_bd_window *w, unsigned kind);  /* union of one kind's work */
gp_ns gp_bd_busy(const struct gp_bd_window *w);                      /* span - idle */
gp_ns gp_bd_overlap(const struct gp_bd_window *w);  /* sum over masks of (kinds - 1) x time */
/* communication with compute beside it (comm_hidden; comm_exposed is
** gp_bd_kind_time(w, GP_BD_COMM) minus it) */
gp_ns gp_bd_comm_hidden(const struct gp_bd_window *w);

/* The time view's fixed parts (`breakdown`'s rows of a window, before
** its idle_CAUSE rows, and the export's breakdown table): span, busy,
** compute, communication, memory, overlap, idle, comm_hidden,
** comm_exposed.  gp_bd_part_name(p) is the part's name (NULL outside 0 ..
** GP_BD_PARTS - 1), gp_bd_part_time(w, p) its time in window w (0
** outside). */
enum {
	GP_BD_PART_SPAN, GP_BD_PART_BUSY, GP_BD_PART_COMPUTE, GP_BD_PART_COMM, GP_BD_PART_MEMORY,
	GP_BD_PART_OVERLAP, GP_BD_PART_IDLE, GP_BD_PART_COMM_HIDDEN, GP_BD_PART_COMM_EXPOSED, GP_BD_PARTS
};
const char *gp_bd_part_name(int p);
gp_ns gp_bd_part_time(const struct gp_bd_window *w, int p);

/* Adds from's sums and counts into into (the same device); the span widens
** to cover both. */
void gp_bd_window_merge(struct gp_bd_window *into, const struct gp_bd_window *from);

/* Where [start, end) on device lies among b's iterations (b->win): the
** iteration whose window holds it whole, or -1 with *before the last
** iteration ending at or before start and *after the first starting at or
** after end (-1 each when none: before the first step, after the last,
** or a device whose trace marks no iterations).  The HTML report's gaps
** say "step N", "between steps" or "outside any step" from it.  One pass
** over b's windows. */
int32_t gp_bd_step_of(const gp_breakdown *b, int32_t device, gp_ns start, gp_ns end, int32_t *before,
		      int32_t *after);

/* Gap g's idle time of cause c (enum gp_cause), g one of b->gap_causes. */
gp_ns gp_bd_gap_idle(const gp_breakdown *b, const struct gp_bd_gap_cause *g, int c);

/* The cause of most of gap g's time (ties to the first in enum order), g
** one of b->gap_causes. */
int gp_bd_gap_main_cause(const gp_breakdown *b, const struct gp_bd_gap_cause *g);

#endif
