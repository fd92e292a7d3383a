/*
** Rows, below every writer: the row interface a command or an analysis
** record encoder writes through (columns with their units, a gp_writer and
** its ops; the formats and their registry are src/writers/'s, writer.h),
** and rows kept instead of written: a command's rows for one trace file,
** made on a worker thread (or another MPI process) and written later, in
** rank order, through a real row writer with a leading rank column.  The
** rows are kept in their wire form (docs/ranks.md, "Record encoding"),
** so a buffer is also what travels between MPI processes:
**   per row: ncols cells; a cell is 0x00 (unknown, NULL) or 0x01 followed
**   by the text and a terminating 0x00.
**
** Ownership: a writer copies nothing it does not need: column specs must
** outlive the writer; row strings only need to live for the call (the table
** format copies them when it buffers).  A NULL cell means "unknown".  A
** gp_rowbuf owns its bytes (gp_rowbuf_free); the writer that fills it
** (gp_rowbuf_writer) points to it and must not outlive it.
*/
#ifndef GP_ROWS_H
#define GP_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

/* The unit of a column's numbers.  A command writes them raw (integer
** nanoseconds, bytes, a percentage, GB/s); the table writer shows them in
** human units with the unit in the value ("3.029 ms", "1.50 GiB",
** "31.9%", "12.3 GB/s") under the bare header ("Total"), csv and tsv raw
** under the header with its unit ("Total (ns)", "Time (%)"), JSON raw
** under the key, which names the unit ("total_ns", "time_pct"): one rule
** for every command.  GP_UNIT_SINCE_START is a time point: nanoseconds
** from the trace's start (gp_trace_start), a duration in the table,
** "Start from trace start (ns)" in csv/tsv. */
enum gp_unit { GP_UNIT_NONE, GP_UNIT_NS, GP_UNIT_BYTES, GP_UNIT_PCT, GP_UNIT_GBPS, GP_UNIT_SINCE_START };

struct gp_column {
	const char *key;      /* -c name and JSON key: "kernel" */
	const char *header;   /* table/CSV header: "Kernel" (without the unit) */
	int min_width;        /* table -w: narrowest width a text column is cut
			      ** to (never below its header) */
	bool numeric;         /* right-aligned; JSON number when it parses;
			      ** never cut */
	bool flex;            /* table -w: cut first (names, params) */
	const char *unknown;  /* table/csv/tsv text of a NULL cell; NULL = "na"
			      ** (JSON writes null) */
	uint8_t unit;         /* enum gp_unit of its numbers, GP_UNIT_NONE for
			      ** text, counts and values already formatted */
	bool machine;         /* csv, tsv and json only: the table leaves it
			      ** out (an absolute timestamp beside its time
			      ** point from the trace start) */
};

struct gp_writer_opts {
	int width;            /* table: line width limit (-w), 0 = none */
	bool no_header;
};

typedef struct gp_writer gp_writer;

struct gp_writer_ops {
	const char *name;
	void (*begin)(gp_writer *w);
	void (*row)(gp_writer *w, const char *const *vals);
	void (*end)(gp_writer *w);
};

struct gp_writer {
	const struct gp_writer_ops *ops;
	FILE *out;
	const struct gp_column *cols;
	int ncols;
	struct gp_writer_opts opts;
	bool begun;           /* begin (header) written */
	void *priv;           /* format state */
};

/* Writes the format's start (the header) now if not yet written; the first
** row or the close does it otherwise. */
void gp_writer_begin(gp_writer *w);
void gp_writer_row(gp_writer *w, const char *const *vals);

struct gp_rowbuf {
	char *data;
	size_t len, cap;
	size_t nrows;
	int ncols;
};

/* Sets w up to append every row it gets to rb (cleared first) over the
** columns cols[0..ncols); nothing needs closing. */
void gp_rowbuf_writer(gp_writer *w, struct gp_rowbuf *rb, const struct gp_column *cols, int ncols);

/* Writes rb's rows to out, each with first (may be NULL) before its cells
** when out has one column more than rb.  Fails with GP_ERR_FORMAT when the
** bytes are not whole rows of out's width (a damaged record from another
** process). */
int gp_rowbuf_replay(const struct gp_rowbuf *rb, gp_writer *out, const char *first, gp_error *err);

/* Writes the first top rows of rb to out (its columns the first of rb's:
** a sort key may ride after them) in the order
** of column col (-s, --sort): numbers largest first when numeric (a cell
** that is unknown or no number last), else texts A to Z (unknown as ""),
** rows of equal keys in their order.  GP_ERR_FORMAT as gp_rowbuf_replay. */
int gp_rowbuf_replay_sorted(const struct gp_rowbuf *rb, gp_writer *out, int col, bool numeric, size_t top,
			    gp_error *err);

/* Reads the row at byte *at into cells[0..ncols) (pointers into rb) and
** moves *at past it.  Returns 1, 0 at the end, -1 when the bytes there
** are not a whole row. */
int gp_rowbuf_next(const struct gp_rowbuf *rb, size_t *at, const char **cells);

void gp_rowbuf_free(struct gp_rowbuf *rb);

/* A cell of a kept row (gp_rowbuf_next) read back as a number: an integer
** in [lo, hi], an unsigned 64-bit integer, a finite double.  False when the
** cell is missing, empty, not wholly a number or out of range (a damaged
** record); *v is then unspecified. */
bool gp_rowbuf_cell_i64(const char *s, int64_t lo, int64_t hi, int64_t *v);
bool gp_rowbuf_cell_u64(const char *s, uint64_t *v);
bool gp_rowbuf_cell_double(const char *s, double *v);

#endif
