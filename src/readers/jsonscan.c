/*
** The streaming JSON tokenizer; see jsonscan.h.
**
** One pass over each buffer: whitespace skipped, structural bytes acted on
** at once, strings scanned 16 bytes at a time (SSE2) for a quote, a
** backslash or a control byte, numbers and literals by their bytes.  The
** grammar is JSON's, checked as yajl checks it: a token where the state
** (enum want) allows none makes the tokenizer give up.  A string, number
** or literal that the end of a buffer cuts is kept (struct gp_jscan.tok)
** and finished with the first bytes of the next buffer: structural bytes
** are single bytes, so only those three kinds of token can be cut.
**
** What it hands over is what yajl hands over: a string without escapes as
** its bytes in the buffer, one with escapes decoded as yajl_string_decode
** decodes it (\u escapes to UTF-8, \u0000 to one NUL byte), a number as
** its text.  Where yajl's decoding is odd (a high surrogate, alone or
** paired) the tokenizer gives up instead of imitating it; so does it for
** \v and \f between tokens, which JSON does not allow and yajl may.
*/
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "readers/jsonscan.h"
#include "util/alloc.h"
#include "util/chars.h"

#define MAX_DEPTH 1024

/* What may come next. */
enum want {
	W_VALUE,    /* a value */
	W_FIRST,    /* after "{" or "[": the close, else a key (object) or a value (array) */
	W_KEY,      /* after "," in an object: a key */
	W_COLON,    /* after a key */
	W_NEXT,     /* after a value in a container: "," or the close */
	W_DONE,     /* after the document's value: nothing but spaces */
};

/* A token the end of a buffer cut. */
enum carry { CARRY_NONE, CARRY_STRING, CARRY_NUMBER, CARRY_LITERAL };

struct bytes {
	char *s;
	size_t n, cap;
};

struct gp_jscan {
	yajl_callbacks cb;          /* the caller's, no-ops where it has none */
	void *ctx;
	uint8_t stack[MAX_DEPTH];   /* per open container: 1 object, 0 array */
	int depth;
	uint8_t want;               /* enum want */
	bool dead;                  /* gave up */
	uint8_t carry;              /* enum carry */
	bool carry_key;             /* the carried string is a key */
	bool carry_esc;             /* the carried string has an escape */
	size_t carry_resume;        /* the carried string's scan goes on from tok.s + this */
	struct bytes tok;           /* the carried token (a string without its opening quote) */
	struct bytes dec;           /* a string with escapes, decoded */
};

/* Appends s[0..n) to b (n may be 0 while b has no buffer yet). */
static void bytes_add(struct bytes *b, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 64;
		b->s = gp_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
}

static int no_op(void *ctx) { return 1; }
static int no_op_bool(void *ctx, int b) { return 1; }
static int no_op_text(void *ctx, const char *s, size_t n) { return 1; }
static int no_op_string(void *ctx, const unsigned char *s, size_t n) { return 1; }

gp_jscan *gp_jscan_alloc(const yajl_callbacks *cb, void *ctx)
{
	gp_jscan *j = gp_xcalloc(1, sizeof(*j));

	j->cb = *cb;
	j->cb.yajl_null = cb->yajl_null ? cb->yajl_null : no_op;
	j->cb.yajl_boolean = cb->yajl_boolean ? cb->yajl_boolean : no_op_bool;
	j->cb.yajl_number = cb->yajl_number ? cb->yajl_number : no_op_text;
	j->cb.yajl_string = cb->yajl_string ? cb->yajl_string : no_op_string;
	j->cb.yajl_start_map = cb->yajl_start_map ? cb->yajl_start_map : no_op;
	j->cb.yajl_map_key = cb->yajl_map_key ? cb->yajl_map_key : no_op_string;
	j->cb.yajl_end_map = cb->yajl_end_map ? cb->yajl_end_map : no_op;
	j->cb.yajl_start_array = cb->yajl_start_array ? cb->yajl_start_array : no_op;
	j->cb.yajl_end_array = cb->yajl_end_array ? cb->yajl_end_array : no_op;
	j->ctx = ctx;
	return j;
}

void gp_jscan_free(gp_jscan *j)
{
	if (!j)
		return;
	free(j->tok.s);
	free(j->dec.s);
	free(j);
}

static int die(gp_jscan *j)
{
	j->dead = true;
	return 0;
}

/* JSON's four spaces, as bits of a 64-bit mask indexed by byte. */
#define SPACES ((1ULL << ' ') | (1ULL << '\n') | (1ULL << '\r') | (1ULL << '\t'))

static inline bool is_space(char c)
{
	return (unsigned char)c <= ' ' && (SPACES >> (unsigned char)c & 1);
}

/* The code point of the 4 hex digits at s, or -1. */
static int hex4(const char *s)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		int d = gp_hex_digit(s[i]);
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* The first quote, backslash or control byte at or after s, or end. */
static inline const char *string_stop(const char *s, const char *end)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i ctl = _mm_set1_epi8(0x1f);

	while (end - s >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)s);
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bslash)),
					   _mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v));
		int m = _mm_movemask_epi8(hit);
		if (m)
			return s + __builtin_ctz((unsigned)m);
		s += 16;
	}
#endif
	while (s < end && *s != '"' && *s != '\\' && (unsigned char)*s >= 0x20)
		s++;
	return s;
}

/* Scans a string's bytes from s (after its opening quote, or where an
** earlier scan stopped) to end.  Returns its closing quote; else NULL with
** *stop where a scan must go on (end, or an escape end cut), or *bad set
** (a control byte, an escape JSON has not).  *esc is set at a backslash. */
static const char *string_scan(const char *s, const char *end, const char **stop, bool *esc,
			       bool *bad)
{
	for (;;) {
		s = string_stop(s, end);
		if (s >= end) {
			*stop = end;
			return NULL;
		}
		unsigned char c = (unsigned char)*s;
		if (c == '"')
			return s;
		if (c < 0x20) {
			*bad = true;
			return NULL;
		}
		*esc = true;   /* a backslash */
		if (end - s < 2 || (s[1] == 'u' && end - s < 6)) {
			*stop = s;   /* the escape goes on in the next buffer */
			return NULL;
		}
		if (s[1] == 'u') {
			if (hex4(s + 2) < 0) {
				*bad = true;
				return NULL;
			}
			s += 6;
		} else if (s[1] && strchr("\"\\/bfnrt", s[1])) {
			s += 2;
		} else {
			*bad = true;
			return NULL;
		}
	}
}

/* s[0..n), a string's bytes with escapes, decoded into j->dec as
** yajl_string_decode does; false for a high surrogate (yajl's own ways). */
static bool decode(gp_jscan *j, const char *s, size_t n)
{
	size_t run = 0;

	j->dec.n = 0;
	for (size_t i = 0; i < n;) {
		if (s[i] != '\\') {
			i++;
			continue;
		}
		bytes_add(&j->dec, s + run, i - run);
		char c = s[i + 1], out[4];
		size_t len = 1;
		switch (c) {
		case 'b': out[0] = '\b'; break;
		case 'f': out[0] = '\f'; break;
		case 'n': out[0] = '\n'; break;
		case 'r': out[0] = '\r'; break;
		case 't': out[0] = '\t'; break;
		case 'u': {
			int cp = hex4(s + i + 2);
			if ((cp & 0xFC00) == 0xD800)
				return false;
			len = gp_utf8_put(out, (uint32_t)cp);   /* a low surrogate as is, as yajl */
			i += 4;
			break;
		}
		default: out[0] = c; break;   /* " \ / */
		}
		bytes_add(&j->dec, out, len);
		i += 2;
		run = i;
	}
	bytes_add(&j->dec, s + run, n - run);
	return true;
}

/* The state after a value: the container's next, or the document's end. */
static void after_value(gp_jscan *j)
{
	j->want = j->depth ? W_NEXT : W_DONE;
}

/* A complete string s[0..n) (esc: it has escapes) to the callbacks. */
static void emit_string(gp_jscan *j, const char *s, size_t n, bool esc, bool key)
{
	int ok = 1;

	if (esc) {
		if (!decode(j, s, n)) {
			die(j);
			return;
		}
		s = j->dec.s;
		n = j->dec.n;
	}
	if (key) {
		ok = j->cb.yajl_map_key(j->ctx, (const unsigned char *)s, n);
		j->want = W_COLON;
	} else {
		ok = j->cb.yajl_string(j->ctx, (const unsigned char *)s, n);
		after_value(j);
	}
	if (!ok)
		die(j);
}

static bool is_number_byte(char c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether s[0..n) is one JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number_ok(const char *s, size_t n)
{
	size_t i = 0;

	if (i < n && s[i] == '-')
		i++;
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && s[i] >= '1' && s[i] <= '9')
		while (i < n && is_digit(s[i]))
			i++;
	else
		return false;
	if (i < n && s[i] == '.') {
		size_t d = ++i;
		while (i < n && is_digit(s[i]))
			i++;
		if (i == d)
			return false;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		size_t d = i;
		while (i < n && is_digit(s[i]))
			i++;
		if (i == d)
			return false;
	}
	return i == n;
}

/* A complete number or literal s[0..n) to the callbacks. */
static void emit_scalar(gp_jscan *j, const char *s, size_t n, bool number)
{
	const yajl_callbacks *cb = &j->cb;
	int ok;

	if (number && number_ok(s, n))
		ok = cb->yajl_number(j->ctx, s, n);
	else if (!number && n == 4 && memcmp(s, "true", 4) == 0)
		ok = cb->yajl_boolean(j->ctx, 1);
	else if (!number && n == 5 && memcmp(s, "false", 5) == 0)
		ok = cb->yajl_boolean(j->ctx, 0);
	else if (!number && n == 4 && memcmp(s, "null", 4) == 0)
		ok = cb->yajl_null(j->ctx);
	else
		ok = 0;
	if (!ok)
		die(j);
	else
		after_value(j);
}

/* A string from s (after its quote): emitted, or carried when end cuts it.
** Returns where the parse goes on. */
static const char *string_token(gp_jscan *j, const char *s, const char *end, bool key)
{
	const char *stop = end;
	bool esc = false, bad = false;
	const char *q = string_scan(s, end, &stop, &esc, &bad);

	if (bad) {
		die(j);
		return end;
	}
	if (!q) {
		j->carry = CARRY_STRING;
		j->carry_key = key;
		j->carry_esc = esc;
		j->tok.n = 0;
		bytes_add(&j->tok, s, (size_t)(end - s));
		j->carry_resume = (size_t)(stop - s);
		return end;
	}
	emit_string(j, s, (size_t)(q - s), esc, key);
	return q + 1;
}

/* Finishes the carried token with the bytes at s; returns how many it
** took (all of them while the token goes on). */
static size_t finish_carry(gp_jscan *j, const char *s, const char *end)
{
	const char *p = s;

	if (j->carry == CARRY_STRING) {
		for (;;) {
			const char *q = memchr(p, '"', (size_t)(end - p));
			const char *upto = q ? q + 1 : end;
			bytes_add(&j->tok, p, (size_t)(upto - p));
			p = upto;
			const char *stop = NULL, *from = j->tok.s + j->carry_resume;
			bool bad = false;
			const char *close = string_scan(from, j->tok.s + j->tok.n, &stop, &j->carry_esc, &bad);
			if (bad) {
				die(j);
				return (size_t)(end - s);
			}
			if (close) {   /* the quote just added */
				j->carry = CARRY_NONE;
				emit_string(j, j->tok.s, (size_t)(close - j->tok.s), j->carry_esc, j->carry_key);
				return (size_t)(p - s);
			}
			j->carry_resume = (size_t)(stop - j->tok.s);
			if (!q)
				return (size_t)(end - s);
		}
	}
	bool number = j->carry == CARRY_NUMBER;
	while (p < end && (number ? is_number_byte(*p) : *p >= 'a' && *p <= 'z'))
		p++;
	bytes_add(&j->tok, s, (size_t)(p - s));
	if (p < end) {
		j->carry = CARRY_NONE;
		emit_scalar(j, j->tok.s, j->tok.n, number);
	}
	return (size_t)(p - s);
}

/* The loop below keeps the state in locals (callbacks could change *j as
** far as the compiler knows); the rare paths (a token cut by the buffer's
** end, escapes) go through the functions above with the state in *j. */
int gp_jscan_parse(gp_jscan *j, const char *buf, size_t n)
{
	const char *s = buf, *const end = buf + n;
	const yajl_callbacks cb = j->cb;
	void *const ctx = j->ctx;
	uint8_t *const stack = j->stack;
	int want, depth, ok = 1;

	if (j->dead)
		return 0;
	if (j->carry) {
		s += finish_carry(j, s, end);
		if (j->carry || j->dead)
			return !j->dead;
	}
	want = j->want;
	depth = j->depth;
	for (;;) {
		while (s < end && is_space(*s))
			s++;
		if (s == end)
			break;
		char c = *s;
		switch (want) {
		case W_NEXT:
			if (c == ',') {
				s++;
				want = stack[depth - 1] ? W_KEY : W_VALUE;
				continue;
			}
			goto close;
		case W_COLON:
			if (c != ':')
				goto dead;
			s++;
			want = W_VALUE;
			continue;
		case W_DONE:
			goto dead;   /* trailing garbage */
		case W_FIRST:
			if (c == '}' || c == ']')
				goto close;
			want = stack[depth - 1] ? W_KEY : W_VALUE;
			break;
		}
		if (want == W_KEY) {
			if (c != '"')
				goto dead;
			const char *q = string_stop(s + 1, end);
			if (q < end && *q == '"') {
				ok = cb.yajl_map_key(ctx, (const unsigned char *)s + 1, (size_t)(q - s - 1));
				s = q + 1;
				want = W_COLON;
			} else {   /* escapes, or cut by the end */
				j->want = want;
				j->depth = depth;
				s = string_token(j, s + 1, end, true);
				want = j->want;
				ok = !j->dead;
			}
			if (!ok)
				goto dead;
			continue;
		}
		/* a value */
		if (c == '{' || c == '[') {
			if (depth == MAX_DEPTH)
				goto dead;
			stack[depth++] = c == '{';
			ok = c == '{' ? cb.yajl_start_map(ctx) : cb.yajl_start_array(ctx);
			s++;
			want = W_FIRST;
		} else if (c == '"') {
			const char *q = string_stop(s + 1, end);
			if (q < end && *q == '"') {
				ok = cb.yajl_string(ctx, (const unsigned char *)s + 1, (size_t)(q - s - 1));
				s = q + 1;
				want = depth ? W_NEXT : W_DONE;
			} else {
				j->want = want;
				j->depth = depth;
				s = string_token(j, s + 1, end, false);
				want = j->want;
				ok = !j->dead;
			}
		} else if (c == '-' || is_digit(c) || (c >= 'a' && c <= 'z')) {
			bool number = c == '-' || is_digit(c);
			const char *e = s + 1;
			if (number) {
				/* the common case, digits only: checked here, no second pass */
				while (e < end && is_digit(*e))
					e++;
				if (e < end && !is_number_byte(*e) && c != '-' && (c != '0' || e == s + 1)) {
					ok = cb.yajl_number(ctx, s, (size_t)(e - s));
					s = e;
					want = depth ? W_NEXT : W_DONE;
					if (!ok)
						goto dead;
					continue;
				}
				while (e < end && is_number_byte(*e))
					e++;
			} else {
				while (e < end && *e >= 'a' && *e <= 'z')
					e++;
			}
			j->depth = depth;
			if (e == end) {   /* it may go on in the next buffer */
				j->carry = number ? CARRY_NUMBER : CARRY_LITERAL;
				j->tok.n = 0;
				bytes_add(&j->tok, s, (size_t)(e - s));
				s = e;
				want = depth ? W_NEXT : W_DONE;   /* as once it is emitted */
				continue;
			}
			emit_scalar(j, s, (size_t)(e - s), number);
			s = e;
			want = j->want;
			ok = !j->dead;
		} else {
			goto dead;
		}
		if (!ok)
			goto dead;
		continue;
	close:
		if (depth == 0 || c != (stack[depth - 1] ? '}' : ']'))
			goto dead;
		depth--;
		ok = c == '}' ? cb.yajl_end_map(ctx) : cb.yajl_end_array(ctx);
		s++;
		want = depth ? W_NEXT : W_DONE;
		if (!ok)
			goto dead;
	}
	j->want = (uint8_t)want;
	j->depth = depth;
	return 1;
dead:
	j->depth = depth;
	return die(j);
}

int gp_jscan_complete(gp_jscan *j)
{
	if (j->dead)
		return 0;
	if (j->carry == CARRY_STRING)
		return die(j);
	if (j->carry) {   /* a number or literal the input ends with */
		bool number = j->carry == CARRY_NUMBER;
		j->carry = CARRY_NONE;
		emit_scalar(j, j->tok.s, j->tok.n, number);
	}
	return !j->dead && j->want == W_DONE;
}
