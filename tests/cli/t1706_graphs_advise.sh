# advise on graph replays (src/analysis/advise_graph.c).  The generated
# server (gpuprof-gen --graphs, tools/gen/graphs.c) as a graph run and as
# its eager twin: the eager run gets the eager idle findings (launch,
# CUDA graphs suggested), the graph run never: its idle time is between
# replays (graph-host-bound, with the chain's causes) and inside them
# (graph-gaps, per graph), each gap told by one family only.  The real vLLM
# pair: without its capture traces graph-unattributed comes first with the
# replayed time info counts; with them, no graph finding.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format nsys --graphs eager -o "$TMP/eager.sqlite"
run_ok "$GEN" --format nsys --graphs node -o "$TMP/node.sqlite"
run_ok "$GEN" --format gprec --graphs node -o "$TMP/node.gprec"
kinds() { awk -F'","' 'NR > 1 { print $2 }' "$TMP/out" | sort | tr '\n' ' '; }

run_ok "$GPUPROF" advise -f csv "$TMP/eager.sqlite"
assert_grep '"launch",.*Remove the per-kernel launch latency: CUDA graphs' "$TMP/out"
assert_no_grep '"graph-' "$TMP/out"

run_ok "$GPUPROF" advise -f csv "$TMP/node.sqlite"
cp "$TMP/out" "$TMP/node.csv"
case " $(kinds)" in
*" cpu_op "*|*" launch "*|*" tiny-kernels "*|*" annotation "*|*" untraced "*)
	fail "an eager idle finding on a graph run: $(kinds)" ;;
esac
assert_no_grep 'Capture the step in a CUDA graph' "$TMP/out"
assert_no_grep 'Remove the per-kernel launch latency' "$TMP/out"
# by hand from graphs.c: per step, P (3 kernels), G (16) and U (2) run
# their kernels 2 us apart, and M's main stream its copy and memset 2 us
# after the kernel before them, once its second stream is done (its
# kernels overlap): (2 + 15 + 2 + 1) x 4 steps = 80 gaps, 160 us; before
# G, M and U 5 us each (60 us in 4 steps) and before the P of steps 2 to
# 4 the 240 us the host takes between steps: 15 gaps, 780 us (columns:
# position, kind, saving, its share, per step, alone, involved, count)
assert_grep '^"[0-9]*","graph-gaps",[^,]*,[^,]*,[^,]*,[^,]*,"160000","80",' "$TMP/out"
assert_grep 'a graph of 16 kernels: 4 replays of 16 kernels, 1.344 ms of GPU time, 120.000 us idle inside \(30.000 us per replay\)' "$TMP/out"
assert_grep '^"[0-9]*","graph-host-bound",[^,]*,[^,]*,[^,]*,[^,]*,"780000","15",' "$TMP/out"
# the gaps by the dependency chain's causes: before each step's P the
# 100 us the generator leaves unrecorded and its 40 us iteration range
# (annotation, 3 steps), and in every gap the replay's first kernel
# waiting on its cudaGraphLaunch call (launch)
assert_grep '"graph-host-bound",[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,"52.0 us before each replay on average, by the chain.s cause: untraced 300.000 us, launch 230.000 us, annotation 150.000 us' "$TMP/out"
# each replay no longer waiting for its launch saves time; no gap's time
# is also an eager finding's (their rules are silent, above)
python3 - "$TMP/out" <<'PY' || fail "graph-host-bound's saving"
import csv, sys
rows = {r["Kind"]: r for r in csv.DictReader(open(sys.argv[1]))}
h = rows["graph-host-bound"]
assert 0 < int(h["Saving (ns)"]) <= int(h["Involved (ns)"]), h
PY
# U's kernels have no op (captured before the profile): a notice, first
assert_grep '^"1","graph-unattributed","na",' "$TMP/out"
assert_grep 'node-unseen 168.000 us in 8 kernels' "$TMP/out"
# the recording of the same run: the same findings and times (its kernel
# records name their graph: "graph 2" where the export says "a graph of
# 16 kernels")
run_ok "$GPUPROF" advise -f csv "$TMP/node.gprec"
assert_eq "$(cut -d, -f1-8 "$TMP/out")" "$(cut -d, -f1-8 "$TMP/node.csv")" "advise of the recording and of the nsys export"
assert_grep 'graph 2: 4 replays of 16 kernels' "$TMP/out"

need_testdata
[ -d "$TESTDATA/tracelens" ] || skip "$TESTDATA/tracelens not found"
V=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz
run_ok "$GPUPROF" info -f json --capture none "$V"
ns=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["graph_kernels_by_state"]["no-capture"]["gpu_ns"], d["graph_kernels"])' "$TMP/out")
run_ok "$GPUPROF" advise -f csv --capture none "$V"
assert_grep "^\"1\",\"graph-unattributed\",\"na\",\"na\",\"na\",\"na\",\"${ns% *}\",\"${ns#* }\",\"96\.1% of GPU time" "$TMP/out"
assert_grep 'give the capture traces \(--capture' "$TMP/out"
run_ok "$GPUPROF" advise -f csv "$V"
assert_no_grep '"graph-unattributed"' "$TMP/out"
assert_no_grep 'Capture the step in a CUDA graph' "$TMP/out"
