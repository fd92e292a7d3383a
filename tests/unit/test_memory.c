/*
** Unit tests: memory over time (src/analysis/memory.c) on synthetic traces
** built in C, expected values worked out by hand (docs/memory.md).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/memory.h"

#define NA (-1)

static void mem(gp_trace *t, gp_ns ts, int32_t device, int64_t bytes, uint64_t addr,
		int64_t total, int64_t reserved)
{
	struct gp_memevent *e = gp_vec_push(t->memevents);
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->device = device;
	e->bytes = bytes;
	e->addr = addr;
	e->total_alloc = total;
	e->total_reserved = reserved;
	e->pid = 1;
	e->tid = 1;
}

static void range(gp_trace *t, gp_ns s, gp_ns e, uint8_t kind, const char *text)
{
	struct gp_range *r = gp_vec_push(t->ranges);
	memset(r, 0, sizeof(*r));
	r->pid = 1;
	r->tid = 1;
	r->start = s;
	r->end = e;
	r->text = gp_intern(t, text);
	r->kind = kind;
	r->parent = -1;
}

static void api(gp_trace *t, gp_ns s, gp_ns e, const char *name)
{
	struct gp_api *a = gp_vec_push(t->apis);
	memset(a, 0, sizeof(*a));
	a->pid = 1;
	a->tid = 1;
	a->start = s;
	a->end = e;
	a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, name)});
}

static void kernel(gp_trace *t, gp_ns s, int32_t device)
{
	struct gp_kernel *k = gp_vec_push(t->kernels);
	memset(k, 0, sizeof(*k));
	k->start = s;
	k->end = s + 5;
	k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.device = device});
}

static const struct gp_mem_group *group(const gp_trace *t, const struct gp_memory *m, uint8_t by,
					const char *name)
{
	for (size_t i = 0; i < m->groups.n; i++)
		if (m->groups.v[i].by == by &&
		    strcmp(m->groups.v[i].name ? gp_s(t, m->groups.v[i].name) : "", name) == 0)
			return &m->groups.v[i];
	return NULL;
}

static bool has_note(const struct gp_memory *m, const char *needle)
{
	for (int i = 0; i < m->nnotes; i++)
		if (strstr(m->notes[i], needle))
			return true;
	return false;
}

/* Stated totals: peak, final, live at the peak by op and layer; an event
** between two ops belongs to neither. */
static void test_stated_peak_and_live(void **state)
{
	gp_trace t;
	struct gp_memory m;

	gp_trace_init(&t);
	kernel(&t, 0, 0);
	range(&t, 0, 100, GP_RANGE_USER_ANNOTATION, "encoder");
	range(&t, 10, 20, GP_RANGE_CPU_OP, "aten::empty");
	range(&t, 30, 60, GP_RANGE_CPU_OP, "aten::mm");
	/* 1000 B were allocated before the profile: totals say so */
	mem(&t, 12, 0, 100, 0xa, 1100, 2048);
	mem(&t, 35, 0, 300, 0xb, 1400, 4096);
	mem(&t, 40, 0, -100, 0xa, 1300, 4096);
	mem(&t, 50, 0, 50, 0xc, 1350, 4096);
	mem(&t, 70, 0, -300, 0xb, 1050, 4096);
	gp_trace_finish(&t);
	gp_memory_run(&t, &m);

	assert_int_equal(m.devices.n, 1);
	const struct gp_mem_device *d = &m.devices.v[0];
	assert_true(d->stated);
	assert_int_equal(d->peak_alloc, 1400);
	assert_int_equal(d->peak_ts, 35);
	assert_int_equal(d->final_alloc, 1050);
	assert_int_equal(d->peak_reserved, 4096);
	assert_int_equal(d->final_reserved, 4096);
	assert_int_equal(d->allocs, 3);
	assert_int_equal(d->frees, 2);
	/* live at the peak (after event 2): 0xa (100) and 0xb (300) */
	assert_int_equal(d->live_known, 400);
	assert_int_equal(d->nsteps, 5);
	assert_int_equal(m.steps.v[d->step0 + 2].allocated, 1300);

	const struct gp_mem_group *g = group(&t, &m, GP_MEM_BY_OP, "aten::mm");
	assert_non_null(g);
	assert_int_equal(g->allocs, 2);
	assert_int_equal(g->alloc_bytes, 350);
	assert_int_equal(g->frees, 1);
	assert_int_equal(g->free_bytes, 100);
	assert_int_equal(g->live_at_peak, 300);
	assert_int_equal(g->live_count, 1);
	g = group(&t, &m, GP_MEM_BY_OP, "aten::empty");
	assert_non_null(g);
	assert_int_equal(g->live_at_peak, 100);
	g = group(&t, &m, GP_MEM_BY_OP, "");   /* the free at 70 */
	assert_non_null(g);
	assert_int_equal(g->frees, 1);
	assert_int_equal(g->free_bytes, 300);
	g = group(&t, &m, GP_MEM_BY_LAYER, "encoder");
	assert_non_null(g);
	assert_int_equal(g->allocs, 3);
	assert_int_equal(g->live_at_peak, 400);
	assert_int_equal(m.nnotes, 0);
	gp_memory_free(&m);
	gp_trace_free(&t);
}

/* No totals: replayed from 0; a free without its allocation drives it
** below 0 and is noted; a host device and a GPU without kernels too. */
static void test_replayed_and_odd_input(void **state)
{
	gp_trace t;
	struct gp_memory m;

	gp_trace_init(&t);
	kernel(&t, 0, 0);
	mem(&t, 10, 0, -64, 0x1, NA, NA);        /* allocated before the profile */
	mem(&t, 20, 0, 256, 0x2, NA, NA);
	mem(&t, 30, GP_MEM_HOST, 8, 0, NA, NA);
	mem(&t, 40, 3, 512, 0x3, NA, NA);        /* device 3 ran nothing */
	mem(&t, 50, 0, INT64_C(1) << 60, 0x4, NA, NA);   /* absurd: skipped */
	gp_trace_finish(&t);
	gp_memory_run(&t, &m);

	assert_int_equal(m.devices.n, 3);
	assert_int_equal(m.devices.v[0].device, GP_MEM_HOST);
	assert_int_equal(m.devices.v[1].device, 0);
	assert_int_equal(m.devices.v[2].device, 3);
	const struct gp_mem_device *d = &m.devices.v[1];
	assert_false(d->stated);
	assert_int_equal(d->peak_alloc, 192);
	assert_int_equal(d->final_alloc, 192);
	assert_int_equal(d->peak_reserved, NA);
	assert_int_equal(d->events, 2);
	assert_int_equal(m.skipped, 1);
	assert_false(m.devices.v[2].has_kernels);
	assert_true(has_note(&m, "no recorded allocation"));
	assert_true(has_note(&m, "below 0"));
	assert_true(has_note(&m, "device 3"));
	assert_true(has_note(&m, "above 1 PiB"));
	gp_memory_free(&m);
	gp_trace_free(&t);
}

/* The buckets carry the highest total in each, and the total in effect. */
static void test_buckets(void **state)
{
	gp_trace t;
	struct gp_memory m;
	struct gp_mem_step b[4];

	gp_trace_init(&t);
	mem(&t, 10, 0, 100, 0x1, 100, 200);
	mem(&t, 12, 0, 50, 0x2, 150, 200);
	mem(&t, 14, 0, -150, 0x1, 0, 200);   /* frees 0x1 (100) and more: stated */
	mem(&t, 35, 0, 10, 0x3, 10, 400);
	gp_trace_finish(&t);
	gp_memory_run(&t, &m);
	gp_memory_buckets(&m, &m.devices.v[0], 0, 39, b, 4);
	assert_int_equal(b[0].allocated, INT64_MIN);   /* before the first event */
	assert_int_equal(b[1].allocated, 150);
	assert_int_equal(b[2].allocated, 0);           /* in effect, no event */
	assert_int_equal(b[3].allocated, 10);
	assert_int_equal(b[3].reserved, 400);
	assert_int_equal(b[1].ts, 9);
	gp_memory_free(&m);
	gp_trace_free(&t);
}

/* Churn counts only after the first iteration. */
static void test_churn(void **state)
{
	gp_trace t;
	struct gp_mem_churn c;

	gp_trace_init(&t);
	range(&t, 0, 100, GP_RANGE_USER_ANNOTATION, "ProfilerStep#1");
	range(&t, 100, 200, GP_RANGE_USER_ANNOTATION, "ProfilerStep#2");
	api(&t, 10, 20, "cudaMalloc");           /* warm-up: not churn */
	api(&t, 110, 130, "cudaMalloc");
	api(&t, 140, 150, "cudaFree");
	api(&t, 160, 161, "cudaMallocHost");
	mem(&t, 50, 0, 10, 0x1, 10, 1000);
	mem(&t, 120, 0, 10, 0x2, 20, 3000);      /* +2000 reserved */
	mem(&t, 170, GP_MEM_HOST, 10, 0x3, 10, 9000);
	gp_trace_finish(&t);
	gp_memory_churn(&t, &c);
	assert_true(c.has_loop);
	assert_int_equal(c.iterations, 2);
	assert_int_equal(c.loop_start, 100);
	assert_int_equal(c.malloc_calls, 1);
	assert_int_equal(c.free_calls, 1);
	assert_true(c.call_ns == 30);
	assert_int_equal(c.reserved_growths, 1);
	assert_int_equal(c.reserved_growth_bytes, 2000);
	gp_trace_free(&t);

	gp_trace_init(&t);
	api(&t, 110, 130, "cudaMalloc");
	gp_trace_finish(&t);
	gp_memory_churn(&t, &c);
	assert_false(c.has_loop);
	assert_int_equal(c.malloc_calls, 0);
	gp_trace_free(&t);
}

/* Equal timestamps keep the reader's order: the replay ends on the last. */
static void test_equal_times_keep_order(void **state)
{
	gp_trace t;
	struct gp_memory m;

	gp_trace_init(&t);
	mem(&t, 5, 0, 10, 0x1, 10, NA);
	mem(&t, 5, 0, 10, 0x2, 20, NA);
	mem(&t, 5, 0, -10, 0x1, 10, NA);
	gp_trace_finish(&t);
	gp_memory_run(&t, &m);
	assert_int_equal(m.devices.v[0].final_alloc, 10);
	assert_int_equal(m.devices.v[0].peak_alloc, 20);
	gp_memory_free(&m);
	gp_trace_free(&t);

	gp_trace_init(&t);
	gp_trace_finish(&t);
	gp_memory_run(&t, &m);
	assert_int_equal(m.devices.n, 0);
	assert_int_equal(m.steps.n, 0);
	gp_memory_free(&m);
	gp_trace_free(&t);
}

/* A hostile file: byte sums saturate instead of overflowing, and thousands
** of device ids cost one note, not thousands. */
static void test_hostile_sums_and_devices(void **state)
{
	gp_trace t;
	struct gp_memory m;

	gp_trace_init(&t);
	kernel(&t, 0, 0);
	for (int i = 0; i < 9000; i++)
		mem(&t, i, 0, GP_MEM_ABSURD, 0, NA, NA);
	for (int i = 0; i < 5000; i++)
		mem(&t, 10000 + i, 1 + i, 1, 0, NA, NA);
	gp_trace_finish(&t);
	gp_memory_run(&t, &m);
	assert_int_equal(m.devices.n, 5001);
	assert_int_equal(m.devices.v[0].alloc_bytes, INT64_MAX);
	assert_int_equal(m.devices.v[0].peak_alloc, INT64_MAX);
	assert_int_equal(m.skipped, 0);
	assert_int_equal(m.nnotes, 1);
	assert_true(has_note(&m, "5000 device(s) that ran no kernel (device 1, ...)"));
	gp_memory_free(&m);
	gp_trace_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stated_peak_and_live),
		cmocka_unit_test(test_replayed_and_odd_input),
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_churn),
		cmocka_unit_test(test_equal_times_keep_order),
		cmocka_unit_test(test_hostile_sums_and_devices),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
