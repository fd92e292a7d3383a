# tier: slow (34 s in make check before the tiers, on the busy 2-core machine)
# gpuprof ranks (issue 12 item 4) against a few lines of Python over the raw
# Kineto JSON (tests/tools/kineto_steps.py: a kernel belongs to step N when
# its launch call starts inside ProfilerStep#N; a step runs from its first
# kernel's start to its last kernel's end): a rank's median step, the
# slowest and fastest rank, the skew; and tests/tools/coll_oracle.py --job:
# each rank's wait at the collectives matched on every rank, the wait it
# caused, the calls it was last at, the straggler (none among these three
# files of two jobs; trace_filter's two ranks alone: rank 1).  Its sums
# are breakdown's "all" rows.
need_testdata
H=$TESTDATA/hta
F0=$H/trace_filter/sampled_rank-0.json.gz F1=$H/trace_filter/sampled_rank-1.json.gz
F2=$H/trace_diff/test/test.json.gz
run_ok "$GPUPROF" ranks -f csv "$F0" "$F1" "$F2"
cp "$TMP/out" "$TMP/ranks.csv"
run_ok "$GPUPROF" ranks --view steps -f csv "$F0" "$F1" "$F2"
cp "$TMP/out" "$TMP/steps.csv"
python3 - "$TMP/ranks.csv" "$TMP/steps.csv" "$F0" "$F1" "$F2" "$TOP/tests/tools" <<'PY' || fail "ranks differs from the Python oracle"
import csv, sys
sys.path.insert(0, sys.argv[6])
from kineto_steps import steps, median
from coll_oracle import job
ranks = list(csv.DictReader(open(sys.argv[1])))
cst, ncalls, _, straggler = job(sys.argv[3:6])
assert ncalls > 0
st = [steps(p) for p in sys.argv[3:6]]
med = [median(list(s.values())) for s in st]
assert [int(r["Rank"]) for r in ranks] == [0, 1, 1], ranks
fast, slow = med.index(min(med)), med.index(max(med))
for i, r in enumerate(ranks):
    assert int(r["Steps"]) == len(st[i]), (i, r["Steps"], st[i])
    assert int(r["Median step (ns)"]) == med[i], (i, r["Median step (ns)"], med[i])
    assert int(r["vs fastest (ns)"]) == med[i] - med[fast], (i, r)
    assert (int(r["Waited (ns)"]), int(r["Caused (ns)"]), int(r["Last"])) == (cst[i][3], cst[i][4], cst[i][2]), (i, r, cst[i])
    assert r["Role"] == ("straggler" if i == straggler else ""), (i, r["Role"], straggler)
rows = list(csv.DictReader(open(sys.argv[2])))
iters = sorted(set(n for s in st for n in s))
assert [int(r["Iter"]) for r in rows] == iters, rows
rk = [0, 1, 1]
for r in rows:
    n = int(r["Iter"])
    have = [(s[n], i) for i, s in enumerate(st) if n in s]
    (lo, fi), (hi, si) = min(have), max(have, key=lambda x: (x[0], -x[1]))
    assert int(r["Ranks"]) == len(have)
    assert int(r["Median (ns)"]) == median([h for h, _ in have]), (r, have)
    assert (int(r["Fastest"]), int(r["Fastest time (ns)"])) == (rk[fi], lo), r
    assert (int(r["Slowest"]), int(r["Slowest time (ns)"])) == (rk[si], hi), r
    assert int(r["Skew (ns)"]) == hi - lo, r
PY
# trace_filter's ranks alone: rank 1 is the straggler, by arrival
run_ok "$GPUPROF" ranks -f csv "$F1" "$F0"
python3 - "$TMP/out" "$F0" "$F1" "$TOP/tests/tools" <<'PY' || fail "trace_filter's straggler"
import csv, sys
sys.path.insert(0, sys.argv[4])
from coll_oracle import job
cst, ncalls, _, straggler = job(sys.argv[2:4])
assert straggler == 1, straggler
for i, r in enumerate(csv.DictReader(open(sys.argv[1]))):
    assert (int(r["Waited (ns)"]), int(r["Caused (ns)"]), int(r["Last"])) == (cst[i][3], cst[i][4], cst[i][2]), (i, r, cst[i])
    assert r["Role"] == ("straggler" if i == 1 else ""), r
PY
# the sums are breakdown's whole-trace rows of each file, summed over devices
for f in "$F0" "$F2"; do
	run_ok "$GPUPROF" ranks -f csv "$f"
	sums=$(sed 1d "$TMP/out" | cut -d, -f7-11 | tr -d '"')
	run_ok "$GPUPROF" breakdown -f csv "$f"
	bd=$(awk -F, '{gsub(/"/, "")} $2 == "all" { s[$3] += $4 }
		END { printf "%d,%d,%d,%d,%d", s["span"], s["compute"], s["communication"], s["memory"], s["idle"] }' "$TMP/out")
	assert_eq "$sums" "$bd" "ranks sums of $f"
done
# a trace without iterations is one step of its whole span
"$GEN" --format nsys -n 100 --seed 2 -o "$TMP/a.sqlite" >/dev/null || fail gen
sqlite3 "$TMP/a.sqlite" "DELETE FROM NVTX_EVENTS" || fail sqlite3
run_ok "$GPUPROF" ranks -f csv "$TMP/a.sqlite"
span=$(sed 1d "$TMP/out" | cut -d, -f7 | tr -d '"')
assert_eq "$(sed 1d "$TMP/out" | cut -d, -f3,4 | tr -d '"')" "1,$span" "one step of the span"
run_ok "$GPUPROF" ranks --view steps -f csv "$TMP/a.sqlite"
assert_grep '^"all","1",' "$TMP/out"
expect_exit 2 "$GPUPROF" ranks --view nope "$TMP/a.sqlite"
assert_grep "--view wants ranks, steps or critical" "$TMP/err"
