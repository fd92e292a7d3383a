# verdicts/README.md, "shared param/resnet_kineto": the DataLoader waits
# take 8.205 s, during which the GPU is idle 6.66 s; the copies take
# 0.630 s.  The oracle sums the enumerate(DataLoader) spans, the part of
# them where no kernel, copy or memset runs, and the memcpy durations;
# ranges, breakdown's idle_dataloader and summary's copy rows must say
# the same (the idle to the 10 ms the truth is given to: breakdown gives
# each gap one cause, and a few ms at the spans' edges go to others).
need_testdata
command -v python3 >/dev/null || skip "python3 not installed"
F=$TESTDATA/param/resnet_kineto.json.gz
[ -r "$F" ] || skip "$F not found"
python3 - "$F" >"$TMP/want" <<'PY' || fail "oracle: the raw trace does not hold the truth"
import gzip, json, sys
ev = [e for e in json.load(gzip.open(sys.argv[1]))["traceEvents"] if e.get("ph") == "X"]
waits = sorted((e["ts"], e["ts"] + e["dur"]) for e in ev if e["name"].startswith("enumerate(DataLoader)"))
busy = []
for e in sorted((e for e in ev if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")), key=lambda e: e["ts"]):
    if busy and e["ts"] <= busy[-1][1]:
        busy[-1][1] = max(busy[-1][1], e["ts"] + e["dur"])
    else:
        busy.append([e["ts"], e["ts"] + e["dur"]])
assert all(a >= busy[0][0] and b <= busy[-1][1] for a, b in waits)  # all inside the GPU span
assert all(waits[i][1] <= waits[i + 1][0] for i in range(len(waits) - 1))
idle = sum((b - a) - sum(max(0, min(b, t) - max(a, s)) for s, t in busy) for a, b in waits)
wait = sum(b - a for a, b in waits)
copies = [e["dur"] for e in ev if e.get("cat") == "gpu_memcpy"]
assert len(waits) == 30 and wait == 8204993 and round(idle / 1e4) == 666 and round(sum(copies) / 1e3) == 630, (wait, idle, sum(copies))
print(wait * 1000, round(idle / 1e4), len(copies), sum(copies) * 1000)
PY
set -- $(cat "$TMP/want")
run_ok "$GPUPROF" ranges -f csv --no-header "$F"
assert_grep "^\"30\",\"$1\",.*\"enumerate\(DataLoader\)#" "$TMP/out"
run_ok "$GPUPROF" breakdown -f csv --no-header "$F"
got=$(awk -F'","' '$1=="\"0" && $2=="all" && $3=="idle_dataloader" {print $4}' "$TMP/out")
[ -n "$got" ] || fail "breakdown has no idle_dataloader row"
assert_eq "$(( (got + 5000000) / 10000000 ))" "$2" "idle_dataloader in units of 10 ms ($got ns)"
run_ok "$GPUPROF" summary --by kernel -f csv --no-header "$F"
assert_eq "$(awk -F'","' '$NF ~ /^\[CUDA memcpy / {n += $4; t += $3} END {print n, t}' "$TMP/out")" "$3 $4" "copies and their time in summary --by kernel"
