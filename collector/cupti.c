/*
** The CUDA side (CUDA_INJECTION64_PATH -> InitializeInjection, called by
** the driver inside cuInit): CUPTI found at run time (the copy already in
** the process first, so a PyTorch wheel's CUPTI and ours are one), the
** activity kinds of docs/collector.md enabled, buffers handed out and
** taken back, every record decoded (decode.c) and written as a chunk; CUDA
** graph nodes' creation and cloning (resource callbacks) kept as lines, so
** that replayed kernels lead back to where their nodes were captured.
** Whatever fails becomes a note; InitializeInjection always returns 1 so
** that CUDA goes on as without us.
*/
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cupti.h>

#include "collector.h"
#include "decode.h"

/* CUPTI fills a buffer of this size before handing it back (or earlier
** on a flush); 8 MiB is about 40,000 kernel records. */
#define BUFFER_BYTES (8u << 20)
/* Graph node lines are written once they pass this size, at each
** instantiation, and at a flush. */
#define GRAPH_FLUSH_BYTES (64u << 10)

/* The CUPTI functions used, looked up at run time. */
#define CUPTI_FUNCS(X) \
	X(cuptiSubscribe) X(cuptiEnableCallback) X(cuptiActivityRegisterCallbacks) \
	X(cuptiActivityEnable) X(cuptiActivityDisable) X(cuptiActivityFlushAll) \
	X(cuptiActivityGetNextRecord) X(cuptiActivityGetNumDroppedRecords) \
	X(cuptiSetThreadIdType) X(cuptiGetResultString) X(cuptiActivityRegisterTimestampCallback) \
	X(cuptiGetGraphNodeId) X(cuptiGetGraphId) X(cuptiGetGraphExecId)

#define DECLARE(f) __typeof__(&f) f;
static struct {
	CUPTI_FUNCS(DECLARE)
	CUpti_SubscriberHandle subscriber;
	atomic_bool ready;                  /* subscribed, callbacks registered */
	bool own_clock;                     /* CUPTI stamps with gpc_now() */
	atomic_uint_fast64_t untimed, after_deadline, unknown;
	atomic_uint_fast64_t buffers_lost;  /* buffers we could not allocate */
	pthread_mutex_t graph_lock;         /* guards graph_lines */
	struct gpc_buf graph_lines;         /* gnode/gexec lines not yet written */
} cu = {.graph_lock = PTHREAD_MUTEX_INITIALIZER};
#undef DECLARE

/* The graph resource callbacks recorded (decode.c says their lines). */
static const CUpti_CallbackId graph_cbids[] = {
	CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED,
	CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED,
};

/* The GPU activity kinds; API kinds come with --trace cuda. */
static const CUpti_ActivityKind gpu_kinds[] = {
	CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
	CUPTI_ACTIVITY_KIND_MEMCPY2, CUPTI_ACTIVITY_KIND_MEMSET,
	CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_CUDA_EVENT, CUPTI_ACTIVITY_KIND_OVERHEAD,
};
static const CUpti_ActivityKind api_kinds[] = {
	CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER,
};

/* dlopen's the CUPTI this process should use: GPUPROF_COLLECT_CUPTI when
** set (that one only), else one already loaded (PyTorch links its own),
** then $CUDA_HOME's, then the loader's search path, then the toolkit the
** collector was built against.  NULL when none loads. */
static void *open_cupti(void)
{
	static const char *const sonames[] = {"libcupti.so.13", "libcupti.so.12"};
	const char *home = getenv("CUDA_HOME"), *forced = getenv("GPUPROF_COLLECT_CUPTI");
	char path[4096];
	void *h;

	if (forced && *forced)
		return dlopen(forced, RTLD_NOW);
	for (size_t i = 0; i < 2; i++)
		if ((h = dlopen(sonames[i], RTLD_NOW | RTLD_NOLOAD)))
			return h;
	for (size_t i = 0; home && i < 2; i++) {
		snprintf(path, sizeof(path), "%s/extras/CUPTI/lib64/%s", home, sonames[i]);
		if ((h = dlopen(path, RTLD_NOW)))
			return h;
		snprintf(path, sizeof(path), "%s/lib64/%s", home, sonames[i]);
		if ((h = dlopen(path, RTLD_NOW)))
			return h;
	}
	for (size_t i = 0; i < 2; i++)
		if ((h = dlopen(sonames[i], RTLD_NOW)))
			return h;
#ifdef GPC_CUPTI_LIBDIR
	snprintf(path, sizeof(path), "%s/libcupti.so", GPC_CUPTI_LIBDIR);
	if ((h = dlopen(path, RTLD_NOW)))
		return h;
#endif
	return NULL;
}

/* Looks every function up; false (with a note) if one is missing.  The
** timestamp callback is optional (CUPTI's own clock is then realtime). */
static bool load_cupti(void)
{
	void *h = open_cupti();

	if (!h) {
		gpc_note("CUPTI not found (GPUPROF_COLLECT_CUPTI, libcupti.so.13 or .12, CUDA_HOME, "
			 "the loader path): no GPU activity recorded");
		return false;
	}
#define LOOKUP(f) cu.f = (__typeof__(&f))dlsym(h, #f);
	CUPTI_FUNCS(LOOKUP)
#undef LOOKUP
	if (!cu.cuptiSubscribe || !cu.cuptiEnableCallback || !cu.cuptiActivityRegisterCallbacks ||
	    !cu.cuptiActivityEnable || !cu.cuptiActivityDisable || !cu.cuptiActivityFlushAll ||
	    !cu.cuptiActivityGetNextRecord || !cu.cuptiActivityGetNumDroppedRecords) {
		gpc_note("this CUPTI lacks a function the collector needs: no GPU activity recorded");
		return false;
	}
	return true;
}

static const char *result_text(CUptiResult r)
{
	const char *s = NULL;

	if (cu.cuptiGetResultString)
		cu.cuptiGetResultString(r, &s);
	return s ? s : "?";
}

static uint64_t CUPTIAPI timestamp(void)
{
	return gpc_now();
}

static void CUPTIAPI buffer_requested(uint8_t **buf, size_t *size, size_t *max_records)
{
	*max_records = 0;
	if (posix_memalign((void **)buf, ACTIVITY_RECORD_ALIGNMENT, BUFFER_BYTES)) {
		*buf = NULL;   /* CUPTI drops the records and counts them */
		*size = 0;
		atomic_fetch_add(&cu.buffers_lost, 1);
		return;
	}
	*size = BUFFER_BYTES;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size,
				      size_t valid)
{
	/* --duration's deadline is on our clock; CUPTI's own one is not */
	struct gpc_decoder dec = {.deadline = cu.own_clock ? gpc_config()->deadline : 0};
	struct gpc_buf out = {0};
	CUpti_Activity *rec = NULL;
	size_t dropped = 0;

	while (cu.cuptiActivityGetNextRecord(buf, valid, &rec) == CUPTI_SUCCESS)
		gpc_decode(&dec, rec, &out);
	free(buf);
	/* without a lock of ours held: CUPTI takes its own (Kineto's deadlock) */
	if (cu.cuptiActivityGetNumDroppedRecords(ctx, stream, &dropped) == CUPTI_SUCCESS && dropped) {
		gpc_buf_printf(&out, "dropped\t%zu\tcupti", dropped);
		gpc_buf_endline(&out);
	}
	atomic_fetch_add(&cu.untimed, dec.untimed);
	atomic_fetch_add(&cu.after_deadline, dec.after_deadline);
	atomic_fetch_add(&cu.unknown, dec.unknown);
	if (out.len)
		gpc_write_chunk(&out, 0);
	gpc_buf_free(&out);
}

/* Enables (on) or disables the kinds --trace asked for. */
static void set_kinds(bool on)
{
	const struct gpc_config *cfg = gpc_config();
	__typeof__(cu.cuptiActivityEnable) fn = on ? cu.cuptiActivityEnable : cu.cuptiActivityDisable;
	CUptiResult r;

	if (cfg->trace & GPC_TRACE_CUDA) {
		for (size_t i = 0; i < sizeof(gpu_kinds) / sizeof(gpu_kinds[0]); i++)
			if ((r = fn(gpu_kinds[i])) != CUPTI_SUCCESS && on)
				gpc_note("CUPTI activity kind %d not enabled: %s", (int)gpu_kinds[i], result_text(r));
		if (cfg->graph_launches && (r = fn(CUPTI_ACTIVITY_KIND_GRAPH_TRACE)) != CUPTI_SUCCESS && on)
			gpc_note("CUDA graph launch records not enabled: %s", result_text(r));
	}
	if (cfg->trace & GPC_TRACE_API)
		for (size_t i = 0; i < sizeof(api_kinds) / sizeof(api_kinds[0]); i++)
			if ((r = fn(api_kinds[i])) != CUPTI_SUCCESS && on)
				gpc_note("CUPTI activity kind %d not enabled: %s", (int)api_kinds[i], result_text(r));
}

/* Delivers every buffer CUPTI holds (also partly filled ones), then the
** counts of records the decoder left out. */
static void flush(void)
{
	struct gpc_buf out = {0};
	uint64_t n;

	if (!atomic_load(&cu.ready))
		return;   /* FlushAll without our subscription can hang (HPCToolkit#195) */
	cu.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	pthread_mutex_lock(&cu.graph_lock);
	if (cu.graph_lines.len)
		gpc_write_chunk(&cu.graph_lines, 0);
	pthread_mutex_unlock(&cu.graph_lock);
	if ((n = atomic_exchange(&cu.untimed, 0))) {
		gpc_buf_printf(&out, "dropped\t%llu\tuntimed", (unsigned long long)n);
		gpc_buf_endline(&out);
	}
	if ((n = atomic_exchange(&cu.after_deadline, 0))) {
		gpc_buf_printf(&out, "dropped\t%llu\tafter_duration", (unsigned long long)n);
		gpc_buf_endline(&out);
	}
	if ((n = atomic_exchange(&cu.buffers_lost, 0))) {
		gpc_buf_printf(&out, "note\t%llu CUPTI buffers could not be allocated (out of memory)",
			       (unsigned long long)n);
		gpc_buf_endline(&out);
	}
	if (out.len)
		gpc_write_chunk(&out, 0);
	gpc_buf_free(&out);
}

/* The calling thread's id as CUPTI's records and NVTX ranges give it. */
static uint32_t this_tid(void)
{
	static __thread uint32_t tid;

	if (!tid)
		tid = (uint32_t)syscall(SYS_gettid);
	return tid;
}

/*
** A CUDA graph node made or cloned, an executable graph made: one line,
** kept whatever the capture range or --duration (a graph captured before
** them is replayed inside).  Runs inside the CUDA call that made the node
** (during stream capture, the launch), so it is cheap: CUPTI's id lookups,
** one formatted line under a lock, a write at each instantiation.  The
** NVTX ranges open on this thread are kept too (gpc_nvtx_node_made): they
** say what the node belongs to.
*/
static void on_graph(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
	const struct gpc_graph_ids lookups = {cu.cuptiGetGraphNodeId, cu.cuptiGetGraphId,
					      cu.cuptiGetGraphExecId};
	uint64_t now = gpc_now();

	if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED)
		gpc_nvtx_node_made();
	pthread_mutex_lock(&cu.graph_lock);
	gpc_decode_graph(cbid, rd, &lookups, now, this_tid(), &cu.graph_lines);
	if (cu.graph_lines.len && (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED ||
				   cu.graph_lines.len >= GRAPH_FLUSH_BYTES))
		gpc_write_chunk(&cu.graph_lines, 0);
	pthread_mutex_unlock(&cu.graph_lock);
}

/* cuProfilerStart/Stop (cudaProfilerStart/Stop, libgpuprof's
** gp_profiler_start/stop): open and close the capture range; a stop
** flushes in any case.  Graph resource callbacks: on_graph. */
static void CUPTIAPI on_callback(void *ud, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
				 const void *data)
{
	const CUpti_CallbackData *cd = data;
	bool capture = gpc_config()->capture_range;

	if (domain == CUPTI_CB_DOMAIN_RESOURCE && data) {
		on_graph(cbid, data);
		return;
	}
	if (domain != CUPTI_CB_DOMAIN_DRIVER_API || !cd)
		return;
	if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart && cd->callbackSite == CUPTI_API_ENTER &&
	    capture && !gpc_collecting()) {
		set_kinds(true);
		gpc_set_collecting(true);
	} else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop && cd->callbackSite == CUPTI_API_EXIT) {
		if (capture && gpc_collecting()) {
			gpc_set_collecting(false);
			set_kinds(false);
		}
		gpc_flush();
	}
}

/* CUDA graph nodes' creation and cloning, always (a graph captured before
** a capture range is replayed inside it); a note when this CUPTI cannot. */
static void enable_graph_callbacks(void)
{
	CUptiResult r = CUPTI_SUCCESS;

	if (!cu.cuptiGetGraphNodeId || !cu.cuptiGetGraphId) {
		gpc_note("this CUPTI cannot name CUDA graph nodes: kernels replayed from graphs "
			 "will have no op");
		return;
	}
	for (size_t i = 0; i < sizeof(graph_cbids) / sizeof(graph_cbids[0]) && r == CUPTI_SUCCESS; i++)
		if (graph_cbids[i] != CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED || cu.cuptiGetGraphExecId)
			r = cu.cuptiEnableCallback(1, cu.subscriber, CUPTI_CB_DOMAIN_RESOURCE, graph_cbids[i]);
	if (r != CUPTI_SUCCESS)
		gpc_note("CUDA graph node callbacks not enabled (error %d: %s): kernels replayed from "
			 "graphs will have no op", (int)r, result_text(r));
}

int InitializeInjection(void);

/* Called by the CUDA driver inside cuInit, once per process.  Must not
** call the CUDA runtime.  Returns 1 always: a collector that cannot
** record leaves a note, never a failed cuInit. */
__attribute__((visibility("default"))) int InitializeInjection(void)
{
	const struct gpc_config *cfg = gpc_config();
	CUptiResult r;

	gpc_start();
	gpc_cuda_started();
	if (!(cfg->trace & (GPC_TRACE_CUDA | GPC_TRACE_API)) || atomic_load(&cu.ready) || !load_cupti())
		return 1;
	r = cu.cuptiSubscribe(&cu.subscriber, on_callback, NULL);
	if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
		gpc_note("CUPTI subscriber already in use (another profiler is attached: nsys, ncu, "
			 "torch.profiler...): no GPU activity recorded");
		return 1;
	}
	if (r != CUPTI_SUCCESS) {
		gpc_note("CUPTI did not start (error %d: %s): no GPU found, or a driver too old for "
			 "this CUPTI: no GPU activity recorded", (int)r, result_text(r));
		return 1;
	}
	if (cu.cuptiSetThreadIdType)
		cu.cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
	/* once, before any kind is enabled (pytorch/pytorch#192021) */
	cu.own_clock = cu.cuptiActivityRegisterTimestampCallback &&
		       cu.cuptiActivityRegisterTimestampCallback(timestamp) == CUPTI_SUCCESS;
	if (!cu.own_clock)
		gpc_note("CUPTI keeps its own clock: GPU times may not line up with NVTX ranges, "
			 "and --duration does not apply to GPU records");
	if ((r = cu.cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)) != CUPTI_SUCCESS) {
		gpc_note("CUPTI refused the buffer callbacks (error %d: %s): no GPU activity recorded",
			 (int)r, result_text(r));
		return 1;
	}
	cu.cuptiEnableCallback(1, cu.subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
			       CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
	cu.cuptiEnableCallback(1, cu.subscriber, CUPTI_CB_DOMAIN_DRIVER_API,
			       CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
	/* devices and contexts always: peaks and ids even for a capture range */
	if (cfg->trace & GPC_TRACE_CUDA) {
		cu.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE);
		cu.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONTEXT);
		enable_graph_callbacks();
	}
	if (!cfg->capture_range)
		set_kinds(true);
	atomic_store(&cu.ready, true);
	gpc_set_cuda_flush(flush);
	return 1;
}
