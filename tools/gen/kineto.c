/*
** `gpuprof-gen --format kineto`: the model's events as a PyTorch profiler
** (libkineto, 2024+) JSON trace: cpu_op events with Input Dims/Input type/
** Sequence number/External id, user_annotation for ProfilerStep#N, layers
** and optimizer phases, cuda_runtime with correlation, kernel/gpu_memcpy/
** gpu_memset/cuda_sync on (device, stream), ac2g flows, deviceProperties
** and baseTimeNanoseconds (formats.md section 3).  PyProf dict markers have
** no Kineto form and are left out.  Streamed through a 256 KB buffer, gzip
** when the name ends in ".gz", so any size can be written in constant
** memory.
*/
#include <inttypes.h>
#include <libiberty/demangle.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "gen.h"
#include "util/alloc.h"
#include "model/trace.h"

/* Kineto's base: wall clock floored to a 3-month boundary (2024-06-29). */
#define BASE_NS 1719619200000000000LL
/* External ids of annotations, apart from the model's op ids */
#define ANNOT_EXT ((uint64_t)1 << 40)

struct kineto {
	const char *path;
	bool amd;               /* ROCm: HIP names, lean kernel args */
	int fd;
	gzFile gz;
	char buf[256 * 1024];
	size_t len;
	bool failed;
	bool first;             /* no event written yet */
	uint64_t annot_ext;
	char *kname[32];        /* CUPTI-style (c++filt) demangled names */
	/* the API call the next GPU event belongs to, for its ac2g flow */
	uint64_t last_corr;
	int64_t last_start;
	enum gen_thread last_thr;
};

static void flush(struct kineto *k)
{
	if (k->failed || !k->len)
		return;
	if (k->gz) {
		if (gzwrite(k->gz, k->buf, (unsigned)k->len) != (int)k->len)
			k->failed = true;
	} else {
		for (size_t off = 0; off < k->len;) {
			ssize_t w = write(k->fd, k->buf + off, k->len - off);
			if (w <= 0) {
				k->failed = true;
				break;
			}
			off += (size_t)w;
		}
	}
	k->len = 0;
}

static void put(struct kineto *k, const char *s, size_t n)
{
	if (k->len + n > sizeof(k->buf))
		flush(k);
	if (n > sizeof(k->buf)) {   /* never happens with our event sizes */
		k->failed = true;
		return;
	}
	memcpy(k->buf + k->len, s, n);
	k->len += n;
}

static void out(struct kineto *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(struct kineto *k, const char *fmt, ...)
{
	char tmp[4096];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		k->failed = true;
		return;
	}
	put(k, tmp, (size_t)n);
}

/* JSON string body (no quotes) of s. */
static void out_str(struct kineto *k, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			out(k, "\\%c", c);
		else if (c < 0x20)
			out(k, "\\u%04x", c);
		else
			put(k, (const char *)&c, 1);
	}
}

/* Starts an event: separator, phase, category, name, pid/tid, ts (and dur
** when dur >= 0) in Kineto's "us with 3 decimals" form. */
static void ev_begin(struct kineto *k, const char *ph, const char *cat, const char *name, int64_t pid,
		     int64_t tid, int64_t ts, int64_t dur)
{
	out(k, "%s\n  {\"ph\": \"%s\", \"cat\": \"%s\", \"name\": \"", k->first ? "" : ",", ph, cat);
	k->first = false;
	out_str(k, name);
	out(k, "\", \"pid\": %" PRId64 ", \"tid\": %" PRId64 ", \"ts\": %" PRId64 ".%03" PRId64, pid, tid,
	    ts / 1000, ts % 1000);
	if (dur >= 0)
		out(k, ", \"dur\": %" PRId64 ".%03" PRId64, dur / 1000, dur % 1000);
}

static int64_t tid_of(enum gen_thread t)
{
	return t == GEN_THR_MAIN ? GEN_TID_MAIN : GEN_TID_AUTOGRAD;
}

static void on_range(void *ctx, const struct gen_range *r)
{
	struct kineto *k = ctx;
	bool op = r->kind == GEN_R_OP;

	if (r->kind == GEN_R_PYPROF)
		return;
	ev_begin(k, "X", op ? "cpu_op" : "user_annotation", r->name, GEN_PID, tid_of(r->thr), r->start,
		 r->end - r->start);
	out(k, ", \"args\": {\"External id\": %" PRIu64 ", \"Record function id\": 0",
	    op ? r->op_id : ANNOT_EXT + ++k->annot_ext);
	if (op && r->seq >= 0)
		out(k, ", \"Sequence number\": %" PRId64 ", \"Fwd thread id\": %d", r->seq,
		    r->backward ? (int)GEN_TID_MAIN : 0);
	if (op && r->dims)
		out(k, ", \"Input Dims\": %s", r->dims);
	if (op && r->types)
		out(k, ", \"Input type\": %s", r->types);
	if (r->more_args)
		out(k, ", %s", r->more_args);
	put(k, "}}", 2);
}

/* Kernel kd's name as CUPTI (c++filt) demangles it, made once. */
static const char *kname(struct kineto *k, int kd)
{
	const struct gen_kdef *d = &gen_kdefs[kd];

	if (!k->kname[kd]) {
		char *dm = d->mangled ? cplus_demangle(d->mangled, DMGL_PARAMS | DMGL_ANSI | DMGL_TYPES) : NULL;
		k->kname[kd] = gp_xstrdup(dm ? dm : d->demangled);
		free(dm);
	}
	return k->kname[kd];
}

static void on_api(void *ctx, const struct gen_api *a)
{
	struct kineto *k = ctx;
	char buf[64];

	ev_begin(k, "X", "cuda_runtime", a->name ? a->name : gp_api_strip_version(gen_apis[a->api].name, buf, sizeof(buf)),
		 GEN_PID, tid_of(a->thr), a->start, a->end - a->start);
	out(k, ", \"args\": {\"External id\": %" PRIu64 ", \"cbid\": %d, \"correlation\": %" PRIu64,
	    a->ext, gen_apis[a->api].cbid, a->corr);
	if (a->launched) {
		out(k, ", \"kernel\": \"");
		out_str(k, kname(k, a->launched - 1));
		out(k, "\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]", a->grid[0], a->grid[1], a->grid[2],
		    a->block[0], a->block[1], a->block[2]);
	}
	put(k, "}}", 2);
	k->last_corr = a->corr;
	k->last_start = a->start;
	k->last_thr = a->thr;
}

/* The ac2g flow from the launching call to the GPU event. */
static void flow(struct kineto *k, uint64_t corr, uint32_t stream, int64_t start)
{
	if (corr != k->last_corr)
		return;
	ev_begin(k, "s", "ac2g", "ac2g", GEN_PID, tid_of(k->last_thr), k->last_start, -1);
	out(k, ", \"id\": %" PRIu64 "}", corr);
	ev_begin(k, "f", "ac2g", "ac2g", 0, stream, start, -1);
	out(k, ", \"id\": %" PRIu64 ", \"bp\": \"e\"}", corr);
}

static void on_kernel(void *ctx, const struct gen_kernel *g)
{
	struct kineto *k = ctx;
	const struct gen_kdef *d = &gen_kdefs[g->kdef];
	double blocks = (double)g->grid[0] * g->grid[1] * g->grid[2] / 108.0;
	double warps = blocks * (double)((g->block[0] * g->block[1] * g->block[2] + 31) / 32);

	ev_begin(k, "X", "kernel", kname(k, g->kdef), 0, g->stream, g->start, g->end - g->start);
	if (k->amd) {
		/* ROCm: no registers, occupancy or queue time; graph kernels no grid */
		out(k, ", \"args\": {\"External id\": %" PRIu64 ", \"device\": 0, \"stream\": %u, "
		       "\"correlation\": %" PRIu64 ", \"kind\": \"Dispatch Kernel\"", g->ext, g->stream, g->corr);
		if (g->grid[0])
			out(k, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u]", g->grid[0], g->grid[1],
			    g->grid[2], g->block[0], g->block[1], g->block[2]);
		put(k, "}}", 2);
		flow(k, g->corr, g->stream, g->start);
		return;
	}
	out(k, ", \"args\": {\"External id\": %" PRIu64 ", \"queued\": 0, \"device\": 0, \"context\": 1, "
	       "\"stream\": %u, \"correlation\": %" PRIu64 ", \"registers per thread\": %u, "
	       "\"shared memory\": %u, \"blocks per SM\": %.6f, \"warps per SM\": %.6f, "
	       "\"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"est. achieved occupancy %%\": %d",
	    g->ext, g->stream, g->corr, d->regs, d->static_smem + d->dynamic_smem, blocks, warps,
	    g->grid[0], g->grid[1], g->grid[2], g->block[0], g->block[1], g->block[2],
	    warps >= 64 ? 100 : (int)(warps * 100 / 64));
	if (g->graph_node)
		out(k, ", \"graph id\": %u, \"graph node id\": %" PRIu64, g->graph_id, g->graph_node);
	put(k, "}}", 2);
	flow(k, g->corr, g->stream, g->start);
}

static const char *mem_name(int cupti)
{
	static const char *const names[] = {"Unknown", "Pageable", "Pinned", "Device", "Array", "Managed"};
	return cupti >= 0 && cupti <= 5 ? names[cupti] : "Unknown";
}

static void on_memcpy(void *ctx, const struct gen_memcpy *c)
{
	struct kineto *k = ctx;
	char name[96];
	int64_t dur = c->end - c->start;

	snprintf(name, sizeof(name), "Memcpy %s (%s -> %s)", gp_copy_kind_name(c->copy_kind),
		 mem_name(c->src_kind), mem_name(c->dst_kind));
	ev_begin(k, "X", "gpu_memcpy", name, 0, c->stream, c->start, dur);
	out(k, ", \"args\": {\"External id\": %" PRIu64 ", \"device\": 0, \"context\": 1, \"stream\": %u, "
	       "\"correlation\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"memory bandwidth (GB/s)\": %.6f}}",
	    c->ext, c->stream, c->corr, c->bytes, dur > 0 ? (double)c->bytes / (double)dur : 0.0);
	flow(k, c->corr, c->stream, c->start);
}

static void on_memset(void *ctx, const struct gen_memset *s)
{
	struct kineto *k = ctx;
	int64_t dur = s->end - s->start;

	ev_begin(k, "X", "gpu_memset", "Memset (Device)", 0, s->stream, s->start, dur);
	out(k, ", \"args\": {\"External id\": %" PRIu64 ", \"device\": 0, \"context\": 1, \"stream\": %u, "
	       "\"correlation\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"memory bandwidth (GB/s)\": %.6f}}",
	    s->ext, s->stream, s->corr, s->bytes, dur > 0 ? (double)s->bytes / (double)dur : 0.0);
	flow(k, s->corr, s->stream, s->start);
}

static void on_sync(void *ctx, const struct gen_sync *y)
{
	struct kineto *k = ctx;
	const char *name = y->type == 2 ? "Stream Wait Event" : y->type == 3 ? "Stream Sync"
			 : y->type == 1 ? "Event Sync" : "Context Sync";

	ev_begin(k, "X", "cuda_sync", name, 0, y->stream, y->start, y->end - y->start);
	out(k, ", \"args\": {\"cuda_sync_kind\": \"%s\", \"stream\": %u, \"correlation\": %" PRIu64,
	    name, y->stream, y->corr);
	/* what PyTorch 2.1+ writes about the event a wait waits on */
	if (y->type == 2)
		out(k, ", \"wait_on_stream\": %u, \"wait_on_cuda_event_record_corr_id\": %" PRIu64
		       ", \"wait_on_cuda_event_id\": %u", y->record_stream, y->record_corr, y->event_id);
	out(k, ", \"device\": 0, \"context\": 1}}");
}

static void meta(struct kineto *k, const char *what, int64_t pid, int64_t tid, const char *key,
		 const char *val)
{
	out(k, "%s\n  {\"name\": \"%s\", \"ph\": \"M\", \"ts\": 0.000, \"pid\": %" PRId64 ", \"tid\": %" PRId64
	       ", \"args\": {\"%s\": \"%s\"}}", k->first ? "" : ",", what, pid, tid, key, val);
	k->first = false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int kineto_open(const char *path, bool force, const struct gen_opts *o, struct gen_sink *sink,
		       gp_error *err)
{
	struct kineto *k;
	int fd = gen_create(path, force, err);

	if (fd < 0)
		return err->status;
	k = gp_xcalloc(1, sizeof(*k));
	k->path = path;
	k->amd = o->amd;
	k->fd = fd;
	k->first = true;
	if (ends_with(path, ".gz")) {
		k->gz = gzdopen(fd, "wb1");   /* speed over size: benchmarks write GBs */
		if (!k->gz) {
			close(fd);
			unlink(path);
			free(k);
			return gp_err(err, GP_ERR_IO, "%s: cannot start gzip output", path);
		}
	}
	/* the device as PyTorch 2.x records it (H100, B200: as real traces say) */
	const char *dev = "\"NVIDIA A100-SXM4-40GB\", \"totalGlobalMem\": 42297786368, \"computeMajor\": 8, "
			  "\"computeMinor\": 0";
	int sms = 108;
	if (o->gpu && strcmp(o->gpu, "h100") == 0) {
		dev = "\"NVIDIA H100 80GB HBM3\", \"totalGlobalMem\": 84929216512, \"computeMajor\": 9, "
		      "\"computeMinor\": 0";
		sms = 132;
	} else if (o->gpu && strcmp(o->gpu, "b200") == 0) {
		dev = "\"NVIDIA B200\", \"totalGlobalMem\": 191503138816, \"computeMajor\": 10, \"computeMinor\": 0";
		sms = 148;
	}
	out(k, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [\n    {\"id\": 0, \"name\": %s, "
	       "\"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048, "
	       "\"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, \"warpSize\": 32, "
	       "\"sharedMemPerBlock\": 49152, \"sharedMemPerMultiprocessor\": 167936, \"numSms\": %d, "
	       "\"sharedMemPerBlockOptin\": 166912}\n  ],\n"
	       "%s"
	       "  \"record_shapes\": 1,\n  \"profile_memory\": 0,\n  \"with_stack\": 0,\n  \"with_flops\": 0,\n"
	       "  \"with_modules\": 0,\n  \"trace_id\": \"GPUPROFGEN%016" PRIX64 "\",\n"
	       "  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": %lld,\n",
	    dev, sms, o->amd ? "  \"roctracer_version\": 4.1,\n  \"hip_runtime_version\": 70051831,\n"
		   : "  \"cupti_version\": 22,\n  \"cuda_runtime_version\": 12040,\n  \"cuda_driver_version\": 12090,\n",
	    o->seed, (long long)BASE_NS);
	if (o->world_size > 0)
		out(k, "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, \"world_size\": %d},\n",
		    o->rank, o->world_size);
	if (o->host)
		out(k, "  \"host_name\": \"%s\",\n", o->host);
	out(k, "  \"traceEvents\": [");
	meta(k, "process_name", GEN_PID, 0, "name", "python");
	meta(k, "process_labels", GEN_PID, 0, "labels", "CPU");
	meta(k, "process_name", 0, 0, "name", "python");
	meta(k, "process_labels", 0, 0, "labels", "GPU 0");
	meta(k, "thread_name", GEN_PID, GEN_TID_MAIN, "name", "thread 24242 (python)");
	meta(k, "thread_name", GEN_PID, GEN_TID_AUTOGRAD, "name", "thread 24279 (pt_autograd_0)");
	for (int i = 0; i < o->streams; i++) {
		char name[32];
		snprintf(name, sizeof(name), "stream %u ", gen_stream_id(i));
		meta(k, "thread_name", 0, gen_stream_id(i), "name", name);
	}
	*sink = (struct gen_sink){k, on_range, on_api, on_kernel, on_memcpy, on_memset, on_sync, NULL, NULL};
	return GP_OK;
}

static int kineto_finish(struct gen_sink *sink, gp_error *err)
{
	struct kineto *k = sink->ctx;
	const char *base = strrchr(k->path, '/');
	int rc = GP_OK;

	out(k, "\n  ],\n  \"traceName\": \"");
	out_str(k, base ? base + 1 : k->path);
	out(k, "\"\n}\n");
	flush(k);
	if (k->gz) {
		if (gzclose(k->gz) != Z_OK)
			k->failed = true;
	} else if (close(k->fd) != 0) {
		k->failed = true;
	}
	if (k->failed) {
		rc = gp_err(err, GP_ERR_IO, "%s: write failed", k->path);
		unlink(k->path);
	}
	for (int i = 0; i < 32; i++)
		free(k->kname[i]);
	free(k);
	return rc;
}

const struct gen_writer gen_writer_kineto = {"kineto", kineto_open, kineto_finish};
