/*
** The device timeline in buckets: per GPU and per fixed-width time bucket,
** the busy time (the union of its kernels, copies and memsets), the
** modelled FLOPs and bytes of the kernels in it.  The analysis runner's
** GP_NEED_TIMELINE pass builds it over the analysed window; the Perfetto
** export's counter tracks (busy %, TFLOP/s, GB/s) and the HTML report's
** busy chart format it.
**
** Ownership: gp_timeline_build() fills a caller-owned gp_timeline whose
** arrays gp_timeline_free() releases.
*/
#ifndef GP_TIMELINE_H
#define GP_TIMELINE_H

#include <stddef.h>

#include "model/trace.h"
#include "ops/ops.h"

struct gp_timeline_bucket {
	double busy_ns;         /* time at least one activity ran */
	double flops, bytes;    /* modelled work of the kernels, pro rata of their time in it */
};

struct gp_timeline {
	gp_ns start, end;       /* the window */
	gp_ns width;            /* bucket i covers [start + i*width, start + (i+1)*width) */
	size_t nbuckets;
	size_t ndev;
	int32_t *devs;          /* [ndev] device ids, ascending */
	struct gp_timeline_bucket *b;   /* [ndev * nbuckets], device-major */
};

/* Buckets [start, end) into at most nbuckets buckets (at least 1 ns wide)
** over the activities acts (gp_trace_activities(t), n of them) of t; r
** (gp_ops_run's, may be NULL) gives the kernels' FLOPs and bytes, unknown
** ones count 0.  One pass over acts.  An empty window or no activity gives
** nbuckets = 0.  Never fails. */
void gp_timeline_build(struct gp_timeline *tl, const gp_trace *t, const struct gp_opres *r,
		       const struct gp_activity *acts, size_t n, gp_ns start, gp_ns end,
		       size_t nbuckets);

/* The start of bucket i; for i >= nbuckets, the window's end. */
gp_ns gp_timeline_at(const struct gp_timeline *tl, size_t i);

void gp_timeline_free(struct gp_timeline *tl);

/* The neighbourhood of [start, end) on device dev (the HTML report's small
** timelines around a gap or a kernel): the indices into t->kernels (sorted
** by start, as every loaded trace is) of dev's kernels that start in
** [start - margin, end + margin), at most max of those that start before
** start (the closest) and at most max of the others (the first), in start
** order, written to out (room for 2 * max).  Returns how many.  A bounded
** walk: it looks at most GP_NEARBY_SCAN kernels of any device on each
** side, so another device's work cannot make it slow.  Never fails. */
#define GP_NEARBY_SCAN 4096
size_t gp_timeline_nearby(const gp_trace *t, int32_t dev, gp_ns start, gp_ns end, gp_ns margin, size_t max,
			  size_t *out);

#endif
