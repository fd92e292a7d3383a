# advise's findings per idle cause (issue 11): on crafted Kineto traces,
# each of host-launch, sync-calls, pageable-memcpy (its idle part) and
# short-gaps fires on the trace with its pattern, with the idle time the
# pattern was built with, and stays silent on the others and on a trace
# whose GPU is never idle.  Ten steps each; times in us:
#   host:     kernel 100, then the next launch call 250 later (the GPU waits
#             for it): 10 gaps of 251 us (the call's 1 us included)
#   sync:     kernel 100, cudaDeviceSynchronize over the next 300, then a
#             1 us launch: 300 us of sync and 2 us of host launch per gap
#   pageable: kernel 100, a gap of 200, a pageable HtoD copy 20, a kernel
#   short:    kernels of 50 launched ahead, 5 apart (under 10 us)
#   busy:     kernels of 50 launched ahead, back to back
python3 - "$TMP" <<'PY' || fail "crafting the traces"
import json, sys
def trace(pattern):
    ev, t, corr = [], 1000.0, 0
    def call(name, ts, dur):
        nonlocal corr
        corr += 1
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": 1, "tid": 1,
                   "ts": ts, "dur": dur, "args": {"correlation": corr}})
        return corr
    def kern(ts, dur, c):
        ev.append({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": ts,
                   "dur": dur, "args": {"device": 0, "stream": 7, "correlation": c}})
    for i in range(10):
        if pattern == "host":
            c = call("cudaLaunchKernel", t - 5, 4)
            kern(t, 100, c)
            t += 100 + 251
        elif pattern == "sync":
            c = call("cudaLaunchKernel", t - 5, 1)
            kern(t, 100, c)
            call("cudaDeviceSynchronize", t + 100, 300)
            t += 100 + 302       # the next launch: 400..401, its kernel at 402
        elif pattern == "pageable":
            c = call("cudaLaunchKernel", 100 + i, 1)
            kern(t, 100, c)
            c = call("cudaMemcpyAsync", 100 + i + 0.5, 0.2)
            ev.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)",
                       "pid": 0, "tid": 7, "ts": t + 300, "dur": 20,
                       "args": {"device": 0, "stream": 7, "correlation": c, "bytes": 1 << 20}})
            t += 320
        else:
            c = call("cudaLaunchKernel", 100 + i, 1)
            kern(t, 50, c)
            t += 50 + (5 if pattern == "short" else 0)
    return {"traceEvents": ev}
for p in ("host", "sync", "pageable", "short", "busy"):
    json.dump(trace(p), open("%s/%s.json" % (sys.argv[1], p), "w"))
PY
# PATTERN KIND INVOLVED_NS: KIND fires on PATTERN with that much idle time,
# and no other idle-cause finding does
check() {
	run_ok "$GPUPROF" advise -f json "$TMP/$1.json"
	python3 - "$TMP/out" "$2" "$3" <<'PY' || fail "$1: $2"
import json, sys
rows = {r["kind"]: r for r in map(json.loads, open(sys.argv[1]))}
kind, want = sys.argv[2], sys.argv[3]
causes = {"host-launch", "sync-calls", "pageable-memcpy", "short-gaps", "idle-gaps"}
if kind == "-":
    assert not causes & set(rows), rows
    sys.exit(0)
assert kind in rows, (kind, sorted(rows))
assert not (causes - {kind}) & set(rows), sorted(rows)
r = rows[kind]
assert r["involved_ns"] == int(want), (r["involved_ns"], want)
assert r["time_ns"] + r["overlap_ns"] == r["involved_ns"] or kind == "pageable-memcpy", r
assert "the largest gaps:" in r["evidence"] and r["change"], r
PY
}
check host host-launch $((10 * 251000 - 251000))      # 9 gaps between 10 kernels
check sync sync-calls $((9 * 300000))
check pageable pageable-memcpy $((10 * 20000 + 10 * 200000))   # the copies and the waits
check short short-gaps $((9 * 5000))
check busy - 0
# the text names the host wait as the issue asks
run_ok "$GPUPROF" advise "$TMP/host.json"
assert_grep 'the GPU waited for the host to launch work 2.26 ms' "$TMP/out"
