/*
** NVTX attribution with PyProf's rules (attr_nvtx.h, docs/correlation.md):
** for each kernel, the NVTX ranges enclosing its launch give layer, trace,
** mod/op (and the args the op model reads), direction, seq/sub/altseq and
** the iteration; backward kernels then take their forward kernel's op.
**
** Interpretation runs in kernel (start) order because PyProf's seq/sub
** state depends on it.
**
** Iteration and training-phase ranges (libgpuprof's "forward", "backward",
** "update", as chainer_profutil names them) belong to the process, not to
** the thread that pushed them: PyTorch runs backward() on its autograd
** threads while the calling thread waits inside its "backward" range.  A
** kernel launched outside any such range of its own thread takes the one
** open in its process at its launch on another thread (process_ranges()),
** when only one thread has one open then.  Range texts are parsed by gp_marker_parse()
** (markers.h), each parse kept in a bounded cache (range_info()).
*/
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/attr_nvtx.h"
#include "analysis/layers.h"
#include "analysis/markers.h"
#include "model/window.h"
#include "util/fmt.h"
#include "util/u64map.h"

/* What one NVTX text says to PyProf's parse, computed once per distinct
** text from gp_marker_parse() (markers.h): it depends on the text only. */
struct nvinfo {
	uint8_t bin;        /* enum gp_marker_kind as PyProf bins it */
	uint8_t bwd;        /* SEQ: a backward op ("XBackward0, seq = N") */
	uint8_t legacy;     /* ", seq=N" (PyTorch 1.0): PyProf's altseq */
	int64_t seq;        /* SEQ or legacy: the number, -1 = none */
	gp_str name;        /* SEQ: op name before ", seq" */
	gp_str fwd_op;      /* SEQ with bwd: PyProf's sanitized op ("Addmm") */
	gp_str mod, op;     /* PYPROF */
	gp_str layer;       /* LAYER */
	gp_str trace;       /* TRACE: kept frames joined with ',' */
	uint32_t args_first, args_count;  /* PYPROF, SEQ sizes: into t->args */
};

/* Parses text into *in; its args go to t->args, shared with an identical
** list parsed before (args_seen: see gp_trace_args_share). */
static void nvinfo_fill(gp_trace *t, gp_str text, struct nvinfo *in, gp_u64map *args_seen)
{
	const char *s = gp_s(t, text);
	struct gp_marker m;

	memset(in, 0, sizeof(*in));
	gp_marker_parse(t, s, gp_strtab_len(&t->strs, text), &m);
	if (m.args_count && m.args_first + m.args_count == t->args.n)
		m.args_first = gp_trace_args_share(t, m.args_first, args_seen);
	if (m.args_count > GP_ATTR_MAX_ARGS) {   /* gp_attr.args_count is 16 bits */
		gp_trace_warn(t, "an NVTX marker has %" PRIu32 " arguments: the op model reads "
			      "its first %u", m.args_count, (unsigned)GP_ATTR_MAX_ARGS);
		m.args_count = GP_ATTR_MAX_ARGS;
	}
	in->bin = m.pyprof_kind;
	in->seq = -1;
	switch (in->bin) {
	case GP_MK_PYPROF:
		in->mod = m.mod;
		in->op = m.op;
		in->args_first = m.args_first;
		in->args_count = m.args_count;
		break;
	case GP_MK_LAYER:
		in->layer = m.layer;
		break;
	case GP_MK_TRACE:
		/* PyProf prints the frame list joined with ','. */
		if (m.trace_list) {
			char *l = gp_xstrdup(gp_s(t, m.trace_list));
			for (char *p = l; (p = strchr(p, '\n')) != NULL; p++)
				*p = ',';
			in->trace = gp_intern(t, l);
			free(l);
		}
		break;
	case GP_MK_SEQ:
		in->seq = m.seq;
		in->name = m.name;
		in->args_first = m.args_first;   /* `sizes = [[...]]`: shapes, no dtype */
		in->args_count = m.args_count;
		/* PyProf's own test plus later spellings (Backward1, ...);
		** ATen "_backward" kernels run inside their autograd node's
		** range, which already says bprop. */
		in->bwd = m.pyprof_bwd || (m.bwd && strstr(gp_s(t, m.name), "ackward") &&
					   !strstr(gp_s(t, m.name), "_backward"));
		in->fwd_op = m.fwd_op;
		break;
	default:
		/* PyProf bins a modern emit_nvtx range without a sequence
		** number ("nccl:all_reduce, op_id = 7, sizes = [[..]]") as
		** "other" and would show its whole text as the op; keep its
		** name and shapes instead. */
		if (m.kind == GP_MK_SEQ) {
			in->name = m.name;
			in->args_first = m.args_first;
			in->args_count = m.args_count;
		}
		break;
	}
	if (m.seq_form == GP_SEQ_LEGACY) {
		in->legacy = 1;
		in->seq = m.seq;
	}
}

/* State PyProf carries from kernel to kernel (parse.py), plus what the
** backward->forward copy needs. */
/* Parses kept at once: a power of two.  4 MB of parses; kernels are
** visited in start order, so the texts of one stretch of the trace stay
** in the cache while they are in use, and texts repeated every iteration
** (layer: ranges) are parsed again at most once per eviction. */
#define NVINFO_CACHE_BITS 16
#define NVINFO_CACHE (1u << NVINFO_CACHE_BITS)

/* One cached parse: the text it is of (0 = empty slot: text 0, the empty
** string, is parsed every time, which costs nothing). */
struct nvinfo_slot {
	gp_str text;
	struct nvinfo info;
};

/* An iteration or phase range, as process_ranges() searches them. */
struct procwide {
	gp_ns start;
	uint32_t pid;
	int32_t r;   /* index into t->ranges */
};

/* State PyProf carries from kernel to kernel (parse.py), plus what the
** backward->forward copy needs. */
struct gp_nvtxattr {
	/* Parsed texts: parsing is the costly part and a text is asked for
	** by every kernel under its range, so parses are cached, direct
	** mapped by text id.  Not one parse per distinct text: PyProf
	** markers carry an op_id that makes nearly every text distinct,
	** and a parse per text was the largest table at the peak of a 1M
	** kernel load (48 B per text).  A parse depends on the text only
	** (its args are shared with the identical list parsed before,
	** args_seen), so parsing a text again gives the same result. */
	struct nvinfo_slot *cache;  /* [NVINFO_CACHE] */
	struct nvinfo scratch;    /* the parse of text 0 */
	gp_u64map args_seen;      /* arg lists added so far, to share (gp_trace_args_share) */
	int64_t prev_seq;
	int32_t prev_sub;
	gp_str prev_op;
	gp_str na;                /* "na", once interned (when first needed, as before) */
	gp_ns prev_hi;            /* start of the previous kernel's innermost marker */
	bool any_legacy;          /* the trace has PyTorch 1.0 ", seq=N" markers */
	gp_u64map by_seq, by_altseq;   /* seq -> last fprop kernel */
	GP_VEC(struct gp_marker) seqm;  /* scratch: seq markers of one kernel */
	GP_VEC(int64_t) ids;      /* scratch */
	GP_VEC(int32_t) plain;    /* scratch: a kernel's plain ranges, outermost first */
	char *buf;                /* scratch for joined strings */
	size_t bufcap;
	int32_t *iter_of;         /* per range: iteration number, -1 = not an iteration range */
	uint8_t *phase_of;        /* per range: enum phase */
	/* the iteration and phase ranges, by (pid, start): process_ranges() */
	GP_VEC(struct procwide) procwide;
	size_t procwide_phases;   /* how many of them are phase ranges */
};

/* libgpuprof's training phases (lib/range.c), by their range text. */
enum phase { PHASE_NONE, PHASE_FORWARD, PHASE_BACKWARD, PHASE_UPDATE };

static uint8_t phase_of_text(const char *s)
{
	if (!strcmp(s, "forward"))
		return PHASE_FORWARD;
	if (!strcmp(s, "backward"))
		return PHASE_BACKWARD;
	if (!strcmp(s, "update"))
		return PHASE_UPDATE;
	return PHASE_NONE;
}

/* The parse of range r's text, from the cache or parsed now.  The pointer
** is valid until the next call. */
static const struct nvinfo *range_info(gp_trace *t, gp_nvtxattr *st, size_t r)
{
	gp_str text = t->ranges.v[r].text;
	struct nvinfo_slot *slot;

	if (!text) {
		nvinfo_fill(t, text, &st->scratch, &st->args_seen);
		return &st->scratch;
	}
	/* Fibonacci hashing: ids of one stretch of the trace are close
	** together and would otherwise evict each other in runs. */
	slot = &st->cache[(uint32_t)(text * 2654435769u) >> (32 - NVINFO_CACHE_BITS)];
	if (slot->text != text) {
		nvinfo_fill(t, text, &slot->info, &st->args_seen);
		slot->text = text;
	}
	return &slot->info;
}

static int cmp_i64(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

/* Makes the scratch buffer hold at least need bytes. */
static void buf_reserve(gp_nvtxattr *st, size_t need)
{
	if (need > st->bufcap) {
		st->bufcap = need * 2;
		st->buf = gp_xrealloc(st->buf, st->bufcap);
	}
}

/* Appends s to the scratch buffer with a separator; returns the new length. */
static size_t buf_add(gp_nvtxattr *st, size_t n, char sep, const char *s)
{
	size_t sl = strlen(s);

	buf_reserve(st, n + sl + 2);
	if (n && sep)
		st->buf[n++] = sep;
	memcpy(st->buf + n, s, sl);
	n += sl;
	st->buf[n] = '\0';
	return n;
}

/* Interns a sorted list of ids as "1,2,3" (0 when empty). */
static gp_str id_list(gp_trace *t, gp_nvtxattr *st, const int64_t *v, size_t n)
{
	if (!n)
		return 0;
	buf_reserve(st, gp_fmt_i64_list(NULL, 0, v, n) + 1);
	gp_fmt_i64_list(st->buf, st->bufcap, v, n);
	return gp_intern(t, st->buf);
}

/* Legacy altseq ids: ", seq=" markers on the kernel's thread that started
** after the previous kernel's innermost marker and before this one's
** (PyProf selects them by marker id; ids grow with time on a thread). */
static void legacy_altseq(gp_trace *t, gp_nvtxattr *st, const struct gp_api *a, gp_ns hi)
{
	size_t lo = 0, h = t->ranges.n;

	while (lo < h) {   /* first range of the thread starting after prev_hi */
		size_t mid = lo + (h - lo) / 2;
		const struct gp_range *r = &t->ranges.v[mid];
		int c = gp_thread_cmp(r->pid, r->tid, a->pid, a->tid);
		if (c < 0 || (c == 0 && r->start <= st->prev_hi))
			lo = mid + 1;
		else
			h = mid;
	}
	for (size_t i = lo; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->pid != a->pid || r->tid != a->tid || r->start >= hi)
			break;
		const struct nvinfo *in = range_info(t, st, i);
		if (in->legacy && in->seq >= 0)
			*gp_vec_push(st->ids) = in->seq;
	}
}

/* Removes duplicates from a sorted id array; returns the new length. */
static size_t uniq_ids(int64_t *v, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		if (w == 0 || v[w - 1] != v[i])
			v[w++] = v[i];
	return w;
}

static bool is_rnn_cell(const char *mod)
{
	return !strcmp(mod, "LSTMCell") || !strcmp(mod, "GRUCell") || !strcmp(mod, "RNNCell");
}

static int cmp_procwide(const void *pa, const void *pb)
{
	const struct procwide *a = pa, *b = pb;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->r < b->r ? -1 : a->r > b->r;
}

/* How many of a thread's phase and iteration ranges before a launch are
** looked at: they do not overlap on one thread, so the few last ones of
** each thread that has them are enough. */
#define PROCWIDE_LOOKBACK 16

/* For the launch call q that has no iteration (a->iter < 0) or no phase
** (*phase == PHASE_NONE) range of its own thread around it: the iteration
** and phase ranges of q's process open at q's start on other threads.
** One is taken only when a single other thread has one of its kind open
** then; a phase range also joins st->plain as the outermost plain range,
** as if it enclosed the call. */
static void process_ranges(gp_trace *t, gp_nvtxattr *st, const struct gp_api *q, struct gp_attr *a,
			   uint8_t *phase)
{
	size_t lo = 0, hi = st->procwide.n;
	int32_t iter_r = -1, phase_r = -1;
	bool iter_many = false, phase_many = false;

	while (lo < hi) {   /* first range after q's start in q's process */
		size_t mid = lo + (hi - lo) / 2;
		const struct procwide *r = &st->procwide.v[mid];
		if (r->pid < q->pid || (r->pid == q->pid && r->start <= q->start))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo, seen = 0; i-- > 0 && seen < PROCWIDE_LOOKBACK; seen++) {
		int32_t ri = st->procwide.v[i].r;
		const struct gp_range *r = &t->ranges.v[ri];
		if (r->pid != q->pid)
			break;
		if (r->tid == q->tid || r->end <= q->start || (r->flags & GP_RANGE_F_UNCLOSED))
			continue;
		if (st->iter_of[ri] >= 0) {
			if (iter_r >= 0 && t->ranges.v[iter_r].tid != r->tid)
				iter_many = true;
			iter_r = ri;
		} else {
			if (phase_r >= 0 && t->ranges.v[phase_r].tid != r->tid)
				phase_many = true;
			phase_r = ri;
		}
	}
	if (a->iter < 0 && iter_r >= 0 && !iter_many)
		a->iter = st->iter_of[iter_r];
	if (!*phase && phase_r >= 0 && !phase_many) {
		*phase = st->phase_of[phase_r];
		gp_vec_push(st->plain);
		memmove(st->plain.v + 1, st->plain.v, (st->plain.n - 1) * sizeof(*st->plain.v));
		st->plain.v[0] = phase_r;
	}
}

/* PyProf's parse of one kernel (parse/nvvp.py + kernel.py), then prof's
** backward->forward copy. */
void gp_nvtxattr_kernel(gp_nvtxattr *st, gp_trace *t, size_t k, const int32_t *stack, int n,
			struct gp_attr *a)
{
	int32_t first_pyprof = -1, last_trace = -1, first_named = -1;
	size_t len = 0, nids;
	bool bprop = false;
	uint8_t phase = PHASE_NONE;

	st->seqm.n = 0;
	st->ids.n = 0;
	st->plain.n = 0;
	for (int i = 0; i < n; i++) {
		int32_t r = stack[i];
		uint8_t kind = t->ranges.v[r].kind;
		if (kind != GP_RANGE_PUSHPOP && kind != GP_RANGE_STARTEND)
			continue;
		if (st->iter_of[r] >= 0) {   /* iteration ranges name no op */
			if (a->iter < 0)
				a->iter = st->iter_of[r];
			continue;
		}
		if (st->phase_of[r])
			phase = st->phase_of[r];
		const struct nvinfo *in = range_info(t, st, (size_t)r);
		switch (in->bin) {
		case GP_MK_PYPROF: if (first_pyprof < 0) first_pyprof = r; break;
		case GP_MK_LAYER: len = buf_add(st, len, GP_LAYER_SEP, gp_s(t, in->layer)); break;
		case GP_MK_TRACE: last_trace = r; break;
		case GP_MK_SEQ: {
			struct gp_marker *m = gp_vec_push(st->seqm);
			m->kind = GP_MK_SEQ;
			m->name = in->name;
			m->seq = in->seq;
			m->bwd = in->bwd;
			m->fwd_op = in->fwd_op;
			m->args_first = in->args_first;
			m->args_count = in->args_count;
			break;
		}
		case GP_MK_OTHER:
			/* a framework range without a seq number, or an engine's,
			** a library's or the user's own range */
			if (!in->name)
				*gp_vec_push(st->plain) = r;
			else if (first_named < 0)
				first_named = r;
			break;
		default: break;
		}
	}
	a->trace = last_trace >= 0 ? range_info(t, st, (size_t)last_trace)->trace : 0;
	/* only what the process's ranges can still give: an iteration when
	** the kernel has none, a phase when it has none and there are some */
	if (a->api >= 0 && ((a->iter < 0 && st->procwide.n > st->procwide_phases) ||
			    (!phase && st->procwide_phases)))
		process_ranges(t, st, &t->apis.v[a->api], a, &phase);
	bprop |= phase == PHASE_BACKWARD;

	/* Seq markers: unique, sorted by PyProf's key, pruned (markers.h);
	** their numbers sorted and unique, 0 dropped if others exist. */
	st->seqm.n = gp_marker_seq_sort(t, st->seqm.v, st->seqm.n);
	st->seqm.n = gp_marker_seq_prune(t, st->seqm.v, st->seqm.n);
	for (size_t i = 0; i < st->seqm.n; i++) {
		bprop |= st->seqm.v[i].bwd;
		if (st->seqm.v[i].seq >= 0)
			*gp_vec_push(st->ids) = st->seqm.v[i].seq;
	}
	gp_vec_sort(st->ids, cmp_i64);
	nids = uniq_ids(st->ids.v, st->ids.n);
	if (nids > 1 && st->ids.v[0] == 0) {
		memmove(st->ids.v, st->ids.v + 1, (nids - 1) * sizeof(*st->ids.v));
		nids--;
	}
	st->ids.n = nids;
	a->dir = bprop ? GP_DIR_BPROP : GP_DIR_FPROP;

	/* mod and op, in PyProf's order of preference: the outermost
	** argument marker (whose args feed the op model), a backward seq
	** marker's sanitized op, the first seq marker's name, the first
	** other marker. */
	bool op_from_framework = true;
	a->mod = a->op = 0;
	if (first_pyprof >= 0) {
		const struct nvinfo *in = range_info(t, st, (size_t)first_pyprof);
		a->mod = in->mod;
		a->op = in->op;
		a->marker = t->ranges.v[first_pyprof].text;
		a->args_first = in->args_first;
		a->args_count = in->args_count;
	} else {
		const struct gp_marker *from = NULL;
		for (size_t i = 0; i < st->seqm.n && !from; i++)
			if (st->seqm.v[i].bwd && st->seqm.v[i].fwd_op)
				from = &st->seqm.v[i];
		if (from)
			a->op = from->fwd_op;
		else if (st->seqm.n)
			a->op = (from = &st->seqm.v[0])->name;
		if (from) {   /* emit_nvtx `sizes`: shapes for the op model */
			a->args_first = from->args_first;
			a->args_count = from->args_count;
		}
		if (!a->op && first_named >= 0) {
			const struct nvinfo *in = range_info(t, st, (size_t)first_named);
			a->op = in->name;
			a->args_first = in->args_first;
			a->args_count = in->args_count;
		}
		/* plain ranges as nsys's NVTX projection reads them: the
		** innermost names the op (TensorRT's per-layer range inside
		** ExecutionContext::execute) */
		if (!a->op && st->plain.n) {
			a->op = t->ranges.v[st->plain.v[--st->plain.n]].text;
			op_from_framework = false;
		}
		if (!st->na)
			st->na = gp_intern(t, "na");
		a->mod = st->na;
	}
	/* ... and the plain ranges around it are its layer (joined as every
	** layer path is: analysis/layers.h), unless PyProf "layer:" markers name one.  Under a framework op only
	** module ranges ("nn.Module: Linear_3") count, so that PyProf's
	** attribution stays as it is. */
	if (!len)
		for (size_t i = 0; i < st->plain.n; i++) {
			const char *text = gp_s(t, t->ranges.v[st->plain.v[i]].text);
			const char *mod = gp_marker_module(text);
			if (mod || !op_from_framework)
				len = buf_add(st, len, GP_LAYER_SEP, mod ? mod : text);
		}
	a->layer = len ? gp_intern(t, st->buf) : 0;
	/* no framework marker names an op: the pass the annotations around it
	** name (analysis/layers.h), the innermost (the plain range naming its
	** op) first, stands for the process's phase */
	if (first_pyprof < 0 && !st->seqm.n && first_named < 0) {
		int pass = gp_layer_path_pass(len ? st->buf : NULL);
		if (!op_from_framework && a->op) {
			const char *o = gp_s(t, a->op);
			size_t base;
			int p = gp_layer_pass(o, strlen(o), &base);
			pass = p != GP_DIR_NA ? p : pass;
		}
		if (pass != GP_DIR_NA)
			a->dir = (uint8_t)pass;
	}

	/* seq, sub, altseq. */
	int64_t curr = st->prev_seq;
	if (nids) {
		if (bprop) {
			curr = st->ids.v[0];
		} else {
			for (size_t i = 0; i < nids; i++)
				if (st->ids.v[i] > st->prev_seq) {
					curr = st->ids.v[i];
					break;
				}
		}
	}
	bool same_op = a->op == st->prev_op;
	bool rnn = same_op && !strcmp(gp_s(t, a->op), "forward") && is_rnn_cell(gp_s(t, a->mod));
	a->sub = (curr == st->prev_seq && same_op) || rnn ? st->prev_sub + 1 : 0;
	st->prev_seq = curr;
	st->prev_sub = a->sub;
	st->prev_op = a->op;

	size_t nalt = 0;
	a->seq = -1;
	for (size_t i = 0; i < nids; i++) {
		if (st->ids.v[i] == curr && a->seq < 0)
			a->seq = curr;
		else
			st->ids.v[nalt++] = st->ids.v[i];
	}
	if (!bprop && n > 0 && st->any_legacy && a->api >= 0) {
		st->ids.n = nalt;
		gp_ns hi = t->ranges.v[stack[n - 1]].start;
		legacy_altseq(t, st, &t->apis.v[a->api], hi);
		gp_vec_sort(st->ids, cmp_i64);
		nalt = uniq_ids(st->ids.v, st->ids.n);
		st->prev_hi = hi;
	}
	a->seq_is_list = a->seq >= 0;   /* a marker's list is its own seq */
	a->altseq_list = id_list(t, st, st->ids.v, nalt);

	/* Backward kernels without an argument marker take the forward
	** kernel's op, module, layer and trace (prof.py findFpropKernel). */
	if (bprop && first_pyprof < 0 && a->seq >= 0) {
		int32_t f = gp_u64map_get(&st->by_seq, (uint64_t)a->seq);
		if (f < 0)
			f = gp_u64map_get(&st->by_altseq, (uint64_t)a->seq);
		if (f >= 0) {
			const struct gp_attr *fa = &t->attrs[f];
			a->fwd = f;
			a->mod = fa->mod;
			a->op = fa->op;
			a->marker = fa->marker;
			a->layer = fa->layer;
			a->trace = fa->trace;
			a->args_first = fa->args_first;
			a->args_count = fa->args_count;
		}
	}
	if (!bprop) {
		if (a->seq >= 0)
			gp_u64map_put(&st->by_seq, (uint64_t)a->seq, (int32_t)k);
		for (size_t i = 0; i < nalt; i++)
			gp_u64map_put(&st->by_altseq, (uint64_t)st->ids.v[i], (int32_t)k);
	}
}

/* Numbers the iteration ranges: by their text, else by their order on
** their thread (0, 1, ...).  Ranges are sorted by thread then start.
** gp_iteration_ranges_span (model/window.h) numbers them the same way. */
static int32_t *number_iterations(const gp_trace *t)
{
	int32_t *iter_of = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*iter_of));
	int32_t next = 0;

	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		int64_t num;

		if (i == 0 || gp_thread_cmp(r->pid, r->tid, t->ranges.v[i - 1].pid, t->ranges.v[i - 1].tid))
			next = 0;
		iter_of[i] = -1;
		if ((r->kind == GP_RANGE_PUSHPOP || r->kind == GP_RANGE_STARTEND) &&
		    gp_iteration_text(gp_s(t, r->text), &num)) {
			iter_of[i] = num >= 0 ? (int32_t)num : next;
			next = iter_of[i] + 1;
		}
	}
	return iter_of;
}

/* Whether s holds ", seq=" (PyTorch 1.0's markers), as strstr() says:
** looked for before each '=', which most range texts lack or hold a few
** of, instead of a substring search through every text. */
static bool has_legacy_seq(const char *s)
{
	size_t n = strlen(s);

	for (const char *p = memchr(s, '=', n); p; p = memchr(p + 1, '=', n - (size_t)(p + 1 - s)))
		if (p - s >= 5 && memcmp(p - 5, ", seq", 5) == 0)
			return true;
	return false;
}

gp_nvtxattr *gp_nvtxattr_begin(gp_trace *t)
{
	gp_nvtxattr *st = gp_xcalloc(1, sizeof(*st));

	st->prev_seq = -1;
	st->prev_sub = -1;
	st->cache = gp_xcalloc(NVINFO_CACHE, sizeof(*st->cache));
	st->iter_of = number_iterations(t);
	st->phase_of = gp_xcalloc(t->ranges.n ? t->ranges.n : 1, 1);
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->kind != GP_RANGE_PUSHPOP && r->kind != GP_RANGE_STARTEND)
			continue;
		st->phase_of[i] = phase_of_text(gp_s(t, r->text));
		if (st->phase_of[i] || st->iter_of[i] >= 0)
			*gp_vec_push(st->procwide) = (struct procwide){r->start, r->pid, (int32_t)i};
		if (st->phase_of[i] && st->iter_of[i] < 0)   /* process_ranges() takes it as a phase */
			st->procwide_phases++;
	}
	gp_vec_sort(st->procwide, cmp_procwide);
	for (size_t i = 0; i < t->ranges.n && !st->any_legacy; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if ((GP_NVTXATTR_KINDS & (1u << r->kind)) && has_legacy_seq(gp_s(t, r->text)))
			st->any_legacy = true;
	}
	return st;
}

void gp_nvtxattr_end(gp_nvtxattr *st, gp_trace *t)
{
	if (!st)
		return;
	free(st->cache);
	free(st->iter_of);
	free(st->phase_of);
	gp_vec_free(st->procwide);
	gp_u64map_free(&st->by_seq);
	gp_u64map_free(&st->by_altseq);
	gp_u64map_free(&st->args_seen);
	gp_vec_free(st->plain);
	gp_vec_free(st->seqm);
	gp_vec_free(st->ids);
	free(st->buf);
	free(st);
}
