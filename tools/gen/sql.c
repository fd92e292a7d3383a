/*
** Writing a SQLite file fast for gpuprof-gen: one transaction, no
** journal, no fsync, prepared statements reused for every row.  See gen.h.
*/
#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"

int gen_create(const char *path, bool force, gp_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0 && errno == EEXIST && force) {
		if (unlink(path) != 0)
			return gp_err(err, GP_ERR_IO, "%s: cannot replace: %s", path, strerror(errno)), -1;
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	}
	if (fd < 0 && errno == EEXIST)
		return gp_err(err, GP_ERR_IO, "%s: already exists (use --force to replace it)", path), -1;
	if (fd < 0)
		return gp_err(err, GP_ERR_IO, "%s: cannot create: %s", path, strerror(errno)), -1;
	return fd;
}

static void fail(struct gen_db *g, const char *what)
{
	if (g->failed)
		return;
	g->failed = true;
	gp_err(&g->err, GP_ERR_IO, "%s: %s: %s", g->path, what,
	       g->db ? sqlite3_errmsg(g->db) : "out of memory");
}

void gen_db_exec(struct gen_db *g, const char *sql)
{
	if (!g->failed && sqlite3_exec(g->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail(g, "writing the schema");
}

int gen_db_open(struct gen_db *g, const char *path, bool force, const char *ddl, gp_error *err)
{
	int fd;

	memset(g, 0, sizeof(*g));
	g->path = path;
	fd = gen_create(path, force, err);
	if (fd < 0)
		return err->status;
	close(fd);   /* an empty file is an empty database to SQLite */
	if (sqlite3_open_v2(path, &g->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
		fail(g, "cannot open");
	gen_db_exec(g, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=8192; "
		       "PRAGMA cache_size=-65536; BEGIN");
	gen_db_exec(g, ddl);
	if (g->failed) {
		*err = g->err;
		sqlite3_close(g->db);
		unlink(path);
		return err->status;
	}
	return GP_OK;
}

sqlite3_stmt *gen_db_prepare(struct gen_db *g, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (g->failed || g->nstmts == GEN_DB_MAX_STMTS)
		return fail(g, "too many statements"), NULL;
	if (sqlite3_prepare_v2(g->db, sql, -1, &st, NULL) != SQLITE_OK) {
		fail(g, "preparing an insert");
		return NULL;
	}
	g->stmts[g->nstmts++] = st;
	return st;
}

void gen_db_row(struct gen_db *g, sqlite3_stmt *st, const char *types, ...)
{
	va_list ap;
	int col = 1;

	if (g->failed || !st)
		return;
	va_start(ap, types);
	for (const char *p = types; *p; p++, col++) {
		switch (*p) {
		case 'i':
			sqlite3_bind_int64(st, col, va_arg(ap, int64_t));
			break;
		case 't': {
			const char *s = va_arg(ap, const char *);
			if (s)
				sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, col);
			break;
		}
		case 'b': {
			const void *b = va_arg(ap, const void *);
			int len = va_arg(ap, int);
			sqlite3_bind_blob(st, col, b, len, SQLITE_STATIC);
			break;
		}
		default:
			sqlite3_bind_null(st, col);
			break;
		}
	}
	va_end(ap);
	if (sqlite3_step(st) != SQLITE_DONE)
		fail(g, "inserting a row");
	sqlite3_reset(st);
}

int gen_db_close(struct gen_db *g, const char *post, gp_error *err)
{
	if (post)
		gen_db_exec(g, post);
	for (int i = 0; i < g->nstmts; i++)
		sqlite3_finalize(g->stmts[i]);
	gen_db_exec(g, "COMMIT");
	if (sqlite3_close(g->db) != SQLITE_OK)
		fail(g, "closing");
	if (g->failed) {
		*err = g->err;
		unlink(g->path);
		return err->status;
	}
	return GP_OK;
}
