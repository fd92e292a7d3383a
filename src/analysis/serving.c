/*
** Serving steps (serving.h): each kernel's step (its outermost step
** marker, else its graph replay of a known batch size), per step its
** kernels' window and busy time in one sweep over the kernels sorted by
** step and start, what the markers record, then the warm-up per kind.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/phases.h"
#include "analysis/serving.h"
#include "util/alloc.h"
#include "util/stats.h"
#include "util/u64map.h"

/* The decimal number at *s (advancing it); -1 when none. */
static int64_t number(const char **s)
{
	int64_t v = 0;

	if (!isdigit((unsigned char)**s))
		return -1;
	while (isdigit((unsigned char)**s) && v < INT64_MAX / 10 - 10)
		v = v * 10 + (*(*s)++ - '0');
	return v;
}

/* The number after "key" in s[0..end), -1 when none. */
static int64_t field(const char *s, const char *end, const char *key)
{
	const char *p = strstr(s, key);

	if (!p || p >= end)
		return -1;
	p += strlen(key);
	return number(&p);
}

void gp_serving_marker(const char *s, struct gp_serving_marker *m)
{
	const char *p, *g;
	int64_t a, b, x, y;

	m->requests = -1;
	m->tokens = -1;
	if (!s)
		return;
	if (strncmp(s, "step[", 5) == 0) {
		const char *end = strchr(s, ']');
		end = end ? end : s + strlen(s);
		a = field(s, end, " bs=");
		m->requests = a >= 0 && a <= INT32_MAX ? (int32_t)a : -1;
		m->tokens = field(s, end, " toks=");
		return;
	}
	if (strncmp(s, "execute_context_", 16) == 0) {
		/* execute_context_P(X[_...])_generation_D(Y[_...]) */
		p = s + 16;
		if ((a = number(&p)) < 0 || *p++ != '(' || (x = number(&p)) < 0 ||
		    !(g = strstr(p, ")_generation_")))
			return;
		g += 13;
		if ((b = number(&g)) < 0 || *g++ != '(' || (y = number(&g)) < 0)
			return;
	} else if (strncmp(s, "execute_", 8) == 0) {
		/* execute_T_context_P(...)_generation_D(...) */
		p = s + 8;
		if ((x = number(&p)) < 0 || strncmp(p, "_context_", 9) != 0)
			return;
		p += 9;
		if ((a = number(&p)) < 0 || !(g = strstr(p, "_generation_")))
			return;
		g += 12;
		if ((b = number(&g)) < 0)
			return;
		y = 0;
	} else {
		return;
	}
	if (a + b <= INT32_MAX)
		m->requests = (int32_t)(a + b);
	m->tokens = x + y;
}

/* A kernel of a step, for the sweep. */
struct step_kernel {
	int64_t step;           /* a step marker (range), or ranges.n + its launch */
	uint32_t k;
	gp_ns start;
};

static int cmp_step_kernel(const void *pa, const void *pb)
{
	const struct step_kernel *a = pa, *b = pb;

	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

static int cmp_step(const void *pa, const void *pb)
{
	const struct gp_serving_step *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

/* The measure warm-up is judged by: the step's time, or (per_token) its
** time per token in ps. */
static int64_t measure(const struct gp_serving_step *s, bool per_token)
{
	int64_t ns = s->end - s->start;

	return per_token ? (int64_t)((double)ns * 1000.0 / (double)s->tokens) : ns;
}

/* Marks the warm-up steps of each kind among s[0..n) (start order). */
static void mark_warmup(struct gp_serving_step *s, size_t n)
{
	int64_t *v = gp_xmalloc((n ? n : 1) * sizeof(*v));

	for (int p = GP_PHASE_NONE; p < GP_PHASE__COUNT; p++) {
		size_t m = 0;
		bool per_token = true;
		struct gp_stats st;
		for (size_t i = 0; i < n; i++)
			if (s[i].phase == p)
				per_token &= s[i].tokens > 0;
		for (size_t i = 0; i < n; i++)
			if (s[i].phase == p)
				v[m++] = measure(&s[i], per_token);
		if (!m)
			continue;
		gp_stats_compute(v, m, &st);
		for (size_t i = 0; i < n; i++) {
			if (s[i].phase != p)
				continue;
			if ((double)measure(&s[i], per_token) <= GP_SERVING_WARMUP_FACTOR * st.med)
				break;
			s[i].warmup = true;
		}
	}
	free(v);
}

size_t gp_serving_steps(const gp_trace *t, const uint8_t *phase, const int32_t *batch,
			struct gp_serving_step **out)
{
	bool any;
	int32_t *marker = gp_phase_step_markers(t, &any);
	GP_VEC(struct step_kernel) sk = {0};
	GP_VEC(struct gp_serving_step) st = {0};
	gp_u64map of_marker = {0};     /* step marker -> index in st */

	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t r = t->attrs ? t->attrs[k].range : -1;
		int32_t m = any && r >= 0 && (size_t)r < t->ranges.n ? marker[r] : -1;
		int32_t api = t->attrs ? t->attrs[k].api : -1;
		if (m >= 0)
			*gp_vec_push(sk) = (struct step_kernel){m, (uint32_t)k, t->kernels.v[k].start};
		else if (batch && batch[k] >= 0 && api >= 0)
			*gp_vec_push(sk) = (struct step_kernel){(int64_t)t->ranges.n + api, (uint32_t)k,
								t->kernels.v[k].start};
	}
	if (sk.n > 1)   /* qsort of NULL, 0 is undefined */
		qsort(sk.v, sk.n, sizeof(*sk.v), cmp_step_kernel);
	for (size_t i = 0; i < sk.n;) {
		const struct gp_kernel *first = &t->kernels.v[sk.v[i].k];
		gp_ns reach = first->start, busy = 0;
		size_t j = i;
		for (; j < sk.n && sk.v[j].step == sk.v[i].step; j++) {
			const struct gp_kernel *kr = &t->kernels.v[sk.v[j].k];
			gp_ns from = kr->start > reach ? kr->start : reach;
			if (kr->end > from)
				busy += kr->end - from;
			if (kr->end > reach)
				reach = kr->end;
		}
		struct gp_serving_step *s = gp_vec_push(st);
		bool marked = sk.v[i].step < (int64_t)t->ranges.n;
		struct gp_serving_marker mk = {-1, -1};
		*s = (struct gp_serving_step){.marker = marked ? (int32_t)sk.v[i].step : -1,
					      .batch = batch ? batch[sk.v[i].k] : -1, .kernels = j - i,
					      .start = first->start, .end = reach, .busy_ns = busy};
		if (marked) {
			const char *text = gp_s(t, t->ranges.v[s->marker].text);
			s->phase = (uint8_t)gp_phase_of_text(text);
			gp_serving_marker(text, &mk);
			gp_u64map_put(&of_marker, (uint64_t)s->marker, (int32_t)(st.n - 1));
		} else {
			s->phase = phase ? phase[sk.v[i].k] : GP_PHASE_NONE;
		}
		s->requests = mk.requests;
		s->tokens = mk.tokens;
		i = j;
	}
	/* what a step's outer marker leaves unsaid, a marker inside it may say */
	for (size_t r = 0; any && st.n && r < t->ranges.n; r++) {
		int32_t i = marker[r] >= 0 && marker[r] != (int32_t)r ? gp_u64map_get(&of_marker, (uint64_t)marker[r]) : -1;
		struct gp_serving_marker mk;
		if (i < 0 || gp_phase_of_text(gp_s(t, t->ranges.v[r].text)) == GP_PHASE_NONE)
			continue;
		gp_serving_marker(gp_s(t, t->ranges.v[r].text), &mk);
		if (st.v[i].requests < 0)
			st.v[i].requests = mk.requests;
		if (st.v[i].tokens < 0)
			st.v[i].tokens = mk.tokens;
	}
	if (st.n > 1)
		qsort(st.v, st.n, sizeof(*st.v), cmp_step);
	mark_warmup(st.v, st.n);
	gp_vec_free(sk);
	gp_u64map_free(&of_marker);
	free(marker);
	*out = st.v;
	return st.n;
}

void gp_serving_kind(const struct gp_serving_step *s, size_t n, int phase, struct gp_serving_kind *k)
{
	int64_t *v = gp_xmalloc((n ? n : 1) * sizeof(*v)), *w = gp_xmalloc((n ? n : 1) * sizeof(*w));
	size_t m = 0, mt = 0;
	struct gp_stats st;

	memset(k, 0, sizeof(*k));
	k->ns_per_token = -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i].phase != phase)
			continue;
		k->steps++;
		if (s[i].warmup) {
			k->warmup++;
			continue;
		}
		v[m++] = s[i].end - s[i].start;
		if (s[i].tokens > 0)
			w[mt++] = measure(&s[i], true);
	}
	if (m) {
		gp_stats_compute(v, m, &st);
		k->median_ns = (gp_ns)(st.med + 0.5);
	}
	if (m && mt == m) {
		gp_stats_compute(w, mt, &st);
		k->ns_per_token = st.med / 1000.0;
	}
	free(v);
	free(w);
}
