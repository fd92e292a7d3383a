/*
** Tabular output.  A command describes its columns once, then hands rows of
** already-formatted strings to a writer; each output format is one file in
** src/writers/ providing a gp_writer_ops table (uftrace's dump ops), listed
** in the registry of writer.c.  The row interface itself (columns, units,
** gp_writer, gp_writer_row) is util/rows.h's, so that the analysis layer's
** record encoders can write rows without including a writer.
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
#include "util/rows.h"

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

/* The index in cols[0..n) of the first column whose key is name, or is
** name with a unit of ns or bytes ("self_gpu" is "self_gpu_ns", "total"
** "total_ns"); -1 when none. */
int gp_column_find(const struct gp_column *cols, int n, const char *name);

/* Column selection shared by the commands: parses "a,b,c" against cols
** into idx[] (returns count) or fails with GP_ERR_USAGE listing the valid
** keys. */
int gp_columns_select(const struct gp_column *cols, int ncols, const char *list, int *idx,
		      int max, gp_error *err);

#endif
