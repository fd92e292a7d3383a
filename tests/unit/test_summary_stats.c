/*
** Unit tests: the statistics behind `gpuprof summary` (src/util/stats.c),
** checked against values nsys stats printed for the trixi report.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "util/stats.h"

static const char *fmt1(double v, char *buf)
{
	snprintf(buf, 32, "%.1f", v);
	return buf;
}

/* cuCtxSynchronize in nsys/trixi_v100_2023.1/expected_cuda_api_sum.csv:
** 3 calls, total 25566, avg 8522.0, med 10416.0, min 3166, max 11984,
** stddev 4704.2. */
static void matches_nsys_on_trixi(void **state)
{
	int64_t v[] = {11984, 3166, 10416};
	struct gp_stats s;
	char buf[32];

	gp_stats_compute(v, 3, &s);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.total, 25566);
	assert_int_equal(s.min, 3166);
	assert_int_equal(s.max, 11984);
	assert_string_equal(fmt1(s.avg, buf), "8522.0");
	assert_string_equal(fmt1(s.med, buf), "10416.0");
	assert_string_equal(fmt1(s.stddev, buf), "4704.2");
	/* Time(%) of cuModuleLoadDataEx: 113105 of 195386 ns */
	assert_string_equal(fmt1(gp_percent(113105, 113105 + 38083 + 25566 + 18632), buf), "57.9");
}

static void single_and_empty(void **state)
{
	int64_t one[] = {2272};
	struct gp_stats s;

	gp_stats_compute(one, 1, &s);
	assert_int_equal(s.total, 2272);
	assert_true(s.med == 2272.0 && s.avg == 2272.0);
	assert_true(s.stddev == 0.0);   /* nsys prints 0.0 for one instance */
	gp_stats_compute(NULL, 0, &s);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.total, 0);
	assert_true(s.avg == 0.0 && s.stddev == 0.0);
	assert_true(gp_percent(5, 0) == 0.0);
}

static void even_median_is_mean_of_middle(void **state)
{
	int64_t v[] = {4, 1, 3, 2};
	int64_t w[] = {7, 7};
	struct gp_stats s;

	gp_stats_compute(v, 4, &s);
	assert_true(s.med == 2.5);
	assert_true(s.avg == 2.5);
	gp_stats_compute(w, 2, &s);
	assert_true(s.med == 7.0 && s.stddev == 0.0);
}

/* Sample (n-1) standard deviation: {2,4,4,4,5,5,7,9} has population sd 2
** and sample sd sqrt(32/7). */
static void sample_stddev(void **state)
{
	int64_t v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct gp_stats s;
	char buf[32];

	gp_stats_compute(v, 8, &s);
	assert_string_equal(fmt1(s.stddev, buf), "2.1");
	assert_true(s.stddev > 2.138 && s.stddev < 2.139);
}

/* Epoch-nanosecond values (nvprof) must not lose their small differences. */
static void large_values_keep_precision(void **state)
{
	int64_t v[] = {1583975499355129131, 1583975499355129132, 1583975499355129133};
	struct gp_stats s;

	gp_stats_compute(v, 3, &s);
	assert_true(s.stddev == 1.0);
	assert_true(s.med == (double)1583975499355129132);
	assert_int_equal(s.min, 1583975499355129131);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matches_nsys_on_trixi),
		cmocka_unit_test(single_and_empty),
		cmocka_unit_test(even_median_is_mean_of_middle),
		cmocka_unit_test(sample_stddev),
		cmocka_unit_test(large_values_keep_precision),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
