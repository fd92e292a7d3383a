/*
** The analysis runner; see analysis.h.  The pass table lists every pass
** with the bits it reads, requirements before the passes that read them:
** resolving a mask is a fixpoint over the table, running it one walk down.
*/
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"

void gp_analysis_opts_init(struct gp_analysis_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->top_gaps = GP_TOP_GAPS;
	o->depth_buckets = GP_DEPTH_BUCKETS;
	o->timeline_buckets = GP_TIMELINE_BUCKETS;
}

/* ---- the passes: each computes its result from the trace and the
** results it requires (needs: every bit the run resolved, for a pass with
** parts); a run fails only with the pass's own error ---- */

/* The run's steps: decided once, before any pass that reads them. */
static int run_steps(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_steps_find(a->trace, &a->steps);
	return GP_OK;
}

static void free_steps(struct gp_analysis *a)
{
	gp_steps_free(&a->steps);
}

/* The kernels' layer paths under the run's view: decided once, before any
** pass that groups by layer. */
static int run_layers(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_layers_apply(a->trace, &a->opts.layers);
	return GP_OK;
}

/* Each kernel's serving phase and batch size: decided once, read by the
** phase groups, the commands that select or group by phase, and sinks. */
static int run_kernel_phases(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	a->kernel_phases.phase = gp_phases_of_kernels(a->trace);
	a->kernel_phases.batch = gp_phase_batches(a->trace, a->kernel_phases.phase);
	return GP_OK;
}

static void free_kernel_phases(struct gp_analysis *a)
{
	free(a->kernel_phases.phase);
	free(a->kernel_phases.batch);
}

static int run_ops(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_ops_run(a->trace, &a->opts.peaks, &a->ops);
	return GP_OK;
}

static void free_ops(struct gp_analysis *a)
{
	gp_ops_free(&a->ops);
}

/* One sweep for the breakdown and the parts of it in needs. */
static int run_breakdown(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	const struct gp_analysis_opts *o = &a->opts;
	struct gp_breakdown_opts bo = {
		.deps = &a->deps,
		.top_gaps = needs & GP_NEED_TOP_GAPS ? o->top_gaps : 0,
		.one_timeline = o->one_timeline,
		.memset_compute = o->memset_compute,
		.hta = o->hta,
		.depth_buckets = needs & GP_NEED_DEPTH ? o->depth_buckets : 0,
		.gap_causes = needs & GP_NEED_GAP_CAUSES,
	};

	return gp_breakdown_run(a->trace, &bo, &a->breakdown, err);
}

static void free_breakdown(struct gp_analysis *a)
{
	gp_breakdown_free(&a->breakdown);
}

static int run_memory(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_memory_run(a->trace, &a->memory);
	return GP_OK;
}

static void free_memory(struct gp_analysis *a)
{
	gp_memory_free(&a->memory);
}

/* The notice "unknown-kernels" first among the findings: kernels of
** unknown family with 1% of GPU time or more, counted as compute, so the
** compute/communication split the findings rest on may be wrong. */
static void unknown_notice(struct gp_analysis *a)
{
	const struct gp_comm_audit *au = &a->comm_audit;
	struct gp_findings *f = &a->findings;
	struct gp_finding x;
	gp_ns listed = 0;

	if (!au->nbig)
		return;
	memset(&x, 0, sizeof(x));
	for (size_t i = 0; i < au->nbig; i++)
		listed += au->big[i].ns;
	x.kind = gp_advise_kind("unknown-kernels");   /* its static name, which kept rows read back */
	x.first = true;
	x.total_ns = (double)listed;
	x.count = au->nbig;
	snprintf(x.title, sizeof(x.title), "%.1f%% of GPU time is kernels of unknown family: %s",
		 100.0 * (double)listed / (double)au->kernel_ns,
		 gp_comm_audit_blind(au) ? "the compute/communication split cannot be told"
					 : "counted as compute, not communication");
	gp_comm_audit_note(a->trace, au, x.evidence, sizeof(x.evidence));
	snprintf(x.change, sizeof(x.change), "Tell gpuprof what they are: an ops file row 'kernel pattern=name^NAME "
		 "family=comm' for a communication kernel (family=gemm, other... for the rest), with --ops-file "
		 "or $GPUPROF_OPS (docs/comm.md, docs/op-model.md \"Your own ops\").");
	*gp_vec_push(f->v) = x;
	memmove(&f->v.v[1], &f->v.v[0], (f->v.n - 1) * sizeof(x));
	f->v.v[0] = x;
	if (f->moves) {
		/* the moves are by position (advise.h): a notice's two
		** variants, as the replay unchanged, go before the others' */
		size_t stride = GP_MOVES_STRIDE(f->ncoll), nv = 1 + 2 * f->v.n;
		f->moves = gp_xrealloc(f->moves, nv * stride * sizeof(*f->moves));
		memmove(f->moves + 3 * stride, f->moves + stride, (nv - 3) * stride * sizeof(*f->moves));
		memcpy(f->moves + stride, f->moves, stride * sizeof(*f->moves));
		memcpy(f->moves + 2 * stride, f->moves, stride * sizeof(*f->moves));
	}
}

static int run_findings(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_advise(a->trace, &a->ops, gp_analysis_gpu(a), &a->breakdown, &a->deps, &a->steps,
		  needs & GP_NEED_RANK_ADVICE ? &a->record.coll : NULL, &a->findings);
	unknown_notice(a);
	return GP_OK;
}

static void free_findings(struct gp_analysis *a)
{
	gp_findings_free(&a->findings);
}

/* The cross-rank record: the breakdown's sums and steps, and the
** collectives with the link of the run's GPU (--gpu, else the trace's). */
static int run_record(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	const struct gp_coll_opts co = {.default_rank = -1, .gpu = gp_analysis_gpu(a)};
	int rc;

	gp_rank_record_of(&a->breakdown, &a->steps, &a->record);
	rc = gp_coll_extract(a->trace, &co, &a->record.coll, err);
	if (rc != GP_OK)
		gp_rank_record_free(&a->record);   /* a failed pass leaves nothing to free */
	return rc;
}

static void free_record(struct gp_analysis *a)
{
	gp_rank_record_free(&a->record);
}

/* The record's critical path in legs between its collectives (jobpath.h):
** freed with the record. */
static int run_rank_path(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_rank_path_build(&a->deps, a->trace, &a->record.coll, &a->record.path);
	return GP_OK;
}

static int run_groups(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_kgroups_build(a->trace, &a->ops, &a->groups);
	return GP_OK;
}

static void free_groups(struct gp_analysis *a)
{
	gp_kgroups_free(&a->groups);
}

/* The layer views over the kernels' paths as the run cut them. */
static int run_layer_views(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_layer_views_build(a->trace, &a->layer_views);
	return GP_OK;
}

static void free_layer_views(struct gp_analysis *a)
{
	gp_layer_views_free(&a->layer_views);
}

/* The device timeline over the window (the trace's span when none). */
static int run_timeline(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	const gp_trace *t = a->trace;
	gp_ns s = a->opts.window_start, e = a->opts.window_end;
	size_t n;

	memset(&a->timeline, 0, sizeof(a->timeline));
	if (s == 0 && e == 0 && !gp_trace_span(t, &s, &e))
		return GP_OK;
	struct gp_activity *acts = gp_trace_activities(t, &n);
	gp_timeline_build(&a->timeline, t, a->ops.r, acts, n, s, e, a->opts.timeline_buckets);
	free(acts);
	return GP_OK;
}

static void free_timeline(struct gp_analysis *a)
{
	gp_timeline_free(&a->timeline);
}

static int run_deps(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_deps_build(&a->deps, a->trace);
	gp_deps_label_markers(&a->deps, a->trace);
	return GP_OK;
}

static void free_deps(struct gp_analysis *a)
{
	gp_deps_free(&a->deps);
}

static int run_critpath(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	if (a->opts.critpath_legs)
		gp_critpath_run_legs(&a->deps, a->trace, a->opts.critpath_legs, a->opts.ncritpath_legs,
				     a->opts.critpath_pieces, &a->critpath);
	else
		gp_critpath_run(&a->deps, a->trace, a->opts.critpath_pieces, &a->critpath);
	return GP_OK;
}

static void free_critpath(struct gp_analysis *a)
{
	gp_critpath_free(&a->critpath);
}

/* TraceLens's gpu_timeline: its own choice of GPU events and arithmetic. */
static int run_tracelens(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_tl_timeline(a->trace, a->opts.tracelens_unlinked, &a->tracelens);
	return GP_OK;
}

/* The kernels by serving phase and batch size, and the serving steps,
** when the trace tells either. */
static int run_phases(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	const uint8_t *phase = a->kernel_phases.phase;
	const int32_t *batch = a->kernel_phases.batch;

	if (phase || batch) {
		a->phases.n = gp_phase_groups(a->trace, phase, batch, &a->phases.v);
		a->serving.n = gp_serving_steps(a->trace, phase, batch, &a->serving.v);
	}
	return GP_OK;
}

static void free_phases(struct gp_analysis *a)
{
	free(a->phases.v);
	free(a->serving.v);
}

/* Graph replays per graph, with the idle inside them from the
** breakdown's gaps. */
static int run_graphs(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	const gp_breakdown *b = &a->breakdown;
	uint8_t *ends = gp_graph_gap_ends(&a->deps, b->gap_causes, b->ngap_causes);

	gp_graph_table_build(&a->deps, b->gap_causes, b->ngap_causes, ends, &a->graphs);
	free(ends);
	return GP_OK;
}

static void free_graphs(struct gp_analysis *a)
{
	gp_graph_table_free(&a->graphs);
}

/* Communication under compute and alone, per device, layer and pass. */
static int run_comm_overlap(struct gp_analysis *a, unsigned needs, gp_error *err)
{
	gp_comm_overlap_run(a->trace, &a->comm_overlap);
	return GP_OK;
}

static void free_comm_overlap(struct gp_analysis *a)
{
	gp_comm_overlap_free(&a->comm_overlap);
}

/* The passes, each after those it requires.  run NULL: a part of the pass
** it requires, which reads its bit (the breakdown's sweep makes its top
** gaps, gap causes and depth series together). */
static const struct pass {
	unsigned need;          /* its GP_NEED_* bit */
	unsigned requires;      /* the bits it reads */
	int (*run)(struct gp_analysis *a, unsigned needs, gp_error *err);
	void (*free)(struct gp_analysis *a);
} passes[] = {
	/* the run's facts first */
	{GP_NEED_LAYERS, 0, run_layers, NULL},
	{GP_NEED_STEPS, 0, run_steps, free_steps},
	{GP_NEED_KERNEL_PHASES, 0, run_kernel_phases, free_kernel_phases},
	/* the passes */
	{GP_NEED_DEPS, 0, run_deps, free_deps},
	{GP_NEED_CRITPATH, GP_NEED_DEPS | GP_NEED_LAYERS, run_critpath, free_critpath},
	{GP_NEED_OPS, 0, run_ops, free_ops},
	{GP_NEED_BREAKDOWN, GP_NEED_DEPS, run_breakdown, free_breakdown},
	{GP_NEED_TOP_GAPS, GP_NEED_BREAKDOWN, NULL, NULL},
	{GP_NEED_GAP_CAUSES, GP_NEED_BREAKDOWN, NULL, NULL},
	{GP_NEED_DEPTH, GP_NEED_BREAKDOWN, NULL, NULL},
	{GP_NEED_MEMORY, 0, run_memory, free_memory},
	{GP_NEED_RECORD, GP_NEED_BREAKDOWN | GP_NEED_STEPS, run_record, free_record},
	{GP_NEED_FINDINGS, GP_NEED_OPS | GP_NEED_GAP_CAUSES | GP_NEED_DEPS | GP_NEED_STEPS | GP_NEED_LAYERS, run_findings,
	 free_findings},
	{GP_NEED_RANK_ADVICE, GP_NEED_FINDINGS | GP_NEED_RECORD, NULL, NULL},
	{GP_NEED_RANK_PATH, GP_NEED_RECORD | GP_NEED_DEPS | GP_NEED_LAYERS, run_rank_path, NULL},
	{GP_NEED_GROUPS, GP_NEED_OPS | GP_NEED_LAYERS, run_groups, free_groups},
	{GP_NEED_LAYER_VIEWS, GP_NEED_LAYERS, run_layer_views, free_layer_views},
	{GP_NEED_TIMELINE, GP_NEED_OPS, run_timeline, free_timeline},
	{GP_NEED_TRACELENS, 0, run_tracelens, NULL},
	{GP_NEED_PHASES, GP_NEED_KERNEL_PHASES, run_phases, free_phases},
	{GP_NEED_GRAPHS, GP_NEED_GAP_CAUSES | GP_NEED_DEPS, run_graphs, free_graphs},
	{GP_NEED_COMM_OVERLAP, GP_NEED_LAYERS, run_comm_overlap, free_comm_overlap},
};

#define NPASSES (sizeof(passes) / sizeof(passes[0]))

/* needs with everything its passes require, and theirs in turn. */
static unsigned resolve(unsigned needs)
{
	unsigned before;

	do {
		before = needs;
		for (size_t i = 0; i < NPASSES; i++)
			if (needs & passes[i].need)
				needs |= passes[i].requires;
	} while (needs != before);
	return needs;
}

/* Communication by launcher and by the user's ops files, then the audit of
** unknown kernels, before any pass reads t->def_comm.  Ops files that
** cannot be read count as none (the CLI checked them before reading; the
** op model notes it). */
static void comm_classify(struct gp_analysis *a)
{
	const struct gp_peak_opts *po = &a->opts.peaks;
	struct gp_opdefs d;
	gp_error err;

	gp_opdefs_init(&d, po->ops_paths, po->ops_optional, po->nops_paths, &err);   /* else built-ins only */
	gp_comm_classify(a->trace, &d);
	gp_comm_audit_run(a->trace, &d, &a->comm_audit);
	gp_opdefs_free(&d);
}

int gp_analysis_run(gp_trace *t, unsigned needs, const struct gp_analysis_opts *o, struct gp_analysis *a,
		    gp_error *err)
{
	memset(a, 0, sizeof(*a));
	a->trace = t;
	if (o)
		a->opts = *o;
	else
		gp_analysis_opts_init(&a->opts);
	gp_gpu_of_run(t, &a->opts.peaks, &a->gpu);
	comm_classify(a);
	needs = resolve(needs);
	for (size_t i = 0; i < NPASSES; i++) {
		const struct pass *p = &passes[i];
		int rc;
		if (!(needs & p->need))
			continue;
		if (p->run && (rc = p->run(a, needs, err)) != GP_OK)
			return rc;
		a->done |= p->need;
	}
	return GP_OK;
}

void gp_analysis_free(struct gp_analysis *a)
{
	for (size_t i = NPASSES; i-- > 0;)
		if ((a->done & passes[i].need) && passes[i].free)
			passes[i].free(a);
	a->done = 0;
	gp_comm_audit_free(&a->comm_audit);
}
