/*
** Unit tests: collectives matched across hand-built rank records whose
** every number is worked out below (clock offsets from the median of end
** differences, waits, the straggler, skew, pure communication, a call
** missing on one rank), the straggler's limits, nccl-tests' busbw factors,
** the kind names, and calls within a node and across nodes (spans).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/coll_a2a.h"
#include "analysis/collectives.h"

#define MS 1000000LL

/* A rank record of calls all-reduce seq 0..n-1 (group ""), 1 GB each:
** call i arrives at starts[i] and ends at ends[i], on a clock shift ns
** ahead of the true one. */
static void rank_of(struct gp_coll_rank *r, int rank, gp_ns shift, const gp_ns *starts, const gp_ns *ends,
		    const int64_t *seqs, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->world_size = 3;
	r->groups = calloc(1, sizeof(*r->groups));
	r->groups[0] = strdup("");
	r->ngroups = 1;
	r->v = calloc(n, sizeof(*r->v));
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		r->v[i].start = starts[i] + shift;
		r->v[i].end = ends[i] + shift;
		r->v[i].seq = seqs[i];
		r->v[i].seq_stated = 1;
		r->v[i].kind = GP_COLL_ALL_REDUCE;
		r->v[i].bytes = 1000000000;
		r->v[i].group_size = -1;
		r->v[i].iter = -1;
	}
}

static void match_with_skewed_clocks(void **state)
{
	(void)state;
	/* true clock: calls 0..3 end at 10, 20, 30, 40 ms; rank 1 is late by
	** 2 ms at every call, rank 2 by 1 ms at call 2 only.  Rank 1's clock is
	** +5 s and its ends jitter by +1 us at call 0 and -1 us at call 3 (the
	** median of {+1 us, 0, 0, -1 us} is 0); rank 2's clock is -3 s and it
	** misses call 3 (seq 3), which is then not complete. */
	static const int64_t seq4[] = {0, 1, 2, 3}, seq3[] = {0, 1, 2};
	static const gp_ns s0[] = {5 * MS, 15 * MS, 25 * MS, 35 * MS}, e0[] = {10 * MS, 20 * MS, 30 * MS, 40 * MS};
	static const gp_ns s1[] = {7 * MS, 17 * MS, 27 * MS, 37 * MS};
	static const gp_ns e1[] = {10 * MS + 1000, 20 * MS, 30 * MS, 40 * MS - 1000};
	static const gp_ns s2[] = {5 * MS, 15 * MS, 26 * MS}, e2[] = {10 * MS, 20 * MS, 30 * MS};
	struct gp_coll_rank r[3];
	struct gp_coll_match m;

	rank_of(&r[0], 0, 0, s0, e0, seq4, 4);
	rank_of(&r[1], 1, 5000 * MS, s1, e1, seq4, 4);
	rank_of(&r[2], 2, -3000 * MS, s2, e2, seq3, 3);
	gp_coll_match(r, 3, &m);

	assert_int_equal(m.ncalls, 4);
	assert_int_equal(m.ncomplete, 3);
	assert_true(m.ranks[1].aligned && m.ranks[2].aligned);
	/* rank 1: median of {-5 s - 1 us, -5 s, -5 s, -5 s + 1 us} */
	assert_int_equal(m.ranks[1].offset, -5000 * MS);
	assert_int_equal(m.ranks[2].offset, 3000 * MS);
	for (size_t c = 0; c < 3; c++) {
		const struct gp_coll_call *x = &m.calls[c];
		assert_int_equal(x->seq, (int64_t)c);
		assert_int_equal(x->last_rank, 1);
		assert_int_equal(x->skew, 2 * MS);
		/* ranks 0 and 2 wait 2 ms, but at call 2 rank 2 came 1 ms late */
		assert_int_equal(x->wait_total, c == 2 ? 3 * MS : 4 * MS);
		/* after the next-to-last: rank 2 at call 2, 1 ms before it */
		assert_int_equal(x->late, c == 2 ? 1 * MS : 2 * MS);
		/* the straggler's own kernel: 3 ms (call 0: 3 ms + 1 us) */
		assert_int_equal(x->comm, c == 0 ? 3 * MS + 1000 : 3 * MS);
		assert_int_equal(x->nranks_group, 3);
	}
	/* 1 GB in 3 ms: algbw 333.3 GB/s, busbw x 2(n-1)/n = 4/3: 444.4 GB/s */
	assert_true(m.calls[1].algbw > 333.33e9 && m.calls[1].algbw < 333.34e9);
	assert_true(m.calls[1].busbw > 444.44e9 && m.calls[1].busbw < 444.45e9);
	assert_int_equal(m.calls[3].present, 2);
	assert_int_equal(m.ranks[1].times_last, 3);
	assert_int_equal(m.ranks[1].caused, 11 * MS);
	assert_int_equal(m.ranks[1].late, 5 * MS);
	assert_int_equal(gp_coll_straggler(&m), 1);
	assert_int_equal(m.ranks[1].wait, 0);
	assert_int_equal(m.ranks[0].wait, 6 * MS);
	assert_int_equal(m.ranks[2].wait, 5 * MS);
	assert_int_equal(m.ranks[2].matched, 3);
	assert_int_equal(m.kinds[GP_COLL_ALL_REDUCE].calls, 3);
	assert_int_equal(m.kinds[GP_COLL_ALL_REDUCE].wait, 11 * MS);
	assert_int_equal(m.wait_total, 11 * MS);
	gp_coll_match_free(&m);
	for (int i = 0; i < 3; i++)
		gp_coll_rank_free(&r[i]);
}

/* gp_coll_straggler of three ranks on one clock whose four calls end at
** 10, 20, 30, 40 ms and start 5 ms earlier, but for the (rank, call,
** ms late) given. */
static int straggler_of(const int late[][3], size_t nlate)
{
	static const int64_t seq[] = {0, 1, 2, 3};
	static const gp_ns e[] = {10 * MS, 20 * MS, 30 * MS, 40 * MS};
	struct gp_coll_rank r[3];
	struct gp_coll_match m;
	int s;

	for (int k = 0; k < 3; k++) {
		gp_ns st[4] = {5 * MS, 15 * MS, 25 * MS, 35 * MS};
		for (size_t i = 0; i < nlate; i++)
			if (late[i][0] == k)
				st[late[i][1]] += late[i][2] * MS;
		rank_of(&r[k], k, 0, st, e, seq, 4);
	}
	gp_coll_match(r, 3, &m);
	s = gp_coll_straggler(&m);
	gp_coll_match_free(&m);
	for (int k = 0; k < 3; k++)
		gp_coll_rank_free(&r[k]);
	return s;
}

static void straggler_limits(void **state)
{
	/* rank 1 last at 3 of 4 calls (2 ms: 4 ms of waiting each), rank 0 at
	** one (1 ms): rank 1 caused 12 of 14 ms */
	static const int mostly[][3] = {{1, 0, 2}, {1, 1, 2}, {1, 3, 2}, {0, 2, 1}};
	/* ranks 0 and 1 last at two calls each by 1 ms: jitter, no straggler */
	static const int jitter[][3] = {{0, 0, 1}, {0, 1, 1}, {1, 2, 1}, {1, 3, 1}};
	/* rank 0 is waited for longest (5 ms late once: 10 of 16 ms) but was
	** last at one call only; rank 2, last at the other three by 1 ms (6
	** ms), is not the one waited for longest: none */
	static const int once[][3] = {{0, 0, 5}, {2, 1, 1}, {2, 2, 1}, {2, 3, 1}};
	(void)state;
	assert_int_equal(straggler_of(mostly, 4), 1);
	assert_int_equal(straggler_of(jitter, 4), -1);
	assert_int_equal(straggler_of(once, 4), -1);
	assert_int_equal(straggler_of(NULL, 0), -1);   /* all on time: nobody waits */
}

/* Clocks 1.7e18 ns apart (a trace on the host's epoch, one from 0): six
** end differences near -2^60.6 overflow a sum; the offset is still the
** exact median (of an even count, the middle two's mean, half away from
** zero: -1719619200000792924.5 -> ...925). */
static void offsets_far_apart(void **state)
{
	static const int64_t seq[] = {0, 1, 2, 3, 4, 5};
	static const gp_ns s[] = {1 * MS, 3 * MS, 5 * MS, 7 * MS, 9 * MS, 11 * MS};
	static const gp_ns e0[] = {2 * MS, 4 * MS, 6 * MS, 8 * MS, 10 * MS, 12 * MS};
	gp_ns e1[6];
	const gp_ns shift = 1719619200000792924;
	struct gp_coll_rank r[2];
	struct gp_coll_match m;

	(void)state;
	for (int i = 0; i < 6; i++)   /* rank 1 ends 1 ns later at calls 3, 4, 5 */
		e1[i] = e0[i] + (i >= 3);
	rank_of(&r[0], 0, 0, s, e0, seq, 6);
	rank_of(&r[1], 1, shift, s, e1, seq, 6);
	gp_coll_match(r, 2, &m);
	assert_int_equal(m.ranks[1].offset, -shift - 1);
	gp_coll_match_free(&m);
	gp_coll_rank_free(&r[0]);
	gp_coll_rank_free(&r[1]);
}

static void busbw_factors(void **state)
{
	(void)state;
	/* nccl-tests doc/PERFORMANCE.md */
	assert_true(gp_coll_busbw_factor(GP_COLL_ALL_REDUCE, 8) == 2.0 * 7 / 8);
	assert_true(gp_coll_busbw_factor(GP_COLL_ALL_GATHER, 8) == 7.0 / 8);
	assert_true(gp_coll_busbw_factor(GP_COLL_REDUCE_SCATTER, 4) == 3.0 / 4);
	assert_true(gp_coll_busbw_factor(GP_COLL_ALL_TO_ALL, 2) == 0.5);
	assert_true(gp_coll_busbw_factor(GP_COLL_BROADCAST, 8) == 1);
	assert_true(gp_coll_busbw_factor(GP_COLL_REDUCE, 8) == 1);
	assert_true(gp_coll_busbw_factor(GP_COLL_SEND_RECV, 2) == 1);
	assert_true(gp_coll_busbw_factor(GP_COLL_BARRIER, 8) == 0);
	assert_true(gp_coll_busbw_factor(GP_COLL_ALL_REDUCE, 0) == 0);
}

/* The pass of a layer path: the innermost "(F)", "(B)" or "(W)" that ends
** a component. */
static void a2a_passes(void **state)
{
	(void)state;
	assert_int_equal(gp_a2a_pass("layer3/dispatch(F)"), 'F');
	assert_int_equal(gp_a2a_pass("mlp(B)/combine(W)"), 'W');
	assert_int_equal(gp_a2a_pass("mlp(B)/combine"), 'B');
	assert_int_equal(gp_a2a_pass("combine(Bx)"), 0);
	assert_int_equal(gp_a2a_pass("f(F)oo"), 0);
	assert_int_equal(gp_a2a_pass(""), 0);
	assert_int_equal(gp_a2a_pass(NULL), 0);
}

static void kind_names(void **state)
{
	static const struct {
		const char *s;
		enum gp_coll_kind k;
	} cases[] = {
		{"ncclDevKernel_AllReduce_Sum_f32_RING_LL", GP_COLL_ALL_REDUCE},
		{"ncclKernel_ReduceScatter_RING_LL_Sum_half", GP_COLL_REDUCE_SCATTER},
		{"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", GP_COLL_SEND_RECV},
		{"ncclKernel_Broadcast_RING_LL_Sum_int8_t", GP_COLL_BROADCAST},
		{"ncclDevKernel_Reduce_Sum_f16_RING_LL", GP_COLL_REDUCE},
		{"nccl:_all_gather_base", GP_COLL_ALL_GATHER},
		{"nccl:all_to_all", GP_COLL_ALL_TO_ALL},
		{"c10d::allreduce_", GP_COLL_ALL_REDUCE},
		{"c10d::barrier", GP_COLL_BARRIER},
		{"_reduce_scatter_base", GP_COLL_REDUCE_SCATTER},
		{"allgather_into_tensor_coalesced", GP_COLL_ALL_GATHER},
		{"nccl:recv 0<-1", GP_COLL_SEND_RECV},
		/* communication kernels of other libraries (model/classify.c) */
		{"multimem_all_reduce_kernel", GP_COLL_ALL_REDUCE},
		{"two_shot_all_reduce_kernel_inplace", GP_COLL_ALL_REDUCE},
		{"cross_device_reduce_1stage", GP_COLL_ALL_REDUCE},
		{"cross_device_reduce_2stage", GP_COLL_ALL_REDUCE},
		{"oneShotAllReduceKernel", GP_COLL_ALL_REDUCE},
		{"ncclSymkDevKernel_AllGather_LL", GP_COLL_ALL_GATHER},
		{"dispatch", GP_COLL_ALL_TO_ALL},
		{"cached_notify_combine", GP_COLL_ALL_TO_ALL},
		{"nvshmemi_proxy_progress", GP_COLL_OTHER},
		{"aten::mm", GP_COLL_OTHER},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(gp_coll_kind_parse(cases[i].s), cases[i].k);
	assert_string_equal(gp_coll_kind_name(GP_COLL_REDUCE_SCATTER), "reduce_scatter");
}

/* A rank record on host host ("" unknown) of the calls (group name,
** seq, group size, start, end in ns) given, all-reduces of 1000 bytes. */
struct call_def {
	const char *group;
	int64_t seq;
	int32_t group_size;
	gp_ns start, end;
};

static void rank_on(struct gp_coll_rank *r, int rank, const char *host, const struct call_def *c, size_t n)
{
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	r->world_size = 4;
	snprintf(r->host, sizeof(r->host), "%s", host);
	r->v = calloc(n, sizeof(*r->v));
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		size_t g = 0;
		while (g < r->ngroups && strcmp(r->groups[g], c[i].group) != 0)
			g++;
		if (g == r->ngroups) {
			r->groups = realloc(r->groups, (r->ngroups + 1) * sizeof(*r->groups));
			r->groups[r->ngroups++] = strdup(c[i].group);
		}
		r->v[i] = (struct gp_coll){.start = c[i].start, .end = c[i].end, .seq = c[i].seq, .seq_stated = 1,
					   .kind = GP_COLL_ALL_REDUCE, .bytes = 1000, .group = (uint32_t)g,
					   .group_size = c[i].group_size, .iter = -1};
	}
}

/* Spans (gp_coll_span): ranks 0-1 on host a, 2 on b, 3 on none known.
** The global call (group size 4) names a and b: inter, whatever rank 3's
** host.  tp0's call (size 2) is on ranks 0 and 1, both on a: whole and
** intra, its transfer the shorter kernel (150 ns), bus bytes 1000 x
** 2(2-1)/2.  tp1's call (size 2) is on rank 2 alone: not whole, unknown. */
static void spans_within_and_across_nodes(void **state)
{
	const struct call_def c0[] = {{"g", 0, 4, 0, 400}, {"tp0", 0, 2, 1000, 1200}};
	const struct call_def c1[] = {{"g", 0, 4, 100, 400}, {"tp0", 0, 2, 1050, 1200}};
	const struct call_def c2[] = {{"g", 0, 4, 50, 400}, {"tp1", 0, 2, 1000, 1300}};
	const struct call_def c3[] = {{"g", 0, 4, 200, 400}};
	struct gp_coll_rank r[4];
	struct gp_coll_match m;
	size_t global = 3, tp0 = 3, tp1 = 3;

	(void)state;
	rank_on(&r[0], 0, "a", c0, 2);
	rank_on(&r[1], 1, "a", c1, 2);
	rank_on(&r[2], 2, "b", c2, 2);
	rank_on(&r[3], 3, "", c3, 1);
	gp_coll_match(r, 4, &m);
	assert_int_equal(m.ncalls, 3);
	assert_int_equal(m.nhosts, 2);
	assert_int_equal(m.ranks[3].host, -1);
	assert_int_equal(m.ranks[0].host, m.ranks[1].host);
	for (size_t i = 0; i < 3; i++) {
		const char *g = m.groups[m.calls[i].group];
		*(strcmp(g, "g") == 0 ? &global : strcmp(g, "tp0") == 0 ? &tp0 : &tp1) = i;
	}
	assert_true(global < 3 && tp0 < 3 && tp1 < 3);
	assert_int_equal(m.calls[global].span, GP_SPAN_INTER);
	assert_int_equal(m.calls[global].hosts, 2);
	assert_true(m.calls[global].whole);
	assert_int_equal(m.calls[global].transfer, 200);
	assert_int_equal(m.calls[tp0].span, GP_SPAN_INTRA);
	assert_true(m.calls[tp0].whole);
	assert_int_equal(m.calls[tp0].transfer, 150);
	assert_int_equal(m.calls[tp0].bytes, 1000);
	assert_int_equal(m.calls[tp1].span, GP_SPAN_UNKNOWN);
	assert_false(m.calls[tp1].whole);
	assert_int_equal(m.spans[GP_SPAN_INTRA][GP_COLL_ALL_REDUCE].calls, 1);
	assert_int_equal(m.spans[GP_SPAN_INTRA][GP_COLL_ALL_REDUCE].transfer, 150);
	assert_true(m.spans[GP_SPAN_INTRA][GP_COLL_ALL_REDUCE].bus_bytes == 1000.0);
	assert_int_equal(m.spans[GP_SPAN_INTER][GP_COLL_ALL_REDUCE].calls, 1);
	assert_true(m.spans[GP_SPAN_INTER][GP_COLL_ALL_REDUCE].bus_bytes == 1500.0);
	assert_int_equal(m.spans[GP_SPAN_UNKNOWN][GP_COLL_ALL_REDUCE].calls, 0);
	assert_string_equal(gp_coll_span_name(GP_SPAN_INTER), "inter");
	gp_coll_match_free(&m);

	/* the job's framework: the ranks' when they agree, else unknown */
	r[0].framework = r[1].framework = r[2].framework = r[3].framework = GP_FW_JAX;
	gp_coll_match(r, 4, &m);
	assert_int_equal(m.framework, GP_FW_JAX);
	gp_coll_match_free(&m);
	r[3].framework = GP_FW_PYTORCH;
	gp_coll_match(r, 4, &m);
	assert_int_equal(m.framework, GP_FW_UNKNOWN);
	gp_coll_match_free(&m);

	/* the host and the framework travel in the record's rows */
	struct gp_rowbuf rb = {0};
	struct gp_coll_rank back;
	gp_writer w;
	gp_error err = {0};
	gp_rowbuf_writer(&w, &rb, gp_coll_record_cols, GP_COLL_RECORD_NCOLS);
	gp_coll_rank_put(&r[0], &w);
	assert_int_equal(gp_coll_rank_read(&rb, "x", 0, &back, &err), GP_OK);
	assert_string_equal(back.host, "a");
	assert_int_equal(back.framework, GP_FW_JAX);
	assert_int_equal(back.n, 2);
	gp_coll_rank_free(&back);
	gp_rowbuf_free(&rb);
	for (int i = 0; i < 4; i++)
		gp_coll_rank_free(&r[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(match_with_skewed_clocks),
		cmocka_unit_test(straggler_limits),
		cmocka_unit_test(offsets_far_apart),
		cmocka_unit_test(busbw_factors),
		cmocka_unit_test(kind_names),
		cmocka_unit_test(a2a_passes),
		cmocka_unit_test(spans_within_and_across_nodes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
