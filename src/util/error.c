/*
** Error values: see error.h.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

int gp_err_prefix(gp_error *err, const char *fmt, ...)
{
	char prefix[512], old[sizeof(err->msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* truncation is fine: the message stays readable */
	size_t n = strlen(prefix);
	if (n > sizeof(err->msg) - 3)
		n = sizeof(err->msg) - 3;
	memcpy(err->msg, prefix, n);
	memcpy(err->msg + n, ": ", 2);
	size_t rest = sizeof(err->msg) - n - 3;
	size_t m = strnlen(old, rest);
	memcpy(err->msg + n + 2, old, m);
	err->msg[n + 2 + m] = '\0';
	return err->status;
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
