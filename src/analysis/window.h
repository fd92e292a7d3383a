/*
** Cutting a correlated trace to a window (model/window.h): what a window
** keeps is defined here and in docs/window.md.
**
** Ownership: gp_window_apply() edits the trace in place (its record arrays
** and t->attrs shrink; strings, op_exts and args stay as they are).
*/
#ifndef GP_ANALYSIS_WINDOW_H
#define GP_ANALYSIS_WINDOW_H

#include "util/error.h"
#include "model/trace.h"
#include "model/window.h"
#include "ops/ops.h"

/* The span of iterations a..b in a correlated trace: from the first
** launching call (or kernel start, for a kernel without one) to the last
** kernel end of the kernels attributed to them.  False when none is. */
bool gp_window_iteration_span(const gp_trace *t, int32_t a, int32_t b, gp_ns *lo, gp_ns *hi);

/* Whether kernel k of the correlated trace t is one filter f selects: its
** name (as the file gives it, or demangled) or its op (framework op, or
** PyProf's op) matches f->name; its layer path is f->layer or under it;
** a range around its launch (any kind: NVTX, annotation, framework op)
** has the text f->range. */
bool gp_kernel_filter_selects(const gp_trace *t, size_t k, const struct gp_kernel_filter *f);

/* Cuts the correlated trace t to window w: kernels of iterations
** iter_a..iter_b (by their attribution) or overlapping start..end (an
** end given relative is taken from gp_trace_start(t)), and of those the
** ones w's filter selects (gp_kernel_filter_selects; the others that run
** in the span are window work, as another iteration's are); API
** calls, ranges, copies, memsets and syncs overlapping the window's span,
** plus the launching call and the ranges around the launch of every kept
** kernel; allocator events in the span.  Indices between records are
** renumbered.  *lo, *hi: the span (an open end of a time window is the
** trace's first or last time; the whole trace's span for GP_WINDOW_NONE,
** which changes nothing).  The op model's autotuning trials are decided
** before the cut, with the ops files of po (NULL: the built-in rules), and
** kept in t->kernel_trial.  Fails with GP_ERR_USAGE when the trace has no
** iterations, none of iter_a..iter_b has a kernel, or a relative end lies
** before the start. */
int gp_window_apply(gp_trace *t, const struct gp_window *w, const struct gp_peak_opts *po, gp_ns *lo, gp_ns *hi,
		    gp_error *err);

#endif
