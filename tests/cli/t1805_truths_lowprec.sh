# FP8 and FP4 GEMMs are judged against their element type's peak (issue
# 34, FP8 and FP4; docs/op-model.md, "Low-precision GEMMs").
# 1. Generated traces (gpuprof-gen --lowprec, truth by construction): on an
#    H100, _scaled_mm FP8 and _scaled_grouped_mm FP8 run at 0.70 and 0.60
#    of the FP8 peak (1979 TFLOP/s, twice BF16's), _grouped_mm BF16 at 0.80
#    of 989.5; on a B200 an NVFP4 _scaled_mm (float4_e2m1fn_x2: K counted
#    in pairs) at 0.50 of 9000.  The oracle reads the raw trace: FLOPs
#    2 M N K (grouped: 2 M_total N K) from Input Dims and Input type, the
#    kernel's duration by correlation, the datasheet peak of the type.
# 2. The shared B200 vLLM trace: trtllm-gen's bmm_*_MxE2m1MxE4m3_* MoE
#    kernels (MXFP4 weights x MXFP8 activations: an FP8 MMA) and the
#    fmhaSm100 QkvE4m3 attention run under bf16 ops; gpuprof must give
#    them FP8 and the B200's FP8 peak (4500), the bf16 nvjet GEMMs 2250.
command -v python3 >/dev/null || skip "python3 not installed"
for g in h100 b200; do
	run_ok "$GEN" -f kineto --lowprec $g -o "$TMP/$g.json"
	run_ok "$GPUPROF" report -f csv --no-header -c op,dtype,peak,flops,eff "$TMP/$g.json"
	python3 - "$TMP/$g.json" "$TMP/out" "$g" <<'PY' || fail "$g: gpuprof's low-precision GEMMs differ from the oracle"
import csv, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
peaks = {"h100": {"bf16": 989.5, "fp8e4m3": 1979.0}, "b200": {"fp4": 9000.0}}[sys.argv[3]]
want_eff = {"h100": [0.70, 0.60, 0.80], "b200": [0.50]}[sys.argv[3]]
dtype = {"c10::Float8_e4m3fn": "fp8e4m3", "c10::Float4_e2m1fn_x2": "fp4", "c10::BFloat16": "bf16"}
ops = {e["args"]["External id"]: e for e in ev if e.get("cat") == "cpu_op"}
want = []
for k in sorted((e for e in ev if e.get("cat") == "kernel"), key=lambda e: e["ts"]):
    op = ops[k["args"]["External id"]]
    d, t = op["args"]["Input Dims"], op["args"]["Input type"]
    a, b = d[0], d[1]
    pack = 2 if t[0] == "c10::Float4_e2m1fn_x2" else 1   # two FP4 values a byte
    if len(b) == 3:      # grouped 2-D x 3-D: x[M_total, K], w[G, K, N]
        flops = 2 * a[0] * a[1] * pack * b[2]
    else:                # a[M, K], b[K, N]
        flops = 2 * a[0] * a[1] * pack * b[1]
    dt = dtype[t[0]]
    eff = flops / (peaks[dt] * 1e12) / (k["dur"] * 1e-6)
    want.append((op["name"].split("::")[1], dt, peaks[dt], flops, eff))
got = list(csv.reader(open(sys.argv[2])))
assert len(got) == len(want), (got, want)
for (op, dt, pk, fl, eff), g, target in zip(want, got, want_eff):
    assert abs(eff - target) < 0.002, (op, eff, target)      # the oracle finds what was built
    assert g[0] == op and g[1] == dt and abs(float(g[2]) - pk) < 0.05, (g, op, dt, pk)
    assert int(g[3]) == fl, (g, fl)
    assert abs(float(g[4]) - eff) < 0.002, (g, eff)
PY
done
need_testdata
B=$TESTDATA/verdicts/tracelens/b200/eager_trace.json.gz
[ -r "$B" ] || skip "verdicts/tracelens/b200 not found"
python3 - "$B" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import collections, gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
n = collections.Counter()
for e in ev:
    if e.get("cat") != "kernel":
        continue
    k = e["name"]
    if k.startswith("bmm_"):
        ins = k.split("_")[2]             # bmm_<out>_<A><B>_<acc>
        assert "E2m1" in ins and "E4m3" in ins and "Bfloat16" not in ins, k
        n["fp8e4m3 4500.0 bmm"] += 1
    elif k.startswith("fmhaSm100") and "QkvE4m3" in k:
        n["fp8e4m3 4500.0 fmha"] += 1
    elif k.startswith("nvjet_"):
        n["bf16 2250.0 nvjet"] += 1
assert n["fp8e4m3 4500.0 bmm"] == 72 and n["fp8e4m3 4500.0 fmha"] == 36, n
for key in sorted(n):
    print(key, n[key])
PY
run_ok "$GPUPROF" report -f csv --no-header -c tc,dtype,peak,kernel "$B"
python3 - "$TMP/out" >"$TMP/got" <<'PY'
import collections, csv, sys
n = collections.Counter()
for tc, dt, pk, k in csv.reader(open(sys.argv[1])):
    fam = "bmm" if k.startswith("bmm_") else "fmha" if k.startswith("fmhaSm100") else "nvjet" if k.startswith("nvjet_") else None
    if fam:
        assert tc == "1", (tc, k)
        n["%s %s %s" % (dt, pk, fam)] += 1
for key in sorted(n):
    print(key, n[key])
PY
diff "$TMP/want" "$TMP/got" >&2 || fail "B200 trace: element types or peaks differ from the oracle's"
