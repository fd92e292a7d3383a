/*
** JSON helpers of the streaming JSON readers.  See jsonutil.h.
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/chars.h"
#include "readers/jsonutil.h"

bool gp_json_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (n == 0)
		return false;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < n; i++) {
			int d = gp_hex_digit(s[i]);
			if (d < 0)
				return false;
			v = v * 16 + (uint64_t)d;
		}
		*out = v;
		return true;
	}
	/* 19 digits cannot overflow (10^19 - 1 < 2^64): only later ones are checked */
	for (; i < n && i < 19 && s[i] >= '0' && s[i] <= '9'; i++)
		v = v * 10 + (uint64_t)(s[i] - '0');
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return false;
	if (i == n) {
		*out = v;
		return true;
	}
	char tmp[64], *end;
	if (n >= sizeof(tmp))
		return false;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	double d = strtod(tmp, &end);
	if (*end || !(d >= 0) || d >= 18446744073709551616.0)
		return false;
	*out = (uint64_t)d;
	return true;
}

bool gp_json_i64(const char *s, size_t n, int64_t *out)
{
	uint64_t v;

	if (n && s[0] == '-') {
		if (!gp_json_u64(s + 1, n - 1, &v) || v > (uint64_t)INT64_MAX + 1)
			return false;
		*out = (int64_t)(0 - v);
		return true;
	}
	if (!gp_json_u64(s, n, &v) || v > (uint64_t)INT64_MAX)
		return false;
	*out = (int64_t)v;
	return true;
}

void gp_json_yajl_error(yajl_handle h, char *buf, size_t size)
{
	unsigned char *m = yajl_get_error(h, 0, NULL, 0);
	size_t l;

	snprintf(buf, size, "%s", (const char *)m);
	yajl_free_error(h, m);
	for (char *c = buf; *c; c++)
		if (*c == '\n')
			*c = ' ';
	for (l = strlen(buf); l && buf[l - 1] == ' '; l--)
		buf[l - 1] = '\0';
}

int gp_json_err_at(gp_error *err, uint64_t offset)
{
	size_t l = strlen(err->msg);

	snprintf(err->msg + l, sizeof(err->msg) - l, " (byte offset %" PRIu64 ")", offset);
	return err->status;
}
