# XLA ops' FLOPs and bytes from the HLO in the /host:metadata plane (issue
# 36), against TraceLens's perf model of the convolution
# (reference/op_conv.csv) and against the fusions' shapes by hand.
# The conv cudnn-conv.1.0 (HLO: input bf16[1,16,32,60,104], kernel
# bf16[5120,16,1,2,2], window 1x2x2, output bf16[1,5120,34,31,53]):
#   FLOPs = 2 x 1*5120*34*31*53 x (1*2*2) x 16 input features = 36609720320
# on its GEMM kernel, 0 on its Im3d2Col helper.  TraceLens's GFLOPS_first
# (2.28810752) leaves the 16 input features out (its filter_shape is the
# window (1, 2, 2) alone): ours is 16 x its, exactly.  Bytes: input
# 6389760 + kernel 655360 + output 572026880 (the custom call's u8 scratch
# left out) = 579072000, TraceLens's Data Moved (551.62 MiB: input +
# output, a 8-byte filter) within 0.5% (0.11%).
# The fusions hold only parameter/bitcast/transpose: 0 FLOPs; bytes =
# operand + result, both bf16:
#   input_transpose_fusion    [1,5120,34,31,53] -> [55862,5120]: 2*2*286013440 = 1144053760
#   input_transpose_fusion.1  [1,32,60,104,16] -> [16,199680]:   2*2*3194880  = 12779520
#   loop_transpose_fusion     [1,2,2,16,5120]  -> [5120,16,4]:   2*2*327680   = 1310720
# The file names its GPUs only "AMD" (no gpu_device_name); their 304 CUs,
# gfx 9.4 and 192 GiB identify the MI300X row of the GPU table, whose HBM
# peak (5.3 TB/s) is used, not the file's own 2662 GB/s, which would make
# the 1.1 GB transposes exceed the peak (their FLOPs then na).
# First, without the test data, the HLO of tests/tools/xplane_mini.py
# --hlo (its docstring has the shapes), priced by hand:
#   loop_add_fusion      add + exponential, f32[1024,256]: 2 x 262144 = 524288 FLOPs;
#                        bytes 2 operands + result, 3 x 1048576 = 3145728 (also on
#                        GPU 1's kernel, which has no launch call: its External id)
#   dot.3                2 x 512*256 x 1024 = 268435456 FLOPs;
#                        bytes (512*1024 + 1024*256 + 512*256) x 2 = 1835008
#   input_reduce_fusion  reduce of f32[4096,512]: 2097152 FLOPs;
#                        bytes 8388608 + 4096 x 4 = 8404992
#   all-reduce.1         not priced: na
# and its cuBLAS GEMM custom-calls, priced as dots from the dimension
# numbers of their backend_config (JSON GemmBackendConfig):
#   cublas-gemm.1        wrapper form ("gemm_backend_config"), f16[256,512] x
#                        f16[512,128], lhs contracting dim 1 (512):
#                        FLOPs 2 x 256*128 x 512 = 33554432;
#                        bytes (256*512 + 512*128 + 256*128) x 2 = 458752
#                        (the result tuple's u8[4194304] workspace left out)
#   custom-call.2        old top-level form, beta 1, f32[4,64,32] x f32[4,32,16]
#                        + C f32[4,64,16], batch dim 0, lhs contracting dim 2 (32):
#                        FLOPs 2 x 4*64*16 x 32 = 262144;
#                        bytes (8192 + 2048 + 4096 C + 4096 result) x 4 = 73728
#   custom-call.3        a `__cublas$lt$matmul` whose config is not JSON: na
command -v python3 >/dev/null || skip "python3 not installed"
python3 tests/tools/xplane_mini.py host "$TMP/mini.xplane.pb" --hlo || fail "xplane_mini.py failed"
run_ok "$GPUPROF" report -f csv -c op,flops,bytes "$TMP/mini.xplane.pb"
cat > "$TMP/want" <<'CSV'
"Op","FLOPs","Bytes"
"loop_add_fusion","524288","3145728"
"loop_add_fusion","524288","3145728"
"dot.3","268435456","1835008"
"all-gather-start.2","na","na"
"cublas-gemm.1","33554432","458752"
"custom-call.2","262144","73728"
"custom-call.3","na","na"
"all-reduce.1","na","na"
"input_reduce_fusion","2097152","8404992"
CSV
diff "$TMP/want" "$TMP/out" || fail "xplane_mini --hlo: FLOPs or bytes differ from the hand computation"
# without the metadata: na as before
python3 tests/tools/xplane_mini.py host "$TMP/plain.xplane.pb" || fail "xplane_mini.py failed"
run_ok "$GPUPROF" report -f csv -c op,flops "$TMP/plain.xplane.pb"
grep -q '"dot.3","na"' "$TMP/out" || fail "an XPlane file without HLO priced dot.3"

need_testdata
J=$TESTDATA/tracelens/jax
L=$J/mi300_jax_conv_minimal_legacy.xplane.pb
[ -r "$L" ] || skip "no $L in the test data"

run_ok "$GPUPROF" info "$L"
assert_grep "^gpu 0-7 .*peaks MI300X$" "$TMP/out"
run_ok "$GPUPROF" report -f csv -c op,kernel,flops,bytes "$L"
python3 - "$J/reference/op_conv.csv" "$TMP/out" <<'PY' || fail "XLA op FLOPs or bytes wrong"
import csv, sys
ref, out = sys.argv[1:3]
rows = list(csv.DictReader(open(out)))
conv = next(r for r in csv.DictReader(open(ref)) if r["name"].startswith("Cijk"))
bad = 0
def check(what, got, want, tol=0.0):
    global bad
    ok = abs(got - want) <= tol * abs(want) if want else got == want
    print("%-44s %16.1f %16.1f %s" % (what, got, want, "ok" if ok else "DIFFERS"))
    bad += not ok
def vals(op, kernel_prefix, col):
    v = {r[col] for r in rows if r["Op"] == op and r["Kernel"].startswith(kernel_prefix)}
    assert len(v) == 1, (op, kernel_prefix, col, v)
    x = v.pop()
    return float(x) if x != "na" else x
cin = 16   # op_conv.csv Input Dims_first: input (1, 16, ...), filter (5120, 16, 1, 2, 2)
check("conv GEMM FLOPs = 16 x TraceLens", vals("cudnn-conv.1.0", "Cijk", "FLOPs"),
      cin * float(conv["GFLOPS_first"]) * 1e9, 1e-9)
check("conv GEMM FLOPs by hand", vals("cudnn-conv.1.0", "Cijk", "FLOPs"), 2 * 5120*34*31*53 * 4 * 16)
check("conv bytes vs TraceLens Data Moved (0.5%)", vals("cudnn-conv.1.0", "Cijk", "Bytes"),
      float(conv["Data Moved (MB)_first"]) * 2**20, 0.005)
check("conv bytes by hand", vals("cudnn-conv.1.0", "Cijk", "Bytes"), 6389760 + 655360 + 572026880)
check("Im3d2Col helper FLOPs", vals("cudnn-conv.1.0", "Im3d2Col", "FLOPs"), 0)
for op, b in (("input_transpose_fusion", 1144053760), ("input_transpose_fusion.1", 12779520),
              ("loop_transpose_fusion", 1310720)):
    check(op + " FLOPs", vals(op, "", "FLOPs"), 0)
    check(op + " bytes", vals(op, "", "Bytes"), b)
sys.exit(1 if bad else 0)
PY
