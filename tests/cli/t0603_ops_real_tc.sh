# Tensor-core classification and FLOP coverage on real traces: H100 bf16
# GEMMs and flash attention (Kineto), A100 TF32 convolutions (cuDNN xmma),
# V100 fp32 sgemm (not tensor cores), and info's share of GPU time with known
# FLOPs on Kineto and nsys files.
need_testdata

h100=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
run_ok "$GPUPROF" report -f tsv --no-header -c tc,op,kernel,params "$h100"
# every GEMM (addmm) and attention kernel of this bf16 run is on tensor cores
awk -F'\t' '$2 == "addmm" || $2 ~ /attention/ { n++; if ($1 != "1") bad++ }
	END { if (n < 20 || bad) { print n " gemm/attention kernels, " bad " not tc=1"; exit 1 } }' \
	"$TMP/out" || fail "H100 bf16 GEMMs must be tensor-core kernels"
assert_grep '^1	addmm	sm90_xmma_gemm_bf16bf16' "$TMP/out"
assert_grep '^1	_flash_attention_forward	flash_fwd_kernel	' "$TMP/out"
assert_grep '^-	native_layer_norm	' "$TMP/out"          # not a GEMM: not applicable
run_ok "$GPUPROF" info "$h100"
assert_grep '^gpu time with flops +100.0%' "$TMP/out"

a100=$TESTDATA/hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz
run_ok "$GPUPROF" report -f tsv --no-header -c tc,kernel "$a100"
assert_grep '^1	sm80_xmma_fprop_implicit_gemm_indexed_tf32f32' "$TMP/out"
assert_grep '^0	ampere_sgemm_32x32_sliced1x4_tn' "$TMP/out"  # fp32 SIMT GEMM

v100=$TESTDATA/kineto_tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
run_ok "$GPUPROF" report -f tsv --no-header -c tc,kernel "$v100"
assert_grep '^0	volta_sgemm_64x64_nt' "$TMP/out"
assert_no_grep '^1	volta_sgemm' "$TMP/out"

nsys=$TESTDATA/nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite
run_ok "$GPUPROF" info "$nsys"
assert_grep '^gpu time with flops +[0-9.]+%' "$TMP/out"
