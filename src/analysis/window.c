/*
** Cutting a correlated trace to a window; see window.h and docs/window.md.
** One pass per record array: mark what stays, compact in order (so the
** arrays stay sorted and nested as gp_trace_finish left them), then
** renumber the indices that point into the compacted arrays.
*/
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/correlate.h"
#include "analysis/layers.h"
#include "analysis/steps.h"
#include "analysis/window.h"
#include "model/classify.h"

bool gp_window_iteration_span(const gp_trace *t, int32_t a, int32_t b, gp_ns *lo, gp_ns *hi)
{
	bool any = false;

	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_attr *at = &t->attrs[k];
		if (at->iter < a || at->iter > b)
			continue;
		gp_ns s = t->kernels.v[k].start, e = t->kernels.v[k].end;
		if (at->api >= 0 && t->apis.v[at->api].start < s)
			s = t->apis.v[at->api].start;
		if (!any || s < *lo)
			*lo = s;
		if (!any || e > *hi)
			*hi = e;
		any = true;
	}
	return any;
}

/* Why no kernel is in iterations a..b: the trace has none, or which it has. */
static int no_iterations(const gp_trace *t, int32_t a, int32_t b, gp_error *err)
{
	int32_t first = INT32_MAX, last = -1;

	for (size_t k = 0; k < t->kernels.n; k++) {
		int32_t it = t->attrs[k].iter;
		if (it >= 0 && it < first)
			first = it;
		if (it > last)
			last = it;
	}
	if (last < 0)
		return gp_err(err, GP_ERR_USAGE,
			      "%s: --iters: no kernel belongs to an iteration (the trace has no "
			      "ProfilerStep#N, NVTX \"iteration N\" or libgpuprof iteration ranges "
			      "around its launches)", gp_s(t, t->path));
	return gp_err(err, GP_ERR_USAGE,
		      "%s: no kernels in iterations %" PRId32 " to %" PRId32
		      " (the trace's kernels are in iterations %" PRId32 " to %" PRId32 ")",
		      gp_s(t, t->path), a, b, first, last);
}

/* Compacts vec (a GP_VEC) to the elements i with keep[i], writing each old
** index's new one (-1 when dropped) to renum when it is not NULL. */
#define COMPACT(vec, keep, renum)                                       \
	do {                                                            \
		size_t n_ = 0;                                          \
		for (size_t i_ = 0; i_ < (vec).n; i_++) {               \
			if ((renum) != NULL)                            \
				((int32_t *)(renum))[i_] = (keep)[i_] ? (int32_t)n_ : -1; \
			if ((keep)[i_])                                 \
				(vec).v[n_++] = (vec).v[i_];            \
		}                                                       \
		(vec).n = n_;                                           \
	} while (0)

/* Marks the records of vec (a GP_VEC of records with start and end) that
** overlap [lo, hi]. */
#define MARK_OVERLAP(vec, keep, lo, hi)                                         \
	for (size_t i_ = 0; i_ < (vec).n; i_++)                                 \
		(keep)[i_] = gp_span_overlaps((vec).v[i_].start, (vec).v[i_].end, lo, hi)

/* Keeps the ends of the whole (not yet windowed) trace's steps in t, for
** the window's steps to end where the run's do (steps.h). */
static void keep_step_ends(gp_trace *t)
{
	struct gp_steps s;

	gp_steps_find(t, &s);
	t->window_step_ends.n = 0;
	for (size_t i = 0; i < s.n; i++)
		*gp_vec_push(t->window_step_ends) = (struct gp_step_end){s.v[i].iter, s.v[i].end};
	gp_steps_free(&s);
}

/* Whether id's text (0: none) matches the regex re. */
static bool text_matches(const gp_trace *t, gp_str id, const regex_t *re)
{
	return id && regexec(re, gp_s(t, id), 0, NULL, 0) == 0;
}

/* Whether layer path starts with the components of prefix: "Model/Block_1"
** selects Model/Block_1 and Model/Block_1/Attention, not Model/Block_10. */
static bool layer_under(const char *path, const char *prefix)
{
	size_t n = strlen(prefix);

	while (n && prefix[n - 1] == GP_LAYER_SEP)
		n--;
	return strncmp(path, prefix, n) == 0 && (path[n] == '\0' || path[n] == GP_LAYER_SEP);
}

bool gp_kernel_filter_selects(const gp_trace *t, size_t k, const struct gp_kernel_filter *f)
{
	const struct gp_attr *at = &t->attrs[k];

	if (f->name) {
		const struct gp_kernel_def *d = gp_kernel_def(t, &t->kernels.v[k]);
		const regex_t *re = f->name;
		if (!text_matches(t, d->name, re) && !text_matches(t, d->demangled, re) &&
		    !text_matches(t, at->marker, re) && !text_matches(t, at->op, re))
			return false;
	}
	if (f->layer && (!at->layer || !layer_under(gp_s(t, at->layer), f->layer)))
		return false;
	if (f->range) {
		int32_t r = at->range;
		while (r >= 0 && strcmp(gp_s(t, t->ranges.v[r].text), f->range) != 0)
			r = t->ranges.v[r].parent;
		if (r < 0)
			return false;
	}
	return true;
}

static int32_t renumber(const int32_t *renum, int32_t i)
{
	return i < 0 ? -1 : renum[i];
}

int gp_window_apply(gp_trace *t, const struct gp_window *w, const struct gp_peak_opts *po, gp_ns *lo, gp_ns *hi,
		    gp_error *err)
{
	size_t most;
	bool *keep;
	int32_t *renum_kernel, *renum_api, *renum_range;

	bool filters = gp_window_filters(w);

	if (w->mode == GP_WINDOW_NONE && !filters) {
		if (!gp_trace_span(t, lo, hi))
			*lo = *hi = 0;
		return GP_OK;
	}
	if (w->mode == GP_WINDOW_ITERS) {
		if (!gp_window_iteration_span(t, w->iter_a, w->iter_b, lo, hi))
			return no_iterations(t, w->iter_a, w->iter_b, err);
	} else if (w->mode == GP_WINDOW_TIME) {
		gp_ns origin = gp_trace_start(t);
		*lo = w->start_rel ? origin + w->rel_start : w->start;
		*hi = w->end_rel ? origin + w->rel_end : w->end;
		if (*hi < *lo)
			return gp_err(err, GP_ERR_USAGE, "%s: --end is before --start", gp_s(t, t->path));
	} else {
		*lo = GP_NS_MIN;   /* filters alone: the whole trace */
		*hi = GP_NS_MAX;
	}
	/* the cut uses lo..hi; an open end is reported as the trace's own
	** (the export's counters span the window) */
	gp_ns cut_lo = *lo, cut_hi = *hi, first, last;
	if ((cut_lo == GP_NS_MIN || cut_hi == GP_NS_MAX) && gp_trace_span(t, &first, &last)) {
		*lo = cut_lo == GP_NS_MIN ? first : cut_lo;
		*hi = cut_hi == GP_NS_MAX ? last : cut_hi;
	}

	free(t->kernel_trial);
	t->kernel_trial = gp_ops_trials(t, po);
	keep_step_ends(t);
	t->windowed = true;
	t->window_lo = *lo;
	t->window_hi = *hi;
	most = t->kernels.n;
	if (t->apis.n > most) most = t->apis.n;
	if (t->ranges.n > most) most = t->ranges.n;
	if (t->memcpys.n > most) most = t->memcpys.n;
	if (t->memsets.n > most) most = t->memsets.n;
	if (t->syncs.n > most) most = t->syncs.n;
	if (t->memevents.n > most) most = t->memevents.n;
	keep = gp_xmalloc((most ? most : 1) * sizeof(*keep));
	renum_kernel = gp_xmalloc((t->kernels.n ? t->kernels.n : 1) * sizeof(int32_t));
	renum_api = gp_xmalloc((t->apis.n ? t->apis.n : 1) * sizeof(int32_t));
	renum_range = gp_xmalloc((t->ranges.n ? t->ranges.n : 1) * sizeof(int32_t));

	/* kernels, with their attributions; another iteration's kernel that
	** runs inside an iteration window's span is its busy time all the
	** same: kept aside, clipped to the span */
	t->window_work.n = 0;
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		keep[k] = w->mode == GP_WINDOW_ITERS
			? t->attrs[k].iter >= w->iter_a && t->attrs[k].iter <= w->iter_b
			: gp_span_overlaps(kr->start, kr->end, cut_lo, cut_hi);
		if (keep[k] && filters)
			keep[k] = gp_kernel_filter_selects(t, k, &w->filter);
		if (!keep[k] && kr->end > cut_lo && kr->start < cut_hi)
			*gp_vec_push(t->window_work) = (struct gp_window_work){
				kr->start > cut_lo ? kr->start : cut_lo, kr->end < cut_hi ? kr->end : cut_hi,
				gp_kernel_device(t, kr), kr->stream, gp_kernel_is_comm(t, kr),
				/* the launch of work that starts inside the window is in its chain */
				kr->start > cut_lo ? t->attrs[k].api : -1, gp_kernel_pid(t, kr),
				gp_kernel_short_name_of(t, kr)};
	}
	size_t nk = 0;
	for (size_t k = 0; k < t->kernels.n; k++) {
		renum_kernel[k] = keep[k] ? (int32_t)nk : -1;
		if (keep[k]) {
			t->kernels.v[nk] = t->kernels.v[k];
			if (t->replay_graph)
				t->replay_graph[nk] = t->replay_graph[k];
			if (t->replay_node)
				t->replay_node[nk] = t->replay_node[k];
			if (t->kernel_trial)
				t->kernel_trial[nk] = t->kernel_trial[k];
			t->attrs[nk++] = t->attrs[k];
		}
	}
	t->kernels.n = nk;
	size_t missing = 0;
	for (size_t k = 0; k < nk; k++)
		missing += t->attrs[k].api < 0;
	if (missing && t->apis.n)
		gp_correlate_note_missing(t, missing);

	/* API calls and ranges in the span, and those the kept kernels'
	** attributions name, so that every kept kernel keeps its launch and
	** the ranges around it */
	MARK_OVERLAP(t->apis, keep, cut_lo, cut_hi);
	for (size_t k = 0; k < nk; k++)
		if (t->attrs[k].api >= 0)
			keep[t->attrs[k].api] = true;
	for (size_t i = 0; i < t->window_work.n; i++)
		if (t->window_work.v[i].api >= 0)
			keep[t->window_work.v[i].api] = true;
	COMPACT(t->apis, keep, renum_api);
	for (size_t i = 0; i < t->window_work.n; i++)
		t->window_work.v[i].api = renumber(renum_api, t->window_work.v[i].api);

	MARK_OVERLAP(t->ranges, keep, cut_lo, cut_hi);
	for (size_t k = 0; k < nk; k++)
		for (int32_t r = t->attrs[k].range; r >= 0 && !keep[r]; r = t->ranges.v[r].parent)
			keep[r] = true;
	COMPACT(t->ranges, keep, renum_range);
	for (size_t r = 0; r < t->ranges.n; r++)
		t->ranges.v[r].parent = renumber(renum_range, t->ranges.v[r].parent);

	for (size_t k = 0; k < nk; k++) {
		struct gp_attr *a = &t->attrs[k];
		a->api = renumber(renum_api, a->api);
		a->range = renumber(renum_range, a->range);
		a->fwd = renumber(renum_kernel, a->fwd);
	}

	MARK_OVERLAP(t->memcpys, keep, cut_lo, cut_hi);
	COMPACT(t->memcpys, keep, NULL);
	MARK_OVERLAP(t->memsets, keep, cut_lo, cut_hi);
	COMPACT(t->memsets, keep, NULL);
	if (filters)   /* a filter selects kernels: copies and memsets are none */
		t->memcpys.n = t->memsets.n = 0;
	MARK_OVERLAP(t->syncs, keep, cut_lo, cut_hi);
	COMPACT(t->syncs, keep, NULL);
	for (size_t i = 0; i < t->memevents.n; i++)
		keep[i] = t->memevents.v[i].ts >= cut_lo && t->memevents.v[i].ts <= cut_hi;
	COMPACT(t->memevents, keep, NULL);

	free(renum_range);
	free(renum_api);
	free(renum_kernel);
	free(keep);
	return GP_OK;
}
