/*
** CUPTI activity records -> recording lines (decode.h).  The record
** structs are CUDA 13.0's; a later CUPTI appends fields (Kernel10 ->
** Kernel11) but keeps those read here where they are.
*/
#include "decode.h"

/* CUPTI's overhead kinds are spaced 1 << 16 apart; the recording's names. */
static const char *overhead_name(CUpti_ActivityOverheadKind k)
{
	switch ((int)k) {
	case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "driver_compiler";
	case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "buffer_flush";
	case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "instrumentation";
	case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "resource";
	case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING: return "module_loading";
	case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy_function_loading";
	case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command_buffer_full";
	case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "buffer_request";
	case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "uvm_init";
	default: return "unknown";
	}
}

/* Whether a GPU record with these times is kept; counts the others. */
static int timed(struct gpc_decoder *d, uint64_t start, uint64_t end)
{
	if (start == 0 && end == 0) {
		d->untimed++;
		return 0;
	}
	if (d->deadline && start > d->deadline) {
		d->after_deadline++;
		return 0;
	}
	return 1;
}

static void kernel(struct gpc_buf *o, const CUpti_ActivityKernel10 *k)
{
	gpc_buf_str(o, "kernel");
	gpc_buf_u64(o, k->start);
	gpc_buf_u64(o, k->end);
	gpc_buf_u64(o, k->deviceId);
	gpc_buf_u64(o, k->contextId);
	gpc_buf_u64(o, k->streamId);
	gpc_buf_u64(o, k->correlationId);
	gpc_buf_i64(o, k->gridX);
	gpc_buf_i64(o, k->gridY);
	gpc_buf_i64(o, k->gridZ);
	gpc_buf_i64(o, k->blockX);
	gpc_buf_i64(o, k->blockY);
	gpc_buf_i64(o, k->blockZ);
	gpc_buf_u64(o, k->registersPerThread);
	gpc_buf_i64(o, k->staticSharedMemory);
	gpc_buf_i64(o, k->dynamicSharedMemory);
	gpc_buf_u64(o, k->graphId);
	gpc_buf_u64(o, k->graphNodeId);
	gpc_buf_str(o, "\t");
	gpc_buf_escaped(o, k->name);
	gpc_buf_endline(o);
}

/* The fields every GPU record starts with. */
static void gpu_head(struct gpc_buf *o, const char *what, uint64_t start, uint64_t end,
		     uint32_t device, uint32_t context, uint32_t stream, uint32_t corr)
{
	gpc_buf_str(o, what);
	gpc_buf_u64(o, start);
	gpc_buf_u64(o, end);
	gpc_buf_u64(o, device);
	gpc_buf_u64(o, context);
	gpc_buf_u64(o, stream);
	gpc_buf_u64(o, corr);
}

static void memcpy_line(struct gpc_buf *o, const CUpti_ActivityMemcpy6 *m)
{
	gpu_head(o, "memcpy", m->start, m->end, m->deviceId, m->contextId, m->streamId, m->correlationId);
	gpc_buf_u64(o, m->copyKind);
	gpc_buf_u64(o, m->srcKind);
	gpc_buf_u64(o, m->dstKind);
	gpc_buf_u64(o, (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0);
	gpc_buf_u64(o, m->bytes);
	gpc_buf_str(o, "\t-1\t-1");
	gpc_buf_u64(o, m->graphId);
	gpc_buf_u64(o, m->graphNodeId);
	gpc_buf_endline(o);
}

static void memcpy_p2p(struct gpc_buf *o, const CUpti_ActivityMemcpyPtoP4 *m)
{
	gpu_head(o, "memcpy", m->start, m->end, m->deviceId, m->contextId, m->streamId, m->correlationId);
	gpc_buf_u64(o, m->copyKind);
	gpc_buf_u64(o, m->srcKind);
	gpc_buf_u64(o, m->dstKind);
	gpc_buf_u64(o, (m->flags & CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC) != 0);
	gpc_buf_u64(o, m->bytes);
	gpc_buf_u64(o, m->srcDeviceId);
	gpc_buf_u64(o, m->dstDeviceId);
	gpc_buf_u64(o, m->graphId);
	gpc_buf_u64(o, m->graphNodeId);
	gpc_buf_endline(o);
}

static void memset_line(struct gpc_buf *o, const CUpti_ActivityMemset4 *m)
{
	gpu_head(o, "memset", m->start, m->end, m->deviceId, m->contextId, m->streamId, m->correlationId);
	gpc_buf_u64(o, m->bytes);
	gpc_buf_u64(o, m->value);
	gpc_buf_u64(o, m->memoryKind);
	gpc_buf_u64(o, m->graphId);
	gpc_buf_u64(o, m->graphNodeId);
	gpc_buf_endline(o);
}

static void api(struct gpc_buf *o, const CUpti_ActivityAPI *a)
{
	gpc_buf_str(o, a->kind == CUPTI_ACTIVITY_KIND_DRIVER ? "api\tdriver" : "api\truntime");
	gpc_buf_u64(o, a->start);
	gpc_buf_u64(o, a->end);
	gpc_buf_u64(o, a->threadId);
	gpc_buf_u64(o, a->correlationId);
	gpc_buf_u64(o, a->cbid);
	gpc_buf_u64(o, a->returnValue);
	gpc_buf_endline(o);
}

static void sync_line(struct gpc_buf *o, const CUpti_ActivitySynchronization2 *s)
{
	gpc_buf_str(o, "sync");
	gpc_buf_u64(o, s->start);
	gpc_buf_u64(o, s->end);
	gpc_buf_u64(o, s->contextId);
	gpc_buf_u64(o, s->streamId);
	gpc_buf_u64(o, s->correlationId);
	gpc_buf_u64(o, s->type);
	gpc_buf_u64(o, s->cudaEventId);
	gpc_buf_endline(o);
}

static void event_line(struct gpc_buf *o, const CUpti_ActivityCudaEvent2 *e)
{
	gpc_buf_str(o, "event");
	gpc_buf_u64(o, e->correlationId);
	gpc_buf_u64(o, e->eventId);
	gpc_buf_u64(o, e->deviceId);
	gpc_buf_u64(o, e->contextId);
	gpc_buf_u64(o, e->streamId);
	gpc_buf_endline(o);
}

static void graph(struct gpc_buf *o, const CUpti_ActivityGraphTrace2 *g)
{
	gpu_head(o, "graph", g->start, g->end, g->deviceId, g->contextId, g->streamId, g->correlationId);
	gpc_buf_u64(o, g->graphId);
	gpc_buf_endline(o);
}

static void device(struct gpc_buf *o, const CUpti_ActivityDevice5 *v)
{
	gpc_buf_str(o, "device");
	gpc_buf_u64(o, v->id);
	gpc_buf_u64(o, v->numMultiprocessors);
	gpc_buf_u64(o, v->computeCapabilityMajor);
	gpc_buf_u64(o, v->computeCapabilityMinor);
	gpc_buf_u64(o, v->globalMemorySize);
	gpc_buf_u64(o, v->globalMemoryBandwidth * 1000);   /* kB/s */
	gpc_buf_u64(o, (uint64_t)v->coreClockRate * 1000); /* kHz */
	gpc_buf_u64(o, v->l2CacheSize);
	gpc_buf_str(o, "\t");
	gpc_buf_escaped(o, v->name);
	gpc_buf_endline(o);
}

static void overhead(struct gpc_buf *o, const CUpti_ActivityOverhead3 *v)
{
	gpc_buf_str(o, "overhead\t");
	gpc_buf_str(o, overhead_name(v->overheadKind));
	gpc_buf_u64(o, v->start);
	gpc_buf_u64(o, v->end);
	gpc_buf_endline(o);
}

int gpc_decode(struct gpc_decoder *d, const CUpti_Activity *rec, struct gpc_buf *out)
{
	switch (rec->kind) {
	case CUPTI_ACTIVITY_KIND_KERNEL:
	case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
		const CUpti_ActivityKernel10 *k = (const void *)rec;
		if (!timed(d, k->start, k->end))
			return 0;
		kernel(out, k);
		return 1;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY: {
		const CUpti_ActivityMemcpy6 *m = (const void *)rec;
		if (!timed(d, m->start, m->end))
			return 0;
		memcpy_line(out, m);
		return 1;
	}
	case CUPTI_ACTIVITY_KIND_MEMCPY2: {
		const CUpti_ActivityMemcpyPtoP4 *m = (const void *)rec;
		if (!timed(d, m->start, m->end))
			return 0;
		memcpy_p2p(out, m);
		return 1;
	}
	case CUPTI_ACTIVITY_KIND_MEMSET: {
		const CUpti_ActivityMemset4 *m = (const void *)rec;
		if (!timed(d, m->start, m->end))
			return 0;
		memset_line(out, m);
		return 1;
	}
	case CUPTI_ACTIVITY_KIND_RUNTIME:
	case CUPTI_ACTIVITY_KIND_DRIVER: {
		const CUpti_ActivityAPI *a = (const void *)rec;
		if (!timed(d, a->start, a->end))
			return 0;
		api(out, a);
		return 1;
	}
	case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
		const CUpti_ActivitySynchronization2 *s = (const void *)rec;
		if (!timed(d, s->start, s->end))
			return 0;
		sync_line(out, s);
		return 1;
	}
	case CUPTI_ACTIVITY_KIND_CUDA_EVENT:
		event_line(out, (const void *)rec);   /* no time: its call has it */
		return 1;
	case CUPTI_ACTIVITY_KIND_GRAPH_TRACE: {
		const CUpti_ActivityGraphTrace2 *g = (const void *)rec;
		if (!timed(d, g->start, g->end))
			return 0;
		graph(out, g);
		return 1;
	}
	case CUPTI_ACTIVITY_KIND_DEVICE:
		device(out, (const void *)rec);
		return 1;
	case CUPTI_ACTIVITY_KIND_OVERHEAD:
		overhead(out, (const void *)rec);
		return 1;
	case CUPTI_ACTIVITY_KIND_CONTEXT:
		return 0;   /* enabled so CUPTI has the context ids of the records; nothing to keep */
	default:
		d->unknown++;
		return 0;
	}
}

int gpc_decode_graph(CUpti_CallbackId cbid, const CUpti_ResourceData *rd, const struct gpc_graph_ids *ids,
		     uint64_t now, uint32_t tid, struct gpc_buf *out)
{
	const CUpti_GraphData *g = rd ? rd->resourceDescriptor : NULL;
	uint64_t node = 0, original = 0;
	uint32_t graph = 0, exec = 0;

	if (!g)
		return 0;
	switch (cbid) {
	case CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED:
	case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED:
		if (!g->node || ids->node_id(g->node, &node) != CUPTI_SUCCESS || !node)
			return 0;
		if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED &&
		    (!g->originalNode || ids->node_id(g->originalNode, &original) != CUPTI_SUCCESS || !original))
			return 0;   /* a clone of nothing known would read as a creation */
		if (g->graph)
			ids->graph_id(g->graph, &graph);
		gpc_buf_str(out, "gnode");
		gpc_buf_u64(out, now);
		gpc_buf_u64(out, tid);
		gpc_buf_u64(out, graph);
		gpc_buf_u64(out, node);
		gpc_buf_u64(out, original);
		gpc_buf_u64(out, (uint64_t)g->nodeType);
		gpc_buf_endline(out);
		return 1;
	case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED:
		if (!g->graphExec || !ids->exec_id || ids->exec_id(g->graphExec, &exec) != CUPTI_SUCCESS)
			return 0;
		if (g->graph)
			ids->graph_id(g->graph, &graph);
		gpc_buf_str(out, "gexec");
		gpc_buf_u64(out, now);
		gpc_buf_u64(out, tid);
		gpc_buf_u64(out, exec);
		gpc_buf_u64(out, graph);
		gpc_buf_endline(out);
		return 1;
	default:
		return 0;
	}
}
