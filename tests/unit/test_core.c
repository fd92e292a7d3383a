/*
** Unit tests: string table, arena, trace housekeeping, dtype names.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"
#include "util/sort.h"
#include "util/u64map.h"
#include "model/trace.h"

/* A map reserved for n keys takes them all without growing, at no more
** slots than three quarters full needs, and finds each one; sequential
** and scattered keys, several sizes (capacities that are not powers of
** two included), then growth past the reserve. */
static void u64map_reserve_holds_its_keys(void **state)
{
	const size_t sizes[] = {1, 2, 5, 47, 48, 49, 1000, 12345};

	for (size_t z = 0; z < sizeof(sizes) / sizeof(*sizes); z++) {
		size_t n = sizes[z];
		for (int scatter = 0; scatter < 2; scatter++) {
			gp_u64map m = {0};
			gp_u64map_reserve(&m, n);
			size_t cap = m.cap;
			assert_true(cap * 3 >= n * 4);
			assert_true(cap == 64 || cap * 3 <= n * 4 + 6);
			for (size_t i = 0; i < n; i++) {
				uint64_t key = scatter ? (i + 1) * 0x9e3779b97f4a7c15ULL : i;
				assert_int_equal(gp_u64map_add(&m, key, (int32_t)i), (int32_t)i);
			}
			assert_int_equal(m.cap, cap);
			assert_int_equal(m.n, n);
			for (size_t i = 0; i < n; i++) {
				uint64_t key = scatter ? (i + 1) * 0x9e3779b97f4a7c15ULL : i;
				assert_int_equal(gp_u64map_get(&m, key), (int32_t)i);
				assert_int_equal(gp_u64map_add(&m, key, 7), (int32_t)i);   /* add keeps */
			}
			assert_int_equal(gp_u64map_get(&m, (uint64_t)-1), -1);
			/* past the reserve the map grows and loses nothing */
			for (size_t i = n; i < 3 * n + 100; i++)
				gp_u64map_put(&m, scatter ? (i + 1) * 0x9e3779b97f4a7c15ULL : i, (int32_t)i);
			assert_true(m.cap > cap);
			for (size_t i = 0; i < 3 * n + 100; i++)
				assert_int_equal(gp_u64map_get(&m, scatter ? (i + 1) * 0x9e3779b97f4a7c15ULL : i),
						 (int32_t)i);
			gp_u64map_free(&m);
		}
	}
}

/* A map reserved for a narrow range of keys is an array (keys NULL) that
** answers as a hashed map of the same keys does: add keeps, put replaces,
** absent keys and keys outside the range are -1; a key outside the range
** makes it hashed, with every key kept; a wide range is hashed at once. */
static void u64map_dense_answers_as_hashed(void **state)
{
	uint64_t x = 88172645463325252ull;
	const uint64_t bases[] = {1, 1000, UINT64_MAX - 5000};

	(void)state;
	for (size_t b = 0; b < sizeof(bases) / sizeof(*bases); b++) {
		gp_u64map d = {0}, h = {0};
		uint64_t lo = bases[b], hi = lo + 3999;
		gp_u64map_reserve_range(&d, 1000, lo, hi);
		assert_null(d.keys);
		assert_int_equal(d.cap, 4000);
		for (int i = 0; i < 3000; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint64_t key = lo + x % 4000;
			int32_t v = (int32_t)(x >> 40);
			if (i % 3)
				assert_int_equal(gp_u64map_add(&d, key, v), gp_u64map_add(&h, key, v));
			else {
				gp_u64map_put(&d, key, v);
				gp_u64map_put(&h, key, v);
			}
		}
		assert_null(d.keys);
		assert_int_equal(d.n, h.n);
		for (uint64_t k = lo - 10; k != hi + 10; k++)
			assert_int_equal(gp_u64map_get(&d, k), gp_u64map_get(&h, k));
		assert_int_equal(gp_u64map_get(&d, 0), gp_u64map_get(&h, 0));
		/* a key outside: hashed from then on, nothing lost */
		uint64_t out = b == 2 ? lo - 77 : hi + 77;
		assert_int_equal(gp_u64map_add(&d, out, 5), 5);
		assert_int_equal(gp_u64map_add(&h, out, 5), 5);
		assert_non_null(d.keys);
		assert_int_equal(d.n, h.n);
		for (uint64_t k = lo - 100; k != hi + 100; k++)
			assert_int_equal(gp_u64map_get(&d, k), gp_u64map_get(&h, k));
		gp_u64map_free(&d);
		gp_u64map_free(&h);
	}
	gp_u64map m = {0};
	gp_u64map_reserve_range(&m, 10, 1, 1000);   /* 100 times the keys: hashed */
	assert_non_null(m.keys);
	gp_u64map_free(&m);
	gp_u64map_reserve_range(&m, 10, 5, 4);      /* no keys in range: hashed */
	assert_non_null(m.keys);
	gp_u64map_free(&m);
}

static void strtab_interns_once(void **state)
{
	gp_strtab st;
	char buf[32];

	gp_strtab_init(&st);
	assert_int_equal(gp_strtab_intern(&st, NULL), 0);
	assert_int_equal(gp_strtab_intern(&st, ""), 0);
	gp_str a = gp_strtab_intern(&st, "volta_sgemm_128x64_tn");
	gp_str b = gp_strtab_intern_n(&st, "volta_sgemm_128x64_tn_extra", 21);
	assert_int_equal(a, b);
	assert_string_equal(gp_strtab_get(&st, a), "volta_sgemm_128x64_tn");
	/* many strings force rehashing; ids stay stable */
	for (int i = 0; i < 10000; i++) {
		snprintf(buf, sizeof(buf), "k%d", i);
		gp_strtab_intern(&st, buf);
	}
	assert_int_equal(st.n, 10002);
	assert_int_equal(gp_strtab_intern(&st, "k4242"), gp_strtab_intern(&st, "k4242"));
	assert_string_equal(gp_strtab_get(&st, a), "volta_sgemm_128x64_tn");
	assert_string_equal(gp_strtab_get(&st, 999999), "");
	gp_strtab_free(&st);
}

static void arena_aligns_and_zeroes(void **state)
{
	gp_arena a = {0};

	for (int i = 1; i < 3000; i++) {
		unsigned char *p = gp_arena_alloc(&a, (size_t)i);
		assert_int_equal((uintptr_t)p % 8, 0);
		assert_int_equal(p[i - 1], 0);
		memset(p, 0xab, (size_t)i);
	}
	void *big = gp_arena_alloc(&a, 3u << 20);   /* larger than a block */
	assert_non_null(big);
	gp_arena_free(&a);
}

/* Strings are packed unaligned; allocations after them are still aligned. */
static void arena_mixes_strings_and_records(void **state)
{
	gp_arena a = {0};

	for (int i = 0; i < 5000; i++) {
		char *s = gp_arena_strndup(&a, "abcdefghij", (size_t)(i % 11));
		assert_int_equal(strlen(s), (size_t)(i % 11));
		unsigned char *p = gp_arena_alloc(&a, (size_t)(i % 13) + 1);
		assert_int_equal((uintptr_t)p % 8, 0);
		assert_int_equal(p[i % 13], 0);
		memset(p, 0xab, (size_t)(i % 13) + 1);
	}
	gp_arena_free(&a);
}

/* Strings that differ only past a word boundary or by a trailing NUL
** (interned with an explicit length) get distinct ids. */
/* The layout's edges (strtab.c): the one- and five-byte length prefixes,
** records that do not fit the rest of a chunk, records longer than a
** chunk, bytes after a NUL, and every id still naming its text after the
** slot table grew many times. */
static void strtab_layout_edges(void **state)
{
	gp_strtab st;
	size_t big = 10u << 20, chunk = 1u << 20;
	char *text = malloc(big), buf[32];
	gp_str id[6];

	for (size_t i = 0; i < big; i++)
		text[i] = (char)('a' + i % 23);
	gp_strtab_init(&st);
	assert_int_equal(gp_strtab_intern_n(&st, text, 0), 0);
	assert_int_equal(gp_strtab_len(&st, 0), 0);
	id[0] = gp_strtab_intern_n(&st, text, 254);      /* longest short prefix */
	id[1] = gp_strtab_intern_n(&st, text, 255);      /* shortest long prefix */
	id[2] = gp_strtab_intern_n(&st, text, chunk - 3);  /* leaves no room in chunk 1 */
	id[3] = gp_strtab_intern_n(&st, text, chunk + 7);  /* longer than a chunk */
	id[4] = gp_strtab_intern_n(&st, text, big);        /* 10 MB */
	id[5] = gp_strtab_intern_n(&st, "a\0b", 3);
	for (int k = 0; k < 5; k++) {
		size_t want[] = {254, 255, chunk - 3, chunk + 7, big};
		assert_int_equal(gp_strtab_len(&st, id[k]), want[k]);
		assert_int_equal(strlen(gp_strtab_get(&st, id[k])), want[k]);
		assert_memory_equal(gp_strtab_get(&st, id[k]), text, want[k]);
		assert_int_equal(gp_strtab_intern_n(&st, text, want[k]), id[k]);
	}
	assert_int_equal(gp_strtab_len(&st, id[5]), 3);
	assert_memory_equal(gp_strtab_get(&st, id[5]), "a\0b", 4);
	assert_int_equal(gp_strtab_intern_n(&st, "a\0b", 3), id[5]);
	assert_int_not_equal(gp_strtab_intern_n(&st, "a\0c", 3), id[5]);
	/* 300,000 strings after the big ones: slots grow nine times, text
	** fills several chunks; each id keeps its text and is found again */
	gp_str first = gp_strtab_intern(&st, "s0");
	for (int i = 1; i < 300000; i++) {
		snprintf(buf, sizeof(buf), "s%d", i);
		assert_int_equal(gp_strtab_intern(&st, buf), first + (gp_str)i);
	}
	for (int i = 0; i < 300000; i += 7) {
		snprintf(buf, sizeof(buf), "s%d", i);
		assert_string_equal(gp_strtab_get(&st, first + (gp_str)i), buf);
		assert_int_equal(gp_strtab_len(&st, first + (gp_str)i), strlen(buf));
		assert_int_equal(gp_strtab_intern(&st, buf), first + (gp_str)i);
	}
	assert_memory_equal(gp_strtab_get(&st, id[4]), text, big);
	gp_strtab_free(&st);
	free(text);
	(void)state;
}

static void strtab_word_boundaries(void **state)
{
	gp_strtab st;
	const char text[] = "0123456789abcdefghij\0\0";
	gp_str ids[24];

	gp_strtab_init(&st);
	for (size_t n = 1; n < sizeof(ids) / sizeof(ids[0]); n++) {
		ids[n] = gp_strtab_intern_n(&st, text, n);
		assert_int_equal(gp_strtab_len(&st, ids[n]), n);
		for (size_t m = 1; m < n; m++)
			assert_int_not_equal(ids[m], ids[n]);
	}
	for (size_t n = 1; n < sizeof(ids) / sizeof(ids[0]); n++)
		assert_int_equal(gp_strtab_intern_n(&st, text, n), ids[n]);
	gp_strtab_free(&st);
}

/* gp_fmt_* print exactly what printf prints. */
/* push_list: appends n tensor args of shape {d, i} (i = 0..n-1) to t->args;
** returns the first one's index. */
static uint32_t push_list(gp_trace *t, int n, int64_t d)
{
	uint32_t first = (uint32_t)t->args.n;
	for (int i = 0; i < n; i++) {
		struct gp_arg *a = gp_vec_push(t->args);
		a->type = GP_ARG_TENSOR;
		a->dtype = GP_DT_FP16;
		a->ndim = 2;
		a->shape[0] = d;
		a->shape[1] = i;
	}
	return first;
}

/* An argument list equal to one added before is dropped and the earlier
** one's index returned; a list that differs in a value or in its length
** keeps its own copy, and an empty list is left alone. */
static void args_share_identical_lists(void **state)
{
	gp_trace t;
	gp_u64map seen = {0};

	gp_trace_init(&t);
	uint32_t a = push_list(&t, 3, 64);
	assert_int_equal(gp_trace_args_share(&t, a, &seen), a);
	uint32_t b = push_list(&t, 3, 64);
	assert_int_equal(gp_trace_args_share(&t, b, &seen), a);   /* same content */
	assert_int_equal(t.args.n, 3);
	uint32_t c = push_list(&t, 3, 65);
	assert_int_equal(gp_trace_args_share(&t, c, &seen), c);   /* a dimension differs */
	uint32_t d = push_list(&t, 2, 64);
	assert_int_equal(gp_trace_args_share(&t, d, &seen), d);   /* a prefix of a */
	assert_int_equal(t.args.n, 8);
	uint32_t e = push_list(&t, 3, 65);
	assert_int_equal(gp_trace_args_share(&t, e, &seen), c);
	assert_int_equal(gp_trace_args_share(&t, (uint32_t)t.args.n, &seen), t.args.n);   /* empty */
	assert_int_equal(t.args.n, 8);
	assert_int_equal(t.args.v[c].shape[0], 65);
	assert_int_equal(t.args.v[d + 1].shape[1], 1);
	gp_u64map_free(&seen);
	gp_trace_free(&t);
}

static void fmt_matches_printf(void **state)
{
	static const int64_t v[] = {
		0, 1, -1, 9, 10, -10, 99, 100, 123456789, -987654321, INT32_MAX, INT32_MIN,
		INT64_MAX, INT64_MIN, INT64_MIN + 1,
	};
	char got[GP_FMT_INT_SIZE], want[64];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		snprintf(want, sizeof(want), "%lld", (long long)v[i]);
		assert_string_equal(gp_fmt_i64(got, v[i]), want);
		snprintf(want, sizeof(want), "%llu", (unsigned long long)(uint64_t)v[i]);
		assert_string_equal(gp_fmt_u64(got, (uint64_t)v[i]), want);
	}
}

/* Durations print no finer than the finest clock step noted: 3 decimals
** before any (and for nanosecond traces), none in microseconds at whole
** microseconds (ms and s keep theirs), two at 10 ns; a nanosecond trace
** noted afterwards brings the digits back.  (The step is process-wide and
** only gets finer: the order below is the point.) */
static void fmt_duration_at_clock_step(void **state)
{
	char buf[32];

	assert_string_equal(gp_fmt_duration(58000, buf, sizeof(buf)), "58.000 us");
	gp_fmt_note_clock(1000);
	assert_string_equal(gp_fmt_duration(58000, buf, sizeof(buf)), "58 us");
	assert_string_equal(gp_fmt_duration(1234000, buf, sizeof(buf)), "1.234 ms");
	assert_string_equal(gp_fmt_duration(2.5e9, buf, sizeof(buf)), "2.500 s");
	assert_string_equal(gp_fmt_duration(707, buf, sizeof(buf)), "707 ns");
	gp_fmt_note_clock(100000);   /* coarser: changes nothing */
	assert_string_equal(gp_fmt_duration(58000, buf, sizeof(buf)), "58 us");
	gp_fmt_note_clock(10);
	assert_string_equal(gp_fmt_duration(58010, buf, sizeof(buf)), "58.01 us");
	gp_fmt_note_clock(0);        /* nanoseconds */
	assert_string_equal(gp_fmt_duration(58000, buf, sizeof(buf)), "58.000 us");
}

/* Lists and shapes: Python's tuple spelling, and snprintf's contract when
** the buffer is short (the prefix that fits, the whole length returned). */
static void fmt_lists_and_shapes(void **state)
{
	static const int64_t dims[] = {8, 3, -32, 1234567};
	char buf[32];

	assert_int_equal(gp_fmt_i64_list(buf, sizeof(buf), dims, 4), 15);
	assert_string_equal(buf, "8,3,-32,1234567");
	assert_int_equal(gp_fmt_i64_list(buf, sizeof(buf), dims, 0), 0);
	assert_string_equal(buf, "");
	assert_int_equal(gp_fmt_shape(buf, sizeof(buf), dims, 4), 17);
	assert_string_equal(buf, "(8,3,-32,1234567)");
	assert_int_equal(gp_fmt_shape(buf, sizeof(buf), dims, 1), 4);
	assert_string_equal(buf, "(8,)");
	assert_int_equal(gp_fmt_shape(buf, sizeof(buf), dims, 0), 2);
	assert_string_equal(buf, "()");
	assert_int_equal(gp_fmt_shape(buf, 7, dims, 4), 17);
	assert_string_equal(buf, "(8,3,-");
	assert_int_equal(gp_fmt_shape(NULL, 0, dims, 3), 9);
	buf[0] = 'x';
	assert_int_equal(gp_fmt_i64_list(buf, 1, dims, 2), 3);
	assert_string_equal(buf, "");
}

static void api_version_suffix_is_stripped(void **state)
{
	char buf[64];

	assert_string_equal(gp_api_strip_version("cudaLaunchKernel_v7000", buf, sizeof(buf)), "cudaLaunchKernel");
	assert_string_equal(gp_api_strip_version("cudaLaunchKernelExC_v11060", buf, sizeof(buf)), "cudaLaunchKernelExC");
	assert_string_equal(gp_api_strip_version("cuLaunchKernel", buf, sizeof(buf)), "cuLaunchKernel");
	assert_string_equal(gp_api_strip_version("cuda_v", buf, sizeof(buf)), "cuda_v");
	assert_string_equal(gp_api_strip_version("cuMemAlloc_v2", buf, sizeof(buf)), "cuMemAlloc_v2");
	assert_string_equal(gp_api_strip_version("cuMemcpyHtoDAsync_v2", buf, sizeof(buf)), "cuMemcpyHtoDAsync_v2");
	assert_string_equal(gp_api_strip_version("cudaMemcpyAsync_v3020", buf, sizeof(buf)), "cudaMemcpyAsync");
}

/* The reference order of gp_sort_pairs, by comparisons. */
static int pair_order(const void *pa, const void *pb)
{
	const struct gp_pair *x = pa, *y = pb;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

/* The radix sort gives qsort's order: below and above its qsort cut-off,
** keys that differ only in their high bytes, digits all pairs share,
** duplicates, the largest values. */
static void radix_sort_matches_qsort(void **state)
{
	static const size_t sizes[] = {0, 1, 2, 255, 256, 5000, 70000};
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		struct gp_pair *v = malloc((n ? n : 1) * sizeof(*v)), *w = malloc((n ? n : 1) * sizeof(*w));
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
			v[i].a = (x % 7) << (8 * (x % 8));          /* few keys, any byte */
			v[i].b = i % 3 == 0 ? UINT64_MAX - (x >> 60) : (x >> 20) % 100000;
		}
		memcpy(w, v, n * sizeof(*v));
		gp_sort_pairs(v, n);
		if (n)
			qsort(w, n, sizeof(*w), pair_order);
		assert_memory_equal(v, w, n * sizeof(*v));
		/* sorted input is left as it is; one pair out of place at either
		** end is still found (the sortedness check stops only at the end) */
		gp_sort_pairs(v, n);
		assert_memory_equal(v, w, n * sizeof(*v));
		if (n > 1 && pair_order(&w[n - 2], &w[n - 1]) < 0) {
			struct gp_pair last = v[n - 1];
			v[n - 1] = v[n - 2];
			v[n - 2] = last;
			gp_sort_pairs(v, n);
			assert_memory_equal(v, w, n * sizeof(*v));
		}
		if (n > 1 && pair_order(&w[0], &w[1]) < 0) {
			struct gp_pair first = v[0];
			v[0] = v[1];
			v[1] = first;
			gp_sort_pairs(v, n);
			assert_memory_equal(v, w, n * sizeof(*v));
		}
		free(v);
		free(w);
	}
}

/* A record for gp_sort_keyed: a signed key, a tie-breaker, and where it
** came from (which a stable sort keeps in order among full ties). */
struct keyed_rec {
	int64_t key;
	uint32_t tie, from;
	char pad[24];   /* over 32 bytes, as kernels and ranges are */
};

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed_rec *x = pa, *y = pb;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->tie > y->tie) - (x->tie < y->tie);
}

static uint64_t keyed_key(const void *p)
{
	return (uint64_t)((const struct keyed_rec *)p)->key ^ (UINT64_C(1) << 63);
}

/* gp_sort_keyed gives the stable merge sort's order (glibc's qsort, which
** gp_sort calls): negative and extreme keys, keys spread over one byte or
** all eight, runs of equal keys broken by the tie-breaker, full ties in
** input order, sorted input, sizes both sides of the radix cut-off; and
** input made of sorted runs that the merge path takes: two overlapping
** runs a group (the longer one first or second), a few records out of
** place, two long runs overlapping wholly (past the merge's buffer). */
static void keyed_sort_matches_stable_sort(void **state)
{
	static const size_t sizes[] = {0, 1, 2, 255, 256, 3000, 70000};
	uint64_t x = 88172645463325252ull;

	(void)state;
	for (int spread = 0; spread < 6; spread++)
		for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
			size_t n = sizes[s];
			struct keyed_rec *v = calloc(n ? n : 1, sizeof(*v)), *w = calloc(n ? n : 1, sizeof(*w));
			for (size_t i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
				size_t g = i / 1000, in = i % 1000, cut = g % 2 ? 300 : 700;
				v[i].key = spread == 0 ? (int64_t)(x % 200) - 100 :
					   spread == 1 ? (int64_t)x :
					   spread == 2 ? 1000000000000 + (int64_t)(x % 5000) * 1000 :
					   /* two sorted runs a group of 1000, overlapping, ties */
					   spread == 3 ? (int64_t)(g * 10000 + (in < cut ? in * 3 : (in - cut) * 2) / 2) :
					   /* sorted, every 500th record far out of place */
					   spread == 4 ? (int64_t)(i % 500 == 499 ? i / 2 : i) :
					   /* two halves, each sorted, overlapping wholly */
					   (int64_t)(i < n / 2 ? i * 2 : (i - n / 2) * 2 + 1);
				if (i % 97 == 0 && spread < 3)
					v[i].key = i % 2 ? INT64_MIN : INT64_MAX;
				v[i].tie = spread < 3 ? (uint32_t)(x >> 61) : (uint32_t)(in % 2);
				v[i].from = (uint32_t)i;
			}
			memcpy(w, v, n * sizeof(*v));
			gp_sort_keyed(v, n, sizeof(*v), keyed_key, keyed_cmp);
			if (n)
				qsort(w, n, sizeof(*w), keyed_cmp);
			assert_memory_equal(v, w, n * sizeof(*v));
			for (size_t i = 1; i < n; i++)   /* the reference is stable */
				if (keyed_cmp(&w[i - 1], &w[i]) == 0)
					assert_true(w[i - 1].from < w[i].from);
			gp_sort_keyed(v, n, sizeof(*v), keyed_key, keyed_cmp);
			assert_memory_equal(v, w, n * sizeof(*v));
			free(v);
			free(w);
		}
}

static void dtypes_parse_every_spelling(void **state)
{
	assert_int_equal(gp_dtype_parse("float16"), GP_DT_FP16);
	assert_int_equal(gp_dtype_parse("c10::Half"), GP_DT_FP16);
	assert_int_equal(gp_dtype_parse("torch.bfloat16"), GP_DT_BF16);
	assert_int_equal(gp_dtype_parse("float"), GP_DT_FP32);
	assert_int_equal(gp_dtype_parse("long int"), GP_DT_INT64);
	assert_int_equal(gp_dtype_parse("nonsense"), GP_DT_UNKNOWN);
	/* any case, the first letter too; nothing for "" */
	assert_int_equal(gp_dtype_parse("Float"), GP_DT_FP32);
	assert_int_equal(gp_dtype_parse("BOOL"), GP_DT_BOOL);
	assert_int_equal(gp_dtype_parse("C10::BFloat16"), GP_DT_BF16);
	assert_int_equal(gp_dtype_parse(""), GP_DT_UNKNOWN);
	assert_int_equal(gp_dtype_parse("torch."), GP_DT_UNKNOWN);
	assert_int_equal(gp_dtype_size(GP_DT_BF16), 2);
	assert_int_equal(gp_dtype_size(GP_DT_INT64), 8);
	assert_string_equal(gp_dtype_short(GP_DT_FP32), "fp32");
}

static void finish_sorts_and_nests(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	/* thread 1: outer [0,100] with inner [10,20] and [30,40]; mark at 35 */
	struct { gp_ns s, e; int kind; } rs[] = {
		{30, 40, GP_RANGE_PUSHPOP}, {0, 100, GP_RANGE_PUSHPOP}, {10, 20, GP_RANGE_PUSHPOP},
		{35, 35, GP_RANGE_MARK}, {200, 300, GP_RANGE_PUSHPOP},
	};
	for (size_t i = 0; i < 5; i++) {
		struct gp_range *r = gp_vec_push(t.ranges);
		r->start = rs[i].s;
		r->end = rs[i].e;
		r->kind = (uint8_t)rs[i].kind;
		r->pid = 1;
		r->tid = 1;
	}
	gp_trace_finish(&t);
	assert_int_equal(t.ranges.v[0].start, 0);
	assert_int_equal(t.ranges.v[0].depth, 0);
	assert_int_equal(t.ranges.v[1].start, 10);
	assert_int_equal(t.ranges.v[1].parent, 0);
	assert_int_equal(t.ranges.v[2].start, 30);
	assert_int_equal(t.ranges.v[2].depth, 1);
	assert_int_equal(t.ranges.v[3].start, 35);      /* the mark */
	assert_int_equal(t.ranges.v[3].parent, 2);
	assert_int_equal(t.ranges.v[4].parent, -1);
	gp_trace_warn(&t, "x %d", 1);
	gp_trace_warn(&t, "x %d", 1);
	assert_int_equal(t.warnings.n, 1);
	gp_trace_meta_set(&t, "rank", "0");
	gp_trace_meta_set(&t, "rank", "3");
	assert_string_equal(gp_trace_meta_get(&t, "rank"), "3");
	gp_trace_free(&t);
}

/* gp_trace_finish orders ranges as one stable sort of the whole array by
** gp_range_cmp does (reader order kept among equal ranges), whatever the
** interleaving of threads: random ranges of several threads, with many
** ties, nearly sorted or not, spread over the threads or nearly all on one
** (the partition's two ways), against qsort (glibc's is a stable merge
** sort) over the reader's order with the reader's index as the last key. */
static int cmp_range_then_order(const void *pa, const void *pb)
{
	const struct gp_range *a = pa, *b = pb;
	int c = gp_range_cmp(a, b);

	return c ? c : (a->text > b->text) - (a->text < b->text);
}

static void finish_orders_ranges_as_one_stable_sort(void **state)
{
	static const size_t sizes[] = {0, 1, 2, 3, 50, 3000};
	uint64_t x = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
		for (int layout = 0; layout < 4; layout++) {
			/* 1, 3: nearly sorted; 2, 3: one thread holds 19 of 20 ranges */
			int mostly_sorted = layout & 1, skewed = layout >> 1;
			size_t n = sizes[si];
			gp_trace t;
			struct gp_range *want = malloc((n ? n : 1) * sizeof(*want));

			gp_trace_init(&t);
			for (size_t i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
				struct gp_range *r = gp_vec_push(t.ranges);
				r->pid = skewed && x % 20 ? 100 : (uint32_t)(x % 3) * 100;
				r->tid = skewed && x % 20 ? 1 : (uint32_t)(x >> 8) % 4;
				r->start = mostly_sorted ? (gp_ns)i * 10 + (gp_ns)((x >> 16) % 3) : (gp_ns)((x >> 16) % 20);
				r->end = r->start + (gp_ns)((x >> 24) % 4);
				r->kind = (uint8_t)((x >> 32) % 2 ? GP_RANGE_PUSHPOP : GP_RANGE_MARK);
				r->text = (gp_str)(i + 1);   /* the reader's order */
				r->parent = -1;
				want[i] = *r;
			}
			if (n)
				qsort(want, n, sizeof(*want), cmp_range_then_order);
			gp_trace_finish(&t);
			assert_int_equal(t.ranges.n, n);
			for (size_t i = 0; i < n; i++) {
				assert_int_equal(t.ranges.v[i].text, want[i].text);
				assert_int_equal(t.ranges.v[i].start, want[i].start);
			}
			free(want);
			gp_trace_free(&t);
		}
	}
}

/* One random trace of n kernels, calls, copies and ranges (same seed, same
** trace): copies of async and sync calls, ranges on several threads. */
static void random_trace(gp_trace *t, size_t n, int threads)
{
	uint64_t x = 0x2545f4914f6cdd1dull;

	gp_trace_init(t);
	t->work_threads = threads;
	gp_str names[2] = {gp_intern(t, "cudaMemcpyAsync"), gp_intern(t, "cudaMemcpy")};
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		gp_ns s = (gp_ns)((x >> 8) % (n * 4));
		struct gp_kernel *k = gp_vec_push(t->kernels);
		k->start = s;
		k->end = s + (gp_ns)(x % 50);
		k->corr = i + 1;
		struct gp_api *a = gp_vec_push(t->apis);
		a->start = s - 10;
		a->end = s + (gp_ns)(x % 7);
		a->pid = 1;
		a->tid = (uint32_t)(x % 3);
		a->corr = i % 10 == 0 ? n + i : i + 1;
		a->def = gp_api_def_add(t, &(struct gp_api_def){.name = names[(x >> 3) % 2]});
		if (i % 10 == 0) {
			struct gp_memcpy *m = gp_vec_push(t->memcpys);
			m->start = s;
			m->end = s + 5;
			m->corr = n + i;
			m->pid = 1;
		}
		struct gp_range *r = gp_vec_push(t->ranges);
		r->pid = (uint32_t)(x % 2);
		r->tid = (uint32_t)(x >> 20) % 5;
		r->start = s - (gp_ns)((x >> 30) % 40);
		r->end = s + (gp_ns)((x >> 40) % 40);
		r->kind = GP_RANGE_PUSHPOP;
		r->text = (gp_str)(i + 1);
	}
}

/* gp_trace_finish on two threads (a trace past the size where it uses
** them) gives the trace it gives on one: every record array the same,
** byte for byte, and the same copies marked async. */
static void finish_on_two_threads_as_on_one(void **state)
{
	gp_trace one, two;
	size_t n = 70000;

	(void)state;
	random_trace(&one, n, 1);
	random_trace(&two, n, 2);
	gp_trace_finish(&one);
	gp_trace_finish(&two);
#define SAME(vec) \
	assert_int_equal(one.vec.n, two.vec.n); \
	assert_memory_equal(one.vec.v, two.vec.v, one.vec.n * sizeof(*one.vec.v))
	SAME(kernels);
	SAME(apis);
	SAME(memcpys);
	SAME(ranges);
#undef SAME
	size_t async = 0;
	for (size_t i = 0; i < one.memcpys.n; i++)
		async += one.memcpys.v[i].async;
	assert_true(async > 0 && async < one.memcpys.n);
	for (size_t i = 1; i < one.ranges.n; i++)
		assert_true(gp_range_cmp(&one.ranges.v[i - 1], &one.ranges.v[i]) <= 0);
	gp_trace_free(&one);
	gp_trace_free(&two);
}

/* gp_kernel_set_pid: each kernel gets its own process, kernels of one def
** and one process share a def, the rest of the def is kept, and the memo
** gives the same answers as no memo. */
static void kernel_pid_moves_to_a_shared_def(void **state)
{
	static const uint32_t pids[] = {7, 9, 7, 7, 0, 9};
	gp_trace t;
	gp_u64map memo = {0};

	(void)state;
	gp_trace_init(&t);
	uint32_t def = gp_kernel_def_add(&t, &(struct gp_kernel_def){
		.name = gp_intern(&t, "gemm"), .grid = {4, 2, 1}, .device = 3});
	for (int pass = 0; pass < 2; pass++) {
		t.kernels.n = 0;
		for (size_t i = 0; i < 6; i++) {
			struct gp_kernel *k = gp_vec_push(t.kernels);
			k->def = def;
			gp_kernel_set_pid(&t, k, pids[i], pass ? &memo : NULL);
		}
		for (size_t i = 0; i < 6; i++) {
			const struct gp_kernel *k = &t.kernels.v[i];
			assert_int_equal(gp_kernel_pid(&t, k), pids[i]);
			assert_int_equal(gp_kernel_device(&t, k), 3);
			assert_int_equal(gp_kernel_def(&t, k)->grid[0], 4);
			assert_string_equal(gp_s(&t, gp_kernel_def(&t, k)->name), "gemm");
		}
		assert_int_equal(t.kernels.v[0].def, t.kernels.v[2].def);
		assert_int_equal(t.kernels.v[1].def, t.kernels.v[5].def);
		assert_int_equal(t.kernels.v[4].def, def);   /* pid 0: the def it had */
		assert_int_not_equal(t.kernels.v[0].def, t.kernels.v[1].def);
	}
	assert_int_equal(t.kernel_defs.n, 4);   /* [0], pid 0, 7 and 9 */
	gp_u64map_free(&memo);
	gp_trace_free(&t);
}

/* Two push/pop ranges of one thread ending at the same, latest instant were
** ended by the profiler; a single outermost range ending last was not. */
static void unpopped_ranges_are_flagged(void **state)
{
	gp_trace t;
	struct { uint32_t tid; gp_ns s, e; } rs[] = {
		{1, 0, 1000}, {1, 10, 1000}, {1, 20, 30},   /* two leftovers on thread 1 */
		{2, 0, 1000}, {2, 10, 20},                  /* thread 2: one outer range */
	};

	gp_trace_init(&t);
	for (size_t i = 0; i < 5; i++) {
		struct gp_range *r = gp_vec_push(t.ranges);
		r->pid = 1;
		r->tid = rs[i].tid;
		r->start = rs[i].s;
		r->end = rs[i].e;
		r->kind = GP_RANGE_PUSHPOP;
	}
	gp_trace_finish(&t);
	assert_true(t.ranges.v[0].flags & GP_RANGE_F_UNCLOSED);
	assert_true(t.ranges.v[1].flags & GP_RANGE_F_UNCLOSED);
	assert_false(t.ranges.v[2].flags & GP_RANGE_F_UNCLOSED);
	assert_false(t.ranges.v[3].flags & GP_RANGE_F_UNCLOSED);
	assert_false(t.ranges.v[4].flags & GP_RANGE_F_UNCLOSED);
	assert_int_equal(t.warnings.n, 1);
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(u64map_reserve_holds_its_keys),
		cmocka_unit_test(u64map_dense_answers_as_hashed),
		cmocka_unit_test(strtab_interns_once),
		cmocka_unit_test(strtab_layout_edges),
		cmocka_unit_test(arena_aligns_and_zeroes),
		cmocka_unit_test(arena_mixes_strings_and_records),
		cmocka_unit_test(strtab_word_boundaries),
		cmocka_unit_test(fmt_matches_printf),
		cmocka_unit_test(args_share_identical_lists),
		cmocka_unit_test(fmt_lists_and_shapes),
		cmocka_unit_test(fmt_duration_at_clock_step),
		cmocka_unit_test(api_version_suffix_is_stripped),
		cmocka_unit_test(dtypes_parse_every_spelling),
		cmocka_unit_test(radix_sort_matches_qsort),
		cmocka_unit_test(keyed_sort_matches_stable_sort),
		cmocka_unit_test(finish_sorts_and_nests),
		cmocka_unit_test(finish_orders_ranges_as_one_stable_sort),
		cmocka_unit_test(kernel_pid_moves_to_a_shared_def),
		cmocka_unit_test(unpopped_ranges_are_flagged),
		cmocka_unit_test(finish_on_two_threads_as_on_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
