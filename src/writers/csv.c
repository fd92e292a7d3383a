/*
** CSV (every field double-quoted, as PyProf and nsys write it) and TSV
** (unquoted; tabs and newlines inside values become spaces, for awk).
** Numbers are written raw; a column with a unit says it in its header
** ("Total (ns)").
**
** A report writes millions of fields: each line takes the stream's lock
** once (flockfile) and writes single characters with putc_unlocked and
** runs of text with fwrite, instead of a locked fputc per character.
*/
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "writers/writer.h"

static void csv_field(FILE *out, const char *s)
{
	const char *q;

	putc_unlocked('"', out);
	while ((q = strchr(s, '"')) != NULL) {   /* "" for each quote */
		fwrite(s, 1, (size_t)(q - s) + 1, out);
		putc_unlocked('"', out);
		s = q + 1;
	}
	fwrite(s, 1, strlen(s), out);
	putc_unlocked('"', out);
}

static void csv_line(gp_writer *w, const char *const *vals)
{
	flockfile(w->out);
	for (int i = 0; i < w->ncols; i++) {
		if (i)
			putc_unlocked(',', w->out);
		csv_field(w->out, gp_cell_text(&w->cols[i], vals[i]));
	}
	putc_unlocked('\n', w->out);
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
