/*
** API calls indexed by (correlation id, process).  See calls.h.
*/
#include <stdlib.h>
#include <string.h>

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

/* The map by id (calls.h) where the non-zero ids span at most eight
** times the calls, so that gp_u64map_reserve_range makes it an array (4
** bytes an id: at most the 32 bytes a call the keys take while they are
** radix-sorted; CUPTI counts every activity, so a trace's runtime calls
** hold a fifth of the ids or less), and no two calls share one; false,
** with nothing kept, otherwise.  A call with id 0 is never found
** (gp_call_find), so it needs no place. */
static bool build_by_id(gp_call_index *ix, const gp_trace *t)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t n = t->apis.n;

	for (size_t i = 0; i < n; i++) {
		uint64_t c = t->apis.v[i].corr;
		if (c && c < lo)
			lo = c;
		if (c > hi)
			hi = c;
	}
	if (lo > hi)
		return false;
	gp_u64map_reserve_range(&ix->by_id, n, lo, hi);
	bool ok = ix->by_id.keys == NULL;   /* dense: else the keys are as small */
	for (size_t i = 0; ok && i < n; i++) {
		uint64_t c = t->apis.v[i].corr;
		ok = !c || gp_u64map_add(&ix->by_id, c, (int32_t)i) == (int32_t)i;   /* shared: the keys tell whose */
	}
	if (!ok)
		gp_u64map_free(&ix->by_id);
	return ok;
}

/* Keys as pairs ordered as (corr, pid, idx): one radix sort, no callback
** per comparison (glibc's merge sort of 16-byte keys was 5% of a Kineto
** report's instructions). */
void gp_call_index_build(gp_call_index *ix, const gp_trace *t)
{
	memset(ix, 0, sizeof(*ix));
	ix->n = t->apis.n;
	ix->t = t;
	if (build_by_id(ix, t))
		return;
	ix->keys = gp_xmalloc((ix->n ? ix->n : 1) * sizeof(*ix->keys));
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
	if (ix->by_id.cap) {
		int32_t c = corr ? gp_u64map_get(&ix->by_id, corr) : -1;
		return c >= 0 && (pid == 0 || ix->t->apis.v[c].pid == pid) ? c : -1;
	}
	size_t i = lower_bound(ix, corr, pid);

	if (corr == 0 || i >= ix->n || ix->keys[i].a != corr || (pid != 0 && key_pid(&ix->keys[i]) != pid))
		return -1;
	return key_idx(&ix->keys[i]);
}

int32_t gp_call_find_unique(const gp_call_index *ix, uint64_t corr)
{
	if (ix->by_id.cap)
		return corr ? gp_u64map_get(&ix->by_id, corr) : -1;
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
	gp_u64map_free(&ix->by_id);
	memset(ix, 0, sizeof(*ix));
}
