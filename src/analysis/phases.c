/*
** Serving phases (phases.h): step markers by text, each kernel's step
** through the range tree (one forward pass: parents precede children),
** and per step its kernels' window and the idle inside it (the kernels of
** each step sorted by start, one sweep).
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/phases.h"

/* The decimal number at *s (advancing it); -1 when none. */
static long number(const char **s)
{
	long v = 0;

	if (!isdigit((unsigned char)**s))
		return -1;
	while (isdigit((unsigned char)**s) && v < 100000000)
		v = v * 10 + (*(*s)++ - '0');
	return v;
}

int gp_phase_of_text(const char *s)
{
	static const struct {
		const char *word;
		int phase;
	} sglang[] = {
		{"EXTEND]", GP_PHASE_PREFILL}, {"PREFILL]", GP_PHASE_PREFILL},
		{"DECODE]", GP_PHASE_DECODE}, {"MIXED]", GP_PHASE_MIXED},
	};

	if (!s)
		return GP_PHASE_NONE;
	if (strncmp(s, "step[", 5) == 0) {
		for (size_t i = 0; i < sizeof(sglang) / sizeof(sglang[0]); i++)
			if (strncasecmp(s + 5, sglang[i].word, strlen(sglang[i].word)) == 0)
				return sglang[i].phase;
		return GP_PHASE_NONE;
	}
	if (strncmp(s, "execute_", 8) == 0) {
		const char *p = s + 8, *g;
		long prefill, decode;
		if (number(&p) < 0 || strncmp(p, "_context_", 9) != 0)
			return GP_PHASE_NONE;
		p += 9;
		if ((prefill = number(&p)) < 0 || !(g = strstr(p, "_generation_")))
			return GP_PHASE_NONE;
		g += 12;
		if ((decode = number(&g)) < 0)
			return GP_PHASE_NONE;
		return prefill && decode ? GP_PHASE_MIXED : prefill ? GP_PHASE_PREFILL
			: decode ? GP_PHASE_DECODE : GP_PHASE_NONE;
	}
	return GP_PHASE_NONE;
}

const char *gp_phase_name(int phase)
{
	static const char *const names[GP_PHASE__COUNT] = {"", "prefill", "decode", "mixed"};

	return phase >= 0 && phase < GP_PHASE__COUNT ? names[phase] : "";
}

/* Per range of t: the innermost step marker it is or lies in, -1. */
static int32_t *steps_of_ranges(const gp_trace *t, bool *any)
{
	int32_t *step = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*step));

	*any = false;
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		int32_t p = r->parent >= 0 && (size_t)r->parent < i ? step[r->parent] : -1;
		bool marker = r->kind != GP_RANGE_GPU_ANNOTATION && r->kind != GP_RANGE_MARK &&
			      gp_phase_of_text(gp_s(t, r->text)) != GP_PHASE_NONE;
		step[i] = marker ? (int32_t)i : p;
		*any |= marker;
	}
	return step;
}

/* The step marker of kernel k (its launch's innermost range's), -1. */
static int32_t step_of_kernel(const gp_trace *t, const int32_t *step, size_t k)
{
	int32_t r = t->attrs ? t->attrs[k].range : -1;

	return r >= 0 && (size_t)r < t->ranges.n ? step[r] : -1;
}

uint8_t *gp_phases_of_kernels(const gp_trace *t)
{
	bool any;
	int32_t *step = steps_of_ranges(t, &any);
	uint8_t *phase = NULL;

	for (size_t k = 0; any && k < t->kernels.n; k++) {
		int32_t s = step_of_kernel(t, step, k);
		if (s < 0)
			continue;
		if (!phase)
			phase = gp_xcalloc(t->kernels.n, 1);
		phase[k] = (uint8_t)gp_phase_of_text(gp_s(t, t->ranges.v[s].text));
	}
	free(step);
	return phase;
}

/* A kernel of a step, for the per-step sweep. */
struct step_kernel {
	int32_t step;
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

void gp_phase_stats(const gp_trace *t, const uint8_t *phase, struct gp_phase_stats *s)
{
	bool any;
	int32_t *step;
	GP_VEC(struct step_kernel) sk = {0};

	memset(s, 0, sizeof(*s));
	for (size_t k = 0; k < t->kernels.n; k++) {
		int p = phase ? phase[k] : GP_PHASE_NONE;
		const struct gp_kernel *kr = &t->kernels.v[k];
		s->kernels[p]++;
		s->gpu_ns[p] += kr->end > kr->start ? kr->end - kr->start : 0;
	}
	if (!phase)
		return;
	step = steps_of_ranges(t, &any);
	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t st = phase[k] ? step_of_kernel(t, step, k) : -1;
		if (st >= 0)
			*gp_vec_push(sk) = (struct step_kernel){st, (uint32_t)k, t->kernels.v[k].start};
	}
	qsort(sk.v, sk.n, sizeof(*sk.v), cmp_step_kernel);
	/* per step: its window, and the union of its kernels inside it */
	for (size_t i = 0; i < sk.n;) {
		int p = phase[sk.v[i].k];
		gp_ns first = sk.v[i].start, reach = first, busy = 0;
		size_t j = i;
		for (; j < sk.n && sk.v[j].step == sk.v[i].step; j++) {
			const struct gp_kernel *kr = &t->kernels.v[sk.v[j].k];
			gp_ns from = kr->start > reach ? kr->start : reach;
			if (kr->end > from)
				busy += kr->end - from;
			if (kr->end > reach)
				reach = kr->end;
		}
		s->steps[p]++;
		s->window_ns[p] += reach - first;
		s->idle_ns[p] += reach - first - busy;
		i = j;
	}
	gp_vec_free(sk);
	free(step);
}
