/*
** The cost of an NVTX push/pop pair under `gpuprof record --trace nvtx`
** (the collector's NVTX side; no GPU needed), against the same loop with no
** NVTX tool (a no-op): N pairs timed with CLOCK_MONOTONIC (wall) and
** CLOCK_PROCESS_CPUTIME_ID (the CPU the process used, its writes included:
** on a loaded machine wall time mostly measures waiting for a CPU).
** Prints "pairs N wall_ns_per_pair X cpu_ns_per_pair Y".  make
** bench-record runs both.
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <nvtx3/nvToolsExt.h>

static double now_ns(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000000;
	double t0, t1, c0, c1;

	nvtxRangePushA("warm-up");   /* the tool loads on the first call */
	nvtxRangePop();
	t0 = now_ns(CLOCK_MONOTONIC);
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	for (int i = 0; i < n; i++) {
		nvtxRangePushA("layer:fc1");
		nvtxRangePop();
	}
	t1 = now_ns(CLOCK_MONOTONIC);
	c1 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	printf("pairs %d wall_ns_per_pair %.1f cpu_ns_per_pair %.1f\n", n, (t1 - t0) / n, (c1 - c0) / n);
	return 0;
}
