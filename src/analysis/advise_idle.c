/*
** advise's idle-time rules, on the time breakdown's gaps and causes:
** idle-gaps (long gaps no cause explains, and the CPU's calls in them),
** sync-calls (the CPU waiting in a synchronize call), host-launch (the
** launch returned after the gap began), short-gaps (launch latency between
** back-to-back work), tiny-kernels (launch-bound tiny kernels).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "model/classify.h"

/* The finding for idle cause c: every gap claims its time of that cause;
** fires at gp_adv_lim.min_share of the span.  Returns the time and gaps in
** *total, *n. */
static bool idle_cause(const struct gp_adv_in *in, int c, double *total, size_t *n)
{
	*total = 0;
	*n = 0;
	for (size_t i = 0; i < in->gaps.n; i++) {
		double v = gp_adv_gap_cause_ns(in, i, c);
		if (v <= 0)
			continue;
		*total += v;
		(*n)++;
		gp_adv_claim(in, in->gap0 + i, v);
	}
	return *n && *total >= gp_adv_lim.min_share * in->f->span_ns;
}

/* host-launch: idle time the breakdown puts on the host launching too
** slowly (the next kernel's launch call returned after the gap began). */
bool gp_rule_host_launch(const struct gp_adv_in *in, struct gp_finding *x)
{
	double total, cap = in->f->capacity_ns;
	size_t n;
	char d1[32];

	if (!idle_cause(in, GP_IDLE_HOST_LAUNCH, &total, &n))
		return false;
	gp_adv_involved(x, total, n);
	snprintf(x->title, sizeof(x->title), HOST_TITLE, gp_adv_fmt_ms(total, d1, sizeof(d1)),
		 cap > 0 ? 100 * total / cap : 0.0, n);
	snprintf(x->evidence, sizeof(x->evidence), "%s", HOST_EVIDENCE);
	gp_adv_largest_gaps(in, GP_IDLE_HOST_LAUNCH, NULL, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", HOST_CHANGE);
	return true;
}

/* short-gaps: gaps shorter than the breakdown's short-gap threshold
** between back-to-back GPU work: launch latency CUDA graphs remove. */
bool gp_rule_short_gaps(const struct gp_adv_in *in, struct gp_finding *x)
{
	double total, cap = in->f->capacity_ns;
	size_t n;
	char d1[32];

	if (!idle_cause(in, GP_IDLE_SHORT_GAP, &total, &n))
		return false;
	gp_adv_involved(x, total, n);
	snprintf(x->title, sizeof(x->title), SHORT_TITLE, n, (double)in->b->short_gap_ns / 1e3,
		 gp_adv_fmt_ms(total, d1, sizeof(d1)), cap > 0 ? 100 * total / cap : 0.0);
	snprintf(x->evidence, sizeof(x->evidence), SHORT_EVIDENCE, total / (double)n / 1e3);
	gp_adv_largest_gaps(in, GP_IDLE_SHORT_GAP, NULL, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", SHORT_CHANGE);
	return true;
}

/* idle-gaps: the GPU idle between activities, and what the CPU was doing. */
bool gp_rule_idle_gaps(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double idle = 0, biggest = 0, unexplained = 0;
	gp_ns big_at = 0;
	struct gp_adv_agg cause;
	char d1[32], d2[32];
	bool found;
	size_t n = 0;

	bool *long_gap = gp_xcalloc(in->gaps.n ? in->gaps.n : 1, sizeof(*long_gap));

	gp_adv_agg_init(&cause, t);
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct gp_adv_gap *g = &in->gaps.v[i];
		double other = gp_adv_gap_cause_ns(in, i, GP_IDLE_OTHER);
		if (g->ns < gp_adv_lim.idle_gap_ns)
			continue;
		idle += g->ns;
		n++;
		long_gap[i] = true;
		/* the time a cause explains is its finding's (host-launch,
		** sync-calls, pageable-memcpy): this one keeps the rest */
		unexplained += other;
		gp_adv_claim(in, in->gap0 + i, other);
		if (g->ns > biggest) {
			biggest = g->ns;
			big_at = g->c->start;
		}
		gp_adv_agg_add(&cause, g->api >= 0 ? gp_api_def(t, &t->apis.v[g->api])->name : 0, g->ns, 0);
	}
	/* fires on the idle time no cause explains */
	found = n && unexplained >= gp_adv_lim.min_share * in->f->span_ns;
	if (found) {
		double cap = in->f->capacity_ns;
		gp_adv_involved(x, idle, n);
		snprintf(x->title, sizeof(x->title), IDLE_TITLE, gp_adv_fmt_ms(idle, d1, sizeof(d1)), n,
			 gp_adv_lim.idle_gap_ns / 1e3, cap > 0 ? 100 * idle / cap : 0.0);
		gp_str top[3];
		int ntop = gp_adv_agg_top(&cause, top, 3);
		size_t len = (size_t)snprintf(x->evidence, sizeof(x->evidence), IDLE_EVIDENCE,
					      gp_adv_fmt_ms(biggest, d2, sizeof(d2)), (double)(big_at - in->first) / 1e9);
		for (int i = 0; i < ntop && len < sizeof(x->evidence); i++)
			len += (size_t)snprintf(x->evidence + len, sizeof(x->evidence) - len, IDLE_EVIDENCE_CAUSE,
						i ? ";" : "", top[i] ? gp_s(t, top[i]) : IDLE_NO_CALL,
						gp_adv_fmt_ms(cause.ns[top[i]], d1, sizeof(d1)), cause.cnt[top[i]]);
		const double idle_all = in->idle_ns, *by = in->idle_cause_ns;
		if (idle_all > 0 && len < sizeof(x->evidence))
			snprintf(x->evidence + len, sizeof(x->evidence) - len, IDLE_EVIDENCE_BREAKDOWN,
				 gp_adv_fmt_ms(idle_all, d1, sizeof(d1)), 100 * by[GP_IDLE_HOST_LAUNCH] / idle_all,
				 100 * by[GP_IDLE_SYNC] / idle_all, 100 * by[GP_IDLE_PAGEABLE] / idle_all,
				 100 * by[GP_IDLE_SHORT_GAP] / idle_all, 100 * by[GP_IDLE_OTHER] / idle_all);
		gp_adv_largest_gaps(in, -1, long_gap, x->evidence, sizeof(x->evidence));
		const char *top0 = ntop && top[0] ? gp_s(t, top[0]) : "";
		bool alloc = strstr(top0, "Malloc") || strstr(top0, "Free");
		snprintf(x->change, sizeof(x->change), "%s%s", alloc ? IDLE_CHANGE_ALLOC : "", IDLE_CHANGE);
	}
	gp_adv_agg_free(&cause);
	free(long_gap);
	return found;
}

/* sync-calls: idle gaps during which the host sat in a synchronizing call. */
bool gp_rule_sync_calls(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double sync_idle = 0;
	size_t nsync_gaps = 0;
	struct gp_adv_agg calls;
	char d1[32], d2[32];

	/* the time the CPU sat in a call that waits during each gap */
	for (size_t i = 0; i < in->gaps.n; i++) {
		double ns = gp_adv_gap_cause_ns(in, i, GP_IDLE_SYNC);
		if (ns <= 0)
			continue;
		sync_idle += ns;
		nsync_gaps++;
		gp_adv_claim(in, in->gap0 + i, ns);
	}
	if (!nsync_gaps || sync_idle < gp_adv_lim.min_share * in->f->span_ns)
		return false;
	gp_adv_involved(x, sync_idle, nsync_gaps);
	/* the calls whose time the breakdown counts as sync (those that wait) */
	gp_adv_agg_init(&calls, t);
	for (size_t i = 0; i < t->apis.n; i++)
		if (gp_sync_call_waits(gp_api_sync_call(gp_s(t, gp_api_def(t, &t->apis.v[i])->name))))
			gp_adv_agg_add(&calls, gp_api_def(t, &t->apis.v[i])->name,
				       (double)(t->apis.v[i].end - t->apis.v[i].start), 0);
	snprintf(x->title, sizeof(x->title), SYNC_TITLE, gp_adv_fmt_ms(sync_idle, d1, sizeof(d1)));
	gp_adv_evidence(t, NULL, &calls, x->evidence, sizeof(x->evidence), "calls");
	size_t len = strlen(x->evidence);
	snprintf(x->evidence + len, sizeof(x->evidence) - len, SYNC_EVIDENCE_CAUSE,
		 gp_adv_fmt_ms(sync_idle, d2, sizeof(d2)), nsync_gaps);
	gp_adv_largest_gaps(in, GP_IDLE_SYNC, NULL, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", SYNC_CHANGE);
	gp_adv_agg_free(&calls);
	return true;
}

/* tiny-kernels: launch-bound tiny kernels: the idle gaps shorter than
** gp_adv_lim.launch_gap_ns that end in a tiny kernel on its device. */
bool gp_rule_tiny_kernels(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	struct gp_adv_agg tiny;
	double tiny_ns = 0, gap_ns = 0;
	size_t ntiny = 0;
	char d1[32], d2[32];
	bool found;

	gp_adv_agg_init(&tiny, t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		const struct gp_kernel *kr = &t->kernels.v[k];
		double d = gp_adv_dur(kr);
		if (d >= gp_adv_lim.tiny_ns)
			continue;
		ntiny++;
		tiny_ns += d;
		gp_adv_agg_add(&tiny, gp_kernel_def(t, kr)->name, d, k);
	}
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct gp_adv_gap *g = &in->gaps.v[i];
		if (g->ns >= gp_adv_lim.launch_gap_ns || g->c->next < 0 ||
		    gp_adv_dur(&t->kernels.v[g->c->next]) >= gp_adv_lim.tiny_ns)
			continue;
		gap_ns += g->ns;
		gp_adv_claim(in, in->gap0 + i, g->ns);
	}
	found = ntiny >= gp_adv_lim.tiny_min_count && ntiny * gp_adv_lim.tiny_min_part >= t->kernels.n &&
		gap_ns >= gp_adv_lim.min_share * in->f->span_ns;
	if (found) {
		gp_adv_involved(x, tiny_ns, ntiny);
		snprintf(x->title, sizeof(x->title), TINY_TITLE, ntiny, t->kernels.n, gp_adv_lim.tiny_ns / 1e3);
		gp_adv_evidence(t, NULL, &tiny, x->evidence, sizeof(x->evidence), "kernels");
		size_t len = strlen(x->evidence);
		snprintf(x->evidence + len, sizeof(x->evidence) - len, TINY_EVIDENCE,
			 gp_adv_fmt_ms(tiny_ns, d1, sizeof(d1)), gp_adv_fmt_ms(gap_ns, d2, sizeof(d2)));
		snprintf(x->change, sizeof(x->change), "%s", TINY_CHANGE);
	}
	gp_adv_agg_free(&tiny);
	return found;
}
