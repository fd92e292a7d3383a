/*
** The collector's line buffer (buf.h).
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* Makes room for n more bytes (plus a NUL); false (and .oom) when it cannot. */
static bool reserve(struct gpc_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 4096;
	char *d;

	if (b->oom)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	while (cap < b->len + n + 1)
		cap *= 2;
	d = realloc(b->data, cap);
	if (!d) {
		b->oom = true;
		return false;
	}
	b->data = d;
	b->cap = cap;
	return true;
}

void gpc_buf_printf(struct gpc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void gpc_buf_escaped(struct gpc_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (!reserve(b, 2 * n))
		return;
	for (size_t i = 0; i < n; i++) {
		char c = s[i], *o = b->data + b->len;
		switch (c) {
		case '\\': o[0] = '\\'; o[1] = '\\'; b->len += 2; break;
		case '\t': o[0] = '\\'; o[1] = 't'; b->len += 2; break;
		case '\n': o[0] = '\\'; o[1] = 'n'; b->len += 2; break;
		case '\r': o[0] = '\\'; o[1] = 'r'; b->len += 2; break;
		default: o[0] = c; b->len++; break;
		}
	}
	b->data[b->len] = '\0';
}

void gpc_buf_endline(struct gpc_buf *b)
{
	if (!reserve(b, 1))
		return;
	b->data[b->len++] = '\n';
	b->data[b->len] = '\0';
	b->lines++;
}

void gpc_buf_reset(struct gpc_buf *b)
{
	b->len = 0;
	b->lines = 0;
	b->oom = false;
}

void gpc_buf_free(struct gpc_buf *b)
{
	free(b->data);
	*b = (struct gpc_buf){0};
}
