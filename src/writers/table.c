/*
** Aligned text table.  Rows are buffered and each column gets the width of
** its widest value or header, so nothing is cut.  A width (-w N) is a limit,
** not a target: a table that fits is printed as it is; a wider one has its
** cuttable columns truncated until the lines fit, the flex columns first
** (kernel names, params, range names), then the other text columns down to
** their min_width.  Numbers and headers are never cut, so when they alone
** are wider than N the lines stay longer than N.  Numbers of a column
** with a unit are shown in human units (gp_cell_human).  A machine column
** (gp_column.machine) is kept with its row but never printed.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/arena.h"
#include "util/strtab.h"
#include "writers/writer.h"

/* A buffered row is one string: its cells one after another, each ended
** by its NUL ("12\0gemm\0"): a pointer a row instead of one a cell (72 of
** the bytes a row of a 9-column table took: 100 MB for `ranges` on a
** million-kernel PyProf trace).  From row SAMPLE_ROWS on, the text columns
** whose cells repeat (at most half of the first SAMPLE_ROWS distinct:
** kernel, op and module names) keep an id into one string table instead
** (`report` on 200k kernels: 19.9 MB of rows as strings, most of it the
** same names again); columns of distinct cells (`ranges`' paths) stay in
** the string, where an id and its table entry would add 14 bytes a cell. */
#define SAMPLE_ROWS 4096

struct table {
	gp_arena arena;             /* the rows' strings */
	GP_VEC(const char *) rows;
	bool *interned;             /* per column: its cells are ids from row SAMPLE_ROWS on */
	int ninterned;
	gp_strtab texts;            /* the interned columns' distinct cells */
	GP_VEC(gp_str) ids;         /* per row from SAMPLE_ROWS on: its interned cells */
	GP_VEC(char) packing;       /* the row being packed */
	const char **cells;         /* a row unpacked for printing */
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

	int last = w->ncols - 1;

	while (last > 0 && w->cols[last].machine)
		last--;
	for (int i = 0, shown = 0; i <= last; i++) {
		if (w->cols[i].machine)
			continue;
		if (shown++)
			fputc(' ', w->out);
		cell(w->out, gp_cell_text(&w->cols[i], vals[i]), t->width[i], w->cols[i].numeric, i == last);
	}
	fputc('\n', w->out);
}

static void table_begin(gp_writer *w)
{
	struct table *t = gp_xcalloc(1, sizeof(*t));

	t->width = gp_xcalloc((size_t)w->ncols, sizeof(int));
	t->cells = gp_xcalloc((size_t)w->ncols, sizeof(*t->cells));
	t->interned = gp_xcalloc((size_t)w->ncols, sizeof(*t->interned));
	gp_strtab_init(&t->texts);
	w->priv = t;
	for (int i = 0; i < w->ncols; i++)
		t->width[i] = text_width(w->cols[i].header);
}

/* Cell c of a packed row. */
static const char *packed_cell(const char *row, int c)
{
	while (c-- > 0)
		row += strlen(row) + 1;
	return row;
}

/* Sets t->interned from the first SAMPLE_ROWS rows: the text columns
** whose cells there are at most half distinct. */
static void choose_interned(gp_writer *w, struct table *t)
{
	for (int i = 0; i < w->ncols; i++) {
		gp_strtab seen;
		if (w->cols[i].numeric)
			continue;
		gp_strtab_init(&seen);
		for (size_t r = 0; r < SAMPLE_ROWS; r++)
			gp_strtab_intern(&seen, packed_cell(t->rows.v[r], i));
		t->interned[i] = seen.n <= SAMPLE_ROWS / 2;
		t->ninterned += t->interned[i];
		gp_strtab_free(&seen);
	}
}

static void table_row(gp_writer *w, const char *const *vals)
{
	struct table *t = w->priv;

	if (t->rows.n == SAMPLE_ROWS)
		choose_interned(w, t);
	bool coded = t->rows.n >= SAMPLE_ROWS;
	t->packing.n = 0;
	for (int i = 0; i < w->ncols; i++) {
		char human[64];
		const char *v = gp_cell_human(&w->cols[i], vals[i], human, sizeof(human));
		size_t len = strlen(v) + 1;   /* with its NUL */
		int n = text_width(v);
		if (n > t->width[i])
			t->width[i] = n;
		if (coded && t->interned[i]) {
			*gp_vec_push(t->ids) = gp_strtab_intern_n(&t->texts, v, len - 1);
			continue;
		}
		gp_vec_reserve(t->packing, t->packing.n + len);
		memcpy(t->packing.v + t->packing.n, v, len);
		t->packing.n += len;
	}
	/* the last cell's NUL is the one strndup adds */
	*gp_vec_push(t->rows) = t->packing.n ? gp_arena_strndup(&t->arena, t->packing.v, t->packing.n - 1) : "";
}

/* The cells of buffered row r, into t->cells. */
static const char *const *unpack(gp_writer *w, struct table *t, size_t r)
{
	const char *row = t->rows.v[r];
	const gp_str *id = r >= SAMPLE_ROWS ? t->ids.v + (r - SAMPLE_ROWS) * (size_t)t->ninterned : NULL;

	for (int i = 0; i < w->ncols; i++) {
		if (id && t->interned[i]) {
			t->cells[i] = gp_strtab_get(&t->texts, *id++);
			continue;
		}
		t->cells[i] = row;
		row += strlen(row) + 1;
	}
	return t->cells;
}

/* The narrowest width column c may be cut to: its header's (headers are
** never cut) or its min_width, whichever is wider, and never more than the
** width its values need. */
static int floor_width(const struct gp_column *c, int natural)
{
	int f = text_width(c->header);
	if (c->min_width > f)
		f = c->min_width;
	return f < natural ? f : natural;
}

/* Caps the columns that tier selects (flex ones, or the other text ones)
** at one common width, the largest that brings the line total down to
** limit or each to its floor, and returns the new total.  The widest
** columns give up width first, so a 300-character name is cut before a
** 20-character one. */
static long cut_tier(gp_writer *w, int *width, const int *natural, bool flex, long total, long limit)
{
	int lo = 0, hi = 0;

	for (int i = 0; i < w->ncols; i++)
		if (!w->cols[i].numeric && !w->cols[i].machine && w->cols[i].flex == flex && natural[i] > hi)
			hi = natural[i];
	/* binary search for the largest cap whose total is <= limit; when
	** none is, lo ends at 0: every column of the tier at its floor */
	while (lo < hi) {
		int cap = lo + (hi - lo + 1) / 2;
		long sum = total;
		for (int i = 0; i < w->ncols; i++) {
			if (w->cols[i].numeric || w->cols[i].machine || w->cols[i].flex != flex)
				continue;
			int f = floor_width(&w->cols[i], natural[i]);
			int cw = natural[i] < cap ? natural[i] : cap;
			sum += (cw > f ? cw : f) - width[i];
		}
		if (sum <= limit)
			lo = cap;
		else
			hi = cap - 1;
	}
	for (int i = 0; i < w->ncols; i++) {
		if (w->cols[i].numeric || w->cols[i].machine || w->cols[i].flex != flex)
			continue;
		int f = floor_width(&w->cols[i], natural[i]);
		int cw = natural[i] < lo ? natural[i] : lo;
		cw = cw > f ? cw : f;
		total += cw - width[i];
		width[i] = cw;
	}
	return total;
}

/* Fits the buffered table into w->opts.width (see the file comment). */
static void fit_width(gp_writer *w, struct table *t)
{
	long total = -1, limit = w->opts.width;
	int *natural;

	for (int i = 0; i < w->ncols; i++)
		if (!w->cols[i].machine)
			total += t->width[i] + 1;
	if (total <= limit)
		return;
	natural = gp_xmalloc((size_t)w->ncols * sizeof(int));
	memcpy(natural, t->width, (size_t)w->ncols * sizeof(int));
	total = cut_tier(w, t->width, natural, true, total, limit);
	if (total > limit)
		cut_tier(w, t->width, natural, false, total, limit);
	free(natural);
}

static void table_end(gp_writer *w)
{
	struct table *t = w->priv;

	if (w->opts.width)
		fit_width(w, t);
	if (!w->opts.no_header) {
		const char *hdr[256];
		for (int i = 0; i < w->ncols && i < 256; i++)
			hdr[i] = w->cols[i].header;
		print_row(w, hdr);
	}
	for (size_t r = 0; r < t->rows.n; r++)
		print_row(w, unpack(w, t, r));
	gp_vec_free(t->rows);
	gp_vec_free(t->ids);
	gp_strtab_free(&t->texts);
	free(t->interned);
	gp_vec_free(t->packing);
	free(t->cells);
	gp_arena_free(&t->arena);
	free(t->width);
	free(t);
	w->priv = NULL;
}

const struct gp_writer_ops gp_writer_table = {"table", table_begin, table_row, table_end};
