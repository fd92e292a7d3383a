# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# advise alloc-churn: fires on a trace whose loop reaches the CUDA allocator
# after the first iteration (cudaMalloc/cudaFree calls, or the caching
# allocator's reserved total growing), and stays silent on the same trace
# when that happens only in the first iteration, and on every shared trace
# (none of them churns: checked by hand, see docs/memory.md).
python3 - "$TMP" <<'PY'
import json, sys
def trace(churn):
    ev = []
    for i in range(3):
        t0 = i * 1000
        ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % (i + 1),
                   "pid": 1, "tid": 1, "ts": t0, "dur": 1000})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1,
                   "ts": t0 + 10, "dur": 500})
        corr = i + 1
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": t0 + 400, "dur": 20, "args": {"correlation": corr}})
        ev.append({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": t0 + 430,
                   "dur": 300, "args": {"device": 0, "stream": 7, "correlation": corr}})
        if churn or i == 0:
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaMalloc", "pid": 1, "tid": 1,
                       "ts": t0 + 20, "dur": 300, "args": {"correlation": 100 + corr}})
            ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaFree", "pid": 1, "tid": 1,
                       "ts": t0 + 800, "dur": 100, "args": {"correlation": 200 + corr}})
        reserved = (i + 1) * 2 ** 20 if churn else 2 ** 20
        ev.append({"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": 1,
                   "tid": 1, "ts": t0 + 15, "args": {"Device Type": 1, "Device Id": 0, "Bytes": 512,
                   "Addr": 4096 * (i + 1), "Total Allocated": 512 * (i + 1),
                   "Total Reserved": reserved}})
    return {"traceEvents": ev}
json.dump(trace(True), open(sys.argv[1] + "/churn.json", "w"))
json.dump(trace(False), open(sys.argv[1] + "/calm.json", "w"))
PY
run_ok "$GPUPROF" advise -f json "$TMP/churn.json"
python3 - "$TMP/out" <<'PY' || fail "alloc-churn on the churning trace"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
c = [r for r in rows if r["kind"] == "alloc-churn"]
assert len(c) == 1, rows
# 2 cudaMalloc + 2 cudaFree after ProfilerStep#1, and the reserved total grew twice
assert c[0]["count"] == 6, c
assert "2 cudaMalloc and 2 cudaFree" in c[0]["evidence"] and "reserved 2 more times" in c[0]["evidence"], c
PY
run_ok "$GPUPROF" advise "$TMP/churn.json"
assert_grep 'inside the iteration loop' "$TMP/out"
run_ok "$GPUPROF" advise -f json "$TMP/calm.json"
assert_no_grep '"alloc-churn"' "$TMP/out"

need_testdata
find "$TESTDATA" -type f \( -name '*.sqlite' -o -name '*.json' -o -name '*.json.gz' \) \
	-not -path '*/expected/*' | sort >"$TMP/files"
while read -r f; do
	"$GPUPROF" advise -f json "$f" >"$TMP/a.json" 2>/dev/null
	assert_no_grep '"alloc-churn"' "$TMP/a.json"
done <"$TMP/files"
