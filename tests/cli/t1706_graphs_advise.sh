# advise on graph replays (src/analysis/advise_graph.c).  The generated
# server (gpuprof-gen --graphs, tools/gen/graphs.c) as a graph run and as
# its eager twin: the eager run gets the launch-latency findings (CUDA
# graphs suggested), the graph run never: its idle time is between replays
# (graph-host-bound) and inside them (graph-gaps, per graph).  The real
# vLLM pair: without its capture traces graph-unattributed comes first with
# the replayed time info counts; with them, no graph finding.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format nsys --graphs eager -o "$TMP/eager.sqlite"
run_ok "$GEN" --format nsys --graphs node -o "$TMP/node.sqlite"
run_ok "$GEN" --format gprec --graphs node -o "$TMP/node.gprec"
kinds() { awk -F'","' 'NR > 1 { print $2 }' "$TMP/out" | sort | tr '\n' ' '; }

run_ok "$GPUPROF" advise -f csv "$TMP/eager.sqlite"
assert_grep '"host-launch",' "$TMP/out"
assert_grep '"short-gaps",' "$TMP/out"
assert_no_grep '"graph-' "$TMP/out"

run_ok "$GPUPROF" advise -f csv "$TMP/node.sqlite"
cp "$TMP/out" "$TMP/node.csv"
case " $(kinds)" in
*" host-launch "*|*" short-gaps "*|*" tiny-kernels "*|*" idle-gaps "*)
	fail "a launch-latency finding on a graph run: $(kinds)" ;;
esac
assert_no_grep 'Capture the step in a CUDA graph' "$TMP/out"
# by hand from graphs.c: per step, P (3 kernels), G (16) and U (2) run
# their kernels 2 us apart (M's two streams overlap): (2 + 15 + 1) x 4
# steps = 72 gaps, 144 us; before G, M and U 5 us each (60 us in 4 steps)
# and before the P of steps 2 to 4 the 240 us the host takes between
# steps: 15 gaps, 780 us
assert_grep '^"[0-9]*","graph-gaps","144000",[^,]*,"144000","72",' "$TMP/out"
assert_grep 'a graph of 16 kernels: 4 replays of 16 kernels, 1.34 ms of GPU time, 120.0 us idle inside \(30.0 us per replay\)' "$TMP/out"
assert_grep '^"[0-9]*","graph-host-bound","780000",[^,]*,"780000","15",' "$TMP/out"
# U's kernels have no op (captured before the profile): said first
assert_grep '^"1","graph-unattributed",' "$TMP/out"
assert_grep 'node-unseen 168.0 us in 8 kernels' "$TMP/out"
# the recording of the same run: the same findings and times (its kernel
# records name their graph: "graph 2" where the export says "a graph of
# 16 kernels")
run_ok "$GPUPROF" advise -f csv "$TMP/node.gprec"
assert_eq "$(cut -d, -f1-6 "$TMP/out")" "$(cut -d, -f1-6 "$TMP/node.csv")" "advise of the recording and of the nsys export"
assert_grep 'graph 2: 4 replays of 16 kernels' "$TMP/out"

[ -d "$TESTDATA/tracelens" ] || skip "no shared test data"
V=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz
run_ok "$GPUPROF" info -f json --capture none "$V"
ns=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["graph_kernels_by_state"]["no-capture"]["gpu_ns"], d["graph_kernels"])' "$TMP/out")
run_ok "$GPUPROF" advise -f csv --capture none "$V"
assert_grep "^\"1\",\"graph-unattributed\",\"[0-9]*\",\"[0-9.]*\",\"${ns% *}\",\"${ns#* }\",\"96\.1% of GPU time" "$TMP/out"
assert_grep 'give the capture traces \(--capture' "$TMP/out"
run_ok "$GPUPROF" advise -f csv "$V"
assert_no_grep '"graph-unattributed"' "$TMP/out"
assert_no_grep 'Capture the step in a CUDA graph' "$TMP/out"
