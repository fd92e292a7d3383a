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
		} else if (n >= 5 && strncmp(s, "qual", 4) == 0) {
			c->field = GP_NP_QUAL;
		} else if (n >= 5 && strncmp(s, "full", 4) == 0) {
			c->field = GP_NP_FULL;
		} else {
			snprintf(why, size, "'%.*s': a condition starts with name, qual or full", (int)(n < 40 ? n : 40), s);
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

char *gp_namepat_qual(const char *short_name, const char *full_name, char *buf, size_t size)
{
	size_t n = short_name ? strlen(short_name) : 0;
	const char *start = NULL, *p = full_name;

	/* the first occurrence of the short name that is a whole name: after
	** a blank, "::" or the start, before '<', '(' or the end */
	for (; n && p && (p = strstr(p, short_name)); p++) {
		char after = p[n], before = p > full_name ? p[-1] : ' ';
		if ((after == '<' || after == '(' || after == '\0') && (before == ' ' || before == ':' || p == full_name)) {
			start = p;
			break;
		}
	}
	if (!start) {
		snprintf(buf, size, "%s", short_name ? short_name : "");
		return buf;
	}
	const char *q = start;
	while (q - full_name >= 2 && q[-1] == ':' && q[-2] == ':') {
		q -= 2;
		if (q > full_name && (q[-1] == ')' || q[-1] == '>')) {   /* (anonymous namespace), <unnamed> */
			char open = q[-1] == ')' ? '(' : '<';
			while (q > full_name && q[-1] != open)
				q--;
			if (q > full_name)
				q--;
			continue;
		}
		while (q > full_name && ident(q[-1]))
			q--;
	}
	size_t len = (size_t)(start - q) + n;
	if (len >= size)
		len = size - 1;
	memcpy(buf, q, len);
	buf[len] = '\0';
	return buf;
}

bool gp_namepat_match(const struct gp_namepat *p, const char *short_name, const char *full_name)
{
	const char *name = short_name ? short_name : full_name ? full_name : "";
	const char *full = full_name && *full_name ? full_name : name;
	char qual[512];
	bool have_qual = false;

	for (int i = 0; i < p->n; i++) {
		const struct gp_namecond *c = &p->c[i];
		const char *s = c->field == GP_NP_NAME ? name : full;
		if (c->field == GP_NP_QUAL) {
			if (!have_qual)
				gp_namepat_qual(name, full, qual, sizeof(qual));
			have_qual = true;
			s = qual;
		}
		bool hit = gp_namepat_any(s, c->alts, c->len, c->op);
		if (hit == c->neg)
			return false;
	}
	return p->n > 0;
}
