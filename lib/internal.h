/*
** libgpuprof internals shared by the lib/ sources (never installed).
**
** Ownership: the library owns every structure declared here.  Per-thread
** state (struct gpi_thread) is created on a thread's first call and lives
** until the process exits, so the recording can be written at exit even for
** threads that have ended.  Functions here never exit or print; problems go
** to gpi_log(), which calls the program's log callback if it set one.
**
** Calls between the files point one way (a DAG; "a -> b": a calls b):
**
**     range.c  -> record.c, cuda.c, nvtx.c, core.c
**     timer.c  -> record.c, cuda.c, core.c
**     record.c -> core.c
**     cuda.c   -> core.c
**     core.c, nvtx.c -> no other file
**
** so core <- record <- timer.  Work that a lower file needs done by a higher
** one goes through a callback the higher one registers at load time: the
** core's shutdown and fork-child hooks (record.c, timer.c) and the
** recorder's timer section (timer.c).  tests/cli/t0702_lib_call_graph.sh
** derives the graph from the objects and fails on a cycle.
*/
#ifndef GPI_INTERNAL_H
#define GPI_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "gpuprof/gpuprof.h"
#include "gpuprof/record-format.h"

#define GPI_EXPORT __attribute__((visibility("default")))

/* ---- core.c ----------------------------------------------------------- */

struct gp_domain {
	char *name;
	void *nvtx;                /* nvtxDomainHandle_t, NULL = default domain */
	struct gp_domain *next;
};

/* One open range on a thread's stack. */
struct gpi_frame {
	int64_t start;             /* ns, 0 when not recording */
	int64_t arg;               /* iteration number for GPREC_ITERATION */
	gp_domain *dom;
	uint32_t name_off, name_len;  /* into gpi_thread.names */
	uint32_t color;
	uint8_t kind;              /* enum gprec_kind */
	uint8_t synced;            /* synchronized at push: do it at pop too */
};

/* Recorded events, appended by their thread only; the writer reads up to
** the published count `n` (release/acquire), so chunks never move. */
#define GPI_CHUNK_EVENTS 1024
struct gpi_event {
	int64_t start, end, arg;
	const char *name;          /* in the thread's string blocks */
	gp_domain *dom;
	uint32_t tid, end_tid, color, name_len;
	uint8_t kind;
};
struct gpi_chunk {
	struct gpi_chunk *next;
	_Atomic uint32_t n;
	struct gpi_event ev[GPI_CHUNK_EVENTS];
};
struct gpi_strblock {
	struct gpi_strblock *next;
	size_t used, cap;
	char data[];
};

struct gpi_thread {
	uint32_t tid;
	char name[32];
	struct gpi_frame *stack;
	int depth, cap;
	char *names;               /* names of the open frames, NUL-separated */
	size_t names_len, names_cap;
	struct gpi_chunk *head, *tail;
	struct gpi_strblock *strs;
	uint64_t nevents, dropped;
	bool warned_pop;
	struct gpi_thread *next;   /* all threads, newest first */
};

struct gpi_state {
	/* threads list, domains, start/end table, record_path, and each
	** callback with its context (log, sync: read as pairs) */
	pthread_mutex_t lock;
	struct gpi_thread *threads;
	struct gp_domain *domains;
	_Atomic int sync_level;
	_Atomic int recording;     /* events are being kept */
	_Atomic int64_t iterations;
	gp_sync_fn sync_fn;
	void *sync_ctx;
	gp_log_fn log_fn;
	void *log_ctx;
	char *record_path;         /* NULL = none */
	int64_t t0_real, t0_mono;  /* CLOCK_REALTIME/MONOTONIC at init, ns */
};

extern struct gpi_state gpi;

void gpi_init(void);                   /* idempotent, cheap after the first call */
struct gpi_thread *gpi_self(void);     /* NULL only when out of memory */
/* Formats a message for the program's log callback, if it set one.  Takes
** gpi.lock to read the callback: never call it with gpi.lock held. */
void gpi_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Work the core has done by the files above it, in the order registered.
** The caller owns h (a static: the core links it in, never frees it) and
** registers it from a constructor, before any thread can run the hooks.
** Constructors of different files run in link order, so no hook may rely
** on another's having run (the recorder's timer section collects the GPU
** timers itself rather than count on timer.c's shutdown hook). */
struct gpi_hook {
	void (*fn)(void);
	struct gpi_hook *next;     /* set by the core */
};
/* Runs at the first gp_shutdown() (also at exit). */
void gpi_on_shutdown(struct gpi_hook *h);
/* Runs in a forked child once the core has reset its lock and left only
** the forking thread in gpi.threads. */
void gpi_on_fork_child(struct gpi_hook *h);

static inline int64_t gpi_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- record.c ---------------------------------------------------------- */

/* Appends a finished range to th's recording, filed under thread tid
** (0 = th's) and ended by end_tid (0 = the same thread). */
void gpi_record(struct gpi_thread *th, uint8_t kind, const char *name, size_t name_len,
		gp_domain *dom, uint32_t color, int64_t start, int64_t end, int64_t arg,
		uint32_t tid, uint32_t end_tid);
/* Writes the recording to path (%p = pid); 0 or -1 (logged). */
int gpi_record_write(const char *path);

/* Writes the "timer" lines of the recording to f; returns how many (the
** NTIMERS of the "end" trailer). */
typedef int (*gpi_section_writer)(FILE *f);
/* Has the recorder call write for the timer section of every recording
** (none when no file registers one).  Call from a constructor. */
void gpi_record_set_timer_section(gpi_section_writer write);

/* Escapes s[0..len) for the recording (see record-format.h). */
void gpi_write_escaped(FILE *f, const char *s, size_t len);

/* ---- cuda.c ------------------------------------------------------------ */

/* The CUDA runtime entry points the library uses (cudaError_t as int,
** cudaEvent_t/cudaStream_t as void *).  0 is cudaSuccess. */
struct gpi_cuda {
	int (*device_synchronize)(void);
	int (*get_device_count)(int *n);
	int (*profiler_start)(void);
	int (*profiler_stop)(void);
	int (*event_create)(void **ev);
	int (*event_record)(void *ev, void *stream);
	int (*event_query)(void *ev);
	int (*event_synchronize)(void *ev);
	int (*event_elapsed_time)(float *ms, void *start, void *end);
	int (*event_destroy)(void *ev);
};

/* The runtime, loaded on first use; NULL when there is no usable CUDA
** runtime with at least one device. */
const struct gpi_cuda *gpi_cuda(void);

/* Test-only: replaces the runtime with api (NULL = no CUDA).  Not exported
** from the shared library; unit tests link the archive. */
void gpi_test_set_cuda(const struct gpi_cuda *api);

/* ---- nvtx.c (the only file that includes NVTX) ------------------------- */

void *gpi_nvtx_domain(const char *name);
void gpi_nvtx_push(gp_domain *d, const char *name, uint32_t color, int64_t payload, int has_payload);
void gpi_nvtx_pop(gp_domain *d);
uint64_t gpi_nvtx_start(gp_domain *d, const char *name, uint32_t color);
void gpi_nvtx_end(gp_domain *d, uint64_t id);
void gpi_nvtx_mark(gp_domain *d, const char *name, uint32_t color);

/* timer.c and range.c declare nothing here: no other file calls them. */

#endif
