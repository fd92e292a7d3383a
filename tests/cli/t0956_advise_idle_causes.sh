# tier: slow (24 s in make check before the tiers, on the busy 2-core machine)
# advise's findings per idle cause: on crafted Kineto traces, each of
# cpu_op, sync, dataloader and untraced fires on the trace
# with its pattern, with the idle time the pattern was built with (the
# chain of waits back from the kernel after each gap, docs/dependencies.md),
# and no other idle-cause finding does; a trace whose GPU is never idle
# has none.  Ten kernels of 100 us each; times in us:
#   host:     the next launch call [-5,-1) inside its op (aten::mul), which
#             starts as the kernel before ends: 246 us of the op, 4 of its
#             call, 1 of launch latency per gap
#   sync:     cudaDeviceSynchronize over the 300 us after each kernel (it
#             waits for nothing), then a 1 us launch call, the kernel 1 us
#             later: 300 us of sync per gap
#   loader:   the data loader's range over the 250 us after each kernel,
#             then the launch: 250 us of dataloader per gap
#   untraced: nothing recorded until the next launch call [-2,-1): 249 us
#             of untraced CPU time per gap
#   busy:     kernels launched ahead, back to back
python3 - "$TMP" "$TOP/tests/tools" <<'PY' || fail "crafting the traces"
import sys
sys.path.insert(0, sys.argv[2])
from kineto_craft import Trace
def trace(pattern):
    tr, t = Trace(), 1000.0
    for i in range(10):
        if pattern == "busy":
            tr.kern(t, 100, tr.call("cudaLaunchKernel", 100 + i, 1))
            t += 100
            continue
        if pattern == "host":
            tr.rng("cpu_op", "aten::mul", t - 251, 250)
            c = tr.call("cudaLaunchKernel", t - 5, 4)
        elif pattern == "sync":
            tr.call("cudaDeviceSynchronize", t - 302, 300)
            c = tr.call("cudaLaunchKernel", t - 2, 1)
        elif pattern == "loader":
            tr.rng("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", t - 252, 250)
            c = tr.call("cudaLaunchKernel", t - 2, 1)
        else:
            c = tr.call("cudaLaunchKernel", t - 2, 1)
        tr.kern(t, 100, c)
        t += 100 + (302 if pattern == "sync" else 252 if pattern == "loader" else 251)
    return tr
for p in ("host", "sync", "loader", "untraced", "busy"):
    trace(p).write("%s/%s.json" % (sys.argv[1], p))
PY
# PATTERN KIND INVOLVED_NS: KIND fires on PATTERN with that much idle time,
# and no other idle-cause finding does
check() {
	run_ok "$GPUPROF" advise -f json "$TMP/$1.json"
	python3 - "$TMP/out" "$2" "$3" <<'PY' || fail "$1: $2"
import json, sys
rows = {r["kind"]: r for r in map(json.loads, open(sys.argv[1]))}
kind, want = sys.argv[2], sys.argv[3]
causes = {"cpu_op", "launch", "sync", "dataloader", "python", "annotation", "allocator", "first_alloc",
          "jit", "autotune", "cuda_api", "event_wait", "untraced", "tiny-kernels"}
if kind == "-":
    assert not causes & set(rows), rows
    sys.exit(0)
assert kind in rows, (kind, sorted(rows))
assert not (causes - {kind}) & set(rows), sorted(rows)
r = rows[kind]
assert r["involved_ns"] == int(want), (r["involved_ns"], want)
assert r["count"] == 9, r
assert 0 < r["alone_ns"] <= r["involved_ns"] * 1.05, r   # gone, the gaps go (a typical latency stays)
assert "the largest gaps (at: from the trace start):" in r["evidence"] and r["change"], r
PY
}
check host cpu_op $((9 * 250000))          # the op and its call, 9 gaps between 10 kernels
check sync sync $((9 * 300000))
check loader dataloader $((9 * 250000))
check untraced untraced $((9 * 249000))
check busy - 0
# the text names what held the GPU
run_ok "$GPUPROF" advise "$TMP/host.json"
assert_grep 'the GPU sat idle 2.250 ms' "$TMP/out"
assert_grep 'aten::mul 2.214 ms' "$TMP/out"

# a saving above the idle its finding names (PARAM's ResNet: the data
# loader's 6.660 s of idle, 7.027 s saved) says by how much and why; the
# figure is the JSON's saving_ns - involved_ns
need_testdata
run_ok "$GPUPROF" advise -f json "$TESTDATA/param/resnet_kineto.json.gz"
beyond=$(awk -F'"saving_ns":|,"saving_pct|"involved_ns":|,"count' '/"kind":"dataloader"/ { printf "%.3f ms", ($2 - $4) / 1e6 }' "$TMP/out")
assert_eq "$beyond" "367.236 ms" "the dataloader finding's saving beyond its idle"
# the idle findings that save more than their idle by over a thousandth
# of the GPU span (14.523 s; what the text counts): the data loader's,
# and, with the changes above them, untraced-cpu's and cpu-bound's
more=$(python3 -c 'import json, sys
print(sum(1 for r in map(json.loads, open(sys.argv[1])) if "sat idle" in r["title"]
          and r["saving_ns"] is not None and r["saving_ns"] - r["involved_ns"] > 14522911))' "$TMP/out")
run_ok "$GPUPROF" advise "$TESTDATA/param/resnet_kineto.json.gz"
assert_grep "^     beyond:   $beyond more than this idle: with these waits gone" "$TMP/out"
# those have such a line; a finding saving less than its idle has none
[ "$more" -ge 1 ] && [ "$(grep -c '^     beyond:' "$TMP/out")" = "$more" ] ||
	fail "beyond lines (expected $more): $(grep '^     beyond:' "$TMP/out")"
