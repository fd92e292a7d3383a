# tier: slow (48 s in make check before the tiers, on the busy 2-core machine)
# gpuprof export -f perfetto on generated traces of every format: valid
# JSON, every event with the fields its ph needs (ph, ts, pid, tid; dur for
# X; id for flows, bp "e" on their ends), every flow end on a written slice
# of its track, process and thread names for every track, kernels with
# their model args, the counters, and idle slices that sum to the GPU's
# idle time computed independently from the raw events.  Output options:
# -o -, .gz, no overwrite without --force; bad options and inputs.
command -v python3 >/dev/null || skip "python3 not installed"
for f in kineto nsys nvprof; do
	run_ok "$GEN" --format $f -n 1500 --streams 2 -o "$TMP/g.$f"
	run_ok "$GPUPROF" export -f perfetto -o "$TMP/x.$f.json" "$TMP/g.$f"
	run_ok "$GPUPROF" report -f csv -c start,end,device "$TMP/g.$f"
	python3 tests/tools/perfetto_check.py "$TMP/x.$f.json" "$TMP/out" ||
		fail "$f: export is not a well-formed trace"
done
# on a Kineto trace, backward kernels' arrows start at their forward op
python3 - "$TMP/x.kineto.json" <<'PY' || fail "forward -> backward arrows do not start at cpu_op slices"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ops = {(e["pid"], e["tid"], e["ts"]) for e in ev if e["ph"] == "X" and e["cat"] == "cpu_op"}
starts = [e for e in ev if e["ph"] == "s" and e["cat"] == "fwd_bwd"]
assert len(starts) > 100 and all((e["pid"], e["tid"], e["ts"]) in ops for e in starts)
PY
# -o - is stdout, the default too
run_ok "$GPUPROF" export "$TMP/g.kineto"
cmp -s "$TMP/out" "$TMP/x.kineto.json" || fail "stdout and -o FILE differ"
run_ok "$GPUPROF" export -o - "$TMP/g.kineto"
cmp -s "$TMP/out" "$TMP/x.kineto.json" || fail "-o - and -o FILE differ"
# gzip, and no overwrite without --force
run_ok "$GPUPROF" export -o "$TMP/x.json.gz" "$TMP/g.kineto"
gzip -dc "$TMP/x.json.gz" | cmp -s - "$TMP/x.kineto.json" || fail ".gz output is not the same trace"
expect_exit 3 "$GPUPROF" export -o "$TMP/x.json.gz" "$TMP/g.kineto"
assert_grep "exists \(--force overwrites it\)" "$TMP/err"
run_ok "$GPUPROF" export --force -o "$TMP/x.json.gz" "$TMP/g.nsys"
run_ok "$GPUPROF" report -f csv -c kernel,sil "$TMP/x.json.gz"
[ "$(wc -l <"$TMP/out")" = 1501 ] || fail "the forced .gz is not the nsys trace"
# bad command lines and inputs
expect_exit 2 "$GPUPROF" export -f html "$TMP/g.kineto"
expect_exit 2 "$GPUPROF" export --iters 3:1 "$TMP/g.kineto"
expect_exit 2 "$GPUPROF" export --iter x "$TMP/g.kineto"
expect_exit 2 "$GPUPROF" export --weight flops "$TMP/g.kineto"
expect_exit 2 "$GPUPROF" export --start 10 --end 5 "$TMP/g.kineto"
expect_exit 3 "$GPUPROF" export "$TMP/missing.json"
# a window cuts the flame graph too: its weights are the window's kernel time
run_ok "$GPUPROF" export -f folded --iter 1 "$TMP/g.kineto"
fold=$(awk '{s += $NF} END {printf "%d", s}' "$TMP/out")
run_ok "$GPUPROF" report -f csv -c start,end --iter 1 "$TMP/g.kineto"
want=$(python3 -c "import csv,sys; print(sum(int(r['End(ns)']) - int(r['Start(ns)']) for r in csv.DictReader(open(sys.argv[1]))))" "$TMP/out")
[ "$want" -gt 0 ] || fail "iteration 1 has no kernels"
assert_eq "$fold" "$want" "export -f folded --iter 1: weights"
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 1' >"$TMP/bad.json"
expect_exit 4 "$GPUPROF" export -o "$TMP/bad.out.json" "$TMP/bad.json"
[ ! -e "$TMP/bad.out.json" ] || fail "a failed export left its output file"
expect_exit 3 "$GPUPROF" export -o "$TMP/no/such/dir.json" "$TMP/g.kineto"
# a rank's processes form a group: names and labels, and distributedInfo
if [ -n "$TESTDATA" ] && [ -d "$TESTDATA" ]; then
	run_ok "$GPUPROF" export "$TESTDATA/hta/trace_filter/sampled_rank-1.json.gz"
	python3 - "$TMP/out" <<'PY' || fail "rank 1 is not its own process group"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["distributedInfo"]["rank"] == 1
names = [e["args"]["name"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"]
labels = [e["args"]["labels"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "process_labels"]
assert names and all(n.startswith("rank 1: ") for n in names), names
assert len(labels) == len(names) and set(labels) == {"rank 1"}, labels
PY
fi
run_ok "$GPUPROF" export --help
assert_grep "ui.perfetto.dev" "$TMP/out"
# Every process is named once, and only one in which something runs: no
# Kineto placeholder process per GPU of the machine, no second name on a
# GPU's pid when Kineto put host events there (issue 25)
if [ -n "$TESTDATA" ] && [ -d "$TESTDATA" ]; then
	for f in tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz hta/trace_filter/sampled_rank-1.json.gz; do
		run_ok "$GPUPROF" export -o "$TMP/names.json" --force "$TESTDATA/$f"
		python3 - "$TMP/names.json" <<'PY' || fail "$f: a process named twice or named without events"
import collections, json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = collections.Counter(e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name")
used = {e["pid"] for e in ev if e["ph"] != "M"}
assert all(n == 1 for n in names.values()), names
assert set(names) <= used, set(names) - used
PY
	done
	run_ok "$GPUPROF" export "$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz"
	assert_grep '"name":"process_name","pid":0,.*"GPU 0: NVIDIA H100 80GB HBM3 \(and host events of this pid\)"' "$TMP/out"
fi
