/*
** Memory over time: the allocator events of a trace (trace->memevents)
** replayed per device into a step series of allocated and reserved bytes,
** the peak and what was live at it, allocations per op and per layer, and
** allocator churn inside the iteration loop.  docs/memory.md defines every
** figure.
**
** The result is a few small record arrays, so that results of many files
** or ranks merge by plain arithmetic: counts and bytes add per (device,
** name), peaks take the maximum, series concatenate per device.
**
** Ownership: a gp_memory owns its arrays; gp_memory_free() releases them.
** Names are gp_str of the trace it was computed from, which must outlive
** it.
*/
#ifndef GP_MEMORY_H
#define GP_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"

/* Largest byte count or total believed (2^50 = 1 PiB): beyond it a value
** is a corrupt field, skipped with a note, not a number to add up. */
#define GP_MEM_ABSURD (INT64_C(1) << 50)

#define GP_MEM_MAX_NOTES 8

/* One step of a device's series: from ts on, until the next step. */
struct gp_mem_step {
	gp_ns ts;
	int64_t allocated;
	int64_t reserved;       /* -1 = not stated */
};

struct gp_mem_device {
	int32_t device;         /* GPU id, GP_MEM_HOST for host memory */
	bool stated;            /* every total as the allocator stated it (else
				** replayed from the byte counts, from 0) */
	bool has_kernels;       /* the trace has kernels on this device */
	uint64_t events, allocs, frees;
	int64_t alloc_bytes, free_bytes;   /* free_bytes counted positive */
	int64_t peak_alloc;     /* highest allocated total; its first time: */
	gp_ns peak_ts;
	uint32_t peak_event;    /* index into trace->memevents */
	int64_t final_alloc;    /* allocated total after the last event */
	int64_t peak_reserved, final_reserved;   /* -1 = not stated */
	int64_t live_known;     /* bytes allocated by recorded events still live at
				** the peak; -1 = the events have no addresses */
	gp_ns first_ts, last_ts;
	uint32_t step0, nsteps; /* its series: steps[step0 .. step0 + nsteps) */
};

enum gp_mem_by { GP_MEM_BY_OP, GP_MEM_BY_LAYER };

/* The allocations made inside one op (or layer) on one device. */
struct gp_mem_group {
	gp_str name;            /* the op's text or the layer's path
				** (analysis/layers.h); 0 = outside any */
	int32_t device;
	uint8_t by;             /* enum gp_mem_by */
	uint64_t allocs, frees; /* events inside it */
	int64_t alloc_bytes, free_bytes;
	int64_t live_at_peak;   /* bytes it allocated still live at the device's
				** peak; -1 = no addresses */
	uint64_t live_count;    /* those allocations */
};

/* Allocator churn inside the iteration loop: after the end of the first
** iteration (ProfilerStep#N or an NVTX "iteration N" range). */
struct gp_mem_churn {
	bool has_loop;          /* the trace has iteration ranges */
	gp_ns loop_start;       /* end of the first iteration */
	uint32_t iterations;
	uint64_t malloc_calls, free_calls;   /* cudaMalloc/cudaFree family */
	double call_ns;         /* their CPU time */
	uint64_t reserved_growths;           /* GPU events that raised the reserved total */
	int64_t reserved_growth_bytes;
};

struct gp_memory {
	GP_VEC(struct gp_mem_device) devices;   /* by device id, host first */
	GP_VEC(struct gp_mem_step) steps;
	GP_VEC(struct gp_mem_group) groups;     /* by device, by, then alloc_bytes descending */
	struct gp_mem_churn churn;
	uint64_t skipped;       /* events with absurd values, not replayed */
	char notes[GP_MEM_MAX_NOTES][200];
	int nnotes;
};

/* *sum += v, saturating at the int64 limits: byte sums of a hostile file
** (millions of events of up to GP_MEM_ABSURD bytes) must not overflow. */
void gp_mem_add_bytes(int64_t *sum, int64_t v);

/* Whether e states a byte count or total beyond GP_MEM_ABSURD: a corrupt
** event, skipped by every sum. */
bool gp_mem_absurd(const struct gp_memevent *e);

/* The indices of t's memory events ordered by thread (gp_thread_cmp), in
** time order within a thread: the order to walk them beside the ranges.
** Returns a new array of t->memevents.n entries (free()).  Never fails. */
uint32_t *gp_mem_thread_order(const gp_trace *t);

/* Replays t's memory events (sorted by gp_trace_finish) into m: one pass
** over the events for the series and peaks, one walk of the events by
** thread beside the ranges for the ops and layers, one over the API calls
** for churn.  Odd input (a free without its allocation, a total below 0, an
** absurd value, events on a device without kernels) gets a note in m, never
** a wrong number.  Layer paths are interned into t.  Never fails; an
** empty result when t has no events. */
void gp_memory_run(gp_trace *t, struct gp_memory *m);

struct gp_layer_view;
/* Regroups m's layer groups by their key under v (--depth, --by
** module-type): groups whose paths cut to the same key are summed, in the
** groups' order.  Keys are interned into t.  Nothing when v cuts nothing. */
void gp_memory_layers(gp_trace *t, struct gp_memory *m, const struct gp_layer_view *v);

void gp_memory_free(struct gp_memory *m);

/* The churn part of gp_memory_run alone: the allocator calls and the GPU
** reserved-total growths after the end of the first iteration (nothing
** when t has no iteration ranges).  Never fails. */
void gp_memory_churn(const gp_trace *t, struct gp_mem_churn *c);

/* 1 when the API call name (version suffix stripped) is a device
** allocation that reaches the driver (cudaMalloc, cuMemAlloc, hipMalloc),
** -1 for its free (cudaFree, cuMemFree, hipFree), 0 otherwise. */
int gp_memory_alloc_call(const char *name);

/* The bucketed series of device d: n buckets of equal width over
** [first, last] (the trace's span); out[i] is the highest allocated and
** reserved total during bucket i (reserved -1 = not stated; allocated
** INT64_MIN = no value yet).  Buckets before the first event carry none. */
void gp_memory_buckets(const struct gp_memory *m, const struct gp_mem_device *d, gp_ns first,
		       gp_ns last, struct gp_mem_step *out, size_t n);

#endif
