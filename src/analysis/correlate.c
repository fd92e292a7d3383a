/*
** Correlation pass (docs/correlation.md).
**
** 1. Launch: each kernel -> the API call with the same correlation id in the
**    same process (one sort of the API calls by (corr, pid), one binary
**    search per kernel).  nvprof kernels carry no pid: they take the pid of
**    the call they match.
** 2. Sweep: kernels ordered by (pid, tid, API start) walk the ranges of
**    that thread (sorted by start by gp_trace_finish) once, keeping a stack
**    of open ranges; a kernel's enclosing ranges are those on the stack that
**    strictly enclose its API call (start < api.start, end > api.end, as
**    PyProf's SQL), outermost first.
** 3. Dispatch: each attribution source whose range kinds the trace holds
**    interprets every kernel's stack, in kernel (start) order: NVTX ranges
**    with PyProf's rules (attr_nvtx.h), framework-op ranges (attr_ops.h).
**    A new source is one file with the same begin/kernel/end interface and
**    one block in gp_correlate().
** 4. Graph replays (attr_graph.h): a kernel replayed from a CUDA graph is
**    launched by the graph launch, which no op encloses.  Where its node's
**    capture is in the trace (nsys node events), the sweep visits that
**    capture point too and the sources read the ranges open there, as if the
**    kernel had been launched then; where it is in a capture trace, the
**    graph source copies that trace's attribution at the end.
*/
#include <stdlib.h>

#include "analysis/attr_graph.h"
#include "analysis/attr_nvtx.h"
#include "analysis/attr_ops.h"
#include "analysis/correlate.h"
#include "model/calls.h"
#include "util/par.h"


/* ------------------------------------------------------------------ */
/* 1. kernel -> launching API call                                     */

/* Sets attrs[k].api for every kernel; returns how many found none. */
static size_t link_launches(gp_trace *t)
{
	gp_call_index calls;
	size_t missing = 0;
	gp_u64map memo = {0};

	gp_call_index_build(&calls, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_kernel *kr = &t->kernels.v[k];
		uint32_t pid = gp_kernel_pid(t, kr);
		int32_t api = gp_call_find(&calls, kr->corr, pid);

		/* A graph launch hangs many kernels on one call; a plain call
		** hangs one.  Either way the match is by id, never by time. */
		t->attrs[k].api = api;
		if (api < 0)
			missing++;
		else if (pid == 0)
			gp_kernel_set_pid(t, kr, t->apis.v[api].pid, &memo);
	}
	gp_call_index_free(&calls);
	gp_u64map_free(&memo);
	return missing;
}

/* ------------------------------------------------------------------ */
/* 2. the sweep                                                        */

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

static uint64_t thread_key(const struct gp_api *a)
{
	return (uint64_t)a->pid << 32 | a->tid;   /* ordered as gp_thread_cmp */
}

/*
** The kernels that have a launching call, in the order of the ranges: by
** the call's thread, then by the call (API calls are sorted by start),
** then by kernel index; *nl gets their count.  Two stable counting sorts
** of 4-byte kernel indices (by call, then by thread) instead of a sort of
** 32-byte launch records, whose merge sort copied them once more: 64 MB at
** a million kernels, the peak RSS of a large SQLite trace.  Launches of
** one thread with the same start may come in another order than by kernel
** index; the sweep gives each the same stack in any order.
*/
static uint32_t *launch_order(const gp_trace *t, size_t *nl)
{
	uint32_t *at = gp_xcalloc(t->apis.n + 1, sizeof(*at)), *by_call, *order, *bucket;
	GP_VEC(uint64_t) threads = {0};
	gp_u64map rank = {0};
	size_t n;

	for (size_t k = 0; k < t->kernels.n; k++)
		if (t->attrs[k].api >= 0)
			at[t->attrs[k].api + 1]++;
	for (size_t i = 0; i < t->apis.n; i++)
		at[i + 1] += at[i];
	n = at[t->apis.n];
	by_call = gp_xmalloc((n ? n : 1) * sizeof(*by_call));
	for (size_t k = 0; k < t->kernels.n; k++)
		if (t->attrs[k].api >= 0)
			by_call[at[t->attrs[k].api]++] = (uint32_t)k;
	free(at);

	for (size_t i = 0; i < n; i++) {
		uint64_t key = thread_key(&t->apis.v[t->attrs[by_call[i]].api]);
		if (gp_u64map_add(&rank, key, (int32_t)threads.n) == (int32_t)threads.n)
			*gp_vec_push(threads) = key;
	}
	gp_vec_sort(threads, cmp_u64);
	bucket = gp_xcalloc(threads.n + 1, sizeof(*bucket));
	for (size_t r = 0; r < threads.n; r++)
		gp_u64map_put(&rank, threads.v[r], (int32_t)r);
	for (size_t i = 0; i < n; i++)
		bucket[gp_u64map_get(&rank, thread_key(&t->apis.v[t->attrs[by_call[i]].api])) + 1]++;
	for (size_t r = 0; r < threads.n; r++)
		bucket[r + 1] += bucket[r];
	order = gp_xmalloc((n ? n : 1) * sizeof(*order));
	for (size_t i = 0; i < n; i++) {
		const struct gp_api *a = &t->apis.v[t->attrs[by_call[i]].api];
		order[bucket[gp_u64map_get(&rank, thread_key(a))]++] = by_call[i];
	}
	free(by_call);
	free(bucket);
	gp_vec_free(threads);
	gp_u64map_free(&rank);
	*nl = n;
	return order;
}

/* The enclosing ranges of every kernel (or capture point): stack entries
** of item k are all.v[first[k] .. first[k] + count[k]), outermost first. */
struct stacks {
	GP_VEC(int32_t) all;
	uint32_t *first, *count;
};

/* Kernel k's enclosing ranges (NULL when it has none). */
static const int32_t *kernel_stack(const struct stacks *s, size_t k)
{
	return s->count[k] ? s->all.v + s->first[k] : NULL;
}

static void stacks_free(struct stacks *s)
{
	gp_vec_free(s->all);
	free(s->first);
	free(s->count);
}

/* One walk over the ranges of t, thread by thread, beside moments visited
** in (thread, start) order: the ranges open at each. */
struct sweeper {
	GP_VEC(int32_t) open;
	size_t r;               /* next range not yet opened */
	uint32_t pid, tid;
	bool started;
};

/* Moves w to the call or capture point [start, end] on thread (pid, tid),
** which comes at or after the last one in (thread, start) order, and
** appends the ranges strictly enclosing it to all, outermost first.
** Returns their count. */
static uint32_t sweep_to(const gp_trace *t, struct sweeper *w, uint32_t pid, uint32_t tid, gp_ns start,
			 gp_ns end, struct stacks *s)
{
	size_t n0 = s->all.n;

	if (!w->started || gp_thread_cmp(pid, tid, w->pid, w->tid) != 0) {
		w->open.n = 0;
		while (w->r < t->ranges.n &&
		       gp_thread_cmp(t->ranges.v[w->r].pid, t->ranges.v[w->r].tid, pid, tid) < 0)
			w->r++;
		w->pid = pid;
		w->tid = tid;
		w->started = true;
	}
	/* Open every range of this thread that starts before the call. */
	while (w->r < t->ranges.n && t->ranges.v[w->r].pid == pid && t->ranges.v[w->r].tid == tid &&
	       t->ranges.v[w->r].start < start) {
		if (t->ranges.v[w->r].kind != GP_RANGE_MARK &&
		    !(t->ranges.v[w->r].flags & GP_RANGE_F_UNCLOSED))
			*gp_vec_push(w->open) = (int32_t)w->r;
		w->r++;
	}
	/* Drop ranges that ended before this call started: later calls start
	** later, so they cannot enclose those either.  Ranges that only fail
	** the end test stay (a nested call may fit them). */
	size_t keep = 0;
	for (size_t j = 0; j < w->open.n; j++)
		if (t->ranges.v[w->open.v[j]].end > start)
			w->open.v[keep++] = w->open.v[j];
	w->open.n = keep;
	for (size_t j = 0; j < w->open.n; j++)
		if (t->ranges.v[w->open.v[j]].end > end)
			*gp_vec_push(s->all) = w->open.v[j];
	return (uint32_t)(s->all.n - n0);
}

static void sweep(gp_trace *t, struct stacks *s)
{
	size_t nl;
	uint32_t *order = launch_order(t, &nl);
	struct sweeper w = {0};

	s->first = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*s->first));
	s->count = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*s->count));
	for (size_t i = 0; i < nl; i++) {
		uint32_t k = order[i];
		const struct gp_api *q = &t->apis.v[t->attrs[k].api];

		s->first[k] = (uint32_t)s->all.n;
		s->count[k] = sweep_to(t, &w, q->pid, q->tid, q->start, q->end, s);
		/* the stack is in start order: its last entry is the innermost */
		if (s->count[k])
			t->attrs[k].range = s->all.v[s->all.n - 1];
	}
	gp_vec_free(w.open);
	free(order);
}

/*
** The stacks of the replayed kernels that have a capture point (a graph
** node's creation, attr_graph.h): the ranges open at the point, with the
** iteration ranges open at the real launch instead of those open at the
** capture (a graph captured in the warm-up and replayed in step 7 runs in
** step 7).  Each such kernel's entry in s is replaced by that stack; its
** gp_attr.range stays the launch's (the graph launch is its launching call).
*/
static void capture_stacks(gp_trace *t, const gp_graphattr *g, struct stacks *s)
{
	size_t np;
	const struct gp_graph_point *pts = gp_graphattr_points(g, &np);
	struct stacks ps = {0};
	struct sweeper w = {0};
	uint8_t *iter = gp_xcalloc(t->ranges.n ? t->ranges.n : 1, 1);

	if (!np) {
		free(iter);
		return;
	}
	for (size_t i = 0; i < t->ranges.n; i++)
		iter[i] = gp_graphattr_iteration_range(t, &t->ranges.v[i]);
	ps.first = gp_xmalloc(np * sizeof(*ps.first));
	ps.count = gp_xmalloc(np * sizeof(*ps.count));
	for (size_t p = 0; p < np; p++) {
		ps.first[p] = (uint32_t)ps.all.n;
		ps.count[p] = sweep_to(t, &w, pts[p].pid, pts[p].tid, pts[p].start, pts[p].end, &ps);
	}
	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t p = gp_graphattr_point_of(g, k);
		if (p < 0)
			continue;
		uint32_t first = (uint32_t)s->all.n, lf = s->first[k], ln = s->count[k];
		for (uint32_t j = 0; j < ln; j++) {
			int32_t r = s->all.v[lf + j];   /* read before the push moves the array */
			if (iter[r])
				*gp_vec_push(s->all) = r;
		}
		for (uint32_t j = 0; j < ps.count[p]; j++)
			if (!iter[ps.all.v[ps.first[p] + j]])
				*gp_vec_push(s->all) = ps.all.v[ps.first[p] + j];
		s->first[k] = first;
		s->count[k] = (uint32_t)(s->all.n - first);
	}
	stacks_free(&ps);
	gp_vec_free(w.open);
	free(iter);
}

/* ------------------------------------------------------------------ */

static void attrs_init(gp_trace *t)
{
	free(t->attrs);
	free(t->replay_graph);
	free(t->replay_node);
	t->replay_graph = t->replay_node = NULL;
	t->captured_graphs.n = t->captured_nodes.n = 0;
	t->attrs = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*t->attrs));
	for (size_t i = 0; i < t->kernels.n; i++) {
		t->attrs[i].api = -1;
		t->attrs[i].seq = -1;
		t->attrs[i].iter = -1;
		t->attrs[i].fwd = -1;
		t->attrs[i].range = -1;
	}
}

/* Two steps of a trace with framework ops: the sweep (2.) writes the
** stacks and attrs, the op attribution's index reads the ranges and
** op_exts, and neither interns a string, so they run at once (gp_par2) on
** a large trace. */
struct sweep_job {
	gp_trace *t;
	gp_graphattr *graph;
	struct stacks *s;
};

static void sweep_job(void *arg)
{
	struct sweep_job *j = arg;

	sweep(j->t, j->s);
	if (j->graph)
		capture_stacks(j->t, j->graph, j->s);
}

struct opattr_job {
	gp_trace *t;
	gp_opattr *ctx;
};

static void opattr_begin_job(void *arg)
{
	struct opattr_job *j = arg;

	j->ctx = gp_opattr_begin(j->t);
}

void gp_correlate_note_missing(gp_trace *t, size_t missing)
{
	gp_trace_warn(t, "%zu of %zu kernels have no launching API call in the trace", missing,
		      t->kernels.n);
}

int gp_correlate(gp_trace *t, const struct gp_correlate_opts *o, gp_error *err)
{
	struct stacks s = {0};
	uint32_t kinds = 0;   /* bit 1 << kind for each range kind present */
	size_t missing;
	gp_graphattr *graph;

	attrs_init(t);
	if (!t->kernels.n)
		return GP_OK;
	for (size_t i = 0; i < t->ranges.n; i++)
		kinds |= 1u << t->ranges.v[i].kind;
	missing = link_launches(t);
	if (missing && t->apis.n && !o->window_cut)
		gp_correlate_note_missing(t, missing);
	/* NULL, at no cost, for a trace without graph replays */
	graph = gp_graphattr_begin(t);

	struct sweep_job sw = {t, graph, &s};
	struct opattr_job op = {t, NULL};
	if (kinds & GP_OPATTR_KINDS)
		gp_par2(sweep_job, &sw, opattr_begin_job, &op,
			gp_par_worth(t->work_threads, t->kernels.n));
	else if (kinds & GP_NVTXATTR_KINDS)
		sweep_job(&sw);

	/* Each attribution source sees every kernel, in kernel order. */
	if (kinds & GP_NVTXATTR_KINDS) {
		gp_nvtxattr *ctx = gp_nvtxattr_begin(t);
		for (size_t k = 0; k < t->kernels.n; k++)
			gp_nvtxattr_kernel(ctx, t, k, kernel_stack(&s, k), (int)s.count[k], &t->attrs[k]);
		gp_nvtxattr_end(ctx, t);
	}
	if (kinds & GP_OPATTR_KINDS) {
		gp_opattr *ctx = op.ctx;
		for (size_t k = 0; k < t->kernels.n; k++)
			gp_opattr_kernel(ctx, t, k, kernel_stack(&s, k), (int)s.count[k], &t->attrs[k]);
		gp_opattr_end(ctx, t);
	}
	/* last: replayed kernels take what their capture says */
	gp_graphattr_end(graph, t);
	stacks_free(&s);
	return GP_OK;
}
