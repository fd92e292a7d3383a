/*
** gpuprof ranks: the cross-rank view of a distributed job's traces (one
** file per rank).  Each file is reduced to a small record (its time
** breakdown's sums, step times and collectives, src/analysis/ranks.h) on a
** worker; the records are compared here (gp_rank_job).  Views:
**   ranks   one row per rank: steps, median step time, how much slower than
**           the fastest rank, compute / communication / memory / idle, and
**           at the collectives matched on every rank its wait, the wait it
**           caused the others and the calls it arrived last at; the
**           straggler (gp_coll_straggler: the rank the others waited for)
**           is marked;
**   steps   one row per iteration: the median, fastest and slowest rank
**           and the skew between them (facts about steps: a slow step is
**           no straggler);
**   critical the job's critical path across ranks (analysis/jobpath.h):
**           its length, then per rank the time it holds on it, by cause
**           and op.
** gpuprof comm has the collectives' own views.  docs/ranks.md.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/coll_a2a.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/writer.h"

static const struct gp_cmd_opt ranks_own[] = {
	{"view", 'V', "V", "ranks (default): one row per rank; steps: one row\n"
	 "per iteration with its slowest and fastest rank; critical: the job's\n"
	 "critical path across ranks, per rank by cause and op"},
	{NULL, 0, NULL, NULL},
};

static const struct gp_cmd_spec ranks_spec = {
	.name = "ranks",
	.about =
	"The cross-rank view of a distributed job: give one trace per rank (files,\n"
	"a directory or a glob).  Per rank: its steps (ProfilerStep#N, NVTX\n"
	"'iteration N', libgpuprof iterations: first to last GPU work of the\n"
	"iteration; without iterations the whole span is one step), the median\n"
	"step time and how much slower it is than the fastest rank's, and its\n"
	"compute, communication, memory and idle time (breakdown's definitions,\n"
	"summed over its GPUs); at the collectives matched on every rank (as\n"
	"gpuprof comm matches them), its wait, the wait it caused the others and\n"
	"the calls it arrived last at.  The straggler is the rank the others\n"
	"waited for longest, never the one with the slowest step (in a\n"
	"synchronised job that one waits least).  --view steps: per iteration,\n"
	"which rank's step was slowest and by how much.  --view critical: the job's\n"
	"critical path, walked back from its end through each rank's own path and,\n"
	"at a collective where a rank waited, on from the rank that arrived last:\n"
	"its length (rank all), then the time each rank holds on it by cause and\n"
	"op (crossing ranks needs collectives matched on every rank).  One file\n"
	"works too.\n"
	"Definitions: docs/ranks.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_JOBS | GP_OPT_WINDOW,
	.row_formats = true,
	.format_note = "(times in ns except in the table)",
	.top_help = "at most N rows (a positive number; default all): the\n"
		    "N ranks with the longest median step and the straggler\n"
		    "(in rank order), the N iterations of most skew, each\n"
		    "rank's N longest causes and ops on the critical path",
	.own = ranks_own,
	.many_files = true,
};

enum view { VIEW_RANKS, VIEW_STEPS, VIEW_CRITICAL };

static const struct gp_column rank_cols[] = {
	{"rank", "Rank", 4, true, false, NULL},
	{"rank_from", "From", 4, false, false, NULL},
	{"steps", "Steps", 5, true, false, NULL},
	{"step_median_ns", "Median step", 10, true, false, NULL, GP_UNIT_NS},
	{"vs_fastest_ns", "vs fastest", 10, true, false, NULL, GP_UNIT_NS},
	{"vs_fastest_pct", "Slower by", 5, true, false, NULL, GP_UNIT_PCT},
	{"span_ns", "Span", 10, true, false, NULL, GP_UNIT_NS},
	{"compute_ns", "Compute", 10, true, false, NULL, GP_UNIT_NS},
	{"communication_ns", "Comm", 10, true, false, NULL, GP_UNIT_NS},
	{"memory_ns", "Memory", 10, true, false, NULL, GP_UNIT_NS},
	{"idle_ns", "Idle", 10, true, false, NULL, GP_UNIT_NS},
	{"wait_ns", "Waited", 10, true, false, "-", GP_UNIT_NS},
	{"caused_ns", "Caused", 10, true, false, "-", GP_UNIT_NS},
	{"last", "Last", 4, true, false, "-"},
	{"role", "Role", 9, false, false, ""},
	{"a2a_sent_bytes", "A2A sent", 8, true, false, "-", GP_UNIT_BYTES},
	{"a2a_vs_mean", "A2A/mean", 5, true, false, "-"},
	{"file", "File", 10, false, true, NULL},
};

static const struct gp_column step_cols[] = {
	{"iteration", "Iter", 4, true, false, "all"},
	{"ranks", "Ranks", 5, true, false, NULL},
	{"median_ns", "Median", 10, true, false, NULL, GP_UNIT_NS},
	{"fastest_rank", "Fastest", 4, true, false, NULL},
	{"fastest_ns", "Fastest time", 10, true, false, NULL, GP_UNIT_NS},
	{"slowest_rank", "Slowest", 4, true, false, NULL},
	{"slowest_ns", "Slowest time", 10, true, false, NULL, GP_UNIT_NS},
	{"skew_ns", "Skew", 10, true, false, NULL, GP_UNIT_NS},
	{"skew_pct", "Skew share", 6, true, false, NULL, GP_UNIT_PCT},
};

static const struct gp_column crit_cols[] = {
	{"rank", "Rank", 4, true, false, "all"},
	{"cause", "Cause", 10, false, false, "all"},
	{"op", "Op", 24, false, true, "(all)"},
	{"time_ns", "Time", 10, true, false, NULL, GP_UNIT_NS},
	{"pct", "Share", 6, true, false, NULL, GP_UNIT_PCT},
	{"entered", "Entered", 7, true, false, ""},
};

#define NCOL(c) ((int)(sizeof(c) / sizeof((c)[0])))

struct job {
	enum view view;
	size_t top;             /* -n; SIZE_MAX: all */
	bool *straggler_shown;  /* set when a row says "straggler" (the table's note) */
};

static const char straggler_note[] =
	"straggler: the rank the others wait for at collectives (arrives last), not necessarily the slowest";

/* Each file: its record as the rows (gp_cli_trace_fn). */
static int ranks_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *jb = ctx;
	struct gp_analysis a;
	int rc = gp_analysis_run(t, jb->view == VIEW_CRITICAL ? GP_NEED_RANK_PATH : GP_NEED_RECORD, NULL, &a, err);

	if (rc == GP_OK)
		gp_rank_record_put(&a.record, w);
	gp_analysis_free(&a);
	return rc;
}

static void cell_time(char *buf, size_t size, gp_ns ns)
{
	snprintf(buf, size, "%" PRId64, ns);
}

/* Which of n rows to show: the top with the largest key[] (ties: the
** earlier row), and row always when >= 0; all when top >= n.  Returns a
** mask the caller frees. */
static bool *top_rows(const gp_ns *key, size_t n, size_t top, long always)
{
	bool *keep = gp_xcalloc(n ? n : 1, sizeof(*keep));

	for (size_t i = 0; i < n; i++) {
		size_t above = 0;
		for (size_t k = 0; k < n && above < top; k++)
			above += key[k] > key[i] || (key[k] == key[i] && k < i);
		keep[i] = above < top || (long)i == always;
	}
	return keep;
}

/* One row per rank; the figures at collectives unknown (empty) when no
** collective is matched on every rank; the all-to-all bytes it sends and
** their ratio to the ranks' mean (coll_a2a.h) empty when it sends none of
** known size. */
static void write_ranks(gp_writer *w, const struct gp_cli_result *const *res, const struct gp_rank_job *j, size_t top,
			bool *straggler_shown)
{
	const struct gp_ranks_cmp *c = &j->steps;
	bool arrivals = j->coll.ncomplete > 0;
	gp_ns *step = gp_xmalloc((j->n ? j->n : 1) * sizeof(*step));

	for (size_t i = 0; i < j->n; i++)
		step[i] = j->rec[i].step_median;
	bool *keep = top_rows(step, j->n, top, j->straggler);
	struct gp_a2a a;
	uint64_t sent_all = 0;

	gp_a2a_of_job(j, &a);
	for (size_t i = 0; i < a.nranks; i++)
		sent_all += a.ranks[i].sent;
	*straggler_shown = j->straggler >= 0;
	for (size_t i = 0; i < j->n; i++) {
		if (!keep[i])
			continue;
		const struct gp_rank_record *r = &j->rec[i];
		const struct gp_coll_rank_stats *cs = &j->coll.ranks[i];
		gp_ns fastest = j->rec[c->fastest].step_median, vs = r->step_median - fastest;
		bool a2a = a.ranks[i].sent > 0;
		char v[16][48];
		const char *row[18] = {v[0], gp_rank_source_name(res[i]->id.source), v[1], v[2], v[3], v[4], v[5],
				       v[6], v[7], v[8], v[9], arrivals ? v[10] : NULL, arrivals ? v[11] : NULL,
				       arrivals ? v[12] : NULL, (int)i == j->straggler ? "straggler" : NULL,
				       a2a ? v[13] : NULL, a2a ? v[14] : NULL, res[i]->path};
		snprintf(v[0], 48, "%d", res[i]->id.rank);
		snprintf(v[1], 48, "%zu", r->nsteps);
		cell_time(v[2], 48, r->step_median);
		cell_time(v[3], 48, vs);
		snprintf(v[4], 48, "%.2f", fastest > 0 ? 100.0 * (double)vs / (double)fastest : 0.0);
		cell_time(v[5], 48, r->span);
		cell_time(v[6], 48, r->compute);
		cell_time(v[7], 48, r->comm);
		cell_time(v[8], 48, r->memory);
		cell_time(v[9], 48, r->idle);
		cell_time(v[10], 48, cs->wait);
		cell_time(v[11], 48, cs->caused);
		snprintf(v[12], 48, "%" PRIu64, cs->times_last);
		snprintf(v[13], 48, "%" PRIu64, a.ranks[i].sent);
		snprintf(v[14], 48, "%.3f", (double)a.ranks[i].sent * (double)a.nranks / (double)(sent_all ? sent_all : 1));
		gp_writer_row(w, row);
	}
	gp_a2a_free(&a);
	free(keep);
	free(step);
}

static void write_steps(gp_writer *w, const struct gp_cli_result *const *res, const struct gp_rank_job *j,
			size_t top)
{
	size_t niters;
	int32_t *iters = gp_ranks_iters(j->rp, j->n, &niters);
	gp_ns *skew = gp_xmalloc((niters ? niters : 1) * sizeof(*skew));

	for (size_t k = 0; k < niters; k++) {
		struct gp_step_cmp c;
		gp_ranks_step(j->rp, j->n, iters[k], &c);
		skew[k] = c.slowest_ns - c.fastest_ns;
	}
	bool *keep = top_rows(skew, niters, top, -1);
	for (size_t k = 0; k < niters; k++) {
		struct gp_step_cmp c;
		char v[9][48];
		const char *row[9] = {iters[k] >= 0 ? v[0] : NULL, v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
		if (!keep[k])
			continue;
		gp_ranks_step(j->rp, j->n, iters[k], &c);
		snprintf(v[0], 48, "%d", iters[k]);
		snprintf(v[1], 48, "%zu", c.have);
		cell_time(v[2], 48, c.median);
		snprintf(v[3], 48, "%d", res[c.fastest]->id.rank);
		cell_time(v[4], 48, c.fastest_ns);
		snprintf(v[5], 48, "%d", res[c.slowest]->id.rank);
		cell_time(v[6], 48, c.slowest_ns);
		cell_time(v[7], 48, c.slowest_ns - c.fastest_ns);
		snprintf(v[8], 48, "%.2f", c.fastest_ns > 0 ? 100.0 * (double)(c.slowest_ns - c.fastest_ns) / (double)c.fastest_ns : 0.0);
		gp_writer_row(w, row);
	}
	free(keep);
	free(skew);
	free(iters);
}

static void cell_pct(char *buf, size_t size, gp_ns ns, gp_ns of)
{
	snprintf(buf, size, "%.2f", of > 0 ? 100.0 * (double)ns / (double)of : 0.0);
}

/* The job's critical path: its length (rank and cause "all"), then per
** rank its time on it (cause "all", with the times the path came to it
** from a rank that waited for it) and its rows by cause and op.  Nothing
** but a note when the traces cannot tell. */
static void write_critical(gp_writer *w, const struct gp_cli_result *const *res, const struct gp_rank_job *j,
			   size_t top)
{
	struct gp_job_path p;
	gp_ns len;
	char v[4][48];
	size_t k = 0;

	gp_job_path_run(j, &p);
	if (!p.known) {
		fprintf(stderr, "gpuprof ranks: note: no critical path across the ranks: %s\n", p.why);
		gp_job_path_free(&p);
		return;
	}
	if (j->n > 1 && !gp_job_path_meets_collective(&p, j->n))
		fprintf(stderr, "gpuprof ranks: note: the critical path reaches no collective: from the job's end the "
			"traces record nothing the CPU waited for on the GPU (no synchronization), so it stays on "
			"rank %d and cannot tell who waited for whom (the straggler by arrival: gpuprof ranks)\n",
			res[p.end_rank]->id.rank);
	len = p.end - p.start;
	cell_time(v[0], 48, len);
	gp_writer_row(w, (const char *[]){NULL, NULL, NULL, v[0], "100.00", NULL});
	for (size_t r = 0; r < j->n; r++) {
		snprintf(v[0], 48, "%d", res[r]->id.rank);
		cell_time(v[1], 48, p.ranks[r].held);
		cell_pct(v[2], 48, p.ranks[r].held, len);
		snprintf(v[3], 48, "%" PRIu32, p.ranks[r].entered);
		gp_writer_row(w, (const char *[]){v[0], NULL, NULL, v[1], v[2], v[3]});
		for (size_t shown = 0; k < p.nrows && p.rows[k].rank == r; k++) {
			const struct gp_job_row *x = &p.rows[k];
			if (shown++ >= top)
				continue;
			cell_time(v[1], 48, x->ns);
			cell_pct(v[2], 48, x->ns, len);
			gp_writer_row(w, (const char *[]){v[0], gp_cause_name(x->cause), *x->op ? x->op : "(none)",
							  v[1], v[2], ""});
		}
	}
	gp_job_path_free(&p);
}

/* The records back from the kept rows, compared (gp_cli_reduce_fn). */
static int ranks_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n,
			gp_writer *out, gp_error *err)
{
	const struct job *jb = ctx;
	struct gp_rank_job j;
	int rc = gp_cli_rank_job(res, n, true, &j, err);

	if (rc == GP_OK && jb->view == VIEW_STEPS)
		write_steps(out, res, &j, jb->top);
	else if (rc == GP_OK && jb->view == VIEW_CRITICAL)
		write_critical(out, res, &j, jb->top);
	else if (rc == GP_OK)
		write_ranks(out, res, &j, jb->top, jb->straggler_shown);
	gp_rank_job_free(&j);
	return rc;
}

static int ranks_option(void *ctx, int index, const char *arg)
{
	struct job *j = ctx;

	if (strcmp(arg, "ranks") == 0)
		j->view = VIEW_RANKS;
	else if (strcmp(arg, "steps") == 0)
		j->view = VIEW_STEPS;
	else if (strcmp(arg, "critical") == 0)
		j->view = VIEW_CRITICAL;
	else
		return gp_cli_usage("ranks", "--view wants ranks, steps or critical, not '%s'", arg);
	return 0;
}

int cmd_ranks(int argc, char **argv)
{
	bool straggler_shown = false;
	struct job j = {.view = VIEW_RANKS, .straggler_shown = &straggler_shown};
	struct gp_cli_many m = {.cmd = "ranks", .fn = ranks_trace, .ctx = &j, .cols = gp_rank_record_cols,
				.ncols = GP_RANK_RECORD_NCOLS, .reduce = ranks_reduce};
	struct gp_cli_opts co;
	int rc;

	rc = gp_cli_parse(&ranks_spec, argc, argv, &co, ranks_option, &j);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.top = co.top;
	m.out_cols = j.view == VIEW_STEPS ? step_cols : j.view == VIEW_CRITICAL ? crit_cols : rank_cols;
	m.out_ncols = j.view == VIEW_STEPS ? NCOL(step_cols) : j.view == VIEW_CRITICAL ? NCOL(crit_cols)
		    : NCOL(rank_cols);
	rc = gp_cli_run(&m, &co);
	/* the table is for people: what the Role column's word means (the
	** straggler is often the fastest rank, as the others wait for it) */
	if (rc == GP_EXIT_OK && straggler_shown && strcmp(co.format, "table") == 0)
		puts(straggler_note);
	return rc;
}
