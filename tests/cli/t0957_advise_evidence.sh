# tier: slow (26 s in make check before the tiers, on the busy 2-core machine)
# advise's text agrees with its evidence (issue 22, part 7), on crafted
# Kineto traces of ten 100 us kernels with a gap before each but the first
# (times in us):
#   graph:    the kernels are replayed by cudaGraphLaunch; before each launch
#             the main thread runs aten::mul for 250 us: the gaps before
#             replays are graph-host-bound's (advise_graph.c), whose
#             evidence gives the chain's cause (cpu_op, aten::mul) and whose
#             change says the graphs already remove the launches; no eager
#             idle finding (cpu_op) tells those gaps again, and nothing
#             says to capture a graph
#   mixed:    five 300 us kernels launched eagerly ahead of the GPU, back to
#             back, then five graph replays as in graph (graphs hold a
#             quarter of the GPU time, and every gap ends in one): the same
#   eager:    as graph with cudaLaunchKernel: cpu_op, told to capture the
#             step in a CUDA graph (what the graph traces must not be told)
#   jit:      before each launch a 400 us "Nvrtc::CompileProgram" range: the
#             jit finding, and no finding says "CUDA graph"
#   longop:   one 5 ms call of aten::cudnn_convolution (its own CPU time:
#             cuDNN autotuning in a first call) before one launch, 20 us ops
#             before the others: cpu_op, told that long op calls are work
#             on the host, not the per-op cost a graph removes
#   syncread: before each launch a cudaMemcpy of 4 bytes to pageable memory
#             (.item()) whose copy runs 5 us and returns 100 us after the
#             kernel before it ends: host-sync-copies with the sync change,
#             no pageable_copy and no pin_memory
python3 - "$TMP" "$TOP/tests/tools" <<'PY' || fail "crafting the traces"
import sys
sys.path.insert(0, sys.argv[2])
from kineto_craft import Trace
def trace(pattern):
    tr, end = Trace(), 1000.0   # end: the end of the kernel before
    for i in range(10):
        graph = pattern == "graph" or (pattern == "mixed" and i >= 5)
        launch = "cudaGraphLaunch" if graph else "cudaLaunchKernel"
        gap = {"jit": 401, "syncread": 101, "longop": 5001 if i == 5 else 21}.get(pattern, 251)
        if pattern == "mixed" and i < 5:   # eager, launched ahead, back to back
            t = end + 1
            tr.kern(t, 300, tr.call(launch, 500 + i, 0.5))
            end = t + 300
            continue
        t = end + gap   # the kernel's start
        if i and pattern in ("graph", "eager", "mixed"):
            tr.rng("cpu_op", "aten::mul", t - 251, 250)
        elif i and pattern == "jit":
            tr.rng("user_annotation", "Nvrtc::CompileProgram", t - 401, 400)
        elif i and pattern == "longop":
            tr.rng("cpu_op", "aten::cudnn_convolution" if i == 5 else "aten::add", t - gap, gap - 1)
        elif i and pattern == "syncread":
            c = tr.call("cudaMemcpy", t - 101, 100)
            tr.copy("Memcpy DtoH (Device -> Pageable)", t - 101, 5, c, 4)
        tr.kern(t, 100, tr.call(launch, t - 1, 0.5), graph)
        end = t + 100
    return tr
for p in ("graph", "mixed", "eager", "jit", "longop", "syncread"):
    trace(p).write("%s/%s.json" % (sys.argv[1], p))
PY
# advise PATTERN: the findings as KIND<TAB>change lines in $TMP/kinds
findings() {
	run_ok "$GPUPROF" advise -f json "$TMP/$1.json"
	python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print("%s\t%s" % (r["kind"], r["change"]))' "$TMP/out" >"$TMP/kinds" || fail "$1: reading advise's JSON"
}
change_of() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$TMP/kinds"; }

findings eager
change_of cpu_op | grep -q 'Capture the step in a CUDA graph' || fail "eager: cpu_op's change: $(cat "$TMP/kinds")"

for p in graph mixed; do
	findings $p
	change_of graph-host-bound | grep -q 'not by kernel launches: the graphs already remove those' ||
		fail "$p: the gaps before graph replays are not told they are graphs: $(cat "$TMP/kinds")"
	! grep -q '^cpu_op' "$TMP/kinds" || fail "$p: the gaps before replays told twice: $(cat "$TMP/kinds")"
	! grep -q 'Capture the step in a CUDA graph' "$TMP/kinds" || fail "$p: told to capture a graph: $(cat "$TMP/kinds")"
	assert_grep '"evidence":"251.0 us before each replay on average, by the chain.s cause: cpu_op [0-9.]* ms, launch [0-9.]* us; aten::mul' "$TMP/out"
done

findings jit
[ -n "$(change_of jit)" ] || fail "jit: no jit finding: $(cat "$TMP/kinds")"
! grep -qi 'CUDA graph' "$TMP/kinds" || fail "jit: a one-time compilation told to use CUDA graphs: $(cat "$TMP/kinds")"

findings longop
change_of cpu_op | grep -q 'op calls that each held the CPU 1 ms or more' ||
	fail "longop: cpu_op's change: $(cat "$TMP/kinds")"
! grep -q 'Capture the step in a CUDA graph' "$TMP/kinds" || fail "longop: told to capture a graph: $(cat "$TMP/kinds")"

findings syncread
change_of host-sync-copies | grep -q 'Remove synchronizations' || fail "syncread: $(cat "$TMP/kinds")"
! grep -q '^pageable_copy' "$TMP/kinds" || fail "syncread: host syncs called pageable copies: $(cat "$TMP/kinds")"
! grep -q 'pin_memory' "$TMP/kinds" || fail "syncread: pin_memory advised for host syncs: $(cat "$TMP/kinds")"
run_ok "$GPUPROF" advise "$TMP/syncread.json"
assert_grep '9 copies under 64 KB that hold the host' "$TMP/out"
