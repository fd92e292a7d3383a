/*
** Fuzz target: the gpuprof recording reader.  `gpuprof ranges` builds
** nesting paths from parent indexes, so a loaded trace must have parents
** that precede their children and no range ending before it starts.
*/
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_ranges(const gp_trace *t)
{
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].parent >= (int32_t)i || t->ranges.v[i].end < t->ranges.v[i].start)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_file(data, size, NULL, check_ranges);
	return 0;
}
