# gpuprof export --align-clocks on generated ranks whose clocks are 700 us
# apart (rank K's offset K x 700 us): each rank's offset is the median of
# (rank 0's collective kernel end - its own) over the collectives they share,
# computed here from the raw JSON; every event of the rank is shifted by
# exactly that (its kernels against the raw file's), so the collectives'
# ends line up; without the option every time is the file's own.  A rank
# without collectives keeps its clock, with a note; the option is for
# -f perfetto only.
command -v python3 >/dev/null || skip "python3 not installed"
run_ok "$GEN" --format kineto --ranks 4 --iters 3 --clock-skew-us 700 -o "$TMP/k"
cat >"$TMP/check.py" <<'PY'
import json, statistics, sys
from decimal import Decimal
align = sys.argv[1] == "align"
doc = json.load(open(sys.argv[2]), parse_float=Decimal)["traceEvents"]
ns = lambda us: int(Decimal(us) * 1000)
raw = [json.load(open(p), parse_float=Decimal) for p in sys.argv[3:]]
def kernels(d):
    base = int(d.get("baseTimeNanoseconds", 0))   # Kineto's ts are relative to it
    return sorted((base + ns(e["ts"]), ns(e["dur"]), e["name"]) for e in d["traceEvents"]
                  if e.get("ph") == "X" and e.get("cat") == "kernel")
def coll_ends(ks):
    return [s + d for s, d, n in ks if n.startswith("ncclDevKernel")]
ref = coll_ends(kernels(raw[0]))
rank_of = {e["pid"]: int(e["args"]["name"][5:e["args"]["name"].index(":")])
           for e in doc if e["ph"] == "M" and e["name"] == "process_name"}
for r, ev in enumerate(raw):
    mine = kernels(ev)
    ends = coll_ends(mine)
    assert len(ends) == len(ref) > 0
    off = statistics.median_low([a - b for a, b in zip(ref, ends)]) if align else 0
    assert not align or off == -700000 * r, (r, off)
    got = sorted((ns(e["ts"]), ns(e["dur"]), e["name"]) for e in doc
                 if e["ph"] == "X" and e["cat"] == "kernel" and rank_of[e["pid"]] == r)
    assert got == [(s + off, d, n) for s, d, n in mine], "rank %d: kernels not shifted by %d" % (r, off)
    assert [s + d for s, d, n in got if n.startswith("ncclDevKernel")] == [e + off for e in ends]
PY
run_ok "$GPUPROF" export --align-clocks -o "$TMP/a.json" "$TMP/k"
python3 "$TMP/check.py" align "$TMP/a.json" "$TMP"/k/rank-0.json "$TMP"/k/rank-1.json "$TMP"/k/rank-2.json \
	"$TMP"/k/rank-3.json || fail "--align-clocks: shifts"
run_ok "$GPUPROF" report -f csv -c start,end,device "$TMP/a.json"
python3 tests/tools/perfetto_check.py "$TMP/a.json" "$TMP/out" >/dev/null || fail "the aligned export"
run_ok "$GPUPROF" export -o "$TMP/n.json" "$TMP/k"
python3 "$TMP/check.py" none "$TMP/n.json" "$TMP"/k/rank-0.json "$TMP"/k/rank-1.json "$TMP"/k/rank-2.json \
	"$TMP"/k/rank-3.json || fail "without --align-clocks: times are the files'"
# a rank with no collective: its clock stays, with a note
run_ok "$GEN" --format kineto -n 50 --streams 1 -o "$TMP/rank-7.json"
run_ok "$GPUPROF" export --align-clocks -o "$TMP/m.json" "$TMP/k/rank-0.json" "$TMP/rank-7.json"
assert_grep "rank-7.json: no collective shared with rank 0" "$TMP/err"
expect_exit 2 "$GPUPROF" export -f folded --align-clocks "$TMP/k"
