# diff leads with what changed in the setup (issue 25): the GPU, the
# profiler, the CUDA runtime/driver and PyTorch versions the traces state,
# the world size, CUDA graph launches and Triton (torch.compile) kernels,
# before the times; the table says it above its rows, csv/json as notes on
# stderr; a version only one trace states is no change.
"$GEN" --format nsys -n 300 --seed 4 -o "$TMP/a.sqlite" >/dev/null || fail "gpuprof-gen"
"$GEN" --format nsys -n 300 --seed 5 -o "$TMP/b.sqlite" >/dev/null || fail "gpuprof-gen"
"$GEN" --format nvprof -n 300 --seed 4 -o "$TMP/v.nvvp" >/dev/null || fail "gpuprof-gen"
run_ok "$GPUPROF" diff "$TMP/a.sqlite" "$TMP/b.sqlite"
assert_eq "$(sed -n 1p "$TMP/out")" "What changed between the runs: nothing the traces say about the setup"
assert_eq "$(sed -n 2p "$TMP/out")" "  (GPU NVIDIA A100-SXM4-40GB, world size 1, 0 CUDA graph launches, 0 Triton kernels)"
assert_grep '^Status +Base +Test' "$TMP/out"
run_ok "$GPUPROF" diff "$TMP/a.sqlite" "$TMP/v.nvvp"
assert_eq "$(sed -n 1p "$TMP/out")" "What changed between the runs:"
assert_grep '^  GPU +NVIDIA A100-SXM4-40GB -> Tesla V100-SXM2-16GB$' "$TMP/out"
assert_grep '^  profiler +nsys 2024\.2\.1\.106 -> nvprof \(Version 12\)$' "$TMP/out"
# rows formats keep their rows; the changes are notes
run_ok "$GPUPROF" diff -f csv "$TMP/a.sqlite" "$TMP/v.nvvp"
assert_grep '^"Kind","Status",' "$TMP/out"
assert_grep '^gpuprof diff: note: GPU changed: NVIDIA A100-SXM4-40GB -> Tesla V100-SXM2-16GB$' "$TMP/err"

# Kineto traces: versions from the metadata, graph launches, Triton
# kernels; one more rank in the test run
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$TMP" <<'PY' || fail "crafting the traces"
import json, sys
tmp = sys.argv[1]
def trace(path, cuda, torch, graphs, triton, rank=None, world=None, batch=32, regions=0):
    ev, corr = [], 0
    # the first op with shapes holds the batch; an earlier one without
    # shapes and a later one with others are not it
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 1, "dur": 1,
               "args": {"Input Dims": [[], []]}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::to", "pid": 1, "tid": 1, "ts": 3, "dur": 1,
               "args": {"Input Dims": [[batch, 3, 224, 224]]}})
    ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 5, "dur": 1,
               "args": {"Input Dims": [[8, 8], [8, 8]]}})
    for i in range(regions):   # each region called twice: counted once
        for k in range(2):
            ev.append({"ph": "X", "cat": "user_annotation", "name": "## Call CompiledFxGraph f%d ##" % i, "pid": 1,
                       "tid": 1, "ts": 3000 + 100 * i + 10 * k, "dur": 5})
    def launch(name, kernel, ts):
        nonlocal corr
        corr += 1
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": 1, "tid": 1, "ts": ts, "dur": 2,
                   "args": {"correlation": corr}})
        ev.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 0, "tid": 7, "ts": ts + 5, "dur": 3,
                   "args": {"device": 0, "stream": 7, "correlation": corr}})
    for i in range(4):
        launch("cudaLaunchKernel", "gemm_k", 100 * i)
    for i in range(graphs):
        launch("cudaGraphLaunch", "graph_k", 1000 + 10 * i)
    for i in range(triton):
        launch("cudaLaunchKernel", "triton_poi_fused_add_%d" % i, 2000 + 10 * i)
    d = {"schemaVersion": 1, "cuda_runtime_version": cuda, "pytorch_version": torch,
         "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}], "traceEvents": ev}
    if rank is not None:
        d["distributedInfo"] = {"rank": rank, "world_size": world}
    json.dump(d, open(path, "w"))
trace(tmp + "/k1.json", "12.1", "2.1.0", 0, 0)
trace(tmp + "/k2.json", "12.4", "2.4.0", 3, 5, batch=64, regions=2)
import os
os.mkdir(tmp + "/job")
for r in range(2):
    trace(tmp + "/job/rank-%d.json" % r, "12.1", "2.1.0", 0, 0, r, 2)
PY
run_ok "$GPUPROF" diff "$TMP/k1.json" "$TMP/k2.json"
assert_grep '^  CUDA runtime +12\.1 -> 12\.4$' "$TMP/out"
assert_grep '^  PyTorch +2\.1\.0 -> 2\.4\.0$' "$TMP/out"
assert_grep '^  CUDA graph launches +0 -> 3$' "$TMP/out"
assert_grep '^  Triton kernels \(torch\.compile\) +0 -> 5$' "$TMP/out"
assert_grep '^  compiled regions \(torch\.compile\) +0 -> 2$' "$TMP/out"
assert_grep "^  first op's input shapes +aten::to \[\[32,3,224,224\]\] -> aten::to \[\[64,3,224,224\]\]$" "$TMP/out"
assert_no_grep '^  (GPU|world size|profiler) ' "$TMP/out"
run_ok "$GPUPROF" diff "$TMP/k1.json" "$TMP/job"
assert_grep '^  world size +1 -> 2$' "$TMP/out"
assert_no_grep '^  (CUDA|PyTorch)' "$TMP/out"
# nsys against Kineto: versions only Kineto states are no change
run_ok "$GPUPROF" diff "$TMP/a.sqlite" "$TMP/k1.json"
assert_no_grep '^  (CUDA runtime|PyTorch) ' "$TMP/out"
