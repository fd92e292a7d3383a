/*
** HTA's view of the time breakdown; see breakdown_hta.h and
** docs/breakdown.md ("--as hta").
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown_hta.h"
#include "util/sort.h"

/* Whether x - base is a whole number of microseconds. */
static bool whole_us(gp_ns x, gp_ns base)
{
	return (x - base) % 1000 == 0;
}

double gp_bd_file_us(gp_ns x, gp_ns base)
{
	gp_ns r = x - base, q = r / 1000, f = r % 1000;

	if (f < 0) {
		f += 1000;
		q--;
	}
	return (double)q + (double)f / 1000.0;
}

/* HTA's rounded start of [start, end): ceil(ts), in ns of the model. */
static gp_ns start_us(gp_ns start, gp_ns base)
{
	return base + (gp_ns)ceil(gp_bd_file_us(start, base)) * 1000;
}

/* HTA's rounded end of [start, end): floor(ts + dur), computed in float64
** as HTA does (the sum's rounding can cross a microsecond). */
static gp_ns end_us(gp_ns start, gp_ns end, gp_ns base)
{
	return base + (gp_ns)floor(gp_bd_file_us(start, base) + (double)(end - start) / 1000.0) * 1000;
}

/* HTA 0.6.1 reads a trace whose "ts" are not all integers (a float
** column) by rounding every event inward to whole microseconds: start up
** (ceil ts), end down (floor ts + dur), so an event shorter than the
** microsecond boundaries it spans gets a negative duration.  Sets
** h->round when some record of the trace starts at a fraction of a
** microsecond (of the file's time base). */
static void detect_rounding(struct gp_bd_hta *h)
{
	const gp_trace *t = h->t;
	const char *base = gp_trace_meta_get(t, "base_time_ns");

	h->base = base ? strtoll(base, NULL, 10) : 0;
#define FRACTION(vec)                                                               \
	for (size_t i = 0; i < t->vec.n && !h->round; i++)                          \
		h->round = !whole_us(t->vec.v[i].start, h->base);
	FRACTION(kernels)
	FRACTION(memcpys)
	FRACTION(memsets)
	FRACTION(apis)
	FRACTION(ranges)
#undef FRACTION
}

/* HTA's cut of the last iteration (TraceCollection._filter_irrelevant_gpu_
** kernels): with two or more distinct ProfilerStep names among its events
** (a GPU-side gpu_user_annotation "ProfilerStep#N" is one of its CPU
** events: no stream, no correlation), it keeps the GPU work whose launch
** call started before the latest start of those ProfilerStep events;
** with one name or none it keeps all GPU work.  Also a map from
** correlation id to API call for the copies and memsets, which the
** correlation pass does not link. */
void gp_bd_hta_begin(struct gp_bd_hta *h, const gp_trace *t)
{
	gp_u64map names = {0};
	size_t distinct = 0;

	memset(h, 0, sizeof(*h));
	h->t = t;
	detect_rounding(h);
	h->cutoff = INT64_MIN;
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (!strstr(gp_s(t, r->text), "ProfilerStep"))
			continue;
		if (gp_u64map_get(&names, r->text) < 0) {
			gp_u64map_put(&names, r->text, 1);
			distinct++;
		}
		/* HTA compares its rounded times when it rounds */
		gp_ns start = gp_bd_clamp(r->start);
		if (h->round)
			start = start_us(start, h->base);
		if (start > h->cutoff)
			h->cutoff = start;
	}
	gp_u64map_free(&names);
	h->no_steps = distinct <= 1;
	for (size_t i = 0; i < t->apis.n; i++)
		if (t->apis.v[i].corr)
			gp_u64map_add(&h->api_of_corr, t->apis.v[i].corr, (int32_t)i);
}

bool gp_bd_hta_keep(const struct gp_bd_hta *h, int32_t kernel, uint64_t corr, gp_ns *launch)
{
	const gp_trace *t = h->t;
	int32_t api = -1;

	if (kernel >= 0)
		api = t->attrs ? t->attrs[kernel].api : -1;
	else if (corr)
		api = gp_u64map_get(&h->api_of_corr, corr);
	*launch = api >= 0 && (size_t)api < t->apis.n ? gp_bd_clamp(t->apis.v[api].start) : INT64_MIN;
	if (h->no_steps)
		return true;
	if (*launch == INT64_MIN)
		return false;
	gp_ns at = h->round ? start_us(*launch, h->base) : *launch;
	return at < h->cutoff;
}

void gp_bd_hta_round(const struct gp_bd_hta *h, gp_ns *start, gp_ns *end, gp_ns *launch, gp_ns *hta_end)
{
	*hta_end = *end;
	if (!h->round)
		return;
	*hta_end = end_us(*start, *end, h->base);
	*start = start_us(*start, h->base);
	*end = *hta_end > *start ? *hta_end : *start;
	if (*launch != INT64_MIN)
		*launch = start_us(*launch, h->base);
}

void gp_bd_hta_add(struct gp_bd_hta *h, int32_t device, uint32_t stream, gp_ns start, gp_ns hta_end,
		   gp_ns launch, unsigned kind)
{
	uint64_t key = (uint64_t)(uint32_t)device << 32 | stream;
	int32_t i = gp_u64map_add(&h->at, key, (int32_t)h->streams.n);
	struct gp_bd_hta_stream *st;
	gp_ns gap;
	int cat;

	if ((size_t)i == h->streams.n) {
		st = gp_vec_push(h->streams);
		memset(st, 0, sizeof(*st));
		st->device = device;
		st->stream = stream;
		st->prev_end = INT64_MIN;
	}
	/* the idle category of the gap before it on its stream */
	st = &h->streams.v[i];
	if (st->prev_end != INT64_MIN) {
		gap = start - st->prev_end;
		cat = launch > st->prev_end ? GP_HTA_HOST_WAIT : gap < 30000 ? GP_HTA_KERNEL_WAIT : GP_HTA_OTHER;
		st->idle[cat] += gap;
		st->n[cat]++;
	}
	st->prev_end = hta_end;
	*gp_vec_push(h->iv) = (struct gp_bd_hta_iv){device, start, hta_end, kind};
}

static int cmp_hta_iv(const void *pa, const void *pb)
{
	const struct gp_bd_hta_iv *a = pa, *b = pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return (a->end > b->end) - (a->end < b->end);
}

/* A merged interval of HTA's merge_kernel_intervals. */
struct hta_group {
	gp_ns start, end;
};
typedef GP_VEC(struct hta_group) hta_groups;

/* HTA's merge_kernel_intervals over v[0..n) (by start, then end) of the
** kinds in mask: a row starts a new group when it starts after the
** largest end of all rows before it, else joins the group (start = the
** smallest, end = the largest); into *g.  Returns the sum of group end -
** start (negative groups included, as HTA sums them). */
static gp_ns hta_merge(const struct gp_bd_hta_iv *v, size_t n, unsigned mask, hta_groups *g)
{
	gp_ns run = 0, cummax = 0;
	bool any = false;

	g->n = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i].kind & mask))
			continue;
		if (!any || v[i].start > cummax) {
			*gp_vec_push(*g) = (struct hta_group){v[i].start, v[i].end};
		} else {
			struct hta_group *last = &g->v[g->n - 1];
			if (v[i].end > last->end)
				last->end = v[i].end;
		}
		cummax = !any || v[i].end > cummax ? v[i].end : cummax;
		any = true;
	}
	for (size_t i = 0; i < g->n; i++)
		run += g->v[i].end - g->v[i].start;
	return run;
}

/* A boundary of a merged group, for the overlap sweep: time, the change of
** the running status (communication +-1, compute +-2) and its place in
** HTA's list (communication starts, their ends, compute starts, ends). */
struct hta_edge {
	gp_ns at;
	int delta;
	size_t order;
};

static int cmp_hta_edge(const void *pa, const void *pb)
{
	const struct hta_edge *a = pa, *b = pb;

	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

/* get_comm_comp_overlap's numerator: the time the running status of the
** merged communication (comm) and compute (comp) groups is 3, each edge
** to the next one in time order. */
static gp_ns hta_overlap(const hta_groups *comm, const hta_groups *comp)
{
	size_t n = 2 * (comm->n + comp->n), k = 0;
	struct hta_edge *e = gp_xmalloc((n ? n : 1) * sizeof(*e));
	gp_ns sum = 0;
	int running = 0;

	for (size_t i = 0; i < comm->n; i++, k++)
		e[k] = (struct hta_edge){comm->v[i].start, 1, k};
	for (size_t i = 0; i < comm->n; i++, k++)
		e[k] = (struct hta_edge){comm->v[i].end, -1, k};
	for (size_t i = 0; i < comp->n; i++, k++)
		e[k] = (struct hta_edge){comp->v[i].start, 2, k};
	for (size_t i = 0; i < comp->n; i++, k++)
		e[k] = (struct hta_edge){comp->v[i].end, -2, k};
	gp_sort(e, n, sizeof(*e), cmp_hta_edge);
	for (size_t i = 0; i < n; i++) {
		running += e[i].delta;
		if (running == 3 && i + 1 < n)
			sum += e[i + 1].at - e[i].at;
	}
	free(e);
	return sum;
}

/* HTA's temporal breakdown and overlap per device from h->iv. */
static void devices(struct gp_bd_hta *h, gp_breakdown *b, size_t ndev)
{
	hta_groups all = {0}, comp = {0}, comm = {0};
	struct gp_bd_hta_iv *v = h->iv.v;
	size_t n = h->iv.n;

	gp_vec_sort(h->iv, cmp_hta_iv);
	b->hta_dev = gp_xcalloc(ndev ? ndev : 1, sizeof(*b->hta_dev));
	for (size_t i = 0, j; i < n; i = j) {
		struct gp_bd_hta_device *d = &b->hta_dev[b->nhta_dev++];
		for (j = i; j < n && v[j].device == v[i].device; j++)
			;
		gp_ns run = hta_merge(v + i, j - i, GP_BD_COMPUTE | GP_BD_COMM | GP_BD_MEMORY, &all);
		d->device = v[i].device;
		d->kernel_time = all.v[all.n - 1].end - all.v[0].start;
		d->idle = d->kernel_time - run;
		d->compute = hta_merge(v + i, j - i, GP_BD_COMPUTE, &comp);
		d->comm = hta_merge(v + i, j - i, GP_BD_COMM, &comm);
		d->comm_overlap = hta_overlap(&comm, &comp);
	}
	gp_vec_free(all);
	gp_vec_free(comp);
	gp_vec_free(comm);
}

static int cmp_hta(const void *pa, const void *pb)
{
	const struct gp_bd_hta_stream *a = pa, *b = pb;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	return (a->stream > b->stream) - (a->stream < b->stream);
}

void gp_bd_hta_finish(struct gp_bd_hta *h, gp_breakdown *b, size_t ndev)
{
	gp_vec_sort(h->streams, cmp_hta);
	b->hta = h->streams.v;
	b->nhta = h->streams.n;
	h->streams.v = NULL;
	h->streams.n = h->streams.cap = 0;
	devices(h, b, ndev);
}

void gp_bd_hta_free(struct gp_bd_hta *h)
{
	gp_vec_free(h->streams);
	gp_vec_free(h->iv);
	gp_u64map_free(&h->api_of_corr);
	gp_u64map_free(&h->at);
}
