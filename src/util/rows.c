/*
** The row interface's dispatch and kept rows with their replay; see rows.h.
*/
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/rows.h"
#include "util/sort.h"

void gp_writer_begin(gp_writer *w)
{
	if (w->begun)
		return;
	w->begun = true;
	w->ops->begin(w);
}

void gp_writer_row(gp_writer *w, const char *const *vals)
{
	gp_writer_begin(w);
	w->ops->row(w, vals);
}

static void append(struct gp_rowbuf *rb, const void *p, size_t n)
{
	if (rb->len + n > rb->cap) {
		rb->cap = rb->cap ? rb->cap * 2 : 4096;
		if (rb->cap < rb->len + n)
			rb->cap = rb->len + n;
		rb->data = gp_xrealloc(rb->data, rb->cap);
	}
	memcpy(rb->data + rb->len, p, n);
	rb->len += n;
}

static void keep_begin(gp_writer *w)
{
}

static void keep_row(gp_writer *w, const char *const *vals)
{
	struct gp_rowbuf *rb = w->priv;

	for (int c = 0; c < w->ncols; c++) {
		char tag = vals[c] ? 1 : 0;
		append(rb, &tag, 1);
		if (vals[c])
			append(rb, vals[c], strlen(vals[c]) + 1);
	}
	rb->nrows++;
}

static void keep_end(gp_writer *w)
{
}

static const struct gp_writer_ops keep_ops = {"rowbuf", keep_begin, keep_row, keep_end};

void gp_rowbuf_writer(gp_writer *w, struct gp_rowbuf *rb, const struct gp_column *cols, int ncols)
{
	rb->len = 0;
	rb->nrows = 0;
	rb->ncols = ncols;
	memset(w, 0, sizeof(*w));
	w->ops = &keep_ops;
	w->cols = cols;
	w->ncols = ncols;
	w->priv = rb;
}

int gp_rowbuf_next(const struct gp_rowbuf *rb, size_t *at, const char **cells)
{
	size_t p = *at;

	if (p >= rb->len)
		return 0;
	for (int c = 0; c < rb->ncols; c++) {
		const char *end;
		if (p >= rb->len || (unsigned char)rb->data[p] > 1)
			return -1;
		if (!rb->data[p++]) {
			cells[c] = NULL;
			continue;
		}
		end = memchr(rb->data + p, 0, rb->len - p);
		if (!end)
			return -1;
		cells[c] = rb->data + p;
		p = (size_t)(end - rb->data) + 1;
	}
	*at = p;
	return 1;
}

int gp_rowbuf_replay(const struct gp_rowbuf *rb, gp_writer *out, const char *first, gp_error *err)
{
	int lead = out->ncols == rb->ncols + 1, got;
	const char **row = gp_xmalloc((size_t)(rb->ncols + 1) * sizeof(*row));
	size_t at = 0;

	row[0] = first;
	while ((got = gp_rowbuf_next(rb, &at, row + lead)) > 0)
		gp_writer_row(out, row);
	free(row);
	if (got < 0)
		return gp_err(err, GP_ERR_FORMAT, "a kept row is damaged at byte %zu of %zu", at, rb->len);
	return GP_OK;
}

int gp_rowbuf_replay_sorted(const struct gp_rowbuf *rb, gp_writer *out, int col, bool numeric, size_t top,
			    gp_error *err)
{
	const char **row = gp_xmalloc((size_t)(rb->ncols ? rb->ncols : 1) * sizeof(*row));
	struct gp_sort_key *keys = gp_xmalloc((rb->nrows ? rb->nrows : 1) * sizeof(*keys));
	size_t at = 0, n = 0;
	int got;

	/* row: the row's byte offset, so it is read again in its new place */
	for (size_t start = 0; (got = gp_rowbuf_next(rb, &at, row)) > 0 && n < rb->nrows; start = at, n++) {
		const char *v = row[col];
		double x;
		keys[n] = (struct gp_sort_key){.row = start};
		if (numeric)
			keys[n].num = gp_rowbuf_cell_double(v, &x) ? x : -HUGE_VAL;
		else
			keys[n].text = v ? v : "";
	}
	if (got < 0) {
		free(keys);
		free(row);
		return gp_err(err, GP_ERR_FORMAT, "a kept row is damaged at byte %zu of %zu", at, rb->len);
	}
	if (n > 1)
		qsort(keys, n, sizeof(*keys), gp_sort_key_cmp);
	for (size_t i = 0; i < n && i < top; i++) {
		at = keys[i].row;
		gp_rowbuf_next(rb, &at, row);
		gp_writer_row(out, row);
	}
	free(keys);
	free(row);
	return GP_OK;
}

void gp_rowbuf_free(struct gp_rowbuf *rb)
{
	free(rb->data);
	memset(rb, 0, sizeof(*rb));
}

bool gp_rowbuf_cell_i64(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !*end && !errno && *v >= lo && *v <= hi;
}

bool gp_rowbuf_cell_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno;
}

bool gp_rowbuf_cell_double(const char *s, double *v)
{
	char *end;

	if (!s || !*s)
		return false;
	*v = strtod(s, &end);
	return !*end && isfinite(*v);
}
