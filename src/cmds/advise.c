/*
** gpuprof advise: what to change, ranked by the time at stake (rules in
** src/ops/advise.c, docs/op-model.md).  Text for people; --format json
** (or csv/tsv) for tools, through the common writers.
*/
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds/cmds.h"
#include "ops/advise.h"
#include "ops/ops.h"
#include "writers/writer.h"

static const char advise_help[] =
	"usage: gpuprof advise [-f FORMAT] [-n N] [--gpu NAME] [--peak-flops F] [--peak-bw B] FILE\n\n"
	"Findings about the trace, ranked by the time a change would save, each\n"
	"with its evidence (which ops or calls, how much time) and the change to\n"
	"make: tensor-core-eligible ops not on tensor cores (and which dimension\n"
	"to pad), fp32 GEMMs/convolutions that TF32 or mixed precision would\n"
	"speed up, kernels far below their roofline, launch-bound tiny kernels,\n"
	"GPU idle gaps, host synchronization, pageable or synchronous copies, and\n"
	"grids smaller than the number of SMs.  See docs/op-model.md.\n\n"
	"  -f, --format F      text (default), json, csv or tsv\n"
	"  -n, --top N         show at most N findings (default all)\n"
	"      --gpu NAME      peaks of this GPU (default: the trace's; 'list')\n"
	"      --peak-flops F  peak FLOP/s for every kernel\n"
	"      --peak-bw B     peak memory bandwidth, bytes/s\n"
	"  -h, --help          this text\n\n";

static const struct gp_column cols[] = {
	{"rank", "Rank", 4, true, false},
	{"kind", "Kind", 12, false, false},
	{"time_ns", "AtStake(ns)", 10, true, false},
	{"share", "Share", 6, true, false},
	{"involved_ns", "Involved(ns)", 10, true, false},
	{"count", "Count", 5, true, false},
	{"title", "Finding", 20, false, true},
	{"evidence", "Evidence", 20, false, true},
	{"change", "Change", 20, false, true},
};

/* Prints s wrapped at 76 columns, each line prefixed by indent. */
static void wrap(FILE *out, const char *label, const char *s)
{
	const char *indent = "     ";
	int col = fprintf(out, "%s%s", indent, label);

	while (*s) {
		const char *sp = strchr(s, ' ');
		int w = sp ? (int)(sp - s) : (int)strlen(s);
		if (col + w > 78 && col > (int)strlen(indent) + (int)strlen(label)) {
			fprintf(out, "\n%s  ", indent);
			col = (int)strlen(indent) + 2;
		}
		col += fprintf(out, "%.*s", w, s);
		s += w;
		while (*s == ' ')
			s++;
		if (*s)
			col += fprintf(out, " ");
	}
	fputc('\n', out);
}

static void print_text(const char *path, const struct gp_findings *f, size_t top)
{
	char d[64], d2[64];

	printf("gpuprof advise: %s\n", path);
	printf("GPU %s, %s of kernel time over a %s span\n", f->gpu ? f->gpu : "unknown (use --gpu)",
	       gp_fmt_duration(f->gpu_ns, d, sizeof(d)), gp_fmt_duration(f->span_ns, d2, sizeof(d2)));
	if (!f->v.n) {
		printf("\nNo findings: nothing above the thresholds.\n");
		return;
	}
	for (size_t i = 0; i < f->v.n && i < top; i++) {
		const struct gp_finding *x = &f->v.v[i];
		printf("\n%2zu. %s\n", i + 1, x->title);
		printf("     at stake: about %s (%.1f%% of the span)  [%s]\n",
		       gp_fmt_duration(x->ns, d, sizeof(d)), f->span_ns > 0 ? 100 * x->ns / f->span_ns : 0.0,
		       x->kind);
		wrap(stdout, "evidence: ", x->evidence);
		wrap(stdout, "change:   ", x->change);
	}
}

int cmd_advise(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"format", required_argument, NULL, 'f'},
		{"top", required_argument, NULL, 'n'},
		{"gpu", required_argument, NULL, 'G'},
		{"peak-flops", required_argument, NULL, 'F'},
		{"peak-bw", required_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *format = "text";
	struct gp_peak_opts po = {0};
	size_t top = (size_t)-1;
	gp_error err = {0};
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "f:n:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': format = optarg; break;
		case 'n': {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v <= 0)
				return gp_cli_usage("advise", "bad --top '%s' (a positive number)", optarg);
			top = (size_t)v;
			break;
		}
		case 'G': case 'F': case 'B':
			rc = gp_peak_option("advise", c == 'G' ? "gpu" : c == 'F' ? "peak-flops" : "peak-bw",
					    optarg, &po);
			if (rc)
				return rc < 0 ? GP_EXIT_OK : rc;
			break;
		case 'h': printf("%s%s", advise_help, gp_exit_help); return GP_EXIT_OK;
		default: return gp_cli_usage("advise", "bad option");
		}
	}
	if (optind != argc - 1)
		return gp_cli_usage("advise", "expected exactly one trace file");
	bool text = strcmp(format, "text") == 0;
	gp_writer w;
	if (!text) {
		/* check the format before loading a large trace */
		rc = gp_writer_open(&w, format, stdout, cols, (int)(sizeof(cols) / sizeof(cols[0])), NULL, &err);
		if (rc)
			return gp_cli_usage("advise", "%s (or text)", err.msg);
	}

	gp_trace t;
	gp_trace_init(&t);
	rc = gp_cli_load(argv[optind], &t);
	if (rc) {
		if (!text)
			gp_writer_close(&w, &err);
		gp_trace_free(&t);
		return rc;
	}
	struct gp_opres *res = gp_ops_run(&t);
	struct gp_findings f;
	gp_advise(&t, res, &po, &f);

	rc = GP_EXIT_OK;
	if (text) {
		print_text(argv[optind], &f, top);
		if (fflush(stdout) || ferror(stdout))
			rc = GP_EXIT_IO;
	} else {
		char rank[24], ns[32], share[16], inv[32], cnt[24];
		for (size_t i = 0; i < f.v.n && i < top; i++) {
			const struct gp_finding *x = &f.v.v[i];
			snprintf(rank, sizeof(rank), "%zu", i + 1);
			snprintf(ns, sizeof(ns), "%.0f", x->ns);
			snprintf(share, sizeof(share), "%.4f", f.span_ns > 0 ? x->ns / f.span_ns : 0.0);
			snprintf(inv, sizeof(inv), "%.0f", x->total_ns);
			snprintf(cnt, sizeof(cnt), "%zu", x->count);
			const char *vals[] = {rank, x->kind, ns, share, inv, cnt, x->title, x->evidence, x->change};
			gp_writer_row(&w, vals);
		}
		if (gp_writer_close(&w, &err)) {
			gp_err_print(&err);
			rc = gp_exit_code(err.status);
		}
	}
	gp_findings_free(&f);
	free(res);
	gp_trace_free(&t);
	return rc;
}
