/*
** gpuprof advise rules.  Each rule scans the trace once (kernels are
** sorted by start), sums the time involved per group (op or kernel name,
** indexed by string id: no hashing), and emits at most one finding with
** the top groups as evidence.  "At stake" is an estimate of the time the
** change would save, so findings of different rules rank together:
**   tensor cores / TF32 / AMP: half the time of the kernels involved;
**   below roofline: measured - ideal / 0.8 (0.8: achievable fraction);
**   launch-bound, idle gaps, synchronization: the GPU idle time involved;
**   idle causes (host launch, short gaps; with synchronization, pageable
**   copies and the remaining idle gaps): each gap's time of that cause as
**   the time breakdown split it;
**   memcpy: the copy time; small grids: time x (1 - blocks / SMs) / 2;
**   fusion: each row of small ops but its longest kernel;
**   unfused attention: its softmax, scaling, mask and dropout kernels.
**
** Two rules can describe the same time (an idle gap before a tiny kernel
** is both launch overhead and idle time; a slow fp32 GEMM is both fp32 and
** below its roofline).  So a rule does not sum its time itself: it claims
** pieces of the timeline (a kernel, a copy, an idle gap) with the time at
** stake on each, measured in wall time (a kernel's own share of its
** device's busy time: concurrent kernels split it).  gp_advise() then
** settles the claims largest finding first: each piece gives what is left
** of it, so the times at stake are disjoint and sum to at most the span x
** devices, and each finding says how much it shared and with which kinds.
**
** The file is data first: the limits every rule compares against, then the
** texts findings print.  A rule is one function that fills a finding,
** claims its pieces of the timeline (claim()) and says whether it fired;
** the table at the end lists {kind, function} in the order findings are
** collected.  Adding a rule = one function, one table row (and its limits
** and texts here).
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/memory.h"
#include "model/classify.h"
#include "ops/advise.h"
#include "util/u64map.h"

/* Every threshold of the rules (docs/op-model.md, "advise"). */
struct advise_limits {
	double min_share;           /* a finding needs this share of GPU time (of the span for idle time) */
	double copy_share_div;      /* copies need min_share / this: they also stall the host */
	double tiny_ns;             /* a "tiny" kernel runs shorter */
	double launch_gap_ns;       /* shorter gaps before a tiny kernel are launch overhead */
	size_t tiny_min_count;      /* launch-bound: at least this many tiny kernels, */
	size_t tiny_min_part;       /* and at least 1 in this many kernels tiny */
	double idle_gap_ns;         /* shortest GPU idle gap counted */
	double low_eff;             /* "far below roofline": under this fraction of the ideal */
	double roofline_name_share; /* roofline: only kernel names with this share of GPU time */
	double achievable;          /* the fraction of the roofline a kernel can reach */
	double small_grid_min_ns;   /* small grids: only kernels this long */
	double fusion_small_ns;     /* fusion: a "small" elementwise/norm/copy kernel runs shorter */
	size_t fusion_min_run;      /* fusion: this many such kernels in a row on one stream */
	double fusion_min_share;    /* fusion: their time at stake needs this share of GPU time */
	size_t attn_max_between;    /* unfused attention: other kernels allowed between its steps */
	uint64_t churn_min_events;  /* alloc churn: allocator calls or reserved growths after the first iteration */
};

static const struct advise_limits lim = {
	.min_share = 0.01,
	.copy_share_div = 10,
	.tiny_ns = 10000.0,
	.launch_gap_ns = 1000000.0,
	.tiny_min_count = 100,
	.tiny_min_part = 2,
	.idle_gap_ns = 100000.0,
	.low_eff = 0.3,
	.roofline_name_share = 0.05,
	.achievable = 0.8,
	.small_grid_min_ns = 20000.0,
	.fusion_small_ns = 50000.0,
	.fusion_min_run = 3,
	.fusion_min_share = 0.05,
	.attn_max_between = 8,
	.churn_min_events = 2,
};

/* Fusion: op families of elementwise, norm and copy work, and for kernels
** without a known op, kernel-name substrings of such work (RoPE kernels
** have no op family of their own).  Names with one of fusion_done_names
** are already fused or compiled. */
static const char *const fusion_families[] = {
	"pointwise", "activation", "norm", "copy", "convert", "dropout", NULL
};
static const char *const fusion_names[] = {
	"elementwise_kernel", "layer_norm", "rms_norm", "RowwiseMoments", "LayerNorm", "batch_norm",
	"rotary", "rope_", "_rope", "copy_kernel", "CatArrayBatchedCopy", NULL
};
static const char *const fusion_done_names[] = {"fused", "triton_", "Fused", NULL};

/* Unfused attention: the op names (without "aten::") of each step of
** scores = Q K^T, softmax, optional dropout, out = P V. */
static const char *const attn_gemm_ops[] = {"bmm", "baddbmm", "matmul", "einsum", NULL};
static const char *const attn_softmax_ops[] = {"softmax", "_softmax", "_safe_softmax", "safe_softmax", NULL};

/* GPUs without TF32 (pre-Ampere), by substring of the peak table's name. */
static const char *const no_tf32_gpus[] = {"V100", "T4", "TITAN V", "RTX 20", "GP100", NULL};

/*
** The texts.  Titles and evidence are printf formats, kept as macros so
** that the compiler checks the arguments each rule passes; changes are the
** advice itself.
*/
#define TC_TITLE "%zu tensor-core-eligible %s kernels ran on CUDA cores"
#define TC_CHANGE_PAD                                                                      \
	"Tensor cores need GEMM/conv dimensions that are multiples of %d for %s: pad %s "  \
	"(vocabulary, hidden size, channels, batch x sequence)."
#define TC_CHANGE_LAYOUT                                                                   \
	"The dimensions are multiples of %d; check the layout (channels_last for "         \
	"convolutions), set torch.backends.cudnn.benchmark = True, and update cuBLAS/cuDNN."

#define FP32_TITLE "%zu fp32 GEMM/convolution kernels run on CUDA cores"
#define FP32_CHANGE_TF32                                                                   \
	"Allow TF32 (torch.backends.cuda.matmul.allow_tf32 = True, or "                   \
	"torch.set_float32_matmul_precision('high'); cuDNN convolutions use TF32 by "     \
	"default) or train in mixed precision (torch.autocast('cuda', dtype=torch.bfloat16))."
#define FP32_CHANGE_AMP                                                                    \
	"Train in mixed precision: torch.autocast('cuda', dtype=torch.float16) with "      \
	"torch.cuda.amp.GradScaler (this GPU%s has fp16 tensor cores but no TF32)."
#define FP32_UNKNOWN_GPU ", if it is pre-Ampere,"

#define ROOF_TITLE "%zu kernels with a large share of GPU time run under %.0f%% of their roofline"
#define ROOF_EVIDENCE "; the longest: %s %s, %.0f GFLOP/s, %.0f GB/s, %.1f%% of its %s-bound ideal"
#define ROOF_CHANGE_COMPUTE                                                                \
	"Compute-bound op far from peak: use tensor cores (fp16/bf16/TF32), larger or "    \
	"aligned GEMM shapes, and check for split-K or tiny tiles in the kernel choice."
#define ROOF_CHANGE_MEMORY                                                                 \
	"Memory-bound op far from bandwidth: fuse it with its neighbours (torch.compile, " \
	"fused optimizers/norms), avoid non-contiguous inputs and small-element strided access."
#define ROOF_CHANGE_FUSED_ATTENTION                                                        \
	"Already a fused attention kernel: check that head dim and sequence lengths are "  \
	"multiples of 8 (16 for fp8), that the fastest SDPA backend was chosen "            \
	"(flash/cuDNN over efficient/math), and that batches are not padded to long lengths."

#define COMM_TITLE "communication is exposed %s: %.0f%% of it runs with no compute beside it"
#define COMM_EVIDENCE "; communication runs %s in all (union per device), %s of it hidden behind compute"
#define COMM_CHANGE \
	"Overlap communication with compute: launch collectives asynchronously on their own "   \
	"stream and wait for them as late as possible; in DDP let gradient buckets "            \
	"(bucket_cap_mb) all-reduce during backward; in FSDP enable forward/backward "          \
	"prefetch; check the exposed part for a straggling rank (the collective waits for it)."

#define IDLE_TITLE "the GPU sat idle %s in %zu gaps of %.0f us or more (%.1f%% of the span)"
#define IDLE_EVIDENCE "longest gap %s at %.3f s into the trace; CPU during the gaps:"
#define IDLE_EVIDENCE_CAUSE "%s %s %s (%u gaps)"
#define IDLE_EVIDENCE_BREAKDOWN \
	"; all idle time (%s, gpuprof breakdown): host launch %.0f%%, synchronisation %.0f%%, "  \
	"pageable copies %.0f%%, gaps under 10 us %.0f%%, other %.0f%%"
#define IDLE_NO_CALL "no CUDA call (Python, data loading)"
#define IDLE_CHANGE_ALLOC                                                                  \
	"Most idle time is spent in cudaMalloc/cudaFree: let PyTorch's caching "           \
	"allocator reuse memory (no torch.cuda.empty_cache() in the loop, fixed shapes, "  \
	"warm-up steps before profiling). "
#define IDLE_CHANGE                                                                        \
	"Keep the GPU fed: overlap data loading (DataLoader num_workers > 0, pin_memory=True, " \
	"prefetch), move CPU-side work out of the training step, and remove host "         \
	"synchronizations; for gaps inside a step, CUDA graphs or torch.compile."

#define LARGEST_GAPS "; the largest gaps:"
#define LARGEST_GAP "%s %s at %.3f s (CPU: %.160s)"
#define LARGEST_GAP_NO_CPU "no CPU range open"

#define HOST_TITLE "the GPU waited for the host to launch work %s (%.1f%% of the span) in %zu gaps"
#define HOST_EVIDENCE "the GPU had nothing queued and the next kernel's launch call returned after the gap began"
#define HOST_CHANGE                                                                         \
	"The step is launch-bound: the CPU does not launch kernels as fast as the GPU runs them. " \
	"Capture the step in a CUDA graph (torch.compile(mode='reduce-overhead'), "           \
	"torch.cuda.graphs), fuse kernels with torch.compile, move Python work (logging, "     \
	"metrics, data preparation) out of the step, or give each launch more work (larger batch)."

#define SHORT_TITLE "%zu gaps under %.0f us between back-to-back GPU work: %s idle (%.1f%% of the span)"
#define SHORT_EVIDENCE "each gap is the launch latency between two kernels; %.1f us per gap on average"
#define SHORT_CHANGE                                                                        \
	"Remove the per-kernel launch latency: CUDA graphs (torch.compile(mode='reduce-overhead'), " \
	"torch.cuda.graphs) replay the step without it, and torch.compile fuses small kernels "  \
	"into fewer; fused or foreach optimizers do the same for the optimizer step."

#define SYNC_TITLE "host synchronization left the GPU idle %s"
#define SYNC_EVIDENCE_CAUSE "; the CPU was synchronising during %s of idle time in %zu gaps"
#define SYNC_EVIDENCE "; %zu synchronizing calls, %s of CPU time, %zu idle gaps end in one"
#define SYNC_CHANGE                                                                        \
	"Remove synchronizations from the loop: .item(), .cpu(), .tolist(), print(tensor), " \
	"torch.cuda.synchronize(), blocking copies; accumulate metrics on the GPU and read them " \
	"every N steps; use non_blocking=True copies from pinned memory."

#define TINY_TITLE "%zu of %zu kernels run under %.0f us: the GPU waits on launches between them"
#define TINY_EVIDENCE "; they run %s in all, with %s of idle gaps before them"
#define TINY_CHANGE                                                                        \
	"Launch fewer, larger kernels: torch.compile (fusion), CUDA graphs "               \
	"(torch.cuda.graphs / mode='reduce-overhead'), fused or foreach optimizers, a larger " \
	"batch; avoid Python loops over small tensors."

#define PAGEABLE_TITLE "%zu copies from or to pageable host memory"
#define PAGEABLE_EVIDENCE "%zu pageable memcpy, %.1f MB, %s of copy time"
#define PAGEABLE_EVIDENCE_WAIT "; the GPU sat idle %s in %zu gaps waiting for them"
#define PAGEABLE_CHANGE                                                                    \
	"Copy from pinned memory (DataLoader(pin_memory=True), tensor.pin_memory()) with "  \
	"non_blocking=True: pageable copies are staged through a bounce buffer and block the host."

#define SYNCCOPY_TITLE "%zu synchronous memory copies"
#define SYNCCOPY_EVIDENCE "%zu memcpy issued without Async, %s of copy time"
#define SYNCCOPY_CHANGE                                                                    \
	"Use cudaMemcpyAsync / tensor.to(device, non_blocking=True) from pinned memory so copies " \
	"overlap compute; avoid .cpu()/.item() inside the step."

#define FP32NS_TITLE "%zu fp32 GEMM/convolution kernels run on CUDA cores of a GPU with tensor cores"
#define FP32NS_EVIDENCE "; the trace has no shapes for them: their FLOPs are unknown"
#define FP32NS_CHANGE                                                                      \
	"%s  Record shapes (torch.profiler.profile(record_shapes=True), or "               \
	"torch.autograd.profiler.emit_nvtx(record_shapes=True) under nsys) and gpuprof "    \
	"gives their FLOPs, roofline and which dimensions to pad."

#define FUSION_TITLE "%zu small elementwise/norm/RoPE/copy kernels in rows: %.1f%% of GPU time"
#define FUSION_EVIDENCE "; %zu rows of %zu or more kernels under %.0f us back to back, the longest %zu"
#define FUSION_CHANGE                                                                      \
	"Fuse them: torch.compile(model) fuses chains of elementwise, norm, RoPE and copy "  \
	"ops into one kernel each; or use fused kernels (fused RMSNorm/LayerNorm, fused RoPE, " \
	"fused bias+activation, optimizers with fused=True or foreach=True)."

#define ATTN_TITLE "%zu unfused attention paths (%s + softmax + %s)"
#define ATTN_EVIDENCE                                                                      \
	"their softmax, scaling, mask and dropout kernels take %s, the score and output GEMMs %s"
#define ATTN_CHANGE                                                                        \
	"Use torch.nn.functional.scaled_dot_product_attention (flash or memory-efficient "  \
	"kernels; Hugging Face: attn_implementation=\"sdpa\" or \"flash_attention_2\"): it " \
	"never writes the sequence x sequence score matrix to memory."

#define GRID_TITLE "%zu kernels launch fewer blocks than the %d SMs"
#define GRID_EVIDENCE "; e.g. grid %u,%u,%u = %u blocks"
#define GRID_CHANGE                                                                        \
	"Give these kernels more parallel work: a larger batch, fusing small ops, split-K " \
	"for skinny GEMMs, or running independent work on other streams at the same time."

/* A GPU idle interval on one device, between two of its activities. */
struct idle_gap {
	int32_t device;
	gp_ns start;            /* end of the activity before it */
	double ns;
	int32_t next_kernel;    /* the kernel that ends it, -1 = a copy or memset */
	int32_t api;            /* gaps >= lim.idle_gap_ns: the API call the CPU was in
				   at its middle, -1 = none */
	bool sync;              /* that call synchronizes the host with the GPU */
};

/* A piece of the timeline a rule claims: unit u (see struct advise_in),
** ns of time at stake on it. */
struct claim {
	uint32_t unit;
	double ns;
};
typedef GP_VEC(struct claim) claim_vec;

/* What every rule reads.  Facts several rules share are computed once by
** gp_advise(). */
struct advise_in {
	const gp_trace *t;
	/* per gap (in gaps' order): its time by idle cause from the time
	** breakdown, NULL = not known */
	const struct gp_bd_gap_cause **cause;
	const struct gp_opres *r;      /* ops->r */
	const struct gp_ops *ops;
	const struct gp_findings *f;   /* gpu_ns, span_ns, gpu, sm_count */
	const struct gp_gpu *gpu;      /* peak table entry, NULL = unknown */
	const struct gp_advise_time *bt;  /* the time breakdown, NULL = none */
	gp_ns first;                   /* start of the span */
	GP_VEC(struct idle_gap) gaps;  /* every idle interval, per device, in time order */
	/* The units rules claim: kernel k is unit k, copy i unit copy0 + i,
	** memset i unit set0 + i, gap i unit gap0 + i.  wall[u] is the time a
	** unit has to give: a gap's length, or an activity's own share of its
	** device's busy time. */
	size_t copy0, set0, gap0, nunits;
	double *wall;
	claim_vec *claims;             /* where the running rule claims */
};

/* A rule: fills x (all but kind) and returns true when it has a finding. */
typedef bool (*advise_rule)(const struct advise_in *in, struct gp_finding *x);

/* The facts of a finding: the time and number of kernels, calls or gaps
** involved.  Its time at stake is what gp_advise() settles from the
** rule's claims. */
static void involved(struct gp_finding *x, double total_ns, size_t count)
{
	x->total_ns = total_ns;
	x->count = count;
}

/* The running rule claims ns of time at stake on unit u (at most its wall
** time). */
static void claim(const struct advise_in *in, size_t u, double ns)
{
	if (ns <= 0 || u >= in->nunits)
		return;
	struct claim *c = gp_vec_push(*in->claims);
	c->unit = (uint32_t)u;
	c->ns = ns < in->wall[u] ? ns : in->wall[u];
}

/* Time and count per string id. */
struct agg {
	double *ns;
	uint32_t *cnt;
	int32_t *sample;          /* a kernel of the group, for its params */
	size_t n;
};

static void agg_init(struct agg *a, const gp_trace *t)
{
	a->n = t->strs.n + 1;
	a->ns = gp_xcalloc(a->n, sizeof(*a->ns));
	a->cnt = gp_xcalloc(a->n, sizeof(*a->cnt));
	a->sample = gp_xcalloc(a->n, sizeof(*a->sample));
}

static void agg_free(struct agg *a)
{
	free(a->ns);
	free(a->cnt);
	free(a->sample);
}

static void agg_add(struct agg *a, gp_str id, double ns, size_t k)
{
	if (id >= a->n)
		return;
	/* keep the longest kernel as the sample */
	if (!a->cnt[id] || ns > a->ns[id] / a->cnt[id])
		a->sample[id] = (int32_t)k;
	a->ns[id] += ns;
	a->cnt[id]++;
}

/* The ntop ids with the most time, largest first; returns how many. */
static int agg_top(const struct agg *a, gp_str *top, int ntop)
{
	int n = 0;

	for (size_t id = 0; id < a->n; id++) {
		if (!a->cnt[id])
			continue;
		int i = n < ntop ? n++ : ntop;
		if (i == ntop && a->ns[id] <= a->ns[top[ntop - 1]])
			continue;
		if (i == ntop)
			i = ntop - 1;
		while (i > 0 && a->ns[top[i - 1]] < a->ns[id]) {
			top[i] = top[i - 1];
			i--;
		}
		top[i] = (gp_str)id;
	}
	return n;
}

static double dur(const struct gp_kernel *k)
{
	return k->end > k->start ? (double)(k->end - k->start) : 0;
}

static const char *fmt_ms(double ns, char *buf, size_t size)
{
	if (ns >= 1e9)
		snprintf(buf, size, "%.2f s", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, size, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, size, "%.1f us", ns / 1e3);
	return buf;
}

/* The group key of kernel k: its op (as shown), else its kernel name. */
static gp_str group_key(const gp_trace *t, const struct gp_opres *r, size_t k)
{
	if (r[k].op)
		return r[k].op;
	if (t->attrs && t->attrs[k].op)
		return t->attrs[k].op;
	return gp_kernel_def(t, &t->kernels.v[k])->name;
}

/* Appends "name 1.23 ms in 4 kernels (params); ..." for the top groups. */
static void evidence(const gp_trace *t, const struct gp_opres *r, const struct agg *a, char *out,
		     size_t size, const char *unit)
{
	gp_str top[3];
	int n = agg_top(a, top, 3);
	size_t len = 0;
	char d[32];

	out[0] = 0;
	for (int i = 0; i < n && len < size; i++) {
		int32_t s = a->sample[top[i]];
		const char *params = r && r[s].params ? gp_s(t, r[s].params) : NULL;
		/* long generic params (every tensor of a big op) are cut */
		int w = snprintf(out + len, size - len, "%s%s %s in %u %s%s%.100s%s%s", i ? "; " : "",
				 gp_s(t, top[i]), fmt_ms(a->ns[top[i]], d, sizeof(d)), a->cnt[top[i]], unit,
				 params ? " (" : "", params ? params : "",
				 params && strlen(params) > 100 ? "..." : "", params ? ")" : "");
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

/* The value of key in a params string ("M=200,N=(35,20),K=200"), tuples
** multiplied out; -1 if absent. */
static double param_val(const char *params, const char *key)
{
	size_t kl = strlen(key);
	const char *p = params;

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == '=') {
			p += kl + 1;
			if (*p == '(') {
				double v = 1;
				for (p++; *p && *p != ')';) {
					char *e;
					double x = strtod(p, &e);
					if (e == p)
						break;
					v *= x;
					p = *e == ',' ? e + 1 : e;
				}
				return v;
			}
			char *e;
			double v = strtod(p, &e);
			return e == p ? -1 : v;
		}
		/* next key: skip to the next ',' outside parentheses */
		int depth = 0;
		for (; *p && (depth || *p != ','); p++)
			depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
		if (*p)
			p++;
	}
	return -1;
}

/* "pad K=1001 to 1008, N=700 is fine": the dims of a GEMM/conv's params
** that are not multiples of mult. */
static void pad_advice(const char *params, int mult, char *out, size_t size)
{
	static const char *const keys[] = {"M", "N", "K", "C", NULL};
	size_t len = 0;

	out[0] = 0;
	for (int i = 0; keys[i] && len < size; i++) {
		double v = param_val(params, keys[i]);
		if (v <= 0 || fmod(v, mult) == 0)
			continue;
		double to = ceil(v / mult) * mult;
		int w = snprintf(out + len, size - len, "%s%s=%.0f to %.0f", len ? ", " : "", keys[i], v, to);
		if (w > 0)
			len += (size_t)w;
	}
}

static int tc_multiple(enum gp_dtype dt)
{
	switch (dt) {
	case GP_DT_FP8_E4M3: case GP_DT_FP8_E5M2: case GP_DT_INT8: return 16;
	case GP_DT_TF32: return 4;
	default: return 8;
	}
}

/* A start or end of an activity, for the wall-time sweep. */
struct edge {
	gp_ns at;
	int32_t dev;
	uint32_t unit;
	bool end;
};

static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return (int)a->end - (int)b->end;      /* starts first: no negative count */
}

/* Fills wall[u] for the n activities a: each activity's own share of its
** device's busy time, where k activities running at once get 1/k of it
** each (so the walls of one device sum to its busy time).  One sorted
** sweep: S(x) = integral of 1/active up to x, wall = S(end) - S(start).
** Returns the number of devices with activity. */
static int activity_walls(const struct gp_activity *a, size_t n, double *wall)
{
	struct edge *e = gp_xmalloc((n ? 2 * n : 1) * sizeof(*e));
	int devices = 0;

	for (size_t i = 0; i < n; i++) {
		e[2 * i] = (struct edge){a[i].s, a[i].dev, a[i].unit, false};
		e[2 * i + 1] = (struct edge){a[i].e, a[i].dev, a[i].unit, true};
	}
	qsort(e, 2 * n, sizeof(*e), cmp_edge);
	double S = 0;
	size_t active = 0;
	for (size_t i = 0; i < 2 * n; i++) {
		if (!i || e[i].dev != e[i - 1].dev) {
			devices++;
			S = 0;
			active = 0;
		} else if (active) {
			S += (double)(e[i].at - e[i - 1].at) / (double)active;
		}
		if (e[i].end) {
			wall[e[i].unit] += S;
			active--;
		} else {
			wall[e[i].unit] = -S;
			active++;
		}
	}
	free(e);
	return devices;
}

/* Whether an API call holds the host until the GPU catches up: a call
** that waits or a blocking copy (model/classify.h). */
static bool holds_host(const gp_trace *t, const struct gp_api *a)
{
	return gp_api_sync_call(gp_s(t, gp_api_def(t, a)->name)) != GP_SYNC_CALL_NONE;
}

/* The API call whose span contains time x on any thread, preferring one
** that holds the host (holds_host); -1 if none.  apis are sorted by start. */
static int32_t api_at(const gp_trace *t, gp_ns x)
{
	int32_t best = -1;
	size_t lo = 0, hi = t->apis.n;

	while (lo < hi) {      /* first api with start > x */
		size_t mid = (lo + hi) / 2;
		if (t->apis.v[mid].start <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* calls are short; look back a bounded number for one covering x */
	for (size_t i = lo, steps = 0; i > 0 && steps < 256; i--, steps++) {
		const struct gp_api *a = &t->apis.v[i - 1];
		if (a->end >= x) {
			best = (int32_t)(i - 1);
			if (holds_host(t, a))
				return best;
		}
	}
	return best;
}

/* The idle intervals of every device between its activities a (n, sorted
** by device and start), the kernel that ends each, and for the long ones
** the API call during it. */
static void find_idle_gaps(struct advise_in *in, const struct gp_activity *a, size_t n)
{
	const gp_trace *t = in->t;
	gp_ns busy_end = 0;

	for (size_t i = 0; i < n; i++) {
		if (i && a[i].dev == a[i - 1].dev && a[i].s > busy_end) {
			struct idle_gap *gap = gp_vec_push(in->gaps);
			gap->device = a[i].dev;
			gap->start = busy_end;
			gap->ns = (double)(a[i].s - busy_end);
			gap->next_kernel = a[i].unit < t->kernels.n ? (int32_t)a[i].unit : -1;
			gap->api = gap->ns >= lim.idle_gap_ns ? api_at(t, busy_end + (gp_ns)(gap->ns / 2)) : -1;
			gap->sync = gap->api >= 0 && holds_host(t, &t->apis.v[gap->api]);
		}
		if (!i || a[i].dev != a[i - 1].dev || a[i].e > busy_end)
			busy_end = a[i].e;
	}
}

/* Points in->cause[i] at the time breakdown's record of gap i (the same
** gap: device and start equal; both lists are by device and start), NULL
** for a gap it does not have. */
static void match_gap_causes(struct advise_in *in)
{
	const struct gp_advise_time *bt = in->bt;
	size_t j = 0;

	in->cause = gp_xcalloc(in->gaps.n ? in->gaps.n : 1, sizeof(*in->cause));
	if (!bt || !bt->gaps)
		return;
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct idle_gap *g = &in->gaps.v[i];
		while (j < bt->ngaps && (bt->gaps[j].device < g->device ||
					 (bt->gaps[j].device == g->device && bt->gaps[j].start < g->start)))
			j++;
		if (j < bt->ngaps && bt->gaps[j].device == g->device && bt->gaps[j].start == g->start)
			in->cause[i] = &bt->gaps[j];
	}
}

/* The idle time of cause c in gap i (as the breakdown split it), or -1
** when the gap's causes are not known. */
static double gap_cause_ns(const struct advise_in *in, size_t i, int c)
{
	return in->cause[i] ? (double)in->cause[i]->idle[c] : -1;
}

/* Appends to out "; the largest gaps: 1.20 ms at 0.530 s (CPU:
** ProfilerStep#3 > aten::item), ...": the three gaps with the most time of
** cause c (c < 0: the gaps' whole length, of those with want[i]), with the
** CPU ranges open in them. */
static void largest_gaps(const struct advise_in *in, int c, const bool *want, char *out, size_t size)
{
	struct gp_bd_gap top[3];
	double ns[3];
	size_t n = 0, len = strlen(out);
	char d[32];

	for (size_t i = 0; i < in->gaps.n; i++) {
		double v = c >= 0 ? gap_cause_ns(in, i, c) : want[i] ? in->gaps.v[i].ns : 0;
		if (v <= 0 || (n == 3 && v <= ns[2]))
			continue;
		size_t at = n < 3 ? n++ : 2;
		while (at > 0 && ns[at - 1] < v) {
			top[at] = top[at - 1];
			ns[at] = ns[at - 1];
			at--;
		}
		const struct idle_gap *g = &in->gaps.v[i];
		top[at] = (struct gp_bd_gap){.device = g->device, .start = g->start,
					     .end = g->start + (gp_ns)g->ns};
		ns[at] = v;
	}
	if (!n)
		return;
	gp_bd_gap_contexts(in->t, top, n);
	if (len < size)
		len += (size_t)snprintf(out + len, size - len, LARGEST_GAPS);
	for (size_t i = 0; i < n; i++) {
		if (len < size)
			len += (size_t)snprintf(out + len, size - len, LARGEST_GAP, i ? ";" : "",
						fmt_ms(ns[i], d, sizeof(d)), (double)(top[i].start - in->first) / 1e9,
						top[i].context ? top[i].context : LARGEST_GAP_NO_CPU);
		free(top[i].context);
	}
}

/* The finding for idle cause c: every gap claims its time of that cause;
** fires at lim.min_share of the span.  Returns the time and gaps in
** *total, *n. */
static bool idle_cause(const struct advise_in *in, int c, double *total, size_t *n)
{
	*total = 0;
	*n = 0;
	for (size_t i = 0; i < in->gaps.n; i++) {
		double v = gap_cause_ns(in, i, c);
		if (v <= 0)
			continue;
		*total += v;
		(*n)++;
		claim(in, in->gap0 + i, v);
	}
	return *n && *total >= lim.min_share * in->f->span_ns;
}

/* host-launch: idle time the breakdown puts on the host launching too
** slowly (the next kernel's launch call returned after the gap began). */
static bool rule_host_launch(const struct advise_in *in, struct gp_finding *x)
{
	double total, cap = in->f->capacity_ns;
	size_t n;
	char d1[32];

	if (!idle_cause(in, GP_IDLE_HOST_LAUNCH, &total, &n))
		return false;
	involved(x, total, n);
	snprintf(x->title, sizeof(x->title), HOST_TITLE, fmt_ms(total, d1, sizeof(d1)),
		 cap > 0 ? 100 * total / cap : 0.0, n);
	snprintf(x->evidence, sizeof(x->evidence), "%s", HOST_EVIDENCE);
	largest_gaps(in, GP_IDLE_HOST_LAUNCH, NULL, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", HOST_CHANGE);
	return true;
}

/* short-gaps: gaps shorter than the breakdown's short-gap threshold
** between back-to-back GPU work: launch latency CUDA graphs remove. */
static bool rule_short_gaps(const struct advise_in *in, struct gp_finding *x)
{
	double total, cap = in->f->capacity_ns;
	size_t n;
	char d1[32];

	if (!idle_cause(in, GP_IDLE_SHORT_GAP, &total, &n))
		return false;
	involved(x, total, n);
	snprintf(x->title, sizeof(x->title), SHORT_TITLE, n, (double)in->bt->short_gap_ns / 1e3,
		 fmt_ms(total, d1, sizeof(d1)), cap > 0 ? 100 * total / cap : 0.0);
	snprintf(x->evidence, sizeof(x->evidence), SHORT_EVIDENCE, total / (double)n / 1e3);
	largest_gaps(in, GP_IDLE_SHORT_GAP, NULL, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", SHORT_CHANGE);
	return true;
}

/* tc-not-used: tensor-core-eligible ops that did not run on tensor cores. */
static bool rule_tc_not_used(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct agg a;
	double total = 0;
	size_t n = 0;
	bool found;

	agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		if (!r[k].tc_eligible || r[k].tc != GP_TC_NO)
			continue;
		total += dur(&t->kernels.v[k]);
		n++;
		claim(in, k, in->wall[k] / 2);
		agg_add(&a, group_key(t, r, k), dur(&t->kernels.v[k]), k);
	}
	found = n && total >= lim.min_share * in->f->gpu_ns;
	if (found) {
		involved(x, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		enum gp_dtype dt = (enum gp_dtype)r[s].dtype;
		int mult = tc_multiple(dt);
		char pad[200];
		pad_advice(gp_s(t, r[s].params), mult, pad, sizeof(pad));
		snprintf(x->title, sizeof(x->title), TC_TITLE, n, gp_dtype_short(dt));
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		if (pad[0])
			snprintf(x->change, sizeof(x->change), TC_CHANGE_PAD, mult, gp_dtype_short(dt), pad);
		else
			snprintf(x->change, sizeof(x->change), TC_CHANGE_LAYOUT, mult);
	}
	agg_free(&a);
	return found;
}

static bool has_tf32(const char *gpu)
{
	for (int i = 0; no_tf32_gpus[i]; i++)
		if (strstr(gpu, no_tf32_gpus[i]))
			return false;
	return true;
}

/* fp32-gemm: fp32 GEMMs, convolutions and attention on CUDA cores. */
static bool rule_fp32_gemm(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct agg a;
	double total = 0;
	size_t n = 0;
	bool found;

	agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const char *fam = gp_opres_family(&r[k]);
		/* trial runs and kernels whose modelled work exceeds the
		** peak have no trusted FLOPs but are fp32 GEMMs all the same;
		** helpers (0 FLOPs) are not */
		bool work = (r[k].known && r[k].flops > 0) || r[k].trial || r[k].overpeak;
		if (!fam || r[k].dtype != GP_DT_FP32 || r[k].tc != GP_TC_NO || !work ||
		    (strcmp(fam, "gemm") && strcmp(fam, "conv") && strcmp(fam, "attention") && strcmp(fam, "rnn")))
			continue;
		total += dur(&t->kernels.v[k]);
		n++;
		claim(in, k, in->wall[k] / 2);
		agg_add(&a, group_key(t, r, k), dur(&t->kernels.v[k]), k);
	}
	found = n && total >= lim.min_share * in->f->gpu_ns;
	if (found) {
		const char *gpu = in->f->gpu;
		involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FP32_TITLE, n);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		if (gpu && has_tf32(gpu))
			snprintf(x->change, sizeof(x->change), "%s", FP32_CHANGE_TF32);
		else
			snprintf(x->change, sizeof(x->change), FP32_CHANGE_AMP, gpu ? "" : FP32_UNKNOWN_GPU);
	}
	agg_free(&a);
	return found;
}

/* below-roofline: kernels with a large share of GPU time far below their
** roofline. */
static bool rule_roofline(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct agg a, all;
	double stake = 0, total = 0;
	size_t n = 0;
	bool found;

	agg_init(&a, t);
	agg_init(&all, t);
	for (size_t k = 0; k < t->kernels.n; k++)
		agg_add(&all, gp_kernel_def(t, &t->kernels.v[k])->name, dur(&t->kernels.v[k]), k);
	for (size_t k = 0; k < t->kernels.n; k++) {
		double d = dur(&t->kernels.v[k]);
		struct gp_roofline rl;
		if (!r[k].known || d < lim.tiny_ns || gp_op_is_comm(&r[k]))
			continue;     /* tiny kernels: the launch-bound rule */
		gp_str name = gp_kernel_def(t, &t->kernels.v[k])->name;
		if (name >= all.n || all.ns[name] < lim.roofline_name_share * in->f->gpu_ns)
			continue;
		gp_op_roofline(t, in->ops, k, &rl);
		if (rl.eff < 0 || rl.eff >= lim.low_eff)
			continue;
		double save = d - rl.ideal_ns / lim.achievable;
		if (save <= 0)
			continue;
		stake += save;
		total += d;
		n++;
		claim(in, k, in->wall[k] * save / d);
		agg_add(&a, name, d, k);
	}
	found = n && stake >= lim.min_share * in->f->gpu_ns;
	if (found) {
		involved(x, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		struct gp_roofline rl;
		gp_op_roofline(t, in->ops, (size_t)s, &rl);
		snprintf(x->title, sizeof(x->title), ROOF_TITLE, n, lim.low_eff * 100);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, ROOF_EVIDENCE,
			 gp_s(t, group_key(t, r, (size_t)s)),
			 gp_s(t, gp_kernel_def(t, &t->kernels.v[s])->name), rl.gflops, rl.gbps,
			 rl.eff * 100, rl.bound == 1 ? "compute" : "memory");
		const char *fam = gp_opres_family(&r[s]);
		snprintf(x->change, sizeof(x->change), "%s",
			 fam && !strcmp(fam, "attention") ? ROOF_CHANGE_FUSED_ATTENTION
			 : rl.bound == 1 ? ROOF_CHANGE_COMPUTE : ROOF_CHANGE_MEMORY);
	}
	agg_free(&a);
	agg_free(&all);
	return found;
}

/* idle-gaps: the GPU idle between activities, and what the CPU was doing. */
static bool rule_idle_gaps(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double idle = 0, biggest = 0, unexplained = 0;
	gp_ns big_at = 0;
	struct agg cause;
	char d1[32], d2[32];
	bool found;
	size_t n = 0;

	bool *long_gap = gp_xcalloc(in->gaps.n ? in->gaps.n : 1, sizeof(*long_gap));

	agg_init(&cause, t);
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct idle_gap *g = &in->gaps.v[i];
		double other = gap_cause_ns(in, i, GP_IDLE_OTHER);
		if (g->ns < lim.idle_gap_ns)
			continue;
		idle += g->ns;
		n++;
		long_gap[i] = true;
		/* the time a cause explains is its finding's (host-launch,
		** sync-calls, pageable-memcpy): this one keeps the rest */
		unexplained += other >= 0 ? other : g->ns;
		claim(in, in->gap0 + i, other >= 0 ? other : g->ns);
		if (g->ns > biggest) {
			biggest = g->ns;
			big_at = g->start;
		}
		agg_add(&cause, g->api >= 0 ? gp_api_def(t, &t->apis.v[g->api])->name : 0, g->ns, 0);
	}
	/* fires on the idle time no cause explains */
	found = n && unexplained >= lim.min_share * in->f->span_ns;
	if (found) {
		double cap = in->f->capacity_ns;
		involved(x, idle, n);
		snprintf(x->title, sizeof(x->title), IDLE_TITLE, fmt_ms(idle, d1, sizeof(d1)), n,
			 lim.idle_gap_ns / 1e3, cap > 0 ? 100 * idle / cap : 0.0);
		gp_str top[3];
		int ntop = agg_top(&cause, top, 3);
		size_t len = (size_t)snprintf(x->evidence, sizeof(x->evidence), IDLE_EVIDENCE,
					      fmt_ms(biggest, d2, sizeof(d2)), (double)(big_at - in->first) / 1e9);
		for (int i = 0; i < ntop && len < sizeof(x->evidence); i++)
			len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, IDLE_EVIDENCE_CAUSE,
						i ? ";" : "", top[i] ? gp_s(t, top[i]) : IDLE_NO_CALL,
						fmt_ms(cause.ns[top[i]], d1, sizeof(d1)), cause.cnt[top[i]]);
		const struct gp_advise_time *bt = in->bt;
		if (bt && bt->idle_ns > 0 && len < sizeof(x->evidence))
			snprintf(x->evidence + len, sizeof(x->evidence) - len, IDLE_EVIDENCE_BREAKDOWN,
				 fmt_ms(bt->idle_ns, d1, sizeof(d1)), 100 * bt->idle_cause_ns[3] / bt->idle_ns,
				 100 * bt->idle_cause_ns[1] / bt->idle_ns, 100 * bt->idle_cause_ns[2] / bt->idle_ns,
				 100 * bt->idle_cause_ns[0] / bt->idle_ns, 100 * bt->idle_cause_ns[4] / bt->idle_ns);
		largest_gaps(in, -1, long_gap, x->evidence, sizeof(x->evidence));
		const char *top0 = ntop && top[0] ? gp_s(t, top[0]) : "";
		bool alloc = strstr(top0, "Malloc") || strstr(top0, "Free");
		snprintf(x->change, sizeof(x->change), "%s%s", alloc ? IDLE_CHANGE_ALLOC : "", IDLE_CHANGE);
	}
	agg_free(&cause);
	free(long_gap);
	return found;
}

/* exposed-comm: communication no compute hides (the time breakdown's
** comm_exposed).  Each communication kernel claims its wall time times the
** exposed share, so idle and compute findings never claim the same time. */
static bool rule_exposed_comm(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double share, total = 0;
	size_t n = 0;
	struct agg a;
	char d1[32], d2[32], d3[32];

	if (!in->bt || in->bt->comm_ns <= 0 || in->bt->comm_exposed_ns < lim.min_share * in->f->span_ns)
		return false;
	share = in->bt->comm_exposed_ns / in->bt->comm_ns;
	agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++)
		if (gp_op_is_comm(&in->r[k])) {
			double d = dur(&t->kernels.v[k]);
			claim(in, k, in->wall[k] * share);
			agg_add(&a, gp_kernel_def(t, &t->kernels.v[k])->name, d, k);
			total += d;
			n++;
		}
	involved(x, total, n);
	snprintf(x->title, sizeof(x->title), COMM_TITLE, fmt_ms(in->bt->comm_exposed_ns, d1, sizeof(d1)),
		 100 * share);
	evidence(t, NULL, &a, x->evidence, sizeof(x->evidence), "kernels");
	size_t len = strlen(x->evidence);
	snprintf(x->evidence + len, sizeof(x->evidence) - len, COMM_EVIDENCE,
		 fmt_ms(in->bt->comm_ns, d2, sizeof(d2)),
		 fmt_ms(in->bt->comm_ns - in->bt->comm_exposed_ns, d3, sizeof(d3)));
	snprintf(x->change, sizeof(x->change), "%s", COMM_CHANGE);
	agg_free(&a);
	return true;
}

/* sync-calls: idle gaps during which the host sat in a synchronizing call. */
static bool rule_sync_calls(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double sync_idle = 0, cpu = 0;
	size_t nsync_gaps = 0, ncalls = 0;
	struct agg calls;
	char d1[32], d2[32];

	bool by_cause = in->bt && in->bt->gaps;

	/* with the breakdown: the time the CPU sat in a synchronising call
	** during each gap; without: the gaps with one at their middle */
	for (size_t i = 0; i < in->gaps.n; i++) {
		double ns = by_cause ? gap_cause_ns(in, i, GP_IDLE_SYNC) : in->gaps.v[i].sync ? in->gaps.v[i].ns : 0;
		if (ns <= 0)
			continue;
		sync_idle += ns;
		nsync_gaps++;
		claim(in, in->gap0 + i, ns);
	}
	if (!nsync_gaps || sync_idle < lim.min_share * in->f->span_ns)
		return false;
	involved(x, sync_idle, nsync_gaps);
	agg_init(&calls, t);
	for (size_t i = 0; i < t->apis.n; i++)
		if (gp_sync_call_waits(gp_api_sync_call(gp_s(t, gp_api_def(t, &t->apis.v[i])->name)))) {
			double d = (double)(t->apis.v[i].end - t->apis.v[i].start);
			ncalls++;
			cpu += d;
			agg_add(&calls, gp_api_def(t, &t->apis.v[i])->name, d, 0);
		}
	snprintf(x->title, sizeof(x->title), SYNC_TITLE, fmt_ms(sync_idle, d1, sizeof(d1)));
	evidence(t, NULL, &calls, x->evidence, sizeof(x->evidence), "calls");
	size_t len = strlen(x->evidence);
	if (by_cause) {
		snprintf(x->evidence + len, sizeof(x->evidence) - len, SYNC_EVIDENCE_CAUSE,
			 fmt_ms(sync_idle, d2, sizeof(d2)), nsync_gaps);
		largest_gaps(in, GP_IDLE_SYNC, NULL, x->evidence, sizeof(x->evidence));
	} else {
		snprintf(x->evidence + len, sizeof(x->evidence) - len, SYNC_EVIDENCE, ncalls,
			 fmt_ms(cpu, d2, sizeof(d2)), nsync_gaps);
	}
	snprintf(x->change, sizeof(x->change), "%s", SYNC_CHANGE);
	agg_free(&calls);
	return true;
}

/* tiny-kernels: launch-bound tiny kernels: the idle gaps shorter than
** lim.launch_gap_ns that end in a tiny kernel on its device. */
static bool rule_tiny_kernels(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	struct agg tiny;
	double tiny_ns = 0, gap_ns = 0;
	size_t ntiny = 0;
	char d1[32], d2[32];
	bool found;

	agg_init(&tiny, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		double d = dur(kr);
		if (d >= lim.tiny_ns)
			continue;
		ntiny++;
		tiny_ns += d;
		agg_add(&tiny, gp_kernel_def(t, kr)->name, d, k);
	}
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct idle_gap *g = &in->gaps.v[i];
		if (g->ns >= lim.launch_gap_ns || g->next_kernel < 0 ||
		    dur(&t->kernels.v[g->next_kernel]) >= lim.tiny_ns)
			continue;
		gap_ns += g->ns;
		claim(in, in->gap0 + i, g->ns);
	}
	found = ntiny >= lim.tiny_min_count && ntiny * lim.tiny_min_part >= t->kernels.n &&
		gap_ns >= lim.min_share * in->f->span_ns;
	if (found) {
		involved(x, tiny_ns, ntiny);
		snprintf(x->title, sizeof(x->title), TINY_TITLE, ntiny, t->kernels.n, lim.tiny_ns / 1e3);
		evidence(t, NULL, &tiny, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, TINY_EVIDENCE,
			 fmt_ms(tiny_ns, d1, sizeof(d1)), fmt_ms(gap_ns, d2, sizeof(d2)));
		snprintf(x->change, sizeof(x->change), "%s", TINY_CHANGE);
	}
	agg_free(&tiny);
	return found;
}

static bool copy_is_pageable(const struct gp_memcpy *m)
{
	return m->src_kind == GP_MEM_PAGEABLE || m->dst_kind == GP_MEM_PAGEABLE;
}

static double copy_ns(const struct gp_memcpy *m)
{
	return m->end > m->start ? (double)(m->end - m->start) : 0;
}

/* pageable-memcpy: copies from or to pageable host memory. */
static bool rule_pageable_memcpy(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double ns = 0, wait = 0;
	size_t n = 0, nwait = 0;
	uint64_t bytes = 0;
	char d1[32];

	for (size_t i = 0; i < t->memcpys.n; i++)
		if (copy_is_pageable(&t->memcpys.v[i])) {
			ns += copy_ns(&t->memcpys.v[i]);
			n++;
			claim(in, in->copy0 + i, in->wall[in->copy0 + i]);
			bytes += t->memcpys.v[i].bytes;
		}
	if (!n || ns < lim.min_share * in->f->gpu_ns / lim.copy_share_div)
		return false;
	/* and the idle time the breakdown puts on waiting for them */
	for (size_t i = 0; i < in->gaps.n; i++) {
		double v = gap_cause_ns(in, i, GP_IDLE_PAGEABLE);
		if (v <= 0)
			continue;
		wait += v;
		nwait++;
		claim(in, in->gap0 + i, v);
	}
	involved(x, ns + wait, n);
	snprintf(x->title, sizeof(x->title), PAGEABLE_TITLE, n);
	int len = snprintf(x->evidence, sizeof(x->evidence), PAGEABLE_EVIDENCE, n, (double)bytes / 1e6,
			   fmt_ms(ns, d1, sizeof(d1)));
	if (nwait && len > 0 && (size_t)len < sizeof(x->evidence)) {
		snprintf(x->evidence + len, sizeof(x->evidence) - (size_t)len, PAGEABLE_EVIDENCE_WAIT,
			 fmt_ms(wait, d1, sizeof(d1)), nwait);
		largest_gaps(in, GP_IDLE_PAGEABLE, NULL, x->evidence, sizeof(x->evidence));
	}
	snprintf(x->change, sizeof(x->change), "%s", PAGEABLE_CHANGE);
	return true;
}

/* sync-memcpy: copies between pinned or device memory issued without
** Async.  Reads only the copy's async flag (every reader sets it from the
** launching call) and its memory kinds. */
static bool rule_sync_memcpy(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double ns = 0;
	size_t n = 0;
	char d1[32];

	for (size_t i = 0; i < t->memcpys.n; i++)
		if (!copy_is_pageable(&t->memcpys.v[i]) && !t->memcpys.v[i].async) {
			ns += copy_ns(&t->memcpys.v[i]);
			n++;
			claim(in, in->copy0 + i, in->wall[in->copy0 + i]);
		}
	if (!n || ns < lim.min_share * in->f->gpu_ns / lim.copy_share_div)
		return false;
	involved(x, ns, n);
	snprintf(x->title, sizeof(x->title), SYNCCOPY_TITLE, n);
	snprintf(x->evidence, sizeof(x->evidence), SYNCCOPY_EVIDENCE, n, fmt_ms(ns, d1, sizeof(d1)));
	snprintf(x->change, sizeof(x->change), "%s", SYNCCOPY_CHANGE);
	return true;
}

/* small-grid: long kernels whose grid has fewer blocks than the GPU has SMs. */
static bool rule_small_grid(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	int sms = in->f->sm_count;
	struct agg a;
	double stake = 0, total = 0;
	size_t n = 0;
	bool found;

	if (sms <= 0)
		return false;
	agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const uint32_t *grid = gp_kernel_def(t, kr)->grid;
		double blocks = (double)grid[0] * grid[1] * grid[2], d = dur(kr);
		if (!blocks || blocks >= sms || d < lim.small_grid_min_ns)
			continue;
		if (gp_op_is_comm(&r[k]))
			continue;      /* NCCL kernels use few blocks by design */
		stake += d * (1 - blocks / sms) / 2;
		total += d;
		n++;
		claim(in, k, in->wall[k] * (1 - blocks / sms) / 2);
		agg_add(&a, gp_kernel_def(t, kr)->name, d, k);
	}
	found = n && stake >= lim.min_share * in->f->gpu_ns;
	if (found) {
		involved(x, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		const uint32_t *s = gp_kernel_def(t, &t->kernels.v[a.sample[top[0]]])->grid;
		snprintf(x->title, sizeof(x->title), GRID_TITLE, n, sms);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, GRID_EVIDENCE, s[0], s[1], s[2],
			 s[0] * s[1] * s[2]);
		snprintf(x->change, sizeof(x->change), "%s", GRID_CHANGE);
	}
	agg_free(&a);
	return found;
}

/* Whether s contains one of the substrings in list (NULL-terminated). */
static bool has_any(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (strstr(s, list[i]))
			return true;
	return false;
}

/* Whether s is one of the strings in list (NULL-terminated). */
static bool is_any(const char *s, const char *const *list)
{
	for (int i = 0; list[i]; i++)
		if (strcmp(s, list[i]) == 0)
			return true;
	return false;
}

/* The op that launched kernel k without "aten::", or "" if none. */
static const char *op_name(const gp_trace *t, size_t k)
{
	const char *op = t->attrs[k].op ? gp_s(t, t->attrs[k].op) : "";

	return strncmp(op, "aten::", 6) == 0 ? op + 6 : op;
}

/* The key of kernel k's stream: device and stream. */
static uint64_t stream_key(const gp_trace *t, const struct gp_kernel *k)
{
	return (uint64_t)(uint32_t)gp_kernel_device(t, k) << 32 | k->stream;
}

/* Whether a GPU has tensor cores: the peak table gives it an fp16
** tensor-core rate. */
static bool has_tensor_cores(const struct gp_gpu *g)
{
	return g && g->fp16 > 0;
}

/* fp32-unshaped: fp32 GEMM/conv kernels on CUDA cores of a GPU with tensor
** cores, whose op has no shapes in the trace (fp32-gemm takes those with
** shapes and FLOPs). */
static bool rule_fp32_unshaped(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	const struct gp_opres *r = in->r;
	struct agg a;
	double total = 0;
	size_t n = 0;
	bool found;

	if (!has_tensor_cores(in->gpu))
		return false;
	agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		const char *name = gp_s(t, gp_kernel_long_name_of(t, kr));
		const char *fam = gp_opres_family(&r[k]);
		if (r[k].tc != GP_TC_NO || r[k].params || (r[k].known && r[k].flops > 0) || gp_op_is_comm(&r[k]))
			continue;
		enum gp_dtype dt = r[k].dtype != GP_DT_UNKNOWN ? (enum gp_dtype)r[k].dtype : gp_kernel_dtype(name);
		bool gemm = fam && (!strcmp(fam, "gemm") || !strcmp(fam, "conv") || !strcmp(fam, "rnn"));
		if (dt != GP_DT_FP32 || !(gemm || gp_kernel_is_gemm_like(name)))
			continue;
		total += dur(kr);
		n++;
		claim(in, k, in->wall[k] / 2);
		agg_add(&a, group_key(t, r, k), dur(kr), k);
	}
	found = n && total >= lim.min_share * in->f->gpu_ns;
	if (found) {
		char amp[400];      /* the precision advice, then why to record shapes */
		involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FP32NS_TITLE, n);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, "%s", FP32NS_EVIDENCE);
		if (has_tf32(in->gpu->name))
			snprintf(amp, sizeof(amp), "%s", FP32_CHANGE_TF32);
		else
			snprintf(amp, sizeof(amp), FP32_CHANGE_AMP, "");
		snprintf(x->change, sizeof(x->change), FP32NS_CHANGE, amp);
	}
	agg_free(&a);
	return found;
}

/* Whether kernel k is small elementwise, norm, RoPE or copy work: by its
** op's family, or by its name when no op is known; not already fused. */
static bool fusible(const struct advise_in *in, size_t k)
{
	const gp_trace *t = in->t;
	const char *fam = gp_opres_family(&in->r[k]);
	const char *name = gp_s(t, gp_kernel_def(t, &t->kernels.v[k])->name);

	if (dur(&t->kernels.v[k]) >= lim.fusion_small_ns || has_any(name, fusion_done_names) ||
	    gp_op_is_comm(&in->r[k]))
		return false;
	if (fam && strcmp(fam, "unknown"))
		return is_any(fam, fusion_families);
	return has_any(name, fusion_names);
}

/* fusion: rows of lim.fusion_min_run or more small elementwise, norm,
** RoPE or copy kernels back to back on one stream; all but the longest of
** each row is at stake (a fused kernel costs about as much as it). */
static bool rule_fusion(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	size_t nk = t->kernels.n, n = 0, rows = 0, longest_row = 0;
	int32_t *row = gp_xmalloc(nk * sizeof(*row));         /* first kernel of k's row, -1 = none */
	uint32_t *len = gp_xcalloc(nk, sizeof(*len));         /* by first kernel: row length */
	int32_t *longest = gp_xcalloc(nk, sizeof(*longest));  /* by first kernel: its longest */
	gp_u64map last = {0};                                 /* stream -> its last kernel */
	double total = 0, stake = 0;
	struct agg a;
	bool found;

	for (size_t k = 0; k < nk; k++) {
		int32_t prev = gp_u64map_get(&last, stream_key(t, &t->kernels.v[k]));
		gp_u64map_put(&last, stream_key(t, &t->kernels.v[k]), (int32_t)k);
		row[k] = -1;
		if (!fusible(in, k))
			continue;
		int32_t first = prev >= 0 && row[prev] >= 0 ? row[prev] : (int32_t)k;
		row[k] = first;
		if (!len[first]++ || dur(&t->kernels.v[k]) > dur(&t->kernels.v[longest[first]]))
			longest[first] = (int32_t)k;
	}
	agg_init(&a, t);
	for (size_t k = 0; k < nk; k++) {
		if (row[k] < 0 || len[row[k]] < lim.fusion_min_run)
			continue;
		double d = dur(&t->kernels.v[k]);
		if (row[k] == (int32_t)k) {
			rows++;
			if (len[k] > longest_row)
				longest_row = len[k];
		}
		n++;
		total += d;
		agg_add(&a, group_key(t, in->r, k), d, k);
		if (longest[row[k]] != (int32_t)k) {
			stake += d;
			claim(in, k, in->wall[k]);
		}
	}
	found = n && stake >= lim.fusion_min_share * in->f->gpu_ns;
	if (found) {
		involved(x, total, n);
		snprintf(x->title, sizeof(x->title), FUSION_TITLE, n, 100 * total / in->f->gpu_ns);
		evidence(t, NULL, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t l = strlen(x->evidence);
		snprintf(x->evidence + l, sizeof(x->evidence) - l, FUSION_EVIDENCE, rows, lim.fusion_min_run,
			 lim.fusion_small_ns / 1e3, longest_row);
		snprintf(x->change, sizeof(x->change), "%s", FUSION_CHANGE);
	}
	agg_free(&a);
	gp_u64map_free(&last);
	free(row);
	free(len);
	free(longest);
	return found;
}

/* Where one stream is in the unfused attention pattern. */
struct attn_state {
	int step;               /* 0: none, 1: after the scores GEMM, 2: after its softmax */
	size_t between;         /* other kernels since the step began */
	int32_t start;          /* the scores GEMM's first kernel */
	int32_t iter;           /* its iteration */
	gp_str layer;           /* its layer, 0 = none */
};

/* unfused-attention: scores GEMM (bmm, baddbmm, matmul), softmax, optional
** scaling, mask and dropout, output GEMM, in a row on one stream in one
** iteration and layer (where the trace has them); their non-GEMM kernels
** are at stake (SDPA does not write the score matrix). */
static bool rule_unfused_attention(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	GP_VEC(struct attn_state) st = {0};
	gp_u64map streams = {0};
	double side = 0, gemms = 0;
	size_t paths = 0;
	const char *qk = NULL, *pv = NULL;      /* the first path's GEMM ops */
	char d1[32], d2[32];

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		int32_t i = gp_u64map_add(&streams, stream_key(t, kr), (int32_t)st.n);
		if (i == (int32_t)st.n)
			memset(gp_vec_push(st), 0, sizeof(*st.v));
		struct attn_state *s = &st.v[i];
		const char *op = op_name(t, k);
		bool gemm = is_any(op, attn_gemm_ops);
		gp_str layer = t->attrs[k].layer;
		if (s->step && (s->iter != t->attrs[k].iter || (layer && s->layer && layer != s->layer)))
			s->step = 0;
		if (gemm && s->step == 2) {
			for (size_t j = (size_t)s->start; j <= k; j++) {
				if (stream_key(t, &t->kernels.v[j]) != stream_key(t, kr))
					continue;
				double d = dur(&t->kernels.v[j]);
				if (is_any(op_name(t, j), attn_gemm_ops)) {
					gemms += d;
				} else {
					side += d;
					claim(in, j, in->wall[j]);
				}
			}
			if (!paths++) {
				qk = op_name(t, (size_t)s->start);
				pv = op;
			}
			s->step = 0;
		} else if (gemm) {
			*s = (struct attn_state){1, 0, (int32_t)k, t->attrs[k].iter, layer};
		} else if (s->step == 1 && is_any(op, attn_softmax_ops)) {
			s->step = 2;
		} else if (s->step && ++s->between > lim.attn_max_between) {
			s->step = 0;
		}
	}
	gp_vec_free(st);
	gp_u64map_free(&streams);
	if (!paths || side + gemms < lim.min_share * in->f->gpu_ns)
		return false;
	involved(x, side + gemms, paths);
	snprintf(x->title, sizeof(x->title), ATTN_TITLE, paths, qk, pv);
	snprintf(x->evidence, sizeof(x->evidence), ATTN_EVIDENCE, fmt_ms(side, d1, sizeof(d1)),
		 fmt_ms(gemms, d2, sizeof(d2)));
	snprintf(x->change, sizeof(x->change), "%s", ATTN_CHANGE);
	return true;
}

#define CHURN_TITLE "the CUDA allocator grew or was called %" PRIu64 " times inside the iteration loop"
#define CHURN_EVIDENCE                                                                      \
	"after the first of %u iterations: %" PRIu64 " cudaMalloc and %" PRIu64 " cudaFree "   \
	"calls (%s of CPU time), the caching allocator reserved %" PRIu64 " more times "       \
	"(+%.1f MB)"
#define CHURN_CHANGE                                                                        \
	"Keep the allocator's pool warm: cudaMalloc/cudaFree synchronize the device.  Give "   \
	"tensors fixed shapes (pad variable lengths to buckets), allocate buffers once "       \
	"outside the loop, avoid torch.cuda.empty_cache() in it, and set "                     \
	"PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True against fragmentation."

/* alloc-churn: the allocator reached the driver (cudaMalloc/cudaFree, or
** the caching allocator's reserved total grew) after the first iteration,
** where a steady loop reuses its pool.  Claims the idle gaps the host spent
** in such a call. */
static bool rule_alloc_churn(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	struct gp_mem_churn c;
	double idle = 0;
	size_t ngaps = 0;
	char d1[32];

	gp_memory_churn(t, &c);
	uint64_t events = c.malloc_calls + c.free_calls + c.reserved_growths;
	if (!c.has_loop || events < lim.churn_min_events)
		return false;
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct idle_gap *g = &in->gaps.v[i];
		if (g->api >= 0 && g->start >= c.loop_start &&
		    gp_memory_alloc_call(gp_s(t, gp_api_def(t, &t->apis.v[g->api])->name))) {
			idle += g->ns;
			ngaps++;
			claim(in, in->gap0 + i, g->ns);
		}
	}
	involved(x, idle > 0 ? idle : c.call_ns, (size_t)events);
	snprintf(x->title, sizeof(x->title), CHURN_TITLE, events);
	snprintf(x->evidence, sizeof(x->evidence), CHURN_EVIDENCE, c.iterations, c.malloc_calls,
		 c.free_calls, fmt_ms(c.call_ns, d1, sizeof(d1)), c.reserved_growths,
		 (double)c.reserved_growth_bytes / 1e6);
	snprintf(x->change, sizeof(x->change), "%s", CHURN_CHANGE);
	return true;
}

/* The rules, in the order their findings are collected (then ranked by
** the time at stake). */
static const struct {
	const char *kind;       /* stable id, in JSON/CSV output and docs */
	advise_rule fn;
} rules[] = {
	{"tc-not-used", rule_tc_not_used},
	{"fp32-gemm", rule_fp32_gemm},
	{"below-roofline", rule_roofline},
	{"idle-gaps", rule_idle_gaps},
	{"sync-calls", rule_sync_calls},
	{"host-launch", rule_host_launch},
	{"short-gaps", rule_short_gaps},
	{"tiny-kernels", rule_tiny_kernels},
	{"pageable-memcpy", rule_pageable_memcpy},
	{"sync-memcpy", rule_sync_memcpy},
	{"small-grid", rule_small_grid},
	{"fp32-unshaped", rule_fp32_unshaped},
	{"fusion", rule_fusion},
	{"unfused-attention", rule_unfused_attention},
	{"alloc-churn", rule_alloc_churn},
	{"exposed-comm", rule_exposed_comm},
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

/* What finding i of the settling claims: its claims and what it got. */
struct pending {
	claim_vec claims;
	double overlap[NRULES];  /* by finding index: time it shared with that one */
	bool settled;
};

/* The time at stake of claims c on what is left of each unit. */
static double unclaimed(const claim_vec *c, const double *left)
{
	double ns = 0;

	for (size_t i = 0; i < c->n; i++)
		ns += c->v[i].ns < left[c->v[i].unit] ? c->v[i].ns : left[c->v[i].unit];
	return ns;
}

/* Writes "kind, kind" of the findings x overlapped, largest overlap first. */
static void name_overlaps(const struct gp_findings *f, const double *overlap, char *out, size_t size)
{
	bool used[NRULES] = {0};
	size_t len = 0;

	out[0] = 0;
	for (;;) {
		size_t best = NRULES;
		for (size_t j = 0; j < f->v.n; j++)
			if (!used[j] && overlap[j] > 0 && (best == NRULES || overlap[j] > overlap[best]))
				best = j;
		if (best == NRULES || len >= size)
			return;
		used[best] = true;
		int w = snprintf(out + len, size - len, "%s%s", len ? ", " : "", f->v.v[best].kind);
		if (w < 0)
			return;
		len += (size_t)w;
	}
}

/* Settles the claims p of the findings f (one per finding): the finding
** with the most unclaimed time at stake first, each taking what is left of
** its units; sets each finding's ns, overlap_ns and overlaps, and orders
** f by ns (largest first, the order they settled in). */
static void settle(struct gp_findings *f, struct pending *p, size_t nunits, const double *wall)
{
	double *left = gp_xmalloc((nunits ? nunits : 1) * sizeof(*left));
	int8_t *owner = gp_xmalloc(nunits ? nunits : 1);   /* last finding that took from a unit */
	size_t *order = gp_xmalloc((f->v.n ? f->v.n : 1) * sizeof(*order));
	struct gp_finding *sorted = gp_xmalloc((f->v.n ? f->v.n : 1) * sizeof(*sorted));

	memcpy(left, wall, nunits * sizeof(*left));
	memset(owner, -1, nunits);
	for (size_t round = 0; round < f->v.n; round++) {
		size_t best = f->v.n;
		double best_ns = -1;
		for (size_t i = 0; i < f->v.n; i++) {
			if (p[i].settled)
				continue;
			double ns = unclaimed(&p[i].claims, left);
			if (ns > best_ns) {
				best = i;
				best_ns = ns;
			}
		}
		struct pending *b = &p[best];
		struct gp_finding *x = &f->v.v[best];
		x->ns = 0;
		x->overlap_ns = 0;
		for (size_t c = 0; c < b->claims.n; c++) {
			uint32_t u = b->claims.v[c].unit;
			double want = b->claims.v[c].ns, take = want < left[u] ? want : left[u];
			if (want > take && owner[u] >= 0)
				b->overlap[owner[u]] += want - take;
			x->ns += take;
			x->overlap_ns += want - take;
			left[u] -= take;
			owner[u] = (int8_t)best;
		}
		b->settled = true;
		order[round] = best;
	}
	for (size_t i = 0; i < f->v.n; i++)
		name_overlaps(f, p[i].overlap, f->v.v[i].overlaps, sizeof(f->v.v[i].overlaps));
	for (size_t round = 0; round < f->v.n; round++)
		sorted[round] = f->v.v[order[round]];
	if (f->v.n)
		memcpy(f->v.v, sorted, f->v.n * sizeof(*sorted));
	free(sorted);
	free(order);
	free(owner);
	free(left);
}

void gp_advise(const gp_trace *t, const struct gp_ops *ops, struct gp_findings *f)
{
	gp_advise_time(t, ops, NULL, f);
}

void gp_advise_time(const gp_trace *t, const struct gp_ops *ops, const struct gp_advise_time *bt,
		    struct gp_findings *f)
{
	struct advise_in in = {.t = t, .r = ops->r, .ops = ops, .f = f, .bt = bt};
	struct pending p[NRULES];
	gp_ns last = 0;
	const struct gp_gpu *g = ops->po.gpu;

	memset(f, 0, sizeof(*f));
	memset(p, 0, sizeof(p));
	for (size_t k = 0; k < t->kernels.n; k++)
		f->gpu_ns += dur(&t->kernels.v[k]);
	if (gp_trace_span(t, &in.first, &last))
		f->span_ns = (double)(last - in.first);
	for (size_t i = 0; i < t->devices.n && !g; i++)
		g = gp_gpu_for_device(t, &t->devices.v[i]);
	for (size_t i = 0; i < t->devices.n && !f->sm_count; i++)
		f->sm_count = t->devices.v[i].sm_count;
	if (!f->sm_count && g)
		f->sm_count = g->sm_count;
	f->gpu = g ? g->name : NULL;
	in.gpu = g;

	size_t na;
	struct gp_activity *acts = gp_trace_activities(t, &na);
	in.copy0 = t->kernels.n;
	in.set0 = in.copy0 + t->memcpys.n;
	in.gap0 = in.set0 + t->memsets.n;
	find_idle_gaps(&in, acts, na);
	match_gap_causes(&in);
	in.nunits = in.gap0 + in.gaps.n;
	in.wall = gp_xcalloc(in.nunits ? in.nunits : 1, sizeof(*in.wall));
	f->devices = activity_walls(acts, na, in.wall);
	for (size_t i = 0; i < in.gaps.n; i++)
		in.wall[in.gap0 + i] = in.gaps.v[i].ns;
	f->capacity_ns = f->span_ns * (f->devices > 1 ? f->devices : 1);
	free(acts);

	if (t->kernels.n && in.r && t->attrs) {
		for (size_t i = 0; i < NRULES; i++) {
			struct gp_finding x;
			memset(&x, 0, sizeof(x));
			in.claims = &p[f->v.n].claims;
			if (rules[i].fn(&in, &x)) {
				x.kind = rules[i].kind;
				*gp_vec_push(f->v) = x;
			} else {
				p[f->v.n].claims.n = 0;
			}
		}
		settle(f, p, in.nunits, in.wall);
	}
	for (size_t i = 0; i < NRULES; i++)
		gp_vec_free(p[i].claims);
	free(in.wall);
	free(in.cause);
	gp_vec_free(in.gaps);
}

void gp_findings_free(struct gp_findings *f)
{
	gp_vec_free(f->v);
}

/* ---- collectives across ranks ---- */

/* The limits of the two collective rules (docs/comm.md). */
static const struct {
	double straggler_min_last;  /* last in more than this share of the calls */
	double straggler_min_share; /* and its caused wait above this share of all waits */
	double busbw_low;           /* busbw p50 under this fraction of the link peak */
	double busbw_achievable;    /* the fraction of the peak nccl-tests reaches */
	uint64_t busbw_min_calls;   /* a kind needs this many calls */
} coll_limits = {0.5, 0.25, 0.5, 0.8, 4};

void gp_advise_collectives(const struct gp_coll_match *m, const char *link, struct gp_findings *out)
{
	char a[64], b[64];
	size_t worst = 0;
	double peak = 0;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < m->nranks; r++) {
		if (m->ranks[r].caused > m->ranks[worst].caused)
			worst = r;
		if (m->ranks[r].link_bw > 0 && (peak == 0 || m->ranks[r].link_bw < peak))
			peak = m->ranks[r].link_bw;
	}
	if (m->nranks >= 2 && m->ncomplete && m->wait_total > 0) {
		const struct gp_coll_rank_stats *w = &m->ranks[worst];
		if ((double)w->times_last > coll_limits.straggler_min_last * (double)m->ncomplete &&
		    (double)w->caused > coll_limits.straggler_min_share * (double)m->wait_total) {
			struct gp_finding *f = gp_vec_push(out->v);
			memset(f, 0, sizeof(*f));
			f->kind = "coll-straggler";
			f->ns = f->total_ns = (double)w->caused;
			f->count = w->times_last;
			snprintf(f->title, sizeof(f->title),
				 "rank %d is the straggler in %" PRIu64 " of %zu collectives, costing the others %s of waiting",
				 w->rank, w->times_last, m->ncomplete, fmt_ms((double)w->caused, a, sizeof(a)));
			snprintf(f->evidence, sizeof(f->evidence),
				 "it arrives last by %s on average; all ranks waited %s in all in the %zu collectives "
				 "matched on every rank (clocks aligned on collective ends)",
				 fmt_ms((double)w->caused / (double)w->times_last / (double)(m->nranks - 1), b,
						 sizeof(b)),
				 fmt_ms((double)m->wait_total, a, sizeof(a)), m->ncomplete);
			snprintf(f->change, sizeof(f->change),
				 "find what rank %d does before its collectives that the others do not: compare "
				 "`gpuprof breakdown` and `gpuprof ops` of its file with another rank's (slower "
				 "compute, data loading, a throttled GPU, more work in its shard)", w->rank);
		}
	}
	for (int k = 0; k < GP_COLL__COUNT && peak > 0; k++) {
		const struct gp_coll_kind_stats *ks = &m->kinds[k];
		double p50;
		if (ks->busbw_mbs.n < coll_limits.busbw_min_calls)
			continue;
		p50 = (double)gp_hist_quantile(&ks->busbw_mbs, 0.5) * 1e6;
		if (p50 >= coll_limits.busbw_low * peak)
			continue;
		struct gp_finding *f = gp_vec_push(out->v);
		memset(f, 0, sizeof(*f));
		f->kind = "coll-low-busbw";
		f->total_ns = (double)ks->comm;
		f->count = ks->calls;
		/* at the achievable share of the peak the pure communication would
		** take p50 / (achievable x peak) of its time */
		f->ns = (double)ks->comm * (1 - p50 / (coll_limits.busbw_achievable * peak));
		snprintf(f->title, sizeof(f->title), "%s reaches %.1f GB/s bus bandwidth (median), %.0f%% of the %s peak %.0f GB/s",
			 gp_coll_kind_name(k), p50 / 1e9, 100 * p50 / peak, link ? link : "link", peak / 1e9);
		snprintf(f->evidence, sizeof(f->evidence),
			 "%" PRIu64 " calls, %.1f MB on average, %s of pure communication (from the last arrival to the end)",
			 ks->calls, (double)ks->bytes / (double)ks->calls / 1e6, fmt_ms((double)ks->comm, a, sizeof(a)));
		snprintf(f->change, sizeof(f->change),
			 "small messages cannot fill the link: fuse them (DDP bucket_cap_mb, FSDP/ZeRO bucket sizes); "
			 "check the topology (nvidia-smi topo -m) and that NCCL uses NVLink/xGMI (NCCL_DEBUG=INFO), "
			 "and compare with nccl-tests on the same GPUs");
	}
	for (size_t i = 1; i < out->v.n; i++)
		for (size_t j = i; j > 0 && out->v.v[j].ns > out->v.v[j - 1].ns; j--) {
			struct gp_finding tmp = out->v.v[j];
			out->v.v[j] = out->v.v[j - 1];
			out->v.v[j - 1] = tmp;
		}
}
