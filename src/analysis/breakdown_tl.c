/*
** TraceLens's gpu_timeline; see breakdown_tl.h and docs/breakdown.md
** ("--as tracelens").
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown_hta.h"
#include "analysis/breakdown_tl.h"
#include "util/alloc.h"
#include "util/u64map.h"

const char *const gp_tl_row_names[GP_TL__COUNT] = {
	"computation_time", "exposed_comm_time", "exposed_memcpy_time", "busy_time", "idle_time", "total_time",
	"total_comm_time", "total_memcpy_time",
};

/* A GPU event as TraceLens holds it: float microseconds, its kind. */
enum { TL_COMP, TL_COMM, TL_MEMCPY };
struct iv {
	double start, end;
	uint8_t kind;
};
typedef GP_VEC(struct iv) ivs;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Whether TraceLens's tree links GPU work with correlation corr to its
** launch call api (an index, -1 when the trace has none). */
static bool linked(const gp_trace *t, int32_t api, uint64_t corr)
{
	if (api < 0 || (size_t)api >= t->apis.n)
		return false;
	const char *name = gp_s(t, gp_api_def(t, &t->apis.v[api])->name);
	if (strcmp(name, "cudaGraphLaunch") == 0 || strcmp(name, "hipGraphLaunch") == 0)
		return true;
	/* a format without launch flows (nsys, rocprofv3): the call links */
	if (!t->has_launch_flows)
		return true;
	return t->launch_flows.n &&
	       bsearch(&corr, t->launch_flows.v, t->launch_flows.n, sizeof(uint64_t), cmp_u64) != NULL;
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct iv *a = pa, *b = pb;

	return (a->start > b->start) - (a->start < b->start);
}

/* merge_intervals over the events of kind (all kinds when kind < 0), in
** start order (a stable sort by start, as Python's sorted with key=start:
** equal starts keep their order, which the merge does not depend on). */
static void merge(const ivs *all, int kind, ivs *out)
{
	out->n = 0;
	for (size_t i = 0; i < all->n; i++) {
		const struct iv *x = &all->v[i];
		if (kind >= 0 && x->kind != kind)
			continue;
		if (out->n && x->start <= out->v[out->n - 1].end) {
			if (x->end > out->v[out->n - 1].end)
				out->v[out->n - 1].end = x->end;
		} else {
			*gp_vec_push(*out) = (struct iv){x->start, x->end, 0};
		}
	}
}

/* subtract_intervalsA_from_B: the parts of b (merged, sorted) outside a. */
static void subtract(const ivs *a, const ivs *b, ivs *out)
{
	size_t ai = 0;

	out->n = 0;
	for (size_t i = 0; i < b->n; i++) {
		double bs = b->v[i].start, be = b->v[i].end, cur = bs;
		while (ai < a->n && a->v[ai].end <= bs)
			ai++;
		for (size_t j = ai; j < a->n && a->v[j].start < be; j++) {
			if (a->v[j].start > cur)
				*gp_vec_push(*out) = (struct iv){cur, be < a->v[j].start ? be : a->v[j].start, 0};
			if (a->v[j].end > cur)
				cur = a->v[j].end;
			if (cur >= be)
				break;
		}
		if (cur < be)
			*gp_vec_push(*out) = (struct iv){cur, be, 0};
	}
}

/* sum(end - start) in order, in float64 as Python sums. */
static double total(const ivs *v)
{
	double s = 0;

	for (size_t i = 0; i < v->n; i++)
		s += v->v[i].end - v->v[i].start;
	return s;
}

static void add(ivs *all, gp_ns base, gp_ns start, gp_ns end, uint8_t kind)
{
	double s = gp_bd_file_us(start, base);

	*gp_vec_push(*all) = (struct iv){s, s + (double)(end - start) / 1000.0, kind};
}

/* Whether a copy or memset with correlation id corr counts (its call is
** found by corr); out->unlinked counts those that do not. */
static bool counted(const gp_trace *t, const gp_u64map *api_of_corr, uint64_t corr, bool unlinked,
		    struct gp_tl_timeline *out)
{
	if (unlinked || linked(t, corr ? gp_u64map_get(api_of_corr, corr) : -1, corr))
		return true;
	out->unlinked++;
	return false;
}

void gp_tl_timeline(const gp_trace *t, bool unlinked, struct gp_tl_timeline *out)
{
	const char *b = gp_trace_meta_get(t, "base_time_ns");
	gp_ns base = b ? strtoll(b, NULL, 10) : 0;
	gp_u64map api_of_corr = {0};
	ivs all = {0}, comp = {0}, comm = {0}, mem = {0}, merged = {0}, tmp = {0}, tmp2 = {0};

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < t->apis.n; i++)
		if (t->apis.v[i].corr)
			gp_u64map_add(&api_of_corr, t->apis.v[i].corr, (int32_t)i);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		if (!unlinked && !linked(t, t->attrs ? t->attrs[k].api : -1, kr->corr)) {
			out->unlinked++;
			continue;
		}
		const char *name = gp_s(t, gp_kernel_long_name_of(t, kr));
		add(&all, base, kr->start, kr->end,
		    strstr(name, "nccl") || strstr(name, "deep_ep") ? TL_COMM : TL_COMP);
	}
	for (size_t i = 0; i < t->memcpys.n; i++) {
		const struct gp_memcpy *c = &t->memcpys.v[i];
		if (counted(t, &api_of_corr, c->corr, unlinked, out))
			add(&all, base, c->start, c->end, TL_MEMCPY);
	}
	for (size_t i = 0; i < t->memsets.n; i++) {
		const struct gp_memset *m = &t->memsets.v[i];
		if (counted(t, &api_of_corr, m->corr, unlinked, out))
			add(&all, base, m->start, m->end, TL_COMP);
	}
	out->events = all.n;
	if (all.n) {
		gp_vec_sort(all, cmp_start);
		merge(&all, TL_COMP, &comp);
		merge(&all, TL_COMM, &comm);
		merge(&all, TL_MEMCPY, &mem);
		merge(&all, -1, &merged);
		double *us = out->us;
		us[GP_TL_TOTAL] = merged.v[merged.n - 1].end - merged.v[0].start;
		us[GP_TL_COMPUTATION] = total(&comp);
		us[GP_TL_TOTAL_COMM] = total(&comm);
		subtract(&comp, &comm, &tmp);
		us[GP_TL_EXPOSED_COMM] = total(&tmp);
		us[GP_TL_TOTAL_MEMCPY] = total(&mem);
		subtract(&comp, &mem, &tmp);
		subtract(&comm, &tmp, &tmp2);
		us[GP_TL_EXPOSED_MEMCPY] = total(&tmp2);
		us[GP_TL_BUSY] = total(&merged);
		us[GP_TL_IDLE] = us[GP_TL_TOTAL] - us[GP_TL_BUSY];
	}
	gp_u64map_free(&api_of_corr);
	gp_vec_free(all);
	gp_vec_free(comp);
	gp_vec_free(comm);
	gp_vec_free(mem);
	gp_vec_free(merged);
	gp_vec_free(tmp);
	gp_vec_free(tmp2);
}
