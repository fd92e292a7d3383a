/*
** Serving phases (docs/correlation.md, "Serving phases"): where the trace
** marks an inference server's steps, each kernel's step is a prefill, a
** decode or a mixed step, and the GPU time, kernels and the idle inside
** the steps add up per phase.  Step markers are ranges around the step's
** launches (their texts, parsed by gp_phase_of_text):
**
**   SGLang   "step[EXTEND]" prefill, "step[DECODE]" decode, "step[MIXED]"
**            mixed (also "step[PREFILL]"; fields may follow the word:
**            "step[DECODE bs=32]"); "step[IDLE]" and others: none
**   vLLM     "execute_N_context_P(...)_generation_D(...)" and the newer
**            "execute_context_P(...)_generation_D(...)": P prefill and
**            D decode requests: prefill (D = 0), decode (P = 0), mixed
**
** A kernel belongs to the outermost step marker around its launch (graph
** replays: around their graph launch); a marker inside another is the
** same step.  A replayed kernel whose graph
** matched a capture of a stated batch size (vLLM's execution_details.json,
** SGLang's bs_B file names; t->replay_graph) has that batch size too: the
** phase of replays where no step is marked ("bs=8"), a finer one where a
** step is ("decode bs=8").
**
** A command reads a run's phases from the analysis runner
** (GP_NEED_KERNEL_PHASES, GP_NEED_PHASES: analysis.h), which computes them
** once; only src/analysis calls gp_phases_of_kernels (t0015 checks).
**
** Ownership: gp_phases_of_kernels() returns a malloc'd array the caller
** frees; the stats are plain values.
*/
#ifndef GP_PHASES_H
#define GP_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

enum gp_phase { GP_PHASE_NONE, GP_PHASE_PREFILL, GP_PHASE_DECODE, GP_PHASE_MIXED, GP_PHASE__COUNT };

/* The phase step marker text s names, GP_PHASE_NONE when s marks no step
** (or an idle one). */
int gp_phase_of_text(const char *s);

/* Per range of t (malloc'd, the caller frees): the step marker it is or
** lies in, the outermost one (markers nested in a marker are its step),
** -1 for none; *any: whether t has any step marker. */
int32_t *gp_phase_step_markers(const gp_trace *t, bool *any);

/* "prefill", "decode", "mixed"; "" for GP_PHASE_NONE. */
const char *gp_phase_name(int phase);

/* Per kernel of t (correlated), its enum gp_phase; NULL (nothing
** allocated) when no kernel is inside a step marker. */
uint8_t *gp_phases_of_kernels(const gp_trace *t);

/* The batch size of the capture kernel k's replay matched (t->replay_graph,
** its capture trace's), -1 when none is known. */
int32_t gp_kernel_batch(const gp_trace *t, size_t k);

/* Per kernel of t (phase: gp_phases_of_kernels, may be NULL), the batch
** size of its group: inside a step marker, the step's (the one batch size
** its replayed kernels have, -1 when they have none or several: a step is
** one group, its eager kernels and its replays together), else its own
** (gp_kernel_batch).  NULL (nothing allocated) when no kernel has one;
** else malloc'd, the caller frees. */
int32_t *gp_phase_batches(const gp_trace *t, const uint8_t *phase);

/* A group's name into buf: "decode bs=8", "bs=8", "decode"; "" for
** neither (phase GP_PHASE_NONE, batch -1).  Returns buf. */
const char *gp_phase_label(int phase, int32_t batch, char *buf, size_t size);

/* What a --phase argument selects: a step phase (GP_PHASE_NONE: any) and
** a batch size (-1: any); at least one of them. */
struct gp_phase_sel {
	int phase;
	int32_t batch;
};

/* Parses "prefill", "decode", "mixed", "bs=N" or "PHASE bs=N" into *sel;
** -1 when s is none of these. */
int gp_phase_sel_parse(const char *s, struct gp_phase_sel *sel);

/* The --help and usage text of what gp_phase_sel_parse takes. */
#define GP_PHASE_SEL_WANTS "prefill, decode, mixed, bs=N or PHASE bs=N"

/* Whether kernel k (phase: gp_phases_of_kernels, batch:
** gp_phase_batches, either may be NULL) is one sel selects. */
bool gp_phase_sel_keeps(const uint8_t *phase, const int32_t *batch, size_t k, const struct gp_phase_sel *sel);

/* Per kernel of n (phase, batch as gp_phase_sel_keeps reads them: the
** run's, GP_NEED_KERNEL_PHASES): 1 when sel selects it; malloc'd, the
** caller frees. */
uint8_t *gp_phase_sel_kernels(size_t n, const uint8_t *phase, const int32_t *batch, const struct gp_phase_sel *sel);

/* Per range of t: 1 when it lies in (or is) a step marker of sel's phase;
** all 0 when sel names a batch size alone (no range is a batch size's).
** malloc'd, the caller frees. */
uint8_t *gp_phase_sel_ranges(const gp_trace *t, const struct gp_phase_sel *sel);

/* One group of kernels: a step phase and, when asked for, a batch size. */
struct gp_phase_group {
	uint8_t phase;          /* enum gp_phase */
	int32_t batch;          /* -1 = none (or not asked for) */
	size_t steps;           /* its steps: step markers with kernels; for
				** kernels outside every step, each graph
				** replay (launch) of a batch size */
	size_t kernels;
	gp_ns gpu_ns;           /* their summed durations */
	gp_ns window_ns;        /* per step, first kernel start to last kernel
				** end (of the group's kernels), summed */
	gp_ns idle_ns;          /* of those windows, the time none of them ran */
};

/* t's kernels grouped by phase (phase from gp_phases_of_kernels, may be
** NULL) and batch size (batch from gp_phase_batches; NULL: not by batch,
** every group's -1): *out (malloc'd, the caller frees) in (phase, batch)
** order, its length returned; the kernels outside every group are the
** group of GP_PHASE_NONE and batch -1 (no steps).  Never fails.  (The
** runner's GP_NEED_PHASES holds these for the run.) */
size_t gp_phase_groups(const gp_trace *t, const uint8_t *phase, const int32_t *batch, struct gp_phase_group **out);

struct gp_phase_stats {
	size_t steps[GP_PHASE__COUNT];      /* step markers with kernels */
	size_t kernels[GP_PHASE__COUNT];
	gp_ns gpu_ns[GP_PHASE__COUNT];      /* their summed durations */
	gp_ns window_ns[GP_PHASE__COUNT];   /* per step, first kernel start to
					    ** last kernel end, summed */
	gp_ns idle_ns[GP_PHASE__COUNT];     /* of those windows, the time no
					    ** kernel of the step ran */
};

/* The stats of t's kernels by phase (phase from gp_phases_of_kernels, may
** be NULL: all none).  Never fails. */
void gp_phase_stats(const gp_trace *t, const uint8_t *phase, struct gp_phase_stats *s);

#endif
