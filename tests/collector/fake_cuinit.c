/*
** Plays the CUDA driver's part in cuInit for t1511: dlopen's
** $CUDA_INJECTION64_PATH and calls its InitializeInjection, as libcuda does
** (there is no driver on a machine without a GPU).  The collector then
** loads the real CUPTI, whose subscription fails without a GPU: the
** recording must say so in a note, and the program go on.  Prints the
** entry's return value.
*/
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	const char *path = getenv("CUDA_INJECTION64_PATH");
	void *h = path ? dlopen(path, RTLD_NOW) : NULL;
	int (*init)(void) = h ? (int (*)(void))dlsym(h, "InitializeInjection") : NULL;

	if (!init) {
		fprintf(stderr, "fake_cuinit: no InitializeInjection in %s\n", path ? path : "(unset)");
		return 2;
	}
	printf("InitializeInjection returned %d\n", init());
	return 0;
}
