# Damaged and odd Kineto input: a clear message naming file, what and where
# with exit 4, or a correct result; never a crash.
need_testdata
gz=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
head -c 30000 "$gz" > "$TMP/trunc.json.gz"
expect_exit 4 "$GPUPROF" info "$TMP/trunc.json.gz"
assert_grep 'trunc.json.gz: (truncated or damaged gzip stream|truncated JSON)' "$TMP/err"
gzip -dc "$gz" | head -c 500000 > "$TMP/trunc.json"
expect_exit 4 "$GPUPROF" report "$TMP/trunc.json"
assert_grep 'trunc.json: truncated JSON: the file ends inside traceEvents after [0-9]+ events \(byte offset 500000\)' "$TMP/err"
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": "12", "dur": 1}]}' > "$TMP/tsstr.json"
expect_exit 4 "$GPUPROF" info "$TMP/tsstr.json"
assert_grep 'tsstr.json: ts is a string, expected a number: in event 0 \(byte offset [0-9]+\)' "$TMP/err"
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "args": [1, 2]}]}' > "$TMP/args.json"
expect_exit 4 "$GPUPROF" info "$TMP/args.json"
assert_grep 'args.json: args is an array, expected an object: in event 0' "$TMP/err"
printf '{"schemaVersion": 1, "traceEvents": {"ph": "X"}}' > "$TMP/obj.json"
expect_exit 4 "$GPUPROF" info "$TMP/obj.json"
assert_grep 'obj.json: traceEvents is an object, expected an array' "$TMP/err"
printf '{}' > "$TMP/empty.json"
expect_exit 4 "$GPUPROF" info "$TMP/empty.json"
assert_grep 'empty.json: not a PyTorch profiler trace: no traceEvents' "$TMP/err"
# a JSON array of objects that are no trace events (vLLM's note beside its
# traces) is not an empty trace
printf '[{"file": "graph_capture_rank_0.pt.trace.json.gz", "batch_size": 8192, "mode": "PIECEWISE"}]\n' >"$TMP/details.json"
expect_exit 4 "$GPUPROF" info "$TMP/details.json"
assert_grep 'details.json: not a PyTorch profiler trace: a JSON array of 1 objects, none of them a trace event \(no "ph"\)$' "$TMP/err"
expect_exit 4 "$GPUPROF" info "$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/capture_traces/execution_details.json"
# the bare event-array form of the Chrome trace format is read
printf '[{"ph": "X", "cat": "kernel", "name": "void k<1>(int)", "pid": 0, "tid": "stream 7", "ts": 10.5, "dur": 2.25}]\n' > "$TMP/bare.json"
run_ok "$GPUPROF" report -f csv -c kernel,stream,sil "$TMP/bare.json"
assert_grep '^"k","7","2250"$' "$TMP/out"
