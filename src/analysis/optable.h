/*
** The op table: PyTorch's prof.key_averages() for every input format.  Per
** op or range (Kineto cpu_op and user_annotation, NVTX ranges, libgpuprof
** timers), grouped by name (and input shapes or python stack): calls, Self
** CPU, CPU total, Self GPU (kernels, memcpys and memsets whose launch's
** innermost enclosing op is this one), GPU total (its descendants' too),
** FLOPs; where the trace has allocator events, the bytes allocated inside
** each op (PyTorch's CPU Mem / Self CPU Mem / CUDA Mem / Self CUDA Mem).
** And the
** cProfile-like view of python_function frames.  One pass over the ranges
** in their sorted order plus one over the kernels (docs/ops-table.md).
**
** Each row is a small record keyed by strings (name, shapes, stack, layer) with
** sums only, so tables of many files or ranks merge by adding rows with
** equal keys.  A new column is one field here, summed in
** gp_optable_build(), and one line in the command's column table.
**
** Ownership: a gp_optable owns its row arrays (gp_optable_free); row
** strings are interned in the trace and live as long as it does.
*/
#ifndef GP_OPTABLE_H
#define GP_OPTABLE_H

#include "model/trace.h"

enum gp_optable_group {
	GP_OPTABLE_BY_NAME,      /* key_averages() */
	GP_OPTABLE_BY_SHAPE,     /* group_by_input_shape=True */
	GP_OPTABLE_BY_STACK,     /* group_by_stack_n=N */
	GP_OPTABLE_BY_LAYER,     /* name + the layer path it ran in */
};

struct gp_optable_opts {
	int group;                       /* enum gp_optable_group */
	int stack_depth;                 /* frames in a BY_STACK key, >= 1 */
	const double *flops;             /* per kernel, < 0 = unknown (the op
					** model's, which sits above this
					** layer); NULL = no FLOPs column */
	const uint8_t *keep_kernel;      /* per kernel: 0 = leave it out (and
					** every memcpy and memset); NULL =
					** all (ops --phase) */
	const uint8_t *keep_range;       /* per range: 0 = no row of its own
					** (its kernels still count where
					** kept); NULL = all */
};

/* The memory figures of an op, in bytes: net = allocated minus freed
** (PyTorch's "CPU Mem" / "CUDA Mem"), gross = allocated only; host memory
** (CPU) and every GPU device together (GPU). */
enum gp_opmem { GP_OPMEM_CPU_NET, GP_OPMEM_CPU_ALLOC, GP_OPMEM_GPU_NET, GP_OPMEM_GPU_ALLOC, GP_OPMEM__COUNT };

/* One group of op/range instances.  Times in ns. */
struct gp_oprow {
	gp_str name;
	gp_str shapes;          /* BY_SHAPE: input shapes ("[[2, 3], []]"), 0 = none */
	gp_str stack;           /* BY_STACK: innermost frames first, "; "-joined, 0 = none */
	gp_str layer;           /* BY_LAYER: the layer path (as the kernels'
				** attrs give it, cut as they are), 0 = none */
	uint8_t kind;           /* enum gp_range_kind of its first instance */
	uint64_t calls;
	gp_ns self_cpu, cpu_total;
	gp_ns self_gpu, gpu_total;
	double flops;           /* of its own kernels; < 0 = none known */
	int64_t self_mem[GP_OPMEM__COUNT];   /* allocator events whose innermost
					     ** op on their thread is this one */
	int64_t total_mem[GP_OPMEM__COUNT];  /* self_mem plus its descendants' */
};

/* One python function (cProfile's line).  Times in ns. */
struct gp_pyrow {
	gp_str func;            /* the frame's name as the trace gives it */
	uint64_t calls, prim_calls;   /* prim: not inside a frame of the same name */
	gp_ns tottime;          /* excluding the python frames it encloses */
	gp_ns cumtime;          /* primitive calls only, as cProfile */
};

struct gp_optable {
	GP_VEC(struct gp_oprow) rows;     /* in first-instance order */
	GP_VEC(struct gp_pyrow) py;       /* filled by gp_optable_python() */
	gp_ns self_cpu_sum;     /* over all rows: the CPU % denominator */
	gp_ns gpu_sum;          /* all kernels, memcpys and memsets of the trace:
				** the GPU % denominator */
	bool has_memory;        /* the trace has allocator events: the memory
				** columns mean something */
};

/* Builds tb->rows (and the two sums) from t, which gp_correlate() has run
** on.  Each allocator event (t->memevents, but those gp_mem_absurd())
** goes to the innermost op on its thread whose interval holds its time
** (start <= ts <= end), in one walk of the events by thread beside the
** ranges.  Unclosed ranges, marks, python frames and GPU annotations are no
** rows.  Interns keys into t.  Never fails: odd nesting (a child past its
** parent's end) gives a negative self time, not an error. */
void gp_optable_build(gp_trace *t, const struct gp_optable_opts *o, struct gp_optable *tb);

/* Builds tb->py: one row per python_function name.  Never fails. */
void gp_optable_python(gp_trace *t, struct gp_optable *tb);

void gp_optable_free(struct gp_optable *tb);

#endif
