/*
** gpuprof-gen: a synthetic training run (model.c) told as a stream of
** events to one sink per output format (nsys.c, nvprof.c, kineto.c).
** Private to tools/gen/.
**
** Ownership: every pointer inside an event is only valid during the sink
** call; sinks copy what they keep.  A sink owns its output and reports the
** first failure from its finish function (the model never checks).
*/
#ifndef GP_GEN_H
#define GP_GEN_H

#include <stdbool.h>
#include <sqlite3.h>
#include <stdint.h>

#include "util/error.h"

#define GEN_MAX_STREAMS 16

/* The simulated process: one python process with a main thread and the
** autograd engine's backward thread, one GPU. */
#define GEN_PID 24242u
#define GEN_TID_MAIN GEN_PID
#define GEN_TID_AUTOGRAD (GEN_PID + 37u)

enum gen_thread { GEN_THR_MAIN, GEN_THR_AUTOGRAD, GEN_THR__COUNT };

/* A kernel the model can launch.  mangled is the symbol (nvprof's name;
** NULL for the few kernels without C++ mangling, whose short name is the
** full name); demangled is written the way nsys demangles. */
struct gen_kdef {
	const char *mangled;
	const char *demangled;
	const char *short_name;
	uint16_t regs;
	uint32_t static_smem, dynamic_smem;
};

/* The kernel catalog's entries (model.c). */
enum gen_kd {
	KD_FILL, KD_MUL, KD_ADD, KD_GELU, KD_GELU_BWD, KD_DROPOUT, KD_LAYERNORM,
	KD_LAYERNORM_BWD, KD_REDUCE, KD_SOFTMAX, KD_ADAM, KD_NCCL,
	KD_GEMM_TN, KD_GEMM_NN, KD_GEMM_NT, KD_GEMM_RELU,       /* sm80 */
	KD_V_GEMM_TN, KD_V_GEMM_NN, KD_V_GEMM_NT, KD_V_GEMM_RELU, /* sm70 */
	KD_NCCL_ALL_GATHER, KD_NCCL_REDUCE_SCATTER,              /* the rank workload's (ranks.c) */
	KD_CAST, KD_SIMT_GEMM,  /* --inject add-kernel, no-tc */
	/* --lowprec (lowprec.c): cuBLAS FP8, CUTLASS grouped FP8 and BF16,
	** CUTLASS block-scaled NVFP4 */
	KD_FP8_GEMM, KD_FP8_GROUPED, KD_BF16_GROUPED, KD_FP4_GEMM, KD_NCCL_SENDRECV,
	KD__COUNT
};

extern const struct gen_kdef gen_kdefs[];
extern const int gen_nkdefs;
/* The kernels of the rank workload (ranks.c): a GEMM, and the NCCL
** all-reduce, all-gather and reduce-scatter. */
extern const int gen_kd_gemm;
extern const int gen_kd_coll[3];
extern const int gen_kd_a2a;     /* NCCL's SendRecv kernel: all-to-all(-v) */

/* The CUDA API calls the model makes (index into gen_apis). */
enum gen_api_id {
	GEN_API_LAUNCH, GEN_API_MEMCPY_ASYNC, GEN_API_MEMSET_ASYNC, GEN_API_STREAM_SYNC,
	GEN_API_EVENT_RECORD, GEN_API_STREAM_WAIT_EVENT,
	/* CUDA graphs (graphs.c) */
	GEN_API_GRAPH_LAUNCH, GEN_API_BEGIN_CAPTURE, GEN_API_END_CAPTURE, GEN_API_INSTANTIATE,
	/* --inject autotune, malloc */
	GEN_API_CUDNN_FIND, GEN_API_MALLOC,
	GEN_API__COUNT
};

struct gen_api_def {
	const char *name;       /* runtime name with version: "cudaLaunchKernel_v7000" */
	int cbid;               /* CUPTI runtime callback id */
};

extern const struct gen_api_def gen_apis[GEN_API__COUNT];

/* What a range is; sinks that cannot express a kind (Kineto has no PyProf
** dict markers) skip it. */
enum gen_range_kind {
	GEN_R_ITER,      /* "iteration 12" / ProfilerStep#12 */
	GEN_R_LAYER,     /* "layer:Block_3" */
	GEN_R_PYPROF,    /* "{'mod': 'torch.nn.functional', 'op': 'linear', ...}" */
	GEN_R_OP,        /* emit_nvtx op marker, forward or backward */
	GEN_R_ANNOT,     /* record_function: "Optimizer.step#AdamW.step" */
};

struct gen_range {
	int64_t start, end;
	enum gen_thread thr;
	enum gen_range_kind kind;
	const char *text;       /* the NVTX string as emit_nvtx/PyProf/the user writes it */
	const char *name;       /* op or annotation name: "aten::addmm", "ProfilerStep#3" */
	int64_t seq;            /* autograd sequence number, -1 = none */
	uint64_t op_id;         /* emit_nvtx op_id, also Kineto's External id; 0 = none */
	bool backward;          /* a backward op (on the autograd thread) */
	const char *dims;       /* Kineto Input Dims JSON "[[64,1024],[1024,4096]]", NULL = none */
	const char *types;      /* Kineto Input type JSON "[\"c10::Half\",\"c10::Half\"]" */
	const char *more_args;  /* Kineto: more args members ("\"Seq\": 3, ..."), NULL = none */
};

struct gen_api {
	int64_t start, end;
	enum gen_thread thr;
	enum gen_api_id api;
	uint64_t corr;
	uint64_t ext;           /* op_id of the innermost open op, 0 = none */
	const char *name;       /* instead of gen_apis' name (HIP's), NULL = none */
	/* what a launch's args state (ROCm Kineto traces: args.kernel, grid,
	** block): 1 + the kernel's gen_kdefs index, 0 = nothing */
	int launched;
	uint32_t grid[3], block[3];
};

struct gen_kernel {
	int64_t start, end;
	int kdef;               /* index into gen_kdefs */
	uint32_t stream;
	uint64_t corr, ext;
	uint32_t grid[3], block[3];  /* all 0: not stated (ROCm graph kernels) */
	uint64_t graph_node;    /* the graph node it runs, 0 = launched eagerly */
	uint32_t graph_id;
};

/* A CUDA graph node's creation (original 0) or clone (nsys
** CUDA_GRAPH_NODE_EVENTS). */
struct gen_graph_node {
	int64_t start, end;
	enum gen_thread thr;
	uint64_t node, original;
};

/* One execution of a whole graph (nsys --cuda-graph-trace=graph). */
struct gen_graph_exec {
	int64_t start, end;
	uint32_t stream;
	uint64_t corr;          /* the graph launch */
	uint32_t graph_id, exec_id;
};

/* CUPTI numbering (nvprof's) for copy and memory kinds. */
struct gen_memcpy {
	int64_t start, end;
	uint32_t stream;
	uint64_t corr, ext, bytes;
	int copy_kind;          /* 1 HtoD, 2 DtoH, 8 DtoD */
	int src_kind, dst_kind; /* 1 pageable, 2 pinned, 3 device */
	uint64_t graph_node;    /* 0 = not from a graph */
};

struct gen_memset {
	int64_t start, end;
	uint32_t stream;
	uint64_t corr, ext, bytes;
	uint32_t value;
	uint64_t graph_node;    /* 0 = not from a graph */
};

struct gen_sync {
	int64_t start, end;
	uint32_t stream;
	uint64_t corr;
	int type;               /* CUPTI: 1 event, 2 stream wait event, 3 stream, 4 context */
	uint32_t event_id;      /* 0xffffffff when not an event sync */
	/* a stream wait's event: its record call and the stream it recorded */
	uint64_t record_corr;
	uint32_t record_stream;
};

struct gen_sink {
	void *ctx;
	void (*range)(void *ctx, const struct gen_range *r);
	void (*api)(void *ctx, const struct gen_api *a);
	void (*kernel)(void *ctx, const struct gen_kernel *k);
	void (*memcpy)(void *ctx, const struct gen_memcpy *m);
	void (*memset)(void *ctx, const struct gen_memset *m);
	void (*sync)(void *ctx, const struct gen_sync *s);
	/* NULL in sinks whose format has no such records (graphs.c skips them) */
	void (*graph_node)(void *ctx, const struct gen_graph_node *n);
	void (*graph_exec)(void *ctx, const struct gen_graph_exec *x);
};

/* Changes to the workload (--inject), for `gpuprof diff` tests: a pair of
** runs with known differences.  NULL / 0 fields change nothing. */
struct gen_inject {
	const char *slow_op;    /* kernels launched inside this op take ... */
	double slow_factor;     /* ... this factor times as long */
	const char *add_op;     /* each block's forward also runs this op, which
				** launches one fp32->fp16 cast kernel */
	const char *no_tc;      /* this kernel (short name) runs as a SIMT GEMM
				** instead, 4 times as long */
	/* the data loader's time before each step: recorded as an
	** enumerate(DataLoader) annotation and taking this factor times its
	** time when data_loader is set (0 removes it) */
	bool data_loader;
	double loader_factor;
	bool pinned;            /* loss.item() copies into pinned memory (no host block) */
	/* one-time costs: a cudnnFindConvolutionForwardAlgorithmEx call of
	** autotune_us in step 1 just before the first block's first GEMM is
	** launched (an algorithm search, the CPU in it); a cudaMalloc call of
	** malloc_us in steps 1 and 3 just before the first block's GELU; 0 =
	** none.  No random draw depends on them: the rest of the trace is the
	** same but for the time they take. */
	double autotune_us, malloc_us;
};

struct gen_opts {
	uint64_t kernels;       /* exactly this many kernels (or iters) */
	uint64_t seed;
	int streams;            /* 1..GEN_MAX_STREAMS */
	bool sm70;              /* Volta kernel names (nvprof cannot profile sm80+) */
	int rank, world_size;   /* a rank of a job (Kineto distributedInfo); world_size 0 = none */
	int iters;              /* > 0: stop after this many whole iterations */
	double noise;           /* kernel time jitter: base * (1 +- noise) */
	struct gen_inject inject;
	bool graphs;            /* the file holds CUDA graph records (graphs.c) */
	bool amd;               /* a ROCm trace (Kineto: HIP names, no kernel registers) */
	const char *gpu;        /* Kineto's device: "h100", "b200"; NULL = an A100 */
	const char *host;       /* the node the trace was taken on (Kineto
				** "host_name", nsys TARGET_INFO_SYSTEM_ENV
				** Hostname); NULL = none stated */
};

/* Parses one --inject list ("slow-op=NAME:F,add-kernel=OP,no-tc=KERNEL")
** into in.  Fails (GP_ERR_USAGE) on an unknown key or a bad factor. */
int gen_inject_parse(char *spec, struct gen_inject *in, gp_error *err);

/* Stream ids the model uses: stream i of opts.streams. */
uint32_t gen_stream_id(int i);

/* Runs the model: tells sink every event, in time order per thread.  Times
** are ns from an arbitrary origin (>= 1 s); sinks add their own base. */
void gen_model_run(const struct gen_opts *o, const struct gen_sink *sink);

/* The sinks.  open() creates path (which must not exist unless force, in
** which case it is replaced), fills *sink and returns 0, or fills err.
** finish() writes what comes after the events, closes and frees, and
** returns the first error (then the partial file is removed). */
struct gen_writer {
	const char *name;
	int (*open)(const char *path, bool force, const struct gen_opts *o, struct gen_sink *sink,
		    gp_error *err);
	int (*finish)(struct gen_sink *sink, gp_error *err);
};

extern const struct gen_writer gen_writer_nsys, gen_writer_nvprof, gen_writer_kineto, gen_writer_gprec;

/* The rank set (ranks.c): one trace per rank of a data-parallel job, the
** same iterations on every rank, each a GEMM then a collective (all-reduce,
** all-gather, reduce-scatter, in turn) on its own stream.  The slow rank's
** GEMMs run delay_ns longer, so it arrives last at every collective by
** exactly delay_ns; rank r's clock reads r x skew_ns ahead. */
struct gen_rank_opts {
	int ranks;              /* 1..GEN_MAX_RANKS */
	int slow_rank;          /* -1 = none */
	int64_t delay_ns, skew_ns;
	int iters;
	bool deps;              /* record the stream waits and the step's sync (ranks.c) */
	bool a2a;               /* expert-parallel all-to-all-v phases instead (ranks.c) */
	int a2a_hot;            /* >= 0: the rank every rank sends 8x the rows
				** at dispatch (ranks.c); -1 = none */
	int nodes;              /* > 0: ranks spread over this many hosts, with
				** an intra-node all-reduce per iteration (ranks.c) */
};
#define GEN_MAX_RANKS 4096

/* Writes dir/rank-K.json (kineto; .sqlite for nsys) for every
** rank K with writer w, creating dir when missing.  Returns 0, or fills
** err (the file it could not write). */
int gen_ranks_run(const struct gen_writer *w, const char *dir, bool force, const struct gen_rank_opts *ro,
		  gp_error *err);

/* `--format xplane` (xplane.c): JAX's XPlane profile of a training step
** on H100s (the file's comment says what each plane holds), steps of
** jit_train_step on gpus GPUs per host.  hosts 0: one host's file at path
** (gzip when it ends in .gz) and its truth at path.truth; hosts N >= 1:
** path is a directory, the files path/plugins/profile/<run>/host<i>.xplane.pb
** as JAX lays them out and the truth at path/xplane.truth.  Returns 0, or
** fills err. */
#define GEN_XPLANE_MAX_GPUS 8
#define GEN_XPLANE_MAX_HOSTS 64
#define GEN_XPLANE_MAX_STEPS 1000
struct gen_xplane_opts {
	int hosts, gpus, steps;
};
int gen_xplane_run(const char *path, const struct gen_xplane_opts *xo, bool force, gp_error *err);

/* `--graphs MODE` (graphs.c): a small server that captures CUDA graphs and
** replays them.  nsys and gprec: MODE node or graph (--cuda-graph-trace),
** one file at path; kineto: MODE amd or cuda, the replay trace at path and its capture
** traces in capture_traces/ beside it, as vLLM writes them.  Every
** replayed kernel's expected attribution goes to path.truth (graphs.c
** says the columns).  Returns 0, or fills err. */
int gen_graphs_run(const struct gen_writer *w, const char *path, const char *mode, bool force, gp_error *err);

/* `--lowprec GPU` (lowprec.c): a Kineto trace of low-precision GEMMs on
** one GPU ("h100": _scaled_mm FP8, _scaled_grouped_mm FP8, _grouped_mm
** BF16; "b200": _scaled_mm NVFP4 and FP8), each kernel lasting what its
** FLOPs take at a known fraction of its element type's datasheet peak
** (lowprec.c says which).  Returns 0, or fills err (GP_ERR_USAGE: an
** unknown GPU). */
int gen_lowprec_run(const struct gen_writer *w, const char *path, const char *gpu, bool force, gp_error *err);

/* `--annot MODE` (annot.c): passes (kineto or nsys: layers and passes from
** annotations such as "attn(F)" around kernels without ops) or serving
** (kineto: vLLM step markers, one warm-up decode step).  Fails
** (GP_ERR_USAGE) on another mode or writer. */
int gen_annot_run(const struct gen_writer *w, const char *path, const char *mode, bool force, gp_error *err);

/* Creates path for writing and returns its descriptor: fails (GP_ERR_IO)
** when it exists, unless force, which replaces it.  -1 on failure. */
int gen_create(const char *path, bool force, gp_error *err);

/* A SQLite file being written in one transaction (gen_sql.c).  Statements
** are finalized by gen_db_close(); the first failure is kept in err/failed
** and later calls do nothing. */
#define GEN_DB_MAX_STMTS 16
struct gen_db {
	sqlite3 *db;
	const char *path;
	sqlite3_stmt *stmts[GEN_DB_MAX_STMTS];
	int nstmts;
	bool failed;
	gp_error err;
};

/* Creates path (see gen_create), sets the fast-write pragmas, begins the
** transaction and runs ddl. */
int gen_db_open(struct gen_db *g, const char *path, bool force, const char *ddl, gp_error *err);
sqlite3_stmt *gen_db_prepare(struct gen_db *g, const char *sql);
/* Binds one row and inserts it.  types has one letter per column: 'i'
** int64, 'n' NULL (no argument), 't' text (NULL = NULL), 'b' blob (pointer,
** int length). */
void gen_db_row(struct gen_db *g, sqlite3_stmt *st, const char *types, ...);
void gen_db_exec(struct gen_db *g, const char *sql);
/* Runs post (may be NULL) after the rows, commits and closes; on any
** failure removes the file and returns the first error. */
int gen_db_close(struct gen_db *g, const char *post, gp_error *err);

/* The DDL the SQLite sinks execute: tests/data/schema/nsys.sql and
** nvprof.sql (copied from real exports), embedded by the Makefile. */
extern const char gen_nsys_ddl[];
extern const char gen_nvprof_ddl[];
/* tests/data/schema/nsys_graphs.sql: the CUDA graph tables, added by --graphs */
extern const char gen_nsys_graphs_ddl[];

#endif
