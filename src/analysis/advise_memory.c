/*
** advise's memory rules: pageable-memcpy (bulk copies staged through
** pageable host memory), host-sync-copies (small copies the host waits
** for: syncs, not data), sync-memcpy (bulk copies issued without Async),
** alloc-churn (the allocator reaching the driver inside the iteration
** loop).
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

/* Small copies (deps.h): when the call waits for one (pageable memory,
** or issued without Async) it is a host synchronization: pinning does not
** help, not making it in the loop does. */
static bool copy_is_small(const struct gp_memcpy *m)
{
	return m->bytes < GP_SMALL_COPY_BYTES;
}

/* The copies of t that pick() takes (kernels.n + i is copy i's unit):
** their time, count and bytes; each is pinned (its call no longer waits),
** and when half, it claims half its time. */
static void copies_of(const struct gp_adv_in *in, bool (*pick)(const struct gp_memcpy *m), bool half, double *ns,
		      size_t *n, uint64_t *bytes)
{
	const gp_trace *t = in->t;

	*ns = 0;
	*n = 0;
	*bytes = 0;
	for (size_t i = 0; i < t->memcpys.n; i++) {
		const struct gp_memcpy *m = &t->memcpys.v[i];
		if (!pick(m))
			continue;
		*ns += copy_ns(m);
		(*n)++;
		*bytes += m->bytes;
		gp_adv_pin(in, t->kernels.n + i);
		if (half)
			gp_adv_claim(in, t->kernels.n + i, copy_ns(m) / 2);
	}
}

/* A copy rule's finding: the copies pick() takes (copies_of) into x's
** facts and *ns, *n, *bytes, when they are enough for a finding (copies
** need less of GPU time than other findings: they also stall the host). */
static bool copy_finding(const struct gp_adv_in *in, struct gp_finding *x, bool (*pick)(const struct gp_memcpy *m),
			 bool half, double *ns, size_t *n, uint64_t *bytes)
{
	copies_of(in, pick, half, ns, n, bytes);
	if (!*n || *ns < gp_adv_lim.min_share * in->f->gpu_ns / gp_adv_lim.copy_share_div)
		return false;
	gp_adv_involved(x, *ns, *n);
	return true;
}

static bool bulk_pageable(const struct gp_memcpy *m)
{
	return copy_is_pageable(m) && !copy_is_small(m);
}

/* pageable_copy (the cause's finding, critpath.h): copies of 64 KB or
** more from or to pageable host memory: pinned memory copies by DMA
** without a staging buffer, about twice as fast (the change takes half
** their time off), without blocking the host, and without the GPU waiting
** for the host to stage them (the idle time of cause pageable_copy). */
bool gp_rule_pageable_memcpy(const struct gp_adv_in *in, struct gp_finding *x)
{
	double ns;
	size_t n;
	uint64_t bytes;
	char d1[32];
	double idle = in->idle_cause_ns[GP_CAUSE_PAGEABLE_COPY];
	int len;

	if (!copy_finding(in, x, bulk_pageable, true, &ns, &n, &bytes))
		return false;
	snprintf(x->title, sizeof(x->title), PAGEABLE_TITLE, n, n == 1 ? "y" : "ies");
	len = snprintf(x->evidence, sizeof(x->evidence), PAGEABLE_EVIDENCE, n, (double)bytes / 1e6,
		       gp_fmt_duration(ns, d1, sizeof(d1)));
	if (idle > 0 && len > 0 && (size_t)len < sizeof(x->evidence))
		snprintf(x->evidence + len, sizeof(x->evidence) - (size_t)len, PAGEABLE_IDLE,
			 gp_fmt_duration(idle, d1, sizeof(d1)));
	in->spec->no_staging = true;
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, PAGEABLE_CHANGE));
	return true;
}

static bool small_sync(const struct gp_memcpy *m)
{
	return copy_is_small(m) && (copy_is_pageable(m) || !m->async);
}

/* host-sync-copies: copies under 64 KB that hold the host (from or to
** pageable memory, or issued without Async): host synchronizations, not
** data to pin.  The change: their calls no longer wait. */
bool gp_rule_sync_copies(const struct gp_adv_in *in, struct gp_finding *x)
{
	double ns;
	size_t n;
	uint64_t bytes;
	char d1[32];

	if (!copy_finding(in, x, small_sync, false, &ns, &n, &bytes))
		return false;
	snprintf(x->title, sizeof(x->title), gp_adv_say(in->t, SMALLCOPY_TITLE), n, n == 1 ? "y" : "ies", GP_SMALL_COPY_BYTES >> 10);
	snprintf(x->evidence, sizeof(x->evidence), SMALLCOPY_EVIDENCE, n, (double)bytes / 1e3,
		 gp_fmt_duration(ns, d1, sizeof(d1)));
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, SYNC_CHANGE));
	return true;
}

static bool bulk_sync(const struct gp_memcpy *m)
{
	return !copy_is_pageable(m) && !copy_is_small(m) && !m->async;
}

/* sync-memcpy: copies of 64 KB or more between pinned or device memory
** issued without Async.  Reads only the copy's async flag (every reader
** sets it from the launching call), its memory kinds and its size. */
bool gp_rule_sync_memcpy(const struct gp_adv_in *in, struct gp_finding *x)
{
	double ns;
	size_t n;
	uint64_t bytes;
	char d1[32];

	if (!copy_finding(in, x, bulk_sync, false, &ns, &n, &bytes))
		return false;
	snprintf(x->title, sizeof(x->title), SYNCCOPY_TITLE, n, n == 1 ? "y" : "ies");
	snprintf(x->evidence, sizeof(x->evidence), SYNCCOPY_EVIDENCE, n, gp_fmt_duration(ns, d1, sizeof(d1)));
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, SYNCCOPY_CHANGE));
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
	snprintf(x->change, sizeof(x->change), "%s", gp_adv_say(in->t, CHURN_CHANGE));
	in->spec->remove_cpu |= 1u << GP_CAUSE_ALLOCATOR;
	return true;
}
