/*
** Fuzz target: the gpuprof recording reader (versions 1 to 3).  `gpuprof
** ranges` builds nesting paths from parent indexes, so a loaded trace must
** have parents that precede their children; no range, kernel, memcpy,
** memset, API call or sync may end before it starts (what the collector's
** records give the timeline).
*/
#include "fuzz_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK_TIMES(vec) \
	for (size_t i = 0; i < (vec).n; i++) \
		if ((vec).v[i].end < (vec).v[i].start) \
			abort();

static void check_ranges(const gp_trace *t)
{
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].parent >= (int32_t)i || t->ranges.v[i].end < t->ranges.v[i].start)
			abort();
	CHECK_TIMES(t->kernels)
	CHECK_TIMES(t->memcpys)
	CHECK_TIMES(t->memsets)
	CHECK_TIMES(t->apis)
	CHECK_TIMES(t->syncs)
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_file(data, size, NULL, check_ranges);
	return 0;
}
