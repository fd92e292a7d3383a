# Composable Kernel's xdl/xdlops convolutions run on matrix cores (MFMA):
# verdicts/README.md, "tl2 xdit sd_3.5, tl2 mi300 resnet".  Their names stay
# mangled in ROCm's Kineto traces (_ZN2ck16tensor_operation...), so
# kernels.def matches them as such.  The oracle reads the raw trace: the
# kernels launched inside each aten::miopen_convolution of input
# [1,512,256,256] and weight [512,512,3,3] (a 3x3 conv, C=K=512 at 256x256,
# 2*N*K*C*R*S*P*Q = 3.09e11 FLOPs), one of them 578 us = 535 TFLOP/s;
# gpuprof must give each of them tc 1 and those FLOPs, every xdl/xdlops
# kernel of both traces tc 1, and advise must not ask to pad the batch N
# (not a GEMM dimension of an implicit-GEMM convolution).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
V=$TESTDATA/verdicts/tl2
SD=$V/inference__xdit_sd_3.5__profile_trace_rank_0.json.gz
RN=$V/mi300__resnet_act_checkpoint.json.gz
[ -r "$SD" ] && [ -r "$RN" ] || skip "verdicts/tl2 traces not found"
python3 - "$SD" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import bisect, gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
kern = {e["args"].get("correlation"): e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel"}
launch = sorted((e["tid"], e["ts"], e["args"]["correlation"]) for e in ev
                if e.get("ph") == "X" and e.get("cat") in ("cuda_runtime", "hip_runtime") and "correlation" in e.get("args", {}))
durs = []
for e in ev:
    if e.get("ph") == "X" and e.get("cat") == "cpu_op" and e["name"] == "aten::miopen_convolution":
        d = e["args"].get("Input Dims")
        if d[0] == [1, 512, 256, 256] and d[1] == [512, 512, 3, 3]:
            i = bisect.bisect_left(launch, (e["tid"], e["ts"], -1))
            while i < len(launch) and launch[i][0] == e["tid"] and launch[i][1] <= e["ts"] + e["dur"]:
                k = kern.get(launch[i][2])
                if k and "xdl" in k["name"]:
                    durs.append(k["dur"])
                i += 1
flops = 2 * 1 * 512 * 512 * 3 * 3 * 256 * 256
assert flops == 309237645312 and len(durs) == 7, (flops, durs)
near = min(durs, key=lambda d: abs(d - 578))
assert abs(near - 578) < 1.5 and abs(flops / near / 1e6 - 535) < 2, near   # ~535 TFLOP/s (579.1 us here)
for d in sorted(durs):
    print(round(d))
PY
run_ok "$GPUPROF" report -f csv --no-header -c params,tc,flops,start,end,kernel "$SD"
python3 - "$TMP/out" "$TMP/want" <<'PY' || fail "gpuprof's C=K=512 256x256 convolutions differ from the oracle"
import csv, sys
want = [int(x) for x in open(sys.argv[2])]
got = []
for p, tc, fl, s, e, k in csv.reader(open(sys.argv[1])):
    if p.startswith("N=1,C=512,H=256,W=256,K=512,") and "R=3,S=3" in p and "xdl" in k:
        assert tc == "1" and fl == "309237645312", (tc, fl, k[:80])
        got.append(round((int(e) - int(s)) / 1000))
assert sorted(got) == want, (sorted(got), want)
PY
for f in "$SD" "$RN"; do
	run_ok "$GPUPROF" report -f csv --no-header -c tc,kernel "$f"
	grep -E '_ZN2ck16tensor_operation.*xdl' "$TMP/out" >"$TMP/xdl" || fail "$f: no CK xdl kernel"
	assert_no_grep '^"?(0|-|na)"?,' "$TMP/xdl"
done
grep -q 'xdlops_bwd_weight' "$TMP/xdl" || fail "mi300 resnet: no batched_gemm_xdlops_bwd_weight kernel"
# the batch N of a convolution is not a GEMM dimension: no "pad N"
for f in "$SD" "$RN"; do
	run_ok "$GPUPROF" advise "$f"
	assert_no_grep 'pad N=' "$TMP/out"
done
