/*
** Unit tests: ranks of trace files (src/analysis/ranks.c: names, order,
** notes, records and their comparison) and kept rows (src/writers/rowbuf.c:
** the bytes that travel between threads and MPI processes).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ranks.h"
#include "writers/rowbuf.h"

static void rank_from_names(void **state)
{
	assert_int_equal(gp_rank_from_name("run/rank-3.json"), 3);
	assert_int_equal(gp_rank_from_name("run/RANK_12.pt.trace.json.gz"), 12);
	assert_int_equal(gp_rank_from_name("host_rank7_1700000000.json"), 7);
	assert_int_equal(gp_rank_from_name("trace_5.json"), 5);
	assert_int_equal(gp_rank_from_name("job_1_of_8.json"), 8);   /* "_8." is a rank */
	assert_int_equal(gp_rank_from_name("job-1.json"), -1);
	assert_int_equal(gp_rank_from_name("a_2_3.sqlite"), 3);      /* the last one */
	assert_int_equal(gp_rank_from_name("rank4/trace.json"), -1); /* base name only */
	assert_int_equal(gp_rank_from_name("ranking.json"), -1);
	assert_int_equal(gp_rank_from_name("rank-99999999999.json"), -1); /* too long */
}

static void order_and_notes(void **state)
{
	struct gp_rank_id ids[4] = {
		{.rank = 2, .world = 8, .source = GP_RANK_FROM_META},
		{.rank = -1, .world = -1},
		{.rank = -1, .world = -1},
		{.rank = 0, .world = 8, .source = GP_RANK_FROM_META},
	};
	const char *paths[4] = {"a.json", "b_rank-2.json", "c.json", "d.json"};
	size_t order[4];
	char *notes = gp_ranks_order(ids, paths, 4, order);

	assert_int_equal(ids[1].rank, 2);
	assert_int_equal(ids[1].source, GP_RANK_FROM_NAME);
	assert_int_equal(ids[2].rank, 2);          /* its position */
	assert_int_equal(ids[2].source, GP_RANK_FROM_ORDER);
	/* rank 0, then the three rank 2 in argument order */
	assert_int_equal(order[0], 3);
	assert_int_equal(order[1], 0);
	assert_int_equal(order[2], 1);
	assert_int_equal(order[3], 2);
	assert_non_null(notes);
	assert_non_null(strstr(notes, "b_rank-2.json: rank 2 also given by file 1 (both kept"));
	assert_non_null(strstr(notes, "c.json: rank 2 also given by file 2 (both kept"));
	assert_non_null(strstr(notes, "1 file(s) say no rank"));
	assert_non_null(strstr(notes, "rank 1 of world size 8 has no file\n"));
	assert_non_null(strstr(notes, "ranks 3-7 have no file\n"));
	free(notes);
}

/* Records of three ranks: steps (iteration, ns). */
static void compare_records(void **state)
{
	struct gp_rank_step s0[] = {{1, 100}, {2, 110}, {3, 90}};
	struct gp_rank_step s1[] = {{1, 150}, {2, 160}, {3, 170}};  /* the straggler */
	struct gp_rank_step s2[] = {{2, 100}, {3, 80}, {4, 500}};
	struct gp_rank_record r[3] = {
		{.steps = s0, .nsteps = 3, .step_median = 100},
		{.steps = s1, .nsteps = 3, .step_median = 160},
		{.steps = s2, .nsteps = 3, .step_median = 100},
	};
	const struct gp_rank_record *rp[3] = {&r[0], &r[1], &r[2]};
	struct gp_ranks_cmp c;
	struct gp_step_cmp sc;

	gp_ranks_compare(rp, 3, &c);
	assert_int_equal(c.slowest, 1);
	assert_int_equal(c.fastest, 0);     /* tie: the lower index */
	assert_int_equal(c.skew, 60);
	assert_int_equal(c.others_median, 100);
	/* steps 1 (others: 100), 2 (others 110, 100: 105), 3 (90, 80: 85) */
	assert_int_equal(c.steps, 3);
	assert_int_equal(c.at_stake, 50 + 55 + 85);
	gp_ranks_step(rp, 3, 3, &sc);
	assert_int_equal(sc.have, 3);
	assert_int_equal(sc.median, 90);
	assert_int_equal(sc.slowest, 1);
	assert_int_equal(sc.slowest_ns, 170);
	assert_int_equal(sc.fastest, 2);
	assert_int_equal(sc.fastest_ns, 80);
	gp_ranks_step(rp, 3, 9, &sc);
	assert_int_equal(sc.have, 0);
	assert_int_equal(sc.median, -1);
}

static void rowbuf_round_trip(void **state)
{
	static const struct gp_column cols[2] = {{"a", "A", 1, false, false, NULL},
						 {"b", "B", 1, false, false, NULL}};
	const char *r1[2] = {"x", NULL}, *r2[2] = {"", "y z"};
	const char *cells[2];
	struct gp_rowbuf rb = {0};
	gp_writer w;
	size_t at = 0;

	gp_rowbuf_writer(&w, &rb, cols, 2);
	gp_writer_row(&w, r1);
	gp_writer_row(&w, r2);
	assert_int_equal(rb.nrows, 2);
	assert_int_equal(rb.len, 2 + 1 + 1 + 2 + 5);   /* 01 'x' 00 | 00 | 01 00 | 01 'y z' 00 */
	assert_int_equal(gp_rowbuf_next(&rb, &at, cells), 1);
	assert_string_equal(cells[0], "x");
	assert_null(cells[1]);
	assert_int_equal(gp_rowbuf_next(&rb, &at, cells), 1);
	assert_string_equal(cells[0], "");
	assert_string_equal(cells[1], "y z");
	assert_int_equal(gp_rowbuf_next(&rb, &at, cells), 0);
	/* cut short or with a bad tag: damaged, never read past the end */
	rb.len -= 2;
	at = 0;
	assert_int_equal(gp_rowbuf_next(&rb, &at, cells), 1);
	assert_int_equal(gp_rowbuf_next(&rb, &at, cells), -1);
	rb.data[0] = 7;
	at = 0;
	assert_int_equal(gp_rowbuf_next(&rb, &at, cells), -1);
	gp_rowbuf_free(&rb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rank_from_names),
		cmocka_unit_test(order_and_notes),
		cmocka_unit_test(compare_records),
		cmocka_unit_test(rowbuf_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
