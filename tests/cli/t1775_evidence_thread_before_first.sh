# A walk that reaches a thread before its first activity goes on through
# the thread that started it, not into an unknown stretch (issue 33 item
# 6.5).  On PARAM's ResNet Kineto trace the autograd thread's first event
# (evaluate_function: NllLossBackward0) comes 4.56 s after the main thread
# began; the main thread ran 887 events before it (aten::to, the input's
# cudaMemcpyAsync...): the critical path runs through them, and no piece is
# put on a stream the trace does not have.  The oracle reads the raw JSON.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
T=$TESTDATA/param/resnet_kineto.json.gz
[ -r "$T" ] || skip "param/resnet_kineto.json.gz not in testdata"
run_ok "$GPUPROF" export -f perfetto --critical-path -o "$TMP/cp.json" "$T"
python3 - "$T" "$TMP/cp.json" <<'PY' || fail "the critical path before the autograd thread"
import gzip, json, sys
raw = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
ours = [e for e in json.load(open(sys.argv[2]))["traceEvents"] if e.get("ph") == "X"]
cpu = ("cpu_op", "cuda_runtime", "user_annotation")
auto = min((e for e in raw if e.get("cat") == "cpu_op" and e["tid"] != e["pid"]), key=lambda e: e["ts"])
assert auto["name"].endswith("NllLossBackward0") and auto["ts"] == 1689179601896060, auto
main = [e for e in raw if e.get("cat") in cpu and e["tid"] == e["pid"] and e["ts"] < auto["ts"]]
assert len(main) == 887 and min(e["ts"] for e in main) == 1689179597340751, len(main)
streams = {e["args"]["stream"] for e in raw if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")}
assert streams == {7, 20, 36}, streams

track = [e for e in ours if e.get("cat") == "critical_path"]
assert min(float(e["ts"]) for e in track) == 1689179597340751, "the path starts at the first event"
for e in track:
    on = e["args"].get("on", "")
    if on.startswith("stream "):
        assert int(on.split(":")[1]) in streams, e
    assert not (e["name"] == "unknown" and float(e["dur"]) >= 1e6), e
# the main thread's events before the autograd thread are on the path
crit = {(e["name"], round(float(e["ts"]))) for e in ours if e.get("args", {}).get("critical") is True}
on = [e for e in main if (e["name"], e["ts"]) in crit]
assert ("aten::to", 1689179597340787) in crit and ("cudaMemcpyAsync", 1689179597343633) in crit
assert len(on) > len(main) // 2, (len(on), len(main))
PY
