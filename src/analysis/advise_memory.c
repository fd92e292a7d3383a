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

/* A copy this small is a read of a GPU value (.item(), .cpu() of a
** scalar, .tolist()), not data to stage: pinning does not help, not
** reading it in the loop does. */
#define SMALL_COPY_BYTES (64u << 10)

/* pageable-memcpy: copies from or to pageable host memory.  Bulk copies:
** pinned memory copies by DMA without a staging buffer, about twice as
** fast (the change takes half their time off) and without blocking the
** host; small device-to-host reads: host syncs, whatever their memory. */
bool gp_rule_pageable_memcpy(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	double ns = 0;
	size_t n = 0, small = 0;
	uint64_t bytes = 0;
	char d1[32];

	for (size_t i = 0; i < t->memcpys.n; i++) {
		const struct gp_memcpy *m = &t->memcpys.v[i];
		if (!copy_is_pageable(m))
			continue;
		ns += copy_ns(m);
		n++;
		bytes += m->bytes;
		if (m->bytes < SMALL_COPY_BYTES && m->copy_kind == GP_COPY_DTOH)
			small++;
		else
			gp_adv_claim(in, t->kernels.n + i, copy_ns(m) / 2);
	}
	if (!n || ns < gp_adv_lim.min_share * in->f->gpu_ns / gp_adv_lim.copy_share_div)
		return false;
	gp_adv_involved(x, ns, n);
	in->spec->pinned_copies = true;
	if (small == n) {
		snprintf(x->title, sizeof(x->title), PAGEABLE_SMALL_TITLE, n);
		snprintf(x->evidence, sizeof(x->evidence), PAGEABLE_EVIDENCE, n, (double)bytes / 1e6,
			 gp_fmt_duration(ns, d1, sizeof(d1)));
		snprintf(x->change, sizeof(x->change), "%s", SYNC_CHANGE);
		return true;
	}
	snprintf(x->title, sizeof(x->title), PAGEABLE_TITLE, n);
	snprintf(x->evidence, sizeof(x->evidence), PAGEABLE_EVIDENCE, n, (double)bytes / 1e6,
		 gp_fmt_duration(ns, d1, sizeof(d1)));
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
		}
	if (!n || ns < gp_adv_lim.min_share * in->f->gpu_ns / gp_adv_lim.copy_share_div)
		return false;
	gp_adv_involved(x, ns, n);
	in->spec->pinned_copies = true;   /* the calls stop waiting for their copies */
	snprintf(x->title, sizeof(x->title), SYNCCOPY_TITLE, n);
	snprintf(x->evidence, sizeof(x->evidence), SYNCCOPY_EVIDENCE, n, gp_fmt_duration(ns, d1, sizeof(d1)));
	snprintf(x->change, sizeof(x->change), "%s", SYNCCOPY_CHANGE);
	return true;
}

/* alloc-churn: the allocator reached the driver (cudaMalloc/cudaFree, or
** the caching allocator's reserved total grew) after the first iteration,
** where a steady loop reuses its pool.  Its change: the allocator's CPU
** time gone, as in the allocator finding, which says how much of it kept
** the GPU idle. */
bool gp_rule_alloc_churn(const struct gp_adv_in *in, struct gp_finding *x)
{
	const gp_trace *t = in->t;
	struct gp_mem_churn c;
	char d1[32];

	gp_memory_churn(t, &c);
	uint64_t events = c.malloc_calls + c.free_calls + c.reserved_growths;
	if (!c.has_loop || events < gp_adv_lim.churn_min_events)
		return false;
	gp_adv_involved(x, c.call_ns, (size_t)events);
	snprintf(x->title, sizeof(x->title), CHURN_TITLE, events);
	snprintf(x->evidence, sizeof(x->evidence), CHURN_EVIDENCE, c.iterations, c.malloc_calls,
		 c.free_calls, gp_fmt_duration(c.call_ns, d1, sizeof(d1)), c.reserved_growths,
		 (double)c.reserved_growth_bytes / 1e6);
	snprintf(x->change, sizeof(x->change), "%s", CHURN_CHANGE);
	in->spec->remove_cpu |= 1u << GP_CAUSE_ALLOCATOR;
	return true;
}
