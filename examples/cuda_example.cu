/*
** libgpuprof with CUDA: a kernel per layer, chainer_profutil's markers at
** sync level 2 (so each phase's range covers its own GPU work), a GPU timer
** measured with CUDA events and an nsys capture range.  On a machine
** without a GPU it says so, runs the same annotated loop without kernels
** and exits 0.
**
**   nsys profile --capture-range=cudaProfilerApi ./cuda_example
**   GPUPROF_RECORD=cuda.gprec ./cuda_example && gpuprof ranges cuda.gprec
*/
#include <stdio.h>
#include <cuda_runtime.h>
#include <gpuprof/gpuprof.h>

#define N (1 << 20)
#define ITERATIONS 5

__global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] = x[i] * a + 1.0f;
}

/* One "layer": a kernel, timed on the GPU, inside a layer range. */
static void layer(const char *name, float *x, int gpu)
{
	GP_LAYER_SCOPE(name);
	GP_GPU_TIMER_SCOPE(name, NULL);
	if (gpu)
		scale<<<(N + 255) / 256, 256>>>(x, 0.5f, N);
}

int main(void)
{
	int ndev = 0;
	float *x = NULL;
	cudaError_t e = cudaGetDeviceCount(&ndev);
	int gpu = e == cudaSuccess && ndev > 0;

	if (!gpu)
		printf("cuda_example: no GPU found (%s); annotations are no-ops on the GPU side\n",
		       e == cudaSuccess ? "0 devices" : cudaGetErrorString(e));
	else if (cudaMalloc(&x, N * sizeof(float)) != cudaSuccess || cudaMemset(x, 0, N * sizeof(float)) != cudaSuccess) {
		printf("cuda_example: cannot allocate device memory\n");
		return 1;
	}
	gp_set_sync_level(2);
	for (int it = 0; it < ITERATIONS; it++) {
		/* the capture range leaves out the warm-up iteration (module
		** loading, first-launch costs), as one profiles a training loop */
		if (it == 1)
			gp_profiler_start();
		gp_phase_begin(GP_ITERATION);
		gp_phase_begin(GP_FORWARD);
		layer("Conv1", x, gpu);
		layer("Conv2", x, gpu);
		gp_phase_end(GP_FORWARD);
		gp_phase_begin(GP_BACKWARD);
		layer("Conv2_grad", x, gpu);
		gp_phase_end(GP_BACKWARD);
		gp_phase_begin(GP_UPDATE);
		layer("SGD", x, gpu);
		gp_phase_end(GP_UPDATE);
		gp_phase_end(GP_ITERATION);
	}
	gp_profiler_stop();
	if (gpu) {
		cudaDeviceSynchronize();
		cudaFree(x);
	}
	printf("cuda_example: %d iterations, GPU %s, libgpuprof sees CUDA: %s\n", ITERATIONS,
	       gpu ? "used" : "not found", gp_cuda_available() ? "yes" : "no");
	gp_timer_report(stdout, GP_REPORT_TABLE);
	return 0;
}
