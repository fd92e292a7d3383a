/*
** SQLite helpers shared by the nsys and nvprof readers: opening a file and
** checking that it is whole (one truncated/damaged diagnosis for both),
** table and column presence, SELECTs with required and optional columns,
** the end of a row loop, column access.  Messages name the file and what
** was being read.
**
** Ownership: gp_sql_open(), gp_sql_open_whole() and gp_sql_probe_open()
** return a read-only connection the caller closes with sqlite3_close();
** statements from gp_sql_prepare() and gp_sql_select() are finalized by
** the caller (gp_sql_finish() does it at the end of a row loop).
*/
#ifndef GP_SQLUTIL_H
#define GP_SQLUTIL_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "readers/reader.h"
#include "util/error.h"

/* True when the first bytes are SQLite's file header. */
bool gp_sql_is_sqlite(const unsigned char *head, unsigned long len);

/* Opens path read-only (immutable: never writes a journal next to a trace
** copied read-only from a cluster). */
int gp_sql_open(const char *path, sqlite3 **db, gp_error *err);

/* gp_sql_open() for a reader's load, after checking that the file is
** whole: GP_ERR_CORRUPT "PATH: truncated SQLite database: its header says
** N bytes, the file has M (copy incomplete?)" when the file is shorter
** than its header says, and "PATH: cannot read the table list: ..." (or
** "error while reading the table list: ...") when SQLite cannot read the
** whole schema, where gp_sql_has_table() would only say "no".  *size
** (when not NULL) gets the file's size in bytes. */
int gp_sql_open_whole(const char *path, sqlite3 **db, uint64_t *size, gp_error *err);

/* What a reader's probe learns from gp_sql_probe_open(). */
enum gp_sql_probe {
	GP_SQL_UNREADABLE,   /* not SQLite, or SQLite cannot open it: not ours */
	GP_SQL_DAMAGED,      /* truncated or unreadable schema: claim it weakly, so
			     ** that its load says what is wrong rather than "not a trace" */
	GP_SQL_WHOLE,        /* *db is open: look for the reader's tables */
};

/* The probe-time form of gp_sql_open_whole().  *db is set (and must be
** closed) only for GP_SQL_WHOLE. */
enum gp_sql_probe gp_sql_probe_open(const struct gp_probe_input *in, sqlite3 **db);

/* True if the table exists. */
bool gp_sql_has_table(sqlite3 *db, const char *table);

/* True if the table exists and has the column. */
bool gp_sql_has_column(sqlite3 *db, const char *table, const char *column);

/* Prepares sql; on failure fills err with path, SQLite's message and the
** statement's purpose. */
int gp_sql_prepare(sqlite3 *db, const char *path, const char *purpose, const char *sql,
		   sqlite3_stmt **st, gp_error *err);

#define GP_SQL_MAX_COLS 32
#define GP_SQL_NCOLS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Prepares `SELECT cols FROM table` (at most GP_SQL_MAX_COLS columns).  The
** first nreq columns are required: GP_ERR_CORRUPT "PATH: cannot read
** PURPOSE: table T has no column 'C'" when one is missing; a missing
** optional column is selected as NULL, so the result always has ncols
** columns in the given order.  Sets *st to NULL (and returns GP_OK) when the
** table does not exist: exports leave out empty tables. */
int gp_sql_select(sqlite3 *db, const char *path, const char *table, const char *purpose,
		  const char *const *cols, int ncols, int nreq, sqlite3_stmt **st, gp_error *err);

/* After a sqlite3_step() loop: GP_OK if rc is SQLITE_DONE, else a
** GP_ERR_CORRUPT error naming path and purpose ("database disk image is
** malformed" for a truncated file). */
int gp_sql_done(sqlite3 *db, int rc, const char *path, const char *purpose, gp_error *err);

/* gp_sql_done(), then finalizes st. */
int gp_sql_finish(sqlite3 *db, sqlite3_stmt *st, int rc, const char *path, const char *purpose,
		  gp_error *err);

/* Column values; NULL reads as 0 (or ""). */
const char *gp_sql_text(sqlite3_stmt *st, int col);

static inline int64_t gp_sql_i64(sqlite3_stmt *st, int col)
{
	return sqlite3_column_int64(st, col);
}

/* The low 32 bits (ids CUPTI stores as signed 32-bit: thread, stream). */
static inline uint32_t gp_sql_u32(sqlite3_stmt *st, int col)
{
	return (uint32_t)sqlite3_column_int64(st, col);
}

static inline bool gp_sql_is_null(sqlite3_stmt *st, int col)
{
	return sqlite3_column_type(st, col) == SQLITE_NULL;
}

/* gp_sql_is_null() of a column whose gp_sql_i64() is v: only a 0 can be a
** NULL, so a row's other values skip the type call (a call into SQLite
** per column and row of the large tables). */
static inline bool gp_sql_null_at0(sqlite3_stmt *st, int col, int64_t v)
{
	return v == 0 && sqlite3_column_type(st, col) == SQLITE_NULL;
}

#endif
