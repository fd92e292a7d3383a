# Every command sees graph replays (gpuprof-gen --graphs, tools/gen/graphs.c):
# diff of the eager run against the graph run (nsys, node) matches every
# op; the run's ops unknown in the graph run (a graph captured before the
# profile) are "graph replay (op unknown)" in summary, html and diff, not
# "(none)"; export marks replayed kernels and flows them from the graph
# launch.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format nsys --graphs eager -o "$TMP/eager.sqlite"
run_ok "$GEN" --format nsys --graphs node -o "$TMP/node.sqlite"
run_ok "$GEN" --format gprec --graphs node -o "$TMP/node.gprec"

# diff by op: the same ops, the same GPU time and calls, but the sampler's
# two ops, which the graph run cannot name (captured before the profile)
run_ok "$GPUPROF" diff --by op -f csv "$TMP/eager.sqlite" "$TMP/node.sqlite"
python3 - "$TMP/out" <<'PY' || fail "diff eager vs graph run"
import csv, sys
rows = {r["Name"]: r for r in csv.DictReader(open(sys.argv[1]))}
same = [n for n, r in rows.items() if r["Status"] == "same" and r["Kind"] not in ("step", "idle", "total")]
assert sorted(same) == ["aten::add", "aten::copy_", "aten::embedding", "aten::gelu", "aten::layer_norm",
                        "aten::mm", "aten::mul", "aten::softmax"], rows.keys()
for n in same:
    assert rows[n]["Base (ns)"] == rows[n]["Test (ns)"] and rows[n]["Base calls"] == rows[n]["Test calls"], rows[n]
assert rows["graph replay (op unknown)"]["Status"] == "new", rows
assert rows["aten::sum"]["Status"] == "gone" and rows["aten::_foreach_add"]["Status"] == "gone", rows
PY
# a recording and an nsys export of the same graph run: nothing changed
run_ok "$GPUPROF" diff --by op -f csv "$TMP/node.sqlite" "$TMP/node.gprec"
assert_eq "$(awk -F, 'NR > 1 && $2 != "\"same\""' "$TMP/out")" "" \
	"diff of the nsys export and the recording"

# summary and html name the unknown group
run_ok "$GPUPROF" summary -s gpu --by op "$TMP/node.sqlite"
assert_grep ' 8 .*graph replay \(op unknown\)$' "$TMP/out"
assert_no_grep '\(none\)' "$TMP/out"
run_ok "$GPUPROF" html -o "$TMP/r.html" "$TMP/node.sqlite"
assert_grep 'graph replay \(op unknown\)' "$TMP/r.html"

# export: each replayed kernel says its state and has a flow from its launch
run_ok "$GPUPROF" export -o "$TMP/x.json" "$TMP/node.sqlite"
python3 - "$TMP/x.json" <<'PY' || fail "export of replayed kernels"
import json, sys
from collections import Counter
ev = json.load(open(sys.argv[1]))["traceEvents"]
k = [e for e in ev if e.get("cat") == "kernel"]
st = Counter(e["args"].get("graph replay") for e in k)
assert st == Counter({"captured": 100, "node-unseen": 8, None: 4}), st
mm = [e for e in k if e["args"].get("op") == "aten::mm"]
assert len(mm) == 40 and all(e["args"]["graph replay"] == "captured" for e in mm), len(mm)
# the flows' finishes: one per kernel, replayed ones included
fin = [e for e in ev if e.get("cat") == "ac2g" and e["ph"] == "f"]
assert len(fin) >= len(k), (len(fin), len(k))
PY
