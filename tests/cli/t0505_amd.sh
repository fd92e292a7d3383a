# AMD (ROCm) Kineto traces: mangled kernel names are demangled (a truncated
# one down to its readable prefix), and a GPU that ROCm names only "AMD
# Radeon Graphics" is known by its properties (gfx version, CUs, memory).
need_testdata
amd=$TESTDATA/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz
run_ok "$GPUPROF" advise "$amd"
assert_grep '^GPU MI250-GCD, ' "$TMP/out"
assert_no_grep 'use --gpu' "$TMP/out"
run_ok "$GPUPROF" report -f csv -c kernel,eff "$amd"
assert_no_grep ',"na"$' "$TMP/out"
# 104 CUs on gfx90a is an MI250 GCD; 304 CUs on gfx942 with 256 GB an MI325X
props() { # CC_MINOR CUS MEM_BYTES: a one-kernel trace on a device with these properties
	printf '{"deviceProperties": [{"id": 0, "name": "AMD Radeon Graphics", "totalGlobalMem": %s, "computeMajor": 9, "computeMinor": %s, "numSms": %s}], "traceEvents": [
{"ph": "X", "cat": "kernel", "name": "_ZN7ck_tile6kentryILi64ENS_10GemmKernelIfEEEEvT0_", "pid": 0, "tid": 1, "ts": 1, "dur": 1, "args": {"device": 0, "stream": 1}},
{"ph": "X", "cat": "kernel", "name": "_ZN7ck_tile6kentryILi64ENS_10GemmKernelIfEE", "pid": 0, "tid": 1, "ts": 3, "dur": 1, "args": {"device": 0, "stream": 1}},
{"ph": "X", "cat": "kernel", "name": "_ZN7ck_tile6kentryILi64ENS_10Gemm", "pid": 0, "tid": 1, "ts": 5, "dur": 1, "args": {"device": 0, "stream": 1}}
]}\n' "$3" "$1" "$2"
}
props 4 304 274877906944 > "$TMP/mi325.json"
run_ok "$GPUPROF" advise "$TMP/mi325.json"
assert_grep '^GPU MI325X, ' "$TMP/out"
props 4 304 206158430208 > "$TMP/mi300.json"
run_ok "$GPUPROF" advise "$TMP/mi300.json"
assert_grep '^GPU MI300X, ' "$TMP/out"
props 5 256 309237645312 > "$TMP/mi355.json"
run_ok "$GPUPROF" advise "$TMP/mi355.json"
assert_grep '^GPU MI355X, ' "$TMP/out"
props 0 120 68702699520 > "$TMP/other.json"
run_ok "$GPUPROF" advise "$TMP/other.json"
assert_grep 'use --gpu' "$TMP/out"
# the names: full, cut after a template argument, cut inside an identifier
run_ok "$GPUPROF" report -f csv -c longname "$TMP/mi325.json"
assert_grep '^"void ck_tile::kentry<64, ck_tile::GemmKernel<float> >\(ck_tile::GemmKernel<float>\)"$' "$TMP/out"
assert_grep '^"void ck_tile::kentry<64, ck_tile::GemmKernel<float> >\(\) \[truncated\]"$' "$TMP/out"
assert_grep '^"void ck_tile::kentry<64>\(\) \[truncated\]"$' "$TMP/out"
# the same with the split-and-merge parse
GPUPROF_PARALLEL_MIN_BYTES=1 GPUPROF_THREADS=2 "$GPUPROF" report -f csv -c longname "$TMP/mi325.json" > "$TMP/par" 2>&1 || fail "parallel report"
cmp -s "$TMP/out" "$TMP/par" || fail "parallel parse names kernels differently"
