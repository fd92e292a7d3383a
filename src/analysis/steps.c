/*
** The run's steps, one definition for every command; see steps.h.  One
** pass over the ranges finds them, one over the kernels gives each its
** GPU span (a binary search of its launch among the steps).
*/
#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "model/window.h"
#include "util/alloc.h"
#include "util/u64map.h"
#include "util/stats.h"

bool gp_step_kind(const struct gp_range *r)
{
	return r->kind == GP_RANGE_USER_ANNOTATION || r->kind == GP_RANGE_PUSHPOP ||
	       r->kind == GP_RANGE_STARTEND || r->kind == GP_RANGE_OTHER;
}

/* The number of each range of t that marks an iteration, -1 for the
** others: by its text, else by its order on its thread (ranges are sorted
** by thread, then start), as the correlation numbers them. */
static int32_t *iteration_numbers(const gp_trace *t)
{
	int32_t *num = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*num));
	int32_t next = 0;
	int64_t x;

	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (i == 0 || gp_thread_cmp(r->pid, r->tid, t->ranges.v[i - 1].pid, t->ranges.v[i - 1].tid))
			next = 0;
		num[i] = -1;
		if (gp_step_kind(r) && r->end >= r->start && gp_iteration_text(gp_s(t, r->text), &x) &&
		    x <= INT32_MAX) {
			num[i] = x >= 0 ? (int32_t)x : next;
			next = num[i] + 1;
		}
	}
	return num;
}

/* The process marking the most iterations (the first such by pid). */
static uint32_t steps_pid(const gp_trace *t, const int32_t *num)
{
	gp_u64map count = {0};
	uint32_t best = 0;
	int32_t most = 0;

	for (size_t i = 0; i < t->ranges.n; i++) {
		if (num[i] < 0)
			continue;
		uint32_t pid = t->ranges.v[i].pid;
		int32_t c = gp_u64map_get(&count, pid);
		c = c < 0 ? 1 : c + 1;
		gp_u64map_put(&count, pid, c);
		if (c > most || (c == most && pid < best)) {
			most = c;
			best = pid;
		}
	}
	gp_u64map_free(&count);
	return best;
}

static int by_start(const void *a, const void *b)
{
	const struct gp_step *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->iter > y->iter) - (x->iter < y->iter);
}

ptrdiff_t gp_step_at(const struct gp_steps *s, gp_ns x)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->v[mid].start <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (ptrdiff_t)lo - 1;
}

/* The step kernel k of t belongs to: the one its launch lies in, else
** (no launch known) the one the correlation put it in; -1 for none. */
static ptrdiff_t step_of_kernel(const gp_trace *t, const struct gp_steps *s, const gp_u64map *by_iter,
				uint32_t pid, size_t k)
{
	const struct gp_attr *a = t->attrs ? &t->attrs[k] : NULL;

	if (a && a->api >= 0 && (size_t)a->api < t->apis.n) {
		const struct gp_api *api = &t->apis.v[a->api];
		return api->pid == pid ? gp_step_at(s, api->start) : -1;
	}
	if (a && a->iter >= 0)
		return gp_u64map_get(by_iter, (uint32_t)a->iter);
	return -1;
}

/* The median of the n values at v (sorted in place); 0 when n is 0. */
static gp_ns median_of(int64_t *v, size_t n)
{
	struct gp_stats st;

	if (!n)
		return 0;
	gp_stats_compute(v, n, &st);
	return (gp_ns)st.med;
}

void gp_steps_find(const gp_trace *t, struct gp_steps *s)
{
	int32_t *num = iteration_numbers(t);
	uint32_t pid = steps_pid(t, num);
	GP_VEC(struct gp_step) v = {0};
	gp_u64map by_iter = {0}, seen = {0};
	uint8_t *in_window = NULL;
	gp_ns *own_end;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		if (num[i] < 0 || r->pid != pid || gp_u64map_get(&seen, (uint32_t)num[i]) >= 0)
			continue;
		gp_u64map_put(&seen, (uint32_t)num[i], 0);
		gp_ns own = r->flags & GP_RANGE_F_UNCLOSED ? r->start : r->end;
		/* its own end until the kernels say later */
		*gp_vec_push(v) = (struct gp_step){.iter = num[i], .start = r->start, .end = own, .range_end = own};
	}
	free(num);
	gp_u64map_free(&seen);
	if (!v.n)
		return;
	gp_vec_sort(v, by_start);
	s->v = v.v;
	s->n = v.n;
	for (size_t i = 0; i < s->n; i++)
		gp_u64map_put(&by_iter, (uint32_t)s->v[i].iter, (int32_t)i);
	if (t->windowed)
		in_window = gp_xcalloc(s->n, 1);
	own_end = gp_xmalloc(s->n * sizeof(*own_end));
	s->kernel_iter = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(*s->kernel_iter));
	for (size_t i = 0; i < s->n; i++)
		own_end[i] = s->v[i].end;
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		ptrdiff_t i = step_of_kernel(t, s, &by_iter, pid, k);
		s->kernel_iter[k] = i < 0 ? -1 : s->v[i].iter;
		if (i < 0)
			continue;
		struct gp_step *x = &s->v[i];
		if (x->gpu_end == 0 && x->gpu_start == 0) {
			x->gpu_start = kr->start;
			x->gpu_end = kr->end;
		}
		x->gpu_start = kr->start < x->gpu_start ? kr->start : x->gpu_start;
		x->gpu_end = kr->end > x->gpu_end ? kr->end : x->gpu_end;
		own_end[i] = kr->end > own_end[i] ? kr->end : own_end[i];
		if (in_window)
			in_window[i] = 1;
	}
	/* each step to the next one's start; the last to its own work's end;
	** in a window, where the whole trace's step ended (the cut may have
	** dropped the next step) */
	for (size_t i = 0; i < s->n; i++)
		s->v[i].end = i + 1 < s->n ? s->v[i + 1].start : own_end[i];
	free(own_end);
	gp_u64map_free(&by_iter);
	if (t->windowed && t->window_step_ends.n) {
		gp_u64map whole = {0};
		for (size_t i = 0; i < t->window_step_ends.n; i++)
			gp_u64map_put(&whole, (uint32_t)t->window_step_ends.v[i].iter, (int32_t)i);
		for (size_t i = 0; i < s->n; i++) {
			int32_t j = gp_u64map_get(&whole, (uint32_t)s->v[i].iter);
			if (j >= 0 && t->window_step_ends.v[j].end > s->v[i].start)
				s->v[i].end = t->window_step_ends.v[j].end;
		}
		gp_u64map_free(&whole);
	}
	if (in_window) {
		/* a window's steps: those its kernels were launched in */
		size_t m = 0;
		for (size_t i = 0; i < s->n; i++)
			if (in_window[i])
				s->v[m++] = s->v[i];
		s->n = m;
		free(in_window);
	}
	int64_t *len = gp_xmalloc((s->n ? s->n : 1) * sizeof(*len));
	size_t ng = 0;
	for (size_t i = 0; i < s->n; i++)
		len[i] = gp_step_ns(&s->v[i]);
	s->median = median_of(len, s->n);
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].gpu_end > s->v[i].gpu_start)
			len[ng++] = s->v[i].gpu_end - s->v[i].gpu_start;
	s->gpu_median = median_of(len, ng);
	free(len);
}

void gp_steps_free(struct gp_steps *s)
{
	free(s->v);
	free(s->kernel_iter);
	memset(s, 0, sizeof(*s));
}
