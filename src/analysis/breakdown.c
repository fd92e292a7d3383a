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

gp_ns gp_bd_comm_hidden(const struct gp_bd_window *w)
{
	return w->by_mask[GP_BD_COMPUTE | GP_BD_COMM] + w->by_mask[GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY];
}

/* The time view's fixed parts, in `breakdown`'s order. */
static const char *const part_names[GP_BD_PARTS] = {
	"span", "busy", "compute", "communication", "memory", "overlap", "idle", "comm_hidden", "comm_exposed",
};

const char *gp_bd_part_name(int p)
{
	return p >= 0 && p < GP_BD_PARTS ? part_names[p] : NULL;
}

gp_ns gp_bd_part_time(const struct gp_bd_window *w, int p)
{
	switch (p) {
	case GP_BD_PART_SPAN:
		return w->end - w->start;
	case GP_BD_PART_BUSY:
		return gp_bd_busy(w);
	case GP_BD_PART_COMPUTE:
		return gp_bd_kind_time(w, GP_BD_COMPUTE);
	case GP_BD_PART_COMM:
		return gp_bd_kind_time(w, GP_BD_COMM);
	case GP_BD_PART_MEMORY:
		return gp_bd_kind_time(w, GP_BD_MEMORY);
	case GP_BD_PART_OVERLAP:
		return gp_bd_overlap(w);
	case GP_BD_PART_IDLE:
		return w->by_mask[0];
	case GP_BD_PART_COMM_HIDDEN:
		return gp_bd_comm_hidden(w);
	case GP_BD_PART_COMM_EXPOSED:
		return gp_bd_kind_time(w, GP_BD_COMM) - gp_bd_comm_hidden(w);
	}
	return 0;
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

int32_t gp_bd_step_of(const gp_breakdown *b, int32_t device, gp_ns start, gp_ns end, int32_t *before,
		      int32_t *after)
{
	gp_ns before_end = INT64_MIN, after_start = INT64_MAX;

	*before = *after = -1;
	for (size_t i = 0; i < b->nwin; i++) {
		const struct gp_bd_window *w = &b->win[i];
		if (w->device != device || w->iter < 0)
			continue;
		if (w->start <= start && end <= w->end)
			return w->iter;
		if (w->end <= start && w->end > before_end) {
			before_end = w->end;
			*before = w->iter;
		}
		if (w->start >= end && w->start < after_start) {
			after_start = w->start;
			*after = w->iter;
		}
	}
	return -1;
}

gp_ns gp_bd_gap_idle(const gp_breakdown *b, const struct gp_bd_gap_cause *g, int c)
{
	for (uint8_t k = 0; k < g->nparts; k++)
		if (b->gap_part_cause[g->part + k] == c)
			return b->gap_part_ns[g->part + k];
	return 0;
}

int gp_bd_gap_main_cause(const gp_breakdown *b, const struct gp_bd_gap_cause *g)
{
	gp_ns idle[GP_IDLE__COUNT] = {0};
	int best = 0;

	for (uint8_t k = 0; k < g->nparts; k++)
		idle[b->gap_part_cause[g->part + k]] = b->gap_part_ns[g->part + k];
	for (int c = 1; c < GP_IDLE__COUNT; c++)
		if (idle[c] > idle[best])
			best = c;
	return best;
}


/* ---- the sweep ---- */

enum { ACT_KERNEL, ACT_COPY, ACT_MEMSET, ACT_WINDOW_WORK };

/* One GPU activity as the merge sees it. */
struct act {
	gp_ns start, end;
	int32_t device;
	unsigned kind;
	int32_t kernel;        /* index into t->kernels, -1 = a copy or memset */
	int32_t unit;          /* deps.h's numbering: kernels, then copies, then memsets */
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
	struct gp_bd_gap *top; /* [opts.top_gaps], ntop used */
	size_t ntop;
};

struct sweep {
	const gp_trace *t;
	const struct gp_breakdown_opts *o;
	GP_VEC(struct gp_bd_window) win;
	struct dev *dev;
	size_t ndev;
	gp_piece_vec pieces;   /* the current gap's causes (gap_pieces) */
	GP_VEC(struct gp_bd_gap_cause) gapc;   /* opts.gap_causes */
	GP_VEC(gp_ns) part_ns;                 /* the gaps' time by cause (gp_bd_gap_cause.part) */
	GP_VEC(uint8_t) part_cause;
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

/* Where a sweep is in the trace's kernels, copies, memsets and window
** work (each sorted by start). */
struct cursor {
	size_t k, c, m, w;
};

/* The first not yet taken of kernels, memcpys, memsets and window work by
** start into *a, advancing its index; false when all are taken. */
static bool merge_next(const gp_trace *t, struct cursor *cur, struct act *a)
{
	size_t *ik = &cur->k, *ic = &cur->c, *is = &cur->m;
	gp_ns sk = *ik < t->kernels.n ? t->kernels.v[*ik].start : INT64_MAX;
	gp_ns sc = *ic < t->memcpys.n ? t->memcpys.v[*ic].start : INT64_MAX;
	gp_ns ss = *is < t->memsets.n ? t->memsets.v[*is].start : INT64_MAX;
	gp_ns sw = cur->w < t->window_work.n ? t->window_work.v[cur->w].start : INT64_MAX;

	if (cur->w < t->window_work.n && sw < sk && sw < sc && sw < ss) {
		const struct gp_window_work *x = &t->window_work.v[cur->w++];
		/* a unit of the dependency graph after the memsets (deps.h) */
		size_t u = t->kernels.n + t->memcpys.n + t->memsets.n + (size_t)(x - t->window_work.v);
		*a = (struct act){gp_bd_clamp(x->start), end_of(gp_bd_clamp(x->start), x->end), x->device,
				  x->comm ? GP_BD_COMM : GP_BD_COMPUTE, -1, (int32_t)u, ACT_WINDOW_WORK, false, x->stream,
				  0, 0, 0};
		return true;
	}
	if (*ik < t->kernels.n && sk <= sc && sk <= ss) {
		const struct gp_kernel *k = &t->kernels.v[*ik];
		*a = (struct act){gp_bd_clamp(k->start), end_of(gp_bd_clamp(k->start), k->end), gp_kernel_device(t, k), GP_BD_COMPUTE,
				  (int32_t)*ik, (int32_t)*ik, ACT_KERNEL, false, k->stream, k->corr, 0, 0};
		(*ik)++;
		return true;
	}
	if (*ic < t->memcpys.n && sc <= ss) {
		const struct gp_memcpy *c = &t->memcpys.v[*ic];
		*a = (struct act){gp_bd_clamp(c->start), end_of(gp_bd_clamp(c->start), c->end), c->device, GP_BD_MEMORY, -1,
				  (int32_t)(t->kernels.n + *ic), ACT_COPY,
				  c->src_kind == GP_MEM_PAGEABLE || c->dst_kind == GP_MEM_PAGEABLE, c->stream, c->corr, 0, 0};
		(*ic)++;
		return true;
	}
	if (*is < t->memsets.n) {
		const struct gp_memset *m = &t->memsets.v[*is];
		*a = (struct act){gp_bd_clamp(m->start), end_of(gp_bd_clamp(m->start), m->end), m->device, GP_BD_MEMORY, -1,
				  (int32_t)(t->kernels.n + t->memcpys.n + *is), ACT_MEMSET, false, m->stream, m->corr, 0, 0};
		(*is)++;
		return true;
	}
	return false;
}

/* The next activity in start order into *a, clipped to the window the
** trace was cut to (what runs in it counts, the rest not); false after the
** last.  With one_timeline every device is device -1. */
static bool act_next(const struct sweep *s, struct cursor *cur, struct act *a)
{
	const struct gp_breakdown_opts *o = s->o;
	const gp_trace *t = s->t;
	bool clip = t->windowed;

	for (;;) {
		if (!merge_next(s->t, cur, a))
			return false;
		if (o->hta && !gp_bd_hta_keep(&s->hta, a->kernel, a->corr, &a->launch))
			continue;
		if (!clip)
			break;
		if (a->start < t->window_lo)
			a->start = t->window_lo;
		if (a->end > t->window_hi)
			a->end = t->window_hi;
		if (a->end > a->start || (a->end == a->start && a->start >= t->window_lo && a->start <= t->window_hi))
			break;
	}
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
	struct cursor cur = {0};
	struct act a;

	while (act_next(s, &cur, &a)) {
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

/* The causes of gap [a, b) that unit u ends, into s->pieces (deps.h and
** critpath.h: the walk back from u's start): all of it unknown without a
** dependency graph. */
static void gap_pieces(struct sweep *s, int32_t u, gp_ns a, gp_ns b)
{
	s->pieces.n = 0;
	if (s->o->deps && u >= 0)
		gp_gap_pieces(s->o->deps, (size_t)u, a, &s->pieces);
	if (!s->pieces.n)
		*gp_vec_push(s->pieces) = (struct gp_piece){.start = a, .end = b, .cause = GP_CAUSE_UNKNOWN,
							    .of = GP_PIECE_UNIT, .idx = u};
}

/* Adds the idle time of [x0, x1), part of the gap whose pieces are in
** s->pieces, to window w: its total and its time by cause. */
static void add_idle(const struct sweep *s, struct gp_bd_window *w, gp_ns x0, gp_ns x1)
{
	w->by_mask[0] += x1 - x0;
	for (size_t i = 0; i < s->pieces.n; i++) {
		const struct gp_piece *p = &s->pieces.v[i];
		gp_ns lo = p->start > x0 ? p->start : x0, hi = p->end < x1 ? p->end : x1;
		if (hi > lo)
			w->idle[p->cause] += hi - lo;
	}
}

/* Opens the device's iteration windows that start before x (at or before
** x when at_x). */
static void open_windows(struct sweep *s, struct dev *d, gp_ns x, bool at_x)
{
	while (d->it_next < d->it_first + d->it_n &&
	       (s->win.v[d->it_next].start < x || (at_x && s->win.v[d->it_next].start == x)))
		*gp_vec_push(d->open) = d->it_next++;
}

/* Appends gap [a, b) of device d, which next ends, to s->gapc with its
** time by cause (s->pieces) to s->part_*: only the causes with time. */
static void keep_gap_causes(struct sweep *s, const struct dev *d, gp_ns a, gp_ns b, const struct act *next)
{
	struct gp_bd_gap_cause *g = gp_vec_push(s->gapc);
	gp_ns idle[GP_IDLE__COUNT] = {0};

	memset(g, 0, sizeof(*g));
	g->device = d->id;
	g->iter = next && next->kernel >= 0 && s->t->attrs ? s->t->attrs[next->kernel].iter : -1;
	g->start = a;
	g->end = b;
	g->next = next ? next->kernel : -1;
	g->unit = next ? next->unit : -1;
	g->part = s->part_ns.n;
	for (size_t i = 0; i < s->pieces.n; i++)
		idle[s->pieces.v[i].cause] += s->pieces.v[i].end - s->pieces.v[i].start;
	for (int c = 0; c < GP_IDLE__COUNT; c++)
		if (idle[c]) {
			*gp_vec_push(s->part_ns) = idle[c];
			*gp_vec_push(s->part_cause) = (uint8_t)c;
			g->nparts++;
		}
}

/* Adds segment [a, b) with mask m to the device's windows.  For an idle
** segment (m == 0), [a, b) is the whole gap and next the work ending it,
** and s->pieces holds its causes. */
static void add_segment(struct sweep *s, struct dev *d, gp_ns a, gp_ns b, unsigned m, const struct act *next)
{
	struct gp_bd_window *w = &s->win.v[d->all];

	if (m) {
		w->by_mask[m] += b - a;
	} else {
		add_idle(s, w, a, b);
		w->gaps++;
		if (s->o->gap_causes)
			keep_gap_causes(s, d, a, b, next);
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
			add_idle(s, iw, x0, x1);
			iw->gaps++;
		}
	}
}

/* The cause of most of the current gap (s->pieces). */
static uint8_t main_piece_cause(const struct sweep *s)
{
	gp_ns by[GP_CAUSE__COUNT] = {0};
	int best = GP_CAUSE_UNKNOWN;

	for (size_t i = 0; i < s->pieces.n; i++)
		by[s->pieces.v[i].cause] += s->pieces.v[i].end - s->pieces.v[i].start;
	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		if (by[c] > by[best])
			best = c;
	return (uint8_t)best;
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
	g->unit = next->unit;
	g->context = NULL;
	g->cause = main_piece_cause(s);
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
			gap_pieces(s, next->unit, d->clock, to);
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
	else if (a->what == ACT_MEMSET)
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
		if (gp_kernel_graph_launched(t, kr, api))
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

/* ---- the longest gaps ---- */

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

/* Sets each kept gap's context: what held the work that ended it. */
static void gap_contexts(struct sweep *s, struct gp_bd_gap *g, size_t n)
{
	char buf[1024];

	if (!s->o->deps)
		return;
	for (size_t i = 0; i < n; i++)
		if (*gp_gap_story(s->o->deps, g[i].unit, g[i].start, g[i].end, buf, sizeof(buf)))
			g[i].context = gp_xstrdup(buf);
}

int gp_breakdown_run(const gp_trace *t, const struct gp_breakdown_opts *o, gp_breakdown *b,
		     gp_error *err)
{
	struct sweep s = {.t = t, .o = o};
	struct launches l = {0};
	struct cursor cur = {0};
	size_t ng = 0;
	struct act a;

	memset(b, 0, sizeof(*b));
	if (o->depth_buckets > GP_BD_MAX_BUCKETS)
		return gp_err(err, GP_ERR_USAGE, "breakdown: at most %d queue depth buckets", GP_BD_MAX_BUCKETS);
	if (o->hta)
		gp_bd_hta_begin(&s.hta, t);
	make_windows(&s);
	for (size_t i = 0; i < s.ndev; i++)
		s.dev[i].top = gp_xcalloc(o->top_gaps ? o->top_gaps : 1, sizeof(struct gp_bd_gap));
	l.launched = gp_xcalloc(t->apis.n ? t->apis.n : 1, 1);
	l.nbuckets = o->depth_buckets;
	while (act_next(&s, &cur, &a)) {
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
	gap_contexts(&s, b->gaps, b->ngaps);
	gp_vec_sort(s.gapc, cmp_gap_cause);
	b->gap_causes = s.gapc.v;
	b->ngap_causes = s.gapc.n;
	b->gap_part_ns = s.part_ns.v;
	b->gap_part_cause = s.part_cause.v;
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
	gp_vec_free(s.pieces);
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
	free(b->gap_part_ns);
	free(b->gap_part_cause);
	memset(b, 0, sizeof(*b));
}
