/*
** The device timeline in buckets; see timeline.h.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "analysis/timeline.h"

/* The distance from a to b >= a, without overflow (times may span the
** whole int64 range in bad input). */
static uint64_t dist(gp_ns a, gp_ns b)
{
	return (uint64_t)b - (uint64_t)a;
}

/* Adds weight w spread evenly over [s, e) to the buckets of one device
** (the double at offset off in each bucket), clipped to the window. */
static void spread(const struct gp_timeline *tl, struct gp_timeline_bucket *row, size_t off,
		   gp_ns s, gp_ns e, double w)
{
	uint64_t width = (uint64_t)tl->width;

	if (e <= s) {           /* an instant: all of it where it is */
		if (s < tl->start || s >= tl->end)
			return;
		*(double *)((char *)&row[dist(tl->start, s) / width] + off) += w;
		return;
	}
	gp_ns cs = s < tl->start ? tl->start : s, ce = e > tl->end ? tl->end : e;
	if (ce <= cs)
		return;
	double len = (double)dist(s, e);
	uint64_t x = dist(tl->start, cs), to = dist(tl->start, ce);
	while (x < to) {
		uint64_t left = width - x % width;      /* to the bucket's end */
		uint64_t step = to - x < left ? to - x : left;
		*(double *)((char *)&row[x / width] + off) += w * (double)step / len;
		x += step;
	}
}

void gp_timeline_build(struct gp_timeline *tl, const gp_trace *t, const struct gp_opres *r,
		       const struct gp_activity *acts, size_t n, gp_ns start, gp_ns end,
		       size_t nbuckets)
{
	memset(tl, 0, sizeof(*tl));
	if (end <= start || !n || !nbuckets)
		return;
	uint64_t span = dist(start, end);
	uint64_t width = span / nbuckets + (span % nbuckets != 0);
	tl->start = start;
	tl->end = end;
	tl->width = (gp_ns)width;
	tl->nbuckets = (size_t)(span / width + (span % width != 0));
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
			spread(tl, row, offsetof(struct gp_timeline_bucket, busy_ns), bs, be, (double)dist(bs, be));
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

/* The start of bucket i (i = nbuckets: the window's end). */
gp_ns gp_timeline_at(const struct gp_timeline *tl, size_t i)
{
	if (i >= tl->nbuckets)
		return tl->end;
	return (gp_ns)((uint64_t)tl->start + (uint64_t)i * (uint64_t)tl->width);
}

void gp_timeline_free(struct gp_timeline *tl)
{
	free(tl->devs);
	free(tl->b);
	memset(tl, 0, sizeof(*tl));
}

size_t gp_timeline_nearby(const gp_trace *t, int32_t dev, gp_ns start, gp_ns end, gp_ns margin, size_t max,
			  size_t *out)
{
	const struct gp_kernel *k = t->kernels.v;
	size_t lo = 0, hi = t->kernels.n, n = 0, before = 0;

	/* the first kernel that starts at or after start */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (k[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, seen = 0; i > 0 && before < max && seen < GP_NEARBY_SCAN; i--, seen++) {
		if (k[i - 1].start < start - margin)
			break;
		if (gp_kernel_device(t, &k[i - 1]) == dev)
			out[before++] = i - 1;
	}
	/* closest first: put them in start order */
	for (size_t i = 0; i < before / 2; i++) {
		size_t x = out[i];
		out[i] = out[before - 1 - i];
		out[before - 1 - i] = x;
	}
	n = before;
	for (size_t i = lo, seen = 0; i < t->kernels.n && n < before + max && seen < GP_NEARBY_SCAN; i++, seen++) {
		if (k[i].start >= end + margin)
			break;
		if (gp_kernel_device(t, &k[i]) == dev)
			out[n++] = i;
	}
	return n;
}
