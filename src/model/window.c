/*
** Iteration ranges as text and as a span, shared by the correlation
** (attr_nvtx.c numbers them) and by readers that find a window's span
** before reading the rest; see window.h.
*/
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/window.h"

bool gp_iteration_text(const char *text, int64_t *num)
{
	static const char *const words[] = {"iteration", "iter", "profilerstep", "step"};
	size_t n = 0;
	char c0 = (char)(*text | 0x20);   /* ASCII lower case of the first byte */

	if (c0 != 'i' && c0 != 'p' && c0 != 's')   /* no word starts otherwise: most texts */
		return false;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]) && !n; i++)
		if (!strncasecmp(text, words[i], strlen(words[i])))
			n = strlen(words[i]);
	if (!n)
		return false;
	text += n;
	while (*text == ' ' || *text == '#' || *text == ':' || *text == '_' || *text == '=')
		text++;
	*num = -1;
	if (*text >= '0' && *text <= '9') {
		char *end;
		long long v = strtoll(text, &end, 10);
		if (*end || v > INT32_MAX)
			return false;
		*num = v;
		return true;
	}
	return *text == '\0';
}

static int cmp_range(const void *a, const void *b)
{
	return gp_range_cmp(a, b);
}

bool gp_iteration_ranges_span(const gp_trace *t, const struct gp_range *v, size_t n, int32_t a,
			      int32_t b, gp_ns *lo, gp_ns *hi)
{
	struct gp_range *its = gp_xmalloc((n ? n : 1) * sizeof(*its));
	size_t m = 0;
	int32_t next = 0;
	int64_t num;
	bool any = false;

	for (size_t i = 0; i < n; i++)
		if ((v[i].kind == GP_RANGE_PUSHPOP || v[i].kind == GP_RANGE_STARTEND) &&
		    gp_iteration_text(gp_s(t, v[i].text), &num))
			its[m++] = v[i];
	qsort(its, m, sizeof(*its), cmp_range);
	for (size_t i = 0; i < m; i++) {
		const struct gp_range *r = &its[i];
		if (i == 0 || gp_thread_cmp(r->pid, r->tid, its[i - 1].pid, its[i - 1].tid))
			next = 0;
		gp_iteration_text(gp_s(t, r->text), &num);
		int32_t it = num >= 0 ? (int32_t)num : next;
		next = it + 1;
		if (it < a || it > b)
			continue;
		if (!any || r->start < *lo)
			*lo = r->start;
		if (!any || r->end > *hi)
			*hi = r->end;
		any = true;
	}
	free(its);
	return any;
}
