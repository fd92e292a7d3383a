/*
** What a run is, so that `gpuprof diff` can say first what changed between
** two runs before it judges their times: the GPU, the profiler, the CUDA
** runtime, driver and PyTorch versions (where the trace states them), the
** world size, CUDA graph launches, compiled (Triton) kernels and regions,
** and the input shapes of the first op that has some.  A file's
** facts travel as kept rows beside its diff parts (gp_diff_facts_put, over
** gp_diff_part_cols, rows "fact"); a run's files are merged
** (gp_diff_facts_add).  docs/diff.md, "What changed".
**
** Ownership: plain values, no pointers.
*/
#ifndef GP_ANALYSIS_DIFF_FACTS_H
#define GP_ANALYSIS_DIFF_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"
#include "util/rows.h"

enum gp_diff_fact {
	GP_FACT_GPU,          /* the first GPU's name, "N x NAME" for several */
	GP_FACT_TOOL,         /* the profiler and its version */
	GP_FACT_CUDA,         /* CUDA runtime version (metadata) */
	GP_FACT_DRIVER,       /* CUDA driver version (metadata) */
	GP_FACT_TORCH,        /* PyTorch version (metadata) */
	GP_FACT_WORLD,        /* world size: stated, else the run's files */
	GP_FACT_GRAPHS,       /* CUDA/HIP graph launch calls */
	GP_FACT_TRITON,       /* kernels compiled by Triton (torch.compile) */
	GP_FACT_COMPILED,     /* distinct torch.compile regions (CompiledFxGraph,
			      ** "Torch-Compiled Region" ranges) */
	GP_FACT_SHAPES,       /* the first framework op with input shapes: its
			      ** name and shapes (where a batch size shows) */
	GP_FACT__COUNT
};

/* The names the output gives the facts ("GPU", "CUDA runtime", ...). */
extern const char *const gp_diff_fact_names[GP_FACT__COUNT];

#define GP_DIFF_FACT_TEXT 96

struct gp_diff_facts {
	char v[GP_FACT__COUNT][GP_DIFF_FACT_TEXT];  /* "" = not stated */
	int64_t graphs, triton;     /* the counts behind GP_FACT_GRAPHS, _TRITON */
	size_t files;               /* files added */
	int64_t world;              /* the largest stated world size, 0 = none */
};

/* The facts of one loaded trace t into f (files 1).  Never fails. */
void gp_diff_facts_of(const gp_trace *t, struct gp_diff_facts *f);

/* Writes f as kept rows ("fact", index, value) over gp_diff_part_cols. */
void gp_diff_facts_put(const struct gp_diff_facts *f, gp_writer *w);

/* Adds the "fact" rows among a file's kept rows rb to run (other rows are
** skipped): texts that differ between files become "mixed", counts add,
** the world size is the largest stated, else the number of files.  Returns
** GP_OK, or GP_ERR_FORMAT when a fact row is damaged. */
int gp_diff_facts_add(const struct gp_rowbuf *rb, struct gp_diff_facts *run, gp_error *err);

/* Whether fact i of a and b differ in a way worth saying: both stated and
** unequal (a version only one format records is not a change). */
bool gp_diff_fact_changed(const struct gp_diff_facts *a, const struct gp_diff_facts *b, int i);

#endif
