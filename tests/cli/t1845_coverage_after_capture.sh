# advise's coverage notice (issue 35, "after --capture the coverage notice
# still asks for the capture"): it asks for the CUDA-graph capture only
# while some replayed kernel's capture was not read (info's no-capture
# state).  The generated Kineto graph run (gpuprof-gen --graphs cuda)
# writes its capture traces beside it: read, nothing asks for them; with
# --capture none, the notice asks.
command -v python3 >/dev/null || skip "python3 not installed"
mkdir "$TMP/run"
run_ok "$GEN" --format kineto --graphs cuda -o "$TMP/run/trace.json"
[ -d "$TMP/run/capture_traces" ] || fail "the generator wrote no capture traces"
nocap() {   # kernels in info's no-capture state
	"$GPUPROF" info -f json "$@" "$TMP/run/trace.json" | python3 -c 'import json,sys
print(json.load(sys.stdin).get("graph_kernels_by_state", {}).get("no-capture", {}).get("kernels", 0))'
}
ask='for CUDA-graph replays, the capture \(vLLM/SGLang capture_traces beside the trace, gpuprof --capture FILE'
run_ok "$GPUPROF" advise -f csv "$TMP/run/trace.json"
assert_grep '"coverage",.*"Record what is missing: ' "$TMP/out"
assert_eq "$(nocap)" 0 "no-capture kernels with the captures read"
assert_no_grep "$ask" "$TMP/out"
run_ok "$GPUPROF" advise -f csv --capture none "$TMP/run/trace.json"
[ "$(nocap --capture none)" -gt 0 ] || fail "no kernel without its capture under --capture none"
assert_grep "\"coverage\",.*\"Record what is missing: $ask" "$TMP/out"
