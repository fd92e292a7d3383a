/*
** The run's steps, decided once per trace (docs/dependencies.md, "Steps"):
** every command, pass and sink reads them from the runner's struct
** gp_analysis (GP_NEED_STEPS) instead of finding iterations its own way.
**
** A step is the user's iteration, marked by a ProfilerStep#N range, an
** NVTX or libgpuprof iteration range, numbered by its text, else by its
** order on its thread (as the correlation numbers them), in the process
** that marks the most of them.  It lasts from its start to the next
** step's start, host waits included; the last one ends where its own work
** ends (its range's end or the end of the last kernel launched inside it,
** the later).  Its GPU span, a second and named measure, runs from the
** first start to the last end of the kernels launched inside it (of the
** kernels the correlation put in its iteration when no launch is known).
** In a trace cut to a window (--iters, --start/--end), the window's steps
** are those with a kernel of the window launched inside them, each as
** long as in the whole trace (gp_trace.window_step_ends, kept by the cut).
**
** Ownership: a gp_steps owns its arrays (gp_steps_free()).
*/
#ifndef GP_STEPS_H
#define GP_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

struct gp_step {
	int32_t iter;           /* its number */
	gp_ns start, end;       /* the step: its start to the next one's (the
				** last: to its range's or its kernels' end) */
	gp_ns range_end;        /* its range's own end (the host's) */
	gp_ns gpu_start, gpu_end;   /* its kernels' GPU span; both 0: none */
};

struct gp_steps {
	struct gp_step *v;      /* by start */
	size_t n;
	gp_ns median;           /* median step (of two middle ones, the mean); 0: no step */
	gp_ns gpu_median;       /* median GPU span of the steps with kernels; 0: none */
	int32_t *kernel_iter;   /* [t->kernels.n]: the number of the step each kernel
				** belongs to (launched in), -1: none; NULL: no step */
};

/* Finds t's steps (correlated: t->attrs filled, or NULL) into s.  Never
** fails: a trace that marks no iteration has no step (s->n = 0). */
void gp_steps_find(const gp_trace *t, struct gp_steps *s);

/* Whether r is of a kind that can mark a step on the host (a GPU
** annotation of ProfilerStep#N repeats one on the device's clock). */
bool gp_step_kind(const struct gp_range *r);

/* Step x's length. */
static inline gp_ns gp_step_ns(const struct gp_step *x)
{
	return x->end - x->start;
}

/* The index of the last step of s (by start) starting at or before x, -1
** when none does (a binary search). */
ptrdiff_t gp_step_at(const struct gp_steps *s, gp_ns x);

void gp_steps_free(struct gp_steps *s);

#endif
