/*
** NVTX, header-only NVTX3 from the CUDA toolkit: each call goes through a
** function pointer that NVTX sets on first use, to the tool named by
** NVTX_INJECTION64_PATH (nsys or any NVTX tool; gpuprof's own collector,
** `gpuprof record`, is planned) or to a no-op.  Built without the NVTX
** headers (GP_NO_NVTX), these do nothing.
*/
#include "internal.h"

#ifndef GP_NO_NVTX
#include <nvtx3/nvToolsExt.h>

static void attrs_init(nvtxEventAttributes_t *a, const char *name, uint32_t color)
{
	*a = (nvtxEventAttributes_t){0};
	a->version = NVTX_VERSION;
	a->size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
	a->messageType = NVTX_MESSAGE_TYPE_ASCII;
	a->message.ascii = name;
	if (color) {
		a->colorType = NVTX_COLOR_ARGB;
		a->color = color;
	}
}

static nvtxDomainHandle_t handle(gp_domain *d)
{
	return d ? (nvtxDomainHandle_t)d->nvtx : NULL;
}

void *gpi_nvtx_domain(const char *name)
{
	return nvtxDomainCreateA(name);
}

void gpi_nvtx_push(gp_domain *d, const char *name, uint32_t color, int64_t payload, int has_payload)
{
	nvtxEventAttributes_t a;

	attrs_init(&a, name, color);
	if (has_payload) {
		a.payloadType = NVTX_PAYLOAD_TYPE_INT64;
		a.payload.llValue = payload;
	}
	nvtxDomainRangePushEx(handle(d), &a);
}

void gpi_nvtx_pop(gp_domain *d)
{
	nvtxDomainRangePop(handle(d));
}

uint64_t gpi_nvtx_start(gp_domain *d, const char *name, uint32_t color)
{
	nvtxEventAttributes_t a;

	attrs_init(&a, name, color);
	return nvtxDomainRangeStartEx(handle(d), &a);
}

void gpi_nvtx_end(gp_domain *d, uint64_t id)
{
	nvtxDomainRangeEnd(handle(d), id);
}

void gpi_nvtx_mark(gp_domain *d, const char *name, uint32_t color)
{
	nvtxEventAttributes_t a;

	attrs_init(&a, name, color);
	nvtxDomainMarkEx(handle(d), &a);
}

#else

void *gpi_nvtx_domain(const char *name) { return NULL; }
void gpi_nvtx_push(gp_domain *d, const char *name, uint32_t color, int64_t payload, int has_payload) {}
void gpi_nvtx_pop(gp_domain *d) {}
uint64_t gpi_nvtx_start(gp_domain *d, const char *name, uint32_t color) { return 0; }
void gpi_nvtx_end(gp_domain *d, uint64_t id) {}
void gpi_nvtx_mark(gp_domain *d, const char *name, uint32_t color) {}

#endif
