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
*/
#include <stdlib.h>

#include "analysis/attr_nvtx.h"
#include "analysis/attr_ops.h"
#include "analysis/correlate.h"
#include "model/calls.h"

/* ------------------------------------------------------------------ */
/* 1. kernel -> launching API call                                     */

/* Sets attrs[k].api for every kernel; returns how many found none. */
static size_t link_launches(gp_trace *t)
{
	gp_call_index calls;
	size_t missing = 0;

	gp_call_index_build(&calls, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_kernel *kr = &t->kernels.v[k];
		int32_t api = gp_call_find(&calls, kr->corr, kr->pid);

		/* A graph launch hangs many kernels on one call; a plain call
		** hangs one.  Either way the match is by id, never by time. */
		t->attrs[k].api = api;
		if (api < 0)
			missing++;
		else if (kr->pid == 0)
			kr->pid = t->apis.v[api].pid;
	}
	gp_call_index_free(&calls);
	return missing;
}

/* ------------------------------------------------------------------ */
/* 2. the sweep                                                        */

struct launch {
	uint32_t pid, tid;
	gp_ns start, end;
	int32_t k;
};

/* Launches in the order of the ranges (gp_range_cmp): by thread, then
** start, so the sweep walks both in step. */
static int cmp_launch(const void *pa, const void *pb)
{
	const struct launch *a = pa, *b = pb;
	int c = gp_thread_cmp(a->pid, a->tid, b->pid, b->tid);

	if (c)
		return c;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

/* The enclosing ranges of every kernel: stack entries of kernel k are
** all.v[first[k] .. first[k] + count[k]), outermost first. */
struct stacks {
	GP_VEC(int32_t) all;
	uint32_t *first, *count;
};

/* Kernel k's enclosing ranges (NULL when it has none). */
static const int32_t *kernel_stack(const struct stacks *s, size_t k)
{
	return s->count[k] ? s->all.v + s->first[k] : NULL;
}

static void sweep(gp_trace *t, struct stacks *s)
{
	struct launch *l = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(*l));
	GP_VEC(int32_t) open = {0};
	size_t nl = 0, r = 0;

	s->first = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*s->first));
	s->count = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*s->count));
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_api *a;
		if (t->attrs[k].api < 0)
			continue;
		a = &t->apis.v[t->attrs[k].api];
		l[nl++] = (struct launch){a->pid, a->tid, a->start, a->end, (int32_t)k};
	}
	if (nl > 1)
		gp_sort(l, nl, sizeof(*l), cmp_launch);

	for (size_t i = 0; i < nl; i++) {
		const struct launch *q = &l[i];

		if (i == 0 || gp_thread_cmp(q->pid, q->tid, l[i - 1].pid, l[i - 1].tid) != 0) {
			open.n = 0;
			while (r < t->ranges.n &&
			       gp_thread_cmp(t->ranges.v[r].pid, t->ranges.v[r].tid, q->pid, q->tid) < 0)
				r++;
		}
		/* Open every range of this thread that starts before the call. */
		while (r < t->ranges.n && t->ranges.v[r].pid == q->pid && t->ranges.v[r].tid == q->tid &&
		       t->ranges.v[r].start < q->start) {
			if (t->ranges.v[r].kind != GP_RANGE_MARK &&
			    !(t->ranges.v[r].flags & GP_RANGE_F_UNCLOSED))
				*gp_vec_push(open) = (int32_t)r;
			r++;
		}
		/* Drop ranges that ended before this call started: later calls
		** start later, so they cannot enclose those either.  Ranges that
		** only fail the end test stay (a nested call may fit them). */
		size_t w = 0;
		for (size_t j = 0; j < open.n; j++)
			if (t->ranges.v[open.v[j]].end > q->start)
				open.v[w++] = open.v[j];
		open.n = w;

		s->first[q->k] = (uint32_t)s->all.n;
		for (size_t j = 0; j < open.n; j++)
			if (t->ranges.v[open.v[j]].end > q->end)
				*gp_vec_push(s->all) = open.v[j];
		s->count[q->k] = (uint32_t)(s->all.n - s->first[q->k]);
		/* the stack is in start order: its last entry is the innermost */
		if (s->count[q->k])
			t->attrs[q->k].range = s->all.v[s->all.n - 1];
	}
	gp_vec_free(open);
	free(l);
}

/* ------------------------------------------------------------------ */

static void attrs_init(gp_trace *t)
{
	free(t->attrs);
	t->attrs = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*t->attrs));
	for (size_t i = 0; i < t->kernels.n; i++) {
		t->attrs[i].api = -1;
		t->attrs[i].seq = -1;
		t->attrs[i].iter = -1;
		t->attrs[i].fwd = -1;
		t->attrs[i].range = -1;
	}
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

	attrs_init(t);
	if (!t->kernels.n)
		return GP_OK;
	missing = link_launches(t);
	if (missing && t->apis.n && !o->window_cut)
		gp_correlate_note_missing(t, missing);

	for (size_t i = 0; i < t->ranges.n; i++)
		kinds |= 1u << t->ranges.v[i].kind;
	if (!(kinds & (GP_NVTXATTR_KINDS | GP_OPATTR_KINDS)))
		return GP_OK;
	sweep(t, &s);

	/* Each attribution source sees every kernel, in kernel order. */
	if (kinds & GP_NVTXATTR_KINDS) {
		gp_nvtxattr *ctx = gp_nvtxattr_begin(t);
		for (size_t k = 0; k < t->kernels.n; k++)
			gp_nvtxattr_kernel(ctx, t, k, kernel_stack(&s, k), (int)s.count[k], &t->attrs[k]);
		gp_nvtxattr_end(ctx, t);
	}
	if (kinds & GP_OPATTR_KINDS) {
		gp_opattr *ctx = gp_opattr_begin(t);
		for (size_t k = 0; k < t->kernels.n; k++)
			gp_opattr_kernel(ctx, t, k, kernel_stack(&s, k), (int)s.count[k], &t->attrs[k]);
		gp_opattr_end(ctx, t);
	}
	gp_vec_free(s.all);
	free(s.first);
	free(s.count);
	return GP_OK;
}
