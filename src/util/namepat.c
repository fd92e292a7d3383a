/*
** Kernel-name patterns; see namepat.h.
*/
#include <stdio.h>
#include <string.h>

#include "util/namepat.h"

/* Whether s[0..n) equals t[0..n), '#' in t matching one digit. */
static bool same(const char *s, const char *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i] == '#' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != t[i])
			return false;
	return true;
}

static bool ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
}

/* Whether text t[0..n) occurs in s (op GP_NP_SUB), starts it or is it; a
** text that starts with '@' occurs only where a word starts. */
static bool one(const char *s, size_t slen, const char *t, size_t n, int op)
{
	bool word = n && t[0] == '@';

	if (word) {
		t++;
		n--;
	}
	if (n > slen)
		return false;
	if (op == GP_NP_EXACT)
		return n == slen && same(s, t, n);
	if (op == GP_NP_PREFIX)
		return same(s, t, n);
	if (!n)
		return true;
	for (size_t i = 0; i + n <= slen; i++) {
		/* a first character that is no '#' is found fast */
		if (t[0] != '#') {
			const char *p = memchr(s + i, t[0], slen - n - i + 1);
			if (!p)
				return false;
			i = (size_t)(p - s);
		}
		if ((!word || i == 0 || !ident(s[i - 1])) && same(s + i, t, n))
			return true;
	}
	return false;
}

bool gp_namepat_any(const char *s, const char *alts, size_t len, int op)
{
	size_t slen = strlen(s);
	const char *p = alts, *end = alts + len;

	while (p <= end) {
		const char *bar = memchr(p, '|', (size_t)(end - p));
		const char *e = bar ? bar : end;
		if (one(s, slen, p, (size_t)(e - p), op))
			return true;
		p = e + 1;
	}
	return false;
}

bool gp_namepat_compile(const char *text, struct gp_namepat *p, char *why, size_t size)
{
	const char *s = text;

	memset(p, 0, sizeof(*p));
	if (!text || !*text) {
		snprintf(why, size, "an empty pattern");
		return false;
	}
	for (;;) {
		struct gp_namecond *c = &p->c[p->n];
		const char *amp = strstr(s, " & ");
		size_t n = amp ? (size_t)(amp - s) : strlen(s);
		if (p->n == GP_NAMEPAT_MAX) {
			snprintf(why, size, "more than %d conditions", GP_NAMEPAT_MAX);
			return false;
		}
		c->neg = *s == '!';
		if (c->neg) {
			s++;
			n--;
		}
		if (n >= 5 && strncmp(s, "name", 4) == 0) {
			c->field = GP_NP_NAME;
		} else if (n >= 5 && strncmp(s, "full", 4) == 0) {
			c->field = GP_NP_FULL;
		} else {
			snprintf(why, size, "'%.*s': a condition starts with name or full", (int)(n < 40 ? n : 40), s);
			return false;
		}
		switch (s[4]) {
		case '^': c->op = GP_NP_PREFIX; break;
		case '=': c->op = GP_NP_EXACT; break;
		case '~': c->op = GP_NP_SUB; break;
		default:
			snprintf(why, size, "'%.*s': after %.4s comes ^ (starts with), = (is) or ~ (contains)",
				 (int)(n < 40 ? n : 40), s, s);
			return false;
		}
		c->alts = s + 5;
		if (n - 5 > UINT16_MAX || n == 5) {
			snprintf(why, size, "'%.*s': %s text", (int)(n < 40 ? n : 40), s, n == 5 ? "no" : "too long a");
			return false;
		}
		c->len = (uint16_t)(n - 5);
		for (size_t i = 0; i < c->len; i++)
			if (c->alts[i] == ' ' || c->alts[i] == '\t') {
				snprintf(why, size, "'%.*s': a blank inside a condition (conditions are joined by ' & ')",
					 (int)(n < 40 ? n : 40), s);
				return false;
			}
		p->n++;
		if (!amp)
			return true;
		s = amp + 3;
	}
}

bool gp_namepat_match(const struct gp_namepat *p, const char *short_name, const char *full_name)
{
	const char *name = short_name ? short_name : full_name ? full_name : "";
	const char *full = full_name && *full_name ? full_name : name;

	for (int i = 0; i < p->n; i++) {
		const struct gp_namecond *c = &p->c[i];
		bool hit = gp_namepat_any(c->field == GP_NP_NAME ? name : full, c->alts, c->len, c->op);
		if (hit == c->neg)
			return false;
	}
	return p->n > 0;
}
