/*
** gpuprof advise's analysis: findings about a trace, each with evidence,
** the concrete change to make and the time that change would save, ranked
** by that saving.  A saving is not guessed from what overlaps in time: the
** trace is re-timed on its dependency graph with the change applied
** (whatif.h, docs/dependencies.md).  Findings that change the same work
** share a saving: the findings are ranked greedily, each the one whose
** change saves most beyond the ones above it (the changes applied
** together), and says that, and what it would save alone.
** Rules and thresholds are documented in docs/op-model.md ("advise").
**
** Ownership: gp_advise() fills a caller-owned gp_findings; free its array
** with gp_findings_free().  Strings are inside the findings.
*/
#ifndef GP_ADVISE_H
#define GP_ADVISE_H

#include "analysis/breakdown.h"
#include "analysis/collectives.h"
#include "analysis/deps.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "ops/ops.h"
#include "util/alloc.h"
#include "util/rows.h"

struct gp_rank_job;

struct gp_finding {
	const char *kind;       /* stable id: "tc-not-used", "fp32-gemm", ... */
	double ns;              /* the span it saves beyond the findings above it */
	double alone_ns;        /* the span it would save alone */
	double cum_ns;          /* the span the changes of this finding and all
				** above it save together (the replay): ns is
				** cum_ns less the finding above's */
	double overlap_ns;      /* alone_ns - ns: saved too by findings above */
	char overlaps[96];      /* the kinds above whose changes touch the same work */
	double total_ns;        /* time of the kernels, calls or idle gaps involved */
	size_t count;           /* kernels, calls or gaps involved */
	bool idle;              /* total_ns is GPU idle time that its change
				** removes (an idle-cause finding): ns may
				** exceed it, when the change also shrinks
				** gaps of other causes */
	bool one_time;          /* a cost paid once per process (jit,
				** module_load, capture): in no per-step saving */
	bool first;             /* a notice shown before the ranked findings
				** (coverage: what the trace cannot tell) */
	char title[160];
	char evidence[1024];
	char change[640];
};

/* The denominators every output uses (docs/op-model.md, "advise"). */
struct gp_findings {
	GP_VEC(struct gp_finding) v;   /* notices first, then ranked: each the one
				       ** whose change added to those above saves most */
	double all_ns;          /* the span all the findings' changes save
				** together: the sum of their ns */
	double gpu_ns;          /* total kernel time */
	double span_ns;         /* the GPU span: first to last GPU activity of the window */
	double busy_ns;         /* GPU busy time in it (union per device, summed over devices) */
	int devices;            /* devices with GPU activity */
	size_t steps;           /* the run's steps (steps.h) in the window, 0 = none marked */
	double step_ns;         /* their median step time, 0 = none */
	double step_gpu_ns;     /* the median GPU span of a step, 0 = none */
	const char *gpu;        /* peak table name used, NULL = unknown */
	int sm_count;           /* 0 = unknown */
	/* Where the changes put the trace's collective kernels, for the job's
	** replay across ranks (gp_advise_job_ranks), when gp_advise was given
	** them (else moves NULL, ncoll 0): GP_MOVES_STRIDE(ncoll) times per
	** variant, each the ncoll kernels' (start, end), then the GPU work's
	** first start and last end, on the trace's clock.  Variant 0: the
	** replay unchanged (the recorded times); 1 + 2i: finding v[i]'s change
	** alone; 2 + 2i: the changes of v[0..i] together (a notice's: as
	** variant 0).  Owned, freed with the findings. */
	size_t ncoll;
	gp_ns *moves;
};

#define GP_MOVES_STRIDE(ncoll) (2 * (ncoll) + 2)

/* Variant v of f's moves (above); NULL when f has none. */
static inline const gp_ns *gp_findings_moves(const struct gp_findings *f, size_t v)
{
	return f->moves ? f->moves + v * GP_MOVES_STRIDE(f->ncoll) : NULL;
}

/* Runs every rule over t (attrs filled), its op model ops, the run's GPU
** gpu (gp_gpu_of_run; NULL: unknown), its time breakdown b (run with
** every gap's causes, gp_breakdown_opts.gap_causes), its dependency graph
** d and its steps (steps.h), then re-times d with each finding's change
** to get its saving.  coll (NULL: none), the collectives gp_coll_extract
** found in t, asks for the findings' moves (out->moves: 2n + 1 more
** replays), for a job's replay across ranks.  Never fails. */
void gp_advise(gp_trace *t, const struct gp_ops *ops, const struct gp_gpu *gpu, const gp_breakdown *b,
	       gp_deps *d, const struct gp_steps *steps, const struct gp_coll_rank *coll, struct gp_findings *out);

void gp_findings_free(struct gp_findings *f);

/* The kind name of a finding (its rules' static string: "tiny-kernels",
** "coverage", ...) for name, NULL when no rule has it: a finding read back
** from rows points to it. */
const char *gp_advise_kind(const char *name);

/* The straggler finding ("straggler") of collectives matched across ranks
** (m, from gp_coll_match): the rank gp_coll_straggler names.  ns and alone_ns:
** its late, what every rank would save if it arrived on time (with the
** next-to-last rank); total_ns: the others' wait for it; count: the calls
** it arrived last at.  compute (NULL: not known) is each rank's compute
** time (m's order), for the evidence.  False when there is no straggler. */
bool gp_advise_straggler(const struct gp_coll_match *m, const gp_ns *compute, struct gp_finding *f);

/* Findings about collectives matched across ranks (m, from gp_coll_match;
** link = the link's name for the texts, NULL = unknown): the straggler
** (gp_advise_straggler) and collective kinds far below the link's peak
** ("coll-low-busbw": the pure communication time above what the peak
** would take, scaled by the achievable fraction).  The two save disjoint
** time: waiting is before a call's last arrival, pure communication after
** it, so no settling is needed between them.  Sorted by ns, largest
** first.  Never fails. */
void gp_advise_collectives(const struct gp_coll_match *m, const char *link, struct gp_findings *out);

/* advise's findings of a job of several rank files (j, its records
** compared): the straggler (gp_advise_straggler with the ranks' compute
** times; its saving what the job's GPU span loses with it on time,
** gp_rank_job_on_time, the model of --what-if rank:R=on-time), or, when no collective is matched on every rank and the ranks'
** median steps differ by more than 2%, a notice (first) that the traces
** cannot tell who waits.  out's span_ns is the job's GPU span (its longest
** rank's), steps the straggler's iterations.  path, when known (the
** job's critical path across the ranks, jobpath.h; may be NULL), adds to
** the straggler's evidence where the path runs: on the straggler, or, when
** it holds most on another rank, that rank.  Never fails. */
struct gp_job_path;
void gp_advise_job(const struct gp_rank_job *j, const struct gp_job_path *path, struct gp_findings *out);

/* The findings f as kept rows over GP_COLL_RECORD_NCOLS cells, beside a
** rank's record (ranks.h): one "finding" row each (kind, notice, ns,
** alone, involved, count, cumulative, one-time, idle, title, evidence,
** change), then, with moves, a "moves" row (ncoll, variants) and "move"
** rows (variant, collective or ncoll for the GPU work, start, end): every
** time of variant 0, of the others those that differ from it. */
void gp_findings_put(const struct gp_findings *f, gp_writer *w);

/* Reads row c (GP_COLL_RECORD_NCOLS cells) into f: 1 when it was one of
** the findings' rows, 0 when it is none of their kinds, -1 when it is
** damaged or out of order.  gp_findings_rows_done completes the moves
** once every row is read (false: they are not whole). */
int gp_findings_row(struct gp_findings *f, const char *const *c);
bool gp_findings_rows_done(struct gp_findings *f);

/* The findings of j's ranks (each record's advice: gp_advise's with
** their moves, read back) judged in job j and added to out (gp_advise_job's): one
** finding per kind with the ranks that have it ("ranks 0-5: TITLE"), its
** evidence the rank whose change alone saves the job most's.  A saving
** is what the changes save the job's GPU span on the job's replay across
** ranks (docs/dependencies.md, "A rank's change in its job"): between
** consecutive collectives matched on every rank each rank runs its own
** work, a collective ends when its last rank arrives and has run its
** transfer, and a change moves its rank's arrivals as its own replay
** (the moves) moves them; a rank that waits for another saves nothing
** until that one's change.  The findings, with the straggler's (out's
** "straggler": its arrivals with the next-to-last rank's), are ranked
** greedily: each the one whose change, added to those above, saves most;
** cum_ns the replay of the changes up to it, alone_ns its own, out->all_ns
** all of them.  A rank's several changes together are replayed from its
** own moves: those of its changes up to the last one taken (its ranked
** order), no more than their moves alone summed, segment by segment.
** Without the job's replay (one rank, no collective matched on every
** rank, an unaligned clock, a rank without moves), each finding saves
** what its ranks' own replays say, summed.  Notices first.  Never
** fails. */
void gp_advise_job_ranks(const struct gp_rank_job *j, struct gp_findings *out);

#endif
