# Kineto metadata and notes shown by info: GPU properties, rank and world
# size, CUDA/CUPTI/NCCL versions, what non-CUDA traces lack; the iteration
# column of report.
need_testdata
run_ok "$GPUPROF" info "$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"
assert_grep '^gpu 0 +NVIDIA H100 80GB HBM3, 132 SMs, cc 9.0, 79.2 GiB' "$TMP/out"
assert_grep '^cupti_version +22$' "$TMP/out"
assert_grep '^cuda_runtime_version +12.4 \(12040\)$' "$TMP/out"
assert_grep '^cuda_driver_version +12.9 \(12090\)$' "$TMP/out"
assert_grep '^tool +PyTorch profiler \(Kineto\), schema 1$' "$TMP/out"
run_ok "$GPUPROF" info "$TESTDATA/hta/nccl_parser_config/nccl_data.json.gz"
assert_grep '^rank +0$' "$TMP/out"
assert_grep '^world_size +2$' "$TMP/out"
assert_grep '^dist_backend +nccl$' "$TMP/out"
assert_grep '^nccl_version +2\.' "$TMP/out"
# distributedInfo without rank; none at all; CPU only
run_ok "$GPUPROF" info "$TESTDATA/hta/rank_unavailable/rank_not_found.json.gz"
assert_grep 'distributedInfo has no rank' "$TMP/out"
assert_no_grep '^rank ' "$TMP/out"
run_ok "$GPUPROF" info "$TESTDATA/hta/distributed_info_unavailable/distributed_info_not_found.json.gz"
assert_grep 'this trace has no kernels' "$TMP/out"
run_ok "$GPUPROF" report "$TESTDATA/hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"
# AMD and MTIA: kept what is there, said what is not
run_ok "$GPUPROF" info "$TESTDATA/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz"
assert_grep '^gpu 0-3 +4 x AMD Radeon Graphics' "$TMP/out"
assert_grep 'AMD GPU trace' "$TMP/out"
run_ok "$GPUPROF" info "$TESTDATA/hta/mtia_inference_trace/mtia_inference_rank_0.json.gz"
assert_grep 'events of category mtia_ccp_events not read \(MTIA device activity' "$TMP/out"
assert_grep '^gpu 17 +ARTEMIS' "$TMP/out"
# eight identical GPUs: one line with their count (the JSON keeps each)
V=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz
run_ok "$GPUPROF" info "$V"
assert_grep '^gpu 0-7 +8 x \(unnamed\), 304 SMs, cc 9\.4, 192\.0 GiB, peaks MI300X$' "$TMP/out"
assert_eq "$(grep -c '^gpu [0-9]' "$TMP/out")" 1 "one line for eight identical GPUs"
run_ok "$GPUPROF" info -f json "$V"
assert_eq "$(python3 -c 'import json, sys; print([g["id"] for g in json.load(open(sys.argv[1]))["gpus"]])' "$TMP/out")" \
	"[0, 1, 2, 3, 4, 5, 6, 7]" "info -f json: every GPU"
run_ok "$GPUPROF" info "$TESTDATA/hta/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz"
assert_grep 'cuda_profiler_range not read' "$TMP/out"
# ids above INT64_MAX and a trace of two bare events
run_ok "$GPUPROF" info --format json "$TESTDATA/hta/large_integer_trace/rank-70.Mar_25_20_48_12.2861.pt.trace.json.gz"
assert_grep '"kernels": 1' "$TMP/out"
# iterations from ProfilerStep#N; backward kernels find their forward op
run_ok "$GPUPROF" report -f csv -c iter,dir,mod,op "$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"
assert_eq "$(tail -n +2 "$TMP/out" | cut -d, -f1 | sort -u)" '"6"' "tracelens iterations"
run_ok "$GPUPROF" report -f csv -c iter,dir,mod,op "$TESTDATA/hta/nccl_parser_config/nccl_data.json.gz"
assert_grep '^"4","bprop","linear","mm"$' "$TMP/out"
assert_grep '^"4","fprop","linear","addmm"$' "$TMP/out"
# summary --by iter: the three profiled steps, every kernel in one of them
# (backward and gradient hooks on the autograd thread included)
run_ok "$GPUPROF" summary --by iter -f csv "$TESTDATA/hta/nccl_parser_config/nccl_data.json.gz"
assert_grep '^"GPU activities",.*,"900",.*"iteration 4"$' "$TMP/out"
assert_grep '^"GPU activities",.*,"900",.*"iteration 6"$' "$TMP/out"
assert_no_grep '"\(none\)"$' "$TMP/out"
