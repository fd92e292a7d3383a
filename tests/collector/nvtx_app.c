/*
** An NVTX3 program for t1510: push/pop ranges nested three deep, one in a
** named domain with an int64 payload and a colour, a registered string, a
** start/end range that another thread ends, a mark, a named thread, and a
** line on stdout (which the collector must leave untouched).  Needs no
** CUDA and no GPU.  `nvtx_app [N [MODE]]` runs N iterations (default 3);
** MODE "fast" sleeps not, "crash" sleeps not and dies of SIGSEGV after
** the loop, "loop" repeats the iterations until it is killed.
*/
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nvtx3/nvToolsExt.h>

static void *end_it(void *arg)
{
	nvtxRangeEnd(*(nvtxRangeId_t *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 3;
	const char *mode = argc > 2 ? argv[2] : "sleep";
	int naps = strcmp(mode, "sleep") == 0 || strcmp(mode, "loop") == 0;
	nvtxDomainHandle_t dom = nvtxDomainCreateA("train");
	nvtxStringHandle_t step_name = nvtxDomainRegisterStringA(dom, "step");
	nvtxEventAttributes_t a = {0};
	nvtxRangeId_t id;
	pthread_t th;

	nvtxNameOsThreadA((uint32_t)syscall(SYS_gettid), "main thread");
	a.version = NVTX_VERSION;
	a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	a.colorType = NVTX_COLOR_ARGB;
	a.color = 0xff00ff00;
	a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
	a.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
	a.message.registered = step_name;
	for (int i = 0; i < iters; i++) {
		a.payload.llValue = i;
		nvtxDomainRangePushEx(dom, &a);
		nvtxRangePushA("forward");
		nvtxRangePushA("layer:fc1");
		if (naps)
			usleep(1000);
		nvtxRangePop();
		nvtxRangePop();
		nvtxRangePushA("backward");
		if (naps)
			usleep(500);
		nvtxRangePop();
		nvtxDomainRangePop(dom);
		if (strcmp(mode, "loop") == 0 && i == iters - 1)
			i = -1;
	}
	if (strcmp(mode, "crash") == 0) {
		fflush(stdout);
		signal(SIGSEGV, SIG_DFL);   /* die of it, with no sanitizer's report in between */
		raise(SIGSEGV);
	}
	nvtxMarkA("done");
	id = nvtxRangeStartA("cross-thread");
	pthread_create(&th, NULL, end_it, &id);
	pthread_join(th, NULL);
	printf("nvtx_app: %d iterations\n", iters);
	return 0;
}
