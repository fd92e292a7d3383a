/*
** advise's communication rules: exposed-comm (communication no compute
** hides, from the time breakdown) within one trace, and the findings over
** collectives matched across the ranks of a job (gp_advise_collectives:
** coll-straggler, coll-low-busbw; docs/comm.md).
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/advise_int.h"

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
			gp_adv_agg_add(&a, gp_kernel_def(t, &t->kernels.v[k])->name, d, k);
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
	snprintf(x->change, sizeof(x->change), "%s", COMM_CHANGE);
	gp_adv_agg_free(&a);
	return true;
}

/* The limits of the two collective rules (docs/comm.md). */
static const struct {
	double straggler_min_last;  /* last in more than this share of the calls */
	double straggler_min_share; /* and its caused wait above this share of all waits */
	double busbw_low;           /* busbw p50 under this fraction of the link peak */
	double busbw_achievable;    /* the fraction of the peak nccl-tests reaches */
	uint64_t busbw_min_calls;   /* a kind needs this many calls */
} coll_limits = {0.5, 0.25, 0.5, 0.8, 4};

void gp_advise_collectives(const struct gp_coll_match *m, const char *link, struct gp_findings *out)
{
	char a[64], b[64];
	size_t worst = 0;
	double peak = 0;

	memset(out, 0, sizeof(*out));
	for (size_t r = 0; r < m->nranks; r++) {
		if (m->ranks[r].caused > m->ranks[worst].caused)
			worst = r;
		if (m->ranks[r].link_bw > 0 && (peak == 0 || m->ranks[r].link_bw < peak))
			peak = m->ranks[r].link_bw;
	}
	if (m->nranks >= 2 && m->ncomplete && m->wait_total > 0) {
		const struct gp_coll_rank_stats *w = &m->ranks[worst];
		if ((double)w->times_last > coll_limits.straggler_min_last * (double)m->ncomplete &&
		    (double)w->caused > coll_limits.straggler_min_share * (double)m->wait_total) {
			struct gp_finding *f = gp_vec_push(out->v);
			memset(f, 0, sizeof(*f));
			f->kind = "coll-straggler";
			f->ns = f->total_ns = (double)w->caused;
			f->count = w->times_last;
			snprintf(f->title, sizeof(f->title), STRAGGLER_TITLE, w->rank, w->times_last, m->ncomplete,
				 gp_fmt_duration((double)w->caused, a, sizeof(a)));
			snprintf(f->evidence, sizeof(f->evidence), STRAGGLER_EVIDENCE,
				 gp_fmt_duration((double)w->caused / (double)w->times_last / (double)(m->nranks - 1), b,
					       sizeof(b)),
				 gp_fmt_duration((double)m->wait_total, a, sizeof(a)), m->ncomplete);
			snprintf(f->change, sizeof(f->change), STRAGGLER_CHANGE, w->rank);
		}
	}
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
		snprintf(f->change, sizeof(f->change), "%s", BUSBW_CHANGE);
	}
	for (size_t i = 1; i < out->v.n; i++)
		for (size_t j = i; j > 0 && out->v.v[j].ns > out->v.v[j - 1].ns; j--) {
			struct gp_finding tmp = out->v.v[j];
			out->v.v[j] = out->v.v[j - 1];
			out->v.v[j - 1] = tmp;
		}
}

