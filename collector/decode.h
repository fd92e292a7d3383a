/*
** CUPTI activity record -> recording line (include/gpuprof/record-format.h,
** version 2): a pure function, no CUPTI call, no I/O, no global state, so
** the unit test drives it with records built from the CUDA 13 structs.
**
** Ownership: the caller owns the decoder state and the output buffer;
** strings of the record (kernel and device names) are copied out.
*/
#ifndef GPC_DECODE_H
#define GPC_DECODE_H

#include <stdint.h>

#include <cupti_activity.h>

#include "buf.h"

/* What the decoder counts across records; the writer reports it as
** "dropped N untimed" / "dropped N after_duration" lines. */
struct gpc_decoder {
	uint64_t deadline;          /* records starting after it are left out, 0 = none */
	uint64_t untimed;           /* records without timestamps (start == end == 0) */
	uint64_t after_deadline;    /* records left out by the deadline */
	uint64_t unknown;           /* kinds the collector does not record */
};

/* Appends rec's line to out: a kernel (CONCURRENT_KERNEL or KERNEL, read
** through CUpti_ActivityKernel10's prefix, Kernel4 and later), memcpy
** (MEMCPY, MEMCPY2 = peer to peer), memset, runtime or driver API call,
** synchronization, graph launch, device, overhead.  Returns 1 when it
** wrote a line, 0 when the record was left out (a kind not recorded,
** no timestamps, after the deadline: counted in d). */
int gpc_decode(struct gpc_decoder *d, const CUpti_Activity *rec, struct gpc_buf *out);

#endif
