/*
** gpuprof advise: what to change, ranked by what it would save (rules in
** src/analysis/advise*.c, docs/op-model.md).  The analysis runner computes
** the findings; text for people goes through the advise-text sink, json,
** csv and tsv for tools through the row writers.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/jobpath.h"
#include "analysis/whatif.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/advise_text.h"
#include "writers/sink.h"
#include "writers/writer.h"

static const char *const advise_formats[] = {"text", NULL};

enum { O_WHATIF };

static const struct gp_cmd_opt advise_opts[] = {
	[O_WHATIF] = {"what-if", 0, "EXPR", "what the change EXPR would save (below); repeatable"},
	{NULL, 0, NULL, NULL},
};

static const struct gp_cmd_spec advise_spec = {
	.name = "advise",
	.about =
	"Findings about the trace, ranked by the time a change would save, each\n"
	"with its evidence (which ops or calls, how much time) and the change to\n"
	"make: tensor-core-eligible ops not on tensor cores (and which dimension\n"
	"to pad), fp32 GEMMs/convolutions that TF32 or mixed precision would\n"
	"speed up (and, without shapes, how to record them), rows of small\n"
	"elementwise/norm/RoPE/copy ops to fuse, unfused attention (bmm + softmax\n"
	"+ bmm) to replace with SDPA, kernels far below their roofline,\n"
	"launch-bound tiny kernels, GPU idle time by cause as gpuprof breakdown\n"
	"splits it (framework ops' CPU time, launch latency, host\n"
	"synchronization, data loading, Python, the allocator, JIT and\n"
	"autotuning, other CUDA calls, code the profiler did not record),\n"
	"pageable copies, copies the host waits for, grids smaller than the\n"
	"number of SMs, and work replayed from CUDA/HIP graphs (what to record\n"
	"when its ops are unknown, the host between replays, the idle inside\n"
	"them: never \"use CUDA graphs\" for it).  A finding's saving is how much\n"
	"shorter its change makes the GPU span when the trace's dependency graph\n"
	"is re-timed with it.  The list is ranked greedily: each position takes\n"
	"the finding whose change, added to those above it, saves most, and its\n"
	"saving is what it adds, so the savings add up to the replay of all the\n"
	"changes together (cumulative_ns in json/csv/tsv: the replay up to it);\n"
	"\"alone Y\" where it would save otherwise alone (\"shared\": what those\n"
	"above already took; shared_ns and shared_with).  With a job's rank\n"
	"files, a saving is what the change saves the job, replayed across the\n"
	"ranks (a rank that waits for another saves nothing until that one's\n"
	"change), and the ranks' findings of one kind are one (\"ranks 0-7:\n"
	"...\"), their changes together.  Every percentage is of the GPU span.\n"
	"See docs/op-model.md, docs/ranks.md and docs/dependencies.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_PEAKS | GP_OPT_JOBS |
		  GP_OPT_WINDOW,
	.own = advise_opts,
	.more =
	"--what-if EXPR (repeatable: the changes together) re-times the trace on\n"
	"its dependency graph with the change made, as the findings' savings are\n"
	"computed, and prints the GPU span, the run and the median step before\n"
	"and after instead of the findings.  EXPR:\n"
	"  op:NAME=F, kernel:GLOB=F, layer:GLOB=F   those kernels F faster (2x,\n"
	"      0.5x) or at their roofline (=roofline); NAME as summary --by op\n"
	"      names ops, GLOB a shell pattern on kernel names or layer paths\n"
	"  cause:NAME=0   that cause of idle time gone: the CPU time of\n"
	"      dataloader, allocator, first_alloc, jit, autotune, module_load,\n"
	"      capture, python, annotation, cuda_api, cpu_op,\n"
	"      untraced; or the GPU-side latency of launch, gpu_gap\n"
	"  copies=pinned  host copies from pinned memory, issued without waiting\n"
	"  rank:R=on-time (several rank files, alone) rank R arrives at every\n"
	"      collective with the next-to-last rank: the job's GPU span, its\n"
	"      waits at collectives and its median step before and after\n"
	"Examples: --what-if op:aten::addmm=2x; --what-if cause:dataloader=0\n"
	"--what-if 'kernel:*gemm*=roofline'.  See docs/dependencies.md.",
	.many_files = true,
	.formats = advise_formats,
	.row_formats = true,
	.format_note = "(text for people; the others one row per finding)",
};

/* "position" is the finding's place in the ranking; "rank" is always the
** distributed rank (several files: job_rank_col). */
static const struct gp_column cols[] = {
	{"position", "Pos", 3, true, false, NULL},
	{"kind", "Kind", 12, false, false, NULL},
	{"saving_ns", "Saving", 10, true, false, NULL, GP_UNIT_NS},
	{"saving_pct", "Saving of GPU span", 6, true, false, NULL, GP_UNIT_PCT},
	{"per_step_ns", "Per step", 10, true, false, NULL, GP_UNIT_NS},
	{"alone_ns", "Alone", 10, true, false, NULL, GP_UNIT_NS},
	{"involved_ns", "Involved", 10, true, false, NULL, GP_UNIT_NS},
	{"count", "Count", 5, true, false, NULL},
	{"title", "Finding", 20, false, true, NULL},
	{"evidence", "Evidence", 20, false, true, NULL},
	{"change", "Change", 20, false, true, NULL},
	{"shared_ns", "Shared", 10, true, false, NULL, GP_UNIT_NS},
	{"shared_with", "Shared with", 10, false, true, NULL},
	{"cumulative_ns", "Cumulative", 10, true, false, NULL, GP_UNIT_NS},
	/* 1: a cost paid once (ranked before the others: docs/cli.md) */
	{"one_time", "One-time", 1, true, false, NULL, GP_UNIT_NONE, true},
};

/* Writes the first top findings as rows to w (notices have no saving:
** their cells are empty). */
static int write_rows(gp_writer *w, const struct gp_findings *f, size_t top)
{
	char pos[24], ns[32], pct[16], step[32], alone[32], inv[32], cnt[24], over[32], cum[32];

	for (size_t i = 0; i < f->v.n && i < top; i++) {
		const struct gp_finding *x = &f->v.v[i];
		snprintf(pos, sizeof(pos), "%zu", i + 1);
		snprintf(ns, sizeof(ns), "%.0f", x->ns);
		snprintf(pct, sizeof(pct), "%.2f", f->span_ns > 0 ? 100 * x->ns / f->span_ns : 0.0);
		snprintf(step, sizeof(step), "%.0f", f->steps ? x->ns / (double)f->steps : 0);
		snprintf(alone, sizeof(alone), "%.0f", x->alone_ns);
		snprintf(inv, sizeof(inv), "%.0f", x->total_ns);
		snprintf(cnt, sizeof(cnt), "%zu", x->count);
		snprintf(over, sizeof(over), "%.0f", x->overlap_ns);
		snprintf(cum, sizeof(cum), "%.0f", x->cum_ns);
		const char *vals[] = {pos, x->kind, x->first ? NULL : ns, x->first ? NULL : pct,
				      x->first || x->one_time || !f->steps ? NULL : step, x->first ? NULL : alone, inv,
				      cnt, x->title, x->evidence, x->change, x->first ? NULL : over, x->overlaps,
				      x->first ? NULL : cum, x->first ? NULL : x->one_time ? "1" : "0"};
		gp_writer_row(w, vals);
	}
	return GP_OK;
}

/* The most --what-if changes one run takes together. */
#define MAX_WHATIF 16

/* What advise does with each trace. */
struct job {
	const struct gp_cli_opts *co;
	bool text;
	struct gp_whatif_expr whatif[MAX_WHATIF];   /* --what-if, in order */
	const char *whatif_text[MAX_WHATIF];
	size_t nwhatif;
	bool on_time;           /* --what-if rank:R=on-time (then alone) */
};

static int advise_option(void *ctx, int index, const char *arg)
{
	struct job *j = ctx;
	gp_error err = {0};

	if (index != O_WHATIF)
		return GP_EXIT_USAGE;
	if (j->nwhatif == MAX_WHATIF)
		return gp_cli_usage("advise", "at most %d --what-if changes", MAX_WHATIF);
	if (gp_whatif_parse(arg, &j->whatif[j->nwhatif], &err) != GP_OK)
		return gp_cli_usage("advise", "%s", err.msg);
	j->on_time |= j->whatif[j->nwhatif].target == GP_WI_RANK;
	j->whatif_text[j->nwhatif++] = arg;
	if (j->on_time && j->nwhatif > 1)
		return gp_cli_usage("advise", "--what-if rank:R=on-time is a change of the whole job: give it "
				    "alone, without other --what-if changes");
	return 0;
}

/* The what-if table (--what-if): one row per measure, before and after
** the changes together. */
static const struct gp_column whatif_cols[] = {
	{"measure", "Measure", 12, false, false, NULL},
	{"before_ns", "Before", 12, true, false, NULL, GP_UNIT_NS},
	{"after_ns", "After", 12, true, false, NULL, GP_UNIT_NS},
	{"saving_ns", "Saving", 12, true, false, NULL, GP_UNIT_NS},
	{"saving_pct", "Saving share", 6, true, false, NULL, GP_UNIT_PCT},
	{"what_if", "What if", 20, false, true, NULL},
};
#define NWHATIF_COLS ((int)(sizeof(whatif_cols) / sizeof(whatif_cols[0])))

static void whatif_row(gp_writer *w, const char *measure, gp_ns before, gp_ns after, const char *what)
{
	char b[32], a[32], s[32], p[16];

	snprintf(b, sizeof(b), "%lld", (long long)before);
	snprintf(a, sizeof(a), "%lld", (long long)after);
	snprintf(s, sizeof(s), "%lld", (long long)(before - after));
	snprintf(p, sizeof(p), "%.2f", before > 0 ? 100.0 * (double)(before - after) / (double)before : 0.0);
	const char *row[] = {measure, b, a, s, p, what};
	gp_writer_row(w, row);
}

/* --what-if on the analysed trace a (deps and op model): the changes
** together re-timed, as rows of the GPU span, the run (the process's first
** activity to its last) and the median step, to w.  A change that selects
** no kernel is told on standard error: a misspelt name saves nothing. */
static void write_whatif(const struct job *j, struct gp_analysis *a, gp_writer *w)
{
	struct gp_whatif_result r;
	size_t units[MAX_WHATIF];
	char what[1024];
	size_t len = 0;

	gp_whatif_changes(&a->deps, &a->ops, j->whatif, j->nwhatif, &r, units);
	what[0] = '\0';
	for (size_t i = 0; i < j->nwhatif && len < sizeof(what); i++) {
		bool kernels = j->whatif[i].target == GP_WI_OP || j->whatif[i].target == GP_WI_KERNEL ||
			       j->whatif[i].target == GP_WI_LAYER;
		int n = kernels ? snprintf(what + len, sizeof(what) - len, "%s%s (%zu kernels)", len ? "; " : "",
					   j->whatif_text[i], units[i])
				: snprintf(what + len, sizeof(what) - len, "%s%s", len ? "; " : "", j->whatif_text[i]);
		len = n < 0 ? len : len + (size_t)n;
		if (kernels && !units[i])
			fprintf(stderr, "gpuprof advise: note: %s: --what-if %s selects no kernel (gpuprof summary "
				"--by op and --by kernel list the names)\n", gp_s(a->trace, a->trace->path),
				j->whatif_text[i]);
	}
	whatif_row(w, "gpu_span", r.gpu_before, r.gpu_after, what);
	whatif_row(w, "run", r.span_before, r.span_after, what);
	if (r.niters) {
		char m[32];
		snprintf(m, sizeof(m), "median_step");
		whatif_row(w, m, gp_whatif_median_step(&r, false), gp_whatif_median_step(&r, true), what);
	}
	gp_whatif_result_free(&r);
}

#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])))

/* Writes the findings of a (GP_NEED_FINDINGS): text through the sink on
** out, else rows to w. */
static int write_findings(const struct job *j, const struct gp_analysis *a, FILE *out, gp_writer *w,
			  gp_error *err)
{
	const struct gp_sink_opts so = {.top = j->co->top};
	const struct gp_sink_input in = {.path = gp_s(a->trace, a->trace->path), .an = a};
	gp_sink sink;
	int rc;

	if (!j->text)
		return write_rows(w, &a->findings, j->co->top);
	rc = gp_sink_open(&sink, "advise-text", out, &so, err);
	if (rc == GP_OK)
		rc = gp_sink_write_close(&sink, &in, err);
	return rc;
}

/* Runs the analysis advise needs on t (needs: more) into a; GP_OK or the
** runner's error (gp_analysis_free a either way). */
static int analyse(const struct job *j, gp_trace *t, unsigned more, struct gp_analysis *a, gp_error *err)
{
	struct gp_analysis_opts ao;

	gp_cli_analysis_opts(j->co, &ao);
	return gp_analysis_run(t, (j->nwhatif ? GP_NEED_DEPS | GP_NEED_OPS : GP_NEED_FINDINGS) | more, &ao, a, err);
}

/* One file alone (gp_cli_many.single), as advise always did. */
static int advise_single(const void *ctx, const char *path)
{
	const struct job *j = ctx;
	gp_error err = {0};
	gp_writer w;
	gp_trace t;
	int rc;

	if (j->on_time)
		return gp_cli_usage("advise", "--what-if %s needs the rank files of one job (several FILEs, a "
				    "directory or a glob): one trace cannot tell which rank the others wait for",
				    j->whatif_text[0]);
	if (!j->text && gp_writer_open(&w, j->co->format, stdout, j->nwhatif ? whatif_cols : cols,
				       j->nwhatif ? NWHATIF_COLS : NCOLS, &j->co->wo, &err))
		return gp_cli_usage("advise", "%s", err.msg);
	gp_trace_init(&t);
	rc = gp_cli_load(path, j->co, &t, NULL);
	/* the writer wrote nothing yet: left unclosed */
	if (rc == GP_EXIT_OK && !gp_cli_no_kernels("advise", path, &t, j->co, false)) {
		struct gp_analysis a;
		int st = analyse(j, &t, 0, &a, &err);
		if (st == GP_OK && j->nwhatif)
			write_whatif(j, &a, &w);
		else if (st == GP_OK)
			st = write_findings(j, &a, stdout, &w, &err);
		if (st == GP_OK && !j->text)
			st = gp_writer_close(&w, &err);
		if (st != GP_OK) {
			gp_err_print(&err);
			rc = gp_exit_code(st);
		}
		gp_analysis_free(&a);
	}
	gp_trace_free(&t);
	return rc;
}

/* Several files (gp_cli_trace_fn): the rank's record with its path and
** its findings with their moves (the reduce judges them in the job). */
static int advise_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_analysis a;
	struct gp_analysis_opts ao;

	/* the record with its critical path's legs: the job's path across
	** ranks; its collectives' link is --gpu's */
	gp_cli_analysis_opts(j->co, &ao);
	int rc = j->on_time ? gp_analysis_run(t, GP_NEED_RECORD, &ao, &a, err)
			    : analyse(j, t, j->nwhatif ? GP_NEED_RECORD : GP_NEED_RANK_PATH | GP_NEED_RANK_ADVICE,
				      &a, err);

	if (rc == GP_OK && rec)
		gp_rank_record_put(&a.record, rec);
	if (rc == GP_OK && j->on_time) {
		/* the job's change: the reduce replays it from the records */
	} else if (rc == GP_OK && j->nwhatif) {
		write_whatif(j, &a, w);
	} else if (rc == GP_OK && rec) {
		/* every finding, with its moves: the reduce judges them in the job */
		gp_findings_put(&a.findings, rec);
	}
	gp_analysis_free(&a);
	return rc;
}

static const struct gp_column job_rank_col = {"rank", "Rank", 4, true, false, "all"};

/* --what-if rank:R=on-time over the job j of the n results res: the job's
** GPU span, the waits at its collectives and its median step before and
** after, as what-if rows of the whole job to out (a leading rank column:
** none).  GP_ERR_USAGE when no file is rank R. */
static int write_on_time(const struct job *jb, const struct gp_cli_result *const *res, const struct gp_rank_job *j,
			 gp_writer *out, gp_error *err)
{
	const struct gp_whatif_expr *x = &jb->whatif[0];
	struct gp_rank_on_time o;
	struct gp_rowbuf rb = {0};
	gp_writer w;
	size_t r = 0;
	int rc;

	while (r < j->n && res[r]->id.rank != x->rank)
		r++;
	if (r == j->n)
		return gp_err(err, GP_ERR_USAGE, "--what-if %s: no rank %d among the %zu files", jb->whatif_text[0],
			      x->rank, j->n);
	if (!j->coll.ncomplete)
		fprintf(stderr, "gpuprof advise: note: --what-if %s: no collective is matched on every rank: the "
			"traces cannot tell who waits for whom, nothing is saved\n", jb->whatif_text[0]);
	else if (!j->coll.ranks[r].times_last)
		fprintf(stderr, "gpuprof advise: note: --what-if %s: rank %d arrived last at none of the %zu "
			"collectives matched on every rank: it is on time already\n", jb->whatif_text[0], x->rank,
			j->coll.ncomplete);
	gp_rank_job_on_time(j, r, &o);
	gp_rowbuf_writer(&w, &rb, whatif_cols, NWHATIF_COLS);
	whatif_row(&w, "gpu_span", o.span_before, o.span_after, jb->whatif_text[0]);
	whatif_row(&w, "collective_wait", o.wait_before, o.wait_after, jb->whatif_text[0]);
	if (o.step_before >= 0)
		whatif_row(&w, "median_step", o.step_before, o.step_after, jb->whatif_text[0]);
	rc = gp_rowbuf_replay(&rb, out, NULL, err);
	gp_rowbuf_free(&rb);
	return rc;
}

/* Several files: the job's findings (the straggler, by arrival), then the
** ranks' findings judged in the job and merged by kind
** (gp_advise_job_ranks; gp_cli_reduce_fn; out NULL for text, which goes
** to stdout); or the job's what-if, or each rank's. */
static int advise_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n,
			 gp_writer *out, gp_error *err)
{
	const struct job *jb = ctx;
	struct gp_findings f = {0};
	struct gp_rank_job j;
	int rc = gp_cli_rank_job(res, n, false, &j, err);

	if (rc == GP_OK && jb->on_time) {
		rc = write_on_time(jb, res, &j, out, err);
		gp_rank_job_free(&j);
		return rc;
	}
	if (rc == GP_OK && jb->nwhatif) {
		for (size_t i = 0; i < n && rc == GP_OK; i++) {
			char rank[16];
			snprintf(rank, sizeof(rank), "%d", res[i]->id.rank);
			rc = gp_rowbuf_replay(&res[i]->rows, out, rank, err);
		}
		gp_rank_job_free(&j);
		return rc;
	}
	if (rc == GP_OK) {
		struct gp_job_path path;
		gp_job_path_run(&j, &path);
		gp_advise_job(&j, &path, &f);
		gp_job_path_free(&path);
		gp_advise_job_ranks(&j, &f);
	}
	if (rc == GP_OK && jb->text) {
		gp_advise_text_job(stdout, &f, n);
	} else if (rc == GP_OK && f.v.n) {
		struct gp_rowbuf rb = {0};
		gp_writer w;
		gp_rowbuf_writer(&w, &rb, cols, NCOLS);
		write_rows(&w, &f, jb->co->top);
		rc = gp_rowbuf_replay(&rb, out, NULL, err);
		gp_rowbuf_free(&rb);
	}
	gp_findings_free(&f);
	gp_rank_job_free(&j);
	return rc;
}

int cmd_advise(int argc, char **argv)
{
	struct gp_cli_opts o;
	struct job j = {.co = &o};
	struct gp_cli_many m = {.cmd = "advise", .fn = advise_trace, .ctx = &j, .reduce = advise_reduce,
				.single = advise_single, .want_record = true};
	struct gp_column out_cols[NCOLS + 1];
	gp_error err = {0};
	gp_writer w;
	int rc;

	rc = gp_cli_parse(&advise_spec, argc, argv, &o, advise_option, &j);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (j.nwhatif && strcmp(o.format, "text") == 0)
		o.format = "table";   /* the what-if rows, aligned for people */
	j.text = strcmp(o.format, "text") == 0;
	const struct gp_column *c = j.nwhatif ? whatif_cols : cols;
	int nc = j.nwhatif ? NWHATIF_COLS : NCOLS;
	if (!j.text && gp_writer_open(&w, o.format, stdout, c, nc, &o.wo, &err))
		return gp_cli_usage("advise", "%s", err.msg);
	out_cols[0] = job_rank_col;
	memcpy(out_cols + 1, c, (size_t)nc * sizeof(*c));
	m.cols = c;
	m.ncols = nc;
	m.out_cols = j.text ? NULL : out_cols;
	m.out_ncols = nc + 1;
	return gp_cli_run(&m, &o);
}
