/*
** A training loop annotated with libgpuprof, without any GPU: iteration,
** forward, backward and update markers, PyProf-style layer ranges, a
** scoped timer and a guarded profiler capture range.
**
**   make -C examples && GPUPROF_RECORD=simple.gprec ./examples/simple
**   gpuprof ranges simple.gprec
*/
#include <stdio.h>
#include <gpuprof/gpuprof.h>

#define ITERATIONS 3

/* Stand-in for real work: a little arithmetic the compiler cannot drop. */
static double work(int n)
{
	volatile double x = 0;
	for (int i = 0; i < n; i++)
		x += i * 0.5;
	return x;
}

static double conv(const char *name, int n)
{
	GP_LAYER_SCOPE(name);
	GP_TIMER_SCOPE("conv");
	return work(n);
}

static double forward(void)
{
	double y = 0;

	gp_phase_begin(GP_FORWARD);
	gp_layer_push("Block1");
	y += conv("Conv1", 20000);
	y += conv("Conv2", 40000);
	gp_pop();
	gp_phase_end(GP_FORWARD);
	return y;
}

int main(void)
{
	char path[256];
	double sum = 0;

	GP_PROFILER_SCOPE();   /* no-op without CUDA */
	for (int it = 0; it < ITERATIONS; it++) {
		gp_phase_begin(GP_ITERATION);
		sum += forward();
		gp_phase_begin(GP_BACKWARD);
		sum += work(60000);
		gp_phase_end(GP_BACKWARD);
		gp_phase_begin(GP_UPDATE);
		{
			GP_TIMER_SCOPE("optimizer step");
			sum += work(10000);
		}
		gp_phase_end(GP_UPDATE);
		gp_mark(NULL, "iteration done", 0);
		gp_phase_end(GP_ITERATION);
	}
	gp_layer_push("Head");
	gp_layer_path(path, sizeof(path));
	gp_pop();
	printf("simple: %d iterations, checksum %.1f, last layer path '%s', CUDA %s\n", ITERATIONS,
	       sum, path, gp_cuda_available() ? "found" : "not found");
	gp_timer_report(stdout, GP_REPORT_TABLE);
	return 0;
}
