# gpuprof advise DIR judges a rank's change on the job's replay across
# ranks (issue 33 item 4, "a rank in its job"): a rank that waits for a
# straggler saves about nothing until the straggler's change.  The oracle
# reads the 8 raw Kineto JSON files of PARAM's DLRM job: each rank's NCCL
# kernels matched by order, the clocks aligned on their ends (the median
# offset to rank 0), each rank's GPU work's last end.  Whatever rank 1
# changes of its own work, a collective ends no earlier than the last of
# the other ranks arrives there, and the job no earlier than the other
# ranks' last end: rank 1 alone saves the job at most, over the
# collectives, how far after the others' last arrival it arrived, plus
# how far after their last end it ended (0 here: it arrives last at none,
# 7.6 ms early at the first; a few us of tolerance for clock alignment).
# advise says what each rank's change alone saves the job ("one rank's
# change alone saves the job: ..."): rank 1's must stay under the bound,
# so must the saving of a finding of rank 1 alone ("rank 1: ..."), and
# rank 7's (the straggler) must move the job.  The HTML job page lists
# the same merged findings as advise DIR's text, with advise's savings.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
D="$TESTDATA/verdicts/param/dlrm_kineto_8rank"
[ -d "$D" ] || skip "$D missing"
run_ok "$GPUPROF" advise "$D"
cp "$TMP/out" "$TMP/adv.txt"
run_ok "$GPUPROF" advise -f json "$D"
cp "$TMP/out" "$TMP/adv.json"
python3 - "$TMP/adv.json" "$D" <<'PY' || fail "rank 1 saves the job more than it can"
import glob, gzip, json, re, statistics, sys
R = {}
for p in sorted(glob.glob(sys.argv[2] + "/*.json.gz")):
    t = json.load(gzip.open(p))
    ev = [e for e in t["traceEvents"] if e.get("ph") == "X" and "dur" in e]
    gpu = [e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    nccl = sorted((e for e in gpu if e["cat"] == "kernel" and "nccl" in e["name"].lower()), key=lambda e: e["ts"])
    R[t["distributedInfo"]["rank"]] = dict(c=[(e["ts"], e["ts"] + e["dur"]) for e in nccl],
                                           end=max(e["ts"] + e["dur"] for e in gpu))
assert sorted(R) == list(range(8)) and len({len(r["c"]) for r in R.values()}) == 1, R.keys()
n = len(R[0]["c"])
for r in R.values():
    r["off"] = statistics.median(R[0]["c"][i][1] - r["c"][i][1] for i in range(n))
arr = lambda r, i: R[r]["c"][i][0] + R[r]["off"]
end = lambda r: R[r]["end"] + R[r]["off"]
def bound(x):
    b = sum(max(0, arr(x, i) - max(arr(r, i) for r in R if r != x)) for i in range(n))
    return (b + max(0, end(x) - max(end(r) for r in R if r != x))) * 1000 + 20000   # us -> ns, 20 us slack
b1, b7 = bound(1), bound(7)
assert b1 < 0.66e6, b1
rows = [json.loads(l) for l in open(sys.argv[1])]
UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
def alone(ev, rank):
    """What the evidence says rank's change alone saves the job (None: not listed)."""
    m = re.match(r"one rank's change alone saves the job: (.*?); on rank", ev)
    if not m:
        return None
    for part in re.split(r", (?=ranks? )", m.group(1)):
        w = re.match(r"ranks? ([0-9, -]+?) (nothing|([0-9.]+) (ns|us|ms|s))$", part)
        assert w, part
        ids = set()
        for a in w.group(1).split(", "):
            lo, _, hi = a.partition("-")
            ids |= set(range(int(lo), int(hi or lo) + 1))
        if rank in ids:
            return 0.0 if w.group(2) == "nothing" else float(w.group(3)) * UNIT[w.group(4)]
    return None
seen1 = moved7 = 0
for r in rows:
    if r["saving_ns"] is None:
        continue
    if r["title"].startswith("rank 1: "):
        assert r["saving_ns"] <= b1 and r["alone_ns"] <= b1, (r["kind"], r["saving_ns"], b1)
    a1, a7 = alone(r["evidence"], 1), alone(r["evidence"], 7)
    if a1 is not None:
        seen1 += 1
        assert a1 <= b1, (r["kind"], a1, b1)
    if a7 is not None:
        assert a7 <= b7, (r["kind"], a7, b7)
        moved7 = max(moved7, a7)
assert seen1 >= 3, seen1
# the straggler's change moves the job: more than rank 1 can at all
assert moved7 > 0.5e6 and moved7 > 2 * b1, (moved7, b1)
PY
# the job page: the same findings as advise DIR, in its order, its savings
run_ok "$GPUPROF" html -o "$TMP/job.html" "$D"
python3 - "$TMP/job.html" "$TMP/adv.txt" "$TMP/adv.json" "$TOP/tests/tools" <<'PY' || fail "html: the job's findings differ from advise DIR's"
import json, re, sys
sys.path.insert(0, sys.argv[4])
from html_job_oracle import page_data
page = page_data(sys.argv[1])["job"]["advice"]
text = [m.group(1) for m in map(re.compile(r"^ ?(?:\d+|!)\. (.*)$").match, open(sys.argv[2])) if m]
rows = [json.loads(l) for l in open(sys.argv[3])]
assert len(page) == len(text) == len(rows) >= 5, (len(page), len(text), len(rows))
assert any(t.startswith("ranks 0-7: ") for t in text), text
for p, t, r in zip(page, text, rows):
    assert p["title"] == t == r["title"], (p["title"], t, r["title"])
    assert p["kind"] == r["kind"] and (r["saving_ns"] is None or round(p["ns"]) == r["saving_ns"]), (p, r)
PY
