/*
** Unit tests of the op model formulas: every value below was computed by
** hand from the formula in docs/op-model.md (the arithmetic is in the
** comment next to it).
*/
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "ops_fixture.h"

#define F "torch.nn.functional"

static const char *params(struct fx *f, const struct gp_opres *r, size_t i)
{
	return gp_s(&f->t, r[i].params);
}

static const char *opname(struct fx *f, const struct gp_opres *r, size_t i)
{
	return gp_s(&f->t, r[i].op ? r[i].op : f->t.attrs[i].op);
}

/* F.linear(x[35,20,200], w[200,200], b[200]) fp32 on V100, as in
** net_da6bcc3.sql: M=200, N=700, K=200. */
static void linear_fprop_bprop_and_bias(void **state)
{
	struct fx f;
	fx_init(&f);
	const char *kn[] = {"volta_sgemm_64x32_sliced1x4_tn", "elementwise_kernel",
			    "volta_sgemm_64x32_sliced1x4_nt", "volta_sgemm_64x32_sliced1x4_nn",
			    "reduce_kernel", "volta_h884gemm_64x64_nn"};
	int dir[] = {GP_DIR_FPROP, GP_DIR_FPROP, GP_DIR_BPROP, GP_DIR_BPROP, GP_DIR_BPROP, GP_DIR_FPROP};
	int sub[] = {0, 1, 0, 1, 2, 0};
	for (int i = 0; i < 6; i++) {
		fx_kernel(&f, kn[i], F, "linear", dir[i], sub[i]);
		fx_tensor(&f, i == 5 ? GP_DT_FP16 : GP_DT_FP32, 3, D(35), D(20), D(200));
		fx_tensor(&f, i == 5 ? GP_DT_FP16 : GP_DT_FP32, 2, D(200), D(200));
		fx_tensor(&f, i == 5 ? GP_DT_FP16 : GP_DT_FP32, 1, D(200));
	}
	fx_done(&f);
	struct gp_opres *r = gp_ops_run(&f.t);

	/* GEMM: 2*200*700*200 = 56e6; bytes 4*(140000+40000+140000) */
	assert_string_equal(opname(&f, r, 0), "linear");
	assert_true(r[0].flops == 56e6);
	assert_true(r[0].bytes == 1280000);
	assert_int_equal(r[0].tc, GP_TC_NO);
	assert_int_equal(r[0].tc_eligible, 0);
	assert_string_equal(params(&f, r, 0), "M=200,N=(35,20),K=200,type=fp32");
	assert_string_equal(r[0].family, "gemm");
	/* bias fprop: MN = 140000 FLOPs, 2*MN*4 bytes */
	assert_string_equal(opname(&f, r, 1), "bias");
	assert_true(r[1].flops == 140000);
	assert_true(r[1].bytes == 1120000);
	assert_int_equal(r[1].tc, GP_TC_NOT_APPLICABLE);
	assert_string_equal(params(&f, r, 1), "M=200,N=(35,20),type=fp32");
	/* dgrad and wgrad: same FLOPs, dims permuted */
	assert_true(r[2].flops == 56e6);
	assert_string_equal(params(&f, r, 2), "M=200,N=(35,20),K=200,type=fp32");
	assert_true(r[3].flops == 56e6);
	assert_string_equal(params(&f, r, 3), "M=200,N=200,K=(35,20),type=fp32");
	/* bias gradient: reads MN, writes M: 4*(140000+200) */
	assert_string_equal(opname(&f, r, 4), "bias");
	assert_true(r[4].bytes == 560800);
	/* fp16 on tensor cores: eligible and used; bytes 2*320000 */
	assert_int_equal(r[5].tc, GP_TC_YES);
	assert_int_equal(r[5].tc_eligible, 1);
	assert_int_equal(r[5].dtype, GP_DT_FP16);
	assert_true(r[5].bytes == 640000);
	free(r);
	fx_free(&f);
}

/* Unknown ops and missing arguments never abort: a generic row. */
static void unknown_op_gets_generic_row(void **state)
{
	struct fx f;
	fx_init(&f);
	fx_kernel(&f, "volta_sgemm_128x64_tn", F, "multi_head_attention_forward", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_kernel(&f, "elementwise_kernel", F, "linear", GP_DIR_FPROP, 0);   /* no args */
	fx_kernel(&f, "elementwise_kernel", NULL, NULL, GP_DIR_NA, 0);      /* no op */
	fx_kernel(&f, "ampere_fp16_s16816gemm_fp16_128x128", NULL, NULL, GP_DIR_NA, 0);
	fx_done(&f);
	struct gp_opres *r = gp_ops_run(&f.t);

	assert_string_equal(r[0].family, "unknown");
	assert_true(r[0].flops < 0 && r[0].bytes < 0);
	assert_int_equal(r[0].known, 0);
	assert_int_equal(r[0].tc, GP_TC_NO);   /* a GEMM kernel still says 0 */
	assert_string_equal(params(&f, r, 0), "T=[(35,20,200)],type=[fp32]");
	assert_string_equal(r[1].family, "unknown");
	assert_int_equal(r[2].tc, GP_TC_NA);
	assert_null(r[2].family);
	assert_int_equal(r[3].tc, GP_TC_YES);

	struct gp_ops_summary s;
	gp_ops_summarize(&f.t, r, &s);
	assert_int_equal(s.kernels, 4);
	assert_int_equal(s.known, 0);
	assert_int_equal(s.unknown_ops, 2);
	assert_int_equal(s.unknown_kernels, 2);
	free(r);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linear_fprop_bprop_and_bias),
		cmocka_unit_test(unknown_op_gets_generic_row),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
