/*
** Tabular output.  A command describes its columns once, then hands rows of
** already-formatted strings to a writer; each output format is one file in
** src/writers/ providing a gp_writer_ops table (uftrace's dump ops).
**
** Ownership: the writer copies nothing it does not need: column specs must
** outlive the writer; row strings only need to live for the call (the table
** format copies them when it buffers).
*/
#ifndef GP_WRITER_H
#define GP_WRITER_H

#include <stdbool.h>
#include <stdio.h>

#include "util/error.h"

struct gp_column {
	const char *key;      /* -c name and JSON key: "kernel" */
	const char *header;   /* table/CSV header: "Kernel" */
	int min_width;        /* table: narrowest width with -w */
	bool numeric;         /* right-aligned; JSON number when it parses */
	bool flex;            /* table -w: shares the width left over */
};

struct gp_writer_opts {
	int width;            /* table: total line width (-w), 0 = fit the data */
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
	void *priv;           /* format state */
};

/* Opens a writer for format "table", "csv", "tsv" or "json".  Fails with
** GP_ERR_USAGE naming the valid formats. */
int gp_writer_open(gp_writer *w, const char *format, FILE *out, const struct gp_column *cols,
		   int ncols, const struct gp_writer_opts *o, gp_error *err);
void gp_writer_row(gp_writer *w, const char *const *vals);
/* Finishes and flushes; GP_ERR_IO if any write to out failed. */
int gp_writer_close(gp_writer *w, gp_error *err);

/* Writes s as a quoted JSON string (escapes quotes, backslashes and
** control characters). */
void gp_json_string(FILE *out, const char *s);

/* Comma list of the format names, for --help. */
extern const char gp_writer_formats[];

/* Column selection shared by the commands: parses "a,b,c" against cols
** into idx[] (returns count) or fails with GP_ERR_USAGE listing the valid
** keys. */
int gp_columns_select(const struct gp_column *cols, int ncols, const char *list, int *idx,
		      int max, gp_error *err);

#endif
