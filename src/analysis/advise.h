/*
** gpuprof advise's analysis: findings about a trace, ranked by the GPU (or
** CPU) time at stake, each with evidence and the concrete change to make.
** Rules and thresholds are documented in docs/op-model.md ("advise").
** Times at stake are disjoint: each finding claims pieces of the GPU
** timeline (kernels, copies, the time breakdown's idle gaps), and a
** finding's time at stake is what larger findings did not claim first; the
** rest is its overlap, with the kinds it overlaps.  So the times at stake
** never sum above capacity_ns.
**
** Ownership: gp_advise() fills a caller-owned gp_findings; free its array
** with gp_findings_free().  Strings are inside the findings.
*/
#ifndef GP_ADVISE_H
#define GP_ADVISE_H

#include "analysis/breakdown.h"
#include "analysis/collectives.h"
#include "model/trace.h"
#include "ops/ops.h"
#include "util/alloc.h"

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

/* Runs every rule over t (attrs filled), its op model ops and its time
** breakdown b, run with every gap's causes (gp_breakdown_opts.gap_causes:
** the idle rules claim those gaps and read their causes; without them
** they stay silent).  Findings are sorted by ns, largest first.  Never
** fails. */
void gp_advise(const gp_trace *t, const struct gp_ops *ops, const gp_breakdown *b, struct gp_findings *out);

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
