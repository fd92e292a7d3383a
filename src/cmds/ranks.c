/*
** gpuprof ranks: the cross-rank view of a distributed job's traces (one
** file per rank).  Each file is reduced to a small record (its time
** breakdown's sums and step times, src/analysis/ranks.h) on a worker; the
** records are compared here.  Views:
**   ranks   one row per rank: steps, median step time, how much slower than
**           the fastest rank, compute / communication / memory / idle;
**   steps   one row per iteration: the median, fastest and slowest rank
**           and the skew between them.
** The collectives section (matching collectives across ranks, sync skew vs
** communication, bandwidths) plugs in here as a third view over its own
** per-rank records: see "collectives" below.  docs/ranks.md.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/writer.h"

static const struct gp_cmd_opt ranks_own[] = {
	{"view", 'V', "V", "ranks (default): one row per rank; steps: one row\n"
	 "per iteration with its slowest and fastest rank"},
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
	"summed over its GPUs).  The slowest and fastest rank are marked; the\n"
	"skew is the slowest median minus the fastest.  --view steps: per\n"
	"iteration, which rank was slowest and by how much.  One file works too.\n"
	"Definitions: docs/ranks.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_JOBS | GP_OPT_WINDOW,
	.row_formats = true,
	.format_note = "(times in ns except in the table)",
	.own = ranks_own,
	.many_files = true,
};

/* The views; a "collectives" view (the collective records matched across
** ranks) joins here with its own columns and reduce. */
enum view { VIEW_RANKS, VIEW_STEPS };


static const struct gp_column rank_cols[] = {
	{"rank", "Rank", 4, true, false, NULL},
	{"rank_from", "From", 4, false, false, NULL},
	{"steps", "Steps", 5, true, false, NULL},
	{"step_median_ns", "Median step", 10, true, false, NULL, GP_UNIT_NS},
	{"vs_fastest_ns", "vs fastest", 10, true, false, NULL, GP_UNIT_NS},
	{"vs_fastest_pct", "+%", 5, true, false, NULL},
	{"span_ns", "Span", 10, true, false, NULL, GP_UNIT_NS},
	{"compute_ns", "Compute", 10, true, false, NULL, GP_UNIT_NS},
	{"communication_ns", "Comm", 10, true, false, NULL, GP_UNIT_NS},
	{"memory_ns", "Memory", 10, true, false, NULL, GP_UNIT_NS},
	{"idle_ns", "Idle", 10, true, false, NULL, GP_UNIT_NS},
	{"role", "Role", 7, false, false, ""},
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
	{"skew_pct", "Skew %", 6, true, false, NULL},
};

#define NCOL(c) ((int)(sizeof(c) / sizeof((c)[0])))

struct job {
	enum view view;
	bool table;
};

/* Each file: its record as the rows (gp_cli_trace_fn). */
static int ranks_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	struct gp_analysis a;
	int rc = gp_analysis_run(t, GP_NEED_RECORD, NULL, &a, err);

	if (rc == GP_OK)
		gp_rank_record_put(&a.record, w);
	gp_analysis_free(&a);
	return rc;
}

static void cell_time(char *buf, size_t size, gp_ns ns, bool table)
{
	if (table)
		gp_fmt_duration((double)ns, buf, size);
	else
		snprintf(buf, size, "%" PRId64, ns);
}

static void write_ranks(gp_writer *w, const struct gp_cli_result *const *res,
			struct gp_rank_record *rec, const struct gp_rank_record *const *rp, size_t n,
			bool table)
{
	struct gp_ranks_cmp c;

	gp_ranks_compare(rp, n, &c);
	for (size_t i = 0; i < n; i++) {
		const struct gp_rank_record *r = &rec[i];
		gp_ns fastest = rec[c.fastest].step_median, vs = r->step_median - fastest;
		char v[11][48];
		const char *role = n < 2 || c.skew == 0 ? NULL : i == c.slowest ? "slowest"
				 : i == c.fastest ? "fastest" : NULL;
		const char *row[13] = {v[0], gp_rank_source_name(res[i]->id.source), v[1], v[2], v[3],
				       v[4], v[5], v[6], v[7], v[8], v[9], role, res[i]->path};
		snprintf(v[0], 48, "%d", res[i]->id.rank);
		snprintf(v[1], 48, "%zu", r->nsteps);
		cell_time(v[2], 48, r->step_median, table);
		cell_time(v[3], 48, vs, table);
		snprintf(v[4], 48, "%.2f", fastest > 0 ? 100.0 * (double)vs / (double)fastest : 0.0);
		cell_time(v[5], 48, r->span, table);
		cell_time(v[6], 48, r->compute, table);
		cell_time(v[7], 48, r->comm, table);
		cell_time(v[8], 48, r->memory, table);
		cell_time(v[9], 48, r->idle, table);
		gp_writer_row(w, row);
	}
}

static int by_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

static void write_steps(gp_writer *w, const struct gp_cli_result *const *res,
			const struct gp_rank_record *const *rp, size_t n, bool table)
{
	GP_VEC(int32_t) iters = {0};

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < rp[i]->nsteps; k++)
			*gp_vec_push(iters) = rp[i]->steps[k].iter;
	if (iters.n)
		qsort(iters.v, iters.n, sizeof(*iters.v), by_i32);
	for (size_t k = 0; k < iters.n; k++) {
		struct gp_step_cmp c;
		char v[9][48];
		const char *row[9] = {iters.v[k] >= 0 ? v[0] : NULL, v[1], v[2], v[3], v[4], v[5], v[6],
				      v[7], v[8]};
		if (k && iters.v[k] == iters.v[k - 1])
			continue;
		gp_ranks_step(rp, n, iters.v[k], &c);
		snprintf(v[0], 48, "%d", iters.v[k]);
		snprintf(v[1], 48, "%zu", c.have);
		cell_time(v[2], 48, c.median, table);
		snprintf(v[3], 48, "%d", res[c.fastest]->id.rank);
		cell_time(v[4], 48, c.fastest_ns, table);
		snprintf(v[5], 48, "%d", res[c.slowest]->id.rank);
		cell_time(v[6], 48, c.slowest_ns, table);
		cell_time(v[7], 48, c.slowest_ns - c.fastest_ns, table);
		snprintf(v[8], 48, "%.2f", c.fastest_ns > 0 ? 100.0 * (double)(c.slowest_ns - c.fastest_ns) / (double)c.fastest_ns : 0.0);
		gp_writer_row(w, row);
	}
	gp_vec_free(iters);
}

/* The records back from the kept rows, compared (gp_cli_reduce_fn). */
static int ranks_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n,
			gp_writer *out, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_rank_record *rec = gp_xcalloc(n ? n : 1, sizeof(*rec));
	const struct gp_rank_record **rp = gp_xmalloc((n ? n : 1) * sizeof(*rp));
	int rc = GP_OK;
	size_t got = 0;

	for (; got < n && rc == GP_OK; got++) {
		rc = gp_rank_record_read(&res[got]->rows, &rec[got], err);
		rp[got] = &rec[got];
	}
	if (rc == GP_OK && j->view == VIEW_STEPS)
		write_steps(out, res, rp, n, j->table);
	else if (rc == GP_OK)
		write_ranks(out, res, rec, rp, n, j->table);
	for (size_t i = 0; i < got; i++)
		gp_rank_record_free(&rec[i]);
	free(rp);
	free(rec);
	return rc;
}

static int ranks_option(void *ctx, int index, const char *arg)
{
	struct job *j = ctx;

	if (strcmp(arg, "ranks") == 0)
		j->view = VIEW_RANKS;
	else if (strcmp(arg, "steps") == 0)
		j->view = VIEW_STEPS;
	else
		return gp_cli_usage("ranks", "--view wants ranks or steps, not '%s'", arg);
	return 0;
}

int cmd_ranks(int argc, char **argv)
{
	struct job j = {.view = VIEW_RANKS};
	struct gp_cli_many m = {.cmd = "ranks", .fn = ranks_trace, .ctx = &j, .cols = gp_rank_record_cols,
				.ncols = GP_RANK_RECORD_NCOLS, .reduce = ranks_reduce};
	struct gp_cli_opts co;
	int rc;

	rc = gp_cli_parse(&ranks_spec, argc, argv, &co, ranks_option, &j);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.table = strcmp(co.format, "table") == 0;
	m.out_cols = j.view == VIEW_STEPS ? step_cols : rank_cols;
	m.out_ncols = j.view == VIEW_STEPS ? NCOL(step_cols) : NCOL(rank_cols);
	return gp_cli_run(&m, &co);
}
