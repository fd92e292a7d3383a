/*
** Integer formatting; see fmt.h.
*/
#include "util/fmt.h"

char *gp_fmt_u64(char *buf, uint64_t v)
{
	char tmp[GP_FMT_INT_SIZE];
	int n = 0, i = 0;

	do {   /* digits, least significant first */
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		buf[i++] = tmp[--n];
	buf[i] = '\0';
	return buf;
}

char *gp_fmt_i64(char *buf, int64_t v)
{
	if (v >= 0)
		return gp_fmt_u64(buf, (uint64_t)v);
	buf[0] = '-';
	/* 0 - (uint64_t)v is |v| also for INT64_MIN, whose negation overflows. */
	gp_fmt_u64(buf + 1, 0 - (uint64_t)v);
	return buf;
}
