/*
** Tabular output.  A command describes its columns once, then hands rows of
** already-formatted strings to a writer; each output format is one file in
** src/writers/ providing a gp_writer_ops table (uftrace's dump ops), listed
** in the registry of writer.c.
**
** Ownership: the writer copies nothing it does not need: column specs must
** outlive the writer; row strings only need to live for the call (the table
** format copies them when it buffers).  A NULL cell means "unknown".
*/
#ifndef GP_WRITER_H
#define GP_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"
#include "util/fmt.h"

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

/* The row writer called name, or NULL. */
const struct gp_writer_ops *gp_writer_find(const char *name);

/* The registered row writers in order, NULL-terminated (for --help). */
extern const struct gp_writer_ops *const gp_writers[];

/* Validates and sets up a writer for format (a gp_writers name) over the
** columns; writes nothing yet, so a command opens its writer before it
** loads the input (and needs no close if that fails).  Fails with
** GP_ERR_USAGE naming the valid formats. */
int gp_writer_open(gp_writer *w, const char *format, FILE *out, const struct gp_column *cols,
		   int ncols, const struct gp_writer_opts *o, gp_error *err);

/* Writes the format's start (the header) now if not yet written; the first
** row or the close does it otherwise. */
void gp_writer_begin(gp_writer *w);
void gp_writer_row(gp_writer *w, const char *const *vals);
/* Finishes and flushes; GP_ERR_IO if any write to out failed. */
int gp_writer_close(gp_writer *w, gp_error *err);

/* The text table/csv/tsv print for cell v of column c. */
static inline const char *gp_cell_text(const struct gp_column *c, const char *v)
{
	return v ? v : c->unknown ? c->unknown : "na";
}

/* Writes s as a quoted JSON string (escapes quotes, backslashes and
** control characters). */
void gp_json_string(FILE *out, const char *s);

/* gp_json_string for JSON inside an HTML <script> element: '<', '>', '&'
** and U+2028/U+2029 written as \uXXXX too, so no text can end the element. */
void gp_json_string_html(FILE *out, const char *s);

/* Writes "a, b, c or d" from a NULL-terminated list of names into buf
** (for --help and error messages); returns buf. */
const char *gp_name_list(const char *const *names, char *buf, size_t size);

/* The row writers' names as gp_name_list writes them. */
const char *gp_writer_names(char *buf, size_t size);


/* Column c's header for csv/tsv: with its unit ("Total (ns)") when it has
** one, else the header itself; written into buf when composed. */
const char *gp_column_header(const struct gp_column *c, char *buf, size_t size);

/* The table text of cell v of column c: a raw number of a column with a
** unit in human units (a sign kept), anything else (text, "12/3", NULL
** as the column's unknown text) as gp_cell_text gives it.  Returns v,
** the unknown text or buf. */
const char *gp_cell_human(const struct gp_column *c, const char *v, char *buf, size_t size);

/* Column selection shared by the commands: parses "a,b,c" against cols
** into idx[] (returns count) or fails with GP_ERR_USAGE listing the valid
** keys. */
int gp_columns_select(const struct gp_column *cols, int ncols, const char *list, int *idx,
		      int max, gp_error *err);

#endif
