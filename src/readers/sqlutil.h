/*
** SQLite helpers shared by the nsys and nvprof readers.
**
** Ownership: gp_sql_open() returns a read-only connection the caller closes
** with sqlite3_close(); statements from gp_sql_prepare() are finalized by
** the caller.
*/
#ifndef GP_SQLUTIL_H
#define GP_SQLUTIL_H

#include <sqlite3.h>
#include <stdbool.h>

#include "util/error.h"

/* True when the first bytes are SQLite's file header. */
bool gp_sql_is_sqlite(const unsigned char *head, unsigned long len);

/* Opens path read-only (immutable: never writes a journal next to a trace
** copied read-only from a cluster). */
int gp_sql_open(const char *path, sqlite3 **db, gp_error *err);

/* True if the table exists. */
bool gp_sql_has_table(sqlite3 *db, const char *table);

/* True if the table exists and has the column. */
bool gp_sql_has_column(sqlite3 *db, const char *table, const char *column);

/* Prepares sql; on failure fills err with path, SQLite's message and the
** statement's purpose. */
int gp_sql_prepare(sqlite3 *db, const char *path, const char *purpose, const char *sql,
		   sqlite3_stmt **st, gp_error *err);

/* After a sqlite3_step() loop: GP_OK if rc is SQLITE_DONE, else a
** GP_ERR_CORRUPT error naming path and purpose ("database disk image is
** malformed" for a truncated file). */
int gp_sql_done(sqlite3 *db, int rc, const char *path, const char *purpose, gp_error *err);

/* Column text or "" for NULL. */
const char *gp_sql_text(sqlite3_stmt *st, int col);

#endif
