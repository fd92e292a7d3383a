/*
** A CUDA graph captured inside libgpuprof layer ranges, then replayed: for
** checking that `gpuprof record` gives each replayed kernel the layer that
** was open when its node was captured (docs/graphs.md, docs/gpu-validation.md).
**
**   record_graph_layers [REPLAYS]      (default 10)
**
** The capture: layer "encoder" holds kernels a (twice) and b; layer
** "decoder" holds kernel c; kernel d is captured outside any layer.  Each
** replay so runs a, a, b, c, d; `gpuprof report -c layer,kernel` of a
** recording must name encoder for a and b, decoder for c, none for d, in
** every replay.
*/
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include <gpuprof/gpuprof.h>

__global__ void kernel_a(float *x) { x[threadIdx.x] += 1.0f; }
__global__ void kernel_b(float *x) { x[threadIdx.x] *= 2.0f; }
__global__ void kernel_c(float *x) { x[threadIdx.x] -= 3.0f; }
__global__ void kernel_d(float *x) { x[threadIdx.x] = 0.5f * x[threadIdx.x]; }

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
	fprintf(stderr, "record_graph_layers: %s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
	int replays = argc > 1 ? atoi(argv[1]) : 10;
	float *x;
	cudaStream_t s;
	cudaGraph_t g;
	cudaGraphExec_t ge;

	if (replays < 1 || replays > 1000000) {
		fprintf(stderr, "usage: record_graph_layers [REPLAYS]\n");
		return 2;
	}
	CHECK(cudaMalloc(&x, 256 * sizeof(float)));
	CHECK(cudaMemset(x, 0, 256 * sizeof(float)));
	CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	gp_layer_push("encoder");
	kernel_a<<<1, 256, 0, s>>>(x);
	kernel_a<<<1, 256, 0, s>>>(x);
	kernel_b<<<1, 256, 0, s>>>(x);
	gp_pop();
	gp_layer_push("decoder");
	kernel_c<<<1, 256, 0, s>>>(x);
	gp_pop();
	kernel_d<<<1, 256, 0, s>>>(x);
	CHECK(cudaStreamEndCapture(s, &g));
	CHECK(cudaGraphInstantiate(&ge, g, 0));
	for (int i = 0; i < replays; i++) {
		gp_phase_begin(GP_ITERATION);
		CHECK(cudaGraphLaunch(ge, s));
		CHECK(cudaStreamSynchronize(s));
		gp_phase_end(GP_ITERATION);
	}
	printf("record_graph_layers: %d replays of 5 kernels\n", replays);
	cudaGraphExecDestroy(ge);
	cudaGraphDestroy(g);
	cudaFree(x);
	return 0;
}
