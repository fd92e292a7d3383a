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
#include <math.h>
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
	struct gp_opres *r = fx_ops(&f, NULL);

	/* GEMM: 2*200*700*200 = 56e6; bytes 4*(140000+40000+140000) */
	assert_string_equal(opname(&f, r, 0), "linear");
	assert_true(r[0].flops == 56e6);
	assert_true(r[0].bytes == 1280000);
	assert_int_equal(r[0].tc, GP_TC_NO);
	assert_int_equal(r[0].tc_eligible, 0);
	assert_string_equal(params(&f, r, 0), "M=200,N=(35,20),K=200,type=fp32");
	assert_string_equal(gp_opres_family(&r[0]), "gemm");
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
	struct gp_opres *r = fx_ops(&f, NULL);

	assert_string_equal(gp_opres_family(&r[0]), "unknown");
	assert_true(r[0].flops < 0 && r[0].bytes < 0);
	assert_int_equal(r[0].known, 0);
	assert_int_equal(r[0].tc, GP_TC_NO);   /* a GEMM kernel still says 0 */
	assert_string_equal(params(&f, r, 0), "T=[(35,20,200)],type=[fp32]");
	assert_string_equal(gp_opres_family(&r[1]), "unknown");
	assert_int_equal(r[2].tc, GP_TC_NA);
	assert_null(gp_opres_family(&r[2]));
	assert_int_equal(r[3].tc, GP_TC_YES);

	struct gp_ops_summary s;
	gp_ops_summarize(&f.t, &f.ops, &s);
	assert_int_equal(s.kernels, 4);
	assert_int_equal(s.known, 0);
	assert_int_equal(s.unknown_ops, 2);
	assert_int_equal(s.unknown_kernels, 2);
	fx_free(&f);
}

/* Runs the model on f and returns the result (caller frees). */
static struct gp_opres *run(struct fx *f)
{
	fx_done(f);
	return fx_ops(f, NULL);
}

#define FEQ(x, y) assert_true(fabs((double)(x) - (double)(y)) <= 1e-9 * (fabs((double)(y)) + 1))

/* conv2d 3x3 pad 1 fp16 on tensor cores; strided, dilated, grouped fp32;
** conv1d; conv3d; transposed conv. */
static void conv_shapes(void **state)
{
	struct fx f;
	fx_init(&f);
	/* 0: x[2,3,32,32] w[16,3,3,3] pad 1: P=Q=32 */
	fx_kernel(&f, "volta_fp16_s884cudnn_fp16_128x128_ldg8_relu_f2f_exp_small_nhwc_tn_v1", F, "conv2d", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP16, 4, D(2), D(3), D(32), D(32));
	fx_tensor(&f, GP_DT_FP16, 4, D(16), D(3), D(3), D(3));
	fx_tensor(&f, GP_DT_FP16, 1, D(16));
	fx_list(&f, NULL, 2, D(1), D(1));
	fx_list(&f, NULL, 2, D(1), D(1));
	fx_list(&f, NULL, 2, D(1), D(1));
	fx_scalar(&f, GP_ARG_INT, NULL, 1);
	/* 1: x[1,8,15,15] w[8,2,3,3] g=4 stride 2 dilation 2: P=(15-4-1)/2+1=6 */
	fx_kernel(&f, "implicit_convolve_sgemm", F, "conv2d", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(8), D(15), D(15));
	fx_tensor(&f, GP_DT_FP32, 4, D(8), D(2), D(3), D(3));
	fx_arg(&f, GP_ARG_NULL, NULL);
	fx_scalar(&f, GP_ARG_INT, "stride", 2);
	fx_scalar(&f, GP_ARG_INT, "padding", 0);
	fx_scalar(&f, GP_ARG_INT, "dilation", 2);
	fx_scalar(&f, GP_ARG_INT, "groups", 4);
	/* 2: conv1d x[4,16,100] w[32,16,5]: Q=96 */
	fx_kernel(&f, "implicit_convolve_sgemm", F, "conv1d", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 3, D(4), D(16), D(100));
	fx_tensor(&f, GP_DT_FP32, 3, D(32), D(16), D(5));
	/* 3: conv3d x[1,2,4,8,8] w[4,2,3,3,3] pad 1 (aten::convolution layout) */
	fx_kernel(&f, "sm80_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_ndhwc_kernel", "aten", "aten::convolution", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_BF16, 5, D(1), D(2), D(4), D(8), D(8));
	fx_tensor(&f, GP_DT_BF16, 5, D(4), D(2), D(3), D(3), D(3));
	fx_arg(&f, GP_ARG_NULL, NULL);
	fx_list(&f, NULL, 3, D(1), D(1), D(1));
	fx_list(&f, NULL, 3, D(1), D(1), D(1));
	fx_list(&f, NULL, 3, D(1), D(1), D(1));
	fx_scalar(&f, GP_ARG_BOOL, NULL, 0);
	fx_list(&f, NULL, 3, D(0), D(0), D(0));
	fx_scalar(&f, GP_ARG_INT, NULL, 1);
	/* 4: conv_transpose2d x[1,4,8,8] w[4,2,4,4] stride 2 pad 1: O=(8-1)*2-2+3+1=16 */
	fx_kernel(&f, "cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>", F, "conv_transpose2d", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(4), D(8), D(8));
	fx_tensor(&f, GP_DT_FP32, 4, D(4), D(2), D(4), D(4));
	fx_arg(&f, GP_ARG_NULL, NULL);
	fx_scalar(&f, GP_ARG_INT, NULL, 2);
	fx_scalar(&f, GP_ARG_INT, NULL, 1);
	/* 5: a layout helper inside conv2d: 0 (PyProf) */
	fx_kernel(&f, "nchwToNhwcKernel", F, "conv2d", GP_DIR_FPROP, 1);
	fx_tensor(&f, GP_DT_FP16, 4, D(2), D(3), D(32), D(32));
	fx_tensor(&f, GP_DT_FP16, 4, D(16), D(3), D(3), D(3));
	/* 6: wgrad of case 0 (bprop): same FLOPs */
	fx_kernel(&f, "volta_fp16_s884cudnn_fp16_128x128_ldg8_wgrad_exp_small_nhwc_tn_v1", F, "conv2d", GP_DIR_BPROP, 1);
	fx_tensor(&f, GP_DT_FP16, 4, D(2), D(3), D(32), D(32));
	fx_tensor(&f, GP_DT_FP16, 4, D(16), D(3), D(3), D(3));
	fx_tensor(&f, GP_DT_FP16, 1, D(16));
	fx_list(&f, NULL, 2, D(1), D(1));
	fx_list(&f, NULL, 2, D(1), D(1));
	struct gp_opres *r = run(&f);

	/* 2*N*K*P*Q*C*R*S = 2*2*16*1024*27 */
	FEQ(r[0].flops, 1769472);
	FEQ(r[0].bytes, 2 * (6144 + 432 + 32768));
	assert_string_equal(params(&f, r, 0), "N=2,C=3,H=32,W=32,K=16,P=32,Q=32,R=3,S=3,ph=1,pw=1,U=1,V=1,dh=1,dw=1,g=1,type=fp16");
	assert_int_equal(r[0].tc, GP_TC_YES);
	assert_int_equal(r[0].tc_eligible, 1);
	assert_string_equal(gp_opres_family(&r[0]), "conv");
	/* 2*1*8*36*(8/4)*9; bytes 4*(8*225 + 8*2*9 + 8*36) */
	FEQ(r[1].flops, 10368);
	FEQ(r[1].bytes, 8928);
	assert_int_equal(r[1].tc, GP_TC_NO);
	assert_int_equal(r[1].tc_eligible, 0);
	assert_string_equal(params(&f, r, 1), "N=1,C=8,H=15,W=15,K=8,P=6,Q=6,R=3,S=3,ph=0,pw=0,U=2,V=2,dh=2,dw=2,g=4,type=fp32");
	/* 2*4*32*96*16*5 */
	FEQ(r[2].flops, 1966080);
	assert_string_equal(params(&f, r, 2), "N=4,C=16,H=1,W=100,K=32,P=1,Q=96,R=1,S=5,ph=0,pw=0,U=1,V=1,dh=1,dw=1,g=1,type=fp32");
	/* 2*1*4*(4*8*8)*2*27 */
	FEQ(r[3].flops, 110592);
	assert_int_equal(r[3].tc, GP_TC_YES);
	assert_int_equal(r[3].dtype, GP_DT_BF16);
	/* transposed: 2*N*C*in*(K/g)*R*S = 2*1*4*64*2*16; bytes 4*(256 + 128 + 2*256) */
	FEQ(r[4].flops, 16384);
	FEQ(r[4].bytes, 3584);
	assert_non_null(strstr(params(&f, r, 4), "P=16,Q=16"));
	FEQ(r[5].flops, 0);
	FEQ(r[6].flops, 1769472);
	fx_free(&f);
}

/* mm, addmm, bmm, matmul with broadcasting, 1-D dot; Kineto names. */
static void gemm_shapes(void **state)
{
	struct fx f;
	fx_init(&f);
	fx_kernel(&f, "ampere_sgemm_64x32_nn", "aten", "aten::mm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 2, D(64), D(128));
	fx_tensor(&f, GP_DT_FP32, 2, D(128), D(32));
	fx_kernel(&f, "ampere_sgemm_64x32_nn", "torch", "addmm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 1, D(32));
	fx_tensor(&f, GP_DT_FP32, 2, D(64), D(128));
	fx_tensor(&f, GP_DT_FP32, 2, D(128), D(32));
	fx_kernel(&f, "volta_h884gemm_64x64_ldg8_nn", "torch", "bmm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP16, 3, D(10), D(35), D(100));
	fx_tensor(&f, GP_DT_FP16, 3, D(10), D(100), D(35));
	fx_kernel(&f, "volta_sgemm_128x64_nn", "Tensor", "matmul", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 4, D(2), D(1), D(5), D(6));
	fx_tensor(&f, GP_DT_FP32, 3, D(3), D(6), D(7));
	fx_kernel(&f, "volta_sgemm_128x64_nn", "Tensor", "matmul", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_tensor(&f, GP_DT_FP32, 2, D(200), D(600));
	fx_kernel(&f, "dot_kernel", "torch", "matmul", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 1, D(100));
	fx_tensor(&f, GP_DT_FP32, 1, D(100));
	fx_kernel(&f, "elementwise_kernel", "Tensor", "matmul", GP_DIR_FPROP, 1);
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_tensor(&f, GP_DT_FP32, 2, D(200), D(600));
	fx_kernel(&f, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_gmma", "aten", "aten::baddbmm", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_BF16, 3, D(4), D(16), D(16));
	fx_tensor(&f, GP_DT_BF16, 3, D(4), D(16), D(8));
	fx_tensor(&f, GP_DT_BF16, 3, D(4), D(8), D(16));
	struct gp_opres *r = run(&f);

	/* M=32 (cols of B), N=64, K=128: 2*32*64*128; 4*(2048+4096+8192) */
	FEQ(r[0].flops, 524288);
	FEQ(r[0].bytes, 57344);
	assert_string_equal(params(&f, r, 0), "M=32,N=64,K=128,type=fp32");
	FEQ(r[1].flops, 524288);
	/* 2*10*35*35*100; 2*10*(1225+3500+3500) */
	FEQ(r[2].flops, 2450000);
	FEQ(r[2].bytes, 164500);
	assert_int_equal(r[2].tc, GP_TC_YES);
	assert_int_equal(r[2].tc_eligible, 1);
	/* batch broadcast [2,1] x [3] = 6; 2*6*7*5*6; 4*6*(35+42+30) */
	FEQ(r[3].flops, 2520);
	FEQ(r[3].bytes, 2568);
	/* N-D x 2-D: N = 700: 2*600*700*200 */
	FEQ(r[4].flops, 168000000);
	FEQ(r[5].flops, 200);
	/* the contiguous copy inside matmul: 0 FLOPs, 2 s n(A) */
	FEQ(r[6].flops, 0);
	FEQ(r[6].bytes, 2 * 4 * 140000);
	/* baddbmm: 2*4*16*16*8 */
	FEQ(r[7].flops, 16384);
	assert_int_equal(r[7].tc, GP_TC_YES);
	fx_free(&f);
}

/* Pointwise, activations, softmax, reductions, dropout, embedding: the
** values PyProf's expected CSV for net_da6bcc3.sql shows (bytes), with
** FLOPs per output element (apex: (in+out)/2). */
static void pointwise_and_friends(void **state)
{
	struct fx f;
	fx_init(&f);
	fx_kernel(&f, "elementwise_kernel", "Tensor", "__add__", GP_DIR_FPROP, 0);      /* 0 */
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(1), D(200));
	fx_kernel(&f, "elementwise_kernel", "Tensor", "add_", GP_DIR_FPROP, 0);         /* 1: axpy */
	fx_tensor(&f, GP_DT_FP32, 2, D(600), D(200));
	fx_scalar(&f, GP_ARG_INT, NULL, -20);
	fx_tensor(&f, GP_DT_FP32, 2, D(600), D(200));
	fx_kernel(&f, "elementwise_kernel", "Tensor", "__mul__", GP_DIR_BPROP, 0);      /* 2 */
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_scalar(&f, GP_ARG_FLOAT, NULL, 0.1);
	fx_kernel(&f, "elementwise_kernel", F, "relu", GP_DIR_BPROP, 0);                /* 3 */
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_kernel(&f, "softmax_warp_forward", F, "softmax", GP_DIR_FPROP, 0);           /* 4 */
	fx_tensor(&f, GP_DT_FP32, 3, D(40), D(35), D(35));
	fx_kernel(&f, "cunn_SoftMaxBackward", F, "log_softmax", GP_DIR_BPROP, 0);       /* 5 */
	fx_tensor(&f, GP_DT_FP32, 2, D(700), D(33278));
	fx_kernel(&f, "reduce_kernel", "Tensor", "norm", GP_DIR_FPROP, 0);              /* 6 */
	fx_tensor(&f, GP_DT_FP32, 2, D(200), D(200));
	fx_scalar(&f, GP_ARG_FLOAT, NULL, 2);
	fx_kernel(&f, "fused_dropout_kernel", F, "dropout", GP_DIR_FPROP, 0);           /* 7 */
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_kernel(&f, "indexSelectLargeIndex", F, "embedding", GP_DIR_FPROP, 0);        /* 8 */
	fx_tensor(&f, GP_DT_INT64, 2, D(35), D(20));
	fx_tensor(&f, GP_DT_FP32, 2, D(33278), D(200));
	fx_kernel(&f, "elementwise_kernel", F, "embedding", GP_DIR_BPROP, 0);           /* 9 */
	fx_tensor(&f, GP_DT_INT64, 2, D(35), D(20));
	fx_tensor(&f, GP_DT_FP32, 2, D(33278), D(200));
	fx_kernel(&f, "embedding_backward_feature_kernel", F, "embedding", GP_DIR_BPROP, 1); /* 10 */
	fx_tensor(&f, GP_DT_INT64, 2, D(35), D(20));
	fx_tensor(&f, GP_DT_FP32, 2, D(33278), D(200));
	fx_kernel(&f, "elementwise_kernel", "torch", "eq", GP_DIR_FPROP, 0);            /* 11 */
	fx_tensor(&f, GP_DT_FP32, 1, D(10));
	fx_tensor(&f, GP_DT_FP32, 1, D(10));
	fx_kernel(&f, "vectorized_elementwise_kernel<4, GeluCUDAKernelImpl, c10::Half>", "aten", "aten::gelu", GP_DIR_FPROP, 0); /* 12 */
	fx_tensor(&f, GP_DT_UNKNOWN, 2, D(8), D(1024));
	fx_kernel(&f, "reduce_kernel", "Tensor", "mean", GP_DIR_FPROP, 0);              /* 13 */
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	struct gp_opres *r = run(&f);

	FEQ(r[0].flops, 140000);
	FEQ(r[0].bytes, 1148000);            /* PyProf: 4*(140000+7000+140000) */
	assert_string_equal(params(&f, r, 0), "T=(35,20,200);(35,1,200),type=fp32");
	FEQ(r[1].flops, 240000);             /* p + alpha*g: 2 per element */
	FEQ(r[1].bytes, 1440000);            /* PyProf */
	FEQ(r[2].flops, 140000);
	FEQ(r[2].bytes, 1120000);            /* PyProf */
	FEQ(r[3].flops, 140000);
	FEQ(r[3].bytes, 1680000);            /* PyProf: 3B */
	FEQ(r[4].flops, 40 * 49000.0);
	FEQ(r[4].bytes, 2 * 49000 * 4.0);    /* x read, y written (PyProf: 3B) */
	FEQ(r[5].bytes, 279535200);          /* dy, y read, dx written: 3B (PyProf: 5B) */
	FEQ(r[6].flops, 80001);              /* PyProf: 2n+1 */
	FEQ(r[6].bytes, 160000);
	FEQ(r[7].flops, 700000);             /* PyProf: 5n, 2B */
	FEQ(r[7].bytes, 1120000);
	FEQ(r[8].flops, 0);
	FEQ(r[8].bytes, 1125600);            /* PyProf: 700*8 + 2*700*200*4 */
	FEQ(r[9].bytes, 1680000);            /* PyProf: 3*700*200*4 */
	FEQ(r[10].bytes, 0);
	FEQ(r[11].bytes, 90);                /* 40 + 40 + 10 bool */
	/* dtype from the kernel name: c10::Half; 20 FLOPs per element */
	assert_int_equal(r[12].dtype, GP_DT_FP16);
	FEQ(r[12].flops, 20 * 8192.0);
	FEQ(r[12].bytes, 2 * 8192 * 2.0);
	FEQ(r[13].flops, 1001);
	FEQ(r[13].bytes, 4004);
	fx_free(&f);
}

/* Normalization, pooling, attention, losses. */
static void norm_pool_attention_loss(void **state)
{
	struct fx f;
	fx_init(&f);
	fx_kernel(&f, "RowwiseMomentsCUDAKernel", F, "layer_norm", GP_DIR_FPROP, 0);     /* 0 */
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_list(&f, NULL, 1, D(200));
	fx_kernel(&f, "LayerNormForwardCUDAKernel", F, "layer_norm", GP_DIR_FPROP, 1);   /* 1 */
	fx_tensor(&f, GP_DT_FP32, 3, D(35), D(20), D(200));
	fx_kernel(&f, "bn_fw_tr_1C11_kernel_NCHW", F, "batch_norm", GP_DIR_FPROP, 0);   /* 2 */
	fx_tensor(&f, GP_DT_FP16, 4, D(32), D(64), D(56), D(56));
	fx_kernel(&f, "bn_bw_1C11_kernel_new", F, "batch_norm", GP_DIR_BPROP, 0);       /* 3 */
	fx_tensor(&f, GP_DT_FP16, 4, D(32), D(64), D(56), D(56));
	fx_kernel(&f, "max_pool_forward_nchw", F, "max_pool2d", GP_DIR_FPROP, 0);       /* 4 */
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(16), D(32), D(32));
	fx_scalar(&f, GP_ARG_INT, NULL, 2);
	fx_scalar(&f, GP_ARG_INT, NULL, 2);
	fx_kernel(&f, "adaptive_average_pool", F, "adaptive_avg_pool2d", GP_DIR_FPROP, 0); /* 5 */
	fx_tensor(&f, GP_DT_FP32, 4, D(2), D(512), D(7), D(7));
	fx_list(&f, NULL, 2, D(1), D(1));
	fx_kernel(&f, "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4, cutlass::half_t>>", "aten", "aten::_scaled_dot_product_flash_attention", GP_DIR_FPROP, 0); /* 6 */
	for (int i = 0; i < 3; i++)
		fx_tensor(&f, GP_DT_FP16, 4, D(2), D(8), D(128), D(64));
	fx_kernel(&f, "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<cutlass::half_t>", "aten", "aten::_scaled_dot_product_flash_attention_backward", GP_DIR_BPROP, 0); /* 7 */
	for (int i = 0; i < 5; i++)
		fx_tensor(&f, GP_DT_FP16, 4, D(2), D(8), D(128), D(64));
	fx_kernel(&f, "fmha_cutlassF_f16_aligned_64x128_rf_sm80", "torch.nn.functional", "scaled_dot_product_attention", GP_DIR_FPROP, 0); /* 8: causal */
	for (int i = 0; i < 3; i++)
		fx_tensor(&f, GP_DT_FP16, 4, D(2), D(8), D(128), D(64));
	fx_scalar(&f, GP_ARG_BOOL, "is_causal", 1);
	fx_kernel(&f, "cunn_SoftMaxForward", F, "cross_entropy", GP_DIR_FPROP, 0);      /* 9 */
	fx_tensor(&f, GP_DT_FP32, 2, D(700), D(33278));
	fx_tensor(&f, GP_DT_INT64, 1, D(700));
	fx_kernel(&f, "cunn_ClassNLLCriterion_updateOutput_kernel", F, "cross_entropy", GP_DIR_FPROP, 1); /* 10 */
	fx_tensor(&f, GP_DT_FP32, 2, D(700), D(33278));
	fx_tensor(&f, GP_DT_INT64, 1, D(700));
	fx_kernel(&f, "cunn_ClassNLLCriterion_updateGradInput_kernel", F, "cross_entropy", GP_DIR_BPROP, 0); /* 11 */
	fx_tensor(&f, GP_DT_FP32, 2, D(700), D(33278));
	fx_tensor(&f, GP_DT_INT64, 1, D(700));
	fx_kernel(&f, "elementwise_kernel", F, "mse_loss", GP_DIR_FPROP, 0);            /* 12 */
	fx_tensor(&f, GP_DT_FP32, 1, D(100));
	fx_tensor(&f, GP_DT_FP32, 1, D(100));
	fx_str(&f, "reduction", "mean");
	fx_kernel(&f, "elementwise_kernel", F, "mse_loss", GP_DIR_BPROP, 0);            /* 13 */
	fx_tensor(&f, GP_DT_FP32, 1, D(100));
	fx_tensor(&f, GP_DT_FP32, 1, D(100));
	fx_str(&f, "reduction", "none");
	struct gp_opres *r = run(&f);

	FEQ(r[0].flops, 3 * 140000.0);
	FEQ(r[0].bytes, 560000);
	FEQ(r[1].flops, 5 * 140000.0);
	FEQ(r[1].bytes, 1120000);
	/* cuDNN's one-kernel batch norm: 8n (PyProf's); x read, y written
	** (PyProf: 4B); bprop dy, x read, dx written (PyProf: 5B) */
	FEQ(r[2].flops, 8 * 6422528.0);
	FEQ(r[2].bytes, 2 * 6422528 * 2.0);
	FEQ(r[3].flops, 8 * 6422528.0);
	FEQ(r[3].bytes, 3 * 6422528 * 2.0);
	/* 16 ch * 256 out * 4 window; 4*16*(1024+256) */
	FEQ(r[4].flops, 16384);
	FEQ(r[4].bytes, 81920);
	FEQ(r[5].flops, 2 * 512 * 49.0);
	FEQ(r[5].bytes, 4 * 1024 * 50.0);
	/* 2*BH*L*S*(E+Ev) = 2*16*128*128*128; bytes 2*(4*131072) */
	FEQ(r[6].flops, 67108864);
	FEQ(r[6].bytes, 1048576);
	assert_int_equal(r[6].tc, GP_TC_YES);
	assert_int_equal(r[6].tc_eligible, 1);
	assert_string_equal(gp_opres_family(&r[6]), "attention");
	FEQ(r[7].flops, 2.5 * 67108864);
	FEQ(r[7].bytes, 2097152);
	FEQ(r[8].flops, 67108864 / 2.0);
	assert_non_null(strstr(params(&f, r, 8), "causal=1"));
	/* log_softmax part over 700*33278 = 23294600; NLL gather */
	FEQ(r[9].flops, 21 * 23294600.0);
	FEQ(r[9].bytes, 2 * 23294600 * 4.0);
	FEQ(r[10].flops, 700);
	FEQ(r[10].bytes, 8404);
	/* the gradient kernel writes one element per row too: 8N + N s + s */
	FEQ(r[11].flops, 700);
	FEQ(r[11].bytes, 8404);
	/* mse: e = 2n fprop (mean): 2e+1, e*s; bprop none: e = 4n */
	FEQ(r[12].flops, 401);
	FEQ(r[12].bytes, 800);
	FEQ(r[13].flops, 801);
	FEQ(r[13].bytes, 1600);
	fx_free(&f);
}

/* RNN cells, optimizers, conversions, copies, joins, collectives. */
static void rnn_optim_convert_comm(void **state)
{
	struct fx f;
	fx_init(&f);
	/* 0,1,2: LSTMCell x[32,100] h,c[32,50]: layer GEMM, recurrent GEMM, elementwise */
	for (int i = 0; i < 3; i++) {
		fx_kernel(&f, i < 2 ? "volta_sgemm_32x32_sliced1x4_tn" : "kernelPointwiseApply3", "LSTMCell", "forward", GP_DIR_FPROP, i);
		fx_tensor(&f, GP_DT_FP32, 2, D(32), D(100));
		fx_tensor(&f, GP_DT_FP32, 2, D(32), D(50));
		fx_tensor(&f, GP_DT_FP32, 2, D(32), D(50));
	}
	fx_kernel(&f, "adam_cuda_kernel", "FusedAdam", "adam", GP_DIR_FPROP, 0);        /* 3 */
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	fx_tensor(&f, GP_DT_FP16, 1, D(1000));
	fx_kernel(&f, "multi_tensor_apply_kernel", "aten", "aten::_fused_adamw_", GP_DIR_NA, 0); /* 4 */
	for (int i = 0; i < 4; i++)
		fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	fx_kernel(&f, "elementwise_kernel", "Tensor", "half", GP_DIR_FPROP, 0);         /* 5 */
	fx_tensor(&f, GP_DT_FP32, 1, D(100));
	fx_kernel(&f, "elementwise_kernel", "Tensor", "copy_", GP_DIR_FPROP, 0);        /* 6 */
	fx_tensor(&f, GP_DT_FP16, 1, D(10));
	fx_tensor(&f, GP_DT_FP32, 1, D(10));
	fx_kernel(&f, "CatArrayBatchedCopy", "torch", "cat", GP_DIR_FPROP, 0);          /* 7 */
	fx_tensor(&f, GP_DT_FP32, 2, D(10), D(4));
	fx_tensor(&f, GP_DT_FP32, 2, D(10), D(6));
	fx_kernel(&f, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "c10d", "c10d::allreduce_", GP_DIR_NA, 0); /* 8 */
	fx_tensor(&f, GP_DT_BF16, 2, D(1024), D(1024));
	fx_kernel(&f, "ncclKernel_AllGather_RING_LL_Sum_int8_t", "", "record_param_comms", GP_DIR_NA, 0); /* 9 */
	fx_tensor(&f, GP_DT_INT8, 1, D(1000));
	fx_kernel(&f, "elementwise_kernel", "torch", "zeros", GP_DIR_FPROP, 0);         /* 10 */
	fx_list(&f, NULL, 2, D(10), D(10));
	struct gp_opres *r = run(&f);

	FEQ(r[0].flops, 2 * 200 * 32 * 100.0);
	assert_string_equal(params(&f, r, 0), "cell=LSTM,M=200,N=32,K=100,type=fp32");
	FEQ(r[1].flops, 2 * 200 * 32 * 50.0);
	FEQ(r[2].flops, 0);
	FEQ(r[2].bytes, 4 * (2 * 4 * 50 * 32 + 3 * 50 * 32.0));
	assert_string_equal(gp_opres_family(&r[0]), "rnn");
	FEQ(r[3].bytes, 6 * 1000 * 4 + 1000 * 2 * 2.0);  /* PyProf, mixed precision */
	FEQ(r[4].bytes, 16000 * 1.75);
	FEQ(r[4].flops, 12000);
	FEQ(r[5].bytes, 100 * 6.0);
	assert_string_equal(params(&f, r, 5), "T=(100,),stype=fp32,dtype=fp16");
	FEQ(r[6].bytes, 60);
	FEQ(r[7].bytes, 2 * (40 + 60) * 4.0);
	FEQ(r[8].bytes, 2 * 1048576 * 2.0);
	FEQ(r[8].flops, 1048576);
	assert_string_equal(gp_opres_family(&r[8]), "comm");
	assert_string_equal(params(&f, r, 8), "coll=all_reduce,S=2097152,type=bf16");
	FEQ(r[9].bytes, 1000);
	assert_non_null(strstr(params(&f, r, 9), "coll=all_gather"));
	FEQ(r[10].bytes, 400);
	fx_free(&f);
}

/* Communication: the kernel's name decides (model/classify.h), whatever
** op launched it; the op still gives its family. */
static void comm_by_op_or_kernel_name(void **state)
{
	struct fx f;
	fx_init(&f);
	fx_kernel(&f, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", "c10d", "c10d::allreduce_", GP_DIR_NA, 0); /* 0 */
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	fx_kernel(&f, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", NULL, NULL, GP_DIR_NA, 0);    /* 1: no op */
	fx_kernel(&f, "ncclKernel_Broadcast_RING_LL_Sum_int8_t", "x", "my_custom_op", GP_DIR_NA, 0); /* 2 */
	fx_kernel(&f, "elementwise_kernel", "x", "my_custom_op", GP_DIR_NA, 0);                  /* 3 */
	fx_kernel(&f, "elementwise_kernel", NULL, NULL, GP_DIR_NA, 0);                           /* 4 */
	fx_kernel(&f, "ncclDevKernel_Reduce_Sum_f32_RING_LL", F, "add", GP_DIR_FPROP, 0);       /* 5 */
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	struct gp_opres *r = run(&f);

	assert_true(gp_op_is_comm(&r[0]));
	assert_string_equal(gp_opres_family(&r[0]), "comm");
	assert_true(gp_op_is_comm(&r[1]));
	assert_null(gp_opres_family(&r[1]));
	assert_true(gp_op_is_comm(&r[2]));
	assert_string_equal(gp_opres_family(&r[2]), "unknown");
	assert_false(gp_op_is_comm(&r[3]));
	assert_false(gp_op_is_comm(&r[4]));
	assert_true(gp_op_is_comm(&r[5]));     /* an NCCL kernel under a pointwise op */
	assert_string_equal(gp_opres_family(&r[5]), "pointwise");
	fx_free(&f);
}

/* Adds a conv2d-like kernel x[8,16,32,32] w[32,16,3,3] (same params string
** for every call). */
static void conv_call(struct fx *f, const char *kernel, const char *op, int dir, int sub)
{
	fx_kernel(f, kernel, F, op, dir, sub);
	if (dir == GP_DIR_BPROP)
		fx_tensor(f, GP_DT_FP32, 4, D(8), D(32), D(30), D(30));
	fx_tensor(f, GP_DT_FP32, 4, D(8), D(16), D(32), D(32));
	fx_tensor(f, GP_DT_FP32, 4, D(32), D(16), D(3), D(3));
}

/* Whether one of t's notes contains text. */
static bool has_note(const gp_trace *t, const char *text)
{
	for (size_t i = 0; i < t->warnings.n; i++)
		if (strstr(gp_s(t, t->warnings.v[i]), text))
			return true;
	return false;
}

/* cudnn.benchmark: the first call of a conv runs every candidate algorithm,
** later calls only the chosen one; a forward conv seen once keeps its last
** kernel; helpers get 0 FLOPs and no TC value. */
static void helpers_and_trials(void **state)
{
	struct fx f;
	fx_init(&f);
	/* 0-2: first call: two trials, then the chosen kernel; 3, 4: later calls */
	conv_call(&f, "implicit_convolve_sgemm", "conv2d", GP_DIR_FPROP, 0);
	conv_call(&f, "volta_scudnn_128x32_relu_interior_nn_v1", "conv2d", GP_DIR_FPROP, 1);
	conv_call(&f, "volta_scudnn_128x64_relu_interior_nn_v1", "conv2d", GP_DIR_FPROP, 2);
	conv_call(&f, "volta_scudnn_128x64_relu_interior_nn_v1", "conv2d", GP_DIR_FPROP, 0);
	conv_call(&f, "volta_scudnn_128x64_relu_interior_nn_v1", "conv2d", GP_DIR_FPROP, 0);
	/* 5-8: a conv of other shapes seen once: a trial, a helper, a trial
	** of the kernel that runs again last, the chosen one */
	fx_kernel(&f, "gemmSN_NN_kernel", F, "cudnn_convolution", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(3), D(8), D(8));
	fx_tensor(&f, GP_DT_FP32, 4, D(4), D(3), D(3), D(3));
	fx_kernel(&f, "cudnn::gemm::computeOffsetsKernel(cudnn::gemm::ComputeOffsetsParams)", F, "cudnn_convolution", GP_DIR_FPROP, 1);
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(3), D(8), D(8));
	fx_tensor(&f, GP_DT_FP32, 4, D(4), D(3), D(3), D(3));
	fx_kernel(&f, "implicit_convolve_sgemm", F, "cudnn_convolution", GP_DIR_FPROP, 2);
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(3), D(8), D(8));
	fx_tensor(&f, GP_DT_FP32, 4, D(4), D(3), D(3), D(3));
	fx_kernel(&f, "implicit_convolve_sgemm", F, "cudnn_convolution", GP_DIR_FPROP, 3);
	fx_tensor(&f, GP_DT_FP32, 4, D(1), D(3), D(8), D(8));
	fx_tensor(&f, GP_DT_FP32, 4, D(4), D(3), D(3), D(3));
	/* 9, 10: a backward conv seen once: dgrad and wgrad, not trials */
	conv_call(&f, "dgrad_engine", "convolution_backward", GP_DIR_BPROP, 0);
	conv_call(&f, "wgrad_alg0_engine", "convolution_backward", GP_DIR_BPROP, 1);
	/* 11: Winograd transform under a conv: a helper */
	conv_call(&f, "winogradForwardData4x4", "conv2d", GP_DIR_FPROP, 1);
	struct gp_opres *r = run(&f);

	for (int k = 0; k <= 10; k++) {
		bool trial = k == 0 || k == 1 || k == 5 || k == 7;
		print_message("kernel %d\n", k);
		assert_int_equal(r[k].trial, trial);
		assert_int_equal(r[k].known, !trial);
		assert_true(trial ? r[k].flops < 0 && r[k].bytes < 0 : r[k].flops >= 0);
	}
	/* 2*N8*K32*30*30*C16*9 */
	FEQ(r[2].flops, 2.0 * 8 * 32 * 900 * 16 * 9);
	FEQ(r[4].flops, r[2].flops);
	FEQ(r[8].flops, 2.0 * 4 * 36 * 3 * 9);
	for (int k = 6; k <= 11; k += 5) {
		assert_int_equal(r[k].helper, 1);
		FEQ(r[k].flops, 0);
		assert_true(r[k].bytes < 0);
		assert_int_equal(r[k].tc, GP_TC_NOT_APPLICABLE);
	}
	assert_true(has_note(&f.t, "4 kernels ("));
	assert_true(has_note(&f.t, "autotuning trial runs"));
	fx_free(&f);
}

/* Work the GPU could not have done in the time the kernel ran: the model
** is wrong for that kernel; its FLOPs and bytes become unknown and a note
** names it.  At peaks given by the caller it is judged by those. */
static void work_above_peak(void **state)
{
	struct fx f;
	fx_init(&f);
	fx_device(&f, "NVIDIA A100-SXM4-80GB", 108);
	/* 0: 3 * 400 MB in 10 us; 1: 3 * 4 KB */
	fx_kernel(&f, "vectorized_elementwise_kernel", F, "add", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 1, D(100000000));
	fx_tensor(&f, GP_DT_FP32, 1, D(100000000));
	fx_kernel(&f, "vectorized_elementwise_kernel", F, "add", GP_DIR_FPROP, 0);
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	fx_tensor(&f, GP_DT_FP32, 1, D(1000));
	struct gp_opres *r = run(&f);

	assert_int_equal(r[0].overpeak, 1);
	assert_int_equal(r[0].known, 0);
	assert_true(r[0].flops < 0 && r[0].bytes < 0);
	assert_int_equal(r[1].overpeak, 0);
	FEQ(r[1].flops, 1000);
	assert_true(has_note(&f.t, "1 kernel (0.010 ms of GPU time) whose modelled work exceeds the GPU's peak"));
	assert_true(has_note(&f.t, "vectorized_elementwise_kernel (add) x1"));

	struct gp_peak_opts po = {.peak_flops = 1e18, .peak_bw = 1e18};
	r = fx_ops(&f, &po);
	assert_int_equal(r[0].overpeak, 0);
	FEQ(r[0].flops, 1e8);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(linear_fprop_bprop_and_bias),
		cmocka_unit_test(unknown_op_gets_generic_row),
		cmocka_unit_test(conv_shapes),
		cmocka_unit_test(gemm_shapes),
		cmocka_unit_test(pointwise_and_friends),
		cmocka_unit_test(norm_pool_attention_loss),
		cmocka_unit_test(rnn_optim_convert_comm),
		cmocka_unit_test(comm_by_op_or_kernel_name),
		cmocka_unit_test(helpers_and_trials),
		cmocka_unit_test(work_above_peak),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
