/*
** Unit tests: the correlation sweep and PyProf's NVTX rules on synthetic
** traces built in C (expected values worked out by hand from pyprof.md).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/correlate.h"
#include "model/calls.h"
#include "util/demangle.h"

static void api(gp_trace *t, uint32_t pid, uint32_t tid, gp_ns s, gp_ns e, uint64_t corr)
{
	struct gp_api *a = gp_vec_push(t->apis);
	a->pid = pid;
	a->tid = tid;
	a->start = s;
	a->end = e;
	a->corr = corr;
	a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, "cudaLaunchKernel"), .cbid = 211});
}

static void kernel(gp_trace *t, gp_ns s, uint64_t corr, uint32_t pid)
{
	struct gp_kernel *k = gp_vec_push(t->kernels);
	k->start = s;
	k->end = s + 5;
	k->corr = corr;
	k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, "k"), .pid = pid});
}

static void range(gp_trace *t, uint32_t pid, uint32_t tid, gp_ns s, gp_ns e, const char *text)
{
	struct gp_range *r = gp_vec_push(t->ranges);
	r->pid = pid;
	r->tid = tid;
	r->start = s;
	r->end = e;
	r->text = gp_intern(t, text);
	r->kind = s == e ? GP_RANGE_MARK : GP_RANGE_PUSHPOP;
	r->parent = -1;
}

static void correlate(gp_trace *t)
{
	struct gp_correlate_opts o = {0};
	gp_error err = {0};

	gp_trace_finish(t);
	assert_int_equal(gp_correlate(t, &o, &err), GP_OK);
}

static bool has_warning(const gp_trace *t, const char *needle)
{
	for (size_t i = 0; i < t->warnings.n; i++)
		if (strstr(gp_s(t, t->warnings.v[i]), needle))
			return true;
	return false;
}

/* Nested ranges, other threads, strict enclosure at both ends. */
static void sweep_strict_nesting(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	range(&t, 1, 1, 0, 1000, "layer:Outer");
	range(&t, 1, 1, 10, 900, "layer:Inner");
	range(&t, 1, 1, 15, 30, "layer:EndsAtApiEnd");     /* end == api.end: not enclosing */
	range(&t, 1, 1, 20, 500, "layer:StartsAtApiStart"); /* start == api.start: not enclosing */
	range(&t, 1, 1, 12, 12, "layer:Mark");               /* an instant */
	range(&t, 1, 2, 0, 1000, "layer:OtherThread");
	range(&t, 2, 1, 0, 1000, "layer:OtherProcess");
	range(&t, 1, 1, 40, 60, "layer:Later");
	api(&t, 1, 1, 20, 30, 1);
	kernel(&t, 100, 1, 1);
	api(&t, 1, 1, 45, 50, 2);    /* inside Later as well */
	kernel(&t, 200, 2, 1);
	api(&t, 1, 1, 950, 960, 3);  /* after Inner closed */
	kernel(&t, 1100, 3, 1);
	correlate(&t);

	assert_int_equal(t.attrs[0].api >= 0, 1);
	assert_string_equal(gp_s(&t, t.attrs[0].layer), "Outer/Inner");
	assert_string_equal(gp_s(&t, t.attrs[1].layer), "Outer/Inner/StartsAtApiStart/Later");
	assert_string_equal(gp_s(&t, t.attrs[2].layer), "Outer");
	assert_int_equal(t.attrs[0].dir, GP_DIR_FPROP);
	gp_trace_free(&t);
}

/* Launch lookup: by (pid, corr); nvprof kernels (pid 0) take the call's
** pid; a kernel whose call is missing keeps api = -1 and is counted. */
static void launch_lookup(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	api(&t, 10, 1, 0, 10, 5);
	api(&t, 20, 2, 20, 30, 5);
	api(&t, 30, 3, 40, 50, 6);
	kernel(&t, 100, 5, 20);   /* same corr in two processes: pid 20's */
	kernel(&t, 110, 5, 10);
	kernel(&t, 120, 6, 0);    /* nvprof: no pid */
	kernel(&t, 130, 99, 0);   /* no call */
	correlate(&t);

	assert_int_equal(t.apis.v[t.attrs[0].api].pid, 20);
	assert_int_equal(t.apis.v[t.attrs[1].api].pid, 10);
	assert_int_equal(t.apis.v[t.attrs[2].api].pid, 30);
	assert_int_equal(gp_kernel_pid(&t, &t.kernels.v[2]), 30);
	assert_int_equal(t.attrs[3].api, -1);
	assert_true(has_warning(&t, "1 of 4 kernels have no launching API call"));
	gp_trace_free(&t);
}

#define LINEAR "{'mod': 'torch.nn.functional', 'op': 'linear', 'args': [{'name': '', 'type': " \
	"'tensor', 'shape': (4, 8), 'dtype': 'float32'}, {'name': '', 'type': 'tensor', " \
	"'shape': (16, 8), 'dtype': 'float32'}]}"

/* PyProf's op/mod choice, seq, sub and the backward -> forward copy. */
static void pyprof_rules(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	/* forward linear: two kernels in one op -> sub 0, 1 */
	range(&t, 1, 1, 0, 100, "{'traceMarker': ['/x/train.py:12', '/usr/lib/torch/nn/modules/module.py:5']}");
	range(&t, 1, 1, 1, 99, LINEAR);
	range(&t, 1, 1, 2, 98, "addmm, seq = 7");
	api(&t, 1, 1, 10, 20, 1);
	kernel(&t, 1000, 1, 1);
	api(&t, 1, 1, 30, 40, 2);
	kernel(&t, 1010, 2, 1);
	/* a seq-only op: mod na, op = its name */
	range(&t, 1, 1, 200, 300, "add_, seq = 9");
	api(&t, 1, 1, 210, 220, 3);
	kernel(&t, 1020, 3, 1);
	/* backward of seq 7 on another thread: bprop, inherits linear */
	range(&t, 1, 2, 400, 500, "AddmmBackward0, seq = 7");
	api(&t, 1, 2, 410, 420, 4);
	kernel(&t, 1030, 4, 1);
	api(&t, 1, 2, 430, 440, 5);
	kernel(&t, 1040, 5, 1);
	/* backward without a forward kernel: sanitized name, mod na */
	range(&t, 1, 2, 600, 700, "torch::autograd::MulBackward1, seq = 42");
	api(&t, 1, 2, 610, 620, 6);
	kernel(&t, 1050, 6, 1);
	/* no marker at all */
	api(&t, 1, 2, 800, 810, 7);
	kernel(&t, 1060, 7, 1);
	correlate(&t);

	struct gp_attr *a = t.attrs;
	assert_string_equal(gp_s(&t, a[0].mod), "torch.nn.functional");
	assert_string_equal(gp_s(&t, a[0].op), "linear");
	assert_int_equal(a[0].dir, GP_DIR_FPROP);
	assert_int_equal(a[0].seq, 7);
	char seq[GP_SEQ_TEXT];
	assert_string_equal(gp_attr_seq_list(&t, &a[0], seq), "7");
	assert_int_equal(a[0].seq_list, 0);   /* seq alone: not interned */
	assert_int_equal(a[0].sub, 0);
	assert_int_equal(a[1].sub, 1);
	assert_int_equal(a[0].args_count, 2);
	assert_string_equal(gp_s(&t, a[0].trace), "/x/train.py:12");

	assert_string_equal(gp_s(&t, a[2].mod), "na");
	assert_string_equal(gp_s(&t, a[2].op), "add_");
	assert_int_equal(a[2].seq, 9);
	assert_int_equal(a[2].sub, 0);

	assert_int_equal(a[3].dir, GP_DIR_BPROP);
	assert_int_equal(a[3].fwd, 1);   /* the last forward kernel with seq 7 */
	assert_string_equal(gp_s(&t, a[3].op), "linear");
	assert_string_equal(gp_s(&t, a[3].mod), "torch.nn.functional");
	assert_string_equal(gp_s(&t, a[3].trace), "/x/train.py:12");
	assert_int_equal(a[3].args_count, 2);
	assert_int_equal(a[3].sub, 0);
	assert_int_equal(a[4].sub, 1);

	assert_int_equal(a[5].dir, GP_DIR_BPROP);
	assert_int_equal(a[5].fwd, -1);
	assert_string_equal(gp_s(&t, a[5].op), "Mul");
	assert_string_equal(gp_s(&t, a[5].mod), "na");

	assert_int_equal(a[6].dir, GP_DIR_FPROP);
	assert_int_equal(a[6].op, 0);
	assert_int_equal(a[6].seq, -1);
	gp_trace_free(&t);
}

/* A trace without ranges: launches found, nothing interpreted. */
static void no_ranges(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	api(&t, 1, 1, 0, 10, 1);
	kernel(&t, 20, 1, 1);
	correlate(&t);
	assert_int_equal(t.attrs[0].api, 0);
	assert_int_equal(t.attrs[0].dir, GP_DIR_NA);
	assert_int_equal(t.attrs[0].seq, -1);
	gp_trace_free(&t);
}

/* Iteration ranges give attr.iter (by number, else by order on the thread)
** and never become the op; emit_nvtx `sizes` become op args; a range with
** op_id but no seq shows its name, not its whole text. */
static void iterations_and_sizes(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	range(&t, 1, 1, 0, 100, "iteration 7");
	range(&t, 1, 1, 10, 50, "aten::gelu, seq = 3, op_id = 9, sizes = [[2048, 4096]]");
	api(&t, 1, 1, 20, 30, 1);
	kernel(&t, 40, 1, 1);
	range(&t, 1, 1, 200, 300, "Iteration:9");
	range(&t, 1, 1, 210, 250, "nccl:all_reduce, op_id = 12, sizes = [[8392704]]");
	api(&t, 1, 1, 220, 230, 2);
	kernel(&t, 240, 2, 1);
	/* thread 2: bare "iteration" ranges (libgpuprof) are numbered 0, 1 */
	range(&t, 1, 2, 0, 100, "iteration");
	range(&t, 1, 2, 200, 300, "iteration");
	api(&t, 1, 2, 220, 230, 3);
	kernel(&t, 260, 3, 1);
	range(&t, 1, 3, 0, 100, "stepping stone");   /* not an iteration */
	api(&t, 1, 3, 20, 30, 4);
	kernel(&t, 280, 4, 1);
	correlate(&t);

	assert_int_equal(t.attrs[0].iter, 7);
	assert_string_equal(gp_s(&t, t.attrs[0].op), "aten::gelu");
	assert_int_equal(t.attrs[0].args_count, 1);
	assert_int_equal(t.args.v[t.attrs[0].args_first].ndim, 2);
	assert_int_equal(t.args.v[t.attrs[0].args_first].shape[1], 4096);
	assert_int_equal(t.attrs[1].iter, 9);
	assert_string_equal(gp_s(&t, t.attrs[1].op), "nccl:all_reduce");
	assert_int_equal(t.attrs[1].args_count, 1);
	assert_int_equal(t.args.v[t.attrs[1].args_first].shape[0], 8392704);
	assert_int_equal(t.attrs[2].iter, 1);
	assert_int_equal(t.attrs[3].iter, -1);
	assert_string_equal(gp_s(&t, t.attrs[3].op), "stepping stone");
	gp_trace_free(&t);
}

/* Iteration and phase ranges are the process's: a kernel launched by a
** thread without them (PyTorch's autograd thread) takes the ones open on
** the one other thread that has them; with two such threads, none. */
static void process_phases(void **state)
{
	gp_trace t;

	gp_trace_init(&t);
	range(&t, 1, 1, 0, 1000, "iteration");
	range(&t, 1, 1, 10, 100, "forward");
	range(&t, 1, 1, 200, 600, "backward");
	range(&t, 1, 1, 700, 900, "update");
	api(&t, 1, 1, 20, 30, 1);      /* forward, own thread */
	kernel(&t, 40, 1, 1);
	api(&t, 1, 2, 300, 310, 2);    /* autograd thread during backward */
	kernel(&t, 320, 2, 1);
	api(&t, 1, 2, 650, 660, 3);    /* autograd thread between phases */
	kernel(&t, 670, 3, 1);
	api(&t, 1, 1, 720, 730, 4);    /* update, own thread */
	kernel(&t, 740, 4, 1);
	/* process 2: two threads in "forward", a third launches */
	range(&t, 2, 1, 2000, 2100, "forward");
	range(&t, 2, 3, 2000, 2100, "forward");
	api(&t, 2, 2, 2050, 2060, 5);
	kernel(&t, 2070, 5, 2);
	correlate(&t);

	assert_string_equal(gp_s(&t, t.attrs[0].op), "forward");
	assert_int_equal(t.attrs[0].dir, GP_DIR_FPROP);
	assert_int_equal(t.attrs[0].iter, 0);
	assert_string_equal(gp_s(&t, t.attrs[1].op), "backward");
	assert_int_equal(t.attrs[1].dir, GP_DIR_BPROP);
	assert_int_equal(t.attrs[1].iter, 0);
	assert_int_equal(t.attrs[2].op, 0);
	assert_int_equal(t.attrs[2].dir, GP_DIR_FPROP);
	assert_int_equal(t.attrs[2].iter, 0);
	assert_string_equal(gp_s(&t, t.attrs[3].op), "update");
	assert_int_equal(t.attrs[3].dir, GP_DIR_FPROP);
	assert_int_equal(t.attrs[4].op, 0);
	assert_int_equal(t.attrs[4].iter, -1);
	gp_trace_free(&t);
}

/* PyTorch 1.0's ", seq=N" markers are not around the launch but before it:
** a forward kernel's altseq lists those that started on its thread after
** the previous kernel's innermost marker and before its own; a trace
** without them never looks (the same layout with ", seq = N" does not). */
static void legacy_seq_markers(void **state)
{
	static const char *const forms[] = {"mul, seq=4", "mul, seq = 4"};

	for (int f = 0; f < 2; f++) {
		gp_trace t;
		gp_trace_init(&t);
		range(&t, 1, 1, 10, 20, forms[f]);
		range(&t, 1, 1, 30, 40, f ? "add, seq = 5" : "add, seq=5");
		range(&t, 1, 1, 50, 300, "outer");
		api(&t, 1, 1, 100, 110, 1);
		kernel(&t, 115, 1, 1);
		range(&t, 1, 1, 120, 130, f ? "sub, seq = 6" : "sub, seq=6");
		api(&t, 1, 1, 150, 160, 2);
		kernel(&t, 165, 2, 1);
		range(&t, 1, 1, 400, 500, "inner");
		api(&t, 1, 1, 450, 460, 3);
		kernel(&t, 465, 3, 1);
		correlate(&t);

		if (f == 0) {
			assert_string_equal(gp_s(&t, t.attrs[0].altseq_list), "4,5");
			assert_int_equal(t.attrs[1].altseq_list, 0);   /* same innermost marker */
			assert_string_equal(gp_s(&t, t.attrs[2].altseq_list), "6");
		} else {
			for (int k = 0; k < 3; k++)
				assert_int_equal(t.attrs[k].altseq_list, 0);
		}
		for (int k = 0; k < 3; k++) {
			assert_int_equal(t.attrs[k].seq, -1);
			assert_int_equal(t.attrs[k].dir, GP_DIR_FPROP);
		}
		gp_trace_free(&t);
	}
}

/* Correlation ids shared across processes (merged traces): lookups by
** process find the right call, the unique lookup names none, and extreme
** ids and pids are ordinary values, never sentinels. */
static void call_index_shared_ids(void **state)
{
	gp_trace t;
	gp_call_index ix;

	(void)state;
	gp_trace_init(&t);
	api(&t, 10, 1, 0, 5, 7);
	api(&t, 20, 1, 0, 5, 7);
	api(&t, 30, 1, 0, 5, 7);
	api(&t, UINT32_MAX, 1, 0, 5, 8);
	api(&t, 5, 1, 0, 5, 8);
	api(&t, UINT32_MAX, 2, 0, 5, UINT64_MAX);
	api(&t, UINT32_MAX, 3, 0, 5, UINT64_MAX);
	api(&t, 4, 1, 0, 5, 9);
	gp_call_index_build(&ix, &t);
	assert_int_equal(gp_call_find(&ix, 7, 20), 1);
	assert_int_equal(gp_call_find(&ix, 7, 0), 0);
	assert_int_equal(gp_call_find(&ix, 7, 40), -1);
	assert_int_equal(gp_call_find(&ix, 0, 0), -1);
	assert_int_equal(gp_call_find(&ix, 8, UINT32_MAX), 3);
	assert_int_equal(gp_call_find_unique(&ix, 7), -1);
	assert_int_equal(gp_call_find_unique(&ix, 8), -1);
	assert_int_equal(gp_call_find_unique(&ix, UINT64_MAX), 5);
	assert_int_equal(gp_call_find_unique(&ix, 9), 7);
	assert_int_equal(gp_call_find_unique(&ix, 6), -1);
	assert_int_equal(gp_call_find_unique(&ix, 10), -1);
	gp_call_index_free(&ix);
	gp_trace_free(&t);
}

/* The call a lookup must find, by looking at every call: the one with id
** corr in pid (pid 0: the lowest pid with it; the first of equal keys). */
static int32_t call_by_scan(const gp_trace *t, uint64_t corr, uint32_t pid)
{
	int32_t best = -1;

	for (size_t i = 0; i < t->apis.n; i++) {
		const struct gp_api *a = &t->apis.v[i];
		if (corr == 0 || a->corr != corr || (pid && a->pid != pid))
			continue;
		if (best < 0 || a->pid < t->apis.v[best].pid)
			best = (int32_t)i;
	}
	return best;
}

/* Many calls, so that the lookup guesses a key's place from the id range:
** dense ids, ids in clusters far apart (the guess far off), ids shared by
** processes, the extreme ids; every id in and around them found as a scan
** over all calls finds it. */
static void call_index_finds_what_a_scan_finds(void **state)
{
	gp_trace t;
	gp_call_index ix;
	uint64_t x = 88172645463325252ull;
	static const uint64_t bases[] = {1, 1000, 1ull << 40, UINT64_MAX - 3000};
	static const uint32_t pids[] = {0, 5, 10, 11, 12, 20, 21, 30};

	(void)state;
	gp_trace_init(&t);
	for (size_t c = 0; c < sizeof(bases) / sizeof(bases[0]); c++)
		for (uint64_t i = 0; i < 1500; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;   /* xorshift64 */
			if (x % 5 == 0)
				continue;   /* a gap */
			api(&t, 10 + (uint32_t)(x % 3), 1, 0, 5, bases[c] + i * (c == 2 ? 7 : 1));
			if (x % 11 == 0)   /* the id again in another process */
				api(&t, 20 + (uint32_t)(x % 2), 1, 0, 5, bases[c] + i * (c == 2 ? 7 : 1));
		}
	api(&t, 30, 1, 0, 5, UINT64_MAX);
	gp_call_index_build(&ix, &t);
	for (size_t c = 0; c < sizeof(bases) / sizeof(bases[0]); c++)
		for (uint64_t i = 0; i < 1510 * 7; i += c == 2 ? 3 : 7) {
			uint64_t corr = bases[c] + i;
			for (size_t p = 0; p < sizeof(pids) / sizeof(pids[0]); p++)
				assert_int_equal(gp_call_find(&ix, corr, pids[p]), call_by_scan(&t, corr, pids[p]));
		}
	assert_int_equal(gp_call_find(&ix, UINT64_MAX, 0), call_by_scan(&t, UINT64_MAX, 0));
	assert_int_equal(gp_call_find(&ix, 0, 0), -1);
	gp_call_index_free(&ix);
	gp_trace_free(&t);
}

/* gp_call_find_unique by a scan: the first call of corr when every call
** of corr is in one process, else -1. */
static int32_t unique_by_scan(const gp_trace *t, uint64_t corr)
{
	int32_t first = -1;

	for (size_t i = 0; i < t->apis.n && corr; i++) {
		if (t->apis.v[i].corr != corr)
			continue;
		if (first < 0)
			first = (int32_t)i;
		else if (t->apis.v[i].pid != t->apis.v[first].pid)
			return -1;
	}
	return first;
}

/* Calls whose ids are unique and dense (with gaps, id 0 on some calls,
** several processes): the index is an array by id, and it answers every
** lookup as a scan does; the same calls with one id given twice, or with
** the ids spread wide, are indexed by keys, with the same answers. */
static void call_index_by_id_finds_what_a_scan_finds(void **state)
{
	uint64_t x = 88172645463325252ull;
	static const uint32_t pids[] = {0, 3, 4, 9};

	(void)state;
	for (int variant = 0; variant < 3; variant++) {
		gp_trace t;
		gp_call_index ix;
		gp_trace_init(&t);
		for (uint64_t i = 0; i < 3000; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (x % 4 == 0)
				continue;   /* a gap */
			uint64_t corr = x % 13 == 0 ? 0 : 500 + (variant == 2 ? i * 20 : i);
			api(&t, 3 + (uint32_t)(x % 2), 1, 0, 5, corr);
		}
		if (variant == 1)
			api(&t, 4, 1, 0, 5, t.apis.v[t.apis.n / 2].corr ? t.apis.v[t.apis.n / 2].corr : 600);
		gp_call_index_build(&ix, &t);
		if (variant == 0)
			assert_true(ix.by_id.cap > 0 && ix.by_id.keys == NULL);   /* an array by id */
		else
			assert_int_equal(ix.by_id.cap, 0);
		for (uint64_t corr = 0; corr < 500 + 3000 * 20 + 10; corr += corr < 4000 ? 1 : 7) {
			for (size_t p = 0; p < sizeof(pids) / sizeof(pids[0]); p++)
				assert_int_equal(gp_call_find(&ix, corr, pids[p]), call_by_scan(&t, corr, pids[p]));
			assert_int_equal(gp_call_find_unique(&ix, corr), unique_by_scan(&t, corr));
		}
		gp_call_index_free(&ix);
		gp_trace_free(&t);
	}
}

/* Mangled names cut by the tool that wrote them (ROCm): the longest prefix
** that reads with its scopes closed, marked; nothing when none reads. */
static void truncated_mangled_names(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"_ZN7ck_tile6kentryILi64ENS_10GemmKernelIfEEEEvT0_",
		 "void ck_tile::kentry<64, ck_tile::GemmKernel<float> >(ck_tile::GemmKernel<float>)"},
		{"_ZN7ck_tile6kentryILi64ENS_10GemmKernelIfEE",
		 "void ck_tile::kentry<64, ck_tile::GemmKernel<float> >() [truncated]"},
		{"_ZN7ck_tile6kentryILi64ENS_10Gemm", "void ck_tile::kentry<64>() [truncated]"},
		{"_ZN7ck_tile6ke", "ck_tile() [truncated]"},
		{"_Z3", NULL},
		{"_Z", NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = gp_demangle(cases[i].in);
		if (cases[i].out) {
			assert_non_null(d);
			assert_string_equal(d, cases[i].out);
		} else {
			assert_null(d);
		}
		free(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sweep_strict_nesting),
		cmocka_unit_test(launch_lookup),
		cmocka_unit_test(call_index_shared_ids),
		cmocka_unit_test(call_index_finds_what_a_scan_finds),
		cmocka_unit_test(call_index_by_id_finds_what_a_scan_finds),
		cmocka_unit_test(pyprof_rules),
		cmocka_unit_test(no_ranges),
		cmocka_unit_test(truncated_mangled_names),
		cmocka_unit_test(iterations_and_sizes),
		cmocka_unit_test(legacy_seq_markers),
		cmocka_unit_test(process_phases),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
