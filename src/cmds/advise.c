/*
** gpuprof advise: what to change, ranked by the time at stake (rules in
** src/analysis/advise*.c, docs/op-model.md).  The analysis runner computes
** the findings; text for people goes through the advise-text sink, json,
** csv and tsv for tools through the row writers.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/sink.h"
#include "writers/writer.h"

static const char *const advise_formats[] = {"text", NULL};

static const struct gp_cmd_spec advise_spec = {
	.name = "advise",
	.about =
	"Findings about the trace, ranked by the time a change would save, each\n"
	"with its evidence (which ops or calls, how much time) and the change to\n"
	"make: tensor-core-eligible ops not on tensor cores (and which dimension\n"
	"to pad), fp32 GEMMs/convolutions that TF32 or mixed precision would\n"
	"speed up (and, without shapes, how to record them), rows of small\n"
	"elementwise/norm/RoPE/copy ops to fuse, unfused attention (bmm +\n"
	"softmax + bmm) to replace with SDPA, kernels far below their roofline,\n"
	"launch-bound tiny kernels, GPU idle time by cause (the host launching\n"
	"too slowly, gaps under 10 us between kernels, host synchronization,\n"
	"pageable copies, the unexplained rest; as gpuprof breakdown splits it),\n"
	"synchronous copies, and grids smaller than the number of SMs.\n"
	"Times at stake are disjoint: time two findings share is counted once,\n"
	"in the larger, and the other says so (\"shared\"; overlap_ns and\n"
	"overlaps in json/csv/tsv).  See docs/op-model.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_PEAKS | GP_OPT_JOBS |
		  GP_OPT_WINDOW,
	.many_files = true,
	.formats = advise_formats,
	.row_formats = true,
	.format_note = "(text for people; the others one row per finding)",
};

/* "finding" is the finding's place in the ranking; "rank" is always the
** distributed rank (several files: job_cols). */
static const struct gp_column cols[] = {
	{"finding", "#", 2, true, false, NULL},
	{"kind", "Kind", 12, false, false, NULL},
	{"time_ns", "At stake", 10, true, false, NULL, GP_UNIT_NS},
	{"share", "Share", 6, true, false, NULL},
	{"involved_ns", "Involved", 10, true, false, NULL, GP_UNIT_NS},
	{"count", "Count", 5, true, false, NULL},
	{"title", "Finding", 20, false, true, NULL},
	{"evidence", "Evidence", 20, false, true, NULL},
	{"change", "Change", 20, false, true, NULL},
	{"overlap_ns", "Shared", 10, true, false, NULL, GP_UNIT_NS},
	{"overlaps", "Shared with", 10, false, true, NULL},
};

/* Writes the first top findings as rows to w. */
static int write_rows(gp_writer *w, const struct gp_findings *f, size_t top)
{
	char rank[24], ns[32], share[16], inv[32], cnt[24], over[32];

	for (size_t i = 0; i < f->v.n && i < top; i++) {
		const struct gp_finding *x = &f->v.v[i];
		snprintf(rank, sizeof(rank), "%zu", i + 1);
		snprintf(ns, sizeof(ns), "%.0f", x->ns);
		snprintf(share, sizeof(share), "%.4f", f->capacity_ns > 0 ? x->ns / f->capacity_ns : 0.0);
		snprintf(inv, sizeof(inv), "%.0f", x->total_ns);
		snprintf(cnt, sizeof(cnt), "%zu", x->count);
		snprintf(over, sizeof(over), "%.0f", x->overlap_ns);
		const char *vals[] = {rank, x->kind, ns, share, inv, cnt, x->title, x->evidence, x->change,
				      over, x->overlaps};
		gp_writer_row(w, vals);
	}
	return GP_OK;
}

/* What advise does with each trace. */
struct job {
	const struct gp_cli_opts *co;
	bool text;
};

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
	return gp_analysis_run(t, GP_NEED_FINDINGS | more, &ao, a, err);
}

/* One file alone (gp_cli_many.single), as advise always did. */
static int advise_single(const void *ctx, const char *path)
{
	const struct job *j = ctx;
	gp_error err = {0};
	gp_writer w;
	gp_trace t;
	int rc;

	if (!j->text && gp_writer_open(&w, j->co->format, stdout, cols, NCOLS, &j->co->wo, &err))
		return gp_cli_usage("advise", "%s", err.msg);
	gp_trace_init(&t);
	rc = gp_cli_load(path, &j->co->window, &t, NULL);
	if (rc == GP_EXIT_OK) {
		struct gp_analysis a;
		int st = analyse(j, &t, 0, &a, &err);
		if (st == GP_OK)
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

/* Several files (gp_cli_trace_fn): the findings as rows, or the text as
** one cell; and the rank's record for the straggler finding. */
static const struct gp_column text_col = {"text", "Text", 0, false, false, NULL};

static int advise_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_analysis a;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = NULL;
	int rc = analyse(j, t, GP_NEED_RECORD, &a, err);

	if (rc == GP_OK && rec)
		gp_rank_record_put(&a.record, rec);
	if (rc == GP_OK && !j->text) {
		rc = write_findings(j, &a, NULL, w, err);
	} else if (rc == GP_OK && !(mem = open_memstream(&text, &len))) {
		rc = gp_err(err, GP_ERR_INTERNAL, "%s: cannot open a memory stream", gp_s(t, t->path));
	} else if (rc == GP_OK) {
		rc = write_findings(j, &a, mem, NULL, err);
		fclose(mem);
		if (rc == GP_OK)
			gp_writer_row(w, (const char *const *)&text);
		free(text);
	}
	gp_analysis_free(&a);
	return rc;
}

/* The straggler finding: the slowest rank, when its median step time is
** more than straggler_min_pct above the other ranks' median.  Its time at
** stake is what its steps took beyond the others' median step (the time
** every other rank waited for it in a synchronous job, counted once: it is
** the slowest rank's own step time, which its own findings explain). */
static const double straggler_min_pct = 2.0;

static bool straggler(const struct gp_cli_result *const *res, const struct gp_rank_record *const *rp,
		      size_t n, struct gp_finding *f, double *share)
{
	struct gp_ranks_cmp c;
	const struct gp_rank_record *s;
	double pct;
	gp_ns steps_time = 0;

	if (n < 2)
		return false;
	gp_ranks_compare(rp, n, &c);
	s = rp[c.slowest];
	pct = c.others_median > 0 ? 100.0 * (double)(s->step_median - c.others_median) / (double)c.others_median : 0;
	if (pct <= straggler_min_pct || c.at_stake <= 0)
		return false;
	for (size_t k = 0; k < s->nsteps; k++)
		steps_time += s->steps[k].time;
	memset(f, 0, sizeof(*f));
	f->kind = "straggler";
	f->ns = (double)c.at_stake;
	f->total_ns = (double)steps_time;
	f->count = c.steps;
	snprintf(f->title, sizeof(f->title), "rank %d is the straggler: its steps take %.1f%% longer than the other ranks'",
		 res[c.slowest]->id.rank, pct);
	snprintf(f->evidence, sizeof(f->evidence),
		 "median step %.3f ms on rank %d vs %.3f ms, the median of the other %zu ranks (fastest: rank %d, "
		 "%.3f ms); over the %zu steps it shares with them it ran %.3f ms beyond their median, which "
		 "the other ranks spend waiting in their next collective", (double)s->step_median / 1e6,
		 res[c.slowest]->id.rank, (double)c.others_median / 1e6, n - 1, res[c.fastest]->id.rank,
		 (double)rp[c.fastest]->step_median / 1e6, c.steps, (double)c.at_stake / 1e6);
	snprintf(f->change, sizeof(f->change),
		 "look at rank %d's own findings and its breakdown (gpuprof breakdown on its file) for "
		 "where its extra time goes: more work (uneven data or sharding), a slower GPU or link, "
		 "or host stalls; balance the load across ranks", res[c.slowest]->id.rank);
	*share = steps_time > 0 ? (double)c.at_stake / (double)steps_time : 0;
	return true;
}

static const struct gp_column job_rank_col = {"rank", "Rank", 4, true, false, "all"};

/* Several files: the straggler finding, then each rank's findings
** (gp_cli_reduce_fn; out NULL for text, which goes to stdout). */
static int advise_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n,
			 gp_writer *out, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_rank_record *rec = gp_xcalloc(n ? n : 1, sizeof(*rec));
	const struct gp_rank_record **rp = gp_xmalloc((n ? n : 1) * sizeof(*rp));
	struct gp_finding f;
	double share = 0;
	size_t got = 0;
	int rc = GP_OK;
	bool found;

	for (; got < n && rc == GP_OK; got++) {
		rc = gp_rank_record_read(&res[got]->record, &rec[got], err);
		rp[got] = &rec[got];
	}
	found = rc == GP_OK && straggler(res, rp, n, &f, &share);
	if (found && j->text) {
		printf("Across %zu ranks:\n  %s\n    %s\n    Change: %s\n    At stake: %.3f ms (%.1f%% of its steps)\n\n",
		       n, f.title, f.evidence, f.change, f.ns / 1e6, 100 * share);
	} else if (found) {
		char ns[32], sh[16], inv[32], cnt[24];
		snprintf(ns, sizeof(ns), "%.0f", f.ns);
		snprintf(sh, sizeof(sh), "%.4f", share);
		snprintf(inv, sizeof(inv), "%.0f", f.total_ns);
		snprintf(cnt, sizeof(cnt), "%zu", f.count);
		const char *row[NCOLS + 1] = {NULL, "1", f.kind, ns, sh, inv, cnt, f.title, f.evidence, f.change, "0", ""};
		gp_writer_row(out, row);
	}
	for (size_t i = 0; i < n && rc == GP_OK; i++) {
		char rank[16];
		snprintf(rank, sizeof(rank), "%d", res[i]->id.rank);
		if (j->text) {
			const char *text = res[i]->rows.len > 1 ? res[i]->rows.data + 1 : "";
			printf("== rank %d: %s ==\n%s%s", res[i]->id.rank, res[i]->path, text,
			       i + 1 < n ? "\n" : "");
		} else {
			rc = gp_rowbuf_replay(&res[i]->rows, out, rank, err);
		}
	}
	for (size_t i = 0; i < got; i++)
		gp_rank_record_free(&rec[i]);
	free(rp);
	free(rec);
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

	rc = gp_cli_parse(&advise_spec, argc, argv, &o, NULL, NULL);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.text = strcmp(o.format, "text") == 0;
	if (!j.text && gp_writer_open(&w, o.format, stdout, cols, NCOLS, &o.wo, &err))
		return gp_cli_usage("advise", "%s", err.msg);
	out_cols[0] = job_rank_col;
	memcpy(out_cols + 1, cols, sizeof(cols));
	m.cols = j.text ? &text_col : cols;
	m.ncols = j.text ? 1 : NCOLS;
	m.out_cols = j.text ? NULL : out_cols;
	m.out_ncols = NCOLS + 1;
	return gp_cli_run(&m, &o);
}
