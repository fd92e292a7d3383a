/*
** Unit tests: the Kineto reader (exact times, ids, odd fields, bad input)
** and the framework-op interpreter (attr_ops) on synthetic traces, plus
** attribution rates on every Kineto trace of $TESTDATA.
**
** correlate.c is written elsewhere; link_and_attribute() below is a small
** stand-in with the same contract (kernel -> API call by correlation id and
** pid, then the ranges enclosing the call on its thread, outermost first).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "analysis/attr_ops.h"
#include "analysis/correlate.h"
#include "model/trace.h"
#include "util/u64map.h"
#include "readers/inflate.h"
#include "readers/jsonutil.h"
#include "readers/kineto.h"
#include "readers/kineto_int.h"
#include "readers/reader.h"

/* The ranges on (pid, tid) enclosing ts, outermost first. */
static int enclosing(const gp_trace *t, uint32_t pid, uint32_t tid, gp_ns ts, int32_t *out, int max)
{
	size_t lo = 0, hi = t->ranges.n;
	int32_t tmp[256];
	int n = 0, m = 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct gp_range *r = &t->ranges.v[mid];
		if (r->pid < pid || (r->pid == pid && (r->tid < tid || (r->tid == tid && r->start <= ts))))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (int32_t i = (int32_t)lo - 1; i >= 0 && n < 256; i = t->ranges.v[i].parent) {
		const struct gp_range *r = &t->ranges.v[i];
		if (r->pid != pid || r->tid != tid)
			break;
		if (r->end >= ts)
			tmp[n++] = i;
	}
	while (n && m < max)
		out[m++] = tmp[--n];
	return m;
}

static void link_and_attribute(gp_trace *t)
{
	gp_u64map corr = {0};
	int32_t stack[256];

	free(t->attrs);
	t->attrs = calloc(t->kernels.n ? t->kernels.n : 1, sizeof(*t->attrs));
	for (size_t i = 0; i < t->apis.n; i++)
		gp_u64map_add(&corr, t->apis.v[i].corr, (int32_t)i);
	gp_opattr *ctx = gp_opattr_begin(t);
	for (size_t k = 0; k < t->kernels.n; k++) {
		struct gp_attr *a = &t->attrs[k];
		int32_t api = gp_u64map_get(&corr, t->kernels.v[k].corr);
		int n = 0;
		if (api >= 0 && t->apis.v[api].pid != gp_kernel_pid(t, &t->kernels.v[k]))
			api = -1;
		a->api = api;
		if (api >= 0)
			n = enclosing(t, t->apis.v[api].pid, t->apis.v[api].tid, t->apis.v[api].start,
				      stack, 256);
		gp_opattr_kernel(ctx, t, k, stack, n, a);
	}
	gp_opattr_end(ctx, t);
	gp_u64map_free(&corr);
}

static int load_json(const char *json, gp_trace *t, gp_error *err)
{
	gp_trace_init(t);
	int rc = gp_kineto_load_buffer("test.json", json, strlen(json), t, err);
	if (rc == GP_OK)
		gp_trace_finish(t);
	return rc;
}

/* Index of the kernel with this correlation id. */
static size_t kernel_by_corr(const gp_trace *t, uint64_t corr)
{
	for (size_t k = 0; k < t->kernels.n; k++)
		if (t->kernels.v[k].corr == corr)
			return k;
	fail_msg("no kernel with correlation %llu", (unsigned long long)corr);
	return 0;
}

/* A training step: forward linear (addmm, seq 7) inside a user annotation,
** backward on another thread (AddmmBackward0 seq 7 -> mm), a graph launch
** with three kernels, a kernel without a captured launch but with an
** External id, and one with neither. */
static const char step_trace[] =
	"{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100\", "
	"\"totalGlobalMem\": 85018279936, \"computeMajor\": 9, \"computeMinor\": 0, \"numSms\": 132}],"
	"\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"world_size\": 8, \"nccl_version\": \"2.21.5\"},"
	"\"cuda_runtime_version\": 12040,"
	"\"traceEvents\": ["
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#12\",\"pid\":10,\"tid\":10,\"ts\":1000.000,\"dur\":900},"
	"{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"encoder\",\"pid\":10,\"tid\":10,\"ts\":1001,\"dur\":100},"
	"{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"train.py(42): forward\",\"pid\":10,\"tid\":10,\"ts\":1001.5,\"dur\":90},"
	"{\"ph\":\"X\",\"cat\":\"python_function\",\"name\":\"torch/nn/modules/linear.py(116): forward\",\"pid\":10,\"tid\":10,\"ts\":1001.8,\"dur\":80},"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":10,\"tid\":10,\"ts\":1002,\"dur\":50,"
	" \"args\":{\"External id\":100,\"Sequence number\":6,\"Input Dims\":[[32,64],[128,64],[128]],"
	" \"Input type\":[\"c10::Half\",\"c10::Half\",\"c10::Half\"]}},"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":10,\"tid\":10,\"ts\":1010,\"dur\":30,"
	" \"args\":{\"External id\":101,\"Sequence number\":7,\"Input Dims\":[[128],[32,64],[64,128],[],[]],"
	" \"Input type\":[\"c10::Half\",\"c10::Half\",\"c10::Half\",\"Scalar\",\"Scalar\"],"
	" \"Concrete Inputs\":[\"\",\"\",\"\",\"1\",\"0.5\"]}},"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":10,\"tid\":10,\"ts\":1020,\"dur\":5,"
	" \"args\":{\"External id\":101,\"cbid\":211,\"correlation\":5000}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void cutlass::Kernel<cutlass_80_gemm>(Params)\",\"pid\":0,\"tid\":7,"
	" \"ts\":1030.25,\"dur\":10.5,\"args\":{\"External id\":101,\"device\":0,\"stream\":7,\"correlation\":5000,"
	" \"registers per thread\":128,\"shared memory\":4096,\"grid\":[4,2,1],\"block\":[128,1,1]}},"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"autograd::engine::evaluate_function: AddmmBackward0\",\"pid\":10,\"tid\":11,"
	" \"ts\":1200,\"dur\":60,\"args\":{\"External id\":200,\"Sequence number\":7,\"Fwd thread id\":1}},"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":10,\"tid\":11,\"ts\":1205,\"dur\":40,"
	" \"args\":{\"External id\":201,\"Input Dims\":[[32,128],[128,64]],\"Input type\":[\"c10::Half\",\"c10::Half\"]}},"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":10,\"tid\":11,\"ts\":1210,\"dur\":5,"
	" \"args\":{\"External id\":201,\"correlation\":5001}},"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":10,\"tid\":11,\"ts\":1220,\"dur\":5,"
	" \"args\":{\"External id\":201,\"correlation\":5002}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sm90_gemm_dgrad\",\"pid\":0,\"tid\":7,\"ts\":1300,\"dur\":20,"
	" \"args\":{\"device\":0,\"stream\":7,\"correlation\":5001}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sm90_gemm_wgrad\",\"pid\":0,\"tid\":7,\"ts\":1330,\"dur\":20,"
	" \"args\":{\"device\":0,\"stream\":7,\"correlation\":5002}},"
	"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::relu\",\"pid\":10,\"tid\":10,\"ts\":1500,\"dur\":50,"
	" \"args\":{\"External id\":300,\"Sequence number\":9}},"
	"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaGraphLaunch\",\"pid\":10,\"tid\":10,\"ts\":1510,\"dur\":5,"
	" \"args\":{\"External id\":300,\"correlation\":6000}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"g1\",\"pid\":0,\"tid\":7,\"ts\":1600,\"dur\":1,\"args\":{\"stream\":7,\"correlation\":6000}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"g2\",\"pid\":0,\"tid\":7,\"ts\":1602,\"dur\":1,\"args\":{\"stream\":7,\"correlation\":6000}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"g3\",\"pid\":0,\"tid\":7,\"ts\":1604,\"dur\":1,\"args\":{\"stream\":7,\"correlation\":6000}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"late\",\"pid\":0,\"tid\":7,\"ts\":1700,\"dur\":1,"
	" \"args\":{\"External id\":300,\"stream\":7,\"correlation\":7000}},"
	"{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"ProfilerStep#12\",\"pid\":0,\"tid\":7,\"ts\":1750,\"dur\":100,\"args\":{\"External id\":1}},"
	"{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"decoder\",\"pid\":0,\"tid\":7,\"ts\":1790,\"dur\":20,\"args\":{\"External id\":2}},"
	"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"orphan\",\"pid\":0,\"tid\":7,\"ts\":1800,\"dur\":1,\"args\":{\"stream\":7,\"correlation\":8000}},"
	"{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pageable -> Device)\",\"pid\":0,\"tid\":7,\"ts\":1900,\"dur\":3,"
	" \"args\":{\"stream\":7,\"correlation\":9000,\"bytes\":4096}},"
	"{\"ph\":\"X\",\"cat\":\"gpu_memset\",\"name\":\"Memset (Device)\",\"pid\":0,\"tid\":7,\"ts\":1910,\"dur\":1,"
	" \"args\":{\"stream\":7,\"correlation\":9001,\"bytes\":64}},"
	"{\"ph\":\"f\",\"id\":77,\"pid\":0,\"tid\":7,\"ts\":1910,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"},"
	"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":10,\"tid\":0,\"args\":{\"name\":\"python3\"}}"
	"], \"baseTimeNanoseconds\": 1700000000000000000}";

static void reads_step_trace(void **state)
{
	gp_trace t;
	gp_error err = {0};

	assert_int_equal(load_json(step_trace, &t, &err), GP_OK);
	assert_int_equal(t.kernels.n, 8);
	assert_int_equal(t.apis.n, 4);
	assert_int_equal(t.memcpys.n, 1);
	assert_int_equal(t.memsets.n, 1);
	assert_int_equal(t.devices.n, 1);
	assert_string_equal(gp_s(&t, t.devices.v[0].name), "NVIDIA H100");
	assert_int_equal(t.devices.v[0].sm_count, 132);
	assert_string_equal(gp_trace_meta_get(&t, "rank"), "3");
	assert_string_equal(gp_trace_meta_get(&t, "world_size"), "8");
	assert_string_equal(gp_trace_meta_get(&t, "nccl_version"), "2.21.5");
	assert_string_equal(gp_trace_meta_get(&t, "cuda_runtime_version"), "12.4 (12040)");

	/* base + ts exactly; kernel fields */
	size_t k = kernel_by_corr(&t, 5000);
	const struct gp_kernel *kr = &t.kernels.v[k];
	assert_true(kr->start == INT64_C(1700000000001030250));
	assert_true(kr->end - kr->start == 10500);
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, kr)->name), "Kernel");
	assert_string_equal(gp_s(&t, gp_kernel_def(&t, kr)->demangled), "void cutlass::Kernel<cutlass_80_gemm>(Params)");
	assert_int_equal(gp_kernel_def(&t, kr)->grid[0], 4);
	assert_int_equal(gp_kernel_def(&t, kr)->grid[1], 2);
	assert_int_equal(gp_kernel_def(&t, kr)->block[0], 128);
	assert_int_equal(gp_kernel_def(&t, kr)->regs, 128);
	assert_int_equal(gp_kernel_pid(&t, kr), 10);   /* from the runtime call */
	assert_int_equal(kr->stream, 7);
	assert_int_equal(t.memcpys.v[0].copy_kind, GP_COPY_HTOD);
	assert_int_equal(t.memcpys.v[0].src_kind, GP_MEM_PAGEABLE);
	assert_int_equal(t.memcpys.v[0].dst_kind, GP_MEM_DEVICE);
	assert_int_equal(t.memsets.v[0].mem_kind, GP_MEM_DEVICE);

	link_and_attribute(&t);
	/* forward gemm: innermost op addmm, top-level linear, layer, step, site */
	const struct gp_attr *a = &t.attrs[k];
	assert_string_equal(gp_s(&t, a->op), "addmm");
	assert_string_equal(gp_s(&t, a->mod), "linear");
	assert_string_equal(gp_s(&t, a->marker), "aten::addmm");
	assert_string_equal(gp_s(&t, a->layer), "encoder");
	assert_string_equal(gp_s(&t, a->trace), "train.py:42");
	assert_int_equal(a->iter, 12);
	assert_int_equal(a->dir, GP_DIR_FPROP);
	assert_int_equal(a->seq, 7);
	char seq[GP_SEQ_TEXT];
	assert_string_equal(gp_attr_seq_list(&t, a, seq), "6,7");
	assert_int_equal(a->seq_is_list, 0);
	assert_int_equal(a->args_count, 5);
	const struct gp_arg *g = &t.args.v[a->args_first];
	assert_int_equal(g[1].type, GP_ARG_TENSOR);
	assert_int_equal(g[1].dtype, GP_DT_FP16);
	assert_int_equal(g[1].ndim, 2);
	assert_int_equal(g[1].shape[0], 32);
	assert_int_equal(g[1].shape[1], 64);
	assert_int_equal(g[3].type, GP_ARG_INT);
	assert_true(g[3].value == 1.0);
	assert_int_equal(g[4].type, GP_ARG_FLOAT);
	assert_true(g[4].value == 0.5);

	/* backward: two kernels of one mm, bprop, inherit mod/layer from forward */
	size_t d = kernel_by_corr(&t, 5001), w = kernel_by_corr(&t, 5002);
	assert_int_equal(t.attrs[d].dir, GP_DIR_BPROP);
	assert_int_equal(t.attrs[d].seq, 7);
	assert_string_equal(gp_s(&t, t.attrs[d].op), "mm");
	assert_string_equal(gp_s(&t, t.attrs[d].mod), "linear");
	assert_string_equal(gp_s(&t, t.attrs[d].layer), "encoder");
	assert_int_equal(t.attrs[d].fwd, (int)k);
	assert_int_equal(t.attrs[d].sub, 0);
	assert_int_equal(t.attrs[w].sub, 1);
	assert_int_equal(t.attrs[w].iter, 12);

	/* one graph launch, three kernels, numbered within the op */
	for (int i = 0; i < 3; i++) {
		size_t gk = k;
		for (size_t j = 0; j < t.kernels.n; j++)
			if (t.kernels.v[j].start == INT64_C(1700000000001600000) + 2000 * i)
				gk = j;
		assert_string_equal(gp_s(&t, t.attrs[gk].op), "relu");
		assert_int_equal(t.attrs[gk].api >= 0, 1);
		assert_int_equal(t.attrs[gk].sub, i);
	}
	/* launch not captured: External id finds the op */
	size_t late = kernel_by_corr(&t, 7000);
	assert_int_equal(t.attrs[late].api, -1);
	assert_string_equal(gp_s(&t, t.attrs[late].op), "relu");
	assert_int_equal(t.attrs[late].iter, 12);
	/* neither: kept, unattributed, GPU annotations still give layer/step */
	size_t orphan = kernel_by_corr(&t, 8000);
	assert_int_equal(t.attrs[orphan].op, 0);
	assert_int_equal(t.attrs[orphan].dir, GP_DIR_NA);
	assert_string_equal(gp_s(&t, t.attrs[orphan].layer), "decoder");
	assert_int_equal(t.attrs[orphan].iter, 12);
	gp_trace_free(&t);
}

/* 2021 format: Operator/Runtime/Kernel, string tids, "external id",
** absolute integer microseconds; fwdbwd flows standing in for sequence
** numbers; ids above INT64_MAX. */
static void reads_old_format_and_flows(void **state)
{
	static const char json[] =
		"{\"traceEvents\": ["
		"{\"ph\":\"X\",\"cat\":\"Operator\",\"name\":\"aten::conv2d\",\"pid\":5,\"tid\":\"1890023232\","
		" \"ts\":1610366662254362,\"dur\":40,\"args\":{\"Input dims\":[[8,3,32,32],[16,3,3,3]],"
		" \"Input type\":[\"float\",\"float\"],\"External id\":18446744073709551615}},"
		"{\"ph\":\"X\",\"cat\":\"Runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":5,\"tid\":\"1890023232\","
		" \"ts\":1610366662254370,\"dur\":4,\"args\":{\"cbid\":211,\"correlation\":31255,\"external id\":2}},"
		"{\"ph\":\"X\",\"cat\":\"Kernel\",\"name\":\"implicit_convolve_sgemm\",\"pid\":0,\"tid\":\"stream 7\","
		" \"ts\":1610366662254380,\"dur\":397,\"args\":{\"device\":0,\"stream\":7,\"correlation\":31255,\"external id\":0}},"
		"{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"ConvBackward0\",\"pid\":5,\"tid\":9,"
		" \"ts\":1610366662255000,\"dur\":40},"
		"{\"ph\":\"X\",\"cat\":\"Runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":5,\"tid\":9,"
		" \"ts\":1610366662255010,\"dur\":4,\"args\":{\"correlation\":31300}},"
		"{\"ph\":\"X\",\"cat\":\"Kernel\",\"name\":\"wgrad\",\"pid\":0,\"tid\":\"stream 7\","
		" \"ts\":1610366662255020,\"dur\":3,\"args\":{\"stream\":7,\"correlation\":31300}},"
		"{\"ph\":\"s\",\"id\":1,\"pid\":5,\"tid\":1890023232,\"ts\":1610366662254362,\"cat\":\"fwdbwd\",\"name\":\"fwdbwd\"},"
		"{\"ph\":\"f\",\"id\":1,\"pid\":5,\"tid\":9,\"ts\":1610366662255000,\"cat\":\"fwdbwd\",\"name\":\"fwdbwd\",\"bp\":\"e\"},"
		"{\"ph\":\"f\",\"id\":99,\"pid\":5,\"tid\":9,\"ts\":1610366662255000,\"cat\":\"fwdbwd\",\"name\":\"fwdbwd\",\"bp\":\"e\"},"
		"{\"ph\":\"X\",\"cat\":\"Memset\",\"name\":\"Memset (Device)\",\"pid\":0,\"tid\":\"stream 7\","
		" \"ts\":1610366662254559,\"dur\":1,\"args\":{\"bytes\":262144}}"
		"]}";
	gp_trace t;
	gp_error err = {0};

	assert_int_equal(load_json(json, &t, &err), GP_OK);
	assert_int_equal(t.kernels.n, 2);
	assert_int_equal(t.memsets.n, 1);
	assert_int_equal(t.apis.n, 2);
	assert_true(t.kernels.v[0].start == INT64_C(1610366662254380000));
	assert_int_equal(t.apis.v[0].tid, 1890023232u);
	link_and_attribute(&t);
	assert_string_equal(gp_s(&t, t.attrs[0].op), "conv2d");
	assert_int_equal(t.attrs[0].args_count, 2);
	assert_int_equal(t.args.v[t.attrs[0].args_first].dtype, GP_DT_FP32);
	assert_int_equal(t.args.v[t.attrs[0].args_first].shape[3], 32);
	/* the flow made ConvBackward0 the backward of conv2d */
	assert_int_equal(t.attrs[1].dir, GP_DIR_BPROP);
	assert_int_equal(t.attrs[1].fwd, 0);
	assert_string_equal(gp_s(&t, t.attrs[1].mod), "conv2d");
	/* the External id above INT64_MAX survived */
	bool found = false;
	for (size_t i = 0; i < t.op_exts.n; i++)
		found |= t.op_exts.v[i].ext_id == UINT64_MAX;
	assert_true(found);
	gp_trace_free(&t);
}

/* gp_json_u64 / gp_json_i64 at the edges of their ranges, and against
** strtoull on random digit strings of 1 to 24 digits (leading zeros,
** values past 2^64 included). */
static void json_integers(void **state)
{
	static const struct { const char *s; bool ok; uint64_t v; } u[] = {
		{"0", true, 0}, {"7", true, 7}, {"18446744073709551615", true, UINT64_MAX},
		{"18446744073709551616", false, 0}, {"99999999999999999999", false, 0},
		{"9999999999999999999", true, 9999999999999999999ULL},
		{"000000000000000000000000001", true, 1}, {"0x1F", true, 31}, {"0xg", false, 0},
		{"1.5", true, 1}, {"2e3", true, 2000}, {"-1", false, 0}, {"", false, 0}, {"12a", false, 0},
	};
	uint64_t v;
	int64_t i;
	char buf[32];
	unsigned seed = 27;

	for (size_t k = 0; k < sizeof(u) / sizeof(*u); k++) {
		bool ok = gp_json_u64(u[k].s, strlen(u[k].s), &v);
		if (ok != u[k].ok || (ok && v != u[k].v))
			fail_msg("gp_json_u64(\"%s\")", u[k].s);
	}
	assert_true(gp_json_i64("-9223372036854775808", 20, &i) && i == INT64_MIN);
	assert_true(gp_json_i64("9223372036854775807", 19, &i) && i == INT64_MAX);
	assert_false(gp_json_i64("9223372036854775808", 19, &i));
	assert_false(gp_json_i64("-9223372036854775809", 20, &i));
	for (int k = 0; k < 100000; k++) {
		size_t n = 1 + (size_t)rand_r(&seed) % 24;
		for (size_t d = 0; d < n; d++)
			buf[d] = (char)('0' + (rand_r(&seed) % 3 ? rand_r(&seed) % 10 : 9 * (k & 1)));
		buf[n] = '\0';
		char *end;
		errno = 0;
		unsigned long long ref = strtoull(buf, &end, 10);
		bool ok = gp_json_u64(buf, n, &v);
		assert_int_equal(ok, errno != ERANGE);
		if (ok)
			assert_true(v == ref);
	}
}

static void exact_times(void **state)
{
	static const char json[] =
		"[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
		"\"ts\":1712195495519689.0476,\"dur\":0.0004},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":\"0\",\"tid\":\"stream 9\",\"ts\":1.5e3,\"dur\":2}]";
	gp_trace t;
	gp_error err = {0};

	assert_int_equal(load_json(json, &t, &err), GP_OK);   /* bare event array */
	assert_int_equal(t.kernels.n, 2);
	assert_true(t.kernels.v[0].start == 1500000);
	assert_int_equal(t.kernels.v[0].stream, 9);
	assert_true(t.kernels.v[1].start == INT64_C(1712195495519689048));
	assert_true(t.kernels.v[1].end == t.kernels.v[1].start);
	gp_trace_free(&t);
}

/* The clock step the reader decides (gp_trace.clock_res): whole
** microseconds everywhere 1000 ns; one value with tenths of a microsecond
** 100; with nanoseconds 1 (exact_times' trace). */
static void clock_step(void **state)
{
	static const struct {
		const char *ts, *dur;
		gp_ns want;
	} cases[] = {
		{"1712195495519689", "58", 1000},
		{"1712195495519689", "58.5", 100},
		{"1712195495519689.25", "58", 10},
		{"1712195495519689.047", "58", 1},
		{"0", "0", 1000},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char json[256];
		gp_trace t;
		gp_error err = {0};
		snprintf(json, sizeof(json), "[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,"
			 "\"tid\":7,\"ts\":%s,\"dur\":%s},{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\","
			 "\"pid\":0,\"tid\":7,\"ts\":3,\"dur\":4}]", cases[i].ts, cases[i].dur);
		assert_int_equal(load_json(json, &t, &err), GP_OK);
		assert_int_equal(t.clock_res, cases[i].want);
		gp_trace_free(&t);
	}
}

/* The edges of the narrowed records (docs/trace-model.md): CUDA's largest
** launch (grid x 2^31-1, block 1024, 255 registers) kept exactly in the
** shared kernel def; two launches that differ only in block get two defs,
** equal ones share one; correlation ids above 2^32 that agree in their low
** 32 bits still match their own launch. */
static void wide_fields(void **state)
{
	static const char json[] =
		"{\"traceEvents\":["
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,"
		"\"ts\":10,\"dur\":2,\"args\":{\"correlation\":5000000000}},"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,"
		"\"ts\":20,\"dur\":2,\"args\":{\"correlation\":705032704}},"
		"{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":2,"
		"\"ts\":30,\"dur\":2,\"args\":{\"correlation\":9294967296}},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"big\",\"pid\":0,\"tid\":7,\"ts\":40,\"dur\":5,"
		"\"args\":{\"device\":0,\"stream\":7,\"correlation\":5000000000,"
		"\"grid\":[2147483647,65535,65535],\"block\":[1024,1,1],\"registers per thread\":255,"
		"\"shared memory\":49152}},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"big\",\"pid\":0,\"tid\":7,\"ts\":50,\"dur\":5,"
		"\"args\":{\"device\":0,\"stream\":7,\"correlation\":705032704,"
		"\"grid\":[2147483647,65535,65535],\"block\":[1024,1,1],\"registers per thread\":255,"
		"\"shared memory\":49152}},"
		"{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"big\",\"pid\":0,\"tid\":7,\"ts\":60,\"dur\":5,"
		"\"args\":{\"device\":0,\"stream\":7,\"correlation\":9294967296,"
		"\"grid\":[1,1,1],\"block\":[512,2,1],\"registers per thread\":255,"
		"\"shared memory\":49152}}]}";
	struct gp_correlate_opts co = {0};
	gp_trace t;
	gp_error err = {0};

	(void)state;
	assert_int_equal(load_json(json, &t, &err), GP_OK);
	assert_int_equal(t.kernels.n, 3);
	const struct gp_kernel *k = &t.kernels.v[0];
	const struct gp_kernel_def *d = gp_kernel_def(&t, k);
	assert_true(k->corr == UINT64_C(5000000000));
	assert_int_equal(d->grid[0], 2147483647u);
	assert_int_equal(d->grid[1], 65535);
	assert_int_equal(d->grid[2], 65535);
	assert_int_equal(d->block[0], 1024);
	assert_int_equal(d->regs, 255);
	assert_int_equal(d->static_smem, 49152);
	assert_string_equal(gp_s(&t, d->name), "big");
	/* equal defs shared, a different block a def of its own */
	assert_int_equal(t.kernels.v[1].def, k->def);
	assert_int_not_equal(t.kernels.v[2].def, k->def);
	assert_int_equal(gp_kernel_def(&t, &t.kernels.v[2])->block[0], 512);
	assert_int_equal(gp_kernel_def(&t, &t.kernels.v[2])->block[1], 2);
	/* each kernel matches its own launch, not one equal in the low 32 bits */
	assert_int_equal(gp_correlate(&t, &co, &err), GP_OK);
	for (int i = 0; i < 3; i++) {
		assert_true(t.attrs[i].api >= 0);
		assert_true(t.apis.v[t.attrs[i].api].corr == t.kernels.v[i].corr);
	}
	assert_true(t.apis.v[t.attrs[2].api].corr == UINT64_C(9294967296));
	gp_trace_free(&t);
}

static void expect_error(const char *json, int status, const char *what)
{
	gp_trace t;
	gp_error err = {0};
	int rc = load_json(json, &t, &err);

	if (rc != status || !strstr(err.msg, what))
		fail_msg("%s: got status %d '%s', expected %d with '%s'", json, rc, err.msg, status, what);
	assert_non_null(strstr(err.msg, "test.json: "));
	gp_trace_free(&t);
}

static void bad_input(void **state)
{
	expect_error("{}", GP_ERR_FORMAT, "no traceEvents");
	expect_error("{\"traceEvents\": 5}", GP_ERR_CORRUPT, "traceEvents is a number");
	expect_error("{\"traceEvents\": {}}", GP_ERR_CORRUPT, "traceEvents is an object");
	expect_error("{\"traceEvents\": [{\"ph\":\"X\",\"ts\":\"12\"}]}", GP_ERR_CORRUPT,
		     "ts is a string, expected a number: in event 0 (byte offset");
	expect_error("{\"traceEvents\": [{\"ph\":\"X\"},{\"ph\":\"X\",\"args\":[1]}]}", GP_ERR_CORRUPT,
		     "args is an array, expected an object: in event 1");
	expect_error("{\"traceEvents\": [{\"ph\":\"X\",\"ts\":1}, {\"ph\":\"X\",\"ts\":2", GP_ERR_CORRUPT,
		     "truncated JSON: the file ends inside traceEvents after 2 events");
	expect_error("{\"traceEvents\": [{\"ph\":\"X\",,}]}", GP_ERR_CORRUPT, "invalid JSON");
	/* a bare array whose first element is no event is another JSON file;
	** a bad element after an event is a damaged trace */
	expect_error("[1]", GP_ERR_FORMAT, "not a trace: a JSON array whose first element is not an event");
	expect_error("[[1]]", GP_ERR_FORMAT, "not a trace: a JSON array whose first element is not an event");
	expect_error("[{\"ph\":\"X\"}, 1]", GP_ERR_CORRUPT, "an event is a number, expected an object: in event 1");
	expect_error("{\"traceEvents\": [1]}", GP_ERR_CORRUPT, "an event is a number");
	expect_error("{\"traceEvents\": [{\"ts\": 99999999999999999999}]}", GP_ERR_CORRUPT,
		     "out of range");
}

/* Files of a test live in a fresh temporary directory, which
** remove_temp_dir() deletes once they are gone. */
static char temp_dir[64];

static void remove_temp_dir(void)
{
	assert_int_equal(rmdir(temp_dir), 0);
	temp_dir[0] = '\0';
}

static const char *temp_path(const char *name, char *buf, size_t size)
{
	if (!temp_dir[0]) {
		snprintf(temp_dir, sizeof(temp_dir), "/tmp/gpuprof-test-kineto-XXXXXX");
		assert_non_null(mkdtemp(temp_dir));
	}
	snprintf(buf, size, "%s/%s", temp_dir, name);
	return buf;
}

static void write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* A libkineto-style file ("  },\n  {" between events) of n steps whose
** later parts bring strings, synthetic tids, unknown categories and flow
** ends the earlier ones have not seen. */
static char *big_trace(int n, size_t *len)
{
	size_t cap = (size_t)n * 1400 + 1024, used = 0;
	char *s = malloc(cap);

	assert_non_null(s);
#define ADD(...) (used += (size_t)snprintf(s + used, cap - used, __VA_ARGS__))
	ADD("{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\", \"numSms\": 80}],\n"
	    "  \"traceEvents\": [\n  {\"ph\":\"M\",\"name\":\"process_name\",\"pid\":10,\"args\":{\"name\":\"py\"}}");
	for (int i = 0; i < n; i++) {
		ADD(",\n  {\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::op%d\",\"pid\":10,\"tid\":\"%s\","
		    "\"ts\":%d.5,\"dur\":40,\"args\":{\"External id\":%d,\"Sequence number\":%d,"
		    "\"Input Dims\":[[%d,3]],\"Input type\":[\"float\"]}}",
		    i % 97, i % 5 == 0 ? "Spans" : i > n / 2 ? "late thread" : "11", 100 * i, i, i, i % 13);
		ADD(",\n  {\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":10,"
		    "\"tid\":11,\"ts\":%d,\"dur\":5,\"args\":{\"External id\":%d,\"correlation\":%d}}",
		    100 * i + 10, i, i);
		ADD(",\n  {\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"void k%d<float>(int)\",\"pid\":0,\"tid\":7,"
		    "\"ts\":%d,\"dur\":%d,\"args\":{\"device\":0,\"stream\":7,\"correlation\":%d,"
		    "\"grid\":[%d,1,1],\"block\":[128,1,1]}}",
		    i % 41, 100 * i + 20, i % 17 ? 30 : -1, i, i + 1);
		if (i % 7 == 0)
			ADD(",\n  {\"ph\":\"%c\",\"cat\":\"fwdbwd\",\"id\":%d,\"pid\":10,\"tid\":\"11\",\"ts\":%d.5}",
			    i % 14 ? 'f' : 's', i / 14, 100 * i + 1);
		if (i % 11 == 0)
			ADD(",\n  {\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"x\",\"pid\":1,\"tid\":1,\"ts\":%d}",
			    i > n / 2 ? "mtia_ccp_events" : "critical_path", 100 * i);
	}
	ADD("\n  ],\n  \"baseTimeNanoseconds\": 1700000000000000000\n}\n");
#undef ADD
	*len = used;
	return s;
}

static void assert_same_trace(const gp_trace *a, const gp_trace *b)
{
	assert_int_equal(a->strs.n, b->strs.n);   /* same strings, same ids */
	for (uint32_t i = 1; i < a->strs.n; i++)
		assert_string_equal(gp_s(a, i), gp_s(b, i));
	assert_int_equal(a->kernels.n, b->kernels.n);
	for (size_t i = 0; i < a->kernels.n; i++) {
		const struct gp_kernel *x = &a->kernels.v[i], *y = &b->kernels.v[i];
		assert_true(x->start == y->start && x->end == y->end && x->corr == y->corr &&
			    gp_kernel_pid(a, x) == gp_kernel_pid(b, y) && gp_kernel_def(a, x)->name == gp_kernel_def(b, y)->name &&
			    gp_kernel_def(a, x)->demangled == gp_kernel_def(b, y)->demangled &&
			    gp_kernel_def(a, x)->grid[0] == gp_kernel_def(b, y)->grid[0]);
	}
	assert_int_equal(a->apis.n, b->apis.n);
	for (size_t i = 0; i < a->apis.n; i++)
		assert_true(a->apis.v[i].start == b->apis.v[i].start &&
			    a->apis.v[i].corr == b->apis.v[i].corr && gp_api_def(a, &a->apis.v[i])->name == gp_api_def(b, &b->apis.v[i])->name);
	assert_int_equal(a->ranges.n, b->ranges.n);
	for (size_t i = 0; i < a->ranges.n; i++) {
		const struct gp_range *x = &a->ranges.v[i], *y = &b->ranges.v[i];
		assert_true(x->start == y->start && x->end == y->end && x->pid == y->pid &&
			    x->tid == y->tid && x->text == y->text && x->parent == y->parent &&
			    x->ext == y->ext);
	}
	assert_int_equal(a->op_exts.n, b->op_exts.n);
	for (size_t i = 0; i < a->op_exts.n; i++) {
		const struct gp_op_ext *x = &a->op_exts.v[i], *y = &b->op_exts.v[i];
		assert_true(x->ext_id == y->ext_id && x->seq == y->seq && x->fwd_tid == y->fwd_tid &&
			    x->input_dims == y->input_dims);
	}
	assert_int_equal(a->devices.n, b->devices.n);
	assert_int_equal(a->processes.n, b->processes.n);
	assert_int_equal(a->meta.n, b->meta.n);
	for (size_t i = 0; i < a->meta.n; i++)
		assert_true(a->meta.v[i].key == b->meta.v[i].key &&
			    a->meta.v[i].value == b->meta.v[i].value);
	assert_int_equal(a->warnings.n, b->warnings.n);
	for (size_t i = 0; i < a->warnings.n; i++)
		assert_int_equal(a->warnings.v[i], b->warnings.v[i]);
}

/* The load options choose one thread or several (parts of the file at
** once); the trace is the same either way. */
static void load_options(void **state)
{
	char path[128];
	size_t len;
	char *json = big_trace(3000, &len);
	struct gp_load_opts one = {.threads = 1};
	struct gp_load_opts parts = {.threads = 4, .parallel_min_bytes = 1};
	gp_trace seq, par;
	gp_error err = {0};

	write_file(temp_path("big.json", path, sizeof(path)), json, len);
	free(json);
	gp_trace_init(&seq);
	gp_trace_init(&par);
	assert_int_equal(gp_trace_load(path, &seq, &one, &err), GP_OK);
	assert_int_equal(gp_trace_load(path, &par, &parts, &err), GP_OK);
	assert_int_equal(seq.kernels.n, 3000);
	assert_non_null(gp_trace_meta_get(&seq, "base_time_ns"));
	assert_same_trace(&seq, &par);
	gp_trace_free(&seq);
	gp_trace_free(&par);
	unlink(path);
	remove_temp_dir();
}

/* A minified file (the whole trace on one line, "},{" between events) is
** split like one event a line: the parallel parse accepts its split points
** (kineto_parse_parallel returns GP_OK, not -1 = "parse it in one pass"),
** and the trace is the one-thread one; the same bytes in memory (a gzip
** window read's kept inflated file) give the same trace. */
static void minified_split(void **state)
{
	char path[128];
	size_t len, m = 0;
	char *json = big_trace(3000, &len);
	struct gp_load_opts one = {.threads = 1};
	struct gp_load_opts parts = {.threads = 4, .parallel_min_bytes = 1};
	gp_trace seq, par, direct;
	gp_error err = {0};

	/* one line: the newlines and indents between events dropped */
	bool indent = false;   /* big_trace has no newline in a string */
	for (size_t i = 0; i < len; i++) {
		indent = json[i] == '\n' || (indent && json[i] == ' ');
		if (!indent)
			json[m++] = json[i];
	}
	assert_null(memchr(json, '\n', m));
	assert_non_null(strstr(json, "}},{\"ph\""));
	write_file(temp_path("min.json", path, sizeof(path)), json, m);
	gp_trace_init(&seq);
	gp_trace_init(&par);
	assert_int_equal(gp_trace_load(path, &seq, &one, &err), GP_OK);
	assert_int_equal(gp_trace_load(path, &par, &parts, &err), GP_OK);
	assert_int_equal(seq.kernels.n, 3000);
	assert_same_trace(&seq, &par);

	int fd = open(path, O_RDONLY);
	struct kineto_parser *p = malloc(sizeof(*p));
	assert_true(fd >= 0 && p);
	gp_trace_init(&direct);
	kineto_parser_init(p, path, &direct, &err);
	assert_int_equal(kineto_parse_parallel(p, fd, NULL, m, 4, &parts), GP_OK);
	assert_int_equal(direct.kernels.n, 3000);
	kineto_parser_free(p);
	gp_trace mem;
	gp_trace_init(&mem);
	kineto_parser_init(p, path, &mem, &err);
	assert_int_equal(kineto_parse_parallel(p, -1, json, m, 4, &parts), GP_OK);
	assert_same_trace(&direct, &mem);
	kineto_parser_free(p);
	free(p);
	free(json);
	close(fd);
	gp_trace_free(&mem);
	gp_trace_free(&direct);
	gp_trace_free(&seq);
	gp_trace_free(&par);
	unlink(path);
	remove_temp_dir();
}

/* A growable text for the layouts below. */
struct text {
	char *s;
	size_t n, cap;
};

static void text_add(struct text *t, const char *s, size_t n)
{
	if (t->n + n + 1 > t->cap) {
		t->cap = (t->n + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		assert_non_null(t->s);
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

static void text_str(struct text *t, const char *s)
{
	text_add(t, s, strlen(s));
}

/* The newline and indent of level depth (indent spaces each). */
static void text_indent(struct text *t, int indent, int depth)
{
	text_add(t, "\n", 1);
	for (int i = 0; i < indent * depth; i++)
		text_add(t, " ", 1);
}

/* compact JSON pretty-printed as json.dumps(indent=indent) writes it:
** every value of a container on its own line, ": " after a key. */
static void text_pretty(struct text *t, const char *compact, int indent)
{
	int depth = 0;
	bool in_str = false;

	for (const char *c = compact; *c; c++) {
		if (in_str) {
			text_add(t, c, 1);
			if (*c == '\\')
				text_add(t, ++c, 1);
			else if (*c == '"')
				in_str = false;
			continue;
		}
		switch (*c) {
		case '"': in_str = true; text_add(t, c, 1); break;
		case '{': case '[':
			text_add(t, c, 1);
			text_indent(t, indent, ++depth);
			break;
		case '}': case ']':
			text_indent(t, indent, --depth);
			text_add(t, c, 1);
			break;
		case ',': text_add(t, ",", 1); text_indent(t, indent, depth); break;
		case ':': text_add(t, ": ", 2); break;
		default: text_add(t, c, 1);
		}
	}
}

/* The events of a big_trace(n) one by one (it writes ",\n  " between them
** and nowhere else), *count of them. */
static char **trace_events(int n, size_t *count)
{
	size_t len, cap = 16;
	char *json = big_trace(n, &len), **ev = malloc(cap * sizeof(*ev));
	char *p = strstr(json, "\"traceEvents\": [\n  ") + strlen("\"traceEvents\": [\n  ");
	char *stop = strstr(json, "\n  ],\n  \"baseTimeNanoseconds\"");

	*count = 0;
	*stop = '\0';
	for (char *next; p; p = next) {
		next = strstr(p, ",\n  ");
		if (next) {
			*next = '\0';
			next += 4;
		}
		if (*count == cap)
			ev = realloc(ev, (cap *= 2) * sizeof(*ev));
		ev[(*count)++] = strdup(p);
	}
	free(json);
	return ev;
}

enum layout {
	L_LIBKINETO,   /* "  {\n    \"ph\": ...\n  },\n  {\n    ..." as PyTorch 2.x writes */
	L_ONE_LINE,    /* "  {...},\n  {...}": grow_kineto.py, PyTorch's older writer */
	L_DUMP,        /* json.dump(d, f): "}, {" */
	L_MINIFIED,    /* json.dump(d, f, separators=(',', ':')): "},{" */
	L_INDENT2,     /* json.dump(d, f, indent=2) */
	L_CRLF,        /* one event a line, CRLF line ends */
	L_ARRAY,       /* a bare event array, "}, " between events (torch.autograd.profiler) */
	L_COUNT
};

/* The events in layout l, with a header before traceEvents and the base
** time after; in the middle, when trap, an event whose args hold a list of
** objects long enough to span the file's middle (in a minified file the
** boundaries of those objects look like events'). */
static char *layout_trace(char **ev, size_t count, enum layout l, bool trap, size_t *len)
{
	static const char *head = "{\"schemaVersion\":1,\"distributedInfo\":{\"pg_config\":"
		"[{\"pg_name\":\"0\",\"ranks\":[0,1]},{\"pg_name\":\"1\",\"ranks\":[0]}]},"
		"\"deviceProperties\":[{\"id\":0,\"name\":\"GPU\",\"numSms\":80},{\"id\":1,\"name\":\"GPU\"}],"
		"\"traceEvents\":[";
	static const char *sep[L_COUNT] = {
		[L_ONE_LINE] = ",\n  ", [L_DUMP] = ", ", [L_MINIFIED] = ",", [L_CRLF] = ",\r\n  ",
		[L_ARRAY] = ", ",
	};
	struct text t = {0}, body = {0};

	for (size_t i = 0; i < count; i++) {
		if (i)
			text_str(&body, l == L_LIBKINETO || l == L_INDENT2 ? "," : sep[l]);
		if (trap && i == count / 2) {
			text_str(&body, "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"trap\",\"pid\":10,\"tid\":11,"
				 "\"ts\":5,\"dur\":1,\"args\":{\"list\":[");
			for (int k = 0; k < 40000; k++) {
				char o[64];
				snprintf(o, sizeof(o), "%s{\"ph\":\"X\",\"k\":%d}", k ? "," : "", k);
				text_str(&body, o);
			}
			text_str(&body, "]}},");
		}
		if (l == L_LIBKINETO) {   /* the event's own fields on lines of their own */
			text_str(&body, "\n  {\n    ");
			text_add(&body, ev[i] + 1, strlen(ev[i]) - 2);
			text_str(&body, "\n  }");
		} else {
			text_str(&body, ev[i]);
		}
	}
	if (l == L_ARRAY) {
		text_str(&t, "[");
		text_add(&t, body.s, body.n);
		text_str(&t, "]");
	} else if (l == L_INDENT2) {
		struct text c = {0};
		text_str(&c, head);
		text_add(&c, body.s, body.n);
		text_str(&c, "],\"baseTimeNanoseconds\":1700000000000000000}");
		text_pretty(&t, c.s, 2);
		free(c.s);
	} else {
		text_str(&t, head);
		text_str(&t, l == L_MINIFIED || l == L_DUMP ? "" : "\n  ");
		text_add(&t, body.s, body.n);
		text_str(&t, l == L_MINIFIED || l == L_DUMP ? "]," : "\n  ],\n  ");
		text_str(&t, "\"baseTimeNanoseconds\":1700000000000000000}\n");
	}
	free(body.s);
	*len = t.n;
	return t.s;
}

/* Every layout libkineto, PyTorch and json.dump write is split: the
** parallel parse keeps its parts (kineto_parse_parallel returns GP_OK, not
** -1 = "parse it in one pass") and gives the one-thread trace, synthetic
** tids met in another order by later parts included ("Spans" every fifth
** op, "late thread" in the second half).  A split that falls inside a list
** of objects of an event's args (the middle of a minified file with the
** trap event) is parsed through by the part before it and the others are
** kept: still GP_OK. */
static void layouts_split(void **state)
{
	size_t count, len;
	char **ev = trace_events(1500, &count), path[128];
	struct gp_load_opts one = {.threads = 1};
	gp_error err = {0};

	for (int l = 0; l < L_COUNT; l++)
		for (int trap = 0; trap < 2; trap++) {
			char *json = layout_trace(ev, count, (enum layout)l, trap, &len);
			if (trap) {   /* the trap spans the file's middle, where 2 and 4 parts split */
				const char *t = strstr(json, "\"trap\"");
				assert_true(t && t < json + len / 2 && strstr(t, "39999") > json + len / 2);
			}
			write_file(temp_path("layout.json", path, sizeof(path)), json, len);
			gp_trace seq;
			gp_trace_init(&seq);
			assert_int_equal(gp_trace_load(path, &seq, &one, &err), GP_OK);
			for (int nparts = 2; nparts <= 4; nparts += 2) {
				struct gp_load_opts parts = {.threads = nparts, .parallel_min_bytes = 1};
				struct kineto_parser *p = malloc(sizeof(*p));
				int fd = open(path, O_RDONLY);
				gp_trace par, direct;
				assert_true(fd >= 0 && p);
				gp_trace_init(&direct);
				kineto_parser_init(p, path, &direct, &err);
				if (kineto_parse_parallel(p, fd, NULL, len, nparts, &parts) != GP_OK)
					fail_msg("layout %d%s: not split in %d parts", l, trap ? " with trap" : "",
						 nparts);
				kineto_parser_free(p);
				free(p);
				close(fd);
				gp_trace_free(&direct);
				gp_trace_init(&par);
				assert_int_equal(gp_trace_load(path, &par, &parts, &err), GP_OK);
				assert_same_trace(&seq, &par);
				gp_trace_free(&par);
			}
			gp_trace_free(&seq);
			unlink(path);
			free(json);
		}
	for (size_t i = 0; i < count; i++)
		free(ev[i]);
	free(ev);
	remove_temp_dir();
}

/* Reads path through gp_inflate in chunks of chunk bytes into out (size
** bytes); returns the byte count, or -1 with why set on a damaged stream. */
static long inflate_all(const char *path, size_t chunk, bool threaded, char *out, size_t size,
			char *why, size_t why_size)
{
	gp_error err = {0};
	gp_inflate *in = gp_inflate_open(path, chunk, threaded, &err);
	const char *data, *msg = NULL;
	long n, total = 0;

	assert_non_null(in);
	while ((n = gp_inflate_read(in, &data, &msg)) > 0) {
		assert_true(n <= (long)chunk && (size_t)(total + n) <= size);
		memcpy(out + total, data, (size_t)n);
		total += n;
	}
	if (n < 0) {
		assert_non_null(msg);
		snprintf(why, why_size, "%s", msg);
		total = -1;
	}
	gp_inflate_close(in);
	return total;
}

/* gzip and plain files come back byte for byte, on the caller's thread or
** inflated on another; a truncated gzip stream is an error naming the
** file, found either way; a missing file cannot be opened. */
static void inflate_helper(void **state)
{
	enum { SIZE = 3 << 20 };
	char gz[128], cut[128], plain[128], why[256];
	char *data = malloc(SIZE), *back = malloc(SIZE + 1);
	gp_error err = {0};

	assert_true(data && back);
	for (size_t i = 0; i < SIZE; i++)   /* compressible, not constant */
		data[i] = (char)('a' + (i * 7 + i / 4096) % 26);
	temp_path("data.gz", gz, sizeof(gz));
	gzFile z = gzopen(gz, "wb");
	assert_non_null(z);
	assert_int_equal(gzwrite(z, data, SIZE), SIZE);
	assert_int_equal(gzclose(z), Z_OK);
	write_file(temp_path("plain", plain, sizeof(plain)), data, SIZE);

	for (int threaded = 0; threaded < 2; threaded++) {
		assert_int_equal(inflate_all(gz, 65536, threaded, back, SIZE + 1, why, sizeof(why)), SIZE);
		assert_memory_equal(back, data, SIZE);
		assert_int_equal(inflate_all(plain, 100000, threaded, back, SIZE + 1, why, sizeof(why)),
				 SIZE);
		assert_memory_equal(back, data, SIZE);
	}

	struct stat st;
	assert_int_equal(stat(gz, &st), 0);
	FILE *f = fopen(gz, "rb");
	char *comp = malloc((size_t)st.st_size);
	assert_true(f && comp);
	assert_int_equal(fread(comp, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	write_file(temp_path("cut.gz", cut, sizeof(cut)), comp, (size_t)st.st_size / 2);
	free(comp);
	for (int threaded = 0; threaded < 2; threaded++) {
		why[0] = '\0';
		assert_int_equal(inflate_all(cut, 65536, threaded, back, SIZE + 1, why, sizeof(why)), -1);
		assert_non_null(strstr(why, cut));
	}

	temp_path("missing.gz", why, sizeof(why));
	assert_null(gp_inflate_open(why, 65536, true, &err));
	assert_int_equal(err.status, GP_ERR_IO);
	assert_non_null(strstr(err.msg, "missing.gz: cannot open: "));
	unlink(gz);
	unlink(cut);
	unlink(plain);
	remove_temp_dir();
	free(data);
	free(back);
}

/* The Kineto traces of $TESTDATA: the files tests/data/kineto_counts.tsv
** lists (told by content, not by name: tests/tools/trace_kind.py; t0500
** checks that the list is exactly testdata's).  Where launches were
** captured and the trace has ops, at least 95% of the captured kernels get
** an op; kernels a graph launch replays are not counted (their ops ran at
** capture time, often in another trace). */
static void testdata_attribution(void **state)
{
	const char *td = getenv("TESTDATA");
	FILE *list = fopen("tests/data/kineto_counts.tsv", "r");
	char line[8192];
	int files = 0;

	if (!td || !*td)
		skip();
	assert_non_null(list);
	while (fgets(line, sizeof(line), list)) {
		char path[sizeof(line) + 4096];
		line[strcspn(line, "\t\n")] = '\0';
		if (line[0] == '#' || strcmp(line, "file") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", td, line);
		gp_trace t;
		gp_error err = {0};
		gp_trace_init(&t);
		if (gp_trace_load(path, &t, NULL, &err) != GP_OK)
			fail_msg("%s", err.msg);
		assert_string_equal(gp_s(&t, t.format), "kineto");
		link_and_attribute(&t);
		size_t captured = 0, with_op = 0, ops = 0;
		for (size_t i = 0; i < t.ranges.n; i++)
			ops += t.ranges.v[i].kind == GP_RANGE_CPU_OP;
		for (size_t k = 0; k < t.kernels.n; k++) {
			int32_t api = t.attrs[k].api;
			if (api < 0 || strstr(gp_s(&t, gp_api_def(&t, &t.apis.v[api])->name), "GraphLaunch"))
				continue;
			captured++;
			with_op += t.attrs[k].op != 0;
		}
		printf("# %-90s kernels %6zu captured %6zu with op %6zu\n", path, t.kernels.n, captured,
		       with_op);
		if (captured >= 20 && ops)
			assert_true(with_op * 100 >= captured * 95);
		files++;
		gp_trace_free(&t);
	}
	fclose(list);
	assert_true(files >= 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_step_trace),
		cmocka_unit_test(reads_old_format_and_flows),
		cmocka_unit_test(json_integers),
		cmocka_unit_test(exact_times),
		cmocka_unit_test(clock_step),
		cmocka_unit_test(wide_fields),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(load_options),
		cmocka_unit_test(minified_split),
		cmocka_unit_test(layouts_split),
		cmocka_unit_test(inflate_helper),
		cmocka_unit_test(testdata_attribution),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
