/*
** The critical path of a job across its ranks (docs/dependencies.md,
** "The critical path across ranks").
**
** A rank's trace is read, walked and freed on its own worker (or MPI
** process), before the job's other ranks are known; so each rank keeps
** its critical path in *legs*: the walk back (critpath.h's gp_walk) from
** the rank's end, and from the start of each of its collective kernels,
** to the first collective kernel it reaches (or to the rank's first
** activity), summed by cause and op.  The legs travel with the rank's
** record (ranks.h) as kept rows.  Once the job's collectives are matched
** (collectives.h: clocks aligned on the calls' ends), the job's path is
** put together from them: from the job's end (the rank whose end is last)
** back through that rank's legs; at a collective matched on every rank
** where this rank's kernel started before the last arrival's, the time
** from the last arrival on is the call's communication and the path goes
** on from the last arrival's kernel start on the last arriver's legs (the
** rank that made the others wait); else it runs through the rank's own
** kernel and goes on with its own leg.  Every nanosecond from the job's
** end back to where the path stops is held by exactly one rank.
**
** Ownership: a gp_rank_path owns its legs, rows and names
** (gp_rank_path_free), copied from the trace so that it outlives it; a
** gp_job_path owns its per-rank sums and rows, whose op names are the
** job's records' (the job must outlive it).
*/
#ifndef GP_JOBPATH_H
#define GP_JOBPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/collectives.h"
#include "analysis/critpath.h"
#include "analysis/deps.h"
#include "model/trace.h"
#include "util/error.h"
#include "util/rows.h"

/* Time one op held under one cause in a leg. */
struct gp_path_row {
	uint8_t cause;          /* enum gp_cause */
	uint32_t op;            /* into gp_rank_path.names */
	gp_ns ns;
};

/* A stretch of a rank's walk, on the rank's own clock: from hi back to
** lo, its rows adding up to hi - lo.  The walk goes on with segment next;
** when next is -1 it ends at lo: at the kernel of collective `to` (its
** end, or earlier when a sync reached it mid-run), or at the rank's first
** activity when to is -1.  Walks that reach a point another walk passed
** go on as that one did, so they share its segments from there. */
struct gp_path_seg {
	int32_t next;           /* into segs, -1 = none */
	int32_t to;             /* index into the rank's collectives, -1 = none */
	gp_ns lo, hi;
	uint32_t to_op;         /* the reached kernel's op (into names) */
	uint32_t row0, nrows;   /* its rows */
};

struct gp_rank_path {
	bool have;              /* computed (or read back) */
	gp_ns first, end;       /* the walked process's first activity and end */
	int32_t *legs;          /* the first segment of the walk from the rank's
				** end (legs[0]) and from the start of collective
				** k's kernel (legs[k + 1]) */
	size_t nlegs;           /* 1 + the rank's collectives */
	struct gp_path_seg *segs;
	size_t nsegs;
	struct gp_path_row *rows;
	size_t nrows;
	char **names;           /* op names, "" for none */
	size_t nnames;
	size_t want_legs, want_segs;   /* while read back: what its "path" row announced */
};

/* The legs of t's path (d built over t; coll the collectives
** gp_coll_extract found in t, whose kernels are t's communication kernels
** in order) into p.  Each point of the trace is walked once: a walk that
** reaches a GPU unit's end or a busy thread's point that an earlier walk
** passed stops and shares that walk's segments from there, so the legs
** cost one walk over the trace, not one per collective.  p stays empty
** (have false) for a trace with no activity, or when coll is not t's.
** Never fails. */
void gp_rank_path_build(gp_deps *d, const gp_trace *t, const struct gp_coll_rank *coll, struct gp_rank_path *p);
void gp_rank_path_free(struct gp_rank_path *p);

/* The legs as kept rows over GP_COLL_RECORD_NCOLS cells, beside the rank
** record's (ranks.h): one "path" row (first, end, legs, segments), one
** "leg" row per leg (its first segment), then per segment a "seg" row
** (next, to, lo, hi, the reached op) and its "cp" rows (cause, ns, op).
** Nothing when p was not computed. */
void gp_rank_path_put(const struct gp_rank_path *p, gp_writer *w);

/* Reads row c (cells c[0..GP_COLL_RECORD_NCOLS)) into p: 1 when it was
** one of the path's rows, 0 when it is none of its kinds, -1 when it is
** damaged or out of order. */
int gp_rank_path_row(struct gp_rank_path *p, const char *const *c);

/* Whether the path read back is whole for a rank of ncoll collectives. */
bool gp_rank_path_done(const struct gp_rank_path *p, size_t ncoll);

struct gp_rank_job;

/* What the job's path gives each rank. */
struct gp_job_path_rank {
	gp_ns held;                         /* time on the path */
	gp_ns by_cause[GP_CAUSE__COUNT];    /* sums to held */
	uint32_t entered;                   /* times the path came to it from a
					    ** rank that waited for it */
};

/* One row of the job's table: time a rank held under a cause and op. */
struct gp_job_row {
	size_t rank;            /* index into the job's records */
	uint8_t cause;
	const char *op;         /* the record's name; "" = none */
	gp_ns ns;
};

/* A stretch of the job's path on one rank, on the rank's own clock: the
** rank's walk from its end (coll -1) or from the start of its coll-th
** collective kernel, back to stop (where the path left for another rank,
** or where it ends).  What export marks on each rank's records. */
struct gp_path_visit {
	size_t rank;            /* index into the job's records */
	struct gp_cp_leg leg;
};

struct gp_job_path {
	bool known;             /* false: the traces cannot tell (why says) */
	const char *why;
	gp_ns start, end;       /* where it stops and the job's end, on the
				** first rank's clock (aligned) */
	size_t start_rank, end_rank;
	uint64_t jumps;         /* times it went to another rank */
	struct gp_job_path_rank *ranks;     /* [n] */
	struct gp_job_row *rows;            /* by rank, then time (largest first) */
	size_t nrows;
	struct gp_path_visit *visits;       /* in path order: latest first */
	size_t nvisits;
};

/* Whether p, known, holds any collective's communication: a path that
** holds none never reached a collective (the traces record nothing the
** end of a step waited for on the GPU), so it cannot tell who waited for
** whom. */
bool gp_job_path_meets_collective(const struct gp_job_path *p, size_t nranks);

/* The rank (index into the job's records, < nranks) holding the most of
** known path p; ties go to prefer (itself < nranks). */
size_t gp_job_path_most(const struct gp_job_path *p, size_t nranks, size_t prefer);

/* The critical path of job j (every record with its path: the runner's
** GP_NEED_RANK_PATH) into p.  Not known (p->why) when a record has no
** path, or, for more than one rank, when a rank's clock could not be
** aligned (it shares no collective with the first rank) or no collective
** is matched on every rank: nothing then says who waited for whom.  The
** ranks' held times add up to end - start.  Never fails. */
void gp_job_path_run(const struct gp_rank_job *j, struct gp_job_path *p);
void gp_job_path_free(struct gp_job_path *p);

#endif
