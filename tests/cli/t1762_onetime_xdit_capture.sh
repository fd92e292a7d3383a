# A graph capture before the first replay is a one-time cost, not "the
# host between graph replays" (issue 33 item 5; verdicts/README.md, tl2
# xdit flux capture trace): the 231 ms gap before the trace's only
# hipGraphLaunch holds hipStreamBeginCapture, 994 launches on the same
# thread (none of which runs a kernel), hipStreamEndCapture and
# hipGraphInstantiate.  The oracle reads the raw JSON; then gpuprof must
# call the gap capture (breakdown's idle_capture and the gap's cause,
# advise's one-time capture finding, no graph-host-bound finding) and no
# finding about Python or CUDA graphs may name it.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
f=$TESTDATA/verdicts/tl2/inference__xdit_flux.1__capture_traces__capture_trace_rank_0.json.gz
[ -e "$f" ] || skip "xdit flux capture trace not in testdata"
run_ok "$GPUPROF" breakdown -f csv "$f"; mv "$TMP/out" "$TMP/bd.csv"
run_ok "$GPUPROF" breakdown --view gaps -f csv "$f"; mv "$TMP/out" "$TMP/gaps.csv"
run_ok "$GPUPROF" advise -f json "$f"; mv "$TMP/out" "$TMP/adv.json"
python3 - "$f" "$TMP" <<'PY' || fail "the capture gap"
import csv, gzip, json, re, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
gpu = sorted((e["ts"], e["ts"] + e["dur"]) for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"))
gaps, end = [], gpu[0][1]
for s, e in gpu[1:]:
    if s > end:
        gaps.append((s - end, end, s))
    end = max(end, e)
g, a, b = max(gaps)
assert abs(g - 231337.4) < 1, g                                 # us
rt = [e for e in ev if e.get("cat") == "cuda_runtime"]
glaunch = [e for e in rt if e["name"] in ("hipGraphLaunch", "cudaGraphLaunch")]
assert len(glaunch) == 1 and a < glaunch[0]["ts"] < b, glaunch
begin = [e for e in rt if e["name"].endswith("StreamBeginCapture")]
endc = [e for e in rt if e["name"].endswith("StreamEndCapture")]
inst = [e for e in rt if "GraphInstantiate" in e["name"]]
assert len(begin) == len(endc) == len(inst) == 1, (begin, endc, inst)
begin, endc, inst = begin[0], endc[0], inst[0]
assert a - 10 <= begin["ts"] < endc["ts"] < inst["ts"] < glaunch[0]["ts"] < b
assert begin["tid"] == endc["tid"] == inst["tid"]
launches = [e for e in rt if "Launch" in e["name"] and "Graph" not in e["name"] and begin["ts"] <= e["ts"] < endc["ts"]]
assert len(launches) == 994 and all(e["tid"] == begin["tid"] for e in launches), len(launches)
ran = {e["args"].get("correlation") for e in ev if e.get("cat") == "kernel"}
assert not any(e["args"].get("correlation") in ran for e in launches)
gns = g * 1000
# gpuprof says it
d = sys.argv[2]
bd = {r["Part"]: int(r["Time (ns)"]) for r in csv.DictReader(open(d + "/bd.csv")) if r["Iter"] == "all"}
assert bd["idle_capture"] >= 0.95 * gns, bd
row = [r for r in csv.DictReader(open(d + "/gaps.csv")) if abs(int(r["Idle (ns)"]) - gns) < 2000]
assert len(row) == 1 and row[0]["Cause"] == "capture", row
fs = [json.loads(l) for l in open(d + "/adv.json") if l.strip()]
cap = [x for x in fs if x["kind"] == "capture"]
assert len(cap) == 1 and cap[0]["involved_ns"] >= 0.95 * gns and cap[0]["per_step_ns"] is None, cap
assert "profile a later step" in cap[0]["change"], cap
assert not [x for x in fs if x["kind"] == "graph-host-bound"], fs
named = re.compile(r"%d\.%d\d\d ms at" % (int(g / 1000), int(g / 100) % 10))
for x in fs:
    text = x["title"] + " " + x["evidence"] + " " + x["change"]
    if "CUDA graph" in text or "Python" in text:
        assert x["involved_ns"] < 0.1 * gns and not named.search(x["evidence"]), x
PY
