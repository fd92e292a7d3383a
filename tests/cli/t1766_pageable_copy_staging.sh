# Pageable-copy staging is its own cause, not launch latency (issue 33
# item 5; verdicts/README.md, new3 perfsandbox): besides the 1.766 ms
# module load (t1763), the trace's two other gaps (306 us, 121 us) each end
# at a copy of 4 MB from or to pageable host memory whose synchronous
# cudaMemcpy started before the gap and returned after it: the host was
# staging the copy through the driver's bounce buffer.  The oracle reads
# the raw SQLite (memory kinds by ENUM_CUDA_MEM_KIND, the copy's call by
# correlation id); gpuprof must give both gaps cause pageable_copy
# (breakdown's gaps view and idle_pageable_copy, no launch or gpu_gap time
# left), advise's pageable_copy finding must name the idle time and say to
# pin host memory, no launch finding may claim the gaps, and --what-if
# cause:pageable_copy=0 must give most of the staging time back.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
f=$TESTDATA/verdicts/new3/perfsandbox_report1.sqlite
[ -e "$f" ] || skip "perfsandbox trace not in testdata"
run_ok "$GPUPROF" breakdown -f csv "$f"; mv "$TMP/out" "$TMP/bd.csv"
run_ok "$GPUPROF" breakdown --view gaps -f csv "$f"; mv "$TMP/out" "$TMP/gaps.csv"
run_ok "$GPUPROF" advise -f json "$f"; mv "$TMP/out" "$TMP/adv.json"
run_ok "$GPUPROF" advise --what-if cause:pageable_copy=0 -f csv "$f"; mv "$TMP/out" "$TMP/wi.csv"
python3 - "$f" "$TMP" <<'PY' || fail "the pageable-copy staging gaps"
import csv, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
pageable = db.execute("SELECT id FROM ENUM_CUDA_MEM_KIND WHERE name = 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE'").fetchone()[0]
gpu = db.execute("SELECT start, end, correlationId, 'kernel', 0, 0, 0 FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL "
                 "SELECT start, end, correlationId, 'copy', srcKind, dstKind, bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                 "ORDER BY 1").fetchall()
gaps, end = [], gpu[0][1]
for s, e, corr, what, src, dst, nbytes in gpu[1:]:
    if s > end:
        gaps.append((s - end, end, s, corr, what, src, dst, nbytes))
    end = max(end, e)
gaps.sort(reverse=True)
assert len(gaps) == 3 and abs(gaps[0][0] - 1765695) < 1000, gaps   # the module load: t1763's
staged = []
for g, a, b, corr, what, src, dst, nbytes in gaps[1:]:
    assert what == "copy" and pageable in (src, dst) and nbytes >= 64 << 10, (g, what, src, dst, nbytes)
    name, cs, ce = db.execute("SELECT s.value, r.start, r.end FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                              "ON s.id = r.nameId WHERE r.correlationId = ?", (corr,)).fetchone()
    assert name.startswith("cudaMemcpy") and "Async" not in name, name
    assert cs <= a and ce >= b, (name, cs, ce, a, b)              # the call spans the gap: staging
    staged.append(g)
assert abs(staged[0] - 305824) < 1000 and abs(staged[1] - 121408) < 1000, staged
d = sys.argv[2]
bd = {r["Part"]: int(r["Time (ns)"]) for r in csv.DictReader(open(d + "/bd.csv")) if r["Iter"] == "all"}
assert abs(bd["idle_pageable_copy"] - sum(staged)) < 1000, bd
assert bd["idle_launch"] + bd["idle_gpu_gap"] < 1000, bd
rows = list(csv.DictReader(open(d + "/gaps.csv")))
for g in staged:
    row = [r for r in rows if abs(int(r["Idle (ns)"]) - g) < 2]
    assert len(row) == 1 and row[0]["Cause"] == "pageable_copy", (g, row)
fs = [json.loads(l) for l in open(d + "/adv.json") if l.strip()]
pc = [x for x in fs if x["kind"] == "pageable_copy"]
assert len(pc) == 1 and "pin" in pc[0]["change"].lower() and "cudaHostAlloc" in pc[0]["change"], pc
assert "427.232 us while their calls staged them" in pc[0]["evidence"], pc   # 305.824 + 121.408
assert not [x for x in fs if x["kind"] == "launch"], [x["kind"] for x in fs]
wi = {r["Measure"]: r for r in csv.DictReader(open(d + "/wi.csv"))}
saved = int(wi["gpu_span"]["Saving (ns)"])
assert 0.9 * sum(staged) <= saved <= int(wi["gpu_span"]["Before (ns)"]), (saved, sum(staged))
PY
