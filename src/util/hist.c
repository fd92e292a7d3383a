/*
** Fixed log-bucket histograms; see hist.h.
*/
#include "util/hist.h"

/* The bucket that holds v. */
static int hist_index(int64_t v)
{
	uint64_t u = v > 0 ? (uint64_t)v : 0;
	int e;

	if (u < GP_HIST_SUB)
		return (int)u;
	e = 63 - __builtin_clzll(u);          /* >= 4 */
	if (e > 62)
		e = 62;
	return GP_HIST_SUB + (e - 4) * GP_HIST_SUB + (int)((u >> (e - 4)) & (GP_HIST_SUB - 1));
}

/* The largest value bucket i holds. */
static int64_t hist_upper(int i)
{
	int e, sub;

	if (i < GP_HIST_SUB)
		return i;
	e = (i - GP_HIST_SUB) / GP_HIST_SUB + 4;
	sub = (i - GP_HIST_SUB) % GP_HIST_SUB;
	return (int64_t)((((uint64_t)(GP_HIST_SUB + sub + 1)) << (e - 4)) - 1);
}

void gp_hist_add(struct gp_hist *h, int64_t v)
{
	if (v < 0)
		v = 0;
	h->bucket[hist_index(v)]++;
	h->n++;
	if (__builtin_add_overflow(h->sum, v, &h->sum))
		h->sum = INT64_MAX;
	if (v > h->max)
		h->max = v;
}

void gp_hist_merge(struct gp_hist *into, const struct gp_hist *from)
{
	for (int i = 0; i < GP_HIST_BUCKETS; i++)
		into->bucket[i] += from->bucket[i];
	into->n += from->n;
	if (__builtin_add_overflow(into->sum, from->sum, &into->sum))
		into->sum = INT64_MAX;
	if (from->max > into->max)
		into->max = from->max;
}

int64_t gp_hist_quantile(const struct gp_hist *h, double p)
{
	uint64_t rank, seen = 0;

	if (!h->n)
		return 0;
	if (p >= 1)
		return h->max;
	rank = (uint64_t)((double)h->n * p);
	if ((double)rank < (double)h->n * p)
		rank++;
	if (rank < 1)
		rank = 1;
	for (int i = 0; i < GP_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			int64_t up = hist_upper(i);
			return up < h->max ? up : h->max;
		}
	}
	return h->max;
}
