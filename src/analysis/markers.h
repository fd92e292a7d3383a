/*
** NVTX marker texts as PyProf understands them: classification ("binning")
** and field extraction for PyProf's str(dict) markers, `layer:` ranges and
** PyTorch emit_nvtx ranges (`name, seq = N, op_id = X, sizes = [..]`).
** docs/markers.md gives the grammar and how each form maps to fields.
**
** Ownership: a gp_marker is a plain value owned by the caller; its strings
** are interned in the gp_trace passed to gp_marker_parse() and its args are
** a range of t->args, so both live as long as that trace.  Parsing never
** keeps a pointer to the marker text.
*/
#ifndef GP_MARKERS_H
#define GP_MARKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* What a marker is.  The order of the tests follows PyProf (pyprof.md §2
** step 3): the first match wins. */
enum gp_marker_kind {
	GP_MK_OTHER,   /* none of the below (user range, aten:: op without seq) */
	GP_MK_SKIP,    /* contains "CheckpointFunctionBackward": PyProf ignores it */
	GP_MK_PYPROF,  /* {'mod': M, 'op': O, 'args': [...]}: mod, op, args */
	GP_MK_LAYER,   /* contains "layer:": layer, name */
	GP_MK_TRACE,   /* {'traceMarker': [frames]}: trace, trace_raw, trace_list */
	GP_MK_REPR,    /* {'mod': M, 'strRepr': S}: mod, repr */
	GP_MK_SEQ,     /* emit_nvtx "name, seq = N[, op_id = X][, sizes = ..]" */
	GP_MK__COUNT
};

/* How an emit_nvtx range spells its sequence number. */
enum gp_seq_form {
	GP_SEQ_NONE,     /* no seq (only op_id / sizes / input_op_ids) */
	GP_SEQ_MODERN,   /* ", seq = N": PyProf's seq markers */
	GP_SEQ_LEGACY,   /* ", seq=N" (PyTorch ~1.0): PyProf's altseq markers */
	GP_SEQ_STASHED,  /* ", stashed seq=N" (PyTorch ~1.0 backward) */
};

struct gp_marker {
	uint8_t kind;         /* enum gp_marker_kind: our classification */
	uint8_t pyprof_kind;  /* the bin PyProf's plain substring tests choose
	                         (differs e.g. for {'mod','op','args': []}, which
	                         has no "type" and so is OTHER to PyProf) */
	uint8_t seq_form;     /* enum gp_seq_form (SEQ) */
	bool bwd;             /* SEQ: a backward op (see gp_marker_is_backward) */
	bool pyprof_bwd;      /* SEQ: PyProf's own test: "Backward, seq = ",
	                         "backward, seq = " or "Backward0, seq = " */
	bool lossy;           /* some detail did not fit (more than GP_MAX_DIMS
	                         dims, ints beyond int64, odd arg entries) */
	gp_str mod;           /* PYPROF, REPR: 'mod' ("torch", "Tensor", ...) */
	gp_str op;            /* PYPROF: 'op' ("linear") */
	gp_str name;          /* SEQ: op name as written ("aten::mm",
	                         "AddmmBackward0"); LAYER: all text after the
	                         first "layer:"; OTHER: the whole text (PyProf
	                         falls back to otherMarkers[0] as op) */
	gp_str layer;         /* LAYER: PyProf's m.split(":")[1], the text
	                         between the first and second ':' */
	gp_str fwd_op;        /* SEQ with bwd: PyProf's sanitized forward op
	                         ("AddmmBackward0" -> "Addmm"), see
	                         gp_marker_fwd_op() */
	gp_str repr;          /* REPR: 'strRepr' */
	gp_str trace;         /* TRACE: innermost frame left by PyProf's filter
	                         ("train.py:12"), 0 if all were filtered */
	gp_str trace_raw;     /* TRACE: innermost frame, unfiltered */
	gp_str trace_list;    /* TRACE: frames kept by the filter, outermost
	                         first, joined with '\n' */
	gp_str func_stack;    /* TRACE: DLProf's 'funcStack', 0 = none */
	uint32_t nframes;     /* TRACE: frames in the list, unfiltered */
	int64_t seq;          /* SEQ: sequence number, -1 = none */
	int64_t op_id;        /* SEQ: ", op_id = X", -1 = none */
	uint32_t n_input_op_ids;  /* SEQ: entries of ", input_op_ids = [...]" */
	uint32_t args_first;  /* PYPROF: 'args'; SEQ: 'sizes' (one arg per */
	uint32_t args_count;  /*   input, dtype unknown): range of t->args */
	uint32_t err_off;     /* when parse returned -1: byte offset of the
	                         problem in the text */
	const char *err;      /* when parse returned -1: static message */
};

/*
** Classifies text[0..len) (need not be NUL-terminated) and extracts its
** fields into *m (fully overwritten), interning strings in t and appending
** args to t->args.  Returns 0, or -1 when the text is malformed for the
** kind it claims to be (a broken dict, a seq range with garbage after the
** name): then m->err/err_off say what and where, and m->kind is the best
** classification that remains (OTHER for a broken dict; SEQ with what
** could be read for a broken seq range).  Never reads outside the text;
** allocates only through t (args, interning) and, for markers of more
** than 512 values or kilobytes of trace, a temporary buffer.
*/
int gp_marker_parse(gp_trace *t, const char *text, size_t len, struct gp_marker *m);

/*
** A short readable name for a marker text, for listings that show markers
** by name (gpuprof ranges): PYPROF -> "mod.op" ("torch.nn.functional.conv2d",
** the args dropped); TRACE -> "trace FILE:LINE" (the basename of the
** innermost frame PyProf keeps, else of the innermost frame); REPR ->
** "mod(strRepr)", "mod(...)" when that exceeds 80 characters; SEQ -> the
** op name ("aten::mm", seq, op_id and sizes dropped).  Other kinds (user
** ranges, layer:, broken markers) return 0: their text is their name.
** Sets *per_op to whether the text is one of PyProf's per-op markers
** (PYPROF, TRACE, REPR), which mark one call rather than a scope.  Parses
** the text with gp_marker_parse(), so it interns into t (t->args is left
** as it was); callers cache the answer per distinct text.
*/
gp_str gp_marker_label(gp_trace *t, const char *text, size_t len, bool *per_op);

/* The labels of a trace's marker texts (gp_marker_label), each parsed once
** however many ranges carry it: the one cache every listing and the
** dependency graph use.  Only the texts interned before it was made (every
** range text by then) are labelled; a text interned since is its own name.
** Ownership: the cache owns its arrays (gp_marker_labels_free) and labels
** into t, which must outlive it. */
struct gp_marker_labels {
	gp_trace *t;
	size_t n;               /* texts below n are labelled */
	gp_str *label;          /* [n]: 0 = not yet */
	uint8_t *per_op;        /* [n]: one of PyProf's per-op markers */
};

void gp_marker_labels_init(struct gp_marker_labels *c, gp_trace *t);

/* The label of text (its own id when it is not a marker text or was
** interned after c was made); *per_op (may be NULL) as gp_marker_label
** sets it.  The arrays fill on first use, so a const cache labels too. */
gp_str gp_marker_labels_get(const struct gp_marker_labels *c, gp_str text, bool *per_op);
void gp_marker_labels_free(struct gp_marker_labels *c);

/* "PYPROF", "LAYER", ... for messages and tests. */
const char *gp_marker_kind_name(int kind);

/* The module of a module range, "nn.Module: BertModel_0" -> "BertModel_0"
** (Kineto python_function events recorded with with_modules=True, and the
** same text as an NVTX range); NULL when text is not one. */
const char *gp_marker_module(const char *text);

/* Whether text[0..len) is an op range torch.autograd.profiler.emit_nvtx
** recorded: a name followed by one of its fields (", seq = N", ", seq=N",
** ", stashed seq=N", ", op_id = X", ", sizes = [...]", ", input_op_ids =
** [...]"), as "norm, seq = 130" or "aten::mm, seq = 3, op_id = 7": a
** framework op, never a user's own range, whatever its name. */
bool gp_marker_is_emit_nvtx(const char *text, size_t len);

/*
** True if the emit_nvtx op name (the part before ", seq") is a backward
** op: an autograd node class ending in "Backward" plus optional digits
** ("AddmmBackward0", "AddmmBackward1") or "Backwards" (legacy
** "CopyBackwards"), or an ATen backward kernel containing "_backward" at
** the end or followed by '_' ("threshold_backward",
** "_softmax_backward_data").  Namespaces ("aten::", "torch::autograd::")
** do not matter.
*/
bool gp_marker_is_backward(const char *name, size_t len);

/*
** PyProf's sanitize() for backward op names, into buf: drop a leading
** "aten::" (PyProf predates it; keeping it would give "atenthreshold"),
** then remove every "torch", "autograd", "_backward", "::", "jit" and
** "(anonymous namespace)" in that order, and cut at the first "Backward".
** "torch::autograd::CopyBackwards" -> "Copy", "AddmmBackward0" -> "Addmm",
** "threshold_backward" -> "threshold".  Returns buf.
*/
const char *gp_marker_fwd_op(const char *name, size_t len, char *buf, size_t size);

/* PyProf's trace filter: true if the frame is in a file PyProf hides
** (torch/nn/modules/, nn/functional.py, torch/tensor.py,
** autograd/__init__.py, _jit_internal.py, nvmarker.py, apex/optimizers/,
** torch/_utils.py, torch/optim/). */
bool gp_marker_frame_hidden(const char *frame);

/*
** The frames of a traceMarker text, outermost first, interned into
** out[0..cap) (filtered by gp_marker_frame_hidden when `filter`).  Returns
** the number of frames (may exceed cap), or -1 if the text is not a valid
** trace marker.
*/
long gp_marker_trace_frames(gp_trace *t, const char *text, size_t len, bool filter,
                            gp_str *out, size_t cap);

/*
** PyProf's handling of the seq markers enclosing one kernel, on an array of
** parsed SEQ markers (other kinds must not be passed):
** gp_marker_seq_sort() removes duplicates (same name and seq) and sorts by
** PyProf's key, the string str(seq) + name + ", seq" (so seq compares as
** text: "12" < "9"); gp_marker_seq_prune() then drops each marker whose
** predecessor in the sorted array (kept or not) has the same seq and a
** name that contains or is contained in its own.  Both work in place,
** keep order otherwise, and return the new count.  O(n^2), meant for the
** handful of markers around one kernel.
*/
size_t gp_marker_seq_sort(const gp_trace *t, struct gp_marker *ms, size_t n);
size_t gp_marker_seq_prune(const gp_trace *t, struct gp_marker *ms, size_t n);

#endif
