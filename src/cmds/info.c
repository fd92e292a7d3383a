/*
** gpuprof info: what a trace holds.  Format and tool version, GPUs,
** metadata, record counts, time span, and what the reader had to say,
** through the kv writer (aligned text or one JSON object).
*/
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds/cmds.h"
#include "cmds/options.h"
#include "analysis/analysis.h"
#include "analysis/attr_graph.h"
#include "analysis/phases.h"
#include "writers/kv.h"
#include "writers/writer.h"

static const struct gp_cmd_spec info_spec = {
	.name = "info",
	.about =
	"Shows the detected format and tool version, the GPUs, metadata (rank,\n"
	"versions), how many kernels, API calls, NVTX ranges, memcpy, memset and\n"
	"synchronization records the trace holds, and its time span; for traces\n"
	"that replay CUDA/HIP graphs, how many kernels (and what share of GPU\n"
	"time) were replayed and how many of those have an op.",
	.shared = GP_OPT_FORMAT | GP_OPT_JOBS | GP_OPT_WINDOW | GP_OPT_OPS_FILE,
	.formats = gp_kv_formats,
	.format_note = "(json: one object, keys in docs/report.md; several\n"
	"files: a list of {rank, rank_from, info})",
	.many_files = true,
};

/* One GPU's description: "name, SMs, cc, GiB, peaks ROW" (ROW: the GPU
** table's row, an estimate's "... (estimated)", or "unknown") into buf;
** returns the row (NULL: unknown). */
static const struct gp_gpu *gpu_text(const gp_trace *t, const struct gp_device *d, struct gp_gpu *est, char *buf,
				     size_t size)
{
	const char *name = gp_s(t, d->name);
	const struct gp_gpu *g = gp_gpu_for_device(t, d, est);
	int n = snprintf(buf, size, "%s", name[0] ? name : "(unnamed)");

	if (d->sm_count)
		n += snprintf(buf + n, size - (size_t)n, ", %d SMs", d->sm_count);
	if (d->cc_major)
		n += snprintf(buf + n, size - (size_t)n, ", cc %d.%d", d->cc_major, d->cc_minor);
	if (d->mem_bytes)
		n += snprintf(buf + n, size - (size_t)n, ", %.1f GiB", (double)d->mem_bytes / (1u << 30));
	snprintf(buf + n, size - (size_t)n, ", peaks %s", g ? g->name : "unknown");
	return g;
}

/* The text line of GPUs devices[first, end) of t, all described as text:
** "gpu N  text", or "gpu A-B  N x text" for several. */
static void write_gpu_run(gp_kv *kv, const gp_trace *t, size_t first, size_t end, const char *text)
{
	char line[560], label[48];

	if (end - first == 1) {
		snprintf(label, sizeof(label), "gpu %d", t->devices.v[first].id);
		gp_kv_str(kv, NULL, label, text);
		return;
	}
	snprintf(label, sizeof(label), "gpu %d-%d", t->devices.v[first].id, t->devices.v[end - 1].id);
	snprintf(line, sizeof(line), "%zu x %s", end - first, text);
	gp_kv_str(kv, NULL, label, line);
}

/* The GPUs: a text line "gpu N  description" each, identical GPUs of
** consecutive ids once ("gpu 0-7  8 x description"); in JSON a "gpus"
** list of objects, one per GPU, whose unknown fields are null. */
static void write_gpus(gp_kv *kv, const gp_trace *t)
{
	char buf[512], run[512] = "";
	size_t first = 0;

	gp_kv_begin(kv, "gpus", true);
	for (size_t i = 0; i < t->devices.n; i++) {
		const struct gp_device *d = &t->devices.v[i];
		const char *name = gp_s(t, d->name);
		struct gp_gpu est;
		const struct gp_gpu *g = gpu_text(t, d, &est, buf, sizeof(buf));
		/* the run of identical GPUs of consecutive ids so far ends here */
		if (i > first && (strcmp(buf, run) != 0 || d->id != t->devices.v[i - 1].id + 1)) {
			write_gpu_run(kv, t, first, i, run);
			first = i;
		}
		memcpy(run, buf, sizeof(run));

		gp_kv_begin(kv, "gpu", false);
		gp_kv_i64(kv, "id", NULL, d->id);
		gp_kv_str(kv, "name", NULL, name[0] ? name : NULL);
		if (d->sm_count)
			gp_kv_i64(kv, "sm_count", NULL, d->sm_count);
		else
			gp_kv_str(kv, "sm_count", NULL, NULL);
		snprintf(buf, sizeof(buf), "%d.%d", d->cc_major, d->cc_minor);
		gp_kv_str(kv, "compute_capability", NULL, d->cc_major ? buf : NULL);
		if (d->mem_bytes)
			gp_kv_u64(kv, "memory_bytes", NULL, d->mem_bytes);
		else
			gp_kv_str(kv, "memory_bytes", NULL, NULL);
		gp_kv_str(kv, "peaks", NULL, g ? g->name : NULL);
		gp_kv_str(kv, "peaks_from", NULL, !g ? NULL : g->flags & GP_GPU_ESTIMATED ? "estimate" : "table");
		gp_kv_end(kv);
	}
	if (t->devices.n)
		write_gpu_run(kv, t, first, t->devices.n, run);
	gp_kv_end(kv);
}

/* The kernels replayed from CUDA/HIP graphs, how many of them have an op,
** and why the others have none (gp_graph_stats; docs/correlation.md).
** Text lines only for traces with replays; JSON always has the keys. */
static void write_graphs(gp_kv *kv, const gp_trace *t)
{
	struct gp_graph_stats g;
	char buf[256], dur[64];

	gp_graph_stats(t, &g);
	bool any = g.replayed > 0;
	double share = g.kernel_ns > 0 ? 100.0 * (double)g.replayed_ns / (double)g.kernel_ns : 0;
	double attr = g.replayed_ns > 0 ? 100.0 * (double)g.attributed_ns / (double)g.replayed_ns : 0;
	gp_kv_u64(kv, "graph_kernels", NULL, g.replayed);
	gp_kv_pct(kv, "graph_gpu_time_pct", NULL, share);
	gp_kv_u64(kv, "graph_launches", NULL, g.launches);
	gp_kv_u64(kv, "graph_kernels_attributed", NULL, g.attributed);
	gp_kv_pct(kv, "graph_gpu_time_attributed_pct", NULL, attr);
	gp_kv_u64(kv, "capture_traces", NULL, g.captures);
	gp_kv_u64(kv, "captured_graphs", NULL, g.captured_graphs);
	snprintf(buf, sizeof(buf), "%zu kernels (%.1f%% of GPU time) in %zu graph launches", g.replayed, share,
		 g.launches);
	gp_kv_str(kv, NULL, any ? "graph replays" : NULL, buf);
	snprintf(buf, sizeof(buf), "%zu of them (%.1f%% of their GPU time)", g.attributed, attr);
	gp_kv_str(kv, NULL, any ? "  with an op" : NULL, buf);
	snprintf(buf, sizeof(buf), "%zu (%zu graphs captured)", g.captures, g.captured_graphs);
	gp_kv_str(kv, NULL, g.captures ? "capture traces" : NULL, buf);
	gp_kv_begin(kv, "graph_kernels_by_state", false);
	for (int st = GP_GRAPH_CAPTURED; st < GP_GRAPH__COUNT; st++) {
		gp_kv_begin(kv, gp_graph_state_name(st), false);
		gp_kv_u64(kv, "kernels", NULL, g.state[st]);
		gp_kv_i64(kv, "gpu_ns", NULL, g.state_ns[st]);
		gp_kv_end(kv);
		if (!g.state[st] || st == GP_GRAPH_CAPTURED || st == GP_GRAPH_ANNOTATED)
			continue;
		snprintf(buf, sizeof(buf), "%zu kernels, %s: %s", g.state[st],
			 gp_fmt_duration((double)g.state_ns[st], dur, sizeof(dur)), gp_graph_state_why(st));
		gp_kv_str(kv, NULL, st == GP_GRAPH_CAPTURED_OPS ? "  without shapes" : "  without op", buf);
	}
	gp_kv_end(kv);
	gp_kv_u64(kv, "graph_kernels_captured_without_op", NULL, g.bare);
	snprintf(buf, sizeof(buf), "%zu kernels, %s: captured where no op was open (record the ops: "
		 "emit_nvtx, torch.profiler, libgpuprof ranges around the capture)", g.bare,
		 gp_fmt_duration((double)g.bare_ns, dur, sizeof(dur)));
	gp_kv_str(kv, NULL, g.bare ? "  without op" : NULL, buf);
}

/* The serving steps the trace marks (analysis/phases.h): per phase, the
** steps, their kernels' GPU time and the idle inside the steps.  Lines and
** JSON keys only for traces with step markers.  phase: the run's
** (GP_NEED_KERNEL_PHASES). */
static void write_phases(gp_kv *kv, const gp_trace *t, const uint8_t *phase)
{
	struct gp_phase_stats s;
	char buf[256], d1[64], d2[64], label[32];

	if (!phase)
		return;
	gp_phase_stats(t, phase, &s);
	gp_kv_begin(kv, "serving_phases", false);
	for (int p = GP_PHASE_PREFILL; p < GP_PHASE__COUNT; p++) {
		gp_kv_begin(kv, gp_phase_name(p), false);
		gp_kv_u64(kv, "steps", NULL, s.steps[p]);
		gp_kv_u64(kv, "kernels", NULL, s.kernels[p]);
		gp_kv_i64(kv, "gpu_ns", NULL, s.gpu_ns[p]);
		gp_kv_i64(kv, "window_ns", NULL, s.window_ns[p]);
		gp_kv_i64(kv, "idle_ns", NULL, s.idle_ns[p]);
		gp_kv_end(kv);
		if (!s.steps[p])
			continue;
		snprintf(label, sizeof(label), "%s steps", gp_phase_name(p));
		snprintf(buf, sizeof(buf), "%zu, %zu kernels, %s of GPU time, %s idle inside them (%.1f%%)",
			 s.steps[p], s.kernels[p], gp_fmt_duration((double)s.gpu_ns[p], d1, sizeof(d1)),
			 gp_fmt_duration((double)s.idle_ns[p], d2, sizeof(d2)),
			 s.window_ns[p] > 0 ? 100.0 * (double)s.idle_ns[p] / (double)s.window_ns[p] : 0.0);
		gp_kv_str(kv, NULL, label, buf);
	}
	gp_kv_end(kv);
}

/* The batch sizes of the steps and graph replays (analysis/phases.h:
** a step marker's, else a replay's captured graph's), each with its
** steps, kernels and GPU time over every phase: a JSON list
** "batch_sizes" (empty when no kernel has one) and a line "batch sizes"
** when it is not empty.  From the run's groups (GP_NEED_PHASES), summed
** on a copy. */
static void write_batches(gp_kv *kv, const struct gp_analysis *a)
{
	size_t n = a->phases.n, shown = 0;
	struct gp_phase_group *g = gp_xmalloc((n ? n : 1) * sizeof(*g));
	char buf[512], d[64];
	int len = 0;

	if (n)
		memcpy(g, a->phases.v, n * sizeof(*g));

	/* the groups come in (phase, batch) order: sum each batch over the phases */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i && g[i].batch >= 0; j++)
			if (g[j].batch == g[i].batch && g[j].steps) {
				g[j].steps += g[i].steps;
				g[j].kernels += g[i].kernels;
				g[j].gpu_ns += g[i].gpu_ns;
				g[i].steps = 0;
				break;
			}
	for (size_t i = 0; i < n; i++)
		shown += g[i].batch >= 0 && g[i].steps;
	gp_kv_begin(kv, "batch_sizes", true);
	if (shown) {
		for (size_t i = 0; i < n; i++) {
			if (g[i].batch < 0 || !g[i].steps)
				continue;
			gp_kv_begin(kv, NULL, false);
			gp_kv_i64(kv, "batch", NULL, g[i].batch);
			gp_kv_u64(kv, "steps", NULL, g[i].steps);
			gp_kv_u64(kv, "kernels", NULL, g[i].kernels);
			gp_kv_i64(kv, "gpu_ns", NULL, g[i].gpu_ns);
			gp_kv_end(kv);
			if (len < (int)sizeof(buf))
				len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s%d (%zu step%s, %s)",
						len ? "; " : "", g[i].batch, g[i].steps, g[i].steps == 1 ? "" : "s",
						gp_fmt_duration((double)g[i].gpu_ns, d, sizeof(d)));
		}
		gp_kv_str(kv, NULL, "batch sizes", buf);
	}
	gp_kv_end(kv);
	free(g);
}

/* The serving steps' steady state (analysis/serving.h, the runner's
** GP_NEED_PHASES): per kind with steps, its steps, the warm-up steps left
** out, the median step time and time per token of the others; a JSON
** object "serving_steps" and a line per kind, only for traces with
** serving steps. */
static void write_serving(gp_kv *kv, const struct gp_analysis *a)
{
	char buf[256], d1[64], d2[64], label[48];

	if (!a->serving.n)
		return;
	gp_kv_begin(kv, "serving_steps", false);
	for (int p = GP_PHASE_NONE; p < GP_PHASE__COUNT; p++) {
		struct gp_serving_kind k;
		const char *name = p == GP_PHASE_NONE ? "replays" : gp_phase_name(p);
		gp_serving_kind(a->serving.v, a->serving.n, p, &k);
		if (!k.steps)
			continue;
		gp_kv_begin(kv, name, false);
		gp_kv_u64(kv, "steps", NULL, k.steps);
		gp_kv_u64(kv, "warmup", NULL, k.warmup);
		gp_kv_i64(kv, "median_ns", NULL, k.median_ns);
		if (k.ns_per_token >= 0)
			gp_kv_i64(kv, "ns_per_token", NULL, (int64_t)(k.ns_per_token + 0.5));
		gp_kv_end(kv);
		snprintf(label, sizeof(label), "%s steady", name);
		int len = snprintf(buf, sizeof(buf), "%s a step", gp_fmt_duration((double)k.median_ns, d1, sizeof(d1)));
		if (k.ns_per_token >= 0)
			len += snprintf(buf + len, sizeof(buf) - (size_t)len, ", %s a token",
					gp_fmt_duration(k.ns_per_token, d2, sizeof(d2)));
		snprintf(buf + len, sizeof(buf) - (size_t)len, " (%zu of %zu step%s; %zu warm-up)", k.steps - k.warmup,
			 k.steps, k.steps == 1 ? "" : "s", k.warmup);
		gp_kv_str(kv, NULL, label, buf);
	}
	gp_kv_end(kv);
}

/* Writes what trace t holds to kv (not closed). */
static void write_info(gp_kv *kv, gp_trace *t, const struct gp_cli_opts *o)
{
	char buf[64], label[32];

	gp_kv_str(kv, "file", "file", gp_s(t, t->path));
	gp_kv_str(kv, "format", "format", gp_s(t, t->format));
	gp_kv_str(kv, "tool", "tool", t->tool_version ? gp_s(t, t->tool_version) : NULL);
	write_gpus(kv, t);
	gp_kv_begin(kv, "metadata", false);
	for (size_t i = 0; i < t->meta.n; i++) {
		const char *key = gp_s(t, t->meta.v[i].key);
		gp_kv_str(kv, key, key, gp_s(t, t->meta.v[i].value));
	}
	gp_kv_end(kv);

	size_t nrt = 0, ndrv = 0, nranges = 0, nmarks = 0, nops = 0, nannot = 0, nother = 0;
	for (size_t i = 0; i < t->apis.n; i++) {
		uint32_t kind = gp_api_def(t, &t->apis.v[i])->kind;
		kind == GP_API_RUNTIME ? nrt++ : kind == GP_API_DRIVER ? ndrv++ : 0;
	}
	for (size_t i = 0; i < t->ranges.n; i++) {
		switch (t->ranges.v[i].kind) {
		case GP_RANGE_PUSHPOP: case GP_RANGE_STARTEND: nranges++; break;
		case GP_RANGE_MARK: nmarks++; break;
		case GP_RANGE_CPU_OP: nops++; break;
		case GP_RANGE_USER_ANNOTATION: case GP_RANGE_GPU_ANNOTATION: nannot++; break;
		default: nother++; break;
		}
	}
	uint64_t copied = 0;
	for (size_t i = 0; i < t->memcpys.n; i++)
		copied += t->memcpys.v[i].bytes;
	int64_t kernel_ns = 0;   /* the kernels' durations added up */
	for (size_t i = 0; i < t->kernels.n; i++)
		kernel_ns += t->kernels.v[i].end - t->kernels.v[i].start;
	/* text shows the framework counts only for traces that have them */
	bool framework = nops || nannot || nother;

	gp_kv_u64(kv, "processes", "processes", t->processes.n);
	gp_kv_u64(kv, "threads", "threads", t->threads.n);
	gp_kv_u64(kv, "kernels", "kernels", t->kernels.n);
	gp_kv_i64(kv, "kernel_ns", NULL, kernel_ns);
	gp_kv_str(kv, NULL, "kernel time", gp_fmt_duration((double)kernel_ns, buf, sizeof(buf)));
	gp_kv_u64(kv, "api_calls", "api calls", t->apis.n);
	gp_kv_u64(kv, "api_calls_runtime", "api calls (runtime)", nrt);
	gp_kv_u64(kv, "api_calls_driver", "api calls (driver)", ndrv);
	gp_kv_u64(kv, "nvtx_ranges", "nvtx ranges", nranges);
	gp_kv_u64(kv, "nvtx_marks", "nvtx marks", nmarks);
	gp_kv_u64(kv, "framework_ops", framework ? "framework ops" : NULL, nops);
	gp_kv_u64(kv, "annotations", framework ? "annotations" : NULL, nannot);
	gp_kv_u64(kv, "other_ranges", framework ? "other ranges" : NULL, nother);
	gp_kv_u64(kv, "memcpy", "memcpy", t->memcpys.n);
	gp_kv_u64(kv, "memcpy_bytes", "memcpy bytes", copied);
	gp_kv_u64(kv, "memset", "memset", t->memsets.n);
	gp_kv_u64(kv, "synchronizations", "synchronizations", t->syncs.n);

	gp_ns first, last;
	if (gp_trace_span(t, &first, &last)) {
		gp_kv_i64(kv, "start_ns", "start (ns)", first);
		gp_kv_i64(kv, "end_ns", "end (ns)", last);
		gp_kv_i64(kv, "duration_ns", NULL, last - first);
		gp_kv_str(kv, NULL, "duration", gp_fmt_duration((double)(last - first), buf, sizeof(buf)));
	} else {
		gp_kv_str(kv, "start_ns", NULL, NULL);
		gp_kv_str(kv, "end_ns", NULL, NULL);
		gp_kv_str(kv, "duration_ns", NULL, NULL);
	}
	size_t attributed = 0;
	for (size_t i = 0; i < t->kernels.n; i++)
		attributed += t->attrs[i].api >= 0;
	gp_kv_u64(kv, "kernels_with_launch", t->kernels.n ? "kernels with launch" : NULL, attributed);
	write_graphs(kv, t);
	/* the run's facts and passes, once: its kernels' phases and their
	** groups; the op model when it has kernels (none of these fails) */
	struct gp_analysis a;
	struct gp_analysis_opts ao;
	gp_error err = {0};
	gp_cli_analysis_opts(o, &ao);
	gp_analysis_run(t, GP_NEED_PHASES | (t->kernels.n ? GP_NEED_OPS : 0), &ao, &a, &err);
	write_phases(kv, t, a.kernel_phases.phase);
	write_batches(kv, &a);
	write_serving(kv, &a);
	if (t->kernels.n) {
		/* Op model coverage: how much GPU time has known FLOPs. */
		struct gp_ops_summary os;
		gp_ops_summarize(t, &a.ops, &os);
		gp_kv_pct(kv, "gpu_time_with_flops_pct", "gpu time with flops",
			  os.gpu_ns > 0 ? 100 * os.known_ns / os.gpu_ns : 0.0);
		gp_kv_u64(kv, "kernels_with_flops", "kernels with flops", os.known);
		gp_kv_u64(kv, "unknown_ops", "unknown ops", os.unknown_ops);
		gp_kv_u64(kv, "kernels_of_unknown_ops", "kernels of unknown ops", os.unknown_kernels);
	} else {
		gp_kv_str(kv, "gpu_time_with_flops_pct", NULL, NULL);
		gp_kv_u64(kv, "kernels_with_flops", NULL, 0);
		gp_kv_u64(kv, "unknown_ops", NULL, 0);
		gp_kv_u64(kv, "kernels_of_unknown_ops", NULL, 0);
	}
	gp_kv_begin(kv, "notes", true);
	for (size_t i = 0; i < t->warnings.n; i++) {
		snprintf(label, sizeof(label), "note %zu", i + 1);
		gp_kv_str(kv, "note", label, gp_s(t, t->warnings.v[i]));
	}
	if (!t->kernels.n)
		gp_kv_str(kv, "note", "note", "this trace has no kernels");
	if (a.comm_audit.nbig) {
		char note[1024];
		gp_kv_str(kv, "note", "note", gp_comm_audit_note(t, &a.comm_audit, note, sizeof(note)));
	}
	gp_kv_end(kv);
	/* every kernel of unknown family at 1% of GPU time or more (no
	** section when there is none) */
	if (a.comm_audit.nbig)
		gp_kv_begin(kv, "unknown_family_kernels", true);
	for (size_t i = 0; i < a.comm_audit.nbig; i++) {
		char text[512];
		snprintf(label, sizeof(label), "unknown %u", (unsigned)(i + 1) % 1000000u);
		snprintf(text, sizeof(text), "%s: %.1f%% of GPU time, %" PRIu64 " kernels (add an ops file row: "
			 "kernel pattern=name^NAME family=comm|gemm|other)", gp_s(t, a.comm_audit.big[i].name),
			 100.0 * (double)a.comm_audit.big[i].ns / (double)a.comm_audit.kernel_ns, a.comm_audit.big[i].n);
		gp_kv_str(kv, "kernel", label, text);
	}
	if (a.comm_audit.nbig)
		gp_kv_end(kv);
	gp_analysis_free(&a);
}

/* Several files (gp_cli_trace_fn): the info of one, as text or JSON in the
** format of the options at ctx, kept as a one-cell row. */
static const struct gp_column text_col = {"info", "Info", 0, false, false, NULL};

static int info_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	gp_kv kv;
	int rc;

	if (!mem)
		return gp_err(err, GP_ERR_INTERNAL, "%s: cannot open a memory stream", gp_s(t, t->path));
	gp_kv_open(&kv, ((const struct gp_cli_opts *)ctx)->format, mem, err);
	write_info(&kv, t, ctx);
	rc = gp_kv_close(&kv, err);
	fclose(mem);
	if (rc == GP_OK)
		gp_writer_row(w, (const char *const *)&text);
	free(text);
	return rc;
}

/* Several files' info, by rank: text blocks under "== rank N: FILE ==",
** or a JSON list of {"rank": N, "rank_from": ..., "info": {...}}. */
static int info_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n,
		       gp_writer *out, gp_error *err)
{
	bool json = strcmp(((const struct gp_cli_opts *)ctx)->format, "json") == 0;

	if (json)
		fputs("[\n", stdout);
	for (size_t i = 0; i < n; i++) {
		/* the kept row is one cell: tag byte, then the text */
		const char *text = res[i]->rows.len > 1 ? res[i]->rows.data + 1 : "";
		size_t len = strlen(text);
		while (len && text[len - 1] == '\n')
			len--;
		if (json)
			printf("{\"rank\": %d, \"rank_from\": \"%s\", \"info\": %.*s}%s\n", res[i]->id.rank,
			       gp_rank_source_name(res[i]->id.source), (int)len, text, i + 1 < n ? "," : "");
		else
			printf("%s== rank %d (from %s): %s ==\n%.*s\n", i ? "\n" : "", res[i]->id.rank,
			       gp_rank_source_name(res[i]->id.source), res[i]->path, (int)len, text);
	}
	if (json)
		fputs("]\n", stdout);
	return GP_OK;
}

/* One file (gp_cli_many.single): loads it and writes its info to stdout
** as info always has; returns the exit code. */
static int info_single(const void *ctx, const char *path)
{
	const struct gp_cli_opts *o = ctx;
	gp_error err = {0};
	gp_kv kv;
	gp_trace t;
	int rc;

	if (gp_kv_open(&kv, o->format, stdout, &err))
		return gp_cli_usage("info", "%s", err.msg);
	gp_trace_init(&t);
	rc = gp_cli_load(path, o, &t, NULL);
	if (rc) {
		gp_trace_free(&t);
		return rc;
	}
	write_info(&kv, &t, o);
	rc = gp_kv_close(&kv, &err);
	gp_trace_free(&t);
	if (rc) {
		gp_err_print(&err);
		return gp_exit_code(err.status);
	}
	return GP_EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
	struct gp_cli_many m = {.cmd = "info", .fn = info_trace, .cols = &text_col, .ncols = 1,
				.reduce = info_reduce, .single = info_single};
	struct gp_cli_opts o;
	gp_error err = {0};
	gp_kv kv;
	int rc;

	rc = gp_cli_parse(&info_spec, argc, argv, &o, NULL, NULL);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (gp_kv_open(&kv, o.format, stdout, &err))
		return gp_cli_usage("info", "%s", err.msg);
	m.ctx = &o;
	return gp_cli_run(&m, &o);
}
