# gpuprof record's CUDA graph lines (gpuprof-gen --format gprec --graphs,
# tools/gen/graphs.c, written as collector/ writes them: CUPTI reports a
# node cudaGraphInstantiate makes as made, then cloned): node mode: every
# replayed kernel, copy and memset attributed as if launched where its
# node was captured (the emit_nvtx op and layer: ranges open then, with
# their shapes), with the iteration of its real launch, as the truth
# says; a graph captured before the recording began: node-unseen.  Graph
# mode: each replay one whole-graph record, GPU busy time, no op.
command -v python3 >/dev/null || skip "python3 not installed"
cols=start,stream,graph,op,layer,iter,flops
for m in node graph; do
	run_ok "$GEN" --format gprec --graphs $m -o "$TMP/$m.gprec"
	run_ok "$GPUPROF" report -f csv -c $cols "$TMP/$m.gprec"
	python3 tests/tools/graph_truth.py "$TMP/out" "$TMP/$m.gprec.truth" >"$TMP/cmp" ||
		{ cat "$TMP/cmp" >&2; fail "$m: the replayed kernels' attribution differs from the truth"; }
done
# the node lines: per node of P, G and M one made in capture, and per
# exec node one made and one cloned at instantiation
f=$TMP/node.gprec
assert_eq "$(awk -F'\t' '$1 == "gnode" { n++; if ($6 != 0) c++ } END { print n, c }' "$f")" "81 27" "gnode lines"

run_ok "$GPUPROF" report -f csv -c graph,iter --iter 2 "$f"
assert_eq "$(grep -c '"captured","2"' "$TMP/out")" 25 "iteration 2: P, G and M's kernels"
assert_eq "$(grep -c '"node-unseen","2"' "$TMP/out")" 2 "iteration 2: U's kernels"

run_ok "$GPUPROF" info "$f"
assert_grep "^graph replays +108 kernels" "$TMP/out"
assert_grep "^  with an op +100 of them" "$TMP/out"
assert_grep "^  without op +8 kernels.*captured before the profile began" "$TMP/out"

# the same run as an nsys export says the same of every replayed kernel
run_ok "$GEN" --format nsys --graphs node -o "$TMP/node.sqlite"
run_ok "$GPUPROF" report -f csv -c $cols,kernel "$TMP/node.sqlite"
mv "$TMP/out" "$TMP/nsys.csv"
run_ok "$GPUPROF" report -f csv -c $cols,kernel "$f"
assert_eq "$(cat "$TMP/out")" "$(cat "$TMP/nsys.csv")" "report of the recording and of the nsys export"

# graph mode: the 16 replays are GPU work, busy in the breakdown
f=$TMP/graph.gprec
run_ok "$GPUPROF" info "$f"
assert_grep "^cuda_graph_launches +16$" "$TMP/out"
assert_grep 'recorded as whole graphs' "$TMP/out"
busy_ns=$(awk -F'\t' '$1 == "graph" || $1 == "kernel" { n += $3 - $2 } END { print n }' "$f")
run_ok "$GPUPROF" breakdown -f csv "$f"
assert_grep "^\"0\",\"all\",\"busy\",\"$busy_ns\"," "$TMP/out"

# ops: each replayed kernel's time is Self GPU of the op its capture gave it
run_ok "$GPUPROF" report -f csv -c op,marker,graph,sil "$TMP/node.gprec"
mv "$TMP/out" "$TMP/kernels.csv"
run_ok "$GPUPROF" ops -f csv "$TMP/node.gprec"
python3 tests/tools/graph_ops_check.py "$TMP/kernels.csv" "$TMP/out" >"$TMP/cmp" ||
	{ cat "$TMP/cmp" >&2; fail "ops: the captured ops' GPU time"; }
# replayed copies and memsets go to the ops their nodes were made in
set_ns=$(awk -F'\t' '$1 == "memset" { n += $3 - $2 } END { print n }' "$TMP/node.gprec")
assert_grep "^\"aten::zero_\",([^,]*,){5}\"$set_ns\"," "$TMP/out"
