/*
** Op model driver: for each kernel, find the rule of ops.def that matches
** its attributed op, build the context (arguments, direction, kernel names)
** and run the rule's formula.  An op no rule knows, or whose arguments do
** not fit, gets the generic row (PyProf's Foo: params T=[shapes],type=...,
** FLOPs and bytes unknown).  Nothing here can fail on odd data.
*/
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/fmt.h"
#include "model/classify.h"
#include "ops/opdefs.h"
#include "util/u64map.h"

/* ---- argument helpers (shared with formulas.c) ---- */

const struct gp_arg *gp_oparg(const struct gp_opctx *c, uint32_t i)
{
	return i < c->nargs ? &c->args[i] : NULL;
}

const struct gp_arg *gp_optensor(const struct gp_opctx *c, uint32_t i)
{
	for (uint32_t j = 0; j < c->nargs; j++)
		if (c->args[j].type == GP_ARG_TENSOR && i-- == 0)
			return &c->args[j];
	return NULL;
}

uint32_t gp_opntensors(const struct gp_opctx *c)
{
	uint32_t n = 0;

	for (uint32_t j = 0; j < c->nargs; j++)
		n += c->args[j].type == GP_ARG_TENSOR;
	return n;
}

const struct gp_arg *gp_opnamed(const struct gp_opctx *c, const char *name)
{
	for (uint32_t j = 0; j < c->nargs; j++)
		if (c->args[j].name && strcmp(gp_s(c->t, c->args[j].name), name) == 0)
			return &c->args[j];
	return NULL;
}

double gp_numel(const struct gp_arg *a)
{
	double n = 1;

	if (!a || a->type != GP_ARG_TENSOR)
		return 0;
	for (int i = 0; i < a->ndim && i < GP_MAX_DIMS; i++)
		n *= a->shape[i] > 0 ? (double)a->shape[i] : 0;
	return n;
}

enum gp_dtype gp_opdtype(const struct gp_opctx *c, const struct gp_arg *a)
{
	if (a && a->type == GP_ARG_TENSOR && a->dtype != GP_DT_UNKNOWN && a->dtype < GP_DT__COUNT)
		return a->dtype;
	return (enum gp_dtype)c->kn->dtype;
}

int gp_opsize(enum gp_dtype dt)
{
	int s = gp_dtype_size(dt);

	return s ? s : 4;
}

/* Appends s[0..n) to c's params text; false when it does not fit (the
** text is then full: later fields are dropped, as snprintf would). */
static bool pp_put(struct gp_opctx *c, const char *s, size_t n)
{
	size_t cap = sizeof(c->params);

	if (n >= cap - c->plen) {   /* what fits, as snprintf would cut it */
		memcpy(c->params + c->plen, s, cap - 1 - c->plen);
		c->plen = cap - 1;
		c->params[c->plen] = '\0';
		return false;
	}
	memcpy(c->params + c->plen, s, n);
	c->plen += n;
	c->params[c->plen] = '\0';
	return true;
}

/*
** Appends ",key=value" (no comma first) to c's params, value as printf
** formats fmt.  Every kernel of a trace gets its params formatted, so the
** two formats nearly every field uses take a short path: "%s" is copied,
** and "%.0f" of a whole number below 2^53 is printed as the integer it is
** (what printf prints for it, digit for digit); anything else goes to
** vsnprintf.
*/
void gp_pp(struct gp_opctx *c, const char *key, const char *fmt, ...)
{
	size_t cap = sizeof(c->params);
	va_list ap;
	int n;

	if (c->plen + 2 >= cap)
		return;
	if ((c->plen && !pp_put(c, ",", 1)) || !pp_put(c, key, strlen(key)) || !pp_put(c, "=", 1))
		return;
	va_start(ap, fmt);
	if (strcmp(fmt, "%s") == 0) {
		const char *v = va_arg(ap, const char *);
		pp_put(c, v, strlen(v));
		va_end(ap);
		return;
	}
	if (strcmp(fmt, "%.0f") == 0) {
		va_list copy;
		va_copy(copy, ap);
		double v = va_arg(copy, double);
		va_end(copy);
		/* range first: the cast of a NaN or huge value is undefined */
		if (v > -9007199254740992.0 && v < 9007199254740992.0 && v == (double)(int64_t)v &&
		    !(v == 0 && signbit(v))) {
			char num[24];
			gp_fmt_i64(num, (int64_t)v);
			pp_put(c, num, strlen(num));
			va_end(ap);
			return;
		}
	}
	n = vsnprintf(c->params + c->plen, cap - c->plen, fmt, ap);
	c->plen = n < 0 || (size_t)n >= cap - c->plen ? cap - 1 : c->plen + (size_t)n;
	va_end(ap);
}

/* a's shape as a Python tuple ("(35,20,200)", "(5,)") into buf, "na" when
** a is not a tensor. */
static const char *fmt_arg_shape(const struct gp_arg *a, char *buf, size_t size)
{
	if (!a || a->type != GP_ARG_TENSOR)
		snprintf(buf, size, "na");
	else
		gp_fmt_shape(buf, size, a->shape, a->ndim < GP_MAX_DIMS ? a->ndim : GP_MAX_DIMS);
	return buf;
}

size_t gp_opshapes(const struct gp_opctx *c, char *buf, size_t size)
{
	char one[160];   /* a shape longer than this is cut (absurd dims only) */
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (uint32_t j = 0; j < c->nargs; j++) {
		const struct gp_arg *a = &c->args[j];
		if (a->type != GP_ARG_TENSOR)
			continue;
		fmt_arg_shape(a, one, sizeof(one));
		int n = snprintf(len < size ? buf + len : NULL, len < size ? size - len : 0, "%s%s",
				 len ? ";" : "", one);
		len += n > 0 ? (size_t)n : 0;
	}
	return len;
}

void gp_pp_shape(struct gp_opctx *c, const char *key, const struct gp_arg *a)
{
	char buf[160];

	gp_pp(c, key, "%s", fmt_arg_shape(a, buf, sizeof(buf)));
}

void gp_pp_type(struct gp_opctx *c, enum gp_dtype dt)
{
	gp_pp(c, "type", "%s", gp_dtype_short(dt));
}

/* ---- rule lookup ---- */

/* "torch.nn.functional.linear" stays as markers give the op separately. */
const char *gp_op_base(const char *s)
{
	static const char *const ns[] = {
		"aten::", "prim::", "torch::", "c10d::", "_c10d_functional::", "c10d_functional::",
		"torch.ops.aten.", "nccl:", "ncclx::",
	};
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		size_t n = strlen(ns[i]);
		if (strncmp(s, ns[i], n) == 0)
			return s + n;
	}
	return s;
}

/* Whether op is one of the '|'-separated names (a trailing '*' matches a
** prefix). */
static bool names_match(const char *names, const char *op)
{
	size_t oplen = strlen(op);
	const char *p = names;

	while (*p) {
		const char *e = strchr(p, '|');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n && p[n - 1] == '*') {
			if (oplen >= n - 1 && strncmp(op, p, n - 1) == 0)
				return true;
		} else if (n == oplen && strncmp(op, p, n) == 0) {
			return true;
		}
		if (!e)
			break;
		p = e + 1;
	}
	return false;
}

/* The first rule of d (the user's, then ops.def's) that names op; -1. */
static int rule_find(const struct gp_opdefs *d, const char *op)
{
	for (size_t i = 0; i < d->rules.n; i++)
		if (names_match(d->rules.v[i].names, op))
			return (int)i;
	return -1;
}

/* op after its last "::" (a library's own op: vLLM's _C::rms_norm,
** sgl_kernel::fused_add_rmsnorm), op itself when it has none. */
static const char *op_after_ns(const char *op)
{
	const char *p;

	while ((p = strstr(op, "::")) != NULL)
		op = p + 2;
	return op;
}

/* The rule of op, else of op_after_ns(op); -1 = none. */
static int rule_find_ns(const struct gp_opdefs *d, const char *op)
{
	int ri = rule_find(d, op);

	return ri >= 0 || op_after_ns(op) == op ? ri : rule_find(d, op_after_ns(op));
}

/* ---- generic rows ---- */

static bool is_gemm_family(const char *f)
{
	return f && (strcmp(f, "gemm") == 0 || strcmp(f, "conv") == 0 || strcmp(f, "attention") == 0 ||
		     strcmp(f, "rnn") == 0);
}

/* PyProf's Foo params: T=[(shape);(shape)],type=[fp32;fp32]. */
static void generic_params(struct gp_opctx *c)
{
	char types[96] = "", shapes[256];
	size_t tn = 0, sn = gp_opshapes(c, shapes, sizeof(shapes));

	for (uint32_t j = 0; j < c->nargs; j++) {
		const struct gp_arg *a = &c->args[j];
		if (a->type == GP_ARG_TENSOR && tn < sizeof(types))
			tn += (size_t)snprintf(types + tn, sizeof(types) - tn, "%s%s", tn ? ";" : "",
					       gp_dtype_short(a->dtype));
	}
	if (!sn || sn >= sizeof(shapes) || tn >= sizeof(types))
		return;   /* no tensors, or too long to be useful: params stay na */
	gp_pp(c, "T", "[%s]", shapes);
	gp_pp(c, "type", "[%s]", types);
}

/* The tensor-core answer of a kernel whose family row lets the element
** type decide (Triton's tl.dot: MMA/MFMA for fp16, bf16, tf32, fp8):
** yes for those, na for fp32 (tf32 or not, the trace cannot tell), no
** for the rest; tc when the row does not say so or tc is no GEMM answer. */
static int tc_by_dtype(const struct gp_opctx *c, int tc, enum gp_dtype dt)
{
	if (!c->kn->tc_by_dtype || tc != GP_TC_NA)
		return tc;
	if (gp_dtype_tc_capable(dt))
		return GP_TC_YES;
	return dt == GP_DT_FP32 || dt == GP_DT_UNKNOWN ? GP_TC_NA : GP_TC_NO;
}

/* The element type a kernel computes in, for its peak: a tensor-core
** matrix kernel whose name shows a low-precision MMA (fp8, fp6, fp4:
** gp_kernel_mma_dtype) runs in that type whatever its op's first tensor
** is (vllm::moe_forward's bf16 hidden states feed an MXFP4 x FP8 bmm);
** else dt. */
static enum gp_dtype mma_dtype(const struct gp_opctx *c, int tc, enum gp_dtype dt)
{
	if (tc == GP_TC_YES && c->kn->gemm_like && c->kn->mma_dtype != GP_DT_UNKNOWN)
		return (enum gp_dtype)c->kn->mma_dtype;
	return dt;
}

/* TC for a kernel whose op gives no TC answer: 1/0 (na where its family
** row says the name cannot tell) if its name is a GEMM, convolution or
** attention kernel, "-" otherwise. */
static int tc_from_name(const struct gp_opctx *c)
{
	if (c->kn->gemm_like || c->kn->tc == GP_TC_YES)
		return c->kn->tc == GP_TC_YES ? GP_TC_YES : c->kn->tc == GP_TC_NA ? GP_TC_NA : GP_TC_NO;
	return GP_TC_NOT_APPLICABLE;
}

/* A kernel name's classification: its family row (kernels.def, the
** user's), else tc.c's name patterns. */
static void kname_fill(const struct gp_opdefs *d, struct gp_kname *kn, const char *kfull, const char *kshort)
{
	struct gp_kclass kc;

	gp_kernel_classify(d, kshort, kfull, &kc);
	kn->family = kc.family;
	kn->tc = kc.tc;
	kn->tc_by_dtype = kc.by_dtype;
	kn->helper = gp_kernel_is_helper(kfull);
	kn->gemm_like = kc.row ? !kn->helper && (kc.family == GP_KF_GEMM || kc.family == GP_KF_CONV ||
						 kc.family == GP_KF_ATTENTION)
			       : kc.family != GP_KF_COMM && gp_kernel_is_gemm_like(kfull);
	kn->dtype = (uint8_t)gp_kernel_dtype(kfull);
	kn->mma_dtype = (uint8_t)gp_kernel_mma_dtype(kfull);
	kn->comm = kc.family == GP_KF_COMM;
}

/* Per-run caches, indexed by gp_str id (ids below n, the string count when
** the run began: kernel and op names are all interned by then). */
struct ops_cache {
	const struct gp_opdefs *defs;
	size_t n;
	int32_t *rule;          /* op id -> rule index + 1, -1 = no rule, 0 = not looked up */
	struct gp_kname *kn;    /* kernel name id -> classification */
	uint8_t *kn_done;       /* kernel name id -> 1 once kn[id] is filled */
	struct gp_kname scratch;
};

/* Kernel name id's classification (computed on first use). */
static const struct gp_kname *kname_get(struct ops_cache *oc, gp_str id, const char *kfull,
					const char *kshort)
{
	if (id >= oc->n) {
		kname_fill(oc->defs, &oc->scratch, kfull, kshort);
		return &oc->scratch;
	}
	if (!oc->kn_done[id]) {
		kname_fill(oc->defs, &oc->kn[id], kfull, kshort);
		oc->kn_done[id] = 1;
	}
	return &oc->kn[id];
}

static void ctx_init(struct gp_opctx *c, const gp_trace *t, size_t i, struct ops_cache *oc)
{
	const struct gp_attr *a = &t->attrs[i];
	const struct gp_kernel *k = &t->kernels.v[i];

	memset(c, 0, sizeof(*c));
	c->t = t;
	c->idx = i;
	c->k = k;
	c->a = a;
	c->kshort = gp_s(t, gp_kernel_short_name_of(t, k));
	c->kfull = gp_s(t, gp_kernel_long_name_of(t, k));
	c->kn = kname_get(oc, gp_kernel_long_name_of(t, k), c->kfull, c->kshort);
	c->dir = a->dir;
	c->sub = a->sub;
	if (a->args_count && (uint64_t)a->args_first + a->args_count <= t->args.n) {
		c->args = t->args.v + a->args_first;
		c->nargs = a->args_count;
	}
	c->flops = -1;
	c->bytes = -1;
	c->tc = GP_TC_NOT_APPLICABLE;
}

/* ---- trial runs and work above peak ---- */

static double kernel_ns(const gp_trace *t, size_t k)
{
	const struct gp_kernel *kn = &t->kernels.v[k];

	return kn->end > kn->start ? (double)(kn->end - kn->start) : 0;
}

/* Adds a note to t: what (with the count and time) and the three kernel
** names with the most time among the kernels with mark[k] set. */
static void note_marked(gp_trace *t, const struct gp_opres *r, const uint8_t *mark, const char *what)
{
	struct name_time {
		gp_str name, op;
		size_t n;
		double ns;
	};
	GP_VEC(struct name_time) names = {0};
	gp_u64map at = {0};
	size_t n = 0;
	double ns = 0;

	for (size_t k = 0; k < t->kernels.n; k++) {
		if (!mark[k])
			continue;
		gp_str name = gp_kernel_def(t, &t->kernels.v[k])->name;
		int32_t i = gp_u64map_add(&at, name, (int32_t)names.n);
		if (i == (int32_t)names.n) {
			struct name_time *nt = gp_vec_push(names);
			nt->name = name;
			nt->op = r[k].op ? r[k].op : t->attrs[k].op;
		}
		names.v[i].n++;
		names.v[i].ns += kernel_ns(t, k);
		n++;
		ns += kernel_ns(t, k);
	}
	if (n) {
		char list[512] = "";
		size_t len = 0;
		for (int shown = 0; shown < 3; shown++) {
			struct name_time *best = NULL;
			for (size_t i = 0; i < names.n; i++)
				if (names.v[i].n && (!best || names.v[i].ns > best->ns))
					best = &names.v[i];
			if (!best)
				break;
			int w = snprintf(list + len, sizeof(list) - len, "%s%s (%s) x%zu", shown ? ", " : "",
					 gp_s(t, best->name), best->op ? gp_s(t, best->op) : "na", best->n);
			len = w < 0 || (size_t)w >= sizeof(list) - len ? sizeof(list) - 1 : len + (size_t)w;
			best->n = 0;    /* shown */
		}
		gp_trace_warn(t, "%zu kernel%s (%.3f ms of GPU time) %s: %s%s", n, n == 1 ? "" : "s", ns / 1e6,
			      what, list, names.n > 3 ? ", ..." : "");
	}
	gp_vec_free(names);
	gp_u64map_free(&at);
}

_Static_assert(sizeof(struct gp_opres) == 32, "gp_opres is 32 bytes");

/* gp_opres.family: 0 no op, else one of these or the index of its rule's
** family in gp_op_families + FAMILY_RULE */
#define FAMILY_UNKNOWN 1
#define FAMILY_RULE 2

const char *gp_opres_family(const struct gp_opres *r)
{
	if (r->family >= FAMILY_RULE)
		return gp_op_families[r->family - FAMILY_RULE];
	return r->family == FAMILY_UNKNOWN ? "unknown" : NULL;
}

/* Whether kernel k's result carries its op's whole GEMM/conv work (a GEMM
** or convolution kernel, not a bias, helper or side kernel). */
static bool carries_op_work(const struct gp_opres *o)
{
	const char *family = gp_opres_family(o);

	return o->known && o->flops > 0 && (o->tc == GP_TC_YES || o->tc == GP_TC_NO) && family &&
	       (strcmp(family, "gemm") == 0 || strcmp(family, "conv") == 0);
}

/* One instance of an op: the GEMM/conv kernels of one call. */
struct op_inst {
	int32_t group;          /* same op, direction and params */
	uint32_t count;         /* its GEMM/conv kernels */
	uint32_t last;          /* the last of them (kernel index) */
	bool mixed;             /* they have more than one kernel name */
	gp_str first_name;
};

struct op_group {
	int32_t cur;            /* current instance, -1 = none */
	int32_t last_sub;
	uint32_t ninst, min;
	uint8_t dir;
};

/*
** Autotuning trials (cudnn.benchmark, cuBLASLt autotuning): the first call
** of an op with given shapes runs one kernel per candidate algorithm, then
** the chosen one.  Instances are the runs of GEMM/conv kernels of one op
** name, direction and params string with increasing sub.  When a group has
** several instances, the fewest kernels any instance ran is the real count
** and kernel names seen in such an instance are the real kernels: in a
** larger instance, a kernel whose name is not one of them, or that runs
** again later in the same instance, is a trial.  A forward op seen once
** with kernels of different names keeps only its last kernel (backward
** ops run a dgrad and a wgrad kernel and are left alone).  Marks trial and
** makes flops/bytes unknown; returns the number marked.
*/
static size_t mark_trials(const gp_trace *t, struct gp_opres *r, uint8_t *mark)
{
	GP_VEC(struct op_inst) inst = {0};
	GP_VEC(struct op_group) grp = {0};
	gp_u64map gmap[3] = {{0}}, steady = {0}, later = {0};
	int32_t *inst_of = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(*inst_of));
	size_t marked = 0;

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		inst_of[k] = -1;
		if (!carries_op_work(&r[k]) || a->dir > GP_DIR_BPROP)
			continue;
		uint64_t key = (uint64_t)r[k].params << 32 | a->op;
		int32_t g = gp_u64map_add(&gmap[a->dir], key, (int32_t)grp.n);
		if (g == (int32_t)grp.n) {
			struct op_group *ng = gp_vec_push(grp);
			ng->cur = -1;
			ng->dir = a->dir;
		}
		struct op_group *gr = &grp.v[g];
		gp_str name = gp_kernel_def(t, &t->kernels.v[k])->name;
		if (gr->cur < 0 || a->sub <= gr->last_sub) {
			gr->cur = (int32_t)inst.n;
			gr->ninst++;
			struct op_inst *ni = gp_vec_push(inst);
			ni->group = g;
			ni->first_name = name;
		}
		gr->last_sub = a->sub;
		struct op_inst *in = &inst.v[gr->cur];
		in->count++;
		in->last = (uint32_t)k;
		in->mixed |= name != in->first_name;
		inst_of[k] = gr->cur;
	}
	for (size_t i = 0; i < inst.n; i++) {
		struct op_group *gr = &grp.v[inst.v[i].group];
		if (!gr->min || inst.v[i].count < gr->min)
			gr->min = inst.v[i].count;
	}
	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t i = inst_of[k];
		if (i >= 0 && inst.v[i].count == grp.v[inst.v[i].group].min)
			gp_u64map_put(&steady, (uint64_t)inst.v[i].group << 32 |
					       gp_kernel_def(t, &t->kernels.v[k])->name, 1);
	}
	/* Backwards, so "runs again later in this instance" is known. */
	for (size_t k = t->kernels.n; k-- > 0;) {
		int32_t i = inst_of[k];
		if (i < 0)
			continue;
		const struct op_inst *in = &inst.v[i];
		const struct op_group *gr = &grp.v[in->group];
		gp_str name = gp_kernel_def(t, &t->kernels.v[k])->name;
		bool trial;
		if (gr->ninst >= 2) {
			/* only an instance larger than the group's smallest has
			** trials: only its kernels are remembered in later */
			if (in->count <= gr->min)
				continue;
			uint64_t here = (uint64_t)i << 32 | name;
			bool same_later = gp_u64map_get(&later, here) >= 0;
			gp_u64map_put(&later, here, 1);
			trial = same_later || gp_u64map_get(&steady, (uint64_t)in->group << 32 | name) < 0;
		} else {
			trial = gr->dir != GP_DIR_BPROP && in->mixed && k < in->last;
		}
		if (!trial)
			continue;
		r[k].trial = 1;
		r[k].known = 0;
		r[k].flops = r[k].bytes = -1;
		mark[k] = 1;
		marked++;
	}
	free(inst_of);
	gp_vec_free(inst);
	gp_vec_free(grp);
	for (int d = 0; d < 3; d++)
		gp_u64map_free(&gmap[d]);
	gp_u64map_free(&steady);
	gp_u64map_free(&later);
	return marked;
}

/* The most distinct peaks a run keeps (gp_opres.peak's 24 bits); a
** kernel past them (only a damaged trace with millions of devices) gets
** peaks[0], unknown. */
#define MAX_PEAKS ((size_t)1 << 24)

/* Gives each kernel the index of its peaks in o->peaks.  Peaks depend only
** on the device, dtype and tensor-core use: each combination is looked up
** once (a GPU table lookup per kernel cost 20% of `info`), and consecutive
** kernels mostly share one, so the map is asked only when it changes. */
static void assign_peaks(const gp_trace *t, struct gp_ops *o)
{
	GP_VEC(struct gp_peak) peaks = {0};
	gp_u64map at = {0};
	uint64_t last_key = UINT64_MAX;
	uint32_t last = 0;

	*gp_vec_push(peaks) = (struct gp_peak){0, 0};
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_opres *r = &o->r[k];
		int32_t dev = gp_kernel_device(t, &t->kernels.v[k]);
		bool tc = r->tc == GP_TC_YES;
		uint64_t key = (uint64_t)(uint32_t)dev << 32 | (uint64_t)r->dtype << 1 | tc;
		if (key != last_key) {
			int32_t i = gp_u64map_get(&at, key);
			if (i < 0 && peaks.n < MAX_PEAKS) {
				i = (int32_t)peaks.n;
				gp_peaks_lookup(t, dev, (enum gp_dtype)r->dtype, tc, &o->po, gp_vec_push(peaks));
				gp_u64map_put(&at, key, i);
			}
			last_key = key;
			last = i < 0 ? 0 : (uint32_t)i;
		}
		r->peak = last;
	}
	gp_u64map_free(&at);
	o->peaks = peaks.v;
	o->npeaks = peaks.n;
}

/* Kernels whose modelled work needs longer at their peaks than the kernel
** ran (eff > 1): the model is wrong for them (a Winograd or FFT
** convolution does fewer multiplies than the direct one, an operand was
** already in L2, a duration was rounded to the microsecond).  Marks
** overpeak, makes flops/bytes unknown and returns the number marked. */
static size_t mark_overpeak(const gp_trace *t, struct gp_ops *o, uint8_t *mark)
{
	struct gp_opres *r = o->r;
	size_t marked = 0;

	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_roofline rl;
		if (!r[k].known || r[k].flops < 0 || r[k].bytes < 0 || r[k].comm)
			continue;
		gp_op_roofline(t, o, k, &rl);
		if (rl.eff <= 1)
			continue;
		r[k].overpeak = 1;
		r[k].known = 0;
		r[k].flops = r[k].bytes = -1;
		mark[k] = 1;
		marked++;
	}
	return marked;
}

/* Kernels whose op results are remembered, direct mapped by what they
** were computed from: a power of two (256 KB of kernel indices). */
#define MEMO_BITS 16

/* What kernel i's op result is computed from, all of it: its kernel
** names (ctx_init: the classification, kshort, kfull) and its attribution
** (op, mod, args, dir, sub).  The rules read nothing else of the kernel or
** the trace (no time, stream, index), so kernels equal here get equal
** results; PyProf traces repeat the same few per iteration. */
/* Per kernel, 1 + the index into t->op_work of the work the file states
** for its op, 0 = none: the op range's around its launch (attrs.range),
** else the one its External id names (a kernel without a launch call);
** NULL when the trace states no work (the caller frees it). */
static uint32_t *op_work_of(const gp_trace *t)
{
	if (!t->op_work.n || !t->attrs)
		return NULL;
	uint32_t *w = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*w));
	gp_u64map by_ext = {0};

	for (size_t r = 0; r < t->ranges.n; r++) {
		const struct gp_op_ext *x = gp_range_op_ext(t, &t->ranges.v[r]);
		if (x && x->ext_id && x->work)
			gp_u64map_add(&by_ext, x->ext_id, (int32_t)x->work);
	}
	for (size_t i = 0; i < t->kernels.n; i++) {
		int32_t r = t->attrs[i].range;
		const struct gp_op_ext *x = r >= 0 && (size_t)r < t->ranges.n ? gp_range_op_ext(t, &t->ranges.v[r]) : NULL;
		int32_t e = t->kernels.v[i].ext_id ? gp_u64map_get(&by_ext, t->kernels.v[i].ext_id) : -1;
		w[i] = x && x->work ? x->work : e > 0 ? (uint32_t)e : 0;
		if (w[i] > t->op_work.n)
			w[i] = 0;
	}
	gp_u64map_free(&by_ext);
	return w;
}

static bool same_op_inputs(const gp_trace *t, const uint32_t *work, size_t i, size_t j)
{
	const struct gp_attr *a = &t->attrs[i], *b = &t->attrs[j];
	const struct gp_kernel *ki = &t->kernels.v[i], *kj = &t->kernels.v[j];

	return a->op == b->op && a->mod == b->mod && a->args_first == b->args_first &&
	       a->args_count == b->args_count && a->dir == b->dir && a->sub == b->sub &&
	       gp_kernel_long_name_of(t, ki) == gp_kernel_long_name_of(t, kj) &&
	       gp_kernel_short_name_of(t, ki) == gp_kernel_short_name_of(t, kj) &&
	       (!work || work[i] == work[j]);
}

/* The memo slot of kernel i: a hash of what same_op_inputs() compares. */
static size_t op_inputs_slot(const gp_trace *t, const uint32_t *work, size_t i)
{
	const struct gp_attr *a = &t->attrs[i];
	const struct gp_kernel *k = &t->kernels.v[i];
	uint64_t h = a->op;

	h = h * 0x9E3779B97F4A7C15u ^ a->mod;
	h = h * 0x9E3779B97F4A7C15u ^ (work ? work[i] : 0);
	h = h * 0x9E3779B97F4A7C15u ^ ((uint64_t)a->args_first << 16 | a->args_count);
	h = h * 0x9E3779B97F4A7C15u ^ ((uint64_t)(uint32_t)a->sub << 8 | a->dir);
	h = h * 0x9E3779B97F4A7C15u ^ ((uint64_t)gp_kernel_long_name_of(t, k) << 32 |
				       gp_kernel_short_name_of(t, k));
	h *= 0x9E3779B97F4A7C15u;
	return (size_t)(h >> (64 - MEMO_BITS));
}

/* Kernel c's result from the work its file states for its op (w): the
** FLOPs and bytes as they are, the family's rule for the checks after
** (a GEMM/conv op's helper kernels), TC from the kernel's name.  False
** when w's family is none the op model knows. */
static bool stated_work(struct gp_opctx *c, const struct gp_op_work *w)
{
	static const struct gp_oprule rules[] = {
		{"xla", "movement", NULL, 0, 0, 0, "stated by the file", NULL},
		{"xla", "pointwise", NULL, 0, 0, 0, "stated by the file", NULL},
		{"xla", "reduction", NULL, 0, 0, 0, "stated by the file", NULL},
		{"xla", "gemm", NULL, 0, 0, 0, "stated by the file", NULL},
		{"xla", "conv", NULL, 0, 0, 0, "stated by the file", NULL},
	};
	const char *fam = gp_s(c->t, w->family);

	c->rule = NULL;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strcmp(rules[i].family, fam) == 0)
			c->rule = &rules[i];
	if (!c->rule)
		return false;
	c->flops = w->flops;
	c->bytes = w->bytes;
	c->dtype = (enum gp_dtype)w->dtype;
	c->tc = is_gemm_family(fam) ? tc_from_name(c) : GP_TC_NOT_APPLICABLE;
	if (w->params)
		gp_pp(c, "shape", "%s", gp_s(c->t, w->params));
	return true;
}

/* Fills r[0..kernels.n) with each kernel's op result under the rules of
** defs: the op model proper, before the peaks and the checks that need a
** whole run (trials, over-peak).  Interns params and op names in t. */
static void compute_results(gp_trace *t, const struct gp_opdefs *defs, struct gp_opres *r)
{
	/* Distinct op and kernel names are few, kernels many. */
	struct ops_cache oc = {.n = t->strs.n};
	struct gp_opctx c;

	oc.defs = defs;
	oc.rule = gp_xcalloc(oc.n, sizeof(*oc.rule));
	oc.kn = gp_xmalloc(oc.n * sizeof(*oc.kn));
	oc.kn_done = gp_xcalloc(oc.n, 1);
	/* memo[slot]: a kernel whose result was computed, + 1; 0 = none.
	** The op model is a pure function of same_op_inputs()'s fields: a
	** kernel equal there to the one in its slot copies that result. */
	uint32_t *memo = t->attrs ? gp_xcalloc((size_t)1 << MEMO_BITS, sizeof(*memo)) : NULL;
	uint32_t *work = op_work_of(t);   /* the work files state (XPlane) */

	for (size_t i = 0; i < t->kernels.n; i++) {
		struct gp_opres *o = &r[i];

		o->flops = -1;
		o->bytes = -1;
		o->tc = GP_TC_NA;
		if (!t->attrs)
			continue;
		size_t slot = op_inputs_slot(t, work, i);
		if (memo[slot] && same_op_inputs(t, work, memo[slot] - 1, i)) {
			*o = r[memo[slot] - 1];
			continue;
		}
		memo[slot] = (uint32_t)i + 1;
		ctx_init(&c, t, i, &oc);
		gp_str opid = t->attrs[i].op;
		if (!opid) {
			/* No op: PyProf's "na" row, but a GEMM kernel still says
			** whether it used tensor cores. */
			int tc = tc_by_dtype(&c, tc_from_name(&c), (enum gp_dtype)c.kn->dtype);
			o->tc = tc == GP_TC_NOT_APPLICABLE ? GP_TC_NA : (int8_t)tc;
			o->dtype = (uint8_t)mma_dtype(&c, tc, (enum gp_dtype)c.kn->dtype);
			o->comm = c.kn->comm;
			continue;
		}
		c.op = gp_op_base(gp_s(t, opid));
		/* PyProf marks RNN cells as mod "LSTMCell", op "forward": the
		** module names the op. */
		if (strcmp(c.op, "forward") == 0 && t->attrs[i].mod) {
			c.op = gp_op_base(gp_s(t, t->attrs[i].mod));
			opid = t->attrs[i].mod;
		}
		int ri = -1;
		if (opid < oc.n) {
			if (!oc.rule[opid]) {
				ri = rule_find_ns(defs, c.op);
				oc.rule[opid] = ri >= 0 ? ri + 1 : -1;
			}
			ri = oc.rule[opid] > 0 ? oc.rule[opid] - 1 : -1;
		} else {
			ri = rule_find_ns(defs, c.op);
		}
		bool ok = false;
		uint32_t wi = work ? work[i] : 0;
		if (wi) {
			/* the file states the op's work (XPlane's HLO shapes) */
			const struct gp_op_work *w = &t->op_work.v[wi - 1];
			ok = stated_work(&c, w);
		} else if (ri >= 0) {
			c.rule = &defs->rules.v[ri];
			/* the formula sees the name its rule knows */
			if (!names_match(c.rule->names, c.op))
				c.op = op_after_ns(c.op);
			ok = c.rule->fn(&c);
		}
		if (!ok) {
			c.plen = 0;
			c.params[0] = 0;
			generic_params(&c);
			c.flops = c.bytes = -1;
			c.tc = tc_from_name(&c);
			/* PyProf: a row without argument markers has TC "na". */
			if (!c.nargs && c.tc == GP_TC_NOT_APPLICABLE)
				c.tc = GP_TC_NA;
			c.op_override = NULL;
			c.dtype = gp_opdtype(&c, gp_optensor(&c, 0));
		}
		/* A helper kernel of a GEMM/conv op does none of its matrix math. */
		if (ok && c.kn->helper && is_gemm_family(c.rule->family)) {
			c.flops = 0;
			c.bytes = -1;
			c.tc = GP_TC_NOT_APPLICABLE;
			c.op_override = NULL;
			c.helper = true;
		}
		c.tc = tc_by_dtype(&c, c.tc, c.dtype);
		/* fp32 inputs on tensor cores means TF32 math (Ampere+). */
		if (c.tc == GP_TC_YES && c.dtype == GP_DT_FP32)
			c.dtype = GP_DT_TF32;
		c.dtype = mma_dtype(&c, c.tc, c.dtype);
		o->family = ok ? (uint16_t)(gp_op_family_index(c.rule->family, strlen(c.rule->family)) + FAMILY_RULE)
			       : FAMILY_UNKNOWN;
		o->comm = c.kn->comm;
		o->known = ok && c.flops >= 0;
		o->flops = c.flops;
		o->bytes = c.bytes;
		o->tc = (int8_t)c.tc;
		o->dtype = (uint8_t)c.dtype;
		if (c.op_override)
			o->op = gp_intern(t, c.op_override);
		if (c.plen)
			o->params = gp_intern(t, c.params);
		o->tc_eligible = is_gemm_family(gp_opres_family(o)) && gp_dtype_tc_capable(c.dtype);
		o->helper = ok && c.helper;
	}
	/* a kernel the runner found communication by its launcher or the
	** user's ops file (t->def_comm, analysis/commclass.h) is one here too */
	for (size_t i = 0; i < t->kernels.n; i++)
		if (gp_kernel_is_comm(t, &t->kernels.v[i]))
			r[i].comm = 1;
	free(memo);
	free(work);
	free(oc.rule);
	free(oc.kn);
	free(oc.kn_done);
}

/* The user's ops files joined with the built-in tables; a file that
** cannot be read leaves a note when note is set. */
static struct gp_opdefs *load_defs(gp_trace *t, const struct gp_peak_opts *po, bool note)
{
	struct gp_opdefs *defs = gp_xcalloc(1, sizeof(*defs));
	gp_error err;

	if (gp_opdefs_init(defs, po ? po->ops_paths : NULL, po ? po->ops_optional : NULL, po ? po->nops_paths : 0,
			   &err) && note)
		gp_trace_warn(t, "%s; the op model runs without the user's ops files", err.msg);
	return defs;
}

uint8_t *gp_ops_trials(gp_trace *t, const struct gp_peak_opts *po)
{
	if (!t->attrs || !t->kernels.n)
		return NULL;
	struct gp_opres *r = gp_xcalloc(t->kernels.n, sizeof(*r));
	struct gp_opdefs *defs = load_defs(t, po, false);
	uint8_t *mark = gp_xcalloc(t->kernels.n, 1);

	compute_results(t, defs, r);
	mark_trials(t, r, mark);
	free(r);
	gp_opdefs_free(defs);
	free(defs);
	return mark;
}

void gp_ops_run(gp_trace *t, const struct gp_peak_opts *po, struct gp_ops *ops)
{
	struct gp_opres *r = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, sizeof(*r));
	struct gp_opdefs *defs = load_defs(t, po, true);

	gp_gpus_resolve(t, po);
	compute_results(t, defs, r);

	memset(ops, 0, sizeof(*ops));
	ops->r = r;
	ops->defs = defs;
	if (po)
		ops->po = *po;
	assign_peaks(t, ops);

	uint8_t *mark = gp_xcalloc(t->kernels.n ? t->kernels.n : 1, 1);
	/* a window cut decided the trials on what was read before it
	** (gp_ops_trials): an op's trial runs may lie outside the window */
	size_t trials = 0;
	if (t->kernel_trial) {
		for (size_t k = 0; k < t->kernels.n; k++)
			if (t->kernel_trial[k]) {
				r[k].trial = 1;
				r[k].known = 0;
				r[k].flops = r[k].bytes = -1;
				mark[k] = 1;
				trials++;
			}
	} else if (t->attrs) {
		trials = mark_trials(t, r, mark);
	}
	if (trials)
		note_marked(t, r, mark, "are autotuning trial runs (cudnn.benchmark: an op ran more GEMM/conv "
			    "kernels than the same op with the same shapes does elsewhere); their FLOPs are not counted");
	memset(mark, 0, t->kernels.n ? t->kernels.n : 1);
	if (t->attrs && mark_overpeak(t, ops, mark))
		note_marked(t, r, mark, "whose modelled work exceeds the GPU's peak; their FLOPs are not trusted");
	free(mark);
}

void gp_ops_free(struct gp_ops *ops)
{
	free(ops->r);
	free(ops->peaks);
	if (ops->defs)
		gp_opdefs_free(ops->defs);
	free(ops->defs);
	memset(ops, 0, sizeof(*ops));
}

void gp_op_roofline(const gp_trace *t, const struct gp_ops *o, size_t k, struct gp_roofline *rl)
{
	const struct gp_kernel *kr = &t->kernels.v[k];
	const struct gp_opres *r = &o->r[k];
	const struct gp_peak *p = r->comm ? &o->peaks[0] : gp_op_peak(o, k);
	/* unsigned: a damaged trace's times may differ by more than INT64_MAX */
	double dur = kr->end > kr->start ? (double)((uint64_t)kr->end - (uint64_t)kr->start) : 0;

	gp_roofline(r->flops, r->bytes, dur, p->flops, p->bw, rl);
}

void gp_ops_summarize(const gp_trace *t, const struct gp_ops *o, struct gp_ops_summary *s)
{
	const struct gp_opres *r = o->r;

	memset(s, 0, sizeof(*s));
	if (!r)
		return;
	size_t ncache = t->strs.n + 1;
	uint8_t *seen = gp_xcalloc(ncache, 1);

	for (size_t i = 0; i < t->kernels.n; i++) {
		const struct gp_kernel *k = &t->kernels.v[i];
		double d = k->end > k->start ? (double)(k->end - k->start) : 0;

		s->kernels++;
		s->gpu_ns += d;
		if (r[i].flops >= 0 && r[i].known) {
			s->known++;
			s->known_ns += d;
		}
		if (r[i].family == FAMILY_UNKNOWN) {
			s->unknown_kernels++;
			gp_str op = t->attrs ? t->attrs[i].op : 0;
			if (op < ncache && !seen[op]) {
				seen[op] = 1;
				s->unknown_ops++;
			}
		}
	}
	free(seen);
}
