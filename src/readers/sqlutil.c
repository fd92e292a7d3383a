/*
** SQLite helpers; see sqlutil.h.
*/
#include <stdio.h>
#include <string.h>

#include "readers/sqlutil.h"

bool gp_sql_is_sqlite(const unsigned char *head, unsigned long len)
{
	return len >= 16 && memcmp(head, "SQLite format 3", 16) == 0;
}

int gp_sql_open(const char *path, sqlite3 **db, gp_error *err)
{
	char uri[4096 + 64];
	int rc;

	/* immutable=1 skips locking and journals; the URI needs % escapes only
	** for '?', '#' and '%', which we escape. */
	size_t n = 0;
	n += (size_t)snprintf(uri, sizeof(uri), "file:");
	for (const char *p = path; *p && n + 4 < sizeof(uri) - 32; p++) {
		if (*p == '?' || *p == '#' || *p == '%')
			n += (size_t)snprintf(uri + n, sizeof(uri) - n, "%%%02X", (unsigned char)*p);
		else
			uri[n++] = *p;
	}
	snprintf(uri + n, sizeof(uri) - n, "?immutable=1");
	/* one connection, one thread: no need for SQLite's per-call mutex */
	rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK) {
		gp_err(err, GP_ERR_IO, "%s: cannot open SQLite database: %s", path,
		       *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
		sqlite3_close(*db);
		*db = NULL;
		return err->status;
	}
	return GP_OK;
}

bool gp_sql_has_table(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st;
	bool found = false;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

bool gp_sql_has_column(sqlite3 *db, const char *table, const char *column)
{
	sqlite3_stmt *st;
	bool found = false;
	char sql[256];

	snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return false;
	while (!found && sqlite3_step(st) == SQLITE_ROW)
		found = strcmp(gp_sql_text(st, 1), column) == 0;
	sqlite3_finalize(st);
	return found;
}

int gp_sql_prepare(sqlite3 *db, const char *path, const char *purpose, const char *sql,
		   sqlite3_stmt **st, gp_error *err)
{
	int rc = sqlite3_prepare_v2(db, sql, -1, st, NULL);

	if (rc == SQLITE_OK)
		return GP_OK;
	return gp_err(err, rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT ? GP_ERR_CORRUPT : GP_ERR_FORMAT,
		      "%s: cannot read %s: %s", path, purpose, sqlite3_errmsg(db));
}

int gp_sql_done(sqlite3 *db, int rc, const char *path, const char *purpose, gp_error *err)
{
	if (rc == SQLITE_DONE)
		return GP_OK;
	return gp_err(err, rc == SQLITE_IOERR ? GP_ERR_IO : GP_ERR_CORRUPT,
		      "%s: error while reading %s: %s (file truncated or damaged?)", path, purpose,
		      sqlite3_errmsg(db));
}

const char *gp_sql_text(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? (const char *)s : "";
}
