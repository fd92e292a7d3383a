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

void gpc_buf_str(struct gpc_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n + 1);
	b->len += n;
}

/* Appends a TAB, '-' if negative, and v in decimal, two digits a step. */
static void put_decimal(struct gpc_buf *b, uint64_t v, bool negative)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char tmp[20], *p = tmp + sizeof(tmp);
	size_t n;

	if (!reserve(b, 22))
		return;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	n = (size_t)(tmp + sizeof(tmp) - p);
	b->data[b->len++] = '\t';
	if (negative)
		b->data[b->len++] = '-';
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void gpc_buf_u64(struct gpc_buf *b, uint64_t v)
{
	put_decimal(b, v, false);
}

void gpc_buf_i64(struct gpc_buf *b, int64_t v)
{
	put_decimal(b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0);
}

void gpc_buf_hex32(struct gpc_buf *b, uint32_t v)
{
	static const char digits[] = "0123456789abcdef";

	if (!reserve(b, 9))
		return;
	b->data[b->len++] = '\t';
	for (int shift = 28; shift >= 0; shift -= 4)
		b->data[b->len++] = digits[(v >> shift) & 0xf];
	b->data[b->len] = '\0';
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
