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
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "ops/ops.h"
#include "util/fmt.h"
#include "util/u64map.h"
#include "writers/writer.h"

#define MAX_GATES 32

static const struct gp_cmd_opt diff_own[] = {
	{"by", 'b', "G", "group kernel time by: kernel (default: the demangled\n"
	 "name, matched across formats), op, layer or iter"},
	{"fail-if", 0, "EXPR", "exit 5 when a change crosses a limit: step>+5%,\n"
	 "total>+3%, op:PATTERN>+10%, kernel:PATTERN>+1ms,\n"
	 "layer:PATTERN<-5% (PATTERN a glob; repeatable)"},
	{"no-stats", 0, NULL, "compare totals against --threshold only; any\n"
	 "crossing trips --fail-if, significant or not"},
	{"threshold", 't', "PCT", "smallest change that counts as one (default 2)"},
	{"resamples", 0, "N", "bootstrap resamples (default 2000)"},
	{"seed", 0, "S", "bootstrap seed (default 1; same seed, same output)"},
	{NULL, 0, NULL, NULL},
};
enum { OWN_BY, OWN_FAIL_IF, OWN_NO_STATS, OWN_THRESHOLD, OWN_RESAMPLES, OWN_SEED };

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
	"change of at least --threshold is marked (docs/diff.md).",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_WIDTH | GP_OPT_NO_HEADER | GP_OPT_PEAKS | GP_OPT_WINDOW,
	.row_formats = true,
	.format_note = "(times in ns except in the table)",
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
	"With --fail-if, one line on stderr says PASS or FAIL and why.",
	.two_files = "BASE TEST",
};

struct opts {
	struct gp_diff_opts d;
	struct gp_diff_gate gates[MAX_GATES];
	int ngates;
};

static const char *const by_names[] = {"kernel", "op", "layer", "iter"};

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
		for (int i = 0; i < 4; i++)
			if (strcmp(arg, by_names[i]) == 0) {
				o->d.by = i;
				return 0;
			}
		return gp_cli_usage("diff", "--by wants kernel, op, layer or iter, not '%s'", arg);
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
	}
	return 0;
}

/* Loads one run.  The one place that turns a command-line operand into a
** correlated trace, so that several rank files per side come in here. */
static int load_run(const char *path, const struct gp_window *w, gp_trace *t)
{
	gp_trace_init(t);
	return gp_cli_load(path, w, t, NULL);
}

/* The op model's per-kernel figures of t: FLOPs, roofline ideal time,
** tensor-core verdict (arrays the caller frees).  A kernel's peaks depend
** on its device, dtype and tensor-core use only, so they are looked up once
** per such triple (the lookup matches GPU names: costly per kernel). */
static void kernel_figures(gp_trace *t, const struct gp_peak_opts *po, struct gp_diff_side *s)
{
	struct gp_opres *res = gp_ops_run(t, po);
	size_t n = t->kernels.n ? t->kernels.n : 1;
	double *flops = gp_xmalloc(n * sizeof(*flops)), *ideal = gp_xmalloc(n * sizeof(*ideal));
	int8_t *tc = gp_xmalloc(n * sizeof(*tc));
	GP_VEC(double) peaks = {0};   /* pairs: FLOP/s, bytes/s */
	gp_u64map peak_at = {0};

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		struct gp_roofline rl;
		double pf = 0, pbw = 0;
		flops[k] = res[k].flops;
		tc[k] = res[k].tc;
		ideal[k] = -1;
		if (res[k].flops < 0 || res[k].bytes < 0)
			continue;
		if (!gp_op_is_comm(&res[k])) {
			uint64_t key = (uint64_t)(uint32_t)kr->device << 16 | (uint64_t)res[k].dtype << 1 |
				       (res[k].tc == GP_TC_YES);
			int32_t at = gp_u64map_get(&peak_at, key);
			if (at < 0) {
				gp_kernel_peaks(t, k, &res[k], po, &pf, &pbw);
				at = (int32_t)peaks.n;
				*gp_vec_push(peaks) = pf;
				*gp_vec_push(peaks) = pbw;
				gp_u64map_put(&peak_at, key, at);
			}
			pf = peaks.v[at];
			pbw = peaks.v[at + 1];
		}
		gp_roofline(res[k].flops, res[k].bytes, (double)(kr->end - kr->start), pf, pbw, &rl);
		ideal[k] = rl.ideal_ns;
	}
	gp_vec_free(peaks);
	gp_u64map_free(&peak_at);
	free(res);
	s->t = t;
	s->flops = flops;
	s->ideal_ns = ideal;
	s->tc = tc;
}

static void free_figures(struct gp_diff_side *s)
{
	free((void *)s->flops);
	free((void *)s->ideal_ns);
	free((void *)s->tc);
}

enum {
	C_KIND, C_STATUS, C_BASE, C_TEST, C_DELTA, C_DELTA_PCT, C_CHANGE, C_CHANGE_PCT, C_CI_LO, C_CI_HI,
	C_VERDICT, C_BASE_CALLS, C_TEST_CALLS, C_BASE_MED, C_TEST_MED, C_BASE_IQR, C_TEST_IQR,
	C_BASE_GFLOP, C_TEST_GFLOP, C_BASE_EFF, C_TEST_EFF, C_BASE_TC, C_TEST_TC, C_NAME, NCOLS
};

static const struct gp_column cols_raw[NCOLS] = {
	[C_KIND] = {"kind", "Kind", 5, false, false, NULL},
	[C_STATUS] = {"status", "Status", 7, false, false, NULL},
	[C_BASE] = {"base_ns", "Base (ns)", 8, true, false, NULL},
	[C_TEST] = {"test_ns", "Test (ns)", 8, true, false, NULL},
	[C_DELTA] = {"delta_ns", "Delta (ns)", 8, true, false, NULL},
	[C_DELTA_PCT] = {"delta_pct", "Delta (%)", 6, true, false, NULL},
	[C_CHANGE] = {"change_ns", "Change (ns)", 8, true, false, NULL},
	[C_CHANGE_PCT] = {"change_pct", "Change (%)", 6, true, false, NULL},
	[C_CI_LO] = {"ci_lo_ns", "CI low (ns)", 8, true, false, NULL},
	[C_CI_HI] = {"ci_hi_ns", "CI high (ns)", 8, true, false, NULL},
	[C_VERDICT] = {"verdict", "Verdict", 8, false, false, NULL},
	[C_BASE_CALLS] = {"base_calls", "Base calls", 5, true, false, NULL},
	[C_TEST_CALLS] = {"test_calls", "Test calls", 5, true, false, NULL},
	[C_BASE_MED] = {"base_med_ns", "Base med (ns)", 8, true, false, NULL},
	[C_TEST_MED] = {"test_med_ns", "Test med (ns)", 8, true, false, NULL},
	[C_BASE_IQR] = {"base_iqr_ns", "Base IQR (ns)", 8, true, false, NULL},
	[C_TEST_IQR] = {"test_iqr_ns", "Test IQR (ns)", 8, true, false, NULL},
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
	[T_PCT] = {"change_pct", "Change%", 6, true, false, NULL},
	[T_CI] = {"ci", "95% CI", 8, true, false, "-"},
	[T_VERDICT] = {"verdict", "Verdict", 8, false, false, NULL},
	[T_CALLS] = {"calls", "Calls", 5, true, false, NULL},
	[T_TC] = {"tc", "TC", 3, false, false, NULL},
	[T_EFF] = {"eff", "Eff%", 5, true, false, "-"},
	[T_NAME] = {"name", "Name", 20, false, true, NULL},
};

static const char *const status_names[] = {"same", "changed", "new", "gone"};
static const char *const verdict_names[] = {"significant", "within noise", "above threshold",
					    "below threshold"};
static const char *const tc_names[] = {NULL, "no", "yes", "mixed"};
static const char *const kind_names[] = {"step", "total", "group"};

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

/* The shown name of a row: "(step)", "(total)" or the group's. */
static const char *row_name(const struct gp_diff *d, const struct gp_diff_row *r)
{
	return gp_strtab_get(&d->strs, r->name);
}

static void write_raw(gp_writer *w, const struct gp_diff *d, const struct gp_diff_row *r)
{
	char v[NCOLS][48];
	const char *row[NCOLS] = {0};
	const struct gp_diff_run *run[2] = {&r->base, &r->test};

	row[C_KIND] = kind_names[r->kind];
	row[C_STATUS] = status_names[r->status];
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
	row[C_VERDICT] = verdict_names[r->verdict];
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
		row[C_BASE_TC + s] = tc_names[run[s]->tc];
	}
	row[C_NAME] = row_name(d, r);
	gp_writer_row(w, row);
}

/* "a -> b" of two optional texts ("-" for none), or one when they agree. */
static const char *pair(const char *a, const char *b, char *buf, size_t size)
{
	a = a ? a : "-";
	b = b ? b : "-";
	if (strcmp(a, b) == 0)
		snprintf(buf, size, "%s", a);
	else
		snprintf(buf, size, "%s->%s", a, b);
	return buf;
}

static void write_table(gp_writer *w, const struct gp_diff *d, const struct gp_diff_row *r)
{
	char v[NTCOLS][112], x[2][48];
	const char *row[NTCOLS] = {0};
	double base = r->has_ci ? r->base.med : (double)r->base.total;
	double test = r->has_ci ? r->test.med : (double)r->test.total;

	row[T_STATUS] = r->kind == GP_DIFF_ROW_GROUP ? status_names[r->status] : kind_names[r->kind];
	row[T_BASE] = gp_fmt_duration(base, v[T_BASE], sizeof(v[0]));
	row[T_TEST] = gp_fmt_duration(test, v[T_TEST], sizeof(v[0]));
	row[T_CHANGE] = fmt_signed(r->change, v[T_CHANGE], sizeof(v[0]));
	row[T_PCT] = fmt_rel(r->rel, v[T_PCT], sizeof(v[0]));
	if (r->has_ci)
		row[T_CI] = fmt_ci(r, v[T_CI], sizeof(v[0]));
	row[T_VERDICT] = verdict_names[r->verdict];
	snprintf(x[0], sizeof(x[0]), "%" PRIu64, r->base.calls);
	snprintf(x[1], sizeof(x[1]), "%" PRIu64, r->test.calls);
	row[T_CALLS] = pair(x[0], x[1], v[T_CALLS], sizeof(v[0]));
	row[T_TC] = pair(tc_names[r->base.tc], tc_names[r->test.tc], v[T_TC], sizeof(v[0]));
	if (r->base.eff >= 0 || r->test.eff >= 0) {
		if (r->base.eff >= 0)
			snprintf(x[0], sizeof(x[0]), "%.0f", 100 * r->base.eff);
		if (r->test.eff >= 0)
			snprintf(x[1], sizeof(x[1]), "%.0f", 100 * r->test.eff);
		row[T_EFF] = pair(r->base.eff >= 0 ? x[0] : NULL, r->test.eff >= 0 ? x[1] : NULL, v[T_EFF],
				  sizeof(v[0]));
	}
	row[T_NAME] = row_name(d, r);
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
		snprintf(buf, size, "%s:%s %s%s %c %s", by_names[g->by], row_name(d, r), ch, ci,
			 g->above ? '>' : '<', lim);
	else
		snprintf(buf, size, "%s %s%s %c %s", kind_names[r->kind], ch, ci, g->above ? '>' : '<', lim);
}

/* Judges every gate; prints the verdict line.  Returns GP_EXIT_GATE when
** one trips.  diffs[by] holds the comparison of each grouping a gate needs. */
static int judge_gates(const struct opts *o, struct gp_diff *diffs)
{
	char first[1024] = "";
	int trips = 0;

	for (int i = 0; i < o->ngates; i++) {
		const struct gp_diff_gate *g = &o->gates[i];
		const struct gp_diff *d = &diffs[g->target == GP_GATE_GROUP ? g->by : o->d.by];
		const struct gp_diff_row *r;
		size_t from = 0;
		while ((r = gp_diff_gate_next(d, g, o->d.stats, &from)) != NULL) {
			if (!trips++)
				describe_trip(d, g, r, first, sizeof(first));
		}
	}
	if (!trips) {
		fprintf(stderr, "gpuprof diff: PASS (%d limit%s, none crossed)\n", o->ngates,
			o->ngates == 1 ? "" : "s");
		return GP_EXIT_OK;
	}
	if (trips > 1)
		fprintf(stderr, "gpuprof diff: FAIL %s (and %d more)\n", first, trips - 1);
	else
		fprintf(stderr, "gpuprof diff: FAIL %s\n", first);
	return GP_EXIT_GATE;
}

int cmd_diff(int argc, char **argv)
{
	struct opts o = {.d = {.by = GP_DIFF_BY_KERNEL, .stats = true, .threshold = 0.02,
			       .resamples = 2000, .seed = 1}};
	struct gp_diff diffs[4];
	bool need[4] = {false, false, false, false};
	struct gp_cli_opts co;
	struct gp_diff_side side[2] = {{0}, {0}};
	gp_trace t[2];
	gp_writer w;
	gp_error err = {0};
	bool table;
	int rc, loaded = 0;

	rc = gp_cli_parse(&diff_spec, argc, argv, &co, diff_option, &o);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	table = strcmp(co.format, "table") == 0;
	if (gp_writer_open(&w, co.format, stdout, table ? cols_table : cols_raw, table ? NTCOLS : NCOLS,
			   &co.wo, &err))
		return gp_cli_usage("diff", "%s", err.msg);
	rc = load_run(co.file, &co.window, &t[0]);
	loaded = 1;
	if (rc == GP_EXIT_OK) {
		rc = load_run(co.file2, &co.window, &t[1]);
		loaded = 2;
	}
	if (rc == GP_EXIT_OK) {
		kernel_figures(&t[0], &co.peaks, &side[0]);
		kernel_figures(&t[1], &co.peaks, &side[1]);
		need[o.d.by] = true;
		for (int i = 0; i < o.ngates; i++)
			if (o.gates[i].target == GP_GATE_GROUP)
				need[o.gates[i].by] = true;
		for (int by = 0; by < 4; by++) {
			struct gp_diff_opts dopt = o.d;
			if (!need[by])
				continue;
			dopt.by = by;
			gp_diff_compute(&side[0], &side[1], &dopt, &diffs[by]);
		}
		{
			const struct gp_diff *d = &diffs[o.d.by];
			size_t shown = co.top < d->n - 2 ? co.top + 2 : d->n;
			for (size_t i = 0; i < shown; i++)
				(table ? write_table : write_raw)(&w, d, &d->rows[i]);
			if (gp_writer_close(&w, &err)) {
				gp_err_print(&err);
				rc = gp_exit_code(err.status);
			}
			if (o.d.stats && !d->stats)
				fprintf(stderr, "gpuprof diff: %zu and %zu iterations: no statistics (at least 4 "
					"per run are needed); changes of %g%% or more are marked\n",
					d->base_iters, d->test_iters, 100 * o.d.threshold);
		}
		if (rc == GP_EXIT_OK && o.ngates)
			rc = judge_gates(&o, diffs);
		for (int by = 0; by < 4; by++)
			if (need[by])
				gp_diff_free(&diffs[by]);
		free_figures(&side[0]);
		free_figures(&side[1]);
	}
	for (int i = 0; i < loaded; i++)
		gp_trace_free(&t[i]);
	return rc;
}
