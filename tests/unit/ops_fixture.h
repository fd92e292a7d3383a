/*
** Test fixture for the op model and advise: builds a gp_trace in C (kernels
** with attributed ops and arguments) without any reader.  Header-only, used
** by tests/unit/test_ops*.c.
**
** Ownership: fx_done() hands attrs to the trace; fx_free() frees all, the
** op model fx_ops() ran too.
*/
#ifndef GP_OPS_FIXTURE_H
#define GP_OPS_FIXTURE_H

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "model/trace.h"
#include "ops/ops.h"

struct fx {
	gp_trace t;
	GP_VEC(struct gp_attr) attrs;
	gp_ns now;
	struct gp_ops ops;      /* fx_ops()'s */
};

static inline void fx_init(struct fx *f)
{
	memset(f, 0, sizeof(*f));
	gp_trace_init(&f->t);
	f->now = 1000000;
}

/* Adds a kernel of dur ns (starting after the previous one plus gap ns)
** attributed to mod/op (NULL = none); returns its index. */
/* Gives kernel k a grid of x x 1 x 1 blocks. */
static inline void fx_grid(struct fx *f, size_t k, uint32_t x)
{
	struct gp_kernel_def d = *gp_kernel_def(&f->t, &f->t.kernels.v[k]);

	d.grid[0] = x;
	f->t.kernels.v[k].def = gp_kernel_def_add(&f->t, &d);
}

static inline size_t fx_kernel_at(struct fx *f, const char *name, gp_ns gap, gp_ns dur,
				  const char *mod, const char *op, int dir, int sub)
{
	struct gp_kernel *k = gp_vec_push(f->t.kernels);
	struct gp_attr *a = gp_vec_push(f->attrs);

	f->now += gap;
	k->start = f->now;
	k->end = f->now + dur;
	f->now = k->end;
	gp_str id = gp_intern(&f->t, name);
	k->def = gp_kernel_def_add(&f->t, &(struct gp_kernel_def){
		.name = id, .demangled = id, .block = {128, 1, 1}, .grid = {1024, 1, 1}});
	k->stream = 7;
	a->api = -1;
	a->seq = -1;
	a->iter = -1;
	a->fwd = -1;
	a->mod = gp_intern(&f->t, mod);
	a->op = gp_intern(&f->t, op);
	a->dir = (uint8_t)dir;
	a->sub = sub;
	a->args_first = (uint32_t)f->t.args.n;
	return f->t.kernels.n - 1;
}

static inline size_t fx_kernel(struct fx *f, const char *name, const char *mod, const char *op,
			       int dir, int sub)
{
	return fx_kernel_at(f, name, 1000, 10000, mod, op, dir, sub);
}

static inline struct gp_arg *fx_arg(struct fx *f, int type, const char *name)
{
	struct gp_arg *g = gp_vec_push(f->t.args);

	g->type = (uint8_t)type;
	g->name = gp_intern(&f->t, name);
	f->attrs.v[f->attrs.n - 1].args_count++;
	return g;
}

/* Tensor argument of the last kernel: ndim dims follow. */
static inline void fx_tensor(struct fx *f, enum gp_dtype dt, int ndim, ...)
{
	struct gp_arg *g = fx_arg(f, GP_ARG_TENSOR, NULL);
	va_list ap;

	g->dtype = (uint8_t)dt;
	g->ndim = (uint8_t)ndim;
	va_start(ap, ndim);
	for (int i = 0; i < ndim; i++)
		g->shape[i] = va_arg(ap, int64_t);
	va_end(ap);
}

/* Scalar (INT, FLOAT, BOOL) argument, optionally named. */
static inline void fx_scalar(struct fx *f, int type, const char *name, double v)
{
	fx_arg(f, type, name)->value = v;
}

static inline void fx_str(struct fx *f, const char *name, const char *v)
{
	fx_arg(f, GP_ARG_STR, name)->sval = gp_intern(&f->t, v);
}

/* List of ints (tuple) argument: n values follow. */
static inline void fx_list(struct fx *f, const char *name, int n, ...)
{
	struct gp_arg *g = fx_arg(f, GP_ARG_LIST, name);
	va_list ap;

	g->ndim = (uint8_t)n;
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		g->shape[i] = va_arg(ap, int64_t);
	va_end(ap);
}

/* Adds the call that launched kernel k: a cudaLaunchKernel of dur ns on
** thread 1 of process 0 (the kernels'), returning before ns before the kernel starts
** (calls must be added in time order, as readers sort them); returns the
** call's index. */
static inline size_t fx_launch(struct fx *f, size_t k, gp_ns before, gp_ns dur)
{
	struct gp_api *a = gp_vec_push(f->t.apis);

	a->end = f->t.kernels.v[k].start - before;
	a->start = a->end - dur;
	a->tid = 1;
	a->corr = k + 1;
	a->def = gp_api_def_add(&f->t, &(struct gp_api_def){
		.name = gp_intern(&f->t, "cudaLaunchKernel"), .cbid = -1});
	f->t.kernels.v[k].corr = k + 1;
	f->attrs.v[k].api = (int32_t)(f->t.apis.n - 1);
	return f->t.apis.n - 1;
}

/* Adds a call of name on thread 1 of process 0 (the kernels') over [start, end). */
static inline size_t fx_call(struct fx *f, const char *name, gp_ns start, gp_ns end)
{
	struct gp_api *a = gp_vec_push(f->t.apis);

	a->start = start;
	a->end = end;
	a->tid = 1;
	a->def = gp_api_def_add(&f->t, &(struct gp_api_def){.name = gp_intern(&f->t, name), .cbid = -1});
	return f->t.apis.n - 1;
}

static inline void fx_device(struct fx *f, const char *name, int sms)
{
	struct gp_device *d = gp_vec_push(f->t.devices);

	d->id = 0;
	d->name = gp_intern(&f->t, name);
	d->sm_count = sms;
}

/* Hands the attrs built so far to the trace (once; later calls keep them). */
static inline void fx_done(struct fx *f)
{
	if (!f->attrs.v)
		return;
	free(f->t.attrs);
	f->t.attrs = f->attrs.v;
	f->attrs.v = NULL;
	f->attrs.n = f->attrs.cap = 0;
}

/* Runs the op model over f's trace with peaks po (NULL: the trace's GPU)
** into f->ops, replacing an earlier run; returns its per-kernel results. */
static inline struct gp_opres *fx_ops(struct fx *f, const struct gp_peak_opts *po)
{
	gp_ops_free(&f->ops);
	gp_ops_run(&f->t, po, &f->ops);
	return f->ops.r;
}

static inline void fx_free(struct fx *f)
{
	gp_ops_free(&f->ops);
	gp_vec_free(f->attrs);
	gp_trace_free(&f->t);
}

#define D(x) ((int64_t)(x))

#endif
