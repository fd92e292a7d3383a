# nsys graph replays (gpuprof-gen --graphs node|graph, tools/gen/graphs.c):
# node mode: every node of every replay is attributed as if launched where
# it was created during capture (CUDA_GRAPH_NODE_EVENTS through the clones
# cudaGraphInstantiate made), with the iteration of its real launch, as the
# truth says; a graph captured before the profile: node-unseen.  Graph
# mode: each replay is one whole-graph record, GPU busy time, no op.
command -v python3 >/dev/null || skip "python3 not installed"
cols=start,stream,graph,op,layer,iter,flops
for m in node graph; do
	run_ok "$GEN" --format nsys --graphs $m -o "$TMP/$m.sqlite"
	run_ok "$GPUPROF" report -f csv -c $cols "$TMP/$m.sqlite"
	python3 tests/tools/graph_truth.py "$TMP/out" "$TMP/$m.sqlite.truth" >"$TMP/cmp" ||
		{ cat "$TMP/cmp" >&2; fail "$m: the replayed kernels' attribution differs from the truth"; }
done
# the node events are what the export says
assert_eq "$(sqlite3 "$TMP/node.sqlite" 'select count(*), count(originalGraphNodeId) from CUDA_GRAPH_NODE_EVENTS')" \
	"54|27" "node events: a creation and a clone per node of P, G and M"

# the window by iteration keeps a replay's kernels by its launch
run_ok "$GPUPROF" report -f csv -c graph,iter --iter 2 "$TMP/node.sqlite"
assert_eq "$(grep -c '"captured","2"' "$TMP/out")" 25 "iteration 2: P, G and M's kernels"
assert_eq "$(grep -c '"node-unseen","2"' "$TMP/out")" 2 "iteration 2: U's kernels"

run_ok "$GPUPROF" info "$TMP/node.sqlite"
assert_grep "^graph replays +108 kernels" "$TMP/out"
assert_grep "^  with an op +100 of them" "$TMP/out"
assert_grep "^  without op +8 kernels.*captured before the profile began" "$TMP/out"

# graph mode: the 16 replays are GPU work; the op is unknown
run_ok "$GPUPROF" info -f json "$TMP/graph.sqlite"
python3 - "$TMP/out" <<'PY' || fail "info of whole-graph records"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["graph_kernels"] == 16 and d["graph_kernels_attributed"] == 0, d
assert d["graph_kernels_by_state"]["whole-graph"]["kernels"] == 16, d
PY
run_ok "$GPUPROF" summary -s gpu --by op "$TMP/graph.sqlite"
assert_grep "^GPU activities +98\.[0-9]% .* 16 .*graph replay \(op unknown\)$" "$TMP/out"
# busy, not idle: the breakdown's busy time is the whole-graph records'
# time plus the eager kernels' (none overlap)
busy_ns=$(sqlite3 "$TMP/graph.sqlite" "select (select sum(end - start) from CUPTI_ACTIVITY_KIND_GRAPH_TRACE) + (select sum(end - start) from CUPTI_ACTIVITY_KIND_KERNEL)")
run_ok "$GPUPROF" breakdown -f csv "$TMP/graph.sqlite"
assert_grep "^\"0\",\"all\",\"busy\",\"$busy_ns\"," "$TMP/out"

# ops: each replayed kernel's time is Self GPU of the op its capture gave it
run_ok "$GPUPROF" report -f csv -c op,marker,graph,sil "$TMP/node.sqlite"
mv "$TMP/out" "$TMP/kernels.csv"
run_ok "$GPUPROF" ops -f csv "$TMP/node.sqlite"
python3 tests/tools/graph_ops_check.py "$TMP/kernels.csv" "$TMP/out" >"$TMP/cmp" ||
	{ cat "$TMP/cmp" >&2; fail "ops: the captured ops' GPU time"; }
# replayed copies and memsets too: M's copy and memset go to the ops
# their nodes were created in (aten::copy_ also has the eager copy kernels)
set_ns=$(sqlite3 "$TMP/node.sqlite" 'select sum(end - start) from CUPTI_ACTIVITY_KIND_MEMSET')
copy_ns=$(sqlite3 "$TMP/node.sqlite" "select (select sum(end - start) from CUPTI_ACTIVITY_KIND_MEMCPY) + (select sum(k.end - k.start) from CUPTI_ACTIVITY_KIND_KERNEL k where k.graphNodeId is null)")
assert_grep "^\"aten::zero_\",([^,]*,){5}\"$set_ns\"," "$TMP/out"
assert_grep "^\"aten::copy_\",([^,]*,){5}\"$copy_ns\"," "$TMP/out"
