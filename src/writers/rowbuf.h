/*
** Rows kept instead of written: a command's rows for one trace file,
** made on a worker thread (or another MPI process) and written later, in
** rank order, through a real row writer with a leading rank column.  The
** rows are kept in their wire form (docs/ranks.md, "Record encoding"),
** so a buffer is also what travels between MPI processes:
**   per row: ncols cells; a cell is 0x00 (unknown, NULL) or 0x01 followed
**   by the text and a terminating 0x00.
**
** Ownership: a gp_rowbuf owns its bytes (gp_rowbuf_free); the writer that
** fills it (gp_rowbuf_writer) points to it and must not outlive it.
*/
#ifndef GP_ROWBUF_H
#define GP_ROWBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/error.h"
#include "writers/writer.h"

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
