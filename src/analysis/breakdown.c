/*
** The time breakdown (breakdown.h, docs/breakdown.md).
**
** One sweep over all GPU work in start order: the kernels, copies and
** memsets arrays are each sorted by start (gp_trace_finish), so a 3-way
** merge visits them in order without a sort.  Per device the sweep keeps,
** for each kind of work, how far the union of that kind's intervals seen so
** far reaches (cover[kind]); every interval seen started at or before the
** sweep's clock, so between the clock and the next start the kinds active
** change only at those three ends.  Advancing the clock therefore cuts the
** time into at most four segments, each with one mask of active kinds, and
** adds each to the windows (whole trace, iterations) it falls in.  A
** segment with no kind active is an idle gap, and the work that starts at
** its end tells its cause.
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown_hta.h"
#include "analysis/markers.h"
#include "model/classify.h"
#include "util/alloc.h"
#include "util/u64map.h"

/* ---- window sums ---- */

gp_ns gp_bd_kind_time(const struct gp_bd_window *w, unsigned kind)
{
	gp_ns sum = 0;

	for (unsigned m = 1; m < GP_BD_MASKS; m++)
		if (m & kind)
			sum += w->by_mask[m];
	return sum;
}

gp_ns gp_bd_busy(const struct gp_bd_window *w)
{
	return gp_bd_kind_time(w, GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY);
}

gp_ns gp_bd_overlap(const struct gp_bd_window *w)
{
	gp_ns sum = 0;

	for (unsigned m = 1; m < GP_BD_MASKS; m++)
		sum += (gp_ns)(__builtin_popcount(m) - 1) * w->by_mask[m];
	return sum;
}

void gp_bd_window_merge(struct gp_bd_window *into, const struct gp_bd_window *from)
{
	if (from->start < into->start)
		into->start = from->start;
	if (from->end > into->end)
		into->end = from->end;
	for (int m = 0; m < GP_BD_MASKS; m++)
		into->by_mask[m] += from->by_mask[m];
	for (int c = 0; c < GP_IDLE__COUNT; c++)
		into->idle[c] += from->idle[c];
	into->kernels += from->kernels;
	into->copies += from->copies;
	into->memsets += from->memsets;
	into->gaps += from->gaps;
}

int gp_bd_gap_main_cause(const struct gp_bd_gap_cause *g)
{
	int best = 0;

	for (int c = 1; c < GP_IDLE__COUNT; c++)
		if (g->idle[c] > g->idle[best])
			best = c;
	return best;
}

const char *gp_idle_cause_name(int cause)
{
	static const char *const names[GP_IDLE__COUNT] = {
		"short_gap", "sync", "pageable_memcpy", "host_launch", "other",
	};
	return cause >= 0 && cause < GP_IDLE__COUNT ? names[cause] : "?";
}

/* ---- the sweep ---- */

enum { ACT_KERNEL, ACT_COPY, ACT_MEMSET };

/* One GPU activity as the merge sees it. */
struct act {
	gp_ns start, end;
	int32_t device;
	unsigned kind;
	int32_t kernel;        /* index into t->kernels, -1 = a copy or memset */
	uint8_t what;          /* ACT_* */
	bool pageable;         /* a copy from or to pageable memory */
	uint32_t stream;
	uint64_t corr;
	gp_ns launch;          /* opts.hta: start of its launch call */
	gp_ns hta_end;         /* opts.hta: its end as HTA reads it (may lie
			       ** before start once rounded) */
};

struct dev {
	int32_t id;
	size_t all;            /* index of its whole-trace window */
	size_t it_first, it_n; /* its iteration windows, by start */
	size_t it_next;        /* next iteration window to open, by start */
	GP_VEC(size_t) open;   /* iteration windows opened and not seen to end: a
			       ** set, so a window spanning many others costs
			       ** one entry, not a rescan of the windows before */
	bool started;
	gp_ns clock;
	gp_ns cover[3];        /* per kind: the end of the union so far */
	size_t sync_lo;        /* first sync interval ending after the current gap's start */
	struct gp_bd_gap *top; /* [opts.top_gaps], ntop used */
	size_t ntop;
};

struct sweep {
	const gp_trace *t;
	const struct gp_breakdown_opts *o;
	GP_VEC(struct gp_bd_window) win;
	struct dev *dev;
	size_t ndev;
	GP_VEC(gp_ns) sync;    /* union of CPU synchronisation intervals: start, end pairs */
	GP_VEC(struct gp_bd_gap_cause) gapc;   /* opts.gap_causes */
	struct gp_bd_hta hta;  /* opts.hta: HTA's view */
};

static struct dev *dev_of(struct sweep *s, int32_t id)
{
	for (size_t i = 0; i < s->ndev; i++)
		if (s->dev[i].id == id)
			return &s->dev[i];
	s->dev = gp_xrealloc(s->dev, (s->ndev + 1) * sizeof(*s->dev));
	memset(&s->dev[s->ndev], 0, sizeof(*s->dev));
	s->dev[s->ndev].id = id;
	return &s->dev[s->ndev++];
}

/* The end of a record as the breakdown uses it: clamped, and never before
** its start (a damaged record counts as an instant). */
static gp_ns end_of(gp_ns start, gp_ns end)
{
	end = gp_bd_clamp(end);
	return end > start ? end : start;
}

/* The first not yet taken of kernels[*ik], memcpys[*ic], memsets[*is] by
** start into *a, advancing its index; false when all are taken. */
static bool merge_next(const gp_trace *t, size_t *ik, size_t *ic, size_t *is, struct act *a)
{
	gp_ns sk = *ik < t->kernels.n ? t->kernels.v[*ik].start : INT64_MAX;
	gp_ns sc = *ic < t->memcpys.n ? t->memcpys.v[*ic].start : INT64_MAX;
	gp_ns ss = *is < t->memsets.n ? t->memsets.v[*is].start : INT64_MAX;

	if (*ik < t->kernels.n && sk <= sc && sk <= ss) {
		const struct gp_kernel *k = &t->kernels.v[*ik];
		*a = (struct act){gp_bd_clamp(k->start), end_of(gp_bd_clamp(k->start), k->end), gp_kernel_device(t, k), GP_BD_COMPUTE,
				  (int32_t)*ik, ACT_KERNEL, false, k->stream, k->corr, 0, 0};
		(*ik)++;
		return true;
	}
	if (*ic < t->memcpys.n && sc <= ss) {
		const struct gp_memcpy *c = &t->memcpys.v[*ic];
		*a = (struct act){gp_bd_clamp(c->start), end_of(gp_bd_clamp(c->start), c->end), c->device, GP_BD_MEMORY, -1, ACT_COPY,
				  c->src_kind == GP_MEM_PAGEABLE || c->dst_kind == GP_MEM_PAGEABLE, c->stream, c->corr, 0, 0};
		(*ic)++;
		return true;
	}
	if (*is < t->memsets.n) {
		const struct gp_memset *m = &t->memsets.v[*is];
		*a = (struct act){gp_bd_clamp(m->start), end_of(gp_bd_clamp(m->start), m->end), m->device, GP_BD_MEMORY, -1, ACT_MEMSET, false, m->stream, m->corr, 0, 0};
		(*is)++;
		return true;
	}
	return false;
}

/* The next activity in start order into *a; false after the last.  With
** one_timeline every device is device -1. */
static bool act_next(const struct sweep *s, size_t *ik, size_t *ic, size_t *is, struct act *a)
{
	do {
		if (!merge_next(s->t, ik, ic, is, a))
			return false;
	} while (s->o->hta && !gp_bd_hta_keep(&s->hta, a->kernel, a->corr, &a->launch));
	a->hta_end = a->end;
	if (s->o->hta)
		gp_bd_hta_round(&s->hta, &a->start, &a->end, &a->launch, &a->hta_end);
	if (s->o->one_timeline)
		a->device = -1;
	if (s->o->memset_compute && a->what == ACT_MEMSET)
		a->kind = GP_BD_COMPUTE;
	return true;
}

static int cmp_window(const void *pa, const void *pb)
{
	const struct gp_bd_window *a = pa, *b = pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	if (a->iter < 0 || b->iter < 0)
		return (a->iter >= 0) - (b->iter >= 0);
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->iter > b->iter) - (a->iter < b->iter);
}

/* First pass: the devices, each device's whole-trace window and its
** iteration windows (from its first to its last kernel of that iteration),
** sorted by device, whole trace first, then by start. */
static void make_windows(struct sweep *s)
{
	const gp_trace *t = s->t;
	gp_u64map at = {0};
	size_t ik = 0, ic = 0, is = 0;
	struct act a;

	while (act_next(s, &ik, &ic, &is, &a)) {
		struct dev *d = dev_of(s, a.device);
		struct gp_bd_window *w;
		int32_t i;

		if (!d->started) {
			d->started = true;
			d->all = s->win.n;
			w = gp_vec_push(s->win);
			memset(w, 0, sizeof(*w));
			*w = (struct gp_bd_window){.device = a.device, .iter = -1, .start = a.start, .end = a.end};
		}
		w = &s->win.v[d->all];
		if (a.end > w->end)
			w->end = a.end;
		if (a.kernel < 0 || !t->attrs || t->attrs[a.kernel].iter < 0)
			continue;
		uint64_t key = (uint64_t)(uint32_t)a.device << 32 | (uint32_t)t->attrs[a.kernel].iter;
		i = gp_u64map_add(&at, key, (int32_t)s->win.n);
		if ((size_t)i == s->win.n) {
			w = gp_vec_push(s->win);
			memset(w, 0, sizeof(*w));
			*w = (struct gp_bd_window){.device = a.device, .iter = t->attrs[a.kernel].iter,
						   .start = a.start, .end = a.end};
		}
		w = &s->win.v[i];
		if (a.end > w->end)
			w->end = a.end;
	}
	gp_u64map_free(&at);
	gp_vec_sort(s->win, cmp_window);
	for (size_t i = 0; i < s->ndev; i++) {
		struct dev *d = &s->dev[i];
		d->started = false;
		for (size_t j = 0; j < s->win.n; j++)
			if (s->win.v[j].device == d->id) {
				d->all = j;
				d->it_first = j + 1;
				while (j + 1 < s->win.n && s->win.v[j + 1].device == d->id)
					j++;
				d->it_n = j + 1 - d->it_first;
				break;
			}
		d->it_next = d->it_first;
	}
}

static void sync_add(struct sweep *s, gp_ns start, gp_ns end)
{
	start = gp_bd_clamp(start);
	end = end_of(start, end);
	if (s->sync.n && start <= s->sync.v[s->sync.n - 1]) {
		if (end > s->sync.v[s->sync.n - 1])
			s->sync.v[s->sync.n - 1] = end;
		return;
	}
	*gp_vec_push(s->sync) = start;
	*gp_vec_push(s->sync) = end;
}

/* The union of the time the CPU spent in synchronisation: the calls that
** only wait (gp_sync_call_waits: *Synchronize*; a blocking copy's wait is
** its copy's) and the trace's sync records, merged in start order. */
static void make_sync_union(struct sweep *s)
{
	const gp_trace *t = s->t;
	size_t nstr = t->strs.n + 1, ia = 0, iy = 0;
	uint8_t *is_sync = gp_xcalloc(nstr, 1);   /* 0 = not seen, 1 = no, 2 = yes */

	for (;;) {
		const struct gp_api *a = NULL;
		gp_ns sa = INT64_MAX, sy = iy < t->syncs.n ? t->syncs.v[iy].start : INT64_MAX;

		while (ia < t->apis.n) {
			const struct gp_api *c = &t->apis.v[ia];
			gp_str name = gp_api_def(t, c)->name;
			if (name < nstr && !is_sync[name])
				is_sync[name] = gp_sync_call_waits(gp_api_sync_call(gp_s(t, name))) ? 2 : 1;
			if (name < nstr && is_sync[name] == 2) {
				a = c;
				sa = c->start;
				break;
			}
			ia++;
		}
		if (!a && iy >= t->syncs.n)
			break;
		if (a && sa <= sy) {
			sync_add(s, a->start, a->end);
			ia++;
		} else {
			sync_add(s, t->syncs.v[iy].start, t->syncs.v[iy].end);
			iy++;
		}
	}
	free(is_sync);
}

/* Moves d->sync_lo to the first sync interval ending after x, the start
** of the device's next gap (gaps come in time order). */
static void sync_seek(const struct sweep *s, struct dev *d, gp_ns x)
{
	while (d->sync_lo < s->sync.n && s->sync.v[d->sync_lo + 1] <= x)
		d->sync_lo += 2;
}

/* How much of [x0, x1), inside the gap sync_seek() went to, the CPU spent
** synchronising. */
static gp_ns sync_within(const struct sweep *s, const struct dev *d, gp_ns x0, gp_ns x1)
{
	gp_ns sum = 0;

	for (size_t i = d->sync_lo; i < s->sync.n && s->sync.v[i] < x1; i += 2) {
		gp_ns a = s->sync.v[i] > x0 ? s->sync.v[i] : x0;
		gp_ns b = s->sync.v[i + 1] < x1 ? s->sync.v[i + 1] : x1;
		if (b > a)
			sum += b - a;
	}
	return sum;
}

/* Why the idle gap [a, b) happened, apart from the CPU's synchronisation,
** from the work next that ends it. */
static int gap_cause(const struct sweep *s, const struct act *next, gp_ns a)
{
	const gp_trace *t = s->t;

	if (next->pageable)
		return GP_IDLE_PAGEABLE;
	if (next->kernel >= 0 && t->attrs) {
		int32_t api = t->attrs[next->kernel].api;
		if (api >= 0 && (size_t)api < t->apis.n && gp_bd_clamp(t->apis.v[api].end) > a)
			return GP_IDLE_HOST_LAUNCH;
	}
	return GP_IDLE_OTHER;
}

/* Adds the idle time of [x0, x1) (part of the gap [a, b)) by cause to
** idle[]: all of it short_gap in a short gap, else the CPU's
** synchronisation in it sync and the rest rest_cause. */
static void split_idle(const struct sweep *s, const struct dev *d, gp_ns x0, gp_ns x1, gp_ns a, gp_ns b,
		       int rest_cause, gp_ns *idle)
{
	gp_ns synced;

	if (b - a < s->o->short_gap_ns) {
		idle[GP_IDLE_SHORT_GAP] += x1 - x0;
		return;
	}
	synced = sync_within(s, d, x0, x1);
	idle[GP_IDLE_SYNC] += synced;
	idle[rest_cause] += x1 - x0 - synced;
}

/* Adds the idle time of [x0, x1) (part of the gap [a, b)) to window w. */
static void add_idle(const struct sweep *s, const struct dev *d, struct gp_bd_window *w, gp_ns x0, gp_ns x1,
		     gp_ns a, gp_ns b, int rest_cause)
{
	w->by_mask[0] += x1 - x0;
	split_idle(s, d, x0, x1, a, b, rest_cause, w->idle);
}

/* Opens the device's iteration windows that start before x (at or before
** x when at_x). */
static void open_windows(struct sweep *s, struct dev *d, gp_ns x, bool at_x)
{
	while (d->it_next < d->it_first + d->it_n &&
	       (s->win.v[d->it_next].start < x || (at_x && s->win.v[d->it_next].start == x)))
		*gp_vec_push(d->open) = d->it_next++;
}

/* Adds segment [a, b) with mask m to the device's windows.  For an idle
** segment (m == 0), [a, b) is the whole gap and next the work ending it. */
static void add_segment(struct sweep *s, struct dev *d, gp_ns a, gp_ns b, unsigned m, const struct act *next)
{
	int cause = m ? 0 : gap_cause(s, next, a);
	struct gp_bd_window *w = &s->win.v[d->all];

	if (m) {
		w->by_mask[m] += b - a;
	} else {
		add_idle(s, d, w, a, b, a, b, cause);
		w->gaps++;
		if (s->o->gap_causes) {
			struct gp_bd_gap_cause *g = gp_vec_push(s->gapc);
			memset(g, 0, sizeof(*g));
			g->device = d->id;
			g->iter = next && next->kernel >= 0 && s->t->attrs ? s->t->attrs[next->kernel].iter : -1;
			g->start = a;
			g->end = b;
			g->next = next ? next->kernel : -1;
			split_idle(s, d, a, b, a, b, cause, g->idle);
		}
	}
	open_windows(s, d, b, false);
	for (size_t j = 0; j < d->open.n;) {
		struct gp_bd_window *iw = &s->win.v[d->open.v[j]];
		gp_ns x0 = a > iw->start ? a : iw->start, x1 = b < iw->end ? b : iw->end;
		if (iw->end <= a) {
			d->open.v[j] = d->open.v[--d->open.n];   /* ended: drop it */
			continue;
		}
		j++;
		if (x1 <= x0)
			continue;
		if (m) {
			iw->by_mask[m] += x1 - x0;
		} else {
			add_idle(s, d, iw, x0, x1, a, b, cause);
			iw->gaps++;
		}
	}
}

/* The cause of most of gap [a, b) of device d, ended by next: a short gap,
** the CPU's synchronisation when it covers half the gap, else what next
** says (gap_cause). */
static uint8_t whole_gap_cause(const struct sweep *s, const struct dev *d, gp_ns a, gp_ns b,
			       const struct act *next)
{
	if (b - a < s->o->short_gap_ns)
		return GP_IDLE_SHORT_GAP;
	return (uint8_t)(2 * sync_within(s, d, a, b) >= b - a ? GP_IDLE_SYNC : gap_cause(s, next, a));
}

/* Keeps gap [a, b) if it is among the device's longest. */
static void keep_gap(struct sweep *s, struct dev *d, gp_ns a, gp_ns b, const struct act *next)
{
	size_t n = s->o->top_gaps, slot = d->ntop;
	const gp_trace *t = s->t;
	int32_t iter = next->kernel >= 0 && t->attrs ? t->attrs[next->kernel].iter : -1;
	struct gp_bd_gap *g;

	if (!n)
		return;
	if (d->ntop == n) {
		slot = 0;
		for (size_t i = 1; i < n; i++)
			if (d->top[i].end - d->top[i].start < d->top[slot].end - d->top[slot].start)
				slot = i;
		if (d->top[slot].end - d->top[slot].start >= b - a)
			return;
	} else {
		d->ntop++;
	}
	g = &d->top[slot];
	g->device = d->id;
	g->start = a;
	g->end = b;
	g->iter = iter;
	g->context = NULL;
	g->cause = whole_gap_cause(s, d, a, b, next);
}

/* Moves the device's clock to x; next is the work starting at x (NULL at
** the end of the trace, when no gap can follow). */
static void advance(struct sweep *s, struct dev *d, gp_ns x, const struct act *next)
{
	while (d->clock < x) {
		unsigned m = 0;
		gp_ns to = x;
		for (int k = 0; k < 3; k++)
			if (d->cover[k] > d->clock) {
				m |= 1u << k;
				if (d->cover[k] < to)
					to = d->cover[k];
			}
		if (!m && !next)
			break;
		if (!m) {
			sync_seek(s, d, d->clock);
			keep_gap(s, d, d->clock, to, next);
		}
		add_segment(s, d, d->clock, to, m, next);
		d->clock = to;
	}
}

static int kind_bit(unsigned kind)
{
	return kind == GP_BD_COMPUTE ? 0 : kind == GP_BD_COMM ? 1 : 2;
}

static void count_in(struct gp_bd_window *w, const struct act *a)
{
	if (a->what == ACT_KERNEL)
		w->kernels++;
	else if (a->what == ACT_COPY)
		w->copies++;
	else
		w->memsets++;
}

/* Counts the activity in the windows where it starts. */
static void count_act(struct sweep *s, struct dev *d, const struct act *a)
{
	count_in(&s->win.v[d->all], a);
	open_windows(s, d, a->start, true);
	for (size_t j = 0; j < d->open.n; j++) {
		struct gp_bd_window *iw = &s->win.v[d->open.v[j]];
		if (iw->start <= a->start && a->start <= iw->end)
			count_in(iw, a);
	}
}


/* ---- launch delay and queue depth ---- */

struct queue {
	GP_VEC(gp_ns) end;     /* ends of kernels launched on the stream, in order */
	size_t head;
	struct gp_bd_depth_bucket *series;   /* [opts.depth_buckets] */
};

struct launches {
	gp_u64map at;          /* (device, stream) -> index */
	GP_VEC(struct gp_bd_stream) st;
	struct queue *q;       /* parallel to st */
	size_t qcap;
	size_t nbuckets;       /* opts.depth_buckets */
	uint8_t *launched;     /* per API call: its launch already counted (a CUDA
			       ** graph launch, or any call with several kernels) */
};

/* Whether kernel k was launched as part of a CUDA graph: it has a graph id
** or node, or its call is a graph launch (cudaGraphLaunch, cuGraphLaunch,
** hipGraphLaunch). */
static bool graph_kernel(const gp_trace *t, const struct gp_kernel *k, int32_t api)
{
	const struct gp_kernel_def *d = gp_kernel_def(t, k);

	return d->graph_id || d->graph_node ||
	       (api >= 0 && strstr(gp_s(t, gp_api_def(t, &t->apis.v[api])->name), "GraphLaunch") != NULL);
}

/* The bucket of the series over window w that time x falls in (times
** outside the window go to the first or last bucket). */
static size_t depth_bucket(const struct gp_bd_window *w, size_t n, gp_ns x)
{
	double span = (double)(w->end - w->start);
	size_t i;

	if (x <= w->start || span <= 0)
		return 0;
	i = (size_t)((double)(x - w->start) / span * (double)n);
	return i < n ? i : n - 1;
}

/* Counts kernel k in its stream's record: a launch (with its delay and the
** queue depth when its call returned) unless its call already launched an
** earlier kernel; w is its device's whole-trace window (the series' span). */
static void launch_kernel(const gp_trace *t, struct launches *l, size_t k, const struct gp_bd_window *w)
{
	const struct gp_kernel *kr = &t->kernels.v[k];
	int32_t device = gp_kernel_device(t, kr);
	uint64_t key = (uint64_t)(uint32_t)device << 32 | kr->stream;
	int32_t i = gp_u64map_add(&l->at, key, (int32_t)l->st.n), api;
	struct gp_bd_stream *st;
	struct queue *q;
	gp_ns ret;

	if ((size_t)i == l->st.n) {
		st = gp_vec_push(l->st);
		memset(st, 0, sizeof(*st));
		st->device = device;
		st->stream = kr->stream;
		if (l->st.n > l->qcap) {
			l->qcap = l->st.cap;
			l->q = gp_xrealloc(l->q, l->qcap * sizeof(*l->q));
		}
		memset(&l->q[i], 0, sizeof(l->q[i]));
		if (l->nbuckets) {
			l->q[i].series = gp_xmalloc(l->nbuckets * sizeof(*l->q[i].series));
			for (size_t b = 0; b < l->nbuckets; b++)
				l->q[i].series[b] = (struct gp_bd_depth_bucket){
					w->start + (gp_ns)((double)(w->end - w->start) * (double)b / (double)l->nbuckets),
					0, -1};
		}
	}
	st = &l->st.v[i];
	q = &l->q[i];
	st->kernels++;
	api = t->attrs ? t->attrs[k].api : -1;
	if (api >= 0 && (size_t)api < t->apis.n && !l->launched[api]) {
		int64_t depth;
		ret = gp_bd_clamp(t->apis.v[api].end);
		l->launched[api] = 1;
		/* the queue: kernels before it on the stream not finished when its launch returned */
		while (q->head < q->end.n && q->end.v[q->head] <= ret)
			q->head++;
		depth = (int64_t)(q->end.n - q->head);
		gp_hist_add(&st->depth, depth);
		if (q->series) {
			struct gp_bd_depth_bucket *b = &q->series[depth_bucket(w, l->nbuckets, ret)];
			b->launches++;
			if (depth > b->max_depth)
				b->max_depth = depth;
		}
		st->launches++;
		if (graph_kernel(t, kr, api))
			st->graph_launches++;
		if (gp_bd_clamp(kr->start) < ret)
			st->early++;
		gp_hist_add(&st->delay, gp_bd_clamp(kr->start) - ret);
	}
	if (q->head > 1024 && q->head * 2 > q->end.n) {
		memmove(q->end.v, q->end.v + q->head, (q->end.n - q->head) * sizeof(*q->end.v));
		q->end.n -= q->head;
		q->head = 0;
	}
	*gp_vec_push(q->end) = end_of(gp_bd_clamp(kr->start), kr->end);
}

static int cmp_stream(const void *pa, const void *pb)
{
	const struct gp_bd_stream *a = pa, *b = pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	return (a->stream > b->stream) - (a->stream < b->stream);
}

/* ---- CPU context of the longest gaps ---- */

static bool context_kind(uint8_t kind)
{
	return kind != GP_RANGE_MARK && kind != GP_RANGE_GPU_ANNOTATION;
}

static int cmp_gap_len(const void *pa, const void *pb)
{
	const struct gp_bd_gap *a = pa, *b = pb;
	gp_ns la = a->end - a->start, lb = b->end - b->start;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	if (la != lb)
		return la > lb ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

static int cmp_gap_cause(const void *pa, const void *pb)
{
	const struct gp_bd_gap_cause *a = pa, *b = pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

/* The name a gap's context shows for range r, as `gpuprof ranges` shows
** it: an NVTX marker its short label (gp_marker_label: a PyProf dict
** marker "torch.nn.functional.linear", an emit_nvtx range "aten::mm"),
** other ranges their text.  The label is made in a scratch trace, t being
** read only.  Returns a new string. */
static char *range_label(const gp_trace *t, const struct gp_range *r)
{
	const char *text = gp_s(t, r->text);
	char *out;

	if (r->kind != GP_RANGE_PUSHPOP && r->kind != GP_RANGE_STARTEND)
		return gp_xstrdup(text);
	gp_trace scratch;
	bool per_op;
	gp_trace_init(&scratch);
	gp_str label = gp_marker_label(&scratch, text, strlen(text), &per_op);
	out = gp_xstrdup(label ? gp_s(&scratch, label) : text);
	gp_trace_free(&scratch);
	return out;
}

void gp_bd_gap_contexts(const gp_trace *t, struct gp_bd_gap *g, size_t n)
{
	int32_t *best = gp_xmalloc((n ? n : 1) * sizeof(*best));

	for (size_t i = 0; i < n; i++)
		best[i] = -1;
	for (size_t r = 0; r < t->ranges.n; r++) {
		const struct gp_range *rg = &t->ranges.v[r];
		if (!context_kind(rg->kind) || rg->end <= rg->start)
			continue;
		for (size_t i = 0; i < n; i++) {
			gp_ns mid = g[i].start + (g[i].end - g[i].start) / 2;
			if (rg->start <= mid && mid < rg->end &&
			    (best[i] < 0 || rg->depth >= t->ranges.v[best[i]].depth))
				best[i] = (int32_t)r;
		}
	}
	for (size_t i = 0; i < n; i++) {
		char *part[4];
		int np = 0;
		size_t len = 1;
		for (int32_t r = best[i]; r >= 0 && np < 4; r = t->ranges.v[r].parent) {
			part[np++] = range_label(t, &t->ranges.v[r]);
			len += strlen(part[np - 1]) + 3;
		}
		if (!np)
			continue;
		g[i].context = gp_xmalloc(len + 4);
		g[i].context[0] = 0;
		if (best[i] >= 0 && t->ranges.v[best[i]].depth >= 4)
			strcat(g[i].context, "... ");
		for (int j = np - 1; j >= 0; j--) {
			strcat(g[i].context, part[j]);
			if (j)
				strcat(g[i].context, " > ");
			free(part[j]);
		}
	}
	free(best);
}

int gp_breakdown_run(const gp_trace *t, const struct gp_breakdown_opts *o, gp_breakdown *b,
		     gp_error *err)
{
	struct sweep s = {.t = t, .o = o};
	struct launches l = {0};
	size_t ik = 0, ic = 0, is = 0, ng = 0;
	struct act a;

	memset(b, 0, sizeof(*b));
	if (o->short_gap_ns < 0)
		return gp_err(err, GP_ERR_USAGE, "breakdown: the short-gap threshold must not be negative");
	if (o->depth_buckets > GP_BD_MAX_BUCKETS)
		return gp_err(err, GP_ERR_USAGE, "breakdown: at most %d queue depth buckets", GP_BD_MAX_BUCKETS);
	if (o->hta)
		gp_bd_hta_begin(&s.hta, t);
	make_windows(&s);
	make_sync_union(&s);
	for (size_t i = 0; i < s.ndev; i++)
		s.dev[i].top = gp_xcalloc(o->top_gaps ? o->top_gaps : 1, sizeof(struct gp_bd_gap));
	l.launched = gp_xcalloc(t->apis.n ? t->apis.n : 1, 1);
	l.nbuckets = o->depth_buckets;
	while (act_next(&s, &ik, &ic, &is, &a)) {
		struct dev *d = dev_of(&s, a.device);
		if (a.kernel >= 0 && gp_kernel_is_comm(t, &t->kernels.v[a.kernel]))
			a.kind = GP_BD_COMM;
		if (!d->started) {
			d->started = true;
			d->clock = a.start;
		} else {
			advance(&s, d, a.start, &a);
		}
		count_act(&s, d, &a);
		if (a.end > d->cover[kind_bit(a.kind)])
			d->cover[kind_bit(a.kind)] = a.end;
		if (a.kernel >= 0)
			launch_kernel(t, &l, (size_t)a.kernel, &s.win.v[d->all]);
		if (o->hta)
			gp_bd_hta_add(&s.hta, a.device, a.stream, a.start, a.hta_end, a.launch, a.kind);
	}
	for (size_t i = 0; i < s.ndev; i++) {
		struct dev *d = &s.dev[i];
		gp_ns last = d->cover[0];
		for (int k = 1; k < 3; k++)
			if (d->cover[k] > last)
				last = d->cover[k];
		advance(&s, d, last, NULL);
		ng += d->ntop;
		gp_vec_free(d->open);
	}

	b->short_gap_ns = o->short_gap_ns;
	b->win = s.win.v;
	b->nwin = s.win.n;
	gp_vec_sort(l.st, cmp_stream);
	b->streams = l.st.v;
	b->nstreams = l.st.n;
	b->depth_buckets = l.nbuckets;
	if (l.nbuckets) {
		b->depth = gp_xmalloc((l.st.n ? l.st.n : 1) * l.nbuckets * sizeof(*b->depth));
		for (size_t i = 0; i < l.st.n; i++) {
			uint64_t key = (uint64_t)(uint32_t)l.st.v[i].device << 32 | l.st.v[i].stream;
			memcpy(b->depth + i * l.nbuckets, l.q[gp_u64map_get(&l.at, key)].series,
			       l.nbuckets * sizeof(*b->depth));
		}
	}
	b->gaps = gp_xcalloc(ng ? ng : 1, sizeof(*b->gaps));
	for (size_t i = 0; i < s.ndev; i++) {
		memcpy(b->gaps + b->ngaps, s.dev[i].top, s.dev[i].ntop * sizeof(*b->gaps));
		b->ngaps += s.dev[i].ntop;
		free(s.dev[i].top);
	}
	gp_sort(b->gaps, b->ngaps, sizeof(*b->gaps), cmp_gap_len);
	gp_bd_gap_contexts(t, b->gaps, b->ngaps);
	gp_vec_sort(s.gapc, cmp_gap_cause);
	b->gap_causes = s.gapc.v;
	b->ngap_causes = s.gapc.n;
	if (o->hta) {
		gp_bd_hta_finish(&s.hta, b, s.ndev);
		gp_bd_hta_free(&s.hta);
	}

	for (size_t i = 0; i < l.st.n; i++) {
		gp_vec_free(l.q[i].end);
		free(l.q[i].series);
	}
	free(l.q);
	free(l.launched);
	gp_u64map_free(&l.at);
	gp_vec_free(s.sync);
	free(s.dev);
	return 0;
}

void gp_breakdown_free(gp_breakdown *b)
{
	for (size_t i = 0; i < b->ngaps; i++)
		free(b->gaps[i].context);
	free(b->gaps);
	free(b->win);
	free(b->streams);
	free(b->hta);
	free(b->hta_dev);
	free(b->depth);
	free(b->gap_causes);
	memset(b, 0, sizeof(*b));
}
