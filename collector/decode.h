/*
** CUPTI activity record -> recording line (include/gpuprof/record-format.h,
** version 3): a pure function, no CUPTI call, no I/O, no global state, so
** the unit test drives it with records built from the CUDA 13 structs.
**
** Also the lines of CUPTI's CUDA graph callbacks (gpc_decode_graph), as
** pure: the id lookups are passed in.
**
** Ownership: the caller owns the decoder state and the output buffer;
** strings of the record (kernel and device names) are copied out.
*/
#ifndef GPC_DECODE_H
#define GPC_DECODE_H

#include <stdint.h>

#include <cupti_activity.h>
#include <cupti_callbacks.h>

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

/* CUPTI's id lookups (cuptiGetGraphNodeId, cuptiGetGraphId,
** cuptiGetGraphExecId), passed in so that the test can give its own;
** exec_id may be NULL (an older CUPTI): no gexec lines. */
struct gpc_graph_ids {
	CUptiResult (*node_id)(CUgraphNode node, uint64_t *id);
	CUptiResult (*graph_id)(CUgraph graph, uint32_t *id);
	CUptiResult (*exec_id)(CUgraphExec exec, uint32_t *id);
};

/* Appends the line of a CUDA graph resource callback (rd: its
** CUpti_ResourceData, whose resourceDescriptor is the CUpti_GraphData) made
** at now on thread tid: "gnode" for GRAPHNODE_CREATED (original 0) and
** GRAPHNODE_CLONED, "gexec" for GRAPHEXEC_CREATED.  Returns 1 when it wrote
** a line, 0 for another callback or ids the lookups do not give (a clone
** whose original has no id is left out rather than read as a creation). */
int gpc_decode_graph(CUpti_CallbackId cbid, const CUpti_ResourceData *rd, const struct gpc_graph_ids *ids,
		     uint64_t now, uint32_t tid, struct gpc_buf *out);

#endif
