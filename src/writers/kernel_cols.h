/*
** The columns of one kernel row, as `gpuprof report` prints them
** (docs/report.md) and the sqlite sink stores them (docs/export-sqlite.md):
** one table of columns and one function that formats a cell, so every
** output of kernel rows says the same thing.
**
** Ownership: a gp_kcells holds the buffers of one row's cells, reused for
** every row (no allocation per row); a cell's text lives until the next
** call for that column; gp_kcells_free releases them.
*/
#ifndef GP_KERNEL_COLS_H
#define GP_KERNEL_COLS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "ops/ops.h"
#include "writers/writer.h"

enum gp_kcol {
	GP_KC_IDX, GP_KC_SEQ, GP_KC_ALTSEQ, GP_KC_TID, GP_KC_LAYER, GP_KC_TRACE, GP_KC_DIR, GP_KC_SUB, GP_KC_MOD, GP_KC_OP, GP_KC_KERNEL,
	GP_KC_PARAMS, GP_KC_SIL, GP_KC_TC, GP_KC_DEVICE, GP_KC_STREAM, GP_KC_GRID, GP_KC_BLOCK, GP_KC_FLOPS, GP_KC_BYTES,
	/* beyond PyProf */
	GP_KC_START, GP_KC_END, GP_KC_PID, GP_KC_CORR, GP_KC_LONGNAME, GP_KC_REGS, GP_KC_SMEM, GP_KC_LATENCY, GP_KC_API,
	/* roofline (op model) */
	GP_KC_GFLOPS, GP_KC_GBPS, GP_KC_INTENSITY, GP_KC_IDEAL, GP_KC_EFF, GP_KC_BOUND, GP_KC_TCELIG,
	GP_KC_ITER,   /* iteration (Kineto ProfilerStep#N) */
	GP_KC_MARKER, GP_KC_GRAPH,  /* the raw op, the graph replay's attribution */
	GP_KC_LABEL,            /* the kernel's label, as the other commands show it */
	GP_KC_DTYPE, GP_KC_PEAK,    /* the element type it computes in, the peak its eff is against */
	GP_KC__COUNT
};

extern const struct gp_column gp_kernel_columns[GP_KC__COUNT];

/* Per-column cell buffers, reused for every row. */
struct gp_kcells {
	char num[GP_KC__COUNT][48];   /* >= GP_FMT_INT_SIZE */
	char *kernel;           /* kernel name with spaces -> '_' */
	size_t kernel_cap;
	char label[1024];       /* GP_KC_LABEL */
};

/* Formats column col (enum gp_kcol) of kernel k of t (correlated), with the
** op model ops (NULL when not run); short_trace: the trace column shows
** the innermost file only.  NULL when the value is unknown. */
const char *gp_kernel_cell(const gp_trace *t, const struct gp_ops *ops, size_t k, int col, bool short_trace,
			   struct gp_kcells *c);

/* True if one of the n columns sel (enum gp_kcol) needs the op model. */
bool gp_kernel_cols_need_ops(const int *sel, int n);

/* Frees c's buffers. */
void gp_kcells_free(struct gp_kcells *c);

#endif
