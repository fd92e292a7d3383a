/*
** gpuprof: where deep-learning programs lose time on NVIDIA GPUs.
** Dispatches to one command per file in src/cmds/.
*/
#include <malloc.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>

#include "cmds/cmds.h"

#ifndef GP_VERSION
#define GP_VERSION "0.1.0"
#endif

const struct gp_command gp_commands[] = {
	{"info", cmd_info, "what a trace holds: format, GPUs, counts, time span", 0},
	{"report", cmd_report, "one row per kernel: layer, op, direction, shapes, time (PyProf's view)", 0},
	{"summary", cmd_summary, "time per kernel, memcpy/memset and API call (nvprof's summary)", 0},
	{"advise", cmd_advise, "ranked findings with the change to make", 0},
	{"ops", cmd_ops, "per op or range: self and total CPU and GPU time (PyTorch's key_averages)", 0},
	{"export", cmd_export, "the trace for Perfetto/chrome://tracing, or flame-graph stacks", 0},
	{"html", cmd_html, "a self-contained HTML report with charts, to open in a browser", 0},
	{"ranges", cmd_ranges, "statistics per NVTX range, marker and timer, by nesting path", 0},
	{"memory", cmd_memory, "allocated and reserved memory over time, peak, allocations per op", 0},
	{"diff", cmd_diff, "what changed between two runs, with statistics and a CI gate", 0},
	{"breakdown", cmd_breakdown, "where GPU time goes: compute, communication, memory, idle and its causes", 0},
	{"ranks", cmd_ranks, "one trace per rank: step time, skew, slowest and fastest rank", 0},
	{"comm", cmd_comm, "collectives across rank files: stragglers, waits, skew, busbw vs link peak", 0},
	{"record", cmd_record, "run a program under gpuprof's CUPTI collector: a recording without nsys", 0},
	{NULL, NULL, NULL, 0},
};

static void usage(FILE *out)
{
	fprintf(out, "usage: gpuprof COMMAND [OPTIONS] FILE...\n\n"
		     "Reads Nsight Systems and nvprof SQLite exports, PyTorch profiler (Kineto)\n"
		     "JSON traces, ROCm's rocprofv3 JSON and CSV output and gpuprof recordings,\n"
		     "and tells which layer and op launched each kernel and where the GPU time\n"
		     "goes.\n\nCommands:\n");
	for (int i = 0; gp_commands[i].name; i++)
		if (!gp_commands[i].hidden)
			fprintf(out, "  %-9s %s\n", gp_commands[i].name, gp_commands[i].summary);
	fprintf(out, "\ninfo, summary, advise, ranges, breakdown, ranks and comm take several\n"
		     "FILEs, a directory or a glob (one trace per rank); diff takes two.\n"
		     "'gpuprof COMMAND --help' describes a command's options.\n\n%s", gp_exit_help);
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
