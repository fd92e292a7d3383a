/*
** Unit tests: the html page over several ranks (src/writers/html.c,
** html.h): the ranks' kept groups summed by name (analysis/groups.h: exact
** sums, the first known peaks), a layer's drill-down (its ops and kernels,
** summed over the ranks, adding up to the layer), --rank's one rank, a
** damaged part refused.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writers/html.h"
#include "writers/sink.h"

/* Keeps one group row (part, name, params, then the numbers as text). */
static void group(gp_writer *w, const char *part, const char *name, const char *ns, const char *count,
		  const char *flops, const char *pf)
{
	const char *row[GP_KGROUP_NCOLS] = {part, name, "", ns, count, flops, "100", ns, pf, "2e12"};

	gp_writer_row(w, row);
}

/* Keeps one drill-down row (part "layer-op" or "layer-kernel": the layer
** as name, the op or kernel as params). */
static void drill(gp_writer *w, const char *part, const char *layer, const char *what, const char *ns,
		  const char *count)
{
	const char *row[GP_KGROUP_NCOLS] = {part, layer, what, ns, count, "0", "0", "0", "0", "0"};

	gp_writer_row(w, row);
}

struct job {
	struct gp_rowbuf parts[2];
	struct gp_rank_job cmp;
	struct gp_html_rank ranks[2];
};

/* Two ranks: rank 0 ran layer A (10 ns) and op mm; rank 1 layer A (5 ns)
** and layer B. */
static void make_job(struct job *j)
{
	gp_writer w;

	memset(j, 0, sizeof(*j));
	gp_rowbuf_writer(&w, &j->parts[0], gp_kgroup_cols, GP_KGROUP_NCOLS);
	group(&w, "layer", "A", "10", "2", "0.5", "0");
	group(&w, "shape", "mm", "10", "2", "1000", "3e14");
	group(&w, "kernel", "k", "10", "2", "0", "0");
	drill(&w, "layer-op", "A", "mm", "10", "2");
	drill(&w, "layer-kernel", "A", "k", "10", "2");
	gp_rowbuf_writer(&w, &j->parts[1], gp_kgroup_cols, GP_KGROUP_NCOLS);
	group(&w, "layer", "A", "5", "1", "0.25", "0");
	group(&w, "layer", "B", "7", "3", "0", "0");
	group(&w, "shape", "mm", "4", "1", "500", "1e14");
	group(&w, "kernel", "k", "16", "4", "0", "0");
	drill(&w, "layer-op", "A", "mm", "5", "1");
	drill(&w, "layer-op", "B", "add", "4", "2");
	drill(&w, "layer-op", "B", "mm", "3", "1");
	drill(&w, "layer-kernel", "A", "k", "5", "1");
	drill(&w, "layer-kernel", "B", "k", "7", "3");
	/* no collectives: who waits for whom is unknown */
	struct gp_rank_record *rec = calloc(2, sizeof(*rec));
	for (int r = 0; r < 2; r++) {
		struct gp_rank_step *steps = calloc(2, sizeof(*steps));
		steps[0] = (struct gp_rank_step){0, 100 + 50 * r};
		steps[1] = (struct gp_rank_step){1, 110 + 50 * r};
		rec[r] = (struct gp_rank_record){.span = 300, .steps = steps, .nsteps = 2, .step_median = 105 + 50 * r};
		j->ranks[r] = (struct gp_html_rank){.path = r ? "rank-1.json" : "rank-0.json",
						    .id = {.rank = r, .world = 2, .source = GP_RANK_FROM_NAME},
						    .input = "{}"};
	}
	gp_rank_job_compare(rec, 2, &j->cmp);
}

/* The page of job j (only_rank: its groups of that rank alone, as gpuprof
** html sums them) in a new string; its status in *rc. */
static char *page(struct job *j, int32_t only_rank, int *rc, gp_error *err)
{
	struct gp_kgroups g;
	struct gp_html_job hj = {.ranks = j->ranks, .n = 2, .cmp = &j->cmp, .only_rank = only_rank, .groups = &g};
	const struct gp_sink_opts so = {.top = SIZE_MAX, .script = "var x;", .script_len = 6};
	const struct gp_sink_input in = {.job = &hj};
	char *buf = NULL;
	size_t len = 0, at;
	FILE *f = open_memstream(&buf, &len);
	gp_sink s;

	gp_kgroups_init(&g);
	for (int r = 0; r < 2; r++)
		if (only_rank < 0 || r == only_rank)
			assert_true(gp_kgroups_add_rows(&g, &j->parts[r], &at));
	assert_int_equal(gp_sink_open(&s, "html", f, &so, err), GP_OK);
	*rc = gp_sink_write_close(&s, &in, err);
	fclose(f);
	gp_kgroups_free(&g);
	return buf;
}

static void sums_by_name(void **state)
{
	struct job j;
	gp_error err = {0};
	int rc;

	make_job(&j);
	char *p = page(&j, -1, &rc, &err);
	assert_int_equal(rc, GP_OK);
	/* layer A: 10 + 5 ns in 3 kernels; B after it (7 ns); each with its
	** ops and kernels summed over the ranks, longest first, adding up to
	** the layer */
	assert_non_null(strstr(p, "\"layers\":[{\"name\":\"A\",\"ns\":15,\"count\":3,\"drill\":{"
				  "\"ops\":[{\"name\":\"mm\",\"ns\":15,\"count\":3}],"
				  "\"kernels\":[{\"name\":\"k\",\"ns\":15,\"count\":3}]}},"
				  "{\"name\":\"B\",\"ns\":7,\"count\":3,\"drill\":{"
				  "\"ops\":[{\"name\":\"add\",\"ns\":4,\"count\":2},{\"name\":\"mm\",\"ns\":3,\"count\":1}],"
				  "\"kernels\":[{\"name\":\"k\",\"ns\":7,\"count\":3}]}}]"));
	/* the roofline point sums FLOPs and bytes, keeps rank 0's peaks */
	assert_non_null(strstr(p, "{\"op\":\"mm\",\"params\":\"\",\"ns\":14,\"count\":3,\"flops\":1500,\"bytes\":200,"
				  "\"peak_flops\":300000000000000,\"peak_bw\":2000000000000}"));
	assert_non_null(strstr(p, "\"only_rank\":-1,\"kernels\":6,\"gpu_ns\":26"));
	/* rank 1's steps are slower, a fact about steps; with no collective
	** matched the traces cannot tell who waits: no straggler */
	assert_non_null(strstr(p, "\"wait\":-1,\"caused\":-1,\"times_last\":-1,\"role\":\"\",\"critical\":-1,"
				  "\"critical_entered\":-1,\"a2a_sent\":-1,\"steps\":[[0,150],[1,160]]"));
	assert_non_null(strstr(p, "\"straggler\":-1,\"collectives\":0,\"skew\":50,"));
	/* no job path given: the page says it was not computed */
	assert_non_null(strstr(p, "\"critical_path\":{\"known\":0,\"why\":\"not computed for this page\",\"length\":0,"
				  "\"jumps\":0,\"meets_collective\":0,\"top\":[]}"));
	assert_non_null(strstr(p, "{\"iter\":1,\"ranks\":2,\"median\":135,\"fastest_rank\":0,\"fastest_ns\":110,"
				  "\"slowest_rank\":1,\"slowest_ns\":160}"));
	free(p);
	p = page(&j, 1, &rc, &err);
	assert_int_equal(rc, GP_OK);
	assert_non_null(strstr(p, "\"layers\":[{\"name\":\"B\",\"ns\":7,\"count\":3,\"drill\":"));
	assert_non_null(strstr(p, "{\"name\":\"A\",\"ns\":5,\"count\":1,\"drill\":{"
				  "\"ops\":[{\"name\":\"mm\",\"ns\":5,\"count\":1}],"
				  "\"kernels\":[{\"name\":\"k\",\"ns\":5,\"count\":1}]}}]"));
	assert_non_null(strstr(p, "\"only_rank\":1,\"kernels\":4,\"gpu_ns\":16"));
	free(p);
	gp_rowbuf_free(&j.parts[0]);
	gp_rowbuf_free(&j.parts[1]);
	gp_rank_job_free(&j.cmp);
}

static void damaged_part(void **state)
{
	struct job j;
	struct gp_kgroups g;
	gp_writer w;
	size_t at;

	make_job(&j);
	gp_rowbuf_writer(&w, &j.parts[1], gp_kgroup_cols, GP_KGROUP_NCOLS);
	group(&w, "input", "{}", "", "", "", "");    /* another part: skipped */
	group(&w, "layer", "A", "5x", "1", "0", "0");
	gp_kgroups_init(&g);
	assert_true(gp_kgroups_add_rows(&g, &j.parts[0], &at));
	assert_false(gp_kgroups_add_rows(&g, &j.parts[1], &at));
	assert_true(at > 0 && at == j.parts[1].len);
	gp_kgroups_free(&g);
	gp_rowbuf_writer(&w, &j.parts[1], gp_kgroup_cols, GP_KGROUP_NCOLS);
	const char *row[GP_KGROUP_NCOLS] = {"op", "mm", NULL};   /* numbers missing */
	gp_writer_row(&w, row);
	gp_kgroups_init(&g);
	assert_false(gp_kgroups_add_rows(&g, &j.parts[1], &at));
	gp_kgroups_free(&g);
	gp_rowbuf_free(&j.parts[0]);
	gp_rowbuf_free(&j.parts[1]);
	gp_rank_job_free(&j.cmp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sums_by_name),
		cmocka_unit_test(damaged_part),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
