/*
** The op model: for each kernel, the params string, FLOPs, bytes and
** tensor-core use of the op that launched it (PyProf's prof stage, fixed
** and extended).  Formulas live as data in src/ops/ops.def
** (docs/op-model.md); tensor-core name patterns in tc.c; GPU peaks in
** gpus.c.
**
** Ownership: gp_ops_run() fills a caller-owned gp_ops whose arrays
** gp_ops_free() releases.  Strings in it are interned in the trace (gp_str)
** or static (family).
*/
#ifndef GP_OPS_H
#define GP_OPS_H

#include <stdbool.h>

#include "model/trace.h"

enum gp_tc { GP_TC_NA = -2, GP_TC_NOT_APPLICABLE = -1, GP_TC_NO = 0, GP_TC_YES = 1 };

struct gp_opres {
	gp_str op;          /* op name to show, overriding attr.op (PyProf's "bias"); 0 = keep */
	gp_str params;      /* "M=600,N=700,K=200,type=fp32"; 0 = na */
	double flops;       /* < 0 = unknown */
	double bytes;       /* < 0 = unknown */
	/* the narrow fields together, flags as bits: 32 bytes a kernel */
	uint16_t family;    /* read it through gp_opres_family() */
	int8_t tc;          /* enum gp_tc */
	uint8_t dtype;      /* enum gp_dtype the op computes in, GP_DT_UNKNOWN if unknown */
	unsigned tc_eligible : 1; /* a GEMM/conv/attention op in fp16/bf16/tf32/fp8 */
	unsigned known : 1;       /* a formula row computed flops/bytes for this kernel */
	unsigned comm : 1;        /* gp_kernel_is_comm(); read it through gp_op_is_comm() */
	unsigned helper : 1;      /* a helper kernel of a GEMM/conv op (gp_kernel_is_helper): 0 FLOPs */
	unsigned trial : 1;       /* an autotuning trial run (cudnn.benchmark): flops/bytes -1 */
	unsigned overpeak : 1;    /* the modelled work exceeded the GPU's peak: flops/bytes -1 */
	unsigned peak : 24;       /* index into gp_ops.peaks: read it through gp_op_peak() */
};

/* Memory per kernel is a tracked target (docs/PERFORMANCE.md). */
_Static_assert(sizeof(struct gp_opres) == 32, "gp_opres stays 32 bytes a kernel");

/* The kernel's op family: "gemm", "conv", "pointwise"... (its rule's),
** "unknown" for an op no rule knows, NULL when no op is attributed. */
const char *gp_opres_family(const struct gp_opres *r);

/* Whether the kernel is communication: gp_kernel_is_comm()
** (model/classify.h), kept per kernel by the op model.  Communication
** kernels have no compute/memory roofline. */
static inline bool gp_op_is_comm(const struct gp_opres *r)
{
	return r->comm;
}

/* The peaks the roofline of a kernel is measured against, from the
** --gpu/--peak-* options, else the GPU table entry of its device.  A GPU
** without its own name (gp_gpu_for_device) in a trace of one device takes
** that device's. */
#define GP_OPS_MAX_PATHS 8
struct gp_peak_opts {
	const struct gp_gpu *gpu;   /* --gpu NAME, NULL = from the trace's device */
	double peak_flops;          /* --peak-flops (FLOP/s), 0 = table */
	double peak_bw;             /* --peak-bw (bytes/s), 0 = table */
	/* The user's ops files or directories (docs/op-model.md, "Your own
	** ops"): the configuration directory's, then each --ops-file;
	** ops_optional[i]: a default that need not exist. */
	const char *ops_paths[GP_OPS_MAX_PATHS];
	bool ops_optional[GP_OPS_MAX_PATHS];
	size_t nops_paths;
};

/* A kernel's peaks: FLOP/s for its dtype on tensor cores or not, and
** memory bandwidth in bytes/s; 0 = unknown. */
struct gp_peak {
	double flops, bw;
};

/* The op model of a trace: per kernel its gp_opres, and the few distinct
** peaks the kernels run against (their device, dtype and tensor-core use
** decide them), referenced by gp_opres.peak: 32 bytes a kernel in all. */
struct gp_opdefs;
struct gp_ops {
	struct gp_opres *r;         /* [t->kernels.n] */
	struct gp_opdefs *defs;     /* the kernel families and op rules it ran with (ops/opdefs.h) */
	struct gp_peak *peaks;      /* [npeaks]; peaks[0] is {0, 0}: unknown */
	size_t npeaks;
	struct gp_peak_opts po;     /* the peak options it ran with */
};

/* Computes ops for t (t->attrs filled: else every kernel has no op), with
** the peaks of po (NULL: the trace's GPUs).  Never fails: an op the model
** does not know gets family "unknown", flops/bytes -1.  Then two checks
** make the FLOPs trustworthy: autotuning trial runs (cudnn.benchmark: one
** op instance that runs more GEMM/conv kernels than the same op with the
** same shapes does elsewhere) get trial = 1, and a kernel whose modelled
** work needs longer than it ran at its peaks gets overpeak = 1; both get
** flops/bytes -1, and each check that fires adds a note to t->warnings
** (count, time, names).  First it looks each device up in the GPU table
** once (gp_gpus_resolve: its row kept in the device, a note for estimated
** or unknown peaks).  Interns params and op names in t. */
void gp_ops_run(gp_trace *t, const struct gp_peak_opts *po, struct gp_ops *ops);

/* The autotuning trial marks gp_ops_run would set on t as it is (1 = a
** trial run), with no note and nothing else kept: a window cut asks for
** them on what was read before it cuts (an op's trial runs and the
** instances they are told by may lie outside the window) and keeps them
** in t->kernel_trial, which gp_ops_run then uses.  NULL when t has no
** attributed kernels; the caller frees it. */
uint8_t *gp_ops_trials(gp_trace *t, const struct gp_peak_opts *po);

void gp_ops_free(struct gp_ops *ops);

/* Kernel k's peaks (a communication kernel's too: gp_op_roofline gives it
** none). */
static inline const struct gp_peak *gp_op_peak(const struct gp_ops *o, size_t k)
{
	return &o->peaks[o->r[k].peak];
}

struct gp_roofline;

/* Kernel k's roofline: its modelled FLOPs and bytes over its duration
** (0 when it ends before it starts) against its peaks; a communication
** kernel has none (ideal, eff and bound unknown, achieved rates kept). */
void gp_op_roofline(const gp_trace *t, const struct gp_ops *o, size_t k, struct gp_roofline *rl);

/* The op name s without its namespace ("aten::linear" -> "linear",
** "nccl:all_reduce" -> "all_reduce"): the op model's rules and the
** names people type match on it.  Points into s. */
const char *gp_op_base(const char *s);

/* Totals over a gp_ops_run() result, for `info`. */
struct gp_ops_summary {
	double gpu_ns;          /* total kernel time */
	double known_ns;        /* kernel time with known FLOPs */
	size_t kernels, known;  /* kernel counts */
	size_t unknown_ops;     /* distinct op names the model does not know */
	size_t unknown_kernels; /* kernels of those ops */
};
void gp_ops_summarize(const gp_trace *t, const struct gp_ops *o, struct gp_ops_summary *s);

/* Kernel names: tensor cores, element type, communication (tc.c). */

/* Whether a kernel name (full demangled name preferred) shows tensor-core
** use: GP_TC_YES for TC patterns (Volta..Blackwell), GP_TC_NO for known
** CUDA-core GEMM/conv kernels (sgemm, simt, scudnn...), GP_TC_NOT_APPLICABLE
** when the name says nothing either way. */
int gp_tc_kernel(const char *name);

/* Whether the kernel is a helper of a GEMM or convolution (offsets,
** pointers, Winograd/FFT transforms, layout conversions, split-K
** reductions): no matrix math of its own, 0 FLOPs. */
bool gp_kernel_is_helper(const char *name);

/* Whether the name looks like a GEMM or convolution kernel (for ops the
** model does not know, so their GEMMs still get a 1/0 TC value). */
bool gp_kernel_is_gemm_like(const char *name);

/* The element type a kernel name shows ("bf16", "c10::Half", "h884", "sgemm"),
** GP_DT_UNKNOWN if none. */
enum gp_dtype gp_kernel_dtype(const char *name);

/* The low-precision element type a matrix kernel's name says its MMA
** runs in (fp8 e4m3/e5m2, fp6, fp4: the widest operand, FP8 x FP4 being
** an FP8 MMA; block-scale types ue4m3/ue8m0 are no operand), from
** CUTLASS, cuBLAS, TensorRT-LLM (bmm_<out>_<A><B>_...: the inputs only),
** DeepGEMM, FlashInfer and Tensile/hipBLASLt (Cijk_..._F8BS: the types
** field) names; GP_DT_UNKNOWN when it shows none.  The op model judges a
** tensor-core kernel against this type's peak (docs/op-model.md). */
enum gp_dtype gp_kernel_mma_dtype(const char *name);

/* Whether a GEMM-like op in dt is tensor-core eligible (fp16, bf16, tf32, fp8, fp6, fp4). */
bool gp_dtype_tc_capable(enum gp_dtype dt);


/* GPU peaks (gpus.c). */

/* gp_gpu.flags */
enum {
	GP_GPU_HALF_ACC = 1,      /* GeForce-class tensor cores: fp16/bf16/tf32/fp8 with fp32
				  ** accumulate at half the rate of the professional parts */
	GP_GPU_NO_TC = 2,         /* no tensor cores on a tensor-core architecture (GTX 16) */
	GP_GPU_ESTIMATED = 4,     /* peaks estimated from a device's properties (gp_gpu_estimate) */
	GP_GPU_CLOCK_ASSUMED = 8, /* estimated at the architecture's usual clock: the trace has none */
};

struct gp_gpu {
	const char *name;       /* "A100-SXM4-80GB"; an estimate's names its architecture */
	const char *match;      /* '|'-separated substrings of the device name */
	int sm_count;           /* SMs (AMD: compute units); 0 = not published */
	double fp64, fp64_tc, fp32, tf32, fp16, bf16, fp8, int8;  /* TFLOP/s (TOP/s), dense, 0 = none */
	double bw;              /* GB/s; 0 = unknown (an estimate from a trace without it) */
	double fp6, fp4;        /* TFLOP/s, dense, 0 = none (GP_DT_FP6, GP_DT_FP4) */
	double link_bw;         /* GB/s per direction of the GPU-to-GPU link
				** (NVLink, xGMI, or PCIe x16 on PCIe cards), 0 = unknown */
	const char *link;       /* "NVLink4", "PCIe Gen4 x16", NULL = unknown */
	/* What a trace records, to tell variants apart and check estimates */
	int8_t cc_major, cc_minor;  /* compute capability; AMD: gfx version as HIP reports it (gfx942 = 9.4) */
	int16_t mem_gb;         /* memory as marketed (GB), 0 = several */
	int16_t clock_mhz;      /* boost clock the peaks are at (derived rows: the one used) */
	uint8_t flags;          /* GP_GPU_* */
};

/* The table entry named device_name, else the one whose match occurs in
** it (case-insensitive, longest match wins, the first row on a tie), or
** NULL.  By name only: for --gpu NAME. */
const struct gp_gpu *gp_gpu_lookup(const char *device_name);

/* The peaks of a device of a trace: the table row its name matches whose
** SM count, memory and compute capability agree with what the trace
** records (longest match first: "AMD Instinct MI250X / MI250" with 104
** CUs is an MI250 GCD; an A100 MIG slice agrees with no row); for a name
** that does not say which GPU it is (ROCm's "AMD Radeon Graphics", "") the
** one row with its compute capability, SM count and memory; else, when est
** is not NULL, peaks estimated from its properties (gp_gpu_estimate) in
** *est, returned.  NULL when none of these can tell.  Uses d->gpu_row when
** gp_gpus_resolve() has filled it. */
const struct gp_gpu *gp_gpu_for_device(const gp_trace *t, const struct gp_device *d, struct gp_gpu *est);

/* Fills *g with peaks estimated from what the trace records of device d:
** its architecture (compute capability, or gfx version and CU count,
** with the vendor from the name, warp size or format) gives FLOPs per
** clock per SM for each precision (docs/op-model.md), times its SM count
** and clock (the architecture's usual boost clock when the trace has none:
** GP_GPU_CLOCK_ASSUMED); bandwidth is the trace's (0 when it has none).
** g->name is the architecture's ("Ampere sm_86 (estimated)"), flags has
** GP_GPU_ESTIMATED.  False, *g untouched, when the trace lacks the SM count
** or the architecture is not one the table of rates knows. */
bool gp_gpu_estimate(const gp_trace *t, const struct gp_device *d, struct gp_gpu *g);

/* The run's GPU, decided once (by the analysis runner, before any pass):
** po's --gpu, else the row (or the estimate, gp_gpu_for_device) of the
** first device of t that one of them knows, copied into *g, which owns
** nothing (its names are the table's).  False, *g zeroed, when none can
** tell.  The per-kernel peaks stay each device's (gp_peaks_lookup). */
bool gp_gpu_of_run(const gp_trace *t, const struct gp_peak_opts *po, struct gp_gpu *g);

/* Looks up each device of t once and keeps the row in d->gpu_row, so that
** the per-kernel peaks (gp_peaks_lookup) cost no name search; for each device
** that runs kernels and whose peaks are not in the table, adds a note to
** t->warnings: estimated (from what, what was assumed, the main peaks) or
** unknown (what the trace lacks).  No note when po sets a GPU or both
** peaks. */
void gp_gpus_resolve(gp_trace *t, const struct gp_peak_opts *po);

/* The table, for --help and docs (terminated by name == NULL). */
extern const struct gp_gpu gp_gpus[];

/* Peak FLOP/s for work in dtype dt, on tensor cores or not (tc), on g;
** 0 when unknown.  Unknown dtype counts as fp32. */
double gp_gpu_peak_flops(const struct gp_gpu *g, enum gp_dtype dt, bool tc);

/* Roofline for one kernel.  peak_flops/peak_bw in FLOP/s and bytes/s
** (0 = unknown); any unknown input gives the derived value -1. */
struct gp_roofline {
	double gflops, gbps;    /* achieved */
	double intensity;       /* FLOP per byte */
	double ideal_ns;        /* max(F / peak F, B / peak BW) */
	double eff;             /* ideal / measured, 0..1 (can exceed 1 if the model overcounts) */
	int bound;              /* 1 compute, 0 memory, -1 unknown */
};
void gp_roofline(double flops, double bytes, double dur_ns, double peak_flops, double peak_bw,
		 struct gp_roofline *out);

#endif
