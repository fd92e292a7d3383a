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
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/advise.h"

#define TINY_NS 10000.0          /* a "tiny" kernel: under 10 us */
#define LAUNCH_GAP_NS 1000000.0  /* gaps under 1 ms between tiny kernels: launch overhead */
#define IDLE_GAP_NS 100000.0     /* idle gaps of at least 100 us are reported */
#define LOW_EFF 0.3              /* "far below roofline" */
#define MIN_SHARE 0.01           /* groups under 1% of GPU time are not findings */

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

static struct gp_finding *add(struct gp_findings *f, const char *kind, double ns, double total,
			      size_t count)
{
	struct gp_finding *x = gp_vec_push(f->v);

	x->kind = kind;
	x->ns = ns;
	x->total_ns = total;
	x->count = count;
	return x;
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

/* Rule: tensor-core-eligible ops that did not run on tensor cores. */
static void rule_tc_not_used(const gp_trace *t, const struct gp_opres *r, struct gp_findings *f)
{
	struct agg a;
	double total = 0;
	size_t n = 0;

	agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		if (!r[k].tc_eligible || r[k].tc != GP_TC_NO)
			continue;
		total += dur(&t->kernels.v[k]);
		n++;
		agg_add(&a, group_key(t, r, k), dur(&t->kernels.v[k]), k);
	}
	if (n && total >= MIN_SHARE * f->gpu_ns) {
		struct gp_finding *x = add(f, "tc-not-used", total / 2, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		int mult = tc_multiple((enum gp_dtype)r[s].dtype);
		char pad[200];
		pad_advice(gp_s(t, r[s].params), mult, pad, sizeof(pad));
		snprintf(x->title, sizeof(x->title), "%zu tensor-core-eligible %s kernels ran on CUDA cores", n,
			 gp_dtype_short((enum gp_dtype)r[s].dtype));
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		if (pad[0])
			snprintf(x->change, sizeof(x->change),
				 "Tensor cores need GEMM/conv dimensions that are multiples of %d for %s: pad %s "
				 "(vocabulary, hidden size, channels, batch x sequence).", mult,
				 gp_dtype_short((enum gp_dtype)r[s].dtype), pad);
		else
			snprintf(x->change, sizeof(x->change),
				 "The dimensions are multiples of %d; check the layout (channels_last for "
				 "convolutions), set torch.backends.cudnn.benchmark = True, and update cuBLAS/cuDNN.",
				 mult);
	}
	agg_free(&a);
}

/* Rule: fp32 GEMMs, convolutions and attention on CUDA cores. */
static void rule_fp32_gemm(const gp_trace *t, const struct gp_opres *r, struct gp_findings *f)
{
	struct agg a;
	double total = 0;
	size_t n = 0;

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
	if (n && total >= MIN_SHARE * f->gpu_ns) {
		struct gp_finding *x = add(f, "fp32-gemm", total / 2, total, n);
		bool ampere = f->gpu && !strstr(f->gpu, "V100") && !strstr(f->gpu, "T4") &&
			      !strstr(f->gpu, "TITAN V") && !strstr(f->gpu, "RTX 20") && !strstr(f->gpu, "GP100");
		snprintf(x->title, sizeof(x->title), "%zu fp32 GEMM/convolution kernels run on CUDA cores", n);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		if (ampere)
			snprintf(x->change, sizeof(x->change),
				 "Allow TF32 (torch.backends.cuda.matmul.allow_tf32 = True, or "
				 "torch.set_float32_matmul_precision('high'); cuDNN convolutions use TF32 by "
				 "default) or train in mixed precision (torch.autocast('cuda', dtype=torch.bfloat16)).");
		else
			snprintf(x->change, sizeof(x->change),
				 "Train in mixed precision: torch.autocast('cuda', dtype=torch.float16) with "
				 "torch.cuda.amp.GradScaler (this GPU%s has fp16 tensor cores but no TF32).",
				 f->gpu ? "" : ", if it is pre-Ampere,");
	}
	agg_free(&a);
}

/* Rule: kernels with a large share of GPU time far below their roofline. */
static void rule_roofline(const gp_trace *t, const struct gp_opres *r, const struct gp_peak_opts *po,
			  struct gp_findings *f)
{
	struct agg a, all;
	double stake = 0, total = 0;
	size_t n = 0;

	agg_init(&a, t);
	agg_init(&all, t);
	for (size_t k = 0; k < t->kernels.n; k++)
		agg_add(&all, t->kernels.v[k].name, dur(&t->kernels.v[k]), k);
	for (size_t k = 0; k < t->kernels.n; k++) {
		double pf, pbw, d = dur(&t->kernels.v[k]);
		struct gp_roofline rl;
		if (!r[k].known || d < TINY_NS || gp_op_is_comm(&r[k]))
			continue;     /* tiny kernels: the launch-bound rule */
		gp_str name = t->kernels.v[k].name;
		if (name >= all.n || all.ns[name] < 0.05 * f->gpu_ns)
			continue;     /* only kernel names with >= 5% of GPU time */
		gp_kernel_peaks(t, k, &r[k], po, &pf, &pbw);
		gp_roofline(r[k].flops, r[k].bytes, d, pf, pbw, &rl);
		if (rl.eff < 0 || rl.eff >= LOW_EFF)
			continue;
		double save = d - rl.ideal_ns / 0.8;
		if (save <= 0)
			continue;
		stake += save;
		total += d;
		n++;
		agg_add(&a, name, d, k);
	}
	if (n && stake >= MIN_SHARE * f->gpu_ns) {
		struct gp_finding *x = add(f, "below-roofline", stake, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		int32_t s = a.sample[top[0]];
		double pf, pbw;
		struct gp_roofline rl;
		gp_kernel_peaks(t, (size_t)s, &r[s], po, &pf, &pbw);
		gp_roofline(r[s].flops, r[s].bytes, dur(&t->kernels.v[s]), pf, pbw, &rl);
		snprintf(x->title, sizeof(x->title), "%zu kernels with a large share of GPU time run under %.0f%% of their roofline",
			 n, LOW_EFF * 100);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len,
			 "; the longest: %s %s, %.0f GFLOP/s, %.0f GB/s, %.1f%% of its %s-bound ideal",
			 gp_s(t, group_key(t, r, (size_t)s)), gp_s(t, t->kernels.v[s].name), rl.gflops, rl.gbps,
			 rl.eff * 100, rl.bound == 1 ? "compute" : "memory");
		snprintf(x->change, sizeof(x->change), rl.bound == 1
			 ? "Compute-bound op far from peak: use tensor cores (fp16/bf16/TF32), larger or "
			   "aligned GEMM shapes, and check for split-K or tiny tiles in the kernel choice."
			 : "Memory-bound op far from bandwidth: fuse it with its neighbours (torch.compile, "
			   "fused optimizers/norms), avoid non-contiguous inputs and small-element strided access.");
	}
	agg_free(&a);
	agg_free(&all);
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

/* Rules: GPU idle gaps, synchronizing calls, launch-bound tiny kernels. */
static void rule_gaps(const gp_trace *t, const struct gp_opres *r, gp_ns first, struct gp_findings *f)
{
	size_t nb;
	struct ival *b = busy_intervals(t, &nb);
	double idle = 0, sync_idle = 0, biggest = 0;
	size_t ngaps = 0, nsync_gaps = 0;
	gp_ns big_at = 0;
	struct agg cause;

	agg_init(&cause, t);
	for (size_t i = 1; i < nb; i++) {
		if (b[i].dev != b[i - 1].dev)
			continue;
		double g = (double)(b[i].s - b[i - 1].e);
		if (g < IDLE_GAP_NS)
			continue;
		idle += g;
		ngaps++;
		if (g > biggest) {
			biggest = g;
			big_at = b[i - 1].e;
		}
		int32_t a = api_at(t, b[i - 1].e + (gp_ns)(g / 2));
		if (a >= 0 && is_sync_api(gp_s(t, t->apis.v[a].name))) {
			sync_idle += g;
			nsync_gaps++;
		}
		agg_add(&cause, a >= 0 ? t->apis.v[a].name : 0, g, 0);
	}
	char d1[32], d2[32];
	if (ngaps && idle >= MIN_SHARE * f->span_ns) {
		struct gp_finding *x = add(f, "idle-gaps", idle, idle, ngaps);
		snprintf(x->title, sizeof(x->title), "the GPU sat idle %s in %zu gaps of %.0f us or more (%.1f%% of the span)",
			 fmt_ms(idle, d1, sizeof(d1)), ngaps, IDLE_GAP_NS / 1e3,
			 f->span_ns > 0 ? 100 * idle / f->span_ns : 0.0);
		gp_str top[3];
		int n = agg_top(&cause, top, 3);
		size_t len = (size_t)snprintf(x->evidence, sizeof(x->evidence), "longest gap %s at %.3f s into the trace; CPU during the gaps:",
					      fmt_ms(biggest, d2, sizeof(d2)), (double)(big_at - first) / 1e9);
		for (int i = 0; i < n && len < sizeof(x->evidence); i++)
			len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, "%s %s %s (%u gaps)",
						i ? ";" : "", top[i] ? gp_s(t, top[i]) : "no CUDA call (Python, data loading)",
						fmt_ms(cause.ns[top[i]], d1, sizeof(d1)), cause.cnt[top[i]]);
		const char *top0 = n && top[0] ? gp_s(t, top[0]) : "";
		bool alloc = strstr(top0, "Malloc") || strstr(top0, "Free");
		snprintf(x->change, sizeof(x->change), "%s%s",
			 alloc ? "Most idle time is spent in cudaMalloc/cudaFree: let PyTorch's caching "
				 "allocator reuse memory (no torch.cuda.empty_cache() in the loop, fixed shapes, "
				 "warm-up steps before profiling). " : "",
			 "Keep the GPU fed: overlap data loading (DataLoader num_workers > 0, pin_memory=True, "
			 "prefetch), move CPU-side work out of the training step, and remove host "
			 "synchronizations; for gaps inside a step, CUDA graphs or torch.compile.");
	}
	if (nsync_gaps && sync_idle >= MIN_SHARE * f->span_ns) {
		struct gp_finding *x = add(f, "sync-calls", sync_idle, sync_idle, nsync_gaps);
		size_t ncalls = 0;
		double cpu = 0;
		struct agg calls;
		agg_init(&calls, t);
		for (size_t i = 0; i < t->apis.n; i++)
			if (is_sync_api(gp_s(t, t->apis.v[i].name))) {
				ncalls++;
				cpu += (double)(t->apis.v[i].end - t->apis.v[i].start);
				agg_add(&calls, t->apis.v[i].name, (double)(t->apis.v[i].end - t->apis.v[i].start), 0);
			}
		snprintf(x->title, sizeof(x->title), "host synchronization left the GPU idle %s",
			 fmt_ms(sync_idle, d1, sizeof(d1)));
		evidence(t, NULL, &calls, x->evidence, sizeof(x->evidence), "calls");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, "; %zu synchronizing calls, %s of CPU time, %zu idle gaps end in one",
			 ncalls, fmt_ms(cpu, d2, sizeof(d2)), nsync_gaps);
		snprintf(x->change, sizeof(x->change),
			 "Remove synchronizations from the loop: .item(), .cpu(), .tolist(), print(tensor), "
			 "torch.cuda.synchronize(), blocking copies; accumulate metrics on the GPU and read them "
			 "every N steps; use non_blocking=True copies from pinned memory.");
		agg_free(&calls);
	}
	agg_free(&cause);
	free(b);

	/* launch-bound: tiny kernels separated by short gaps on their device */
	struct agg tiny;
	double tiny_ns = 0, gap_ns = 0;
	size_t ntiny = 0;
	agg_init(&tiny, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		double d = dur(kr);
		if (d >= TINY_NS)
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
			if (g > 0 && g < LAUNCH_GAP_NS)
				gap_ns += g;
			break;
		}
	}
	if (ntiny >= 100 && ntiny * 2 >= t->kernels.n && gap_ns >= MIN_SHARE * f->span_ns) {
		struct gp_finding *x = add(f, "tiny-kernels", gap_ns, tiny_ns, ntiny);
		snprintf(x->title, sizeof(x->title),
			 "%zu of %zu kernels run under %.0f us: the GPU waits on launches between them", ntiny,
			 t->kernels.n, TINY_NS / 1e3);
		evidence(t, NULL, &tiny, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len,
			 "; they run %s in all, with %s of idle gaps before them",
			 fmt_ms(tiny_ns, d1, sizeof(d1)), fmt_ms(gap_ns, d2, sizeof(d2)));
		snprintf(x->change, sizeof(x->change),
			 "Launch fewer, larger kernels: torch.compile (fusion), CUDA graphs "
			 "(torch.cuda.graphs / mode='reduce-overhead'), fused or foreach optimizers, a larger "
			 "batch; avoid Python loops over small tensors.");
	}
	agg_free(&tiny);
}

/* Rule: synchronous or pageable memory copies. */
static void rule_memcpy(const gp_trace *t, struct gp_findings *f)
{
	double pg = 0, sy = 0;
	size_t npg = 0, nsy = 0;
	uint64_t bytes = 0;

	for (size_t i = 0; i < t->memcpys.n; i++) {
		const struct gp_memcpy *m = &t->memcpys.v[i];
		double d = m->end > m->start ? (double)(m->end - m->start) : 0;
		if (m->src_kind == GP_MEM_PAGEABLE || m->dst_kind == GP_MEM_PAGEABLE) {
			pg += d;
			npg++;
			bytes += m->bytes;
		} else if (!m->async) {
			sy += d;
			nsy++;
		}
	}
	char d1[32];
	if (npg && pg >= MIN_SHARE * f->gpu_ns / 10) {
		struct gp_finding *x = add(f, "pageable-memcpy", pg, pg, npg);
		snprintf(x->title, sizeof(x->title), "%zu copies from or to pageable host memory", npg);
		snprintf(x->evidence, sizeof(x->evidence), "%zu pageable memcpy, %.1f MB, %s of copy time", npg,
			 (double)bytes / 1e6, fmt_ms(pg, d1, sizeof(d1)));
		snprintf(x->change, sizeof(x->change),
			 "Copy from pinned memory (DataLoader(pin_memory=True), tensor.pin_memory()) with "
			 "non_blocking=True: pageable copies are staged through a bounce buffer and block the host.");
	}
	if (nsy && sy >= MIN_SHARE * f->gpu_ns / 10) {
		struct gp_finding *x = add(f, "sync-memcpy", sy, sy, nsy);
		snprintf(x->title, sizeof(x->title), "%zu synchronous memory copies", nsy);
		snprintf(x->evidence, sizeof(x->evidence), "%zu memcpy issued without Async, %s of copy time", nsy,
			 fmt_ms(sy, d1, sizeof(d1)));
		snprintf(x->change, sizeof(x->change),
			 "Use cudaMemcpyAsync / tensor.to(device, non_blocking=True) from pinned memory so copies "
			 "overlap compute; avoid .cpu()/.item() inside the step.");
	}
}

/* Rule: long kernels whose grid has fewer blocks than the GPU has SMs. */
static void rule_small_grid(const gp_trace *t, const struct gp_opres *r, struct gp_findings *f)
{
	struct agg a;
	double stake = 0, total = 0;
	size_t n = 0;

	if (f->sm_count <= 0)
		return;
	agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		double blocks = (double)kr->grid[0] * kr->grid[1] * kr->grid[2], d = dur(kr);
		if (!blocks || blocks >= f->sm_count || d < 2 * TINY_NS)
			continue;
		if (gp_op_is_comm(&r[k]))
			continue;      /* NCCL kernels use few blocks by design */
		stake += d * (1 - blocks / f->sm_count) / 2;
		total += d;
		n++;
		agg_add(&a, kr->name, d, k);
	}
	if (n && stake >= MIN_SHARE * f->gpu_ns) {
		struct gp_finding *x = add(f, "small-grid", stake, total, n);
		gp_str top[1];
		agg_top(&a, top, 1);
		const struct gp_kernel *s = &t->kernels.v[a.sample[top[0]]];
		snprintf(x->title, sizeof(x->title), "%zu kernels launch fewer blocks than the %d SMs", n, f->sm_count);
		evidence(t, r, &a, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, "; e.g. grid %u,%u,%u = %u blocks",
			 s->grid[0], s->grid[1], s->grid[2], s->grid[0] * s->grid[1] * s->grid[2]);
		snprintf(x->change, sizeof(x->change),
			 "Give these kernels more parallel work: a larger batch, fusing small ops, split-K "
			 "for skinny GEMMs, or running independent work on other streams at the same time.");
	}
	agg_free(&a);
}

static int cmp_finding(const void *pa, const void *pb)
{
	const struct gp_finding *a = pa, *b = pb;

	return a->ns > b->ns ? -1 : a->ns < b->ns;
}

void gp_advise(const gp_trace *t, const struct gp_opres *r, const struct gp_peak_opts *po,
	       struct gp_findings *f)
{
	gp_ns first = 0, last = 0;
	const struct gp_gpu *g = po ? po->gpu : NULL;

	memset(f, 0, sizeof(*f));
	for (size_t k = 0; k < t->kernels.n; k++)
		f->gpu_ns += dur(&t->kernels.v[k]);
	if (gp_trace_span(t, &first, &last))
		f->span_ns = (double)(last - first);
	for (size_t i = 0; i < t->devices.n && !g; i++)
		g = gp_gpu_lookup(gp_s(t, t->devices.v[i].name));
	for (size_t i = 0; i < t->devices.n && !f->sm_count; i++)
		f->sm_count = t->devices.v[i].sm_count;
	if (!f->sm_count && g)
		f->sm_count = g->sm_count;
	f->gpu = g ? g->name : NULL;
	if (!t->kernels.n || !r || !t->attrs)
		return;
	rule_tc_not_used(t, r, f);
	rule_fp32_gemm(t, r, f);
	rule_roofline(t, r, po, f);
	rule_gaps(t, r, first, f);
	rule_memcpy(t, f);
	rule_small_grid(t, r, f);
	gp_vec_sort(f->v, cmp_finding);
}

void gp_findings_free(struct gp_findings *f)
{
	gp_vec_free(f->v);
}
