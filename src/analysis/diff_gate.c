/*
** The CI gate of `gpuprof diff` (--fail-if, diff.h, docs/diff.md "The CI
** gate"): a limit parsed once, then matched against the compared rows.
** Kept apart from the comparison (diff.c): it reads only its rows.
*/
#include <ctype.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"

/* A limit: "+5%", "-10%", "+1ms", "200us", "3s", "1500ns" (sign optional). */
static bool parse_limit(const char *s, struct gp_diff_gate *g)
{
	static const struct { const char *unit; double ns; } units[] = {
		{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9},
	};
	char *end;
	double v;

	if (!*s || isspace((unsigned char)*s))
		return false;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return false;
	if (strcmp(end, "%") == 0) {
		g->relative = true;
		g->limit = v / 100;
		return true;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].unit) == 0) {
			g->relative = false;
			g->limit = v * units[i].ns;
			return true;
		}
	return false;
}

int gp_diff_gate_parse(const char *text, struct gp_diff_gate *g, gp_error *err)
{
	const char *cmp = NULL;
	size_t len;

	memset(g, 0, sizeof(*g));
	g->text = text;
	/* the comparison is the last '<' or '>' followed by a valid limit:
	** kernel names hold template brackets */
	for (const char *p = text + strlen(text); p > text;) {
		p--;
		if ((*p == '<' || *p == '>') && parse_limit(p + 1, g)) {
			cmp = p;
			break;
		}
	}
	if (!cmp)
		return gp_err(err, GP_ERR_USAGE, "bad --fail-if '%s': no '>LIMIT' or '<LIMIT' at its end "
			      "(a LIMIT is like +5%%, -10%%, +2ms)", text);
	g->above = *cmp == '>';
	len = (size_t)(cmp - text);
	if (len == 4 && strncmp(text, "step", 4) == 0) {
		g->target = GP_GATE_STEP;
		return 0;
	}
	if (len == 5 && strncmp(text, "total", 5) == 0) {
		g->target = GP_GATE_TOTAL;
		return 0;
	}
	for (int i = 0; i < GP_DIFF_NBY; i++) {
		size_t k = strlen(gp_diff_by_names[i]);
		if (len > k + 1 && strncmp(text, gp_diff_by_names[i], k) == 0 && text[k] == ':') {
			if (len - k - 1 >= sizeof(g->pattern))
				return gp_err(err, GP_ERR_USAGE, "bad --fail-if '%s': the pattern is too long", text);
			g->target = GP_GATE_GROUP;
			g->by = i;
			memcpy(g->pattern, text + k + 1, len - k - 1);
			g->pattern[len - k - 1] = '\0';
			return 0;
		}
	}
	return gp_err(err, GP_ERR_USAGE, "bad --fail-if '%s': it starts with step, total, kernel:PATTERN, "
		      "op:PATTERN, layer:PATTERN, iter:PATTERN or rank:PATTERN", text);
}

/* Whether row r is the one g speaks of. */
static bool gate_matches(const struct gp_diff *d, const struct gp_diff_gate *g, const struct gp_diff_row *r)
{
	if (g->target == GP_GATE_STEP)
		return r->kind == GP_DIFF_ROW_STEP;
	if (g->target == GP_GATE_TOTAL)
		return r->kind == GP_DIFF_ROW_TOTAL;
	return r->kind == GP_DIFF_ROW_GROUP &&
	       (fnmatch(g->pattern, gp_strtab_get(&d->strs, r->name), 0) == 0 ||
		fnmatch(g->pattern, gp_strtab_get(&d->strs, r->key), 0) == 0);
}

const struct gp_diff_row *gp_diff_gate_next(const struct gp_diff *d, const struct gp_diff_gate *g,
					    bool respect_noise, size_t *from)
{
	for (size_t i = *from; i < d->n; i++) {
		const struct gp_diff_row *r = &d->rows[i];
		double v;
		if (!gate_matches(d, g, r))
			continue;
		v = g->relative ? r->rel : r->change;
		if (!(g->above ? v > g->limit : v < g->limit))
			continue;
		if (respect_noise && r->has_ci && !(r->ci_lo > 0 || r->ci_hi < 0))
			continue;
		*from = i + 1;
		return r;
	}
	*from = d->n;
	return NULL;
}
