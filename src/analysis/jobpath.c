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

/* One piece of a walk, as kept while the walks are made. */
struct piece_rec {
	gp_ns start, end;
	uint32_t op;              /* into names */
	uint8_t cause;
};

/* A segment while the walks are made: pieces [p0, p1) of the piece list. */
struct seg_b {
	size_t p0, p1;
	int32_t next, to;
	gp_ns lo, hi;
	uint32_t to_op;
};

/* A busy thread's point a walk passed: (pid, tid, at) and where in the
** piece list the walk went on from it. */
struct cpu_point {
	uint32_t pid, tid;
	gp_ns at;
	size_t at_piece;
};

struct leg_acc {
	gp_deps *d;
	struct gp_piece_namer namer;
	GP_VEC(char *) names;
	gp_u64map name_of;        /* gp_str -> names index */
	GP_VEC(struct piece_rec) pieces;
	GP_VEC(struct seg_b) segs;
	GP_VEC(int32_t) by_p0;    /* segment ids by their first piece */
	int64_t *unit_at;         /* [units]: the piece a walk reached the unit's
				  ** end at, -1 = none yet */
	GP_VEC(struct cpu_point) points;
	gp_u64map point_at;       /* hash of (pid, tid, at) -> points index */
	const int32_t *coll_of;   /* [units]: collective index, -1 = none */
	int32_t cur;              /* the segment being walked */
	bool ended;               /* the walk reached a collective or another walk */
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

/* Where an earlier walk went on from the point where piece p ends (the
** point the walk is at), or -1; remembers the point for the walks after
** when none did.  Only points whose way back depends on nothing but the
** point: a GPU unit reached at its end, a thread busy there (an idle
** thread's hop depends on the hops made before at that time). */
static int64_t seen_point(struct leg_acc *a, const struct gp_piece *p)
{
	if (!p->cpu) {
		if (p->of != GP_PIECE_UNIT || p->cause > GP_CAUSE_GPU_MEMORY ||
		    p->end != gp_unit_end(a->d->t, (size_t)p->idx))
			return -1;
		if (a->unit_at[p->idx] < 0)
			a->unit_at[p->idx] = (int64_t)a->pieces.n;
		return a->unit_at[p->idx];
	}
	struct gp_cpu_mark m;
	uint64_t h = gp_hash_mix(gp_hash_mix(gp_hash_mix(0, p->lane_a), p->lane_b), (uint64_t)p->end);

	if (!gp_cpu_before(a->d, gp_deps_view(a->d, p->lane_a, p->lane_b), p->end, &m) || gp_cpu_idle(&m))
		return -1;
	for (;; h = gp_hash_mix(h, 1)) {
		int32_t i = gp_u64map_get(&a->point_at, h);
		struct cpu_point *c;
		if (i < 0) {
			gp_u64map_put(&a->point_at, h, (int32_t)a->points.n);
			*gp_vec_push(a->points) = (struct cpu_point){p->lane_a, p->lane_b, p->end, a->pieces.n};
			return (int64_t)a->pieces.n;
		}
		c = &a->points.v[i];
		if (c->pid == p->lane_a && c->tid == p->lane_b && c->at == p->end)
			return (int64_t)c->at_piece;
	}
}

/* The segment that holds piece q, split so that one starts at q. */
static int32_t segment_at(struct leg_acc *a, size_t q)
{
	size_t lo = 0, hi = a->by_p0.n;
	int32_t s, t;

	while (lo < hi) {   /* the last segment starting at or before q */
		size_t mid = lo + (hi - lo) / 2;
		if (a->segs.v[a->by_p0.v[mid]].p0 <= q)
			lo = mid + 1;
		else
			hi = mid;
	}
	s = a->by_p0.v[lo - 1];
	if (a->segs.v[s].p0 == q)
		return s;
	t = (int32_t)a->segs.n;
	struct seg_b copy = a->segs.v[s];   /* the push may move the array */
	*gp_vec_push(a->segs) = copy;
	a->segs.v[t].p0 = q;
	a->segs.v[t].hi = a->pieces.v[q].end;
	a->segs.v[s].p1 = q;
	a->segs.v[s].next = t;
	a->segs.v[s].to = -1;
	a->segs.v[s].lo = a->pieces.v[q].end;
	gp_vec_push(a->by_p0);
	memmove(&a->by_p0.v[lo + 1], &a->by_p0.v[lo], (a->by_p0.n - 1 - lo) * sizeof(*a->by_p0.v));
	a->by_p0.v[lo] = t;
	return t;
}

/* A piece of the walk: the end of it at a collective kernel's run or at a
** point an earlier walk passed, else kept. */
static bool take_leg_piece(void *ctx, const struct gp_piece *p)
{
	struct leg_acc *a = ctx;
	struct seg_b *g = &a->segs.v[a->cur];
	gp_str op, layer;
	uint32_t name;
	int64_t q;

	gp_piece_names(&a->namer, p, &op, &layer);
	name = name_index(a, op);
	if (p->of == GP_PIECE_UNIT && p->cause == GP_CAUSE_GPU_COMM && a->coll_of[p->idx] >= 0) {
		g->to = a->coll_of[p->idx];
		g->to_op = name;
		g->lo = p->end;
		a->ended = true;
		return false;
	}
	q = seen_point(a, p);
	if (q >= 0 && (size_t)q < g->p0) {
		/* an earlier walk passed here: go on as it did */
		int32_t t = segment_at(a, (size_t)q);
		g = &a->segs.v[a->cur];
		g->next = t;
		g->lo = p->end;
		a->ended = true;
		return false;
	}
	if (p->start < a->low)
		a->low = p->start;
	*gp_vec_push(a->pieces) = (struct piece_rec){p->start, p->end, name, p->cause};
	return true;
}

/* Walks from w back to the first collective kernel, a point an earlier
** walk passed, or first; returns its first segment. */
static int32_t walk_leg(struct leg_acc *a, struct gp_walk_at w, gp_ns first)
{
	int32_t s = (int32_t)a->segs.n;

	*gp_vec_push(a->segs) = (struct seg_b){.p0 = a->pieces.n, .next = -1, .to = -1, .lo = first, .hi = w.at};
	*gp_vec_push(a->by_p0) = s;   /* pieces only grow: it starts after every other */
	a->cur = s;
	a->ended = false;
	a->low = w.at;
	gp_walk(a->d, w, first, take_leg_piece, a);
	if (!a->ended && a->low > first) {
		/* what the walk could not reach back to: nothing recorded says */
		*gp_vec_push(a->pieces) = (struct piece_rec){first, a->low, 0, GP_CAUSE_UNKNOWN};
	}
	a->segs.v[s].p1 = a->pieces.n;
	return s;
}

/* The segments' rows: their pieces summed by op and cause. */
static void settle_segments(struct leg_acc *a, struct gp_rank_path *p)
{
	GP_VEC(struct gp_path_row) rows = {0};
	gp_u64map row_of = {0};

	p->nsegs = a->segs.n;
	p->segs = gp_xmalloc((p->nsegs + 1) * sizeof(*p->segs));
	for (size_t i = 0; i < a->segs.n; i++) {
		const struct seg_b *b = &a->segs.v[i];
		struct gp_path_seg *g = &p->segs[i];
		*g = (struct gp_path_seg){.next = b->next, .to = b->to, .lo = b->lo, .hi = b->hi, .to_op = b->to_op,
					  .row0 = (uint32_t)rows.n};
		for (size_t k = b->p0; k < b->p1; k++) {
			const struct piece_rec *x = &a->pieces.v[k];
			uint64_t key = (uint64_t)x->op << 8 | x->cause;
			int32_t r = gp_u64map_get(&row_of, key);
			if (r < 0 || (uint32_t)r < g->row0) {   /* a row of an earlier segment */
				r = (int32_t)rows.n;
				gp_u64map_put(&row_of, key, r);
				*gp_vec_push(rows) = (struct gp_path_row){.cause = x->cause, .op = x->op};
				g->nrows++;
			}
			rows.v[r].ns += x->end - x->start;
		}
	}
	p->rows = rows.v;
	p->nrows = rows.n;
	gp_u64map_free(&row_of);
}

void gp_rank_path_build(gp_deps *d, const gp_trace *t, const struct gp_coll_rank *coll, struct gp_rank_path *p)
{
	struct leg_acc a = {.d = d, .namer = {.d = d, .t = t}};
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
		a.unit_at = gp_xmalloc((d->n + 1) * sizeof(*a.unit_at));
		for (size_t u = 0; u < d->n; u++)
			a.unit_at[u] = -1;
		p->have = true;
		p->first = sc.first;
		p->end = sc.end;
		p->nlegs = coll->n + 1;
		p->legs = gp_xmalloc(p->nlegs * sizeof(*p->legs));
		name_index(&a, 0);   /* names[0] = "" */
		p->legs[0] = walk_leg(&a, sc.from, sc.first);
		for (size_t c = 0; c < coll->n; c++) {
			struct gp_walk_at w = {.on_gpu = true, .unit = unit_of[c],
					       .at = gp_unit_start(t, (size_t)unit_of[c])};
			if (w.at < sc.first)
				w.at = sc.first;   /* before the walked process's first activity */
			p->legs[c + 1] = walk_leg(&a, w, sc.first);
		}
		settle_segments(&a, p);
		p->names = a.names.v;
		p->nnames = a.names.n;
		free(a.unit_at);
	}
	free(coll_of);
	free(unit_of);
	gp_vec_free(a.pieces);
	gp_vec_free(a.segs);
	gp_vec_free(a.by_p0);
	gp_vec_free(a.points);
	gp_u64map_free(&a.point_at);
	gp_u64map_free(&a.name_of);
	gp_piece_namer_free(&a.namer);
}

void gp_rank_path_free(struct gp_rank_path *p)
{
	for (size_t i = 0; i < p->nnames; i++)
		free(p->names[i]);
	free(p->names);
	free(p->legs);
	free(p->segs);
	free(p->rows);
	memset(p, 0, sizeof(*p));
}

/* ---- the legs as kept rows ------------------------------------------ */

void gp_rank_path_put(const struct gp_rank_path *p, gp_writer *w)
{
	char v[4][24];
	const char *row[GP_COLL_RECORD_NCOLS] = {"path", v[0], v[1], v[2], v[3]};

	if (!p->have)
		return;
	gp_fmt_i64(v[0], p->first);
	gp_fmt_i64(v[1], p->end);
	gp_fmt_u64(v[2], p->nlegs);
	gp_fmt_u64(v[3], p->nsegs);
	gp_writer_row(w, row);
	for (size_t l = 0; l < p->nlegs; l++) {
		const char *lrow[GP_COLL_RECORD_NCOLS] = {"leg", v[0]};
		gp_fmt_i64(v[0], p->legs[l]);
		gp_writer_row(w, lrow);
	}
	for (size_t s = 0; s < p->nsegs; s++) {
		const struct gp_path_seg *g = &p->segs[s];
		const char *srow[GP_COLL_RECORD_NCOLS] = {"seg", v[0], v[1], v[2], v[3], p->names[g->to_op]};
		gp_fmt_i64(v[0], g->next);
		gp_fmt_i64(v[1], g->to);
		gp_fmt_i64(v[2], g->lo);
		gp_fmt_i64(v[3], g->hi);
		gp_writer_row(w, srow);
		for (size_t r = g->row0; r < g->row0 + g->nrows; r++) {
			const char *crow[GP_COLL_RECORD_NCOLS] = {"cp", v[0], v[1], p->names[p->rows[r].op]};
			gp_fmt_u64(v[0], p->rows[r].cause);
			gp_fmt_i64(v[1], p->rows[r].ns);
			gp_writer_row(w, crow);
		}
	}
}

/* Grows v (of n elements of size sz) so one more fits: doubles at each
** power of two, so that reading needs no capacity field. */
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
	int64_t a, b, e, f;

	if (!c[0])
		return 0;
	if (strcmp(c[0], "path") == 0) {
		if (p->have || !gp_rowbuf_cell_i64(c[1], INT64_MIN, INT64_MAX, &a) ||
		    !gp_rowbuf_cell_i64(c[2], a, INT64_MAX, &b) || !gp_rowbuf_cell_i64(c[3], 1, INT32_MAX, &e) ||
		    !gp_rowbuf_cell_i64(c[4], 1, INT32_MAX, &f))
			return -1;
		p->have = true;
		p->first = a;
		p->end = b;
		p->want_legs = (size_t)e;
		p->want_segs = (size_t)f;
		return 1;
	}
	if (strcmp(c[0], "leg") == 0) {
		if (!p->have || p->nlegs == p->want_legs || p->nsegs ||
		    !gp_rowbuf_cell_i64(c[1], 0, (int64_t)p->want_segs - 1, &a))
			return -1;
		p->legs = grow(p->legs, p->nlegs, sizeof(*p->legs));
		p->legs[p->nlegs++] = (int32_t)a;
		return 1;
	}
	if (strcmp(c[0], "seg") == 0) {
		if (!p->have || p->nlegs != p->want_legs || p->nsegs == p->want_segs ||
		    !gp_rowbuf_cell_i64(c[1], -1, (int64_t)p->want_segs - 1, &a) ||
		    !gp_rowbuf_cell_i64(c[2], -1, INT32_MAX, &b) ||
		    !gp_rowbuf_cell_i64(c[3], INT64_MIN, INT64_MAX, &e) ||
		    !gp_rowbuf_cell_i64(c[4], e, INT64_MAX, &f))
			return -1;
		p->segs = grow(p->segs, p->nsegs, sizeof(*p->segs));
		p->segs[p->nsegs++] = (struct gp_path_seg){.next = (int32_t)a, .to = (int32_t)b, .lo = e, .hi = f,
							   .to_op = add_name(p, c[5]), .row0 = (uint32_t)p->nrows};
		return 1;
	}
	if (strcmp(c[0], "cp") == 0) {
		struct gp_path_seg *g = p->nsegs ? &p->segs[p->nsegs - 1] : NULL;
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
	if (p->nlegs != p->want_legs || p->nsegs != p->want_segs || p->nlegs != ncoll + 1)
		return false;
	for (size_t s = 0; s < p->nsegs; s++)
		if (p->segs[s].to >= (int32_t)ncoll)
			return false;
	return true;
}

/* ---- the job's path ------------------------------------------------- */

struct job_acc {
	const struct gp_rank_job *j;
	struct gp_job_path *p;
	GP_VEC(struct gp_job_row) rows;
	GP_VEC(struct gp_path_visit) visits;
};

/* The path comes to rank r at its end (coll -1) or at the start of its
** collective coll; where it leaves is set when it does (stop). */
static void visit(struct job_acc *a, size_t r, int32_t coll)
{
	*gp_vec_push(a->visits) = (struct gp_path_visit){.rank = r, .leg = {.coll = coll}};
}

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
	const struct gp_path_seg *seg;

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
		guard += 2 * (j->rec[r].path.nlegs + j->rec[r].path.nsegs);
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
	seg = &j->rec[cur].path.segs[j->rec[cur].path.legs[0]];
	visit(&a, cur, -1);
	while (guard--) {
		const struct gp_rank_path *rp = &j->rec[cur].path;
		const struct gp_coll *c;
		const struct gp_path_seg *next;
		gp_ns off = j->n > 1 ? m->ranks[cur].offset : 0, at;
		int32_t ci;

		for (size_t r = seg->row0; r < seg->row0 + seg->nrows; r++)
			hold(&a, cur, rp->rows[r].cause, rp->names[rp->rows[r].op], rp->rows[r].ns);
		if (seg->next >= 0) {
			seg = &rp->segs[seg->next];
			continue;
		}
		if (seg->to < 0) {
			p->start = seg->lo + off;
			a.visits.v[a.visits.n - 1].leg.stop = seg->lo;
			break;
		}
		/* at a collective kernel, reached at seg->lo; its own leg goes on
		** from its start (the rank's first activity, if earlier) */
		c = &j->rec[cur].coll.v[seg->to];
		at = seg->lo;
		ci = of[cur][seg->to];
		next = &rp->segs[rp->legs[seg->to + 1]];
		if (ci >= 0 && m->calls[ci].present == j->n && m->calls[ci].last_rank >= 0 &&
		    (size_t)m->calls[ci].last_rank != cur) {
			size_t l = (size_t)m->calls[ci].last_rank;
			int32_t kl = m->slots[(size_t)ci * m->nranks + l];
			const struct gp_path_seg *there = &j->rec[l].path.segs[j->rec[l].path.legs[kl + 1]];
			gp_ns sl = there->hi + m->ranks[l].offset;
			if (sl > c->start + off && sl < at + off) {
				/* waited for rank l: the call's communication from its
				** arrival on, then l's way there */
				hold(&a, cur, GP_CAUSE_GPU_COMM, rp->names[seg->to_op], at + off - sl);
				a.visits.v[a.visits.n - 1].leg.stop = sl - off;
				visit(&a, l, kl);
				cur = l;
				p->ranks[l].entered++;
				p->jumps++;
				seg = there;
				continue;
			}
		}
		hold(&a, cur, GP_CAUSE_GPU_COMM, rp->names[seg->to_op], at - next->hi);
		seg = next;
	}
	if (guard == (size_t)-1) {   /* cannot happen: every segment moves back in time */
		p->start = seg->hi + (j->n > 1 ? m->ranks[cur].offset : 0);
		a.visits.v[a.visits.n - 1].leg.stop = seg->hi;
	}
	p->start_rank = cur;
	for (size_t r = 0; r < j->n; r++)
		free(of[r]);
	free(of);
	settle_rows(&a);
	p->visits = a.visits.v;
	p->nvisits = a.visits.n;
}

bool gp_job_path_meets_collective(const struct gp_job_path *p, size_t nranks)
{
	for (size_t r = 0; p->known && r < nranks; r++)
		if (p->ranks[r].by_cause[GP_CAUSE_GPU_COMM] > 0)
			return true;
	return false;
}

size_t gp_job_path_most(const struct gp_job_path *p, size_t nranks, size_t prefer)
{
	size_t most = prefer;

	for (size_t r = 0; r < nranks; r++)
		if (p->ranks[r].held > p->ranks[most].held)
			most = r;
	return most;
}

void gp_job_path_free(struct gp_job_path *p)
{
	free(p->ranks);
	free(p->rows);
	free(p->visits);
	memset(p, 0, sizeof(*p));
}
