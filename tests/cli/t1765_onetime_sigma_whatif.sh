# Removing a slow first launch shifts all that follows it (issue 33 item 5;
# verdicts/README.md, new3 sigma_report2): the program is serial, its
# first cudaLaunchKernel takes 7.898 ms (lazy module loading) and is
# followed by cudaDeviceSynchronize, so without that load everything after
# it, the GPU's work included, runs ~7.9 ms earlier.  The oracle reads the
# raw SQLite; then --what-if cause:module_load=0 (and its idle_ form) must
# save that much of the GPU span, advise must tell it as a one-time
# module_load finding with no per-step figure, and no Python or
# CUDA-graphs finding may name its gap.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
f=$TESTDATA/verdicts/new3/sigma_report2.sqlite
[ -e "$f" ] || skip "sigma trace not in testdata"
run_ok "$GPUPROF" advise --what-if cause:module_load=0 -f csv "$f"; mv "$TMP/out" "$TMP/wi.csv"
run_ok "$GPUPROF" advise --what-if cause:idle_module_load=0 -f csv "$f"; mv "$TMP/out" "$TMP/wi2.csv"
run_ok "$GPUPROF" advise -f json "$f"; mv "$TMP/out" "$TMP/adv.json"
python3 - "$f" "$TMP" <<'PY' || fail "the slow first launch"
import csv, json, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
calls = db.execute("SELECT r.start, r.end, r.globalTid, s.value, r.correlationId FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                   "JOIN StringIds s ON s.id = r.nameId ORDER BY r.start").fetchall()
launches = [c for c in calls if c[3].startswith("cudaLaunchKernel")]
first = launches[0]
load = first[1] - first[0]
assert abs(load - 7.8976e6) < 0.01e6, first
after = [c for c in calls if c[2] == first[2] and c[0] >= first[1]]
assert after[0][3].startswith("cudaDeviceSynchronize"), after[0]
k = db.execute("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId = ?", (first[4],)).fetchone()
assert k[0] >= first[1] and after[0][1] >= k[1], (k, after[0])   # serial: the kernel runs after, the sync waits
# the GPU's work before the kernel ended before the launch began: the load holds the GPU
prev = db.execute("SELECT MAX(end) FROM (SELECT end FROM CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT end "
                  "FROM CUPTI_ACTIVITY_KIND_MEMCPY) WHERE end <= ?", (k[0],)).fetchone()[0]
assert prev is None or prev <= first[0] + 0.5e6, prev
# gpuprof says it
d = sys.argv[2]
for w in ("wi.csv", "wi2.csv"):
    span = [r for r in csv.DictReader(open(d + "/" + w)) if r["Measure"] == "gpu_span"]
    assert len(span) == 1 and abs(int(span[0]["Saving (ns)"]) - load) < 0.1e6, span
fs = [json.loads(l) for l in open(d + "/adv.json") if l.strip()]
ml = [x for x in fs if x["kind"] == "module_load"]
assert len(ml) == 1 and ml[0]["involved_ns"] >= 0.95 * load and ml[0]["per_step_ns"] is None, ml
assert "profile a later step" in ml[0]["change"], ml
named = re.compile(r"8\.\d\d\d ms at")
for x in fs:
    text = x["title"] + " " + x["evidence"] + " " + x["change"]
    if x["kind"] == "launch" or "CUDA graph" in text or "Python" in text:
        assert not named.search(x["evidence"]), x
PY
