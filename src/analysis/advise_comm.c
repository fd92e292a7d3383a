/*
** advise's communication rules: exposed-comm (communication no compute
** hides, from the time breakdown) within one trace, and the findings over
** collectives matched across the ranks of a job: the straggler
** (gp_advise_straggler, for comm's and advise's), coll-low-busbw
** (gp_advise_collectives; docs/comm.md), and advise's findings of a job
** (gp_advise_job).
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/coll_a2a.h"
#include "analysis/commover.h"
#include "analysis/jobpath.h"
#include "analysis/ranks.h"
#include "util/stats.h"

/* Appends to evidence[size] the SMs t's communication kernels hold while
** compute runs (commover.h), over the devices whose SM count is known;
** nothing when none of it is hidden there. */
static void sms_evidence(const gp_trace *t, char *evidence, size_t size)
{
	struct gp_comm_overlap o;
	double sm_ns = 0;
	gp_ns hidden = 0;
	int sms = 0;
	char d[32];

	gp_comm_overlap_run(t, &o);
	for (size_t i = 0; i < o.ndev; i++)
		if (o.dev[i].sm_count > 0) {
			sm_ns += o.dev[i].sm_ns;
			hidden += o.dev[i].hidden;
			if (o.dev[i].sm_count > sms)
				sms = o.dev[i].sm_count;
		}
	gp_comm_overlap_free(&o);
	if (hidden <= 0)
		return;
	size_t len = strlen(evidence);
	snprintf(evidence + len, size - len, COMM_SMS_EVIDENCE, gp_co_sms(sm_ns, hidden), sms,
		 gp_fmt_duration((double)hidden, d, sizeof(d)));
}

/* exposed-comm: communication no compute hides (the time breakdown's
** comm_exposed).  Each communication kernel claims its wall time times the
** exposed share, so idle and compute findings never claim the same time. */
bool gp_rule_exposed_comm(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double share, total = 0;
	size_t n = 0;
	struct gp_adv_agg a;
	char d1[32], d2[32], d3[32];

	if (in->comm_ns <= 0 || in->comm_exposed_ns < gp_adv_lim.min_share * in->f->span_ns)
		return false;
	share = in->comm_exposed_ns / in->comm_ns;
	gp_adv_agg_init(&a, t);
	for (size_t k = 0; k < t->kernels.n; k++)
		if (gp_op_is_comm(&in->r[k])) {
			double d = gp_adv_dur(&t->kernels.v[k]);
			gp_adv_claim(in, k, in->dur[k] * share);
			gp_adv_agg_add(&a, gp_adv_kname(in, k), d, k);
			total += d;
			n++;
		}
	gp_adv_involved(x, total, n);
	snprintf(x->title, sizeof(x->title), COMM_TITLE, gp_fmt_duration(in->comm_exposed_ns, d1, sizeof(d1)),
		 100 * share);
	gp_adv_evidence(t, NULL, &a, x->evidence, sizeof(x->evidence), "kernels");
	size_t len = strlen(x->evidence);
	snprintf(x->evidence + len, sizeof(x->evidence) - len, COMM_EVIDENCE,
		 gp_fmt_duration(in->comm_ns, d2, sizeof(d2)),
		 gp_fmt_duration(in->comm_ns - in->comm_exposed_ns, d3, sizeof(d3)));
	sms_evidence(t, x->evidence, sizeof(x->evidence));
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, COMM_CHANGE));
	gp_adv_agg_free(&a);
	return true;
}

/* The limits of the collective rules (docs/comm.md). */
static const struct {
	double busbw_low;           /* busbw p50 under this fraction of the link peak */
	double busbw_achievable;    /* the fraction of the peak nccl-tests reaches */
	uint64_t busbw_min_calls;   /* a kind needs this many calls */
	double steps_differ_pct;    /* no collective matched: steps this far apart get a notice */
	double a2a_uneven;          /* all-to-all: largest / mean at or above this */
} coll_limits = {0.5, 0.8, 4, 2.0, 1.5};

/* The median of the compute times of every rank of m but s. */
static gp_ns others_compute(const gp_ns *compute, size_t n, size_t s)
{
	int64_t *v = gp_xmalloc((n ? n : 1) * sizeof(*v));
	struct gp_stats st;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (i != s)
			v[k++] = compute[i];
	gp_stats_compute(v, k, &st);
	free(v);
	return (gp_ns)st.med;
}

bool gp_advise_straggler(const struct gp_coll_match *m, const gp_ns *compute, struct gp_finding *f)
{
	int s = gp_coll_straggler(m);
	char a[64], b[64], c[64], d[64];

	if (s < 0)
		return false;
	const struct gp_coll_rank_stats *x = &m->ranks[s];
	memset(f, 0, sizeof(*f));
	f->kind = "straggler";
	f->ns = f->alone_ns = (double)x->late;
	f->total_ns = (double)x->caused;
	f->count = x->times_last;
	snprintf(f->title, sizeof(f->title), STRAGGLER_TITLE, x->rank, gp_fmt_duration((double)x->caused, a, sizeof(a)),
		 x->times_last, m->ncomplete);
	snprintf(f->evidence, sizeof(f->evidence), STRAGGLER_EVIDENCE, x->times_last, m->ncomplete,
		 gp_fmt_duration((double)x->late, a, sizeof(a)),
		 gp_fmt_duration((double)x->late / (double)x->times_last, b, sizeof(b)),
		 gp_fmt_duration((double)x->caused, c, sizeof(c)), gp_fmt_duration((double)m->wait_total, d, sizeof(d)));
	if (compute) {
		size_t len = strlen(f->evidence);
		snprintf(f->evidence + len, sizeof(f->evidence) - len, STRAGGLER_COMPUTE,
			 gp_fmt_duration((double)compute[s], a, sizeof(a)),
			 gp_fmt_duration((double)others_compute(compute, m->nranks, (size_t)s), b, sizeof(b)));
	}
	snprintf(f->change, sizeof(f->change), STRAGGLER_CHANGE, x->rank);
	return true;
}

/* Appends to f's evidence where the job's critical path p runs: its share
** on rank s (the straggler), or on the rank holding most of it when that
** is another; or, when the path reaches no collective, that it cannot
** tell. */
static void path_evidence(const struct gp_rank_job *j, const struct gp_job_path *p, size_t s, struct gp_finding *f)
{
	gp_ns len = p->end - p->start;
	size_t most = gp_job_path_most(p, j->n, s);
	char d[64];
	size_t at = strlen(f->evidence);

	if (len <= 0)
		return;
	if (!gp_job_path_meets_collective(p, j->n)) {
		snprintf(f->evidence + at, sizeof(f->evidence) - at, STRAGGLER_PATH_NO_COLL,
			 gp_fmt_duration((double)len, d, sizeof(d)));
		return;
	}
	snprintf(f->evidence + at, sizeof(f->evidence) - at, STRAGGLER_PATH, gp_fmt_duration((double)len, d, sizeof(d)),
		 100.0 * (double)p->ranks[s].held / (double)len, j->rec[s].coll.rank,
		 most == s ? "" : ", most of it on another rank: rank ");
	if (most != s) {
		at = strlen(f->evidence);
		snprintf(f->evidence + at, sizeof(f->evidence) - at, "%d (%.1f%%)", j->rec[most].coll.rank,
			 100.0 * (double)p->ranks[most].held / (double)len);
	}
}

/* a2a-imbalance: the job's all-to-all volume uneven across ranks (what
** each sends) or peers (what each receives, from split sizes), at or
** above coll_limits.a2a_uneven, as a notice: no replay moves tokens.  Its
** total_ns is the matched calls' transfer, the part of it the busiest
** buffer beyond the mean takes in the evidence.  Even by rank without
** split sizes: a notice that by peer the trace cannot tell.  False when
** the job has no all-to-all call matched on every rank, or it is even. */
static bool a2a_finding(const struct gp_rank_job *j, struct gp_finding *f)
{
	struct gp_a2a a;
	size_t big = 0;
	char b1[32], b2[32], t1[32], t2[32], t3[32];
	bool peers, uneven;
	double worst;

	gp_a2a_of_job(j, &a);
	for (size_t r = 1; r < a.nranks; r++)
		if (a.ranks[r].sent > a.ranks[big].sent)
			big = r;
	peers = a.matrix && a.peer_hot >= 0;
	worst = peers && a.peer_imbalance > a.rank_imbalance ? a.peer_imbalance : a.rank_imbalance;
	uneven = a.calls && a.nranks > 1 && worst >= coll_limits.a2a_uneven;
	if (!uneven && a.calls && a.nranks > 1 && !peers && a.rank_imbalance > 0) {
		/* even by rank; by peer the trace cannot tell */
		memset(f, 0, sizeof(*f));
		f->kind = "a2a-imbalance";
		f->first = true;
		f->total_ns = (double)a.transfer;
		f->count = a.calls;
		snprintf(f->title, sizeof(f->title), A2A_UNKNOWN_TITLE, a.rank_imbalance);
		snprintf(f->evidence, sizeof(f->evidence), A2A_RANKS "%s", a.calls, a.nranks, a.ranks[big].rank,
			 gp_fmt_bytes((double)a.ranks[big].sent, b1, sizeof(b1)), a.rank_imbalance, A2A_NO_PEERS);
		snprintf(f->change, sizeof(f->change), "%s", gp_adv_say_fw(j->coll.framework, A2A_RECORD));
		gp_a2a_free(&a);
		return true;
	}
	if (uneven) {
		bool by_peer = peers && a.peer_imbalance >= a.rank_imbalance;
		size_t at;
		memset(f, 0, sizeof(*f));
		f->kind = "a2a-imbalance";
		f->first = true;
		f->total_ns = (double)a.transfer;
		f->count = a.calls;
		snprintf(f->title, sizeof(f->title), A2A_TITLE, "rank", by_peer ? a.peer_hot : a.ranks[big].rank,
			 by_peer ? "receives" : "sends", worst, by_peer ? "of the peers" : "of the ranks");
		snprintf(f->evidence, sizeof(f->evidence), A2A_RANKS, a.calls, a.nranks, a.ranks[big].rank,
			 gp_fmt_bytes((double)a.ranks[big].sent, b1, sizeof(b1)), a.rank_imbalance);
		at = strlen(f->evidence);
		if (peers)
			snprintf(f->evidence + at, sizeof(f->evidence) - at, A2A_PEERS, a.peer_hot,
				 gp_fmt_bytes((double)a.peer_hot_bytes, b2, sizeof(b2)), a.peer_imbalance);
		else
			snprintf(f->evidence + at, sizeof(f->evidence) - at, "%s", A2A_NO_PEERS);
		at = strlen(f->evidence);
		if (a.late >= 0)
			snprintf(f->evidence + at, sizeof(f->evidence) - at, A2A_WAIT,
				 gp_fmt_duration((double)a.wait, t1, sizeof(t1)),
				 gp_fmt_duration((double)a.ranks[a.late].caused, t2, sizeof(t2)), a.ranks[a.late].rank,
				 a.ranks[a.late].times_last, gp_fmt_duration((double)a.transfer, t3, sizeof(t3)),
				 gp_fmt_duration((double)a.transfer * (1 - 1 / worst), b2, sizeof(b2)));
		snprintf(f->change, sizeof(f->change), "%s", A2A_CHANGE);
	}
	gp_a2a_free(&a);
	return uneven;
}

void gp_advise_job(const struct gp_rank_job *j, const struct gp_job_path *path, struct gp_findings *out)
{
	gp_ns *compute = gp_xmalloc((j->n ? j->n : 1) * sizeof(*compute));
	uint64_t calls = 0;
	struct gp_finding f;

	memset(out, 0, sizeof(*out));
	out->span_ns = (double)j->gpu_span;
	for (size_t i = 0; i < j->n; i++) {
		compute[i] = j->rec[i].compute;
		calls += j->rec[i].coll.n;
	}
	if (j->straggler >= 0) {
		const struct gp_rank_record *r = &j->rec[j->straggler];
		for (size_t k = 0; k < r->nsteps; k++)
			out->steps += r->steps[k].iter >= 0;
	}
	if (gp_advise_straggler(&j->coll, compute, &f)) {
		/* its saving as the what-if replays it: the job's GPU span with
		** the straggler on time (--what-if rank:R=on-time) */
		struct gp_rank_on_time o;
		gp_rank_job_on_time(j, (size_t)j->straggler, &o);
		f.ns = f.alone_ns = (double)(o.span_before - o.span_after);
		if (path && path->known && j->n > 1)
			path_evidence(j, path, (size_t)j->straggler, &f);
		*gp_vec_push(out->v) = f;
	} else if (j->n > 1 && !j->coll.ncomplete && j->steps.skew_pct > coll_limits.steps_differ_pct) {
		memset(&f, 0, sizeof(f));
		f.kind = "straggler-unknown";
		f.first = true;
		snprintf(f.title, sizeof(f.title), NO_ARRIVALS_TITLE, j->steps.skew_pct,
			 j->rec[j->steps.slowest].coll.rank, j->rec[j->steps.fastest].coll.rank);
		snprintf(f.evidence, sizeof(f.evidence), NO_ARRIVALS_EVIDENCE, j->n, calls);
		snprintf(f.change, sizeof(f.change), "%s", gp_adv_say_fw(j->coll.framework, NO_ARRIVALS_CHANGE));
		*gp_vec_push(out->v) = f;
	}
	if (a2a_finding(j, &f))
		*gp_vec_push(out->v) = f;
	free(compute);
}

void gp_advise_collectives(const struct gp_coll_match *m, const char *link, struct gp_findings *out)
{
	char a[64];
	double peak = 0;
	struct gp_finding s;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < m->nranks; r++)
		if (m->ranks[r].link_bw > 0 && (peak == 0 || m->ranks[r].link_bw < peak))
			peak = m->ranks[r].link_bw;
	if (gp_advise_straggler(m, NULL, &s))
		*gp_vec_push(out->v) = s;
	for (int k = 0; k < GP_COLL__COUNT && peak > 0; k++) {
		const struct gp_coll_kind_stats *ks = &m->kinds[k];
		double p50;
		if (ks->busbw_mbs.n < coll_limits.busbw_min_calls)
			continue;
		p50 = (double)gp_hist_quantile(&ks->busbw_mbs, 0.5) * 1e6;
		if (p50 >= coll_limits.busbw_low * peak)
			continue;
		struct gp_finding *f = gp_vec_push(out->v);
		memset(f, 0, sizeof(*f));
		f->kind = "coll-low-busbw";
		f->total_ns = (double)ks->comm;
		f->count = ks->calls;
		/* at the achievable share of the peak the pure communication would
		** take p50 / (achievable x peak) of its time */
		f->ns = (double)ks->comm * (1 - p50 / (coll_limits.busbw_achievable * peak));
		snprintf(f->title, sizeof(f->title), BUSBW_TITLE, gp_coll_kind_name(k), p50 / 1e9, 100 * p50 / peak,
			 link ? link : "link", peak / 1e9);
		snprintf(f->evidence, sizeof(f->evidence), BUSBW_EVIDENCE, ks->calls,
			 (double)ks->bytes / (double)ks->calls / 1e6, gp_fmt_duration((double)ks->comm, a, sizeof(a)));
		snprintf(f->change, sizeof(f->change), "%s", gp_adv_say_fw(m->framework, BUSBW_CHANGE));
	}
	for (size_t i = 1; i < out->v.n; i++)
		for (size_t j = i; j > 0 && out->v.v[j].ns > out->v.v[j - 1].ns; j--) {
			struct gp_finding tmp = out->v.v[j];
			out->v.v[j] = out->v.v[j - 1];
			out->v.v[j - 1] = tmp;
		}
}
