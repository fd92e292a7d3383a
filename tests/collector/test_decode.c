/*
** The collector's decoder (collector/decode.c) on CUPTI activity buffers
** built here from CUDA 13's record structs and walked with CUPTI's own
** cuptiActivityGetNextRecord (which needs no GPU): a device, runtime and
** driver API calls, a kernel, a memcpy pageable -> device, a memset, a
** context synchronization, an overhead record and a kernel without
** timestamps.  The lines it makes, plus a dropped count as the collector
** adds it, form a recording that the gpuprof reader loads; the test checks
** the model, the correlation of the kernel to its launch, and leaves the
** file (argv[1], default build/test-out/decoded.gprec) for t1501's CLI
** checks.
**
** CUDA graphs: CUPTI's graph resource callbacks (node made during stream
** capture, made and cloned by cudaGraphInstantiate, the executable graph
** made) decoded with stand-in id lookups, then a recording where a graph
** captured inside emit_nvtx and layer: ranges is replayed: its kernels
** and copy take the op and layer of their node's capture, a kernel of an
** unknown node is counted as captured before the recording, never
** attributed (argv[2], default build/test-out/graphs.gprec, for t1501).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>

#include "decode.h"
#include "analysis/correlate.h"
#include "gpuprof/record-format.h"
#include "readers/reader.h"

static const char *out_path = "build/test-out/decoded.gprec";
static const char *graph_path = "build/test-out/graphs.gprec";

/* Record times, ns. */
#define LAUNCH_START 1000
#define KERNEL_START 2000
#define KERNEL_END 7000
#define OVERHEAD_NS 500

/* The records, in buffer order; built once. */
static uint8_t buffer[16384] __attribute__((aligned(ACTIVITY_RECORD_ALIGNMENT)));
static size_t buffer_len;

static void append(const void *rec, size_t size)
{
	assert_true(buffer_len + size <= sizeof(buffer));
	memcpy(buffer + buffer_len, rec, size);
	buffer_len += size;
}

static void api(CUpti_ActivityKind kind, CUpti_CallbackId cbid, uint64_t start, uint64_t end,
		uint32_t corr)
{
	CUpti_ActivityAPI a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.cbid = cbid;
	a.start = start;
	a.end = end;
	a.processId = 77;
	a.threadId = 4242;
	a.correlationId = corr;
	append(&a, sizeof(a));
}

static void build_buffer(void)
{
	CUpti_ActivityDevice5 dev;
	CUpti_ActivityKernel10 k;
	CUpti_ActivityMemcpy6 mc;
	CUpti_ActivityMemset4 ms;
	CUpti_ActivitySynchronization2 sy;
	CUpti_ActivityCudaEvent2 ev;
	CUpti_ActivityOverhead3 ov;

	memset(&dev, 0, sizeof(dev));
	dev.kind = CUPTI_ACTIVITY_KIND_DEVICE;
	dev.id = 0;
	dev.name = "NVIDIA H100 80GB HBM3";
	dev.numMultiprocessors = 132;
	dev.computeCapabilityMajor = 9;
	dev.computeCapabilityMinor = 0;
	dev.globalMemorySize = 85520809984ull;
	dev.globalMemoryBandwidth = 3352320000ull;   /* kB/s */
	dev.coreClockRate = 1980000;                  /* kHz */
	dev.l2CacheSize = 52428800;
	append(&dev, sizeof(dev));

	api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
	    LAUNCH_START, 1500, 10);
	memset(&k, 0, sizeof(k));
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k.start = KERNEL_START;
	k.end = KERNEL_END;
	k.deviceId = 0;
	k.contextId = 1;
	k.streamId = 7;
	k.correlationId = 10;
	k.gridX = 128; k.gridY = 2; k.gridZ = 1;
	k.blockX = 256; k.blockY = 1; k.blockZ = 1;
	k.registersPerThread = 32;
	k.staticSharedMemory = 512;
	k.dynamicSharedMemory = 1024;
	k.name = "_Z6vecAddPKfS0_Pfi";
	append(&k, sizeof(k));

	api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 7500, 9100, 11);
	memset(&mc, 0, sizeof(mc));
	mc.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	mc.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
	mc.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
	mc.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	mc.bytes = 1u << 20;
	mc.start = 8000;
	mc.end = 9000;
	mc.streamId = 7;
	mc.contextId = 1;
	mc.correlationId = 11;
	append(&mc, sizeof(mc));

	api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020, 9200, 9400, 12);
	memset(&ms, 0, sizeof(ms));
	ms.kind = CUPTI_ACTIVITY_KIND_MEMSET;
	ms.value = 0;
	ms.bytes = 4096;
	ms.start = 9500;
	ms.end = 9600;
	ms.streamId = 7;
	ms.contextId = 1;
	ms.correlationId = 12;
	ms.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	append(&ms, sizeof(ms));

	api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, 9650, 9900, 13);
	api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, 9660, 9890, 14);
	memset(&sy, 0, sizeof(sy));
	sy.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
	sy.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
	sy.start = 9700;
	sy.end = 9800;
	sy.correlationId = 14;
	sy.contextId = 1;
	sy.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
	sy.cudaEventId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
	append(&sy, sizeof(sy));

	memset(&ev, 0, sizeof(ev));
	ev.kind = CUPTI_ACTIVITY_KIND_CUDA_EVENT;
	ev.correlationId = 16;
	ev.contextId = 1;
	ev.streamId = 7;
	ev.eventId = 3;
	ev.deviceId = 0;
	append(&ev, sizeof(ev));

	memset(&ov, 0, sizeof(ov));
	ov.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
	ov.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION;
	ov.start = 100;
	ov.end = 100 + OVERHEAD_NS;
	append(&ov, sizeof(ov));

	/* CUPTI's device buffers ran out: no timestamps */
	k.start = k.end = 0;
	k.correlationId = 15;
	append(&k, sizeof(k));
}

/* Walks the buffer with CUPTI and decodes every record into out. */
static int decode_all(struct gpc_decoder *d, struct gpc_buf *out, int *nrecords)
{
	CUpti_Activity *rec = NULL;
	int written = 0;

	*nrecords = 0;
	while (cuptiActivityGetNextRecord(buffer, buffer_len, &rec) == CUPTI_SUCCESS) {
		(*nrecords)++;
		written += gpc_decode(d, rec, out);
	}
	return written;
}

static void test_lines(void **state)
{
	struct gpc_decoder d = {0};
	struct gpc_buf out = {0};
	int n;

	assert_int_equal(decode_all(&d, &out, &n), 12);
	assert_int_equal(n, 13);   /* CUPTI found every record we built */
	assert_int_equal(d.untimed, 1);
	assert_int_equal(out.lines, 12);
	assert_non_null(strstr(out.data,
		"kernel\t2000\t7000\t0\t1\t7\t10\t128\t2\t1\t256\t1\t1\t32\t512\t1024\t0\t0\t_Z6vecAddPKfS0_Pfi\n"));
	assert_non_null(strstr(out.data, "memcpy\t8000\t9000\t0\t1\t7\t11\t1\t1\t3\t0\t1048576\t-1\t-1\t0\t0\n"));
	assert_non_null(strstr(out.data, "memset\t9500\t9600\t0\t1\t7\t12\t4096\t0\t3\t0\t0\n"));
	assert_non_null(strstr(out.data, "api\truntime\t1000\t1500\t4242\t10\t211\t0\n"));
	assert_non_null(strstr(out.data, "api\tdriver\t9660\t9890\t4242\t14\t"));
	assert_non_null(strstr(out.data, "sync\t9700\t9800\t1\t4294967295\t14\t4\t4294967295\n"));
	assert_non_null(strstr(out.data, "overhead\tinstrumentation\t100\t600\n"));
	assert_non_null(strstr(out.data, "event\t16\t3\t0\t1\t7\n"));
	assert_non_null(strstr(out.data,
		"device\t0\t132\t9\t0\t85520809984\t3352320000000\t1980000000\t52428800\tNVIDIA H100 80GB HBM3\n"));
	gpc_buf_free(&out);
}

static void test_deadline(void **state)
{
	struct gpc_decoder d = {.deadline = 7500};
	struct gpc_buf out = {0};
	int n;

	/* the memcpy (8000), the memset and its call, both synchronize calls
	** and the sync record start later; the device, event record and
	** overhead records are not GPU work */
	assert_int_equal(decode_all(&d, &out, &n), 12 - 6);
	assert_int_equal(d.after_deadline, 6);
	assert_null(strstr(out.data, "memcpy\t"));
	gpc_buf_free(&out);
}

/* The decoded lines as the collector writes them: header, one chunk with
** the dropped count CUPTI reported, the end line. */
static void write_recording(void)
{
	struct gpc_decoder d = {0};
	struct gpc_buf out = {0};
	FILE *f;
	int n;

	decode_all(&d, &out, &n);
	f = fopen(out_path, "w");
	assert_non_null(f);
	fprintf(f, "%s%d\nmeta\tpid\t77\nmeta\tcmdline\t./vecadd\n%s", GPREC_MAGIC, GPREC_VERSION_COLLECTOR,
		out.data);
	fprintf(f, "dropped\t3\tcupti\ndropped\t%llu\tuntimed\nchunk\t%llu\nend\t0\t0\n",
		(unsigned long long)d.untimed, (unsigned long long)out.lines + 4);
	assert_int_equal(fclose(f), 0);
	gpc_buf_free(&out);
}

static void test_read_back(void **state)
{
	gp_trace t;
	gp_error err = {0};

	write_recording();
	gp_trace_init(&t);
	if (gp_trace_load(out_path, &t, NULL, &err) != GP_OK)
		fail_msg("%s", err.msg);
	assert_string_equal(gp_s(&t, t.format), "gpuprof-rec");
	assert_int_equal(t.kernels.n, 1);
	assert_int_equal(t.apis.n, 5);
	assert_int_equal(t.memcpys.n, 1);
	assert_int_equal(t.memsets.n, 1);
	assert_int_equal(t.syncs.n, 1);
	assert_int_equal(t.event_records.n, 1);
	assert_int_equal(t.event_records.v[0].corr, 16);
	assert_int_equal(t.event_records.v[0].stream, 7);
	assert_int_equal(t.event_records.v[0].event_id, 3);
	assert_int_equal(t.devices.n, 1);

	const struct gp_kernel *k = &t.kernels.v[0];
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, k)->name), "vecAdd");
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, k)->demangled), "vecAdd(float const*, float const*, float*, int)");
	assert_int_equal(k->end - k->start, KERNEL_END - KERNEL_START);
	assert_int_equal(gp_kernel_pid(&t, k), 77);
	const struct gp_kernel_def *kd = gp_kernel_def(&t, k);
	assert_int_equal(kd->grid[0] * kd->grid[1] * kd->block[0], 128 * 2 * 256);
	assert_int_equal(gp_kernel_def(&t, k)->regs, 32);
	assert_int_equal(gp_kernel_def(&t, k)->dynamic_smem, 1024);

	const struct gp_memcpy *m = &t.memcpys.v[0];
	assert_int_equal(m->copy_kind, GP_COPY_HTOD);
	assert_int_equal(m->src_kind, GP_MEM_PAGEABLE);
	assert_int_equal(m->dst_kind, GP_MEM_DEVICE);
	assert_int_equal(m->bytes, 1u << 20);
	assert_int_equal(t.syncs.v[0].kind, GP_SYNC_CONTEXT);

	const struct gp_device *d = &t.devices.v[0];
	assert_int_equal(d->sm_count, 132);
	assert_true(d->mem_bw == 3352320000000.0);
	assert_true(d->clock_hz == 1980000000.0);

	assert_string_equal(gp_trace_meta_get(&t, "dropped_records"), "3");
	assert_string_equal(gp_trace_meta_get(&t, "untimed_records"), "1");
	assert_string_equal(gp_trace_meta_get(&t, "cupti_overhead_ns"), "500");

	/* the kernel's launching call, by correlation id, as for nsys */
	assert_int_equal(gp_correlate(&t, NULL, &err), GP_OK);
	assert_true(t.attrs[0].api >= 0);
	assert_string_equal(gp_s(&t, gp_api_def(&t, &t.apis.v[t.attrs[0].api])->name), "cudaLaunchKernel");
	assert_int_equal(t.apis.v[t.attrs[0].api].start, LAUNCH_START);
	gp_trace_free(&t);
}


/* ---- CUDA graphs ---- */

/* Stand-ins for CUPTI's id lookups: a handle's id is its address; handles
** below 0x100 have none (CUPTI's error for a node it does not know). */
static CUptiResult node_id(CUgraphNode n, uint64_t *id)
{
	if ((uintptr_t)n < 0x100)
		return CUPTI_ERROR_INVALID_PARAMETER;
	*id = (uintptr_t)n;
	return CUPTI_SUCCESS;
}
static CUptiResult graph_id(CUgraph g, uint32_t *id)
{
	*id = (uint32_t)(uintptr_t)g;
	return CUPTI_SUCCESS;
}
static CUptiResult exec_id(CUgraphExec x, uint32_t *id)
{
	*id = (uint32_t)(uintptr_t)x;
	return CUPTI_SUCCESS;
}
static const struct gpc_graph_ids ids = {node_id, graph_id, exec_id};

#define H(type, v) ((type)(uintptr_t)(v))

/* Decodes one graph callback as CUPTI passes it (a CUpti_ResourceData
** whose resourceDescriptor is the CUpti_GraphData). */
static int graph_cb(CUpti_CallbackId cbid, CUpti_GraphData *g, uint64_t now, struct gpc_buf *out)
{
	CUpti_ResourceData rd = {.resourceDescriptor = g};

	return gpc_decode_graph(cbid, &rd, &ids, now, 4242, out);
}

/* Capture times (ns) of the recording: the op ranges and the capture. */
#define CAP_LAYER_START 100
#define CAP_MM_START 120     /* aten::mm, node 0x1001 */
#define CAP_ADD_START 320    /* aten::add, node 0x1002 (a copy) */
#define CAP_LAYER_END 600
#define INSTANTIATE 700
#define REPLAY 5000

static void test_graph_lines(void **state)
{
	struct gpc_buf out = {0};
	CUpti_GraphData g = {.graph = H(CUgraph, 7), .node = H(CUgraphNode, 0x1001),
			     .nodeType = CU_GRAPH_NODE_TYPE_KERNEL};

	assert_int_equal(graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, &g, 250, &out), 1);
	g.node = H(CUgraphNode, 0x2001);
	g.originalNode = H(CUgraphNode, 0x1001);
	assert_int_equal(graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, &g, 720, &out), 1);
	g.graphExec = H(CUgraphExec, 9);
	assert_int_equal(graph_cb(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, &g, 800, &out), 1);
	assert_string_equal(out.data, "gnode\t250\t4242\t7\t4097\t0\t0\n"
				      "gnode\t720\t4242\t7\t8193\t4097\t0\n"
				      "gexec\t800\t4242\t9\t7\n");
	/* left out: a clone of a node without id (it would read as a
	** creation), a node without id, no graph data, other callbacks */
	g.originalNode = H(CUgraphNode, 0x10);
	assert_int_equal(graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, &g, 900, &out), 0);
	g.node = NULL;
	assert_int_equal(graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, &g, 900, &out), 0);
	assert_int_equal(gpc_decode_graph(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED,
					  &(CUpti_ResourceData){0}, &ids, 900, 1, &out), 0);
	assert_int_equal(graph_cb(CUPTI_CBID_RESOURCE_GRAPH_CREATED, &g, 900, &out), 0);
	/* a CUPTI without cuptiGetGraphExecId: no gexec line */
	struct gpc_graph_ids no_exec = {node_id, graph_id, NULL};
	assert_int_equal(gpc_decode_graph(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED,
					  &(CUpti_ResourceData){.resourceDescriptor = &g}, &no_exec, 900, 1, &out), 0);
	assert_int_equal(out.lines, 3);
	gpc_buf_free(&out);
}

/* A replayed kernel record of node `node` launched by correlation id 30. */
static void replayed_kernel(struct gpc_buf *out, uint64_t start, uint64_t node)
{
	CUpti_ActivityKernel10 k;
	struct gpc_decoder d = {0};

	memset(&k, 0, sizeof(k));
	k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
	k.start = start;
	k.end = start + 1000;
	k.streamId = 7;
	k.contextId = 1;
	k.correlationId = 30;
	k.gridX = 8; k.gridY = k.gridZ = 1;
	k.blockX = 256; k.blockY = k.blockZ = 1;
	k.graphId = 7;
	k.graphNodeId = node;
	k.name = "sm80_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x32_stage4_warpsize2x2x1_tensor16x8x16_kernel";
	assert_int_equal(gpc_decode(&d, (const CUpti_Activity *)&k, out), 1);
}

/*
** The recording of a program that captures a graph of a kernel (inside
** "aten::mm" and "layer:decoder") and a copy (inside "aten::add"), whose
** instantiation CUPTI reports as a node made and cloned, then replays it;
** the replay also runs a kernel of a node no callback named.
*/
static void write_graph_recording(void)
{
	struct gpc_buf out = {0};
	struct gpc_decoder d = {0};
	CUpti_ActivityAPI a;
	CUpti_ActivityMemcpy6 mc;
	CUpti_GraphData g = {.graph = H(CUgraph, 7), .nodeType = CU_GRAPH_NODE_TYPE_KERNEL};
	FILE *f;

	/* capture: the launches make nodes, inside the ranges */
	g.node = H(CUgraphNode, 0x1001);
	graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, &g, CAP_MM_START + 50, &out);
	g.node = H(CUgraphNode, 0x1002);
	g.nodeType = CU_GRAPH_NODE_TYPE_MEMCPY;
	graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, &g, CAP_ADD_START + 50, &out);
	/* instantiation, after the ranges: each exec node made, then cloned */
	for (uintptr_t i = 1; i <= 2; i++) {
		g.node = H(CUgraphNode, 0x2000 + i);
		g.originalNode = H(CUgraphNode, 0x1000 + i);
		graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, &g, INSTANTIATE + 10 * i, &out);
		graph_cb(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, &g, INSTANTIATE + 10 * i + 1, &out);
	}
	g.graphExec = H(CUgraphExec, 9);
	graph_cb(CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, &g, INSTANTIATE + 50, &out);

	/* the replay: one graph launch, its kernel and copy, and a kernel of a
	** node nothing named */
	memset(&a, 0, sizeof(a));
	a.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
	a.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000;
	a.start = REPLAY - 500;
	a.end = REPLAY - 400;
	a.threadId = 4242;
	a.correlationId = 30;
	gpc_decode(&d, (const CUpti_Activity *)&a, &out);
	replayed_kernel(&out, REPLAY, 0x2001);
	memset(&mc, 0, sizeof(mc));
	mc.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
	mc.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOD;
	mc.srcKind = mc.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
	mc.bytes = 4096;
	mc.start = REPLAY + 1100;
	mc.end = REPLAY + 1200;
	mc.streamId = 7;
	mc.contextId = 1;
	mc.correlationId = 30;
	mc.graphId = 7;
	mc.graphNodeId = 0x2002;
	gpc_decode(&d, (const CUpti_Activity *)&mc, &out);
	replayed_kernel(&out, REPLAY + 2000, 0x2999);

	f = fopen(graph_path, "w");
	assert_non_null(f);
	fprintf(f, "%s%d\nmeta\tpid\t77\nmeta\tcmdline\t./graphs\n", GPREC_MAGIC, GPREC_VERSION_COLLECTOR);
	/* the NVTX ranges as nvtx.c writes them, on the capturing thread */
	fprintf(f, "range\tpush\t4242\t0\t%d\t%d\t00000000\t0\t\tlayer:decoder\n", CAP_LAYER_START, CAP_LAYER_END);
	fprintf(f, "range\tpush\t4242\t0\t%d\t%d\t00000000\t0\t\taten::mm, op_id = 1, sizes = [[8, 1024], "
		   "[1024, 1024]]\n", CAP_MM_START, CAP_MM_START + 100);
	fprintf(f, "range\tpush\t4242\t0\t%d\t%d\t00000000\t0\t\taten::add, op_id = 2, sizes = [[8, 1024], "
		   "[8, 1024]]\n", CAP_ADD_START, CAP_ADD_START + 100);
	fprintf(f, "%schunk\t%llu\nend\t3\t0\n", out.data, (unsigned long long)out.lines + 5);   /* + meta, ranges */
	assert_int_equal(fclose(f), 0);
	gpc_buf_free(&out);
}

static void test_graph_read_back(void **state)
{
	gp_trace t;
	gp_error err = {0};

	write_graph_recording();
	gp_trace_init(&t);
	if (gp_trace_load(graph_path, &t, NULL, &err) != GP_OK)
		fail_msg("%s", err.msg);
	assert_int_equal(t.kernels.n, 2);
	assert_int_equal(t.memcpys.n, 1);
	assert_int_equal(t.memcpys.v[0].graph_node, 0x2002);
	assert_int_equal(t.graph_nodes.n, 6);
	assert_string_equal(gp_trace_meta_get(&t, "cuda_graphs_instantiated"), "1");
	assert_int_equal(gp_correlate(&t, NULL, &err), GP_OK);

	/* the replayed kernel: launched by the graph launch, attributed where
	** its node was captured */
	const struct gp_attr *a = &t.attrs[0];
	assert_int_equal(t.kernels.v[0].start, REPLAY);
	assert_int_equal(a->graph, GP_GRAPH_CAPTURED);
	assert_string_equal(gp_s(&t, gp_api_def(&t, &t.apis.v[a->api])->name), "cudaGraphLaunch");
	assert_string_equal(gp_s(&t, a->op), "aten::mm");
	assert_string_equal(gp_s(&t, a->layer), "decoder");
	assert_int_equal(t.args.v[a->args_first].shape[0], 8);   /* the capture's shapes */
	/* the kernel of a node nothing named: counted, no op */
	a = &t.attrs[1];
	assert_int_equal(a->graph, GP_GRAPH_NODE_UNSEEN);
	assert_int_equal(a->op, 0);
	gp_trace_free(&t);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_graph_lines),
		cmocka_unit_test(test_graph_read_back),
	};

	if (argc > 1)
		out_path = argv[1];
	if (argc > 2)
		graph_path = argv[2];
	build_buffer();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
