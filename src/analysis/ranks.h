/*
** Which rank of a distributed job a trace file is, and the order of a set
** of rank files.  The rule (docs/ranks.md): the trace's metadata first
** (Kineto distributedInfo "rank" and "world_size"; the same keys in a
** gpuprof recording, which libgpuprof takes from the environment; an NVTX
** mark or range "rank N", which is how an nsys export can say it), else the
** file name ("rank-3", "rank_3", "rank3", "..._3.json"), else the file's
** position in the argument list.  Two files claiming one rank, or ranks
** missing below the world size, are noted, never fatal.
**
** The cross-rank record of one trace (gp_rank_record) travels from the
** worker that read the trace to the reduce as kept rows (gp_rank_record_put,
** gp_rank_record_read; docs/ranks.md, "MPI records").
**
** Ownership: everything works on the caller's arrays; nothing allocates
** but gp_ranks_order(), whose notes the caller frees, and the records
** (gp_rank_record_of, gp_rank_record_read), which own their steps
** (gp_rank_record_free).
*/
#ifndef GP_RANKS_H
#define GP_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/breakdown.h"
#include "model/trace.h"
#include "util/error.h"
#include "writers/rowbuf.h"
#include "writers/writer.h"

enum gp_rank_source { GP_RANK_FROM_ORDER, GP_RANK_FROM_NAME, GP_RANK_FROM_META };

struct gp_rank_id {
	int32_t rank;           /* -1 until known */
	int32_t world;          /* world size, -1 when the trace does not say */
	uint8_t source;         /* enum gp_rank_source */
};

/* The rank and world size that t's metadata give (either -1 when absent
** or not a number >= 0), else the rank an NVTX mark or range whose whole
** text is "rank N" (also "rank=N", "rank:N", "rank_N") names; source
** GP_RANK_FROM_META when the rank is known.  One pass over the ranges
** when the metadata has no rank. */
struct gp_rank_id gp_rank_from_meta(const gp_trace *t);

/* The rank a file name gives: the last "rank" followed by an optional '-'
** or '_' and digits in the base name, else digits between '_' and '.'
** ("trace_3.json"); -1 when neither. */
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

const char *gp_rank_source_name(int source);   /* "metadata", "file name", "order" */

/* What the cross-rank view keeps of one rank: a few sums and its steps,
** whatever the size of its trace. */
struct gp_rank_step {
	int32_t iter;           /* iteration number; -1: the whole trace (no iterations) */
	gp_ns time;             /* first to last GPU work of the iteration, over its devices */
};

struct gp_rank_record {
	/* sums over the rank's devices of the whole trace's windows */
	gp_ns span, compute, comm, memory, idle;
	struct gp_rank_step *steps;   /* by iteration number */
	size_t nsteps;
	gp_ns step_median;      /* median step time (of two middle ones, the mean) */
};

/* Reduces breakdown b (iterations on) to r: the sums, each iteration's
** step time (its windows on all devices: first start to last end), or one
** step of the whole span when the trace marks no iterations.  r owns its
** steps (gp_rank_record_free). */
void gp_rank_record_of(const gp_breakdown *b, struct gp_rank_record *r);
void gp_rank_record_free(struct gp_rank_record *r);

/* The record as kept rows: one "sums" row (span, compute, communication,
** memory, idle in ns) and one "step" row per iteration (number, time in
** ns), over gp_rank_record_cols. */
#define GP_RANK_RECORD_NCOLS 7
extern const struct gp_column gp_rank_record_cols[GP_RANK_RECORD_NCOLS];
void gp_rank_record_put(const struct gp_rank_record *r, gp_writer *w);

/* Reads a record back from kept rows into r (gp_rank_record_free it);
** GP_ERR_FORMAT when the rows are not one (a damaged record from another
** process). */
int gp_rank_record_read(const struct gp_rowbuf *rb, struct gp_rank_record *r, gp_error *err);

/* The cross-rank comparison of records rec[0..n) (in rank order). */
struct gp_ranks_cmp {
	size_t slowest, fastest;        /* indices into rec, by median step time */
	gp_ns skew;                     /* slowest median - fastest median */
	double skew_pct;                /* skew / fastest median x 100 */
	gp_ns others_median;            /* median of the other ranks' medians (vs slowest) */
	size_t steps;                   /* steps the slowest rank shares with others */
	gp_ns at_stake;                 /* over those steps: the slowest rank's step time
					** minus the others' median step time, when positive */
};

/* Compares the ranks (n >= 1).  Ties go to the lower index. */
void gp_ranks_compare(const struct gp_rank_record *const *rec, size_t n, struct gp_ranks_cmp *c);

/* One iteration across the ranks: how many have it, the median of their
** step times (-1 when none has it), the slowest and fastest (indices into
** rec, ties to the lower) and their times. */
struct gp_step_cmp {
	size_t have, slowest, fastest;
	gp_ns median, slowest_ns, fastest_ns;
};
void gp_ranks_step(const struct gp_rank_record *const *rec, size_t n, int32_t iter, struct gp_step_cmp *c);

#endif
