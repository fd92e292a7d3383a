/*
** Unit tests: the output stage (src/writers/): the row-writer registry,
** deferred headers, unknown cells in each format, a long table, the kv writer's two
** formats, and the sink registry with the advise-text sink.
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "writers/kv.h"
#include "writers/sink.h"
#include "writers/writer.h"

static const struct gp_column cols[] = {
	{"name", "Name", 4, false, true, NULL},
	{"seq", "Seq", 3, false, false, "-"},
	{"n", "N", 1, true, false, NULL},
};

/* Runs fn on a memory stream and returns what it wrote (free it). */
struct mem {
	char *buf;
	size_t size;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->f = open_memstream(&m->buf, &m->size);
	assert_non_null(m->f);
}

static char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->buf;
}

static void registry_finds_formats(void **state)
{
	char names[128];

	assert_non_null(gp_writer_find("table"));
	assert_non_null(gp_writer_find("json"));
	assert_null(gp_writer_find("csv, tsv"));
	assert_null(gp_writer_find(""));
	assert_string_equal(gp_writer_names(names, sizeof(names)), "table, csv, tsv or json");
	for (int i = 0; gp_writers[i]; i++)
		assert_ptr_equal(gp_writer_find(gp_writers[i]->name), gp_writers[i]);
}

static void open_writes_nothing(void **state)
{
	struct gp_writer_opts wo = {.width = 0};
	gp_error err = {0};
	struct mem m;
	gp_writer w;

	mem_open(&m);
	assert_int_equal(gp_writer_open(&w, "csv", m.f, cols, 3, &wo, &err), GP_OK);
	fflush(m.f);
	assert_int_equal(m.size, 0);   /* no header until a row or the close */
	assert_int_equal(gp_writer_close(&w, &err), GP_OK);
	char *s = mem_close(&m);
	assert_string_equal(s, "\"Name\",\"Seq\",\"N\"\n");
	free(s);
}

static void open_refuses_bad_format(void **state)
{
	struct gp_writer_opts wo = {.width = 1};
	gp_error err = {0};
	gp_writer w;

	assert_int_equal(gp_writer_open(&w, "xml", stdout, cols, 3, NULL, &err), GP_ERR_USAGE);
	assert_non_null(strstr(err.msg, "table, csv, tsv or json"));
	/* a width is a limit the table fits into, never refused */
	assert_int_equal(gp_writer_open(&w, "table", stdout, cols, 3, &wo, &err), GP_OK);
}

/* The table of one row {name, seq, n} at width (0 = none); free it. */
static char *table_at(int width, const char *name, const char *seq, const char *n)
{
	const char *row[] = {name, seq, n};
	struct gp_writer_opts wo = {.width = width};
	gp_error err = {0};
	struct mem m;
	gp_writer w;

	mem_open(&m);
	assert_int_equal(gp_writer_open(&w, "table", m.f, cols, 3, &wo, &err), GP_OK);
	gp_writer_row(&w, row);
	assert_int_equal(gp_writer_close(&w, &err), GP_OK);
	return mem_close(&m);
}

/* -w is a limit: a table that fits is not padded; a wider one loses width
** from the flex column first, then from the other text columns down to
** their min_width; numbers and headers are never cut. */
static void table_width_is_a_limit(void **state)
{
	static const struct {
		int width;
		const char *want;
	} cases[] = {
		{0, "Name       Seq         N\nabcdefghij 0123456 12345\n"},
		{100000, "Name       Seq         N\nabcdefghij 0123456 12345\n"},
		{24, "Name       Seq         N\nabcdefghij 0123456 12345\n"},
		{20, "Name   Seq         N\nabcdef 0123456 12345\n"},
		{15, "Name Seq      N\nabcd 0123 12345\n"},
		{5, "Name Seq     N\nabcd 012 12345\n"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = table_at(cases[i].width, "abcdefghij", "0123456", "12345");
		if (strcmp(s, cases[i].want) != 0)
			fail_msg("width %d: got\n%s\nexpected\n%s", cases[i].width, s, cases[i].want);
		free(s);
	}
	/* the widest flex value is cut first; UTF-8 counts code points */
	char *s = table_at(12, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", "0", "1");
	assert_string_equal(s, "Name   Seq N\n\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 0   1\n");
	free(s);
	s = table_at(10, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", "0", "1");
	assert_string_equal(s, "Name Seq N\n\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9 0   1\n");
	free(s);
}

/* A table longer than the writer's sample of 4096 rows, with a column
** that repeats (kept as ids after the sample), one of distinct cells
** (kept in the rows' strings) and unknown cells: every row comes back as
** it went in, in order, aligned as printf aligns it. */
static void table_long(void **state)
{
	enum { ROWS = 10000 };
	struct gp_writer_opts wo = {0};
	gp_error err = {0};
	struct mem m, want;
	gp_writer w;
	char *got, *expected;

	mem_open(&m);
	mem_open(&want);
	assert_int_equal(gp_writer_open(&w, "table", m.f, cols, 3, &wo, &err), GP_OK);
	fprintf(want.f, "Name Seq      N\n");
	for (int i = 0; i < ROWS; i++) {
		char name[16], seq[16], n[16];
		const char *row[] = {name, i % 1000 == 999 ? NULL : seq, n};
		snprintf(name, sizeof(name), "k%d", i % 7);
		snprintf(seq, sizeof(seq), "s%d", i);
		snprintf(n, sizeof(n), "%d", i);
		gp_writer_row(&w, row);
		fprintf(want.f, "%-4s %-5s %4d\n", name, row[1] ? seq : "-", i);
	}
	assert_int_equal(gp_writer_close(&w, &err), GP_OK);
	got = mem_close(&m);
	expected = mem_close(&want);
	assert_string_equal(got, expected);
	free(got);
	free(expected);
}

/* Writes one row with an unknown seq and n in format; returns the text. */
static char *unknown_row(const char *format)
{
	const char *row[] = {"k", NULL, NULL};
	struct gp_writer_opts wo = {.no_header = true};
	gp_error err = {0};
	struct mem m;
	gp_writer w;

	mem_open(&m);
	assert_int_equal(gp_writer_open(&w, format, m.f, cols, 3, &wo, &err), GP_OK);
	gp_writer_row(&w, row);
	assert_int_equal(gp_writer_close(&w, &err), GP_OK);
	return mem_close(&m);
}

static void unknown_cells(void **state)
{
	char *s;

	s = unknown_row("json");
	assert_string_equal(s, "{\"name\":\"k\",\"seq\":null,\"n\":null}\n");
	free(s);
	s = unknown_row("csv");
	assert_string_equal(s, "\"k\",\"-\",\"na\"\n");
	free(s);
	s = unknown_row("tsv");
	assert_string_equal(s, "k\t-\tna\n");
	free(s);
	s = unknown_row("table");
	assert_string_equal(s, "k    -   na\n");   /* widths 4, 3 and 2 */
	free(s);
}

static void name_list(void **state)
{
	const char *one[] = {"text", NULL}, *two[] = {"text", "json", NULL}, *none[] = {NULL};
	char buf[64];

	assert_string_equal(gp_name_list(one, buf, sizeof(buf)), "text");
	assert_string_equal(gp_name_list(two, buf, sizeof(buf)), "text or json");
	assert_string_equal(gp_name_list(none, buf, sizeof(buf)), "");
}

/* The same calls, in both kv formats. */
static char *kv_sample(const char *format)
{
	gp_error err = {0};
	struct mem m;
	gp_kv kv;

	mem_open(&m);
	assert_int_equal(gp_kv_open(&kv, format, m.f, &err), GP_OK);
	gp_kv_str(&kv, "file", "file", "a \"b\"");
	gp_kv_str(&kv, "tool", "tool", NULL);
	gp_kv_begin(&kv, "notes", true);
	gp_kv_str(&kv, "note", "note 1", "x");
	gp_kv_end(&kv);
	gp_kv_begin(&kv, "empty", false);
	gp_kv_end(&kv);
	gp_kv_i64(&kv, "start_ns", "start (ns)", -5);
	gp_kv_pct(&kv, "pct", "pct", 12.34);
	gp_kv_str(&kv, NULL, "duration", "5 ns");
	assert_int_equal(gp_kv_close(&kv, &err), GP_OK);
	return mem_close(&m);
}

static void kv_text_and_json(void **state)
{
	gp_error err = {0};
	gp_kv kv;
	char *s;

	s = kv_sample("text");
	assert_string_equal(s, "file                   a \"b\"\n"
			       "note 1                 x\n"
			       "start (ns)             -5\n"
			       "pct                    12.3%\n"
			       "duration               5 ns\n");
	free(s);
	s = kv_sample("json");
	assert_string_equal(s, "{\n"
			       "  \"file\": \"a \\\"b\\\"\",\n"
			       "  \"tool\": null,\n"
			       "  \"notes\": [\n"
			       "    \"x\"\n"
			       "  ],\n"
			       "  \"empty\": {},\n"
			       "  \"start_ns\": -5,\n"
			       "  \"pct\": 12.3\n"
			       "}\n");
	free(s);
	assert_int_equal(gp_kv_open(&kv, "table", stdout, &err), GP_ERR_USAGE);
	assert_non_null(strstr(err.msg, "text or json"));
}

static void advise_sink(void **state)
{
	struct gp_findings f = {.gpu_ns = 2e6, .span_ns = 4e6, .busy_ns = 3e6, .devices = 1, .gpu = "V100"};
	struct gp_finding *x;
	gp_error err = {0};
	struct mem m;
	gp_sink s;

	assert_null(gp_sink_find("nope"));
	for (int i = 0; gp_sinks[i]; i++)
		assert_non_null(gp_sinks[i]->help);
	assert_int_equal(gp_sink_open(&s, "nope", stdout, NULL, &err), GP_ERR_USAGE);
	for (int i = 0; i < 3; i++) {
		x = gp_vec_push(f.v);
		memset(x, 0, sizeof(*x));
		x->kind = i == 0 ? "coverage" : i == 2 ? "gap" : "fp32-gemm";
		x->first = i == 0;
		x->ns = i == 2 ? 1e6 : i ? 2e6 : 0;
		x->alone_ns = x->ns;    /* as saved alone: no "alone" said */
		snprintf(x->title, sizeof(x->title), i ? "finding %d" : "notice", i);
		snprintf(x->evidence, sizeof(x->evidence), "why");
		snprintf(x->change, sizeof(x->change), "what");
	}
	struct gp_analysis a = {.done = GP_NEED_FINDINGS, .findings = f};
	const struct gp_sink_input in = {.path = "t.sqlite", .an = &a};
	struct gp_sink_opts so = {.top = 1};

	/* the denominators first; a notice before the ranked findings, which
	** --top counts */
	mem_open(&m);
	assert_int_equal(gp_sink_open(&s, "advise-text", m.f, &so, &err), GP_OK);
	assert_int_equal(gp_sink_write_close(&s, &in, &err), GP_OK);
	char *out = mem_close(&m);
	assert_string_equal(out, "gpuprof advise: t.sqlite\n"
				 "GPU V100: GPU span 4.000 ms, busy 3.000 ms (75.0%), 2.000 ms of kernel time\n"
				 "\n !. notice\n"
				 "     evidence: why\n"
				 "     change:   what\n"
				 "\n 1. finding 1\n"
				 "     saves:    about 2.000 ms (50.0% of the GPU span)  [fp32-gemm]\n"
				 "     evidence: why\n"
				 "     change:   what\n");
	free(out);

	/* two GPUs, 4 steps: busy of 2 x the span, savings per step too; a
	** finding that shares its saving says so */
	a.findings.devices = 2;
	a.findings.steps = 4;
	a.findings.step_ns = 1e6;
	a.findings.v.v[2].overlap_ns = 5e5;
	a.findings.v.v[2].alone_ns = 1.5e6;
	snprintf(a.findings.v.v[2].overlaps, sizeof(a.findings.v.v[2].overlaps), "fp32-gemm");
	so.top = 2;
	mem_open(&m);
	assert_int_equal(gp_sink_open(&s, "advise-text", m.f, &so, &err), GP_OK);
	assert_int_equal(gp_sink_write_close(&s, &in, &err), GP_OK);
	out = mem_close(&m);
	assert_non_null(strstr(out, "GPU V100 x 2: GPU span 4.000 ms, busy 3.000 ms (37.5%), 2.000 ms of "
				    "kernel time; 4 steps, median 1.000 ms\n"));
	assert_non_null(strstr(out, "saves:    about 2.000 ms (50.0% of the GPU span; 500.000 us per step)  "
				    "[fp32-gemm]\n"));
	assert_non_null(strstr(out, "\n 2. finding 2\n"
				    "     saves:    about 1.000 ms (25.0% of the GPU span; 250.000 us per step); alone 1.500 ms  [gap]\n"
				    "     shared:   500.000 us more alone, saved too by the changes above [fp32-gemm]\n"));
	free(out);

	/* a sink refuses an analysis without what it needs */
	a.done = 0;
	mem_open(&m);
	assert_int_equal(gp_sink_open(&s, "advise-text", m.f, &so, &err), GP_OK);
	assert_int_equal(gp_sink_write_close(&s, &in, &err), GP_ERR_USAGE);
	free(mem_close(&m));
	gp_findings_free(&a.findings);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(registry_finds_formats),
		cmocka_unit_test(open_writes_nothing),
		cmocka_unit_test(open_refuses_bad_format),
		cmocka_unit_test(table_width_is_a_limit),
		cmocka_unit_test(table_long),
		cmocka_unit_test(unknown_cells),
		cmocka_unit_test(name_list),
		cmocka_unit_test(kv_text_and_json),
		cmocka_unit_test(advise_sink),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
