/*
** CSV (every field double-quoted, as PyProf and nsys write it) and TSV
** (unquoted; tabs and newlines inside values become spaces, for awk).
** Numbers are written raw; a column with a unit says it in its header
** ("Total (ns)").
**
** A report writes millions of fields: each line takes the stream's lock
** once (flockfile); a CSV line is put together in a buffer and written
** with one fwrite, TSV's characters with putc_unlocked, instead of a
** locked fputc per character.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "writers/writer.h"

/* A line put together before it is written: one fwrite a line, not two
** calls a field (an fwrite is about a hundred instructions). */
struct line {
	FILE *out;
	size_t n;
	char b[4096];
};

/* Appends s[0..n) to the line, writing out what fills it. */
static void line_put(struct line *l, const char *s, size_t n)
{
	while (n > sizeof(l->b) - l->n) {
		size_t k = sizeof(l->b) - l->n;
		memcpy(l->b + l->n, s, k);
		fwrite(l->b, 1, sizeof(l->b), l->out);
		l->n = 0;
		s += k;
		n -= k;
	}
	memcpy(l->b + l->n, s, n);
	l->n += n;
}

static void line_putc(struct line *l, char c)
{
	if (l->n == sizeof(l->b)) {
		fwrite(l->b, 1, l->n, l->out);
		l->n = 0;
	}
	l->b[l->n++] = c;
}

static void csv_field(struct line *l, const char *s)
{
	const char *q;

	line_putc(l, '"');
	while ((q = strchr(s, '"')) != NULL) {   /* "" for each quote */
		line_put(l, s, (size_t)(q - s) + 1);
		line_putc(l, '"');
		s = q + 1;
	}
	line_put(l, s, strlen(s));
	line_putc(l, '"');
}

static void csv_line(gp_writer *w, const char *const *vals)
{
	struct line l;

	l.out = w->out;
	l.n = 0;
	flockfile(w->out);
	for (int i = 0; i < w->ncols; i++) {
		if (i)
			line_putc(&l, ',');
		csv_field(&l, gp_cell_text(&w->cols[i], vals[i]));
	}
	line_putc(&l, '\n');
	fwrite(l.b, 1, l.n, w->out);
	funlockfile(w->out);
}

static void csv_begin(gp_writer *w)
{
	const char *hdr[256];
	char (*buf)[96];

	if (w->opts.no_header)
		return;
	buf = gp_xmalloc((size_t)(w->ncols ? w->ncols : 1) * sizeof(*buf));
	for (int i = 0; i < w->ncols && i < 256; i++)
		hdr[i] = gp_column_header(&w->cols[i], buf[i], sizeof(buf[i]));
	csv_line(w, hdr);
	free(buf);
}

static void tsv_field(FILE *out, const char *s)
{
	for (; *s; s++)
		putc_unlocked(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static void tsv_line(gp_writer *w, const char *const *vals)
{
	flockfile(w->out);
	for (int i = 0; i < w->ncols; i++) {
		if (i)
			putc_unlocked('\t', w->out);
		tsv_field(w->out, gp_cell_text(&w->cols[i], vals[i]));
	}
	putc_unlocked('\n', w->out);
	funlockfile(w->out);
}

static void tsv_begin(gp_writer *w)
{
	const char *hdr[256];
	char (*buf)[96];

	if (w->opts.no_header)
		return;
	buf = gp_xmalloc((size_t)(w->ncols ? w->ncols : 1) * sizeof(*buf));
	for (int i = 0; i < w->ncols && i < 256; i++)
		hdr[i] = gp_column_header(&w->cols[i], buf[i], sizeof(buf[i]));
	tsv_line(w, hdr);
	free(buf);
}

static void nothing(gp_writer *w)
{
}

const struct gp_writer_ops gp_writer_csv = {"csv", csv_begin, csv_line, nothing};
const struct gp_writer_ops gp_writer_tsv = {"tsv", tsv_begin, tsv_line, nothing};
