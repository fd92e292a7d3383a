/*
** GPU peak table (dense datasheet figures, no 2:4 sparsity) and roofline
** arithmetic.  Sources: research/cupti.md section 5 (NVIDIA datasheets and
** architecture whitepapers); rows not there are marked.  Values are
** datasheet roofs at boost clock, not "achievable" ones (about 0.8x tensor,
** 0.9x DRAM on H100/H200 by this workplace's measurements).
*/
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "ops/opsint.h"

/* name, match, SMs, fp64, fp64 TC, fp32, tf32, fp16 TC, bf16 TC, fp8, int8 (TFLOP/s, TOP/s), GB/s,
** fp6, fp4.  fp16/bf16 TC are FP32-accumulate rates (what PyTorch uses).
** AMD Instinct rows: "SMs" are compute units, "TC" the matrix cores (MFMA),
** tf32 the FP32-matrix rate on CDNA2 and CDNA4 (which have no TF32: rocBLAS
** runs fp32 GEMMs on MFMA at that rate) and the TF32 rate on CDNA3; figures from
** AMD's product datasheets (amd.com/en/products/accelerators/instinct: MI250X
** and MI250 "peak" tables, MI300X, MI325X and MI355X data sheets), dense
** (no sparsity).  An MI250/MI250X is two GCDs that ROCm shows as two
** devices of 104/110 CUs and 64 GB each, so its rows hold one GCD's half of
** the datasheet's per-module figures (MI250X module: 47.9 FP64 vector,
** 95.7 FP64/FP32 matrix, 47.9 FP32 vector, 383 FP16/BF16/INT8, 3276.8 GB/s;
** MI250: 45.3, 90.5, 45.3, 362.1, 3276.8).
**
** The last two columns: the GPU-to-GPU link's peak per direction, GB/s
** (what nccl-tests' busbw is compared with), and its name.  NVLink:
** NVIDIA's datasheets give the bidirectional total per GPU; per direction
** it is half: V100 SXM2 NVLink2 300 -> 150 (6 links x 25 GB/s), A100 SXM4
** NVLink3 600 -> 300 (12 x 25), H100 SXM and H200 NVLink4 900 -> 450
** (18 x 25), B200 NVLink5 1800 -> 900.  AMD MI300X/MI325X: 7 Infinity
** Fabric (xGMI) links of 64 GB/s per direction (128 GB/s bidirectional,
** 896 aggregate) -> 448.  PCIe cards without NVLink: the x16 slot after
** 128b/130b encoding, per direction: Gen3 15.75, Gen4 31.5, Gen5 63.
** Rows without a figure (consumer cards, MI250 and MI355X whose per-GPU
** xGMI figure the datasheets do not state alike) are 0: unknown. */
const struct gp_gpu gp_gpus[] = {
	{"V100-SXM2", "V100-SXM2|V100-SXM3|V100-DGXS|V100 SXM|V100", 80, 7.8, 0, 15.7, 0, 125, 0, 0, 0, 900, 0, 0, 150, "NVLink2"},
	{"V100-PCIE", "V100-PCIE|V100 PCIe", 80, 7.0, 0, 14.0, 0, 112, 0, 0, 0, 900, 0, 0, 15.75, "PCIe Gen3 x16"},
	{"V100S-PCIE", "V100S", 80, 8.2, 0, 16.4, 0, 130, 0, 0, 0, 1134, 0, 0, 0, NULL},  /* datasheet, not in cupti.md */
	{"TITAN V", "TITAN V", 80, 7.45, 0, 14.9, 0, 110, 0, 0, 0, 653, 0, 0, 0, NULL},   /* whitepaper, not in cupti.md */
	{"Quadro GP100", "GP100", 56, 5.2, 0, 10.3, 0, 0, 0, 0, 0, 717, 0, 0, 0, NULL},   /* Pascal: no tensor cores */
	{"T4", "Tesla T4|NVIDIA T4", 40, 0.25, 0, 8.1, 0, 65, 0, 0, 130, 320, 0, 0, 15.75, "PCIe Gen3 x16"},
	{"RTX 2070 SUPER", "RTX 2070 SUPER", 40, 0.28, 0, 9.1, 0, 36.3, 0, 0, 145, 448, 0, 0, 0, NULL},  /* TU104 whitepaper arithmetic */
	{"RTX 2080 Ti", "RTX 2080 Ti", 68, 0.42, 0, 13.4, 0, 53.8, 0, 0, 215, 616, 0, 0, 0, NULL},      /* TU102 whitepaper */
	{"A100-SXM4-40GB", "A100-SXM4-40GB|A100-SXM-40GB|A100-PG509-200|A100-PCIE-40GB|A100", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 1555, 0, 0, 300, "NVLink3"},
	{"A100-SXM4-80GB", "A100-SXM4-80GB|A100-SXM-80GB|A100 80GB", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 2039, 0, 0, 300, "NVLink3"},
	{"A100-PCIE-80GB", "A100-PCIE-80GB|A100 80GB PCIe", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 1935, 0, 0, 31.5, "PCIe Gen4 x16"},
	{"A10", "A10", 72, 0.49, 0, 31.2, 62.5, 125, 125, 0, 250, 600, 0, 0, 31.5, "PCIe Gen4 x16"},
	{"A30", "A30", 56, 5.2, 10.3, 10.3, 82, 165, 165, 0, 330, 933, 0, 0, 31.5, "PCIe Gen4 x16"},
	{"RTX A5000", "RTX A5000", 64, 0.43, 0, 27.8, 27.8, 55.6, 55.6, 0, 222, 768, 0, 0, 0, NULL},    /* GA102 pro datasheet */
	{"RTX 3090", "RTX 3090", 82, 0.56, 0, 35.6, 35.6, 71, 71, 0, 284, 936, 0, 0, 0, NULL},
	{"L4", "L4", 58, 0.49, 0, 30.3, 60, 121, 121, 242.5, 242.5, 300, 0, 0, 31.5, "PCIe Gen4 x16"},
	{"L40S", "L40S", 142, 1.4, 0, 91.6, 183, 362, 362, 733, 733, 864, 0, 0, 31.5, "PCIe Gen4 x16"},
	{"RTX 4090", "RTX 4090", 128, 1.3, 0, 82.6, 82.6, 165.2, 165.2, 330.3, 660.6, 1008, 0, 0, 0, NULL},
	{"H100-SXM", "H100 80GB HBM3|H100-SXM|H100 SXM|H100", 132, 34, 67, 67, 494.7, 989.5, 989.5, 1979, 1979, 3350, 0, 0, 450, "NVLink4"},
	{"H100-PCIE", "H100 PCIe|H100-PCIE", 114, 26, 51, 51, 378, 756, 756, 1513, 1513, 2000, 0, 0, 63, "PCIe Gen5 x16"},
	{"H200", "H200", 132, 34, 67, 67, 494.7, 989.5, 989.5, 1979, 1979, 4800, 0, 0, 450, "NVLink4"},
	/* B200: NVIDIA DGX B200 / HGX B200 datasheets, dense: FP6 at the FP8 rate, FP4 twice it */
	{"B200", "B200", 148, 37, 37, 75, 1100, 2250, 2250, 4500, 4500, 7700, 4500, 9000, 900, "NVLink5"},
	{"MI250X-GCD", "MI250X", 110, 23.95, 47.85, 23.95, 47.85, 191.5, 191.5, 0, 191.5, 1638.4, 0, 0, 0, NULL},
	{"MI250-GCD", "MI250", 104, 22.65, 45.25, 22.65, 45.25, 181.05, 181.05, 0, 181.05, 1638.4, 0, 0, 0, NULL},
	{"MI300X", "MI300X", 304, 81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9, 5300, 0, 0, 448, "xGMI"},
	{"MI325X", "MI325X", 304, 81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9, 6000, 0, 0, 448, "xGMI"},
	{"MI355X", "MI355X", 256, 78.6, 78.6, 157.3, 157.3, 2516.6, 2516.6, 5033.2, 5033.2, 8000, 10066.3, 10066.3, 0, NULL},
	{NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL},
};

/* Length of the longest '|'-separated alternative of match found in s
** (case-insensitive), 0 if none. */
static size_t best_match(const char *s, const char *match)
{
	size_t best = 0;
	const char *p = match;

	while (*p) {
		const char *e = strchr(p, '|');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		for (const char *q = s; n && *q; q++)
			if (strncasecmp(q, p, n) == 0) {
				if (n > best)
					best = n;
				break;
			}
		if (!e)
			break;
		p = e + 1;
	}
	return best;
}

const struct gp_gpu *gp_gpu_lookup(const char *device_name)
{
	const struct gp_gpu *found = NULL;
	size_t best = 0;

	if (!device_name || !*device_name)
		return NULL;
	for (const struct gp_gpu *g = gp_gpus; g->name; g++) {
		size_t n = best_match(device_name, g->match);
		if (n > best) {
			best = n;
			found = g;
		}
	}
	return found;
}

/* GPUs whose devices ROCm names "AMD Radeon Graphics" (or nothing), by
** gfx version (as compute capability: gfx90a = 9.0, gfx942 = 9.4, gfx950 =
** 9.5), compute units and memory (GiB, 0 = any) as hipGetDeviceProperties
** reports them. */
static const struct {
	int cc_major, cc_minor, cus, mem_gib;
	const char *gpu;
} amd_by_props[] = {
	{9, 0, 110, 0, "MI250X-GCD"},
	{9, 0, 104, 0, "MI250-GCD"},
	{9, 4, 304, 192, "MI300X"},
	{9, 4, 304, 256, "MI325X"},
	{9, 5, 256, 0, "MI355X"},
};

/* Whether a device name says which GPU it is: not empty, not ROCm's
** generic "AMD Radeon Graphics". */
static bool name_identifies(const char *name)
{
	return name && *name && strcasecmp(name, "AMD Radeon Graphics") != 0;
}

const struct gp_gpu *gp_gpu_for_device(const gp_trace *t, const struct gp_device *d)
{
	const char *name = d ? gp_s(t, d->name) : NULL;
	const struct gp_gpu *g = name_identifies(name) ? gp_gpu_lookup(name) : NULL;

	if (g || !d)
		return g;
	for (size_t i = 0; i < sizeof(amd_by_props) / sizeof(amd_by_props[0]); i++) {
		uint64_t gib = (d->mem_bytes + (1ull << 29)) >> 30;
		if (amd_by_props[i].cc_major == d->cc_major && amd_by_props[i].cc_minor == d->cc_minor &&
		    amd_by_props[i].cus == d->sm_count &&
		    (!amd_by_props[i].mem_gib || gib == (uint64_t)amd_by_props[i].mem_gib))
			return gp_gpu_lookup(amd_by_props[i].gpu);
	}
	return NULL;
}

double gp_gpu_peak_flops(const struct gp_gpu *g, enum gp_dtype dt, bool tc)
{
	double v;

	if (!g)
		return 0;
	switch (dt) {
	case GP_DT_FP64: case GP_DT_COMPLEX128:
		v = tc && g->fp64_tc ? g->fp64_tc : g->fp64;
		break;
	case GP_DT_FP16:
		v = tc && g->fp16 ? g->fp16 : 2 * g->fp32;
		break;
	case GP_DT_BF16:
		v = tc && g->bf16 ? g->bf16 : 2 * g->fp32;
		break;
	case GP_DT_FP8_E4M3: case GP_DT_FP8_E5M2:
		v = tc && g->fp8 ? g->fp8 : tc && g->fp16 ? g->fp16 : g->fp32;
		break;
	case GP_DT_INT8: case GP_DT_UINT8:
		v = tc && g->int8 ? g->int8 : g->fp32;
		break;
	default:
		/* fp32 on tensor cores means TF32 (or, on Volta/Turing, a
		** kernel whose inputs were half: the fp16 rate). */
		v = tc && g->tf32 ? g->tf32 : tc && g->fp16 ? g->fp16 : g->fp32;
		break;
	}
	return v * 1e12;
}

void gp_roofline(double flops, double bytes, double dur_ns, double peak_flops, double peak_bw,
		 struct gp_roofline *o)
{
	o->gflops = flops >= 0 && dur_ns > 0 ? flops / dur_ns : -1;
	o->gbps = bytes >= 0 && dur_ns > 0 ? bytes / dur_ns : -1;
	o->intensity = flops >= 0 && bytes > 0 ? flops / bytes : -1;
	o->ideal_ns = -1;
	o->eff = -1;
	o->bound = -1;
	if (flops < 0 || bytes < 0 || peak_flops <= 0 || peak_bw <= 0)
		return;
	double tf = flops / peak_flops * 1e9, tb = bytes / peak_bw * 1e9;
	o->ideal_ns = tf > tb ? tf : tb;
	o->bound = tf > tb;
	if (dur_ns > 0)
		o->eff = o->ideal_ns / dur_ns;
}

void gp_peaks_lookup(const gp_trace *t, int32_t device, enum gp_dtype dt, bool tc,
		     const struct gp_peak_opts *o, struct gp_peak *p)
{
	const struct gp_gpu *g = o ? o->gpu : NULL;
	const struct gp_device *d = gp_trace_device(t, device);

	if (!g && d)
		g = gp_gpu_for_device(t, d);
	if (!g && t->devices.n == 1)
		g = gp_gpu_for_device(t, &t->devices.v[0]);
	p->flops = o && o->peak_flops > 0 ? o->peak_flops : gp_gpu_peak_flops(g, dt, tc);
	if (o && o->peak_bw > 0)
		p->bw = o->peak_bw;
	else if (g)
		p->bw = g->bw * 1e9;
	else
		p->bw = d && d->mem_bw > 0 ? d->mem_bw : 0;
}
