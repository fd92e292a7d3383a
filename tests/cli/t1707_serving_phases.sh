# Serving phases (src/analysis/phases.c): SGLang step[EXTEND]/step[DECODE]
# and vLLM execute_N_context_P(...)_generation_D(...) markers split the GPU
# time, the kernels and the idle inside the steps by prefill / decode /
# mixed.  tests/fuzz/corpus/kineto/phases.json, by hand: step[EXTEND]
# kernels 150-170 and 180-190 us (30 us, 10 us idle in its 40 us
# window); two step[DECODE] of 5 + 5 us (window 25 us) and 8 us; a vLLM
# step with 1 prefill and 3 decode requests: mixed, 30 + 10 us on two
# streams overlapping (no idle); step[IDLE] and a launch outside any step:
# no phase.  The real vLLM trace: its one execute_ step is mixed and holds
# the kernels launched inside it (counted by Python from the raw JSON).
f=tests/fuzz/corpus/kineto/phases.json
run_ok "$GPUPROF" summary -s gpu --by phase -f csv --no-header "$f"
assert_eq "$(cut -d, -f3,4,10 "$TMP/out")" '"40000","2","mixed"
"30000","2","prefill"
"18000","3","decode"
"10000","2","(none)"' "summary --by phase"
run_ok "$GPUPROF" summary -s gpu --by op --phase prefill -f csv --no-header "$f"
assert_eq "$(cut -d, -f3,10 "$TMP/out")" '"20000","mm"
"10000","add"' "summary --by op --phase prefill"
run_ok "$GPUPROF" info "$f"
assert_grep '^prefill steps +1, 2 kernels, 30 us of GPU time, 10 us idle inside them \(25.0%\)$' "$TMP/out"
assert_grep '^decode steps +2, 3 kernels, 18 us of GPU time, 15 us idle inside them \(45.5%\)$' "$TMP/out"
assert_grep '^mixed steps +1, 2 kernels, 40 us of GPU time, 0 ns idle inside them \(0.0%\)$' "$TMP/out"
expect_exit 2 "$GPUPROF" summary --phase idle "$f"
assert_grep "phase wants prefill, decode, mixed, bs=N or PHASE bs=N, not 'idle'" "$TMP/err"
# a trace without step markers: no phase lines, every kernel '(none)'
run_ok "$GEN" --format kineto -n 200 -o "$TMP/plain.json"
run_ok "$GPUPROF" info "$TMP/plain.json"
assert_no_grep ' steps ' "$TMP/out"
run_ok "$GPUPROF" summary -s gpu --by phase -f csv --no-header "$TMP/plain.json"
assert_eq "$(cut -d, -f4,10 "$TMP/out")" '"200","(none)"' "no step markers"

need_testdata
[ -d "$TESTDATA/tracelens" ] || skip "$TESTDATA/tracelens not found"
command -v python3 >/dev/null || skip "python3 not installed"
V=$TESTDATA/tracelens/inference/vllm_prefilldecode_piecewise/graph_execution.json.gz
n=$(python3 - "$V" <<'PY'
import gzip, json, sys
ev = json.load(gzip.open(sys.argv[1]))["traceEvents"]
step = [e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith("execute_")]
assert len(step) == 1 and "_context_9(" in step[0]["name"] and "_generation_37(" in step[0]["name"]
s = step[0]
inside = {e["args"]["correlation"] for e in ev if e.get("cat") == "cuda_runtime" and e.get("tid") == s["tid"]
          and e.get("pid") == s["pid"] and s["ts"] < e["ts"] and e["ts"] + e.get("dur", 0) < s["ts"] + s["dur"]}
print(sum(1 for e in ev if e.get("cat") == "kernel" and e["args"].get("correlation") in inside))
PY
)
run_ok "$GPUPROF" info "$V"
assert_grep "^mixed steps +1, $n kernels," "$TMP/out"
assert_no_grep '^(prefill|decode) steps' "$TMP/out"
