/*
** The Kineto reader's values: numbers arrive from yajl as raw text, so
** microsecond timestamps with fractions convert to integer nanoseconds
** without going through a double (integers: jsonutil.c).  See kineto_int.h.
*/
#include <stdlib.h>
#include <string.h>

#include "readers/kineto_int.h"

/* "1712195495519689.047", "12", "1.5e3": exact for plain decimals, digits
** past the third decimal rounding half up; exponent forms go through a
** double. */
bool kineto_parse_us_as_ns(const char *s, size_t n, int64_t *out)
{
	size_t i = 0;
	bool neg = false;
	uint64_t ip = 0, frac = 0;
	int fd = 0;
	bool round_up = false;

	if (i < n && s[i] == '-') {
		neg = true;
		i++;
	}
	size_t d0 = i;
	for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
		if (ip > 9223372036854775ULL)   /* ip * 1000 would overflow */
			return false;
		ip = ip * 10 + (uint64_t)(s[i] - '0');
	}
	if (i == d0)
		return false;
	if (i < n && s[i] == '.') {
		i++;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
			if (fd < 3) {
				frac = frac * 10 + (uint64_t)(s[i] - '0');
				fd++;
			} else if (fd == 3) {
				round_up = s[i] >= '5';
				fd++;
			}
		}
	}
	if (i < n) {
		/* exponent form: rare, so a double is fine */
		char tmp[64], *end;
		if (n >= sizeof(tmp))
			return false;
		memcpy(tmp, s, n);
		tmp[n] = '\0';
		double d = strtod(tmp, &end) * 1000.0;
		if (*end || !(d > -9.2e18 && d < 9.2e18))
			return false;
		*out = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
		return true;
	}
	while (fd < 3) {
		frac *= 10;
		fd++;
	}
	uint64_t v = ip * 1000 + frac + (round_up ? 1 : 0);
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

/* Strings past the table's end all share the id just below it. */
uint32_t kineto_synth_id(struct kineto_parser *p, const char *s, size_t n)
{
	if (n >= sizeof(p->synth[0]))
		n = sizeof(p->synth[0]) - 1;
	for (int i = 0; i < p->nsynth; i++)
		if (strlen(p->synth[i]) == n && memcmp(p->synth[i], s, n) == 0)
			return UINT32_MAX - (uint32_t)i;
	if (p->nsynth == KINETO_MAX_SYNTH_IDS)
		return UINT32_MAX - KINETO_MAX_SYNTH_IDS;
	memcpy(p->synth[p->nsynth], s, n);
	p->synth[p->nsynth][n] = '\0';
	return UINT32_MAX - (uint32_t)p->nsynth++;
}

/* Numbers (negative ones wrap, as they do in the files' own joins),
** "stream 7" and "25738" strings by their number; other strings ("Spans")
** and numbers that would meet the synthetic range by a synthetic id. */
uint32_t kineto_parse_thread_id(struct kineto_parser *p, const char *s, size_t n, bool is_string,
				bool *synth)
{
	int64_t v;
	const char *num = s;
	size_t len = n;

	if (is_string) {
		/* "stream 7", "thread 12": the trailing number */
		const char *sp = memchr(s, ' ', n);
		if (sp) {
			num = sp + 1;
			len = n - (size_t)(num - s);
		}
	}
	*synth = false;
	if (gp_json_i64(num, len, &v) && v >= INT32_MIN &&
	    v <= (int64_t)UINT32_MAX - KINETO_MAX_SYNTH_IDS - 1 && memchr(num, '.', len) == NULL)
		return (uint32_t)v;
	*synth = true;
	return kineto_synth_id(p, s, n);
}
