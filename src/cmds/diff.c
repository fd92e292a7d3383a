/*
** gpuprof diff BASE TEST: what changed between two runs, per kernel, op,
** layer or iteration, with per-iteration statistics and a CI gate
** (--fail-if, exit code 5).  The comparison is src/analysis/diff.c; this
** file loads, hands the op model's per-kernel figures over, writes the rows
** and judges the gates (docs/diff.md).
*/
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "analysis/collectives.h"
#include "analysis/critpath.h"
#include "analysis/diff.h"
#include "analysis/diff_facts.h"
#include "analysis/jobpath.h"
#include "analysis/layers.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "util/demangle.h"
#include "util/fmt.h"
#include "util/u64map.h"
#include "writers/html_diff.h"
#include "writers/sink.h"
#include "writers/writer.h"

#define MAX_GATES 32

static const struct gp_cmd_opt diff_own[] = {
	{"by", 'b', "G", "group kernel time by: kernel (default: the demangled\n"
	 "name, matched across formats), op, layer, module-type\n"
	 "(the layer's module class: Block_3 counts as Block) or\n"
	 "iter; rank: each rank's step and compute time"},
	{"fail-if", 0, "EXPR", "exit 5 when a change crosses a limit: step>+5%,\n"
	 "total>+3%, op:PATTERN>+10%, kernel:PATTERN>+1ms,\n"
	 "layer:PATTERN<-5%, rank:PATTERN>+5% (PATTERN a\n"
	 "glob; repeatable)"},
	{"no-stats", 0, NULL, "compare totals against --threshold only; any\n"
	 "crossing trips --fail-if, significant or not"},
	{"threshold", 't', "PCT", "smallest change that counts as one (default 2)"},
	{"resamples", 0, "N", "bootstrap resamples (default 2000)"},
	{"seed", 0, "S", "bootstrap seed (default 1; same seed, same output)"},
	{"output", 'o', "FILE", "-f html: write the page to FILE (- : standard output)"},
	{"force", 0, NULL, "-f html: overwrite an existing FILE"},
	{"chart-js", 0, "JS", GP_CLI_CHARTJS_HELP},
	{"all", 0, NULL, "table: the groups within noise too (by default\n"
	 "one line counts them)"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_BY, OWN_FAIL_IF, OWN_NO_STATS, OWN_THRESHOLD, OWN_RESAMPLES, OWN_SEED, OWN_OUTPUT, OWN_FORCE,
       OWN_CHARTJS, OWN_ALL };

static const char *const diff_formats[] = {"table", "html", NULL};

static const struct gp_cmd_spec diff_spec = {
	.name = "diff",
	.about =
	"What changed between two runs of the same program: per kernel, op, layer\n"
	"or iteration, the GPU time in each run, the change, calls, GFLOPs,\n"
	"efficiency and tensor-core use before and after, and groups that appear\n"
	"or disappear; first the step time (GPU span of an iteration) and the\n"
	"total kernel time, then the groups by the size of their change.  When\n"
	"both runs hold 4 or more iterations, the change is that of the median\n"
	"per iteration, with a 95% interval (bootstrap), and each is marked\n"
	"significant or within noise; otherwise the totals are compared and a\n"
	"change of at least --threshold is marked (docs/diff.md).\n\n"
	"BASE and TEST are each a trace file, or a directory or a quoted glob of\n"
	"one run's rank files (any formats).  Each file is read (-j at a time),\n"
	"reduced to its per-group and per-iteration figures and freed.  A run's\n"
	"times per iteration are sums over its ranks, its step time the slowest\n"
	"rank's; --by rank compares each rank's step and compute time, ranks\n"
	"matched by number.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_PEAKS | GP_OPT_WINDOW |
		  GP_OPT_JOBS | GP_OPT_DEPTH | GP_OPT_NAMES,
	.formats = diff_formats,
	.row_formats = true,
	.format_note = "(times in ns except in the table; html: one page, -o FILE)",
	.own = diff_own,
	.more =
	"Columns (csv, tsv, json): kind (step, total, group), status (same,\n"
	"changed, new, gone), base_ns/test_ns (totals), delta_ns, delta_pct,\n"
	"change_ns/change_pct (of the medians per iteration with statistics, else\n"
	"of the totals), ci_lo_ns, ci_hi_ns, verdict (significant, within noise,\n"
	"above threshold, below threshold), base_calls, test_calls, base_med_ns,\n"
	"test_med_ns, base_iqr_ns, test_iqr_ns, base_gflop, test_gflop, base_eff,\n"
	"test_eff (ideal/measured), base_tc, test_tc (yes, no, mixed), name.\n"
	"The table's Base and Test are those medians when there are statistics,\n"
	"else the totals.  -n limits the groups; the step and total rows always\n"
	"come first.\n"
	"With --fail-if, one line on stderr says PASS or FAIL and why.\n"
	"-f html -o FILE: one self-contained page (Chart.js inlined): the verdict,\n"
	"both runs' step times per iteration, the groups with their change, CI\n"
	"and verdict, the new and gone groups, the gates.\n"
	"Examples: gpuprof diff base.json test.json\n"
	"          gpuprof diff -j 4 'base/rank-*.json' test/ --fail-if 'step>+5%'",
	.two_files = "BASE TEST",
};

struct opts {
	struct gp_diff_opts d;
	struct gp_layer_view layers;   /* --depth, --by module-type */
	struct gp_diff_gate gates[MAX_GATES];
	int ngates;
	const char *out;         /* -f html: -o */
	bool force;
	const char *chartjs;
	bool all;                /* --all: the table's rows within noise too */
};


/* A number in [lo, hi], or NAN. */
static double number_in(const char *s, double lo, double hi)
{
	char *end;
	double v = strtod(s, &end);

	return end != s && !*end && v >= lo && v <= hi ? v : NAN;
}

static int diff_option(void *ctx, int index, const char *arg)
{
	struct opts *o = ctx;
	gp_error err = {0};
	double v;

	switch (index) {
	case OWN_BY:
		o->layers.module_type = strcmp(arg, "module-type") == 0;
		if (o->layers.module_type) {
			o->d.by = GP_DIFF_BY_LAYER;
			return 0;
		}
		for (int i = 0; i < GP_DIFF_NBY; i++)
			if (strcmp(arg, gp_diff_by_names[i]) == 0) {
				o->d.by = i;
				return 0;
			}
		return gp_cli_usage("diff", "--by wants kernel, op, layer, module-type, iter or rank, not '%s'", arg);
	case OWN_FAIL_IF:
		if (o->ngates == MAX_GATES)
			return gp_cli_usage("diff", "at most %d --fail-if", MAX_GATES);
		if (gp_diff_gate_parse(arg, &o->gates[o->ngates], &err))
			return gp_cli_usage("diff", "%s", err.msg);
		o->ngates++;
		return 0;
	case OWN_NO_STATS:
		o->d.stats = false;
		return 0;
	case OWN_THRESHOLD:
		v = number_in(arg, 0, 1e6);
		if (isnan(v))
			return gp_cli_usage("diff", "bad --threshold '%s' (a percentage, e.g. 2)", arg);
		o->d.threshold = v / 100;
		return 0;
	case OWN_RESAMPLES:
		v = number_in(arg, 100, 1000000);
		if (isnan(v) || v != floor(v))
			return gp_cli_usage("diff", "bad --resamples '%s' (100 to 1000000)", arg);
		o->d.resamples = (int)v;
		return 0;
	case OWN_SEED:
		v = number_in(arg, 0, 1e18);
		if (isnan(v) || v != floor(v))
			return gp_cli_usage("diff", "bad --seed '%s' (a non-negative integer)", arg);
		o->d.seed = (uint64_t)v;
		return 0;
	case OWN_OUTPUT:
		o->out = arg;
		return 0;
	case OWN_FORCE:
		o->force = true;
		return 0;
	case OWN_CHARTJS:
		o->chartjs = arg;
		return 0;
	case OWN_ALL:
		o->all = true;
		return 0;
	}
	return 0;
}

/* A run's straggler by arrival (--by rank): the rank the others waited
** for at the collectives matched on every rank file of the run. */
struct straggler {
	size_t ranks;            /* rank files (0: one file, nothing to match) */
	size_t calls;            /* collectives matched on every rank */
	int rank;                /* -1: none (gp_coll_straggler names none, or nothing matched) */
	uint64_t last;           /* the calls it arrived last at */
	gp_ns caused, late;      /* the others' wait for it; its lateness */
	gp_ns path;              /* the job's critical path (0: not known) */
	int path_rank;           /* the rank holding most of it */
	double path_pct;         /* its share */
	bool path_coll;          /* it reaches a collective (else it cannot tell) */
};

/* What the file workers and the reduce share: the groupings asked for, the
** peaks, and the run the reduce adds to (one gp_diff_run_in per grouping)
** with its straggler. */
struct job {
	bool need[GP_DIFF_NBY];
	struct gp_diff_facts *facts;          /* the run being read */
	const struct gp_layer_view *layers;   /* how layer paths are read */
	const struct gp_peak_opts *peaks;
	struct gp_diff_run_in *run;   /* [GP_DIFF_NBY] */
	struct straggler *straggler;
};

/* A file's work on a worker thread: the op model, then one part per
** grouping asked for, written as kept rows, and for --by rank its
** collectives to rec (several files); the trace is freed after. */
static int diff_trace(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct job *j = ctx;
	struct gp_analysis_opts ao;
	struct gp_analysis a;
	int rc;

	gp_analysis_opts_init(&ao);
	ao.peaks = *j->peaks;
	ao.layers = *j->layers;
	/* several files, --by rank: the rank's record with its collectives and
	** its critical path's legs (the straggler and the job's path); --by
	** layer: the layers under --depth/module-type */
	rc = gp_analysis_run(t, GP_NEED_OPS | GP_NEED_STEPS | GP_NEED_GAP_CAUSES | (rec ? GP_NEED_RANK_PATH : 0) |
			     (j->need[GP_DIFF_BY_LAYER] ? GP_NEED_LAYERS : 0), &ao, &a, err);
	if (rc == GP_OK && rec)
		gp_rank_record_put(&a.record, rec);
	struct gp_diff_facts facts;
	gp_diff_facts_of(t, &facts);
	gp_diff_facts_put(&facts, w);
	/* no GPU work: no part, the run has no ranks (cmd_diff says so) */
	if (!t->kernels.n && !t->memcpys.n && !t->memsets.n) {
		gp_analysis_free(&a);
		return rc;
	}
	for (int by = 0; by < GP_DIFF_NBY && rc == GP_OK; by++) {
		struct gp_diff_part p;
		if (!j->need[by])
			continue;
		gp_diff_part_make(t, &a.ops, &a.steps, &a.breakdown, by, &p);
		gp_diff_part_put(&p, w);
		gp_diff_part_free(&p);
	}
	gp_analysis_free(&a);
	return rc;
}

/* The straggler of a run's files res[0..n) (their records, in rank
** order) into *s, as advise and ranks name it (by arrival), with where the
** job's critical path runs. */
static int run_straggler(const struct gp_cli_result *const *res, size_t n, struct straggler *s, gp_error *err)
{
	struct gp_rank_job j;
	struct gp_job_path p;
	int rc = gp_cli_rank_job(res, n, false, &j, err);

	if (rc != GP_OK)
		return rc;
	*s = (struct straggler){.ranks = n, .calls = j.coll.ncomplete, .rank = -1, .path_rank = -1};
	if (j.straggler >= 0) {
		const struct gp_coll_rank_stats *x = &j.coll.ranks[j.straggler];
		s->rank = x->rank;
		s->last = x->times_last;
		s->caused = x->caused;
		s->late = x->late;
	}
	gp_job_path_run(&j, &p);
	s->path_coll = gp_job_path_meets_collective(&p, n);
	if (p.known && p.end > p.start) {
		size_t most = gp_job_path_most(&p, n, 0);
		s->path = p.end - p.start;
		s->path_rank = res[most]->id.rank;
		s->path_pct = 100.0 * (double)p.ranks[most].held / (double)s->path;
	}
	gp_job_path_free(&p);
	gp_rank_job_free(&j);
	return GP_OK;
}

/* A run's files in rank order: each one's parts added to the run; for
** --by rank, its straggler. */
static int diff_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n, gp_writer *out,
		       gp_error *err)
{
	const struct job *j = ctx;

	(void)out;
	for (size_t i = 0; i < n; i++) {
		int rc = gp_diff_parts_add(&res[i]->rows, j->run, j->need, res[i]->id.rank, err);
		if (rc == GP_OK)
			rc = gp_diff_facts_add(&res[i]->rows, j->facts, err);
		if (rc != GP_OK)
			return rc;
	}
	*j->straggler = (struct straggler){.rank = -1, .path_rank = -1};
	return j->need[GP_DIFF_BY_RANK] && n > 1 ? run_straggler(res, n, j->straggler, err) : GP_OK;
}

/* Each run's straggler by arrival (stderr), for --by rank, when either run
** has one: a slow rank is the one the others wait for, which its compute
** row shows growing.  The other run then says why it has none.  Each
** run's job critical path, where known, says which rank holds most of it. */
static void straggler_notes(const struct straggler *s)
{
	static const char *const words[2] = {"BASE", "TEST"};
	char a[48], b[48];

	if (s[0].rank < 0 && s[1].rank < 0)
		return;
	for (int k = 0; k < 2; k++) {
		if (s[k].rank >= 0)
			fprintf(stderr, "gpuprof diff: note: %s: rank %d is the straggler: the others waited %s "
				"for it at %" PRIu64 " of %zu collectives (%s after the next-to-last rank in all)\n",
				words[k], s[k].rank, gp_fmt_duration((double)s[k].caused, a, sizeof(a)), s[k].last,
				s[k].calls, gp_fmt_duration((double)s[k].late, b, sizeof(b)));
		else if (s[k].ranks < 2)
			fprintf(stderr, "gpuprof diff: note: %s: one rank file, no straggler\n", words[k]);
		else if (!s[k].calls)
			fprintf(stderr, "gpuprof diff: note: %s: no collective is matched on every rank: who "
				"waits for whom cannot be told\n", words[k]);
		else
			fprintf(stderr, "gpuprof diff: note: %s: no straggler at the %zu collectives matched on "
				"every rank\n", words[k], s[k].calls);
		if (s[k].path > 0 && s[k].path_coll)
			fprintf(stderr, "gpuprof diff: note: %s: the job's critical path (%s) runs %.1f%% on rank %d\n",
				words[k], gp_fmt_duration((double)s[k].path, a, sizeof(a)), s[k].path_pct,
				s[k].path_rank);
		else if (s[k].path > 0)
			fprintf(stderr, "gpuprof diff: note: %s: the job's critical path (%s) reaches no collective: "
				"the traces record nothing a step's end waited for on the GPU\n", words[k],
				gp_fmt_duration((double)s[k].path, a, sizeof(a)));
	}
}

enum {
	C_KIND, C_STATUS, C_BASE, C_TEST, C_DELTA, C_DELTA_PCT, C_CHANGE, C_CHANGE_PCT, C_CI_LO, C_CI_HI,
	C_VERDICT, C_BASE_CALLS, C_TEST_CALLS, C_BASE_MED, C_TEST_MED, C_BASE_IQR, C_TEST_IQR,
	C_BASE_GFLOP, C_TEST_GFLOP, C_BASE_EFF, C_TEST_EFF, C_BASE_TC, C_TEST_TC, C_NAME, NCOLS
};

static const struct gp_column cols_raw[NCOLS] = {
	[C_KIND] = {"kind", "Kind", 5, false, false, NULL},
	[C_STATUS] = {"status", "Status", 7, false, false, NULL},
	[C_BASE] = {"base_ns", "Base", 8, true, false, NULL, GP_UNIT_NS},
	[C_TEST] = {"test_ns", "Test", 8, true, false, NULL, GP_UNIT_NS},
	[C_DELTA] = {"delta_ns", "Delta", 8, true, false, NULL, GP_UNIT_NS},
	[C_DELTA_PCT] = {"delta_pct", "Delta", 6, true, false, NULL, GP_UNIT_PCT},
	[C_CHANGE] = {"change_ns", "Change", 8, true, false, NULL, GP_UNIT_NS},
	[C_CHANGE_PCT] = {"change_pct", "Change", 6, true, false, NULL, GP_UNIT_PCT},
	[C_CI_LO] = {"ci_lo_ns", "CI low", 8, true, false, NULL, GP_UNIT_NS},
	[C_CI_HI] = {"ci_hi_ns", "CI high", 8, true, false, NULL, GP_UNIT_NS},
	[C_VERDICT] = {"verdict", "Verdict", 8, false, false, NULL},
	[C_BASE_CALLS] = {"base_calls", "Base calls", 5, true, false, NULL},
	[C_TEST_CALLS] = {"test_calls", "Test calls", 5, true, false, NULL},
	[C_BASE_MED] = {"base_med_ns", "Base med", 8, true, false, NULL, GP_UNIT_NS},
	[C_TEST_MED] = {"test_med_ns", "Test med", 8, true, false, NULL, GP_UNIT_NS},
	[C_BASE_IQR] = {"base_iqr_ns", "Base IQR", 8, true, false, NULL, GP_UNIT_NS},
	[C_TEST_IQR] = {"test_iqr_ns", "Test IQR", 8, true, false, NULL, GP_UNIT_NS},
	[C_BASE_GFLOP] = {"base_gflop", "Base GFLOP", 6, true, false, NULL},
	[C_TEST_GFLOP] = {"test_gflop", "Test GFLOP", 6, true, false, NULL},
	[C_BASE_EFF] = {"base_eff", "Base eff", 5, true, false, NULL},
	[C_TEST_EFF] = {"test_eff", "Test eff", 5, true, false, NULL},
	[C_BASE_TC] = {"base_tc", "Base TC", 3, false, false, NULL},
	[C_TEST_TC] = {"test_tc", "Test TC", 3, false, false, NULL},
	[C_NAME] = {"name", "Name", 20, false, true, NULL},
};

/* The table: the headline figures only, durations for people. */
enum { T_STATUS, T_BASE, T_TEST, T_CHANGE, T_PCT, T_CI, T_VERDICT, T_CALLS, T_TC, T_EFF, T_NAME, NTCOLS };

static const struct gp_column cols_table[NTCOLS] = {
	[T_STATUS] = {"status", "Status", 7, false, false, NULL},
	[T_BASE] = {"base", "Base", 8, true, false, NULL},
	[T_TEST] = {"test", "Test", 8, true, false, NULL},
	[T_CHANGE] = {"change", "Change", 8, true, false, NULL},
	[T_PCT] = {"change_pct", "Relative", 6, true, false, NULL},
	[T_CI] = {"ci", "95% CI", 8, true, false, "-"},
	[T_VERDICT] = {"verdict", "Verdict", 8, false, false, NULL},
	[T_CALLS] = {"calls", "Calls", 5, true, false, NULL},
	[T_TC] = {"tc", "TC", 3, false, false, NULL},
	[T_EFF] = {"eff", "Efficiency", 5, true, false, "-"},
	[T_NAME] = {"name", "Name", 20, false, true, NULL},
};


/* "+12.3%" of a relative change, "new"/"gone" for an infinite one. */
static const char *fmt_rel(double rel, char *buf, size_t size)
{
	if (isinf(rel))
		return rel > 0 ? "new" : "gone";
	snprintf(buf, size, "%+.1f%%", rel * 100);
	return buf;
}

/* A signed human duration: "+1.234 ms". */
static const char *fmt_signed(double ns, char *buf, size_t size)
{
	buf[0] = ns < 0 ? '-' : '+';
	gp_fmt_duration(fabs(ns), buf + 1, size - 1);
	return buf;
}

/* The interval as a person reads it: relative to the base median when
** there is one, else in time. */
static const char *fmt_ci(const struct gp_diff_row *r, char *buf, size_t size)
{
	char a[48], b[48];

	if (r->base.med > 0) {
		snprintf(buf, size, "[%+.1f%%, %+.1f%%]", 100 * r->ci_lo / r->base.med, 100 * r->ci_hi / r->base.med);
	} else {
		snprintf(buf, size, "[%s, %s]", fmt_signed(r->ci_lo, a, sizeof(a)), fmt_signed(r->ci_hi, b, sizeof(b)));
	}
	return buf;
}

/* The shown name of a row: "(step)", "(total)" or the group's; with
** base (--base) a kernel's label, gp_kernel_label (into buf). */
static const char *row_name(const struct gp_diff *d, const struct gp_diff_row *r, bool base, char *buf,
			    size_t size)
{
	const char *name = gp_strtab_get(&d->strs, r->name);

	if (!base || d->by != GP_DIFF_BY_KERNEL || r->kind != GP_DIFF_ROW_GROUP)
		return name;
	return gp_kernel_label(name, buf, size);
}

static void write_raw(gp_writer *w, const struct gp_diff *d, const struct gp_diff_row *r, bool base)
{
	char v[NCOLS][48];
	const char *row[NCOLS] = {0};
	const struct gp_diff_run *run[2] = {&r->base, &r->test};

	row[C_KIND] = gp_diff_kind_names[r->kind];
	row[C_STATUS] = gp_diff_status_names[r->status];
	row[C_BASE] = gp_fmt_i64(v[C_BASE], r->base.total);
	row[C_TEST] = gp_fmt_i64(v[C_TEST], r->test.total);
	row[C_DELTA] = gp_fmt_i64(v[C_DELTA], r->test.total - r->base.total);
	if (r->base.total > 0) {
		snprintf(v[C_DELTA_PCT], sizeof(v[0]), "%.2f",
			 100.0 * (double)(r->test.total - r->base.total) / (double)r->base.total);
		row[C_DELTA_PCT] = v[C_DELTA_PCT];
	}
	snprintf(v[C_CHANGE], sizeof(v[0]), "%.1f", r->change);
	row[C_CHANGE] = v[C_CHANGE];
	if (!isinf(r->rel)) {
		snprintf(v[C_CHANGE_PCT], sizeof(v[0]), "%.2f", 100 * r->rel);
		row[C_CHANGE_PCT] = v[C_CHANGE_PCT];
	}
	if (r->has_ci) {
		snprintf(v[C_CI_LO], sizeof(v[0]), "%.1f", r->ci_lo);
		snprintf(v[C_CI_HI], sizeof(v[0]), "%.1f", r->ci_hi);
		row[C_CI_LO] = v[C_CI_LO];
		row[C_CI_HI] = v[C_CI_HI];
	}
	row[C_VERDICT] = gp_diff_verdict_names[r->verdict];
	for (int s = 0; s < 2; s++) {
		row[C_BASE_CALLS + s] = gp_fmt_u64(v[C_BASE_CALLS + s], run[s]->calls);
		if (run[s]->med >= 0) {
			snprintf(v[C_BASE_MED + s], sizeof(v[0]), "%.1f", run[s]->med);
			snprintf(v[C_BASE_IQR + s], sizeof(v[0]), "%.1f", run[s]->iqr);
			row[C_BASE_MED + s] = v[C_BASE_MED + s];
			row[C_BASE_IQR + s] = v[C_BASE_IQR + s];
		}
		if (run[s]->flops >= 0) {
			snprintf(v[C_BASE_GFLOP + s], sizeof(v[0]), "%.3f", run[s]->flops / 1e9);
			row[C_BASE_GFLOP + s] = v[C_BASE_GFLOP + s];
		}
		if (run[s]->eff >= 0) {
			snprintf(v[C_BASE_EFF + s], sizeof(v[0]), "%.3f", run[s]->eff);
			row[C_BASE_EFF + s] = v[C_BASE_EFF + s];
		}
		row[C_BASE_TC + s] = gp_diff_tc_names[run[s]->tc];
	}
	char name[512];
	row[C_NAME] = row_name(d, r, base, name, sizeof(name));
	gp_writer_row(w, row);
}

/* "a->b" of two optional texts, or one when they agree or only one is
** known (a new or gone group: its status says which side), "-" for none. */
static const char *pair(const char *a, const char *b, char *buf, size_t size)
{
	a = a ? a : b ? b : "-";
	b = b ? b : a;
	if (strcmp(a, b) == 0)
		snprintf(buf, size, "%s", a);
	else
		snprintf(buf, size, "%s->%s", a, b);
	return buf;
}

/* The table row of r; name, when not NULL, the name to show. */
static void write_table(gp_writer *w, const struct gp_diff *d, const struct gp_diff_row *r, bool short_names,
			const char *shown_name)
{
	char v[NTCOLS][112], x[2][48];
	const char *row[NTCOLS] = {0};
	double base = r->has_ci ? r->base.med : (double)r->base.total;
	double test = r->has_ci ? r->test.med : (double)r->test.total;

	row[T_STATUS] = r->kind == GP_DIFF_ROW_GROUP ? gp_diff_status_names[r->status] : gp_diff_kind_names[r->kind];
	row[T_BASE] = gp_fmt_duration(base, v[T_BASE], sizeof(v[0]));
	row[T_TEST] = gp_fmt_duration(test, v[T_TEST], sizeof(v[0]));
	row[T_CHANGE] = fmt_signed(r->change, v[T_CHANGE], sizeof(v[0]));
	row[T_PCT] = fmt_rel(r->rel, v[T_PCT], sizeof(v[0]));
	if (r->has_ci)
		row[T_CI] = fmt_ci(r, v[T_CI], sizeof(v[0]));
	row[T_VERDICT] = gp_diff_verdict_names[r->verdict];
	snprintf(x[0], sizeof(x[0]), "%" PRIu64, r->base.calls);
	snprintf(x[1], sizeof(x[1]), "%" PRIu64, r->test.calls);
	row[T_CALLS] = pair(x[0], x[1], v[T_CALLS], sizeof(v[0]));
	row[T_TC] = pair(gp_diff_tc_names[r->base.tc], gp_diff_tc_names[r->test.tc], v[T_TC], sizeof(v[0]));
	if (r->base.eff >= 0 || r->test.eff >= 0) {
		if (r->base.eff >= 0)
			snprintf(x[0], sizeof(x[0]), "%.0f", 100 * r->base.eff);
		if (r->test.eff >= 0)
			snprintf(x[1], sizeof(x[1]), "%.0f", 100 * r->test.eff);
		row[T_EFF] = pair(r->base.eff >= 0 ? x[0] : NULL, r->test.eff >= 0 ? x[1] : NULL, v[T_EFF],
				  sizeof(v[0]));
	}
	char name[512];
	row[T_NAME] = shown_name ? shown_name : row_name(d, r, short_names, name, sizeof(name));
	gp_writer_row(w, row);
}

/* The one-line account of a tripped gate: "step +7.2% [+5.1%, +9.0%] > +5%". */
static void describe_trip(const struct gp_diff *d, const struct gp_diff_gate *g, const struct gp_diff_row *r,
			  char *buf, size_t size)
{
	char ch[48], ci[128] = "", lim[48];

	if (g->relative) {
		fmt_rel(r->rel, ch, sizeof(ch));
		snprintf(lim, sizeof(lim), "%+g%%", 100 * g->limit);
	} else {
		fmt_signed(r->change, ch, sizeof(ch));
		fmt_signed(g->limit, lim, sizeof(lim));
	}
	if (r->has_ci) {
		char tmp[120];
		snprintf(ci, sizeof(ci), " %s", fmt_ci(r, tmp, sizeof(tmp)));
	}
	if (g->target == GP_GATE_GROUP)
		snprintf(buf, size, "%s:%s %s%s %c %s", gp_diff_by_names[g->by], row_name(d, r, false, NULL, 0), ch, ci,
			 g->above ? '>' : '<', lim);
	else
		snprintf(buf, size, "%s %s%s %c %s", gp_diff_kind_names[r->kind], ch, ci, g->above ? '>' : '<', lim);
}

/* Judges every gate into res[0..o->ngates).  diffs[by] holds the
** comparison of each grouping a gate needs. */
static void eval_gates(const struct opts *o, const struct gp_diff *diffs, struct gp_diff_gate_result *res)
{
	for (int i = 0; i < o->ngates; i++) {
		const struct gp_diff_gate *g = &o->gates[i];
		const struct gp_diff *d = &diffs[g->target == GP_GATE_GROUP ? g->by : o->d.by];
		const struct gp_diff_row *r;
		size_t from = 0;
		memset(&res[i], 0, sizeof(res[i]));
		res[i].text = g->text;
		while ((r = gp_diff_gate_next(d, g, o->d.stats, &from)) != NULL) {
			if (!res[i].trips++)
				describe_trip(d, g, r, res[i].first, sizeof(res[i].first));
		}
	}
}

/* Prints the verdict line of the gates' results; GP_EXIT_GATE when one
** tripped. */
static int print_verdict(const struct gp_diff_gate_result *res, int n)
{
	const char *first = NULL;
	size_t trips = 0;

	for (int i = 0; i < n; i++) {
		if (res[i].trips && !first)
			first = res[i].first;
		trips += res[i].trips;
	}
	if (!trips) {
		fprintf(stderr, "gpuprof diff: PASS (%d limit%s, none crossed)\n", n, n == 1 ? "" : "s");
		return GP_EXIT_OK;
	}
	if (trips > 1)
		fprintf(stderr, "gpuprof diff: FAIL %s (and %zu more)\n", first, trips - 1);
	else
		fprintf(stderr, "gpuprof diff: FAIL %s\n", first);
	return GP_EXIT_GATE;
}

/* Whether the table folds r into its count of groups within noise. */
static bool folded(const struct gp_diff_row *r, bool all)
{
	return !all && r->kind == GP_DIFF_ROW_GROUP && r->verdict == GP_DIFF_NOISE;
}

/* Writes d's rows (the shown groups: -n) to w and closes it.  The table
** (for people) folds the groups within noise into one line under it
** unless all, and tells apart groups that show one name (short kernel
** names of different kernels) by " #2", " #3"... in row order, with a
** line saying so. */
static int write_rows(gp_writer *w, const struct gp_cli_opts *co, const struct gp_diff *d, bool all,
		      gp_error *err)
{
	bool table = strcmp(co->format, "table") == 0, shorts = gp_cli_short_names(co);
	size_t shown = co->top < d->n - d->lead ? co->top + d->lead : d->n, noise = 0, twins = 0;
	char (*label)[512] = gp_xcalloc(shown ? shown : 1, sizeof(*label));
	int rc;

	for (size_t i = 0; i < shown; i++) {
		const struct gp_diff_row *r = &d->rows[i];
		char tmp[512], name[560];
		size_t same = 1;
		if (!table) {
			write_raw(w, d, r, shorts);
			continue;
		}
		if (folded(r, all)) {
			noise++;
			continue;
		}
		snprintf(label[i], sizeof(label[i]), "%s", row_name(d, r, shorts, tmp, sizeof(tmp)));
		for (size_t k = 0; k < i; k++)
			same += !folded(&d->rows[k], all) && strcmp(label[k], label[i]) == 0;
		snprintf(name, sizeof(name), same > 1 ? "%s #%zu" : "%s", label[i], same);
		twins += same > 1;
		write_table(w, d, r, shorts, name);
	}
	free(label);
	rc = gp_writer_close(w, err);
	if (rc == GP_OK && table && twins)
		printf("#N: another kernel of the same short name (--full-names shows the names in full)\n");
	if (rc == GP_OK && table && noise)
		printf("%zu group%s within noise not shown (--all shows them)\n", noise, noise == 1 ? "" : "s");
	return rc;
}

/* What changed between the runs' setups (diff_facts.h), said before the
** times: on stdout above the table, else as notes on stderr (the rows
** stay rows).  Nothing changed: one line saying what was the same. */
static void what_changed(const struct gp_diff_facts *f, bool table)
{
	int n = 0;

	for (int i = 0; i < GP_FACT__COUNT; i++) {
		if (!gp_diff_fact_changed(&f[0], &f[1], i))
			continue;
		if (table && !n)
			printf("What changed between the runs:\n");
		if (table)
			printf("  %-31s %s -> %s\n", gp_diff_fact_names[i], f[0].v[i], f[1].v[i]);
		else
			fprintf(stderr, "gpuprof diff: note: %s changed: %s -> %s\n", gp_diff_fact_names[i],
				f[0].v[i], f[1].v[i]);
		n++;
	}
	if (table && !n)
		printf("What changed between the runs: nothing the traces say about the setup\n"
		       "  (GPU %s, world size %s, %s CUDA graph launches, %s Triton kernels)\n",
		       f[0].v[GP_FACT_GPU][0] ? f[0].v[GP_FACT_GPU] : "not stated", f[0].v[GP_FACT_WORLD],
		       f[0].v[GP_FACT_GRAPHS], f[0].v[GP_FACT_TRITON]);
	if (table)
		printf("\n");
}

/* Reads one run (a file, a directory or a glob of rank files: arg) through
** gp_cli_run, -j files at a time, into run[by] for each grouping j needs;
** its messages (rank notes, a glob that matches nothing) start "gpuprof
** diff WORD:".  Returns the exit code (the failing files named on stderr). */
static int read_run(struct job *j, const struct gp_cli_opts *co, const char *arg, const char *word,
		    struct gp_diff_run_in *run, struct gp_diff_facts *facts, struct straggler *straggler)
{
	char *files[1] = {(char *)arg}, cmd[16];
	struct gp_cli_opts one = *co;
	struct gp_cli_many m = {.cmd = cmd, .cols = gp_diff_part_cols, .ncols = GP_DIFF_PART_NCOLS, .fn = diff_trace,
				.ctx = j, .reduce = diff_reduce, .local = true,
				.want_record = j->need[GP_DIFF_BY_RANK]};

	snprintf(cmd, sizeof(cmd), "diff %s", word);
	for (int by = 0; by < GP_DIFF_NBY; by++)
		gp_diff_run_init(&run[by], by);
	one.files = files;
	one.nfiles = 1;
	j->run = run;
	j->facts = facts;
	memset(facts, 0, sizeof(*facts));
	j->straggler = straggler;
	*straggler = (struct straggler){.rank = -1, .path_rank = -1};
	return gp_cli_run(&m, &one);
}

/* A note (stderr) when one-time costs (compiling, loading code, capturing
** graphs: causes that are one_time) hold a quarter or more of a run's GPU
** span: the step then compares start-ups, not the steps that follow. */
static void one_time_notes(const struct gp_diff_run_in *base, const struct gp_diff_run_in *test)
{
	const struct gp_diff_run_in *run[2] = {base, test};
	static const char *const words[2] = {"BASE", "TEST"};

	for (int s = 0; s < 2; s++) {
		double span = (double)run[s]->span * (double)(run[s]->ranks.n ? run[s]->ranks.n : 1), held = 0;
		char names[160] = "";
		size_t len = 0;
		for (int c = 0; c < GP_CAUSE__COUNT; c++) {
			if (!gp_cause_one_time(c) || run[s]->idle_total[c] <= 0)
				continue;
			held += (double)run[s]->idle_total[c];
			int w = snprintf(names + len, sizeof(names) - len, "%s%s", len ? ", " : "", gp_cause_def(c)->name);
			len = w < 0 || (size_t)w >= sizeof(names) - len ? len : len + (size_t)w;
		}
		if (span > 0 && held >= 0.25 * span)
			fprintf(stderr, "gpuprof diff: note: %s: one-time costs (%s) hold %.0f%% of its GPU span: "
				"the step compares start-ups, not the steps after them; profile later steps "
				"(a profiler schedule with wait and warmup)\n", words[s], names, 100 * held / span);
	}
}

/* Notes on how the runs' ranks and iterations line up (stderr). */
static void rank_notes(const struct gp_diff_run_in *base, const struct gp_diff_run_in *test)
{
	const struct gp_diff_run_in *run[2] = {base, test};
	static const char *const words[2] = {"BASE", "TEST"};

	if (base->ranks.n != test->ranks.n && base->ranks.n && test->ranks.n)
		fprintf(stderr, "gpuprof diff: note: BASE has %zu rank file%s, TEST %zu: group and total times "
			"are sums over a run's ranks, the step time its slowest rank's\n",
			base->ranks.n, base->ranks.n == 1 ? "" : "s", test->ranks.n);
	for (int s = 0; s < 2; s++)
		if (run[s]->iters != run[s]->iters_max)
			fprintf(stderr, "gpuprof diff: note: %s's ranks hold %zu to %zu iterations: the first "
				"%zu are compared per iteration, all count in the totals\n", words[s],
				run[s]->iters, run[s]->iters_max, run[s]->iters);
}

/* -f html: the page of d, the runs' setups (facts[2]), step times and the gates' results,
** through the html-diff sink, to out (opened on o->out; closed here, and
** the file removed again on failure).  Returns GP_OK or the error in err. */
static int write_html(const struct opts *o, const struct gp_cli_opts *co, const struct gp_diff *d,
		      const struct gp_diff_run_in *const *run, const struct gp_diff_facts *facts,
		      const struct gp_diff_gate_result *gates, const char *lib, size_t lib_len, FILE *out,
		      gp_error *err)
{
	bool to_stdout = out == stdout;
	struct gp_diff_page pg = {.base = co->file, .test = co->file2, .diff = d, .gates = gates,
				  .ngates = (size_t)o->ngates, .threshold = o->d.threshold,
				  .top = co->top == SIZE_MAX ? 50 : co->top, .facts = facts};
	const struct gp_sink_opts so = {.top = pg.top, .script = lib, .script_len = lib_len};
	const struct gp_sink_input in = {.diff = &pg};
	gp_sink sink;
	int rc;

	for (int s = 0; s < 2; s++) {
		pg.step[s] = run[s]->step.v;
		pg.nstep[s] = run[s]->iters;
	}
	/* only this thread writes: no stream lock per character */
	__fsetlocking(out, FSETLOCKING_BYCALLER);
	rc = gp_sink_open(&sink, "html-diff", out, &so, err);
	if (!rc)
		rc = gp_sink_write_close(&sink, &in, err);
	if (!to_stdout && fclose(out) != 0 && !rc)
		rc = gp_err(err, GP_ERR_IO, "%s: write failure", o->out);
	if (rc && !to_stdout)
		gp_cli_remove_output(o->out);
	if (!rc && !to_stdout)
		gp_cli_wrote("diff", o->out, NULL);
	return rc;
}

int cmd_diff(int argc, char **argv)
{
	struct opts o = {.d = {.by = GP_DIFF_BY_KERNEL, .stats = true, .threshold = 0.02,
			       .resamples = 2000, .seed = 1}};
	struct gp_diff diffs[GP_DIFF_NBY];
	struct gp_diff_run_in run[2][GP_DIFF_NBY];
	struct gp_diff_gate_result gates[MAX_GATES];
	struct gp_diff_facts facts[2];
	struct straggler straggler[2];
	struct job j = {0};
	struct gp_cli_opts co;
	gp_error err = {0};
	gp_writer w;
	char *lib = NULL;
	size_t lib_len = 0;
	bool html;
	int rc, read = 0;

	rc = gp_cli_parse(&diff_spec, argc, argv, &co, diff_option, &o);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	j.peaks = &co.peaks;
	j.need[o.d.by] = true;
	for (int i = 0; i < o.ngates; i++)
		if (o.gates[i].target == GP_GATE_GROUP)
			j.need[o.gates[i].by] = true;
	if (co.depth && !j.need[GP_DIFF_BY_LAYER])
		return gp_cli_usage("diff", "--depth cuts layer paths: it needs --by layer or module-type "
				    "(or a layer: gate)");
	o.layers.depth = co.depth;
	j.layers = &o.layers;
	html = strcmp(co.format, "html") == 0;
	/* the output is checked before any input is read */
	if (html) {
		struct stat st;
		if (!o.out)
			return gp_cli_usage("diff", "-f html needs -o FILE (- writes to standard output)");
		if (strcmp(o.out, "-") != 0 && !o.force && stat(o.out, &st) == 0) {
			fprintf(stderr, "gpuprof diff: %s exists (--force overwrites it)\n", o.out);
			return GP_EXIT_IO;
		}
		lib = gp_cli_read_chartjs("diff", o.chartjs, &lib_len);
		if (!lib)
			return GP_EXIT_IO;
	} else if (o.out) {
		return gp_cli_usage("diff", "-o is for -f html (the rows go to standard output)");
	} else if (gp_writer_open(&w, co.format, stdout, strcmp(co.format, "table") == 0 ? cols_table : cols_raw,
				  strcmp(co.format, "table") == 0 ? NTCOLS : NCOLS, &co.wo, &err)) {
		return gp_cli_usage("diff", "%s", err.msg);
	}
	rc = read_run(&j, &co, co.file, "BASE", run[0], &facts[0], &straggler[0]);
	read = 1;
	if (rc == GP_EXIT_OK) {
		rc = read_run(&j, &co, co.file2, "TEST", run[1], &facts[1], &straggler[1]);
		read = 2;
	}
	/* a run without GPU work: said like every command says it; with none
	** on either side there is nothing to compare */
	for (int s = 0; s < read && rc == GP_EXIT_OK; s++)
		if (!run[s][o.d.by].ranks.n)
			fprintf(stderr, "gpuprof diff: %s: %s\n", s ? co.file2 : co.file,
				co.window.mode != GP_WINDOW_NONE || gp_window_filters(&co.window)
					? "no kernels in the window or filter" : "this trace has no kernels");
	if (rc == GP_EXIT_OK && !run[0][o.d.by].ranks.n && !run[1][o.d.by].ranks.n) {
		if (o.ngates)
			fprintf(stderr, "gpuprof diff: neither run has kernels: no limit checked\n");
	} else if (rc == GP_EXIT_OK) {
		const struct gp_diff *d = &diffs[o.d.by];
		const struct gp_diff_run_in *shown[2] = {&run[0][o.d.by], &run[1][o.d.by]};
		for (int by = 0; by < GP_DIFF_NBY; by++) {
			struct gp_diff_opts dopt = o.d;
			if (!j.need[by])
				continue;
			dopt.by = by;
			gp_diff_compute(&run[0][by], &run[1][by], &dopt, &diffs[by]);
		}
		eval_gates(&o, diffs, gates);
		rank_notes(shown[0], shown[1]);
		one_time_notes(shown[0], shown[1]);
		what_changed(facts, strcmp(co.format, "table") == 0);
		if (o.d.by == GP_DIFF_BY_RANK)
			straggler_notes(straggler);
		if (html) {
			/* an output that cannot be opened is said by gp_cli_open_output */
			FILE *out = strcmp(o.out, "-") == 0 ? stdout : gp_cli_open_output("diff", o.out, o.force);
			rc = !out ? GP_EXIT_IO
			   : write_html(&o, &co, d, shown, facts, gates, lib, lib_len, out, &err) ? GP_EXIT_FAIL : GP_EXIT_OK;
		} else {
			rc = write_rows(&w, &co, d, o.all, &err) ? GP_EXIT_FAIL : GP_EXIT_OK;
		}
		if (rc == GP_EXIT_FAIL) {
			gp_err_print(&err);
			rc = gp_exit_code(err.status);
		}
		if (o.d.stats && !d->stats)
			fprintf(stderr, "gpuprof diff: %zu and %zu iterations: no statistics (at least 4 "
				"per run are needed); changes of %g%% or more are marked\n",
				d->base_iters, d->test_iters, 100 * o.d.threshold);
		if (rc == GP_EXIT_OK && o.ngates)
			rc = print_verdict(gates, o.ngates);
		for (int by = 0; by < GP_DIFF_NBY; by++)
			if (j.need[by])
				gp_diff_free(&diffs[by]);
	}
	for (int s = 0; s < read; s++)
		for (int by = 0; by < GP_DIFF_NBY; by++)
			gp_diff_run_free(&run[s][by]);
	free(lib);
	return rc;
}
