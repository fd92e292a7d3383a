/*
** SQLite helpers; see sqlutil.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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

/* The size the SQLite header declares (page size x page count), or 0 when
** the header does not vouch for it (its change counter and
** version-valid-for differ, as after an old SQLite wrote it). */
static uint64_t declared_size(const unsigned char *h, size_t len)
{
#define BE32(p) ((uint32_t)(p)[0] << 24 | (uint32_t)(p)[1] << 16 | (uint32_t)(p)[2] << 8 | (p)[3])
	uint32_t page;

	if (len < 100 || BE32(h + 24) != BE32(h + 92))
		return 0;
	page = (uint32_t)h[16] << 8 | h[17];
	return (uint64_t)(page == 1 ? 65536 : page) * BE32(h + 28);
#undef BE32
}

static uint64_t file_size(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && sb.st_size > 0 ? (uint64_t)sb.st_size : 0;
}

/* Reads the whole table list: SQLite reads the schema lazily, and a
** truncated or damaged one would otherwise look like missing tables. */
static int read_schema(sqlite3 *db, const char *path, gp_error *err)
{
	static const char purpose[] = "the table list";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master", -1, &st, NULL) != SQLITE_OK)
		return gp_err(err, GP_ERR_CORRUPT, "%s: cannot read %s: %s", path, purpose, sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	return gp_sql_finish(db, st, rc, path, purpose, err);
}

int gp_sql_open_whole(const char *path, sqlite3 **db, uint64_t *size, gp_error *err)
{
	unsigned char head[100];
	uint64_t declared = 0, have = file_size(path);
	FILE *f;
	int rc;

	*db = NULL;
	if (size)
		*size = have;
	if ((f = fopen(path, "rb"))) {
		declared = declared_size(head, fread(head, 1, sizeof(head), f));
		fclose(f);
	}
	if (declared > have)
		return gp_err(err, GP_ERR_CORRUPT, "%s: truncated SQLite database: its header says %" PRIu64
			      " bytes, the file has %" PRIu64 " (copy incomplete?)", path, declared, have);
	if ((rc = gp_sql_open(path, db, err)))
		return rc;
	if ((rc = read_schema(*db, path, err))) {
		sqlite3_close(*db);
		*db = NULL;
	}
	return rc;
}

enum gp_sql_probe gp_sql_probe_open(const struct gp_probe_input *in, sqlite3 **db)
{
	gp_error err;

	*db = NULL;
	if (in->gzip || !gp_sql_is_sqlite(in->head, in->head_len))
		return GP_SQL_UNREADABLE;
	if (declared_size(in->head, in->head_len) > file_size(in->path))
		return GP_SQL_DAMAGED;
	if (gp_sql_open(in->path, db, &err))
		return GP_SQL_UNREADABLE;
	if (read_schema(*db, in->path, &err)) {
		sqlite3_close(*db);
		*db = NULL;
		return GP_SQL_DAMAGED;
	}
	return GP_SQL_WHOLE;
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

int gp_sql_select(sqlite3 *db, const char *path, const char *table, const char *purpose,
		  const char *const *cols, int ncols, int nreq, sqlite3_stmt **st, gp_error *err)
{
	bool have[GP_SQL_MAX_COLS] = {false};
	sqlite3_stmt *ti;
	char sql[2048];
	size_t n;
	int rc;

	*st = NULL;
	if (ncols > GP_SQL_MAX_COLS)
		return gp_err(err, GP_ERR_INTERNAL, "%s: cannot read %s: %d columns asked, at most %d",
			      path, purpose, ncols, GP_SQL_MAX_COLS);
	if (!gp_sql_has_table(db, table))
		return GP_OK;
	snprintf(sql, sizeof(sql), "PRAGMA table_info(\"%s\")", table);
	if ((rc = gp_sql_prepare(db, path, purpose, sql, &ti, err)))
		return rc;
	while ((rc = sqlite3_step(ti)) == SQLITE_ROW) {
		const char *name = gp_sql_text(ti, 1);
		for (int i = 0; i < ncols; i++)
			if (strcmp(cols[i], name) == 0)
				have[i] = true;
	}
	if ((rc = gp_sql_finish(db, ti, rc, path, purpose, err)))
		return rc;

	n = (size_t)snprintf(sql, sizeof(sql), "SELECT ");
	for (int i = 0; i < ncols; i++) {
		if (!have[i] && i < nreq)
			return gp_err(err, GP_ERR_CORRUPT, "%s: cannot read %s: table %s has no column '%s'",
				      path, purpose, table, cols[i]);
		n += (size_t)snprintf(sql + n, sizeof(sql) - n, "%s%s%s%s", i ? ", " : "",
				      have[i] ? "\"" : "", have[i] ? cols[i] : "NULL", have[i] ? "\"" : "");
	}
	snprintf(sql + n, sizeof(sql) - n, " FROM \"%s\"", table);
	return gp_sql_prepare(db, path, purpose, sql, st, err);
}

int gp_sql_done(sqlite3 *db, int rc, const char *path, const char *purpose, gp_error *err)
{
	if (rc == SQLITE_DONE)
		return GP_OK;
	return gp_err(err, rc == SQLITE_IOERR ? GP_ERR_IO : GP_ERR_CORRUPT,
		      "%s: error while reading %s: %s (file truncated or damaged?)", path, purpose,
		      sqlite3_errmsg(db));
}

int gp_sql_finish(sqlite3 *db, sqlite3_stmt *st, int rc, const char *path, const char *purpose,
		  gp_error *err)
{
	/* the message first: it is the step's, finalizing may replace it */
	rc = gp_sql_done(db, rc, path, purpose, err);
	sqlite3_finalize(st);
	return rc;
}

const char *gp_sql_text(sqlite3_stmt *st, int col)
{
	const unsigned char *s = sqlite3_column_text(st, col);
	return s ? (const char *)s : "";
}
