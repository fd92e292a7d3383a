/*
** The comparison of two runs (`gpuprof diff BASE TEST`): kernel time per
** group (kernel name, op, layer or iteration) in each run, matched by a
** name normalised so that the same kernel or op read from different
** formats (a Kineto trace and an nsys export) meets itself; the change,
** counts, FLOPs, efficiency and tensor-core use before and after; and,
** when both runs hold several iterations, the per-iteration distributions
** with a 95% confidence interval on the difference of medians (a bootstrap
** up to GP_DIFF_BOOTSTRAP_MAX iterations, a normal approximation from the
** medians' order-statistic intervals beyond; docs/diff.md).  One pass over each trace's kernels, one sort per side.
**
** Several rank files per run: each file is reduced to a gp_diff_part and
** freed (its parts travel as kept rows, gp_diff_part_put and
** gp_diff_parts_add), the parts of a run are added into a gp_diff_run_in,
** and the two runs are compared.
**
** Ownership: a gp_diff owns its rows and their names (its own string
** table); it borrows nothing from the traces, parts or runs, which may be
** freed before it.  gp_diff_free() releases everything.
*/
#ifndef GP_DIFF_H
#define GP_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/breakdown.h"
#include "analysis/critpath.h"
#include "analysis/steps.h"
#include "model/trace.h"
#include "ops/ops.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/rows.h"
#include "util/u64map.h"

/* Iterations of both runs together up to which the interval is bootstrapped. */
#define GP_DIFF_BOOTSTRAP_MAX 200

/* GP_DIFF_BY_RANK groups no kernels: its rows are each rank's step time
** and compute time (kernel time outside communication kernels). */
enum gp_diff_by { GP_DIFF_BY_KERNEL, GP_DIFF_BY_OP, GP_DIFF_BY_LAYER, GP_DIFF_BY_ITER, GP_DIFF_BY_RANK };
#define GP_DIFF_NBY 5

/* Tensor-core use of a group: every kernel with a verdict says yes, every
** one says no, some of each, or none has a verdict. */
enum gp_diff_tc { GP_DIFF_TC_NA, GP_DIFF_TC_NO, GP_DIFF_TC_YES, GP_DIFF_TC_MIXED };

/* A group's sums in one file or one run. */
struct gp_diff_sum {
	int64_t total;           /* ns of its kernels */
	uint64_t calls;          /* kernels */
	double flops;            /* sum of the known FLOPs (flops_known) */
	bool flops_known;
	double ideal, ideal_time;  /* over kernels with an ideal time */
	uint64_t tc_yes, tc_no;
};

struct gp_diff_group {
	gp_str key, name;        /* in the owner's string table */
	struct gp_diff_sum sum;
};

/* One group's kernel time in one iteration (its ordinal in the run). */
struct gp_diff_cell {
	uint32_t group, iter;
	int64_t sum;
};

/* One file reduced under one grouping (gp_diff_part_make): what the
** comparison needs of it, a few records per group and iteration, so that
** a run of many rank files never holds more than one trace at a time.
** Ownership: the part owns its arrays and names (its own string table). */
struct gp_diff_part {
	gp_strtab strs;
	int by;
	struct gp_diff_group *groups;  /* none for GP_DIFF_BY_RANK */
	size_t ngroups;
	struct gp_diff_cell *cells;    /* sorted by group, then iteration */
	size_t ncells;
	size_t iters;                  /* iterations with kernels, by ordinal */
	int64_t *step;                 /* [iters] each iteration's step (steps.h) */
	int64_t *busy;                 /* [iters] kernel time */
	int64_t *work;                 /* [iters] kernel time outside communication */
	int64_t span, time, work_total;  /* the whole file: GPU span, kernel time,
				** kernel time outside communication */
	int64_t *idle;                 /* [iters * GP_CAUSE__COUNT] GPU idle time by cause */
	int64_t idle_total[GP_CAUSE__COUNT];  /* the whole file's */
};

/* Reduces one correlated trace t under grouping by into p, with its op
** model ops (FLOPs, roofline ideal time, tensor-core verdict,
** communication; NULL: none known), its steps (steps.h: the
** iterations are its steps, each kernel in the step its launch lies in,
** each iteration's time the step's; NULL or none: the iterations the
** correlation put kernels in, their time their kernels' GPU span) and its
** breakdown with every idle gap by cause (GP_NEED_GAP_CAUSES; NULL: no
** idle time known): a gap counts in the step holding its end (the work
** that ends it), else in its work's iteration, and always in the file's
** idle_total.  Kernels without a name, op or layer
** form the "(none)" group; kernels of no iteration count in the sums, not
** in the cells. */
void gp_diff_part_make(const gp_trace *t, const struct gp_ops *ops, const struct gp_steps *steps,
		       const gp_breakdown *bd, int by, struct gp_diff_part *p);

/* Starts an empty part that a reader of kept records fills: every array
** NULL, the string table ready. */
void gp_diff_part_init(struct gp_diff_part *p, int by);

void gp_diff_part_free(struct gp_diff_part *p);

/* A file's parts as kept rows (a command of many files keeps them while
** the other files are read, then adds them to its runs): one "part" row per
** grouping, then its "iter", "group" and "cell" rows, numbers as decimal
** text (doubles with 17 digits: they read back exactly).
**   part  by iters span time work_total
**   iter  by i step busy work
**   idle  by i cause ns     (i -1: the file's total; causes with time only)
**   group by key name total calls flops ideal ideal_time tc_yes tc_no
**   cell  by group iter sum */
#define GP_DIFF_PART_NCOLS 11
extern const struct gp_column gp_diff_part_cols[GP_DIFF_PART_NCOLS];

/* Writes part p to w over gp_diff_part_cols. */
void gp_diff_part_put(const struct gp_diff_part *p, gp_writer *w);

/* One rank file of a run: its step and compute time per iteration. */
struct gp_diff_rank {
	int32_t rank;
	size_t iters;
	int64_t *step, *work;          /* [iters] */
	int64_t span, work_total;
};

/* One side of the comparison: its rank files' parts added together
** (gp_diff_run_add), per iteration: a group's time is the sum over the
** ranks, the step time the slowest rank's (what the job waits for).  Only
** the iterations every rank holds (the fewest of any rank) get
** per-iteration figures; the others count in the totals.
** Ownership: owns its groups, cells, names and rank records; borrows
** nothing from the parts added. */
struct gp_diff_run_in {
	gp_strtab strs;
	int by;
	GP_VEC(struct gp_diff_group) groups;
	gp_u64map group_at;            /* key gp_str -> index into groups */
	GP_VEC(struct gp_diff_cell) cells;
	gp_u64map cell_at;             /* group << 32 | iter -> index into cells */
	size_t iters;                  /* the fewest of any rank */
	size_t iters_max;              /* the most of any rank */
	GP_VEC(int64_t) step, busy;    /* [iters_max] max, sum over ranks */
	GP_VEC(int64_t) idle;          /* [iters_max * GP_CAUSE__COUNT] sum over ranks */
	int64_t idle_total[GP_CAUSE__COUNT];
	int64_t span, time;            /* the longest rank's span, the sum of kernel time */
	GP_VEC(struct gp_diff_rank) ranks;
};

void gp_diff_run_init(struct gp_diff_run_in *r, int by);

/* Adds rank file p (same grouping as r) as rank number rank. */
void gp_diff_run_add(struct gp_diff_run_in *r, const struct gp_diff_part *p, int32_t rank);

/* Reads one file's kept parts (gp_diff_part_put's rows) back and adds
** each to runs[its grouping] (runs: GP_DIFF_NBY of them) as rank number
** rank; a grouping not in need[] is a damaged record.  GP_ERR_FORMAT when
** the rows are not what gp_diff_part_put writes (a damaged record from
** another process). */
int gp_diff_parts_add(const struct gp_rowbuf *rb, struct gp_diff_run_in *runs, const bool *need, int32_t rank,
		      gp_error *err);

void gp_diff_run_free(struct gp_diff_run_in *r);

struct gp_diff_opts {
	int by;                  /* enum gp_diff_by */
	bool stats;              /* false: --no-stats, totals and the threshold only */
	double threshold;        /* relative change (0.02 = 2%) below which a change
				** is never significant */
	int resamples;           /* bootstrap resamples (2000) */
	uint64_t seed;           /* bootstrap seed: the output is deterministic */
};

/* One group in one run (its figures as shown). */
struct gp_diff_run {
	int64_t total;           /* ns of its kernels */
	uint64_t calls;          /* kernels */
	double flops;            /* sum of the known; < 0 = none known */
	double eff;              /* sum ideal / sum time over kernels with an ideal
				** time, 0..1; < 0 = unknown */
	uint8_t tc;              /* enum gp_diff_tc */
	double med, iqr;         /* per-iteration time (ns): median and
				** interquartile range; < 0 = no iterations */
};

enum gp_diff_status { GP_DIFF_SAME, GP_DIFF_CHANGED, GP_DIFF_NEW, GP_DIFF_GONE };

enum gp_diff_verdict {
	GP_DIFF_SIGNIFICANT,     /* the interval excludes 0 and |rel| >= threshold */
	GP_DIFF_NOISE,           /* within the noise: the interval holds 0 */
	GP_DIFF_ABOVE,           /* no statistics: |rel| >= threshold */
	GP_DIFF_BELOW,           /* |rel| < threshold (with statistics: the
				** interval excludes 0, but the change is small) */
};

/* IDLE: the GPU's idle time, all causes (name "(idle)") or one cause
** (named as the breakdown names it: "(idle: dataloader)"). */
enum gp_diff_kind { GP_DIFF_ROW_STEP, GP_DIFF_ROW_TOTAL, GP_DIFF_ROW_GROUP, GP_DIFF_ROW_IDLE };

/* The words the outputs use for the enums above (tc: NULL for NA). */
extern const char *const gp_diff_status_names[];   /* same, changed, new, gone */
extern const char *const gp_diff_verdict_names[];  /* significant, within noise, ... */
extern const char *const gp_diff_tc_names[];       /* NULL, no, yes, mixed */
extern const char *const gp_diff_kind_names[];     /* step, total, group, idle */
extern const char *const gp_diff_by_names[];       /* kernel, op, layer, iter, rank */

struct gp_diff_row {
	uint8_t kind;            /* enum gp_diff_kind */
	gp_str name;             /* in gp_diff.strs: the first spelling met, base first */
	gp_str key;              /* the normalised name the runs were matched by */
	struct gp_diff_run base, test;
	uint8_t status;          /* enum gp_diff_status */
	uint8_t verdict;         /* enum gp_diff_verdict */
	bool has_ci;             /* per-iteration statistics were computed */
	/* The headline change: of the per-iteration medians when has_ci, else
	** of the totals.  rel is change / base (ns / ns), +-INFINITY when the
	** group is new or gone, 0 for 0 -> 0. */
	double change, rel;
	double ci_lo, ci_hi;     /* has_ci: the interval on change (ns) */
};

struct gp_diff {
	gp_strtab strs;
	struct gp_diff_row *rows;  /* the lead rows (the step, the idle time, each
				** idle cause whose time changed significantly,
				** the total), then the groups by |change| */
	size_t n;
	size_t lead;               /* the lead rows, always shown */
	size_t base_iters, test_iters;  /* iterations with kernels (common to a run's ranks) */
	size_t base_ranks, test_ranks;  /* rank files of each run */
	bool stats;                /* per-iteration statistics were possible and asked for */
	int by;
};

/* Fills d from the two runs (both added up under o->by).  Never fails on
** odd data.  Statistics need at least 4 iterations with kernels in each
** run (fewer cannot give a 95% interval); otherwise d->stats is false and
** every row is judged against the threshold.  The per-iteration values are
** whole-job figures (summed over ranks, the slowest rank's step), so an
** iteration, not a rank-iteration, is the unit resampled: ranks of one
** iteration move together and are not independent draws. */
void gp_diff_compute(const struct gp_diff_run_in *base, const struct gp_diff_run_in *test,
		     const struct gp_diff_opts *o, struct gp_diff *d);

void gp_diff_free(struct gp_diff *d);

/* The name two runs match kernels by: the demangled name without its
** return type and parameter list, "(anonymous namespace)" spelt
** "<unnamed>", no template-argument casts ("(int)4") or integer suffixes
** ("4096ul"), no spaces.  Writes into buf (truncated to size) and returns it. */
const char *gp_diff_kernel_key(const char *name, char *buf, size_t size);

/* The name two runs match ops by: without a leading "aten::" (PyProf's
** markers name ops without it).  Returns a pointer into name. */
const char *gp_diff_op_key(const char *name);

/* A CI gate (--fail-if): "step>+5%", "total>+3%", "op:matmul>+10%",
** "kernel:*gemm*>+1ms", "layer:Block_*<-5%" (docs/diff.md). */
enum gp_gate_target { GP_GATE_STEP, GP_GATE_TOTAL, GP_GATE_GROUP };

struct gp_diff_gate {
	const char *text;        /* as given (borrowed from argv) */
	uint8_t target;          /* enum gp_gate_target */
	int by;                  /* GP_GATE_GROUP: enum gp_diff_by */
	char pattern[512];       /* GP_GATE_GROUP: glob on the group's name or key */
	bool above;              /* '>': trips above the limit; '<': below */
	bool relative;           /* limit is a fraction (0.05 = 5%), else ns */
	double limit;
};

/* Parses text into g.  Fails (GP_ERR_USAGE, saying what is wrong) on bad
** syntax. */
int gp_diff_gate_parse(const char *text, struct gp_diff_gate *g, gp_error *err);

/* The first row of d (computed with g's grouping for a group gate) that
** trips g, searching from *from (0 at first) and setting *from past it;
** NULL when none does.  A row trips when its headline change (relative or
** absolute, as the limit is) crosses the limit and, when d has statistics
** and respect_noise, its interval excludes 0. */
const struct gp_diff_row *gp_diff_gate_next(const struct gp_diff *d, const struct gp_diff_gate *g,
					    bool respect_noise, size_t *from);

/* What a gate found: how many rows tripped it, and the first as the
** verdict line says it ("step +7.2% [+5.1%, +9.0%] > +5%"). */
struct gp_diff_gate_result {
	const char *text;        /* the gate as given */
	size_t trips;
	char first[1024];
};

/* Median of v[0..n) sorted ascending (0 when n == 0). */
double gp_diff_median(const double *v, size_t n);

#endif
