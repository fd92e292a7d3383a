# The queue depth counters of gpuprof export -f perfetto, on a crafted
# Kineto trace: two streams of one GPU, launch calls returning while
# earlier kernels still run, several in one bucket.  Each stream's
# "queue depth (stream S)" track has a sample at each of the 2000 buckets
# over the GPU's span (first to last work) and one closing it; each value
# is the largest queue depth (kernels launched earlier on the stream and
# not finished) when a launch call returned in the bucket, 0 without one,
# all computed here from the JSON.  With several files, each rank's GPU
# has its own tracks.
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$TMP/q.json" <<'PY' || fail "crafting the trace"
import json, sys
T0 = 1000.0          # us; the GPU's work spans [T0, T0 + 2000]
ev = []
def launch(corr, ret, stream, start, dur):
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
               "ts": round(ret - 4.5, 3), "dur": 4.5, "args": {"correlation": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % corr, "pid": 0, "tid": stream,
               "ts": round(start, 3), "dur": dur, "args": {"device": 0, "stream": stream, "correlation": corr}})
# stream 7: ten 150 us kernels back to back, launched every 100 us
for i in range(10):
    launch(i + 1, T0 + 100 * i - 49.9, 7, T0 + 150 * i, 150)
# two more in one bucket (the largest depth counts), after the queue drained once
launch(11, T0 + 1600.2, 7, T0 + 1600.5, 20)
launch(12, T0 + 1600.7, 7, T0 + 1620.5, 20)
# stream 8: three launched in one bucket, run later, the last ending at T0 + 2000
for j in range(3):
    launch(20 + j, T0 + 1690.1 + 0.1 * j, 8, T0 + 1700 + 100 * j, 100)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
run_ok "$GPUPROF" export -o "$TMP/x.json" "$TMP/q.json"
python3 - "$TMP/q.json" "$TMP/x.json" <<'PY' || fail "queue depth counters differ from the independent count"
import json, sys
from decimal import Decimal
ns = lambda us: int(Decimal(str(us)) * 1000)
ev = json.load(open(sys.argv[1]))["traceEvents"]
calls = {e["args"]["correlation"]: e for e in ev if e["cat"] == "cuda_runtime"}
kern = [e for e in ev if e["cat"] == "kernel"]
ws = min(ns(k["ts"]) for k in kern)
we = max(ns(k["ts"]) + ns(k["dur"]) for k in kern)
n, span = 2000, we - ws
want = {}
for s in (7, 8):
    ks = sorted((k for k in kern if k["args"]["stream"] == s), key=lambda k: k["ts"])
    depth = [0] * n
    for p, k in enumerate(ks):
        c = calls[k["args"]["correlation"]]
        ret = ns(c["ts"]) + ns(c["dur"])
        d = sum(1 for q in ks[:p] if ns(q["ts"]) + ns(q["dur"]) > ret)
        b = 0 if ret <= ws else min(n - 1, (ret - ws) * n // span)
        depth[b] = max(depth[b], d)
    want["queue depth (stream %d)" % s] = [(ws + b * span // n, depth[b]) for b in range(n)] + [(we, 0)]
got = {}
for e in json.load(open(sys.argv[2]), parse_float=Decimal)["traceEvents"]:
    if e["ph"] == "C" and e["name"].startswith("queue depth"):
        assert e["pid"] == 0 and e["cat"] == "gpu_counter", e
        got.setdefault(e["name"], []).append((int(e["ts"] * 1000), e["args"]["depth"]))
assert got.keys() == want.keys(), got.keys()
for k in want:
    assert got[k] == want[k], (k, [(a, b) for a, b in zip(got[k], want[k]) if a != b][:5])
# the crafted trace is not trivial: queues built up, two launches shared a bucket
assert max(d for _, d in want["queue depth (stream 7)"]) == 4
assert max(d for _, d in want["queue depth (stream 8)"]) == 2
PY
# two ranks: each GPU its own queue depth tracks
cp "$TMP/q.json" "$TMP/rank-0.json"
cp "$TMP/q.json" "$TMP/rank-1.json"
run_ok "$GPUPROF" export -o "$TMP/r.json" "$TMP/rank-0.json" "$TMP/rank-1.json"
python3 - "$TMP/r.json" <<'PY' || fail "queue depth tracks of two ranks"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
gpus = {e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name" and ": GPU " in e["args"]["name"]}
tracks = {(e["pid"], e["name"]) for e in ev if e["ph"] == "C" and e["name"].startswith("queue depth")}
assert len(gpus) == 2 and tracks == {(g, "queue depth (stream %d)" % s) for g in gpus for s in (7, 8)}, tracks
PY
