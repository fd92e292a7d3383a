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
#include <stdio.h>

#include "analysis/phases.h"
#include "util/alloc.h"
#include "util/u64map.h"

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
		/* "step[DECODE]", or with fields: "step[DECODE bs=32]" */
		for (size_t i = 0; i < sizeof(sglang) / sizeof(sglang[0]); i++) {
			size_t n = strlen(sglang[i].word) - 1;
			if (strncasecmp(s + 5, sglang[i].word, n) == 0 && (s[5 + n] == ']' || s[5 + n] == ' '))
				return sglang[i].phase;
		}
		return GP_PHASE_NONE;
	}
	if (strncmp(s, "execute_context_", 16) == 0) {
		/* newer vLLM: execute_context_P(...)_generation_D(...) */
		const char *p = s + 16, *g;
		long prefill = number(&p), decode;
		if (prefill < 0 || *p != '(' || !(g = strstr(p, ")_generation_")))
			return GP_PHASE_NONE;
		g += 13;
		if ((decode = number(&g)) < 0)
			return GP_PHASE_NONE;
		return prefill && decode ? GP_PHASE_MIXED : prefill ? GP_PHASE_PREFILL
			: decode ? GP_PHASE_DECODE : GP_PHASE_NONE;
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

/* Per range of t: the outermost step marker it is or lies in, -1 (a
** marker inside another is the same step: SGLang's step[...] inside the
** execute_ range a harness wraps around it). */
int32_t *gp_phase_step_markers(const gp_trace *t, bool *any)
{
	int32_t *step = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*step));

	*any = false;
	for (size_t i = 0; i < t->ranges.n; i++) {
		const struct gp_range *r = &t->ranges.v[i];
		int32_t p = r->parent >= 0 && (size_t)r->parent < i ? step[r->parent] : -1;
		bool marker = r->kind != GP_RANGE_GPU_ANNOTATION && r->kind != GP_RANGE_MARK &&
			      gp_phase_of_text(gp_s(t, r->text)) != GP_PHASE_NONE;
		step[i] = p >= 0 ? p : marker ? (int32_t)i : -1;
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
	int32_t *step = gp_phase_step_markers(t, &any);
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

int32_t gp_kernel_batch(const gp_trace *t, size_t k)
{
	int32_t g = t->replay_graph && k < t->kernels.n ? t->replay_graph[k] : -1;
	int32_t c = g >= 0 && (size_t)g < t->captured_graphs.n ? t->captured_graphs.v[g].capture : -1;

	return c >= 0 && (size_t)c < t->captures.n ? t->captures.v[c].batch : -1;
}

/* Step batch states, beside a step's batch size. */
#define BATCH_UNSEEN (-2)

int32_t *gp_phase_batches(const gp_trace *t, const uint8_t *phase)
{
	bool any = false, marked;
	int32_t *batch = NULL, *step = NULL, *of_step = NULL;

	for (size_t k = 0; t->replay_graph && k < t->kernels.n && !any; k++)
		any = gp_kernel_batch(t, k) >= 0;
	if (!any)
		return NULL;
	batch = gp_xmalloc(t->kernels.n * sizeof(*batch));
	if (phase) {
		step = gp_phase_step_markers(t, &marked);
		of_step = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(*of_step));
		for (size_t r = 0; r < t->ranges.n; r++)
			of_step[r] = BATCH_UNSEEN;
	}
	/* a step's batch: the one its replays agree on */
	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t st = phase && phase[k] ? step_of_kernel(t, step, k) : -1;
		batch[k] = gp_kernel_batch(t, k);
		if (st >= 0 && batch[k] >= 0)
			of_step[st] = of_step[st] == BATCH_UNSEEN || of_step[st] == batch[k] ? batch[k] : -1;
	}
	for (size_t k = 0; phase && k < t->kernels.n; k++) {
		int32_t st = phase[k] ? step_of_kernel(t, step, k) : -1;
		if (st >= 0)
			batch[k] = of_step[st] >= 0 ? of_step[st] : -1;
	}
	free(step);
	free(of_step);
	return batch;
}

const char *gp_phase_label(int phase, int32_t batch, char *buf, size_t size)
{
	const char *p = gp_phase_name(phase);

	if (batch >= 0)
		snprintf(buf, size, "%s%sbs=%d", p, *p ? " " : "", (int)batch);
	else
		snprintf(buf, size, "%s", p);
	return buf;
}

int gp_phase_sel_parse(const char *s, struct gp_phase_sel *sel)
{
	const char *b = strstr(s, "bs=");
	size_t plen = b ? (size_t)(b - s) : strlen(s);

	*sel = (struct gp_phase_sel){GP_PHASE_NONE, -1};
	if (b) {
		const char *p = b + 3;
		long v = number(&p);
		if (v < 0 || *p || (plen && s[plen - 1] != ' '))
			return -1;
		sel->batch = (int32_t)v;
		plen -= plen ? 1 : 0;
	}
	for (int p = GP_PHASE_PREFILL; p < GP_PHASE__COUNT && plen; p++)
		if (strlen(gp_phase_name(p)) == plen && strncmp(s, gp_phase_name(p), plen) == 0)
			sel->phase = p;
	return (plen && sel->phase == GP_PHASE_NONE) || (!plen && !b) ? -1 : 0;
}

bool gp_phase_sel_keeps(const uint8_t *phase, const int32_t *batch, size_t k, const struct gp_phase_sel *sel)
{
	if (sel->phase != GP_PHASE_NONE && (!phase || phase[k] != sel->phase))
		return false;
	return sel->batch < 0 || (batch && batch[k] == sel->batch);
}

uint8_t *gp_phase_sel_kernels(size_t n, const uint8_t *phase, const int32_t *batch, const struct gp_phase_sel *sel)
{
	uint8_t *keep = gp_xmalloc(n ? n : 1);

	for (size_t k = 0; k < n; k++)
		keep[k] = gp_phase_sel_keeps(phase, batch, k, sel);
	return keep;
}

uint8_t *gp_phase_sel_ranges(const gp_trace *t, const struct gp_phase_sel *sel)
{
	bool any;
	int32_t *step = gp_phase_step_markers(t, &any);
	uint8_t *keep = gp_xcalloc(t->ranges.n ? t->ranges.n : 1, 1);

	for (size_t r = 0; any && sel->phase != GP_PHASE_NONE && r < t->ranges.n; r++)
		keep[r] = step[r] >= 0 && gp_phase_of_text(gp_s(t, t->ranges.v[step[r]].text)) == sel->phase;
	free(step);
	return keep;
}

/* A kernel of a group's step, for the per-step sweep. */
struct step_kernel {
	uint32_t group;
	int64_t step;           /* a step marker (range), or ranges.n + its launch */
	uint32_t k;
	gp_ns start;
};

static int cmp_step_kernel(const void *pa, const void *pb)
{
	const struct step_kernel *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* The group key of (phase, batch): in (phase, batch) order. */
static uint64_t group_key(int phase, int32_t batch)
{
	return (uint64_t)phase << 32 | (uint32_t)(batch + 1);
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct gp_phase_group *a = pa, *b = pb;
	uint64_t x = group_key(a->phase, a->batch), y = group_key(b->phase, b->batch);

	return x < y ? -1 : x > y;
}

size_t gp_phase_groups(const gp_trace *t, const uint8_t *phase, const int32_t *batch, struct gp_phase_group **out)
{
	bool any;
	int32_t *step = gp_phase_step_markers(t, &any);
	GP_VEC(struct step_kernel) sk = {0};
	GP_VEC(struct gp_phase_group) g = {0};
	gp_u64map at = {0};     /* group key -> index in g */

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		int p = phase ? phase[k] : GP_PHASE_NONE;
		int32_t b = batch ? batch[k] : -1;
		int32_t i = gp_u64map_add(&at, group_key(p, b), (int32_t)g.n);
		if ((size_t)i == g.n)
			*gp_vec_push(g) = (struct gp_phase_group){.phase = (uint8_t)p, .batch = b};
		g.v[i].kernels++;
		g.v[i].gpu_ns += kr->end > kr->start ? kr->end - kr->start : 0;
		/* its step: the step marker, else its graph replay (a batch size's) */
		int32_t st = p != GP_PHASE_NONE ? step_of_kernel(t, step, k) : -1;
		int32_t api = t->attrs ? t->attrs[k].api : -1;
		if (st >= 0)
			*gp_vec_push(sk) = (struct step_kernel){(uint32_t)i, st, (uint32_t)k, kr->start};
		else if (b >= 0 && api >= 0)
			*gp_vec_push(sk) = (struct step_kernel){(uint32_t)i, (int64_t)t->ranges.n + api, (uint32_t)k,
								kr->start};
	}
	if (sk.n > 1)   /* qsort of NULL, 0 is undefined */
		qsort(sk.v, sk.n, sizeof(*sk.v), cmp_step_kernel);
	/* per step of a group: its window, and the union of its kernels inside it */
	for (size_t i = 0; i < sk.n;) {
		struct gp_phase_group *x = &g.v[sk.v[i].group];
		gp_ns first = sk.v[i].start, reach = first, busy = 0;
		size_t j = i;
		for (; j < sk.n && sk.v[j].group == sk.v[i].group && sk.v[j].step == sk.v[i].step; j++) {
			const struct gp_kernel *kr = &t->kernels.v[sk.v[j].k];
			gp_ns from = kr->start > reach ? kr->start : reach;
			if (kr->end > from)
				busy += kr->end - from;
			if (kr->end > reach)
				reach = kr->end;
		}
		x->steps++;
		x->window_ns += reach - first;
		x->idle_ns += reach - first - busy;
		i = j;
	}
	if (g.n > 1)
		qsort(g.v, g.n, sizeof(*g.v), cmp_group);
	gp_vec_free(sk);
	gp_u64map_free(&at);
	free(step);
	*out = g.v;
	return g.n;
}

void gp_phase_stats(const gp_trace *t, const uint8_t *phase, struct gp_phase_stats *s)
{
	struct gp_phase_group *g;
	size_t n = gp_phase_groups(t, phase, NULL, &g);

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n; i++) {
		int p = g[i].phase;
		s->steps[p] = g[i].steps;
		s->kernels[p] = g[i].kernels;
		s->gpu_ns[p] = g[i].gpu_ns;
		s->window_ns[p] = g[i].window_ns;
		s->idle_ns[p] = g[i].idle_ns;
	}
	free(g);
}
