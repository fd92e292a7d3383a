# gpuprof breakdown --as tracelens reproduces TraceLens' gpu_timeline.csv
# (tests/../shared/testdata/expected/tracelens) within 100 ns per row
# (TraceLens adds float microseconds; docs/breakdown.md), except
# trace_diff_test, whose difference docs/breakdown.md explains; the views
# and options behave; bad options exit 2; advise's exposed-comm and
# idle-gaps evidence carry the breakdown's numbers.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto -n 2000 --streams 3 --seed 5 -o "$TMP/g.json"
for v in time streams gaps; do
	for f in table csv tsv json; do
		run_ok "$GPUPROF" breakdown --view $v -f $f "$TMP/g.json"
		[ -s "$TMP/out" ] || fail "--view $v -f $f wrote nothing"
	done
done
run_ok "$GPUPROF" breakdown --view gaps -n 3 -f csv --no-header "$TMP/g.json"
assert_eq "$(wc -l < "$TMP/out" | tr -d ' ')" 3 "-n 3 gaps"
# longest first, and each a cause of the documented list
python3 - "$TMP/out" <<'PY' || fail "gaps view"
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
d = [int(r[3]) for r in rows]
assert d == sorted(d, reverse=True), d
assert all(r[4] in ("short_gap", "sync", "pageable_memcpy", "host_launch", "other") for r in rows), rows
PY
run_ok "$GPUPROF" breakdown --short-gap 0 -f csv --no-header "$TMP/g.json"
assert_grep '^"?0"?,"?all"?,"?idle_short_gap"?,"?0"?,' "$TMP/out"
expect_exit 2 "$GPUPROF" breakdown --as nsight "$TMP/g.json"
expect_exit 2 "$GPUPROF" breakdown --view nope "$TMP/g.json"
expect_exit 2 "$GPUPROF" breakdown --short-gap -5 "$TMP/g.json"
expect_exit 2 "$GPUPROF" breakdown --short-gap 12x "$TMP/g.json"
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 5, "dur": -3, "pid": 0, "tid": 7}' >"$TMP/bad.json"
"$GPUPROF" breakdown "$TMP/bad.json" >/dev/null 2>&1
[ $? -le 4 ] || fail "truncated input crashed breakdown"

need_testdata
E=$TESTDATA/expected/tracelens
for pair in bert_h100:tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz \
	df_index_resolver:hta/df_index_resolver/df_index_resolver.json.gz \
	nccl_parser_config:hta/nccl_parser_config/nccl_data.json.gz; do
	run_ok "$GPUPROF" breakdown --as tracelens -f csv "$TESTDATA/${pair#*:}"
	python3 - "$TMP/out" "$E/${pair%%:*}/gpu_timeline.csv" <<'PY' || fail "${pair%%:*}: differs from TraceLens"
import csv, sys
got = {r[0]: float(r[1]) for r in list(csv.reader(open(sys.argv[1])))[1:]}
want = {r["type"]: float(r["time ms"]) for r in csv.DictReader(open(sys.argv[2]))}
assert set(got) == set(want), (got, want)
for k in want:
    assert abs(got[k] - want[k]) <= 1e-4, (k, got[k], want[k])
PY
done
# advise's exposed-comm finding is the breakdown's comm_exposed; its
# evidence names the breakdown's communication total, and idle-gaps gives
# the breakdown's idle total
f=$TESTDATA/hta/nccl_parser_config/nccl_data.json.gz
run_ok "$GPUPROF" breakdown -f csv --no-header "$f"
cp "$TMP/out" "$TMP/bd.csv"
run_ok "$GPUPROF" advise -f json "$f"
python3 - "$TMP/bd.csv" "$TMP/out" <<'PY' || fail "advise disagrees with breakdown"
import csv, json, sys
bd = {r[2]: int(r[3]) for r in csv.reader(open(sys.argv[1])) if r[1] == "all"}
found = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
comm = [x for x in found if x["kind"] == "exposed-comm"]
assert len(comm) == 1, found
assert "exposed %.2f ms" % (bd["comm_exposed"] / 1e6) in comm[0]["title"], (comm[0]["title"], bd)
assert "communication runs %.2f ms" % (bd["communication"] / 1e6) in comm[0]["evidence"], comm[0]
# its time at stake never exceeds the exposed time
assert comm[0]["time_ns"] <= bd["comm_exposed"], (comm[0], bd)
idle = [x for x in found if x["kind"] == "idle-gaps"]
assert not idle or "all idle time (%.2f ms" % (bd["idle"] / 1e6) in idle[0]["evidence"], (idle, bd)
PY
