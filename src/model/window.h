/*
** A window of a trace: iterations A..B (--iter, --iters) or a time span
** (--start, --end), the part of a trace a command looks at.  docs/window.md
** says what a window keeps.  The command line fills one (options.c), the
** readers drop what lies far outside it while they read (the read window,
** gp_window_read_span), and gp_window_apply (analysis/window.h) cuts the
** correlated trace to exactly the window.
**
** Ownership: a gp_window is a plain value; it owns nothing (its filter
** points into the command line's options).
*/
#ifndef GP_WINDOW_H
#define GP_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"

#define GP_NS_MIN INT64_MIN
#define GP_NS_MAX INT64_MAX

enum gp_window_mode {
	GP_WINDOW_NONE,    /* the whole trace */
	GP_WINDOW_ITERS,   /* iterations iter_a..iter_b */
	GP_WINDOW_TIME,    /* start..end, ns on the trace's clock */
};

/* A kernel selection beside the window (--name, --layer, --range): the
** kernels it does not select are cut as those outside a window are
** (docs/window.md, "Filters").  name is a compiled POSIX extended regex
** (regex.h) owned by the command line's options. */
struct gp_kernel_filter {
	const void *name;      /* regex_t *: kernel or op names, NULL = any */
	const char *layer;     /* layer path prefix (whole components), NULL = any */
	const char *range;     /* a range's exact text around the launch, NULL = any */
};

struct gp_window {
	uint8_t mode;          /* enum gp_window_mode */
	int32_t iter_a, iter_b;
	gp_ns start, end;      /* GP_WINDOW_TIME: GP_NS_MIN / GP_NS_MAX when open
				** (also while an end is relative: readers then
				** read everything) */
	bool start_rel, end_rel;  /* the end was given with a unit: rel_start /
				** rel_end ns from the trace start (gp_trace_start),
				** made absolute by gp_window_apply */
	gp_ns rel_start, rel_end;
	struct gp_kernel_filter filter;
};

/* Whether w selects kernels by name, layer or range. */
static inline bool gp_window_filters(const struct gp_window *w)
{
	return w->filter.name || w->filter.layer || w->filter.range;
}

/* Whether [s, e] and [lo, hi] share a point (both ends included). */
static inline bool gp_span_overlaps(gp_ns s, gp_ns e, gp_ns lo, gp_ns hi)
{
	return s <= hi && e >= lo;
}

/* The least a read window reaches beyond its span: GPU work starts this
** long after its launch only behind a deep queue (docs/window.md). */
#define GP_WINDOW_MIN_MARGIN ((gp_ns)1000000000)

/* x - d, saturating at the start of the clock (d >= 0). */
static inline gp_ns gp_ns_minus(gp_ns x, uint64_t d)
{
	return (uint64_t)x - (uint64_t)GP_NS_MIN < d ? GP_NS_MIN : (gp_ns)((uint64_t)x - d);
}

/* The read window of a window whose span is [lo, hi], for readers that
** drop what lies outside it while reading (docs/window.md): records
** overlapping [*rlo, *rhi], the span widened on both sides by a margin of
** its own length (at least GP_WINDOW_MIN_MARGIN), and of GPU work
** (kernels, copies, memsets) only what ends at or after *gpu_lo, half a
** margin before the span: so the kept kernels' launching calls and the
** ranges around them are read (they come before the kernels), and the
** GPU work whose op or forward kernel a kept kernel shares, while GPU work
** whose launch was not read (it would be attributed by its External id
** alone) lies before what the cut keeps.  False when the span has an open
** end: then everything is read. */
static inline bool gp_window_read_span(gp_ns lo, gp_ns hi, gp_ns *rlo, gp_ns *rhi, gp_ns *gpu_lo)
{
	if (lo == GP_NS_MIN || hi == GP_NS_MAX || hi < lo)
		return false;
	uint64_t len = (uint64_t)hi - (uint64_t)lo;
	if (len < (uint64_t)GP_WINDOW_MIN_MARGIN)
		len = (uint64_t)GP_WINDOW_MIN_MARGIN;
	*rlo = gp_ns_minus(lo, len);
	*gpu_lo = gp_ns_minus(lo, len / 2);
	*rhi = (uint64_t)GP_NS_MAX - (uint64_t)hi < len ? GP_NS_MAX : (gp_ns)((uint64_t)hi + len);
	return true;
}

/* True when text names a training iteration: "iteration 12", "Iteration:3",
** "iter 5", "step 7", "ProfilerStep#2", or the bare word (libgpuprof puts
** the number in the NVTX payload).  *num is the number, -1 when absent. */
bool gp_iteration_text(const char *text, int64_t *num);

/* The span (first start, last end) of the NVTX iteration ranges numbered
** a..b among the n ranges at v (push/pop and start/end ranges whose text
** gp_iteration_text accepts; any order), numbered as the correlation
** numbers them: by their text, else by their order on their thread.  An
** end of GP_NS_MAX stays open.  False when none is numbered a..b. */
bool gp_iteration_ranges_span(const gp_trace *t, const struct gp_range *v, size_t n, int32_t a,
			      int32_t b, gp_ns *lo, gp_ns *hi);

#endif
