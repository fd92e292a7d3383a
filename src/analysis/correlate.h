/*
** Correlation: from each kernel to the API call that launched it and to the
** ranges (NVTX, framework ops, annotations) open around that call, then what
** those ranges say: layer path, module/op, direction, sequence numbers.
** One sorted pass, no per-kernel search (docs/correlation.md).
**
** Ownership: gp_correlate() allocates t->attrs (freed with the trace).
*/
#ifndef GP_CORRELATE_H
#define GP_CORRELATE_H

#include "util/error.h"
#include "model/trace.h"

struct gp_correlate_opts {
	/* no note on kernels without a launching call: the trace is cut to a
	** window next (gp_window_apply), which notes those it keeps */
	bool window_cut;
};

/* Fills t->attrs[0..kernels.n).  Never fails on odd data: what cannot be
** attributed stays empty (api = -1; op 0).  In a trace with NVTX ranges every
** kernel gets a direction (fprop unless a backward marker encloses its
** launch, as PyProf decides); without ranges dir stays GP_DIR_NA. */
int gp_correlate(gp_trace *t, const struct gp_correlate_opts *o, gp_error *err);

/* The note for `missing` kernels of t without a launching call. */
void gp_correlate_note_missing(gp_trace *t, size_t missing);

#endif
