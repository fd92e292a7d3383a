/*
** Descriptive statistics; see stats.h.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/stats.h"

int gp_cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void gp_stats_sorted(const int64_t *v, size_t n, struct gp_stats *s)
{
	double shift, mean = 0, ss = 0;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	s->n = n;
	s->min = v[0];
	s->max = v[n - 1];
	/* work on v[i] - v[0], which is exact in a double even when the
	** values themselves (epoch timestamps) are not */
	for (size_t i = 0; i < n; i++) {
		s->total += v[i];
		mean += (double)(v[i] - v[0]);
	}
	mean /= (double)n;
	shift = (double)v[0];
	s->avg = shift + mean;
	s->med = n % 2 ? (double)v[n / 2]
		       : shift + ((double)(v[n / 2 - 1] - v[0]) + (double)(v[n / 2] - v[0])) / 2.0;
	if (n > 1) {
		/* two passes: "sum of squares minus square of sums" cancels */
		for (size_t i = 0; i < n; i++) {
			double d = (double)(v[i] - v[0]) - mean;
			ss += d * d;
		}
		s->stddev = sqrt(ss / (double)(n - 1));
	}
}

void gp_stats_compute(int64_t *v, size_t n, struct gp_stats *s)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), gp_cmp_i64);
	gp_stats_sorted(v, n, s);
}

double gp_percent(int64_t part, int64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}
