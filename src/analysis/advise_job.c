/*
** advise over the ranks of a job: each rank's findings travel with its
** record as kept rows (gp_findings_put, gp_findings_row), with where each
** change puts the rank's collective kernels (the moves, advise.h); the
** reduce then judges them in the job (gp_advise_job_ranks) on the job's
** replay across ranks (docs/dependencies.md, "A rank's change in its
** job"), merged by kind ("ranks 0-5: ...") and ranked greedily.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/advise_int.h"
#include "analysis/ranks.h"
#include "util/fmt.h"

/* ---- the findings as kept rows ---- */

/* "finding" rows: kind, notice, ns, alone, total, count, cumulative,
** one-time, idle, title, evidence, change; then, with moves, one "moves"
** row (ncoll, variants) and "move" rows (variant, k, start, end: k =
** ncoll for the GPU work's first start and last end), every variant 0's,
** of the others those that differ from it. */
void gp_findings_put(const struct gp_findings *f, gp_writer *w)
{
	char v[10][32];

	for (size_t i = 0; i < f->v.n; i++) {
		const struct gp_finding *x = &f->v.v[i];
		const char *row[GP_RANK_RECORD_NCOLS] = {"finding", x->kind, v[0], v[1], v[2], v[3], v[4], v[5],
							 v[6], v[7], x->title, x->evidence, x->change};
		snprintf(v[0], 32, "%d", x->first);
		snprintf(v[1], 32, "%.17g", x->ns);
		snprintf(v[2], 32, "%.17g", x->alone_ns);
		snprintf(v[3], 32, "%.17g", x->total_ns);
		snprintf(v[4], 32, "%zu", x->count);
		snprintf(v[5], 32, "%.17g", x->cum_ns);
		snprintf(v[6], 32, "%d", x->one_time);
		snprintf(v[7], 32, "%d", x->idle);
		gp_writer_row(w, row);
	}
	if (!f->moves)
		return;
	size_t nv = 1 + 2 * f->v.n, stride = GP_MOVES_STRIDE(f->ncoll);
	const char *head[GP_RANK_RECORD_NCOLS] = {"moves", v[0], v[1]};
	snprintf(v[0], 32, "%zu", f->ncoll);
	snprintf(v[1], 32, "%zu", nv);
	gp_writer_row(w, head);
	for (size_t k = 0; k < nv; k++)
		for (size_t c = 0; c <= f->ncoll; c++) {
			const gp_ns *p = f->moves + k * stride + 2 * c, *b = f->moves + 2 * c;
			const char *row[GP_RANK_RECORD_NCOLS] = {"move", v[0], v[1], v[2], v[3]};
			if (k && p[0] == b[0] && p[1] == b[1])
				continue;
			snprintf(v[0], 32, "%zu", k);
			snprintf(v[1], 32, "%zu", c);
			snprintf(v[2], 32, "%" PRId64, p[0]);
			snprintf(v[3], 32, "%" PRId64, p[1]);
			gp_writer_row(w, row);
		}
}

/* A cell read as a double, false when it is none. */
static bool cell_num(const char *c, double *v)
{
	return c && gp_rowbuf_cell_double(c, v);
}

int gp_findings_row(struct gp_findings *f, const char *const *c)
{
	double d[8];
	int64_t a, b, s, e;

	if (!c[0])
		return 0;
	if (strcmp(c[0], "finding") == 0) {
		const char *kind = c[1] ? gp_advise_kind(c[1]) : NULL;
		for (int i = 0; i < 8; i++)
			if (!cell_num(c[2 + i], &d[i]))
				return -1;
		if (!kind || f->moves || !c[10] || !c[11] || !c[12])
			return -1;
		struct gp_finding *x = gp_vec_push(f->v);
		memset(x, 0, sizeof(*x));
		x->kind = kind;
		x->first = d[0] != 0;
		x->ns = d[1];
		x->alone_ns = d[2];
		x->total_ns = d[3];
		x->count = (size_t)d[4];
		x->cum_ns = d[5];
		x->one_time = d[6] != 0;
		x->idle = d[7] != 0;
		x->overlap_ns = x->alone_ns > x->ns ? x->alone_ns - x->ns : 0;
		snprintf(x->title, sizeof(x->title), "%s", c[10]);
		snprintf(x->evidence, sizeof(x->evidence), "%s", c[11]);
		snprintf(x->change, sizeof(x->change), "%s", c[12]);
		return 1;
	}
	if (strcmp(c[0], "moves") == 0) {
		if (f->moves || !gp_rowbuf_cell_i64(c[1], 0, INT32_MAX, &a) || !gp_rowbuf_cell_i64(c[2], 1, INT32_MAX, &b) ||
		    (size_t)b != 1 + 2 * f->v.n)
			return -1;
		size_t n = (size_t)b * GP_MOVES_STRIDE((size_t)a);
		f->ncoll = (size_t)a;
		f->moves = gp_xmalloc(n * sizeof(*f->moves));
		for (size_t i = 0; i < n; i++)
			f->moves[i] = INT64_MIN;
		return 1;
	}
	if (strcmp(c[0], "move") == 0) {
		if (!f->moves || !gp_rowbuf_cell_i64(c[1], 0, (int64_t)(2 * f->v.n), &a) ||
		    !gp_rowbuf_cell_i64(c[2], 0, (int64_t)f->ncoll, &b) ||
		    !gp_rowbuf_cell_i64(c[3], INT64_MIN + 1, INT64_MAX, &s) ||
		    !gp_rowbuf_cell_i64(c[4], INT64_MIN + 1, INT64_MAX, &e))
			return -1;
		gp_ns *p = f->moves + (size_t)a * GP_MOVES_STRIDE(f->ncoll) + 2 * (size_t)b;
		p[0] = s;
		p[1] = e;
		return 1;
	}
	return 0;
}

bool gp_findings_rows_done(struct gp_findings *f)
{
	size_t stride = GP_MOVES_STRIDE(f->ncoll);

	if (!f->moves)
		return true;
	for (size_t i = 0; i < stride; i++)
		if (f->moves[i] == INT64_MIN)
			return false;   /* variant 0 is whole */
	for (size_t k = 1; k < 1 + 2 * f->v.n; k++)
		for (size_t i = 0; i < stride; i++)
			if (f->moves[k * stride + i] == INT64_MIN)
				f->moves[k * stride + i] = f->moves[i];
	return true;
}

/* ---- the job's replay across ranks ---- */

/* The job's collectives matched on every rank, each rank's times at them
** (aligned on the first rank's clock) and what a set of changes removes
** from each rank's stretches between them. */
struct jr {
	const struct gp_rank_job *j;
	const struct gp_findings *rf;   /* [n]: the ranks' findings */
	size_t n, nc;                   /* ranks, collectives */
	size_t nd;                      /* per rank: nc + 1 stretches, nc kernels */
	int straggler;                  /* index, -1 = none */
	gp_ns *s, *e;                   /* [n x nc]: kernel start and end, aligned */
	gp_ns *first, *end;             /* [n]: the GPU work's first start and last end */
	gp_ns *last;                    /* [nc]: the last arrival */
	gp_ns before;                   /* the job's end as recorded */
	double *d;                      /* [n x nd]: the changes' removals (scratch) */
	double *tmp;                    /* [nd] */
	gp_ns *a, *ee;                  /* [n]: scratch of the replay */
};

/* Rank r's slot (its collective's index) of complete call c. */
static int32_t slot_of(const struct jr *x, size_t r, size_t c)
{
	const struct gp_coll_match *m = &x->j->coll;
	return m->slots[m->calls[c].first + r];
}

/* Sets x up over job j and findings rf; false when the job has no replay
** across ranks (then x holds nothing to free). */
static bool jr_init(struct jr *x, const struct gp_rank_job *j, const struct gp_findings *rf)
{
	const struct gp_coll_match *m = &j->coll;

	memset(x, 0, sizeof(*x));
	if (j->n < 2 || !m->ncomplete)
		return false;
	for (size_t r = 0; r < j->n; r++)
		if (!m->ranks[r].aligned || !rf[r].moves || rf[r].ncoll != j->rec[r].coll.n)
			return false;
	x->j = j;
	x->rf = rf;
	x->n = j->n;
	x->nc = m->ncomplete;
	x->nd = 2 * x->nc + 1;
	x->straggler = j->straggler;
	x->s = gp_xmalloc(x->n * x->nc * sizeof(*x->s));
	x->e = gp_xmalloc(x->n * x->nc * sizeof(*x->e));
	x->first = gp_xmalloc(x->n * sizeof(*x->first));
	x->end = gp_xmalloc(x->n * sizeof(*x->end));
	x->last = gp_xmalloc(x->nc * sizeof(*x->last));
	x->d = gp_xcalloc(x->n * x->nd, sizeof(*x->d));
	x->tmp = gp_xmalloc(x->nd * sizeof(*x->tmp));
	x->a = gp_xmalloc(x->n * sizeof(*x->a));
	x->ee = gp_xmalloc(x->n * sizeof(*x->ee));
	x->before = INT64_MIN;
	for (size_t r = 0; r < x->n; r++) {
		const gp_ns *b = gp_findings_moves(&rf[r], 0), off = m->ranks[r].offset;
		size_t nc = rf[r].ncoll;
		x->first[r] = b[2 * nc] + off;
		x->end[r] = b[2 * nc + 1] + off;
		x->before = x->end[r] > x->before ? x->end[r] : x->before;
		for (size_t c = 0; c < x->nc; c++) {
			int32_t k = slot_of(x, r, c);
			x->s[r * x->nc + c] = b[2 * k] + off;
			x->e[r * x->nc + c] = b[2 * k + 1] + off;
		}
	}
	for (size_t c = 0; c < x->nc; c++) {
		x->last[c] = INT64_MIN;
		for (size_t r = 0; r < x->n; r++)
			if (x->s[r * x->nc + c] > x->last[c])
				x->last[c] = x->s[r * x->nc + c];
	}
	return true;
}

static void jr_free(struct jr *x)
{
	free(x->s);
	free(x->e);
	free(x->first);
	free(x->end);
	free(x->last);
	free(x->d);
	free(x->tmp);
	free(x->a);
	free(x->ee);
}

/* The least of v and room, never below 0; room shrinks by what it gives. */
static double take(double v, double *room)
{
	double t = v < *room ? v : *room;

	t = t > 0 ? t : 0;
	*room -= t;
	return t;
}

/* What variant v of rank r's moves removes, into out[0..nd): from each
** stretch before a collective (its own work since the one before's end,
** or since its first GPU work: out[2c]), from each collective's kernel
** (out[2c + 1]), and from its work after the last (out[2 nc]).  The
** variant is re-anchored on the rank's first GPU work: a replay that moves
** everything earlier saves nothing.  A stretch that grows removes nothing
** (it grew because the kernel before it ended earlier in the rank's own
** replay while the work after did not wait for it), and what the stretches
** and kernels up to a point remove together is never more than the
** rank's own replay moves that point: its arrivals never come earlier
** than its own replay has them, less what the job's collectives
** themselves move. */
static void removal(const struct jr *x, size_t r, size_t v, double *out)
{
	const struct gp_findings *f = &x->rf[r];
	const gp_ns *b = gp_findings_moves(f, 0), *p = gp_findings_moves(f, v);
	size_t nc = f->ncoll;
	gp_ns shift = p[2 * nc] - b[2 * nc], pe = 0, be = 0;
	double got = 0, room;

	for (size_t c = 0; c < x->nc; c++) {
		int32_t k = slot_of(x, r, c);
		gp_ns ps = p[2 * k] - shift, bs = b[2 * k];
		room = (double)(bs - ps) - got;
		gp_ns len = c ? bs - be : bs - b[2 * nc];
		double cut = c ? (double)((bs - be) - (ps - pe)) : (double)(bs - ps);
		/* never more than the stretch: the rank's next collective comes
		** after the one before (the collectives' stream) */
		out[2 * c] = take(cut < (double)len ? cut : (double)len, &room);
		got += out[2 * c];
		pe = p[2 * k + 1] - shift;
		be = b[2 * k + 1];
		room = (double)(be - pe) - got;
		out[2 * c + 1] = take((double)((be - bs) - (pe - ps)), &room);
		got += out[2 * c + 1];
	}
	room = (double)(b[2 * nc + 1] - (p[2 * nc + 1] - shift)) - got;
	double cut = (double)((b[2 * nc + 1] - be) - (p[2 * nc + 1] - shift - pe));
	out[2 * x->nc] = take(cut < (double)(b[2 * nc + 1] - be) ? cut : (double)(b[2 * nc + 1] - be), &room);
}

/* The job's end on the replay across ranks with x->d's removals, and the
** straggler arriving with the next-to-last rank when on_time: each rank
** arrives at a collective after its stretch from the collective before's
** end (less what its changes remove); the collective's last arrival is
** when each rank's kernel runs on as it did after the recorded last one
** (less what its change removes of that); each rank ends its work after
** the last (less its removal). */
static gp_ns jr_end(struct jr *x, bool on_time)
{
	gp_ns job = INT64_MIN;

	for (size_t c = 0; c < x->nc; c++) {
		gp_ns last = INT64_MIN, others = INT64_MIN;
		for (size_t r = 0; r < x->n; r++) {
			size_t i = r * x->nc + c;
			gp_ns from = c ? x->ee[r] : x->first[r], ran = c ? x->s[i] - x->e[i - 1] : x->s[i] - x->first[r];
			x->a[r] = from + ran - (gp_ns)x->d[r * x->nd + 2 * c];
			if ((int)r != x->straggler && x->a[r] > others)
				others = x->a[r];
		}
		if (on_time && x->straggler >= 0 && x->a[x->straggler] > others)
			x->a[x->straggler] = others;
		for (size_t r = 0; r < x->n; r++)
			last = x->a[r] > last ? x->a[r] : last;
		for (size_t r = 0; r < x->n; r++) {
			size_t i = r * x->nc + c;
			gp_ns after = x->e[i] - x->last[c];
			double cut = x->d[r * x->nd + 2 * c + 1];
			cut = cut < 0 ? 0 : cut > (double)after ? (double)(after > 0 ? after : 0) : cut;
			x->ee[r] = last + after - (gp_ns)cut;
		}
	}
	for (size_t r = 0; r < x->n; r++) {
		gp_ns e = x->ee[r] + (x->end[r] - x->e[r * x->nc + x->nc - 1]) - (gp_ns)x->d[r * x->nd + 2 * x->nc];
		job = e > job ? e : job;
	}
	return job;
}

/* ---- the findings merged by kind and ranked in the job ---- */

/* The ranks in list[0..n) (indexes into j's records) as "ranks 0-5, 7"
** (their own rank numbers) into out. */
static void rank_list(const struct gp_rank_job *j, const size_t *list, size_t n, char *out, size_t size)
{
	size_t len = (size_t)snprintf(out, size, n > 1 ? "ranks " : "rank ");

	for (size_t i = 0; i < n && len < size;) {
		int a = j->rec[list[i]].coll.rank, b = a;
		size_t k = i + 1;
		while (k < n && j->rec[list[k]].coll.rank == b + 1)
			b = j->rec[list[k++]].coll.rank;
		int w = b > a ? snprintf(out + len, size - len, "%s%d-%d", i ? ", " : "", a, b)
			      : snprintf(out + len, size - len, "%s%d", i ? ", " : "", a);
		len = w < 0 ? size : len + (size_t)w;
		i = k;
	}
}

/* One finding of the job: a kind and, per rank, its finding of that kind
** (-1: none), or the straggler. */
struct cand {
	struct gp_finding f;    /* merged */
	long *of;               /* [n]: index into rf[r].v, -1 = none */
	bool straggler;
	bool taken;
};

/* Whether rank r's finding i is in the set: a taken candidate's, or c's. */
static bool in_set(const struct cand *cs, size_t nc, const struct cand *c, size_t r, long i)
{
	for (size_t k = 0; k < nc; k++)
		if ((cs[k].taken || &cs[k] == c) && cs[k].of && cs[k].of[r] == i)
			return true;
	return false;
}

/* The job's saving with the candidates taken (plus c when not NULL):
** each rank's removals are those of its taken findings (replayed from its
** own moves, gp_advise_job_ranks's contract), the straggler on time when
** its candidate is taken. */
static double jr_saving(struct jr *x, const struct cand *cs, size_t nc, const struct cand *c)
{
	bool on_time = c && c->straggler;

	for (size_t k = 0; k < nc; k++)
		on_time |= cs[k].taken && cs[k].straggler;
	for (size_t r = 0; r < x->n; r++) {
		const struct gp_findings *f = &x->rf[r];
		double *d = x->d + r * x->nd;
		long top = -1;
		size_t nset = 0;
		memset(d, 0, x->nd * sizeof(*d));
		/* the rank's findings in the set: their alone removals summed */
		for (size_t i = 0; i < f->v.n; i++) {
			if (f->v.v[i].first || !in_set(cs, nc, c, r, (long)i))
				continue;
			removal(x, r, 1 + 2 * i, x->tmp);
			for (size_t q = 0; q < x->nd; q++)
				d[q] += x->tmp[q];
			top = (long)i;
			nset++;
		}
		if (nset < 2)
			continue;
		/* several: the rank's replay of its changes up to the last one
		** taken, exact when the set is that prefix, else no more than
		** the alone removals summed */
		bool whole = true;
		for (long i = 0; i < top && whole; i++)
			whole = f->v.v[i].first || in_set(cs, nc, c, r, i);
		removal(x, r, 2 + 2 * (size_t)top, x->tmp);
		for (size_t q = 0; q < x->nd; q++)
			d[q] = whole || x->tmp[q] < d[q] ? x->tmp[q] : d[q];
	}
	return (double)(x->before - jr_end(x, on_time));
}

/* The job's saving of rank r's finding i alone. */
static double jr_one(struct jr *x, size_t r, size_t i)
{
	memset(x->d, 0, x->n * x->nd * sizeof(*x->d));
	removal(x, r, 1 + 2 * i, x->d + r * x->nd);
	return (double)(x->before - jr_end(x, false));
}

/* The merged candidates of the ranks' findings, one per kind, into cs
** (*n of them; notices among them), its title, involved time and count,
** its evidence the rank rep gives. */
static struct cand *merge_kinds(const struct gp_rank_job *j, const struct gp_findings *rf, size_t *n)
{
	GP_VEC(struct cand) cs = {0};

	for (size_t r = 0; r < j->n; r++)
		for (size_t i = 0; i < rf[r].v.n; i++) {
			const struct gp_finding *y = &rf[r].v.v[i];
			size_t k = 0;
			while (k < cs.n && (cs.v[k].straggler || strcmp(cs.v[k].f.kind, y->kind) != 0))
				k++;
			if (k == cs.n) {
				struct cand *c = gp_vec_push(cs);
				memset(c, 0, sizeof(*c));
				c->f = *y;
				c->f.ns = c->f.alone_ns = c->f.cum_ns = c->f.total_ns = c->f.overlap_ns = 0;
				c->f.count = 0;
				c->f.overlaps[0] = '\0';
				c->of = gp_xmalloc(j->n * sizeof(*c->of));
				for (size_t q = 0; q < j->n; q++)
					c->of[q] = -1;
			}
			if (cs.v[k].of[r] >= 0)
				continue;   /* a kind once per rank */
			cs.v[k].of[r] = (long)i;
			cs.v[k].f.total_ns += y->total_ns;
			cs.v[k].f.count += y->count;
			cs.v[k].f.one_time &= y->one_time;
		}
	*n = cs.n;
	return cs.v;
}

/* Sets c's title and evidence from rank rep's finding, its ranks listed;
** alone (NULL: unknown) is what each rank's change alone saves the job. */
static void name_cand(const struct gp_rank_job *j, const struct gp_findings *rf, struct cand *c, size_t rep,
		      const double *alone, size_t *list)
{
	size_t nl = 0, nz = 0, len = 0;
	char who[96], each[320] = "", pre[420] = "", d[32];

	for (size_t r = 0; r < j->n; r++)
		if (c->of[r] >= 0)
			list[nl++] = r;
	const struct gp_finding *y = &rf[rep].v.v[c->of[rep]];
	rank_list(j, list, nl, who, sizeof(who));
	snprintf(c->f.title, sizeof(c->f.title), "%.40s: %.117s", who, y->title);
	/* the ranks whose change moves the job, then those it does not (under 1 us) */
	for (size_t i = 0; alone && i < nl && len < sizeof(each); i++) {
		if (alone[list[i]] < 1e3) {
			list[nz++] = list[i];
			continue;
		}
		int w = snprintf(each + len, sizeof(each) - len, "%srank %d %s", len ? ", " : "",
				 j->rec[list[i]].coll.rank, gp_fmt_duration(alone[list[i]], d, sizeof(d)));
		len = w < 0 ? sizeof(each) : len + (size_t)w;
	}
	if (nz && len < sizeof(each)) {
		rank_list(j, list, nz, who, sizeof(who));
		snprintf(each + len, sizeof(each) - len, "%s%s nothing", len ? ", " : "", who);
	}
	if (alone)
		snprintf(pre, sizeof(pre), JOB_RANK_ALONE, each);
	snprintf(c->f.evidence, sizeof(c->f.evidence), JOB_RANK_EVIDENCE, pre, j->rec[rep].coll.rank, y->evidence);
	snprintf(c->f.change, sizeof(c->f.change), "%s", y->change);
}

void gp_advise_job_ranks(const struct gp_rank_job *j, struct gp_findings *out)
{
	size_t nc, *list = gp_xmalloc((j->n ? j->n : 1) * sizeof(*list));
	struct gp_findings *rf = gp_xmalloc((j->n ? j->n : 1) * sizeof(*rf));
	double *alone = gp_xcalloc(j->n ? j->n : 1, sizeof(*alone));

	for (size_t r = 0; r < j->n; r++)
		rf[r] = j->rec[r].advice;   /* borrowed */
	struct cand *cs = merge_kinds(j, rf, &nc);
	struct jr x;
	bool job = jr_init(&x, j, rf);
	double cum = 0;

	/* the straggler's finding (gp_advise_job's) is one more change */
	long st = -1;
	for (size_t i = 0; i < out->v.n; i++)
		if (strcmp(out->v.v[i].kind, "straggler") == 0)
			st = (long)i;
	if (st >= 0) {
		cs = gp_xrealloc(cs, (nc + 1) * sizeof(*cs));
		memset(&cs[nc], 0, sizeof(cs[nc]));
		cs[nc].f = out->v.v[st];
		cs[nc++].straggler = true;
		memmove(&out->v.v[st], &out->v.v[st + 1], (out->v.n - (size_t)st - 1) * sizeof(*out->v.v));
		out->v.n--;   /* the job's notices (gp_advise_job's) stay first */
	}
	/* each candidate alone; its evidence the rank whose change saves the
	** job most (on its own replay when the job has none) */
	for (size_t k = 0; k < nc; k++) {
		struct cand *c = &cs[k];
		if (c->straggler) {
			/* without the job's replay: the what-if's (gp_advise_job) */
			if (job)
				c->f.alone_ns = jr_saving(&x, cs, nc, c);
			continue;
		}
		size_t rep = 0;
		double most = -1e300;
		for (size_t r = 0; r < j->n; r++) {
			if (c->of[r] < 0)
				continue;
			const struct gp_finding *y = &rf[r].v.v[c->of[r]];
			double v = job && !y->first ? jr_one(&x, r, (size_t)c->of[r]) : y->alone_ns;
			alone[r] = v;
			if (v > most)
				most = v, rep = r;
			if (!job)
				c->f.alone_ns += y->first ? 0 : y->alone_ns, c->f.ns += y->first ? 0 : y->ns;
		}
		name_cand(j, rf, c, rep, job && !c->f.first ? alone : NULL, list);
		if (job && !c->f.first)
			c->f.alone_ns = jr_saving(&x, cs, nc, c);
	}
	/* notices first, then greedily, one-time costs before the others: the
	** one whose change added to those above saves the job most (without
	** the job's replay: by the ranks' own savings summed) */
	for (size_t k = 0; k < nc; k++)
		if (cs[k].f.first) {
			cs[k].taken = true;
			*gp_vec_push(out->v) = cs[k].f;
		}
	for (;;) {
		long best = -1;
		double bv = 0;
		/* one-time costs first, as in one trace's ranking (advise.c) */
		bool one_time_left = false;
		for (size_t k = 0; k < nc; k++)
			one_time_left |= !cs[k].taken && cs[k].f.one_time;
		for (size_t k = 0; k < nc; k++) {
			if (cs[k].taken || (one_time_left && !cs[k].f.one_time))
				continue;
			double v = job ? jr_saving(&x, cs, nc, &cs[k]) : cum + cs[k].f.ns;
			const struct gp_finding *b = best >= 0 ? &cs[best].f : NULL;
			if (best < 0 || v > bv ||
			    (v == bv && (cs[k].f.alone_ns > b->alone_ns ||
					 (cs[k].f.alone_ns == b->alone_ns && cs[k].f.total_ns > b->total_ns))))
				best = (long)k, bv = v;
		}
		if (best < 0)
			break;
		struct gp_finding *f = &cs[best].f;
		cs[best].taken = true;
		f->ns = bv - cum;
		f->cum_ns = cum = bv;
		f->overlap_ns = f->alone_ns > f->ns ? f->alone_ns - f->ns : 0;
		*gp_vec_push(out->v) = *f;
	}
	out->all_ns = cum;
	for (size_t k = 0; k < nc; k++)
		free(cs[k].of);
	free(cs);
	free(list);
	free(rf);
	free(alone);
	if (job)
		jr_free(&x);
}
