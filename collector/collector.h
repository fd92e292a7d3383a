/*
** The collector's parts (docs/collector.md): writer.c owns this process's
** recording and the settings `gpuprof record` passes in the environment;
** cupti.c (CUDA_INJECTION64_PATH: InitializeInjection) and nvtx.c
** (NVTX_INJECTION64_PATH: InitializeInjectionNvtx2) produce records and
** hand them to the writer.  The collector never exits, never writes to
** stdout, and reports what it could not do as notes in the recording (and
** on the log, GPUPROF_COLLECT_LOG, only when asked).
**
** Ownership: the process-wide state is the writer's (one per process, as
** CUDA and NVTX injection are); producers pass it buffers they own and
** keep.  Calls nest cupti/nvtx -> writer, never the reverse, except the
** flush hook the CUDA side registers (gpc_set_cuda_flush).
*/
#ifndef GPC_COLLECTOR_H
#define GPC_COLLECTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"

/* What `gpuprof record --trace` asked for. */
#define GPC_TRACE_CUDA 1u   /* kernels, memcpy, memset, syncs, devices, overhead */
#define GPC_TRACE_API  2u   /* runtime and driver API calls (correlation) */
#define GPC_TRACE_NVTX 4u   /* NVTX ranges and marks */

/* Settings read once from the environment (docs/collector.md). */
struct gpc_config {
	unsigned trace;            /* GPC_TRACE_* bits */
	bool capture_range;        /* record only between cudaProfilerStart/Stop */
	bool graph_launches;       /* a CUDA graph launch as one record, not its nodes */
	uint64_t deadline;         /* CLOCK_MONOTONIC ns after which nothing is kept, 0 = none */
};

/* The settings; reads the environment on the first call.  Thread-safe. */
const struct gpc_config *gpc_config(void);

/* CLOCK_MONOTONIC in ns: the recording's clock for every record. */
uint64_t gpc_now(void);

/* Whether records are kept now: capture range open (or none asked for). */
bool gpc_collecting(void);
/* Opens or closes the capture range (cudaProfilerStart/Stop). */
void gpc_set_collecting(bool on);

/* Appends b's lines to the recording as one chunk (one write(2)), opening
** the recording first if needed, then empties b.  nranges = how many of
** them are range lines (for the end line).  A failed write becomes a
** note on the log; the program goes on. */
void gpc_write_chunk(struct gpc_buf *b, uint64_t nranges);

/* Adds a "note TEXT" line to the recording (printf format), and writes it
** on the log when one is set. */
void gpc_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Writes to the log (GPUPROF_COLLECT_LOG: "stderr" or a file) if set. */
void gpc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Registers the function that flushes CUPTI's buffers (cupti.c), which the
** writer calls at exit, on SIGINT/SIGTERM, before a forced flush. */
void gpc_set_cuda_flush(void (*flush)(void));
/* Registers the function that hands over NVTX's pending lines (nvtx.c). */
void gpc_set_nvtx_flush(void (*flush)(void));

/* Hands everything the producers hold to the recording now (at
** cudaProfilerStop; at exit and on SIGINT/SIGTERM the writer does it). */
void gpc_flush(void);

/* Starts the writer's exit handling once per process (atexit, signal
** handlers chained to the program's).  Called by each injection entry. */
void gpc_start(void);

/* Tells the NVTX side that this thread made a CUDA graph node (cupti.c):
** the push/pop ranges open on it are kept even outside the capture range,
** since they say what the node's replays belong to. */
void gpc_nvtx_node_made(void);

/* Marks that CUDA's injection ran in this process (for the notes at exit). */
void gpc_cuda_started(void);

#endif
