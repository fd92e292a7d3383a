/*
** Layer paths (gp_attr.layer): the layers around a kernel's launch,
** outermost first, joined with GP_LAYER_SEP ('/') whatever their source:
** PyProf and libgpuprof "layer:" ranges, record_function annotations, the
** nn.Module events of with_modules=True, plain NVTX ranges, GPU-side
** annotations (docs/correlation.md, "Layers").  Empty components are
** skipped, so a range name holding '/' (TensorRT's "/layer1/conv1/Conv")
** reads as the path it is.  This file splits a path into components and
** cuts it for --depth N and --by module-type.  A command gives its view
** to the analysis runner (gp_analysis_opts.layers, GP_NEED_LAYERS), which
** applies it once per run; only src/analysis calls gp_layers_apply
** (t0015 checks).
**
** Ownership: keys are interned into the trace; the caller owns buffers.
*/
#ifndef GP_ANALYSIS_LAYERS_H
#define GP_ANALYSIS_LAYERS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"
#include "util/u64map.h"

#define GP_LAYER_SEP '/'

/* How a layer path is read for grouping: whole, cut to its first depth
** components, or as the module type of its innermost (kept) component. */
struct gp_layer_view {
	int depth;              /* components kept; 0 = all */
	bool module_type;       /* the class: the component without its
				** instance number ("Qwen2Attention_3" ->
				** "Qwen2Attention") */
};

/* The first component of path at or after *pos (skipping separators):
** returns its start and sets *len, with *pos past it; NULL when none is
** left. */
const char *gp_layer_next(const char *path, size_t *pos, size_t *len);

/* The length of component name[0..len) without a trailing instance number,
** "_N" or ".N" (N decimal digits): "Block_12" -> 5, "layer1.0" -> 6,
** "Linear1" -> 7 (no separator: part of the name).  A name that is only
** the number keeps it. */
size_t gp_layer_type_len(const char *name, size_t len);

/* The pass a layer component name[0..len) names, an enum gp_dir, and in
** *base the length of the name before it (len when it names none).  The
** grammar (docs/correlation.md, "Passes from annotations"): a non-empty
** name, then "(P)" closing the component, P one of
**   F, fwd, forward             GP_DIR_FPROP
**   B, bwd, backward            GP_DIR_BPROP
**   W, wgrad                    GP_DIR_WGRAD
** the letters upper case, the words in any case: "attn(F)", "mlp(W)",
** "dispatch(bwd)".  Nothing else names a pass ("mlp_B", "attn F",
** "attn(f)", "(F)" alone): GP_DIR_NA. */
int gp_layer_pass(const char *name, size_t len, size_t *base);

/* The pass the innermost component of path naming one names
** (gp_layer_pass), GP_DIR_NA when none does or path is NULL. */
int gp_layer_path_pass(const char *path);

/* The key of path under v, written into buf (size bytes; a path longer
** than that is cut, never overrun): the first v->depth components joined
** with GP_LAYER_SEP, or the module type of the last of them (without a
** pass it names: "mlp(W)" -> "mlp"); "" for a path without components.
** Returns buf. */
char *gp_layer_key(const char *path, const struct gp_layer_view *v, char *buf, size_t size);

/* Whether v changes any path (a depth or the module type). */
bool gp_layer_view_cuts(const struct gp_layer_view *v);

/* Layer paths cut under one view, each distinct path once: the key of a
** path interned into the trace.  Zero-initialise with the view set; free
** with gp_layer_cut_free. */
struct gp_layer_cut {
	const struct gp_layer_view *v;
	gp_u64map memo;         /* path gp_str -> key gp_str (0: no component) */
	char *buf;
	size_t cap;
};

/* The key of path layer under c->v, interned into t (0 when the path has
** no component, or layer is 0). */
gp_str gp_layer_cut_str(gp_trace *t, struct gp_layer_cut *c, gp_str layer);
void gp_layer_cut_free(struct gp_layer_cut *c);

/* Rewrites every kernel's layer (t->attrs) to its key under v, so that
** whatever groups by layer afterwards (summary, diff, html, folded stacks)
** sees the cut path; a path without components stays 0 (no layer).  Each
** distinct path is cut once.  Nothing to do when v cuts nothing or the
** trace is not correlated. */
void gp_layers_apply(gp_trace *t, const struct gp_layer_view *v);

#endif
