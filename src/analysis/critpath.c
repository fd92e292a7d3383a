/*
** The critical path and the causes of idle time (critpath.h,
** docs/dependencies.md).
**
** gp_walk is the one walk both use.  On a GPU unit it gives the unit its
** own run, then follows the unit's binding predecessor (deps.h); the time
** between that predecessor's release and the unit's start is the launch
** delay, the gap behind the previous work on the stream, or the wait for
** an event.  On a CPU thread it steps back over the thread's timeline one
** activity at a time, except that at a blocking call that waited for GPU
** work it follows that work, and at a thread's idle stretch (nothing
** recorded) it moves to the process's main thread: PyTorch's autograd
** thread, like any worker, starts because another thread handed it work,
** which no trace records (docs/dependencies.md says what this infers).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/critpath.h"
#include "analysis/layers.h"
#include "analysis/steps.h"
#include "model/classify.h"
#include "model/window.h"
#include "util/alloc.h"
#include "util/fmt.h"
#include "util/sort.h"
#include "util/u64map.h"

/* Range texts that say what the CPU is doing, as data: substrings, tried
** on the innermost range and every range enclosing it. */
static const char *const dataloader_texts[] = {
	"DataLoader", "dataloader", "utils/data/", "data_load", NULL
};
static const char *const jit_texts[] = {
	"Nvrtc", "nvrtc", "CompileProgram", "torch/_dynamo/convert_frame", "compile_fx", "triton/compiler/",
	/* nvFuser: a fusion's first run segments it (compileNewKRT), then compiles */
	"compileNewKRT", "compileFusion", "compileKernel", NULL
};
static const char *const autotune_texts[] = {
	"cudnnFind", "triton/runtime/autotuner", "autotune", "Autotune", NULL
};

/* Waits on a collective: the CPU blocked until communication ends (a
** torch.distributed Work's wait, the functional collectives' wait_tensor). */
static const char *const comm_wait_texts[] = {
	"Work.wait", "c10d::wait", "wait_tensor", "WorkNCCL::wait", "_distributed_c10d.Work object",
	"ProcessGroupNCCL::wait", NULL
};

static bool has_any(const char *s, const char *const *subs)
{
	for (int i = 0; subs[i]; i++)
		if (strstr(s, subs[i]))
			return true;
	return false;
}

/* What a range's text says the CPU is doing inside it: data loading,
** compiling, autotuning, waiting on a collective, or GP_CAUSE__COUNT for
** none; remembered per text (texts are interned: each is tried once). */
static enum gp_cause text_cause(const gp_deps *d, gp_str text)
{
	uint8_t *c = &d->text_class[text];

	if (!*c) {
		const char *s = gp_s(d->t, text);
		*c = 1 + (uint8_t)(has_any(s, dataloader_texts) ? GP_CAUSE_DATALOADER
				   : has_any(s, jit_texts) ? GP_CAUSE_JIT
				   : has_any(s, autotune_texts) ? GP_CAUSE_AUTOTUNE
				   : has_any(s, comm_wait_texts) ? GP_CAUSE_COMM_WAIT : GP_CAUSE__COUNT);
	}
	return (enum gp_cause)(*c - 1);
}

/* Whether an NVTX range's text names a framework op: a namespaced op
** ("aten::mm"), an emit_nvtx op with or without a namespace ("aten::mm,
** seq = 3, ...", PyTorch 1.x's "norm, seq = 130") or a PyProf marker
** dict; anything else is the user's own range. */
static bool nvtx_op_text(const char *s)
{
	return strstr(s, "::") != NULL || s[0] == '{' || gp_marker_is_emit_nvtx(s, strlen(s));
}

/* Whether range r is a framework op: Kineto's cpu_op, an NVTX range
** naming one (nvtx_op_text). */
static bool op_range(const gp_trace *t, int32_t r)
{
	const struct gp_range *g = &t->ranges.v[r];

	return g->kind == GP_RANGE_CPU_OP ||
	       ((g->kind == GP_RANGE_PUSHPOP || g->kind == GP_RANGE_STARTEND) && nvtx_op_text(gp_s(t, g->text)));
}

/* The longest gap between back-to-back work on a stream that is taken
** for the GPU's own latency when the later work's launch is not in the
** trace (typically 1 to 3 us). */
#define GP_QUEUED_GAP_MAX_NS 10000

/* A launch call this long loads the kernel's module (CUDA's lazy loading,
** a JIT cache miss); so does a launch whose work starts this long after
** the call returned, on a free stream: issuing a launch takes microseconds,
** and a launch blocked by a full queue returns while the GPU is busy, so
** never inside an idle gap's chain. */
#define SLOW_LAUNCH_NS 1000000

static bool slow_launch(const gp_deps *d, size_t a)
{
	const struct gp_api *c = &d->t->apis.v[a];

	return gp_deps_api_class(d, a) == GP_APIC_LAUNCH && c->end - c->start >= SLOW_LAUNCH_NS;
}

static void make_onetime(gp_deps *d);

enum gp_cause gp_cpu_cause(gp_deps *d, uint32_t who, int32_t range)
{
	const gp_trace *t = d->t;
	const struct gp_api *a = who != GP_CPU_NONE && (who & GP_CPU_API) ? &t->apis.v[who & ~GP_CPU_API] : NULL;

	if (who != GP_CPU_NONE && (who & GP_CPU_API)) {
		switch (gp_deps_api_class(d, who & ~GP_CPU_API)) {
		case GP_APIC_SYNC_DEVICE: case GP_APIC_SYNC_STREAM: case GP_APIC_SYNC_EVENT:
			return GP_CAUSE_SYNC;
		case GP_APIC_ALLOC:   /* an allocation (not a free) of the warm-up, or not */
			if (!d->onetime_made)
				make_onetime(d);
			return a->start < d->warmup_end && strstr(gp_s(t, gp_api_def(t, a)->name), "lloc")
			       ? GP_CAUSE_FIRST_ALLOC : GP_CAUSE_ALLOCATOR;
		case GP_APIC_AUTOTUNE:
			return GP_CAUSE_AUTOTUNE;
		case GP_APIC_MODULE:
			return GP_CAUSE_MODULE_LOAD;
		case GP_APIC_COMPILE:
			return GP_CAUSE_JIT;
		case GP_APIC_CAPTURE:
			return GP_CAUSE_CAPTURE;
		case GP_APIC_LAUNCH: case GP_APIC_GRAPH_LAUNCH: case GP_APIC_COPY: case GP_APIC_MEMSET:
			if (slow_launch(d, who & ~GP_CPU_API))
				return GP_CAUSE_MODULE_LOAD;
			break;   /* the cost of issuing work: the op's, below */
		default:
			return GP_CAUSE_CUDA_API;
		}
	}
	if (range < 0)
		return who == GP_CPU_NONE ? GP_CAUSE_UNTRACED : GP_CAUSE_CPU_OP;
	for (int32_t r = range; r >= 0; r = t->ranges.v[r].parent) {
		enum gp_cause c = text_cause(d, t->ranges.v[r].text);
		if (c != GP_CAUSE__COUNT)
			return c;
	}
	if (who != GP_CPU_NONE && (who & GP_CPU_API))
		return GP_CAUSE_CPU_OP;
	switch (t->ranges.v[range].kind) {
	case GP_RANGE_CPU_OP:
		return GP_CAUSE_CPU_OP;
	case GP_RANGE_PYTHON:
		return GP_CAUSE_PYTHON;
	default:
		return op_range(t, range) ? GP_CAUSE_CPU_OP : GP_CAUSE_ANNOTATION;
	}
}

static bool emit(gp_piece_fn fn, void *ctx, gp_ns s, gp_ns e, enum gp_cause c, enum gp_piece_of of,
		 int32_t idx, bool cpu, uint32_t a, uint32_t b)
{
	struct gp_piece p = {.start = s, .end = e, .cause = (uint8_t)c, .of = (uint8_t)of, .idx = idx,
			     .cpu = cpu, .lane_a = a, .lane_b = b};

	if (e <= s)
		return true;
	return fn(ctx, &p);
}

/* ---- one-time costs: graph captures, autotuning, compiling on other threads ---- */

static int cmp_onetime(const void *pa, const void *pb)
{
	const struct gp_onetime_span *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* Fills d->onetime: on each thread, every graph capture from its
** BeginCapture's start to the next EndCapture's end (what the thread does
** in between, launches included, only records work that does not run)
** and every autotuning call (the trials it launches included); per
** process (tid GP_ANY_THREAD), the union of the time any of its threads
** compiled or autotuned (a range whose text says so, an NVRTC or link
** call).  Sorted by (pid, tid, start) and merged, so disjoint per (pid,
** tid); a merged span keeps its first one's cause.  Sets d->warmup_end:
** the end of the run's first step, the trace's first when it is numbered
** 0 or 1 (ProfilerStep#0, "iteration 1"); INT64_MIN when the trace has
** no step, starts later (a profiler schedule's wait and warm-up steps
** left out) or is cut to a window. */
static void make_onetime(gp_deps *d)
{
	const gp_trace *t = d->t;
	GP_VEC(struct gp_onetime_span) raw = {0};
	gp_u64map open = {0};            /* (pid, tid) -> 1 + index of its open capture in raw */
	struct gp_steps st;

	d->onetime_made = true;
	gp_steps_find(t, &st);
	d->warmup_end = st.n && st.v[0].iter <= 1 && !t->windowed ? st.v[0].end : INT64_MIN;
	gp_steps_free(&st);
	for (size_t k = 0; k < t->kernels.n; k++) {   /* each name's first kernel */
		int32_t at = gp_u64map_add(&d->first_launch, gp_kernel_def(t, &t->kernels.v[k])->name,
						    (int32_t)k);
		if (t->kernels.v[at].start > t->kernels.v[k].start)
			gp_u64map_put(&d->first_launch, gp_kernel_def(t, &t->kernels.v[k])->name, (int32_t)k);
	}
	for (size_t i = 0; i < t->apis.n; i++) {
		const struct gp_api *a = &t->apis.v[i];
		enum gp_api_class k = (enum gp_api_class)gp_deps_api_class(d, i);
		if (k == GP_APIC_COMPILE) {
			*gp_vec_push(raw) = (struct gp_onetime_span){a->pid, GP_ANY_THREAD, a->start, a->end, GP_CAUSE_JIT};
			continue;
		}
		if (k == GP_APIC_AUTOTUNE)
			*gp_vec_push(raw) = (struct gp_onetime_span){a->pid, a->tid, a->start, a->end, GP_CAUSE_AUTOTUNE};
		if (k != GP_APIC_CAPTURE)
			continue;
		const char *name = gp_s(t, gp_api_def(t, a)->name);
		uint64_t key = (uint64_t)a->pid << 32 | a->tid;
		int32_t at = gp_u64map_get(&open, key);
		if (strstr(name, "BeginCapture")) {
			if (at <= 0) {
				gp_u64map_put(&open, key, (int32_t)raw.n + 1);
				*gp_vec_push(raw) = (struct gp_onetime_span){a->pid, a->tid, a->start, a->end,
									   GP_CAUSE_CAPTURE};
			}
		} else if (strstr(name, "EndCapture") && at > 0) {
			raw.v[at - 1].end = a->end;
			gp_u64map_put(&open, key, 0);
		}
	}
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		enum gp_cause c = r->kind != GP_RANGE_GPU_ANNOTATION ? text_cause(d, r->text) : GP_CAUSE__COUNT;
		if (c == GP_CAUSE_JIT || c == GP_CAUSE_AUTOTUNE)
			*gp_vec_push(raw) = (struct gp_onetime_span){r->pid, GP_ANY_THREAD, r->start, r->end, (uint8_t)c};
	}
	if (raw.n)
		gp_sort(raw.v, raw.n, sizeof(*raw.v), cmp_onetime);
	for (size_t i = 0; i < raw.n; i++) {
		struct gp_onetime_span *last = d->onetime.n ? &d->onetime.v[d->onetime.n - 1] : NULL;
		if (last && last->pid == raw.v[i].pid && last->tid == raw.v[i].tid && raw.v[i].start <= last->end) {
			if (raw.v[i].end > last->end)
				last->end = raw.v[i].end;
			continue;
		}
		*gp_vec_push(d->onetime) = raw.v[i];
	}
	gp_u64map_free(&open);
	gp_vec_free(raw);
}

/* Whether kernel unit u is the first kernel of its name to run: its
** launch may load its module. */
static bool first_launch(gp_deps *d, size_t u)
{
	if (!d->onetime_made)
		make_onetime(d);
	return gp_u64map_get(&d->first_launch, gp_kernel_def(d->t, &d->t->kernels.v[u])->name) == (int32_t)u;
}

bool gp_unit_loads_module(gp_deps *d, size_t u)
{
	const gp_trace *t = d->t;
	int32_t lc = u < t->kernels.n ? d->call[u] : -1, from;
	gp_ns ready;

	if (lc < 0 || gp_deps_api_class(d, (size_t)lc) != GP_APIC_LAUNCH)
		return false;
	enum gp_edge edge = gp_deps_binding(d, u, &from, &ready);
	const struct gp_api *a = &t->apis.v[lc];
	return edge != GP_EDGE_EVENT && a->end >= ready && t->kernels.v[u].start - a->end >= SLOW_LAUNCH_NS &&
	       first_launch(d, u);
}

/* The last one-time span of (pid, tid) starting before e, or NULL. */
static const struct gp_onetime_span *onetime_before(const gp_deps *d, uint32_t pid, uint32_t tid, gp_ns e)
{
	size_t lo = 0, hi = d->onetime.n;
	struct gp_onetime_span key = {pid, tid, e, e, 0};

	while (lo < hi) {   /* the first span not before (pid, tid, e) */
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_onetime(&d->onetime.v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || d->onetime.v[lo - 1].pid != pid || d->onetime.v[lo - 1].tid != tid)
		return NULL;
	return &d->onetime.v[lo - 1];
}

/* Whether CPU time of cause c, on a thread while another thread of its
** process compiles, is that thread waiting for the compile (the thread's
** own work, a sync or a one-time cost of its own is not). */
static bool waits_for_compile(enum gp_cause c)
{
	return c == GP_CAUSE_CPU_OP || c == GP_CAUSE_PYTHON || c == GP_CAUSE_ANNOTATION ||
	       c == GP_CAUSE_UNTRACED || c == GP_CAUSE_CUDA_API;
}

enum gp_cause gp_cpu_cause_at(gp_deps *d, uint32_t who, int32_t range, uint32_t pid, uint32_t tid, gp_ns at)
{
	enum gp_cause c = gp_cpu_cause(d, who, range);
	const struct gp_onetime_span *sp;

	if (!d->onetime_made)
		make_onetime(d);
	if (c != GP_CAUSE_SYNC && c != GP_CAUSE_CAPTURE && (sp = onetime_before(d, pid, tid, at + 1)) && sp->end > at)
		return (enum gp_cause)sp->cause;
	if (waits_for_compile(c) && (sp = onetime_before(d, pid, GP_ANY_THREAD, at + 1)) && sp->end > at)
		return (enum gp_cause)sp->cause;
	return c;
}

/* emit for a CPU piece [s, e) of cause c on thread (pid, tid): the parts
** of it inside a graph capture of that thread are capture's, those while
** the process compiled (waits_for_compile) jit's; latest first, as a walk
** gives pieces. */
static bool emit_cpu(gp_deps *d, gp_piece_fn fn, void *ctx, gp_ns s, gp_ns e, enum gp_cause c, enum gp_piece_of of,
		     int32_t idx, uint32_t pid, uint32_t tid)
{
	if (!d->onetime_made)
		make_onetime(d);
	while (e > s) {
		const struct gp_onetime_span *cap = c == GP_CAUSE_SYNC || c == GP_CAUSE_CAPTURE
						    ? NULL : onetime_before(d, pid, tid, e);
		const struct gp_onetime_span *jit = waits_for_compile(c) ? onetime_before(d, pid, GP_ANY_THREAD, e) : NULL;
		const struct gp_onetime_span *sp = cap && cap->end > s ? cap : NULL;
		gp_ns a = s;
		enum gp_cause cc = c;
		if (jit && jit->end > s && (!sp || (jit->end < e ? jit->end : e) > (sp->end < e ? sp->end : e)))
			sp = jit;
		if (sp && sp->end >= e) {
			a = sp->start > s ? sp->start : s;
			cc = (enum gp_cause)sp->cause;
		} else if (sp) {
			a = sp->end;
		}
		if (!emit(fn, ctx, a, e, cc, of, idx, true, pid, tid))
			return false;
		e = a;
	}
	return true;
}

/* The cause of unit u's own run. */
static enum gp_cause unit_cause(const gp_deps *d, size_t u)
{
	const gp_trace *t = d->t;
	const struct gp_window_work *w = gp_unit_window_work(t, u);

	if (w)
		return w->comm ? GP_CAUSE_GPU_COMM : GP_CAUSE_GPU_COMPUTE;
	if (u >= t->kernels.n)
		return GP_CAUSE_GPU_MEMORY;
	if (gp_kernel_is_comm(t, &t->kernels.v[u]))
		return GP_CAUSE_GPU_COMM;
	return GP_CAUSE_GPU_COMPUTE;
}

/* The process's main thread: the one holding its iteration ranges, else
** the thread of its earliest range (the ranges are in thread order: the
** lowest thread id is no main thread, PyProf's autograd thread was), else
** of its first API call; 0 when it has none. */
static uint32_t find_main_thread(const gp_trace *t, uint32_t pid)
{
	uint32_t tid = 0;
	gp_ns first = INT64_MAX;
	int64_t num;

	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->pid != pid || r->kind == GP_RANGE_GPU_ANNOTATION || r->kind == GP_RANGE_MARK)
			continue;
		if (gp_step_kind(r) && gp_iteration_text(gp_s(t, r->text), &num))
			return r->tid;
		if (r->start < first) {
			first = r->start;
			tid = r->tid;
		}
	}
	for (size_t i = 0; i < t->apis.n && !tid; i++)
		if (t->apis.v[i].pid == pid)
			tid = t->apis.v[i].tid;
	return tid;
}

uint32_t gp_critpath_main_thread(gp_deps *d, uint32_t pid)
{
	for (size_t i = 0; i < d->mains.n; i++)
		if (d->mains.v[i].pid == pid)
			return d->mains.v[i].tid;
	uint32_t tid = find_main_thread(d->t, pid);
	*gp_vec_push(d->mains) = (struct gp_main_thread){pid, tid};
	return tid;
}

/* The latest-ending unit that ends at or before x, or -1: where a walk
** goes when what it is on has no recorded predecessor. */
static int32_t last_ended(gp_deps *d, gp_ns x)
{
	size_t lo = 0, hi = d->n;

	if (!d->by_end) {
		/* (end, unit) pairs radix-sorted: the ends are ns, signed */
		struct gp_pair *p = gp_xmalloc((d->n + 1) * sizeof(*p));
		for (size_t u = 0; u < d->n; u++)
			p[u] = (struct gp_pair){(uint64_t)gp_unit_end(d->t, u) ^ (1ull << 63), u};
		gp_sort_pairs(p, d->n);
		d->by_end = gp_xmalloc((d->n + 1) * sizeof(*d->by_end));
		for (size_t i = 0; i < d->n; i++)
			d->by_end[i] = (uint32_t)p[i].b;
		free(p);
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (gp_unit_end(d->t, d->by_end[mid]) <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (int32_t)d->by_end[lo - 1] : -1;
}

/* Whether thread (pid, tid) had any activity before time x. */
static bool thread_begun(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns x)
{
	struct gp_cpu_mark m;

	return gp_cpu_before(d, gp_deps_view(d, pid, tid), x, &m);
}

/* The most steps a walk makes at one time (a unit's launch, its call, a
** sync's work, thread hops) before it is taken for a loop. */
#define WALK_MAX_STALL 64

void gp_walk(gp_deps *d, struct gp_walk_at w, gp_ns stop, gp_piece_fn fn, void *ctx)
{
	const gp_trace *t = d->t;
	/* every step moves back in time or moves from a unit's end to its
	** start, or from a thread to another at the same time once: a bound
	** on the steps all the same, so that no odd trace can make it spin */
	uint64_t budget = 4 * ((uint64_t)d->n + t->apis.n + t->ranges.n) + 64;
	/* thread hops at one time: a thread idle at w.at hands the walk to its
	** waker or to the main thread, which may be idle at that time too and
	** hand it back; a second hop at the same time stays on its thread */
	gp_ns hop_at = INT64_MIN, last_at = INT64_MIN;
	int hops = 0, stalled = 0;

	while (w.at > stop && budget--) {
		/* every step above is meant to move back in time or to make one
		** of a few moves at one time; a trace that makes the walk turn
		** in place ends it: what is left nothing recorded explains */
		stalled = w.at == last_at ? stalled + 1 : 0;
		last_at = w.at;
		if (stalled > WALK_MAX_STALL) {
			emit(fn, ctx, stop, w.at, GP_CAUSE_UNKNOWN, GP_PIECE_NONE, -1, !w.on_gpu,
			     w.on_gpu ? 0 : w.pid, w.on_gpu ? 0 : w.tid);
			return;
		}
		if (w.on_gpu) {
			size_t u = (size_t)w.unit;
			gp_ns s = gp_unit_start(t, u), ready;
			int32_t from;
			enum gp_edge edge;

			if (w.at > s) {
				if (!emit(fn, ctx, s > stop ? s : stop, w.at, unit_cause(d, u), GP_PIECE_UNIT,
					  (int32_t)u, false, (uint32_t)gp_unit_device(t, u), gp_unit_stream(t, u)))
					return;
				w.at = s;
				if (w.at <= stop)
					return;
			}
			edge = gp_deps_binding(d, u, &from, &ready);
			if (ready > w.at)
				ready = w.at;   /* released after it started: clock skew */
			if (edge == GP_EDGE_NONE) {
				int32_t p = last_ended(d, w.at);
				gp_ns pe = p >= 0 ? gp_unit_end(t, (size_t)p) : stop;
				if (!emit(fn, ctx, pe > stop ? pe : stop, w.at, GP_CAUSE_UNKNOWN, GP_PIECE_UNIT,
					  (int32_t)u, false, (uint32_t)gp_unit_device(t, u), gp_unit_stream(t, u)))
					return;
				if (p < 0 || p == (int32_t)u)
					return;
				w.unit = p;
				w.at = pe;
				continue;
			}
			if (edge == GP_EDGE_EVENT && from < 0) {
				/* waited for an event the trace does not name: from its
				** launch on, what it waited for is unknown */
				int32_t p = last_ended(d, w.at);
				gp_ns pe = p >= 0 ? gp_unit_end(t, (size_t)p) : stop;
				if (pe < ready)
					pe = ready;
				if (!emit(fn, ctx, pe > stop ? pe : stop, w.at, GP_CAUSE_EVENT_WAIT, GP_PIECE_UNIT,
					  (int32_t)u, false, (uint32_t)gp_unit_device(t, u), gp_unit_stream(t, u)))
					return;
				if (p < 0 || p == (int32_t)u || pe == ready) {
					/* nothing ran since its launch: back to the launching thread */
					int32_t c = d->call[u];
					w.on_gpu = false;
					w.pid = t->apis.v[c].pid;
					w.tid = t->apis.v[c].tid;
					w.at = pe;
				} else {
					w.unit = p;
					w.at = pe;
				}
				continue;
			}
			if (gp_deps_staged_copy(d, u) && t->apis.v[d->call[u]].start < w.at) {
				/* a copy its call stages: from the call's start (or
				** what bound it, if later) the GPU waited for the host */
				int32_t sc = d->call[u];
				gp_ns ps = edge == GP_EDGE_LAUNCH || ready < t->apis.v[sc].start ? t->apis.v[sc].start
											  : ready;
				/* the piece is the call's: the host staging is what the
				** path runs through (HTA marks the call, too) */
				if (!emit(fn, ctx, ps > stop ? ps : stop, w.at, GP_CAUSE_PAGEABLE_COPY, GP_PIECE_API, sc, true,
					  t->apis.v[sc].pid, t->apis.v[sc].tid))
					return;
				w.at = ps;
				if (edge == GP_EDGE_LAUNCH || ready < ps) {
					w.on_gpu = false;
					w.pid = t->apis.v[sc].pid;
					w.tid = t->apis.v[sc].tid;
				} else {
					w.unit = from;
				}
				continue;
			}
			int32_t lc = u < t->kernels.n ? d->call[u] : -1;
			if (edge != GP_EDGE_EVENT && lc >= 0 && gp_deps_api_class(d, (size_t)lc) == GP_APIC_LAUNCH &&
			    t->apis.v[lc].end >= ready && w.at - t->apis.v[lc].end >= SLOW_LAUNCH_NS &&
			    first_launch(d, u)) {
				/* the first kernel of its name started long after its
				** launch returned, its stream free: its module loaded
				** (lazy loading) */
				edge = GP_EDGE_LAUNCH;
				from = lc;
			}
			enum gp_cause c = edge == GP_EDGE_STREAM ? GP_CAUSE_GPU_GAP
					: edge == GP_EDGE_EVENT ? GP_CAUSE_EVENT_WAIT : GP_CAUSE_LAUNCH;
			/* a gap behind the work before it is back-to-back latency only
			** if the work was queued by then: without its launch in the
			** trace, nothing says it was */
			if (edge == GP_EDGE_STREAM && d->call[u] < 0 && w.at - ready > GP_QUEUED_GAP_MAX_NS)
				c = GP_CAUSE_UNKNOWN;
			if (edge == GP_EDGE_LAUNCH) {
				ready = t->apis.v[from].end < w.at ? t->apis.v[from].end : w.at;
				/* a launch latency this long is not one: nothing recorded
				** says what held the work */
				if (w.at - ready >= SLOW_LAUNCH_NS && u < t->kernels.n && first_launch(d, u))
					c = GP_CAUSE_MODULE_LOAD;
				else if (w.at - ready > GP_LAUNCH_LATENCY_MAX_NS)
					c = GP_CAUSE_UNKNOWN;
			}
			/* the launch latency is the time after the call returned (none
			** when the work started first); the call's own time is its
			** thread's, walked next */
			if (!emit(fn, ctx, ready > stop ? ready : stop, w.at, c, GP_PIECE_UNIT, (int32_t)u, false,
				  (uint32_t)gp_unit_device(t, u), gp_unit_stream(t, u)))
				return;
			w.at = ready;
			if (edge == GP_EDGE_LAUNCH) {
				w.on_gpu = false;
				w.pid = t->apis.v[from].pid;
				w.tid = t->apis.v[from].tid;
			} else {
				w.unit = from;
			}
			continue;
		}

		/* on a CPU thread */
		struct gp_thread_view *v = gp_deps_view(d, w.pid, w.tid);
		struct gp_cpu_mark cm, *m = &cm;
		bool known = gp_cpu_before(d, v, w.at, m);
		uint32_t wt;
		gp_ns e;
		if (hop_at != w.at) {
			hop_at = w.at;
			hops = 0;
		}
		if ((!known || gp_cpu_idle(m)) && hops < 2) {
			/* idle: the thread resumed when another handed it work */
			gp_ns a = known ? m->at : INT64_MIN;
			gp_ns b = gp_cpu_next_start(d, v, w.at);
			uint32_t mt = gp_critpath_main_thread(d, w.pid);
			if (b == INT64_MAX)
				b = w.at;
			hops++;
			/* a waker that had not begun by the walk's point (the
			** autograd engine's thread before the first backward,
			** reached inside the main thread's wait for it) handed the
			** point nothing: the thread goes on back to its own past */
			if (gp_deps_waker(d, w.pid, w.tid, a, b, &wt, &e) && thread_begun(d, w.pid, wt, w.at)) {
				e = e < w.at ? e : w.at;
				if (!emit_cpu(d, fn, ctx, e > stop ? e : stop, w.at, GP_CAUSE_UNTRACED, GP_PIECE_NONE, -1,
					      w.pid, w.tid))
					return;
				w.tid = wt;
				w.at = e;
				continue;
			}
			if (mt && mt != w.tid) {
				w.tid = mt;   /* an idle worker waits for the main thread */
				continue;
			}
			if (!known)
				return;   /* before the main thread's first activity */
		}
		if (!known)
			return;   /* before the thread's first activity, nowhere to hop */
		gp_ns seg = m->at > stop ? m->at : stop;

		if (m->range >= 0 && m->who == (uint32_t)m->range && gp_deps_blocking_range(d, m->range)) {
			/* waiting for other threads' work (the autograd engine's):
			** follow the one that finished last, else one still busy */
			const struct gp_range *r = &t->ranges.v[m->range];
			if (gp_deps_waker(d, w.pid, w.tid, r->start, w.at, &wt, &e) ||
			    gp_deps_busy_other(d, w.pid, w.tid, w.at, &wt, &e)) {
				e = e < w.at ? e : w.at;
				if (!emit_cpu(d, fn, ctx, e > stop ? e : stop, w.at, GP_CAUSE_UNTRACED, GP_PIECE_RANGE,
					      m->range, w.pid, w.tid))
					return;
				w.tid = wt;
				w.at = e;
				continue;
			}
		}

		if (m->range >= 0 && m->who == (uint32_t)m->range &&
		    gp_cpu_cause(d, m->who, m->range) == GP_CAUSE_ANNOTATION &&
		    gp_deps_op_other(d, w.pid, w.tid, m->at, w.at, &wt, &e)) {
			/* inside the user's own range with nothing of its own open,
			** while another thread runs framework ops (the autograd
			** engine's backward inside "## backward ##", a worker's):
			** from the last of those ops on the range holds the time,
			** before it the ops do */
			if (!emit(fn, ctx, e > stop ? e : stop, w.at, GP_CAUSE_ANNOTATION, GP_PIECE_RANGE, m->range,
				  true, w.pid, w.tid))
				return;
			w.tid = wt;
			w.at = e;
			continue;
		}

		if (m->who != GP_CPU_NONE && (m->who & GP_CPU_API)) {
			int32_t c = (int32_t)(m->who & ~GP_CPU_API);
			int32_t u = gp_deps_synced_of(d, (size_t)c);
			gp_ns ue = u >= 0 ? gp_unit_end(t, (size_t)u) : 0;
			/* a call that waits for work that had not started by w.at
			** (its own copy, reached from the copy's launch) was issuing
			** it then: its own time */
			if (u >= 0 && ue > t->apis.v[c].start && ue >= seg && gp_unit_start(t, (size_t)u) < w.at) {
				/* blocked on u: the call's time past u's end is the sync's
				** own; before it, u held the thread */
				gp_ns from = ue < w.at ? ue : w.at;
				if (!emit(fn, ctx, from, w.at, GP_CAUSE_SYNC, GP_PIECE_API, c, true, w.pid, w.tid))
					return;
				w.on_gpu = true;
				w.unit = u;
				w.at = from;
				continue;
			}
		}
		enum gp_piece_of of = m->who == GP_CPU_NONE ? (m->range >= 0 ? GP_PIECE_RANGE : GP_PIECE_NONE)
				    : (m->who & GP_CPU_API) ? GP_PIECE_API : GP_PIECE_RANGE;
		int32_t idx = of == GP_PIECE_API ? (int32_t)(m->who & ~GP_CPU_API)
			    : of == GP_PIECE_RANGE ? (m->who == GP_CPU_NONE ? m->range : (int32_t)m->who) : -1;
		if (!emit_cpu(d, fn, ctx, seg, w.at, gp_cpu_cause(d, m->who, m->range), of, idx, w.pid, w.tid))
			return;
		w.at = seg;
	}
}

/* The innermost range open around API call c, or -1. */
static int32_t range_at_call(gp_deps *d, int32_t c)
{
	const struct gp_api *ap = &d->t->apis.v[c];
	struct gp_thread_view *v = gp_deps_view(d, ap->pid, ap->tid);
	struct gp_cpu_mark m;

	return gp_cpu_before(d, v, ap->start + 1, &m) ? m.range : -1;
}

/* ---- idle gaps ------------------------------------------------------ */

static bool take_gap_piece(void *ctx, const struct gp_piece *p)
{
	gp_piece_vec *v = ctx;
	struct gp_piece *q = gp_vec_push(*v);

	*q = *p;
	if (q->cause <= GP_CAUSE_GPU_MEMORY)
		q->cause = GP_CAUSE_EVENT_WAIT;   /* work elsewhere the gap's work waited for */
	return true;
}

void gp_gap_pieces(gp_deps *d, size_t u, gp_ns a, gp_piece_vec *v)
{
	const gp_trace *t = d->t;
	gp_ns b = gp_unit_start(t, u), low;
	struct gp_walk_at w = {.on_gpu = true, .unit = (int32_t)u, .at = b};
	size_t first = v->n;

	if (b <= a)
		return;
	gp_walk(d, w, a, take_gap_piece, v);
	low = b;
	for (size_t i = first; i < v->n; i++)
		if (v->v[i].start < low)
			low = v->v[i].start;
	if (low > a)
		*gp_vec_push(*v) = (struct gp_piece){.start = a, .end = low, .cause = GP_CAUSE_UNKNOWN,
						     .of = GP_PIECE_UNIT, .idx = (int32_t)u};
}


gp_ns gp_gap_causes(gp_deps *d, size_t u, gp_ns a, gp_ns by_cause[GP_CAUSE__COUNT], struct gp_piece *main)
{
	gp_piece_vec v = {0};
	gp_ns b = gp_unit_start(d->t, u);

	*main = (struct gp_piece){.start = a, .end = a, .cause = GP_CAUSE_UNKNOWN, .of = GP_PIECE_UNIT,
				  .idx = (int32_t)u};
	if (b <= a)
		return 0;
	gp_gap_pieces(d, u, a, &v);
	for (size_t i = 0; i < v.n; i++) {
		by_cause[v.v[i].cause] += v.v[i].end - v.v[i].start;
		if (v.v[i].end - v.v[i].start > main->end - main->start)
			*main = v.v[i];
	}
	gp_vec_free(v);
	return b - a;
}

char *gp_piece_text(gp_deps *d, const struct gp_piece *p, char *buf, size_t size)
{
	const gp_trace *t = d->t;
	const char *what = NULL, *in = NULL;
	int32_t r = -1;

	switch (p->of) {
	case GP_PIECE_UNIT:
		if ((size_t)p->idx < t->kernels.n) {
			what = gp_s(t, gp_kernel_short_name_of(t, &t->kernels.v[p->idx]));
			if (t->attrs) {
				gp_str op = t->attrs[p->idx].op ? t->attrs[p->idx].op : t->attrs[p->idx].marker;
				in = op ? gp_s(t, op) : NULL;
			}
		} else if (gp_unit_window_work(t, (size_t)p->idx)) {
			what = gp_s(t, gp_unit_window_work(t, (size_t)p->idx)->name);
			in = "another iteration";
		} else {
			what = gp_unit_kind(t, (size_t)p->idx) == GP_UNIT_COPY ? "memcpy" : "memset";
		}
		break;
	case GP_PIECE_API:
		what = gp_s(t, gp_api_def(t, &t->apis.v[p->idx])->name);
		r = range_at_call(d, p->idx);
		break;
	case GP_PIECE_RANGE:
		r = p->idx;
		break;
	}
	if (p->of == GP_PIECE_RANGE && r >= 0) {
		what = gp_s(t, gp_deps_text(d, t->ranges.v[r].text));
		r = t->ranges.v[r].parent;
	}
	/* the framework op around a call or range, when it is not itself */
	for (; r >= 0 && !in; r = t->ranges.v[r].parent)
		if (t->ranges.v[r].kind == GP_RANGE_CPU_OP)
			in = gp_s(t, gp_deps_text(d, t->ranges.v[r].text));
	char wait[200];
	gp_wait_text(d, p, wait, sizeof(wait));
	if (what && in && strcmp(what, in) != 0)
		snprintf(buf, size, "%s %.120s (%.80s%s%s)", gp_cause_name(p->cause), what, in, *wait ? "; " : "", wait);
	else if (what && *wait)
		snprintf(buf, size, "%s %.160s (%s)", gp_cause_name(p->cause), what, wait);
	else if (what)
		snprintf(buf, size, "%s %.160s", gp_cause_name(p->cause), what);
	else
		snprintf(buf, size, "%s", gp_cause_name(p->cause));
	return buf;
}

/* ---- the critical path of a trace ---------------------------------- */

struct cp_span {
	uint32_t pid, tid;
	gp_ns lo, hi;
};

struct cp_acc {
	gp_deps *d;
	const gp_trace *t;
	gp_critpath *cp;
	GP_VEC(struct gp_cp_row) rows;
	gp_u64map row_at;         /* key hash -> row */
	GP_VEC(struct cp_span) spans;
	struct gp_piece_namer names;
	size_t wcur;              /* the iteration window pieces reach now (walking back) */
	gp_ns low;                /* the earliest time a piece reached */
	bool keep;                /* keep the pieces in cp->pieces */
};

const char *gp_cp_dir_name(uint8_t dir)
{
	return dir == GP_CP_DIR_MIXED ? "mixed" : dir == GP_DIR_NA ? NULL : gp_dir_name(dir);
}

static void add_row(struct cp_acc *a, int32_t win, uint8_t cause, gp_str op, gp_str layer, gp_ns ns, uint8_t dir)
{
	uint64_t h = gp_hash_mix(gp_hash_mix(gp_hash_mix(gp_hash_mix(0, (uint64_t)win), cause), op), layer);

	for (;; h = gp_hash_mix(h, 1)) {
		int32_t i = gp_u64map_get(&a->row_at, h);
		struct gp_cp_row *r;
		if (i < 0) {
			gp_u64map_put(&a->row_at, h, (int32_t)a->rows.n);
			r = gp_vec_push(a->rows);
			*r = (struct gp_cp_row){.window = win, .cause = cause, .op = op, .layer = layer};
		} else {
			r = &a->rows.v[i];
			if (r->window != win || r->cause != cause || r->op != op || r->layer != layer)
				continue;   /* another key with this hash: probe on */
		}
		r->ns += ns;
		r->pieces++;
		if (dir != GP_DIR_NA && r->dir != dir)   /* unknown yields to known; two known: mixed */
			r->dir = r->dir == GP_DIR_NA ? dir : GP_CP_DIR_MIXED;
		return;
	}
}

/* Each range's op and layer as the kernels launched under it were
** attributed: what a CPU piece inside the range is doing. */
static void range_attrs(struct gp_piece_namer *a)
{
	const gp_trace *t = a->t;

	a->range_op = gp_xcalloc(t->ranges.n + 1, sizeof(*a->range_op));
	a->range_layer = gp_xcalloc(t->ranges.n + 1, sizeof(*a->range_layer));
	if (!t->attrs)
		return;
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *at = &t->attrs[k];
		gp_str op = at->op ? at->op : at->marker;
		for (int32_t r = at->range; r >= 0 && !a->range_op[r] && !a->range_layer[r];
		     r = t->ranges.v[r].parent) {
			a->range_op[r] = op;
			a->range_layer[r] = at->layer;
		}
	}
}

void gp_piece_names(struct gp_piece_namer *a, const struct gp_piece *p, gp_str *op, gp_str *layer)
{
	const gp_trace *t = a->t;
	int32_t r = -1;

	*op = *layer = 0;
	if (p->of == GP_PIECE_UNIT && (size_t)p->idx < t->kernels.n && t->attrs) {
		const struct gp_attr *at = &t->attrs[p->idx];
		*op = at->op ? at->op : at->marker;
		*layer = at->layer;
		if (!*op)
			*op = gp_kernel_short_name_of(t, &t->kernels.v[p->idx]);
		return;
	}
	if (p->of == GP_PIECE_UNIT && gp_unit_window_work(t, (size_t)p->idx) && p->cause <= GP_CAUSE_GPU_MEMORY) {
		*op = gp_unit_window_work(t, (size_t)p->idx)->name;   /* its run: the kernel */
		return;
	}
	if (p->of == GP_PIECE_UNIT) {
		int32_t c = a->d->call[p->idx];
		if (c < 0)
			return;
		r = range_at_call(a->d, c);
		if (r < 0)
			*op = gp_api_def(t, &t->apis.v[c])->name;
	} else if (p->of == GP_PIECE_API) {
		r = range_at_call(a->d, p->idx);
		if (r < 0 || p->cause != GP_CAUSE_CPU_OP)
			*op = gp_api_def(t, &t->apis.v[p->idx])->name;
	} else if (p->of == GP_PIECE_RANGE) {
		r = p->idx;
	}
	if (r < 0)
		return;
	if (!a->range_op)
		range_attrs(a);
	*layer = a->range_layer[r];
	if (*op)
		return;
	if (p->cause != GP_CAUSE_CPU_OP) {
		*op = gp_deps_text(a->d, t->ranges.v[r].text);   /* the Python frame, annotation, loader... */
		return;
	}
	for (int32_t q = r; q >= 0 && !*op; q = t->ranges.v[q].parent) {
		if (a->range_op[q])
			*op = a->range_op[q];
		else if (op_range(t, q))
			*op = gp_deps_text(a->d, t->ranges.v[q].text);
	}
}

void gp_piece_namer_free(struct gp_piece_namer *a)
{
	free(a->range_op);
	free(a->range_layer);
	memset(a, 0, sizeof(*a));
}

static bool take_piece(void *ctx, const struct gp_piece *p)
{
	struct cp_acc *a = ctx;
	gp_critpath *cp = a->cp;
	gp_str op, layer;

	gp_piece_names(&a->names, p, &op, &layer);
	if (a->keep)
		*gp_vec_push(cp->pieces) = *p;
	if (p->start < a->low)
		a->low = p->start;
	cp->win[0].by_cause[p->cause] += p->end - p->start;
	add_row(a, 0, p->cause, op, layer, p->end - p->start,
		p->of == GP_PIECE_UNIT && (size_t)p->idx < a->t->kernels.n && a->t->attrs ? a->t->attrs[p->idx].dir
		: layer ? (uint8_t)gp_layer_path_pass(gp_s(a->t, layer)) : GP_DIR_NA);
	/* the iteration windows the piece falls in (pieces come latest first) */
	while (a->wcur > 1 && cp->win[a->wcur - 1].start >= p->end)
		a->wcur--;
	for (size_t w = a->wcur; w-- > 1;) {
		struct gp_cp_window *iw = &cp->win[w];
		gp_ns s = p->start > iw->start ? p->start : iw->start;
		gp_ns e = p->end < iw->end ? p->end : iw->end;
		if (iw->end <= p->start)
			break;
		if (e > s)
			iw->by_cause[p->cause] += e - s;
	}
	if (p->of == GP_PIECE_UNIT && p->cause <= GP_CAUSE_GPU_MEMORY)
		cp->unit_on[p->idx >> 3] |= (uint8_t)(1u << (p->idx & 7));
	if (p->cpu) {
		struct cp_span *sp = a->spans.n ? &a->spans.v[a->spans.n - 1] : NULL;
		if (sp && sp->pid == p->lane_a && sp->tid == p->lane_b && sp->lo <= p->end)
			sp->lo = p->start < sp->lo ? p->start : sp->lo;
		else
			*gp_vec_push(a->spans) = (struct cp_span){p->lane_a, p->lane_b, p->start, p->end};
	}
	return true;
}

static int cmp_span(const void *pa, const void *pb)
{
	const struct cp_span *a = pa, *b = pb;
	int c = gp_thread_cmp(a->pid, a->tid, b->pid, b->tid);

	if (c)
		return c;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* Whether the path passes x on a thread, its n sorted spans v: an event's
** start x when a span holds [x, x + 1) (lo <= x < hi), its end when one
** holds [x - 1, x) (lo < x <= hi).  A call that starts where the path
** leaves the thread (for the GPU work a call before it launched) or ends
** where it arrives holds none of its time. */
static bool in_spans(const struct cp_span *v, size_t n, gp_ns x, bool end)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (end ? v[mid].lo < x : v[mid].lo <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && (end ? x <= v[lo - 1].hi : x < v[lo - 1].hi);
}

/* HTA's rule for which CPU events are on the path: those whose start or
** end the path passes (docs/dependencies.md). */
static void mark_cpu(struct cp_acc *a)
{
	const gp_trace *t = a->t;
	gp_critpath *cp = a->cp;
	struct cp_span *v = a->spans.v;
	size_t n = a->spans.n;

	gp_vec_sort(a->spans, cmp_span);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && v[j].pid == v[i].pid && v[j].tid == v[i].tid)
			j++;
		for (size_t c = 0; c < t->apis.n; c++) {
			const struct gp_api *ap = &t->apis.v[c];
			if (ap->pid == v[i].pid && ap->tid == v[i].tid && ap->end > ap->start &&
			    (in_spans(v + i, j - i, ap->start, false) || in_spans(v + i, j - i, ap->end, true)))
				cp->api_on[c >> 3] |= (uint8_t)(1u << (c & 7));
		}
		for (size_t r = 0; r < t->ranges.n; r++) {
			const struct gp_range *rg = &t->ranges.v[r];
			if (rg->pid == v[i].pid && rg->tid == v[i].tid && rg->end > rg->start &&
			    (in_spans(v + i, j - i, rg->start, false) || in_spans(v + i, j - i, rg->end, true)))
				cp->range_on[r >> 3] |= (uint8_t)(1u << (r & 7));
		}
		i = j;
	}
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct gp_cp_row *a = pa, *b = pb;

	if (a->window != b->window)
		return a->window < b->window ? -1 : 1;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	if (a->cause != b->cause)
		return a->cause < b->cause ? -1 : 1;
	if (a->op != b->op)
		return a->op < b->op ? -1 : 1;
	return (a->layer > b->layer) - (a->layer < b->layer);
}

void gp_critpath_windows(const gp_trace *t, const struct gp_cp_scope *sc, struct gp_cp_window **win,
			 size_t *n)
{
	struct gp_steps st;

	gp_steps_find(t, &st);
	*win = gp_xcalloc(st.n + 1, sizeof(**win));
	(*win)[0] = (struct gp_cp_window){.iter = -1, .start = sc->first, .end = sc->end};
	for (size_t i = 0; i < st.n; i++)
		(*win)[i + 1] = (struct gp_cp_window){.iter = st.v[i].iter, .start = st.v[i].start,
						      .end = st.v[i].end, .range_end = st.v[i].range_end};
	*n = st.n + 1;
	gp_steps_free(&st);
}

bool gp_critpath_scope(gp_deps *d, struct gp_cp_scope *sc)
{
	const gp_trace *t = d->t;
	gp_ns end = INT64_MIN, first = INT64_MAX, cpu_end = INT64_MIN;
	uint32_t pid = 0, cpu_tid = 0;
	bool any = false;

	memset(sc, 0, sizeof(*sc));
	for (size_t u = 0; u < d->n; u++)
		if (gp_unit_end(t, u) > end) {
			end = gp_unit_end(t, u);
			sc->from = (struct gp_walk_at){.on_gpu = true, .unit = (int32_t)u, .at = end};
			pid = gp_deps_unit_pid(d, u);
			any = true;
		}
	for (size_t i = 0; i < t->apis.n; i++)
		if ((!any || t->apis.v[i].pid == pid) && t->apis.v[i].end > cpu_end) {
			cpu_end = t->apis.v[i].end;
			cpu_tid = t->apis.v[i].tid;
			if (!any)
				pid = t->apis.v[i].pid;
		}
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if ((!any || r->pid == pid) && r->kind != GP_RANGE_GPU_ANNOTATION && r->kind != GP_RANGE_MARK &&
		    !(r->flags & GP_RANGE_F_UNCLOSED) && r->end > cpu_end) {
			cpu_end = r->end;
			cpu_tid = r->tid;
			pid = r->pid;
		}
	}
	if (cpu_end > end) {
		sc->from = (struct gp_walk_at){.on_gpu = false, .pid = pid, .tid = cpu_tid, .at = cpu_end};
		end = cpu_end;
	}
	if (end == INT64_MIN)
		return false;
	for (size_t u = 0; u < d->n; u++)
		if (gp_unit_start(t, u) < first && gp_deps_unit_pid(d, u) == pid)
			first = gp_unit_start(t, u);
	for (size_t i = 0; i < t->apis.n; i++)
		if (t->apis.v[i].pid == pid && t->apis.v[i].start < first)
			first = t->apis.v[i].start;
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].pid == pid && t->ranges.v[i].kind != GP_RANGE_GPU_ANNOTATION &&
		    t->ranges.v[i].start < first)
			first = t->ranges.v[i].start;
	sc->pid = pid;
	sc->first = first > end ? end : first;
	sc->end = end;
	return true;
}

/* gp_critpath_run's work: the trace's own walk when legs is NULL, else
** the n legs given. */
static void run(gp_deps *d, const gp_trace *t, const struct gp_cp_leg *legs, size_t n, bool keep_pieces,
		gp_critpath *cp)
{
	struct cp_acc a = {.d = d, .t = t, .cp = cp, .names = {.d = d, .t = t}, .keep = keep_pieces};
	struct gp_cp_scope sc;

	memset(cp, 0, sizeof(*cp));
	if (!d->t)
		gp_deps_build(d, t);
	if (!gp_critpath_scope(d, &sc))
		return;
	cp->pid = (int32_t)sc.pid;
	gp_critpath_windows(t, &sc, &cp->win, &cp->nwin);
	cp->unit_on = gp_xcalloc(d->n / 8 + 1, 1);
	cp->api_on = gp_xcalloc(t->apis.n / 8 + 1, 1);
	cp->range_on = gp_xcalloc(t->ranges.n / 8 + 1, 1);
	a.wcur = cp->nwin;
	a.low = sc.end;
	if (!legs) {
		gp_walk(d, sc.from, sc.first, take_piece, &a);
		/* what the walk could not reach back to: nothing recorded says */
		if (a.low > sc.first) {
			struct gp_piece p = {.start = sc.first, .end = a.low, .cause = GP_CAUSE_UNKNOWN};
			take_piece(&a, &p);
		}
	}
	if (legs && n) {
		/* the communication kernels in unit order: the collectives the
		** legs name, as gp_rank_path_build counts them */
		GP_VEC(int32_t) comm = {0};
		for (size_t u = 0; u < t->kernels.n; u++)
			if (gp_kernel_is_comm(t, &t->kernels.v[u]))
				*gp_vec_push(comm) = (int32_t)u;
		for (size_t i = 0; i < n; i++) {
			/* from where gp_rank_path_build starts the same leg */
			struct gp_walk_at w = sc.from;
			if (legs[i].coll >= (int32_t)comm.n)
				continue;
			if (legs[i].coll >= 0) {
				int32_t u = comm.v[legs[i].coll];
				w = (struct gp_walk_at){.on_gpu = true, .unit = u, .at = gp_unit_start(t, (size_t)u)};
				if (w.at < sc.first)
					w.at = sc.first;
			}
			gp_walk(d, w, legs[i].stop > sc.first ? legs[i].stop : sc.first, take_piece, &a);
		}
		gp_vec_free(comm);
	}
	mark_cpu(&a);
	for (size_t i = 0, j = cp->pieces.n; i + 1 < j; i++, j--) {   /* latest first: to time order */
		struct gp_piece x = cp->pieces.v[i];
		cp->pieces.v[i] = cp->pieces.v[j - 1];
		cp->pieces.v[j - 1] = x;
	}
	gp_sort(a.rows.v, a.rows.n, sizeof(*a.rows.v), cmp_row);
	cp->rows = a.rows.v;
	cp->nrows = a.rows.n;
	gp_u64map_free(&a.row_at);
	gp_vec_free(a.spans);
	gp_piece_namer_free(&a.names);
}

void gp_critpath_run(gp_deps *d, const gp_trace *t, bool keep_pieces, gp_critpath *cp)
{
	run(d, t, NULL, 0, keep_pieces, cp);
}

void gp_critpath_run_legs(gp_deps *d, const gp_trace *t, const struct gp_cp_leg *legs, size_t n,
			  bool keep_pieces, gp_critpath *cp)
{
	static const struct gp_cp_leg none;

	run(d, t, legs ? legs : &none, legs ? n : 0, keep_pieces, cp);
}

void gp_critpath_free(gp_critpath *cp)
{
	free(cp->win);
	free(cp->rows);
	free(cp->unit_on);
	free(cp->api_on);
	free(cp->range_on);
	gp_vec_free(cp->pieces);
	memset(cp, 0, sizeof(*cp));
}
