/*
** Serving phases (docs/correlation.md, "Serving phases"): where the trace
** marks an inference server's steps, each kernel's step is a prefill, a
** decode or a mixed step, and the GPU time, kernels and the idle inside
** the steps add up per phase.  Step markers are ranges around the step's
** launches (their texts, parsed by gp_phase_of_text):
**
**   SGLang   "step[EXTEND]" prefill, "step[DECODE]" decode, "step[MIXED]"
**            mixed (also "step[PREFILL]"); "step[IDLE]" and others: none
**   vLLM     "execute_N_context_P(...)_generation_D(...)": P prefill and
**            D decode requests: prefill (D = 0), decode (P = 0), mixed
**
** A kernel belongs to the innermost step marker around its launch (graph
** replays: around their graph launch).
**
** Ownership: gp_phases_of_kernels() returns a malloc'd array the caller
** frees; the stats are plain values.
*/
#ifndef GP_PHASES_H
#define GP_PHASES_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

enum gp_phase { GP_PHASE_NONE, GP_PHASE_PREFILL, GP_PHASE_DECODE, GP_PHASE_MIXED, GP_PHASE__COUNT };

/* The phase step marker text s names, GP_PHASE_NONE when s marks no step
** (or an idle one). */
int gp_phase_of_text(const char *s);

/* "prefill", "decode", "mixed"; "" for GP_PHASE_NONE. */
const char *gp_phase_name(int phase);

/* Per kernel of t (correlated), its enum gp_phase; NULL (nothing
** allocated) when no kernel is inside a step marker. */
uint8_t *gp_phases_of_kernels(const gp_trace *t);

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
