# breakdown on CUDA graph launches, end to end: a crafted Kineto trace
# where each cudaGraphLaunch runs three kernels sharing its correlation id
# between eager launches on the same stream.  A launch is one call: the
# graph's kernels are counted once (at the first of them), with or without
# the "graph id" args PyTorch writes since 2.1.  Launches, graph launches,
# the largest launch delay and the queue depths equal an independent
# computation over the JSON in Python; the depth series (--view depth) adds
# up to the launches and peaks at the largest depth; every kernel counts
# once in the time view.
python3 - "$TMP" <<'PY' || fail "crafting the traces"
import json, sys
for tagged in (True, False):
    ev = []
    for i in range(4):
        t0 = 1000 + 1000 * i
        def call(name, ts, dur, corr):
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": 1, "tid": 1,
                       "ts": ts, "dur": dur, "args": {"correlation": corr}})
        def kern(ts, dur, corr, graph):
            args = {"device": 0, "stream": 7, "correlation": corr}
            if graph and tagged:
                args["graph id"] = 5
            ev.append({"ph": "X", "cat": "kernel", "name": "k%d" % corr, "pid": 0, "tid": 7,
                       "ts": ts, "dur": dur, "args": args})
        call("cudaLaunchKernel", t0, 10, 10 * i + 1)
        kern(t0 + 20, 50, 10 * i + 1, False)
        call("cudaGraphLaunch", t0 + 30, 15, 10 * i + 2)
        for j in range(3):
            kern(t0 + 70 + 40 * j, 40, 10 * i + 2, True)
        call("cudaLaunchKernel", t0 + 50, 5, 10 * i + 3)
        kern(t0 + 190, 20 + i, 10 * i + 3, False)
    json.dump({"traceEvents": ev}, open("%s/graph%d.json" % (sys.argv[1], tagged), "w"))
PY
for tagged in 1 0; do
	f=$TMP/graph$tagged.json
	run_ok "$GPUPROF" breakdown --view streams -f json "$f"
	cp "$TMP/out" "$TMP/streams.json"
	run_ok "$GPUPROF" breakdown --view depth --buckets 7 -f json "$f"
	cp "$TMP/out" "$TMP/depth.json"
	run_ok "$GPUPROF" breakdown -f json "$f"
	cp "$TMP/out" "$TMP/time.json"
	python3 - "$f" "$TMP" <<'PY' || fail "graph$tagged: differs from the independent count"
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ns = lambda us: int(round(us * 1000))
calls = {e["args"]["correlation"]: e for e in ev if e["cat"] == "cuda_runtime"}
kern = sorted((e for e in ev if e["cat"] == "kernel"), key=lambda e: e["ts"])
seen, launches, graphs, delays, depths = set(), 0, 0, [], []
for p, k in enumerate(kern):
    c = calls[k["args"]["correlation"]]
    if k["args"]["correlation"] in seen:
        continue                     # the same call's later kernels: not a launch
    seen.add(k["args"]["correlation"])
    ret = ns(c["ts"] + c["dur"])
    launches += 1
    graphs += c["name"] == "cudaGraphLaunch"
    delays.append(ns(k["ts"]) - ret)
    depths.append(sum(1 for q in kern[:p] if ns(q["ts"] + q["dur"]) > ret))
st = [json.loads(l) for l in open(sys.argv[2] + "/streams.json")]
assert len(st) == 1, st
s = st[0]
want = dict(kernels=len(kern), launches=launches, graph_launches=graphs, early=0,
            delay_max_ns=max(delays), depth_max=max(depths),
            depth_p50=sorted(depths)[(len(depths) + 1) // 2 - 1])
for k, v in want.items():
    assert s[k] == v, (k, s[k], v)
assert launches == 12 and graphs == 4 and max(depths) == 4, (launches, graphs, depths)
d = [json.loads(l) for l in open(sys.argv[2] + "/depth.json")]
assert len(d) == 7 and sum(r["launches"] for r in d) == launches, d
assert max(r["max_depth"] for r in d if r["max_depth"] is not None) == max(depths), d
assert all(r["max_depth"] is None for r in d if r["launches"] == 0), d
# every kernel once: compute time = the union of the kernels' intervals
iv = sorted((ns(k["ts"]), ns(k["ts"] + k["dur"])) for k in kern)
union, end = 0, None
for a, b in iv:
    if end is None or a > end:
        union += b - a
        end = b
    elif b > end:
        union += b - end
        end = b
t = {r["part"]: r["time_ns"] for r in map(json.loads, open(sys.argv[2] + "/time.json"))
     if r["iteration"] is None}
assert t["compute"] == union and t["span"] == iv[-1][1] - iv[0][0], (t, union)
PY
done
# bad --buckets
expect_exit 2 "$GPUPROF" breakdown --view depth --buckets 0 "$TMP/graph1.json"
expect_exit 2 "$GPUPROF" breakdown --view depth --buckets 100001 "$TMP/graph1.json"
