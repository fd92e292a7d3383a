/*
** advise's internals, shared by its engine (advise.c) and its rules, one
** file per family (advise_precision.c, advise_roofline.c, advise_idle.c,
** advise_fusion.c, advise_memory.c, advise_comm.c, advise_graph.c).  Not for use outside
** src/analysis/advise*.c.
**
** A rule reads the facts the engine prepared once (struct gp_adv_in),
** states the change it advises as a change to the timeline (time taken off
** kernels and copies: gp_adv_claim; copies no longer waited for: gp_adv_pin;
** graph replays' latencies gone: gp_adv_loosen; CPU time of a cause
** removed, syncs or launches no longer waited for: in->spec), fills its
** finding's texts
** (advise_texts.h) and says whether it fired.  The engine re-times the
** trace with each change (whatif.h) for its saving, and ranks.
**
** Ownership: a gp_adv_in lives on gp_advise()'s stack and borrows the
** trace, the op model, the breakdown and the dependency graph.
*/
#ifndef GP_ADVISE_INT_H
#define GP_ADVISE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/advise.h"
#include "analysis/advise_texts.h"
#include "analysis/breakdown.h"
#include "analysis/graph_table.h"
#include "analysis/whatif.h"
#include "ops/ops.h"
#include "util/alloc.h"
#include "util/fmt.h"

/* Every threshold of the rules (docs/op-model.md, "advise"). */
struct gp_adv_limits {
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

/* The values, in advise.c. */
extern const struct gp_adv_limits gp_adv_lim;

/* What every rule reads.  Facts several rules share are computed once by
** gp_advise(). */
struct gp_adv_in {
	const gp_trace *t;
	const gp_str *label;           /* [kernel_defs.n]: each kernel's label,
				       ** the name evidence shows it by */
	const struct gp_opres *r;      /* ops->r */
	const struct gp_ops *ops;
	const gp_breakdown *b;
	gp_deps *deps;
	const struct gp_findings *f;   /* gpu_ns, span_ns, busy_ns, gpu, sm_count */
	const struct gp_gpu *gpu;      /* peak table entry, NULL = unknown */
	gp_ns origin;                  /* the trace's start (gp_trace_start): a
				       ** gap's "at" is counted from it */
	/* the breakdown's whole-trace windows summed over devices */
	double comm_ns;                /* communication time: union per device */
	double comm_exposed_ns;        /* of it, the time no compute ran beside it */
	double idle_ns;                /* idle time in the devices' spans */
	double idle_cause_ns[GP_IDLE__COUNT];
	size_t idle_cause_gaps[GP_IDLE__COUNT];   /* gaps with time of each cause */
	/* the breakdown's gaps (b->gap_causes: device, start, end, time by
	** cause, next work), by device and start */
	const struct gp_bd_gap_cause *gaps;
	size_t ngaps;
	/* [ngaps]: where each gap ends (GP_ADV_GAP_*: before eager work,
	** inside or before a graph replay); NULL when nothing was replayed */
	const uint8_t *gap_graph;
	/* idle_cause_ns of the gaps before eager work only (the idle rules') */
	double eager_cause_ns[GP_IDLE__COUNT];
	/* The change the running rule advises: the GPU units (deps.h's
	** numbering: kernels, then copies, then memsets) and their durations,
	** and the change itself, which the rule fills. */
	size_t nunits;
	const double *dur;             /* [nunits] */
	struct gp_whatif_spec *spec;
	float *factors;                /* [nunits]: all 1 when a rule starts */
	uint8_t *pinned;               /* [nunits]: all 0 when a rule starts */
	uint8_t *loose;                /* [nunits]: all 0 when a rule starts */
};

/* A text of advise_texts.h (a change, a title) in the terms of t's
** framework (gp_trace.framework): its XLA twin for a JAX or TensorFlow
** trace, else text itself (advise_say.c).  The twin takes the same printf
** arguments. */
struct gp_adv_twin {
	const char *torch, *xla;
};
extern const struct gp_adv_twin gp_adv_xla_twins[];
extern const size_t gp_adv_xla_ntwins;
const char *gp_adv_say(const gp_trace *t, const char *text);
/* The same for a framework (enum gp_framework): a job's findings, whose
** ranks' framework their collectives' records carry (gp_coll_match). */
const char *gp_adv_say_fw(int framework, const char *text);

/* A rule: fills x (all but kind) and returns true when it has a finding. */
typedef bool (*gp_adv_rule)(const struct gp_adv_in *in, struct gp_finding *x);

/* The rules, by family (their kinds in advise.c's table). */
bool gp_rule_tc_not_used(const struct gp_adv_in *in, struct gp_finding *x);       /* advise_precision.c */
bool gp_rule_fp32_gemm(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_fp32_unshaped(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_roofline(const struct gp_adv_in *in, struct gp_finding *x);          /* advise_roofline.c */
bool gp_rule_small_grid(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_cpu_bound(const struct gp_adv_in *in, struct gp_finding *x);          /* advise_idle.c */
bool gp_rule_launch_latency(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_sync_calls(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_dataloader(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_python(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_comm_wait(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_annotation(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_allocator(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_first_alloc(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_jit(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_autotune(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_module_load(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_capture(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_cuda_api(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_event_wait(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_untraced(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_tiny_kernels(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_fusion(const struct gp_adv_in *in, struct gp_finding *x);            /* advise_fusion.c */
bool gp_rule_unfused_attention(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_pageable_memcpy(const struct gp_adv_in *in, struct gp_finding *x);   /* advise_memory.c */
bool gp_rule_sync_copies(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_sync_memcpy(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_alloc_churn(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_exposed_comm(const struct gp_adv_in *in, struct gp_finding *x);      /* advise_comm.c */
bool gp_rule_graph_unattributed(const struct gp_adv_in *in, struct gp_finding *x); /* advise_graph.c */
bool gp_rule_graph_host_bound(const struct gp_adv_in *in, struct gp_finding *x);
bool gp_rule_graph_gaps(const struct gp_adv_in *in, struct gp_finding *x);

/* ---- graph replays (advise_graph.c) ---- */

/* Where a gap ends: at eager work, inside a graph replay (after the
** replay's first unit began: the graph's own latency), or at the start of
** a replay (the host preparing and launching it).  The idle rules
** (advise_idle.c) read the eager gaps only, the graph rules the others: a
** gap's time is one family's, and no eager advice (CUDA graphs among it)
** is given to work already replayed from a graph. */
enum { GP_ADV_GAP_EAGER = GP_GAP_AT_EAGER, GP_ADV_GAP_IN_REPLAY = GP_GAP_IN_REPLAY,
       GP_ADV_GAP_BEFORE_REPLAY = GP_GAP_BEFORE_REPLAY,   /* graph_table.h's */
       GP_ADV_GAP_ANY = -1 };   /* every gap: one-time costs, wherever they fall */

/* Where each gap of in ends (in->gaps, in->deps: gp_graph_gap_ends over
** the breakdown's gaps, which in->gaps holds in order), as a malloc()ed
** [ngaps] array; NULL (nothing allocated) when no unit was replayed. */
uint8_t *gp_adv_gap_graphs(const struct gp_adv_in *in);

static inline int gp_adv_gap_graph(const struct gp_adv_in *in, size_t i)
{
	return in->gap_graph ? in->gap_graph[i] : GP_ADV_GAP_EAGER;
}

/* ---- the idle rules' finding (advise_idle.c) ---- */

/* A finding for the idle time of the causes in mask (bits of enum
** gp_cause) in the gaps that end where `where` says (GP_ADV_GAP_*):
** fires at gp_adv_lim.min_share of the GPU span.  Its title names what
** (IDLE_CAUSE_TITLE), its evidence what held the work most (the chain's
** ops, calls, ranges, Python frames) and the largest gaps; change is the
** advice.  The rule states the change itself. */
bool gp_adv_cause_finding(const struct gp_adv_in *in, struct gp_finding *x, uint32_t mask, int where,
			  const char *what, const char *change);

/* ---- the engine's helpers (advise.c) ---- */

/* The facts of a finding: the time and number of kernels, calls or gaps
** involved.  Its time at stake is what gp_advise() settles from the
** rule's claims. */
void gp_adv_involved(struct gp_finding *x, double total_ns, size_t count);

/* The percentage of the GPU span that ns summed over the devices is: of
** the span times the devices with GPU activity, as advise's header puts
** busy time (idle summed over 8 GPUs is never 500% of the span). */
double gp_adv_span_pct(const struct gp_adv_in *in, double ns);

/* The running rule's change takes ns off unit u's time (at most all of
** it; nothing for ns <= 0 or a unit out of range). */
void gp_adv_claim(const struct gp_adv_in *in, size_t u, double ns);

/* The running rule's change issues copy unit u from pinned memory without
** waiting for it: its call no longer holds the thread (nothing for u out
** of range). */
void gp_adv_pin(const struct gp_adv_in *in, size_t u);

/* The running rule's change loosens unit u (GP_WI_UNIT_* bits of whatif.h:
** it no longer waits for its launch, or for a gap after the work before
** it; nothing for u out of range). */
void gp_adv_loosen(const struct gp_adv_in *in, size_t u, uint8_t bits);

/* Gap i's length. */
static inline double gp_adv_gap_ns(const struct gp_adv_in *in, size_t i)
{
	return (double)(in->gaps[i].end - in->gaps[i].start);
}

/* Gap i's idle time of cause c (enum gp_cause), as the breakdown split it. */
static inline double gp_adv_gap_cause_ns(const struct gp_adv_in *in, size_t i, int c)
{
	return (double)gp_bd_gap_idle(in->b, &in->gaps[i], c);
}

/* Gap i's idle time of the causes in mask (bits of enum gp_cause) when it
** ends where `where` says (GP_ADV_GAP_*), else 0. */
double gp_adv_gap_mask_ns(const struct gp_adv_in *in, size_t i, uint32_t mask, int where);

/* Time and count per string id (an op, kernel or call name): arrays over
** the trace's string table, no hashing. */
struct gp_adv_agg {
	double *ns;
	uint32_t *cnt;
	int32_t *sample;          /* the group's longest kernel, for its params */
	size_t n;
};
void gp_adv_agg_init(struct gp_adv_agg *a, const gp_trace *t);
void gp_adv_agg_free(struct gp_adv_agg *a);
/* Adds ns to group id (the arrays grow for an id interned since init); k
** is the kernel. */
void gp_adv_agg_add(struct gp_adv_agg *a, gp_str id, double ns, size_t k);
/* The ntop ids with the most time into top, largest first; returns how many. */
int gp_adv_agg_top(const struct gp_adv_agg *a, gp_str *top, int ntop);

/* The value of key in a params string ("M=200,N=(35,20),K=200"), tuples
** multiplied out; -1 if absent. */
double gp_adv_param(const char *params, const char *key);

/* The multiple of which GEMM, convolution and attention dimensions let
** tensor cores run full tiles in dtype dt: 16 for fp8 and int8, 4 for
** tf32, else 8. */
int gp_adv_tc_multiple(enum gp_dtype dt);

/* A kernel's duration in ns, 0 when it ends before it starts. */
double gp_adv_dur(const struct gp_kernel *k);

/* The group key of kernel k: its op (as shown), else its kernel name. */
gp_str gp_adv_group_key(const gp_trace *t, const struct gp_opres *r, size_t k);

/* Writes "name 1.23 ms in 4 UNIT (params); ..." for the top three groups
** of a into out (r: the params of each group's sample kernel, NULL = none). */
void gp_adv_evidence(const gp_trace *t, const struct gp_opres *r, const struct gp_adv_agg *a, char *out,
		     size_t size, const char *unit);

/* Appends to out "; the largest gaps: 1.20 ms at 0.530 s (allocator
** cudaFree (aten::cudnn_convolution) 788.5 ms; ...)": of the gaps that end
** where `where` says (GP_ADV_GAP_*), the three with the most time of cause
** c (c < 0: the gaps' whole length), each with the chain of what held the
** work that ended it (gp_gap_story). */
void gp_adv_largest_gaps(const struct gp_adv_in *in, int c, int where, char *out, size_t size);

/* The name evidence shows kernel k by: its label (gp_kernel_label_of,
** "elementwise_kernel<MulFunctor>"), as every command shows kernels. */
static inline gp_str gp_adv_kname(const struct gp_adv_in *in, size_t k)
{
	return in->label[in->t->kernels.v[k].def];
}

#endif
