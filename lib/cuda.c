/*
** The CUDA runtime, found at run time: the library never links CUDA, so a
** program using it runs unchanged on a machine without a GPU or driver.
**
** Search order: a runtime the program already loaded (its soname, found
** with RTLD_NOLOAD: PyTorch's copy, say), then $GPUPROF_CUDART, then the
** usual sonames on the loader path, then /usr/local/cuda/lib64.  A runtime
** that reports no device (no driver, no GPU) counts as no CUDA.  The
** exported functions that only reach CUDA (gp_cuda_available, the profiler
** capture range) are here too.
*/
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const sonames[] = {
	"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so",
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static struct gpi_cuda runtime;
static const struct gpi_cuda *_Atomic active;
static _Atomic int overridden;

static void *open_runtime(void)
{
	const char *env = getenv("GPUPROF_CUDART");
	char path[256];
	void *h;

	for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++)
		if ((h = dlopen(sonames[i], RTLD_NOW | RTLD_NOLOAD)) != NULL)
			return h;
	if (env && *env && (h = dlopen(env, RTLD_NOW | RTLD_LOCAL)) != NULL)
		return h;
	for (size_t i = 0; i < sizeof(sonames) / sizeof(sonames[0]); i++) {
		if ((h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL)) != NULL)
			return h;
		snprintf(path, sizeof(path), "/usr/local/cuda/lib64/%s", sonames[i]);
		if ((h = dlopen(path, RTLD_NOW | RTLD_LOCAL)) != NULL)
			return h;
	}
	return NULL;
}

/* Looks sym up in h into *slot (a function pointer of any type). */
static int resolve(void *h, const char *sym, void *slot)
{
	void *f = dlsym(h, sym);
	memcpy(slot, &f, sizeof(f));
	return f != NULL;
}

static void load_runtime(void)
{
	void *h = open_runtime();
	int ok, ndev = 0;

	if (!h) {
		gpi_log(2, "no CUDA runtime found: GPU features are off");
		return;
	}
	ok = resolve(h, "cudaDeviceSynchronize", &runtime.device_synchronize) &
	     resolve(h, "cudaGetDeviceCount", &runtime.get_device_count) &
	     resolve(h, "cudaEventCreate", &runtime.event_create) &
	     resolve(h, "cudaEventRecord", &runtime.event_record) &
	     resolve(h, "cudaEventQuery", &runtime.event_query) &
	     resolve(h, "cudaEventSynchronize", &runtime.event_synchronize) &
	     resolve(h, "cudaEventElapsedTime", &runtime.event_elapsed_time) &
	     resolve(h, "cudaEventDestroy", &runtime.event_destroy);
	resolve(h, "cudaProfilerStart", &runtime.profiler_start);
	resolve(h, "cudaProfilerStop", &runtime.profiler_stop);
	if (!ok) {
		gpi_log(1, "the CUDA runtime lacks functions libgpuprof needs: GPU features are off");
		dlclose(h);
		return;
	}
	if (runtime.get_device_count(&ndev) != 0 || ndev < 1) {
		gpi_log(2, "no CUDA device (or no driver): GPU features are off");
		dlclose(h);
		return;
	}
	if (!atomic_load(&overridden))
		atomic_store(&active, &runtime);
}

const struct gpi_cuda *gpi_cuda(void)
{
	if (!atomic_load_explicit(&overridden, memory_order_relaxed))
		pthread_once(&load_once, load_runtime);
	return atomic_load_explicit(&active, memory_order_acquire);
}

GPI_EXPORT int gp_cuda_available(void)
{
	gpi_init();
	return gpi_cuda() != NULL;
}

GPI_EXPORT int gp_profiler_start(void)
{
	const struct gpi_cuda *c;

	gpi_init();
	c = gpi_cuda();
	if (!c || !c->profiler_start)
		return -1;
	return c->profiler_start() == 0 ? 0 : -1;
}

GPI_EXPORT int gp_profiler_stop(void)
{
	const struct gpi_cuda *c;

	gpi_init();
	c = gpi_cuda();
	if (!c || !c->profiler_stop)
		return -1;
	return c->profiler_stop() == 0 ? 0 : -1;
}

void gpi_test_set_cuda(const struct gpi_cuda *api)
{
	atomic_store(&overridden, 1);
	atomic_store(&active, api);
}
