/* Communication overlapped with compute, per device and per layer and
** pass; see commover.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/commover.h"
#include "model/classify.h"
#include "util/alloc.h"
#include "util/u64map.h"

/* A kernel's start or end on its device. */
struct edge {
	int32_t device;
	gp_ns at;
	uint8_t start;          /* 0 end, 1 start: ends first at one time */
	uint8_t comm;
	uint32_t k;
};

static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct gp_co_group *a = pa, *b = pb;

	if (a->comm != b->comm)
		return a->comm > b->comm ? -1 : 1;
	if (a->layer != b->layer)
		return a->layer < b->layer ? -1 : 1;
	return a->dir < b->dir ? -1 : a->dir > b->dir;
}

/* A kernel's grid blocks (a dimension of 0, unrecorded, counts as 1). */
static uint32_t blocks_of(const gp_trace *t, const struct gp_kernel *k)
{
	const uint32_t *g = gp_kernel_def(t, k)->grid;
	uint64_t b = (uint64_t)(g[0] ? g[0] : 1) * (g[1] ? g[1] : 1) * (g[2] ? g[2] : 1);
	return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

/* Adds the counter series' point (device, at, blocks, compute) to o
** when the blocks or compute change. */
static void point(struct gp_comm_overlap *o, int32_t device, gp_ns at, uint32_t blocks, bool compute)
{
	const struct gp_co_point *last = o->npoints ? &o->points[o->npoints - 1] : NULL;

	if (last && last->device == device && last->blocks == blocks && last->compute == compute)
		return;
	if ((o->npoints & (o->npoints - 1)) == 0)   /* 0, 1, 2, 4...: full */
		o->points = gp_xrealloc(o->points, (o->npoints ? 2 * o->npoints : 1) * sizeof(*o->points));
	o->points[o->npoints++] = (struct gp_co_point){device, at, blocks, compute};
}

/* Slice [from, to) of device x: the communication kernels running in it
** (on[0..non), their groups' indices in grp) share it evenly; it is hidden
** when compute runs. */
static void slice(struct gp_comm_overlap *o, struct gp_co_device *x, const gp_trace *t, const uint32_t *on,
		  size_t non, const int32_t *grp, bool compute, gp_ns from, gp_ns to)
{
	gp_ns dt = to - from;
	uint64_t blocks = 0;

	if (dt <= 0)
		return;
	for (size_t i = 0; i < non; i++)
		blocks += blocks_of(t, &t->kernels.v[on[i]]);
	if (x->sm_count > 0 && blocks > (uint64_t)x->sm_count)
		blocks = (uint64_t)x->sm_count;
	point(o, x->device, from, (uint32_t)blocks, non && compute);
	if (!non)
		return;
	x->comm += dt;
	if (compute) {
		x->hidden += dt;
		x->sm_ns += (double)blocks * (double)dt;
	} else {
		x->exposed += dt;
	}
	for (size_t i = 0; i < non; i++) {
		struct gp_co_group *g = &o->groups[grp[on[i]]];
		/* the slice's share, the remainder to the first */
		gp_ns share = dt / (gp_ns)non + (i == 0 ? dt % (gp_ns)non : 0);
		uint64_t b = blocks_of(t, &t->kernels.v[on[i]]);
		if (x->sm_count > 0 && b > (uint64_t)x->sm_count)
			b = (uint64_t)x->sm_count;
		g->comm += share;
		if (compute) {
			g->hidden += share;
			g->sm_ns += (double)b * (double)share;
		} else {
			g->exposed += share;
		}
	}
}

void gp_comm_overlap_run(const gp_trace *t, struct gp_comm_overlap *o)
{
	size_t n = t->kernels.n, ne = 0, ncap = 0, non = 0, oncap = 8;
	struct edge *e = gp_xmalloc((2 * n + 1) * sizeof(*e));
	int32_t *grp = gp_xmalloc((n ? n : 1) * sizeof(*grp));
	uint32_t *on = gp_xmalloc(oncap * sizeof(*on));
	gp_u64map gm = {0};

	memset(o, 0, sizeof(*o));
	for (size_t k = 0; k < n; k++) {
		const struct gp_kernel *kk = &t->kernels.v[k];
		bool comm = gp_kernel_is_comm(t, kk);
		int32_t dev = gp_kernel_device(t, kk);
		grp[k] = -1;
		if (kk->end <= kk->start)
			continue;
		e[ne++] = (struct edge){dev, kk->start, 1, comm, (uint32_t)k};
		e[ne++] = (struct edge){dev, kk->end, 0, comm, (uint32_t)k};
		if (!comm)
			continue;
		const struct gp_attr *a = t->attrs ? &t->attrs[k] : NULL;
		gp_str layer = a ? a->layer : 0;
		uint8_t dir = a ? a->dir : GP_DIR_NA;
		int32_t gi = gp_u64map_add(&gm, (uint64_t)layer << 8 | dir, (int32_t)o->ngroups);
		if ((size_t)gi == o->ngroups) {
			if (o->ngroups == ncap) {
				ncap = ncap ? 2 * ncap : 8;
				o->groups = gp_xrealloc(o->groups, ncap * sizeof(*o->groups));
			}
			o->groups[o->ngroups++] = (struct gp_co_group){.layer = layer, .dir = dir};
		}
		grp[k] = gi;
		o->groups[gi].kernels++;
	}
	gp_sort(e, ne, sizeof(*e), cmp_edge);

	struct gp_co_device *x = NULL;
	int64_t ncompute = 0;
	for (size_t i = 0; i < ne; i++) {
		const struct edge *y = &e[i];
		if (!x || x->device != y->device) {
			if (x)
				point(o, x->device, e[i - 1].at, 0, false);   /* its series ends */
			ncompute = 0;
			non = 0;
			o->dev = gp_xrealloc(o->dev, (o->ndev + 1) * sizeof(*o->dev));
			x = &o->dev[o->ndev++];
			const struct gp_device *d = gp_trace_device(t, y->device);
			*x = (struct gp_co_device){.device = y->device, .sm_count = d ? d->sm_count : 0};
		} else {
			slice(o, x, t, on, non, grp, ncompute > 0, e[i - 1].at, y->at);
		}
		if (!y->comm) {
			ncompute += y->start ? 1 : -1;
		} else if (y->start) {
			if (non == oncap)
				on = gp_xrealloc(on, (oncap *= 2) * sizeof(*on));
			on[non++] = y->k;
			x->kernels++;
			uint32_t b = blocks_of(t, &t->kernels.v[y->k]);
			if (b > x->max_blocks)
				x->max_blocks = b;
		} else {
			for (size_t j = 0; j < non; j++)
				if (on[j] == y->k) {
					on[j] = on[--non];
					break;
				}
		}
	}
	if (x)
		point(o, x->device, e[ne - 1].at, 0, false);
	/* devices without communication say nothing; a series starts at its
	** device's first communication */
	size_t keep = 0, kp = 0, at = 0;
	for (size_t i = 0; i < o->ndev; i++) {
		bool has = o->dev[i].kernels > 0, begun = false;
		for (; at < o->npoints && o->points[at].device == o->dev[i].device; at++)
			if (has && (begun = begun || o->points[at].blocks))
				o->points[kp++] = o->points[at];
		if (has)
			o->dev[keep++] = o->dev[i];
	}
	o->ndev = keep;
	o->npoints = kp;
	gp_sort(o->groups, o->ngroups, sizeof(*o->groups), cmp_group);
	gp_u64map_free(&gm);
	free(on);
	free(grp);
	free(e);
}

void gp_comm_overlap_free(struct gp_comm_overlap *o)
{
	free(o->dev);
	free(o->groups);
	free(o->points);
	memset(o, 0, sizeof(*o));
}
