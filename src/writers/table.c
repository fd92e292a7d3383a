/*
** Aligned text table.  Without a width, rows are buffered and each column
** gets the width of its widest value, so nothing is cut.  With a width
** (-w W, PyProf's mode), every column gets its minimum width and the flex
** columns share what is left; longer values are truncated and rows stream.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/arena.h"
#include "writers/writer.h"

struct table {
	gp_arena arena;
	GP_VEC(const char **) rows;
	int *width;
};

static int text_width(const char *s)
{
	int n = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)  /* count UTF-8 code points */
			n++;
	return n;
}

static void cell(FILE *out, const char *s, int width, int numeric, int last)
{
	int n = text_width(s);

	if (n > width) {
		/* truncate to width code points */
		int k = 0;
		const char *p = s;
		while (*p && k < width) {
			p++;
			while (((unsigned char)*p & 0xc0) == 0x80)
				p++;
			k++;
		}
		fwrite(s, 1, (size_t)(p - s), out);
		return;
	}
	if (numeric)
		fprintf(out, "%*s%s", width - n, "", s);
	else if (last)
		fputs(s, out);
	else
		fprintf(out, "%s%*s", s, width - n, "");
}

static void print_row(gp_writer *w, const char *const *vals)
{
	struct table *t = w->priv;

	for (int i = 0; i < w->ncols; i++) {
		if (i)
			fputc(' ', w->out);
		cell(w->out, gp_cell_text(&w->cols[i], vals[i]), t->width[i], w->cols[i].numeric, i == w->ncols - 1);
	}
	fputc('\n', w->out);
}

static void table_begin(gp_writer *w)
{
	struct table *t = gp_xcalloc(1, sizeof(*t));
	int total = 0, nflex = 0;

	t->width = gp_xcalloc((size_t)w->ncols, sizeof(int));
	w->priv = t;
	for (int i = 0; i < w->ncols; i++) {
		int h = text_width(w->cols[i].header);
		t->width[i] = w->opts.width ? (w->cols[i].min_width > 0 ? w->cols[i].min_width : h) : h;
		total += t->width[i] + (i ? 1 : 0);
		nflex += w->cols[i].flex;
	}
	if (!w->opts.width)
		return;
	/* Fixed mode: share the leftover among flex columns (or the last). */
	int left = w->opts.width - total;
	for (int i = 0; left > 0 && i < w->ncols; i++) {
		if (nflex ? !w->cols[i].flex : i != w->ncols - 1)
			continue;
		int share = nflex ? left / nflex : left;
		t->width[i] += share;
		left -= share;
		if (nflex)
			nflex--;
	}
	if (!w->opts.no_header) {
		const char *hdr[256];
		for (int i = 0; i < w->ncols && i < 256; i++)
			hdr[i] = w->cols[i].header;
		print_row(w, hdr);
	}
}

static void table_row(gp_writer *w, const char *const *vals)
{
	struct table *t = w->priv;

	if (w->opts.width) {
		print_row(w, vals);
		return;
	}
	const char **copy = gp_arena_alloc(&t->arena, sizeof(char *) * (size_t)w->ncols);
	for (int i = 0; i < w->ncols; i++) {
		const char *v = gp_cell_text(&w->cols[i], vals[i]);
		int n = text_width(v);
		copy[i] = gp_arena_strndup(&t->arena, v, strlen(v));
		if (n > t->width[i])
			t->width[i] = n;
	}
	*gp_vec_push(t->rows) = copy;
}

static void table_end(gp_writer *w)
{
	struct table *t = w->priv;

	if (!w->opts.width) {
		if (!w->opts.no_header) {
			const char *hdr[256];
			for (int i = 0; i < w->ncols && i < 256; i++)
				hdr[i] = w->cols[i].header;
			print_row(w, hdr);
		}
		for (size_t r = 0; r < t->rows.n; r++)
			print_row(w, t->rows.v[r]);
	}
	gp_vec_free(t->rows);
	gp_arena_free(&t->arena);
	free(t->width);
	free(t);
	w->priv = NULL;
}

const struct gp_writer_ops gp_writer_table = {"table", table_begin, table_row, table_end};
