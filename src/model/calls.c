/*
** API calls indexed by (correlation id, process).  See calls.h.
*/
#include <stdlib.h>

#include "model/calls.h"

static int cmp_call_key(const void *pa, const void *pb)
{
	const struct gp_call_key *a = pa, *b = pb;

	if (a->corr != b->corr)
		return a->corr < b->corr ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

void gp_call_index_build(gp_call_index *ix, const gp_trace *t)
{
	ix->n = t->apis.n;
	ix->keys = gp_xmalloc((ix->n ? ix->n : 1) * sizeof(*ix->keys));
	for (size_t i = 0; i < ix->n; i++)
		ix->keys[i] = (struct gp_call_key){t->apis.v[i].corr, t->apis.v[i].pid, (int32_t)i};
	if (ix->n > 1)
		gp_sort(ix->keys, ix->n, sizeof(*ix->keys), cmp_call_key);
}

/* Position of the first key >= (corr, pid). */
static size_t lower_bound(const gp_call_index *ix, uint64_t corr, uint32_t pid)
{
	size_t lo = 0, hi = ix->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct gp_call_key *k = &ix->keys[mid];
		if (k->corr < corr || (k->corr == corr && k->pid < pid))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int32_t gp_call_find(const gp_call_index *ix, uint64_t corr, uint32_t pid)
{
	size_t i = lower_bound(ix, corr, pid);

	if (corr == 0 || i >= ix->n || ix->keys[i].corr != corr || (pid != 0 && ix->keys[i].pid != pid))
		return -1;
	return ix->keys[i].idx;
}

int32_t gp_call_find_unique(const gp_call_index *ix, uint64_t corr)
{
	size_t i = lower_bound(ix, corr, 0), last = lower_bound(ix, corr, UINT32_MAX);

	if (corr == 0 || i >= ix->n || ix->keys[i].corr != corr)
		return -1;
	/* last is past every key of corr but those with pid UINT32_MAX */
	while (last < ix->n && ix->keys[last].corr == corr)
		last++;
	return ix->keys[last - 1].pid == ix->keys[i].pid ? ix->keys[i].idx : -1;
}

void gp_call_index_free(gp_call_index *ix)
{
	free(ix->keys);
	ix->keys = NULL;
	ix->n = 0;
}
