/*
** Fuzz target: the --what-if expression parser (gp_whatif_parse) and, for
** an expression it accepts, the change applied and replayed on a small
** fixed trace (the patterns go to fnmatch, the speed-up to the replay).
** Input: one expression, any bytes (cut at the first NUL, as argv is).
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/deps.h"
#include "analysis/whatif.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Two kernels on one stream, each launched inside an op under a layer
** range, times in ns: aten::mm [0,100) launches gemm [120,400), aten::add
** [150,200) launches add [400,450); the add waits behind the gemm. */
static void small_trace(gp_trace *t)
{
	static const char *const ops[] = {"aten::mm", "aten::add"}, *const kernels[] = {"gemm", "add"};
	static const gp_ns call[][2] = {{0, 100}, {150, 200}}, run[][2] = {{120, 400}, {400, 450}};

	gp_trace_init(t);
	for (int i = 0; i < 2; i++) {
		struct gp_range *r = gp_vec_push(t->ranges);
		r->start = call[i][0];
		r->end = call[i][1];
		r->pid = r->tid = 1;
		r->kind = GP_RANGE_CPU_OP;
		r->text = gp_intern(t, ops[i]);
		r->parent = -1;
		struct gp_api *a = gp_vec_push(t->apis);
		a->start = call[i][0] + 10;
		a->end = call[i][1] - 10;
		a->pid = a->tid = 1;
		a->corr = (uint64_t)i + 1;
		a->def = gp_api_def_add(t, &(struct gp_api_def){.name = gp_intern(t, "cudaLaunchKernel"), .cbid = -1});
		struct gp_kernel *k = gp_vec_push(t->kernels);
		k->start = run[i][0];
		k->end = run[i][1];
		k->stream = 7;
		k->corr = (uint64_t)i + 1;
		k->def = gp_kernel_def_add(t, &(struct gp_kernel_def){.name = gp_intern(t, kernels[i]), .pid = 1});
	}
	*gp_vec_push(t->threads) = (struct gp_thread){.pid = 1, .tid = 1};
	gp_trace_finish(t);
	t->attrs = calloc(t->kernels.n, sizeof(*t->attrs));
	for (size_t k = 0; k < t->kernels.n; k++) {
		t->attrs[k] = (struct gp_attr){.api = (int32_t)k, .range = (int32_t)k, .iter = -1, .seq = -1, .fwd = -1};
		t->attrs[k].op = t->ranges.v[k].text;
		t->attrs[k].layer = gp_intern(t, "layer:Block_0:Linear");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* exact-size copy with its NUL: any read past the end is caught by ASan */
	char *s = malloc(size + 1);
	struct gp_whatif_expr x;
	gp_error err = {0};

	memcpy(s, data, size);
	s[size] = '\0';
	int rc = gp_whatif_parse(s, &x, &err);
	if (rc != GP_OK) {
		if (rc != GP_ERR_USAGE || !err.msg[0])
			abort();   /* a bad expression is a usage error, with a message */
		free(s);
		return 0;
	}
	if (x.target > GP_WI_COPIES || !memchr(x.pattern, '\0', sizeof(x.pattern)))
		abort();
	if (x.target <= GP_WI_LAYER && !x.roofline &&
	    !(x.speedup >= GP_WHATIF_SPEEDUP_MIN && x.speedup <= GP_WHATIF_SPEEDUP_MAX))
		abort();

	gp_trace t;
	gp_deps d;
	struct gp_whatif_result r;
	size_t units = 0;
	small_trace(&t);
	gp_deps_build(&d, &t);
	gp_whatif_changes(&d, NULL, &x, 1, &r, &units);
	if (units > t.kernels.n || r.span_after < 0 || r.gpu_after < 0)
		abort();
	gp_whatif_result_free(&r);
	gp_deps_free(&d);
	gp_trace_free(&t);   /* attrs too */
	free(s);
	return 0;
}
