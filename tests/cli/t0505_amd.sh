# AMD (ROCm) Kineto traces: mangled kernel names are demangled (a truncated
# one down to its readable prefix), and a GPU that ROCm names only "AMD
# Radeon Graphics" is known by its properties (gfx version, CUs, memory),
# or, when no row has them, gets peaks estimated from them.
need_testdata
amd=$TESTDATA/hta/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz
run_ok "$GPUPROF" advise "$amd"
# 104 CUs, gfx90a, 64 GB: an MI210 or one GCD of an MI250 (same peaks)
assert_grep '^GPU MI210 or MI250-GCD( x [0-9]+)?: ' "$TMP/out"
assert_no_grep 'use --gpu' "$TMP/out"
run_ok "$GPUPROF" report -f csv -c kernel,eff "$amd"
assert_no_grep ',"na"$' "$TMP/out"
# 304 CUs on gfx942 with 256 GB is an MI325X, with 192 GB an MI300X
props() { # CC_MINOR CUS MEM_BYTES [NAME]: a one-kernel trace on a device with these properties
	printf '{"deviceProperties": [{"id": 0, "name": "%s", "totalGlobalMem": %s, "computeMajor": 9, "computeMinor": %s, "numSms": %s}], "traceEvents": [
{"ph": "X", "cat": "kernel", "name": "_ZN7ck_tile6kentryILi64ENS_10GemmKernelIfEEEEvT0_", "pid": 0, "tid": 1, "ts": 1, "dur": 1, "args": {"device": 0, "stream": 1}},
{"ph": "X", "cat": "kernel", "name": "_ZN7ck_tile6kentryILi64ENS_10GemmKernelIfEE", "pid": 0, "tid": 1, "ts": 3, "dur": 1, "args": {"device": 0, "stream": 1}},
{"ph": "X", "cat": "kernel", "name": "_ZN7ck_tile6kentryILi64ENS_10Gemm", "pid": 0, "tid": 1, "ts": 5, "dur": 1, "args": {"device": 0, "stream": 1}}
]}\n' "${4:-AMD Radeon Graphics}" "$3" "$1" "$2"
}
props 4 304 274877906944 > "$TMP/mi325.json"
run_ok "$GPUPROF" advise "$TMP/mi325.json"
assert_grep '^GPU MI325X( x [0-9]+)?: ' "$TMP/out"
props 4 304 206158430208 > "$TMP/mi300.json"
run_ok "$GPUPROF" advise "$TMP/mi300.json"
assert_grep '^GPU MI300X( x [0-9]+)?: ' "$TMP/out"
# 256 CUs on gfx950 with 288 GB is an MI350X or an MI355X, which differ
# only in clock, which Kineto does not record: estimated at the higher
props 5 256 309237645312 > "$TMP/mi355.json"
run_ok "$GPUPROF" advise "$TMP/mi355.json"
assert_grep '^GPU CDNA4 gfx950 \(estimated\)( x [0-9]+)?: ' "$TMP/out"
run_ok "$GPUPROF" info "$TMP/mi355.json"
assert_grep "clock not recorded: 2.40 GHz assumed.*: 157.3 FP32, 2516.6 FP16 tensor" "$TMP/out"
props 5 256 309237645312 "AMD Instinct MI355X" > "$TMP/mi355n.json"
run_ok "$GPUPROF" advise "$TMP/mi355n.json"
assert_grep '^GPU MI355X( x [0-9]+)?: ' "$TMP/out"
# ROCm's own names: an MI210 is an MI210; "MI250X / MI250" by its CUs
props 0 104 68702699520 "AMD Instinct MI210" > "$TMP/mi210.json"
run_ok "$GPUPROF" advise "$TMP/mi210.json"
assert_grep '^GPU MI210( x [0-9]+)?: ' "$TMP/out"
props 0 104 68702699520 "AMD Instinct MI250X / MI250" > "$TMP/mi250.json"
run_ok "$GPUPROF" advise "$TMP/mi250.json"
assert_grep '^GPU MI250-GCD( x [0-9]+)?: ' "$TMP/out"
props 0 110 68702699520 "AMD Instinct MI250X / MI250" > "$TMP/mi250x.json"
run_ok "$GPUPROF" advise "$TMP/mi250x.json"
assert_grep '^GPU MI250X-GCD( x [0-9]+)?: ' "$TMP/out"
# gfx908 with 120 CUs and 64 GB is no row (an MI100 has 32 GB): estimated
# from the CUs and CDNA's per-CU rates at its usual 1502 MHz, and said so
props 0 120 68702699520 > "$TMP/other.json"
run_ok "$GPUPROF" advise "$TMP/other.json"
assert_grep '^GPU CDNA gfx908 \(estimated\)( x [0-9]+)?: ' "$TMP/out"
run_ok "$GPUPROF" info "$TMP/other.json"
assert_grep '^gpu 0 +AMD Radeon Graphics, 120 SMs, cc 9.0, 64.0 GiB, peaks CDNA gfx908 \(estimated\)$' "$TMP/out"
assert_grep "^note [0-9]+ +gpu 0 \(AMD Radeon Graphics\): not in the GPU table; peaks estimated from the trace's properties \(120 SMs, gfx 9.0, clock not recorded: 1.50 GHz assumed, bandwidth not recorded: eff is na, set --peak-bw\): 23.1 FP32, 184.6 FP16 tensor TFLOP/s dense" "$TMP/out"
# without the CU count nothing can be estimated: the GPU is unknown
props 0 0 68702699520 > "$TMP/nocus.json"
run_ok "$GPUPROF" advise "$TMP/nocus.json"
assert_grep 'use --gpu' "$TMP/out"
# the names: full, cut after a template argument, cut inside an identifier
run_ok "$GPUPROF" report -f csv -c longname "$TMP/mi325.json"
assert_grep '^"void ck_tile::kentry<64, ck_tile::GemmKernel<float> >\(ck_tile::GemmKernel<float>\)"$' "$TMP/out"
assert_grep '^"void ck_tile::kentry<64, ck_tile::GemmKernel<float> >\(\) \[truncated\]"$' "$TMP/out"
assert_grep '^"void ck_tile::kentry<64>\(\) \[truncated\]"$' "$TMP/out"
# the same with the split-and-merge parse
GPUPROF_PARALLEL_MIN_BYTES=1 GPUPROF_THREADS=2 "$GPUPROF" report -f csv -c longname "$TMP/mi325.json" > "$TMP/par" 2>&1 || fail "parallel report"
cmp -s "$TMP/out" "$TMP/par" || fail "parallel parse names kernels differently"
