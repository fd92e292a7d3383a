// The cost of `gpuprof record` per kernel launch (bench/record-overhead.sh):
// N launches of an empty kernel on one stream, timed on the host from the
// first launch to the synchronize after the last.  Prints
// "launches N ns_per_launch X".  Needs a GPU; built by the script with nvcc.
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cuda_runtime.h>

__global__ void empty_kernel(int *p) { if (p) *p = 0; }

static double now_ns()
{
	timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200000;
	cudaStream_t s;

	if (cudaStreamCreate(&s) != cudaSuccess) {
		fprintf(stderr, "record_launch_loop: no CUDA device\n");
		return 2;
	}
	empty_kernel<<<1, 1, 0, s>>>(nullptr);   // warm-up: context, module load
	cudaStreamSynchronize(s);
	double t0 = now_ns();
	for (int i = 0; i < n; i++)
		empty_kernel<<<1, 32, 0, s>>>(nullptr);
	cudaStreamSynchronize(s);
	double t1 = now_ns();
	printf("launches %d ns_per_launch %.1f\n", n, (t1 - t0) / n);
	return 0;
}
