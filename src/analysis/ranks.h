/*
** Which rank of a distributed job a trace file is, and the order of a set
** of rank files.  The rule (docs/ranks.md): the trace's metadata first
** (Kineto distributedInfo "rank" and "world_size"; the same keys in a
** gpuprof recording, which libgpuprof takes from the environment; an NVTX
** mark or range "rank N", which is how an nsys export can say it), else the
** file name ("rank-3", "rank_3", "rank3"), else the file's
** position in the argument list.  Two files claiming one rank, or ranks
** missing below the world size, are noted, never fatal.
**
** The cross-rank record of one trace (gp_rank_record: its time sums, its
** steps and its collectives) travels from the worker that read the trace
** to the reduce as kept rows (gp_rank_record_put, gp_rank_record_read;
** docs/ranks.md, "MPI records").  The records of a job are compared in a
** gp_rank_job: by their steps (facts about steps) and by arrival at their
** collectives, which names the straggler (gp_coll_straggler, the one
** definition every command uses).
**
** Ownership: everything works on the caller's arrays; nothing allocates
** but gp_ranks_order(), whose notes the caller frees, the records
** (gp_rank_record_of, gp_rank_record_read), which own their steps and
** collectives (gp_rank_record_free), and a gp_rank_job, which owns its
** records and their match (gp_rank_job_free).
*/
#ifndef GP_RANKS_H
#define GP_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/advise.h"
#include "analysis/breakdown.h"
#include "analysis/collectives.h"
#include "analysis/jobpath.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "util/error.h"
#include "util/rows.h"

enum gp_rank_source { GP_RANK_FROM_ORDER, GP_RANK_FROM_NAME, GP_RANK_FROM_META };

struct gp_rank_id {
	int32_t rank;           /* -1 until known */
	int32_t world;          /* world size, -1 when the trace does not say */
	uint8_t source;         /* enum gp_rank_source */
	/* what says which job the trace is of (gp_ranks_one_job) */
	char gpu[64];           /* the name of its first device that ran kernels, else its first device; "" none */
	char backend[16];       /* distributedInfo's backend ("nccl"); "" when not said */
	gp_ns start;            /* gp_trace_start: the trace clock's first event */
};

/* The rank and world size that t's metadata give (either -1 when absent
** or not a number >= 0), else the rank an NVTX mark or range whose whole
** text is "rank N" (also "rank=N", "rank:N", "rank_N") names; source
** GP_RANK_FROM_META when the rank is known.  One pass over the ranges
** when the metadata has no rank. */
struct gp_rank_id gp_rank_from_meta(const gp_trace *t);

/* The rank a file name gives: the last "rank" followed by an optional '-'
** or '_' and digits in the base name; -1 when there is none (other
** numbers in a name are no rank: "model__1016005.json" is a job id). */
int32_t gp_rank_from_name(const char *path);

/* Completes the rank of the file path at argument position pos as
** gp_ranks_order does, alone: id's rank from the metadata kept, else its
** name's, else pos. */
void gp_rank_complete(struct gp_rank_id *id, const char *path, size_t pos);

/* Completes ids[0..n) (in argument order: a file without a rank from its
** metadata takes the one of its name, else its position i) and writes into
** order[0..n) the file indices sorted by rank, ties by position.  Returns
** a malloc'd text of notes (lines ending in '\n': duplicate ranks, ranks
** missing below the largest world size, files ranked by position) or NULL
** when there is nothing to say. */
char *gp_ranks_order(struct gp_rank_id *ids, const char *const *paths, size_t n, size_t *order);

/* Whether the traces of ids[0..n) (their paths) can be one job's ranks:
** they must agree on the GPU model, the world size and the backend where
** both traces say, and traces on an epoch clock must start within
** GP_JOB_START_APART of each other.  GP_OK, else GP_ERR_USAGE naming the
** two files and what differs. */
#define GP_JOB_START_APART (3600LL * 1000000000LL)   /* ns: an hour */
int gp_ranks_one_job(const struct gp_rank_id *ids, const char *const *paths, size_t n, gp_error *err);

const char *gp_rank_source_name(int source);   /* "metadata", "file name", "order" */

/* What the cross-rank view keeps of one rank: a few sums, its steps and
** its collectives, whatever the size of its trace. */
struct gp_rank_step {
	int32_t iter;           /* iteration number; -1: the whole trace (no iterations) */
	gp_ns time;             /* first to last GPU work of the iteration, over its devices */
};

struct gp_rank_record {
	/* sums over the rank's devices of the whole trace's windows */
	gp_ns span, compute, comm, memory, idle;
	gp_ns gpu_span;         /* first GPU work on any of its devices to the last */
	struct gp_rank_step *steps;   /* by iteration number */
	size_t nsteps;
	gp_ns step_median;      /* median step time (of two middle ones, the mean) */
	struct gp_coll_rank coll;     /* its collectives (gp_coll_extract) */
	struct gp_rank_path path;     /* its critical path in legs between its
				      ** collectives, when asked (GP_NEED_RANK_PATH) */
	struct gp_findings advice;    /* read back: advise's findings with their
				      ** moves, when the worker put them after
				      ** the record (gp_findings_put) */
};

/* Reduces breakdown b to r: the sums, the GPU span, and the run's steps
** st (steps.h: each step's time, start to the next one's start), or one
** step of the whole span when the trace marks no iterations.
** r's collectives stay empty (the runner's GP_NEED_RECORD adds them:
** gp_coll_extract).  r owns its steps (gp_rank_record_free). */
void gp_rank_record_of(const gp_breakdown *b, const struct gp_steps *st, struct gp_rank_record *r);
void gp_rank_record_free(struct gp_rank_record *r);

/* The record as kept rows over gp_rank_record_cols, the collectives'
** columns (GP_COLL_RECORD_NCOLS): one "sums" row (span, compute,
** communication, memory, idle, GPU span in ns), one "step" row per
** iteration (number, time in ns), then the collectives' rows
** (gp_coll_rank_put), then the path's when computed (gp_rank_path_put).
** A worker may add advise's findings after them (gp_findings_put): the
** reader keeps them in advice. */
#define GP_RANK_RECORD_NCOLS GP_COLL_RECORD_NCOLS
extern const struct gp_column *const gp_rank_record_cols;
void gp_rank_record_put(const struct gp_rank_record *r, gp_writer *w);

/* Reads a record back from kept rows into r (gp_rank_record_free it
** whatever the outcome), the file's path and rank (not in the rows) set
** in its collectives; GP_ERR_FORMAT naming path when the rows are not one
** (a damaged record from another process). */
int gp_rank_record_read(const struct gp_rowbuf *rb, const char *path, int rank, struct gp_rank_record *r,
			gp_error *err);

/* The cross-rank comparison of records rec[0..n) (in rank order) by their
** steps: facts about steps, never a verdict on who the others wait for. */
struct gp_ranks_cmp {
	size_t slowest, fastest;        /* indices into rec, by median step time */
	gp_ns skew;                     /* slowest median - fastest median */
	double skew_pct;                /* skew / fastest median x 100 */
};

/* Compares the ranks (n >= 1).  Ties go to the lower index. */
void gp_ranks_compare(const struct gp_rank_record *const *rec, size_t n, struct gp_ranks_cmp *c);

/* The iteration numbers of the steps of rec[0..n), each once, ascending
** (-1: a rank without iterations), in a malloc'd array of *count (NULL
** when none). */
int32_t *gp_ranks_iters(const struct gp_rank_record *const *rec, size_t n, size_t *count);

/* One iteration across the ranks: how many have it, the median of their
** step times (-1 when none has it), the slowest and fastest (indices into
** rec, ties to the lower) and their times. */
struct gp_step_cmp {
	size_t have, slowest, fastest;
	gp_ns median, slowest_ns, fastest_ns;
};
void gp_ranks_step(const struct gp_rank_record *const *rec, size_t n, int32_t iter, struct gp_step_cmp *c);

/* A job: the records of its ranks compared. */
struct gp_rank_job {
	struct gp_rank_record *rec;     /* [n], in rank order */
	const struct gp_rank_record **rp;   /* [n]: &rec[i], for the comparisons above */
	size_t n;
	struct gp_ranks_cmp steps;      /* by median step */
	struct gp_coll_match coll;      /* their collectives matched (ranks in rec's order) */
	int straggler;                  /* gp_coll_straggler(&coll): index into rec, -1 = none */
	gp_ns gpu_span;                 /* the job's GPU span: its longest rank's */
};

/* Takes the records rec[0..n) (malloc'd, in rank order, n >= 1; j owns
** them from now on) and compares them into j: by steps, and by arrival at
** their collectives (gp_coll_match, the first rank the clock reference).
** Never fails. */
void gp_rank_job_compare(struct gp_rank_record *rec, size_t n, struct gp_rank_job *j);
void gp_rank_job_free(struct gp_rank_job *j);

/* What rank index r arriving on time would change in job j: at every
** collective matched on every rank where it arrived last, it arrives with
** the next-to-last rank instead, so every rank's wait there shrinks by
** the call's late, and so does every rank's run from there on (the
** synchronised job's time moves with its collectives).  Before and after:
** the job's GPU span, the waits of all ranks at those collectives, and the
** median over iterations of the job's step (each iteration's slowest
** rank's step, less the late of r's calls of that iteration: numbered as
** on the first rank); steps -1 when the ranks mark no iterations. */
struct gp_rank_on_time {
	gp_ns saving;                   /* r's late: what every rank saves */
	gp_ns span_before, span_after;
	gp_ns wait_before, wait_after;
	gp_ns step_before, step_after;
};
void gp_rank_job_on_time(const struct gp_rank_job *j, size_t r, struct gp_rank_on_time *o);

#endif
