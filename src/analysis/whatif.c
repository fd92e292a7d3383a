/*
** What-if: the trace re-timed on its dependency graph (whatif.h,
** docs/dependencies.md).
**
** One pass over the trace's points in recorded time order, which is a
** topological order of the graph (every edge points forward in recorded
** time): GPU work starts (each takes the latest of what its launch call,
** its stream and its event waits allow), the ends of calls that wait for
** GPU work (each moves its thread by how much later or earlier it now
** returns) and the ends of CPU time the change removes (each moves its
** thread back by its length).  A thread's new clock is its recorded time
** plus the shift of the last of these before it, less the removed time
** between that point and the moment asked: a moment inside removed time
** (a launch issued from it) comes right after what was kept before it, so
** removing more time never makes anything later.
*/
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/whatif.h"
#include "util/alloc.h"
#include "util/sort.h"
#include "util/stats.h"

/* Fallbacks when a trace has no binding sample of a latency, in ns: what
** the CUDA runtime typically takes (docs/dependencies.md). */
#define TYP_LAUNCH_NS 5000
#define TYP_GAP_NS 1000
#define TYP_HOLD_NS 10000   /* a stream gap beyond it is a hold the trace does not name */
#define TYP_SYNC_RETURN_NS 5000
#define TYP_SYNC_OWN_NS 3000
#define TYP_ASYNC_COPY_CALL_NS 10000

/* The kinds of a run's points; at one time they come in this order. */
enum { EV_REMOVE_END, EV_SYNC_END, EV_RESUME, EV_UNIT_START, EV__COUNT };

/* A thread's shifts: from recorded time at on, its clock reads `shift`
** later (negative: earlier). */
struct bp {
	gp_ns at, shift;
};

struct thread {
	uint32_t pid, tid;
	GP_VEC(struct bp) bps;
	size_t rm_lo, rm_hi;   /* its removed stretches: r->removed[rm_lo..rm_hi) */
};

struct removed {
	gp_ns start, end;
	uint32_t thread;
};

/* A thread resuming at b after waiting since a (idle, or blocked in a
** call waiting for other threads) for the thread that went idle at e
** (waker; or, with no waker, the main thread at b). */
struct resume {
	gp_ns a, b, e;
	uint32_t thread, waker;
	bool has_waker;
};

typedef GP_VEC(gp_ns) ns_vec;

struct gp_replay {
	gp_deps *d;
	const struct gp_whatif_spec *spec;   /* of the run in progress */
	struct gp_cp_scope sc;
	struct gp_cp_window *win;   /* the scope's windows */
	size_t nwin;
	uint32_t main_th;           /* the main thread's index in th */
	gp_ns *new_start, *new_end; /* [units]: of the last run */
	GP_VEC(struct thread) th;
	gp_u64map th_at;            /* (pid, tid) -> thread */
	gp_u64map stream_at;        /* (device, stream) -> typical index */
	gp_u64map staged_of;        /* the call of a staged copy that returned before
				    ** the copy ended -> the copy (deps.h) */
	GP_VEC(gp_ns) typ_launch, typ_gap;   /* per stream */
	gp_ns typ_ret, typ_own, typ_async;
	GP_VEC(struct removed) removed;      /* of the run in progress */
	GP_VEC(struct resume) resumes;
	/* per kind (EV_*), the indices of its points (removed segment, API
	** call, resume, unit) in time order, then by index: a run walks the
	** four merged, its points in (time, kind, index) order; the removals'
	** are the run's, the others fixed */
	GP_VEC(uint32_t) ev[EV__COUNT];
};

static int cmp_ns(const void *pa, const void *pb)
{
	gp_ns a = *(const gp_ns *)pa, b = *(const gp_ns *)pb;

	return a < b ? -1 : a > b;
}

/* The median of v (sorted in place), or fallback when empty. */
static gp_ns median(ns_vec *v, gp_ns fallback)
{
	if (!v->n)
		return fallback;
	gp_sort(v->v, v->n, sizeof(*v->v), cmp_ns);
	return v->v[v->n / 2];
}

static uint32_t thread_of(struct gp_replay *r, uint32_t pid, uint32_t tid)
{
	uint64_t key = (uint64_t)pid << 32 | tid;
	int32_t i = gp_u64map_add(&r->th_at, key, (int32_t)r->th.n);

	if ((size_t)i == r->th.n) {
		struct thread *t = gp_vec_push(r->th);
		memset(t, 0, sizeof(*t));
		t->pid = pid;
		t->tid = tid;
	}
	return (uint32_t)i;
}

/* The removed stretch of thread th that recorded time x lies in (after
** its start, up to its end), or NULL. */
static const struct removed *removed_at(const struct gp_replay *r, uint32_t th, gp_ns x)
{
	const struct thread *t = &r->th.v[th];
	size_t lo = t->rm_lo, hi = t->rm_hi;

	while (lo < hi) {   /* the first stretch ending at or after x */
		size_t mid = lo + (hi - lo) / 2;
		if (r->removed.v[mid].end < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->rm_hi && r->removed.v[lo].start < x ? &r->removed.v[lo] : NULL;
}

/* Thread th's new clock at recorded time x: the shift of its last point at
** or before x, less the removed time since that point when x lies inside
** a removed stretch (that stretch's own point, at its end, may not have
** come yet; a stretch that ended before x has its point before x). */
static gp_ns new_time(const struct gp_replay *r, uint32_t th, gp_ns x)
{
	const struct thread *t = &r->th.v[th];
	size_t lo = 0, hi = t->bps.n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->bps.v[mid].at <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	gp_ns at = lo ? t->bps.v[lo - 1].at : INT64_MIN, shift = lo ? t->bps.v[lo - 1].shift : 0;
	const struct removed *in = removed_at(r, th, x);
	if (in)
		shift -= x - (in->start > at ? in->start : at);
	return x + shift;
}

static void set_shift(struct gp_replay *r, uint32_t th, gp_ns at, gp_ns shift)
{
	*gp_vec_push(r->th.v[th].bps) = (struct bp){at, shift};
}

/* The cause of launch call c's own time when it is not the cost of
** issuing work (a launch that loaded its module: module_load), else
** GP_CAUSE__COUNT: no removal of a cause shortens that call. */
static enum gp_cause launch_own_cause(gp_deps *d, int32_t c)
{
	enum gp_cause cc = gp_cpu_cause(d, (uint32_t)c | GP_CPU_API, -1);

	return cc == GP_CAUSE_CPU_OP ? GP_CAUSE__COUNT : cc;
}

/* The typical launch latency and back-to-back gap of each stream, and the
** typical sync latencies: from the edges that bound their work (not the
** copies their calls stage: the host's pace holds those; nor the
** launches that loaded their modules). */
static void learn_typicals(struct gp_replay *r)
{
	gp_deps *d = r->d;
	const gp_trace *t = d->t;
	GP_VEC(ns_vec) launch = {0}, gap = {0};
	ns_vec ret = {0}, own = {0}, async = {0};

	for (size_t u = 0; u < d->n; u++) {
		uint64_t key = (uint64_t)(uint32_t)gp_unit_device(t, u) << 32 | gp_unit_stream(t, u);
		int32_t k = gp_u64map_add(&r->stream_at, key, (int32_t)launch.n), from;
		gp_ns ready, s = gp_unit_start(t, u);
		if ((size_t)k == launch.n) {
			memset(gp_vec_push(launch), 0, sizeof(ns_vec));
			memset(gp_vec_push(gap), 0, sizeof(ns_vec));
		}
		enum gp_edge e = gp_deps_binding(d, u, &from, &ready);
		if (gp_deps_staged_copy(d, u))
			continue;   /* held by the host staging it, not the GPU's latency */
		/* a launch that loaded its module (module_load's time, on the
		** CPU or the GPU side) is no typical launch, nor is the gap
		** before its kernel a typical gap (on a stream of few units it
		** would be the only sample: perfsandbox's 1.766 ms) */
		if (gp_unit_loads_module(d, u))
			continue;
		if (e == GP_EDGE_LAUNCH && s >= t->apis.v[from].start &&
		    launch_own_cause(d, from) != GP_CAUSE_MODULE_LOAD)
			*gp_vec_push(launch.v[k]) = s - t->apis.v[from].start;
		else if (e == GP_EDGE_STREAM && s >= ready)
			*gp_vec_push(gap.v[k]) = s - ready;
	}
	for (size_t k = 0; k < launch.n; k++) {
		*gp_vec_push(r->typ_launch) = median(&launch.v[k], TYP_LAUNCH_NS);
		*gp_vec_push(r->typ_gap) = median(&gap.v[k], TYP_GAP_NS);
		gp_vec_free(launch.v[k]);
		gp_vec_free(gap.v[k]);
	}
	gp_vec_free(launch);
	gp_vec_free(gap);

	for (size_t i = 0; i < d->synced.cap; i++) {
		if (d->synced.vals[i] < 0)
			continue;
		const struct gp_api *c = &t->apis.v[d->synced.keys[i]];
		gp_ns ue = gp_unit_end(t, (size_t)d->synced.vals[i]);
		if (ue > c->start)
			*gp_vec_push(ret) = c->end > ue ? c->end - ue : 0;
		else
			*gp_vec_push(own) = c->end - c->start;
	}
	for (size_t u = t->kernels.n; u < d->n; u++) {
		int32_t c = d->call[u];
		if (c >= 0 && gp_unit_kind(t, u) != GP_UNIT_KERNEL && gp_deps_synced_of(d, (size_t)c) < 0 &&
		    !gp_deps_staged_copy(d, u))
			*gp_vec_push(async) = t->apis.v[c].end - t->apis.v[c].start;
	}
	r->typ_ret = median(&ret, TYP_SYNC_RETURN_NS);
	r->typ_own = median(&own, TYP_SYNC_OWN_NS);
	r->typ_async = median(&async, TYP_ASYNC_COPY_CALL_NS);
	gp_vec_free(ret);
	gp_vec_free(own);
	gp_vec_free(async);
}

static gp_ns min_ns(gp_ns a, gp_ns b)
{
	return a < b ? a : b;
}

static gp_ns max_ns(gp_ns a, gp_ns b)
{
	return a > b ? a : b;
}

/* The CPU time spec removes: every stretch of a thread that launches work
** whose cause is in spec->remove_cpu. */
struct removed_sweep {
	struct gp_replay *r;
	uint32_t thread;
	struct gp_cpu_mark prev;
	bool have;
};

static bool take_removed(void *ctx, const struct gp_cpu_mark *m)
{
	struct removed_sweep *s = ctx;
	struct gp_replay *r = s->r;

	if (s->have && (r->spec->remove_cpu & (1u << gp_cpu_cause_at(r->d, s->prev.who, s->prev.range, r->th.v[s->thread].pid,
								      r->th.v[s->thread].tid, s->prev.at)))) {
		struct removed *x = r->removed.n ? &r->removed.v[r->removed.n - 1] : NULL;
		if (x && x->thread == s->thread && x->end == s->prev.at)
			x->end = m->at;
		else
			*gp_vec_push(r->removed) = (struct removed){s->prev.at, m->at, s->thread};
	}
	s->prev = *m;
	s->have = true;
	return true;
}

static void find_removed(struct gp_replay *r)
{
	gp_deps *d = r->d;
	const gp_trace *t = d->t;

	if (!r->spec->remove_cpu)
		return;
	for (size_t i = 0; i < t->apis.n; i++)
		thread_of(r, t->apis.v[i].pid, t->apis.v[i].tid);
	for (size_t th = 0; th < r->th.n; th++) {
		struct removed_sweep s = {.r = r, .thread = (uint32_t)th};
		r->th.v[th].rm_lo = r->removed.n;
		gp_cpu_sweep(d, gp_deps_view(d, r->th.v[th].pid, r->th.v[th].tid), take_removed, &s);
		r->th.v[th].rm_hi = r->removed.n;
	}
}

/* Where threads of process pid wait for each other (deps.h's handoffs):
** each idle stretch of a thread, and each blocking call, ends when another
** thread hands it work. */
struct resume_sweep {
	struct gp_replay *r;
	uint32_t pid, tid, thread, main;
	struct gp_cpu_mark prev;
	bool have;
};

static bool take_resume(void *ctx, const struct gp_cpu_mark *m)
{
	struct resume_sweep *s = ctx;
	struct gp_replay *r = s->r;
	struct resume x = {.thread = s->thread};
	uint32_t wt;

	if ((!s->have || gp_cpu_idle(&s->prev)) && !gp_cpu_idle(m)) {
		x.a = s->have ? s->prev.at : INT64_MIN;
		x.b = m->at;
		x.has_waker = gp_deps_waker(r->d, s->pid, s->tid, x.a, x.b, &wt, &x.e);
		if (x.has_waker) {
			x.waker = thread_of(r, s->pid, wt);
			*gp_vec_push(r->resumes) = x;
		} else if (s->tid != s->main && s->main) {
			x.waker = thread_of(r, s->pid, s->main);
			*gp_vec_push(r->resumes) = x;
		}
	}
	s->prev = *m;
	s->have = true;
	return true;
}

static void find_resumes(struct gp_replay *r, uint32_t pid)
{
	gp_deps *d = r->d;
	const gp_trace *t = d->t;
	uint32_t mt = gp_critpath_main_thread(d, pid);

	for (size_t i = 0; i < t->threads.n; i++) {
		const struct gp_thread *th = &t->threads.v[i];
		if (th->pid != pid)
			continue;
		struct resume_sweep s = {.r = r, .pid = pid, .tid = th->tid, .main = mt,
					 .thread = thread_of(r, pid, th->tid)};
		gp_cpu_sweep(d, gp_deps_view(d, pid, th->tid), take_resume, &s);
	}
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *rg = &t->ranges.v[i];
		struct resume x = {.a = rg->start, .b = rg->end};
		uint32_t wt;
		if (rg->pid != pid || rg->kind != GP_RANGE_PYTHON || !gp_deps_blocking_range(d, (int32_t)i))
			continue;
		if (!gp_deps_waker(d, pid, rg->tid, rg->start, rg->end, &wt, &x.e))
			continue;
		x.thread = thread_of(r, pid, rg->tid);
		x.waker = thread_of(r, pid, wt);
		x.has_waker = true;
		*gp_vec_push(r->resumes) = x;
	}
}

/* The time of point idx of kind k (EV_*). */
static gp_ns event_at(const struct gp_replay *r, int k, uint32_t idx)
{
	const gp_trace *t = r->d->t;

	switch (k) {
	case EV_REMOVE_END: return r->removed.v[idx].end;
	case EV_SYNC_END: return t->apis.v[idx].end;
	case EV_RESUME: return r->resumes.v[idx].b;
	default: return gp_unit_start(t, idx);
	}
}

/* Fills r->ev[k] with the indices in (time, index) order: the points of
** kind k are p[0..n), each (its time, its index), which this sorts (the
** time's sign bit flipped so that the unsigned order is gp_ns's). */
static void order_events(struct gp_replay *r, int k, struct gp_pair *p, size_t n)
{
	gp_sort_pairs(p, n);
	r->ev[k].n = 0;
	gp_vec_reserve(r->ev[k], n);
	for (size_t i = 0; i < n; i++)
		r->ev[k].v[r->ev[k].n++] = (uint32_t)p[i].b;
}

/* The key of time at in a gp_pair: signed order as unsigned. */
static uint64_t time_key(gp_ns at)
{
	return (uint64_t)at ^ (UINT64_C(1) << 63);
}

/* The new start of unit u: the latest of what its constraints allow. */
static gp_ns unit_start(struct gp_replay *r, size_t u)
{
	gp_deps *d = r->d;
	const gp_trace *t = d->t;
	const struct gp_whatif_spec *sp = r->spec;
	gp_ns s = gp_unit_start(t, u), ready, best = INT64_MIN;
	int32_t from, p = d->prev[u], w = gp_deps_wait_of(d, u), c = d->call[u];
	enum gp_edge bind = gp_deps_binding(d, u, &from, &ready);
	uint64_t key = (uint64_t)(uint32_t)gp_unit_device(t, u) << 32 | gp_unit_stream(t, u);
	int32_t k = gp_u64map_get(&r->stream_at, key);
	/* the global latency changes, unless they leave graph replays be */
	bool eager = !sp->keep_graphs || !gp_unit_replayed(d, u);
	uint8_t loose = sp->unit_loose ? sp->unit_loose[u] : 0;
	/* staged through pinned memory instead, it waits for no host pace: a
	** launch latency and a gap behind the work before it of the stream's
	** typical, at most the defaults (a stream of few samples learns its
	** typicals from work held by other causes) */
	bool staged = sp->no_staging && gp_deps_staged_copy(d, u);
	/* the module a first launch loaded after its call returned (the
	** walk's module_load piece) loads no more: a typical launch and gap */
	bool unloaded = (sp->remove_cpu & (1u << GP_CAUSE_MODULE_LOAD)) && c >= 0 && s - t->apis.v[c].end > 0 &&
			gp_unit_loads_module(d, u);

	if (c >= 0 && !(sp->no_launch_waits && eager) && !(loose & GP_WI_UNIT_UNLAUNCHED)) {
		const struct gp_api *a = &t->apis.v[c];
		uint32_t th = thread_of(r, a->pid, a->tid);
		const struct removed *in = removed_at(r, th, a->end);
		/* from the call's start: the call's own time included, unless the
		** change removes it (a launch that loaded its module) */
		gp_ns issued = in && in->start <= a->start ? a->end : a->start;
		gp_ns lat = s - issued;
		if (lat < 0)
			lat = 0;
		/* held by its launch, or by a wait the trace does not name (kept
		** as recorded: nothing says what would move it) */
		if (bind != GP_EDGE_LAUNCH && !(bind == GP_EDGE_EVENT && from < 0))
			lat = min_ns(lat, r->typ_launch.v[k]);
		if (staged)
			lat = min_ns(lat, min_ns(r->typ_launch.v[k], TYP_LAUNCH_NS));
		if (sp->no_launch_latency && eager)
			lat = min_ns(lat, a->end - issued);
		if (unloaded)
			lat = min_ns(lat, r->typ_launch.v[k]);
		best = new_time(r, th, issued) + lat;
		/* a call whose own time is removed (a first launch loading its
		** module: module_load, not the op's cost of issuing work) no
		** longer holds its work: the work follows the call's new end */
		if (s >= a->end && (sp->remove_cpu & (1u << launch_own_cause(d, c))))
			best = min_ns(best, new_time(r, th, a->end) + (s - a->end));
	}
	if (p >= 0) {
		/* negative where the unit started before its predecessor ended
		** (programmatic dependent launch, or the clocks' skew): replayed
		** unchanged, it keeps that overlap */
		gp_ns gap = s - gp_unit_end(t, (size_t)p);
		if (bind != GP_EDGE_STREAM || unloaded)
			gap = min_ns(gap, r->typ_gap.v[k]);
		/* behind work the change makes longer or shorter, a gap far
		** beyond a back-to-back one (TYP_HOLD_NS) is a wait the trace
		** does not name: the unit stays where it was recorded (on its
		** launching thread's clock), and longer work absorbs the gap
		** instead of pushing the unit by all of it; behind that work a
		** typical gap (the stream's, learned from such gaps too: at most
		** TYP_HOLD_NS).  Behind work of unchanged length the gap follows
		** it, as recorded. */
		if (gap > TYP_HOLD_NS && c >= 0 && sp->unit_factor && sp->unit_factor[p] > 1.0f && !unloaded && !staged &&
		    !(sp->no_gpu_gaps && eager) && !(loose & GP_WI_UNIT_NO_GAP)) {
			const struct gp_api *a = &t->apis.v[c];
			gap = min_ns(r->typ_gap.v[k], TYP_HOLD_NS);
			best = max_ns(best, new_time(r, thread_of(r, a->pid, a->tid), a->start) + (s - a->start));
		}
		if (staged)
			gap = min_ns(gap, min_ns(r->typ_gap.v[k], TYP_GAP_NS));
		if ((sp->no_gpu_gaps && eager) || (loose & GP_WI_UNIT_NO_GAP))
			gap = min_ns(gap, 0);
		best = max_ns(best, r->new_end[p] + gap);
	}
	if (w >= 0) {
		gp_ns gap = s - gp_unit_end(t, (size_t)w);   /* negative: as the stream's */
		if (bind != GP_EDGE_EVENT)
			gap = min_ns(gap, r->typ_gap.v[k]);
		best = max_ns(best, r->new_end[w] + gap);
	}
	return best == INT64_MIN ? s : best;   /* nothing recorded: it stays */
}

/* Call c, which waits for unit u (-1: for nothing the trace names), returns:
** its thread moves by how much later or earlier than recorded.  Without
** the syncs (spec->no_syncs) the call is gone: it takes no time, whatever
** held it.  A call whose own time the change removes (its cause's) takes
** none either, but still waits for the work it waits for. */
static void sync_end(struct gp_replay *r, size_t c)
{
	gp_deps *d = r->d;
	const gp_trace *t = d->t;
	const struct gp_api *a = &t->apis.v[c];
	int32_t u = gp_deps_synced_of(d, c);
	uint32_t th = thread_of(r, a->pid, a->tid);
	gp_ns dur = a->end - a->start, own, ret, end;
	const struct removed *in = removed_at(r, th, a->end);
	bool gone = in && in->start <= a->start;   /* the change removes the call's own time */

	if (u < 0 && (u = gp_u64map_get(&r->staged_of, c)) >= 0) {
		/* it returned once it staged its copy: from pinned memory, at
		** once; else as recorded */
		end = new_time(r, th, a->start) + (gone ? 0 : r->spec->no_staging ? min_ns(dur, r->typ_async) : dur);
		set_shift(r, th, a->end, end - a->end);
		return;
	}
	if (u < 0) {
		end = new_time(r, th, a->start) + (r->spec->no_syncs || gone ? 0 : dur);
		set_shift(r, th, a->end, end - a->end);
		return;
	}
	gp_ns ue = gp_unit_end(t, (size_t)u);
	bool waited = ue > a->start;
	bool own_copy = d->call[u] == (int32_t)c;

	if (own_copy && (r->spec->pinned_copies || (r->spec->unit_pinned && r->spec->unit_pinned[u]) ||
			 (r->spec->no_staging && gp_deps_staged_copy(d, (size_t)u)))) {
		end = new_time(r, th, a->start) + (gone ? 0 : min_ns(dur, r->typ_async));
	} else if (!own_copy && r->spec->no_syncs) {
		end = new_time(r, th, a->start);
	} else {
		own = gone ? 0 : waited ? min_ns(dur, r->typ_own) : dur;
		/* a call that returned before its work's recorded end (the
		** clocks' skew, or work it did not wait for all of) keeps that
		** lead: replayed unchanged, it returns where it did */
		ret = waited ? a->end - ue : min_ns(r->typ_ret, a->end - ue);
		end = max_ns(new_time(r, th, a->start) + own, r->new_end[u] + ret);
	}
	set_shift(r, th, a->end, end - a->end);
}

struct gp_replay *gp_replay_new(gp_deps *d)
{
	const gp_trace *t = d->t;
	struct gp_replay *r = gp_xcalloc(1, sizeof(*r));
	static const struct gp_whatif_spec none;

	r->d = d;
	r->spec = &none;
	if (!gp_critpath_scope(d, &r->sc)) {
		free(r);
		return NULL;
	}
	r->new_start = gp_xmalloc((d->n + 1) * sizeof(*r->new_start));
	r->new_end = gp_xmalloc((d->n + 1) * sizeof(*r->new_end));
	learn_typicals(r);
	find_resumes(r, r->sc.pid);
	gp_critpath_windows(t, &r->sc, &r->win, &r->nwin);
	r->main_th = thread_of(r, r->sc.pid, gp_critpath_main_thread(d, r->sc.pid));
	GP_VEC(struct gp_pair) p = {0};
	for (size_t u = 0; u < d->n; u++)
		*gp_vec_push(p) = (struct gp_pair){time_key(gp_unit_start(t, u)), u};
	order_events(r, EV_UNIT_START, p.v, p.n);
	/* the syncs: those that waited for work, and those that bound to none */
	p.n = 0;
	for (size_t i = 0; i < t->apis.n; i++)
		if (gp_deps_synced_of(d, i) >= 0 || gp_api_class_is_sync(gp_deps_api_class(d, i)))
			*gp_vec_push(p) = (struct gp_pair){time_key(t->apis.v[i].end), i};
	/* and the calls of staged copies that did not wait for them */
	for (size_t u = t->kernels.n; u < t->kernels.n + t->memcpys.n; u++) {
		int32_t c = d->call[u];
		if (gp_deps_staged_copy(d, u) && gp_deps_synced_of(d, (size_t)c) < 0 &&
		    gp_u64map_get(&r->staged_of, (uint64_t)c) < 0) {
			gp_u64map_put(&r->staged_of, (uint64_t)c, (int32_t)u);
			*gp_vec_push(p) = (struct gp_pair){time_key(t->apis.v[c].end), (uint64_t)c};
		}
	}
	order_events(r, EV_SYNC_END, p.v, p.n);
	p.n = 0;
	for (size_t i = 0; i < r->resumes.n; i++)
		*gp_vec_push(p) = (struct gp_pair){time_key(r->resumes.v[i].b), i};
	order_events(r, EV_RESUME, p.v, p.n);
	gp_vec_free(p);
	return r;
}

void gp_replay_free(struct gp_replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->th.n; i++)
		gp_vec_free(r->th.v[i].bps);
	gp_vec_free(r->th);
	gp_u64map_free(&r->th_at);
	gp_u64map_free(&r->stream_at);
	gp_u64map_free(&r->staged_of);
	gp_vec_free(r->typ_launch);
	gp_vec_free(r->typ_gap);
	gp_vec_free(r->removed);
	gp_vec_free(r->resumes);
	for (int k = 0; k < EV__COUNT; k++)
		gp_vec_free(r->ev[k]);
	free(r->win);
	free(r->new_start);
	free(r->new_end);
	free(r);
}

/* The ends of the CPU time the run removes (r->removed), into
** r->ev[EV_REMOVE_END] in time order. */
static void removal_events(struct gp_replay *r)
{
	struct gp_pair *p = gp_xmalloc((r->removed.n ? r->removed.n : 1) * sizeof(*p));

	for (size_t k = 0; k < r->removed.n; k++)
		p[k] = (struct gp_pair){time_key(r->removed.v[k].end), k};
	order_events(r, EV_REMOVE_END, p, r->removed.n);
	free(p);
}

/* The kind of r's next point in (time, kind, index) order, given the next
** index of each kind and its time; -1 when none is left. */
static int next_event(const struct gp_replay *r, const size_t next[EV__COUNT], const gp_ns at[EV__COUNT])
{
	int k = -1;

	for (int j = 0; j < EV__COUNT; j++)
		if (next[j] < r->ev[j].n && (k < 0 || at[j] < at[k]))
			k = j;
	return k;
}

/* The replayed end of the last step (steps.c): its range's own end on the
** main thread, or its work's end where that is later (the work that ran
** inside the step as recorded: replayed unchanged, it ends where it did). */
static gp_ns last_step_end(const struct gp_replay *r)
{
	const gp_trace *t = r->d->t;
	const struct gp_cp_window *w = &r->win[r->nwin - 1];
	gp_ns end = new_time(r, r->main_th, w->range_end);

	for (size_t u = 0; u < r->d->n; u++)
		if (gp_unit_start(t, u) >= w->start && gp_unit_end(t, u) <= w->end && r->new_end[u] > end)
			end = r->new_end[u];
	return end;
}

void gp_replay_run(struct gp_replay *r, const struct gp_whatif_spec *spec, struct gp_whatif_result *res)
{
	gp_deps *d = r->d;
	const gp_trace *t = d->t;
	const struct gp_cp_scope *sc = &r->sc;
	size_t next[EV__COUNT] = {0};   /* per kind: its next point in r->ev */
	gp_ns at[EV__COUNT];            /* and that point's time */
	int k;
	gp_ns new_last = INT64_MIN, gpu_first = INT64_MAX, gpu_last = INT64_MIN, new_gpu_first = INT64_MAX;

	memset(res, 0, sizeof(*res));
	r->spec = spec;
	res->pid = sc->pid;
	for (size_t i = 0; i < r->th.n; i++) {
		r->th.v[i].bps.n = 0;
		r->th.v[i].rm_lo = r->th.v[i].rm_hi = 0;
	}
	for (size_t u = 0; u < d->n; u++) {
		r->new_start[u] = gp_unit_start(t, u);
		r->new_end[u] = gp_unit_end(t, u);   /* a sync whose work starts after it (skew) reads this */
	}
	r->removed.n = 0;
	find_removed(r);
	removal_events(r);

	for (k = 0; k < EV__COUNT; k++)
		at[k] = r->ev[k].n ? event_at(r, k, r->ev[k].v[0]) : 0;
	while ((k = next_event(r, next, at)) >= 0) {
		uint32_t idx = r->ev[k].v[next[k]++];
		if (next[k] < r->ev[k].n)
			at[k] = event_at(r, k, r->ev[k].v[next[k]]);
		if (k == EV_UNIT_START) {
			size_t u = idx;
			gp_ns dur = gp_unit_end(t, u) - gp_unit_start(t, u);
			double f = spec->unit_factor ? spec->unit_factor[u] : 1.0;
			gp_ns ns = unit_start(r, u);
			r->new_start[u] = ns;
			r->new_end[u] = ns + (gp_ns)((double)dur * f + 0.5);
			/* the GPU span is every device's, as advise's is */
			gpu_first = min_ns(gpu_first, gp_unit_start(t, u));
			gpu_last = max_ns(gpu_last, gp_unit_end(t, u));
			new_gpu_first = min_ns(new_gpu_first, ns);
			new_last = max_ns(new_last, r->new_end[u]);
		} else if (k == EV_SYNC_END) {
			sync_end(r, idx);
		} else if (k == EV_RESUME) {
			const struct resume *x = &r->resumes.v[idx];
			gp_ns own = x->a == INT64_MIN ? INT64_MIN : new_time(r, x->thread, x->a);
			gp_ns woke = x->has_waker ? new_time(r, x->waker, x->e) + (x->b - x->e)
						  : new_time(r, x->waker, x->b);
			set_shift(r, x->thread, x->b, max_ns(own, woke) - x->b);
		} else {
			/* the stretch's time since the thread's last point goes */
			const struct removed *x = &r->removed.v[idx];
			set_shift(r, x->thread, x->end, new_time(r, x->thread, x->end) - x->end);
		}
	}

	if (gpu_last > INT64_MIN) {
		res->gpu_before = gpu_last - gpu_first;
		res->gpu_after = new_last - new_gpu_first;
		res->gpu_first = gpu_first;
		res->gpu_first_after = new_gpu_first;
	}
	/* the new span and steps, on the main thread's clock */
	uint32_t lt = sc->from.on_gpu ? 0 : thread_of(r, sc->pid, sc->from.tid);
	gp_ns last_cpu = sc->from.on_gpu ? INT64_MIN : new_time(r, lt, sc->end);
	if (last_cpu > new_last)
		new_last = last_cpu;
	gp_ns new_first = min_ns(new_time(r, r->main_th, sc->first), sc->first);
	res->span_before = sc->end - sc->first;
	res->span_after = new_last - new_first;
	res->iters = gp_xcalloc(r->nwin + 1, sizeof(*res->iters));
	for (size_t i = 1; i < r->nwin; i++) {
		gp_ns s0 = new_time(r, r->main_th, r->win[i].start);
		gp_ns s1 = i + 1 < r->nwin ? new_time(r, r->main_th, r->win[i + 1].start) : last_step_end(r);
		res->iters[res->niters++] = (struct gp_whatif_iter){r->win[i].iter, r->win[i].end - r->win[i].start,
								  s1 - s0};
	}
	r->spec = NULL;
}

void gp_replay_unit(const struct gp_replay *r, size_t u, gp_ns *start, gp_ns *end)
{
	*start = r->new_start[u];
	*end = r->new_end[u];
}

void gp_whatif_run(gp_deps *d, const struct gp_whatif_spec *spec, struct gp_whatif_result *res)
{
	struct gp_replay *r = gp_replay_new(d);

	memset(res, 0, sizeof(*res));
	if (!r)
		return;
	gp_replay_run(r, spec, res);
	gp_replay_free(r);
}

void gp_whatif_result_free(struct gp_whatif_result *r)
{
	free(r->iters);
	memset(r, 0, sizeof(*r));
}

gp_ns gp_whatif_median_step(const struct gp_whatif_result *r, bool after)
{
	ns_vec v = {0};
	struct gp_stats st;

	if (!r->niters)
		return after ? r->span_after : r->span_before;
	for (size_t i = 0; i < r->niters; i++)
		*gp_vec_push(v) = after ? r->iters[i].after : r->iters[i].before;
	/* the median of steps.h, which advise prints */
	gp_stats_compute(v.v, v.n, &st);
	gp_vec_free(v);
	return (gp_ns)st.med;
}

/* ---- --what-if expressions ------------------------------------------ */

#define WHATIF_FORMS "op:NAME=2x, kernel:GLOB=1.5x, layer:GLOB=roofline, cause:dataloader=0, cause:comm=0.5x, " \
		     "cause:launch=0, copies=pinned, rank:R=on-time"

int gp_whatif_parse(const char *expr, struct gp_whatif_expr *x, gp_error *err)
{
	const char *eq = strrchr(expr, '='), *colon = strchr(expr, ':');
	const char *value;

	memset(x, 0, sizeof(*x));
	if (!eq || !eq[1])
		return gp_err(err, GP_ERR_USAGE, "--what-if '%s': not TARGET=CHANGE (%s)", expr, WHATIF_FORMS);
	value = eq + 1;
	if (strncmp(expr, "copies=", 7) == 0) {
		if (strcmp(value, "pinned") != 0)
			return gp_err(err, GP_ERR_USAGE, "--what-if '%s': copies can only be 'pinned'", expr);
		x->target = GP_WI_COPIES;
		return GP_OK;
	}
	if (!colon || colon > eq || colon + 1 == eq)
		return gp_err(err, GP_ERR_USAGE, "--what-if '%s': not TARGET:NAME=CHANGE (%s)", expr, WHATIF_FORMS);
	if ((size_t)(eq - colon - 1) >= sizeof(x->pattern))
		return gp_err(err, GP_ERR_USAGE, "--what-if '%s': name longer than %zu characters", expr,
			      sizeof(x->pattern) - 1);
	memcpy(x->pattern, colon + 1, (size_t)(eq - colon - 1));
	x->pattern[eq - colon - 1] = '\0';
	if (strncmp(expr, "cause:", 6) == 0) {
		x->target = GP_WI_CAUSE;
		/* the cause's name, an alias (an old name), or a breakdown part's
		** name (idle_NAME) */
		const char *name = strncmp(x->pattern, "idle_", 5) == 0 ? x->pattern + 5 : x->pattern;
		int c = gp_cause_find(name);
		if (c == GP_CAUSE_GPU_COMM) {
			/* the communication kernels removed (=0) or Nx faster (0.5x: twice as slow) */
			char *end;
			x->cause = (uint8_t)c;
			if (strcmp(value, "0") == 0)
				return GP_OK;   /* speedup 0: removed */
			x->speedup = strtod(value, &end);
			if (end == value || strcmp(end, "x") != 0 || !(x->speedup >= GP_WHATIF_SPEEDUP_MIN) ||
			    !(x->speedup <= GP_WHATIF_SPEEDUP_MAX))
				return gp_err(err, GP_ERR_USAGE, "--what-if '%s': communication is removed (=0) or Nx "
					      "faster with N from %g to %g (0.5x: twice as slow), not '%s'", expr,
					      GP_WHATIF_SPEEDUP_MIN, GP_WHATIF_SPEEDUP_MAX, value);
			return GP_OK;
		}
		if (c >= GP_CAUSE_LAUNCH && c < GP_CAUSE_UNKNOWN && c != GP_CAUSE_EVENT_WAIT && c != GP_CAUSE_SYNC) {
			x->cause = (uint8_t)c;
			if (strcmp(value, "0") != 0)
				return gp_err(err, GP_ERR_USAGE, "--what-if '%s': a cause can only be removed (=0)", expr);
			return GP_OK;
		}
		return gp_err(err, GP_ERR_USAGE, "--what-if '%s': unknown cause '%s' (comm, launch, gpu_gap, pageable_copy, "
			      "cpu_op, python, comm_wait, annotation, dataloader, allocator, first_alloc, jit, autotune, "
			      "module_load, capture, cuda_api, untraced)", expr,
			      x->pattern);
	}
	if (strncmp(expr, "rank:", 5) == 0) {
		char *end;
		long r = strtol(x->pattern, &end, 10);
		x->target = GP_WI_RANK;
		if (*end || end == x->pattern || r < 0 || r > INT32_MAX)
			return gp_err(err, GP_ERR_USAGE, "--what-if '%s': a rank is a number (0 or more), not '%s'", expr,
				      x->pattern);
		if (strcmp(value, "on-time") != 0)
			return gp_err(err, GP_ERR_USAGE, "--what-if '%s': a rank can only be on-time", expr);
		x->rank = (int32_t)r;
		return GP_OK;
	}
	if (strncmp(expr, "op:", 3) == 0)
		x->target = GP_WI_OP;
	else if (strncmp(expr, "kernel:", 7) == 0)
		x->target = GP_WI_KERNEL;
	else if (strncmp(expr, "layer:", 6) == 0)
		x->target = GP_WI_LAYER;
	else
		return gp_err(err, GP_ERR_USAGE, "--what-if '%s': unknown target (%s)", expr, WHATIF_FORMS);
	if (strcmp(value, "roofline") == 0) {
		x->roofline = true;
		return GP_OK;
	}
	char *end;
	x->speedup = strtod(value, &end);
	if (end == value || strcmp(end, "x") != 0 || !(x->speedup >= GP_WHATIF_SPEEDUP_MIN) ||
	    !(x->speedup <= GP_WHATIF_SPEEDUP_MAX))
		return gp_err(err, GP_ERR_USAGE, "--what-if '%s': the change is Nx with N from %g to %g (2x: twice "
			      "as fast, 0.5x: half as fast) or roofline, not '%s'", expr, GP_WHATIF_SPEEDUP_MIN,
			      GP_WHATIF_SPEEDUP_MAX, value);
	return GP_OK;
}

/* Whether a framework op range enclosing range r (r itself, then its
** parents) is named pat (no namespace): a cpu_op's name, or the name
** before the first ',' of an emit_nvtx marker ("aten::addmm, seq = 3,
** ..."); layer: ranges and PyProf's dict markers are no ops. */
static bool op_range_matches(const gp_trace *t, int32_t r, const char *pat)
{
	char name[256];

	for (; r >= 0 && (size_t)r < t->ranges.n; r = t->ranges.v[r].parent) {
		const struct gp_range *g = &t->ranges.v[r];
		const char *s = gp_s(t, g->text);
		if (g->kind != GP_RANGE_CPU_OP && g->kind != GP_RANGE_PUSHPOP && g->kind != GP_RANGE_STARTEND)
			continue;
		if (!s || *s == '{' || strncmp(s, "layer:", 6) == 0)
			continue;
		size_t n = strcspn(s, ",");
		if (n >= sizeof(name))
			continue;
		memcpy(name, s, n);
		name[n] = '\0';
		if (fnmatch(pat, gp_op_base(name), 0) == 0)
			return true;
	}
	return false;
}

/* Whether kernel k is selected by x; its op by the name summary --by op
** shows (the op model's, ops may be NULL), the op the trace recorded
** (PyProf's "linear") or a framework op enclosing its launch
** ("aten::addmm"), each without its namespace ("aten::addmm" and "addmm"
** are one). */
static bool selects(const gp_trace *t, const struct gp_ops *ops, const struct gp_whatif_expr *x, size_t k)
{
	const struct gp_attr *a = t->attrs ? &t->attrs[k] : NULL;
	const struct gp_kernel_def *d = gp_kernel_def(t, &t->kernels.v[k]);

	switch (x->target) {
	case GP_WI_OP: {
		gp_str names[2] = {ops && ops->r ? ops->r[k].op : 0, a ? a->op : 0};
		const char *pat = gp_op_base(x->pattern);
		for (int i = 0; i < 2; i++)
			if (names[i] && fnmatch(pat, gp_op_base(gp_s(t, names[i])), 0) == 0)
				return true;
		return a && op_range_matches(t, a->range, pat);
	}
	case GP_WI_KERNEL:
		return (d->name && fnmatch(x->pattern, gp_s(t, d->name), 0) == 0) ||
		       (d->demangled && fnmatch(x->pattern, gp_s(t, d->demangled), 0) == 0);
	case GP_WI_LAYER:
		return a && a->layer && fnmatch(x->pattern, gp_s(t, a->layer), 0) == 0;
	}
	return false;
}

size_t gp_whatif_apply(const gp_trace *t, const struct gp_ops *ops, const struct gp_whatif_expr *x, float *factors,
		       struct gp_whatif_spec *spec)
{
	size_t n = 0;

	switch (x->target) {
	case GP_WI_CAUSE:
		if (x->cause == GP_CAUSE_GPU_COMM) {
			spec->unit_factor = factors;
			for (size_t k = 0; k < t->kernels.n; k++)
				if (gp_kernel_is_comm(t, &t->kernels.v[k])) {
					factors[k] *= x->speedup > 0 ? (float)(1.0 / x->speedup) : 0.0f;
					n++;
				}
			return n;
		}
		if (x->cause == GP_CAUSE_LAUNCH)
			spec->no_launch_latency = true;
		else if (x->cause == GP_CAUSE_GPU_GAP)
			spec->no_gpu_gaps = true;
		else if (x->cause == GP_CAUSE_PAGEABLE_COPY)
			spec->no_staging = true;
		else
			spec->remove_cpu |= 1u << x->cause;
		return 0;
	case GP_WI_COPIES:
		spec->pinned_copies = true;
		return 0;
	case GP_WI_RANK:
		return 0;   /* a change of the job, not of one trace (gp_rank_job_on_time) */
	}
	spec->unit_factor = factors;
	for (size_t k = 0; k < t->kernels.n; k++) {
		double dur = (double)(t->kernels.v[k].end - t->kernels.v[k].start), f;
		if (!selects(t, ops, x, k))
			continue;
		if (x->roofline) {
			struct gp_roofline rl = {0};
			if (ops && ops->r)
				gp_op_roofline(t, ops, k, &rl);
			if (!(rl.ideal_ns > 0) || dur <= 0)
				continue;
			f = rl.ideal_ns / dur;
			if (f > 1)
				f = 1;   /* the model never makes work slower than it ran */
		} else {
			f = 1.0 / x->speedup;
		}
		factors[k] *= (float)f;
		n++;
	}
	return n;
}

void gp_whatif_changes(gp_deps *d, const struct gp_ops *ops, const struct gp_whatif_expr *x, size_t n,
		       struct gp_whatif_result *r, size_t *units)
{
	struct gp_whatif_spec spec = {0};
	float *factors = gp_xmalloc((d->n ? d->n : 1) * sizeof(*factors));

	for (size_t u = 0; u < d->n; u++)
		factors[u] = 1;
	for (size_t i = 0; i < n; i++)
		units[i] = gp_whatif_apply(d->t, ops, &x[i], factors, &spec);
	gp_whatif_run(d, &spec, r);
	free(factors);
}
