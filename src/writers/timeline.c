/*
** The device timeline in buckets; see timeline.h.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "writers/timeline.h"

/* Adds weight w spread evenly over [s, e) to the buckets of one device
** (field at offset off in each bucket), clipped to the window. */
static void spread(const struct gp_timeline *tl, struct gp_timeline_bucket *row, size_t off,
		   gp_ns s, gp_ns e, double w)
{
	gp_ns lo = tl->start, hi = tl->start + (gp_ns)tl->nbuckets * tl->width;
	double len = (double)(e - s);

	if (e <= s) {           /* an instant: all of it where it is */
		if (s < lo || s >= hi)
			return;
		size_t i = (size_t)((s - lo) / tl->width);
		*(double *)((char *)&row[i] + off) += w;
		return;
	}
	gp_ns cs = s < lo ? lo : s, ce = e > hi ? hi : e;
	for (gp_ns x = cs; x < ce;) {
		size_t i = (size_t)((x - lo) / tl->width);
		gp_ns bend = lo + (gp_ns)(i + 1) * tl->width;
		gp_ns y = bend < ce ? bend : ce;
		*(double *)((char *)&row[i] + off) += w * (double)(y - x) / len;
		x = y;
	}
}

void gp_timeline_build(struct gp_timeline *tl, const gp_trace *t, const struct gp_opres *r,
		       const struct gp_activity *acts, size_t n, gp_ns start, gp_ns end,
		       size_t nbuckets)
{
	memset(tl, 0, sizeof(*tl));
	if (end <= start || !n || !nbuckets)
		return;
	gp_ns width = (end - start + (gp_ns)nbuckets - 1) / (gp_ns)nbuckets;
	tl->start = start;
	tl->width = width ? width : 1;
	tl->nbuckets = (size_t)((end - start + tl->width - 1) / tl->width);
	for (size_t i = 0; i < n; i++)
		if (!i || acts[i].dev != acts[i - 1].dev)
			tl->ndev++;
	tl->devs = gp_xmalloc(tl->ndev * sizeof(*tl->devs));
	tl->b = gp_xcalloc(tl->ndev * tl->nbuckets, sizeof(*tl->b));

	/* acts are sorted by device and start: merge each device's busy
	** intervals as they come, spreading each merged interval once */
	size_t d = 0;
	gp_ns bs = 0, be = 0;
	struct gp_timeline_bucket *row = tl->b;
	for (size_t i = 0; i <= n; i++) {
		bool new_dev = i == n || !i || acts[i].dev != acts[i - 1].dev;
		if (i && (new_dev || acts[i].s > be))
			spread(tl, row, offsetof(struct gp_timeline_bucket, busy_ns), bs, be, (double)(be - bs));
		if (i == n)
			break;
		if (new_dev) {
			if (i)
				d++;
			tl->devs[d] = acts[i].dev;
			row = tl->b + d * tl->nbuckets;
		}
		if (new_dev || acts[i].s > be) {
			bs = acts[i].s;
			be = acts[i].e;
		} else if (acts[i].e > be) {
			be = acts[i].e;
		}
		size_t k = acts[i].unit;
		if (r && k < t->kernels.n) {
			if (r[k].flops > 0)
				spread(tl, row, offsetof(struct gp_timeline_bucket, flops), acts[i].s, acts[i].e, r[k].flops);
			if (r[k].bytes > 0)
				spread(tl, row, offsetof(struct gp_timeline_bucket, bytes), acts[i].s, acts[i].e, r[k].bytes);
		}
	}
}

void gp_timeline_free(struct gp_timeline *tl)
{
	free(tl->devs);
	free(tl->b);
	memset(tl, 0, sizeof(*tl));
}
