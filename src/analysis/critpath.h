/*
** The critical path of a trace and the causes of its GPU idle time, both
** read off the dependency graph (deps.h, docs/dependencies.md).
**
** The walk goes back in time from a point (the end of the last work, the
** start of the work after an idle gap) and at each step follows what
** bound the thing it is on: a GPU unit's binding predecessor (its launch
** call, the unit before it on its stream, the unit it waited for through
** an event); on a CPU thread, the activity before it on the thread, except
** at the end of a call that blocked on GPU work, where it follows that
** work.  Every nanosecond it passes is given to exactly one piece, so the
** pieces of a walk from b back to a add up to b - a: "how much of the
** step each op, layer, stream and cause holds" sums to the step.
**
** Ownership: gp_critpath_run() fills a gp_critpath that owns its arrays
** (gp_critpath_free); strings are the trace's (gp_str), so the result must
** not outlive the trace.
*/
#ifndef GP_CRITPATH_H
#define GP_CRITPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/deps.h"
#include "model/trace.h"

/* What holds a piece of the path (or of an idle gap).  GPU causes first,
** then the gaps between GPU work, then what the CPU was doing. */
enum gp_cause {
	GP_CAUSE_GPU_COMPUTE,   /* a compute kernel ran */
	GP_CAUSE_GPU_COMM,      /* a communication kernel ran */
	GP_CAUSE_GPU_MEMORY,    /* a copy or memset ran */
	GP_CAUSE_LAUNCH,        /* from a launch call's start to its work's start */
	GP_CAUSE_GPU_GAP,       /* between back-to-back work on one stream */
	GP_CAUSE_PAGEABLE_COPY, /* a copy's call staging pageable host memory (deps.h, gp_deps_staged_copy) */
	GP_CAUSE_EVENT_WAIT,    /* from the end of an event's work to the waiting work */
	GP_CAUSE_SYNC,          /* a host call waiting for GPU work, past that work's end */
	GP_CAUSE_COMM_WAIT,     /* the CPU waiting on a collective (Work.wait, c10d::wait, wait_tensor) */
	GP_CAUSE_CPU_OP,        /* CPU time of framework ops (and their launch calls) */
	GP_CAUSE_PYTHON,        /* Python frames outside framework ops */
	GP_CAUSE_ANNOTATION,    /* user ranges (record_function, NVTX) outside ops */
	GP_CAUSE_DATALOADER,    /* data loading (DataLoader iteration and its workers' results) */
	GP_CAUSE_ALLOCATOR,     /* cudaMalloc/cudaFree and the like */
	GP_CAUSE_FIRST_ALLOC,   /* an allocation call in or before the run's first step (one-time) */
	GP_CAUSE_JIT,           /* compiling GPU code, on any thread (one-time) */
	GP_CAUSE_AUTOTUNE,      /* trying algorithms: cuDNN/cuBLASLt/Triton autotuning (one-time) */
	GP_CAUSE_MODULE_LOAD,   /* loading GPU code: module/library load, lazy loading (one-time) */
	GP_CAUSE_CAPTURE,       /* capturing a CUDA/HIP graph: captured work does not run (one-time) */
	GP_CAUSE_CUDA_API,      /* other runtime or driver calls */
	GP_CAUSE_UNTRACED,      /* the thread ran nothing the trace recorded */
	GP_CAUSE_UNKNOWN,       /* nothing recorded explains it (the launch is not in the trace) */
	GP_CAUSE__COUNT
};

/* The one vocabulary of causes (docs/cli.md, "Causes"): each cause's one
** name, used alike by breakdown's columns (idle_NAME), advise's kinds of
** the findings about a cause, the HTML report and --what-if cause:NAME;
** the names it had before, accepted as aliases; what it means. */
struct gp_cause_def {
	const char *name;
	const char *aliases[3];   /* old names (breakdown columns without their
				  ** idle_ prefix, advise kinds), NULL-ended */
	const char *meaning;
	bool one_time;            /* a cost a process pays once (compiling, loading
				  ** code, capturing graphs), not every step */
};

/* The definition of cause c (an out-of-range c: unknown's). */
const struct gp_cause_def *gp_cause_def(int cause);

/* "gpu_compute", "launch", "dataloader"... (stable ids for csv/json). */
const char *gp_cause_name(int cause);

/* The cause named name or one of its aliases; -1 when none is. */
int gp_cause_find(const char *name);

static inline bool gp_cause_one_time(int c)
{
	return gp_cause_def(c)->one_time;
}

/* Whether GPU idle time can have cause c: every cause but a GPU unit's
** own run (GPU work elsewhere that idle time waited for is event_wait). */
static inline bool gp_cause_is_idle(int c)
{
	return c > GP_CAUSE_GPU_MEMORY && c < GP_CAUSE__COUNT;
}

/* What a piece belongs to. */
enum gp_piece_of { GP_PIECE_NONE, GP_PIECE_UNIT, GP_PIECE_API, GP_PIECE_RANGE };

/* One piece of a walk: [start, end) held by cause; of says what idx is
** (a GPU unit, an API call, a range: the innermost activity holding it;
** for LAUNCH, GPU_GAP, EVENT_WAIT the unit waiting; for SYNC the call). */
struct gp_piece {
	gp_ns start, end;
	uint8_t cause;          /* enum gp_cause */
	uint8_t of;             /* enum gp_piece_of */
	bool cpu;               /* on a CPU thread (lane = pid, tid), else on a
				** GPU stream (lane = device, stream) */
	int32_t idx;
	uint32_t lane_a, lane_b;
};

/* Receives the pieces of a walk, latest first; returns false to stop. */
typedef bool (*gp_piece_fn)(void *ctx, const struct gp_piece *p);

/* Where a walk is: on GPU unit `idx` (at) or on CPU thread (pid, tid). */
struct gp_walk_at {
	bool on_gpu;
	int32_t unit;
	uint32_t pid, tid;
	gp_ns at;
};

/* Walks back from w to time stop (or until nothing before is known),
** giving each piece to fn.  A walk that starts on a unit at its start
** begins with the unit's binding predecessor (what made it start then);
** at its end, with the unit itself.  Never fails; the walk always ends:
** every step moves back in time or stops. */
void gp_walk(gp_deps *d, struct gp_walk_at w, gp_ns stop, gp_piece_fn fn, void *ctx);

/* The cause of CPU time held by activity who (deps.h's gp_cpu_mark.who)
** with innermost range `range`.  d gives the API classes, and the end of
** the run's first step (made on first use; none when the trace starts
** later): an allocation call starting before it is first_alloc's
** (warm-up), a later one allocator's. */
enum gp_cause gp_cpu_cause(gp_deps *d, uint32_t who, int32_t range);

/* Whether unit u is a kernel whose launch loaded its module (CUDA's lazy
** loading): the first kernel of its name, launched by a launch call, that
** started a millisecond or more after the call returned while nothing
** else held it (its stream was free by then, no event named).  Its
** latency is module_load's, not the launch's. */
bool gp_unit_loads_module(gp_deps *d, size_t u);

/* gp_cpu_cause of thread (pid, tid) at time at, with its one-time costs:
** inside a graph capture of the thread, capture; waiting (CPU op, Python,
** user range, untraced, other calls) while another thread of the process
** compiles, jit.  What walks give CPU pieces. */
enum gp_cause gp_cpu_cause_at(gp_deps *d, uint32_t who, int32_t range, uint32_t pid, uint32_t tid, gp_ns at);

/* What piece p is, in words, into buf: its cause and what holds it
** ("allocator cudaFree in aten::cudnn_convolution", "launch of
** ampere_sgemm_128x64_tn (aten::mm)", "sync cudaStreamSynchronize",
** "untraced").  Returns buf. */
char *gp_piece_text(gp_deps *d, const struct gp_piece *p, char *buf, size_t size);

/* What the event_wait piece p of a waiting unit waited for, into buf: "for
** K on stream S of device D" (the event's recorded work), or, when the
** trace does not name it, "after cudaStreamWaitEvent: the event's record
** is not in the trace" (or "the work the event recorded is not in the
** trace"); "" for any other piece.  Returns buf. */
char *gp_wait_text(gp_deps *d, const struct gp_piece *p, char *buf, size_t size);

/* The pieces of a walk from unit u's start back to a, clipped to [a, start)
** and covering it whole (what the walk could not reach is one piece of
** GP_CAUSE_UNKNOWN; GPU work elsewhere that u waited for counts as
** GP_CAUSE_EVENT_WAIT): appended to *v, latest first.  The pieces of one
** idle gap, for the time breakdown. */
typedef GP_VEC(struct gp_piece) gp_piece_vec;
void gp_gap_pieces(gp_deps *d, size_t u, gp_ns a, gp_piece_vec *v);

/* The story of an idle gap [a, b) that unit u ended, into buf: its
** largest pieces (merged when they name the same thing, at most three, each
** at least a twentieth of the gap) with their times: "allocator cudaFree
** (aten::cudnn_convolution) 1.06 s; jit cudaLaunchKernel 726.3 ms".
** Returns buf ("" when nothing is known). */
char *gp_gap_story(gp_deps *d, int32_t u, gp_ns a, gp_ns b, char *buf, size_t size);

/* Why the GPU of unit u sat idle from a until u started: the pieces of a
** walk from u's start back to a (what held u back, and what held that),
** summed by cause into by_cause (which it adds to; GPU work of another
** device the chain waited for counts as GP_CAUSE_EVENT_WAIT).  *main gets
** the largest piece (for its op, call or range: what to name), or a piece
** of cause GP_CAUSE_UNKNOWN when nothing was found.  Returns the time it
** attributed: b - a when the walk reached back to a, less when it stopped
** (the rest is GP_CAUSE_UNKNOWN, added too). */
gp_ns gp_gap_causes(gp_deps *d, size_t u, gp_ns a, gp_ns by_cause[GP_CAUSE__COUNT], struct gp_piece *main);

/* Names the op and layer holding a piece, as the critical path's table
** does: a kernel's op (else its short name) and layer; a call's or range's
** enclosing framework op, else the call's name or the range's text (the
** Python frame, annotation, loader).  Keep one per walk: it remembers each
** range's op and layer once asked (gp_piece_namer_free).  Set d and t,
** the rest zero. */
struct gp_piece_namer {
	gp_deps *d;
	const gp_trace *t;
	gp_str *range_op, *range_layer;   /* [ranges.n], from the kernels under each range */
};

/* The op and layer (0 = none) holding piece p of n's trace. */
void gp_piece_names(struct gp_piece_namer *n, const struct gp_piece *p, gp_str *op, gp_str *layer);
void gp_piece_namer_free(struct gp_piece_namer *n);

/* One row of the critical path's table: time held per cause, op and layer
** (0 = none), over the whole path (window 0; the iterations have their
** sums by cause only: a table per step is what --iter gives). */
struct gp_cp_row {
	int32_t window;         /* index into windows */
	uint8_t cause;
	gp_str op;              /* the framework op (or kernel or call name) holding it */
	gp_str layer;
	gp_ns ns;
	uint64_t pieces;
	uint8_t dir;            /* its pieces' pass (enum gp_dir): a kernel's
				** attributed one, another piece's the one its
				** layer path names; GP_CP_DIR_MIXED when two
				** known ones differ (not in the key) */
};
#define GP_CP_DIR_MIXED 0xff

/* A row's pass as outputs print it: "fprop", "bprop", "wgrad", "mixed";
** NULL when unknown. */
const char *gp_cp_dir_name(uint8_t dir);

/* A window of the path: the whole trace (iter -1), then each iteration on
** the step clock (from its step range's start to the next one's). */
struct gp_cp_window {
	int32_t iter;
	gp_ns start, end;
	gp_ns range_end;                   /* a step's range's own end (gp_step) */
	gp_ns by_cause[GP_CAUSE__COUNT];   /* sums to end - start */
};

typedef struct gp_critpath {
	struct gp_cp_window *win;
	size_t nwin;
	struct gp_cp_row *rows;     /* of window 0, by ns (largest first) */
	size_t nrows;
	/* which records the path passed (HTA's args.critical): one bit each */
	uint8_t *unit_on, *api_on, *range_on;
	int32_t pid;                /* the process walked (the one with the last work) */
	gp_piece_vec pieces;        /* the path itself, in time order (when asked) */
} gp_critpath;

/* What a whole-trace walk covers: the process whose work ends last, from
** its first activity to its last, and where the last is. */
struct gp_cp_scope {
	uint32_t pid;
	gp_ns first, end;
	struct gp_walk_at from;
};

/* Process pid's main thread: the one holding its iteration ranges, else
** the thread of its first range or API call; 0 when it has none. */
uint32_t gp_critpath_main_thread(gp_deps *d, uint32_t pid);

/* Finds the scope of d's trace; false for a trace with nothing in it. */
bool gp_critpath_scope(gp_deps *d, struct gp_cp_scope *s);

/* The windows of scope s: the whole of it, then the run's steps (steps.h,
** the one definition: from a step's start to the next one's), sorted by
** start.  *win is malloc()ed. */
void gp_critpath_windows(const gp_trace *t, const struct gp_cp_scope *s, struct gp_cp_window **win,
			 size_t *n);

/* Builds d (gp_deps_build) if d->t is NULL, walks the path of the process
** whose work ends last, from that end back to its first activity, and sums
** it per window, cause, op and layer; keeps its pieces too when
** keep_pieces (a piece per kernel on the path and per stretch between:
** what export draws).  Never fails on odd data; an empty trace gives no
** windows. */
void gp_critpath_run(gp_deps *d, const gp_trace *t, bool keep_pieces, gp_critpath *cp);

/* A walk a path takes on one trace of a job (jobpath.h): from the trace's
** end (coll -1) or from the start of its coll-th communication kernel
** (in unit order: the collectives gp_coll_extract finds), back to stop. */
struct gp_cp_leg {
	int32_t coll;
	gp_ns stop;
};

/* As gp_critpath_run, but the path is the n legs (latest first, each
** earlier than the one before: a job's path on this trace), not the
** trace's own walk: what the job's path across ranks marks on one rank
** (export --critical-path over several files).  Time between the legs is
** held by other ranks and is in no window's sums.  A leg whose collective
** the trace does not have is skipped.  n = 0 marks nothing. */
void gp_critpath_run_legs(gp_deps *d, const gp_trace *t, const struct gp_cp_leg *legs, size_t n,
			  bool keep_pieces, gp_critpath *cp);
void gp_critpath_free(gp_critpath *cp);

static inline bool gp_critpath_on(const uint8_t *bits, size_t i)
{
	return bits && (bits[i >> 3] >> (i & 7)) & 1;
}

#endif
