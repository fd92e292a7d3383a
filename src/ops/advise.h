/*
** gpuprof advise's analysis: findings about a trace, ranked by the GPU (or
** CPU) time at stake, each with evidence and the concrete change to make.
** Rules and thresholds are documented in docs/op-model.md ("advise").
** Times at stake are disjoint: each finding claims pieces of the GPU
** timeline (kernels, copies, idle gaps), and a finding's time at stake is
** what larger findings did not claim first; the rest is its overlap, with
** the kinds it overlaps.  So the times at stake never sum above
** capacity_ns.
**
** Ownership: gp_advise() fills a caller-owned gp_findings; free its array
** with gp_findings_free().  Strings are inside the findings.
*/
#ifndef GP_ADVISE_H
#define GP_ADVISE_H

#include "util/alloc.h"
#include "model/trace.h"
#include "ops/ops.h"
#include "analysis/collectives.h"

struct gp_finding {
	const char *kind;       /* stable id: "tc-not-used", "fp32-gemm", ... */
	double ns;              /* time at stake (ns) no larger finding claimed */
	double overlap_ns;      /* time at stake that larger findings claimed first */
	char overlaps[96];      /* their kinds, largest overlap first: "idle-gaps, fp32-gemm" */
	double total_ns;        /* time of the kernels/calls involved */
	size_t count;           /* kernels, calls or gaps involved */
	char title[160];
	char evidence[640];
	char change[640];
};

struct gp_findings {
	GP_VEC(struct gp_finding) v;
	double gpu_ns;          /* total kernel time */
	double span_ns;         /* first to last GPU activity */
	int devices;            /* devices with GPU activity */
	double capacity_ns;     /* span_ns x devices: what the times at stake share */
	const char *gpu;        /* peak table name used, NULL = unknown */
	int sm_count;           /* 0 = unknown */
};

struct gp_bd_gap_cause;

/* What the time breakdown (src/analysis/breakdown.h, filled by the command
** that ran it) says, for the rules that use it.  Sums over devices of the
** whole trace. */
struct gp_advise_time {
	double comm_ns;          /* communication time: union per device */
	double comm_exposed_ns;  /* of it, the time no compute ran beside it */
	double idle_ns;          /* idle time in the devices' spans */
	/* of it, by cause: short gaps, synchronisation, pageable copies,
	** waiting for the host to launch, other (enum gp_idle_cause's order) */
	double idle_cause_ns[5];
	/* every idle gap with its time by cause (the breakdown's, run with
	** gap_causes; by device and start), NULL = not computed: then the
	** rules per idle cause stay silent and the others claim whole gaps */
	const struct gp_bd_gap_cause *gaps;
	size_t ngaps;
	gp_ns short_gap_ns;      /* the breakdown's short-gap threshold */
};

/* Runs every rule over t (attrs filled) and its op model ops; findings are
** sorted by ns, largest first.  bt (NULL = not computed) feeds the rules on
** the time breakdown.  Never fails. */
void gp_advise_time(const gp_trace *t, const struct gp_ops *ops, const struct gp_advise_time *bt,
		    struct gp_findings *out);

/* gp_advise_time() without the breakdown's rules. */
void gp_advise(const gp_trace *t, const struct gp_ops *ops, struct gp_findings *out);
void gp_findings_free(struct gp_findings *f);

/* Findings about collectives matched across ranks (m, from gp_coll_match;
** link = the link's name for the texts, NULL = unknown): the straggler
** rank ("coll-straggler": the time the others waited for it) and
** collective kinds far below the link's peak ("coll-low-busbw": the pure
** communication time above what the peak would take, scaled by the achievable
** fraction).  The two claim disjoint time: waiting is before a call's last
** arrival, pure communication after it, so no settling is needed between
** them; neither overlaps a trace rule's kernel claims in another rank.
** Sorted by ns, largest first.  Never fails. */
void gp_advise_collectives(const struct gp_coll_match *m, const char *link, struct gp_findings *out);

#endif
