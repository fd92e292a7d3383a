# gpuprof html over DLRM's 8 rank files (issue 35, "the job page counts 64
# GPUs for an 8-GPU job"): each file lists its node's 8 devices in
# deviceProperties, each rank runs its kernels on one of them.  The page
# gives each device the kernels it ran, which an oracle counts from the raw
# JSON (kernel events' args.device), and the job's GPUs fact counts the
# devices that ran kernels: 8, not the 64 the files list.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
D="$TESTDATA/verdicts/param/dlrm_kineto_8rank"
[ -d "$D" ] || skip "$D missing"
run_ok "$GPUPROF" html -o "$TMP/job.html" "$D"
python3 - "$TMP/job.html" "$D" "$TOP/tests/tools" <<'PY' || fail "the page's devices differ from the raw traces"
import collections, glob, gzip, json, os, sys
sys.path.insert(0, sys.argv[3])
from html_job_oracle import page_data
data = page_data(sys.argv[1])
ran, listed = {}, 0
for f in sorted(glob.glob(os.path.join(sys.argv[2], "*.json.gz"))):
    t = json.load(gzip.open(f))
    rank = t["distributedInfo"]["rank"]
    listed += len(t["deviceProperties"])
    ran[rank] = collections.Counter(e["args"]["device"] for e in t["traceEvents"]
                                    if e.get("cat") == "kernel" and e.get("ph") == "X")
assert listed == 64, listed
used = sum(1 for c in ran.values() for d in c if c[d] > 0)
assert used == 8, used
for r, inp in zip(data["job"]["ranks"], data["inputs"]):
    got = {d["id"]: d["kernels"] for d in inp["devices"] if d["kernels"]}
    assert got == dict(ran[r["rank"]]), (r["rank"], got, ran[r["rank"]])
PY
# the fact as drawn, where Chromium is at hand
if command -v chromium >/dev/null && { [ -r /usr/share/javascript/chart.js/chart.min.js ] || [ -n "${GPUPROF_CHARTJS:-}" ]; }; then
	open_page "$TMP/job.html"
	assert_grep '<dt>GPUs</dt><dd>8 × [^<]*\(those that ran kernels; the files list 64' "$TMP/dom"
	# an unknown figure reads "na" as in the terminal (issue 35), never "n/a"
	assert_no_grep 'n/a<' "$TMP/dom"
fi
exit 0
