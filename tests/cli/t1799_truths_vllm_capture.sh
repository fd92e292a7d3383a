# verdicts/README.md, "tracelens vllm_decode_full graph_execution + tl2
# vllm capture trace": the 421 kernels replayed by the one hipGraphLaunch
# match the 421 launches captured between hipStreamBeginCapture and
# hipStreamEndCapture, by name and in order, with no mismatch.  The
# oracle pairs them by position in the raw files and takes each launch's
# op from the capture (External id); gpuprof, given the capture
# (--capture, docs/correlation.md "Kineto: capture traces"), must count
# 421 replayed kernels, all matched to a captured launch, and give each
# replayed kernel the op the oracle pairs it with.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tracelens/inference/vllm_decode_full/graph_execution.json.gz
C=$TESTDATA/verdicts/tl2/inference__vllm_decode_full__capture_traces__graph_capture_rank_0.1773709742341309550.pt.trace.json.gz
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
assert len(kernels) == len(captured) == 421, (len(kernels), len(captured))
assert all(k["name"] == c["args"]["kernel"] for k, c in zip(kernels, captured))
ops = {e["args"]["External id"]: e["name"] for e in capture if e.get("cat") == "cpu_op" and "External id" in e["args"]}
print(launch["args"]["correlation"])
for c in captured:
    op = ops[c["args"]["External id"]]
    print(op[len("aten::"):] if op.startswith("aten::") else op)
PY
corr=$(head -1 "$TMP/want")
run_ok "$GPUPROF" info -f json --capture "$C" "$F"
tr -d ' \n' <"$TMP/out" >"$TMP/info"
assert_grep '"graph_kernels":421,' "$TMP/info"
assert_grep '"graph_kernels_by_state":\{"captured":\{"kernels":421,' "$TMP/info"
run_ok "$GPUPROF" report -f csv --no-header -c start,corr,op --capture "$C" "$F"
sed 's/^"//; s/"$//; s/","/ /g' "$TMP/out" | sort -n | awk -v c="$corr" '$2 == c {print $3}' >"$TMP/got"
tail -n +2 "$TMP/want" | cmp -s - "$TMP/got" ||
	{ tail -n +2 "$TMP/want" | diff - "$TMP/got" | head >&2; fail "the replayed kernels' ops differ from those the oracle pairs them with"; }
