/*
** Ranks of trace files: metadata, file name, position; see ranks.h.
*/
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/ranks.h"
#include "util/alloc.h"
#include "util/stats.h"

/* A decimal number >= 0 that fits int32, or -1. */
static int32_t number(const char *s)
{
	long long v = 0;

	if (!s || !*s)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s) || (v = v * 10 + (*s - '0')) > INT32_MAX)
			return -1;
	}
	return (int32_t)v;
}

/* "rank 3", "rank=3", "rank:3", "RANK_3" (the whole text), or -1. */
static int32_t rank_marker(const char *s)
{
	if (strncasecmp(s, "rank", 4) != 0)
		return -1;
	s += 4;
	if (*s == ' ' || *s == '=' || *s == ':' || *s == '_' || *s == '-')
		s++;
	return number(s);
}

struct gp_rank_id gp_rank_from_meta(const gp_trace *t)
{
	struct gp_rank_id id = {.rank = number(gp_trace_meta_get(t, "rank")),
				.world = number(gp_trace_meta_get(t, "world_size")),
				.source = GP_RANK_FROM_ORDER};

	/* nsys exports keep no environment: an NVTX mark or range naming
	** the rank is how a program says it there */
	for (size_t i = 0; i < t->ranges.n && id.rank < 0; i++) {
		uint8_t k = t->ranges.v[i].kind;
		if (k == GP_RANGE_MARK || k == GP_RANGE_PUSHPOP || k == GP_RANGE_STARTEND)
			id.rank = rank_marker(gp_s(t, t->ranges.v[i].text));
	}
	if (id.rank >= 0)
		id.source = GP_RANK_FROM_META;
	/* the job's facts: the GPU its work ran on, the backend, the clock */
	const struct gp_device *used = t->devices.n ? &t->devices.v[0] : NULL;
	if (t->kernels.n && gp_trace_device(t, gp_kernel_device(t, &t->kernels.v[0])))
		used = gp_trace_device(t, gp_kernel_device(t, &t->kernels.v[0]));
	if (used)
		snprintf(id.gpu, sizeof(id.gpu), "%s", gp_s(t, used->name));
	const char *backend = gp_trace_meta_get(t, "dist_backend");
	snprintf(id.backend, sizeof(id.backend), "%s", backend ? backend : "");
	id.start = gp_trace_start(t);
	return id;
}

/* Digits at s (at most 9 of them) as a number, or -1. */
static int32_t digits_at(const char *s)
{
	int32_t v = 0;
	int n = 0;

	while (isdigit((unsigned char)s[n]) && n < 9)
		v = v * 10 + (s[n++] - '0');
	return n && !isdigit((unsigned char)s[n]) ? v : -1;
}

int32_t gp_rank_from_name(const char *path)
{
	const char *base = strrchr(path, '/'), *p;
	int32_t found = -1;

	base = base ? base + 1 : path;
	for (p = base; (p = strcasestr(p, "rank")) != NULL; p += 4) {
		const char *d = p + 4;
		if (*d == '-' || *d == '_')
			d++;
		if (digits_at(d) >= 0)
			found = digits_at(d);
	}
	return found;
}

/* Traces on an epoch clock (ns since 1970, after 2001): others count from
** boot or the session's start, and cannot be compared across hosts. */
static bool epoch_clock(gp_ns t)
{
	return t > 1000000000LL * 1000000000LL;
}

int gp_ranks_one_job(const struct gp_rank_id *ids, const char *const *paths, size_t n, gp_error *err)
{
	for (size_t i = 1; i < n; i++) {
		const struct gp_rank_id *a = &ids[0], *b = &ids[i];
		const char *what = NULL;
		char why[256];
		if (*a->gpu && *b->gpu && strcmp(a->gpu, b->gpu) != 0)
			snprintf(why, sizeof(why), "GPU %s, not %s", b->gpu, a->gpu), what = why;
		else if (a->world > 0 && b->world > 0 && a->world != b->world)
			snprintf(why, sizeof(why), "world size %d, not %d", b->world, a->world), what = why;
		else if (*a->backend && *b->backend && strcmp(a->backend, b->backend) != 0)
			snprintf(why, sizeof(why), "backend %s, not %s", b->backend, a->backend), what = why;
		else if (epoch_clock(a->start) && epoch_clock(b->start) &&
			 llabs(b->start - a->start) > GP_JOB_START_APART)
			snprintf(why, sizeof(why), "it starts %.1f hours %s", (double)llabs(b->start - a->start) / 3.6e12,
				 b->start > a->start ? "later" : "earlier"), what = why;
		if (what)
			return gp_err(err, GP_ERR_USAGE,
				      "%s is not of the job of %s (%s): give one job's rank files, or each trace alone",
				      paths[i], paths[0], what);
	}
	return GP_OK;
}

const char *gp_rank_source_name(int source)
{
	return source == GP_RANK_FROM_META ? "metadata" : source == GP_RANK_FROM_NAME ? "file name" : "order";
}

/* Sort state: qsort has no context argument, so the keys travel along. */
struct keyed {
	int32_t rank;
	size_t pos;
};

static int by_rank(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Appends a printf-formatted line to the growing text *buf. */
static void note(char **buf, size_t *len, const char *fmt, const char *a, long long x, long long y)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), fmt, a, x, y);

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	*buf = gp_xrealloc(*buf, *len + (size_t)n + 1);
	memcpy(*buf + *len, line, (size_t)n + 1);
	*len += (size_t)n;
}

void gp_rank_complete(struct gp_rank_id *id, const char *path, size_t pos)
{
	int32_t r;

	if (id->source == GP_RANK_FROM_META)
		return;
	r = gp_rank_from_name(path);
	id->rank = r >= 0 ? r : (int32_t)(pos > INT32_MAX ? INT32_MAX : pos);
	id->source = r >= 0 ? GP_RANK_FROM_NAME : GP_RANK_FROM_ORDER;
}

char *gp_ranks_order(struct gp_rank_id *ids, const char *const *paths, size_t n, size_t *order)
{
	struct keyed *k = gp_xmalloc((n ? n : 1) * sizeof(*k));
	char *notes = NULL;
	size_t len = 0, by_order = 0;
	int32_t world = -1;

	for (size_t i = 0; i < n; i++) {
		gp_rank_complete(&ids[i], paths[i], i);
		by_order += ids[i].source == GP_RANK_FROM_ORDER;
		if (ids[i].world > world)
			world = ids[i].world;
		k[i] = (struct keyed){ids[i].rank, i};
	}
	gp_sort(k, n, sizeof(*k), by_rank);
	for (size_t i = 0; i < n; i++) {
		order[i] = k[i].pos;
		if (i && k[i].rank == k[i - 1].rank)
			note(&notes, &len, "%s: rank %lld also given by file %lld (both kept, in argument order)\n",
			     paths[k[i].pos], k[i].rank, (long long)k[i - 1].pos + 1);
	}
	if (by_order && n > 1)
		note(&notes, &len, "%s%lld file(s) say no rank in their metadata or name: ranked by position\n",
		     "", (long long)by_order, 0LL);
	if (world > 0) {
		/* ranks 0..world-1 not among the files, as ranges "3-5" */
		size_t j = 0;
		for (int32_t r = 0; r < world; r++) {
			while (j < n && k[j].rank < r)
				j++;
			if (j < n && k[j].rank == r)
				continue;
			int32_t last = r;
			while (last + 1 < world && !(j < n && k[j].rank == last + 1))
				last++;
			if (last == r)
				note(&notes, &len, "%srank %lld of world size %lld has no file\n", "", r, world);
			else
				note(&notes, &len, "%sranks %lld-%lld have no file\n", "", r, last);
			if (last == r)
				continue;
			r = last;
		}
	}
	free(k);
	return notes;
}

static int by_iter(const void *a, const void *b)
{
	const struct gp_rank_step *x = a, *y = b;

	return x->iter < y->iter ? -1 : x->iter > y->iter;
}

static int by_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorted here), the mean of the middle two of an
** even count, as util/stats.h defines it; 0 for none. */
static gp_ns median(int64_t *v, size_t n)
{
	struct gp_stats s;

	gp_stats_compute(v, n, &s);
	return (gp_ns)s.med;
}

void gp_rank_record_of(const gp_breakdown *b, const struct gp_steps *st, struct gp_rank_record *r)
{
	GP_VEC(struct gp_rank_step) steps = {0};
	gp_ns first = INT64_MAX, last = INT64_MIN;
	int64_t *t;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < b->nwin; i++) {
		const struct gp_bd_window *w = &b->win[i];
		if (w->iter >= 0)
			continue;
		if (w->end > w->start) {
			first = w->start < first ? w->start : first;
			last = w->end > last ? w->end : last;
		}
		r->span += w->end - w->start;
		r->compute += gp_bd_kind_time(w, GP_BD_COMPUTE);
		r->comm += gp_bd_kind_time(w, GP_BD_COMM);
		r->memory += gp_bd_kind_time(w, GP_BD_MEMORY);
		r->idle += w->by_mask[0];
	}
	for (size_t k = 0; k < st->n; k++)
		*gp_vec_push(steps) = (struct gp_rank_step){st->v[k].iter, gp_step_ns(&st->v[k])};
	r->gpu_span = last > first ? last - first : 0;
	if (!steps.n)
		*gp_vec_push(steps) = (struct gp_rank_step){-1, r->span};
	gp_sort(steps.v, steps.n, sizeof(*steps.v), by_iter);
	r->steps = steps.v;
	r->nsteps = steps.n;
	t = gp_xmalloc(steps.n * sizeof(*t));
	for (size_t k = 0; k < steps.n; k++)
		t[k] = steps.v[k].time;
	r->step_median = median(t, steps.n);
	free(t);
}

void gp_rank_record_free(struct gp_rank_record *r)
{
	free(r->steps);
	gp_coll_rank_free(&r->coll);
	gp_rank_path_free(&r->path);
	gp_findings_free(&r->advice);
	memset(r, 0, sizeof(*r));
}

/* The step time of iteration iter in r, or -1. */
static gp_ns step_of(const struct gp_rank_record *r, int32_t iter)
{
	struct gp_rank_step key = {iter, 0}, *s;

	s = bsearch(&key, r->steps, r->nsteps, sizeof(key), by_iter);
	return s ? s->time : -1;
}

int32_t *gp_ranks_iters(const struct gp_rank_record *const *rec, size_t n, size_t *count)
{
	GP_VEC(int32_t) iters = {0};
	size_t u = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < rec[i]->nsteps; k++)
			*gp_vec_push(iters) = rec[i]->steps[k].iter;
	gp_vec_sort(iters, by_i32);
	for (size_t k = 0; k < iters.n; k++)
		if (!u || iters.v[k] != iters.v[u - 1])
			iters.v[u++] = iters.v[k];
	*count = u;
	return iters.v;
}

void gp_ranks_step(const struct gp_rank_record *const *rec, size_t n, int32_t iter, struct gp_step_cmp *c)
{
	int64_t *v = gp_xmalloc((n ? n : 1) * sizeof(*v));

	memset(c, 0, sizeof(*c));
	c->fastest_ns = INT64_MAX;
	c->slowest_ns = -1;
	for (size_t i = 0; i < n; i++) {
		gp_ns s = step_of(rec[i], iter);
		if (s < 0)
			continue;
		v[c->have++] = s;
		if (s > c->slowest_ns)
			c->slowest_ns = s, c->slowest = i;
		if (s < c->fastest_ns)
			c->fastest_ns = s, c->fastest = i;
	}
	c->median = c->have ? median(v, c->have) : -1;
	if (!c->have)
		c->fastest_ns = -1;
	free(v);
}

void gp_ranks_compare(const struct gp_rank_record *const *rec, size_t n, struct gp_ranks_cmp *c)
{
	memset(c, 0, sizeof(*c));
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		if (rec[i]->step_median > rec[c->slowest]->step_median)
			c->slowest = i;
		if (rec[i]->step_median < rec[c->fastest]->step_median)
			c->fastest = i;
	}
	c->skew = rec[c->slowest]->step_median - rec[c->fastest]->step_median;
	c->skew_pct = rec[c->fastest]->step_median > 0
		      ? 100.0 * (double)c->skew / (double)rec[c->fastest]->step_median : 0;
}

/* ---- the record as kept rows ---- */

const struct gp_column *const gp_rank_record_cols = gp_coll_record_cols;

void gp_rank_record_put(const struct gp_rank_record *r, gp_writer *w)
{
	char v[6][24];
	const char *row[GP_RANK_RECORD_NCOLS] = {"sums", v[0], v[1], v[2], v[3], v[4], v[5]};

	snprintf(v[0], 24, "%" PRId64, r->span);
	snprintf(v[1], 24, "%" PRId64, r->compute);
	snprintf(v[2], 24, "%" PRId64, r->comm);
	snprintf(v[3], 24, "%" PRId64, r->memory);
	snprintf(v[4], 24, "%" PRId64, r->idle);
	snprintf(v[5], 24, "%" PRId64, r->gpu_span);
	gp_writer_row(w, row);
	for (size_t k = 0; k < r->nsteps; k++) {
		const char *srow[GP_RANK_RECORD_NCOLS] = {"step", v[0], v[1]};
		snprintf(v[0], 24, "%" PRId32, r->steps[k].iter);
		snprintf(v[1], 24, "%" PRId64, r->steps[k].time);
		gp_writer_row(w, srow);
	}
	gp_coll_rank_put(&r->coll, w);
	gp_rank_path_put(&r->path, w);
}

int gp_rank_record_read(const struct gp_rowbuf *rb, const char *path, int rank, struct gp_rank_record *r,
			gp_error *err)
{
	GP_VEC(struct gp_rank_step) steps = {0};
	const char *c[GP_RANK_RECORD_NCOLS];
	struct gp_coll_reader rd;
	int64_t *t;
	size_t at = 0;
	int got, sums = 0;

	memset(r, 0, sizeof(*r));
	gp_coll_reader_init(&rd, &r->coll);
	while ((got = gp_rowbuf_next(rb, &at, c)) > 0) {
		int64_t a, b;
		int coll = gp_coll_reader_row(&rd, c);
		if (coll == 0)
			coll = gp_rank_path_row(&r->path, c);
		if (coll == 0)
			coll = gp_findings_row(&r->advice, c);
		if (coll == 1)
			continue;
		if (coll == 0 && c[0] && strcmp(c[0], "sums") == 0 && !rd.heads &&
		    gp_rowbuf_cell_i64(c[1], INT64_MIN, INT64_MAX, &r->span) &&
		    gp_rowbuf_cell_i64(c[2], INT64_MIN, INT64_MAX, &r->compute) &&
		    gp_rowbuf_cell_i64(c[3], INT64_MIN, INT64_MAX, &r->comm) &&
		    gp_rowbuf_cell_i64(c[4], INT64_MIN, INT64_MAX, &r->memory) &&
		    gp_rowbuf_cell_i64(c[5], INT64_MIN, INT64_MAX, &r->idle) &&
		    gp_rowbuf_cell_i64(c[6], 0, INT64_MAX, &r->gpu_span)) {
			sums++;
		} else if (coll == 0 && c[0] && strcmp(c[0], "step") == 0 && !rd.heads &&
			   gp_rowbuf_cell_i64(c[1], -1, INT32_MAX, &a) &&
			   gp_rowbuf_cell_i64(c[2], INT64_MIN, INT64_MAX, &b) &&
			   (!steps.n || a > steps.v[steps.n - 1].iter)) {
			*gp_vec_push(steps) = (struct gp_rank_step){(int32_t)a, b};
		} else {
			got = -1;
			break;
		}
	}
	r->steps = steps.v;
	r->nsteps = steps.n;
	r->coll.path = gp_xstrdup(path);
	r->coll.rank = rank;
	if (got < 0 || sums != 1 || !steps.n || !gp_coll_reader_done(&rd) || !gp_rank_path_done(&r->path, r->coll.n) ||
	    !gp_findings_rows_done(&r->advice))
		return gp_err(err, GP_ERR_FORMAT, "%s: a rank record is damaged (byte %zu of %zu)", path, at, rb->len);
	t = gp_xmalloc(steps.n * sizeof(*t));
	for (size_t k = 0; k < steps.n; k++)
		t[k] = steps.v[k].time;
	r->step_median = median(t, steps.n);
	free(t);
	return GP_OK;
}

/* ---- a job: the records compared ---- */

void gp_rank_job_compare(struct gp_rank_record *rec, size_t n, struct gp_rank_job *j)
{
	struct gp_coll_rank *coll = gp_xmalloc((n ? n : 1) * sizeof(*coll));

	memset(j, 0, sizeof(*j));
	j->rec = rec;
	j->n = n;
	j->rp = gp_xmalloc((n ? n : 1) * sizeof(*j->rp));
	for (size_t i = 0; i < n; i++) {
		j->rp[i] = &rec[i];
		coll[i] = rec[i].coll;   /* borrowed for the match, which copies what it keeps */
		if (rec[i].gpu_span > j->gpu_span)
			j->gpu_span = rec[i].gpu_span;
	}
	gp_ranks_compare(j->rp, n, &j->steps);
	gp_coll_match(coll, n, &j->coll);
	j->straggler = gp_coll_straggler(&j->coll);
	free(coll);
}

void gp_rank_job_free(struct gp_rank_job *j)
{
	for (size_t i = 0; i < j->n; i++)
		gp_rank_record_free(&j->rec[i]);
	free(j->rec);
	free(j->rp);
	gp_coll_match_free(&j->coll);
	memset(j, 0, sizeof(*j));
}

void gp_rank_job_on_time(const struct gp_rank_job *j, size_t r, struct gp_rank_on_time *o)
{
	const struct gp_coll_match *m = &j->coll;
	GP_VEC(int32_t) iters = {0};
	GP_VEC(int64_t) before = {0}, after = {0};

	memset(o, 0, sizeof(*o));
	o->saving = r < m->nranks ? m->ranks[r].late : 0;
	o->span_before = j->gpu_span;
	o->span_after = j->gpu_span - o->saving > 0 ? j->gpu_span - o->saving : 0;
	o->wait_before = o->wait_after = m->wait_total;
	for (size_t c = 0; c < m->ncomplete; c++)
		if (m->calls[c].last_rank == (int)r)
			o->wait_after -= (gp_ns)(m->nranks - 1) * m->calls[c].late;
	/* the job's step of each iteration, less r's late in it */
	iters.v = gp_ranks_iters(j->rp, j->n, &iters.n);
	for (size_t k = 0; k < iters.n; k++) {
		struct gp_step_cmp sc;
		gp_ns late = 0;
		if (iters.v[k] < 0)
			continue;
		gp_ranks_step(j->rp, j->n, iters.v[k], &sc);
		for (size_t c = 0; c < m->ncomplete; c++)
			if (m->calls[c].last_rank == (int)r && m->calls[c].iter == iters.v[k])
				late += m->calls[c].late;
		*gp_vec_push(before) = sc.slowest_ns;
		*gp_vec_push(after) = sc.slowest_ns - late > 0 ? sc.slowest_ns - late : 0;
	}
	o->step_before = before.n ? median(before.v, before.n) : -1;
	o->step_after = after.n ? median(after.v, after.n) : -1;
	gp_vec_free(iters);
	gp_vec_free(before);
	gp_vec_free(after);
}
