/*
** The cost of libgpuprof's annotations with no profiler attached: a
** push/pop pair, a scoped CPU timer, a layer push/pop, a phase marker pair,
** and a push/pop pair while recording (GPUPROF_RECORD).  Prints ns per
** operation, the median of 5 runs of 2M operations each (100k while
** recording, which keeps every event in memory until exit).
**
**   make bench-lib          (docs/PERFORMANCE.md, libgpuprof section has the figures)
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gpuprof/gpuprof.h"

#define OPS 2000000
#define RUNS 5

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int ops = OPS;

static void push_pop(void) { for (int i = 0; i < ops; i++) { gp_push("bench"); gp_pop(); } }
static void layer(void) { for (int i = 0; i < ops; i++) { gp_layer_push("Conv1"); gp_pop(); } }
static void phase(void) { for (int i = 0; i < ops; i++) { gp_phase_begin(GP_FORWARD); gp_phase_end(GP_FORWARD); } }
static void timer(void) { for (int i = 0; i < ops; i++) { GP_TIMER_SCOPE("bench timer"); } }
static void clock_pair(void) { for (int i = 0; i < ops; i++) { now_ns(); now_ns(); } }

static void bench(const char *what, void (*fn)(void))
{
	double t[RUNS];

	fn();   /* warm up: first-call initialization, page faults */
	for (int r = 0; r < RUNS; r++) {
		double t0 = now_ns();
		fn();
		t[r] = (now_ns() - t0) / ops;
	}
	qsort(t, RUNS, sizeof(t[0]), cmp);
	printf("%-34s %7.1f ns\n", what, t[RUNS / 2]);
}

int main(void)
{
	struct gp_options o = {.sz = sizeof(o), .sync_level = -1};

	printf("libgpuprof %s, no profiler attached, %d ops x %d runs (median)\n", gp_version(), OPS, RUNS);
	bench("two clock_gettime (reference)", clock_pair);
	bench("push/pop pair", push_pop);
	bench("layer push/pop pair", layer);
	bench("phase begin/end pair (sync off)", phase);
	bench("scoped CPU timer", timer);
	/* recording keeps every event in memory: fewer of them */
	ops = OPS / 20;
	o.record_path = "/dev/null";
	gp_init(&o);
	bench("push/pop pair, recording", push_pop);
	bench("scoped CPU timer, recording", timer);
	o.record_path = "";   /* nothing to write at exit */
	gp_init(&o);
	return 0;
}
