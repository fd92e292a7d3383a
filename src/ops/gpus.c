/*
** GPU peaks: the table of datasheet figures (dense: no 2:4 sparsity), the
** lookup of a trace's device in it, the estimate for a GPU it lacks, and
** the roofline arithmetic.  docs/op-model.md ("GPU peaks") lists the rows
** and their sources.  Values are datasheet roofs at boost clock, not
** "achievable" ones (about 0.8x tensor, 0.9x DRAM on H100/H200 by this
** workplace's measurements).
*/
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ops/opsint.h"
#include "util/alloc.h"

/*
** FLOPs per clock per SM (AMD: per CU), dense, of each architecture:
** fp64, fp64 tensor (matrix), fp32, tf32 (AMD CDNA2/4: the FP32-matrix
** rate), fp16 and bf16 tensor with FP32 accumulate, fp8, int8.  From the
** architecture whitepapers' per-SM tables (NVIDIA: Volta, Turing, Ampere
** GA100 and GA102, Ada, Hopper, Blackwell; AMD: the CDNA 1-4 and RDNA 3-4
** ISA guides' per-CU rates); each equals its datasheet rows divided by SMs
** x clock (tests/unit/test_gpus.c checks every row).  GeForce parts run
** fp16/bf16/tf32/fp8 with FP32 accumulate at half these rates
** (GP_GPU_HALF_ACC).
*/
#define R_PASCAL_GP100 64, 0, 128, 0, 0, 0, 0, 0
#define R_VOLTA 64, 0, 128, 0, 1024, 0, 0, 0
#define R_TURING 4, 0, 128, 0, 1024, 0, 0, 2048
#define R_TU11X 4, 0, 128, 0, 0, 0, 0, 0                      /* GTX 16: no tensor cores */
#define R_GA100 64, 128, 128, 1024, 2048, 2048, 0, 4096
#define R_GA10X 4, 0, 256, 512, 1024, 1024, 0, 2048
#define R_GA10B 4, 0, 256, 1024, 2048, 2048, 0, 4096            /* Orin: GA100-class tensor cores */
#define R_AD10X 4, 0, 256, 512, 1024, 1024, 2048, 2048
#define R_GH100 128, 256, 256, 2048, 4096, 4096, 8192, 8192
#define R_GB100 128, 128, 256, 4096, 8192, 8192, 16384, 16384
#define R_GB110 4.55, 4.55, 256, 4096, 8192, 8192, 16384, 455   /* B300: fp64 and int8 cut */
#define R_GB20X 4, 0, 256, 512, 1024, 1024, 2048, 2048
#define R_GCN5 64, 0, 128, 0, 0, 0, 0, 0
#define R_CDNA1 64, 0, 128, 256, 1024, 512, 0, 1024
#define R_CDNA2 128, 256, 128, 256, 1024, 1024, 0, 1024
#define R_CDNA3 128, 256, 256, 1024, 2048, 2048, 4096, 4096
#define R_CDNA4 128, 128, 256, 256, 4096, 4096, 8192, 8192
#define R_RDNA3 8, 0, 256, 0, 512, 512, 0, 512
#define R_RDNA4 8, 0, 256, 0, 1024, 1024, 2048, 2048

/* Peaks (TFLOP/s) of sm SMs at mhz from a rate list: the table's "derived"
** rows, for parts whose vendor publishes the SM count and clock but not
** every peak.  DERIVED_HALF: a GeForce part (GP_GPU_HALF_ACC). */
#define PK(sm, mhz, r) ((double)(sm) * (mhz) * (r) / 1e6)
#define SCALE8(sm, mhz, a, b, c, d, e, f, g, h) \
	PK(sm, mhz, a), PK(sm, mhz, b), PK(sm, mhz, c), PK(sm, mhz, d), \
	PK(sm, mhz, e), PK(sm, mhz, f), PK(sm, mhz, g), PK(sm, mhz, h)
#define HALF8(sm, mhz, a, b, c, d, e, f, g, h) \
	PK(sm, mhz, a), PK(sm, mhz, b), PK(sm, mhz, c), PK(sm, mhz, d) / 2, \
	PK(sm, mhz, e) / 2, PK(sm, mhz, f) / 2, PK(sm, mhz, g) / 2, PK(sm, mhz, h)
#define DERIVED(sm, mhz, ...) SCALE8(sm, mhz, __VA_ARGS__)
#define DERIVED_HALF(sm, mhz, ...) HALF8(sm, mhz, __VA_ARGS__)

/* Row shorthands: a part without a GPU-to-GPU link figure; the rest of a
** row (cc, memory GB, clock MHz, flags). */
#define NOLINK 0, NULL
#define HALF GP_GPU_HALF_ACC

/*
** The table.  Columns: name, match ('|'-separated substrings of the device
** name; longest wins, then SM count and memory must agree), SMs (CUs),
** fp64, fp64 tensor, fp32, tf32, fp16, bf16, fp8, int8 (TFLOP/s, TOP/s,
** dense; fp16/bf16 with FP32 accumulate, what PyTorch uses), GB/s, fp6,
** fp4, link GB/s per direction and its name, compute capability (AMD: gfx
** version), memory GB (0: several), boost clock MHz, flags.  One comment
** per row names its source; "derived": SMs x clock x the architecture's
** rates above, from the vendor's published SM (CUDA core / 128) count and
** boost clock, where the datasheet states fewer peaks.
**
** Links: NVIDIA states NVLink as the bidirectional total per GPU; per
** direction it is half: V100 NVLink2 300 -> 150, A100 NVLink3 600 -> 300
** (A800: 400 -> 200), H100/H200 NVLink4 900 -> 450 (H800: 400 -> 200),
** Blackwell NVLink5 1800 -> 900; NVL cards' bridges as stated.  AMD
** MI300X/MI325X: 7 xGMI links of 64 GB/s per direction -> 448.  PCIe
** cards without NVLink: the x16 slot after 128b/130b encoding, per
** direction: Gen3 15.75, Gen4 31.5, Gen5 63.  0: not stated alike
** (consumer cards, bridges for pairs only, most AMD parts).
**
** AMD Instinct: "SMs" are compute units, tensor the matrix cores (MFMA).
** An MI250/MI250X is two GCDs that ROCm shows as two devices of 104/110
** CUs and 64 GB each, so their rows hold one GCD's half of the
** datasheet's per-module figures (MI250X module: 47.9 FP64 vector, 95.7
** FP64/FP32 matrix, 47.9 FP32 vector, 383 FP16/BF16/INT8, 3276.8 GB/s;
** MI250: 45.3, 90.5, 45.3, 362.1, 3276.8).
*/
const struct gp_gpu gp_gpus[] = {
	/* ---- NVIDIA Volta (sm_70) ---- */
	/* NVIDIA Tesla V100 datasheet (SXM2; SXM3 and DGX Station parts named alike) */
	{"V100-SXM2", "V100-SXM2|V100-SXM3|V100-DGXS|V100 SXM|V100", 80, 7.8, 0, 15.7, 0, 125, 0, 0, 0, 900, 0, 0, 150, "NVLink2", 7, 0, 0, 1530, 0},
	/* NVIDIA Tesla V100 datasheet (PCIe) */
	{"V100-PCIE", "V100-PCIE|V100 PCIe", 80, 7.0, 0, 14.0, 0, 112, 0, 0, 0, 900, 0, 0, 15.75, "PCIe Gen3 x16", 7, 0, 0, 1380, 0},
	/* NVIDIA V100S datasheet */
	{"V100S-PCIE", "V100S", 80, 8.2, 0, 16.4, 0, 130, 0, 0, 0, 1134, 0, 0, 15.75, "PCIe Gen3 x16", 7, 0, 32, 1601, 0},
	/* NVIDIA TITAN V (Volta whitepaper; 110 TFLOPS deep learning) */
	{"TITAN V", "TITAN V", 80, 7.45, 0, 14.9, 0, 110, 0, 0, 0, 653, 0, 0, NOLINK, 7, 0, 12, 1455, 0},
	/* NVIDIA Quadro GV100 datasheet */
	{"Quadro GV100", "Quadro GV100", 80, 8.3, 0, 16.6, 0, 118.5, 0, 0, 0, 870, 0, 0, NOLINK, 7, 0, 32, 1627, 0},
	/* NVIDIA Quadro GP100 datasheet (Pascal: no tensor cores; fp16 at 2x fp32) */
	{"Quadro GP100", "GP100", 56, 5.2, 0, 10.3, 0, 0, 0, 0, 0, 717, 0, 0, NOLINK, 6, 0, 16, 1442, 0},

	/* ---- NVIDIA Turing (sm_75) ---- */
	/* NVIDIA T4 datasheet */
	{"T4", "Tesla T4|NVIDIA T4", 40, 0.25, 0, 8.1, 0, 65, 0, 0, 130, 320, 0, 0, 15.75, "PCIe Gen3 x16", 7, 5, 16, 1590, 0},
	/* NVIDIA TITAN RTX (Turing whitepaper: 130 TFLOPS tensor, FP32 accumulate) */
	{"TITAN RTX", "TITAN RTX", 72, 0.51, 0, 16.3, 0, 130.5, 0, 0, 261, 672, 0, 0, NOLINK, 7, 5, 24, 1770, 0},
	/* NVIDIA Quadro RTX 8000 / 6000 datasheets */
	{"Quadro RTX 8000", "Quadro RTX 8000", 72, 0.51, 0, 16.3, 0, 130.5, 0, 0, 261, 672, 0, 0, NOLINK, 7, 5, 48, 1770, 0},
	{"Quadro RTX 6000", "Quadro RTX 6000", 72, 0.51, 0, 16.3, 0, 130.5, 0, 0, 261, 672, 0, 0, NOLINK, 7, 5, 24, 1770, 0},
	/* NVIDIA Quadro RTX 5000 / 4000 datasheets (fp64, int8 derived) */
	{"Quadro RTX 5000", "Quadro RTX 5000", 48, 0.35, 0, 11.2, 0, 89.2, 0, 0, 178.4, 448, 0, 0, NOLINK, 7, 5, 16, 1815, 0},
	{"Quadro RTX 4000", "Quadro RTX 4000", 36, 0.22, 0, 7.1, 0, 57.0, 0, 0, 113.9, 416, 0, 0, NOLINK, 7, 5, 8, 1545, 0},
	/* GeForce RTX 20: derived (Turing whitepaper rates; GeForce: fp16 with FP32 accumulate at half) */
	{"RTX 2060", "RTX 2060", 30, DERIVED_HALF(30, 1680, R_TURING), 336, 0, 0, NOLINK, 7, 5, 6, 1680, HALF},
	{"RTX 2060 SUPER", "RTX 2060 SUPER", 34, DERIVED_HALF(34, 1650, R_TURING), 448, 0, 0, NOLINK, 7, 5, 8, 1650, HALF},
	{"RTX 2070", "RTX 2070", 36, DERIVED_HALF(36, 1620, R_TURING), 448, 0, 0, NOLINK, 7, 5, 8, 1620, HALF},
	{"RTX 2070 SUPER", "RTX 2070 SUPER", 40, DERIVED_HALF(40, 1770, R_TURING), 448, 0, 0, NOLINK, 7, 5, 8, 1770, HALF},
	{"RTX 2080", "RTX 2080", 46, DERIVED_HALF(46, 1710, R_TURING), 448, 0, 0, NOLINK, 7, 5, 8, 1710, HALF},
	{"RTX 2080 SUPER", "RTX 2080 SUPER", 48, DERIVED_HALF(48, 1815, R_TURING), 496, 0, 0, NOLINK, 7, 5, 8, 1815, HALF},
	{"RTX 2080 Ti", "RTX 2080 Ti", 68, DERIVED_HALF(68, 1545, R_TURING), 616, 0, 0, NOLINK, 7, 5, 11, 1545, HALF},
	/* GeForce GTX 16 (TU116/TU117): derived, no tensor cores (fp16 at 2x fp32 on its FP16 units) */
	{"GTX 1660 Ti", "GTX 1660 Ti", 24, DERIVED(24, 1770, R_TU11X), 288, 0, 0, NOLINK, 7, 5, 6, 1770, GP_GPU_NO_TC},
	{"GTX 1660 SUPER", "GTX 1660 SUPER", 22, DERIVED(22, 1785, R_TU11X), 336, 0, 0, NOLINK, 7, 5, 6, 1785, GP_GPU_NO_TC},
	{"GTX 1660", "GTX 1660", 22, DERIVED(22, 1785, R_TU11X), 192, 0, 0, NOLINK, 7, 5, 6, 1785, GP_GPU_NO_TC},
	{"GTX 1650 SUPER", "GTX 1650 SUPER", 20, DERIVED(20, 1725, R_TU11X), 192, 0, 0, NOLINK, 7, 5, 4, 1725, GP_GPU_NO_TC},
	{"GTX 1650", "GTX 1650", 14, DERIVED(14, 1665, R_TU11X), 128, 0, 0, NOLINK, 7, 5, 4, 1665, GP_GPU_NO_TC},

	/* ---- NVIDIA Ampere GA100 (sm_80) ---- */
	/* NVIDIA A100 Tensor Core GPU datasheet (SXM 40 GB; Meta's PG509-200 board is one) */
	{"A100-SXM4-40GB", "A100-SXM4-40GB|A100-SXM-40GB|A100-PG509-200|A100", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 1555, 0, 0, 300, "NVLink3", 8, 0, 40, 1410, 0},
	/* NVIDIA A100 datasheet (SXM 80 GB) */
	{"A100-SXM4-80GB", "A100-SXM4-80GB|A100-SXM-80GB|A100 80GB|A100", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 2039, 0, 0, 300, "NVLink3", 8, 0, 80, 1410, 0},
	/* NVIDIA A100 datasheet (PCIe 40 GB) */
	{"A100-PCIE-40GB", "A100-PCIE-40GB|A100 PCIe 40GB|A100-PCIE", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 1555, 0, 0, 31.5, "PCIe Gen4 x16", 8, 0, 40, 1410, 0},
	/* NVIDIA A100 datasheet (PCIe 80 GB) */
	{"A100-PCIE-80GB", "A100-PCIE-80GB|A100 80GB PCIe", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 1935, 0, 0, 31.5, "PCIe Gen4 x16", 8, 0, 80, 1410, 0},
	/* NVIDIA A800 datasheets: A100 compute, NVLink 400 GB/s */
	{"A800-SXM4-80GB", "A800-SXM4-80GB|A800-SXM|A800", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 2039, 0, 0, 200, "NVLink3", 8, 0, 80, 1410, 0},
	{"A800-PCIE-80GB", "A800 80GB PCIe|A800-PCIE-80GB|A800 PCIe", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 1935, 0, 0, 31.5, "PCIe Gen4 x16", 8, 0, 80, 1410, 0},
	/* NVIDIA A800 40GB Active datasheet */
	{"A800 40GB Active", "A800 40GB Active|A800-PCIE-40GB", 108, 9.7, 19.5, 19.5, 156, 312, 312, 0, 624, 1555, 0, 0, 31.5, "PCIe Gen4 x16", 8, 0, 40, 1410, 0},
	/* NVIDIA A30 datasheet */
	{"A30", "A30", 56, 5.2, 10.3, 10.3, 82, 165, 165, 0, 330, 933, 0, 0, 31.5, "PCIe Gen4 x16", 8, 0, 24, 1440, 0},

	/* ---- NVIDIA Ampere GA10x (sm_86) and Orin (sm_87) ---- */
	/* NVIDIA A10 datasheet (fp64 derived) */
	{"A10", "A10", 72, 0.49, 0, 31.2, 62.5, 125, 125, 0, 250, 600, 0, 0, 31.5, "PCIe Gen4 x16", 8, 6, 24, 1695, 0},
	/* A10G (AWS G5): derived, 80 SMs at 1710 MHz as deviceQuery shows; NVIDIA publishes no peaks */
	{"A10G", "A10G", 80, DERIVED(80, 1710, R_GA10X), 600, 0, 0, NOLINK, 8, 6, 24, 1710, 0},
	/* NVIDIA A40 datasheet (fp64 derived) */
	{"A40", "A40", 84, 0.58, 0, 37.4, 74.8, 149.7, 149.7, 0, 299.3, 696, 0, 0, 31.5, "PCIe Gen4 x16", 8, 6, 48, 1740, 0},
	/* NVIDIA A16 datasheet, per GPU (the board holds four; fp64 derived) */
	{"A16", "NVIDIA A16", 10, 0.07, 0, 4.5, 9.0, 17.9, 17.9, 0, 35.9, 200, 0, 0, NOLINK, 8, 6, 16, 1755, 0},
	/* NVIDIA A2 datasheet (fp64 derived; PCIe Gen4 x8) */
	{"A2", "NVIDIA A2|Tesla A2", 10, 0.07, 0, 4.5, 9.0, 18, 18, 0, 36, 200, 0, 0, 15.75, "PCIe Gen4 x8", 8, 6, 16, 1770, 0},
	/* NVIDIA RTX A2000..A6000 datasheets: FP32 and sparse tensor TFLOPS (dense = half); fp64, tf32, int8 derived */
	{"RTX A2000", "RTX A2000", 26, 0.12, 0, 8.0, 16.0, 32.0, 32.0, 0, 63.9, 288, 0, 0, NOLINK, 8, 6, 0, 1200, 0},
	{"RTX A4000", "RTX A4000", 48, 0.30, 0, 19.2, 38.4, 76.7, 76.7, 0, 153.4, 448, 0, 0, NOLINK, 8, 6, 16, 1560, 0},
	{"RTX A4500", "RTX A4500", 56, 0.37, 0, 23.7, 47.3, 94.6, 94.6, 0, 189.2, 640, 0, 0, NOLINK, 8, 6, 20, 1650, 0},
	{"RTX A5000", "RTX A5000", 64, 0.43, 0, 27.8, 55.6, 111.1, 111.1, 0, 222.2, 768, 0, 0, NOLINK, 8, 6, 24, 1695, 0},
	{"RTX A5500", "RTX A5500", 80, 0.53, 0, 34.1, 68.2, 136.4, 136.4, 0, 272.8, 768, 0, 0, NOLINK, 8, 6, 24, 1665, 0},
	{"RTX A6000", "RTX A6000", 84, 0.60, 0, 38.7, 77.4, 154.8, 154.8, 0, 309.7, 768, 0, 0, NOLINK, 8, 6, 48, 1800, 0},
	/* GeForce RTX 30: derived (GA102 whitepaper rates; RTX 3090 there: 35.6 FP32, 71 FP16 tensor FP32-accumulate) */
	{"RTX 3050", "RTX 3050", 20, DERIVED_HALF(20, 1777, R_GA10X), 224, 0, 0, NOLINK, 8, 6, 8, 1777, HALF},
	{"RTX 3050 6GB", "RTX 3050", 18, DERIVED_HALF(18, 1470, R_GA10X), 168, 0, 0, NOLINK, 8, 6, 6, 1470, HALF},
	{"RTX 3060", "RTX 3060", 28, DERIVED_HALF(28, 1777, R_GA10X), 360, 0, 0, NOLINK, 8, 6, 12, 1777, HALF},
	{"RTX 3060 8GB", "RTX 3060", 28, DERIVED_HALF(28, 1777, R_GA10X), 240, 0, 0, NOLINK, 8, 6, 8, 1777, HALF},
	{"RTX 3060 Ti", "RTX 3060 Ti", 38, DERIVED_HALF(38, 1665, R_GA10X), 448, 0, 0, NOLINK, 8, 6, 8, 1665, HALF},
	{"RTX 3070", "RTX 3070", 46, DERIVED_HALF(46, 1725, R_GA10X), 448, 0, 0, NOLINK, 8, 6, 8, 1725, HALF},
	{"RTX 3070 Ti", "RTX 3070 Ti", 48, DERIVED_HALF(48, 1770, R_GA10X), 608, 0, 0, NOLINK, 8, 6, 8, 1770, HALF},
	{"RTX 3080", "RTX 3080", 68, DERIVED_HALF(68, 1710, R_GA10X), 760, 0, 0, NOLINK, 8, 6, 10, 1710, HALF},
	{"RTX 3080 12GB", "RTX 3080", 70, DERIVED_HALF(70, 1710, R_GA10X), 912, 0, 0, NOLINK, 8, 6, 12, 1710, HALF},
	{"RTX 3080 Ti", "RTX 3080 Ti", 80, DERIVED_HALF(80, 1665, R_GA10X), 912, 0, 0, NOLINK, 8, 6, 12, 1665, HALF},
	{"RTX 3090", "RTX 3090", 82, DERIVED_HALF(82, 1695, R_GA10X), 936, 0, 0, NOLINK, 8, 6, 24, 1695, HALF},
	{"RTX 3090 Ti", "RTX 3090 Ti", 84, DERIVED_HALF(84, 1860, R_GA10X), 1008, 0, 0, NOLINK, 8, 6, 24, 1860, HALF},
	/* GeForce RTX 30 Laptop GPUs: derived at their highest boost clock (lower TGPs clock lower) */
	{"RTX 3050 Laptop", "RTX 3050 Laptop", 16, DERIVED_HALF(16, 1740, R_GA10X), 192, 0, 0, NOLINK, 8, 6, 4, 1740, HALF},
	{"RTX 3050 Ti Laptop", "RTX 3050 Ti Laptop", 20, DERIVED_HALF(20, 1695, R_GA10X), 192, 0, 0, NOLINK, 8, 6, 4, 1695, HALF},
	{"RTX 3060 Laptop", "RTX 3060 Laptop", 30, DERIVED_HALF(30, 1703, R_GA10X), 336, 0, 0, NOLINK, 8, 6, 6, 1703, HALF},
	{"RTX 3070 Laptop", "RTX 3070 Laptop", 40, DERIVED_HALF(40, 1620, R_GA10X), 448, 0, 0, NOLINK, 8, 6, 8, 1620, HALF},
	{"RTX 3070 Ti Laptop", "RTX 3070 Ti Laptop", 46, DERIVED_HALF(46, 1485, R_GA10X), 448, 0, 0, NOLINK, 8, 6, 8, 1485, HALF},
	{"RTX 3080 Laptop", "RTX 3080 Laptop", 48, DERIVED_HALF(48, 1710, R_GA10X), 448, 0, 0, NOLINK, 8, 6, 0, 1710, HALF},
	{"RTX 3080 Ti Laptop", "RTX 3080 Ti Laptop", 58, DERIVED_HALF(58, 1590, R_GA10X), 512, 0, 0, NOLINK, 8, 6, 16, 1590, HALF},
	/* NVIDIA Jetson Orin modules: derived (GPU: 2048/1792/1024 CUDA cores at 1300/930/918/625 MHz; AGX Orin 64GB
	** states 5.3 FP32 and 170 sparse INT8 TOPS for the GPU); the memory is shared with the CPU */
	{"Jetson AGX Orin 64GB", "Orin", 16, DERIVED(16, 1300, R_GA10B), 204.8, 0, 0, NOLINK, 8, 7, 64, 1300, 0},
	{"Jetson AGX Orin 32GB", "Orin", 14, DERIVED(14, 930, R_GA10B), 204.8, 0, 0, NOLINK, 8, 7, 32, 930, 0},
	{"Jetson Orin NX 16GB", "Orin", 8, DERIVED(8, 918, R_GA10B), 102.4, 0, 0, NOLINK, 8, 7, 16, 918, 0},
	{"Jetson Orin Nano 8GB", "Orin", 8, DERIVED(8, 625, R_GA10B), 68, 0, 0, NOLINK, 8, 7, 8, 625, 0},

	/* ---- NVIDIA Ada (sm_89) ---- */
	/* NVIDIA L4 datasheet */
	{"L4", "L4", 58, 0.49, 0, 30.3, 60, 121, 121, 242.5, 242.5, 300, 0, 0, 31.5, "PCIe Gen4 x16", 8, 9, 24, 2040, 0},
	/* NVIDIA L40 datasheet (its tensor figures are half the L40S's; fp64 derived) */
	{"L40", "L40", 142, 1.41, 0, 90.5, 90.5, 181.0, 181.0, 362.1, 362.1, 864, 0, 0, 31.5, "PCIe Gen4 x16", 8, 9, 48, 2490, HALF},
	/* NVIDIA L40S datasheet (fp64 derived) */
	{"L40S", "L40S", 142, 1.41, 0, 91.6, 183, 362, 362, 733, 733, 864, 0, 0, 31.5, "PCIe Gen4 x16", 8, 9, 48, 2520, 0},
	/* NVIDIA RTX 6000/5000/4500/4000 Ada Generation datasheets: FP32 and sparse FP8 tensor TFLOPS (dense
	** FP8 = half, FP16 = a quarter); fp64, tf32, int8 derived.  RTX 4000 Ada's tensor figure is at a
	** lower clock than its FP32 one (130 W). */
	{"RTX 6000 Ada", "RTX 6000 Ada", 142, 1.42, 0, 91.1, 182.1, 364.2, 364.2, 728.5, 728.5, 960, 0, 0, 31.5, "PCIe Gen4 x16", 8, 9, 48, 2505, 0},
	{"RTX 5000 Ada", "RTX 5000 Ada", 100, 1.02, 0, 65.3, 130.6, 261.1, 261.1, 522.2, 522.2, 576, 0, 0, 31.5, "PCIe Gen4 x16", 8, 9, 32, 2550, 0},
	{"RTX 4500 Ada", "RTX 4500 Ada", 60, 0.62, 0, 39.6, 79.3, 158.5, 158.5, 317.0, 317.0, 432, 0, 0, 31.5, "PCIe Gen4 x16", 8, 9, 24, 2580, 0},
	{"RTX 4000 Ada", "RTX 4000 Ada", 48, 0.42, 0, 26.7, 41.0, 81.9, 81.9, 163.8, 163.8, 360, 0, 0, 31.5, "PCIe Gen4 x16", 8, 9, 20, 2175, 0},
	/* GeForce RTX 40: derived (Ada whitepaper rates; RTX 4090 there: 82.6 FP32, 165.2 FP16 and 330.3 FP8
	** tensor with FP32 accumulate, 660.6 INT8) */
	{"RTX 4060", "RTX 4060", 24, DERIVED_HALF(24, 2460, R_AD10X), 272, 0, 0, NOLINK, 8, 9, 8, 2460, HALF},
	{"RTX 4060 Ti", "RTX 4060 Ti", 34, DERIVED_HALF(34, 2535, R_AD10X), 288, 0, 0, NOLINK, 8, 9, 0, 2535, HALF},
	{"RTX 4070", "RTX 4070", 46, DERIVED_HALF(46, 2475, R_AD10X), 504, 0, 0, NOLINK, 8, 9, 12, 2475, HALF},
	{"RTX 4070 SUPER", "RTX 4070 SUPER", 56, DERIVED_HALF(56, 2475, R_AD10X), 504, 0, 0, NOLINK, 8, 9, 12, 2475, HALF},
	{"RTX 4070 Ti", "RTX 4070 Ti", 60, DERIVED_HALF(60, 2610, R_AD10X), 504, 0, 0, NOLINK, 8, 9, 12, 2610, HALF},
	{"RTX 4070 Ti SUPER", "RTX 4070 Ti SUPER", 66, DERIVED_HALF(66, 2610, R_AD10X), 672, 0, 0, NOLINK, 8, 9, 16, 2610, HALF},
	{"RTX 4080", "RTX 4080", 76, DERIVED_HALF(76, 2505, R_AD10X), 716.8, 0, 0, NOLINK, 8, 9, 16, 2505, HALF},
	{"RTX 4080 SUPER", "RTX 4080 SUPER", 80, DERIVED_HALF(80, 2550, R_AD10X), 736, 0, 0, NOLINK, 8, 9, 16, 2550, HALF},
	{"RTX 4090", "RTX 4090", 128, DERIVED_HALF(128, 2520, R_AD10X), 1008, 0, 0, NOLINK, 8, 9, 24, 2520, HALF},
	{"RTX 4090 D", "RTX 4090 D", 114, DERIVED_HALF(114, 2520, R_AD10X), 1008, 0, 0, NOLINK, 8, 9, 24, 2520, HALF},
	/* GeForce RTX 40 Laptop GPUs: derived at their highest boost clock */
	{"RTX 4050 Laptop", "RTX 4050 Laptop", 20, DERIVED_HALF(20, 2370, R_AD10X), 192, 0, 0, NOLINK, 8, 9, 6, 2370, HALF},
	{"RTX 4060 Laptop", "RTX 4060 Laptop", 24, DERIVED_HALF(24, 2370, R_AD10X), 256, 0, 0, NOLINK, 8, 9, 8, 2370, HALF},
	{"RTX 4070 Laptop", "RTX 4070 Laptop", 36, DERIVED_HALF(36, 2175, R_AD10X), 256, 0, 0, NOLINK, 8, 9, 8, 2175, HALF},
	{"RTX 4080 Laptop", "RTX 4080 Laptop", 58, DERIVED_HALF(58, 2280, R_AD10X), 432, 0, 0, NOLINK, 8, 9, 12, 2280, HALF},
	{"RTX 4090 Laptop", "RTX 4090 Laptop", 76, DERIVED_HALF(76, 2040, R_AD10X), 576, 0, 0, NOLINK, 8, 9, 16, 2040, HALF},

	/* ---- NVIDIA Hopper (sm_90) ---- */
	/* NVIDIA H100 datasheet (SXM5) */
	{"H100-SXM", "H100 80GB HBM3|H100-SXM|H100 SXM|H100", 132, 34, 67, 67, 494.7, 989.5, 989.5, 1979, 1979, 3350, 0, 0, 450, "NVLink4", 9, 0, 80, 1980, 0},
	/* NVIDIA H100 datasheet (PCIe) */
	{"H100-PCIE", "H100 PCIe|H100-PCIE|H100", 114, 26, 51, 51, 378, 756, 756, 1513, 1513, 2000, 0, 0, 63, "PCIe Gen5 x16", 9, 0, 80, 1755, 0},
	/* NVIDIA H100 NVL datasheet (94 GB, per GPU; its bridge 600 GB/s); tensor figures at a lower clock (400 W) */
	{"H100 NVL", "H100 NVL", 132, 30, 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5, 3938, 0, 0, 300, "NVLink4 bridge", 9, 0, 94, 1785, 0},
	/* NVIDIA H800 SXM5 / PCIe product briefs: H100 with FP64 cut and NVLink 400 GB/s */
	{"H800", "H800", 132, 1, 1, 67, 494.7, 989.5, 989.5, 1979, 1979, 3350, 0, 0, 200, "NVLink4", 9, 0, 80, 1980, 0},
	{"H800 PCIe", "H800 PCIe", 114, 0.8, 0.8, 51, 378, 756, 756, 1513, 1513, 2000, 0, 0, 63, "PCIe Gen5 x16", 9, 0, 80, 1755, 0},
	/* NVIDIA H20 (China; as reported from NVIDIA's product brief: 78 SMs, 148 FP16/BF16, 296 FP8/INT8, 44 FP32,
	** 1 FP64, 4.0 TB/s, NVLink 900 GB/s); compute capped below the Hopper rates */
	{"H20", "H20", 78, 1, 1, 44, 74, 148, 148, 296, 296, 4000, 0, 0, 450, "NVLink4", 9, 0, 96, 1980, 0},
	/* NVIDIA H200 datasheet (SXM) */
	{"H200", "H200", 132, 34, 67, 67, 494.7, 989.5, 989.5, 1979, 1979, 4800, 0, 0, 450, "NVLink4", 9, 0, 141, 1980, 0},
	/* NVIDIA H200 datasheet (NVL: 600 W PCIe card, bridge 900 GB/s) */
	{"H200 NVL", "H200 NVL", 132, 30, 60, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5, 4800, 0, 0, 450, "NVLink4 bridge", 9, 0, 141, 1785, 0},
	/* NVIDIA GH200 Grace Hopper datasheet: H100 compute, 96 GB HBM3 or 144 GB HBM3e */
	{"GH200 96GB", "GH200", 132, 34, 67, 67, 494.7, 989.5, 989.5, 1979, 1979, 4000, 0, 0, 450, "NVLink4", 9, 0, 96, 1980, 0},
	{"GH200 144GB", "GH200", 132, 34, 67, 67, 494.7, 989.5, 989.5, 1979, 1979, 4900, 0, 0, 450, "NVLink4", 9, 0, 144, 1980, 0},

	/* ---- NVIDIA Blackwell (sm_100, sm_103) ---- */
	/* NVIDIA HGX B100 datasheet (8 GPUs; per GPU, sparse / 2); SM count not published; clock derived */
	{"B100", "B100", 0, 30, 30, 60, 900, 1750, 1750, 3500, 3500, 8000, 3500, 7000, 900, "NVLink5", 10, 0, 192, 1443, 0},
	/* NVIDIA DGX B200 / HGX B200 datasheets (per GPU, dense: FP6 at the FP8 rate, FP4 twice it) */
	{"B200", "B200", 148, 37, 37, 75, 1100, 2250, 2250, 4500, 4500, 7700, 4500, 9000, 900, "NVLink5", 10, 0, 0, 1965, 0},
	/* NVIDIA GB200 NVL72 datasheet (72 GPUs; per GPU, sparse / 2); FP32 derived */
	{"GB200", "GB200", 148, 45, 45, 78.1, 1250, 2500, 2500, 5000, 5000, 8000, 5000, 10000, 900, "NVLink5", 10, 0, 186, 2062, 0},
	/* NVIDIA HGX B300 datasheet (8 GPUs; per GPU, sparse / 2; FP4 dense 13.5 PF): FP64 and INT8 cut
	** (INT8 "2 POPS" with sparsity for the 8); 160 SMs as reported; clock derived from FP16 */
	{"B300", "B300", 160, 1.25, 1.25, 75, 1125, 2250, 2250, 4500, 125, 8000, 4500, 13500, 900, "NVLink5", 10, 3, 288, 1717, 0},
	/* NVIDIA GB300 NVL72 datasheet (72 GPUs; per GPU: FP4 15 PF dense, FP8 5, FP16 2.5, TF32 1.25, FP64 1.39,
	** INT8 0.16 POPS); FP32 derived */
	{"GB300", "GB300", 160, 1.39, 1.39, 78.1, 1250, 2500, 2500, 5000, 160, 8000, 5000, 15000, 900, "NVLink5", 10, 3, 288, 1907, 0},

	/* ---- NVIDIA Blackwell RTX (sm_120) ---- */
	/* NVIDIA RTX PRO 6000 Blackwell Workstation/Server Edition datasheets: "up to 125" FP32, 4000 sparse
	** FP4 AI TOPS (2000 dense: 188 SMs x 2617 MHz x 4096); all derived at 2617 MHz.  Max-Q: 110 FP32,
	** 3511 AI TOPS, derived at 2280 MHz */
	{"RTX PRO 6000 Blackwell", "RTX PRO 6000 Blackwell", 188, DERIVED(188, 2617, R_GB20X), 1792, PK(188, 2617, 2048), PK(188, 2617, 4096), 63, "PCIe Gen5 x16", 12, 0, 96, 2617, 0},
	{"RTX PRO 6000 Blackwell Max-Q", "RTX PRO 6000 Blackwell Max-Q", 188, DERIVED(188, 2280, R_GB20X), 1792, PK(188, 2280, 2048), PK(188, 2280, 4096), 63, "PCIe Gen5 x16", 12, 0, 96, 2280, 0},
	/* GeForce RTX 50: derived (Blackwell RTX whitepaper rates; RTX 5090 there: 104.8 FP32, 209.5 FP16
	** tensor FP32-accumulate, 1676 FP4) */
	{"RTX 5050", "RTX 5050", 20, DERIVED_HALF(20, 2572, R_GB20X), 320, PK(20, 2572, 1024), PK(20, 2572, 4096), NOLINK, 12, 0, 8, 2572, HALF},
	{"RTX 5060", "RTX 5060", 30, DERIVED_HALF(30, 2497, R_GB20X), 448, PK(30, 2497, 1024), PK(30, 2497, 4096), NOLINK, 12, 0, 8, 2497, HALF},
	{"RTX 5060 Ti", "RTX 5060 Ti", 36, DERIVED_HALF(36, 2572, R_GB20X), 448, PK(36, 2572, 1024), PK(36, 2572, 4096), NOLINK, 12, 0, 0, 2572, HALF},
	{"RTX 5070", "RTX 5070", 48, DERIVED_HALF(48, 2512, R_GB20X), 672, PK(48, 2512, 1024), PK(48, 2512, 4096), NOLINK, 12, 0, 12, 2512, HALF},
	{"RTX 5070 Ti", "RTX 5070 Ti", 70, DERIVED_HALF(70, 2452, R_GB20X), 896, PK(70, 2452, 1024), PK(70, 2452, 4096), NOLINK, 12, 0, 16, 2452, HALF},
	{"RTX 5080", "RTX 5080", 84, DERIVED_HALF(84, 2617, R_GB20X), 960, PK(84, 2617, 1024), PK(84, 2617, 4096), NOLINK, 12, 0, 16, 2617, HALF},
	{"RTX 5090", "RTX 5090", 170, DERIVED_HALF(170, 2407, R_GB20X), 1792, PK(170, 2407, 1024), PK(170, 2407, 4096), NOLINK, 12, 0, 32, 2407, HALF},
	/* GeForce RTX 50 Laptop GPUs: derived at their highest boost clock */
	{"RTX 5060 Laptop", "RTX 5060 Laptop", 26, DERIVED_HALF(26, 2497, R_GB20X), 384, PK(26, 2497, 1024), PK(26, 2497, 4096), NOLINK, 12, 0, 8, 2497, HALF},
	{"RTX 5090 Laptop", "RTX 5090 Laptop", 82, DERIVED_HALF(82, 2160, R_GB20X), 896, PK(82, 2160, 1024), PK(82, 2160, 4096), NOLINK, 12, 0, 24, 2160, HALF},

	/* ---- AMD Instinct CDNA (gfx908, gfx90a), CDNA3 (gfx942), CDNA4 (gfx950) ---- */
	/* AMD Instinct MI100 datasheet */
	{"MI100", "MI100", 120, 11.5, 0, 23.1, 46.1, 184.6, 92.3, 0, 184.6, 1228.8, 0, 0, NOLINK, 9, 0, 32, 1502, 0},
	/* AMD Instinct MI210 datasheet */
	{"MI210", "MI210", 104, 22.6, 45.3, 22.6, 45.3, 181.0, 181.0, 0, 181.0, 1638.4, 0, 0, 31.5, "PCIe Gen4 x16", 9, 0, 64, 1700, 0},
	/* AMD Instinct MI250X / MI250 datasheets: one GCD (half a module) */
	{"MI250X-GCD", "MI250X", 110, 23.95, 47.85, 23.95, 47.85, 191.5, 191.5, 0, 191.5, 1638.4, 0, 0, NOLINK, 9, 0, 64, 1700, 0},
	{"MI250-GCD", "MI250", 104, 22.65, 45.25, 22.65, 45.25, 181.05, 181.05, 0, 181.05, 1638.4, 0, 0, NOLINK, 9, 0, 64, 1700, 0},
	/* AMD Instinct MI300A datasheet */
	{"MI300A", "MI300A", 228, 61.3, 122.6, 122.6, 490.3, 980.6, 980.6, 1961.2, 1961.2, 5300, 0, 0, NOLINK, 9, 4, 128, 2100, 0},
	/* AMD Instinct MI300X datasheet */
	{"MI300X", "MI300X", 304, 81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9, 5300, 0, 0, 448, "xGMI", 9, 4, 192, 2100, 0},
	/* AMD Instinct MI308X (China): derived, 80 CUs as reported at the MI300X's clock; AMD publishes no datasheet */
	{"MI308X", "MI308X", 80, DERIVED(80, 2100, R_CDNA3), 5300, 0, 0, NOLINK, 9, 4, 192, 2100, 0},
	/* AMD Instinct MI325X datasheet */
	{"MI325X", "MI325X", 304, 81.7, 163.4, 163.4, 653.7, 1307.4, 1307.4, 2614.9, 2614.9, 6000, 0, 0, 448, "xGMI", 9, 4, 256, 2100, 0},
	/* AMD Instinct MI350X / MI355X datasheets (dense; FP6 and FP4 at twice FP8) */
	{"MI350X", "MI350X", 256, 72.1, 72.1, 144.2, 144.2, 2306.9, 2306.9, 4613.7, 4613.7, 8000, 9227.5, 9227.5, NOLINK, 9, 5, 288, 2200, 0},
	{"MI355X", "MI355X", 256, 78.6, 78.6, 157.3, 157.3, 2516.6, 2516.6, 5033.2, 5033.2, 8000, 10066.3, 10066.3, NOLINK, 9, 5, 288, 2400, 0},

	/* ---- AMD Radeon RDNA3 (gfx1100) ---- */
	/* AMD Radeon PRO W7900 / W7800 datasheets (FP32, FP16); fp64, int8 derived */
	{"Radeon PRO W7900", "W7900", 96, 1.92, 0, 61.3, 0, 122.6, 122.6, 0, 122.6, 864, 0, 0, NOLINK, 11, 0, 48, 2495, 0},
	{"Radeon PRO W7800", "W7800", 70, DERIVED(70, 2520, R_RDNA3), 576, 0, 0, NOLINK, 11, 0, 32, 2520, 0},
	/* AMD Radeon RX 7900 XTX spec page (61.4 FP32, 122.8 FP16); the rest derived */
	{"RX 7900 XTX", "7900 XTX", 96, DERIVED(96, 2500, R_RDNA3), 960, 0, 0, NOLINK, 11, 0, 24, 2500, 0},
	{NULL, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0},
};

/*
** Architectures for the estimate of a GPU the table lacks: vendor, compute
** capability (AMD: gfx version as HIP reports it; gfx906, gfx908 and
** gfx90a all report 9.0 and are told apart by CU count), the clock assumed
** when the trace records none (a typical boost clock of its parts), and
** the rates above.  First match wins.
*/
static const struct gp_arch {
	const char *label;      /* the estimate's gp_gpu.name */
	bool amd;
	int8_t cc_major, cc_minor;
	int16_t cu_min, cu_max; /* SM/CU counts it covers, 0 = any */
	int16_t clock_mhz;
	bool geforce_half;      /* GeForce parts: GP_GPU_HALF_ACC */
	double rate[8];         /* fp64, fp64_tc, fp32, tf32, fp16, bf16, fp8, int8 per clock per SM */
	double fp6, fp4;
} gp_archs[] = {
	{"Pascal sm_60 (estimated)", false, 6, 0, 0, 0, 1480, false, {R_PASCAL_GP100}, 0, 0},
	{"Volta sm_70 (estimated)", false, 7, 0, 0, 0, 1530, false, {R_VOLTA}, 0, 0},
	{"Turing sm_75 (estimated)", false, 7, 5, 0, 0, 1700, true, {R_TURING}, 0, 0},
	{"Ampere sm_80 (estimated)", false, 8, 0, 0, 0, 1410, false, {R_GA100}, 0, 0},
	{"Ampere sm_86 (estimated)", false, 8, 6, 0, 0, 1700, true, {R_GA10X}, 0, 0},
	{"Ampere Orin sm_87 (estimated)", false, 8, 7, 0, 0, 1300, false, {R_GA10B}, 0, 0},
	{"Ada sm_89 (estimated)", false, 8, 9, 0, 0, 2500, true, {R_AD10X}, 0, 0},
	{"Hopper sm_90 (estimated)", false, 9, 0, 0, 0, 1980, false, {R_GH100}, 0, 0},
	{"Blackwell sm_100 (estimated)", false, 10, 0, 0, 0, 1965, false, {R_GB100}, 16384, 32768},
	{"Blackwell Ultra sm_103 (estimated)", false, 10, 3, 0, 0, 1717, false, {R_GB110}, 16384, 49152},
	{"Blackwell sm_120 (estimated)", false, 12, 0, 0, 0, 2500, true, {R_GB20X}, 2048, 4096},
	{"Blackwell GB10 sm_121 (estimated)", false, 12, 1, 0, 0, 2500, false, {R_GB20X}, 2048, 4096},
	{"GCN5 gfx906 (estimated)", true, 9, 0, 1, 64, 1725, false, {R_GCN5}, 0, 0},
	{"CDNA gfx908 (estimated)", true, 9, 0, 120, 120, 1502, false, {R_CDNA1}, 0, 0},
	{"CDNA2 gfx90a (estimated)", true, 9, 0, 65, 0, 1700, false, {R_CDNA2}, 0, 0},
	{"CDNA3 gfx942 (estimated)", true, 9, 4, 0, 0, 2100, false, {R_CDNA3}, 0, 0},
	{"CDNA4 gfx950 (estimated)", true, 9, 5, 0, 0, 2400, false, {R_CDNA4}, 16384, 16384},
	{"RDNA3 gfx11 (estimated)", true, 11, 0, 0, 0, 2500, false, {R_RDNA3}, 0, 0},
	{"RDNA4 gfx12 (estimated)", true, 12, 0, 0, 0, 2970, false, {R_RDNA4}, 0, 0},
};

/* Devices whose properties fit several rows with the same peaks (a name
** that does not say which): the name to show.  A fit not listed here is
** estimated instead. */
static const struct {
	const char *rows;       /* '|'-separated row names, every fitting row among them */
	const char *label;
} same_peaks[] = {
	{"MI210|MI250-GCD", "MI210 or MI250-GCD"},
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

bool gp_gpu_of_run(const gp_trace *t, const struct gp_peak_opts *po, struct gp_gpu *g)
{
	const struct gp_gpu *row = po ? po->gpu : NULL;
	struct gp_gpu est;

	for (size_t i = 0; i < t->devices.n && !row; i++)
		row = gp_gpu_for_device(t, &t->devices.v[i], &est);
	if (row)
		*g = *row;
	else
		memset(g, 0, sizeof(*g));
	return row != NULL;
}

const struct gp_gpu *gp_gpu_lookup(const char *device_name)
{
	const struct gp_gpu *found = NULL;
	size_t best = 0;

	if (!device_name || !*device_name)
		return NULL;
	for (const struct gp_gpu *g = gp_gpus; g->name; g++)
		if (strcasecmp(device_name, g->name) == 0)
			return g;       /* a row's own name: --gpu "RTX 3060 8GB" */
	for (const struct gp_gpu *g = gp_gpus; g->name; g++) {
		size_t n = best_match(device_name, g->match);
		if (n > best) {
			best = n;
			found = g;
		}
	}
	return found;
}

/* Whether row g could be device d: SM count, compute capability and
** memory agree where both state them (memory within 12%: "40GB" is 39.4
** GiB, "8GB" 7.6). */
static bool agrees(const struct gp_gpu *g, const struct gp_device *d)
{
	if (d->sm_count > 0 && g->sm_count > 0 && d->sm_count != g->sm_count)
		return false;
	if (d->cc_major > 0 && g->cc_major > 0 && (d->cc_major != g->cc_major || d->cc_minor != g->cc_minor))
		return false;
	if (d->mem_bytes && g->mem_gb > 0) {
		double gib = (double)d->mem_bytes / (1u << 30);
		if (fabs(gib - g->mem_gb) > 0.12 * g->mem_gb)
			return false;
	}
	return true;
}

/* Whether a device name says which GPU it is: not empty, not ROCm's
** generic "AMD Radeon Graphics", not a bare gfx target ("gfx942",
** "gfx90a:sramecc+:xnack-", what rocprofiler names an agent), not the
** vendor alone ("AMD GPU": the XPlane reader's name for a device whose
** plane states only its vendor). */
static bool name_identifies(const char *name)
{
	return name && *name && strcasecmp(name, "AMD Radeon Graphics") != 0 && strncasecmp(name, "gfx", 3) != 0 &&
	       strcasecmp(name, "AMD GPU") != 0 && strcasecmp(name, "NVIDIA GPU") != 0;
}

/* The row (index) whose match is longest in name among those that agree
** with d, -1 if none. */
static int row_by_name(const char *name, const struct gp_device *d)
{
	size_t best = 0;
	int found = -1;

	for (int i = 0; gp_gpus[i].name; i++) {
		size_t n = best_match(name, gp_gpus[i].match);
		if (n > best && agrees(&gp_gpus[i], d)) {
			best = n;
			found = i;
		}
	}
	return found;
}

/* Whether two rows' peaks are the same within 1% (MI210 and an MI250 GCD). */
static bool same_peaks_as(const struct gp_gpu *a, const struct gp_gpu *b)
{
	const double x[] = {a->fp64, a->fp64_tc, a->fp32, a->tf32, a->fp16, a->bf16, a->fp8, a->int8, a->bw};
	const double y[] = {b->fp64, b->fp64_tc, b->fp32, b->tf32, b->fp16, b->bf16, b->fp8, b->int8, b->bw};

	for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++)
		if (fabs(x[i] - y[i]) > 0.01 * (x[i] > y[i] ? x[i] : y[i]))
			return false;
	return true;
}

/* Whether row g has exactly the compute capability and SM count of d, and
** agrees with it: what identifies a device without a name. */
static bool fits_props(const struct gp_gpu *g, const struct gp_device *d)
{
	return g->cc_major == d->cc_major && g->cc_minor == d->cc_minor && g->sm_count == d->sm_count &&
	       agrees(g, d);
}

/* For a device whose name does not identify it: the row its compute
** capability, SM count and memory fit (gpu_row's code: 1 + row), the
** same_peaks group the fitting rows form (-2 - group), or -1. */
static int row_by_props(const struct gp_device *d)
{
	int first = -1, n = 0;
	bool same = true;

	if (d->cc_major <= 0 || d->sm_count <= 0)
		return -1;
	for (int i = 0; gp_gpus[i].name; i++) {
		const struct gp_gpu *g = &gp_gpus[i];
		if (!fits_props(g, d))
			continue;
		if (first < 0)
			first = i;
		else
			same = same && same_peaks_as(&gp_gpus[first], g);
		n++;
	}
	if (n == 1)
		return first + 1;
	if (n == 0 || !same)
		return -1;
	for (size_t k = 0; k < sizeof(same_peaks) / sizeof(same_peaks[0]); k++) {
		bool all = true;
		for (int i = 0; gp_gpus[i].name && all; i++)
			if (fits_props(&gp_gpus[i], d))
				all = best_match(same_peaks[k].rows, gp_gpus[i].name) == strlen(gp_gpus[i].name);
		if (all)
			return -2 - (int)k;
	}
	return -1;
}

/* gpu_row's code for d: 1 + row, -2 - same_peaks group, -1 none. */
static int device_code(const gp_trace *t, const struct gp_device *d)
{
	const char *name = gp_s(t, d->name);

	if (d->gpu_row)
		return d->gpu_row;
	if (name_identifies(name)) {
		int i = row_by_name(name, d);
		return i >= 0 ? i + 1 : -1;
	}
	return row_by_props(d);
}

/* Whether name contains any of the '|'-separated words (case-insensitive). */
static bool says(const char *name, const char *words)
{
	return name && best_match(name, words) > 0;
}

/* Whether device d is AMD's (1), NVIDIA's (0), or the trace cannot tell
** (-1): the name says; a warp of 64 is AMD's (CDNA/GCN), gfx9 is never
** wave32; the NVIDIA-only formats; compute capabilities one vendor alone
** uses (NVIDIA 6-8 and 10; AMD 9.4, 9.5). */
static int is_amd(const gp_trace *t, const struct gp_device *d)
{
	const char *name = gp_s(t, d->name), *fmt = gp_s(t, t->format);

	if (says(name, "AMD|Radeon|Instinct"))
		return 1;
	if (says(name, "NVIDIA|Tesla|Quadro|GeForce|TITAN|RTX|GTX|Jetson|Orin"))
		return 0;
	if (d->warp_size == 64)
		return 1;
	if (d->warp_size == 32 && d->cc_major == 9)
		return 0;
	if (fmt && (!strcmp(fmt, "nsys") || !strcmp(fmt, "nvprof") || !strcmp(fmt, "gpuprof-rec")))
		return 0;
	if ((d->cc_major >= 6 && d->cc_major <= 8) || d->cc_major == 10)
		return 0;
	if (d->cc_major == 9 && (d->cc_minor == 4 || d->cc_minor == 5))
		return 1;
	return -1;
}

bool gp_gpu_estimate(const gp_trace *t, const struct gp_device *d, struct gp_gpu *g)
{
	const char *name = gp_s(t, d->name);
	int amd = is_amd(t, d);
	const struct gp_arch *a = NULL;

	if (d->sm_count <= 0 || amd < 0)
		return false;
	for (size_t i = 0; i < sizeof(gp_archs) / sizeof(gp_archs[0]) && !a; i++) {
		const struct gp_arch *x = &gp_archs[i];
		if (x->amd == (amd == 1) && x->cc_major == d->cc_major && x->cc_minor == d->cc_minor &&
		    (!x->cu_min || d->sm_count >= x->cu_min) && (!x->cu_max || d->sm_count <= x->cu_max))
			a = x;
	}
	if (!a)
		return false;
	/* a clock outside 100 MHz .. 5 GHz is not one */
	bool have_clock = d->clock_hz >= 1e8 && d->clock_hz <= 5e9;
	double mhz = have_clock ? d->clock_hz / 1e6 : a->clock_mhz;
	double r[8];
	memcpy(r, a->rate, sizeof(r));
	uint8_t flags = GP_GPU_ESTIMATED | (have_clock ? 0 : GP_GPU_CLOCK_ASSUMED);
	if (!amd && a->cc_major == 7 && a->cc_minor == 5 && says(name, "GTX")) {
		r[4] = r[5] = r[7] = 0;     /* GTX 16: no tensor cores */
		flags |= GP_GPU_NO_TC;
	} else if (a->geforce_half && says(name, "GeForce")) {
		for (int i = 3; i <= 6; i++)
			r[i] /= 2;
		flags |= GP_GPU_HALF_ACC;
	}
	memset(g, 0, sizeof(*g));
	g->name = a->label;
	g->match = "";
	g->sm_count = d->sm_count;
	g->fp64 = PK(d->sm_count, mhz, r[0]);
	g->fp64_tc = PK(d->sm_count, mhz, r[1]);
	g->fp32 = PK(d->sm_count, mhz, r[2]);
	g->tf32 = PK(d->sm_count, mhz, r[3]);
	g->fp16 = PK(d->sm_count, mhz, r[4]);
	g->bf16 = PK(d->sm_count, mhz, r[5]);
	g->fp8 = PK(d->sm_count, mhz, r[6]);
	g->int8 = PK(d->sm_count, mhz, r[7]);
	g->fp6 = PK(d->sm_count, mhz, a->fp6) / (flags & GP_GPU_HALF_ACC ? 2 : 1);
	g->fp4 = PK(d->sm_count, mhz, a->fp4);
	g->bw = d->mem_bw > 0 ? d->mem_bw / 1e9 : 0;
	g->cc_major = a->cc_major;
	g->cc_minor = a->cc_minor;
	g->mem_gb = (int16_t)((d->mem_bytes + (1ull << 29)) >> 30);
	g->clock_mhz = (int16_t)mhz;
	g->flags = flags;
	return true;
}

const struct gp_gpu *gp_gpu_for_device(const gp_trace *t, const struct gp_device *d, struct gp_gpu *est)
{
	if (!d)
		return NULL;
	int code = device_code(t, d);
	if (code > 0)
		return &gp_gpus[code - 1];
	if (code <= -2 && est) {
		/* the first fitting row's peaks, under the group's name */
		size_t k = (size_t)(-2 - code);
		for (int i = 0; gp_gpus[i].name; i++)
			if (fits_props(&gp_gpus[i], d)) {
				*est = gp_gpus[i];
				est->name = same_peaks[k].label;
				return est;
			}
	}
	return est && gp_gpu_estimate(t, d, est) ? est : NULL;
}

/* Notes on the peaks of device d when the table does not hold them. */
static void note_peaks(gp_trace *t, const struct gp_device *d)
{
	const char *name = gp_s(t, d->name);
	struct gp_gpu est;
	const struct gp_gpu *g = gp_gpu_for_device(t, d, &est);
	char clock[96], bw[96];

	if (!name || !*name)
		name = "unnamed";
	if (g && !(g->flags & GP_GPU_ESTIMATED))
		return;
	if (!g) {
		gp_trace_warn(t, "gpu %d (%s): peaks unknown: not in the GPU table, and the trace records %s; "
			      "set --gpu or --peak-flops and --peak-bw", d->id, name,
			      d->sm_count <= 0 ? "no SM count"
			      : is_amd(t, d) < 0 ? "no vendor (name or warp size) for its compute capability"
			      : "a compute capability whose per-SM rates the estimate does not know");
		return;
	}
	if (g->flags & GP_GPU_CLOCK_ASSUMED)
		snprintf(clock, sizeof(clock), "clock not recorded: %.2f GHz assumed", g->clock_mhz / 1e3);
	else
		snprintf(clock, sizeof(clock), "%.2f GHz", g->clock_mhz / 1e3);
	if (g->bw > 0)
		snprintf(bw, sizeof(bw), "%.0f GB/s", g->bw);
	else
		snprintf(bw, sizeof(bw), "bandwidth not recorded: eff is na, set --peak-bw");
	gp_trace_warn(t, "gpu %d (%s): not in the GPU table; peaks estimated from the trace's properties "
		      "(%d SMs, %s %d.%d, %s, %s): %.1f FP32, %.1f FP16 tensor TFLOP/s dense (docs/op-model.md)",
		      d->id, name, d->sm_count, is_amd(t, d) == 1 ? "gfx" : "cc", d->cc_major, d->cc_minor,
		      clock, bw, g->fp32, g->fp16 > 0 ? g->fp16 : 2 * g->fp32);
}

void gp_gpus_resolve(gp_trace *t, const struct gp_peak_opts *po)
{
	for (size_t i = 0; i < t->devices.n; i++) {
		struct gp_device *d = &t->devices.v[i];
		d->gpu_row = 0;
		d->gpu_row = (int16_t)device_code(t, d);
	}
	if (!t->devices.n || (po && (po->gpu || (po->peak_flops > 0 && po->peak_bw > 0))))
		return;
	/* only devices that ran kernels: nsys lists every GPU of the machine */
	bool *used = gp_xcalloc(t->devices.n, sizeof(*used));
	int32_t last = INT32_MIN;
	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t id = gp_kernel_device(t, &t->kernels.v[k]);
		if (id == last)
			continue;
		last = id;
		for (size_t i = 0; i < t->devices.n; i++)
			if (t->devices.v[i].id == id)
				used[i] = true;
	}
	for (size_t i = 0; i < t->devices.n; i++)
		if (used[i])
			note_peaks(t, &t->devices.v[i]);
	free(used);
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
	case GP_DT_FP6: case GP_DT_FP4:
		/* FP6 / FP4 MMA where the GPU has it (Blackwell, CDNA4); else
		** the kernel runs them through its FP8 or FP16 rate */
		v = !tc ? g->fp32 : dt == GP_DT_FP4 && g->fp4 ? g->fp4 : g->fp6 ? g->fp6
		    : g->fp8 ? g->fp8 : g->fp16 ? g->fp16 : g->fp32;
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
	struct gp_gpu est;

	if (!g && d)
		g = gp_gpu_for_device(t, d, &est);
	if (!g && t->devices.n == 1)
		g = gp_gpu_for_device(t, &t->devices.v[0], &est);
	p->flops = o && o->peak_flops > 0 ? o->peak_flops : gp_gpu_peak_flops(g, dt, tc);
	if (o && o->peak_bw > 0)
		p->bw = o->peak_bw;
	else if (g && g->bw > 0)
		p->bw = g->bw * 1e9;
	else
		p->bw = d && d->mem_bw > 0 ? d->mem_bw : 0;
}
