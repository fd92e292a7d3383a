# memory: odd allocator events get a note and a number that is still right,
# never a crash or a silent wrong figure; ops and layers get what was
# allocated inside them and what was live at the peak.  A small Kineto
# trace written here, figures worked out by hand (docs/memory.md).
python3 - "$TMP/odd.json" <<'PY'
import json, sys
ev = [
    {"ph": "X", "cat": "user_annotation", "name": "encoder", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 10, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 30, "dur": 30},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 31, "dur": 5,
     "args": {"device": 0, "stream": 7, "correlation": 1}},
]
def mem(ts, dev, nbytes, addr, total=None, reserved=None, dtype=1, **extra):
    a = {"Device Type": dtype, "Device Id": dev, "Bytes": nbytes, "Addr": addr}
    if total is not None: a["Total Allocated"] = total
    if reserved is not None: a["Total Reserved"] = reserved
    a.update(extra)
    return {"ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]",
            "pid": 1, "tid": 1, "ts": ts, "args": a}
ev += [
    mem(5, 0, -64, 9, 936, 2048),          # free of memory allocated before the profile
    mem(12, 0, 100, 10, 1036, 2048),       # aten::empty
    mem(35, 0, 300, 11, 1336, 4096),       # aten::mm: the peak
    mem(40, 0, -100, 10, 1236, 4096),      # aten::mm frees aten::empty's
    mem(50, 0, 50, 12, -7, 4096),          # a negative total: replayed, 1286
    mem(70, 0, 1 << 60, 13, 1336, 4096),   # absurd: skipped
    mem(80, 5, 4096, 14, 4096, 8192),      # device 5 ran no kernel
    mem(85, 5, -4096, 14, 0, 8192, dtype=6),   # HIP (ROCm): device 5's memory too
    mem(90, -1, 8, 15, dtype=0),           # host memory, no totals
    mem(91, 0, 8, 16, dtype=8),            # a device type we do not read
    {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 95, "args": {"Device Type": 1}},
]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
run_ok "$GPUPROF" memory -f json "$TMP/odd.json"
cp "$TMP/out" "$TMP/dev.json"
for note in 'frees have no recorded allocation' 'total below 0' 'above 1 PiB' '1 device\(s\) that ran no kernel \(device 5\)' \
	'1 \[memory\] events of a device type other than CPU, CUDA or HIP' 'without ts or Bytes'; do
	assert_grep "$note" "$TMP/err"
done
python3 - "$TMP/dev.json" <<'PY' || fail "device figures"
import json, sys
got = {r["device"]: r for r in map(json.loads, open(sys.argv[1]))}
assert sorted(got) == ["0", "5", "host"], got
g = got["0"]
assert (g["events"], g["allocs"], g["frees"]) == (5, 3, 2), g
assert (g["peak_bytes"], g["final_bytes"], g["peak_reserved_bytes"]) == (1336, 1286, 4096), g
assert g["totals"] == "replayed" and g["live_known_bytes"] == 400, g
assert (got["5"]["peak_bytes"], got["host"]["final_bytes"], got["host"]["peak_reserved_bytes"]) == (4096, 8, None)
assert (got["5"]["events"], got["5"]["frees"], got["5"]["final_bytes"]) == (2, 1, 0), got["5"]
PY
run_ok "$GPUPROF" memory -f json --by op "$TMP/odd.json"
python3 - "$TMP/out" <<'PY' || fail "per op"
import json, sys
got = {(r["device"], r["name"]): r for r in map(json.loads, open(sys.argv[1]))}
mm, empty, none = got["0", "aten::mm"], got["0", "aten::empty"], got["0", None]
assert (mm["allocs"], mm["alloc_bytes"], mm["frees"], mm["free_bytes"]) == (2, 350, 1, 100), mm
assert (mm["live_at_peak_bytes"], mm["live_count"]) == (300, 1), mm
assert (empty["allocs"], empty["live_at_peak_bytes"]) == (1, 100), empty
assert (none["frees"], none["free_bytes"], none["live_at_peak_bytes"]) == (1, 64, 0), none
PY
run_ok "$GPUPROF" memory -f csv --by layer "$TMP/odd.json"
assert_grep '^"0","3","450","2","164","400","2","encoder"$' "$TMP/out"

# bad option values and a trace without memory events
expect_exit 2 "$GPUPROF" memory --by nothing "$TMP/odd.json"
expect_exit 2 "$GPUPROF" memory --by series --buckets 0 "$TMP/odd.json"
echo '{"traceEvents": []}' >"$TMP/empty.json"
run_ok "$GPUPROF" memory "$TMP/empty.json"
assert_grep 'no memory events' "$TMP/err"
run_ok "$GPUPROF" memory --by series "$TMP/empty.json"
