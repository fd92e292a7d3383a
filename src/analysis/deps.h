/*
** The dependency graph of a trace: why each piece of GPU work started when
** it did and what each blocking host call waited for, from what the trace
** records (docs/dependencies.md).  Its nodes are the GPU work (kernels,
** copies, memsets: the gp_activity numbering of trace.h, a "unit"; then a
** windowed trace's window work, gp_unit_window_work) and the
** CPU threads' activity (API calls and ranges); its edges:
**
**   launch   the API call -> the GPU work it launched (by correlation id)
**   stream   GPU work -> the next work on the same stream (FIFO order)
**   event    the work an event recorded -> the first work queued on a
**            stream after a cudaStreamWaitEvent on that event
**   sync     GPU work -> the host call that waited for it to finish (a
**            stream, device or event sync, a synchronous copy or memset)
**   cpu      program order on each CPU thread (implicit: a thread's
**            activity in time order, see gp_deps_cpu_at)
**
** A unit's *binding* predecessor is the one of its launch call, its stream
** predecessor and its event source that allowed it last: the edge the
** critical path follows back (critpath.h).
**
** Ownership: gp_deps_build() fills a gp_deps that borrows the trace (which
** must stay unchanged and outlive it) and owns its arrays; the per-thread
** views are made on first use and owned too; gp_deps_free() releases
** everything.
*/
#ifndef GP_DEPS_H
#define GP_DEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/markers.h"
#include "model/classify.h"
#include "model/trace.h"
#include "util/u64map.h"

enum gp_edge {
	GP_EDGE_NONE,       /* nothing recorded: the unit's launch is not in the trace */
	GP_EDGE_LAUNCH,
	GP_EDGE_STREAM,
	GP_EDGE_EVENT,
	GP_EDGE_SYNC,
	GP_EDGE_CPU,
	GP_EDGE__COUNT
};

/* What a GPU unit is, for the critical path's categories. */
enum gp_unit_kind { GP_UNIT_KERNEL, GP_UNIT_COPY, GP_UNIT_MEMSET };

/* What a CPU thread was doing over a stretch of time: from `since` on,
** the innermost activity open on the thread was `who` (a range index,
** GP_CPU_API | an API call index, or GP_CPU_NONE when nothing was) and the
** innermost range open `range` (-1 = none).  A thread's activity is its
** API calls and CPU ranges (framework ops, annotations, Python frames,
** NVTX push/pop ranges, timers; not marks, GPU-side annotations or ranges
** the program never closed); an API call inside an API call (a driver
** call under its runtime call) stands for the outer one. */
#define GP_CPU_API  0x80000000u
#define GP_CPU_NONE 0xffffffffu
struct gp_cpu_mark {
	gp_ns at;
	uint32_t who;
	int32_t range;
};

static inline bool gp_cpu_idle(const struct gp_cpu_mark *m)
{
	return m->who == GP_CPU_NONE && m->range < 0;
}

/* Where a thread's records are, found once per thread. */
struct gp_thread_view {
	uint32_t pid, tid;
	size_t r_lo, r_hi;        /* its block of t->ranges */
	size_t a_lo, a_hi;        /* its block of gp_deps.api_by_thread */
	size_t r_hint, a_hint;    /* where the last query ended: walks go back step by step */
};

struct gp_main_thread {
	uint32_t pid, tid;
};

/* A stretch of a thread's time spent on a one-time cost (critpath.c): a
** graph capture or an autotuning call on thread tid, or (tid
** GP_ANY_THREAD) compiling or autotuning on some thread of process pid. */
#define GP_ANY_THREAD UINT32_MAX
struct gp_onetime_span {
	uint32_t pid, tid;
	gp_ns start, end;
	uint8_t cause;            /* enum gp_cause */
};

typedef struct gp_deps {
	const gp_trace *t;
	size_t n;                 /* units: kernels.n + memcpys.n + memsets.n + window_work.n */
	int32_t *call;            /* [n] launching API call, -1 = not in the trace */
	int32_t *prev;            /* [n] the unit before it on its stream, -1 = first */
	gp_u64map wait;           /* unit -> unit whose end it waited for (event edge) */
	gp_u64map wait_unknown;   /* units queued after a stream wait whose event the trace does not
				  ** name -> 2 * the wait call, + 1 when the event's record is in
				  ** the trace but not the work it recorded (gp_deps_unknown_wait) */
	gp_u64map synced;         /* API call -> unit whose end the call waited for */
	uint8_t *api_class;       /* [api_defs.n] enum gp_api_class of each API function */
	uint8_t *text_class;      /* [strs.n + 1] what a range text says (critpath.c), 0 = not yet */
	/* a marker range text's short name (PyProf's dict as "mod.op",
	** emit_nvtx's "aten::mm, seq = ..." as "aten::mm"), made on first use
	** (gp_deps_text); marker[] has a bit set for each text of a marker
	** range.  Set up by gp_deps_label_markers, which gives the trace the
	** names are interned into. */
	struct gp_marker_labels labels;
	uint8_t *marker;
	GP_VEC(struct gp_thread_view) views; /* made by gp_deps_view */
	gp_u64map view_of;        /* (pid, tid) -> index into views */
	uint32_t *api_by_thread;  /* API calls that take time, by thread, then start (made with the first view) */
	gp_u64map api_first;      /* (pid, tid) -> its first index into api_by_thread */
	uint64_t *api_count;      /* per thread group: how many */
	/* for walks (critpath.c), made on first use: the units in end order,
	** and each process's main thread */
	uint32_t *by_end;
	GP_VEC(struct gp_main_thread) mains;
	/* the one-time spans, by (pid, tid, start), disjoint per (pid, tid);
	** made on first use */
	GP_VEC(struct gp_onetime_span) onetime;
	gp_u64map first_launch;   /* a kernel name -> its first kernel (by start) */
	gp_ns warmup_end;         /* the end of the run's first step, INT64_MIN: none (critpath.c) */
	bool onetime_made;
	/* what the graph could not tell, for docs and notes */
	uint64_t edges[GP_EDGE__COUNT];
	uint64_t waits_unresolved;   /* stream waits whose event or target was not found */
	uint64_t syncs_unresolved;   /* sync calls with no known target (stream unknown) */
} gp_deps;

/* Builds the graph of t (correlated: t->attrs filled, or NULL: no launch
** links for kernels, which then start after their stream or nothing).  One
** pass over the units in start order, a counting sort by stream and one
** pass over the syncs and event records.  Never fails on odd data: an edge
** whose ends cannot be found is counted as unresolved and left out. */
void gp_deps_build(gp_deps *d, const gp_trace *t);
void gp_deps_free(gp_deps *d);

/* Lets the NVTX marker ranges of t (d's trace, which the names are
** interned into: it must not be const elsewhere while d names texts) show
** as their short names (gp_marker_label) where a text names what held the
** GPU: marks the marker texts (one pass over the ranges); each is parsed
** when gp_deps_text first asks, once (parsing every marker of a
** million-kernel trace cost more than the rest of the graph). */
void gp_deps_label_markers(gp_deps *d, gp_trace *t);


/* The name a range text s shows as: its label, else itself.  May intern
** the label into the trace (gp_s pointers stay valid: strtab.h). */
gp_str gp_deps_text(const gp_deps *d, gp_str s);

/* Unit u's fields. */
gp_ns gp_unit_start(const gp_trace *t, size_t u);
gp_ns gp_unit_end(const gp_trace *t, size_t u);      /* >= start */
int32_t gp_unit_device(const gp_trace *t, size_t u);
uint32_t gp_unit_stream(const gp_trace *t, size_t u);
enum gp_unit_kind gp_unit_kind(const gp_trace *t, size_t u);
/* The window work (model/trace.h: another iteration's kernel running in
** an iteration window, clipped to it) unit u is, or NULL: the units after
** the memsets.  It is a kernel of the graph like any other, launched by
** its call when the window kept it. */
const struct gp_window_work *gp_unit_window_work(const gp_trace *t, size_t u);

/* Whether unit u of d's trace was replayed from a CUDA/HIP graph: a kernel
** the correlation marked so (gp_attr.graph; without attributes,
** gp_kernel_graph_launched), a copy or memset made as a graph node or
** launched by a graph launch call.  The one test advise and what-if share
** (docs/dependencies.md, "Graph replays"). */
bool gp_unit_replayed(const gp_deps *d, size_t u);

/* The units of t in start order: a merge of the kernels, copies and
** memsets (each sorted by start by gp_trace_finish; ties keep that order).
** malloc()ed, units entries. */
uint32_t *gp_units_by_start(const gp_trace *t);

/* The process that launched unit u (its call's, else its own record's;
** 0 = unknown). */
uint32_t gp_deps_unit_pid(const gp_deps *d, size_t u);

/* The unit u waited for through an event, or -1. */
static inline int32_t gp_deps_wait_of(const gp_deps *d, size_t u)
{
	return gp_u64map_get(&d->wait, u);
}

/* The stream-wait call unit u was queued after, when the trace does not
** name what the wait's event recorded (-1 otherwise); *recorded: whether
** the event's record is in the trace (its work is not). */
static inline int32_t gp_deps_unknown_wait(const gp_deps *d, size_t u, bool *recorded)
{
	int32_t v = gp_u64map_get(&d->wait_unknown, u);

	*recorded = v >= 0 && (v & 1);
	return v < 0 ? -1 : v / 2;
}

/* The unit the API call a waited for, or -1 (the call did not block on
** GPU work, or what it waited for is unknown). */
static inline int32_t gp_deps_synced_of(const gp_deps *d, size_t a)
{
	return gp_u64map_get(&d->synced, a);
}

/* A copy this small is no data to stage: a read of a GPU value (.item(),
** .cpu() of a scalar) or a small tensor made on the host; when its call
** waits for it, a host synchronization (advise_memory.c). */
#define GP_SMALL_COPY_BYTES (64u << 10)

/* Whether unit u is a copy its launching call (in the trace) stages
** through a bounce buffer: GP_SMALL_COPY_BYTES or more from or to pageable
** host memory (nsys, CUPTI and Kineto record the kinds).  The GPU side of such a copy starts and runs at the
** pace the host stages it: from its call's start, the GPU waits for the
** host (pageable_copy, docs/dependencies.md), not for a launch. */
bool gp_deps_staged_copy(const gp_deps *d, size_t u);

/* The class of API call a (api_class.h). */
static inline enum gp_api_class gp_deps_api_class(const gp_deps *d, size_t a)
{
	return (enum gp_api_class)d->api_class[d->t->apis.v[a].def];
}

/* A launch whose work starts this long after the call returned was not
** held by the launch: launch latency is microseconds, and work queued
** behind other work is bound by that work. */
#define GP_LAUNCH_LATENCY_MAX_NS ((gp_ns)1000000)

/* The binding predecessor of unit u: which edge allowed it to start last
** and from where.  *from is the unit (STREAM, EVENT) or API call (LAUNCH),
** -1 for NONE and for an EVENT whose source the trace does not name (u
** was queued after a stream wait and started more than
** GP_LAUNCH_LATENCY_MAX_NS after its call returned); *ready the time that
** predecessor allowed u to start (a unit's end, a call's start; for an
** unknown event, the call's end).  A predecessor that allowed it after u
** started (clock skew between CPU and GPU timestamps) still counts: the
** latest wins. */
enum gp_edge gp_deps_binding(const gp_deps *d, size_t u, int32_t *from, gp_ns *ready);

/* A thread that resumes at b after an idle stretch from a (or leaves at b
** a call that waited for another thread) was handed work by another
** thread, which no trace records: taken to be the thread of the same
** process that went idle last in (a, b] and still was at b, at most
** GP_HANDOFF_MAX_NS before b.  Returns true and sets *wtid and *at (when
** it went idle) when there is one.  docs/dependencies.md says what this
** infers. */
#define GP_HANDOFF_MAX_NS ((gp_ns)1000000)
bool gp_deps_waker(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns a, gp_ns b, uint32_t *wtid, gp_ns *at);

/* Another thread of process pid than tid that is busy (not idle) just
** before x: *wtid and *at = x.  False when none is. */
bool gp_deps_busy_other(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns x, uint32_t *wtid, gp_ns *at);

/* The latest time *at in (lo, x] just before which another thread of
** process pid than tid was inside a framework op (a cpu_op range, or a
** call it makes), and that thread, *wtid.  False when none was.  Walks
** each thread's states back from x, as far as its last op. */
bool gp_deps_op_other(gp_deps *d, uint32_t pid, uint32_t tid, gp_ns lo, gp_ns x, uint32_t *wtid, gp_ns *at);

/* Whether range r is a call that blocks its thread until other threads'
** work is done (PyTorch's run_backward, which waits for the autograd
** engine's threads). */
bool gp_deps_blocking_range(const gp_deps *d, int32_t r);

/* The view of thread (pid, tid): its records, found on first use (the
** first use indexes every thread's API calls: one counting sort).  The
** pointer is valid until the next call. */
struct gp_thread_view *gp_deps_view(gp_deps *d, uint32_t pid, uint32_t tid);

/* What the thread of v was doing just before time x, into *m (m->at: since
** when).  False when x is at or before its first activity (then *m is idle
** since INT64_MIN).  A walk back in small steps costs O(1) a query (v keeps
** where the last one ended), a jump one binary search. */
bool gp_cpu_before(gp_deps *d, struct gp_thread_view *v, gp_ns x, struct gp_cpu_mark *m);

/* The first time at or after x that the thread of v starts an activity;
** INT64_MAX when none. */
gp_ns gp_cpu_next_start(gp_deps *d, const struct gp_thread_view *v, gp_ns x);

/* Calls fn with each state change of the thread of v in time order (the
** first from its first activity; the last: idle since its last activity
** ended), O(depth) memory.  fn returns false to stop; it may call
** gp_deps_view (v is read before the first call). */
void gp_cpu_sweep(gp_deps *d, const struct gp_thread_view *v, bool (*fn)(void *ctx, const struct gp_cpu_mark *m),
		  void *ctx);

#endif
