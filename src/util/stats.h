/*
** Descriptive statistics over durations, with nsys stats' definitions
** (formats.md 1.9): total is an exact integer sum, the median of an even
** count is the mean of the two middle values, the standard deviation is
** the sample one (n - 1; 0 for a single value).
**
** Ownership: functions read the caller's arrays; gp_stats_compute() sorts
** its input in place, nothing is allocated.
*/
#ifndef GP_STATS_H
#define GP_STATS_H

#include <stddef.h>
#include <stdint.h>

struct gp_stats {
	uint64_t n;
	int64_t total;          /* exact sum */
	int64_t min, max;       /* 0 when n == 0 */
	double avg, med, stddev;
};

/* Statistics of v[0..n), which must be sorted ascending.  n == 0 gives all
** zeros. */
void gp_stats_sorted(const int64_t *v, size_t n, struct gp_stats *s);

/* Sorts v[0..n) ascending, then gp_stats_sorted(). */
void gp_stats_compute(int64_t *v, size_t n, struct gp_stats *s);

/* qsort comparator for int64_t, ascending. */
int gp_cmp_i64(const void *a, const void *b);

/* 100 * part / whole, 0 when whole is 0. */
double gp_percent(int64_t part, int64_t whole);

#endif
