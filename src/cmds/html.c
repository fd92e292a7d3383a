/*
** gpuprof html: the whole analysis as one self-contained HTML page
** (docs/html.md).  The command loads the trace, runs the analysis the page
** shows (GP_HTML_NEEDS: op model, time breakdown, memory, advise, kernel
** groups, timeline), reads the charting library (Chart.js from Debian's
** libjs-chart.js) to inline it, and hands everything to the html sink.
** Several files (the ranks of a job) go through gp_cli_run: each rank is
** reduced on a worker to its part of the page (writers/html.h) and its
** rank record, its trace freed; the parts make one page in rank order.
*/
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "analysis/advise.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "writers/html.h"
#include "writers/sink.h"

static const char *const html_formats[] = {"html", NULL};

enum { O_OUT, O_FORCE, O_CHARTJS, O_RANK };

static const struct gp_cmd_opt html_opts[] = {
	[O_OUT] = {"output", 'o', "FILE", "write the page to FILE (- : standard output)"},
	[O_FORCE] = {"force", 0, NULL, "overwrite an existing FILE"},
	[O_CHARTJS] = {"chart-js", 0, "JS", GP_CLI_CHARTJS_HELP},
	[O_RANK] = {"rank", 0, "N", "several files: the layer, op and kernel tables and the\n"
		    "roofline of rank N alone (default: every rank's kernels summed)"},
	{NULL, 0, NULL, NULL},
};

static const struct gp_cmd_spec html_spec = {
	.name = "html",
	.about =
	"One self-contained HTML page to open in a browser or mail to a\n"
	"colleague (no network needed to view it): the trace's facts and GPUs,\n"
	"compute/communication/memory/idle time per iteration, time by layer\n"
	"(tables and an icicle of the layer tree), by op and by kernel\n"
	"(sortable, filterable tables), a roofline of every op and shape against\n"
	"the GPU's ceilings, step times, GPU busy time and memory over time, the\n"
	"longest idle gaps and the advice with its evidence.  Tables keep the\n"
	"-n longest rows (default 25) and an \"other\" row.  The charts are drawn\n"
	"by Chart.js, inlined from Debian's libjs-chart.js.\n"
	"Several files (one per rank of a job; a directory or a glob): one page\n"
	"for the whole job: a row per rank (its GPU, kernels, time split, median\n"
	"step and how much slower than the fastest rank), the step time of every\n"
	"rank per iteration with the slowest rank marked, the time split per\n"
	"rank, the tables and roofline over all ranks (--rank N: of one), busy\n"
	"time and memory per rank, the idle gaps and advice of every rank.\n"
	"See docs/html.md.",
	.shared = GP_OPT_TOP | GP_OPT_PEAKS | GP_OPT_WINDOW | GP_OPT_JOBS | GP_OPT_DEPTH,
	.top_help = "rows per table, then an \"other\" row (a positive\nnumber; default 25)",
	.formats = html_formats,
	.own = html_opts,
	.many_help =
	"Several traces: give several FILEs, a directory (the trace files in it,\n"
	"by name; other files are skipped with a note) or a quoted glob\n"
	"('run/rank*.json.gz').  Each file is one rank (from its metadata, else\n"
	"its name: rank-3, rank3, _3., else its position; docs/ranks.md), read\n"
	"-j at a time, reduced to its part of the page and freed.  A file that\n"
	"fails stops the command after all are read, with its error, and no\n"
	"page is written.\n\n",
	.more = "Examples:\n"
		"  gpuprof html trace.json -o report.html && xdg-open report.html\n"
		"  gpuprof html traces/rank-*.json -o job.html",
	.many_files = true,
};

struct html_opts {
	const char *out;
	bool force;
	const char *chartjs;
	int32_t only_rank;      /* --rank, -1 = every rank */
	/* set once the options are read */
	bool to_stdout;
	const struct gp_cli_opts *o;
	const char *lib;
	size_t lib_len;
};

static int html_option(void *ctx, int index, const char *arg)
{
	struct html_opts *x = ctx;
	char *end;
	long r;

	switch (index) {
	case O_OUT: x->out = arg; return 0;
	case O_FORCE: x->force = true; return 0;
	case O_CHARTJS: x->chartjs = arg; return 0;
	case O_RANK:
		r = strtol(arg, &end, 10);
		if (*end || end == arg || r < 0 || r > INT32_MAX)
			return gp_cli_usage("html", "--rank wants a rank number (0 or more), not '%s'", arg);
		x->only_rank = (int32_t)r;
		return 0;
	}
	return GP_EXIT_USAGE;
}

/* Runs the analysis the page shows over t (loaded; its rank's record too
** when more is GP_NEED_RECORD) into a; GP_OK or the runner's error in err
** (gp_analysis_free a either way). */
static int analyse(gp_trace *t, const struct html_opts *x, unsigned more, struct gp_analysis *a, gp_error *err)
{
	struct gp_analysis_opts ao;

	gp_cli_analysis_opts(x->o, &ao);
	ao.timeline_buckets = GP_HTML_BUCKETS;
	ao.layers.depth = x->o->depth;   /* the page's layers, cut once by the runner */
	return gp_analysis_run(t, GP_HTML_NEEDS | GP_NEED_LAYERS | more, &ao, a, err);
}

/* Opens the page's output (-o), NULL after printing why. */
static FILE *open_page(const struct html_opts *x)
{
	FILE *out = x->to_stdout ? stdout : gp_cli_open_output("html", x->out, x->force);

	/* only this thread writes: no stream lock per character */
	if (out)
		__fsetlocking(out, FSETLOCKING_BYCALLER);
	return out;
}

/* Writes in through the html sink to out and closes out; a failed page is
** removed.  GP_OK or the error in err. */
static int write_page(const struct html_opts *x, FILE *out, const struct gp_sink_input *in, gp_error *err)
{
	const struct gp_sink_opts so = {.top = x->o->top, .script = x->lib, .script_len = x->lib_len};
	gp_sink sink;
	int rc = gp_sink_open(&sink, "html", out, &so, err);

	if (!rc)
		rc = gp_sink_write_close(&sink, in, err);
	if (!x->to_stdout && fclose(out) != 0 && !rc)
		rc = gp_err(err, GP_ERR_IO, "%s: write failure", x->out);
	if (rc && !x->to_stdout)
		gp_cli_remove_output(x->out);
	if (!rc && !x->to_stdout)
		gp_cli_wrote("html", x->out, NULL);
	return rc;
}

/* One file (gp_cli_many.single): the page of one trace; the exit code. */
static int html_single(const void *ctx, const char *path)
{
	const struct html_opts *x = ctx;
	struct gp_analysis a;
	gp_error err = {0};
	gp_trace t;
	FILE *out;
	int rc;

	gp_trace_init(&t);
	rc = gp_cli_load(path, x->o, &t, NULL);
	/* said, but the page stays: a CPU-only trace's ops and ranges hold */
	if (!rc)
		gp_cli_no_kernels("html", path, &t, x->o, false);
	if (!rc && !(out = open_page(x)))
		rc = GP_EXIT_IO;
	if (!rc) {
		int st = analyse(&t, x, 0, &a, &err);
		if (st == GP_OK) {
			const struct gp_sink_input in = {.path = path, .an = &a};
			st = write_page(x, out, &in, &err);
		} else if (!x->to_stdout) {
			fclose(out);
			gp_cli_remove_output(x->out);
		}
		gp_analysis_free(&a);
		if (st) {
			gp_err_print(&err);
			rc = gp_exit_code(st);
		}
	}
	gp_trace_free(&t);
	return rc;
}

/* One rank of several (gp_cli_trace_fn): its part of the page as rows, an
** "input" row with its input object, then its groups and layer views; its
** record to rec. */
static int html_rank(const void *ctx, gp_trace *t, gp_writer *w, gp_writer *rec, gp_error *err)
{
	const struct html_opts *x = ctx;
	struct gp_analysis a;
	char *text = NULL;
	size_t len = 0;
	FILE *f = NULL;
	/* the record with its critical path's legs: the job's path across ranks */
	int rc = analyse(t, x, GP_NEED_RANK_PATH | GP_NEED_RANK_ADVICE, &a, err);

	if (rc == GP_OK && !(f = open_memstream(&text, &len)))
		rc = gp_err(err, GP_ERR_INTERNAL, "html: no memory to keep a rank's part");
	if (rc == GP_OK) {
		gp_html_input(f, NULL, &a, x->o->top);
		fclose(f);
		const char *row[GP_KGROUP_NCOLS] = {"input", text};
		gp_writer_row(w, row);
		free(text);
		gp_kgroups_put(&a.groups, w);
		gp_layer_views_put(&a.layer_views, t, w);
		if (rec) {
			gp_rank_record_put(&a.record, rec);
			gp_findings_put(&a.findings, rec);   /* judged in the job, as advise DIR */
		}
	}
	gp_analysis_free(&a);
	return rc;
}

/* Several files (gp_cli_reduce_fn): the ranks' parts as one page. */
static int html_reduce(const void *ctx, const struct gp_cli_result *const *res, size_t n, gp_writer *unused,
		       gp_error *err)
{
	const struct html_opts *x = ctx;
	struct gp_html_rank *ranks = gp_xcalloc(n, sizeof(*ranks));
	struct gp_kgroups groups;
	struct gp_rank_job cmp;
	struct gp_job_path path = {0};
	struct gp_findings findings = {0};
	struct gp_a2a a2a = {0};
	struct gp_layer_views_job views;
	struct gp_html_job job = {.ranks = ranks, .n = n, .cmp = &cmp, .only_rank = x->only_rank, .groups = &groups,
				  .path = &path, .findings = &findings, .a2a = &a2a, .layer_views = &views};
	bool found = x->only_rank < 0;
	int rc = gp_cli_rank_job(res, n, false, &cmp, err);

	gp_kgroups_init(&groups);
	gp_layer_views_job_init(&views);
	for (size_t i = 0; i < n && rc == GP_OK; i++) {
		const char *c[GP_KGROUP_NCOLS];
		size_t at = 0;
		ranks[i] = (struct gp_html_rank){.path = res[i]->path, .id = res[i]->id};
		if (gp_rowbuf_next(&res[i]->rows, &at, c) == 1 && c[0] && strcmp(c[0], "input") == 0 && c[1])
			ranks[i].input = c[1];
		else
			rc = gp_err(err, GP_ERR_FORMAT, "%s: html: the rank's part is damaged", res[i]->path);
		found |= res[i]->id.rank == x->only_rank;
	}
	if (rc == GP_OK && !found)
		rc = gp_err(err, GP_ERR_USAGE, "html: --rank %d: no such rank among the %zu files", x->only_rank, n);
	/* the tables and layer views: the groups of every rank, or of one, summed by name */
	for (size_t i = 0; i < n && rc == GP_OK; i++) {
		size_t at;
		if (x->only_rank >= 0 && res[i]->id.rank != x->only_rank)
			continue;
		if (!gp_kgroups_add_rows(&groups, &res[i]->rows, &at) ||
		    !gp_layer_views_job_add(&views, &res[i]->rows, &at))
			rc = gp_err(err, GP_ERR_FORMAT, "%s: html: the rank's kept groups are damaged (byte %zu)",
				    res[i]->path, at);
	}
	gp_layer_views_job_end(&views);
	if (rc == GP_OK) {
		gp_job_path_run(&cmp, &path);
		/* the straggler and the ranks' findings, as advise DIR gives them */
		gp_advise_job(&cmp, &path, &findings);
		gp_advise_job_ranks(&cmp, &findings);
		gp_a2a_of_job(&cmp, &a2a);
	}
	FILE *out = rc == GP_OK ? open_page(x) : NULL;
	if (rc == GP_OK && !out)
		rc = gp_err(err, GP_ERR_IO, "%s: the page was not written", x->out);
	if (rc == GP_OK) {
		const struct gp_sink_input in = {.job = &job};
		rc = write_page(x, out, &in, err);
	}
	gp_kgroups_free(&groups);
	gp_layer_views_job_free(&views);
	gp_findings_free(&findings);
	gp_a2a_free(&a2a);
	gp_job_path_free(&path);
	gp_rank_job_free(&cmp);
	free(ranks);
	return rc;
}

int cmd_html(int argc, char **argv)
{
	struct html_opts x = {.only_rank = -1};
	struct gp_cli_many m = {.cmd = "html", .fn = html_rank, .ctx = &x, .cols = gp_kgroup_cols,
				.ncols = GP_KGROUP_NCOLS, .reduce = html_reduce, .single = html_single,
				.want_record = true};
	struct gp_cli_opts o;
	struct stat st;
	int rc;

	rc = gp_cli_parse(&html_spec, argc, argv, &o, html_option, &x);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (!x.out)
		return gp_cli_usage("html", "-o FILE is required (- writes to standard output)");
	x.to_stdout = strcmp(x.out, "-") == 0;
	if (!x.to_stdout && !x.force && stat(x.out, &st) == 0) {
		fprintf(stderr, "gpuprof html: %s exists (--force overwrites it)\n", x.out);
		return GP_EXIT_IO;
	}
	char *lib = gp_cli_read_chartjs("html", x.chartjs, &x.lib_len);
	if (!lib)
		return GP_EXIT_IO;
	x.lib = lib;
	x.o = &o;
	rc = gp_cli_run(&m, &o);
	free(lib);
	return rc;
}
