/* tier: slow (207 s in make check before the tiers, on the busy 2-core machine) */
/*
** Unit tests: the fast JSON tokenizer (readers/jsonscan.c) against yajl,
** configured as the readers configure it.  Both drive callbacks that
** write down every call (kind, bytes); the tokenizer must either give up
** or make exactly yajl's calls, on every input, cut into chunks anywhere:
**   - hand-picked tokens: escapes of every kind, numbers at the edges of
**     the grammar, literals, nesting, spaces, bad input of every kind;
**   - a hundred thousand mutations of a small trace (bytes flipped,
**     dropped, doubled), cut at random places;
**   - every JSON trace of $TESTDATA, in chunks of several sizes;
** and it must not give up on valid input it claims to read (the traces,
** the valid hand-picked ones), or the reader would be slow for nothing.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "readers/jsonscan.h"

/* The calls of one parse, written down. */
struct log {
	char *s;
	size_t n, cap;
	long stop_at;    /* the call that returns 0 (stops the parse); -1: none */
	long calls;
};

static void log_add(struct log *l, char kind, const void *s, size_t n)
{
	if (l->n + n + 16 > l->cap) {
		l->cap = (l->n + n + 16) * 2;
		l->s = realloc(l->s, l->cap);
		assert_non_null(l->s);
	}
	l->s[l->n++] = kind;
	memcpy(l->s + l->n, &n, sizeof(n));
	l->n += sizeof(n);
	memcpy(l->s + l->n, s, n);
	l->n += n;
}

static int note(void *ctx, char kind, const void *s, size_t n)
{
	struct log *l = ctx;

	log_add(l, kind, s, n);
	return l->calls++ != l->stop_at;
}

static int on_null(void *ctx) { return note(ctx, 'z', "", 0); }
static int on_bool(void *ctx, int b) { return note(ctx, 'b', b ? "1" : "0", 1); }
static int on_number(void *ctx, const char *s, size_t n) { return note(ctx, 'n', s, n); }
static int on_string(void *ctx, const unsigned char *s, size_t n) { return note(ctx, 's', s, n); }
static int on_start_map(void *ctx) { return note(ctx, '{', "", 0); }
static int on_key(void *ctx, const unsigned char *s, size_t n) { return note(ctx, 'k', s, n); }
static int on_end_map(void *ctx) { return note(ctx, '}', "", 0); }
static int on_start_array(void *ctx) { return note(ctx, '[', "", 0); }
static int on_end_array(void *ctx) { return note(ctx, ']', "", 0); }

static const yajl_callbacks callbacks = {
	.yajl_null = on_null, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = on_end_map, .yajl_start_array = on_start_array,
	.yajl_end_array = on_end_array,
};

/* yajl's reading of s[0..n) (as the readers set it up): true when valid. */
static bool by_yajl(const char *s, size_t n, struct log *l)
{
	yajl_handle h = yajl_alloc(&callbacks, NULL, l);

	yajl_config(h, yajl_dont_validate_strings, 1);
	bool ok = yajl_parse(h, (const unsigned char *)s, n) == yajl_status_ok &&
		  yajl_complete_parse(h) == yajl_status_ok;
	yajl_free(h);
	return ok;
}

/* The tokenizer's, in chunks of the sizes cuts gives in turn (0: the
** rest): true when it read it all. */
static bool by_jscan(const char *s, size_t n, const size_t *cuts, int ncuts, struct log *l)
{
	gp_jscan *j = gp_jscan_alloc(&callbacks, l);
	bool ok = true;

	for (size_t at = 0, k = 0; ok && at < n; k++) {
		size_t c = ncuts && cuts[k % (size_t)ncuts] ? cuts[k % (size_t)ncuts] : n - at;
		if (c > n - at)
			c = n - at;
		/* a copy of its own, so the tokenizer cannot read past a chunk */
		char *chunk = malloc(c ? c : 1);
		assert_non_null(chunk);
		memcpy(chunk, s + at, c);
		ok = gp_jscan_parse(j, chunk, c);
		free(chunk);
		at += c;
	}
	ok = ok && gp_jscan_complete(j);
	gp_jscan_free(j);
	return ok;
}

/* s[0..n) read both ways, cut as cuts says: the tokenizer gives up or
** agrees with yajl.  Returns whether the tokenizer read it. */
static bool agree(const char *s, size_t n, const size_t *cuts, int ncuts, long stop_at)
{
	struct log y = {.stop_at = stop_at}, t = {.stop_at = stop_at};
	bool yok = by_yajl(s, n, &y), tok = by_jscan(s, n, cuts, ncuts, &t);

	if (tok && (!yok || y.n != t.n || memcmp(y.s, t.s, y.n) != 0))
		fail_msg("the tokenizer read %.*s%s (cut every %zu) unlike yajl (%s)", (int)(n < 200 ? n : 200),
			 s, n < 200 ? "" : "...", ncuts ? cuts[0] : 0, yok ? "valid" : "invalid");
	free(y.s);
	free(t.s);
	return tok;
}

/* s read whole and cut after every byte; valid: the tokenizer reads it. */
static void check(const char *s, bool valid)
{
	size_t n = strlen(s), one = 1, two[] = {2, 1};

	if (agree(s, n, NULL, 0, -1) != valid)
		fail_msg("the tokenizer %s %s", valid ? "gave up on" : "read", s);
	agree(s, n, &one, 1, -1);
	agree(s, n, two, 2, -1);
}

/* Every kind of token, valid and not. */
static void tokens(void **state)
{
	static const char *valid[] = {
		"{}", "[]", " [ ] ", "{\"a\":1}", "{\"a\" : [1, -2, 3.5, -0, 0, 1e5, 1E+5, 2e-3, 0.25]}",
		"[true,false,null]", "[\"\", \"x\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]",
		"[\"\\u0041\\u00e9\\u20AC\\u0000z\\uDC00\"]", "{\"k\\u00e9y\":{\"\":[]}}",
		"[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]", "12", "\"top\"", "true", "-7",
		"{\"traceEvents\": [\n  {\"ph\": \"X\", \"ts\": 1.5, \"args\": {\"Input Dims\": [[1, 2], []]}}\r\n  ]}",
		"[\"\xc3\xa9\xff\x80\x7f\"]",   /* bytes yajl leaves unchecked */
		"[12345678901234567890123, 1.000000000000000000001]",
	};
	static const char *invalid[] = {
		"", " ", "{", "[", "]", "}", "{]", "[}", "{\"a\"}", "{\"a\":}", "{\"a\" 1}", "{1:2}",
		"[1,]", "{\"a\":1,}", "[,1]", "[1 2]", "[01]", "[1.]", "[.5]", "[-]", "[+1]", "[1e]",
		"[1e+]", "[--1]", "[0x10]", "[tru]", "[truex]", "[nul]", "[True]", "[\"a]", "[\"\\x\"]",
		"[\"\\u12\"]", "[\"\\u12G4\"]", "[\"a\nb\"]", "[\"\t\"]", "{} {}", "[] x", "[1] 2",
		"\xef\xbb\xbf[]", "[\"\\uD83D\\uDE00\"]", "[\"\\uD800\"]", "[1,\v2]", "[1,\f2]",
		"[\"\\", "[\"\\u00", "/* c */[]", "[1] //",
	};

	for (size_t i = 0; i < sizeof(valid) / sizeof(*valid); i++)
		check(valid[i], true);
	for (size_t i = 0; i < sizeof(invalid) / sizeof(*invalid); i++)
		check(invalid[i], false);
	/* 2000 levels: deeper than the tokenizer goes, which then gives up */
	char deep[4001];
	memset(deep, '[', 2000);
	memset(deep + 2000, ']', 2000);
	deep[4000] = '\0';
	agree(deep, 4000, NULL, 0, -1);
}

/* A callback that stops the parse stops the tokenizer at the same call. */
static void stops(void **state)
{
	const char *s = "{\"a\": [1, \"x\", {\"b\": null}], \"c\": true}";

	for (long k = 0; k < 12; k++) {
		struct log y = {.stop_at = k}, t = {.stop_at = k};
		assert_false(by_yajl(s, strlen(s), &y));
		assert_false(by_jscan(s, strlen(s), NULL, 0, &t));
		assert_int_equal(y.n, t.n);
		assert_memory_equal(y.s, t.s, y.n);
		free(y.s);
		free(t.s);
	}
}

/* Random damage to a small trace, cut at random places. */
static void mutations(void **state)
{
	const char *base = "{\"schemaVersion\": 1, \"traceEvents\": [\n"
		"  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"void k<\\\"a\\\\b\\u00e9>\", \"pid\": 0, "
		"\"tid\": \"stream 7\", \"ts\": 1712195495519689.047, \"dur\": 63.813, \"args\": {\"grid\": [1, 2, 3], "
		"\"correlation\": 18446744073709551615, \"ok\": true, \"x\": null, \"e\": -1.5e-3}},\n"
		"  {\"ph\": \"i\", \"name\": \"[memory]\", \"args\": {}}\n  ], \"baseTimeNanoseconds\": 1700000000000000000}";
	size_t n = strlen(base), read = 0;
	char buf[1024];
	unsigned seed = 12345;

	for (int it = 0; it < 100000; it++) {
		size_t m = n;
		memcpy(buf, base, n);
		for (int k = 0, edits = 1 + (int)(rand_r(&seed) % 3); k < edits; k++) {
			size_t at = rand_r(&seed) % m;
			switch (rand_r(&seed) % 4) {
			case 0: buf[at] = (char)(rand_r(&seed) % 256); break;
			case 1: buf[at] = "{}[],:\"\\ 0-.eE1tfn"[rand_r(&seed) % 18]; break;
			case 2: memmove(buf + at, buf + at + 1, m - at - 1); m--; break;
			case 3: memmove(buf + at + 1, buf + at, m - at); m++; break;
			}
		}
		size_t cuts[3] = {1 + rand_r(&seed) % 40, 1 + rand_r(&seed) % 7, 1 + rand_r(&seed) % 300};
		read += agree(buf, m, cuts, 3, -1);
	}
	assert_true(read > 1000);   /* some mutations stay valid JSON */
}

/* Reads path (gzip or plain) into *n bytes. */
static char *slurp(const char *path, size_t *n)
{
	gzFile z = gzopen(path, "rb");
	size_t cap = 1 << 20;
	char *s = malloc(cap);
	int r;

	assert_true(z && s);
	*n = 0;
	while ((r = gzread(z, s + *n, (unsigned)(cap - *n))) > 0) {
		*n += (size_t)r;
		if (*n == cap)
			s = realloc(s, cap *= 2);
	}
	gzclose(z);
	return s;
}

static int traces_read;

/* Every .json / .json.gz under dir: read by the tokenizer as by yajl. */
static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			walk(path);
			continue;
		}
		if (!(l > 5 && strcmp(e->d_name + l - 5, ".json") == 0) &&
		    !(l > 8 && strcmp(e->d_name + l - 8, ".json.gz") == 0))
			continue;
		size_t n, cuts[] = {262144, 4093};
		char *s = slurp(path, &n);
		struct log y = {.stop_at = -1};
		assert_true(by_yajl(s, n, &y));
		for (int c = 0; c < 2; c++) {
			struct log t = {.stop_at = -1};
			if (!by_jscan(s, n, cuts + c, 1, &t))
				fail_msg("%s: the tokenizer gave up", path);
			if (t.n != y.n || memcmp(t.s, y.s, y.n) != 0)
				fail_msg("%s: the tokenizer read it unlike yajl", path);
			free(t.s);
		}
		free(y.s);
		free(s);
		traces_read++;
	}
	closedir(d);
}

static void testdata(void **state)
{
	const char *td = getenv("TESTDATA");

	if (!td || !*td)
		skip();
	walk(td);
	assert_true(traces_read > 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tokens),
		cmocka_unit_test(stops),
		cmocka_unit_test(mutations),
		cmocka_unit_test(testdata),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
