/*
** Errors carried from library code to the CLI.
**
** Ownership: a gp_error is a plain value owned by the caller; functions that
** can fail take a `gp_error *err` (never NULL) and fill it on failure.  Only
** src/cmds/ and src/main.c print errors and choose exit codes.
*/
#ifndef GP_ERROR_H
#define GP_ERROR_H

enum gp_status {
	GP_OK = 0,
	GP_ERR_IO,       /* cannot open, read or write a file */
	GP_ERR_FORMAT,   /* the input is not a trace any reader recognises */
	GP_ERR_CORRUPT,  /* recognised, but damaged or inconsistent */
	GP_ERR_USAGE,    /* bad option or argument */
	GP_ERR_INTERNAL, /* a bug or an impossible state */
};

/* Documented process exit codes (README "Exit codes"). */
enum gp_exit {
	GP_EXIT_OK = 0,
	GP_EXIT_FAIL = 1,    /* internal error, out of memory */
	GP_EXIT_USAGE = 2,   /* bad command line */
	GP_EXIT_IO = 3,      /* cannot read the input or write the output */
	GP_EXIT_FORMAT = 4,  /* input not recognised, truncated or corrupt */
	GP_EXIT_GATE = 5,    /* diff: a --fail-if limit was crossed */
};

typedef struct gp_error {
	enum gp_status status;
	char msg[1024];
} gp_error;

/* Sets err (status + printf-style message) and returns status, so a caller
** can write `return gp_err(err, GP_ERR_IO, "...")`. */
int gp_err(gp_error *err, enum gp_status status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Maps a status to the documented exit code. */
int gp_exit_code(enum gp_status status);

/* Prints "gpuprof: <msg>" to stderr. */
void gp_err_print(const gp_error *err);

#endif
