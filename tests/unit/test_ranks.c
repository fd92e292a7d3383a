/*
** Unit tests: ranks of trace files (src/analysis/ranks.c: names, order,
** notes, records and their comparison; the record with its collectives
** through kept rows and back; a job's straggler by arrival and what its
** arriving on time saves, every number worked out below) and kept rows
** (src/util/rows.c: the bytes that travel between threads and MPI
** processes).
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
#include "util/rows.h"

static void rank_from_names(void **state)
{
	assert_int_equal(gp_rank_from_name("run/rank-3.json"), 3);
	assert_int_equal(gp_rank_from_name("run/RANK_12.pt.trace.json.gz"), 12);
	assert_int_equal(gp_rank_from_name("host_rank7_1700000000.json"), 7);
	/* a number is a rank only after "rank": job ids, steps, pids are not */
	assert_int_equal(gp_rank_from_name("trace_5.json"), -1);
	assert_int_equal(gp_rank_from_name("Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"), -1);
	assert_int_equal(gp_rank_from_name("job_1_of_8.json"), -1);
	assert_int_equal(gp_rank_from_name("job-1.json"), -1);
	assert_int_equal(gp_rank_from_name("a_2_3.sqlite"), -1);
	assert_int_equal(gp_rank_from_name("a_rank2_rank3.sqlite"), 3);  /* the last one */
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
/* gp_ranks_one_job: what says two traces are not one job's ranks */
static void one_job(void **state)
{
	const gp_ns epoch = 1694128201545000000LL;   /* DLRM's ranks, 2023 */
	struct gp_rank_id ids[2] = {
		{.rank = 0, .world = 8, .gpu = "Tesla V100-SXM2-32GB", .backend = "nccl", .start = epoch},
		{.rank = 1, .world = 8, .gpu = "Tesla V100-SXM2-32GB", .backend = "nccl", .start = epoch + 12000000},
	};
	const char *paths[2] = {"a.json", "b.json"};
	gp_error err = {0};

	(void)state;
	assert_int_equal(gp_ranks_one_job(ids, paths, 2, &err), GP_OK);
	assert_int_equal(gp_ranks_one_job(ids, paths, 1, &err), GP_OK);
	snprintf(ids[1].gpu, sizeof(ids[1].gpu), "NVIDIA H100 80GB HBM3");
	assert_int_equal(gp_ranks_one_job(ids, paths, 2, &err), GP_ERR_USAGE);
	assert_string_equal(err.msg, "b.json is not of the job of a.json (GPU NVIDIA H100 80GB HBM3, not "
			    "Tesla V100-SXM2-32GB): give one job's rank files, or each trace alone");
	ids[1].gpu[0] = '\0';   /* a trace without devices says nothing */
	assert_int_equal(gp_ranks_one_job(ids, paths, 2, &err), GP_OK);
	ids[1].world = 16;
	assert_int_equal(gp_ranks_one_job(ids, paths, 2, &err), GP_ERR_USAGE);
	assert_non_null(strstr(err.msg, "(world size 16, not 8)"));
	ids[1].world = -1;      /* unsaid */
	snprintf(ids[1].backend, sizeof(ids[1].backend), "gloo");
	assert_int_equal(gp_ranks_one_job(ids, paths, 2, &err), GP_ERR_USAGE);
	assert_non_null(strstr(err.msg, "(backend gloo, not nccl)"));
	ids[1].backend[0] = '\0';
	ids[1].start = epoch + GP_JOB_START_APART + 1;
	assert_int_equal(gp_ranks_one_job(ids, paths, 2, &err), GP_ERR_USAGE);
	assert_non_null(strstr(err.msg, "(it starts 1.0 hours later)"));
	/* clocks from boot or a session's start are not compared */
	ids[0].start = 5000000000LL;
	ids[1].start = 5000000000LL + 2 * GP_JOB_START_APART;
	assert_int_equal(gp_ranks_one_job(ids, paths, 2, &err), GP_OK);
}

static void compare_records(void **state)
{
	struct gp_rank_step s0[] = {{1, 100}, {2, 110}, {3, 90}};
	struct gp_rank_step s1[] = {{1, 150}, {2, 160}, {3, 170}};  /* the slowest steps */
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

#define MS 1000000LL

/* A record of rank rank: steps of iterations 0 and 1 (step0, step1 ns),
** GPU span span, and two all-reduces (seq 0 in iteration 0, seq 1 in
** iteration 1) arriving at a[0], a[1] and ending at 20 and 40 ms. */
static void record_of(struct gp_rank_record *r, int rank, gp_ns step0, gp_ns step1, gp_ns span, const gp_ns *a)
{
	memset(r, 0, sizeof(*r));
	r->steps = calloc(2, sizeof(*r->steps));
	r->steps[0] = (struct gp_rank_step){0, step0};
	r->steps[1] = (struct gp_rank_step){1, step1};
	r->nsteps = 2;
	r->step_median = (step0 + step1) / 2;
	r->span = r->gpu_span = span;
	r->compute = 10 * MS + rank;
	r->coll.rank = rank;
	r->coll.world_size = 3;
	r->coll.groups = calloc(2, sizeof(*r->coll.groups));
	r->coll.groups[0] = strdup("");
	r->coll.groups[1] = strdup("pg 7");
	r->coll.ngroups = 2;
	r->coll.v = calloc(2, sizeof(*r->coll.v));
	r->coll.n = 2;
	for (int i = 0; i < 2; i++)
		r->coll.v[i] = (struct gp_coll){.start = a[i], .end = (i + 1) * 20 * MS, .launch = i ? -1 : a[i] - 7,
						.seq = i, .bytes = UINT64_MAX - (uint64_t)i, .group = (uint32_t)i,
						.stream = 4000000000u, .device = 3, .iter = i, .group_size = -1,
						.kind = GP_COLL_ALL_REDUCE, .dtype = 5, .seq_stated = 1};
}

/* r through kept rows and back into out (as rank rank of file path). */
static int round_trip(const struct gp_rank_record *r, const char *path, int rank, struct gp_rank_record *out,
		      struct gp_rowbuf *rb)
{
	gp_error err = {0};
	gp_writer w;

	gp_rowbuf_writer(&w, rb, gp_rank_record_cols, GP_RANK_RECORD_NCOLS);
	gp_rank_record_put(r, &w);
	return gp_rank_record_read(rb, path, rank, out, &err);
}

static void record_round_trip(void **state)
{
	static const gp_ns a[2] = {10 * MS, 30 * MS};
	struct gp_rank_record r, b;
	struct gp_rowbuf rb = {0};
	gp_error err = {0};

	(void)state;
	record_of(&r, 1, 21 * MS, 19 * MS, 60 * MS, a);
	r.idle = -5;
	r.coll.link_bw = 0.1 * 3e12;    /* no exact binary fraction: %.17g must round-trip it */
	strcpy(r.coll.gpu, "H100 SXM5 80GB");
	strcpy(r.coll.link, "NVLink4");
	assert_int_equal(round_trip(&r, "run/rank-1.json", 1, &b, &rb), GP_OK);
	assert_int_equal(b.span, r.span);
	assert_int_equal(b.idle, -5);
	assert_int_equal(b.gpu_span, 60 * MS);
	assert_int_equal(b.compute, r.compute);
	assert_int_equal(b.nsteps, 2);
	assert_int_equal(b.steps[1].iter, 1);
	assert_int_equal(b.steps[1].time, 19 * MS);
	assert_int_equal(b.step_median, 20 * MS);
	assert_string_equal(b.coll.path, "run/rank-1.json");
	assert_int_equal(b.coll.rank, 1);
	assert_int_equal(b.coll.world_size, 3);
	assert_true(b.coll.link_bw == r.coll.link_bw);
	assert_string_equal(b.coll.gpu, "H100 SXM5 80GB");
	assert_string_equal(b.coll.link, "NVLink4");
	assert_int_equal(b.coll.ngroups, 2);
	assert_string_equal(b.coll.groups[1], "pg 7");
	assert_int_equal(b.coll.n, 2);
	for (int i = 0; i < 2; i++) {
		const struct gp_coll *x = &r.coll.v[i], *y = &b.coll.v[i];
		assert_int_equal(y->start, x->start);
		assert_int_equal(y->end, x->end);
		assert_int_equal(y->launch, x->launch);
		assert_int_equal(y->seq, x->seq);
		assert_true(y->bytes == x->bytes);
		assert_int_equal(y->group, x->group);
		assert_int_equal(y->stream, x->stream);
		assert_int_equal(y->device, x->device);
		assert_int_equal(y->iter, x->iter);
		assert_int_equal(y->group_size, x->group_size);
		assert_int_equal(y->kind, x->kind);
		assert_int_equal(y->dtype, x->dtype);
		assert_int_equal(y->seq_stated, x->seq_stated);
	}
	gp_rank_record_free(&b);
	/* without collectives (a trace with none): the rank row alone */
	gp_coll_rank_free(&r.coll);
	assert_int_equal(round_trip(&r, "x", 0, &b, &rb), GP_OK);
	assert_int_equal(b.coll.n, 0);
	assert_int_equal(b.coll.ngroups, 0);
	gp_rank_record_free(&b);

	/* damaged: cut before the collectives' rank row, a step after it, a
	** group index out of range; then whole */
	gp_writer w;
	const char *sums[GP_RANK_RECORD_NCOLS] = {"sums", "1", "2", "3", "4", "5", "6"};
	const char *step[GP_RANK_RECORD_NCOLS] = {"step", "0", "9"};
	const char *head[GP_RANK_RECORD_NCOLS] = {"rank", "2", "0", ""};
	const char *coll[GP_RANK_RECORD_NCOLS] = {"coll", "1", "2", "-1", "0", "0", "3", "0", "0", "0", "-1", "0", "0", "0"};
	gp_rowbuf_writer(&w, &rb, gp_rank_record_cols, GP_RANK_RECORD_NCOLS);
	gp_writer_row(&w, sums);
	gp_writer_row(&w, step);
	assert_int_equal(gp_rank_record_read(&rb, "cut", 0, &b, &err), GP_ERR_FORMAT);
	assert_non_null(strstr(err.msg, "cut: a rank record is damaged"));
	gp_rank_record_free(&b);
	gp_writer_row(&w, head);
	gp_writer_row(&w, step);
	assert_int_equal(gp_rank_record_read(&rb, "late step", 0, &b, &err), GP_ERR_FORMAT);
	gp_rank_record_free(&b);
	gp_rowbuf_writer(&w, &rb, gp_rank_record_cols, GP_RANK_RECORD_NCOLS);
	gp_writer_row(&w, sums);
	gp_writer_row(&w, step);
	gp_writer_row(&w, head);
	gp_writer_row(&w, coll);
	assert_int_equal(gp_rank_record_read(&rb, "group 3", 0, &b, &err), GP_ERR_FORMAT);
	gp_rank_record_free(&b);
	coll[6] = "0";
	gp_rowbuf_writer(&w, &rb, gp_rank_record_cols, GP_RANK_RECORD_NCOLS);
	gp_writer_row(&w, sums);
	gp_writer_row(&w, step);
	gp_writer_row(&w, head);
	gp_writer_row(&w, (const char *[GP_RANK_RECORD_NCOLS]){"group", ""});
	gp_writer_row(&w, coll);
	assert_int_equal(gp_rank_record_read(&rb, "whole", 0, &b, &err), GP_OK);
	assert_int_equal(b.coll.n, 1);
	gp_rank_record_free(&b);
	gp_rowbuf_free(&rb);
	gp_rank_record_free(&r);
}

/* Three ranks on one clock, read back from kept rows.  Call 0 (iteration
** 0): rank 0 arrives at 10 ms, rank 1 at 13, rank 2 at 11; call 1: 30,
** 32, 31.5 ms.  Rank 1 is last at both: late 2 + 0.5 ms; the others wait
** 3 + 2 and 2 + 0.5 ms (caused 7.5 ms).  On time, rank 0 waits 1 and 1.5
** ms and rank 2 none: 2.5 ms in all.  Steps (iteration 0, 1): rank 0 20,
** 20; rank 1 21, 19; rank 2 20, 22 ms: the job's 21 and 22 (median 21.5),
** on time 19 and 21.5 (median 20.25).  GPU spans 50, 60, 55 ms. */
static void job_straggler_on_time(void **state)
{
	static const gp_ns a0[2] = {10 * MS, 30 * MS}, a1[2] = {13 * MS, 32 * MS}, a2[2] = {11 * MS, 31500000};
	struct gp_rank_record *rec = calloc(3, sizeof(*rec));
	struct gp_rowbuf rb = {0};
	struct gp_rank_record r;
	struct gp_rank_job j;
	struct gp_rank_on_time o;

	(void)state;
	record_of(&r, 0, 20 * MS, 20 * MS, 50 * MS, a0);
	assert_int_equal(round_trip(&r, "r0", 0, &rec[0], &rb), GP_OK);
	gp_rank_record_free(&r);
	record_of(&r, 1, 21 * MS, 19 * MS, 60 * MS, a1);
	assert_int_equal(round_trip(&r, "r1", 1, &rec[1], &rb), GP_OK);
	gp_rank_record_free(&r);
	record_of(&r, 2, 20 * MS, 22 * MS, 55 * MS, a2);
	assert_int_equal(round_trip(&r, "r2", 2, &rec[2], &rb), GP_OK);
	gp_rank_record_free(&r);
	gp_rowbuf_free(&rb);

	gp_rank_job_compare(rec, 3, &j);
	assert_int_equal(j.coll.ncomplete, 2);
	assert_int_equal(j.straggler, 1);
	assert_int_equal(j.coll.ranks[1].times_last, 2);
	assert_int_equal(j.coll.ranks[1].caused, 7500000);
	assert_int_equal(j.coll.ranks[1].late, 2500000);
	assert_int_equal(j.coll.ranks[0].wait, 5 * MS);
	/* by steps rank 2 is the slowest: a fact, not the straggler */
	assert_int_equal(j.steps.slowest, 2);
	assert_int_equal(j.gpu_span, 60 * MS);
	gp_rank_job_on_time(&j, 1, &o);
	assert_int_equal(o.saving, 2500000);
	assert_int_equal(o.span_before, 60 * MS);
	assert_int_equal(o.span_after, 57500000);
	assert_int_equal(o.wait_before, 7500000);
	assert_int_equal(o.wait_after, 2500000);
	assert_int_equal(o.step_before, 21500000);
	assert_int_equal(o.step_after, 20250000);
	/* rank 0 is never last: on time already */
	gp_rank_job_on_time(&j, 0, &o);
	assert_int_equal(o.saving, 0);
	assert_int_equal(o.wait_after, o.wait_before);
	assert_int_equal(o.step_after, o.step_before);
	gp_rank_job_free(&j);
}

/* A hand-made path for a record of record_of: the walk from the rank's
** end (end ns) back to the end of call 1 (40 ms), CPU time of "step";
** from call 0's start (a[0]) back to its first activity (0), "mm" on the
** GPU; from call 1's start (a[1]) back to the end of call 0 (20 ms), "mm". */
static void path_of(struct gp_rank_path *p, gp_ns end, const gp_ns *a)
{
	static const char *const names[] = {"", "step", "mm", "nccl:all_reduce"};

	memset(p, 0, sizeof(*p));
	p->have = true;
	p->first = 0;
	p->end = end;
	p->nnames = 4;
	p->names = calloc(4, sizeof(*p->names));
	for (int i = 0; i < 4; i++)
		p->names[i] = strdup(names[i]);
	p->nlegs = p->nsegs = p->nrows = 3;
	p->legs = calloc(3, sizeof(*p->legs));
	p->segs = calloc(3, sizeof(*p->segs));
	p->rows = calloc(3, sizeof(*p->rows));
	for (int i = 0; i < 3; i++)
		p->legs[i] = i;
	p->segs[0] = (struct gp_path_seg){.next = -1, .to = 1, .lo = 40 * MS, .hi = end, .to_op = 3, .row0 = 0, .nrows = 1};
	p->segs[1] = (struct gp_path_seg){.next = -1, .to = -1, .lo = 0, .hi = a[0], .row0 = 1, .nrows = 1};
	p->segs[2] = (struct gp_path_seg){.next = -1, .to = 0, .lo = 20 * MS, .hi = a[1], .to_op = 3, .row0 = 2, .nrows = 1};
	p->rows[0] = (struct gp_path_row){.cause = GP_CAUSE_CPU_OP, .op = 1, .ns = end - 40 * MS};
	p->rows[1] = (struct gp_path_row){.cause = GP_CAUSE_GPU_COMPUTE, .op = 2, .ns = a[0]};
	p->rows[2] = (struct gp_path_row){.cause = GP_CAUSE_GPU_COMPUTE, .op = 2, .ns = a[1] - 20 * MS};
}

/* The job's critical path from the ranks' legs (read back from kept
** rows), arrivals as in job_straggler_on_time, ends 45, 44 and 45 ms.  The
** job ends on rank 0 (the first of the latest): its 5 ms of "step", then
** call 1, where it waited for rank 1 (arrived at 32 ms): 8 ms of the call
** from there, then rank 1: 12 ms of "mm" back to call 0, which it arrived
** last at: its 7 ms of the call, then its 13 ms of "mm" back to 0.  Rank
** 0 holds 13 ms, rank 1 32 ms, rank 2 nothing: 45 ms in all, one jump. */
static void job_critical_path(void **state)
{
	static const gp_ns a0[2] = {10 * MS, 30 * MS}, a1[2] = {13 * MS, 32 * MS}, a2[2] = {11 * MS, 31500000};
	static const gp_ns ends[3] = {45 * MS, 44 * MS, 45 * MS};
	const gp_ns *arr[3] = {a0, a1, a2};
	struct gp_rank_record *rec = calloc(3, sizeof(*rec));
	struct gp_rowbuf rb = {0};
	struct gp_rank_record r, b;
	struct gp_rank_job j;
	struct gp_job_path p;
	gp_error err = {0};

	(void)state;
	for (int i = 0; i < 3; i++) {
		record_of(&r, i, 20 * MS, 20 * MS, 50 * MS, arr[i]);
		path_of(&r.path, ends[i], arr[i]);
		assert_int_equal(round_trip(&r, "r", i, &rec[i], &rb), GP_OK);
		gp_rank_record_free(&r);
	}
	gp_rank_job_compare(rec, 3, &j);
	gp_job_path_run(&j, &p);
	assert_true(p.known);
	assert_int_equal(p.end, 45 * MS);
	assert_int_equal(p.start, 0);
	assert_int_equal(p.end_rank, 0);
	assert_int_equal(p.start_rank, 1);
	assert_int_equal(p.jumps, 1);
	assert_int_equal(p.ranks[0].held, 13 * MS);
	assert_int_equal(p.ranks[0].by_cause[GP_CAUSE_GPU_COMM], 8 * MS);
	assert_int_equal(p.ranks[1].held, 32 * MS);
	assert_int_equal(p.ranks[1].by_cause[GP_CAUSE_GPU_COMPUTE], 25 * MS);
	assert_int_equal(p.ranks[1].entered, 1);
	assert_int_equal(p.ranks[2].held, 0);
	/* rows by rank, then time: rank 1's "mm" first of its own */
	assert_int_equal(p.nrows, 4);
	assert_int_equal(p.rows[2].rank, 1);
	assert_string_equal(p.rows[2].op, "mm");
	assert_int_equal(p.rows[2].ns, 25 * MS);
	assert_string_equal(p.rows[3].op, "nccl:all_reduce");
	gp_job_path_free(&p);
	gp_rank_job_free(&j);

	/* a segment that goes on past the last one is a damaged record */
	record_of(&r, 0, 20 * MS, 20 * MS, 50 * MS, a0);
	path_of(&r.path, 45 * MS, a0);
	r.path.segs[1].next = 3;
	assert_int_equal(round_trip(&r, "bad next", 0, &b, &rb), GP_ERR_FORMAT);
	gp_rank_record_free(&b);
	/* as is one with fewer legs than collectives + 1 */
	r.path.segs[1].next = -1;
	r.path.nlegs = 2;
	assert_int_equal(round_trip(&r, "few legs", 0, &b, &rb), GP_ERR_FORMAT);
	gp_rank_record_free(&b);
	r.path.nlegs = 3;
	gp_rank_record_free(&r);
	/* one rank without a path: the traces cannot tell */
	rec = calloc(2, sizeof(*rec));
	record_of(&rec[0], 0, 20 * MS, 20 * MS, 50 * MS, a0);
	record_of(&rec[1], 1, 20 * MS, 20 * MS, 50 * MS, a1);
	path_of(&rec[0].path, 45 * MS, a0);
	gp_rank_job_compare(rec, 2, &j);
	gp_job_path_run(&j, &p);
	assert_false(p.known);
	assert_non_null(p.why);
	gp_job_path_free(&p);
	gp_rank_job_free(&j);
	gp_rowbuf_free(&rb);
	(void)err;
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
		cmocka_unit_test(one_job),
		cmocka_unit_test(order_and_notes),
		cmocka_unit_test(compare_records),
		cmocka_unit_test(record_round_trip),
		cmocka_unit_test(job_straggler_on_time),
		cmocka_unit_test(job_critical_path),
		cmocka_unit_test(rowbuf_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
