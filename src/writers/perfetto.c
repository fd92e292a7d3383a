/*
** The Perfetto / Chrome trace-event export (docs/export.md): one JSON
** object {"traceEvents": [...]} that ui.perfetto.dev and chrome://tracing
** open, written as Kineto writes its traces (categories kernel,
** cuda_runtime, cpu_op, user_annotation, gpu_memcpy, gpu_memset, ac2g
** flows; args correlation, External id, device, stream...) so that our
** own Kineto reader loads it back with the same kernels, ops and times.
** Each kernel's args add its attribution and op model; counter tracks add
** GPU busy %, achieved TFLOP/s and GB/s per bucket (the analysis' device
** timeline) and each stream's queue depth; slices on each GPU's "idle"
** track show its gaps, named by their cause (the time breakdown's).  It
** needs GP_NEED_OPS, GP_NEED_GAP_CAUSES, GP_NEED_TOP_GAPS, GP_NEED_DEPTH and
** GP_NEED_TIMELINE, over the window the trace was cut to.  Times are
** exact: ts and dur are written as decimal microseconds with three
** decimals from integer nanoseconds.
**
** Events stream out as they are formatted: nothing of the document is
** built in memory beyond one flag per API call (launches of kernels in the
** window) and the bucket table.
**
** Several traces (ranks) go into one document a trace at a time
** (gp_sink_write, then the sink's end): each trace's pids are replaced by
** the document's own, given in first-seen order, and its flow,
** correlation and External ids and sequence numbers are moved past the
** previous traces', so nothing of two files can meet (a reader links a
** backward op to its forward one by sequence number); process names
** start with the rank.
*/
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/attr_graph.h"
#include "util/fmt.h"
#include "util/u64map.h"
#include "writers/sink.h"
#include "writers/writer.h"

/* The thread id of each GPU's "idle" track and of the critical path's
** track in its process; Kineto's stream ids and thread ids are smaller. */
#define IDLE_TID 2147483646
#define CRITICAL_TID 2147483645

/* A GPU of a document of several traces, for its deviceProperties (which
** follow the events: a trace's GPUs are known once it is written). */
struct pf_device {
	int32_t pid;            /* its process in the document */
	char *name;
	uint64_t mem_bytes;
	int cc_major, cc_minor;
	int32_t sm_count;
};

/* What carries from one trace to the next in a document of several (the
** sink's state): the next free pid, flow, correlation and External ids. */
struct pf_many {
	bool head;              /* the document's head is written */
	bool first;             /* no event written yet */
	int32_t next_pid;
	uint64_t next_flow, next_corr, next_ext, next_seq;
	GP_VEC(struct pf_device) devices;
};

struct pf {
	FILE *out;
	const gp_trace *t;
	gp_ns ws, we;           /* window; ws > we: everything */
	bool all;
	bool first;             /* no event written yet (for the commas) */
	const struct gp_sink_opts *so;  /* for its progress callback */
	gp_ns clock_offset;     /* added to every time written */
	uint64_t done, total;   /* events written / about to be, for progress */
	const char *rank;       /* shown before process names; NULL: none */
	int64_t sort_base;      /* added to the processes' sort indexes */
	/* several traces: the trace's pid -> the document's; NULL: as they are */
	gp_u64map *pids;
	struct pf_many *many;
	/* added to flow, correlation, External ids and sequence numbers (0 for
	** one trace) */
	uint64_t flow_base, corr_base, ext_base, seq_base;
	const gp_critpath *cp;  /* the critical path to mark; NULL: none asked */
	const gp_deps *deps;    /* its graph (the ranges' names) */
};

/* Events between progress callbacks. */
#define PROGRESS_EVERY 0x10000

/* Writes v in decimal (fprintf's format parsing was a third of the
** export's time on a 1M-kernel trace). */
static void put_u64(FILE *out, uint64_t v)
{
	char buf[GP_FMT_INT_SIZE];
	fputs(gp_fmt_u64(buf, v), out);
}

static void put_i64(FILE *out, int64_t v)
{
	char buf[GP_FMT_INT_SIZE];
	fputs(gp_fmt_i64(buf, v), out);
}

/* Writes a count of ns (>= 0) as exact decimal microseconds: 1234567 -> 1234.567. */
static void put_abs_us(FILE *out, uint64_t ns)
{
	unsigned frac = (unsigned)(ns % 1000);

	put_u64(out, ns / 1000);
	fputc('.', out);
	fputc('0' + (int)(frac / 100), out);
	fputc('0' + (int)(frac / 10 % 10), out);
	fputc('0' + (int)(frac % 10), out);
}

/* Writes ns as exact decimal microseconds, with its sign. */
static void put_us(FILE *out, gp_ns ns)
{
	if (ns < 0)
		fputc('-', out);
	put_abs_us(out, ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns);
}

static bool in_window(const struct pf *p, gp_ns s, gp_ns e)
{
	return p->all || (e >= p->ws && s <= p->we);
}

/* The document's pid of the trace's pid (a host process's, or a GPU's
** device id): itself for one trace; for several, a new one at its first
** sight, so that two traces never share one. */
static int64_t doc_pid(struct pf *p, int64_t pid)
{
	int32_t v;

	if (!p->pids)
		return pid;
	v = gp_u64map_add(p->pids, (uint64_t)pid, p->many->next_pid);
	if (v == p->many->next_pid)
		p->many->next_pid++;
	return v;
}

/* Starts an event: the comma, ph, cat, name, pid, tid and ts. */
static void begin(struct pf *p, char ph, const char *cat, const char *name, int64_t pid, int64_t tid,
		  gp_ns ts)
{
	FILE *out = p->out;

	if (++p->done % PROGRESS_EVERY == 0 && p->so->progress)
		p->so->progress(p->so->progress_ctx, p->done, p->total);
	fputs(p->first ? "\n{\"ph\":\"" : ",\n{\"ph\":\"", out);
	p->first = false;
	fputc(ph, out);
	fputs("\",\"cat\":\"", out);
	fputs(cat, out);
	fputs("\",\"name\":", out);
	gp_json_string(out, name ? name : "");
	fputs(",\"pid\":", out);
	put_i64(out, doc_pid(p, pid));
	fputs(",\"tid\":", out);
	put_i64(out, tid);
	fputs(",\"ts\":", out);
	put_us(out, ts + p->clock_offset);
}

/* ,"critical":true when bit i of bits (a gp_critpath's) is set: HTA's mark
** of the records on the critical path. */
static void arg_critical(const struct pf *p, const uint8_t *bits, size_t i)
{
	if (p->cp && gp_critpath_on(bits, i))
		fputs(",\"critical\":true", p->out);
}

/* A complete event's dur (end before start counts 0). */
static void put_dur(FILE *out, gp_ns s, gp_ns e)
{
	uint64_t d = e > s ? (uint64_t)e - (uint64_t)s : 0;

	fputs(",\"dur\":", out);
	put_abs_us(out, d);
}

static void arg_str(FILE *out, const char *key, const char *val)
{
	fprintf(out, ",\"%s\":", key);
	gp_json_string(out, val);
}

static void arg_u64(FILE *out, const char *key, uint64_t v)
{
	fputs(",\"", out);
	fputs(key, out);
	fputs("\":", out);
	put_u64(out, v);
}

/* The duration and args of a memcpy or memset slice, as the Kineto reader
** reads them back. */
static void put_mem_op(struct pf *p, size_t unit, gp_ns start, gp_ns end, int32_t device, uint32_t stream,
		       uint64_t corr, uint64_t ext_id, uint32_t context, uint64_t bytes)
{
	FILE *out = p->out;

	put_dur(out, start, end);
	fputs(",\"args\":{\"device\":", out);
	put_i64(out, doc_pid(p, device));
	fprintf(out, ",\"stream\":%" PRIu32, stream);
	arg_u64(out, "correlation", p->corr_base + corr);
	if (ext_id)
		arg_u64(out, "External id", p->ext_base + ext_id);
	arg_u64(out, "context", context);
	arg_u64(out, "bytes", bytes);
	if (p->cp)
		arg_critical(p, p->cp->unit_on, unit);
	fputs("}}", out);
}

/* A number known only when >= 0, in fmt ("%.0f", "%.3f"). */
static void arg_num(FILE *out, const char *key, const char *fmt, double v)
{
	if (v < 0)
		return;
	fprintf(out, ",\"%s\":", key);
	fprintf(out, fmt, v);
}

/* A metadata event (process_name, thread_name, *_sort_index). */
static void meta(struct pf *p, const char *what, int64_t pid, int64_t tid, const char *key,
		 const char *sval, int64_t ival)
{
	begin(p, 'M', "__metadata", what, pid, tid, 0);
	fprintf(p->out, ",\"args\":{\"%s\":", key);
	if (sval)
		gp_json_string(p->out, sval);
	else
		fprintf(p->out, "%" PRId64, ival);
	fputs("}}", p->out);
}

/* The head of the document: the Kineto top-level keys our reader reads. */
static void write_head(struct pf *p)
{
	const gp_trace *t = p->t;
	FILE *out = p->out;
	const char *rank = gp_trace_meta_get(t, "rank");
	const char *world = gp_trace_meta_get(t, "world_size");

	fputs("{\"schemaVersion\":1,\"traceName\":", out);
	gp_json_string(out, gp_s(t, t->path));
	fputs(",\"displayTimeUnit\":\"ns\",\"deviceProperties\":[", out);
	for (size_t i = 0; i < t->devices.n; i++) {
		const struct gp_device *d = &t->devices.v[i];
		fprintf(out, "%s{\"id\":%" PRId32 ",\"name\":", i ? "," : "", d->id);
		gp_json_string(out, gp_s(t, d->name) ? gp_s(t, d->name) : "");
		fprintf(out, ",\"totalGlobalMem\":%" PRIu64 ",\"computeMajor\":%d,\"computeMinor\":%d,"
			"\"numSms\":%" PRId32 "}", d->mem_bytes, d->cc_major, d->cc_minor, d->sm_count);
	}
	fputs("]", out);
	if (rank && strspn(rank, "0123456789") == strlen(rank) && *rank) {
		fprintf(out, ",\"distributedInfo\":{\"rank\":%s", rank);
		if (world && *world && strspn(world, "0123456789") == strlen(world))
			fprintf(out, ",\"world_size\":%s", world);
		fputs("}", out);
	}
	fputs(",\"traceEvents\":[", out);
}

/* A host process's pid, once: adds it to seen and writes its name. */
static void host_process(struct pf *p, gp_u64map *seen, uint32_t pid, int64_t *order)
{
	const gp_trace *t = p->t;
	const char *rank = p->rank;
	char name[160];
	const char *pname = NULL;

	if (gp_u64map_get(seen, pid) >= 0)
		return;
	gp_u64map_put(seen, pid, 1);
	for (size_t i = 0; i < t->processes.n && !pname; i++)
		if (t->processes.v[i].pid == pid && t->processes.v[i].name)
			pname = gp_s(t, t->processes.v[i].name);
	snprintf(name, sizeof(name), "%s%s%s%s (%" PRIu32 ")", rank ? "rank " : "", rank ? rank : "",
		 rank ? ": " : "", pname ? pname : "host process", pid);
	meta(p, "process_name", pid, 0, "name", name, 0);
	meta(p, "process_sort_index", pid, 0, "sort_index", NULL, p->sort_base + (*order)++);
	if (rank) {
		snprintf(name, sizeof(name), "rank %s", rank);
		meta(p, "process_labels", pid, 0, "labels", name, 0);
	}
}

/* Whether pid is a host process to name: something ran in it (active)
** and it is not a GPU's pid. */
static bool host_pid(const gp_u64map *gpus, const gp_u64map *active, uint32_t pid)
{
	return gp_u64map_get(active, pid) >= 0 && gp_u64map_get(gpus, pid) < 0;
}

/* One GPU's stream track, once (seen: key device << 32 | stream). */
static void gpu_stream(struct pf *p, gp_u64map *seen, int32_t dev, uint32_t stream)
{
	char name[48];
	uint64_t key = (uint64_t)(uint32_t)dev << 32 | stream;

	if (gp_u64map_get(seen, key) >= 0)
		return;
	gp_u64map_put(seen, key, 1);
	snprintf(name, sizeof(name), "stream %" PRIu32, stream);
	meta(p, "thread_name", dev, stream, "name", name, 0);
	meta(p, "thread_sort_index", dev, stream, "sort_index", NULL, stream);
}

/* process_name / thread_name / sort indexes: host processes first (by
** first appearance), then one process per GPU (by device id, acts are
** sorted so) with a track per stream and one "idle" track. */
static void write_names(struct pf *p, const struct gp_activity *acts, size_t nacts)
{
	const gp_trace *t = p->t;
	const char *rank = p->rank;
	gp_u64map seen = {0}, gpus = {0}, active = {0};
	int64_t order = 0;
	char name[200];

	/* a reader may name the GPUs' pids and streams as processes and
	** threads, and Kineto names a placeholder process per GPU of the
	** machine: a host process is named only when something ran in it
	** (API calls, CPU ranges), and never on a GPU's pid (that GPU's name
	** below says the pid holds host events too) */
	for (size_t i = 0; i < nacts; i++)
		gp_u64map_put(&gpus, (uint64_t)(uint32_t)acts[i].dev, 1);
	for (size_t i = 0; i < t->apis.n; i++)
		gp_u64map_put(&active, t->apis.v[i].pid, 1);
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].kind != GP_RANGE_GPU_ANNOTATION)
			gp_u64map_put(&active, t->ranges.v[i].pid, 1);
	for (size_t i = 0; i < t->processes.n; i++)
		if (host_pid(&gpus, &active, t->processes.v[i].pid))
			host_process(p, &seen, t->processes.v[i].pid, &order);
	for (size_t i = 0; i < t->threads.n; i++)
		if (host_pid(&gpus, &active, t->threads.v[i].pid))
			host_process(p, &seen, t->threads.v[i].pid, &order);
	for (size_t i = 0; i < t->apis.n; i++)
		if (host_pid(&gpus, &active, t->apis.v[i].pid))
			host_process(p, &seen, t->apis.v[i].pid, &order);
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].kind != GP_RANGE_GPU_ANNOTATION && host_pid(&gpus, &active, t->ranges.v[i].pid))
			host_process(p, &seen, t->ranges.v[i].pid, &order);
	for (size_t i = 0; i < t->threads.n; i++)
		if (t->threads.v[i].name && host_pid(&gpus, &active, t->threads.v[i].pid))
			meta(p, "thread_name", t->threads.v[i].pid, t->threads.v[i].tid, "name",
			     gp_s(t, t->threads.v[i].name), 0);
	gp_u64map_free(&seen);

	/* a device whose only records are synchronizations (a trace of no
	** GPU work: their cuda_sync slices) still gets its name */
	for (size_t i = 0; i < t->syncs.n; i++) {
		int32_t dev = t->syncs.v[i].device;
		if (gp_u64map_get(&gpus, (uint64_t)(uint32_t)dev) >= 0)
			continue;
		gp_u64map_put(&gpus, (uint64_t)(uint32_t)dev, 1);
		snprintf(name, sizeof(name), "%s%s%sGPU %" PRId32, rank ? "rank " : "", rank ? rank : "",
			 rank ? ": " : "", dev);
		meta(p, "process_name", dev, 0, "name", name, 0);
		meta(p, "process_sort_index", dev, 0, "sort_index", NULL, p->sort_base + 1000000 + (int64_t)dev);
	}
	gp_u64map_free(&gpus);

	for (size_t i = 0; i < nacts; i++) {
		if (i && acts[i].dev == acts[i - 1].dev)
			continue;
		const struct gp_device *d = gp_trace_device(t, acts[i].dev);
		const char *dn = d && d->name ? gp_s(t, d->name) : NULL;
		snprintf(name, sizeof(name), "%s%s%sGPU %" PRId32 "%s%s%s", rank ? "rank " : "",
			 rank ? rank : "", rank ? ": " : "", acts[i].dev, dn ? ": " : "", dn ? dn : "",
			 gp_u64map_get(&active, (uint32_t)acts[i].dev) >= 0 ? " (and host events of this pid)" : "");
		meta(p, "process_name", acts[i].dev, 0, "name", name, 0);
		if (rank) {
			snprintf(name, sizeof(name), "rank %s", rank);
			meta(p, "process_labels", acts[i].dev, 0, "labels", name, 0);
		}
		meta(p, "process_sort_index", acts[i].dev, 0, "sort_index", NULL,
		     p->sort_base + 1000000 + (int64_t)acts[i].dev);
		meta(p, "thread_name", acts[i].dev, IDLE_TID, "name", "idle", 0);
		meta(p, "thread_sort_index", acts[i].dev, IDLE_TID, "sort_index", NULL, -1);
	}
	gp_u64map_free(&active);
	gp_u64map streams = {0};
	for (size_t i = 0; i < t->kernels.n; i++)
		gpu_stream(p, &streams, gp_kernel_device(t, &t->kernels.v[i]), t->kernels.v[i].stream);
	for (size_t i = 0; i < t->memcpys.n; i++)
		gpu_stream(p, &streams, t->memcpys.v[i].device, t->memcpys.v[i].stream);
	for (size_t i = 0; i < t->memsets.n; i++)
		gpu_stream(p, &streams, t->memsets.v[i].device, t->memsets.v[i].stream);
	gp_u64map_free(&streams);
}

/* The Kineto category of a range and whether it is an instant. */
static const char *range_cat(const struct gp_range *r)
{
	switch (r->kind) {
	case GP_RANGE_CPU_OP: return "cpu_op";
	case GP_RANGE_USER_ANNOTATION: return "user_annotation";
	case GP_RANGE_PYTHON: return "python_function";
	case GP_RANGE_GPU_ANNOTATION: return "gpu_user_annotation";
	case GP_RANGE_PUSHPOP: case GP_RANGE_STARTEND: case GP_RANGE_MARK: return "nvtx";
	case GP_RANGE_TIMER: return "gpuprof_timer";
	default: return "range";
	}
}

/* Raw JSON text the reader kept (Input Dims...), when it looks like JSON. */
static void arg_raw(FILE *out, const char *key, const char *json)
{
	if (!json || !*json || !strchr("[{\"0123456789-tfn", json[0]))
		return;
	fprintf(out, ",\"%s\":%s", key, json);
}

/* Ranges: NVTX, framework ops, annotations, python frames, timers. */
static void write_ranges(struct pf *p)
{
	const gp_trace *t = p->t;
	FILE *out = p->out;

	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (!in_window(p, r->start, r->end))
			continue;
		bool instant = r->kind == GP_RANGE_MARK;
		begin(p, instant ? 'i' : 'X', range_cat(r), gp_s(t, r->text), r->pid, r->tid, r->start);
		if (instant)
			fputs(",\"s\":\"t\"", out);
		else
			put_dur(out, r->start, r->end);
		fputs(",\"args\":{\"kind\":", out);
		gp_json_string(out, gp_range_kind_name(r->kind));
		gp_str domain = gp_range_nvtx(t, r).domain;
		if (domain)
			arg_str(out, "domain", gp_s(t, domain));
		const struct gp_op_ext *x = gp_range_op_ext(t, r);
		if (x) {
			if (x->ext_id)
				arg_u64(out, "External id", p->ext_base + x->ext_id);
			if (x->seq >= 0)
				arg_u64(out, "Sequence number", p->seq_base + (uint64_t)x->seq);
			if (x->fwd_tid)
				arg_u64(out, "Fwd thread id", x->fwd_tid);
			arg_raw(out, "Input Dims", gp_s(t, x->input_dims));
			arg_raw(out, "Input type", gp_s(t, x->input_types));
			arg_raw(out, "Concrete Inputs", gp_s(t, x->concrete_inputs));
			if (x->call_stack)
				arg_str(out, "Call stack", gp_s(t, x->call_stack));
		}
		if (p->cp)
			arg_critical(p, p->cp->range_on, i);
		fputs("}}", out);
	}
}

/* API calls in the window, and the launches of kernels in it (launch[i]). */
static void write_apis(struct pf *p, const bool *launch)
{
	const gp_trace *t = p->t;
	FILE *out = p->out;
	gp_u64map largs = {0};   /* correlation id -> its launch args */

	for (size_t i = 0; i < t->launch_args.n; i++)
		gp_u64map_add(&largs, t->launch_args.v[i].corr, (int32_t)i);
	for (size_t i = 0; i < t->apis.n; i++) {
		const struct gp_api *a = &t->apis.v[i];
		const struct gp_api_def *d = gp_api_def(t, a);
		if (!launch[i] && !in_window(p, a->start, a->end))
			continue;
		begin(p, 'X', d->kind == GP_API_DRIVER ? "cuda_driver" : "cuda_runtime", gp_s(t, d->name),
		      a->pid, a->tid, a->start);
		put_dur(out, a->start, a->end);
		fputs(",\"args\":{\"cbid\":", out);
		fprintf(out, "%" PRId32, d->cbid);
		arg_u64(out, "correlation", p->corr_base + a->corr);
		if (a->ext_id)
			arg_u64(out, "External id", p->ext_base + a->ext_id);
		/* what the call says it launched (ROCm): a launch under stream
		** capture runs nothing, and its replay is matched by this name */
		int32_t l = gp_u64map_get(&largs, a->corr);
		if (l >= 0 && t->launch_args.v[l].pid == a->pid) {
			const struct gp_launch_args *la = &t->launch_args.v[l];
			if (la->kernel)
				arg_str(out, "kernel", gp_s(t, la->kernel));
			if (la->grid[0] || la->grid[1] || la->grid[2])
				fprintf(out, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u]", la->grid[0], la->grid[1],
					la->grid[2], la->block[0], la->block[1], la->block[2]);
		}
		if (p->cp)
			arg_critical(p, p->cp->api_on, i);
		fputs("}}", out);
	}
	gp_u64map_free(&largs);
}

/* A kernel's attribution and model args (beyond Kineto's own). */
static void kernel_model_args(FILE *out, const struct gp_analysis *an, size_t k)
{
	const gp_trace *t = an->trace;
	const struct gp_attr *a = &t->attrs[k];

	if (a->layer)
		arg_str(out, "layer", gp_s(t, a->layer));
	if (a->mod)
		arg_str(out, "mod", gp_s(t, a->mod));
	gp_str op = an->ops.r && an->ops.r[k].op ? an->ops.r[k].op : a->op;
	if (op)
		arg_str(out, "op", gp_s(t, op));
	arg_str(out, "dir", gp_dir_name(a->dir));
	char seq[GP_SEQ_TEXT];
	const char *seqs = gp_attr_seq_list(t, a, seq);
	if (*seqs)
		arg_str(out, "seq", seqs);
	if (a->iter >= 0)
		fprintf(out, ",\"iteration\":%" PRId32, a->iter);
	if (!an->ops.r)
		return;
	const struct gp_opres *r = &an->ops.r[k];
	if (r->params)
		arg_str(out, "params", gp_s(t, r->params));
	if (r->dtype != GP_DT_UNKNOWN)
		arg_str(out, "dtype", gp_dtype_short(r->dtype));
	if (r->family)
		arg_str(out, "family", gp_opres_family(r));
	arg_num(out, "flops", "%.0f", r->flops);
	arg_num(out, "bytes", "%.0f", r->bytes);
	if (r->tc == GP_TC_YES || r->tc == GP_TC_NO)
		fprintf(out, ",\"tc\":%d", r->tc);
	if (r->family)
		fprintf(out, ",\"tceligible\":%d", r->tc_eligible ? 1 : 0);
	struct gp_roofline rl;
	gp_op_roofline(t, &an->ops, k, &rl);
	arg_num(out, "gflops", "%.2f", rl.gflops);
	arg_num(out, "gbps", "%.2f", rl.gbps);
	arg_num(out, "eff", "%.3f", rl.eff);
	if (rl.bound >= 0)
		arg_str(out, "bound", rl.bound ? "compute" : "memory");
}

/* Kernels with their Kineto args and model. */
static void write_kernels(struct pf *p, const struct gp_analysis *an)
{
	const gp_trace *t = p->t;
	FILE *out = p->out;

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const struct gp_kernel_def *kd = gp_kernel_def(t, kr);
		if (!in_window(p, kr->start, kr->end))
			continue;
		begin(p, 'X', "kernel", gp_s(t, gp_kernel_long_name_of(t, kr)), kd->device,
		      kr->stream, kr->start);
		put_dur(out, kr->start, kr->end);
		fputs(",\"args\":{\"device\":", out);
		put_i64(out, doc_pid(p, kd->device));
		fprintf(out, ",\"stream\":%" PRIu32, kr->stream);
		arg_u64(out, "correlation", p->corr_base + kr->corr);
		if (kr->ext_id)
			arg_u64(out, "External id", p->ext_base + kr->ext_id);
		arg_u64(out, "context", kd->context);
		arg_u64(out, "registers per thread", kd->regs);
		arg_u64(out, "shared memory", (uint64_t)kd->static_smem + kd->dynamic_smem);
		fprintf(out, ",\"grid\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]", kd->grid[0], kd->grid[1], kd->grid[2]);
		fprintf(out, ",\"block\":[%" PRIu32 ",%" PRIu32 ",%" PRIu32 "]", kd->block[0], kd->block[1], kd->block[2]);
		if (kd->graph_node) {
			arg_u64(out, "graph id", kd->graph_id);
			arg_u64(out, "graph node id", kd->graph_node);
		}
		/* replayed from a graph: what its op rests on (report's graph
		** column); its flow starts at the graph launch */
		if (t->attrs && t->attrs[k].graph != GP_GRAPH_NONE)
			arg_str(out, "graph replay", gp_graph_state_name(t->attrs[k].graph));
		kernel_model_args(out, an, k);
		if (p->cp)
			arg_critical(p, p->cp->unit_on, k);
		fputs("}}", out);
	}
}

/* Copies and memsets, named as Kineto names them. */
static void write_copies(struct pf *p)
{
	const gp_trace *t = p->t;
	char name[96];

	for (size_t i = 0; i < t->memcpys.n; i++) {
		const struct gp_memcpy *m = &t->memcpys.v[i];
		if (!in_window(p, m->start, m->end))
			continue;
		snprintf(name, sizeof(name), "Memcpy %s (%s -> %s)", gp_copy_kind_name(m->copy_kind),
			 gp_mem_kind_name(m->src_kind), gp_mem_kind_name(m->dst_kind));
		begin(p, 'X', "gpu_memcpy", name, m->device, m->stream, m->start);
		put_mem_op(p, t->kernels.n + i, m->start, m->end, m->device, m->stream, m->corr, m->ext_id, m->context,
			   m->bytes);
	}
	for (size_t i = 0; i < t->memsets.n; i++) {
		const struct gp_memset *m = &t->memsets.v[i];
		if (!in_window(p, m->start, m->end))
			continue;
		snprintf(name, sizeof(name), "Memset (%s)", gp_mem_kind_name(m->mem_kind));
		begin(p, 'X', "gpu_memset", name, m->device, m->stream, m->start);
		put_mem_op(p, t->kernels.n + t->memcpys.n + i, m->start, m->end, m->device, m->stream, m->corr,
			   m->ext_id, m->context, m->bytes);
	}
}

/* The synchronizations as Kineto's cuda_sync events on their stream: a
** wait for an event names the event, and the record call and stream when
** the trace knows them (the dependency graph's event edges read back). */
static void write_syncs(struct pf *p)
{
	static const char *const names[GP_SYNC__COUNT] = {
		[GP_SYNC_UNKNOWN] = "Sync", [GP_SYNC_EVENT] = "Event Sync", [GP_SYNC_STREAM_WAIT] = "Stream Wait Event",
		[GP_SYNC_STREAM] = "Stream Sync", [GP_SYNC_CONTEXT] = "Context Sync",
	};
	const gp_trace *t = p->t;
	FILE *out = p->out;
	gp_u64map rec = {0};

	for (size_t i = 0; i < t->event_records.n; i++)
		gp_u64map_put(&rec, t->event_records.v[i].corr, (int64_t)i);
	for (size_t i = 0; i < t->syncs.n; i++) {
		const struct gp_sync *y = &t->syncs.v[i];
		const char *name = names[y->kind < GP_SYNC__COUNT ? y->kind : GP_SYNC_UNKNOWN];
		if (!in_window(p, y->start, y->end))
			continue;
		begin(p, 'X', "cuda_sync", name, y->device, y->stream, y->start);
		put_dur(out, y->start, y->end);
		fputs(",\"args\":{\"cuda_sync_kind\":", out);
		gp_json_string(out, name);
		fputs(",\"device\":", out);
		put_i64(out, doc_pid(p, y->device));
		fprintf(out, ",\"stream\":%" PRIu32, y->stream);
		arg_u64(out, "correlation", p->corr_base + y->corr);
		arg_u64(out, "context", y->context);
		if (y->event_id)
			arg_u64(out, "wait_on_cuda_event_id", y->event_id);
		int64_t r = y->record_corr ? gp_u64map_get(&rec, y->record_corr) : -1;
		if (r >= 0) {
			arg_u64(out, "wait_on_stream", t->event_records.v[r].stream);
			arg_u64(out, "wait_on_cuda_event_record_corr_id", p->corr_base + y->record_corr);
		}
		fputs("}}", out);
	}
	gp_u64map_free(&rec);
}

/* One flow: start at (spid, stid, sts), finish bound to the slice that
** encloses (fpid, ftid, fts). */
static void flow(struct pf *p, const char *cat, uint64_t id, int64_t spid, int64_t stid, gp_ns sts,
		 int64_t fpid, int64_t ftid, gp_ns fts)
{
	begin(p, 's', cat, cat, spid, stid, sts);
	fprintf(p->out, ",\"id\":%" PRIu64 "}", id);
	begin(p, 'f', cat, cat, fpid, ftid, fts);
	fprintf(p->out, ",\"id\":%" PRIu64 ",\"bp\":\"e\"}", id);
}

/* The framework op (cpu_op range) of each External id, for the forward
** flows: their start is the forward op when the trace has one. */
static void index_ops(const gp_trace *t, gp_u64map *ops)
{
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		const struct gp_op_ext *x = gp_range_op_ext(t, r);
		if (r->kind == GP_RANGE_CPU_OP && x && x->ext_id)
			gp_u64map_add(ops, x->ext_id, (int32_t)i);
	}
}

/* Flows: launch call -> kernel (ac2g, id 2k+1); forward -> backward
** kernel (fwd_bwd, id 2k+2), from the forward kernel's framework op (by
** its External id) or, without one, from the forward kernel itself; only
** between events written. */
static void write_flows(struct pf *p)
{
	const gp_trace *t = p->t;
	gp_u64map ops = {0};

	index_ops(t, &ops);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const struct gp_attr *a = &t->attrs[k];
		int32_t device = gp_kernel_device(t, kr);
		if (!in_window(p, kr->start, kr->end))
			continue;
		if (a->api >= 0) {
			const struct gp_api *c = &t->apis.v[a->api];
			flow(p, "ac2g", p->flow_base + 2 * (uint64_t)k + 1, c->pid, c->tid, c->start, device, kr->stream,
			     kr->start);
		}
		if (a->fwd < 0 || (size_t)a->fwd >= t->kernels.n)
			continue;
		const struct gp_kernel *f = &t->kernels.v[a->fwd];
		int32_t op = f->ext_id ? gp_u64map_get(&ops, f->ext_id) : -1;
		if (op >= 0 && in_window(p, t->ranges.v[op].start, t->ranges.v[op].end)) {
			const struct gp_range *r = &t->ranges.v[op];
			flow(p, "fwd_bwd", p->flow_base + 2 * (uint64_t)k + 2, r->pid, r->tid, r->start, device,
			     kr->stream, kr->start);
		} else if (op < 0 && in_window(p, f->start, f->end)) {
			flow(p, "fwd_bwd", p->flow_base + 2 * (uint64_t)k + 2, gp_kernel_device(t, f), f->stream, f->start, device,
			     kr->stream, kr->start);
		}
	}
	gp_u64map_free(&ops);
}

static int cmp_gap_at(const void *pa, const void *pb)
{
	const struct gp_bd_gap *a = *(const struct gp_bd_gap *const *)pa, *b = *(const struct gp_bd_gap *const *)pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

/* Each GPU's idle gaps (the time breakdown's: between its merged
** kernels, copies and memsets) as slices on its idle track, named by their
** cause, with the CPU's context for the longest ones (the breakdown's top
** gaps); only the gaps between activities the window keeps. */
static void write_idle(struct pf *p, const struct gp_breakdown *b)
{
	/* the top gaps by device and start, to walk beside the gaps */
	struct gp_bd_gap **top = gp_xmalloc((b->ngaps ? b->ngaps : 1) * sizeof(*top));
	size_t j = 0;

	for (size_t i = 0; i < b->ngaps; i++)
		top[i] = &b->gaps[i];
	gp_sort(top, b->ngaps, sizeof(*top), cmp_gap_at);
	for (size_t i = 0; i < b->ngap_causes; i++) {
		const struct gp_bd_gap_cause *g = &b->gap_causes[i];
		int cause = gp_bd_gap_main_cause(b, g);
		while (j < b->ngaps && (top[j]->device < g->device ||
					(top[j]->device == g->device && top[j]->start < g->start)))
			j++;
		if (!p->all && (g->start < p->ws || g->end > p->we))
			continue;
		begin(p, 'X', "gpu_idle", gp_cause_name(cause), g->device, IDLE_TID, g->start);
		put_dur(p->out, g->start, g->end);
		fputs(",\"args\":{\"cause\":", p->out);
		gp_json_string(p->out, gp_cause_name(cause));
		if (g->iter >= 0)
			fprintf(p->out, ",\"iteration\":%" PRId32, g->iter);
		if (j < b->ngaps && top[j]->device == g->device && top[j]->start == g->start && top[j]->context) {
			fputs(",\"cpu\":", p->out);
			gp_json_string(p->out, top[j]->context);
		}
		fputs("}}", p->out);
	}
	free(top);
}

/* The critical path (export --critical-path) as a track of its process,
** "critical path": a slice per piece of the walk from the last work back
** to the first, named by its cause, what held it in its args (the kernel,
** call or range, and where it ran); HTA's "critical" arg marks the records
** themselves (arg_critical). */
static void write_critical(struct pf *p)
{
	const gp_trace *t = p->t;
	const gp_critpath *cp = p->cp;

	if (!cp || !cp->pieces.n)
		return;
	meta(p, "thread_name", cp->pid, CRITICAL_TID, "name", "critical path", 0);
	meta(p, "thread_sort_index", cp->pid, CRITICAL_TID, "sort_index", NULL, -2);
	for (size_t i = 0; i < cp->pieces.n; i++) {
		const struct gp_piece *x = &cp->pieces.v[i];
		const char *what = NULL;
		if (!in_window(p, x->start, x->end))
			continue;
		switch (x->of) {
		case GP_PIECE_UNIT:
			what = (size_t)x->idx < t->kernels.n ? gp_s(t, gp_kernel_short_name_of(t, &t->kernels.v[x->idx]))
				: gp_unit_kind(t, (size_t)x->idx) == GP_UNIT_COPY ? "memcpy" : "memset";
			break;
		case GP_PIECE_API:
			what = gp_s(t, gp_api_def(t, &t->apis.v[x->idx])->name);
			break;
		case GP_PIECE_RANGE:
			what = gp_s(t, gp_deps_text(p->deps, t->ranges.v[x->idx].text));
			break;
		default:
			break;
		}
		begin(p, 'X', "critical_path", gp_cause_name(x->cause), cp->pid, CRITICAL_TID, x->start);
		put_dur(p->out, x->start, x->end);
		fputs(",\"args\":{\"cause\":", p->out);
		gp_json_string(p->out, gp_cause_name(x->cause));
		if (what)
			arg_str(p->out, "what", what);
		fprintf(p->out, ",\"on\":\"%s %" PRIu32 ":%" PRIu32 "\"", x->cpu ? "thread" : "stream", x->lane_a,
			x->lane_b);
		fputs("}}", p->out);
	}
}

/* Each stream's queue depth over time (the breakdown's series, b run with
** depth buckets) as a counter track "queue depth (stream S)" on its GPU:
** at each bucket's start the largest depth sampled when a launch call
** returned in it, 0 when none returned; a last 0 at the end of the
** device's span closes the final bucket. */
static void write_depth(struct pf *p, const struct gp_breakdown *b)
{
	char name[48];

	for (size_t i = 0; i < b->nstreams && b->depth_buckets; i++) {
		const struct gp_bd_stream *st = &b->streams[i];
		const struct gp_bd_depth_bucket *row = b->depth + i * b->depth_buckets;
		gp_ns end = row[b->depth_buckets - 1].start;
		for (size_t w = 0; w < b->nwin; w++)
			if (b->win[w].device == st->device && b->win[w].iter < 0)
				end = b->win[w].end;
		snprintf(name, sizeof(name), "queue depth (stream %" PRIu32 ")", st->stream);
		for (size_t j = 0; j <= b->depth_buckets; j++) {
			bool last = j == b->depth_buckets;
			begin(p, 'C', "gpu_counter", name, st->device, 0, last ? end : row[j].start);
			fprintf(p->out, ",\"args\":{\"depth\":%" PRId64 "}}",
				last || row[j].max_depth < 0 ? 0 : row[j].max_depth);
		}
	}
}

/* The SMs communication kernels hold (commover.h's series) as a counter
** track "communication SMs" per GPU: "held", their blocks (at most the SM
** count), and "under compute", the same while compute runs beside them,
** else 0; a point where either changes. */
static void write_comm_sms(struct pf *p, const struct gp_comm_overlap *o)
{
	for (size_t i = 0; i < o->npoints; i++) {
		const struct gp_co_point *x = &o->points[i];
		if (!in_window(p, x->at, x->at))
			continue;
		begin(p, 'C', "gpu_counter", "communication SMs", x->device, 0, x->at);
		fprintf(p->out, ",\"args\":{\"held\":%" PRIu32 ",\"under compute\":%" PRIu32 "}}", x->blocks,
			x->compute ? x->blocks : 0);
	}
}

/* Counter tracks per GPU from the analysis' bucketed timeline. */
static void write_counters(struct pf *p, const struct gp_analysis *an)
{
	const struct gp_timeline *tl = &an->timeline;

	for (size_t d = 0; d < tl->ndev; d++) {
		const struct gp_timeline_bucket *row = tl->b + d * tl->nbuckets;
		for (size_t i = 0; i <= tl->nbuckets; i++) {
			/* a last sample at the end closes the final bucket */
			const struct gp_timeline_bucket *b = &row[i < tl->nbuckets ? i : tl->nbuckets - 1];
			double w = (double)tl->width;
			gp_ns ts = gp_timeline_at(tl, i);
			begin(p, 'C', "gpu_counter", "GPU busy %", tl->devs[d], 0, ts);
			fprintf(p->out, ",\"args\":{\"busy\":%.2f}}", i < tl->nbuckets ? 100.0 * b->busy_ns / w : 0.0);
			if (!an->ops.r)
				continue;
			begin(p, 'C', "gpu_counter", "achieved TFLOP/s", tl->devs[d], 0, ts);
			fprintf(p->out, ",\"args\":{\"TFLOP/s\":%.4f}}", i < tl->nbuckets ? b->flops / w / 1e3 : 0.0);
			begin(p, 'C', "gpu_counter", "memory GB/s", tl->devs[d], 0, ts);
			fprintf(p->out, ",\"args\":{\"GB/s\":%.2f}}", i < tl->nbuckets ? b->bytes / w : 0.0);
		}
	}
}

/* The largest correlation and External ids and sequence number of t, so
** that the next trace of a document of several starts past them. */
static void max_ids(const gp_trace *t, uint64_t *corr, uint64_t *ext, uint64_t *seq)
{
	uint64_t c = 0, x = 0, q = 0;

#define MAX_IDS(vec)                                                            \
	for (size_t i = 0; i < t->vec.n; i++) {                                 \
		c = t->vec.v[i].corr > c ? t->vec.v[i].corr : c;                \
		x = t->vec.v[i].ext_id > x ? t->vec.v[i].ext_id : x;            \
	}
	MAX_IDS(kernels)
	MAX_IDS(apis)
	MAX_IDS(memcpys)
	MAX_IDS(memsets)
#undef MAX_IDS
	for (size_t i = 0; i < t->op_exts.n; i++) {
		x = t->op_exts.v[i].ext_id > x ? t->op_exts.v[i].ext_id : x;
		if (t->op_exts.v[i].seq >= 0 && (uint64_t)t->op_exts.v[i].seq > q)
			q = (uint64_t)t->op_exts.v[i].seq;
	}
	*corr = c;
	*ext = x;
	*seq = q;
}

/* Keeps the GPUs that t's events used (their document pids) for the
** deviceProperties written at the end. */
static void keep_devices(struct pf *p)
{
	const gp_trace *t = p->t;

	for (size_t i = 0; i < t->devices.n; i++) {
		const struct gp_device *d = &t->devices.v[i];
		int32_t pid = gp_u64map_get(p->pids, (uint64_t)(int64_t)d->id);
		if (pid < 0)
			continue;
		struct pf_device *k = gp_vec_push(p->many->devices);
		*k = (struct pf_device){pid, gp_xstrdup(gp_s(t, d->name) ? gp_s(t, d->name) : ""), d->mem_bytes,
					d->cc_major, d->cc_minor, d->sm_count};
	}
}

/* The events of one trace (after the head). */
static void write_events(struct pf *p, const struct gp_analysis *an)
{
	const gp_trace *t = p->t;

	/* the bulk of the events: a range, API call, kernel (and its flow),
	** copy each; names, idle slices and counters are few */
	p->total = t->ranges.n + t->apis.n + 2 * t->kernels.n + t->memcpys.n + t->memsets.n + t->syncs.n;
	p->all = an->opts.window_start == 0 && an->opts.window_end == 0;
	p->cp = gp_analysis_has(an, GP_NEED_CRITPATH) ? &an->critpath : NULL;
	p->deps = &an->deps;
	size_t nacts;
	struct gp_activity *acts = gp_trace_activities(t, &nacts);
	bool *launch = gp_xcalloc(t->apis.n ? t->apis.n : 1, sizeof(*launch));
	for (size_t k = 0; k < t->kernels.n; k++)
		if (t->attrs[k].api >= 0 && in_window(p, t->kernels.v[k].start, t->kernels.v[k].end))
			launch[t->attrs[k].api] = true;

	write_names(p, acts, nacts);
	write_ranges(p);
	write_apis(p, launch);
	write_kernels(p, an);
	write_copies(p);
	write_syncs(p);
	write_flows(p);
	write_idle(p, &an->breakdown);
	write_critical(p);
	write_counters(p, an);
	write_depth(p, &an->breakdown);
	write_comm_sms(p, &an->comm_overlap);
	free(launch);
	free(acts);
}

/* One trace: the whole document; one of several (s->many): its part. */
static int perfetto_write(gp_sink *s, const struct gp_sink_input *in, gp_error *err)
{
	const struct gp_analysis *an = in->an;
	const gp_trace *t = an ? an->trace : NULL;
	struct pf p = {.out = s->out, .t = t, .first = true, .so = &s->opts, .clock_offset = in->clock_offset};
	struct pf_many *m = s->priv;
	char rank[16];

	if (!t || !t->attrs)
		return gp_err(err, GP_ERR_USAGE, "perfetto: no correlated trace");
	if (!gp_analysis_has(an, GP_NEED_GAP_CAUSES | GP_NEED_TIMELINE))
		return gp_err(err, GP_ERR_USAGE, "perfetto: no time breakdown");
	p.ws = an->opts.window_start;
	p.we = an->opts.window_end;
	if (!s->many) {
		p.rank = gp_trace_meta_get(t, "rank");
		write_head(&p);
		write_events(&p, an);
		fputs("\n]}\n", s->out);
		return GP_OK;
	}

	gp_u64map pids = {0};
	uint64_t corr, ext, seq;
	if (!m->head) {
		fputs("{\"schemaVersion\":1,\"displayTimeUnit\":\"ns\",\"traceEvents\":[", s->out);
		m->head = true;
		m->first = true;
		m->next_pid = 1;
	}
	if (in->rank) {
		snprintf(rank, sizeof(rank), "%" PRId32, in->rank->rank);
		p.rank = rank;
		/* the ranks in order in the UI, whatever the order of the files */
		p.sort_base = (int64_t)in->rank->rank << 22;
	}
	p.first = m->first;
	p.pids = &pids;
	p.many = m;
	p.flow_base = m->next_flow;
	p.corr_base = m->next_corr;
	p.ext_base = m->next_ext;
	p.seq_base = m->next_seq;
	write_events(&p, an);
	keep_devices(&p);
	max_ids(t, &corr, &ext, &seq);
	m->first = p.first;
	m->next_flow += 2 * (uint64_t)t->kernels.n + 2;
	m->next_corr += corr + 1;
	m->next_ext += ext + 1;
	m->next_seq += seq + 1;
	gp_u64map_free(&pids);
	return GP_OK;
}

/* The end of a document of several traces: the GPUs' properties by their
** pids, as Kineto's deviceProperties (the Kineto reader takes them after
** the events too). */
static int perfetto_end(gp_sink *s, gp_error *err)
{
	struct pf_many *m = s->priv;
	FILE *out = s->out;

	(void)err;
	if (!m->head)
		fputs("{\"schemaVersion\":1,\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	fputs("\n],\"deviceProperties\":[", out);
	for (size_t i = 0; i < m->devices.n; i++) {
		const struct pf_device *d = &m->devices.v[i];
		fprintf(out, "%s{\"id\":%" PRId32 ",\"name\":", i ? "," : "", d->pid);
		gp_json_string(out, d->name);
		fprintf(out, ",\"totalGlobalMem\":%" PRIu64 ",\"computeMajor\":%d,\"computeMinor\":%d,"
			"\"numSms\":%" PRId32 "}", d->mem_bytes, d->cc_major, d->cc_minor, d->sm_count);
	}
	fputs("]}\n", out);
	return GP_OK;
}

static int perfetto_open(gp_sink *s, gp_error *err)
{
	(void)err;
	s->priv = gp_xcalloc(1, sizeof(struct pf_many));
	return GP_OK;
}

static void perfetto_close(gp_sink *s)
{
	struct pf_many *m = s->priv;

	for (size_t i = 0; i < m->devices.n; i++)
		free(m->devices.v[i].name);
	free(m->devices.v);
	free(m);
}

const struct gp_sink_ops gp_sink_perfetto = {
	.name = "perfetto",
	.help = "Chrome trace-event JSON for ui.perfetto.dev and chrome://tracing (Kineto-compatible)",
	.open = perfetto_open,
	.write = perfetto_write,
	.close = perfetto_close,
	.end = perfetto_end,
};
