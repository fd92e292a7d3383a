/*
** Fuzz target: the Kineto JSON reader, the framework-op attribution and
** the memory replay on whatever it produced, twice: parsed from memory in
** one pass, and loaded
** from a file as a command does (probing, the post-load passes) with the
** split-and-merge parse forced on (two parts at any size), so the merge of
** parts (strings, synthetic ids, multi-process pid linking) is fuzzed too,
** and so again with a window (--iters 1:2: the pre-scan, the read window,
** the cut).
** Any input must end in GP_OK or a clean error, never a crash, leak or
** sanitizer report.
*/
#include <stddef.h>
#include <stdint.h>

#include "analysis/memory.h"
#include "fuzz_file.h"
#include "readers/kineto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gp_trace t;
	gp_error err = {0};
	struct gp_correlate_opts o = {0};

	gp_trace_init(&t);
	if (gp_kineto_load_buffer("fuzz.json", data, size, &t, &err) == GP_OK) {
		struct gp_memory m;
		gp_trace_finish(&t);
		gp_correlate(&t, &o, &err);
		gp_memory_run(&t, &m);
		gp_memory_free(&m);
	}
	gp_trace_free(&t);

	struct gp_load_opts split = {.threads = 2, .parallel_min_bytes = 1};
	fuzz_load_file(data, size, &split, NULL);
	/* the read window: the pre-scan for ProfilerStep#1..2 and the base time */
	split.window = (struct gp_window){.mode = GP_WINDOW_ITERS, .iter_a = 1, .iter_b = 2};
	fuzz_load_file(data, size, &split, NULL);
	return 0;
}
