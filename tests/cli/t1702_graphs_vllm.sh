# The real vLLM piecewise replay trace (MI300X) with its capture trace,
# found in capture_traces/ beside it: at least 95% of the replayed GPU time
# gets an op, and each op's replayed kernels carry exactly the names of the
# launches captured under it, both checked by Python alone on the raw JSON
# (tests/tools/graph_capture_check.py).  Without the capture trace the
# replays' op is unknown, and said so.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
d=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise
run_ok "$GPUPROF" report -f csv -c start,stream,marker "$d/graph_execution.json.gz"
python3 tests/tools/graph_capture_check.py "$d/graph_execution.json.gz" "$d/capture_traces" "$TMP/out" 95 >"$TMP/cmp" ||
	{ cat "$TMP/cmp" >&2; fail "the replayed kernels' ops differ from what the capture trace launched under them"; }
cat "$TMP/cmp"

run_ok "$GPUPROF" info -f json "$d/graph_execution.json.gz"
python3 - "$TMP/out" <<'PY' || fail "info -f json of the vLLM pair"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["graph_kernels"] == 361 and d["graph_launches"] == 25, d
assert d["graph_gpu_time_pct"] > 95, d
assert d["graph_kernels_attributed"] == 361 and d["graph_gpu_time_attributed_pct"] == 100.0, d
assert d["capture_traces"] == 1 and d["captured_graphs"] == 25, d
PY
# the shapes of the captured ops reach the op model: the GEMMs' params
run_ok "$GPUPROF" report -f csv -c graph,marker,params "$d/graph_execution.json.gz"
assert_grep '^"captured","aten::addmm","[^n]' "$TMP/out"

# no capture trace: the op of 96% of the GPU time is unknown, and named so
run_ok "$GPUPROF" summary -s gpu --by op --capture none "$d/graph_execution.json.gz"
assert_grep "^GPU activities +96\.1% .* 361 .*graph replay \(op unknown\)$" "$TMP/out"
run_ok "$GPUPROF" info --capture none "$d/graph_execution.json.gz"
assert_grep "^graph replays +361 kernels \(96\.1% of GPU time\) in 25 graph launches" "$TMP/out"
assert_grep "^  with an op +0 of them" "$TMP/out"
