/*
** A step of known shape for checking `advise --what-if` on real hardware
** (bench/gpu-validate.sh, docs/dependencies.md): the model's predicted step
** time for a kernel made k times faster, computed from a recording of this
** program, against the recording of the program run with that kernel
** really k times shorter.
**
**   whatif_step [SLOW_US [ITERS]]      (defaults 600 and 40)
**
** Each iteration, on one stream:
**   head_kernel      spins 150 us (GPU global timer)
**   CPU              spins 80 us ("input preparation"; overlaps head_kernel)
**   slow_kernel      spins SLOW_US
**   tail_kernel      spins 50 us
**   cudaMemcpyAsync  4 bytes device to pinned host memory, then
**                    cudaStreamSynchronize
**   CPU              spins 120 us after the sync ("sampling": nothing on
**                    the GPU until the next iteration's head_kernel)
** so the step is about 150 + SLOW_US + 50 + 120 us plus launch and copy
** latency, and a faster slow_kernel shortens it by exactly its saving.
** Prints the median wall-clock step time in us ("us_per_step X").
*/
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <cuda_runtime.h>

static __device__ unsigned long long global_ns(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

static __device__ void spin(unsigned long long ns, int *out)
{
	unsigned long long t0 = global_ns(), n = 0;
	while (global_ns() - t0 < ns)
		n++;
	if (n == 0)
		*out = 1; /* never: keeps the loop from being folded */
}

__global__ void head_kernel(unsigned long long ns, int *out) { spin(ns, out); }
__global__ void slow_kernel(unsigned long long ns, int *out) { spin(ns, out); }
__global__ void tail_kernel(unsigned long long ns, int *out) { spin(ns, out); }

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void cpu_spin(double us)
{
	double t0 = now_us();
	while (now_us() - t0 < us)
		;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
	fprintf(stderr, "whatif_step: %s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	double slow_us = argc > 1 ? atof(argv[1]) : 600;
	int iters = argc > 2 ? atoi(argv[2]) : 40;
	if (!(slow_us > 0) || iters < 1 || iters > 100000) {
		fprintf(stderr, "usage: whatif_step [SLOW_US [ITERS]]\n");
		return 2;
	}
	int *dev, *host;
	cudaStream_t s;
	CHECK(cudaMalloc(&dev, sizeof(int)));
	CHECK(cudaMallocHost(&host, sizeof(int)));
	CHECK(cudaMemset(dev, 0, sizeof(int)));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	double *step = (double *)malloc(sizeof(double) * iters);
	for (int i = -3; i < iters; i++) { /* 3 warm-up steps */
		double t0 = now_us();
		head_kernel<<<1, 1, 0, s>>>(150000ull, dev);
		cpu_spin(80);
		slow_kernel<<<1, 1, 0, s>>>((unsigned long long)(slow_us * 1e3), dev);
		tail_kernel<<<1, 1, 0, s>>>(50000ull, dev);
		CHECK(cudaMemcpyAsync(host, dev, sizeof(int), cudaMemcpyDeviceToHost, s));
		CHECK(cudaStreamSynchronize(s));
		cpu_spin(120);
		if (i >= 0)
			step[i] = now_us() - t0;
	}
	CHECK(cudaGetLastError());
	qsort(step, iters, sizeof(double), cmp_double);
	printf("us_per_step %.1f\n", step[iters / 2]);
	free(step);
	cudaFreeHost(host);
	cudaFree(dev);
	return 0;
}
