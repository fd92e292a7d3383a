/*
** Attribution from framework-op ranges (Kineto cpu_op, user_annotation,
** python_function, gpu_user_annotation); see attr_ops.h and
** docs/kineto.md.
**
** For one kernel: the stack of ranges around its launch (from correlate.c),
** or, when the launch was not captured, the op whose External id the kernel
** carries, and the gpu_user_annotation ranges around the kernel on its
** stream.  From that stack: op = innermost cpu_op, mod = outermost cpu_op,
** layer = user annotations, else the nn.Module events of
** with_modules=True, else the GPU-side annotations (each a path joined
** with GP_LAYER_SEP, analysis/layers.h),
** iter = ProfilerStep#N, trace = innermost user
** Python frame, dir/seq from Sequence number and Fwd thread id, args from
** the op's Input Dims / Input type / Concrete Inputs.  At the end, sub
** numbers kernels within their op, and backward kernels take mod, layer and
** trace from the last forward kernel with their sequence number.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/attr_ops.h"
#include "analysis/layers.h"
#include "analysis/markers.h"
#include "util/fmt.h"
#include "util/u64map.h"

#define MAX_OP_ARGS 64
_Static_assert(MAX_OP_ARGS <= GP_ATTR_MAX_ARGS, "an op's args fit gp_attr.args_count");
#define MAX_STACK 256

/* One ProfilerStep#N range: every CPU activity of its process during it
** (the autograd thread's backward too) belongs to iteration N. */
struct step {
	uint32_t pid;
	int32_t iter;
	gp_ns start, end;
};

/* An op_ext's arg texts (Input Dims, Input type, Concrete Inputs) and
** the arg list they gave. */
struct parse {
	gp_str dims, types, conc;
	uint32_t first;
	uint16_t count;
};

struct gp_opattr {
	gp_u64map ext;          /* External id -> op range */
	int32_t *op_range;      /* per kernel: innermost cpu_op, -1 */
	uint32_t *args_first;   /* per op_ext: 1 + first arg, 0 = not parsed yet */
	uint16_t *args_count;
	gp_u64map args_seen;    /* arg lists added so far, to share (gp_trace_args_share) */
	gp_u64map parsed;       /* a hash of an op_ext's three arg texts -> parses */
	uint8_t *python_kind;   /* per range: PY_*, found on first use */
	gp_u64map op_names;     /* range text -> op_name() interned */
	gp_u64map stack_sites;  /* Call stack text -> its site interned, 0 = none */
	GP_VEC(struct parse) parses;
	int32_t *gpu;           /* GPU annotation ranges, in t->ranges order */
	int32_t *gpu_par;       /* enclosing GPU annotation (index into gpu), -1 */
	size_t ngpu;
	struct step *steps;     /* ProfilerStep#N ranges by (pid, start) */
	size_t nsteps;
};

/* ---- names ---- */

static const char *strip_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s, prefix, n) == 0 ? s + n : s;
}

/* "aten::mm" -> "mm"; "autograd::engine::evaluate_function: MmBackward0"
** -> "MmBackward0". */
static const char *op_name(const char *s)
{
	return strip_prefix(strip_prefix(s, "autograd::engine::evaluate_function: "), "aten::");
}

static bool is_step(const char *s, int32_t *iter)
{
	if (strncmp(s, "ProfilerStep#", 13) != 0)
		return false;
	char *end;
	long v = strtol(s + 13, &end, 10);
	*iter = (end != s + 13 && v >= 0 && v <= INT32_MAX) ? (int32_t)v : -1;
	return true;
}

static bool is_backward_op(const gp_trace *t, const struct gp_range *r)
{
	const struct gp_op_ext *x = gp_range_op_ext(t, r);

	if (x && x->fwd_tid)
		return true;
	return strstr(gp_s(t, r->text), "Backward") != NULL;
}

/* Frames of PyTorch itself say nothing about the user's code. */
static bool user_frame(const char *f, size_t n)
{
	if (n == 0 || memchr(f, '(', n) == NULL)
		return false;   /* "nn.Module: Linear_0", "<built-in ...>" */
	if (f[0] == '<')
		return false;
	if (memmem(f, n, "/torch/", 7))
		return false;
	return !(n > 6 && memcmp(f, "torch/", 6) == 0);
}

/* "dir/file.py(12): fn" -> "dir/file.py:12" into buf; false if not a frame. */
static bool frame_site(const char *f, size_t n, char *buf, size_t size)
{
	const char *open = memchr(f, '(', n);

	if (!open)
		return false;
	const char *close = memchr(open, ')', n - (size_t)(open - f));
	if (!close || close == open + 1)
		return false;
	snprintf(buf, size, "%.*s:%.*s", (int)(open - f), f, (int)(close - open - 1), open + 1);
	return true;
}

/* The innermost user frame of an old-style "Call stack" ("a.py(1): f;b.py(2): g",
** innermost first). */
static gp_str call_stack_site(gp_trace *t, const char *cs)
{
	char buf[512];

	while (*cs) {
		const char *semi = strchr(cs, ';');
		size_t n = semi ? (size_t)(semi - cs) : strlen(cs);
		if (user_frame(cs, n) && frame_site(cs, n, buf, sizeof(buf)))
			return gp_intern(t, buf);
		if (!semi)
			break;
		cs = semi + 1;
	}
	return 0;
}

/* ---- Input Dims / Input type / Concrete Inputs ---- */

/* Splits the top-level elements of a JSON array text: on return elems[i]
** points at element i and lens[i] is its length.  Returns the count. */
static int json_elements(const char *s, const char **elems, size_t *lens, int max)
{
	int n = 0, depth = 0;
	bool in_str = false;
	const char *start = NULL;

	while (*s == ' ')
		s++;
	if (*s != '[')
		return 0;
	for (const char *c = s + 1; *c; c++) {
		if (in_str) {
			if (*c == '\\' && c[1])
				c++;
			else if (*c == '"')
				in_str = false;
			continue;
		}
		if (!start && *c != ' ' && *c != ']')
			start = c;
		switch (*c) {
		case '"': in_str = true; break;
		case '[': case '{': depth++; break;
		case ']': case '}':
			if (depth == 0) {
				if (start && n < max) {
					elems[n] = start;
					lens[n++] = (size_t)(c - start);
				}
				return n;
			}
			depth--;
			break;
		case ',':
			if (depth == 0) {
				if (start && n < max) {
					elems[n] = start;
					lens[n++] = (size_t)(c - start);
				}
				start = NULL;
			}
			break;
		}
	}
	return n;
}

/* A JSON string element without its quotes (escapes are rare here and kept). */
static void json_unquote(const char *s, size_t n, char *buf, size_t size)
{
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		s++;
		n -= 2;
	}
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
}

/* "[32,3,224]" -> shape; returns ndim or -1 when the text is not a flat
** list of integers. */
static int int_list(const char *s, size_t n, int64_t *shape)
{
	char tmp[512];
	int nd = 0;

	if (n < 2 || s[0] != '[' || n >= sizeof(tmp))
		return -1;
	memcpy(tmp, s + 1, n - 2);
	tmp[n - 2] = '\0';
	for (char *c = tmp; *c;) {
		char *end;
		while (*c == ' ' || *c == ',')
			c++;
		if (!*c)
			break;
		long long v = strtoll(c, &end, 10);
		if (end == c)
			return -1;
		if (nd < GP_MAX_DIMS)
			shape[nd] = v;
		nd++;
		c = end;
	}
	return nd > GP_MAX_DIMS ? GP_MAX_DIMS : nd;
}

static void scalar_value(const char *v, struct gp_arg *a, gp_trace *t, const char *type)
{
	char *end;

	if (strcmp(v, "True") == 0 || strcmp(v, "False") == 0 || strcmp(v, "true") == 0 ||
	    strcmp(v, "false") == 0) {
		a->type = GP_ARG_BOOL;
		a->value = v[0] == 'T' || v[0] == 't';
		return;
	}
	if (*v) {
		long long i = strtoll(v, &end, 10);
		if (!*end) {
			a->type = GP_ARG_INT;
			a->value = (double)i;
			return;
		}
		double d = strtod(v, &end);
		if (!*end) {
			a->type = GP_ARG_FLOAT;
			a->value = d;
			return;
		}
		a->type = GP_ARG_STR;
		a->sval = gp_intern(t, v);
		return;
	}
	/* no concrete value recorded: keep the type name */
	a->type = GP_ARG_STR;
	a->sval = gp_intern(t, type);
}

/* Adds the args of op range r to t->args (once per op_ext) and sets
** *first and *count (at most MAX_OP_ARGS) to them; none for a range
** without an op_ext. */
static void op_args(gp_opattr *ctx, gp_trace *t, int32_t r, uint32_t *first, uint16_t *count)
{
	const struct gp_range *rg = &t->ranges.v[r];
	const char *dims[MAX_OP_ARGS], *types[MAX_OP_ARGS], *conc[MAX_OP_ARGS];
	size_t dl[MAX_OP_ARGS], tl[MAX_OP_ARGS], cl[MAX_OP_ARGS];
	int nd, nt, nc, n;

	*first = (uint32_t)t->args.n;
	*count = 0;
	if (!gp_range_op_ext(t, rg))
		return;
	uint32_t xi = rg->ext - 1;
	if (ctx->args_first[xi]) {
		*first = ctx->args_first[xi] - 1;
		*count = ctx->args_count[xi];
		return;
	}
	const struct gp_op_ext *x = &t->op_exts.v[xi];
	/* the same three texts parse to the same list: every step repeats
	** its ops' shapes (a text's id is its content) */
	uint64_t key = gp_hash_mix(gp_hash_mix(x->input_dims, x->input_types), x->concrete_inputs);
	int32_t seen = gp_u64map_get(&ctx->parsed, key);
	if (seen >= 0 && ctx->parses.v[seen].dims == x->input_dims && ctx->parses.v[seen].types == x->input_types &&
	    ctx->parses.v[seen].conc == x->concrete_inputs) {
		*first = ctx->parses.v[seen].first;
		*count = ctx->parses.v[seen].count;
		ctx->args_first[xi] = *first + 1;
		ctx->args_count[xi] = *count;
		return;
	}
	nd = json_elements(gp_s(t, x->input_dims), dims, dl, MAX_OP_ARGS);
	nt = json_elements(gp_s(t, x->input_types), types, tl, MAX_OP_ARGS);
	nc = json_elements(gp_s(t, x->concrete_inputs), conc, cl, MAX_OP_ARGS);
	n = nd > nt ? nd : nt;
	for (int i = 0; i < n; i++) {
		char type[64] = "", val[256] = "";
		int64_t shape[GP_MAX_DIMS];
		int ndim = i < nd ? int_list(dims[i], dl[i], shape) : -1;

		if (i < nt)
			json_unquote(types[i], tl[i], type, sizeof(type));
		if (i < nc)
			json_unquote(conc[i], cl[i], val, sizeof(val));
		enum gp_dtype dt = gp_dtype_parse(type);

		if (ndim < 0 && i < nd && dl[i] > 1 && dims[i][0] == '[') {
			/* a tensor list: one entry per tensor, as PyProf flattens */
			const char *sub[MAX_OP_ARGS];
			size_t sl[MAX_OP_ARGS];
			int ns = json_elements(dims[i], sub, sl, MAX_OP_ARGS);
			for (int j = 0; j < ns && t->args.n - *first < MAX_OP_ARGS; j++) {
				struct gp_arg *a = gp_vec_push(t->args);
				int nds = int_list(sub[j], sl[j], a->shape);
				a->type = GP_ARG_TENSOR;
				a->dtype = (uint8_t)dt;
				a->ndim = (uint8_t)(nds < 0 ? 0 : nds);
			}
			continue;
		}
		struct gp_arg *a = gp_vec_push(t->args);
		if (dt != GP_DT_UNKNOWN && ndim >= 0) {
			a->type = GP_ARG_TENSOR;
			a->dtype = (uint8_t)dt;
			a->ndim = (uint8_t)ndim;
			memcpy(a->shape, shape, sizeof(shape[0]) * (size_t)ndim);
		} else if (!type[0] && !val[0]) {
			a->type = GP_ARG_NULL;   /* None or an undefined tensor */
		} else if (strstr(type, "List") && val[0] == '[') {
			a->type = GP_ARG_LIST;
			int nv = int_list(val, strlen(val), a->shape);
			a->ndim = (uint8_t)(nv < 0 ? 0 : nv);
			if (nv < 0) {
				a->type = GP_ARG_STR;
				a->sval = gp_intern(t, val);
			}
		} else if (strcmp(type, "Scalar") == 0 || strcmp(type, "Int") == 0 ||
			   strcmp(type, "Double") == 0 || strcmp(type, "Bool") == 0 || !type[0]) {
			scalar_value(val, a, t, type);
		} else {
			a->type = GP_ARG_STR;
			a->sval = gp_intern(t, val[0] ? val : type);
		}
		if (t->args.n - *first >= MAX_OP_ARGS)
			break;
	}
	*count = (uint16_t)(t->args.n - *first);
	*first = gp_trace_args_share(t, *first, &ctx->args_seen);
	ctx->args_first[xi] = *first + 1;
	ctx->args_count[xi] = *count;
	if (seen < 0) {
		gp_u64map_put(&ctx->parsed, key, (int32_t)ctx->parses.n);
		*gp_vec_push(ctx->parses) = (struct parse){x->input_dims, x->input_types, x->concrete_inputs,
							  *first, *count};
	}
}

/* An op's name (op_name) and a call stack's site (call_stack_site),
** interned, by the text they come from: the same few hundred texts for
** every kernel of every step.  The first use interns, as without the
** memo, so string ids are the same. */
static gp_str op_name_of(gp_opattr *ctx, gp_trace *t, gp_str text)
{
	int32_t s = gp_u64map_get(&ctx->op_names, text);

	if (s < 0) {
		s = (int32_t)gp_intern(t, op_name(gp_s(t, text)));
		gp_u64map_put(&ctx->op_names, text, s);
	}
	return (gp_str)s;
}

static gp_str call_stack_site_of(gp_opattr *ctx, gp_trace *t, gp_str call_stack)
{
	int32_t s = gp_u64map_get(&ctx->stack_sites, call_stack);

	if (s < 0) {
		s = (int32_t)call_stack_site(t, gp_s(t, call_stack));
		gp_u64map_put(&ctx->stack_sites, call_stack, s);
	}
	return (gp_str)s;
}

/* ---- begin / kernel / end ---- */

static int cmp_step(const void *pa, const void *pb)
{
	const struct step *a = pa, *b = pb;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* The iteration whose step range in process pid contains ts, or -1. */
static int32_t step_at(const gp_opattr *ctx, uint32_t pid, gp_ns ts)
{
	size_t lo = 0, hi = ctx->nsteps;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct step *s = &ctx->steps[mid];
		if (s->pid < pid || (s->pid == pid && s->start <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	const struct step *s = &ctx->steps[lo - 1];
	return s->pid == pid && s->end >= ts ? s->iter : -1;
}

gp_opattr *gp_opattr_begin(gp_trace *t)
{
	gp_opattr *ctx = gp_xcalloc(1, sizeof(*ctx));
	int32_t stack[MAX_STACK];
	int depth = 0;

	ctx->op_range = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(*ctx->op_range));
	for (size_t k = 0; k < t->kernels.n; k++)
		ctx->op_range[k] = -1;
	/* args come from an op's op_ext alone: one cache entry per op_ext (a
	** Kineto trace has three to four ranges per op_ext: python frames,
	** annotations) */
	ctx->args_first = gp_xcalloc(t->op_exts.n ? t->op_exts.n : 1, sizeof(*ctx->args_first));
	ctx->args_count = gp_xcalloc(t->op_exts.n ? t->op_exts.n : 1, sizeof(*ctx->args_count));
	ctx->python_kind = gp_xcalloc(t->ranges.n ? t->ranges.n : 1, 1);

	/* External ids: cpu_ops win over the user annotations sharing an id;
	** an op_ext holds one, so there are no more of them (the map made to
	** size: growing it was the peak of a Kineto read's memory); profilers
	** count them up from 1, so the map is an array where they are dense */
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < t->op_exts.n; i++) {
		uint64_t id = t->op_exts.v[i].ext_id;
		if (id && id < lo)
			lo = id;
		if (id > hi)
			hi = id;
	}
	gp_u64map_reserve_range(&ctx->ext, t->op_exts.n, lo, hi);
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < t->ranges.n; i++) {
			const struct gp_range *r = &t->ranges.v[i];
			uint8_t want = pass == 0 ? GP_RANGE_CPU_OP : GP_RANGE_USER_ANNOTATION;
			const struct gp_op_ext *x = gp_range_op_ext(t, r);
			if (r->kind == want && x && x->ext_id)
				gp_u64map_add(&ctx->ext, x->ext_id, (int32_t)i);
		}

	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		int32_t it;
		if (r->kind == GP_RANGE_USER_ANNOTATION && is_step(gp_s(t, r->text), &it) && it >= 0) {
			if (ctx->nsteps % 64 == 0)
				ctx->steps = gp_xrealloc(ctx->steps, (ctx->nsteps + 64) * sizeof(*ctx->steps));
			ctx->steps[ctx->nsteps++] = (struct step){r->pid, it, r->start, r->end};
		}
	}
	if (ctx->nsteps > 1)
		gp_sort(ctx->steps, ctx->nsteps, sizeof(*ctx->steps), cmp_step);

	/* GPU annotations, with their own nesting (other ranges may share
	** their pid/tid numbers, e.g. python frames on pid 0 tid 0) */
	for (size_t i = 0; i < t->ranges.n; i++)
		ctx->ngpu += t->ranges.v[i].kind == GP_RANGE_GPU_ANNOTATION;
	ctx->gpu = gp_xmalloc((ctx->ngpu ? ctx->ngpu : 1) * sizeof(*ctx->gpu));
	ctx->gpu_par = gp_xmalloc((ctx->ngpu ? ctx->ngpu : 1) * sizeof(*ctx->gpu_par));
	size_t g = 0;
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->kind != GP_RANGE_GPU_ANNOTATION)
			continue;
		while (depth) {
			const struct gp_range *top = &t->ranges.v[ctx->gpu[stack[depth - 1]]];
			if (top->pid == r->pid && top->tid == r->tid && top->end >= r->end)
				break;
			depth--;
		}
		ctx->gpu[g] = (int32_t)i;
		ctx->gpu_par[g] = depth ? stack[depth - 1] : -1;
		if (depth < MAX_STACK)
			stack[depth++] = (int32_t)g;
		g++;
	}
	return ctx;
}

/* The GPU annotations enclosing kernel k on its stream, outermost first,
** into out[]; returns the count. */
static int gpu_stack(const gp_opattr *ctx, const gp_trace *t, const struct gp_kernel *k,
		     int32_t *out, int max)
{
	size_t lo = 0, hi = ctx->ngpu;
	uint32_t pid = (uint32_t)gp_kernel_device(t, k), tid = k->stream;
	int32_t tmp[MAX_STACK];
	int n = 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct gp_range *r = &t->ranges.v[ctx->gpu[mid]];
		int c = gp_thread_cmp(r->pid, r->tid, pid, tid);
		if (c < 0 || (c == 0 && r->start <= k->start))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int32_t i = (int32_t)lo - 1; i >= 0 && n < MAX_STACK; i = ctx->gpu_par[i]) {
		const struct gp_range *r = &t->ranges.v[ctx->gpu[i]];
		if (r->pid != pid || r->tid != tid)
			break;
		if (r->end >= k->start)
			tmp[n++] = ctx->gpu[i];
	}
	int m = 0;
	while (n && m < max)
		out[m++] = tmp[--n];
	return m;
}

static bool in_stack(const int32_t *stack, int n, int32_t r)
{
	for (int i = 0; i < n; i++)
		if (stack[i] == r)
			return true;
	return false;
}

/* Appends "sep text" to a layer path being built in buf (cut at size). */
static void path_add(char *buf, size_t size, char sep, const char *text)
{
	size_t l = strlen(buf), n = strlen(text);

	if (l && l + 1 < size)
		buf[l++] = sep;
	if (n >= size - l)
		n = size - l - 1;
	memcpy(buf + l, text, n);
	buf[l + n] = '\0';
}

/* What a Python frame range is to the attribution (python_kind[]): the
** same for every kernel launched under it, so it is found once. */
enum { PY_UNSEEN, PY_OTHER, PY_MODULE, PY_USER };

static uint8_t python_kind(gp_opattr *ctx, const gp_trace *t, int32_t r)
{
	if (!ctx->python_kind[r]) {
		const char *text = gp_s(t, t->ranges.v[r].text);
		ctx->python_kind[r] = gp_marker_module(text) ? PY_MODULE
				      : user_frame(text, strlen(text)) ? PY_USER : PY_OTHER;
	}
	return ctx->python_kind[r];
}

void gp_opattr_kernel(gp_opattr *ctx, gp_trace *t, size_t k, const int32_t *stack, int n,
		      struct gp_attr *a)
{
	const struct gp_kernel *kr = &t->kernels.v[k];
	int32_t st[MAX_STACK], gst[MAX_STACK];
	int ns = 0, ng;
	uint64_t ext = kr->ext_id;
	char layer[1024] = "", modules[1024] = "", site[512], seqs[256];

	a->seq = -1;
	a->iter = -1;
	a->fwd = -1;
	a->dir = GP_DIR_NA;
	if (!ext && a->api >= 0 && (size_t)a->api < t->apis.n)
		ext = t->apis.v[a->api].ext_id;

	/* The External id names the op when it is one of the ranges around the
	** launch, or when there is no such stack.  It can be wrong (PARAM
	** traces write the correlation id there), so a stack without it wins. */
	int32_t xr = ext ? gp_u64map_get(&ctx->ext, ext) : -1;
	if (xr >= 0 && in_stack(stack, n, xr)) {
		for (int i = 0; i < n && i < MAX_STACK; i++) {
			st[ns++] = stack[i];
			if (stack[i] == xr)
				break;
		}
	} else if (n > 0) {
		for (int i = 0; i < n && i < MAX_STACK; i++)
			st[ns++] = stack[i];
	} else if (xr >= 0) {
		int32_t tmp[MAX_STACK], m = 0;
		for (int32_t r = xr; r >= 0 && m < MAX_STACK; r = t->ranges.v[r].parent)
			tmp[m++] = r;
		while (m)
			st[ns++] = tmp[--m];
	}

	int32_t top = -1, inner = -1, python = -1, args_op = -1;
	for (int i = 0; i < ns; i++) {
		const struct gp_range *r = &t->ranges.v[st[i]];
		const char *text = gp_s(t, r->text);
		int32_t it;
		switch (r->kind) {
		case GP_RANGE_CPU_OP:
			if (top < 0)
				top = st[i];
			inner = st[i];
			if (gp_range_op_ext(t, r) && gp_range_op_ext(t, r)->input_dims)
				args_op = st[i];
			break;
		case GP_RANGE_USER_ANNOTATION:
			if (is_step(text, &it))
				a->iter = it;
			else
				path_add(layer, sizeof(layer), GP_LAYER_SEP, text);
			break;
		case GP_RANGE_PYTHON:
			switch (python_kind(ctx, t, st[i])) {
			case PY_MODULE:
				path_add(modules, sizeof(modules), GP_LAYER_SEP, gp_marker_module(text));
				break;
			case PY_USER:
				python = st[i];
				break;
			}
			break;
		}
	}
	/* with_modules=True: the nn.Module events around the launch are the
	** layer, unless the user's own annotations name one */
	if (!layer[0])
		memcpy(layer, modules, sizeof(layer));

	/* on the GPU side, annotations give the layer and step when the CPU side
	** did not */
	ng = gpu_stack(ctx, t, kr, gst, MAX_STACK);
	bool cpu_layer = layer[0] != '\0';   /* the whole GPU path, or none of it */
	for (int i = 0; i < ng; i++) {
		const char *text = gp_s(t, t->ranges.v[gst[i]].text);
		int32_t it;
		if (is_step(text, &it)) {
			if (a->iter < 0)
				a->iter = it;
		} else if (!cpu_layer) {
			path_add(layer, sizeof(layer), GP_LAYER_SEP, text);
		}
	}
	a->layer = gp_intern(t, layer);
	if (a->iter < 0 && a->api >= 0 && (size_t)a->api < t->apis.n)
		a->iter = step_at(ctx, t->apis.v[a->api].pid, t->apis.v[a->api].start);
	else if (a->iter < 0 && ns > 0)
		a->iter = step_at(ctx, t->ranges.v[st[ns - 1]].pid, t->ranges.v[st[ns - 1]].start);

	if (python >= 0) {
		const char *f = gp_s(t, t->ranges.v[python].text);
		if (frame_site(f, strlen(f), site, sizeof(site)))
			a->trace = gp_intern(t, site);
	}

	if (inner < 0) {   /* not attributed to any op: the pass an annotation names */
		a->dir = (uint8_t)gp_layer_path_pass(layer);
		return;
	}
	ctx->op_range[k] = inner;
	const struct gp_range *ir = &t->ranges.v[inner];
	a->marker = ir->text;
	a->op = op_name_of(ctx, t, ir->text);
	a->mod = op_name_of(ctx, t, t->ranges.v[top].text);
	if (!a->trace)
		for (int i = ns - 1; i >= 0 && !a->trace; i--) {
			const struct gp_range *r = &t->ranges.v[st[i]];
			const struct gp_op_ext *x = gp_range_op_ext(t, r);
			if (r->kind == GP_RANGE_CPU_OP && x && x->call_stack)
				a->trace = call_stack_site_of(ctx, t, x->call_stack);
		}

	/* direction and sequence number: the innermost backward op decides;
	** otherwise the innermost op with a sequence number (the one autograd
	** recorded, whose number the backward op will carry) */
	a->dir = GP_DIR_FPROP;
	for (int i = ns - 1; i >= 0; i--) {
		const struct gp_range *r = &t->ranges.v[st[i]];
		if (r->kind != GP_RANGE_CPU_OP)
			continue;
		int64_t s = gp_range_op_ext(t, r) ? gp_range_op_ext(t, r)->seq : -1;
		if (is_backward_op(t, r) && (s >= 0 || a->dir != GP_DIR_BPROP)) {
			a->dir = GP_DIR_BPROP;
			if (s >= 0) {
				a->seq = s;
				break;
			}
		}
	}
	if (a->dir == GP_DIR_FPROP)
		for (int i = ns - 1; i >= 0 && a->seq < 0; i--) {
			const struct gp_range *r = &t->ranges.v[st[i]];
			const struct gp_op_ext *x = gp_range_op_ext(t, r);
			if (r->kind == GP_RANGE_CPU_OP && x && x->seq >= 0)
				a->seq = x->seq;
		}

	/* every sequence number in the stack, ascending and distinct */
	int64_t all[32];
	int na = 0;
	for (int i = 0; i < ns && na < 32; i++) {
		const struct gp_range *r = &t->ranges.v[st[i]];
		const struct gp_op_ext *x = gp_range_op_ext(t, r);
		if (r->kind != GP_RANGE_CPU_OP || !x || x->seq < 0)
			continue;
		int64_t s = x->seq;
		int j = na;
		while (j > 0 && all[j - 1] > s)
			j--;
		if (j > 0 && all[j - 1] == s)
			continue;
		memmove(all + j + 1, all + j, sizeof(all[0]) * (size_t)(na - j));
		all[j] = s;
		na++;
	}
	if (na == 1 && all[0] == a->seq) {
		a->seq_is_list = 1;
	} else {
		gp_fmt_i64_list(seqs, sizeof(seqs), all, (size_t)na);
		a->seq_list = gp_intern(t, seqs);
	}

	if (args_op >= 0)
		op_args(ctx, t, args_op, &a->args_first, &a->args_count);
}

void gp_opattr_end(gp_opattr *ctx, gp_trace *t)
{
	uint32_t *count;
	gp_u64map fwd = {0};

	if (!ctx)
		return;
	/* what the pass below does not use goes first: the External id map
	** and the per-op arrays beside the maps below were the peak of a
	** Kineto read's memory */
	gp_u64map_free(&ctx->ext);
	gp_u64map_free(&ctx->args_seen);
	gp_u64map_free(&ctx->parsed);
	free(ctx->python_kind);
	gp_u64map_free(&ctx->op_names);
	gp_u64map_free(&ctx->stack_sites);
	gp_vec_free(ctx->parses);
	free(ctx->args_first);
	free(ctx->args_count);
	free(ctx->gpu);
	free(ctx->gpu_par);
	free(ctx->steps);
	count = gp_xcalloc(t->ranges.n ? t->ranges.n : 1, sizeof(*count));
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_attr *a = &t->attrs[k];
		int32_t r = ctx->op_range[k];

		if (r >= 0)
			a->sub = (int32_t)count[r]++;
		if (a->seq < 0)
			continue;
		if (a->dir == GP_DIR_FPROP) {
			gp_u64map_put(&fwd, (uint64_t)a->seq, (int32_t)k);
			continue;
		}
		int32_t f = gp_u64map_get(&fwd, (uint64_t)a->seq);
		if (a->dir != GP_DIR_BPROP || f < 0)
			continue;
		const struct gp_attr *fa = &t->attrs[f];
		a->fwd = f;
		a->mod = fa->mod;
		if (!a->layer)
			a->layer = fa->layer;
		if (!a->trace)
			a->trace = fa->trace;
		if (a->iter < 0)
			a->iter = fa->iter;
	}
	free(count);
	gp_u64map_free(&fwd);
	free(ctx->op_range);
	free(ctx);
}
