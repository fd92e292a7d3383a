/*
** Integer formatting; see fmt.h.
*/
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

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

/* Appends s[0..n) at offset len of a buffer of size bytes, keeping room for
** the NUL; returns the new length of the whole text. */
static size_t put(char *buf, size_t size, size_t len, const char *s, size_t n)
{
	if (len + 1 < size)
		memcpy(buf + len, s, len + n < size ? n : size - 1 - len);
	return len + n;
}

static void terminate(char *buf, size_t size, size_t len)
{
	if (size)
		buf[len < size ? len : size - 1] = '\0';
}

/* gp_fmt_i64_list() without the NUL. */
static size_t put_list(char *buf, size_t size, size_t len, const int64_t *v, size_t n)
{
	char num[GP_FMT_INT_SIZE];

	for (size_t i = 0; i < n; i++) {
		if (i)
			len = put(buf, size, len, ",", 1);
		gp_fmt_i64(num, v[i]);
		len = put(buf, size, len, num, strlen(num));
	}
	return len;
}

size_t gp_fmt_i64_list(char *buf, size_t size, const int64_t *v, size_t n)
{
	size_t len = put_list(buf, size, 0, v, n);

	terminate(buf, size, len);
	return len;
}

size_t gp_fmt_shape(char *buf, size_t size, const int64_t *dims, size_t ndim)
{
	size_t len = put(buf, size, 0, "(", 1);

	len = put_list(buf, size, len, dims, ndim);
	len = ndim == 1 ? put(buf, size, len, ",)", 2) : put(buf, size, len, ")", 1);
	terminate(buf, size, len);
	return len;
}

/* The finest clock step noted (gp_fmt_note_clock), ns; 0: none yet. */
static int64_t clock_step;

void gp_fmt_note_clock(int64_t step_ns)
{
	int64_t now = __atomic_load_n(&clock_step, __ATOMIC_RELAXED);

	if (step_ns < 1)
		step_ns = 1;
	while ((now == 0 || step_ns < now) &&
	       !__atomic_compare_exchange_n(&clock_step, &now, step_ns, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/* The decimals a duration in units of unit ns shows: 3, fewer while a
** last digit would be finer than the clock step. */
static int duration_decimals(double unit)
{
	int64_t step = __atomic_load_n(&clock_step, __ATOMIC_RELAXED);
	int dec = 3;
	double digit = unit / 1000.0;   /* the last decimal's size in ns */

	while (dec > 0 && step > 1 && (double)step > digit) {
		dec--;
		digit *= 10.0;
	}
	return dec;
}

const char *gp_fmt_duration(double ns, char *buf, size_t size)
{
	if (ns < 1e3)
		snprintf(buf, size, "%.0f ns", ns);
	else if (ns < 1e6)
		snprintf(buf, size, "%.*f us", duration_decimals(1e3), ns / 1e3);
	else if (ns < 1e9)
		snprintf(buf, size, "%.*f ms", duration_decimals(1e6), ns / 1e6);
	else
		snprintf(buf, size, "%.*f s", duration_decimals(1e9), ns / 1e9);
	return buf;
}

const char *gp_fmt_bytes(double bytes, char *buf, size_t size)
{
	static const char *const unit[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
	int u = -1;

	if (bytes < 1024) {
		snprintf(buf, size, "%.0f B", bytes);
		return buf;
	}
	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, size, "%.2f %s", bytes, unit[u]);
	return buf;
}
