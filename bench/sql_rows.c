/*
** Floor for the SQLite readers (bench/large.sh, docs/PERFORMANCE.md): runs
** the SELECTs of bench/nsys_read.sql or bench/nvprof_read.sql (the tables
** and columns src/readers/nsys.c and nvprof.c read) and steps every row,
** reading every column as its type says (integers and floats as numbers,
** text as bytes), the way the readers do, and keeping nothing.  The sqlite3
** shell on the same file also formats and prints every value; this does
** only what a reader cannot avoid.  Statements whose tables the file lacks
** are skipped, as the readers skip them.
**
** Build: cc -O2 -o sql_rows bench/sql_rows.c -lsqlite3
** Usage: sql_rows DB SQLFILE   (prints rows and a checksum of the values)
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>

/* The whole of path, NUL-terminated (the caller frees it), or NULL. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (s = malloc((size_t)n + 1)) != NULL) {
		if (fread(s, 1, (size_t)n, f) != (size_t)n) {
			free(s);
			s = NULL;
		} else {
			s[n] = '\0';
		}
	}
	fclose(f);
	return s;
}

int main(int argc, char **argv)
{
	sqlite3 *db;
	char *sql;
	const char *next;
	uint64_t rows = 0, sum = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: sql_rows DB SQLFILE\n");
		return 2;
	}
	if (sqlite3_open_v2(argv[1], &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", argv[1], sqlite3_errmsg(db));
		return 3;
	}
	if (!(sql = slurp(argv[2]))) {
		perror(argv[2]);
		return 3;
	}
	for (next = sql; *next;) {
		sqlite3_stmt *st = NULL;
		const char *cur = next;
		if (sqlite3_prepare_v2(db, cur, -1, &st, &next) != SQLITE_OK) {
			/* a table this file lacks: skip to the next statement */
			const char *semi = strchr(cur, ';');
			if (!semi)
				break;
			next = semi + 1;
			continue;
		}
		if (!st)
			break;   /* only comments and spaces left */
		int ncol = sqlite3_column_count(st);
		while (sqlite3_step(st) == SQLITE_ROW) {
			rows++;
			for (int c = 0; c < ncol; c++) {
				switch (sqlite3_column_type(st, c)) {
				case SQLITE_INTEGER:
					sum += (uint64_t)sqlite3_column_int64(st, c);
					break;
				case SQLITE_FLOAT:
					sum += (uint64_t)sqlite3_column_double(st, c);
					break;
				case SQLITE_TEXT:
					sum += (uint64_t)sqlite3_column_bytes(st, c) +
					       (uint64_t)sqlite3_column_text(st, c)[0];
					break;
				default:
					break;
				}
			}
		}
		sqlite3_finalize(st);
	}
	printf("%llu rows, checksum %llu\n", (unsigned long long)rows, (unsigned long long)sum);
	free(sql);
	sqlite3_close(db);
	return 0;
}
