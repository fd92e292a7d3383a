/*
** The cost of the step's dependency model (docs/PERFORMANCE.md, "The
** dependency model and the critical path"): loads a trace as `gpuprof
** summary` does (reader, correlation), then runs the runner's two passes
** GP_NEED_DEPS (the graph, the markers' labels) and GP_NEED_CRITPATH (the
** critical path of the whole trace and of every iteration) as
** gp_analysis_run does, and prints the CPU seconds of each part.
**
** usage: build/bench/deps_cost TRACE   (bench/deps.sh builds it)
*/
#include <stdio.h>
#include <time.h>

#include "analysis/correlate.h"
#include "analysis/critpath.h"
#include "analysis/deps.h"
#include "readers/reader.h"

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	gp_trace t;
	gp_deps d;
	gp_critpath cp;
	gp_error err = {0};
	struct gp_correlate_opts co = {0};
	struct gp_load_opts lo = {0};

	if (argc != 2) {
		fprintf(stderr, "usage: %s TRACE\n", argv[0]);
		return 2;
	}
	double t0 = cpu_now();
	gp_trace_init(&t);
	if (gp_trace_load(argv[1], &t, &lo, &err) || gp_correlate(&t, &co, &err)) {
		gp_err_print(&err);
		return 1;
	}
	double t1 = cpu_now();
	gp_deps_build(&d, &t);
	gp_deps_label_markers(&d, &t);
	double t2 = cpu_now();
	gp_critpath_run(&d, &t, false, &cp);
	double t3 = cpu_now();
	printf("load+correlate %.2f deps %.2f critpath %.2f (CPU s; %zu kernels, %zu iterations)\n", t1 - t0,
	       t2 - t1, t3 - t2, t.kernels.n, cp.nwin ? cp.nwin - 1 : 0);
	gp_critpath_free(&cp);
	gp_deps_free(&d);
	gp_trace_free(&t);
	return 0;
}
