/*
** advise's memory rules: pageable-memcpy (copies staged through pageable
** host memory, and the idle time the breakdown puts on them), sync-memcpy
** (copies issued without Async), alloc-churn (the allocator reaching the
** driver inside the iteration loop).
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/memory.h"

static bool copy_is_pageable(const struct gp_memcpy *m)
{
	return m->src_kind == GP_MEM_PAGEABLE || m->dst_kind == GP_MEM_PAGEABLE;
}

static double copy_ns(const struct gp_memcpy *m)
{
	return m->end > m->start ? (double)(m->end - m->start) : 0;
}

/* pageable-memcpy: copies from or to pageable host memory. */
bool gp_rule_pageable_memcpy(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double ns = 0, wait = 0;
	size_t n = 0, nwait = 0;
	uint64_t bytes = 0;
	char d1[32];

	for (size_t i = 0; i < t->memcpys.n; i++)
		if (copy_is_pageable(&t->memcpys.v[i])) {
			ns += copy_ns(&t->memcpys.v[i]);
			n++;
			gp_adv_claim(in, in->copy0 + i, in->wall[in->copy0 + i]);
			bytes += t->memcpys.v[i].bytes;
		}
	if (!n || ns < gp_adv_lim.min_share * in->f->gpu_ns / gp_adv_lim.copy_share_div)
		return false;
	/* and the idle time the breakdown puts on waiting for them */
	for (size_t i = 0; i < in->gaps.n; i++) {
		double v = gp_adv_gap_cause_ns(in, i, GP_IDLE_PAGEABLE);
		if (v <= 0)
			continue;
		wait += v;
		nwait++;
		gp_adv_claim(in, in->gap0 + i, v);
	}
	gp_adv_involved(x, ns + wait, n);
	snprintf(x->title, sizeof(x->title), PAGEABLE_TITLE, n);
	int len = snprintf(x->evidence, sizeof(x->evidence), PAGEABLE_EVIDENCE, n, (double)bytes / 1e6,
			   gp_adv_fmt_ms(ns, d1, sizeof(d1)));
	if (nwait && len > 0 && (size_t)len < sizeof(x->evidence)) {
		snprintf(x->evidence + len, sizeof(x->evidence) - (size_t)len, PAGEABLE_EVIDENCE_WAIT,
			 gp_adv_fmt_ms(wait, d1, sizeof(d1)), nwait);
		gp_adv_largest_gaps(in, GP_IDLE_PAGEABLE, NULL, x->evidence, sizeof(x->evidence));
	}
	snprintf(x->change, sizeof(x->change), "%s", PAGEABLE_CHANGE);
	return true;
}

/* sync-memcpy: copies between pinned or device memory issued without
** Async.  Reads only the copy's async flag (every reader sets it from the
** launching call) and its memory kinds. */
bool gp_rule_sync_memcpy(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double ns = 0;
	size_t n = 0;
	char d1[32];

	for (size_t i = 0; i < t->memcpys.n; i++)
		if (!copy_is_pageable(&t->memcpys.v[i]) && !t->memcpys.v[i].async) {
			ns += copy_ns(&t->memcpys.v[i]);
			n++;
			gp_adv_claim(in, in->copy0 + i, in->wall[in->copy0 + i]);
		}
	if (!n || ns < gp_adv_lim.min_share * in->f->gpu_ns / gp_adv_lim.copy_share_div)
		return false;
	gp_adv_involved(x, ns, n);
	snprintf(x->title, sizeof(x->title), SYNCCOPY_TITLE, n);
	snprintf(x->evidence, sizeof(x->evidence), SYNCCOPY_EVIDENCE, n, gp_adv_fmt_ms(ns, d1, sizeof(d1)));
	snprintf(x->change, sizeof(x->change), "%s", SYNCCOPY_CHANGE);
	return true;
}

/* alloc-churn: the allocator reached the driver (cudaMalloc/cudaFree, or
** the caching allocator's reserved total grew) after the first iteration,
** where a steady loop reuses its pool.  Claims the idle gaps the host spent
** in such a call. */
bool gp_rule_alloc_churn(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	struct gp_mem_churn c;
	double idle = 0;
	size_t ngaps = 0;
	char d1[32];

	gp_memory_churn(t, &c);
	uint64_t events = c.malloc_calls + c.free_calls + c.reserved_growths;
	if (!c.has_loop || events < gp_adv_lim.churn_min_events)
		return false;
	for (size_t i = 0; i < in->gaps.n; i++) {
		const struct gp_adv_gap *g = &in->gaps.v[i];
		if (g->api >= 0 && g->c->start >= c.loop_start &&
		    gp_memory_alloc_call(gp_s(t, gp_api_def(t, &t->apis.v[g->api])->name))) {
			idle += g->ns;
			ngaps++;
			gp_adv_claim(in, in->gap0 + i, g->ns);
		}
	}
	gp_adv_involved(x, idle > 0 ? idle : c.call_ns, (size_t)events);
	snprintf(x->title, sizeof(x->title), CHURN_TITLE, events);
	snprintf(x->evidence, sizeof(x->evidence), CHURN_EVIDENCE, c.iterations, c.malloc_calls,
		 c.free_calls, gp_adv_fmt_ms(c.call_ns, d1, sizeof(d1)), c.reserved_growths,
		 (double)c.reserved_growth_bytes / 1e6);
	snprintf(x->change, sizeof(x->change), "%s", CHURN_CHANGE);
	return true;
}
