# verdicts/README.md, "tl2 sglang prefilldecode": the largest Cijk GEMM
# (hipBLASLt's) is aten::mm [15360,4096]x[4096,24576], 3.09e12 FLOPs.
# The oracle links each Cijk kernel to its op by External id and takes
# 2*M*N*K from the op's Input Dims; the longest Cijk kernel is one of the
# largest.  report must give the same op, dimensions and FLOPs for its
# largest Cijk row, and its longest Cijk kernel must be one of them
# (PyProf's params: M and N are the column-major output's, M=24576,
# N=15360).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tl2/inference__sglang_prefilldecode__sglang_Qwen3-8B_prefilldecode.json.gz
[ -r "$F" ] || skip "$F not found"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
ops = {e["args"]["External id"]: e for e in ev if e.get("cat") == "cpu_op" and "External id" in e["args"]}
gemms = []
for k in (e for e in ev if e.get("cat") == "kernel" and e["name"].startswith("Cijk")):
    op = ops[k["args"]["External id"]]
    if op["name"] == "aten::mm":
        (m, kk), (k2, n) = op["args"]["Input Dims"]
        assert kk == k2
        gemms.append((2 * m * n * kk, k["dur"], op["args"]["Input Dims"], op["args"]["Input type"]))
top = max(gemms)
longest = max(gemms, key=lambda g: g[1])
assert top[2] == [[15360, 4096], [4096, 24576]] and top[3] == ["c10::BFloat16"] * 2 and round(top[0] / 1e10) == 309, top
assert longest[0] == top[0] and longest[2] == top[2], longest
print(top[0])
PY
flops=$(cat "$TMP/want")
run_ok "$GPUPROF" report -f csv --no-header -c op,kernel,params,flops,sil "$F"
grep '^"[^"]*","Cijk' "$TMP/out" >"$TMP/cijk" || fail "report has no Cijk kernel"
top=$(awk -F'","' '{print $4, $1, $3}' "$TMP/cijk" | sort -g -r | head -1)
assert_eq "$top" "$flops \"mm M=24576,N=15360,K=4096,type=bf16" "report's largest Cijk GEMM (FLOPs, op, params)"
longest=$(awk -F'","' '{sub(/"$/, "", $5); print $5, $4, $1, $3}' "$TMP/cijk" | sort -g -r | head -1)
assert_eq "${longest#* }" "$top" "report's longest Cijk kernel"
