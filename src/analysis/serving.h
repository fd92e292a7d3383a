/*
** Serving steps (docs/correlation.md, "Serving steps"): one row per
** scheduler step of an inference server, where the trace marks them
** (phases.h: SGLang step[...], vLLM execute_...), else per graph replay of
** a known batch size: its kind (prefill, decode, mixed), the requests and
** tokens its marker records, its kernels' window on the GPU and busy
** time, and its time per token; then per kind the steady state, apart
** from the warm-up steps.
**
** What the markers record (gp_serving_marker):
**   vLLM    "execute_T_context_P(...)_generation_D(...)": P + D requests,
**           T tokens; "execute_context_P(X_...)_generation_D(Y_...)":
**           P + D requests, X + Y tokens
**   SGLang  "step[KIND bs=N toks=M]": N requests, M tokens (either
**           field may be missing)
** A step's values are its outermost marker's, else those a marker nested
** inside it records.
**
** Warm-up: within one kind, the leading steps whose time (time per token
** when every step of the kind records its tokens) exceeds 1.5 times the
** kind's median; the steady state is the median of the others.
**
** A command reads them from the analysis runner (GP_NEED_PHASES:
** a->serving); only src/analysis calls gp_serving_steps (t0015 checks).
**
** Ownership: gp_serving_steps() returns a malloc'd array the caller frees.
*/
#ifndef GP_SERVING_H
#define GP_SERVING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* What one step marker's text records; -1 where it records nothing. */
struct gp_serving_marker {
	int32_t requests;
	int64_t tokens;
};

/* Parses marker text s (a step marker: gp_phase_of_text) into *m. */
void gp_serving_marker(const char *s, struct gp_serving_marker *m);

#define GP_SERVING_WARMUP_FACTOR 1.5

struct gp_serving_step {
	int32_t marker;         /* its step marker (range), -1: a graph replay */
	uint8_t phase;          /* enum gp_phase (GP_PHASE_NONE: a replay
				** outside every step) */
	bool warmup;
	int32_t requests;       /* recorded; -1 = not */
	int64_t tokens;         /* recorded; -1 = not */
	int32_t batch;          /* the captured graph's batch size its replays
				** matched (phases.h), -1 = none */
	size_t kernels;
	gp_ns start, end;       /* its first kernel's start, last kernel's end */
	gp_ns busy_ns;          /* the time any of its kernels ran */
};

/* The steps of t in start order (*out malloc'd, the caller frees; NULL
** and 0 when t marks no step and replays no graph of a known batch size).
** phase, batch: the run's (phases.h; either may be NULL).  Never fails. */
size_t gp_serving_steps(const gp_trace *t, const uint8_t *phase, const int32_t *batch,
			struct gp_serving_step **out);

/* One kind's steady state: over its steps that are not warm-up. */
struct gp_serving_kind {
	size_t steps, warmup;
	gp_ns median_ns;        /* median step time (end - start) */
	double ns_per_token;    /* median time per token; < 0: not every
				** steady step records its tokens */
};

/* The steady state of the steps of phase (GP_PHASE_NONE: the replays)
** among s[0..n) into *k; k->steps 0 when there is none. */
void gp_serving_kind(const struct gp_serving_step *s, size_t n, int phase, struct gp_serving_kind *k);

#endif
