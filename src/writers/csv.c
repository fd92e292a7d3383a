/*
** CSV (every field double-quoted, as PyProf and nsys write it) and TSV
** (unquoted; tabs and newlines inside values become spaces, for awk).
*/
#include "writers/writer.h"

static void csv_field(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_line(gp_writer *w, const char *const *vals)
{
	for (int i = 0; i < w->ncols; i++) {
		if (i)
			fputc(',', w->out);
		csv_field(w->out, vals[i]);
	}
	fputc('\n', w->out);
}

static void csv_begin(gp_writer *w)
{
	const char *hdr[256];

	if (w->opts.no_header)
		return;
	for (int i = 0; i < w->ncols && i < 256; i++)
		hdr[i] = w->cols[i].header;
	csv_line(w, hdr);
}

static void tsv_field(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, out);
}

static void tsv_line(gp_writer *w, const char *const *vals)
{
	for (int i = 0; i < w->ncols; i++) {
		if (i)
			fputc('\t', w->out);
		tsv_field(w->out, vals[i]);
	}
	fputc('\n', w->out);
}

static void tsv_begin(gp_writer *w)
{
	const char *hdr[256];

	if (w->opts.no_header)
		return;
	for (int i = 0; i < w->ncols && i < 256; i++)
		hdr[i] = w->cols[i].header;
	tsv_line(w, hdr);
}

static void nothing(gp_writer *w)
{
}

const struct gp_writer_ops gp_writer_csv = {"csv", csv_begin, csv_line, nothing};
const struct gp_writer_ops gp_writer_tsv = {"tsv", tsv_begin, tsv_line, nothing};
