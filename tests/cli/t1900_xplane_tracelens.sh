# XPlane reader against TraceLens (issue 36): the JAX profile of a 3-D
# convolution on MI300X (tracelens/jax/, the legacy file TraceLens's
# reference CSVs were made from: PROVENANCE.md) read by gpuprof gives
# TraceLens's numbers within 0.5%: per GPU (TraceLens's gpu_pid 8 is
# /device:GPU:7, pid 1 /device:GPU:0) busy, computation, memcpy and total
# time (reference/gpu_timeline.csv), kernel time per XLA op
# (xla_summary.csv: the fusions; TraceLens names input_transpose_fusion.1
# by its kernel, input_transpose_fusion_1, cut to "input_transpose_fusion_";
# kernel_launchers_summary_by_category.csv: the convolution cudnn-conv.1.0,
# its Im3d2Col and Tensile GEMM kernels, category Conv), and hand-checked
# facts of the raw file (tests/tools/xplane_mini.py's encoding read back by
# a dump: 25 kernels on GPU 7 stream 1, 53 device-to-device copies of
# 655360 bytes on GPU 0, each kernel's HLO op, module and name stack).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
J=$TESTDATA/tracelens/jax
L=$J/mi300_jax_conv_minimal_legacy.xplane.pb
[ -r "$L" ] || skip "no $L in the test data"
R=$J/reference

run_ok "$GPUPROF" breakdown -f csv "$L"
cp "$TMP/out" "$TMP/bd.csv"
run_ok "$GPUPROF" summary --by op -f csv "$L"
cp "$TMP/out" "$TMP/ops.csv"
python3 - "$R" "$TMP/bd.csv" "$TMP/ops.csv" <<'PY' || fail "gpuprof differs from TraceLens"
import csv, sys
ref, bd, ops = sys.argv[1:4]
def close(what, got, want, tol=0.005):
    ok = abs(got - want) <= tol * abs(want) if want else got == 0
    print("%-48s gpuprof %12.6f  TraceLens %12.6f  %s" % (what, got, want, "ok" if ok else "DIFFERS"))
    return ok
good = True
parts = {}
for r in csv.DictReader(open(bd)):
    if r["Iter"] == "all":
        parts[(int(r["Device"]), r["Part"])] = int(r["Time (ns)"]) / 1e6
tl = {}
for r in csv.DictReader(open(ref + "/gpu_timeline.csv")):
    tl[(int(r["gpu_pid"]), r["type"])] = float(r["time ms"])
for pid, dev in ((8, 7), (1, 0)):
    for mine, theirs in (("busy", "busy_time"), ("compute", "computation_time"),
                         ("memory", "total_memcpy_time"), ("span", "total_time"), ("idle", "idle_time"),
                         ("communication", "total_comm_time")):
        good &= close("GPU %d %s (TraceLens pid %d %s) ms" % (dev, mine, pid, theirs),
                      parts[(dev, mine)], tl[(pid, theirs)])
byop = {r["Name"]: int(r["Total Time (ns)"]) / 1e3 for r in csv.DictReader(open(ops))
        if r["Type"] == "GPU activities"}
xla = {r["name"]: float(r["total_direct_kernel_time_sum"]) for r in csv.DictReader(open(ref + "/xla_summary.csv"))}
for op, theirs in (("input_transpose_fusion", "input_transpose_fusion"),
                   ("input_transpose_fusion.1", "input_transpose_fusion_"),
                   ("loop_transpose_fusion", "loop_transpose_fusion")):
    good &= close("op %s kernel time us" % op, byop.get(op, 0), xla[theirs])
cat = {r["op category"]: float(r["total_direct_kernel_time_ms"]) * 1e3
       for r in csv.DictReader(open(ref + "/kernel_launchers_summary_by_category.csv"))}
good &= close("op cudnn-conv.1.0 (TraceLens category Conv) us", byop.get("cudnn-conv.1.0", 0), cat["Conv"])
good &= close("XLA fusions (TraceLens Uncategorized Events/XLA) us",
              sum(byop.get(o, 0) for o in ("input_transpose_fusion", "input_transpose_fusion.1",
                                           "loop_transpose_fusion")), cat["Uncategorized Events/XLA"])
sys.exit(0 if good else 1)
PY

# hand-checked facts of the raw file
run_ok "$GPUPROF" info "$L"
assert_grep '^format +xplane$' "$TMP/out"
assert_grep '^kernels +25$' "$TMP/out"
assert_grep '^memcpy +53$' "$TMP/out"
assert_grep '^memcpy bytes +34734080$' "$TMP/out"     # 53 x 655360
assert_grep '^kernels with launch +25$' "$TMP/out"
assert_grep '^hostname +chi-mi300x-013' "$TMP/out"
run_ok "$GPUPROF" report -f csv -c device,stream,mod,op,layer,kernel,grid,block,corr "$L"
python3 - "$TMP/out" <<'PY' || fail "report rows differ from the raw file"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 25, len(rows)
# the first step's five kernels, as the raw file's GPU 7 line holds them
want = [("loop_transpose_fusion", "loop_transpose_fusion", "kernel", "1280,1,1", "171"),
        ("input_transpose_fusion_1", "input_transpose_fusion.1", "x", "6240,1,1", "173"),
        ("Im3d2Col", "cudnn-conv.1.0", "jit(forward_3d_conv)/jit(main)/conv_general_dilated", "1024,1,1", "206"),
        ("Cijk_Ailk_Bljk", "cudnn-conv.1.0", "jit(forward_3d_conv)/jit(main)/conv_general_dilated", "219,40,1", "231"),
        ("input_transpose_fusion", "input_transpose_fusion", "jit(forward_3d_conv)/jit(main)/conv_general_dilated", "69840,1,1", "234")]
def col(r, name):
    return r[[k for k in r if k.lower().startswith(name)][0]]
for r, (k, op, layer, grid, corr) in zip(rows, want):
    got = (col(r, "kernel"), col(r, "op"), col(r, "layer"), col(r, "grid"), col(r, "corr"))
    assert got[0].startswith(k) and got[1:] == (op, layer, grid, corr), (got, (k, op, layer, grid, corr))
    assert col(r, "device") == "7" and col(r, "mod") == "jit_forward_3d_conv", r
print("ok")
PY
