/*
** gp_diff_compute: two runs' kernels grouped by a normalised name, the
** changes, and per-iteration statistics (diff.h, docs/diff.md).
**
** Per file, one pass over the kernels (gp_diff_part_make): each kernel's
** group (the name is normalised once per distinct string of the trace),
** its iteration's ordinal (iterations are paired by position, not by
** number: the test run's ProfilerStep#12 is not the base run's), and a
** (group, iteration) cell summing its time; the trace can then be freed.
** A run adds its files' parts (gp_diff_run_add): groups meet by key, cells
** of the same group and iteration add up, the step is the slowest rank's.
** Then each run's cells, far fewer than kernels, are spread into a table of
** rows x iterations that gives each group its per-iteration vector.
*/
#include <ctype.h>
#include <stdlib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/attr_graph.h"
#include "analysis/diff.h"
#include "util/alloc.h"
#include "util/u64map.h"

const char *const gp_diff_status_names[] = {"same", "changed", "new", "gone"};
const char *const gp_diff_verdict_names[] = {"significant", "within noise", "above threshold", "below threshold"};
const char *const gp_diff_tc_names[] = {NULL, "no", "yes", "mixed"};
const char *const gp_diff_kind_names[] = {"step", "total", "group", "idle"};
const char *const gp_diff_by_names[] = {"kernel", "op", "layer", "iter", "rank"};

/* One file's pass (gp_diff_part_make): groups by key in the part's table. */
struct builder {
	struct gp_diff_part *p;
	int by;
	GP_VEC(struct gp_diff_group) groups;
	gp_u64map by_key;       /* key gp_str -> index into groups */
	GP_VEC(struct gp_diff_cell) cells;
};

/* Whether a number literal may start at p: not inside an identifier. */
static bool number_start(const char *name, const char *p)
{
	return isdigit((unsigned char)*p) &&
	       (p == name || !(isalnum((unsigned char)p[-1]) || p[-1] == '_'));
}

const char *gp_diff_kernel_key(const char *name, char *buf, size_t size)
{
	static const char anon[] = "(anonymous namespace)";
	const char *end = name + strlen(name), *p;
	size_t n = 0;

	if (strncmp(name, "void ", 5) == 0)
		name += 5;
	if (end > name && end[-1] == ')') {
		int depth = 0;
		for (p = end; p > name;) {
			p--;
			if (*p == ')')
				depth++;
			else if (*p == '(' && --depth == 0)
				break;
		}
		if (depth == 0 && p > name)
			end = p;
	}
	for (p = name; p < end && n + 1 < size;) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '(' && (size_t)(end - p) >= sizeof(anon) - 1 &&
		    strncmp(p, anon, sizeof(anon) - 1) == 0) {
			for (const char *u = "<unnamed>"; *u && n + 1 < size; u++)
				buf[n++] = *u;
			p += sizeof(anon) - 1;
			continue;
		}
		if (*p == '(') {        /* a cast in a template argument: "(unsigned long)4096" */
			const char *q = p + 1;
			while (q < end && (islower((unsigned char)*q) || *q == ' '))
				q++;
			if (q > p + 1 && q + 1 < end && *q == ')' && (isdigit((unsigned char)q[1]) || q[1] == '-')) {
				p = q + 1;
				continue;
			}
		}
		if (number_start(name, p)) {   /* "4096ul" -> "4096" */
			const char *q;
			while (p < end && isdigit((unsigned char)*p) && n + 1 < size)
				buf[n++] = *p++;
			for (q = p; q < end && strchr("uUlL", *q); q++)
				;
			if (q == end || !(isalnum((unsigned char)*q) || *q == '_'))
				p = q;
			continue;
		}
		buf[n++] = *p++;
	}
	buf[n] = '\0';
	return buf;
}

const char *gp_diff_op_key(const char *name)
{
	return strncmp(name, "aten::", 6) == 0 ? name + 6 : name;
}

double gp_diff_median(const double *v, size_t n)
{
	if (!n)
		return 0;
	return (v[(n - 1) / 2] + v[n / 2]) / 2;
}

/* The p-quantile of sorted v[0..n) with linear interpolation (R's type 7). */
static double quantile(const double *v, size_t n, double p)
{
	double h;
	size_t i;

	if (!n)
		return 0;
	h = (double)(n - 1) * p;
	i = (size_t)h;
	return i + 1 < n ? v[i] + (h - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Whether an NVTX text is an emit_nvtx op range: "aten::mm, seq = 3,
** op_id = 7, sizes = [...]" (also without seq, with op_id only). */
static bool emit_nvtx_op(const char *text)
{
	return strstr(text, ", seq = ") || strstr(text, ", op_id = ");
}

/* The group of (key, name), created on first sight. */
static uint32_t group_of(struct builder *b, const char *key, const char *name)
{
	gp_str k = gp_strtab_intern(&b->p->strs, key);
	int32_t g = gp_u64map_get(&b->by_key, k);
	struct gp_diff_group *gr;

	if (g >= 0)
		return (uint32_t)g;
	gr = gp_vec_push(b->groups);
	gr->key = k;
	gr->name = gp_strtab_intern(&b->p->strs, name);
	g = (int32_t)(b->groups.n - 1);
	gp_u64map_put(&b->by_key, k, g);
	return (uint32_t)g;
}

/* The key and shown name of a trace string under the grouping (NULL s:
** the "(none)" group). */
static uint32_t group_of_name(struct builder *b, const char *s)
{
	char buf[4096];

	if (!s || !*s)
		return group_of(b, "(none)", "(none)");
	if (b->by == GP_DIFF_BY_KERNEL)
		return group_of(b, gp_diff_kernel_key(s, buf, sizeof(buf)), s);
	if (b->by == GP_DIFF_BY_OP) {
		/* an emit_nvtx text: the op's name is what precedes ", seq = " */
		size_t n = emit_nvtx_op(s) ? strcspn(s, ",") : strlen(s);
		snprintf(buf, sizeof(buf), "%.*s", (int)n, s);
		return group_of(b, gp_diff_op_key(buf), buf);
	}
	return group_of(b, s, s);
}

/* The range kernel k's op is named by: the innermost framework op around
** its launch (a Kineto cpu_op, an emit_nvtx op range), so that the same op
** read from a Kineto trace and from an nsys export of emit_nvtx ranges is
** one group; -1 when no such range encloses it. */
static int32_t op_range(const gp_trace *t, size_t k)
{
	int32_t r = t->attrs ? t->attrs[k].range : -1;

	for (int depth = 0; r >= 0 && (size_t)r < t->ranges.n && depth < 256; depth++) {
		const struct gp_range *g = &t->ranges.v[r];
		if (g->kind == GP_RANGE_CPU_OP ||
		    ((g->kind == GP_RANGE_PUSHPOP || g->kind == GP_RANGE_STARTEND) && emit_nvtx_op(gp_s(t, g->text))))
			return r;
		r = g->parent;
	}
	return -1;
}

/* The trace string kernel k is grouped by (kernel: its full demangled
** name, else the short one; op; layer): for an op,
** the text of its op range (cut at the first ", " by group_of_name), else
** the correlation's op or marker. */
static gp_str kernel_group_str(const gp_trace *t, size_t k, int by)
{
	const struct gp_kernel *kr = &t->kernels.v[k];
	const struct gp_attr *a = t->attrs ? &t->attrs[k] : NULL;
	int32_t r;

	if (by == GP_DIFF_BY_KERNEL)
		return gp_kernel_long_name_of(t, kr);
	if (by == GP_DIFF_BY_OP) {
		/* a replayed kernel's op is its capture's (or none known), not
		** the op around its graph launch */
		if (a && a->graph != GP_GRAPH_NONE)
			return a->marker ? a->marker : a->op ? a->op : gp_graph_op_group(t, a);
		r = op_range(t, k);
		if (r >= 0)
			return t->ranges.v[r].text;
		return a ? (a->op ? a->op : a->marker) : 0;
	}
	return !a ? 0 : a->layer ? a->layer : gp_graph_layer_group(t, a);
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The run's iterations: its steps (steps.h), one without kernels too, so
** that the step times are the run's (advise's, ranks' and html's median);
** none without steps.  *n of them; map gets iteration number -> ordinal
** (ascending numbers). */
static void run_iterations(const struct gp_steps *steps, size_t *n, gp_u64map *map)
{
	GP_VEC(int32_t) its = {0};

	for (size_t i = 0; steps && i < steps->n; i++) {
		int32_t it = steps->v[i].iter;
		if (it < 0 || gp_u64map_get(map, (uint32_t)it) >= 0)
			continue;
		gp_u64map_put(map, (uint32_t)it, 0);
		*gp_vec_push(its) = it;
	}
	gp_vec_sort(its, cmp_i32);
	for (size_t i = 0; i < its.n; i++)
		gp_u64map_put(map, (uint32_t)its.v[i], (int32_t)i);
	*n = its.n;
	gp_vec_free(its);
}

/* The group of kernel k of t (in iteration ordinal ord, -1 = none), the
** name groups memoised in group_by_str (one slot per string of t,
** UINT32_MAX = not yet seen; slot 0 is the nameless "(none)" group). */
static uint32_t kernel_group(struct builder *b, const gp_trace *t, size_t k, int32_t ord, uint32_t *group_by_str)
{
	gp_str str;

	if (b->by == GP_DIFF_BY_ITER) {
		char name[32];
		if (ord < 0)
			return group_of(b, "(none)", "(none)");
		snprintf(name, sizeof(name), "iteration %d", ord);
		return group_of(b, name, name);
	}
	str = kernel_group_str(t, k, b->by);
	if (str > t->strs.n)
		str = 0;
	if (group_by_str[str] == UINT32_MAX)
		group_by_str[str] = group_of_name(b, str ? gp_s(t, str) : NULL);
	return group_by_str[str];
}

static int cmp_cell(const void *a, const void *b)
{
	const struct gp_diff_cell *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->iter > y->iter) - (x->iter < y->iter);
}

void gp_diff_part_init(struct gp_diff_part *p, int by)
{
	memset(p, 0, sizeof(*p));
	gp_strtab_init(&p->strs);
	p->by = by;
}

void gp_diff_part_free(struct gp_diff_part *p)
{
	free(p->groups);
	free(p->cells);
	free(p->step);
	free(p->busy);
	free(p->work);
	free(p->idle);
	gp_strtab_free(&p->strs);
	memset(p, 0, sizeof(*p));
}

/* The ordinal of the iteration whose step holds time x (steps by start),
** -1 when none does. */
static int32_t step_ord_at(const struct gp_steps *steps, const gp_u64map *iter_ord, gp_ns x)
{
	ptrdiff_t i = gp_step_at(steps, x);

	if (i < 0 || x >= steps->v[i].end)
		return -1;
	return gp_u64map_get(iter_ord, (uint32_t)steps->v[i].iter);
}

/* p's idle time by cause from bd's gaps: each in the step holding its end,
** else its work's iteration; every one in the file's total. */
static void part_idle(struct gp_diff_part *p, const gp_breakdown *bd, const struct gp_steps *steps,
		      const gp_u64map *iter_ord)
{
	for (size_t i = 0; bd && i < bd->ngap_causes; i++) {
		const struct gp_bd_gap_cause *g = &bd->gap_causes[i];
		int32_t ord = steps && steps->n ? step_ord_at(steps, iter_ord, g->end) : -1;
		if (ord < 0 && g->iter >= 0)
			ord = gp_u64map_get(iter_ord, (uint32_t)g->iter);
		for (uint64_t j = g->part; j < g->part + g->nparts; j++) {
			int c = bd->gap_part_cause[j];
			p->idle_total[c] += bd->gap_part_ns[j];
			if (ord >= 0)
				p->idle[(size_t)ord * GP_CAUSE__COUNT + c] += bd->gap_part_ns[j];
		}
	}
}

void gp_diff_part_make(const gp_trace *t, const struct gp_ops *ops, const struct gp_steps *steps,
		       const gp_breakdown *bd, int by, struct gp_diff_part *p)
{
	size_t nstr = t->strs.n + 1, nit;
	uint32_t *group_by_str = gp_xmalloc(nstr * sizeof(*group_by_str));
	struct builder b = {.p = p, .by = by};
	gp_u64map iter_ord = {0}, cell_at = {0};
	int64_t first = INT64_MAX, last = INT64_MIN;
	const int32_t *kiter = steps ? steps->kernel_iter : NULL;

	gp_diff_part_init(p, by);
	memset(group_by_str, 0xff, nstr * sizeof(*group_by_str));
	run_iterations(steps, &nit, &iter_ord);
	p->iters = nit;
	p->step = gp_xcalloc(nit ? nit : 1, sizeof(int64_t));
	p->busy = gp_xcalloc(nit ? nit : 1, sizeof(int64_t));
	p->work = gp_xcalloc(nit ? nit : 1, sizeof(int64_t));
	p->idle = gp_xcalloc((nit ? nit : 1) * GP_CAUSE__COUNT, sizeof(int64_t));
	part_idle(p, bd, steps, &iter_ord);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		int64_t dur = kr->end > kr->start ? kr->end - kr->start : 0;
		int32_t it = kiter ? kiter[k] : -1, ord = it >= 0 ? gp_u64map_get(&iter_ord, (uint32_t)it) : -1;
		const struct gp_opres *r = ops ? &ops->r[k] : NULL;
		bool comm = r && gp_op_is_comm(r);

		p->time += dur;
		p->work_total += comm ? 0 : dur;
		first = kr->start < first ? kr->start : first;
		last = kr->end > last ? kr->end : last;
		if (ord >= 0) {
			p->busy[ord] += dur;
			p->work[ord] += comm ? 0 : dur;
		}
		if (by == GP_DIFF_BY_RANK)
			continue;
		uint32_t g = kernel_group(&b, t, k, ord, group_by_str);
		struct gp_diff_sum *a = &b.groups.v[g].sum;
		a->total += dur;
		a->calls++;
		if (r) {
			struct gp_roofline rl;
			gp_op_roofline(t, ops, k, &rl);
			if (r->flops >= 0) {
				a->flops += r->flops;
				a->flops_known = true;
			}
			if (rl.ideal_ns >= 0) {
				a->ideal += rl.ideal_ns;
				a->ideal_time += (double)dur;
			}
			a->tc_yes += r->tc == GP_TC_YES;
			a->tc_no += r->tc == GP_TC_NO;
		}
		if (ord >= 0) {
			uint64_t ck = (uint64_t)g << 32 | (uint32_t)ord;
			int32_t c = gp_u64map_add(&cell_at, ck, (int32_t)b.cells.n);
			if ((size_t)c == b.cells.n)
				*gp_vec_push(b.cells) = (struct gp_diff_cell){g, (uint32_t)ord, 0};
			b.cells.v[c].sum += dur;
		}
	}
	/* each iteration's step is the run's (steps.h) */
	for (size_t i = 0; steps && i < steps->n; i++) {
		int32_t ord = gp_u64map_get(&iter_ord, (uint32_t)steps->v[i].iter);
		if (ord >= 0)
			p->step[ord] = gp_step_ns(&steps->v[i]);
	}
	p->span = last > first ? last - first : 0;
	gp_vec_sort(b.cells, cmp_cell);
	p->groups = b.groups.v;
	p->ngroups = b.groups.n;
	p->cells = b.cells.v;
	p->ncells = b.cells.n;
	free(group_by_str);
	gp_u64map_free(&iter_ord);
	gp_u64map_free(&cell_at);
	gp_u64map_free(&b.by_key);
}

void gp_diff_run_init(struct gp_diff_run_in *r, int by)
{
	memset(r, 0, sizeof(*r));
	gp_strtab_init(&r->strs);
	r->by = by;
}

void gp_diff_run_free(struct gp_diff_run_in *r)
{
	for (size_t i = 0; i < r->ranks.n; i++) {
		free(r->ranks.v[i].step);
		free(r->ranks.v[i].work);
	}
	gp_vec_free(r->ranks);
	gp_vec_free(r->groups);
	gp_vec_free(r->cells);
	gp_vec_free(r->step);
	gp_vec_free(r->busy);
	gp_vec_free(r->idle);
	gp_u64map_free(&r->group_at);
	gp_u64map_free(&r->cell_at);
	gp_strtab_free(&r->strs);
	memset(r, 0, sizeof(*r));
}

static void sum_add(struct gp_diff_sum *a, const struct gp_diff_sum *b)
{
	a->total += b->total;
	a->calls += b->calls;
	a->flops += b->flops;
	a->flops_known |= b->flops_known;
	a->ideal += b->ideal;
	a->ideal_time += b->ideal_time;
	a->tc_yes += b->tc_yes;
	a->tc_no += b->tc_no;
}

static int64_t *copy_i64(const int64_t *v, size_t n)
{
	int64_t *c = gp_xmalloc((n ? n : 1) * sizeof(*c));

	if (n)
		memcpy(c, v, n * sizeof(*c));
	return c;
}

void gp_diff_run_add(struct gp_diff_run_in *r, const struct gp_diff_part *p, int32_t rank)
{
	uint32_t *group = gp_xmalloc((p->ngroups ? p->ngroups : 1) * sizeof(*group));
	struct gp_diff_rank *rk;

	for (size_t g = 0; g < p->ngroups; g++) {
		gp_str key = gp_strtab_intern(&r->strs, gp_strtab_get(&p->strs, p->groups[g].key));
		int32_t at = gp_u64map_add(&r->group_at, key, (int32_t)r->groups.n);
		if ((size_t)at == r->groups.n) {
			struct gp_diff_group *x = gp_vec_push(r->groups);
			x->key = key;
			x->name = gp_strtab_intern(&r->strs, gp_strtab_get(&p->strs, p->groups[g].name));
		}
		sum_add(&r->groups.v[at].sum, &p->groups[g].sum);
		group[g] = (uint32_t)at;
	}
	for (size_t c = 0; c < p->ncells; c++) {
		const struct gp_diff_cell *pc = &p->cells[c];
		uint64_t ck = (uint64_t)group[pc->group] << 32 | pc->iter;
		int32_t at = gp_u64map_add(&r->cell_at, ck, (int32_t)r->cells.n);
		if ((size_t)at == r->cells.n)
			*gp_vec_push(r->cells) = (struct gp_diff_cell){group[pc->group], pc->iter, 0};
		r->cells.v[at].sum += pc->sum;
	}
	free(group);
	if (p->iters > r->step.n) {
		gp_vec_reserve(r->step, p->iters);
		gp_vec_reserve(r->busy, p->iters);
		for (size_t i = r->step.n; i < p->iters; i++)
			r->step.v[i] = r->busy.v[i] = 0;
		r->step.n = r->busy.n = p->iters;
		gp_vec_reserve(r->idle, p->iters * GP_CAUSE__COUNT);
		memset(r->idle.v + r->idle.n, 0, (p->iters * GP_CAUSE__COUNT - r->idle.n) * sizeof(int64_t));
		r->idle.n = p->iters * GP_CAUSE__COUNT;
	}
	for (size_t i = 0; i < p->iters; i++) {
		r->step.v[i] = p->step[i] > r->step.v[i] ? p->step[i] : r->step.v[i];
		r->busy.v[i] += p->busy[i];
	}
	for (size_t i = 0; i < p->iters * GP_CAUSE__COUNT; i++)
		r->idle.v[i] += p->idle[i];
	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		r->idle_total[c] += p->idle_total[c];
	r->iters = r->ranks.n == 0 || p->iters < r->iters ? p->iters : r->iters;
	r->iters_max = p->iters > r->iters_max ? p->iters : r->iters_max;
	r->span = p->span > r->span ? p->span : r->span;
	r->time += p->time;
	rk = gp_vec_push(r->ranks);
	rk->rank = rank;
	rk->iters = p->iters;
	rk->step = copy_i64(p->step, p->iters);
	rk->work = copy_i64(p->work, p->iters);
	rk->span = p->span;
	rk->work_total = p->work_total;
}

/* splitmix64, as the generator's: the same stream on every platform. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The median of a resample (with replacement) of sorted v[0..n): counts
** how often each position is drawn, then walks the counts, so no resample
** is sorted.  count has n slots. */
static double resample_median(const double *v, size_t n, uint32_t *count, uint64_t *rng)
{
	size_t lo = (n - 1) / 2, hi = n / 2, seen = 0;
	double a = 0;
	bool have_a = false;

	memset(count, 0, n * sizeof(*count));
	for (size_t i = 0; i < n; i++)
		count[next_random(rng) % n]++;
	for (size_t i = 0; i < n; i++) {
		seen += count[i];
		if (!have_a && seen > lo) {
			a = v[i];
			have_a = true;
		}
		if (seen > hi)
			return (a + v[i]) / 2;
	}
	return a;
}

/* A string's FNV-1a hash: each row's bootstrap stream depends on its key
** only, not on the order rows are computed in. */
static uint64_t key_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* z of a two-sided 95% interval. */
#define Z95 1.959963985

/* The bootstrap 95% interval of median(vt) - median(vb), both sorted:
** resamples from a stream seeded by the opts' seed and the row's key. */
static void bootstrap_ci(const double *vb, size_t nb, const double *vt, size_t nt,
			 const struct gp_diff_opts *o, const char *key, double *lo, double *hi)
{
	size_t nr = o->resamples > 0 ? (size_t)o->resamples : 1;
	double *diffs = gp_xmalloc(nr * sizeof(*diffs));
	uint32_t *count = gp_xmalloc((nb > nt ? nb : nt) * sizeof(*count));
	uint64_t rng = o->seed ^ key_hash(key);

	for (size_t i = 0; i < nr; i++) {
		double mb = resample_median(vb, nb, count, &rng);
		diffs[i] = resample_median(vt, nt, count, &rng) - mb;
	}
	gp_sort(diffs, nr, sizeof(*diffs), cmp_double);
	*lo = quantile(diffs, nr, 0.025);
	*hi = quantile(diffs, nr, 0.975);
	free(diffs);
	free(count);
}

/* The standard error of the median of sorted v[0..n), n large: the
** distribution-free 95% interval of a median lies between the order
** statistics n/2 -+ 0.98 sqrt(n); its half-width over z. */
static double median_se(const double *v, size_t n)
{
	double h = Z95 / 2 * sqrt((double)n), l = floor((double)n / 2 - h), u = ceil((double)n / 2 + h);
	size_t lo = l < 0 ? 0 : (size_t)l, hi = u > (double)(n - 1) ? n - 1 : (size_t)u;

	return (v[hi] - v[lo]) / (2 * Z95);
}

/* Fills r's per-iteration figures and, with ci, its interval from the
** runs' vectors (sorted in place): median and IQR per run, the 95%
** interval of test median - base median. */
static void row_stats(struct gp_diff_row *r, double *vb, size_t nb, double *vt, size_t nt,
		      const struct gp_diff_opts *o, const char *key, bool ci)
{
	gp_sort(vb, nb, sizeof(*vb), cmp_double);
	gp_sort(vt, nt, sizeof(*vt), cmp_double);
	r->base.med = gp_diff_median(vb, nb);
	r->test.med = gp_diff_median(vt, nt);
	r->base.iqr = quantile(vb, nb, 0.75) - quantile(vb, nb, 0.25);
	r->test.iqr = quantile(vt, nt, 0.75) - quantile(vt, nt, 0.25);
	if (!ci)
		return;
	r->has_ci = true;
	if (nb + nt <= GP_DIFF_BOOTSTRAP_MAX) {
		bootstrap_ci(vb, nb, vt, nt, o, key, &r->ci_lo, &r->ci_hi);
	} else {
		double se_b = median_se(vb, nb), se_t = median_se(vt, nt);
		double half = Z95 * sqrt(se_b * se_b + se_t * se_t), d = r->test.med - r->base.med;
		r->ci_lo = d - half;
		r->ci_hi = d + half;
	}
}

/* Sets status, headline change and verdict of r from its figures. */
static void judge(struct gp_diff_row *r, const struct gp_diff_opts *o)
{
	double base = r->has_ci ? r->base.med : (double)r->base.total;
	double test = r->has_ci ? r->test.med : (double)r->test.total;
	bool big;

	if (r->kind == GP_DIFF_ROW_GROUP && !r->base.calls)
		r->status = GP_DIFF_NEW;
	else if (r->kind == GP_DIFF_ROW_GROUP && !r->test.calls)
		r->status = GP_DIFF_GONE;
	else if (r->base.total == r->test.total && r->base.calls == r->test.calls)
		r->status = GP_DIFF_SAME;
	else
		r->status = GP_DIFF_CHANGED;
	r->change = test - base;
	r->rel = base > 0 ? r->change / base : r->change > 0 ? INFINITY : r->change < 0 ? -INFINITY : 0;
	big = fabs(r->rel) >= o->threshold && r->change != 0;
	if (r->has_ci && !(r->ci_lo > 0 || r->ci_hi < 0))
		r->verdict = GP_DIFF_NOISE;
	else if (r->has_ci)
		r->verdict = big ? GP_DIFF_SIGNIFICANT : GP_DIFF_BELOW;   /* real, but too small to count */
	else
		r->verdict = big ? GP_DIFF_ABOVE : GP_DIFF_BELOW;
}

static void run_from_sum(struct gp_diff_run *r, const struct gp_diff_sum *a)
{
	r->total = a->total;
	r->calls = a->calls;
	r->flops = a->flops_known ? a->flops : -1;
	r->eff = a->ideal_time > 0 ? a->ideal / a->ideal_time : -1;
	r->tc = a->tc_yes && a->tc_no ? GP_DIFF_TC_MIXED
	      : a->tc_yes ? GP_DIFF_TC_YES : a->tc_no ? GP_DIFF_TC_NO : GP_DIFF_TC_NA;
	r->med = r->iqr = -1;
}

/* Orders groups by |change|, largest first, then by name. */
static int cmp_row(const void *a, const void *b, void *strs)
{
	const struct gp_diff_row *x = a, *y = b;
	double cx = fabs(x->change), cy = fabs(y->change);

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return strcmp(gp_strtab_get(strs, x->name), gp_strtab_get(strs, y->name));
}

/* v[0..n) as doubles in a new array. */
static double *as_doubles(const int64_t *v, size_t n)
{
	double *d = gp_xmalloc((n ? n : 1) * sizeof(*d));

	for (size_t i = 0; i < n; i++)
		d[i] = (double)v[i];
	return d;
}

/* A row of figures that are not kernel groups (the step and total rows, a
** rank's step or compute time): per run, per-iteration values v[s][0..n[s])
** (sorted in place) and a total. */
static void series_row(struct gp_diff *d, struct gp_diff_row *r, int kind, const char *name,
		       double **v, const size_t *n, const int64_t *total, const bool *present,
		       const struct gp_diff_opts *o, bool stats)
{
	memset(r, 0, sizeof(*r));
	r->kind = (uint8_t)kind;
	r->name = r->key = gp_strtab_intern(&d->strs, name);
	for (int s = 0; s < 2; s++) {
		struct gp_diff_run *run = s ? &r->test : &r->base;
		run->total = total[s];
		run->calls = present[s] ? n[s] : 0;
		run->flops = run->eff = -1;
		run->med = run->iqr = -1;
	}
	if (n[0] && n[1])
		row_stats(r, v[0], n[0], v[1], n[1], o, name, stats);
	judge(r, o);
	/* a rank of one run only is new or gone, as a group is */
	if (kind == GP_DIFF_ROW_GROUP && (!present[0] || !present[1])) {
		r->status = present[0] ? GP_DIFF_GONE : GP_DIFF_NEW;
		r->rel = present[0] ? -INFINITY : INFINITY;
	}
}

/* A lead row from each run's per-iteration values: per[s] or, with per
** NULL, the idle time of the causes in mask.  Its total is tot[s], the
** whole file's (kernels and idle time outside iterations count), except
** the step's: the sum of the steps, tot[s] (the span) without any. */
static void lead_row(struct gp_diff *d, const struct gp_diff_run_in *const *in, int kind, const char *name,
		     const int64_t *const *per, unsigned mask, const int64_t *tot, const struct gp_diff_opts *o,
		     bool stats)
{
	size_t n[2] = {in[0]->iters, in[1]->iters};
	bool present[2] = {true, true};
	int64_t total[2];
	double *v[2];

	for (int s = 0; s < 2; s++) {
		int64_t sum = 0;
		v[s] = gp_xcalloc(n[s] ? n[s] : 1, sizeof(double));
		for (size_t i = 0; i < n[s]; i++) {
			int64_t x = 0;
			for (int c = 0; !per && c < GP_CAUSE__COUNT; c++)
				x += mask >> c & 1 ? in[s]->idle.v[i * GP_CAUSE__COUNT + c] : 0;
			x = per ? per[s][i] : x;
			v[s][i] = (double)x;
			sum += x;
		}
		total[s] = kind == GP_DIFF_ROW_STEP && n[s] ? sum : tot[s];
	}
	series_row(d, &d->rows[d->n++], kind, name, v, n, total, present, o, stats);
	free(v[0]);
	free(v[1]);
}

/* The lead rows, one whole-job figure per iteration each: the step, the
** GPU's idle time, each idle cause whose time changed significantly, the
** total kernel time.  A cause's row needs its change to be significant and
** at least the threshold of the base step, so that a cause going from
** nothing to a few microseconds (infinitely more) does not lead. */
static void lead_rows(struct gp_diff *d, const struct gp_diff_run_in *const *in, const struct gp_diff_opts *o,
		      bool stats)
{
	const int64_t *step[2] = {in[0]->step.v, in[1]->step.v}, *busy[2] = {in[0]->busy.v, in[1]->busy.v};
	int64_t span[2] = {in[0]->span, in[1]->span}, time[2] = {in[0]->time, in[1]->time}, idle[2] = {0, 0};
	unsigned all = 0;
	double base_step;

	for (int c = 0; c < GP_CAUSE__COUNT; c++)
		all |= gp_cause_is_idle(c) ? 1u << c : 0;
	for (int s = 0; s < 2; s++)
		for (int c = 0; c < GP_CAUSE__COUNT; c++)
			idle[s] += in[s]->idle_total[c];
	lead_row(d, in, GP_DIFF_ROW_STEP, "(step)", step, 0, span, o, stats);
	base_step = d->rows[0].has_ci ? d->rows[0].base.med : (double)d->rows[0].base.total;
	lead_row(d, in, GP_DIFF_ROW_IDLE, "(idle)", NULL, all, idle, o, stats);
	for (int c = 0; c < GP_CAUSE__COUNT; c++) {
		char name[64];
		int64_t tot[2] = {in[0]->idle_total[c], in[1]->idle_total[c]};
		if (!gp_cause_is_idle(c))
			continue;
		snprintf(name, sizeof(name), "(idle: %s)", gp_cause_name(c));
		lead_row(d, in, GP_DIFF_ROW_IDLE, name, NULL, 1u << c, tot, o, stats);
		const struct gp_diff_row *r = &d->rows[d->n - 1];
		if ((r->verdict != GP_DIFF_SIGNIFICANT && r->verdict != GP_DIFF_ABOVE) ||
		    fabs(r->change) < o->threshold * base_step)
			d->n--;
	}
	lead_row(d, in, GP_DIFF_ROW_TOTAL, "(total)", busy, 0, time, o, stats);
	d->lead = d->n;
}

/* The rank of number rank in run r, or NULL. */
static const struct gp_diff_rank *rank_in(const struct gp_diff_run_in *r, int32_t rank)
{
	for (size_t i = 0; i < r->ranks.n; i++)
		if (r->ranks.v[i].rank == rank)
			return &r->ranks.v[i];
	return NULL;
}

/* --by rank: per rank number of either run, its step time and its compute
** time (kernel time outside communication), each over its own iterations. */
static void rank_rows(struct gp_diff *d, const struct gp_diff_run_in *const *in,
		      const struct gp_diff_opts *o, bool stats)
{
	GP_VEC(int32_t) ranks = {0};
	size_t at = d->lead;

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < in[s]->ranks.n; i++)
			if (s == 0 || !rank_in(in[0], in[1]->ranks.v[i].rank))
				*gp_vec_push(ranks) = in[s]->ranks.v[i].rank;
	gp_vec_sort(ranks, cmp_i32);
	d->rows = gp_xrealloc(d->rows, (d->lead + 2 * ranks.n) * sizeof(*d->rows));
	for (size_t i = 0; i < ranks.n; i++) {
		const struct gp_diff_rank *rk[2] = {rank_in(in[0], ranks.v[i]), rank_in(in[1], ranks.v[i])};
		for (int what = 0; what < 2; what++) {
			char name[64];
			double *v[2];
			size_t n[2];
			int64_t total[2];
			bool present[2];
			for (int s = 0; s < 2; s++) {
				const int64_t *per = !rk[s] ? NULL : what == 0 ? rk[s]->step : rk[s]->work;
				int64_t sum = 0;
				present[s] = rk[s] != NULL;
				/* a rank the run lacks: 0 in each of its iterations, as a
				** group that did not run */
				n[s] = rk[s] ? rk[s]->iters : in[s]->iters;
				for (size_t j = 0; per && j < n[s]; j++)
					sum += per[j];
				v[s] = per ? as_doubles(per, n[s]) : gp_xcalloc(n[s] ? n[s] : 1, sizeof(double));
				total[s] = !rk[s] ? 0 : n[s] ? sum : what == 0 ? rk[s]->span : rk[s]->work_total;
			}
			snprintf(name, sizeof(name), "rank %d %s", ranks.v[i], what == 0 ? "step" : "compute");
			series_row(d, &d->rows[at++], GP_DIFF_ROW_GROUP, name, v, n, total, present, o, stats);
			free(v[0]);
			free(v[1]);
		}
	}
	d->n = at;
	gp_vec_free(ranks);
}

/* The kernel groups of both runs, matched by key. */
static void group_rows(struct gp_diff *d, const struct gp_diff_run_in *const *in,
		       const struct gp_diff_opts *o, bool stats)
{
	gp_u64map row_at = {0};      /* key in d->strs -> row */
	size_t n = d->lead, ng = in[0]->groups.n + in[1]->groups.n;
	double *v[2];
	size_t it[2] = {in[0]->iters, in[1]->iters};
	int32_t *row_of[2];

	d->rows = gp_xrealloc(d->rows, (d->lead + ng) * sizeof(*d->rows));
	for (int s = 0; s < 2; s++) {
		row_of[s] = gp_xmalloc((in[s]->groups.n ? in[s]->groups.n : 1) * sizeof(int32_t));
		for (size_t g = 0; g < in[s]->groups.n; g++) {
			const struct gp_diff_group *gr = &in[s]->groups.v[g];
			gp_str key = gp_strtab_intern(&d->strs, gp_strtab_get(&in[s]->strs, gr->key));
			int32_t at = gp_u64map_add(&row_at, key, (int32_t)n);
			struct gp_diff_row *r = &d->rows[at];
			if ((size_t)at == n) {
				memset(r, 0, sizeof(*r));
				r->kind = GP_DIFF_ROW_GROUP;
				r->key = key;
				r->name = gp_strtab_intern(&d->strs, gp_strtab_get(&in[s]->strs, gr->name));
				run_from_sum(&r->base, &(struct gp_diff_sum){0});
				run_from_sum(&r->test, &(struct gp_diff_sum){0});
				n++;
			}
			run_from_sum(s ? &r->test : &r->base, &gr->sum);
			row_of[s][g] = at;
		}
	}
	/* per row, each run's values per iteration: rows x iterations doubles
	** (cells of iterations past the common ones count in the totals only) */
	for (int s = 0; s < 2; s++) {
		v[s] = gp_xcalloc(n * (it[s] ? it[s] : 1), sizeof(double));
		for (size_t c = 0; c < in[s]->cells.n; c++) {
			const struct gp_diff_cell *cl = &in[s]->cells.v[c];
			if (cl->iter < it[s])
				v[s][(size_t)row_of[s][cl->group] * it[s] + cl->iter] += (double)cl->sum;
		}
	}
	for (size_t i = d->lead; i < n; i++) {
		struct gp_diff_row *r = &d->rows[i];
		/* an iteration group holds one value per run: nothing to resample */
		if (o->by != GP_DIFF_BY_ITER && it[0] && it[1])
			row_stats(r, v[0] + i * it[0], it[0], v[1] + i * it[1], it[1], o,
				  gp_strtab_get(&d->strs, r->key), stats);
		judge(r, o);
	}
	d->n = n;
	for (int s = 0; s < 2; s++) {
		free(v[s]);
		free(row_of[s]);
	}
	gp_u64map_free(&row_at);
}

void gp_diff_compute(const struct gp_diff_run_in *base, const struct gp_diff_run_in *test,
		     const struct gp_diff_opts *o, struct gp_diff *d)
{
	const struct gp_diff_run_in *in[2] = {base, test};
	bool stats;

	memset(d, 0, sizeof(*d));
	gp_strtab_init(&d->strs);
	d->by = o->by;
	d->base_iters = base->iters;
	d->test_iters = test->iters;
	d->base_ranks = base->ranks.n;
	d->test_ranks = test->ranks.n;
	stats = o->stats && base->iters >= 4 && test->iters >= 4;
	d->stats = stats;
	d->rows = gp_xcalloc(3 + GP_CAUSE__COUNT, sizeof(*d->rows));
	lead_rows(d, in, o, stats);
	if (o->by == GP_DIFF_BY_RANK)
		rank_rows(d, in, o, stats);
	else
		group_rows(d, in, o, stats);
	if (d->n > d->lead + 1)
		qsort_r(d->rows + d->lead, d->n - d->lead, sizeof(*d->rows), cmp_row, &d->strs);
}

void gp_diff_free(struct gp_diff *d)
{
	free(d->rows);
	gp_strtab_free(&d->strs);
	memset(d, 0, sizeof(*d));
}

/* ---- parts as kept rows ---- */

const struct gp_column gp_diff_part_cols[GP_DIFF_PART_NCOLS] = {
	{"what", "What", 5, false, false, NULL}, {"by", "By", 2, true, false, NULL},
	{"c1", "C1", 4, false, false, NULL}, {"c2", "C2", 4, false, false, NULL},
	{"c3", "C3", 4, false, false, NULL}, {"c4", "C4", 4, false, false, NULL},
	{"c5", "C5", 4, false, false, NULL}, {"c6", "C6", 4, false, false, NULL},
	{"c7", "C7", 4, false, false, NULL}, {"c8", "C8", 4, false, false, NULL},
	{"c9", "C9", 4, false, false, NULL},
};

void gp_diff_part_put(const struct gp_diff_part *p, gp_writer *w)
{
	char v[GP_DIFF_PART_NCOLS][32];
	const char *row[GP_DIFF_PART_NCOLS];

#define CELL_I(i, x) (snprintf(v[i], sizeof(v[i]), "%" PRId64, (int64_t)(x)), row[i] = v[i])
#define CELL_D(i, x) (snprintf(v[i], sizeof(v[i]), "%.17g", (double)(x)), row[i] = v[i])
	memset(row, 0, sizeof(row));
	row[0] = "part";
	CELL_I(1, p->by);
	CELL_I(2, p->iters);
	CELL_I(3, p->span);
	CELL_I(4, p->time);
	CELL_I(5, p->work_total);
	gp_writer_row(w, row);
	for (size_t i = 0; i < p->iters; i++) {
		memset(row, 0, sizeof(row));
		row[0] = "iter";
		CELL_I(1, p->by);
		CELL_I(2, i);
		CELL_I(3, p->step[i]);
		CELL_I(4, p->busy[i]);
		CELL_I(5, p->work[i]);
		gp_writer_row(w, row);
	}
	for (int64_t i = -1; i < (int64_t)p->iters; i++)
		for (int c = 0; c < GP_CAUSE__COUNT; c++) {
			int64_t ns = i < 0 ? p->idle_total[c] : p->idle[i * GP_CAUSE__COUNT + c];
			if (!ns)
				continue;
			memset(row, 0, sizeof(row));
			row[0] = "idle";
			CELL_I(1, p->by);
			CELL_I(2, i);
			CELL_I(3, c);
			CELL_I(4, ns);
			gp_writer_row(w, row);
		}
	for (size_t g = 0; g < p->ngroups; g++) {
		const struct gp_diff_sum *a = &p->groups[g].sum;
		memset(row, 0, sizeof(row));
		row[0] = "group";
		CELL_I(1, p->by);
		row[2] = gp_strtab_get(&p->strs, p->groups[g].key);
		row[3] = gp_strtab_get(&p->strs, p->groups[g].name);
		CELL_I(4, a->total);
		CELL_I(5, a->calls);
		if (a->flops_known)
			CELL_D(6, a->flops);
		CELL_D(7, a->ideal);
		CELL_D(8, a->ideal_time);
		CELL_I(9, a->tc_yes);
		CELL_I(10, a->tc_no);
		gp_writer_row(w, row);
	}
	for (size_t c = 0; c < p->ncells; c++) {
		memset(row, 0, sizeof(row));
		row[0] = "cell";
		CELL_I(1, p->by);
		CELL_I(2, p->cells[c].group);
		CELL_I(3, p->cells[c].iter);
		CELL_I(4, p->cells[c].sum);
		gp_writer_row(w, row);
	}
#undef CELL_I
#undef CELL_D
}

int gp_diff_parts_add(const struct gp_rowbuf *rb, struct gp_diff_run_in *runs, const bool *need, int32_t rank,
		      gp_error *err)
{
	GP_VEC(struct gp_diff_group) groups = {0};
	GP_VEC(struct gp_diff_cell) cells = {0};
	struct gp_diff_part p = {.by = -1};
	const char *c[GP_DIFF_PART_NCOLS];
	size_t at = 0;
	int got;
	bool ok = true;

	while (ok && (got = gp_rowbuf_next(rb, &at, c)) >= 0) {
		int64_t by = -1, x[4] = {0};
		bool part = got > 0 && c[0] && strcmp(c[0], "part") == 0;
		if (p.by >= 0 && (got == 0 || part)) {
			p.groups = groups.v;
			p.ngroups = groups.n;
			p.cells = cells.v;
			p.ncells = cells.n;
			gp_diff_run_add(&runs[p.by], &p, rank);
			gp_diff_part_free(&p);
			groups.v = NULL, groups.n = groups.cap = 0;
			cells.v = NULL, cells.n = cells.cap = 0;
			p.by = -1;
		}
		if (got == 0)
			break;
		if (c[0] && strcmp(c[0], "fact") == 0)
			continue;   /* the file's facts: gp_diff_facts_add (diff_facts.h) */
		ok = c[0] && gp_rowbuf_cell_i64(c[1], 0, GP_DIFF_NBY - 1, &by) && (part || by == p.by);
		if (ok && part) {
			ok = gp_rowbuf_cell_i64(c[2], 0, 100000000, &x[0]) &&
			     gp_rowbuf_cell_i64(c[3], 0, INT64_MAX, &x[1]) &&
			     gp_rowbuf_cell_i64(c[4], 0, INT64_MAX, &x[2]) &&
			     gp_rowbuf_cell_i64(c[5], 0, INT64_MAX, &x[3]) && need[by];
			if (ok) {
				gp_diff_part_init(&p, (int)by);
				p.iters = (size_t)x[0];
				p.span = x[1];
				p.time = x[2];
				p.work_total = x[3];
				p.step = gp_xcalloc(p.iters ? p.iters : 1, sizeof(int64_t));
				p.busy = gp_xcalloc(p.iters ? p.iters : 1, sizeof(int64_t));
				p.work = gp_xcalloc(p.iters ? p.iters : 1, sizeof(int64_t));
				p.idle = gp_xcalloc((p.iters ? p.iters : 1) * GP_CAUSE__COUNT, sizeof(int64_t));
			}
		} else if (ok && strcmp(c[0], "iter") == 0) {
			ok = gp_rowbuf_cell_i64(c[2], 0, (int64_t)p.iters - 1, &x[0]) &&
			     gp_rowbuf_cell_i64(c[3], 0, INT64_MAX, &x[1]) &&
			     gp_rowbuf_cell_i64(c[4], 0, INT64_MAX, &x[2]) &&
			     gp_rowbuf_cell_i64(c[5], 0, INT64_MAX, &x[3]);
			if (ok) {
				p.step[x[0]] = x[1];
				p.busy[x[0]] = x[2];
				p.work[x[0]] = x[3];
			}
		} else if (ok && strcmp(c[0], "idle") == 0) {
			ok = gp_rowbuf_cell_i64(c[2], -1, (int64_t)p.iters - 1, &x[0]) &&
			     gp_rowbuf_cell_i64(c[3], 0, GP_CAUSE__COUNT - 1, &x[1]) &&
			     gp_rowbuf_cell_i64(c[4], 0, INT64_MAX, &x[2]);
			if (ok && x[0] < 0)
				p.idle_total[x[1]] = x[2];
			else if (ok)
				p.idle[x[0] * GP_CAUSE__COUNT + x[1]] = x[2];
		} else if (ok && strcmp(c[0], "group") == 0) {
			struct gp_diff_group *g = gp_vec_push(groups);
			int64_t yes = 0, no = 0;
			g->sum.flops_known = c[6] != NULL;
			ok = c[2] && c[3] && gp_rowbuf_cell_i64(c[4], 0, INT64_MAX, &g->sum.total) &&
			     gp_rowbuf_cell_i64(c[5], 0, INT64_MAX, &x[0]) &&
			     (!c[6] || gp_rowbuf_cell_double(c[6], &g->sum.flops)) &&
			     gp_rowbuf_cell_double(c[7], &g->sum.ideal) &&
			     gp_rowbuf_cell_double(c[8], &g->sum.ideal_time) &&
			     gp_rowbuf_cell_i64(c[9], 0, INT64_MAX, &yes) &&
			     gp_rowbuf_cell_i64(c[10], 0, INT64_MAX, &no);
			if (ok) {
				g->key = gp_strtab_intern(&p.strs, c[2]);
				g->name = gp_strtab_intern(&p.strs, c[3]);
				g->sum.calls = (uint64_t)x[0];
				g->sum.tc_yes = (uint64_t)yes;
				g->sum.tc_no = (uint64_t)no;
			}
		} else if (ok && strcmp(c[0], "cell") == 0) {
			ok = gp_rowbuf_cell_i64(c[2], 0, (int64_t)groups.n - 1, &x[0]) &&
			     gp_rowbuf_cell_i64(c[3], 0, (int64_t)p.iters - 1, &x[1]) &&
			     gp_rowbuf_cell_i64(c[4], 0, INT64_MAX, &x[2]);
			if (ok)
				*gp_vec_push(cells) = (struct gp_diff_cell){(uint32_t)x[0], (uint32_t)x[1], x[2]};
		} else {
			ok = false;
		}
	}
	if (p.by >= 0 || !ok || got < 0) {
		gp_vec_free(groups);
		gp_vec_free(cells);
		if (p.by >= 0)
			gp_diff_part_free(&p);
		return gp_err(err, GP_ERR_FORMAT, "a diff record is damaged (byte %zu of %zu)", at, rb->len);
	}
	return GP_OK;
}
