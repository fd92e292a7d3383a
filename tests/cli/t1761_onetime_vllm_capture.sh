# A graph capture is a one-time cost, not Python (issue 33 item 5;
# verdicts/README.md, tl2 vllm capture trace): the 56.138 ms gap is
# hipStreamBeginCapture -> hipStreamEndCapture (+54.977 ms) ->
# hipGraphInstantiateWithFlags (0.817 ms) on one thread, and the launches
# in between run nothing (no kernel has their correlation).  The oracle
# reads the raw JSON; then gpuprof must call the gap capture (breakdown's
# idle_capture and the gap's cause, advise's one-time capture finding with
# no per-step figure) and no finding about Python or CUDA graphs may name
# it.
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
f=$TESTDATA/verdicts/tl2/inference__vllm_decode_full__capture_traces__graph_capture_rank_0.1773709742341309550.pt.trace.json.gz
[ -e "$f" ] || skip "vllm capture trace not in testdata"
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
assert abs(g - 56138.4) < 1, g                                  # us
rt = [e for e in ev if e.get("cat") == "cuda_runtime"]
begin = [e for e in rt if e["name"].endswith("StreamBeginCapture") and a - 10 <= e["ts"] < b]
assert len(begin) == 1, begin
begin = begin[0]
same = [e for e in rt if e["tid"] == begin["tid"] and begin["ts"] <= e["ts"] < b]
endc = [e for e in same if e["name"].endswith("StreamEndCapture")]
inst = [e for e in same if "GraphInstantiate" in e["name"]]
assert len(endc) == 1 and len(inst) == 1, (endc, inst)
assert abs(endc[0]["ts"] - a - 54977) < 1, endc           # EndCapture 54.977 ms into the gap
assert abs(inst[0]["dur"] - 817) < 1 and inst[0]["ts"] >= endc[0]["ts"], inst
launches = [e for e in same if "Launch" in e["name"] and e["ts"] < endc[0]["ts"]]
ran = {e["args"].get("correlation") for e in ev if e.get("cat") == "kernel"}
assert launches and not any(e["args"].get("correlation") in ran for e in launches), len(launches)
gns = g * 1000
# gpuprof says it
d = sys.argv[2]
bd = {r["Part"]: int(r["Time (ns)"]) for r in csv.DictReader(open(d + "/bd.csv")) if r["Iter"] == "all"}
assert bd["idle_capture"] >= 0.95 * gns and bd["idle_python"] < 0.05 * gns, bd
row = [r for r in csv.DictReader(open(d + "/gaps.csv")) if abs(int(r["Idle (ns)"]) - gns) < 2000]
assert len(row) == 1 and row[0]["Cause"] == "capture", row
fs = [json.loads(l) for l in open(d + "/adv.json") if l.strip()]
cap = [x for x in fs if x["kind"] == "capture"]
assert len(cap) == 1 and cap[0]["involved_ns"] >= 0.95 * gns and cap[0]["per_step_ns"] is None, cap
assert "profile a later step" in cap[0]["change"], cap
named = re.compile(r"%d\.%d\d\d ms at" % (int(g / 1000), int(g / 100) % 10))
for x in fs:
    text = x["title"] + " " + x["evidence"] + " " + x["change"]
    if "CUDA graph" in text or "Python" in text:
        assert x["involved_ns"] < 0.05 * gns and not named.search(x["evidence"]), x
PY
