/*
** What a CUDA, HIP or driver API call does for the step's dependencies: it
** launches GPU work, copies, waits for the GPU (and for what), records an
** event, makes a stream wait, allocates, loads or compiles code, or none
** of these.  The one definition every pass uses (the dependency graph,
** the time breakdown, advise): by the function's name, for CUDA runtime
** (cuda*), driver (cu*) and HIP (hip*) spellings, with or without the
** version and per-thread-stream suffixes (_v7000, _ptsz, _ptds).
**
** Ownership: nothing is allocated; names are the caller's.
*/
#ifndef GP_API_CLASS_H
#define GP_API_CLASS_H

#include <stdbool.h>

enum gp_api_class {
	GP_APIC_OTHER,          /* cudaGetDevice, cudaSetDevice, attribute queries... */
	GP_APIC_LAUNCH,         /* one kernel (or host function) onto a stream */
	GP_APIC_GRAPH_LAUNCH,   /* a CUDA/HIP graph: many GPU records on one call */
	GP_APIC_COPY,           /* a memcpy; synchronous unless the name says Async */
	GP_APIC_MEMSET,
	GP_APIC_SYNC_DEVICE,    /* waits for all the device's streams */
	GP_APIC_SYNC_STREAM,    /* waits for one stream */
	GP_APIC_SYNC_EVENT,     /* waits for a recorded event */
	GP_APIC_STREAM_WAIT,    /* makes a stream wait for an event: the CPU does not wait */
	GP_APIC_EVENT_RECORD,
	GP_APIC_QUERY,          /* polls an event or stream without waiting */
	GP_APIC_ALLOC,          /* device or pinned memory: malloc, free, map, register */
	GP_APIC_MODULE,         /* loading or compiling GPU code: module/library load, NVRTC, link */
	GP_APIC__COUNT
};

/* The class of the API function called name (NULL or unknown: OTHER). */
enum gp_api_class gp_api_class_of(const char *name);

/* Whether a call of class c blocks the calling thread until GPU work
** finishes (device, stream and event syncs).  Synchronous copies block
** too, but on their own copy: the dependency pass sees that from the
** copy's end, not from the class. */
static inline bool gp_api_class_is_sync(enum gp_api_class c)
{
	return c == GP_APIC_SYNC_DEVICE || c == GP_APIC_SYNC_STREAM || c == GP_APIC_SYNC_EVENT;
}

/* Whether a call of class c puts work on a GPU stream. */
static inline bool gp_api_class_launches(enum gp_api_class c)
{
	return c == GP_APIC_LAUNCH || c == GP_APIC_GRAPH_LAUNCH || c == GP_APIC_COPY ||
	       c == GP_APIC_MEMSET;
}

/* A short lower-case name of the class ("sync_stream"), for notes and
** tests. */
const char *gp_api_class_name(enum gp_api_class c);

#endif
