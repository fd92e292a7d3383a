/*
** gpuprof html: the whole analysis as one self-contained HTML page
** (docs/html.md).  The command loads the trace, runs every pass the page
** shows (op model, time breakdown, memory, advise), reads the charting
** library (Chart.js from Debian's libjs-chart.js) to inline it, and hands
** everything to the html sink.
*/
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/breakdown.h"
#include "analysis/memory.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "ops/advise.h"
#include "ops/ops.h"
#include "writers/sink.h"

static const char *const html_formats[] = {"html", NULL};

enum { O_OUT, O_FORCE, O_CHARTJS };

static const struct gp_cmd_opt html_opts[] = {
	[O_OUT] = {"output", 'o', "FILE", "write the page to FILE (- : standard output)"},
	[O_FORCE] = {"force", 0, NULL, "overwrite an existing FILE"},
	[O_CHARTJS] = {"chart-js", 0, "JS", GP_CLI_CHARTJS_HELP},
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
	"by Chart.js, inlined from Debian's libjs-chart.js.  See docs/html.md.",
	.shared = GP_OPT_TOP | GP_OPT_PEAKS | GP_OPT_WINDOW,
	.formats = html_formats,
	.own = html_opts,
	.more = "Example: gpuprof html trace.json -o report.html && xdg-open report.html",
};

struct html_opts {
	const char *out;
	bool force;
	const char *chartjs;
};

static int html_option(void *ctx, int index, const char *arg)
{
	struct html_opts *x = ctx;

	switch (index) {
	case O_OUT: x->out = arg; return 0;
	case O_FORCE: x->force = true; return 0;
	case O_CHARTJS: x->chartjs = arg; return 0;
	}
	return GP_EXIT_USAGE;
}

/* Runs the passes the page shows over t (loaded) and writes the page to
** out through the html sink; GP_OK or the error in err. */
static int write_page(const char *path, gp_trace *t, const struct gp_cli_opts *o, const char *lib,
		      size_t lib_len, FILE *out, gp_error *err)
{
	struct gp_breakdown_opts bo = {.short_gap_ns = 10000, .top_gaps = 10, .is_comm = gp_kernel_is_comm,
				       .gap_causes = true};
	struct gp_advise_time bt = {0};
	struct gp_findings f;
	struct gp_memory m;
	gp_breakdown b;
	gp_sink sink;
	int rc;

	struct gp_opres *res = gp_ops_run(t, &o->peaks);
	rc = gp_breakdown_run(t, &bo, &b, err);
	if (rc) {
		free(res);
		return rc;
	}
	gp_cli_advise_time(&b, bo.short_gap_ns, &bt);
	gp_advise_time(t, res, &o->peaks, &bt, &f);
	gp_memory_run(t, &m);
	struct gp_analysis a = {.path = path, .trace = t, .opres = res, .peaks = &o->peaks, .findings = &f,
				.memory = &m, .breakdown = &b, .script = lib, .script_len = lib_len, .top = o->top};
	rc = gp_sink_open(&sink, "html", out, err);
	if (!rc)
		rc = gp_sink_write_close(&sink, &a, err);
	gp_memory_free(&m);
	gp_findings_free(&f);
	gp_breakdown_free(&b);
	free(res);
	return rc;
}

int cmd_html(int argc, char **argv)
{
	struct html_opts x = {0};
	struct gp_cli_opts o;
	gp_error err = {0};
	struct stat st;
	gp_trace t;
	int rc;

	rc = gp_cli_parse(&html_spec, argc, argv, &o, html_option, &x);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	if (!x.out)
		return gp_cli_usage("html", "-o FILE is required (- writes to standard output)");
	bool to_stdout = strcmp(x.out, "-") == 0;
	if (!to_stdout && !x.force && stat(x.out, &st) == 0) {
		fprintf(stderr, "gpuprof html: %s exists (--force overwrites it)\n", x.out);
		return GP_EXIT_IO;
	}
	size_t lib_len = 0;
	char *lib = gp_cli_read_chartjs("html", x.chartjs, &lib_len);
	if (!lib)
		return GP_EXIT_IO;

	gp_trace_init(&t);
	rc = gp_cli_load(o.file, &o.window, &t, NULL);
	FILE *out = rc ? NULL : to_stdout ? stdout : gp_cli_open_output("html", x.out, x.force);
	if (!rc && !out)
		rc = GP_EXIT_IO;
	if (out) {
		/* only this thread writes: no stream lock per character */
		__fsetlocking(out, FSETLOCKING_BYCALLER);
		rc = write_page(o.file, &t, &o, lib, lib_len, out, &err);
		if (!to_stdout && fclose(out) != 0 && !rc)
			rc = gp_err(&err, GP_ERR_IO, "%s: write failure", x.out);
		if (rc) {
			gp_err_print(&err);
			rc = gp_exit_code(err.status);
			if (!to_stdout)
				gp_cli_remove_output(x.out);
		}
	}
	free(lib);
	gp_trace_free(&t);
	return rc;
}
