# Kineto graph replays with their capture traces (gpuprof-gen --graphs amd
# and cuda, tools/gen/graphs.c): every replayed kernel gets the op, layer,
# iteration and FLOPs its capture gives it, or the reason it gets none, as
# the generator's truth says (tests/tools/graph_truth.py); eager kernels
# keep theirs; info's graph lines; --capture DIR, FILE and none.
command -v python3 >/dev/null || skip "python3 not installed"
cols=start,stream,graph,op,layer,iter,flops
for m in amd cuda; do
	mkdir -p "$TMP/$m"
	run_ok "$GEN" --format kineto --graphs $m -o "$TMP/$m/replay.pt.trace.json"
	run_ok "$GPUPROF" report -f csv -c $cols "$TMP/$m/replay.pt.trace.json"
	python3 tests/tools/graph_truth.py "$TMP/out" "$TMP/$m/replay.pt.trace.json.truth" >"$TMP/cmp" ||
		{ cat "$TMP/cmp" >&2; fail "$m: the replayed kernels' attribution differs from the truth"; }
	# the eager op of each step keeps its own
	assert_eq "$(grep -c '"eager","copy_"' "$TMP/out")" 4 "$m: eager kernels with their op"
done

# found beside the trace; named from elsewhere: the same
mkdir -p "$TMP/elsewhere"
cp "$TMP/amd/replay.pt.trace.json" "$TMP/elsewhere/"
run_ok "$GPUPROF" report -f csv -c $cols --capture "$TMP/amd/capture_traces" "$TMP/elsewhere/replay.pt.trace.json"
python3 tests/tools/graph_truth.py "$TMP/out" "$TMP/amd/replay.pt.trace.json.truth" >/dev/null || fail "--capture DIR"
# nothing beside it and none named: no capture, every replay op unknown
run_ok "$GPUPROF" info -f json "$TMP/elsewhere/replay.pt.trace.json"
python3 - "$TMP/out" <<'PY' || fail "info -f json without capture traces"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["graph_kernels"] == 108 and d["graph_launches"] == 16, d
assert d["graph_kernels_attributed"] == 0 and d["capture_traces"] == 0, d
assert d["graph_kernels_by_state"]["no-capture"]["kernels"] == 108, d
PY
# one capture file named (batch size 8: G and M): the prologue is not in it
run_ok "$GPUPROF" info -f json --capture "$TMP/amd/capture_traces/graph_capture_rank_0.8.pt.trace.json" \
	"$TMP/elsewhere/replay.pt.trace.json"
python3 - "$TMP/out" <<'PY' || fail "info -f json with one capture file"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["graph_kernels_by_state"]
assert d["capture_traces"] == 1 and d["captured_graphs"] == 2, d
assert s["no-match"]["kernels"] == 4 * 3 + 4 * 2, s      # P and U
assert s["captured"]["kernels"] == 4 * 16 + 4 * 4, s     # G (one batch size left), M but its tie
assert s["ambiguous"]["kernels"] == 4 * 2, s
PY

# info's text: how much was replayed, how much has an op, why not the rest
run_ok "$GPUPROF" info "$TMP/amd/replay.pt.trace.json"
assert_grep "^graph replays +108 kernels \([0-9.]+% of GPU time\) in 16 graph launches" "$TMP/out"
assert_grep "^  with an op +92 of them" "$TMP/out"
assert_grep "^capture traces +4 \(6 graphs captured\)" "$TMP/out"
assert_grep "^  without shapes +64 kernels.*several captures \(batch sizes\) fit" "$TMP/out"
assert_grep "^  without op +8 kernels.*no captured graph has the kernels" "$TMP/out"
assert_grep "^  without op +8 kernels.*several captured graphs or launches fit" "$TMP/out"

# --capture none: nothing read, summary names the unknown group
run_ok "$GPUPROF" summary -s gpu --by op --capture none "$TMP/amd/replay.pt.trace.json"
assert_grep "graph replay \(op unknown\)$" "$TMP/out"
assert_no_grep "\(none\)" "$TMP/out"
run_ok "$GPUPROF" info --capture none "$TMP/amd/replay.pt.trace.json"
assert_grep "^  with an op +0 of them" "$TMP/out"
assert_grep "^  without op +108 kernels.*give the capture traces" "$TMP/out"

# a --capture path that is not there: exit 3, named
expect_exit 3 "$GPUPROF" info --capture "$TMP/nope" "$TMP/amd/replay.pt.trace.json"
assert_grep "nope: cannot open the capture trace" "$TMP/err"

# ops: each replayed kernel's time is Self GPU of the op its capture gave it
run_ok "$GPUPROF" report -f csv -c op,marker,graph,sil "$TMP/amd/replay.pt.trace.json"
mv "$TMP/out" "$TMP/kernels.csv"
run_ok "$GPUPROF" ops -f csv "$TMP/amd/replay.pt.trace.json"
python3 tests/tools/graph_ops_check.py "$TMP/kernels.csv" "$TMP/out" >"$TMP/cmp" ||
	{ cat "$TMP/cmp" >&2; fail "ops: the captured ops' GPU time"; }
