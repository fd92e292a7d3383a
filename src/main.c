/*
** gpuprof: where deep-learning programs lose time on NVIDIA GPUs.
** Dispatches to one command per file in src/cmds/.
*/
#include <malloc.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "cmds/cmds.h"
#include "util/version.h"

/* The front door: in the order a user needs them, each with the question
** it answers and how it is usually called; `gpuprof` and `gpuprof --help`
** print this table and README.md opens with the same (t0001 compares). */
const struct gp_command gp_commands[] = {
	{"advise", cmd_advise, "advise FILE", "What should I change, and what would it save?", 1},
	{"html", cmd_html, "html -o report.html FILE", "All of it on one page, to read in a browser", 1},
	{"breakdown", cmd_breakdown, "breakdown FILE",
	 "Where does the GPU time go: compute, communication,\nmemory, idle (and why is the GPU idle)?", 0},
	{"summary", cmd_summary, "summary --by layer FILE",
	 "Which kernels, ops, layers or module types take the\ntime (--by kernel|op|layer|module-type|iter)?", 0},
	{"report", cmd_report, "report FILE",
	 "Which layer and op launched each kernel, with what\nshapes, FLOPs and efficiency?", 0},
	{"ops", cmd_ops, "ops FILE", "PyTorch's key_averages(): CPU and GPU time per op", 0},
	{"memory", cmd_memory, "memory FILE", "How much memory, when is the peak, who allocates?", 0},
	{"ranges", cmd_ranges, "ranges FILE", "How long do my NVTX ranges, markers, timers take?", 0},
	{"info", cmd_info, "info FILE", "What does this trace hold: format, GPUs, counts?", 0},
	{"ranks", cmd_ranks, "ranks DIR", "Which rank of a multi-GPU job is slow? (advise DIR:\neach rank's findings and the straggler)", 0},
	{"comm", cmd_comm, "comm DIR", "Who holds the collectives up; is their bandwidth\nwhat the link gives?", 0},
	{"diff", cmd_diff, "diff BASE TEST", "What changed between two runs: significant or noise?", 0},
	{"export", cmd_export, "export -o out.json FILE",
	 "A timeline for ui.perfetto.dev, or flame-graph\nstacks (-f folded)", 0},
	{"record", cmd_record, "record -- CMD", "Record a program without Nsight Systems (CUPTI)", 0},
	{NULL, NULL, NULL, NULL, 0},
};

/* One front-door line: "  CALL" padded, then the question, its
** continuation lines under it. */
static void door_line(FILE *out, const struct gp_command *c)
{
	fprintf(out, "  %-25s ", c->call);
	for (const char *q = c->question; *q; q++) {
		fputc(*q, out);
		if (*q == '\n')
			fprintf(out, "%28s", "");
	}
	fputc('\n', out);
}

static void usage(FILE *out)
{
	fprintf(out, "usage: gpuprof COMMAND [OPTIONS] FILE...\n\n"
		     "Where a deep-learning program loses GPU time, and what to change.  FILE is\n"
		     "an Nsight Systems or nvprof SQLite export, a PyTorch profiler (Kineto)\n"
		     "JSON trace (.json or .json.gz), ROCm's rocprofv3 JSON or CSV output, a\n"
		     "JAX/TensorFlow XPlane profile (.xplane.pb) or a gpuprof recording; the\n"
		     "format is recognised from the content.\n\nStart here:\n");
	for (int i = 0; gp_commands[i].name; i++)
		if (gp_commands[i].start)
			door_line(out, &gp_commands[i]);
	fprintf(out, "\nThen, by question:\n");
	for (int i = 0; gp_commands[i].name; i++)
		if (!gp_commands[i].start)
			door_line(out, &gp_commands[i]);
	fprintf(out, "\nFILE may also be several files, a directory or a quoted glob (one trace\n"
		     "per rank), except for report, ops and memory; diff's BASE and TEST may\n"
		     "each be one.  'gpuprof COMMAND --help' (or 'gpuprof help COMMAND') describes\n"
		     "a command's options.\n\n%s",
		gp_exit_help);
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	/* Traces are a few huge arrays.  Freeing one (the Kineto reader's
	** per-thread parts, hash tables that grew) would make glibc raise its
	** mmap threshold to that size and serve later mid-size blocks from the
	** heap, which stays resident: ~10 MiB more at report's peak on a
	** 285 MB Kineto trace.  A fixed threshold keeps big blocks mmap'd. */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	/* Only the main thread writes stdout; once a reader has started a
	** thread, glibc would otherwise lock the stream on every fputc of the
	** writers (+0.3 s for a 200,000-row CSV). */
	__fsetlocking(stdout, FSETLOCKING_BYCALLER);
#endif
	if (argc < 2) {
		usage(stderr);
		return GP_EXIT_USAGE;
	}
	/* "gpuprof help COMMAND" is "gpuprof COMMAND --help" */
	if (strcmp(argv[1], "help") == 0 && argc == 3) {
		for (int i = 0; gp_commands[i].name; i++)
			if (strcmp(argv[2], gp_commands[i].name) == 0)
				return gp_commands[i].fn(2, (char *[]){argv[2], "--help", NULL});
		fprintf(stderr, "gpuprof: unknown command '%s'\n\n", argv[2]);
		usage(stderr);
		return GP_EXIT_USAGE;
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
		usage(stdout);
		return GP_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("gpuprof %s\n", GP_VERSION);
		return GP_EXIT_OK;
	}
	for (int i = 0; gp_commands[i].name; i++)
		if (strcmp(argv[1], gp_commands[i].name) == 0) {
			int rc = gp_commands[i].fn(argc - 1, argv + 1);
			/* as perf does: a full disk or closed pipe must not look like success */
			if (fflush(stdout) != 0 || ferror(stdout)) {
				if (rc == GP_EXIT_OK)
					fprintf(stderr, "gpuprof: write failure on standard output\n");
				return rc ? rc : GP_EXIT_IO;
			}
			return rc;
		}
	fprintf(stderr, "gpuprof: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return GP_EXIT_USAGE;
}
