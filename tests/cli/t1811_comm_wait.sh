# The CPU blocked on a collective is comm_wait, not Python (issue 34 item
# 1; SGLang's tensor-parallel ranks were "Python code outside framework
# ops").  A hand-made Kineto trace (H100): three GEMMs, and between them
# the main thread waits on a collective while the GPU has nothing queued:
# first a cpu_op c10d::wait (under the Python frame of distributed_c10d's
# wait), then only the Python frame of Work.wait's built-in method, as
# SGLang records it.  The oracle, by construction from the raw events: the
# GPU idle inside the waits (between two kernels, covered by a wait).
# breakdown's idle_comm_wait equals it; advise's first finding is
# comm_wait with both waits as evidence, and no finding calls it Python.
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$TMP" > "$TMP/oracle" <<'PY' || fail "cannot write the trace"
import json, sys
ev = []
corr = [100]
def X(cat, name, tid, ts, dur, args=None, pid=1):
    e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
    if args:
        e["args"] = args
    ev.append(e)
def launch(ts, kstart):   # an aten::mm launching a 1 ms GEMM on stream 7
    corr[0] += 1
    c = corr[0]
    X("cpu_op", "aten::mm", 1, ts - 1, 8, {"External id": c})
    X("cuda_runtime", "cudaLaunchKernel", 1, ts, 5, {"correlation": c, "External id": c})
    X("kernel", "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTT", 7, kstart, 1000,
      {"correlation": c, "External id": c, "device": 0, "stream": 7, "grid": [264, 1, 1], "block": [128, 1, 1]},
      pid=0)
X("python_function", "train.py(10): <module>", 1, 0, 10000)
launch(10, 20)
X("python_function", "torch/distributed/distributed_c10d.py(2500): wait", 1, 28, 3004)
X("cpu_op", "c10d::wait", 1, 30, 3000)
launch(3031, 3040)
X("python_function", "<built-in method wait of torch._C._distributed_c10d.Work object at 0x7f00>", 1, 3050, 2500)
launch(5551, 5560)
dev = {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85017198592, "computeMajor": 9,
       "computeMinor": 0, "numSms": 132, "warpSize": 32}
json.dump({"deviceProperties": [dev], "traceEvents": ev}, open(sys.argv[1] + "/cw.json", "w"))
# the oracle: the waits are the events named c10d::wait or Work.wait's
# method; the GPU idle is between consecutive kernels
waits = [(e["ts"], e["ts"] + e["dur"]) for e in ev
         if e["name"] == "c10d::wait" or "_distributed_c10d.Work object" in e["name"]]
K = sorted((e["ts"], e["ts"] + e["dur"]) for e in ev if e["cat"] == "kernel")
idle = [(a1, b0) for (a0, a1), (b0, b1) in zip(K, K[1:]) if b0 > a1]
inwait = sum(max(0, min(g1, w1) - max(g0, w0)) for g0, g1 in idle for w0, w1 in waits)
assert inwait == 2010 + 1510, inwait
print(int(inwait * 1000))
PY
read truth < "$TMP/oracle"
T=$TMP/cw.json
run_ok "$GPUPROF" breakdown -f csv --no-header "$T"
sed -i 's/"//g' "$TMP/out"
got=$(awk -F, '$1 == "0" && $2 == "all" && $3 == "idle_comm_wait" { print $4 }' "$TMP/out")
[ "$got" = "$truth" ] || fail "idle_comm_wait ${got:-none} ns, the oracle's $truth"
py=$(awk -F, '$1 == "0" && $2 == "all" && $3 == "idle_python" { print $4 }' "$TMP/out")
[ "$py" = 0 ] || fail "idle_python ${py:-none} ns: the waits are not Python"

run_ok "$GPUPROF" advise -f json "$T"
python3 - "$TMP/out" "$truth" <<'PY' || fail "advise: $(head -c 600 "$TMP/out")"
import json, sys
found = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert found, "no findings"
first = found[0]
assert first["kind"] == "comm_wait", first["kind"]
assert first["involved_ns"] == int(sys.argv[2]), (first["involved_ns"], sys.argv[2])
assert "c10d::wait 2.010 ms" in first["evidence"], first["evidence"]
assert "_distributed_c10d.Work object at 0x7f00> 1.510 ms" in first["evidence"], first["evidence"]
for f in found:
    assert f["kind"] != "python" and "Python code" not in f["title"], f["title"]
PY
run_ok "$GPUPROF" advise "$T"
assert_grep "^ 1\. the CPU waiting on collectives" "$TMP/out"
assert_no_grep "Python (code|frames)" "$TMP/out"
