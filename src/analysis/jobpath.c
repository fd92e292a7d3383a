/*
** The critical path across the ranks of a job; see jobpath.h and
** docs/dependencies.md, "The critical path across ranks".
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/jobpath.h"
#include "analysis/ranks.h"
#include "model/classify.h"
#include "util/alloc.h"
#include "util/fmt.h"
#include "util/sort.h"
#include "util/u64map.h"

/* ---- one rank's legs ------------------------------------------------ */

struct leg_acc {
	gp_deps *d;
	struct gp_rank_path *p;
	struct gp_piece_namer namer;
	GP_VEC(struct gp_path_row) rows;
	GP_VEC(char *) names;
	gp_u64map name_of;        /* gp_str -> names index */
	gp_u64map row_of;         /* (op name index, cause) -> row, per leg */
	const int32_t *coll_of;   /* [units]: collective index, -1 = none */
	struct gp_path_leg *leg;  /* the leg being walked */
	gp_ns low;                /* the earliest time its pieces reached */
};

/* The index of trace string s among the path's names (added once). */
static uint32_t name_index(struct leg_acc *a, gp_str s)
{
	int32_t i = gp_u64map_get(&a->name_of, s);

	if (i >= 0)
		return (uint32_t)i;
	gp_u64map_put(&a->name_of, s, (int32_t)a->names.n);
	*gp_vec_push(a->names) = gp_xstrdup(s ? gp_s(a->d->t, s) : "");
	return (uint32_t)(a->names.n - 1);
}

/* A piece of the walk: the end of the leg at a collective kernel's run,
** else time of its op and cause. */
static bool take_leg_piece(void *ctx, const struct gp_piece *p)
{
	struct leg_acc *a = ctx;
	struct gp_path_leg *leg = a->leg;
	gp_str op, layer;
	uint32_t name;
	uint64_t key;
	int32_t r;

	gp_piece_names(&a->namer, p, &op, &layer);
	name = name_index(a, op);
	if (p->of == GP_PIECE_UNIT && p->cause == GP_CAUSE_GPU_COMM && a->coll_of[p->idx] >= 0) {
		leg->to = a->coll_of[p->idx];
		leg->to_op = name;
		leg->lo = p->end;
		return false;
	}
	if (p->start < a->low)
		a->low = p->start;
	key = (uint64_t)name << 8 | p->cause;
	r = gp_u64map_get(&a->row_of, key);
	if (r < 0 || (uint32_t)r < leg->row0) {   /* a row of an earlier leg */
		r = (int32_t)a->rows.n;
		gp_u64map_put(&a->row_of, key, r);
		*gp_vec_push(a->rows) = (struct gp_path_row){.cause = p->cause, .op = name};
		leg->nrows++;
	}
	a->rows.v[r].ns += p->end - p->start;
	return true;
}

/* Walks leg from w back to the first collective kernel or to first. */
static void walk_leg(struct leg_acc *a, struct gp_path_leg *leg, struct gp_walk_at w, gp_ns first)
{
	*leg = (struct gp_path_leg){.to = -1, .lo = first, .hi = w.at, .row0 = (uint32_t)a->rows.n};
	a->leg = leg;
	a->low = w.at;
	gp_walk(a->d, w, first, take_leg_piece, a);
	if (leg->to < 0 && a->low > first) {
		/* what the walk could not reach back to: nothing recorded says */
		struct gp_piece p = {.start = first, .end = a->low, .cause = GP_CAUSE_UNKNOWN};
		take_leg_piece(a, &p);
	}
}

void gp_rank_path_build(gp_deps *d, const gp_trace *t, const struct gp_coll_rank *coll, struct gp_rank_path *p)
{
	struct leg_acc a = {.d = d, .p = p, .namer = {.d = d, .t = t}};
	struct gp_cp_scope sc;
	int32_t *coll_of, *unit_of;
	size_t k = 0;

	memset(p, 0, sizeof(*p));
	if (!d->t || !gp_critpath_scope(d, &sc))
		return;
	/* the collectives are the communication kernels in order (gp_coll_extract) */
	coll_of = gp_xmalloc((d->n + 1) * sizeof(*coll_of));
	unit_of = gp_xmalloc((coll->n + 1) * sizeof(*unit_of));
	for (size_t u = 0; u < d->n; u++) {
		coll_of[u] = -1;
		if (u < t->kernels.n && gp_kernel_is_comm(t, &t->kernels.v[u])) {
			if (k < coll->n)
				unit_of[k] = (int32_t)u;
			coll_of[u] = (int32_t)k++;
		}
	}
	if (k == coll->n) {
		a.coll_of = coll_of;
		p->have = true;
		p->first = sc.first;
		p->end = sc.end;
		p->nlegs = coll->n + 1;
		p->legs = gp_xcalloc(p->nlegs, sizeof(*p->legs));
		name_index(&a, 0);   /* names[0] = "" */
		walk_leg(&a, &p->legs[0], sc.from, sc.first);
		for (size_t c = 0; c < coll->n; c++) {
			struct gp_walk_at w = {.on_gpu = true, .unit = unit_of[c],
					       .at = gp_unit_start(t, (size_t)unit_of[c])};
			if (w.at < sc.first)
				w.at = sc.first;   /* before the walked process's first activity */
			walk_leg(&a, &p->legs[c + 1], w, sc.first);
		}
		p->rows = a.rows.v;
		p->nrows = a.rows.n;
		p->names = a.names.v;
		p->nnames = a.names.n;
	}
	free(coll_of);
	free(unit_of);
	gp_u64map_free(&a.name_of);
	gp_u64map_free(&a.row_of);
	gp_piece_namer_free(&a.namer);
}

void gp_rank_path_free(struct gp_rank_path *p)
{
	for (size_t i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	free(p->legs);
	free(p->rows);
	memset(p, 0, sizeof(*p));
}

/* ---- the legs as kept rows ------------------------------------------ */

void gp_rank_path_put(const struct gp_rank_path *p, gp_writer *w)
{
	char v[4][24];
	const char *row[GP_COLL_RECORD_NCOLS] = {"path", v[0], v[1], v[2]};

	if (!p->have)
		return;
	gp_fmt_i64(v[0], p->first);
	gp_fmt_i64(v[1], p->end);
	gp_fmt_u64(v[2], p->nlegs);
	gp_writer_row(w, row);
	for (size_t l = 0; l < p->nlegs; l++) {
		const struct gp_path_leg *g = &p->legs[l];
		const char *lrow[GP_COLL_RECORD_NCOLS] = {"leg", v[0], v[1], v[2], p->names[g->to_op]};
		gp_fmt_i64(v[0], g->to);
		gp_fmt_i64(v[1], g->lo);
		gp_fmt_i64(v[2], g->hi);
		gp_writer_row(w, lrow);
		for (size_t r = g->row0; r < g->row0 + g->nrows; r++) {
			const char *crow[GP_COLL_RECORD_NCOLS] = {"cp", v[0], v[1], p->names[p->rows[r].op]};
			gp_fmt_u64(v[0], p->rows[r].cause);
			gp_fmt_i64(v[1], p->rows[r].ns);
			gp_writer_row(w, crow);
		}
	}
}

/* Grows *v (of *n elements of size sz) so one more fits: doubles at
** each power of two, so that reading needs no capacity field. */
static void *grow(void *v, size_t n, size_t sz)
{
	if (n & (n - 1))
		return v;
	return gp_xrealloc(v, (n ? 2 * n : 1) * sz);
}

/* Adds text as a new name of p; returns its index. */
static uint32_t add_name(struct gp_rank_path *p, const char *text)
{
	p->names = grow(p->names, p->nnames, sizeof(*p->names));
	p->names[p->nnames] = gp_xstrdup(text ? text : "");
	return (uint32_t)p->nnames++;
}

int gp_rank_path_row(struct gp_rank_path *p, const char *const *c)
{
	int64_t a, b, e;

	if (!c[0])
		return 0;
	if (strcmp(c[0], "path") == 0) {
		if (p->have || !gp_rowbuf_cell_i64(c[1], INT64_MIN, INT64_MAX, &a) ||
		    !gp_rowbuf_cell_i64(c[2], a, INT64_MAX, &b) || !gp_rowbuf_cell_i64(c[3], 1, INT32_MAX, &e))
			return -1;
		p->have = true;
		p->first = a;
		p->end = b;
		p->want = (size_t)e;
		return 1;
	}
	if (strcmp(c[0], "leg") == 0) {
		struct gp_path_leg *g;
		if (!p->have || p->nlegs == p->want || !gp_rowbuf_cell_i64(c[1], -1, INT32_MAX, &a) ||
		    !gp_rowbuf_cell_i64(c[2], INT64_MIN, INT64_MAX, &b) ||
		    !gp_rowbuf_cell_i64(c[3], b, INT64_MAX, &e))
			return -1;
		p->legs = grow(p->legs, p->nlegs, sizeof(*p->legs));
		g = &p->legs[p->nlegs++];
		*g = (struct gp_path_leg){.to = (int32_t)a, .lo = b, .hi = e, .to_op = add_name(p, c[4]),
					  .row0 = (uint32_t)p->nrows};
		return 1;
	}
	if (strcmp(c[0], "cp") == 0) {
		struct gp_path_leg *g = p->nlegs ? &p->legs[p->nlegs - 1] : NULL;
		if (!g || !gp_rowbuf_cell_i64(c[1], 0, GP_CAUSE__COUNT - 1, &a) ||
		    !gp_rowbuf_cell_i64(c[2], 0, INT64_MAX, &b))
			return -1;
		p->rows = grow(p->rows, p->nrows, sizeof(*p->rows));
		p->rows[p->nrows++] = (struct gp_path_row){.cause = (uint8_t)a, .op = add_name(p, c[3]), .ns = b};
		g->nrows++;
		return 1;
	}
	return 0;
}

bool gp_rank_path_done(const struct gp_rank_path *p, size_t ncoll)
{
	if (!p->have)
		return true;   /* not asked for: nothing to check */
	if (p->nlegs != p->want || p->nlegs != ncoll + 1)
		return false;
	for (size_t l = 0; l < p->nlegs; l++)
		if (p->legs[l].to >= (int32_t)ncoll)
			return false;
	return true;
}

/* ---- the job's path ------------------------------------------------- */

struct job_acc {
	const struct gp_rank_job *j;
	struct gp_job_path *p;
	GP_VEC(struct gp_job_row) rows;
};

/* Rank r holds ns of cause under op. */
static void hold(struct job_acc *a, size_t r, uint8_t cause, const char *op, gp_ns ns)
{
	if (ns <= 0)
		return;
	a->p->ranks[r].held += ns;
	a->p->ranks[r].by_cause[cause] += ns;
	*gp_vec_push(a->rows) = (struct gp_job_row){.rank = r, .cause = cause, .op = op, .ns = ns};
}

static int cmp_key(const void *pa, const void *pb)
{
	const struct gp_job_row *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->cause != b->cause)
		return a->cause < b->cause ? -1 : 1;
	return strcmp(a->op, b->op);
}

static int cmp_time(const void *pa, const void *pb)
{
	const struct gp_job_row *a = pa, *b = pb;

	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->ns != b->ns)
		return a->ns > b->ns ? -1 : 1;
	return cmp_key(pa, pb);
}

/* The rows of one (rank, cause, op) summed, by rank then time. */
static void settle_rows(struct job_acc *a)
{
	size_t u = 0;

	gp_vec_sort(a->rows, cmp_key);
	for (size_t i = 0; i < a->rows.n; i++) {
		if (u && cmp_key(&a->rows.v[u - 1], &a->rows.v[i]) == 0)
			a->rows.v[u - 1].ns += a->rows.v[i].ns;
		else
			a->rows.v[u++] = a->rows.v[i];
	}
	a->rows.n = u;
	gp_vec_sort(a->rows, cmp_time);
	a->p->rows = a->rows.v;
	a->p->nrows = a->rows.n;
}

/* Per rank, the call each of its collectives is in (into m->calls), -1
** when none: [rank][collective], malloc'd. */
static int32_t **calls_of(const struct gp_rank_job *j)
{
	const struct gp_coll_match *m = &j->coll;
	int32_t **of = gp_xmalloc(j->n * sizeof(*of));

	for (size_t r = 0; r < j->n; r++) {
		of[r] = gp_xmalloc((j->rec[r].coll.n + 1) * sizeof(**of));
		for (size_t k = 0; k < j->rec[r].coll.n; k++)
			of[r][k] = -1;
	}
	for (size_t c = 0; c < m->ncalls; c++)
		for (size_t r = 0; r < j->n; r++) {
			int32_t k = m->slots[c * m->nranks + r];
			if (k >= 0 && (size_t)k < j->rec[r].coll.n)
				of[r][k] = (int32_t)c;
		}
	return of;
}

void gp_job_path_run(const struct gp_rank_job *j, struct gp_job_path *p)
{
	struct job_acc a = {.j = j, .p = p};
	const struct gp_coll_match *m = &j->coll;
	int32_t **of;
	size_t cur = 0, guard = 16;
	const struct gp_path_leg *leg;

	memset(p, 0, sizeof(*p));
	p->ranks = gp_xcalloc(j->n ? j->n : 1, sizeof(*p->ranks));
	for (size_t r = 0; r < j->n; r++) {
		if (!j->rec[r].path.have) {
			p->why = "a rank's trace has no activity to walk";
			return;
		}
		if (j->n > 1 && !m->ranks[r].aligned) {
			p->why = "a rank shares no collective with the first rank: its clock cannot be aligned";
			return;
		}
		guard += 2 * j->rec[r].path.nlegs;
	}
	if (!j->n) {
		p->why = "no rank";
		return;
	}
	if (j->n > 1 && !m->ncomplete) {
		p->why = "no collective is matched on every rank: the traces cannot tell who waited for whom";
		return;
	}
	/* the job's end: the rank whose end is last (ties to the first) */
	for (size_t r = 1; r < j->n; r++)
		if (j->rec[r].path.end + m->ranks[r].offset > j->rec[cur].path.end + m->ranks[cur].offset)
			cur = r;
	p->known = true;
	p->end_rank = cur;
	p->end = j->rec[cur].path.end + (j->n > 1 ? m->ranks[cur].offset : 0);
	of = calls_of(j);
	leg = &j->rec[cur].path.legs[0];
	while (guard--) {
		const struct gp_rank_path *rp = &j->rec[cur].path;
		const struct gp_coll *c;
		gp_ns off = j->n > 1 ? m->ranks[cur].offset : 0, at;
		int32_t ci;

		for (size_t r = leg->row0; r < leg->row0 + leg->nrows; r++)
			hold(&a, cur, rp->rows[r].cause, rp->names[rp->rows[r].op], rp->rows[r].ns);
		if (leg->to < 0) {
			p->start = leg->lo + off;
			break;
		}
		/* at a collective kernel, reached at leg->lo; its own leg goes on
		** from its start (the rank's first activity, if earlier) */
		c = &j->rec[cur].coll.v[leg->to];
		at = leg->lo;
		ci = of[cur][leg->to];
		if (ci >= 0 && m->calls[ci].present == j->n && m->calls[ci].last_rank >= 0 &&
		    (size_t)m->calls[ci].last_rank != cur) {
			size_t l = (size_t)m->calls[ci].last_rank;
			int32_t kl = m->slots[(size_t)ci * m->nranks + l];
			const struct gp_path_leg *next = &j->rec[l].path.legs[kl + 1];
			gp_ns sl = next->hi + m->ranks[l].offset;
			if (sl > c->start + off && sl < at + off) {
				/* waited for rank l: the call's communication from its
				** arrival on, then l's way there */
				hold(&a, cur, GP_CAUSE_GPU_COMM, rp->names[leg->to_op], at + off - sl);
				cur = l;
				p->ranks[l].entered++;
				p->jumps++;
				leg = next;
				continue;
			}
		}
		hold(&a, cur, GP_CAUSE_GPU_COMM, rp->names[leg->to_op], at - rp->legs[leg->to + 1].hi);
		leg = &rp->legs[leg->to + 1];
	}
	if (guard == (size_t)-1)   /* cannot happen: every leg moves back in time */
		p->start = leg->hi + (j->n > 1 ? m->ranks[cur].offset : 0);
	p->start_rank = cur;
	for (size_t r = 0; r < j->n; r++)
		free(of[r]);
	free(of);
	settle_rows(&a);
}

void gp_job_path_free(struct gp_job_path *p)
{
	free(p->ranks);
	free(p->rows);
	memset(p, 0, sizeof(*p));
}
