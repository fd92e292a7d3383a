/*
** A minimal NVTX tool (NVTX_INJECTION64_PATH) for the CLI test: counts the
** domain push/pop/mark calls libgpuprof makes and prints the counts and
** the pushed names at exit, so the test sees that annotations reach NVTX
** as nsys would.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <nvtx3/nvToolsExt.h>

static int pushes, pops, marks, payloads;
static char names[4096];

static int my_push(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a)
{
	pushes++;
	if (a->payloadType == NVTX_PAYLOAD_TYPE_INT64)
		payloads++;
	if (pushes <= 8 && a->messageType == NVTX_MESSAGE_TYPE_ASCII)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s,", a->message.ascii);
	return 0;
}
static int my_pop(nvtxDomainHandle_t d) { pops++; return 0; }
static void my_mark(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { marks++; }

static void report(void)
{
	fprintf(stderr, "nvtx: pushes=%d pops=%d marks=%d payloads=%d names=%s\n", pushes, pops,
		marks, payloads, names);
}

int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get);
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get)
{
	const NvtxExportTableCallbacks *cb = (const NvtxExportTableCallbacks *)get(NVTX_ETID_CALLBACKS);
	NvtxFunctionTable t;
	unsigned int n;

	if (!cb || !cb->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &t, &n))
		return 0;
	if (n > NVTX_CBID_CORE2_DomainRangePushEx)
		*t[NVTX_CBID_CORE2_DomainRangePushEx] = (NvtxFunctionPointer)my_push;
	if (n > NVTX_CBID_CORE2_DomainRangePop)
		*t[NVTX_CBID_CORE2_DomainRangePop] = (NvtxFunctionPointer)my_pop;
	if (n > NVTX_CBID_CORE2_DomainMarkEx)
		*t[NVTX_CBID_CORE2_DomainMarkEx] = (NvtxFunctionPointer)my_mark;
	atexit(report);
	return 1;
}
