/*
** advise's idle-time rules, one per cause the dependency chain gives the
** GPU's idle time (critpath.h, docs/dependencies.md): the CPU issuing work
** too slowly (cpu-bound), launch and queue latency (launch-latency), host
** synchronization (sync-calls), data loading (dataloader), Python code
** (python-cpu), the user's own ranges (user-code), the allocator
** (allocator), compilation and module loading (jit), other CUDA calls
** (cuda-api), waits for other streams (event-wait), unrecorded CPU code
** (untraced-cpu); and tiny-kernels.  Each states its change as the cause
** removed (whatif.h), so its saving is what the re-timed trace gains.
** They read the gaps before eager work only: gaps before or inside CUDA/HIP
** graph replays, and replayed kernels, are advise_graph.c's (its rules say
** what holds a replay; none of these suggests CUDA graphs to work already
** replayed from one).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/critpath.h"

/* Gaps whose pieces a rule reads for its evidence: the longest of them by
** the cause's time (walking every gap of a million would cost a walk a
** kernel). */
#define EVIDENCE_GAPS 2000

/* An op call holding this much of its own CPU time in the gaps does work
** on the host, not the per-op dispatch and launch cost (microseconds) a
** CUDA graph removes: a first call autotuning or allocating, an op on CPU
** tensors (a sampler's randperm). */
#define LONG_OP_CALL_NS 1000000.0

/* What the gaps read for a finding's evidence hold: how many gaps, and
** the time of the finding's causes in them that op calls holding
** LONG_OP_CALL_NS or more each hold. */
struct held {
	size_t gaps;
	double long_ns;
	double inductor_ns;   /* in frames of Inductor's generated code */
};

static int cmp_desc(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return a < b ? 1 : a > b ? -1 : 0;
}

/* The gp_str naming what holds piece p: its op's or call's name, range's
** name or kernel's name (0 when none). */
static gp_str piece_subject(const struct gp_adv_in *in, const struct gp_piece *p)
{
	const gp_trace *t = in->t;

	switch (p->of) {
	case GP_PIECE_API:
		return gp_api_def(t, &t->apis.v[p->idx])->name;
	case GP_PIECE_RANGE:
		return gp_deps_text(in->deps, t->ranges.v[p->idx].text);
	case GP_PIECE_UNIT:
		if ((size_t)p->idx < t->kernels.n)
			return gp_kernel_short_name_of(t, &t->kernels.v[p->idx]);
		return 0;
	}
	return 0;
}

/* What holds the idle time of the causes in mask in the gaps that end
** where `where` says: in the EVIDENCE_GAPS gaps with the most of it, each
** piece of those causes by its subject into a, and what those gaps hold
** into *h. */
static void subjects(const struct gp_adv_in *in, uint32_t mask, int where, struct gp_adv_agg *a, struct held *h)
{
	double *v = gp_xmalloc((in->ngaps ? in->ngaps : 1) * sizeof(*v)), floor = 0;
	gp_piece_vec pieces = {0};
	gp_u64map call_at = {0};          /* an op call (range) -> its index in call_ns */
	GP_VEC(double) call_ns = {0};
	size_t n = 0;

	for (size_t i = 0; i < in->ngaps; i++) {
		double x = gp_adv_gap_mask_ns(in, i, mask, where);
		if (x > 0)
			v[n++] = x;
	}
	if (n > EVIDENCE_GAPS) {
		gp_sort(v, n, sizeof(*v), cmp_desc);
		floor = v[EVIDENCE_GAPS - 1];
	}
	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < in->ngaps && h->gaps < EVIDENCE_GAPS; i++) {
		const struct gp_bd_gap_cause *g = &in->gaps[i];
		double x = gp_adv_gap_mask_ns(in, i, mask, where);
		if (x <= 0 || x < floor || g->unit < 0)
			continue;
		h->gaps++;
		pieces.n = 0;
		gp_gap_pieces(in->deps, (size_t)g->unit, g->start, &pieces);
		for (size_t k = 0; k < pieces.n; k++) {
			const struct gp_piece *p = &pieces.v[k];
			double ns = (double)(p->end - p->start);
			if (!(mask & (1u << p->cause)))
				continue;
			gp_str s = piece_subject(in, p);
			gp_adv_agg_add(a, s, ns, 0);
			/* Inductor writes its wrapper modules under its cache
			** directory, /tmp/torchinductor_USER by default */
			if (p->of == GP_PIECE_RANGE && s && strstr(gp_s(in->t, s), "torchinductor"))
				h->inductor_ns += ns;
			if (p->of == GP_PIECE_RANGE) {
				int32_t at = gp_u64map_add(&call_at, (uint64_t)p->idx, (int32_t)call_ns.n);
				if ((size_t)at == call_ns.n)
					*gp_vec_push(call_ns) = 0;
				call_ns.v[at] += ns;
			}
		}
	}
	for (size_t i = 0; i < call_ns.n; i++)
		if (call_ns.v[i] >= LONG_OP_CALL_NS)
			h->long_ns += call_ns.v[i];
	gp_u64map_free(&call_at);
	gp_vec_free(call_ns);
	gp_vec_free(pieces);
	free(v);
}

/* gp_adv_cause_finding; what the gaps read for the evidence hold goes to
** *h when h is not NULL. */
static bool cause_finding(const struct gp_adv_in *in, struct gp_finding *x, uint32_t mask, int where,
			  const char *what, const char *change, struct held *h)
{
	double total = 0, by_cause[GP_CAUSE__COUNT] = {0};
	size_t n = 0, len;
	struct held read;
	int main = -1;
	char d1[32], d2[32];
	struct gp_adv_agg a;
	gp_str top[3];

	for (size_t i = 0; i < in->ngaps; i++) {
		double v = gp_adv_gap_mask_ns(in, i, mask, where);
		if (v <= 0)
			continue;
		total += v;
		n++;
		if (where != GP_ADV_GAP_EAGER)
			for (int c = 0; c < GP_CAUSE__COUNT; c++)
				by_cause[c] += gp_adv_gap_cause_ns(in, i, c);
	}
	if (!n || total < gp_adv_lim.min_share * in->f->span_ns)
		return false;
	/* the cause that holds the most of these gaps names the largest */
	const double *held_by = where == GP_ADV_GAP_EAGER ? in->eager_cause_ns : by_cause;
	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		if ((mask & (1u << c)) && (main < 0 || held_by[c] > held_by[main]))
			main = c;
	gp_adv_involved(x, total, n);
	x->idle = true;
	snprintf(x->title, sizeof(x->title), IDLE_CAUSE_TITLE, what, gp_fmt_duration(total, d1, sizeof(d1)),
		 gp_adv_span_pct(in, total), n, n == 1 ? "" : "s");
	gp_adv_agg_init(&a, in->t);
	subjects(in, mask, where, &a, &read);
	if (h)
		*h = read;
	int ntop = gp_adv_agg_top(&a, top, 3);
	len = 0;
	x->evidence[0] = '\0';
	bool named = false;
	for (int i = 0; i < ntop; i++)
		named |= top[i] != 0;
	if (named && read.gaps < n)
		len += (size_t)snprintf(x->evidence, sizeof(x->evidence), IDLE_CAUSE_TOP_LEAD, read.gaps);
	for (int i = 0, shown = 0; i < ntop && len < sizeof(x->evidence); i++)
		if (top[i])   /* untraced time names nothing */
			len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, IDLE_CAUSE_TOP,
						shown++ ? "; " : "", gp_s(in->t, top[i]),
						gp_fmt_duration(a.ns[top[i]], d2, sizeof(d2)));
	gp_adv_agg_free(&a);
	gp_adv_largest_gaps(in, main, where, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, change));
	return true;
}

bool gp_adv_cause_finding(const struct gp_adv_in *in, struct gp_finding *x, uint32_t mask, int where,
			  const char *what, const char *change)
{
	return cause_finding(in, x, mask, where, what, change, NULL);
}

#define BIT(c) (1u << (c))

/* cpu-bound: the launch of the work after a gap came late because the
** launching thread was running framework ops.  The change: the step as a
** CUDA graph, whose replay runs none of the framework ops' CPU code and
** their launch calls (that CPU time gone) and queues the kernels without
** a launch latency each; what else held the CPU (syncs, the data loader,
** the user's code) stays.  When most of the time is op calls of a
** millisecond or more (work on the host, not the per-op cost), those ops'
** CPU time gone, and no graph advised.  (The host between graph replays is
** graph-host-bound's.) */
bool gp_rule_cpu_bound(const struct gp_adv_in *in, struct gp_finding *x)
{
	struct held h;
	char d1[32];

	if (!cause_finding(in, x, BIT(GP_CAUSE_CPU_OP), GP_ADV_GAP_EAGER, CPU_WHAT, CPU_CHANGE, &h))
		return false;
	in->spec->remove_cpu |= BIT(GP_CAUSE_CPU_OP);
	if (h.long_ns > 0.5 * x->total_ns) {
		snprintf(x->change, sizeof(x->change), gp_adv_say(in->t, CPU_CHANGE_LONG_OPS), gp_fmt_duration(h.long_ns, d1, sizeof(d1)),
			 LONG_OP_CALL_NS / 1e6);
		return true;
	}
	in->spec->no_launch_latency = true;
	return true;
}

/* launch-latency: after a launch call returned, before its work started,
** and between work queued back to back on a stream (eager work: inside
** graph replays it is graph-gaps'). */
bool gp_rule_launch_latency(const struct gp_adv_in *in, struct gp_finding *x)
{
	char d1[32], d2[32];
	double launch = in->eager_cause_ns[GP_CAUSE_LAUNCH], gap = in->eager_cause_ns[GP_CAUSE_GPU_GAP];
	size_t gaps;

	if (!cause_finding(in, x, BIT(GP_CAUSE_LAUNCH) | BIT(GP_CAUSE_GPU_GAP), GP_ADV_GAP_EAGER, LAUNCH_WHAT,
			   LAUNCH_CHANGE, NULL))
		return false;
	gaps = x->count ? x->count : 1;
	snprintf(x->evidence, sizeof(x->evidence), LAUNCH_EVIDENCE, x->total_ns / (double)gaps / 1e3,
		 gp_fmt_duration(launch, d1, sizeof(d1)), gp_fmt_duration(gap, d2, sizeof(d2)));
	in->spec->no_launch_latency = true;
	in->spec->no_gpu_gaps = true;
	return true;
}

bool gp_rule_sync_calls(const struct gp_adv_in *in, struct gp_finding *x)
{
	if (!cause_finding(in, x, BIT(GP_CAUSE_SYNC), GP_ADV_GAP_EAGER, SYNC_WHAT, SYNC_CHANGE, NULL))
		return false;
	in->spec->no_syncs = true;
	return true;
}

/* The findings whose change is one CPU cause removed. */
static bool cpu_cause(const struct gp_adv_in *in, struct gp_finding *x, enum gp_cause c, const char *what,
		      const char *change)
{
	if (!cause_finding(in, x, BIT(c), GP_ADV_GAP_EAGER, what, change, NULL))
		return false;
	in->spec->remove_cpu |= BIT(c);
	return true;
}

bool gp_rule_dataloader(const struct gp_adv_in *in, struct gp_finding *x)
{
	return cpu_cause(in, x, GP_CAUSE_DATALOADER, LOADER_WHAT, LOADER_CHANGE);
}

/* python: the host's own Python held the work.  When most of it is in
** Inductor's generated wrapper (its `call` launching the compiled kernels
** one by one, checking each buffer's size and stride), moving code is no
** answer: replaying the kernels as CUDA graphs skips the wrapper. */
bool gp_rule_python(const struct gp_adv_in *in, struct gp_finding *x)
{
	struct held h;

	if (!cause_finding(in, x, BIT(GP_CAUSE_PYTHON), GP_ADV_GAP_EAGER, PYTHON_WHAT, PYTHON_CHANGE, &h))
		return false;
	in->spec->remove_cpu |= BIT(GP_CAUSE_PYTHON);
	if (h.inductor_ns > 0.5 * x->total_ns)
		snprintf(x->change, sizeof(x->change), "%s", PYTHON_CHANGE_INDUCTOR);
	return true;
}

bool gp_rule_comm_wait(const struct gp_adv_in *in, struct gp_finding *x)
{
	return cpu_cause(in, x, GP_CAUSE_COMM_WAIT, COMM_WAIT_WHAT, COMM_WAIT_CHANGE);
}

bool gp_rule_annotation(const struct gp_adv_in *in, struct gp_finding *x)
{
	return cpu_cause(in, x, GP_CAUSE_ANNOTATION, USER_WHAT, USER_CHANGE);
}

bool gp_rule_allocator(const struct gp_adv_in *in, struct gp_finding *x)
{
	return cpu_cause(in, x, GP_CAUSE_ALLOCATOR, ALLOC_WHAT, ALLOC_CHANGE);
}

/* The one-time costs (first_alloc, jit, autotune, module_load, capture): paid once per process,
** so read in every gap, before graph replays too (a capture precedes the
** first); the change removes the cause's CPU time, but no step pays it
** again: told as one-time, with no CUDA graphs or Python advice. */
static bool one_time(const struct gp_adv_in *in, struct gp_finding *x, enum gp_cause c, const char *what,
		     const char *change)
{
	if (!cause_finding(in, x, BIT(c), GP_ADV_GAP_ANY, what, change, NULL))
		return false;
	x->one_time = true;
	in->spec->remove_cpu |= BIT(c);
	return true;
}

bool gp_rule_jit(const struct gp_adv_in *in, struct gp_finding *x)
{
	return one_time(in, x, GP_CAUSE_JIT, JIT_WHAT, JIT_CHANGE);
}

bool gp_rule_first_alloc(const struct gp_adv_in *in, struct gp_finding *x)
{
	return one_time(in, x, GP_CAUSE_FIRST_ALLOC, FIRST_ALLOC_WHAT, FIRST_ALLOC_CHANGE);
}

/* autotune: the host's algorithm search (cudnnFind, cuBLASLt heuristics,
** autotune ranges: the cause autotune) and the GPU's runs of the
** candidates (cudnn.benchmark's trial kernels, which the op model marks:
** an op that ran more GEMM/conv kernels than the same op with the same
** shapes does elsewhere).  The change: both gone, as in a later step. */
bool gp_rule_autotune(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	bool idle = one_time(in, x, GP_CAUSE_AUTOTUNE, AUTOTUNE_WHAT, AUTOTUNE_CHANGE);
	struct gp_adv_agg a;
	double ns = 0;
	size_t n = 0, len;
	char d1[32];

	for (size_t k = 0; in->r && k < t->kernels.n; k++)
		if (in->r[k].trial)
			ns += gp_adv_dur(&t->kernels.v[k]), n++;
	if (!n || ns < gp_adv_lim.min_share * in->f->gpu_ns)
		return idle;
	gp_adv_agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++)
		if (in->r[k].trial) {
			gp_adv_agg_add(&a, gp_adv_kname(in, k), gp_adv_dur(&t->kernels.v[k]), k);
			gp_adv_claim(in, k, gp_adv_dur(&t->kernels.v[k]));
		}
	x->one_time = true;
	gp_fmt_duration(ns, d1, sizeof(d1));
	if (!idle) {
		snprintf(x->title, sizeof(x->title), TRIALS_TITLE, n, n == 1 ? "" : "s", d1,
			 in->f->gpu_ns > 0 ? 100 * ns / in->f->gpu_ns : 0.0);
		gp_adv_evidence(t, in->r, &a, x->evidence, sizeof(x->evidence), "kernels");
		snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(t, AUTOTUNE_CHANGE));
		gp_adv_involved(x, ns, n);
	} else {
		len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, TRIALS_MORE, n, n == 1 ? "" : "s", d1);
		gp_adv_involved(x, x->total_ns + ns, x->count + n);
	}
	gp_adv_agg_free(&a);
	return true;
}

bool gp_rule_module_load(const struct gp_adv_in *in, struct gp_finding *x)
{
	return one_time(in, x, GP_CAUSE_MODULE_LOAD, MODULE_WHAT, MODULE_CHANGE);
}

bool gp_rule_capture(const struct gp_adv_in *in, struct gp_finding *x)
{
	return one_time(in, x, GP_CAUSE_CAPTURE, CAPTURE_WHAT, CAPTURE_CHANGE);
}

bool gp_rule_cuda_api(const struct gp_adv_in *in, struct gp_finding *x)
{
	return cpu_cause(in, x, GP_CAUSE_CUDA_API, API_WHAT, API_CHANGE);
}

bool gp_rule_untraced(const struct gp_adv_in *in, struct gp_finding *x)
{
	return cpu_cause(in, x, GP_CAUSE_UNTRACED, UNTRACED_WHAT, UNTRACED_CHANGE);
}

/* The share of the GPU span event waits must hold to be told. */
#define EVENT_WAIT_NOTICE 0.1

/* event-wait: no change the model can re-time (what the producing stream
** would do instead is the user's design), so it has no saving to rank by:
** a notice, shown before the findings, when the waits hold
** EVENT_WAIT_NOTICE of the GPU span; it says where to look. */
bool gp_rule_event_wait(const struct gp_adv_in *in, struct gp_finding *x)
{
	if (in->eager_cause_ns[GP_CAUSE_EVENT_WAIT] < EVENT_WAIT_NOTICE * in->f->span_ns ||
	    !cause_finding(in, x, BIT(GP_CAUSE_EVENT_WAIT), GP_ADV_GAP_EAGER, EVENT_WHAT, EVENT_CHANGE, NULL))
		return false;
	x->first = true;
	return true;
}

/* tiny-kernels: most eager kernels run under gp_adv_lim.tiny_ns and the
** GPU waits for their launches (launch and CPU-op idle time before them).
** The change is fewer launches: the step as a CUDA graph of fused kernels.
** A replayed kernel has no launch of its own to wait on: replays are the
** graph rules'. */
bool gp_rule_tiny_kernels(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	struct gp_adv_agg tiny;
	double tiny_ns = 0, gap_ns = 0;
	size_t ntiny = 0, neager = 0;
	char d1[32], d2[32];
	bool found;

	gp_adv_agg_init(&tiny, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		double d = gp_adv_dur(kr);
		if (gp_unit_replayed(in->deps, k))
			continue;
		neager++;
		if (d >= gp_adv_lim.tiny_ns)
			continue;
		ntiny++;
		tiny_ns += d;
		gp_adv_agg_add(&tiny, gp_adv_kname(in, k), d, k);
	}
	for (size_t i = 0; i < in->ngaps; i++) {
		const struct gp_bd_gap_cause *g = &in->gaps[i];
		if (gp_adv_gap_ns(in, i) >= gp_adv_lim.launch_gap_ns || g->next < 0 ||
		    gp_adv_dur(&t->kernels.v[g->next]) >= gp_adv_lim.tiny_ns ||
		    gp_adv_gap_graph(in, i) != GP_ADV_GAP_EAGER)
			continue;
		gap_ns += gp_adv_gap_cause_ns(in, i, GP_CAUSE_LAUNCH) + gp_adv_gap_cause_ns(in, i, GP_CAUSE_GPU_GAP) +
			  gp_adv_gap_cause_ns(in, i, GP_CAUSE_CPU_OP);
	}
	found = ntiny >= gp_adv_lim.tiny_min_count && ntiny * gp_adv_lim.tiny_min_part >= neager &&
		gap_ns >= gp_adv_lim.min_share * in->f->span_ns;
	if (found) {
		gp_adv_involved(x, tiny_ns, ntiny);
		snprintf(x->title, sizeof(x->title), TINY_TITLE, ntiny, neager, gp_adv_lim.tiny_ns / 1e3);
		gp_adv_evidence(t, NULL, &tiny, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, TINY_EVIDENCE,
			 gp_fmt_duration(tiny_ns, d1, sizeof(d1)), gp_fmt_duration(gap_ns, d2, sizeof(d2)));
		snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, TINY_CHANGE));
		/* a CUDA graph of fused kernels: cpu-bound's change, and no
		** gaps between the kernels it queues back to back */
		in->spec->remove_cpu |= BIT(GP_CAUSE_CPU_OP);
		in->spec->no_launch_latency = true;
		in->spec->no_gpu_gaps = true;
	}
	gp_adv_agg_free(&tiny);
	return found;
}
