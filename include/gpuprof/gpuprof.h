/*
** libgpuprof: annotations, training-loop markers and timers for programs
** that gpuprof (and Nsight Systems, or any NVTX tool) profiles.
**
** Ownership: the library copies every string it is given before the call
** returns, so callers may pass temporary buffers; objects it hands out
** (gp_domain, gp_timer) belong to the library and stay valid until the
** process exits.  Nothing here ever exits, prints on its own or changes
** what the program computes: without a GPU, a driver or a profiler every
** call is a cheap no-op.
**
** Link with `pkg-config --cflags --libs gpuprof`; the library needs no CUDA
** at link time (it finds the CUDA runtime and NVTX tools at run time).
** docs/libgpuprof.md and libgpuprof(3) describe it in full.
**
** Environment (read at the first call):
**   GPUPROF_RECORD=PATH   write ranges, markers and timer statistics to PATH
**                         at exit (%p in PATH becomes the process id), for
**                         `gpuprof ranges|info PATH`
**   GPUPROF_SYNC=N        sync level 0..3 (default 0 = never synchronize)
**   GPUPROF_LOG=stderr    send the library's diagnostics to stderr
** and, when CUDA is first needed:
**   GPUPROF_CUDART=PATH   a CUDA runtime to load when none is loaded yet
*/
#ifndef GPUPROF_GPUPROF_H
#define GPUPROF_GPUPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUPROF_VERSION_MAJOR 0
#define GPUPROF_VERSION_MINOR 1
#define GPUPROF_VERSION_PATCH 0
#define GPUPROF_VERSION_STRING "0.1.0"

/* Colours are ARGB; 0 means "no colour". chainer_profutil's marker colours: */
#define GP_COLOR_ITERATION 0xfffff100u
#define GP_COLOR_FORWARD 0xff76b900u
#define GP_COLOR_BACKWARD 0xff7fdbffu
#define GP_COLOR_UPDATE 0xffe60012u

/* ---- Setup ---------------------------------------------------------- */

/* Diagnostics (unbalanced pops, an unwritable recording...).  level:
** 0 = error, 1 = warning, 2 = info.  msg is valid during the call only. */
typedef void (*gp_log_fn)(int level, const char *msg, void *ctx);

struct gp_options {
	size_t sz;                /* sizeof(struct gp_options): set it first */
	int sync_level;           /* 0..3, -1 = keep (GPUPROF_SYNC or 0) */
	const char *record_path;  /* NULL = keep (GPUPROF_RECORD or none), "" = off */
	gp_log_fn log;            /* NULL = keep */
	void *log_ctx;
};

/* Optional explicit start: applies o (NULL = environment only).  Every
** other call initializes the library on first use.  Returns 0, or -1 when
** o is malformed (sz too small, sync_level out of range). */
int gp_init(const struct gp_options *o);

/* Writes the recording (if GPUPROF_RECORD or record_path is set) and stops
** recording; also runs at exit.  Idempotent; later calls still annotate. */
void gp_shutdown(void);

/* Sets the diagnostics callback (NULL = silent, the default).  The callback
** runs outside the library's locks (it may call the library); a message
** logged meanwhile on another thread goes to the old callback or the new
** one, each with its own ctx. */
void gp_set_log(gp_log_fn fn, void *ctx);

/* 1 when a CUDA runtime and at least one device were found, else 0. */
int gp_cuda_available(void);

/* The library's version string, "0.1.0". */
const char *gp_version(void);

/* ---- Ranges (NVTX) ---------------------------------------------------- */

typedef struct gp_domain gp_domain;

/* The NVTX domain called name, created on first use (NULL or "" = the
** default domain, returned as NULL).  Library-owned, never freed. */
gp_domain *gp_domain_get(const char *name);

/* Opens a range on this thread's stack: an NVTX push range.  name NULL is
** taken as "".  At sync level 3 the device is synchronized first. */
void gp_push(const char *name);
void gp_push_ex(gp_domain *d, const char *name, uint32_t argb);

/* Closes this thread's innermost range (whatever its domain).  A pop with
** nothing open is ignored (and logged). */
void gp_pop(void);

/* A range that may end on another thread: returns its id (never 0), which
** gp_range_end() takes.  An unknown id is ignored (and logged). */
uint64_t gp_range_start(gp_domain *d, const char *name, uint32_t argb);
void gp_range_end(uint64_t id);

/* An instant event. */
void gp_mark(gp_domain *d, const char *name, uint32_t argb);

/* Layers, PyProf's convention: gp_layer_push("Conv1") opens the range
** "layer:Conv1"; close it with gp_pop().  Nested layer ranges make a path. */
void gp_layer_push(const char *name);

/* This thread's current layer path, the open layer names joined with ':'
** outermost first ("Conv2_x:Bottleneck_1:ReLU"), into buf (always
** NUL-terminated when size > 0).  Returns the full length, as snprintf. */
size_t gp_layer_path(char *buf, size_t size);

/* Depth of this thread's range stack: push, layer and phase ranges (not
** start/end ranges or marks). */
int gp_depth(void);

/* ---- Training-loop markers (chainer_profutil) ------------------------- */

enum gp_phase { GP_ITERATION, GP_FORWARD, GP_BACKWARD, GP_UPDATE };

/* Opens the phase's range ("iteration", "forward", "backward", "update",
** chainer_profutil's colours; the iteration range carries the iteration
** number, counted from 0, as its NVTX payload).  With sync on, the device
** is synchronized before the push and before the pop when the level asks
** for it: level 1 around iterations, 2 also around forward, backward and
** update, 3 around every range. */
void gp_phase_begin(enum gp_phase p);
/* Closes the innermost range, which should be phase p (logged if not). */
void gp_phase_end(enum gp_phase p);

/* The number of iterations begun so far in this process. */
int64_t gp_iteration_count(void);

/* Sync levels: 0 = never synchronize (default), 1..3 as above.  Returns
** the previous level, or -1 (level unchanged) when level is out of range. */
int gp_set_sync_level(int level);
int gp_sync_level(void);

/* The synchronization that sync levels perform: fn(ctx) instead of the
** CUDA runtime's cudaDeviceSynchronize (e.g. torch.cuda.synchronize, or a
** test double).  fn NULL restores the default. */
typedef void (*gp_sync_fn)(void *ctx);
void gp_set_sync_hook(gp_sync_fn fn, void *ctx);

/* ---- Timers (PaddlePaddle's built-in timers) ---------------------------- */

typedef struct gp_timer gp_timer;

/* The CPU wall-clock timer called name, created on first use; NULL only
** when out of memory.  Thread-safe; the same name gives the same timer. */
gp_timer *gp_timer_get(const char *name);
/* The GPU timer called name (measured with CUDA events on a stream). */
gp_timer *gp_gpu_timer_get(const char *name);

/* One measurement in progress, a value on the caller's stack.  Treat as
** opaque. */
struct gp_timer_scope {
	gp_timer *t;          /* NULL: measures nothing */
	int64_t start;        /* CPU timers: start time, ns */
	void *stream;         /* GPU timers: the cudaStream_t */
	void *priv;           /* GPU timers: the pending CUDA events */
};

/* Starts a CPU measurement (t NULL gives a scope that measures nothing). */
struct gp_timer_scope gp_timer_begin(gp_timer *t);

/* Starts a GPU measurement of the work queued on stream (a cudaStream_t;
** NULL = the default stream) until gp_timer_end().  Asynchronous: the
** elapsed time is collected once the GPU has done the work, at the latest
** by gp_timer_stats(), gp_timer_report() or gp_shutdown().  Measures
** nothing without a GPU, or when t is a CPU timer. */
struct gp_timer_scope gp_gpu_timer_begin(gp_timer *t, void *stream);

/* Ends a measurement begun by either function above and adds it to the
** timer's statistics.  Ending a scope twice adds it once. */
void gp_timer_end(struct gp_timer_scope *s);

/* For the scope macros: the timer in *slot if it is called name, else the
** one called name (then kept in *slot). */
gp_timer *gp_timer_cached(gp_timer **slot, const char *name, int gpu);

struct gp_timer_stats {
	size_t sz;               /* sizeof(struct gp_timer_stats): set it first */
	uint64_t count;
	double total_ns, min_ns, max_ns, avg_ns, stddev_ns;
};

/* Copies the statistics of timer name (CPU if gpu == 0, else GPU) into
** *out; stddev_ns is the sample standard deviation (0 below two
** measurements).  Returns 0, or -1 when there is no such timer, name or
** out is NULL, or out->sz is too small. */
int gp_timer_stats(const char *name, int gpu, struct gp_timer_stats *out);

enum gp_report_format { GP_REPORT_TABLE, GP_REPORT_CSV };

/* Prints every timer's statistics to out, sorted by total time (largest
** first, then by name).  Columns: Name, Kind ("cpu" or "gpu"), Calls,
** Total (ms), Avg (ms), Min (ms), Max (ms), StdDev (ms); times with 3
** decimals in the table, 6 in CSV (names with a comma, quote or line break
** quoted).  Returns 0, -1 on a write error or a NULL out. */
int gp_timer_report(FILE *out, enum gp_report_format format);

/* Forgets every timer's statistics (timers stay valid). */
void gp_timer_reset_all(void);

/* ---- Profiler capture range (PaddlePaddle's guarded start/stop) ------- */

/* cudaProfilerStart/Stop, for `nsys --capture-range=cudaProfilerApi`.
** Return 0 when CUDA accepted the call, -1 when there is no CUDA (then they
** do nothing) or it returned an error. */
int gp_profiler_start(void);
int gp_profiler_stop(void);

/* ---- Scope macros (GCC and Clang: cleanup attribute) ------------------ */

#if defined(__GNUC__) || defined(__clang__)
#define GP__CAT2(a, b) a##b
#define GP__CAT(a, b) GP__CAT2(a, b)
#define GP__UNIQ(p) GP__CAT(p, __LINE__)

static inline void gp__scope_pop(int *unused) { (void)unused; gp_pop(); }
static inline void gp__timer_scope_end(struct gp_timer_scope *s) { gp_timer_end(s); }
static inline void gp__profiler_scope_end(int *unused) { (void)unused; gp_profiler_stop(); }

/* A push range closed at the end of the enclosing block. */
#define GP_RANGE_SCOPE(name) \
	int GP__UNIQ(gp__rs_) __attribute__((cleanup(gp__scope_pop), unused)) = (gp_push(name), 0)
/* A layer range closed at the end of the enclosing block. */
#define GP_LAYER_SCOPE(name) \
	int GP__UNIQ(gp__ls_) __attribute__((cleanup(gp__scope_pop), unused)) = (gp_layer_push(name), 0)
/* A scoped CPU timer: one line at the top of a block (PaddlePaddle's
** REGISTER_TIMER_INFO).  The timer is cached per call site, so a constant
** name costs one string comparison. */
#define GP_TIMER_SCOPE(name) \
	static gp_timer *GP__UNIQ(gp__tslot_); \
	struct gp_timer_scope GP__UNIQ(gp__ts_) __attribute__((cleanup(gp__timer_scope_end), unused)) = \
		gp_timer_begin(gp_timer_cached(&GP__UNIQ(gp__tslot_), (name), 0))
/* A scoped GPU timer on stream (a cudaStream_t, NULL = default stream). */
#define GP_GPU_TIMER_SCOPE(name, stream) \
	static gp_timer *GP__UNIQ(gp__gslot_); \
	struct gp_timer_scope GP__UNIQ(gp__gs_) __attribute__((cleanup(gp__timer_scope_end), unused)) = \
		gp_gpu_timer_begin(gp_timer_cached(&GP__UNIQ(gp__gslot_), (name), 1), (stream))
/* cudaProfilerStart now, cudaProfilerStop at the end of the block
** (PaddlePaddle's REGISTER_GPU_PROFILER). */
#define GP_PROFILER_SCOPE() \
	int GP__UNIQ(gp__ps_) __attribute__((cleanup(gp__profiler_scope_end), unused)) = gp_profiler_start()
#endif

#ifdef __cplusplus
}
#endif

#endif
