/*
** Error values: see error.h.
*/
#include <stdarg.h>
#include <stdio.h>

#include "util/error.h"

int gp_err(gp_error *err, enum gp_status status, const char *fmt, ...)
{
	va_list ap;

	err->status = status;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return status;
}

int gp_exit_code(enum gp_status status)
{
	switch (status) {
	case GP_OK: return GP_EXIT_OK;
	case GP_ERR_IO: return GP_EXIT_IO;
	case GP_ERR_FORMAT:
	case GP_ERR_CORRUPT: return GP_EXIT_FORMAT;
	case GP_ERR_USAGE: return GP_EXIT_USAGE;
	case GP_ERR_INTERNAL: break;
	}
	return GP_EXIT_FAIL;
}

void gp_err_print(const gp_error *err)
{
	fprintf(stderr, "gpuprof: %s\n", err->msg[0] ? err->msg : "unknown error");
}
