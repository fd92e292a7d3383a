# Custom ops without rebuilding (issue 24): an ops file adds kernel
# families and op formulas (docs/op-model.md, "Your own ops"), from
# --ops-file or the configuration ($GPUPROF_OPS, ~/.config/gpuprof/ops.d/);
# the example share/ops/vllm.ops gives vLLM's KV-cache writes their bytes
# on the vLLM capture trace; a hand-made trace checks the gemm, flops/bytes,
# like= and kernel rows against hand-computed values; every bad file is
# refused with its file:line and exit 2 (3 when it cannot be read).
python3 - "$TMP/t.json" <<'PY' || fail "cannot write the trace"
import json, sys
BF = "c10::BFloat16"
ops = [
    ("my::fused_mlp", [[4, 128, 1024], [4096, 1024]], [BF, BF], "my_fused_gemm_kernel_128x128", 100.0),
    ("my::gelu_and_mul", [[512, 8192], [512, 4096]], [BF, BF], "void my::gelu_and_mul_kernel<c10::BFloat16>(c10::BFloat16*)", 50.0),
    ("my::rmsnorm", [[512, 4096], [4096], []], [BF, BF, "Scalar"], "void my::rmsnorm_kernel<c10::BFloat16>(c10::BFloat16*)", 20.0),
    ("my::unknown", [[8, 8]], [BF], "my_other_kernel", 5.0),
]
ev, ts, gpu = [], 1000.0, 2000.0
for i, (op, dims, types, name, dur) in enumerate(ops):
    ev.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": 1, "tid": 1, "ts": ts, "dur": 20,
               "args": {"External id": 10 + i, "Input Dims": dims, "Input type": types}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts + 5,
               "dur": 5, "args": {"External id": 10 + i, "correlation": 100 + i}})
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7, "ts": gpu, "dur": dur,
               "args": {"External id": 10 + i, "correlation": 100 + i, "device": 0, "stream": 7}})
    ts += 30
    gpu += dur + 3
dev = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85520809984, "computeMajor": 9,
       "computeMinor": 0, "numSms": 132, "warpSize": 32}
json.dump({"deviceProperties": [dev], "traceEvents": ev}, open(sys.argv[1], "w"))
PY
cat >"$TMP/my.ops" <<'EOF'
# my ops
kernel pattern="name^my_fused_gemm_" family=gemm tc=yes library="my kernels"
op name=my::fused_mlp M=in1[0] N=numel(in0)/in0[-1] K=in0[-1]   # x w^T
op name=my::gelu_and_mul family=activation flops=21*numel(in1) bytes=bytes(in0)+bytes(in1)
op name=my::rmsnorm like=rms_norm
EOF
export GPUPROF_OPS=
run_ok "$GPUPROF" report -f tsv --no-header -c op,kernel,tc,params,flops,bytes "$TMP/t.json"
assert_grep '^my::fused_mlp	my_fused_gemm_kernel_128x128	0	.*	na	na$' "$TMP/out"   # a gemm name without a TC token
run_ok "$GPUPROF" report -f tsv --no-header -c op,kernel,tc,params,flops,bytes --ops-file "$TMP/my.ops" "$TMP/t.json"
# M=4096 N=4*128=512 K=1024: 2*4096*512*1024; 2*(4096*512 + 4096*1024 + 512*1024)
assert_grep '^my::fused_mlp	my_fused_gemm_kernel_128x128	1	M=4096,N=512,K=1024,type=bf16	4294967296	13631488$' "$TMP/out"
# 21*512*4096; 2*(512*8192 + 512*4096)
assert_grep '^my::gelu_and_mul	gelu_and_mul_kernel	-	T=\[\(512,8192\);\(512,4096\)\],type=bf16	44040192	12582912$' "$TMP/out"
# rms_norm's rule: 5n FLOPs, 2B (n = 512*4096)
assert_grep '^my::rmsnorm	rmsnorm_kernel	-	T=\(512,4096\),type=bf16	10485760	8388608$' "$TMP/out"
assert_grep '^my::unknown	my_other_kernel	-	.*	na	na$' "$TMP/out"
# the family row reaches the roofline: a GEMM on tensor cores, bf16 peak
run_ok "$GPUPROF" report -f tsv --no-header -c kernel,tc,gflops --ops-file "$TMP/my.ops" "$TMP/t.json"
assert_grep '^my_fused_gemm_kernel_128x128	1	42949\.67' "$TMP/out"

# the configuration: a directory of *.ops files, or a file; empty = none
mkdir -p "$TMP/home/.config/gpuprof/ops.d" "$TMP/dir"
cp "$TMP/my.ops" "$TMP/home/.config/gpuprof/ops.d/my.ops"
cp "$TMP/my.ops" "$TMP/dir/a.ops"
echo "this is no ops line" >"$TMP/dir/notes.txt"    # not *.ops: not read
unset GPUPROF_OPS
HOME=$TMP/home XDG_CONFIG_HOME= "$GPUPROF" report -f tsv --no-header -c op,flops "$TMP/t.json" >"$TMP/out" || fail "home config"
assert_grep '^my::fused_mlp	4294967296$' "$TMP/out"
GPUPROF_OPS=$TMP/dir HOME=/nonexistent "$GPUPROF" report -f tsv --no-header -c op,flops "$TMP/t.json" >"$TMP/out" || fail "GPUPROF_OPS dir"
assert_grep '^my::fused_mlp	4294967296$' "$TMP/out"
GPUPROF_OPS= HOME=$TMP/home "$GPUPROF" report -f tsv --no-header -c op,flops "$TMP/t.json" >"$TMP/out" || fail "GPUPROF_OPS empty"
assert_grep '^my::fused_mlp	na$' "$TMP/out"
# a --ops-file row wins over the configuration's
printf 'op name=my::fused_mlp family=gemm flops=7 bytes=8\n' >"$TMP/win.ops"
GPUPROF_OPS=$TMP/dir "$GPUPROF" report -f tsv --no-header -c op,flops --ops-file "$TMP/win.ops" "$TMP/t.json" >"$TMP/out" || fail "precedence"
assert_grep '^my::fused_mlp	7$' "$TMP/out"
export GPUPROF_OPS=

# bad files: file:line and what is wrong, exit 2
bad() { # LINE EXPECTED-MESSAGE-REGEX
	printf '# a comment\n%s\n' "$1" >"$TMP/bad.ops"
	expect_exit 2 "$GPUPROF" report --ops-file "$TMP/bad.ops" "$TMP/t.json"
	grep -Eq -- "bad\.ops:2: (.*: )?$2" "$TMP/err" || { cat "$TMP/err" >&2; fail "no '$2' for: $1"; }
}
bad 'kernal pattern=name^x family=gemm' "'kernal': a line is 'kernel \.\.\.' or 'op \.\.\.'"
bad 'kernel family=gemm' 'a kernel line wants pattern= and family='
bad 'kernel pattern=nme^x family=gemm' 'pattern: .*a condition starts with name, qual or full'
bad 'kernel pattern=name^x family=gemmm' "family 'gemmm' is none of gemm, conv, attention, norm, comm, other"
bad 'kernel pattern=name^x family=gemm tc=maybe' "tc 'maybe' is none of yes, no, na, name, dtype, if:TOKENS"
bad 'kernel pattern="name^x family=gemm' 'a " without its closing "'
bad 'kernel pattern=name^x family=gemm colour=red' "'colour' is no field of a kernel line"
bad 'op family=gemm M=1 N=1 K=1' 'an op line wants name='
bad 'op name=x like=no_such_op' 'like=no_such_op: no built-in op of that name'
bad 'op name=x like=rms_norm family=norm' 'like= takes its family and formula from rms_norm'
bad 'op name=x family=gemm M=in0[0] N=in1[0]' 'K= missing'
bad 'op name=x family=pointwise flops=2*numel(in0)' 'bytes= missing'
bad 'op name=x flops=1 bytes=1' 'flops= and bytes= want family='
bad 'op name=x family=pointwise flops=2*(numel(in0) bytes=1' "a '\(' without its '\)'"
bad 'op name=x family=pointwise flops=in0 bytes=1' 'in0 wants a dimension'
bad 'op name=x family=pointwise flops=2+foo bytes=1' 'expected inN'
bad 'op name=x family=shiny flops=1 bytes=1' "family 'shiny' is none of gemm, conv"
bad 'op name=x family=pointwise formula=nope' "formula 'nope' is none of formulas.c's"
bad 'op name=x family=pointwise flops=1 bytes=1 k1=3' 'k1..k3 go with formula='
bad 'op name=x family=pointwise flops=1 bytes=1 M' "'M' is no key=value field"
expect_exit 3 "$GPUPROF" report --ops-file "$TMP/none.ops" "$TMP/t.json"
assert_grep 'none\.ops: cannot open' "$TMP/err"
printf 'op name=x\000 like=rms_norm\n' >"$TMP/nul.ops"
expect_exit 2 "$GPUPROF" report --ops-file "$TMP/nul.ops" "$TMP/t.json"
assert_grep 'nul\.ops: binary data' "$TMP/err"
GPUPROF_OPS=$TMP/none.d expect_exit 3 "$GPUPROF" info "$TMP/t.json"
# a formula whose arguments are missing leaves the op unknown, no crash
printf 'op name=my::unknown family=pointwise flops=numel(in5) bytes=in0[7]\n' >"$TMP/odd.ops"
run_ok "$GPUPROF" report -f tsv --no-header -c op,flops --ops-file "$TMP/odd.ops" "$TMP/t.json"
assert_grep '^my::unknown	na$' "$TMP/out"
# commands without the op model take no --ops-file
expect_exit 2 "$GPUPROF" ranges --ops-file "$TMP/my.ops" "$TMP/t.json"

need_testdata
# the example file on vLLM's capture trace: reshape_and_cache_flash(key
# [8192,8,64] bf16, value [8192,8,64] bf16, ..., slot_mapping [8192] int64):
# 2*(2*1048576 + 2*1048576) + 8*8192 = 33619968 bytes
tr=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/capture_traces/graph_capture_rank_0.1773709679453551615.pt.trace.json.gz
run_ok "$GPUPROF" report -f tsv --no-header -c op,flops,bytes "$tr"
assert_grep '^_C_cache_ops::reshape_and_cache_flash	na	na$' "$TMP/out"
run_ok "$GPUPROF" report -f tsv --no-header -c op,flops,bytes --ops-file share/ops/vllm.ops "$tr"
[ "$(grep -c '^_C_cache_ops::reshape_and_cache_flash	0	33619968$' "$TMP/out")" = 24 ] || fail "reshape_and_cache_flash bytes"
