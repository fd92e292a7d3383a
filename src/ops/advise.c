/*
** gpuprof advise rules.  Each rule scans the trace once (kernels are
** sorted by start), sums the time involved per group (op or kernel name,
** indexed by string id: no hashing), and emits at most one finding with
** the top groups as evidence.  "At stake" is an estimate of the time the
** change would save, so findings of different rules rank together:
**   tensor cores / TF32 / AMP: half the time of the kernels involved;
**   below roofline: measured - ideal / 0.8 (0.8: achievable fraction);
**   launch-bound, idle gaps, synchronization: the GPU idle time involved;
**   memcpy: the copy time; small grids: time x (1 - blocks / SMs) / 2.
**
** The file is data first: the limits every rule compares against, then the
** texts findings print.  A rule is one function that fills a finding and
** says whether it fired; the table at the end lists {kind, function} in
** the order findings are collected.  Adding a rule = one function, one
** table row (and its limits and texts here).
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/advise.h"

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
};

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

#define IDLE_TITLE "the GPU sat idle %s in %zu gaps of %.0f us or more (%.1f%% of the span)"
#define IDLE_EVIDENCE "longest gap %s at %.3f s into the trace; CPU during the gaps:"
#define IDLE_EVIDENCE_CAUSE "%s %s %s (%u gaps)"
#define IDLE_NO_CALL "no CUDA call (Python, data loading)"
#define IDLE_CHANGE_ALLOC                                                                  \
	"Most idle time is spent in cudaMalloc/cudaFree: let PyTorch's caching "           \
	"allocator reuse memory (no torch.cuda.empty_cache() in the loop, fixed shapes, "  \
	"warm-up steps before profiling). "
#define IDLE_CHANGE                                                                        \
	"Keep the GPU fed: overlap data loading (DataLoader num_workers > 0, pin_memory=True, " \
	"prefetch), move CPU-side work out of the training step, and remove host "         \
	"synchronizations; for gaps inside a step, CUDA graphs or torch.compile."

#define SYNC_TITLE "host synchronization left the GPU idle %s"
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
#define PAGEABLE_CHANGE                                                                    \
	"Copy from pinned memory (DataLoader(pin_memory=True), tensor.pin_memory()) with "  \
	"non_blocking=True: pageable copies are staged through a bounce buffer and block the host."

#define SYNCCOPY_TITLE "%zu synchronous memory copies"
#define SYNCCOPY_EVIDENCE "%zu memcpy issued without Async, %s of copy time"
#define SYNCCOPY_CHANGE                                                                    \
	"Use cudaMemcpyAsync / tensor.to(device, non_blocking=True) from pinned memory so copies " \
	"overlap compute; avoid .cpu()/.item() inside the step."

#define GRID_TITLE "%zu kernels launch fewer blocks than the %d SMs"
#define GRID_EVIDENCE "; e.g. grid %u,%u,%u = %u blocks"
#define GRID_CHANGE                                                                        \
	"Give these kernels more parallel work: a larger batch, fusing small ops, split-K " \
	"for skinny GEMMs, or running independent work on other streams at the same time."

/* A GPU idle gap of at least lim.idle_gap_ns on one device. */
struct idle_gap {
	gp_ns start;            /* end of the activity before it */
	double ns;
	int32_t api;            /* the API call the CPU was in at its middle, -1 = none */
	bool sync;              /* that call synchronizes the host with the GPU */
};

/* What every rule reads.  Facts several rules share are computed once by
** gp_advise(). */
struct advise_in {
	const gp_trace *t;
	const struct gp_opres *r;
	const struct gp_peak_opts *po;
	const struct gp_findings *f;   /* gpu_ns, span_ns, gpu, sm_count */
	gp_ns first;                   /* start of the span */
	GP_VEC(struct idle_gap) gaps;  /* per device, in time order */
};

/* A rule: fills x (all but kind) and returns true when it has a finding. */
typedef bool (*advise_rule)(const struct advise_in *in, struct gp_finding *x);

static void at_stake(struct gp_finding *x, double ns, double total_ns, size_t count)
{
	x->ns = ns;
	x->total_ns = total_ns;
	x->count = count;
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
	return t->kernels.v[k].name;
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

/* Busy intervals of one device (kernels, memcpy, memset), merged. */
struct ival {
	gp_ns s, e;
	int32_t dev;
};

static int cmp_ival(const void *pa, const void *pb)
{
	const struct ival *a = pa, *b = pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return a->s < b->s ? -1 : a->s > b->s;
}

/* All GPU activity, merged per device: *n intervals (caller frees). */
static struct ival *busy_intervals(const gp_trace *t, size_t *n)
{
	size_t cap = t->kernels.n + t->memcpys.n + t->memsets.n, m = 0, w = 0;
	struct ival *v = gp_xmalloc((cap ? cap : 1) * sizeof(*v));

	for (size_t i = 0; i < t->kernels.n; i++)
		v[m++] = (struct ival){t->kernels.v[i].start, t->kernels.v[i].end, t->kernels.v[i].device};
	for (size_t i = 0; i < t->memcpys.n; i++)
		v[m++] = (struct ival){t->memcpys.v[i].start, t->memcpys.v[i].end, t->memcpys.v[i].device};
	for (size_t i = 0; i < t->memsets.n; i++)
		v[m++] = (struct ival){t->memsets.v[i].start, t->memsets.v[i].end, t->memsets.v[i].device};
	qsort(v, m, sizeof(*v), cmp_ival);
	for (size_t i = 0; i < m; i++) {
		if (w && v[w - 1].dev == v[i].dev && v[i].s <= v[w - 1].e) {
			if (v[i].e > v[w - 1].e)
				v[w - 1].e = v[i].e;
		} else {
			v[w++] = v[i];
		}
	}
	*n = w;
	return v;
}

/* Whether an API name synchronizes the host with the GPU. */
static bool is_sync_api(const char *name)
{
	static const char *const names[] = {
		"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
		"cudaThreadSynchronize", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
		NULL
	};
	for (int i = 0; names[i]; i++)
		if (strncmp(name, names[i], strlen(names[i])) == 0)
			return true;
	/* blocking copies: cudaMemcpy, cudaMemcpy2D, cuMemcpyDtoH... (not *Async) */
	return (strncmp(name, "cudaMemcpy", 10) == 0 || strncmp(name, "cuMemcpy", 8) == 0) &&
	       !strstr(name, "Async") && !strstr(name, "Symbol");
}

/* The API call whose span contains time x on any thread, preferring a
** synchronizing one; -1 if none.  apis are sorted by start. */
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
			if (is_sync_api(gp_s(t, a->name)))
				return best;
		}
	}
	return best;
}

/* The idle gaps of every device, and the API call during each. */
static void find_idle_gaps(struct advise_in *in)
{
	const gp_trace *t = in->t;
	size_t nb;
	struct ival *b = busy_intervals(t, &nb);

	for (size_t i = 1; i < nb; i++) {
		if (b[i].dev != b[i - 1].dev)
			continue;
		double g = (double)(b[i].s - b[i - 1].e);
		if (g < lim.idle_gap_ns)
			continue;
		struct idle_gap *gap = gp_vec_push(in->gaps);
		gap->start = b[i - 1].e;
		gap->ns = g;
		gap->api = api_at(t, b[i - 1].e + (gp_ns)(g / 2));
		gap->sync = gap->api >= 0 && is_sync_api(gp_s(t, t->apis.v[gap->api].name));
	}
	free(b);
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
		agg_add(&a, group_key(t, r, k), dur(&t->kernels.v[k]), k);
	}
	found = n && total >= lim.min_share * in->f->gpu_ns;
	if (found) {
		at_stake(x, total / 2, total, n);
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
		const char *fam = r[k].family;
		if (!fam || r[k].dtype != GP_DT_FP32 || r[k].tc != GP_TC_NO || !r[k].known ||
		    r[k].flops <= 0 ||
		    (strcmp(fam, "gemm") && strcmp(fam, "conv") && strcmp(fam, "attention") && strcmp(fam, "rnn")))
			continue;
		total += dur(&t->kernels.v[k]);
		n++;
		agg_add(&a, group_key(t, r, k), dur(&t->kernels.v[k]), k);
	}
	found = n && total >= lim.min_share * in->f->gpu_ns;
	if (found) {
		const char *gpu = in->f->gpu;
		at_stake(x, total / 2, total, n);
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
		agg_add(&all, t->kernels.v[k].name, dur(&t->kernels.v[k]), k);
	for (size_t k = 0; k < t->kernels.n; k++) {
		double pf, pbw, d = dur(&t->kernels.v[k]);
		struct gp_roofline rl;
		if (!r[k].known || d < lim.tiny_ns || gp_op_is_comm(&r[k]))
			continue;     /* tiny kernels: the launch-bound rule */
		gp_str name = t->kernels.v[k].name;
		if (name >= all.n || all.ns[name] < lim.roofline_name_share * in->f->gpu_ns)
			continue;
		gp_kernel_peaks(t, k, &r[k], in->po, &pf, &pbw);
		gp_roofline(r[k].flops, r[k].bytes, d, pf, pbw, &rl);
		if (rl.eff < 0 || rl.eff >= lim.low_eff)
			continue;
		double save = d - rl.ideal_ns / lim.achievable;
		if (save <= 0)
			continue;
		stake += save;
		total += d;
		n++;
		agg_add(&a, name, d, k);
	}
	found = n && stake >= lim.min_share * in->f->gpu_ns;
	if (found) {
		at_stake(x, stake, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		double pf, pbw;
		struct gp_roofline rl;
		gp_kernel_peaks(t, (size_t)s, &r[s], in->po, &pf, &pbw);
		gp_roofline(r[s].flops, r[s].bytes, dur(&t->kernels.v[s]), pf, pbw, &rl);
		snprintf(x->title, sizeof(x->title), ROOF_TITLE, n, lim.low_eff * 100);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, ROOF_EVIDENCE,
			 gp_s(t, group_key(t, r, (size_t)s)), gp_s(t, t->kernels.v[s].name), rl.gflops, rl.gbps,
			 rl.eff * 100, rl.bound == 1 ? "compute" : "memory");
		snprintf(x->change, sizeof(x->change), "%s", rl.bound == 1 ? ROOF_CHANGE_COMPUTE : ROOF_CHANGE_MEMORY);
	}
	agg_free(&a);
	agg_free(&all);
	return found;
}

/* idle-gaps: the GPU idle between activities, and what the CPU was doing. */
static bool rule_idle_gaps(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double idle = 0, biggest = 0;
	gp_ns big_at = 0;
	struct agg cause;
	char d1[32], d2[32];
	bool found;

	agg_init(&cause, t);
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct idle_gap *g = &in->gaps.v[i];
		idle += g->ns;
		if (g->ns > biggest) {
			biggest = g->ns;
			big_at = g->start;
		}
		agg_add(&cause, g->api >= 0 ? t->apis.v[g->api].name : 0, g->ns, 0);
	}
	found = in->gaps.n && idle >= lim.min_share * in->f->span_ns;
	if (found) {
		double span = in->f->span_ns;
		at_stake(x, idle, idle, in->gaps.n);
		snprintf(x->title, sizeof(x->title), IDLE_TITLE, fmt_ms(idle, d1, sizeof(d1)), in->gaps.n,
			 lim.idle_gap_ns / 1e3, span > 0 ? 100 * idle / span : 0.0);
		gp_str top[3];
		int n = agg_top(&cause, top, 3);
		size_t len = (size_t)snprintf(x->evidence, sizeof(x->evidence), IDLE_EVIDENCE,
					      fmt_ms(biggest, d2, sizeof(d2)), (double)(big_at - in->first) / 1e9);
		for (int i = 0; i < n && len < sizeof(x->evidence); i++)
			len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, IDLE_EVIDENCE_CAUSE,
						i ? ";" : "", top[i] ? gp_s(t, top[i]) : IDLE_NO_CALL,
						fmt_ms(cause.ns[top[i]], d1, sizeof(d1)), cause.cnt[top[i]]);
		const char *top0 = n && top[0] ? gp_s(t, top[0]) : "";
		bool alloc = strstr(top0, "Malloc") || strstr(top0, "Free");
		snprintf(x->change, sizeof(x->change), "%s%s", alloc ? IDLE_CHANGE_ALLOC : "", IDLE_CHANGE);
	}
	agg_free(&cause);
	return found;
}

/* sync-calls: idle gaps during which the host sat in a synchronizing call. */
static bool rule_sync_calls(const struct advise_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double sync_idle = 0, cpu = 0;
	size_t nsync_gaps = 0, ncalls = 0;
	struct agg calls;
	char d1[32], d2[32];

	for (size_t i = 0; i < in->gaps.n; i++)
		if (in->gaps.v[i].sync) {
			sync_idle += in->gaps.v[i].ns;
			nsync_gaps++;
		}
	if (!nsync_gaps || sync_idle < lim.min_share * in->f->span_ns)
		return false;
	at_stake(x, sync_idle, sync_idle, nsync_gaps);
	agg_init(&calls, t);
	for (size_t i = 0; i < t->apis.n; i++)
		if (is_sync_api(gp_s(t, t->apis.v[i].name))) {
			double d = (double)(t->apis.v[i].end - t->apis.v[i].start);
			ncalls++;
			cpu += d;
			agg_add(&calls, t->apis.v[i].name, d, 0);
		}
	snprintf(x->title, sizeof(x->title), SYNC_TITLE, fmt_ms(sync_idle, d1, sizeof(d1)));
	evidence(t, NULL, &calls, x->evidence, sizeof(x->evidence), "calls");
	size_t len = strlen(x->evidence);
	snprintf(x->evidence + len, sizeof(x->evidence) - len, SYNC_EVIDENCE, ncalls,
		 fmt_ms(cpu, d2, sizeof(d2)), nsync_gaps);
	snprintf(x->change, sizeof(x->change), "%s", SYNC_CHANGE);
	agg_free(&calls);
	return true;
}

/* tiny-kernels: launch-bound tiny kernels separated by short gaps on their
** device. */
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
		agg_add(&tiny, kr->name, d, k);
		/* the previous kernel on the same device */
		for (size_t j = k, steps = 0; j > 0 && steps < 8; j--, steps++) {
			const struct gp_kernel *p = &t->kernels.v[j - 1];
			if (p->device != kr->device)
				continue;
			double g = (double)(kr->start - p->end);
			if (g > 0 && g < lim.launch_gap_ns)
				gap_ns += g;
			break;
		}
	}
	found = ntiny >= lim.tiny_min_count && ntiny * lim.tiny_min_part >= t->kernels.n &&
		gap_ns >= lim.min_share * in->f->span_ns;
	if (found) {
		at_stake(x, gap_ns, tiny_ns, ntiny);
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
	double ns = 0;
	size_t n = 0;
	uint64_t bytes = 0;
	char d1[32];

	for (size_t i = 0; i < t->memcpys.n; i++)
		if (copy_is_pageable(&t->memcpys.v[i])) {
			ns += copy_ns(&t->memcpys.v[i]);
			n++;
			bytes += t->memcpys.v[i].bytes;
		}
	if (!n || ns < lim.min_share * in->f->gpu_ns / lim.copy_share_div)
		return false;
	at_stake(x, ns, ns, n);
	snprintf(x->title, sizeof(x->title), PAGEABLE_TITLE, n);
	snprintf(x->evidence, sizeof(x->evidence), PAGEABLE_EVIDENCE, n, (double)bytes / 1e6,
		 fmt_ms(ns, d1, sizeof(d1)));
	snprintf(x->change, sizeof(x->change), "%s", PAGEABLE_CHANGE);
	return true;
}

/* sync-memcpy: copies between pinned or device memory issued without Async. */
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
		}
	if (!n || ns < lim.min_share * in->f->gpu_ns / lim.copy_share_div)
		return false;
	at_stake(x, ns, ns, n);
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
		double blocks = (double)kr->grid[0] * kr->grid[1] * kr->grid[2], d = dur(kr);
		if (!blocks || blocks >= sms || d < lim.small_grid_min_ns)
			continue;
		if (gp_op_is_comm(&r[k]))
			continue;      /* NCCL kernels use few blocks by design */
		stake += d * (1 - blocks / sms) / 2;
		total += d;
		n++;
		agg_add(&a, kr->name, d, k);
	}
	found = n && stake >= lim.min_share * in->f->gpu_ns;
	if (found) {
		at_stake(x, stake, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		const struct gp_kernel *s = &t->kernels.v[a.sample[top[0]]];
		snprintf(x->title, sizeof(x->title), GRID_TITLE, n, sms);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, GRID_EVIDENCE, s->grid[0], s->grid[1],
			 s->grid[2], s->grid[0] * s->grid[1] * s->grid[2]);
		snprintf(x->change, sizeof(x->change), "%s", GRID_CHANGE);
	}
	agg_free(&a);
	return found;
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
	{"tiny-kernels", rule_tiny_kernels},
	{"pageable-memcpy", rule_pageable_memcpy},
	{"sync-memcpy", rule_sync_memcpy},
	{"small-grid", rule_small_grid},
};

static int cmp_finding(const void *pa, const void *pb)
{
	const struct gp_finding *a = pa, *b = pb;

	return a->ns > b->ns ? -1 : a->ns < b->ns;
}

void gp_advise(const gp_trace *t, const struct gp_opres *r, const struct gp_peak_opts *po,
	       struct gp_findings *f)
{
	struct advise_in in = {.t = t, .r = r, .po = po, .f = f};
	gp_ns last = 0;
	const struct gp_gpu *g = po ? po->gpu : NULL;

	memset(f, 0, sizeof(*f));
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
	if (!t->kernels.n || !r || !t->attrs)
		return;
	find_idle_gaps(&in);
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		struct gp_finding x;
		memset(&x, 0, sizeof(x));
		if (rules[i].fn(&in, &x)) {
			x.kind = rules[i].kind;
			*gp_vec_push(f->v) = x;
		}
	}
	gp_vec_free(in.gaps);
	gp_vec_sort(f->v, cmp_finding);
}

void gp_findings_free(struct gp_findings *f)
{
	gp_vec_free(f->v);
}
