# verdicts/README.md, "tl2 sglang decode + tl2 bs_32 capture": the 544
# kernels replayed by the one hipGraphLaunch match the 544 launches of
# the bs_32 capture by name and in order; their aten::mm is 5.782 ms:
# 144 GEMMs under aiter's gemm_a16w16 (5.385 ms) and the lm-head matmul
# under _compute_lm_head (0.397 ms).  The oracle pairs them by position
# in the raw files, takes each launch's op (External id) and the Python
# frames around it in the capture.  gpuprof with --capture must match
# all 544, give each kernel the oracle's op, put the mm kernels under the
# same frames (report's trace column: the innermost frame, inside those)
# with the same times, and ops must total aten::mm to 5.782 ms.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tl2/inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz
C=$TESTDATA/verdicts/tl2/inference__sglang_decode__capture_traces__bs_32_rank0.json.gz
[ -r "$F" ] && [ -r "$C" ] || skip "$F or $C not found"
python3 - "$F" "$C" >"$TMP/want" <<'PY' || fail "oracle: the raw traces do not hold the truth"
import gzip, json, sys
replay = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
capture = [e for e in json.load(gzip.open(sys.argv[2]))["traceEvents"] if e.get("ph") == "X"]
launch, = [e for e in replay if e["name"] == "hipGraphLaunch"]
kernels = sorted((e for e in replay if e.get("cat") == "kernel" and e["args"].get("correlation") == launch["args"]["correlation"]),
                 key=lambda e: e["ts"])
begin, = [e for e in capture if e["name"] == "hipStreamBeginCapture"]
end, = [e for e in capture if e["name"] == "hipStreamEndCapture" and e["tid"] == begin["tid"]]
captured = sorted((e for e in capture if e.get("cat") == "cuda_runtime" and e["tid"] == begin["tid"]
                   and begin["ts"] < e["ts"] < end["ts"] and "kernel" in e["args"]), key=lambda e: e["ts"])
assert len(kernels) == len(captured) == 544, (len(kernels), len(captured))
assert all(k["name"] == c["args"]["kernel"] for k, c in zip(kernels, captured))
ops = {e["args"]["External id"]: e["name"] for e in capture if e.get("cat") == "cpu_op" and "External id" in e["args"]}
def frames(suffix):
    return [(e["ts"], e["ts"] + e["dur"]) for e in capture if e.get("cat") == "python_function"
            and e["tid"] == begin["tid"] and e["name"].endswith(suffix)]
where = {"gemm_a16w16": frames("): gemm_a16w16"), "lm_head": frames("): _compute_lm_head")}
mm = {"gemm_a16w16": [], "lm_head": []}
for k, c in zip(kernels, captured):
    if ops[c["args"]["External id"]] == "aten::mm":
        inside = [w for w, spans in where.items() if any(a <= c["ts"] <= b for a, b in spans)]
        assert len(inside) == 1, inside
        mm[inside[0]].append(k["dur"])
g, h = mm["gemm_a16w16"], mm["lm_head"]
assert len(g) == 144 and len(h) == 1 and round(sum(g)) == 5385 and round(sum(h)) == 397 and round(sum(g) + sum(h)) == 5782, (len(g), sum(g), h)
print(launch["args"]["correlation"], round(sum(g) * 1000), round(sum(h) * 1000))
for c in captured:
    op = ops[c["args"]["External id"]]
    print(op[len("aten::"):] if op.startswith("aten::") else op)
PY
set -- $(head -1 "$TMP/want")
corr=$1 gemm=$2 head=$3
near() { d=$(($1 - $2)); [ "${d#-}" -le 1000 ] || fail "$3: $1 ns, the oracle's $2 ns"; }
run_ok "$GPUPROF" info -f json --capture "$C" "$F"
tr -d ' \n' <"$TMP/out" >"$TMP/info"
assert_grep '"graph_kernels":544,' "$TMP/info"
assert_grep '"graph_kernels_by_state":\{"captured":\{"kernels":544,' "$TMP/info"
run_ok "$GPUPROF" report -f csv --no-header -c start,corr,op,sil,trace --capture "$C" "$F"
sed 's/^"//; s/"$//; s/","/ /g' "$TMP/out" | sort -n | awk -v c="$corr" '$2 == c' >"$TMP/replayed"
awk '{print $3}' "$TMP/replayed" >"$TMP/got"
tail -n +2 "$TMP/want" | cmp -s - "$TMP/got" ||
	{ tail -n +2 "$TMP/want" | diff - "$TMP/got" | head >&2; fail "the replayed kernels' ops differ from those the oracle pairs them with"; }
# aiter/tuned_gemm.py:395 is torch_gemm, called by gemm_a16w16 (line 246);
# logits_processor.py:883 is _compute_lm_head itself.
set -- $(awk '$3 == "mm" && $5 == "aiter/tuned_gemm.py:395" {n++; t += $4} END {print n + 0, t + 0}' "$TMP/replayed")
assert_eq "$1" 144 "mm kernels under gemm_a16w16"; near "$2" "$gemm" "their GPU time"
set -- $(awk '$3 == "mm" && $5 ~ /logits_processor\.py:883$/ {n++; t += $4} END {print n + 0, t + 0}' "$TMP/replayed")
assert_eq "$1" 1 "mm kernels under _compute_lm_head"; near "$2" "$head" "its GPU time"
run_ok "$GPUPROF" ops -f csv --no-header --capture "$C" "$F"
# Name, ..., Self GPU (ns) ($7), Self GPU share, GPU total (ns) ($9)
mm=$(awk -F'","' '$1 == "\"aten::mm" {print $9}' "$TMP/out")
[ -n "$mm" ] || fail "ops has no aten::mm row"
near "$mm" $((gemm + head)) "aten::mm's GPU total in ops"
