# A copy is asynchronous when the call that launched it is (cudaMemcpyAsync,
# hipMemcpyAsync, cuMemcpy*Async, graph launches), in every reader: advise
# names synchronous copies only for the plain calls.  The calls hold the
# thread until their copy is done (as a synchronous copy does), then 65 us
# of CPU work comes before the next call: issued without waiting, the
# second copy would queue behind the first, which the finding's saving is.
copies() { # CALL: a Kineto trace of one short kernel and two pinned 64 MB copies launched by CALL
	printf '{"traceEvents": [
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 7, "tid": 7, "ts": 0, "dur": 5, "args": {"correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 5, "args": {"device": 0, "stream": 7, "correlation": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "%s", "pid": 7, "tid": 7, "ts": 20, "dur": 3015, "args": {"correlation": 2}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 30, "dur": 3000, "args": {"device": 0, "stream": 7, "correlation": 2, "bytes": 64000000}},
{"ph": "X", "cat": "cuda_runtime", "name": "%s", "pid": 7, "tid": 7, "ts": 3100, "dur": 3015, "args": {"correlation": 3}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": 3110, "dur": 3000, "args": {"device": 0, "stream": 7, "correlation": 3, "bytes": 64000000}}
]}\n' "$1" "$1"
}
for call in cudaMemcpyAsync hipMemcpyAsync cuMemcpyHtoDAsync_v2; do
	copies $call > "$TMP/async.json"
	run_ok "$GPUPROF" advise --gpu H100-SXM "$TMP/async.json"
	assert_no_grep 'synchronous memory cop' "$TMP/out"
done
copies cudaMemcpy > "$TMP/sync.json"
run_ok "$GPUPROF" advise --gpu H100-SXM "$TMP/sync.json"
assert_grep '2 synchronous memory copies' "$TMP/out"
# the generated traces launch every copy with cudaMemcpyAsync
for f in nsys kineto nvprof; do
	"$GEN" --format $f -n 300 --seed 1 -o "$TMP/gen.$f" --force >/dev/null || fail "gen $f"
	run_ok "$GPUPROF" advise "$TMP/gen.$f"
	assert_no_grep 'synchronous memory cop' "$TMP/out"
done
