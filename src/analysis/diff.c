/*
** gp_diff_compute: two runs' kernels grouped by a normalised name, the
** changes, and per-iteration statistics (diff.h, docs/diff.md).
**
** Per run, one pass over the kernels: each kernel's group (the name is
** normalised once per distinct string of the trace), its iteration's
** ordinal (iterations are paired by position, not by number: the test run's
** ProfilerStep#12 is not the base run's), and a (group, iteration) cell
** summing its time.  Then one sort of the cells, far fewer than kernels,
** gives each group its per-iteration vector.
*/
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/diff.h"
#include "util/alloc.h"
#include "util/u64map.h"

/* A group's sums in one run. */
struct acc {
	int64_t total;
	uint64_t calls;
	double flops;
	bool flops_known;
	double ideal, ideal_time;   /* over kernels with an ideal time */
	uint64_t tc_yes, tc_no;
};

struct group {
	gp_str key, name;
	struct acc side[2];
};

/* One (group, iteration) of one run. */
struct cell {
	uint32_t group;
	uint32_t iter;          /* ordinal within the run */
	int64_t sum;
};

typedef GP_VEC(struct cell) cell_vec;

struct builder {
	struct gp_diff *d;
	const struct gp_diff_opts *o;
	GP_VEC(struct group) groups;
	gp_u64map by_key;       /* key gp_str -> index into groups */
	cell_vec cells[2];
	size_t iters[2];
	double *step[2], *busy[2];   /* per iteration: GPU span, kernel time */
	int64_t span[2], time[2];    /* the whole run */
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
	gp_str k = gp_strtab_intern(&b->d->strs, key);
	int32_t g = gp_u64map_get(&b->by_key, k);
	struct group *gr;

	if (g >= 0)
		return (uint32_t)g;
	gr = gp_vec_push(b->groups);
	gr->key = k;
	gr->name = gp_strtab_intern(&b->d->strs, name);
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
	if (b->o->by == GP_DIFF_BY_KERNEL)
		return group_of(b, gp_diff_kernel_key(s, buf, sizeof(buf)), s);
	if (b->o->by == GP_DIFF_BY_OP) {
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
		r = op_range(t, k);
		if (r >= 0)
			return t->ranges.v[r].text;
		return a ? (a->op ? a->op : a->marker) : 0;
	}
	return a ? a->layer : 0;
}

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

/* The run's iterations with kernels: *n of them; map gets iteration number
** -> ordinal (ascending numbers). */
static void run_iterations(const gp_trace *t, size_t *n, gp_u64map *map)
{
	GP_VEC(int32_t) its = {0};

	for (size_t k = 0; t->attrs && k < t->kernels.n; k++) {
		int32_t it = t->attrs[k].iter;
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

/* An iteration's launch window: from the first to the last launch call of
** the kernels the correlation put in it. */
struct window {
	int64_t lo, hi;
	int32_t ord;
};

static int cmp_window(const void *a, const void *b)
{
	const struct window *x = a, *y = b;
	return (x->lo > y->lo) - (x->lo < y->lo);
}

/* The launch windows of t's nit iterations, by start (*n of them; the
** caller frees).  A kernel launched from a thread that holds no iteration
** range (PyTorch's autograd thread under NVTX) is in no iteration for the
** correlation; it belongs to the iteration whose window holds its launch. */
static struct window *launch_windows(const gp_trace *t, const gp_u64map *iter_ord, size_t nit, size_t *n)
{
	struct window *w = gp_xmalloc((nit ? nit : 1) * sizeof(*w));
	size_t m = 0;

	for (size_t i = 0; i < nit; i++)
		w[i] = (struct window){INT64_MAX, INT64_MIN, (int32_t)i};
	for (size_t k = 0; t->attrs && k < t->kernels.n; k++) {
		const struct gp_attr *a = &t->attrs[k];
		const struct gp_api *api;
		int32_t ord;
		if (a->iter < 0 || a->api < 0 || (size_t)a->api >= t->apis.n)
			continue;
		ord = gp_u64map_get(iter_ord, (uint32_t)a->iter);
		api = &t->apis.v[a->api];
		w[ord].lo = api->start < w[ord].lo ? api->start : w[ord].lo;
		w[ord].hi = api->end > w[ord].hi ? api->end : w[ord].hi;
	}
	for (size_t i = 0; i < nit; i++)
		if (w[i].lo <= w[i].hi)
			w[m++] = w[i];
	if (m > 1)
		qsort(w, m, sizeof(*w), cmp_window);
	*n = m;
	return w;
}

/* The ordinal of the iteration whose window holds time x, or -1. */
static int32_t window_at(const struct window *w, size_t n, int64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {           /* first window starting after x */
		size_t mid = lo + (hi - lo) / 2;
		if (w[mid].lo <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && x <= w[lo - 1].hi ? w[lo - 1].ord : -1;
}

/* The group of kernel k of t (in iteration ordinal ord, -1 = none), the
** name groups memoised in group_by_str (one slot per string of t,
** UINT32_MAX = not yet seen; slot 0 is the nameless "(none)" group). */
static uint32_t kernel_group(struct builder *b, const gp_trace *t, size_t k, int32_t ord, uint32_t *group_by_str)
{
	gp_str str;

	if (b->o->by == GP_DIFF_BY_ITER) {
		char name[32];
		if (ord < 0)
			return group_of(b, "(none)", "(none)");
		snprintf(name, sizeof(name), "iteration %d", ord);
		return group_of(b, name, name);
	}
	str = kernel_group_str(t, k, b->o->by);
	if (str > t->strs.n)
		str = 0;
	if (group_by_str[str] == UINT32_MAX)
		group_by_str[str] = group_of_name(b, str ? gp_s(t, str) : NULL);
	return group_by_str[str];
}

/* One run's pass over its kernels: groups, sums, cells, step spans. */
static void add_run(struct builder *b, int s, const struct gp_diff_side *in)
{
	const gp_trace *t = in->t;
	size_t nstr = t->strs.n + 1, nit;
	uint32_t *group_by_str = gp_xmalloc(nstr * sizeof(*group_by_str));
	gp_u64map iter_ord = {0}, cell_at = {0};
	int64_t first = INT64_MAX, last = INT64_MIN;
	int64_t *it_first, *it_last;
	struct window *win;
	size_t nwin;

	memset(group_by_str, 0xff, nstr * sizeof(*group_by_str));
	run_iterations(t, &nit, &iter_ord);
	win = launch_windows(t, &iter_ord, nit, &nwin);
	b->iters[s] = nit;
	b->step[s] = gp_xcalloc(nit ? nit : 1, sizeof(double));
	b->busy[s] = gp_xcalloc(nit ? nit : 1, sizeof(double));
	it_first = gp_xmalloc((nit ? nit : 1) * sizeof(int64_t));
	it_last = gp_xmalloc((nit ? nit : 1) * sizeof(int64_t));
	for (size_t i = 0; i < nit; i++) {
		it_first[i] = INT64_MAX;
		it_last[i] = INT64_MIN;
	}
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		int64_t dur = kr->end > kr->start ? kr->end - kr->start : 0;
		int32_t it = t->attrs ? t->attrs[k].iter : -1, ord = it >= 0 ? gp_u64map_get(&iter_ord, (uint32_t)it) : -1;
		uint32_t g;
		struct acc *a;

		if (ord < 0 && t->attrs && t->attrs[k].api >= 0 && (size_t)t->attrs[k].api < t->apis.n)
			ord = window_at(win, nwin, t->apis.v[t->attrs[k].api].start);
		g = kernel_group(b, t, k, ord, group_by_str);
		a = &b->groups.v[g].side[s];
		a->total += dur;
		a->calls++;
		if (in->flops && in->flops[k] >= 0) {
			a->flops += in->flops[k];
			a->flops_known = true;
		}
		if (in->ideal_ns && in->ideal_ns[k] >= 0) {
			a->ideal += in->ideal_ns[k];
			a->ideal_time += (double)dur;
		}
		if (in->tc && in->tc[k] == 1)
			a->tc_yes++;
		else if (in->tc && in->tc[k] == 0)
			a->tc_no++;
		b->time[s] += dur;
		first = kr->start < first ? kr->start : first;
		last = kr->end > last ? kr->end : last;
		if (ord >= 0) {
			uint64_t ck = (uint64_t)g << 32 | (uint32_t)ord;
			int32_t c = gp_u64map_get(&cell_at, ck);
			if (c < 0) {
				struct cell *cl = gp_vec_push(b->cells[s]);
				cl->group = g;
				cl->iter = (uint32_t)ord;
				c = (int32_t)(b->cells[s].n - 1);
				gp_u64map_put(&cell_at, ck, c);
			}
			b->cells[s].v[c].sum += dur;
			b->busy[s][ord] += (double)dur;
			it_first[ord] = kr->start < it_first[ord] ? kr->start : it_first[ord];
			it_last[ord] = kr->end > it_last[ord] ? kr->end : it_last[ord];
		}
	}
	for (size_t i = 0; i < nit; i++)
		b->step[s][i] = (double)(it_last[i] - it_first[i]);
	b->span[s] = last > first ? last - first : 0;
	free(it_first);
	free(it_last);
	free(win);
	free(group_by_str);
	gp_u64map_free(&iter_ord);
	gp_u64map_free(&cell_at);
}

static int cmp_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return (x->iter > y->iter) - (x->iter < y->iter);
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
	qsort(diffs, nr, sizeof(*diffs), cmp_double);
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
	qsort(vb, nb, sizeof(*vb), cmp_double);
	qsort(vt, nt, sizeof(*vt), cmp_double);
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

static void run_from_acc(struct gp_diff_run *r, const struct acc *a)
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

/* The step and total rows: one run-wide figure per iteration each. */
static void summary_rows(struct builder *b, bool stats)
{
	struct gp_diff *d = b->d;
	const char *names[2] = {"(step)", "(total)"};

	for (int k = 0; k < 2; k++) {
		struct gp_diff_row *r = &d->rows[k];
		double **per = k == 0 ? b->step : b->busy;
		memset(r, 0, sizeof(*r));
		r->kind = k == 0 ? GP_DIFF_ROW_STEP : GP_DIFF_ROW_TOTAL;
		r->name = r->key = gp_strtab_intern(&d->strs, names[k]);
		for (int s = 0; s < 2; s++) {
			struct gp_diff_run *run = s ? &r->test : &r->base;
			double sum = 0;
			for (size_t i = 0; i < b->iters[s]; i++)
				sum += per[s][i];
			run->total = k == 1 ? b->time[s] : b->iters[s] ? (int64_t)sum : b->span[s];
			run->calls = b->iters[s];
			run->flops = run->eff = -1;
			run->med = run->iqr = -1;
		}
		if (b->iters[0] && b->iters[1])
			row_stats(r, per[0], b->iters[0], per[1], b->iters[1], b->o, names[k], stats);
		judge(r, b->o);
	}
}

void gp_diff_compute(const struct gp_diff_side *base, const struct gp_diff_side *test,
		     const struct gp_diff_opts *o, struct gp_diff *d)
{
	struct builder b = {.d = d, .o = o};
	bool stats;
	size_t ng, c[2] = {0, 0};
	double *v[2];

	memset(d, 0, sizeof(*d));
	gp_strtab_init(&d->strs);
	d->by = o->by;
	add_run(&b, 0, base);
	add_run(&b, 1, test);
	d->base_iters = b.iters[0];
	d->test_iters = b.iters[1];
	stats = o->stats && b.iters[0] >= 4 && b.iters[1] >= 4;
	d->stats = stats;
	ng = b.groups.n;
	d->n = ng + 2;
	d->rows = gp_xcalloc(d->n, sizeof(*d->rows));
	summary_rows(&b, stats);

	for (int s = 0; s < 2; s++) {
		gp_vec_sort(b.cells[s], cmp_cell);
		v[s] = gp_xmalloc((b.iters[s] ? b.iters[s] : 1) * sizeof(double));
	}
	for (size_t g = 0; g < ng; g++) {
		struct gp_diff_row *r = &d->rows[g + 2];
		const struct group *gr = &b.groups.v[g];
		r->kind = GP_DIFF_ROW_GROUP;
		r->key = gr->key;
		r->name = gr->name;
		run_from_acc(&r->base, &gr->side[0]);
		run_from_acc(&r->test, &gr->side[1]);
		for (int s = 0; s < 2; s++) {
			memset(v[s], 0, (b.iters[s] ? b.iters[s] : 1) * sizeof(double));
			for (; c[s] < b.cells[s].n && b.cells[s].v[c[s]].group == g; c[s]++)
				v[s][b.cells[s].v[c[s]].iter] = (double)b.cells[s].v[c[s]].sum;
		}
		/* an iteration group holds one value per run: nothing to resample */
		if (o->by != GP_DIFF_BY_ITER && b.iters[0] && b.iters[1])
			row_stats(r, v[0], b.iters[0], v[1], b.iters[1], o, gp_strtab_get(&d->strs, gr->key),
				  stats);
		judge(r, o);
	}
	if (ng > 1)
		qsort_r(d->rows + 2, ng, sizeof(*d->rows), cmp_row, &d->strs);

	for (int s = 0; s < 2; s++) {
		free(v[s]);
		free(b.step[s]);
		free(b.busy[s]);
		gp_vec_free(b.cells[s]);
	}
	gp_vec_free(b.groups);
	gp_u64map_free(&b.by_key);
}

void gp_diff_free(struct gp_diff *d)
{
	free(d->rows);
	gp_strtab_free(&d->strs);
	memset(d, 0, sizeof(*d));
}

/* A limit: "+5%", "-10%", "+1ms", "200us", "3s", "1500ns" (sign optional). */
static bool parse_limit(const char *s, struct gp_diff_gate *g)
{
	static const struct { const char *unit; double ns; } units[] = {
		{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9},
	};
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return false;
	if (strcmp(end, "%") == 0) {
		g->relative = true;
		g->limit = v / 100;
		return true;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0) {
			g->relative = false;
			g->limit = v * units[i].ns;
			return true;
		}
	return false;
}

int gp_diff_gate_parse(const char *text, struct gp_diff_gate *g, gp_error *err)
{
	static const char *const kinds[] = {"kernel", "op", "layer", "iter"};
	const char *cmp = NULL;
	size_t len;

	memset(g, 0, sizeof(*g));
	g->text = text;
	/* the comparison is the last '<' or '>' followed by a valid limit:
	** kernel names hold template brackets */
	for (const char *p = text + strlen(text); p > text;) {
		p--;
		if ((*p == '<' || *p == '>') && parse_limit(p + 1, g)) {
			cmp = p;
			break;
		}
	}
	if (!cmp)
		return gp_err(err, GP_ERR_USAGE, "bad --fail-if '%s': no '>LIMIT' or '<LIMIT' at its end "
			      "(a LIMIT is like +5%%, -10%%, +2ms)", text);
	g->above = *cmp == '>';
	len = (size_t)(cmp - text);
	if (len == 4 && strncmp(text, "step", 4) == 0) {
		g->target = GP_GATE_STEP;
		return 0;
	}
	if (len == 5 && strncmp(text, "total", 5) == 0) {
		g->target = GP_GATE_TOTAL;
		return 0;
	}
	for (int i = 0; i < 4; i++) {
		size_t k = strlen(kinds[i]);
		if (len > k + 1 && strncmp(text, kinds[i], k) == 0 && text[k] == ':') {
			if (len - k - 1 >= sizeof(g->pattern))
				return gp_err(err, GP_ERR_USAGE, "bad --fail-if '%s': the pattern is too long", text);
			g->target = GP_GATE_GROUP;
			g->by = i;
			memcpy(g->pattern, text + k + 1, len - k - 1);
			g->pattern[len - k - 1] = '\0';
			return 0;
		}
	}
	return gp_err(err, GP_ERR_USAGE, "bad --fail-if '%s': it starts with step, total, kernel:PATTERN, "
		      "op:PATTERN, layer:PATTERN or iter:PATTERN", text);
}

/* Whether row r is the one g speaks of. */
static bool gate_matches(const struct gp_diff *d, const struct gp_diff_gate *g, const struct gp_diff_row *r)
{
	if (g->target == GP_GATE_STEP)
		return r->kind == GP_DIFF_ROW_STEP;
	if (g->target == GP_GATE_TOTAL)
		return r->kind == GP_DIFF_ROW_TOTAL;
	return r->kind == GP_DIFF_ROW_GROUP &&
	       (fnmatch(g->pattern, gp_strtab_get(&d->strs, r->name), 0) == 0 ||
		fnmatch(g->pattern, gp_strtab_get(&d->strs, r->key), 0) == 0);
}

const struct gp_diff_row *gp_diff_gate_next(const struct gp_diff *d, const struct gp_diff_gate *g,
					    bool respect_noise, size_t *from)
{
	for (size_t i = *from; i < d->n; i++) {
		const struct gp_diff_row *r = &d->rows[i];
		double v;
		if (!gate_matches(d, g, r))
			continue;
		v = g->relative ? r->rel : r->change;
		if (!(g->above ? v > g->limit : v < g->limit))
			continue;
		if (respect_noise && r->has_ci && !(r->ci_lo > 0 || r->ci_hi < 0))
			continue;
		*from = i + 1;
		return r;
	}
	*from = d->n;
	return NULL;
}
