/*
** fwdbwd flows: libkineto ties a forward op (flow start) to its backward
** op (flow end, bound to the enclosing slice).  After the parse each flow
** end is resolved to the innermost cpu_op around it on its thread.  See
** kineto_int.h.
*/
#include <stdlib.h>

#include "readers/kineto_int.h"

static int cmp_op_index(const void *pa, const void *pb, void *ranges)
{
	const struct gp_range *r = ranges;

	return gp_range_cmp(&r[*(const int32_t *)pa], &r[*(const int32_t *)pb]);
}

/* The innermost op in ops[0..n) (range indices in gp_range_cmp order, with
** parent links in par) on (pid, tid) that contains ts; -1 if none. */
static int32_t op_at(const gp_trace *t, const int32_t *ops, const int32_t *par, size_t n,
		     uint32_t pid, uint32_t tid, gp_ns ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {   /* first op that starts after ts on this thread */
		size_t mid = (lo + hi) / 2;
		const struct gp_range *r = &t->ranges.v[ops[mid]];
		int c = gp_thread_cmp(r->pid, r->tid, pid, tid);
		if (c < 0 || (c == 0 && r->start <= ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int32_t i = (int32_t)lo - 1; i >= 0; i = par[i]) {
		const struct gp_range *r = &t->ranges.v[ops[i]];
		if (r->pid != pid || r->tid != tid)
			return -1;
		if (r->end >= ts)
			return ops[i];
	}
	return -1;
}

/* The parent of each op of ops[0..n) (sorted as op_at wants) within the
** array, -1 for none; the caller frees it. */
static int32_t *op_parents(const gp_trace *t, const int32_t *ops, size_t n)
{
	int32_t *par = gp_xmalloc((n ? n : 1) * sizeof(*par));
	GP_VEC(int32_t) stack = {0};

	for (size_t i = 0; i < n; i++) {
		const struct gp_range *r = &t->ranges.v[ops[i]];
		while (stack.n) {
			const struct gp_range *top = &t->ranges.v[ops[stack.v[stack.n - 1]]];
			if (top->pid == r->pid && top->tid == r->tid && top->end >= r->end)
				break;
			stack.n--;
		}
		par[i] = stack.n ? stack.v[stack.n - 1] : -1;
		*gp_vec_push(stack) = (int32_t)i;
	}
	gp_vec_free(stack);
	return par;
}

/* Gives range r an empty op_ext when it has none. */
static void ensure_op_ext(gp_trace *t, struct gp_range *r)
{
	if (!r->ext) {
		*gp_vec_push(t->op_exts) = (struct gp_op_ext){.seq = -1};
		r->ext = (uint32_t)t->op_exts.n;
	}
}

/* The backward op gets the forward op's sequence number (or both get a
** fresh one when neither has any) and is marked backward, so attribution
** can pair them as with Sequence number + Fwd thread id. */
void kineto_resolve_flows(struct kineto_parser *p)
{
	gp_trace *t = p->t;
	GP_VEC(int32_t) ops = {0};
	gp_u64map starts = {0};
	int64_t next_seq = INT64_C(1) << 48;
	size_t linked = 0;

	if (!p->flows.n)
		return;
	for (size_t i = 0; i < t->ranges.n; i++)
		if (t->ranges.v[i].kind == GP_RANGE_CPU_OP)
			*gp_vec_push(ops) = (int32_t)i;
	if (ops.n > 1)
		qsort_r(ops.v, ops.n, sizeof(*ops.v), cmp_op_index, t->ranges.v);
	int32_t *par = op_parents(t, ops.v, ops.n);

	for (size_t i = 0; i < p->flows.n; i++) {
		const struct flow_end *f = &p->flows.v[i];
		if (f->start) {
			int32_t op = op_at(t, ops.v, par, ops.n, f->pid, f->tid, f->ts);
			if (op >= 0)
				gp_u64map_put(&starts, f->id, op);
		}
	}
	for (size_t i = 0; i < p->flows.n; i++) {
		const struct flow_end *f = &p->flows.v[i];
		if (f->start)
			continue;
		int32_t fwd = gp_u64map_get(&starts, f->id);
		int32_t bwd = op_at(t, ops.v, par, ops.n, f->pid, f->tid, f->ts);
		if (fwd < 0 || bwd < 0 || fwd == bwd)
			continue;
		struct gp_range *fr = &t->ranges.v[fwd], *br = &t->ranges.v[bwd];
		ensure_op_ext(t, fr);   /* both before taking pointers: a push moves them */
		ensure_op_ext(t, br);
		struct gp_op_ext *fx = &t->op_exts.v[fr->ext - 1], *bx = &t->op_exts.v[br->ext - 1];
		if (bx->seq < 0) {
			if (fx->seq < 0)
				fx->seq = next_seq++;
			bx->seq = fx->seq;
		}
		if (!bx->fwd_tid)
			bx->fwd_tid = fr->tid ? fr->tid : 1;
		linked++;
	}
	free(par);
	gp_vec_free(ops);
	gp_u64map_free(&starts);
	if (linked < p->flows.n / 2)
		gp_trace_warn(t, "%zu of %zu fwdbwd flow endpoints could not be tied to ops",
			      p->flows.n - 2 * linked, p->flows.n);
}
