# Damaged, odd and foreign rocprofv3 input: a clear message naming the
# file, what and where, with exit 4, or a correct result with a note; never
# a crash.  Every command reports a damaged file the same way.
command -v python3 >/dev/null || skip "python3 not installed"
python3 tests/tools/make_rocprof.py "$TMP/ok.json" --one-process || fail "make_rocprof.py"

# cut JSON, in every command
head -c 8000 "$TMP/ok.json" >"$TMP/cut.json"
for cmd in info report summary breakdown ops memory ranges advise; do
	expect_exit 4 "$GPUPROF" $cmd "$TMP/cut.json"
	assert_grep '^gpuprof: .*cut.json: truncated JSON: the file ends after [0-9]+ records \(byte offset 8000\)$' "$TMP/err"
done
expect_exit 4 "$GPUPROF" html -o "$TMP/cut.html" "$TMP/cut.json"
assert_grep 'cut.json: truncated JSON' "$TMP/err"
expect_exit 4 "$GPUPROF" export -o "$TMP/cut.trace.json" "$TMP/cut.json"
assert_grep 'cut.json: truncated JSON' "$TMP/err"
# a cut gzip stream
gzip -c "$TMP/ok.json" | head -c 2000 >"$TMP/cut.json.gz"
expect_exit 4 "$GPUPROF" info "$TMP/cut.json.gz"
assert_grep 'cut.json.gz: truncated or damaged gzip stream \(unexpected end of file\): after [0-9]+ uncompressed bytes, [0-9]+ records$' "$TMP/err"

# one bad value: what, which record, where
bad() { # NAME JSON MESSAGE-REGEX
	printf '%s\n' "$2" >"$TMP/$1.json"
	expect_exit 4 "$GPUPROF" info "$TMP/$1.json"
	assert_grep "^gpuprof: .*$1.json: $3" "$TMP/err"
}
rec='"kind":11,"operation":2,"thread_id":7,"correlation_id":{"internal":1,"external":0}'
bad tsstr "{\"rocprofiler-sdk-tool\":[{\"buffer_records\":{\"kernel_dispatch\":[{$rec,\"start_timestamp\":\"12\",\"end_timestamp\":20}]}}]}" \
	'start_timestamp is a string, expected a number: in buffer_records.kernel_dispatch record 0 \(byte offset [0-9]+\)$'
bad tsobj "{\"rocprofiler-sdk-tool\":[{\"buffer_records\":{\"hip_api\":[{$rec,\"start_timestamp\":1,\"end_timestamp\":2},{$rec,\"end_timestamp\":{}}]}}]}" \
	'end_timestamp is an object, expected a number: in buffer_records.hip_api record 1'
bad tsbig "{\"rocprofiler-sdk-tool\":[{\"buffer_records\":{\"memory_copy\":[{$rec,\"start_timestamp\":9223372036854775808,\"end_timestamp\":9223372036854775809}]}}]}" \
	'timestamp 9223372036854775808 ns is out of range: in buffer_records.memory_copy record 0'
bad dinfo "{\"rocprofiler-sdk-tool\":[{\"buffer_records\":{\"kernel_dispatch\":[{$rec,\"dispatch_info\":[1]}]}}]}" \
	'dispatch_info is an array, expected an object: in buffer_records.kernel_dispatch record 0'
bad negpid '{"rocprofiler-sdk-tool":[{"metadata":{"pid":-5}}]}' 'metadata.pid -5 is negative'
bad toolobj '{"rocprofiler-sdk-tool":{"metadata":{}}}' 'rocprofiler-sdk-tool is an object, expected an array'
bad procnum '{"rocprofiler-sdk-tool":[7]}' 'rocprofiler-sdk-tool holds a number, expected process objects'
bad recnum '{"rocprofiler-sdk-tool":[{"buffer_records":{"kernel_dispatch":[1,2]}}]}' \
	'buffer_records.kernel_dispatch holds a number, expected record objects'
bad opsnum '{"rocprofiler-sdk-tool":[{"strings":{"buffer_records":[{"kind":"HIP_RUNTIME_API","operations":[3]}]}}]}' \
	'strings.buffer_records operations hold a number, expected names'
bad garbage '{"rocprofiler-sdk-tool":[{"metadata":{"pid":1}} x]}' 'invalid JSON \(.*\): at byte offset [0-9]+, after 0 records$'
deep=$(python3 -c 'print("[" * 80 + "]" * 80)')
bad deep "{\"rocprofiler-sdk-tool\":[{\"agents\":[{\"caches\":$deep}]}]}" 'JSON nested deeper than 64 levels'
# foreign: names the key, but not at the top of the document
bad foreign '{"run": {"rocprofiler-sdk-tool": []}, "events": []}' \
	'not a rocprofv3 JSON file: no rocprofiler-sdk-tool array in the JSON object$'

# odd but readable: the figures that can be trusted, a note for the rest
printf '%s\n' '{"rocprofiler-sdk-tool":[{"metadata":{"pid":3},"buffer_records":{
 "kernel_dispatch":[
  {"correlation_id":{"internal":1},"start_timestamp":100,"end_timestamp":50,
   "dispatch_info":{"agent_id":{"handle":9},"kernel_id":4,"workgroup_size":{"x":0,"y":1,"z":1},"grid_size":{"x":5,"y":1,"z":1}}},
  {"correlation_id":{"internal":2},"start_timestamp":200}],
 "scratch_memory":[{"start_timestamp":1,"end_timestamp":2}],
 "hip_api":[{"kind":5,"operation":3,"correlation_id":{"internal":1},"thread_id":3,"start_timestamp":10,"end_timestamp":20}]}}]}' >"$TMP/odd.json"
run_ok "$GPUPROF" info "$TMP/odd.json"
for note in '^kernels +1$' '^api calls +1$' '1 rocprofv3 records without start_timestamp or end_timestamp skipped' \
	'1 records end before they start' '1 kernel dispatches have a workgroup size of 0' \
	'1 kernel dispatches name a kernel_id that kernel_symbols does not list' \
	'1 agents named by records are not in agents' '1 rocprofv3 records of other kinds'; do
	assert_grep "$note" "$TMP/out"
done
run_ok "$GPUPROF" report -f csv -c kernel,sil,grid,block,device,api "$TMP/odd.json"
assert_grep '^"\(unknown_kernel\)","0","0,1,1","0,1,1","0","hip_api operation 3"$' "$TMP/out"
# an empty process list is an empty trace
printf '{"rocprofiler-sdk-tool":[]}\n' >"$TMP/empty.json"
run_ok "$GPUPROF" info "$TMP/empty.json"
assert_grep '^format +rocprof$' "$TMP/out"
assert_grep 'this trace has no kernels' "$TMP/out"
