/*
** Python-literal parser; see pylit.h.  Recursive descent whose depth is
** capped at GP_PYL_MAX_DEPTH, every read checked against the end.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/chars.h"
#include "analysis/pylit.h"

struct ps {
	gp_pyl_doc *d;
	const char *s;
	size_t len, pos;
};

void gp_pyl_init(gp_pyl_doc *d, struct gp_pyl *buf, uint32_t cap)
{
	memset(d, 0, sizeof(*d));
	d->nodes = buf;
	d->cap = buf ? cap : 0;
	gp_pyl_reset(d);
}

void gp_pyl_free(gp_pyl_doc *d)
{
	if (d->heap)
		free(d->nodes);
	memset(d, 0, sizeof(*d));
}

void gp_pyl_reset(gp_pyl_doc *d)
{
	d->n = d->cap ? 1 : 0;   /* node 0 is the "none" sentinel */
	if (d->cap)
		memset(&d->nodes[0], 0, sizeof(d->nodes[0]));
	d->err = NULL;
	d->err_off = 0;
}

static uint32_t fail(struct ps *p, size_t off, const char *msg)
{
	if (!p->d->err) {
		p->d->err = msg;
		p->d->err_off = off;
	}
	return 0;
}

/* A new zeroed node; 0 when the node limit is reached. */
static uint32_t new_node(struct ps *p, uint8_t type)
{
	gp_pyl_doc *d = p->d;

	if (d->n >= GP_PYL_MAX_NODES)
		return fail(p, p->pos, "too many values");
	if (d->n == d->cap) {
		uint32_t ncap = d->cap < 64 ? 64 : d->cap * 2;
		struct gp_pyl *nn;

		if (d->heap) {
			nn = gp_xrealloc(d->nodes, ncap * sizeof(*nn));
		} else {
			nn = gp_xmalloc(ncap * sizeof(*nn));
			if (d->cap)
				memcpy(nn, d->nodes, d->cap * sizeof(*nn));
		}
		d->nodes = nn;
		d->cap = ncap;
		d->heap = true;
		if (d->n == 0) {
			memset(&d->nodes[0], 0, sizeof(d->nodes[0]));
			d->n = 1;
		}
	}
	memset(&d->nodes[d->n], 0, sizeof(d->nodes[0]));
	d->nodes[d->n].type = type;
	return d->n++;
}

static void skip_ws(struct ps *p)
{
	while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
	       p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
		p->pos++;
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/* Number of hex digits a \x, \u or \U escape needs, 0 for others. */
static int hex_escape_digits(char c)
{
	return c == 'x' ? 2 : c == 'u' ? 4 : c == 'U' ? 8 : 0;
}

static uint32_t parse_str(struct ps *p)
{
	char q = p->s[p->pos];
	size_t start = ++p->pos;
	uint8_t flags = 0;

	for (;;) {
		if (p->pos >= p->len)
			return fail(p, start - 1, "unterminated string");
		char c = p->s[p->pos];
		if (c == q)
			break;
		if (c == '\n')
			return fail(p, p->pos, "newline in string");
		if (c == '\\') {
			flags |= GP_PYL_ESCAPED;
			if (p->pos + 1 >= p->len)
				return fail(p, start - 1, "unterminated string");
			int nd = hex_escape_digits(p->s[p->pos + 1]);
			if (p->pos + 2 + (size_t)nd > p->len)
				return fail(p, p->pos, "truncated escape");
			for (int k = 0; k < nd; k++)
				if (gp_hex_digit(p->s[p->pos + 2 + k]) < 0)
					return fail(p, p->pos, "bad hex escape");
			p->pos += 2 + (size_t)nd;
			continue;
		}
		p->pos++;
	}
	uint32_t i = new_node(p, GP_PYL_STR);
	if (!i)
		return 0;
	p->d->nodes[i].off = (uint32_t)start;
	p->d->nodes[i].len = (uint32_t)(p->pos - start);
	p->d->nodes[i].flags = flags;
	p->pos++;   /* closing quote */
	return i;
}

/* Ints of any size (clamped, flagged), floats via strtod on a bounded copy,
** and the bare words inf/nan, each with an optional sign. */
static uint32_t parse_number(struct ps *p)
{
	size_t start = p->pos;
	bool neg = false, isfloat = false;

	if (p->s[p->pos] == '-' || p->s[p->pos] == '+') {
		neg = p->s[p->pos] == '-';
		p->pos++;
	}
	size_t digits = p->pos;
	while (p->pos < p->len) {
		char c = p->s[p->pos];
		if (c >= '0' && c <= '9') {
			p->pos++;
		} else if (c == '.') {
			isfloat = true;
			p->pos++;
		} else if ((c == 'e' || c == 'E') && p->pos > digits) {
			isfloat = true;
			p->pos++;
			if (p->pos < p->len && (p->s[p->pos] == '-' || p->s[p->pos] == '+'))
				p->pos++;
		} else {
			break;
		}
	}
	if (p->pos == digits) {
		/* no digits: maybe -inf / nan */
		size_t w = p->pos;
		while (w < p->len && is_ident(p->s[w]))
			w++;
		if ((w - p->pos == 3 && memcmp(p->s + p->pos, "inf", 3) == 0) ||
		    (w - p->pos == 3 && memcmp(p->s + p->pos, "nan", 3) == 0)) {
			uint32_t i = new_node(p, GP_PYL_FLOAT);
			if (!i)
				return 0;
			double v = p->s[p->pos] == 'i' ? INFINITY : NAN;
			p->d->nodes[i].v.f = neg ? -v : v;
			p->pos = w;
			return i;
		}
		return fail(p, start, "expected a number");
	}
	if (p->pos < p->len && is_ident(p->s[p->pos]))
		return fail(p, p->pos, "bad character in number");
	if (isfloat) {
		char buf[64];
		size_t n = p->pos - start;
		char *endp;

		if (n >= sizeof(buf))
			return fail(p, start, "number too long");
		memcpy(buf, p->s + start, n);
		buf[n] = 0;
		double v = strtod(buf, &endp);
		if (endp != buf + n)
			return fail(p, start, "malformed number");
		uint32_t i = new_node(p, GP_PYL_FLOAT);
		if (!i)
			return 0;
		p->d->nodes[i].v.f = v;
		return i;
	}
	/* accumulate the magnitude as uint64, then apply the sign */
	uint64_t mag = 0;
	bool over = false;
	for (size_t k = digits; k < p->pos; k++) {
		unsigned dgt = (unsigned)(p->s[k] - '0');
		if (mag > (UINT64_MAX - dgt) / 10)
			over = true;
		else
			mag = mag * 10 + dgt;
	}
	uint32_t i = new_node(p, GP_PYL_INT);
	if (!i)
		return 0;
	struct gp_pyl *v = &p->d->nodes[i];
	if (neg) {
		if (over || mag > (uint64_t)INT64_MAX + 1) {
			v->v.i = INT64_MIN;
			v->flags |= GP_PYL_OVERFLOW;
		} else {
			v->v.i = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
		}
	} else if (over || mag > (uint64_t)INT64_MAX) {
		v->v.i = INT64_MAX;
		v->flags |= GP_PYL_OVERFLOW;
	} else {
		v->v.i = (int64_t)mag;
	}
	return i;
}

static uint32_t parse_word(struct ps *p)
{
	static const struct { const char *w; uint8_t type; int64_t i; } words[] = {
		{"True", GP_PYL_BOOL, 1}, {"False", GP_PYL_BOOL, 0},
		{"None", GP_PYL_NONE, 0},
	};
	size_t w = p->pos;

	while (w < p->len && is_ident(p->s[w]))
		w++;
	for (size_t k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
		if (strlen(words[k].w) == w - p->pos &&
		    memcmp(p->s + p->pos, words[k].w, w - p->pos) == 0) {
			uint32_t i = new_node(p, words[k].type);
			if (!i)
				return 0;
			p->d->nodes[i].v.i = words[k].i;
			p->pos = w;
			return i;
		}
	}
	if (w - p->pos == 3 && (memcmp(p->s + p->pos, "inf", 3) == 0 ||
	                        memcmp(p->s + p->pos, "nan", 3) == 0))
		return parse_number(p);
	return fail(p, p->pos, "unexpected word");
}

static uint32_t parse_value(struct ps *p, int depth);

/*
** Containers.  `(x)` without a comma is just x, as in Python; `(x,)` and
** `()` are tuples.  A trailing comma is allowed everywhere.
*/
static uint32_t parse_container(struct ps *p, int depth)
{
	char open = p->s[p->pos];
	char close = open == '{' ? '}' : open == '[' ? ']' : ')';
	uint8_t type = open == '{' ? GP_PYL_DICT : open == '[' ? GP_PYL_LIST : GP_PYL_TUPLE;
	size_t start = p->pos;
	uint32_t self, last = 0, count = 0;
	bool comma = false;

	if (depth >= GP_PYL_MAX_DEPTH)
		return fail(p, p->pos, "nesting too deep");
	self = new_node(p, type);
	if (!self)
		return 0;
	p->pos++;
	for (;;) {
		skip_ws(p);
		if (p->pos >= p->len)
			return fail(p, start, "unterminated container");
		if (p->s[p->pos] == close)
			break;
		if (count && !comma)
			return fail(p, p->pos, "expected ',' or closing bracket");
		uint32_t item = parse_value(p, depth + 1);
		if (!item)
			return 0;
		if (last)
			p->d->nodes[last].next = item;
		else
			p->d->nodes[self].first = item;
		last = item;
		count++;
		skip_ws(p);
		if (type == GP_PYL_DICT) {
			if (p->pos >= p->len || p->s[p->pos] != ':')
				return fail(p, p->pos, "expected ':' in dict");
			p->pos++;
			uint32_t val = parse_value(p, depth + 1);
			if (!val)
				return 0;
			p->d->nodes[last].next = val;
			last = val;
			count++;
			skip_ws(p);
		}
		comma = p->pos < p->len && p->s[p->pos] == ',';
		if (comma)
			p->pos++;
	}
	p->pos++;   /* closing bracket */
	if (type == GP_PYL_TUPLE && count == 1 && !comma) {
		/* parenthesised value: drop the tuple node if it is the last one */
		uint32_t item = p->d->nodes[self].first;
		if (self + 1 == item && item == p->d->n - 1) {
			p->d->nodes[self] = p->d->nodes[item];
			p->d->n--;
			return self;
		}
		return item;
	}
	p->d->nodes[self].len = count;
	return self;
}

static uint32_t parse_value(struct ps *p, int depth)
{
	skip_ws(p);
	if (p->pos >= p->len)
		return fail(p, p->pos, "expected a value");
	char c = p->s[p->pos];
	switch (c) {
	case '{': case '[': case '(':
		return parse_container(p, depth);
	case '\'': case '"':
		return parse_str(p);
	case '-': case '+': case '.':
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		return parse_number(p);
	default:
		if (is_ident(c))
			return parse_word(p);
		return fail(p, p->pos, "unexpected character");
	}
}

uint32_t gp_pyl_parse(gp_pyl_doc *d, const char *text, size_t len, size_t *end)
{
	struct ps p = {d, text, len, 0};

	d->err = NULL;
	d->err_off = 0;
	d->text = text;
	d->len = len;
	if (len >= UINT32_MAX)
		return fail(&p, 0, "text too long");
	uint32_t root = parse_value(&p, 0);
	if (!root)
		return 0;
	if (end) {
		*end = p.pos;
		return root;
	}
	skip_ws(&p);
	if (p.pos != len)
		return fail(&p, p.pos, "unexpected text after the value");
	return root;
}

uint32_t gp_pyl_get(const gp_pyl_doc *d, uint32_t dict, const char *key)
{
	const struct gp_pyl *v = gp_pyl_node(d, dict);

	if (!v || v->type != GP_PYL_DICT)
		return 0;
	for (uint32_t k = v->first; k; ) {
		uint32_t val = d->nodes[k].next;
		if (gp_pyl_str_is(d, k, key))
			return val;
		k = val ? d->nodes[val].next : 0;
	}
	return 0;
}

/* Appends code point cp as UTF-8 (U+FFFD for surrogates/out of range). */
static size_t put_utf8(char *o, uint32_t cp)
{
	if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		cp = 0xFFFD;
	return gp_utf8_put(o, cp);
}

/*
** Decodes one escape at s[0..n) (s[0] is the backslash) into o[0..4);
** returns the decoded byte count and sets *used to the raw bytes eaten.
** The parser has already checked hex escapes are complete.
*/
static size_t decode_escape(const char *s, size_t n, char *o, size_t *used)
{
	char c = n > 1 ? s[1] : '\\';
	int nd = hex_escape_digits(c);

	*used = 2;
	switch (c) {
	case 'n': o[0] = '\n'; return 1;
	case 't': o[0] = '\t'; return 1;
	case 'r': o[0] = '\r'; return 1;
	case 'a': o[0] = '\a'; return 1;
	case 'b': o[0] = '\b'; return 1;
	case 'f': o[0] = '\f'; return 1;
	case 'v': o[0] = '\v'; return 1;
	case '\\': case '\'': case '"':
		o[0] = c;
		return 1;
	case '\n':
		return 0;   /* line continuation */
	default:
		break;
	}
	if (nd && (size_t)nd + 2 <= n) {
		uint32_t cp = 0;
		for (int k = 0; k < nd; k++)
			cp = cp * 16 + (uint32_t)gp_hex_digit(s[2 + k]);
		*used = 2 + (size_t)nd;
		return put_utf8(o, cp);
	}
	if (c >= '0' && c <= '7') {
		uint32_t cp = 0;
		size_t k = 1;
		while (k < n && k < 4 && s[k] >= '0' && s[k] <= '7')
			cp = cp * 8 + (uint32_t)(s[k++] - '0');
		*used = k;
		return put_utf8(o, cp);
	}
	/* unknown escape: Python keeps the backslash */
	o[0] = '\\';
	*used = 1;
	return 1;
}

size_t gp_pyl_str(const gp_pyl_doc *d, uint32_t i, char *buf, size_t size)
{
	const struct gp_pyl *v = gp_pyl_node(d, i);
	size_t n = 0;

	if (size)
		buf[0] = 0;
	if (!v || v->type != GP_PYL_STR)
		return 0;
	const char *s = d->text + v->off;
	for (size_t k = 0; k < v->len; ) {
		char tmp[4];
		size_t got, used;
		if (s[k] == '\\') {
			got = decode_escape(s + k, v->len - k, tmp, &used);
		} else {
			tmp[0] = s[k];
			got = used = 1;
		}
		for (size_t j = 0; j < got; j++, n++)
			if (n + 1 < size)
				buf[n] = tmp[j];
		k += used;
	}
	if (size)
		buf[n < size ? n : size - 1] = 0;
	return n;
}

bool gp_pyl_str_is(const gp_pyl_doc *d, uint32_t i, const char *s)
{
	const struct gp_pyl *v = gp_pyl_node(d, i);
	size_t n = strlen(s);

	if (!v || v->type != GP_PYL_STR)
		return false;
	if (!(v->flags & GP_PYL_ESCAPED))
		return v->len == n && memcmp(d->text + v->off, s, n) == 0;
	if (n > v->len)
		return false;   /* decoding never lengthens */
	char buf[256];
	if (v->len >= sizeof(buf))
		return false;   /* keys we look up are short */
	return gp_pyl_str(d, i, buf, sizeof(buf)) == n && memcmp(buf, s, n) == 0;
}

bool gp_pyl_number(const gp_pyl_doc *d, uint32_t i, double *out)
{
	const struct gp_pyl *v = gp_pyl_node(d, i);

	if (!v)
		return false;
	switch (v->type) {
	case GP_PYL_INT: case GP_PYL_BOOL:
		*out = (double)v->v.i;
		return true;
	case GP_PYL_FLOAT:
		*out = v->v.f;
		return true;
	case GP_PYL_STR:
		if (gp_pyl_str_is(d, i, "inf"))
			*out = INFINITY;
		else if (gp_pyl_str_is(d, i, "-inf"))
			*out = -INFINITY;
		else if (gp_pyl_str_is(d, i, "nan"))
			*out = NAN;
		else
			return false;
		return true;
	default:
		return false;
	}
}
