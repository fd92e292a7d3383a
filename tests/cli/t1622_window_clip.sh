# A window counts the GPU work that runs in it, clipped to it, instead of
# dropping it (docs/window.md).  A crafted Kineto trace, times in us:
#   ProfilerStep#0 [0,100): launches A [10,500) on stream 7 (long: it runs
#     on into step 1)
#   ProfilerStep#1 [100,200): launches B [110,150) on stream 8 and C
#     [600,650) on stream 7 (queued behind A)
# --iter 1 keeps B and C (its span: B's launch at 105 to C's end, 545 us)
# and counts A's part inside it as busy: busy [105,500) and [600,650),
# idle only [500,600).  Before, the window dropped A and called 450 us of
# the span idle.  A time window clips what overlaps its edges: --start 200
# --end 400 (in ns) is 200 us of A, all busy.  report and summary list the
# window's own kernels only, whole; advise's denominators are the
# breakdown's.
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$TMP/w.json" <<'PY' || fail "crafting the trace"
import json, sys
ev = []
def call(ts, corr):
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts,
               "dur": 2, "args": {"correlation": corr}})
def kern(name, ts, dur, stream, corr):
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
               "args": {"device": 0, "stream": stream, "correlation": corr}})
for i in range(2):
    ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i, "pid": 1, "tid": 1,
               "ts": 100 * i, "dur": 100, "args": {}})
call(5, 1); kern("A", 10, 490, 7, 1)
call(105, 2); kern("B", 110, 40, 8, 2)
call(108, 3); kern("C", 600, 50, 7, 3)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
bd() { # WINDOW-OPTIONS...: the breakdown's device-0 "all" rows as part=ns lines
	run_ok "$GPUPROF" breakdown -f csv --no-header "$@" "$TMP/w.json"
	awk -F, '$1 == "\"0\"" && $2 == "\"all\"" { gsub(/"/, ""); print $3 "=" $4 }' "$TMP/out"
}
bd --iter 1 > "$TMP/iter1"
grep -qx 'span=545000' "$TMP/iter1" || fail "iteration 1's span: $(cat "$TMP/iter1")"
grep -qx 'busy=445000' "$TMP/iter1" || fail "iteration 1's busy time counts A inside it: $(cat "$TMP/iter1")"
grep -qx 'idle=100000' "$TMP/iter1" || fail "iteration 1's idle time: $(cat "$TMP/iter1")"
bd --start 200000 --end 400000 > "$TMP/time"
grep -qx 'span=200000' "$TMP/time" || fail "the time window's span: $(cat "$TMP/time")"
grep -qx 'busy=200000' "$TMP/time" || fail "the time window's busy time: $(cat "$TMP/time")"
grep -qx 'idle=0' "$TMP/time" || fail "the time window's idle time: $(cat "$TMP/time")"
# the whole trace: A, B, C as they ran
bd > "$TMP/all"
grep -qx 'span=640000' "$TMP/all" || fail "the whole trace's span: $(cat "$TMP/all")"
grep -qx 'idle=100000' "$TMP/all" || fail "the whole trace's idle time: $(cat "$TMP/all")"
# the listings keep the window's own kernels, whole
run_ok "$GPUPROF" report -f csv -c kernel,start,end --iter 1 "$TMP/w.json"
assert_eq "$(sed 1d "$TMP/out" | tr '\n' ' ')" '"B","110000","150000" "C","600000","650000" ' "report --iter 1"
# advise's denominators are the breakdown's
run_ok "$GPUPROF" advise --iter 1 "$TMP/w.json"
assert_grep '^GPU .*: GPU span 545 us, busy 445 us \(81.7%\)' "$TMP/out"
