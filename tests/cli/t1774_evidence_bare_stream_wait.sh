# A stream wait the trace records only as its call (a HIP trace: no
# cuda_sync record, no event record) still explains the wait (issue 33
# item 6.4).  On SGLang's Qwen3-8B decode step (MI300X, Kineto), the
# thread calls hipStreamWaitEvent, then launches onto stream 3 a kernel that
# starts 463.3 ms later, the first GPU work after one at the trace's start:
# that idle time is event_wait (work elsewhere, whose record the trace does
# not hold), not unknown.  The oracle reads the raw JSON.
command -v python3 >/dev/null || skip "python3 not installed"
need_testdata
T=$TESTDATA/verdicts/tl2/inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz
[ -r "$T" ] || skip "verdicts/tl2 sglang decode trace not in testdata"
python3 - "$T" > "$TMP/oracle" <<'PY' || fail "oracle"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
assert not [e for e in ev if e.get("cat") == "cuda_sync"], "the trace records no sync or wait event"
assert not [e for e in ev if "EventRecord" in e["name"]], "nor the event's record"
calls = sorted((e for e in ev if e.get("cat") == "cuda_runtime"), key=lambda e: e["ts"])
gpu = sorted((e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")), key=lambda e: e["ts"])
w = [c for c in calls if c["name"] == "hipStreamWaitEvent"]
assert len(w) == 1, w
w = w[0]
# the thread's next launch after the wait, and its kernel
nxt = next(c for c in calls if c["ts"] > w["ts"] and c["tid"] == w["tid"] and c["name"] == "hipLaunchKernel")
k = next(g for g in gpu if g["args"].get("correlation") == nxt["args"]["correlation"])
before = max(g["ts"] + g["dur"] for g in gpu if g["ts"] + g["dur"] <= k["ts"])
gap = k["ts"] - before
assert 463.2e3 < gap < 463.4e3, gap
assert k["ts"] - (nxt["ts"] + nxt["dur"]) > 463e3, "launched long before it ran"
print(int(gap * 1000))
PY
gap=$(cat "$TMP/oracle")
run_ok "$GPUPROF" breakdown -f tsv "$T"
ew=$(awk -F'\t' '$2 == "all" && $3 == "idle_event_wait" { print $4 }' "$TMP/out")
unk=$(awk -F'\t' '$2 == "all" && $3 == "idle_unknown" { print $4 }' "$TMP/out")
# the gap from the kernel's launch on (all but its first 43 us) waited
[ "$ew" -ge $((gap - 100000)) ] || fail "event_wait $ew ns, the gap is $gap ns"
[ "$unk" -lt 1000000 ] || fail "unknown $unk ns"
run_ok "$GPUPROF" breakdown --view gaps -n 1 -f tsv "$T"
assert_grep "	$gap	event_wait	" "$TMP/out"
