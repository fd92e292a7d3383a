# The idle gaps of a window get their causes from the dependency chain of
# the work around them, as in the whole trace (issue 22; docs/window.md,
# docs/dependencies.md): another iteration's work running in an iteration
# window (window work) is a unit of the dependency graph, so a gap it ends
# and work queued behind it have their chain.  A crafted Kineto trace,
# times in us:
#   ProfilerStep#0 [0,100): launches A [10,500) on stream 7
#   ProfilerStep#1 [100,800): launches B [110,150) on stream 8, C
#     [600,650) and E [750,800) on stream 7 (queued behind A, then C)
#   thread 2, outside any step, inside enumerate(DataLoader)... [590,695):
#     a launch call [600,690) of D [700,720) on stream 9
# The gaps of device 0 and their causes, by the model's rules: [500,600)
# C queued behind A (gpu_gap 100); [650,700) D waited for its launch,
# which returned at 690 from a call inside the data loader (dataloader 40,
# launch 10); [720,750) E queued behind C (gpu_gap 30).  --iter 1 keeps B,
# C and E; A and D are window work (before, the gap D ends was all
# "unknown", and C's 100 us "launch": A was not in the graph).  A time
# window --start 640 us --end 760 us keeps the last two gaps, same causes.
command -v python3 >/dev/null || skip "python3 not installed"
python3 - "$TMP/w.json" <<'PY' || fail "crafting the trace"
import json, sys
ev = []
def call(ts, corr, tid=1, dur=2):
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": tid, "ts": ts,
               "dur": dur, "args": {"correlation": corr}})
def kern(name, ts, dur, stream, corr):
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": stream, "ts": ts, "dur": dur,
               "args": {"device": 0, "stream": stream, "correlation": corr}})
def annot(name, tid, ts, dur):
    ev.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": 1, "tid": tid, "ts": ts, "dur": dur,
               "args": {}})
annot("ProfilerStep#0", 1, 0, 100)
annot("ProfilerStep#1", 1, 100, 700)
annot("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 2, 590, 105)
call(5, 1); kern("A", 10, 490, 7, 1)
call(105, 2); kern("B", 110, 40, 8, 2)
call(108, 3); kern("C", 600, 50, 7, 3)
call(111, 5); kern("E", 750, 50, 7, 5)
call(600, 4, tid=2, dur=90); kern("D", 700, 20, 9, 4)
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
# idle WINDOW-OPTIONS...: device 0's idle time by cause over the whole
# window (the causes with time), as cause=ns
idle() {
	run_ok "$GPUPROF" breakdown -f csv --no-header "$@" "$TMP/w.json"
	awk -F, '{ gsub(/"/, "") } $1 == 0 && $2 == "all" && $3 ~ /^idle/ && $4 != 0 { print $3 "=" $4 }' "$TMP/out" |
		tr '\n' ' '
}
want="idle=180000 idle_launch=10000 idle_gpu_gap=130000 idle_dataloader=40000 "
assert_eq "$(idle)" "$want" "the whole trace's idle causes"
assert_eq "$(idle --iter 1)" "$want" "iteration 1's idle causes"
assert_eq "$(idle --start 640000 --end 760000)" "idle=80000 idle_launch=10000 idle_gpu_gap=30000 idle_dataloader=40000 " \
	"a time window's idle causes"
# each gap, with its story: D's gap names the call inside the data loader
run_ok "$GPUPROF" breakdown --view gaps -f csv --no-header --iter 1 "$TMP/w.json"
assert_eq "$(awk -F, '{ gsub(/"/, "") } { print $3, $4, $5 }' "$TMP/out" | sort | tr '\n' ' ')" \
	"500000 100000 gpu_gap 650000 50000 dataloader 720000 30000 gpu_gap " "iteration 1's gaps"
assert_grep '"dataloader cudaLaunchKernel 40 us; launch D 10 us"' "$TMP/out"
