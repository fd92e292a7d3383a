# gpuprof advise DIR: a rank is judged in its job (issue 33, "a rank in its
# job").  DLRM's 8 ranks mostly wait for each other at their SendRecvs:
# what a rank's change saves before its last collective it would wait for
# the others instead.  The oracle reads each rank's raw Kineto JSON: the
# work after its last NCCL kernel (its last event's end less that
# kernel's end).  A rank's saving in the job is at most that plus its own
# late at collectives; rank 1 arrives last at none, so the job's findings
# together save at most the ranks' tails plus the straggler's late (the
# straggler finding's saving).  Findings common to several ranks are one
# finding ("ranks 0-7: ..."), so the output is far shorter than the 547
# lines of a rank-by-rank listing.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
D="$TESTDATA/verdicts/param/dlrm_kineto_8rank"
[ -d "$D" ] || skip "$D missing"
run_ok "$GPUPROF" advise "$D"
cp "$TMP/out" "$TMP/adv.txt"
n=$(wc -l < "$TMP/adv.txt")
[ "$n" -lt 200 ] || fail "advise DIR printed $n lines: the ranks' findings are not merged"
assert_grep "ranks 0-7: " "$TMP/adv.txt"
[ "$(grep -c '\[tiny-kernels\]' "$TMP/adv.txt")" = 1 ] || fail "tiny-kernels is not one finding"
run_ok "$GPUPROF" advise -f json "$D"
python3 - "$TMP/out" "$D" <<'PY' || fail "a rank saves more in the job than its work after its last collective"
import glob, gzip, json, sys
tails = {}
for p in sorted(glob.glob(sys.argv[2] + "/*.json.gz")):
    t = json.load(gzip.open(p))
    rank = t.get("distributedInfo", {}).get("rank")
    ev = [e for e in t["traceEvents"] if e.get("ph") == "X" and "dur" in e]
    end = max(e["ts"] + e["dur"] for e in ev)
    nccl = [e for e in ev if e.get("cat") == "kernel" and "nccl" in e["name"].lower()]
    last = max(e["ts"] + e["dur"] for e in nccl)
    tails[rank] = (end - last) * 1000   # us -> ns
assert len(tails) == 8, tails
rows = [r for r in map(json.loads, open(sys.argv[1])) if r.get("saving_ns") is not None]
late = sum(r["saving_ns"] for r in rows if r["kind"] == "straggler")
bound = sum(tails.values()) + late
for r in rows:
    if r["kind"] != "straggler":
        assert r["saving_ns"] <= 1.01 * bound, (r["kind"], r["saving_ns"], bound, tails)
# rank 1 alone: at most its own tail (under a millisecond: 0.83 ms from
# its last NCCL kernel to its last event, CPU included) in the job, not 6.1 ms
assert tails[1] < 1e6, tails
total = sum(r["saving_ns"] for r in rows if r["kind"] != "straggler")
assert total <= 1.01 * bound, (total, bound)
PY
