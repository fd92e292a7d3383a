/*
** A distribution of non-negative integers in fixed log buckets: values
** below 16 exactly, then 16 buckets per power of two (a bucket spans at
** most 1/16 of its value).  Two histograms merge exactly by adding bucket
** counts, so per-file results combine without their samples (the time
** breakdown's launch delay and queue depth, the collectives' bus
** bandwidth).
**
** Ownership: a gp_hist is a plain value (no pointers): zero it to start.
*/
#ifndef GP_HIST_H
#define GP_HIST_H

#include <stdint.h>

#define GP_HIST_SUB 16
#define GP_HIST_BUCKETS (GP_HIST_SUB + 59 * GP_HIST_SUB)

struct gp_hist {
	uint64_t n;
	int64_t sum, max;       /* sum saturates at INT64_MAX */
	uint64_t bucket[GP_HIST_BUCKETS];
};

/* Adds v (a negative v counts as 0). */
void gp_hist_add(struct gp_hist *h, int64_t v);

/* Adds from's counts, sum and max into into. */
void gp_hist_merge(struct gp_hist *into, const struct gp_hist *from);

/* The p-quantile (0 < p <= 1): the upper bound of the bucket holding the
** ceil(p*n)-th smallest value, capped at max; exact below 16 and for
** p == 1.  0 for an empty histogram. */
int64_t gp_hist_quantile(const struct gp_hist *h, double p);

#endif
