# verdicts/README.md, "tl2 mi300 resnet_act_checkpoint, iteration 16": the
# GPU work launched inside ProfilerStep#16 (its kernels, with the copies
# and memsets among them) spans 18.983 ms and holds 82.3 us of idle.  The
# oracle joins each GPU event to its launch by correlation id, keeps those
# launched inside the step's CPU range and takes their span minus their
# union; breakdown --iter 16's row for iteration 16 must give the same
# span and idle (to the nanosecond's rounding).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/verdicts/tl2/mi300__resnet_act_checkpoint.json.gz
[ -r "$F" ] || skip "$F not found"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
step, = [e for e in ev if e["name"] == "ProfilerStep#16" and e["cat"] == "user_annotation"]
launch = {e["args"]["correlation"]: e["ts"] for e in ev if e["cat"] == "cuda_runtime" and "correlation" in e.get("args", {})}
work = sorted((e for e in ev if e["cat"] in ("kernel", "gpu_memcpy", "gpu_memset")
               and step["ts"] <= launch.get(e["args"].get("correlation"), -1) <= step["ts"] + step["dur"]), key=lambda e: e["ts"])
assert len(work) == 895 and sum(e["cat"] == "kernel" for e in work) == 746 and {e["args"]["device"] for e in work} == {2}
busy = []
for e in work:
    if busy and e["ts"] <= busy[-1][1]:
        busy[-1][1] = max(busy[-1][1], e["ts"] + e["dur"])
    else:
        busy.append([e["ts"], e["ts"] + e["dur"]])
span = busy[-1][1] - busy[0][0]
idle = span - sum(b - a for a, b in busy)
assert round(span) == 18983 and round(idle, 1) == 82.3, (span, idle)
print(round(span * 1000), round(idle * 1000))
PY
set -- $(cat "$TMP/want")
run_ok "$GPUPROF" breakdown --iter 16 -f csv --no-header "$F"
for part in span:$1 idle:$2; do
	got=$(awk -F'","' -v p="${part%:*}" '$1 == "\"2" && $2 == "16" && $3 == p {print $4}' "$TMP/out")
	[ -n "$got" ] || fail "breakdown --iter 16 has no ${part%:*} row for iteration 16"
	d=$((got - ${part#*:})); [ "${d#-}" -le 2 ] || fail "iteration 16's ${part%:*}: $got ns, the oracle's ${part#*:} ns"
done
