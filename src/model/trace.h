/*
** The trace model: one in-memory representation for every input format.
**
** Readers (src/readers/) fill a gp_trace; analysis passes (src/analysis/,
** src/ops/) add derived tables (attrs, opres); commands and
** writers only read it.  docs/trace-model.md describes every field.
**
** Ownership: a gp_trace owns all its records, strings and arrays; everything
** is released at once by gp_trace_free().  Records refer to each other by
** index into the owning array (int32, -1 = none) and to strings by gp_str.
**
** Times are int64 nanoseconds on the trace's own clock (nsys: from capture
** start, may be negative; nvprof: epoch; Kineto: base + ts).  An instant has
** end == start.
*/
#ifndef GP_TRACE_H
#define GP_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/alloc.h"
#include "util/arena.h"
#include "util/strtab.h"
#include "util/u64map.h"

typedef int64_t gp_ns;

#define GP_MAX_DIMS 8

enum gp_api_kind { GP_API_RUNTIME, GP_API_DRIVER, GP_API_OTHER };

/* CUPTI's memcpy kinds (nvprof numbering, which nsys shares). */
enum gp_copy_kind {
	GP_COPY_UNKNOWN, GP_COPY_HTOD, GP_COPY_DTOH, GP_COPY_HTOA, GP_COPY_ATOH,
	GP_COPY_ATOA, GP_COPY_ATOD, GP_COPY_DTOA, GP_COPY_DTOD, GP_COPY_HTOH,
	GP_COPY_PTOP, GP_COPY_UVM_HTOD, GP_COPY_UVM_DTOH, GP_COPY_UVM_DTOD,
	GP_COPY__COUNT
};

/* Memory kinds in our own numbering; readers translate (nsys and CUPTI
** number them differently, see formats.md 1.7 and 2). */
enum gp_mem_kind {
	GP_MEM_UNKNOWN, GP_MEM_PAGEABLE, GP_MEM_PINNED, GP_MEM_DEVICE,
	GP_MEM_ARRAY, GP_MEM_MANAGED, GP_MEM_DEVICE_STATIC, GP_MEM_MANAGED_STATIC,
	GP_MEM__COUNT
};

enum gp_sync_kind {
	GP_SYNC_UNKNOWN, GP_SYNC_EVENT, GP_SYNC_STREAM_WAIT, GP_SYNC_STREAM,
	GP_SYNC_CONTEXT, GP_SYNC__COUNT
};

/* What a time range on a CPU thread (or GPU stream) is. */
enum gp_range_kind {
	GP_RANGE_PUSHPOP,          /* NVTX push/pop */
	GP_RANGE_STARTEND,         /* NVTX start/end (may cross threads) */
	GP_RANGE_MARK,             /* NVTX mark: an instant */
	GP_RANGE_CPU_OP,           /* framework op (Kineto cpu_op / Operator) */
	GP_RANGE_USER_ANNOTATION,  /* record_function, ProfilerStep#N */
	GP_RANGE_PYTHON,           /* Kineto python_function frame */
	GP_RANGE_GPU_ANNOTATION,   /* gpu_user_annotation: on a stream */
	GP_RANGE_TIMER,            /* libgpuprof scoped timer */
	GP_RANGE_OTHER,
};

/* A kernel's pass: forward, backward (input gradient), weight gradient.
** GP_DIR_WGRAD comes only from a user annotation naming the pass where no
** op is known (analysis/layers.h, gp_layer_pass); an op's own pass is
** fprop or bprop. */
enum gp_dir { GP_DIR_NA, GP_DIR_FPROP, GP_DIR_BPROP, GP_DIR_WGRAD };

enum gp_dtype {
	GP_DT_UNKNOWN, GP_DT_FP64, GP_DT_FP32, GP_DT_TF32, GP_DT_FP16,
	GP_DT_BF16, GP_DT_FP8_E4M3, GP_DT_FP8_E5M2, GP_DT_INT64, GP_DT_INT32,
	GP_DT_INT16, GP_DT_INT8, GP_DT_UINT8, GP_DT_BOOL, GP_DT_COMPLEX64,
	GP_DT_COMPLEX128,
	/* Blackwell / CDNA4 block-scaled types: FP6 (e2m3, e3m2) and FP4
	** (e2m1; PyTorch's float4_e2m1fn_x2 packs two in a byte) */
	GP_DT_FP6, GP_DT_FP4,
	GP_DT__COUNT
};

struct gp_device {
	int32_t id;            /* as used in the activity records */
	gp_str name;           /* "NVIDIA A100-SXM4-40GB" */
	int32_t sm_count;      /* 0 = unknown */
	int16_t cc_major, cc_minor;
	uint64_t mem_bytes;
	double mem_bw;         /* bytes/s as the file states it, 0 = unknown */
	double clock_hz;       /* SM clock, 0 = unknown */
	uint64_t l2_bytes;
	int16_t warp_size;     /* threads per warp as the file states it (AMD CDNA 64); 0 = unknown */
	int16_t gpu_row;       /* derived by the op model (gp_gpus_resolve): 1 + the row of its
				** GPU peak table the device's name matches, -1 none; 0 = not looked up */
};

struct gp_process {
	uint32_t pid;
	gp_str name;
};

struct gp_thread {
	uint32_t pid, tid;
	gp_str name;
};

/* A kernel launch: 40 bytes.  What repeats from launch to launch of one
** function (its names, compiled resources, block and grid shape, shared
** memory, the graph node, and where it ran: process, device, context) is
** one shared gp_kernel_def, read with gp_kernel_def().  The stream stays
** here: one function runs on several streams, and the def table would
** multiply. */
struct gp_kernel {
	gp_ns start, end;
	uint64_t corr;          /* correlation id, unique within pid */
	uint64_t ext_id;        /* Kineto External id, 0 = none */
	uint32_t stream;
	uint32_t def;           /* index into trace->kernel_defs (0: all zero) */
};

/* What a kernel launch runs, how and where, shared by every launch with
** the same values (gp_kernel_def_add() stores each distinct one once): a
** million generated launches have 18, real traces a def per 17 to 67
** launches, fewer the longer they run (each step repeats the last one's
** launches).  A trace whose launches all differ costs what the fields cost
** inside the kernel record, plus the index.  All fields 4 bytes but the
** last: no padding, the table is hashed as bytes. */
struct gp_kernel_def {
	gp_str name;            /* short/base name as the file gives it */
	gp_str demangled;       /* full demangled name with templates/args */
	gp_str mangled;         /* raw _Z... name, 0 if unknown */
	uint32_t block[3];
	uint32_t grid[3];
	uint32_t regs;          /* registers per thread */
	uint32_t static_smem, dynamic_smem;  /* bytes */
	uint32_t graph_id;
	uint32_t graph_exec;    /* executable graph (nsys graphExecId), 0 = unknown */
	uint32_t flags;         /* GP_KDEF_* */
	uint32_t pid;           /* process that launched it, 0 = unknown */
	int32_t device;
	uint32_t context;
	uint64_t graph_node;    /* CUDA graph node id, 0 = eager launch */
};

/* The record is one whole execution of a CUDA graph, not a kernel (nsys
** --cuda-graph-trace=graph: CUPTI_ACTIVITY_KIND_GRAPH_TRACE): GPU busy
** time of all the graph's nodes at once, named "[CUDA graph N]", with
** graph_id set and no node.  Which ops ran inside it the record cannot
** tell (docs/trace-model.md). */
#define GP_KDEF_WHOLE_GRAPH 0x1

/* An API call: 48 bytes.  Which function it was and what it returned
** repeat from call to call: one shared gp_api_def, read with gp_api_def(). */
struct gp_api {
	gp_ns start, end;
	uint64_t corr;
	uint64_t ext_id;        /* Kineto External id, 0 = none */
	uint32_t pid, tid;
	uint32_t def;           /* index into trace->api_defs (0: all zero) */
};

/* The function an API call called and its result, shared by every call
** with the same values (gp_api_def_add()): a few hundred in a trace. */
struct gp_api_def {
	gp_str name;            /* without the _vNNNN suffix */
	int32_t cbid;           /* CUPTI callback id, -1 = unknown */
	int32_t ret;            /* return value */
	uint32_t kind;          /* enum gp_api_kind */
};

struct gp_memcpy {
	gp_ns start, end;
	uint64_t corr, ext_id;
	uint64_t bytes;
	uint32_t pid;
	int32_t device, src_device, dst_device;
	uint32_t context, stream;
	uint8_t copy_kind, src_kind, dst_kind;  /* gp_copy_kind, gp_mem_kind */
	bool async;
	uint64_t graph_node;    /* CUDA graph node id, 0 = not from a graph */
	gp_str graph_op;        /* derived (graph_match.c): replayed from a graph
				** matched to a Kineto capture, the op of its
				** captured launch; 0 = none */
};

struct gp_memset {
	gp_ns start, end;
	uint64_t corr, ext_id;
	uint64_t bytes;
	uint32_t pid;
	int32_t device;
	uint32_t context, stream;
	uint32_t value;
	uint8_t mem_kind;
	uint64_t graph_node;    /* CUDA graph node id, 0 = not from a graph */
	gp_str graph_op;        /* derived, as gp_memcpy's */
};

/* What a synchronisation waited on, as CUPTI records it: a stream or
** device sync (the work launched on that stream or device before the
** call), an event sync or a stream's wait for an event (the work launched
** on the event's stream before the event was recorded).  corr is the
** synchronising API call's. */
struct gp_sync {
	gp_ns start, end;
	uint64_t corr;
	uint32_t pid;
	int32_t device;
	uint32_t context, stream;
	uint8_t kind;          /* enum gp_sync_kind */
	uint64_t event_id;
	uint64_t record_corr;  /* the correlation id of the call that recorded
			       ** the event waited on, when the file states it
			       ** (Kineto's wait_on_cuda_event_record_corr_id);
			       ** 0 = find it by event_id */
};

/* A cudaEventRecord / hipEventRecord as the GPU saw it: the event marks
** the point of stream that the work launched before the record call
** reached.  The call itself is the API call with correlation id corr
** (its time says which launches came before).  nsys and nvprof list them
** (CUDA_EVENT); Kineto names them in the waits on them (wait_on_stream). */
struct gp_event_record {
	uint64_t corr;          /* the record call's correlation id */
	uint64_t event_id;      /* 0 = not stated */
	uint32_t pid;           /* 0 = unknown */
	int32_t device;
	uint32_t stream;
};

/* A range: NVTX range or mark, framework op, annotation, timer.  CPU ranges
** are keyed by (pid, tid); GPU annotations by (device as pid, stream as tid).
** 40 bytes: what only NVTX ranges carry (domain, colour, category, end
** thread; 0 on nearly every range) lives in trace->range_nvtx, read with
** gp_range_nvtx(). */
struct gp_range {
	gp_ns start, end;
	uint32_t pid, tid;
	gp_str text;
	int32_t parent;         /* enclosing range on the same thread, -1 = none */
	uint32_t ext;           /* 1 + index into trace->op_exts (GP_RANGE_F_NVTX
				** clear) or trace->range_nvtx (set); 0 = none.
				** Read with gp_range_op_ext() / gp_range_nvtx(). */
	uint16_t depth;         /* nesting depth on its thread, set by gp_trace_nest */
	uint8_t kind;           /* enum gp_range_kind */
	uint8_t flags;          /* GP_RANGE_F_* */
};

/* The range was never closed by the program: the profiler ended it when
** the process or capture ended.  It brackets no particular work, so the
** correlation pass does not attribute kernels to it. */
#define GP_RANGE_F_UNCLOSED 0x01
/* gp_range.ext indexes trace->range_nvtx, not trace->op_exts. */
#define GP_RANGE_F_NVTX     0x02

/* An NVTX range's details beyond its text, kept aside because nearly every
** range has none (a NVTX range of the default domain, no colour, no
** category, ended on its own thread): referenced from gp_range.ext when
** one is non-zero (gp_range_nvtx_add()). */
struct gp_range_nvtx {
	uint32_t end_tid;       /* thread that ended a start/end range, 0 = same */
	gp_str domain;          /* NVTX domain name, 0 = default */
	uint32_t color;         /* ARGB, 0 = none */
	int32_t category;
};

/* Framework-op details (Kineto cpu_op args); referenced from gp_range.ext. */
struct gp_op_ext {
	uint64_t ext_id;        /* External id */
	int64_t seq;            /* autograd Sequence number, -1 = none */
	uint32_t fwd_tid;       /* Fwd thread id, 0 = none */
	gp_str input_dims;      /* raw JSON text, e.g. "[[32,3,224,224],[]]" */
	gp_str input_types;     /* raw JSON text, e.g. "[\"float\",\"\"]" */
	gp_str concrete_inputs; /* raw JSON text */
	gp_str call_stack;
	uint32_t work;          /* 1 + index into trace->op_work, 0 = none */
};

/* An op's work as the file states it, not as the op model's rules compute
** it: XPlane's XLA ops priced from their HLO shapes (readers/xplane_hlo.c,
** docs/trace-model.md "XPlane mapping").  The op model (ops/ops.c) gives
** it to the op's kernels in place of a rule's result: all of it to each
** kernel but a GEMM/conv op's helper kernels (im2col...), which get none. */
struct gp_op_work {
	double flops;           /* < 0 = unknown */
	double bytes;           /* operands read + result written; < 0 = unknown */
	gp_str family;          /* an op-model family: "conv", "gemm", "pointwise"... */
	gp_str params;          /* "bf16[1x5120x34x31x53]": the result's shape; 0 = none */
	uint8_t dtype;          /* enum gp_dtype of the result */
};

enum gp_arg_type {
	GP_ARG_NONE, GP_ARG_TENSOR, GP_ARG_INT, GP_ARG_FLOAT, GP_ARG_BOOL,
	GP_ARG_STR, GP_ARG_LIST, GP_ARG_NULL
};

/* One argument of a framework op, from PyProf dict markers, emit_nvtx
** `sizes = [...]` or Kineto Input Dims/types.  A tensor or a list of ints
** keeps its dims/values in shape[0..ndim). */
struct gp_arg {
	gp_str name;            /* keyword name, 0 = positional */
	uint8_t type;           /* enum gp_arg_type */
	uint8_t dtype;          /* enum gp_dtype, tensors only */
	uint8_t ndim;
	int64_t shape[GP_MAX_DIMS];
	double value;           /* INT, FLOAT, BOOL */
	gp_str sval;            /* STR */
};

/* What the correlation pass says about a kernel: one entry per kernel,
** same index as trace->kernels.  64 bytes (the 64-bit field first, the
** narrow ones last: no padding inside). */
struct gp_attr {
	int64_t seq;            /* first sequence number, -1 = none */
	int32_t api;            /* launching API call, -1 = not found */
	gp_str layer;           /* "Conv2_x:Bottleneck_1" (layer: ranges) */
	gp_str trace;           /* innermost call-site, "file.py:12" */
	gp_str mod, op;         /* module and op, PyProf's meaning */
	gp_str marker;          /* raw innermost framework op name ("aten::mm") */
	gp_str seq_list;        /* "12,13"; 0 = none or seq alone (seq_is_list);
				** read it with gp_attr_seq_list() */
	gp_str altseq_list;
	int32_t sub;            /* kernel index within its op, from 0 */
	uint32_t args_first;    /* into trace->args */
	int32_t iter;           /* iteration number, -1 = unknown */
	int32_t fwd;            /* forward kernel it inherited from, -1 = none */
	int32_t range;          /* innermost range enclosing the launching call
				** on its thread (any kind), -1 = none */
	uint16_t args_count;    /* at most GP_ATTR_MAX_ARGS: a marker with more
				** keeps its first ones, with a warning */
	uint8_t dir;            /* enum gp_dir */
	uint8_t seq_is_list : 1;  /* 1: the list is seq alone, not interned (a
				** third of a generated nsys trace's strings) */
	uint8_t graph : 4;      /* enum gp_graph_state */
};
#define GP_ATTR_MAX_ARGS UINT16_MAX

/* Whether a kernel was replayed from a CUDA/HIP graph, and what its
** attribution rests on (gp_attr.graph; src/analysis/attr_graph.h,
** docs/correlation.md).  A replayed kernel's launching call is the graph
** launch, which no op encloses: its op, layer and shapes can only come from
** where its node was captured. */
enum gp_graph_state {
	GP_GRAPH_NONE,          /* launched on its own (eagerly) */
	GP_GRAPH_CAPTURED,      /* replayed; attributed as launched where its
				** node was captured (nsys node creation, a
				** capture trace's launch) */
	GP_GRAPH_CAPTURED_OPS,  /* replayed; op and layer from its capture, but
				** several captures fit that differ in shapes
				** only (batch sizes): no shapes */
	GP_GRAPH_ANNOTATED,     /* replayed; attributed by annotations the
				** trace carries on the kernel itself */
	GP_GRAPH_WHOLE,         /* a whole graph's execution (GP_KDEF_WHOLE_GRAPH):
				** many ops, none of them known */
	GP_GRAPH_NO_CAPTURE,    /* replayed; the inputs hold no record of any capture */
	GP_GRAPH_NODE_UNSEEN,   /* replayed; its node's creation is not in the
				** trace (captured before the profile began) */
	GP_GRAPH_NO_MATCH,      /* replayed; no captured graph has its replay's kernels */
	GP_GRAPH_AMBIGUOUS,     /* replayed; several captures (or captured
				** launches) fit and they say different things */
	GP_GRAPH_NOT_CAPTURED,  /* replayed; its graph matched a capture, but no
				** captured launch matches this kernel */
	GP_GRAPH__COUNT
};

/* A step of the whole trace and its end (analysis/steps.h), kept by a
** window cut. */
struct gp_step_end {
	int32_t iter;
	gp_ns end;
};

/* A kernel an iteration window does not keep (it belongs to another
** iteration) that runs inside the window's span, clipped to it: busy time
** of the window that no kept record holds (the breakdown and the busy
** timeline count it; nothing lists it).  docs/window.md. */
struct gp_window_work {
	gp_ns start, end;
	int32_t device;
	uint32_t stream;
	bool comm;              /* a communication kernel */
	/* for the dependency graph (analysis/deps.h: window work is a unit
	** there, after the memsets, so that the gaps it ends and the work
	** queued behind it have their chain): its launching call in the cut
	** trace (kept when the work starts inside the window), -1 = none; the
	** process that launched it; the kernel's short name */
	int32_t api;
	uint32_t pid;
	gp_str name;
};

/* One allocator event: memory allocated (bytes > 0) or freed (bytes < 0)
** on a device, as the profiler recorded it (Kineto [memory] instants, nsys
** CUDA memory-usage events).  The totals are the allocator's own figures
** after the event when the file states them; docs/memory.md. */
struct gp_memevent {
	gp_ns ts;
	int64_t bytes;          /* > 0 allocated, < 0 freed */
	int64_t total_alloc;    /* allocator's allocated total after it, -1 = not stated */
	int64_t total_reserved; /* allocator's reserved (cached) total, -1 = not stated */
	uint64_t addr;          /* 0 = not stated */
	uint32_t pid, tid;      /* the thread that (de)allocated */
	uint32_t order;         /* reader order; gp_trace_finish keeps it for equal ts */
	int32_t device;         /* GPU id; GP_MEM_HOST for host memory */
};
#define GP_MEM_HOST (-1)

struct gp_meta {
	gp_str key, value;
};

/* What the profiler recorded about one collective call (Kineto's
** record_param_comms op and, in newer files, the NCCL kernel itself:
** "Collective name", "In msg nelems", "Seq", ...).  A compact side table:
** the record it belongs to is found by id, so the main records stay as
** they are; src/analysis/collectives.c reads it.  docs/comm.md. */
struct gp_coll_args {
	uint64_t id;            /* on_kernel: the kernel's correlation id; else
				** the op range's External id */
	int64_t seq;            /* "Seq", -1 = not stated */
	int64_t in_nelems, out_nelems;  /* -1 = not stated */
	int32_t group_size;     /* -1 = not stated */
	gp_str name;            /* "Collective name": "allreduce", 0 = none */
	gp_str group;           /* "Process Group Name", 0 = none */
	gp_str in_split, out_split;  /* "In split size", "Out split size": the
				** elements per peer as PyTorch writes them,
				** "[1024, 512]" ("[]": even split), 0 = none */
	gp_str ranks;           /* "Process Group Ranks": "[0, 1, 2, 3]", the
				** group's global ranks; 0 = none */
	uint8_t dtype;          /* enum gp_dtype of "dtype" */
	uint8_t on_kernel;      /* 1: id is a kernel's correlation id */
};

/* What a launch call's own args say it launched: ROCm Kineto traces name
** the kernel, grid and block on hipLaunchKernel & co (CUDA traces do not).
** A side table found by the call's correlation id and process, as
** gp_coll_args; only calls that state it have an entry.  Capture traces
** need it: a launch recorded during stream capture runs nothing, so its
** name is known only from here (docs/correlation.md). */
struct gp_launch_args {
	uint64_t corr;
	uint32_t pid;
	gp_str kernel;          /* the kernel's name as the call gives it */
	uint32_t grid[3], block[3];  /* all 0 = not stated */
};

/* A CUDA graph node's creation or cloning, as nsys records it
** (CUDA_GRAPH_NODE_EVENTS): the node, the node it was cloned from (0 =
** none: made by stream capture or a cudaGraphAdd*Node call), when and on
** which thread.  Instantiation clones every node, so a replayed kernel's
** graph_node leads through one or more clones to its original's creation,
** whose time and thread say which ranges were open around it. */
struct gp_graph_node {
	gp_ns start, end;
	uint64_t node, original;
	uint32_t pid, tid;
};

/* Annotations a trace carries on a graph's kernels themselves (PyTorch's
** CUDA graph kernel annotations, torch.cuda._graph_annotations: the fields
** of a mark_kernels() scope written into the args of every replayed kernel
** of the nodes it marked), by graph and node id. */
struct gp_node_annot {
	uint64_t node;          /* graph node id */
	uint32_t graph;         /* graph id */
	gp_str name;            /* args "name", 0 = none */
	gp_str layer;           /* args "module_fqn", else "layer"; 0 = none */
};

struct gp_trace;

/* A capture trace read with this one: the profile a serving framework
** records while it captures its graphs (vLLM capture_traces/
** graph_capture_rank_R.TS.pt.trace.json.gz, SGLang bs_B_rankR.json.gz), in
** which every launch between *StreamBeginCapture and *StreamEndCapture sits
** under the ops that made it (src/readers/captures.c). */
struct gp_capture {
	struct gp_trace *t;     /* the capture trace (owned) */
	gp_str path;
	gp_str mode;            /* vLLM's "FULL", "PIECEWISE"; 0 = not stated */
	int32_t batch;          /* batch size the graphs were captured for, -1 = not stated */
	int32_t rank;           /* -1 = not stated */
};

/* A graph captured in a capture trace or in the trace itself, as the graph
** matcher read it (src/analysis/graph_match.c): what a replay matched. */
struct gp_captured_graph {
	int32_t capture;        /* index into captures, -1 = the trace's own */
	uint32_t ordinal;       /* its place among its trace's graphs, from 0 */
	uint32_t launches;      /* captured kernels, copies and memsets */
};

/* A launch captured in one of those graphs: where its op and Python frames
** can be read (the ops table's shapes and stacks of replayed kernels). */
struct gp_captured_node {
	int32_t capture;        /* index into captures, -1 = the trace's own */
	int32_t at;             /* its stand-in kernel in that capture trace
				** (graph_match.c); in the trace itself, its
				** launch call; -1 = not found */
};

/* The framework that ran the traced program, as its reader tells it
** (docs/trace-model.md, "The framework"): advise words its changes in
** that framework's terms (analysis/advise_say.c).  UNKNOWN reads as
** PyTorch's terms. */
enum gp_framework {
	GP_FW_UNKNOWN,
	GP_FW_PYTORCH,          /* a Kineto trace (the PyTorch profiler's) */
	GP_FW_JAX,              /* an XPlane profile with JAX name stacks */
	GP_FW_TENSORFLOW,       /* an XPlane profile of TensorFlow ops alone */
};

typedef struct gp_trace {
	gp_strtab strs;
	gp_arena arena;
	gp_str path;
	gp_str format;          /* reader name: "nsys", "nvprof", "kineto", "gpuprof-rec", "rocprof" */
	gp_str tool_version;    /* "nsys 2024.2.1.106", "nvprof (Version 12)" */
	uint8_t framework;      /* enum gp_framework, set by the reader */
	/* The step of the trace's clock as its format records times, in ns,
	** decided by the reader: Kineto's microsecond timestamps 1000 when
	** every ts and dur is a whole number of microseconds, else the finest
	** step any of them shows (100, 10, 1); 0: nanoseconds (nsys, nvprof,
	** rocprof, gpuprof record).  The text formats print durations with no
	** more digits than it (gp_fmt_note_clock); times stay integer ns. */
	gp_ns clock_res;
	int work_threads;       /* threads the passes over a large trace may use
				** (gp_trace_load sets it from gp_load_opts.threads);
				** 0 or 1: the caller's only */

	GP_VEC(struct gp_device) devices;
	GP_VEC(struct gp_process) processes;
	GP_VEC(struct gp_thread) threads;
	GP_VEC(struct gp_kernel) kernels;
	GP_VEC(struct gp_kernel_def) kernel_defs;  /* [0] is all zero */
	gp_u64map kernel_defs_seen;  /* content hash -> index, for gp_kernel_def_add */
	/* per kernel def: 1 when its kernel is communication (model/classify.h),
	** filled by gp_trace_finish() */
	GP_VEC(uint8_t) def_comm;
	GP_VEC(struct gp_api) apis;
	GP_VEC(struct gp_api_def) api_defs;  /* [0] is all zero */
	gp_u64map api_defs_seen;  /* content hash -> index, for gp_api_def_add */
	GP_VEC(struct gp_memcpy) memcpys;
	GP_VEC(struct gp_memset) memsets;
	GP_VEC(struct gp_sync) syncs;
	GP_VEC(struct gp_event_record) event_records;
	GP_VEC(struct gp_range) ranges;
	GP_VEC(struct gp_memevent) memevents;
	GP_VEC(struct gp_op_ext) op_exts;
	GP_VEC(struct gp_op_work) op_work;
	GP_VEC(struct gp_range_nvtx) range_nvtx;
	GP_VEC(struct gp_arg) args;
	GP_VEC(struct gp_meta) meta;
	GP_VEC(struct gp_coll_args) coll_args;
	GP_VEC(struct gp_launch_args) launch_args;
	GP_VEC(struct gp_graph_node) graph_nodes;
	GP_VEC(struct gp_node_annot) node_annots;
	GP_VEC(struct gp_capture) captures;
	GP_VEC(gp_str) warnings;  /* non-fatal reader findings, for `info` */
	/* The correlation ids that a launch flow joins to its GPU work (a
	** Kineto "ac2g" flow with both its start and its end), sorted, and
	** whether the format records such flows at all (Kineto): TraceLens
	** links a launch call to its GPU work through them only
	** (docs/breakdown.md, "--as tracelens"). */
	GP_VEC(uint64_t) launch_flows;
	bool has_launch_flows;

	/* Derived, filled by gp_correlate(); NULL before. */
	struct gp_attr *attrs;   /* [kernels.n] */
	gp_str graph_unknown_op; /* GP_GRAPH_UNKNOWN_OP (analysis/attr_graph.h),
				 ** interned when a kernel was replayed from a
				 ** graph; 0 = none was */
	gp_str graph_unknown_layer; /* GP_GRAPH_UNKNOWN_LAYER, likewise */
	GP_VEC(struct gp_captured_graph) captured_graphs;
	GP_VEC(struct gp_captured_node) captured_nodes;
	int32_t *replay_node;   /* [kernels.n]: the captured launch (index into
				** captured_nodes) the kernel matched, -1; NULL =
				** none matched one */
	int32_t *replay_graph;  /* [kernels.n]: the captured graph (index into
				** captured_graphs) the kernel's replay matched
				** exactly (not one of several alike but for
				** shapes), -1; NULL = no replay matched one */
	/* Set by gp_window_apply: the span of the window the trace was cut
	** to (the work in it counts, clipped to it: docs/window.md), and for
	** an iteration window the kernels of other iterations still running
	** inside it, clipped. */
	bool windowed;
	gp_ns window_lo, window_hi;
	uint8_t *kernel_trial;  /* [kernels.n]: autotuning trial marks decided
				** before the cut (gp_ops_trials); NULL = the op
				** model decides them on the kernels it has */
	GP_VEC(struct gp_window_work) window_work;
	/* the whole trace's steps' ends, decided before the cut, so that a
	** window's step still ends at the next step's start when the cut
	** dropped that step (analysis/steps.h) */
	GP_VEC(struct gp_step_end) window_step_ends;
	/* the trace's start as read (gp_trace_start), set by gp_trace_finish
	** so that a window cut does not move it */
	bool has_start;
	gp_ns start;
} gp_trace;

void gp_trace_init(gp_trace *t);
void gp_trace_free(gp_trace *t);

static inline const char *gp_s(const gp_trace *t, gp_str id)
{
	return gp_strtab_get(&t->strs, id);
}

/* s, or NULL when it is missing, empty or PyProf's "na" (an attribution
** field with nothing in it). */
static inline const char *gp_known_text(const char *s)
{
	return s && *s && strcmp(s, "na") != 0 ? s : NULL;
}

static inline gp_str gp_intern(gp_trace *t, const char *s)
{
	return gp_strtab_intern(&t->strs, s);
}

/* Room for the text of one sequence number (gp_attr_seq_list). */
#define GP_SEQ_TEXT 24

/* The kernel's sequence-number list as text ("12,13"; "" when none): the
** interned list, or seq formatted into buf (GP_SEQ_TEXT bytes) when the
** list is seq alone. */
const char *gp_attr_seq_list(const gp_trace *t, const struct gp_attr *a, char *buf);

/* What kernel k runs: its names, block shape, resources, graph node. */
static inline const struct gp_kernel_def *gp_kernel_def(const gp_trace *t, const struct gp_kernel *k)
{
	return &t->kernel_defs.v[k->def];
}

/* What API call a called and returned. */
static inline const struct gp_api_def *gp_api_def(const gp_trace *t, const struct gp_api *a)
{
	return &t->api_defs.v[a->def];
}

/* Stores rec (size bytes, no padding: compared as bytes) at the end of
** the array *v (*n records, *cap allocated) unless a record with the same
** bytes was stored before, and returns the index of the stored one.  seen
** maps content hashes to indices; on a hash collision between different
** records the later one is stored again (exact, only less shared).  The
** def tables use it; so may a reader for records of its own that repeat.
** GP_SHARE(vec, seen, rec) does it for a GP_VEC. */
uint32_t gp_share_record(void **v, size_t *n, size_t *cap, size_t size, gp_u64map *seen,
			 const void *rec);
#define GP_SHARE(vec, seen, rec) \
	gp_share_record((void **)&(vec).v, &(vec).n, &(vec).cap, sizeof(*(vec).v), (seen), (rec))

/* Stores d in t->api_defs unless an equal one is there; returns its index,
** for gp_api.def. */
uint32_t gp_api_def_add(gp_trace *t, const struct gp_api_def *d);

/* Kernel k's short name, else its demangled one (0 when it has neither). */
static inline gp_str gp_kernel_short_name_of(const gp_trace *t, const struct gp_kernel *k)
{
	const struct gp_kernel_def *d = gp_kernel_def(t, k);
	return d->name ? d->name : d->demangled;
}

/* Kernel k's demangled name, else its short one (0 when it has neither). */
static inline gp_str gp_kernel_long_name_of(const gp_trace *t, const struct gp_kernel *k)
{
	const struct gp_kernel_def *d = gp_kernel_def(t, k);
	return d->demangled ? d->demangled : d->name;
}

/* Kernel k's label, the name every command shows a kernel by
** (gp_kernel_label of its demangled name: "elementwise_kernel<MulFunctor>";
** its short name when it has no demangled one), interned into t.  memo is
** NULL or the caller's array of t->kernel_defs.n zeroed entries (freed by
** it) keeping each def's label, so that a pass over every kernel reads
** each distinct name once. */
gp_str gp_kernel_label_of(gp_trace *t, const struct gp_kernel *k, gp_str *memo);

/* Kernel k's label as text, without interning (for a const trace): into
** buf when it is made from the demangled name, else the short name's text.
** Returns it. */
const char *gp_kernel_label_text(const gp_trace *t, const struct gp_kernel *k, char *buf, size_t size);

/* Stores d in t->kernel_defs unless an equal one is there; returns its
** index, for gp_kernel.def. */
uint32_t gp_kernel_def_add(gp_trace *t, const struct gp_kernel_def *d);

/* Kernel k's process (0 = unknown): kept in its def. */
static inline uint32_t gp_kernel_pid(const gp_trace *t, const struct gp_kernel *k)
{
	return gp_kernel_def(t, k)->pid;
}

/* The device kernel k ran on. */
static inline int32_t gp_kernel_device(const gp_trace *t, const struct gp_kernel *k)
{
	return gp_kernel_def(t, k)->device;
}

/* Gives kernel k the process pid, which changes its def: a def pointer
** taken before the call may be stale after it (the table may grow).  memo
** (the caller's, freed by it; NULL for none) remembers which def each
** (def, pid) became, so a pass over every kernel hashes each distinct def
** once instead of once a kernel. */
void gp_kernel_set_pid(gp_trace *t, struct gp_kernel *k, uint32_t pid, gp_u64map *memo);

/* Range r's framework-op details, or NULL when it has none. */
static inline const struct gp_op_ext *gp_range_op_ext(const gp_trace *t, const struct gp_range *r)
{
	return r->ext && !(r->flags & GP_RANGE_F_NVTX) ? &t->op_exts.v[r->ext - 1] : NULL;
}

/* Range r's NVTX details; all zero when it has none. */
static inline struct gp_range_nvtx gp_range_nvtx(const gp_trace *t, const struct gp_range *r)
{
	if (r->ext && (r->flags & GP_RANGE_F_NVTX))
		return t->range_nvtx.v[r->ext - 1];
	return (struct gp_range_nvtx){0};
}

/* Range r's NVTX details to fill in: a zeroed entry of t->range_nvtx is
** added for r when it has none.  r must have no framework-op details (NVTX
** ranges have none).  The pointer is valid until the next call. */
struct gp_range_nvtx *gp_range_nvtx_add(gp_trace *t, struct gp_range *r);

/* Shares identical argument lists.  t->args[first..args.n) is the list
** just added; when a list with the same content was added before and
** recorded in seen, the new copy is dropped from t->args and the earlier
** list's first index is returned, else the list is recorded and first
** returned.  Args never change once added, so several ops (PyProf markers
** that differ only in their op_id, Kineto ops with the same Input Dims) may
** point at one list.  seen is the caller's, one per pass (free it with
** gp_u64map_free). */
uint32_t gp_trace_args_share(gp_trace *t, uint32_t first, gp_u64map *seen);

/* Records a non-fatal finding ("12 NVTX ranges have no end").  Repeated
** identical messages are stored once. */
void gp_trace_warn(gp_trace *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Sets (or replaces) a metadata key. */
void gp_trace_meta_set(gp_trace *t, const char *key, const char *value);
const char *gp_trace_meta_get(const gp_trace *t, const char *key);

/* The device with this id, or NULL. */
const struct gp_device *gp_trace_device(const gp_trace *t, int32_t id);

/* Marks each copy async when the call that launched it (same correlation
** id and process) is an async call (only nvprof states it on the copy;
** the other readers' copies learn it here), sorts every record array by
** start time (ties: longer first, so that an enclosing range precedes what
** it encloses; ranges by thread first, see gp_range_cmp), then sets
** gp_range.depth and .parent per thread.  Called by the loader after a
** reader finishes; on two threads when t->work_threads > 1 and the trace is
** large, with the same result. */
void gp_trace_finish(gp_trace *t);

/* The order of threads, and of everything kept per thread (ranges, API
** calls in the correlation sweep): by pid, then tid.  Returns <0, 0 or >0
** as thread (pid_a, tid_a) comes before, is, or comes after (pid_b, tid_b). */
static inline int gp_thread_cmp(uint32_t pid_a, uint32_t tid_a, uint32_t pid_b, uint32_t tid_b)
{
	if (pid_a != pid_b)
		return pid_a < pid_b ? -1 : 1;
	return tid_a < tid_b ? -1 : tid_a > tid_b;
}

/* The one order of ranges: by thread (gp_thread_cmp), then start, then the
** longer first, so that an enclosing range comes before what it encloses
** and nesting is one pass per thread; then by kind.  gp_trace_finish()
** sorts t->ranges so, and every binary search over ranges assumes it.
** Returns <0, 0 or >0 like a qsort comparator. */
int gp_range_cmp(const struct gp_range *a, const struct gp_range *b);

/* Earliest start and latest end over GPU activities and API calls (and
** ranges when there is nothing else).  Returns false for an empty trace. */
bool gp_trace_span(const gp_trace *t, gp_ns *first, gp_ns *last);

/* The trace's start: the earliest start of any record it holds (GPU
** activities, API calls, syncs, ranges, allocator events) as the file
** was read, before any window cut.  The one reference every command shows
** a time point from ("at 14.470 ms": 14.470 ms after the trace's first
** event; docs/cli.md, "Time points"); 0 for an empty trace. */
gp_ns gp_trace_start(const gp_trace *t);

/* One GPU activity (kernel, memcpy or memset) on the device timeline:
** unit i < kernels.n is kernel i, then the memcpys, then the memsets. */
struct gp_activity {
	gp_ns s, e;
	int32_t dev;
	uint32_t unit;          /* deps.h's unit numbering; UINT32_MAX: window work */
};

/* Every GPU activity of t (its window work too), sorted by device and
** start; *n of them (the caller frees the array).  An end before the start (bad input) is taken
** as the start.  The one source of a device's busy and idle time, for
** advise's idle gaps and the export's busy counters and idle slices. */
struct gp_activity *gp_trace_activities(const gp_trace *t, size_t *n);

/* The API name without a trailing "_vNNNN" version suffix (into buf). */
const char *gp_api_strip_version(const char *name, char *buf, size_t size);

const char *gp_copy_kind_name(int kind);   /* "HtoD" */
const char *gp_mem_kind_name(int kind);    /* "Pageable" */
const char *gp_range_kind_name(int kind);  /* "PushPop" */
const char *gp_dir_name(int dir);          /* "fprop", "bprop", "wgrad", "na" */

/* dtype helpers (dtype.c). */
enum gp_dtype gp_dtype_parse(const char *s);   /* "float16", "c10::Half", "torch.bfloat16", "fp16"... */
int gp_dtype_size(enum gp_dtype dt);           /* bytes per element, 0 = unknown */
const char *gp_dtype_short(enum gp_dtype dt);  /* "fp16", "fp32", "int64", "na" */

#endif
