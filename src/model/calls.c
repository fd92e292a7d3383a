/*
** API calls indexed by (correlation id, process).  See calls.h.
*/
#include <stdlib.h>

#include "model/calls.h"

/* A key's process and call index (calls.h). */
static uint32_t key_pid(const struct gp_pair *k)
{
	return (uint32_t)(k->b >> 32);
}

static int32_t key_idx(const struct gp_pair *k)
{
	return (int32_t)(uint32_t)k->b;
}

/*
** The keys of t's calls in (corr, pid, idx) order by one counting sort on
** the correlation id, where the ids span at most four times the calls
** (every profiler counts them up): two passes over the calls, where the
** radix sort makes six over the pairs (three bytes of id, three of index).
** The counting sort keeps call order among equal ids, which is index
** order; calls of several processes sharing an id are then put in pid
** order.  Returns false, touching nothing, where the ids are too sparse.
*/
static bool build_counted(gp_call_index *ix, const gp_trace *t)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t n = t->apis.n;

	for (size_t i = 0; i < n; i++) {
		uint64_t c = t->apis.v[i].corr;
		if (c < lo)
			lo = c;
		if (c > hi)
			hi = c;
	}
	if (!n || hi - lo >= 4 * (uint64_t)n + 64)
		return false;
	size_t span = (size_t)(hi - lo) + 1;
	uint32_t *at = gp_xcalloc(span + 1, sizeof(*at));
	for (size_t i = 0; i < n; i++)
		at[t->apis.v[i].corr - lo + 1]++;
	for (size_t c = 1; c <= span; c++)
		at[c] += at[c - 1];
	for (size_t i = 0; i < n; i++) {
		const struct gp_api *a = &t->apis.v[i];
		ix->keys[at[a->corr - lo]++] = (struct gp_pair){a->corr, (uint64_t)a->pid << 32 | (uint32_t)i};
	}
	free(at);
	for (size_t i = 0, j; i < n; i = j) {   /* an id shared: its keys by pid */
		for (j = i + 1; j < n && ix->keys[j].a == ix->keys[i].a; j++)
			;
		if (j - i > 1)
			gp_sort_pairs(ix->keys + i, j - i);
	}
	return true;
}

/* Keys as pairs ordered as (corr, pid, idx): a counting sort, else one
** radix sort; no callback per comparison (glibc's merge sort of 16-byte
** keys was 5% of a Kineto report's instructions). */
void gp_call_index_build(gp_call_index *ix, const gp_trace *t)
{
	ix->n = t->apis.n;
	ix->keys = gp_xmalloc((ix->n ? ix->n : 1) * sizeof(*ix->keys));
	if (build_counted(ix, t))
		return;
	for (size_t i = 0; i < ix->n; i++)
		ix->keys[i] = (struct gp_pair){t->apis.v[i].corr, (uint64_t)t->apis.v[i].pid << 32 | (uint32_t)i};
	gp_sort_pairs(ix->keys, ix->n);
}

/* Whether key k orders before (corr, pid). */
static bool key_before(const struct gp_pair *k, uint64_t corr, uint32_t pid)
{
	return k->a < corr || (k->a == corr && key_pid(k) < pid);
}

/*
** Position of the first key >= (corr, pid).  Correlation ids are mostly
** dense and counted up in call order, so the key's place is guessed from
** where corr lies between the least and the greatest id, and steps that
** double from the guess bracket it in a few probes where the ids are
** dense (about 18 probes of a plain binary search for 200,000 calls); the
** binary search then runs within the bracket.  Any spread of ids gives
** the same answer, at worst in twice the probes.
*/
static size_t lower_bound(const gp_call_index *ix, uint64_t corr, uint32_t pid)
{
	size_t lo = 0, hi = ix->n;

	if (ix->n > 16 && corr > ix->keys[0].a && corr <= ix->keys[ix->n - 1].a) {
		uint64_t first = ix->keys[0].a, span = ix->keys[ix->n - 1].a - first;
		size_t g = (size_t)((double)(corr - first) / (double)span * (double)(ix->n - 1)), step = 1;
		if (g >= ix->n)
			g = ix->n - 1;
		if (key_before(&ix->keys[g], corr, pid)) {   /* the answer is past g */
			lo = g + 1;
			while (lo + step - 1 < hi && key_before(&ix->keys[lo + step - 1], corr, pid)) {
				lo += step;
				step *= 2;
			}
			if (lo + step - 1 < hi)
				hi = lo + step - 1;
		} else {   /* at g or before */
			hi = g;
			while (hi >= step && !key_before(&ix->keys[hi - step], corr, pid)) {
				hi -= step;
				step *= 2;
			}
			if (hi >= step)
				lo = hi - step + 1;
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key_before(&ix->keys[mid], corr, pid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int32_t gp_call_find(const gp_call_index *ix, uint64_t corr, uint32_t pid)
{
	size_t i = lower_bound(ix, corr, pid);

	if (corr == 0 || i >= ix->n || ix->keys[i].a != corr || (pid != 0 && key_pid(&ix->keys[i]) != pid))
		return -1;
	return key_idx(&ix->keys[i]);
}

int32_t gp_call_find_unique(const gp_call_index *ix, uint64_t corr)
{
	size_t i = lower_bound(ix, corr, 0), last = lower_bound(ix, corr, UINT32_MAX);

	if (corr == 0 || i >= ix->n || ix->keys[i].a != corr)
		return -1;
	/* last is past every key of corr but those with pid UINT32_MAX */
	while (last < ix->n && ix->keys[last].a == corr)
		last++;
	return key_pid(&ix->keys[last - 1]) == key_pid(&ix->keys[i]) ? key_idx(&ix->keys[i]) : -1;
}

void gp_call_index_free(gp_call_index *ix)
{
	free(ix->keys);
	ix->keys = NULL;
	ix->n = 0;
}
