/*
** gpuprof advise: what to change, ranked by the time at stake (rules in
** src/ops/advise.c, docs/op-model.md).  The command computes the
** findings; text for people goes through the advise-text sink, json, csv
** and tsv for tools through the row writers.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "cmds/cmds.h"
#include "cmds/options.h"
#include "ops/advise.h"
#include "ops/ops.h"
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
	"launch-bound tiny kernels, GPU idle gaps, host synchronization, pageable\n"
	"or synchronous copies, and grids smaller than the number of SMs.\n"
	"Times at stake are disjoint: time two findings share is counted once,\n"
	"in the larger, and the other says so (\"shared\"; overlap_ns and\n"
	"overlaps in json/csv/tsv).  See docs/op-model.md.",
	.shared = GP_OPT_FORMAT | GP_OPT_TOP | GP_OPT_PEAKS | GP_OPT_WINDOW,
	.formats = advise_formats,
	.row_formats = true,
	.format_note = "(text for people; the others one row per finding)",
};

static const struct gp_column cols[] = {
	{"rank", "Rank", 4, true, false, NULL},
	{"kind", "Kind", 12, false, false, NULL},
	{"time_ns", "AtStake(ns)", 10, true, false, NULL},
	{"share", "Share", 6, true, false, NULL},
	{"involved_ns", "Involved(ns)", 10, true, false, NULL},
	{"count", "Count", 5, true, false, NULL},
	{"title", "Finding", 20, false, true, NULL},
	{"evidence", "Evidence", 20, false, true, NULL},
	{"change", "Change", 20, false, true, NULL},
	{"overlap_ns", "Shared(ns)", 10, true, false, NULL},
	{"overlaps", "SharedWith", 10, false, true, NULL},
};

/* Writes the first top findings as rows to the open writer w and closes it. */
static int write_rows(gp_writer *w, const struct gp_findings *f, size_t top, gp_error *err)
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
	return gp_writer_close(w, err);
}

_Static_assert(sizeof(((struct gp_advise_time *)0)->idle_cause_ns) / sizeof(double) == GP_IDLE__COUNT,
	       "gp_advise_time keeps one sum per idle cause");

/* The time breakdown's sums the advise rules use (communication, exposed
** communication, idle time by cause), over the whole trace of every
** device.  The analysis' default short-gap threshold (10 us) applies. */
static void advise_time(const gp_trace *t, struct gp_advise_time *bt)
{
	struct gp_breakdown_opts bo = {.short_gap_ns = 10000, .is_comm = gp_kernel_is_comm};
	gp_breakdown b;
	gp_error err = {0};

	if (gp_breakdown_run(t, &bo, &b, &err))
		return;
	for (size_t i = 0; i < b.nwin; i++) {
		const struct gp_bd_window *w = &b.win[i];
		gp_ns hidden = w->by_mask[GP_BD_COMPUTE | GP_BD_COMM] +
			       w->by_mask[GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY];
		if (w->iter >= 0)
			continue;
		bt->comm_ns += (double)gp_bd_kind_time(w, GP_BD_COMM);
		bt->comm_exposed_ns += (double)(gp_bd_kind_time(w, GP_BD_COMM) - hidden);
		bt->idle_ns += (double)w->by_mask[0];
		for (int c = 0; c < GP_IDLE__COUNT; c++)
			bt->idle_cause_ns[c] += (double)w->idle[c];
	}
	gp_breakdown_free(&b);
}

int cmd_advise(int argc, char **argv)
{
	struct gp_cli_opts o;
	gp_error err = {0};
	gp_writer w;
	gp_sink sink;
	gp_trace t;
	int rc;

	rc = gp_cli_parse(&advise_spec, argc, argv, &o, NULL, NULL);
	if (rc)
		return rc == GP_CLI_DONE ? GP_EXIT_OK : rc;
	bool text = strcmp(o.format, "text") == 0;
	if (text ? gp_sink_open(&sink, "advise-text", stdout, &err)
		 : gp_writer_open(&w, o.format, stdout, cols, (int)(sizeof(cols) / sizeof(cols[0])), &o.wo, &err))
		return gp_cli_usage("advise", "%s", err.msg);

	gp_trace_init(&t);
	rc = gp_cli_load(o.file, &o.window, &t, NULL);
	if (rc) {
		if (text)
			gp_sink_discard(&sink);
		gp_trace_free(&t);
		return rc;
	}
	struct gp_opres *res = gp_ops_run(&t, &o.peaks);
	struct gp_findings f;
	struct gp_advise_time bt = {0};
	advise_time(&t, &bt);
	gp_advise_time(&t, res, &o.peaks, &bt, &f);

	if (text) {
		struct gp_analysis a = {.path = o.file, .trace = &t, .opres = res, .peaks = &o.peaks,
					.findings = &f, .top = o.top};
		rc = gp_sink_write_close(&sink, &a, &err);
	} else {
		rc = write_rows(&w, &f, o.top, &err);
	}
	if (rc) {
		gp_err_print(&err);
		rc = gp_exit_code(err.status);
	}
	gp_findings_free(&f);
	free(res);
	gp_trace_free(&t);
	return rc;
}
