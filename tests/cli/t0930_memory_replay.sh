# tier: slow (it runs gpuprof on every shared trace: minutes on the busy 2-core machine)
# memory: on every shared Kineto trace with [memory] events, the events,
# allocations, frees, peak and final allocated (and reserved) bytes per
# device equal an independent replay of the raw JSON in Python: the
# allocator's Total Allocated / Total Reserved where the file states them,
# else the running sum of Bytes from 0; events in ts order, ties in file
# order.  Device types by c10::DeviceType: 0 (CPU) is the host, 1 (CUDA)
# and 6 (HIP, ROCm builds) the GPU Device Id, any other is not GPU memory.
need_testdata
find "$TESTDATA" -type f \( -name '*.json' -o -name '*.json.gz' \) -not -path '*/expected/*' |
	sort >"$TMP/files"
n=0
while read -r f; do
	case $f in
	*.gz) zcat "$f" | grep -q '"\[memory\]"' || continue ;;
	*) grep -q '"\[memory\]"' "$f" || continue ;;
	esac
	n=$((n + 1))
	run_ok "$GPUPROF" memory -f json "$f"
	cp "$TMP/out" "$TMP/m$n.json"
	echo "$f" >"$TMP/f$n"
done <"$TMP/files"
[ "$n" -ge 4 ] || fail "only $n traces with memory events"
python3 - "$TMP" "$n" <<'PY' || fail "replay"
import decimal, gzip, json, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    path = open("%s/f%d" % (d, i)).read().strip()
    raw = (gzip.open if path.endswith(".gz") else open)(path, "rt").read()
    ev = json.loads(raw, parse_float=decimal.Decimal)
    ev = ev["traceEvents"] if isinstance(ev, dict) else ev
    mem = [e for e in ev if e.get("name") == "[memory]" and e.get("ph") in ("i", "I")
           and e["args"]["Device Type"] in (0, 1, 6)]
    mem.sort(key=lambda e: decimal.Decimal(e["ts"]))           # stable: file order on ties
    want = {}
    for e in mem:
        a = e["args"]
        dev = "host" if a["Device Type"] == 0 else str(a["Device Id"])
        w = want.setdefault(dev, dict(events=0, allocs=0, frees=0, alloc=0, peak=None,
                                      rsv=None, peak_rsv=None))
        w["events"] += 1
        w["allocs" if a["Bytes"] >= 0 else "frees"] += 1
        w["alloc"] = a["Total Allocated"] if "Total Allocated" in a else w["alloc"] + a["Bytes"]
        if "Total Reserved" in a:
            w["rsv"] = a["Total Reserved"]
            w["peak_rsv"] = max(w["peak_rsv"] or 0, w["rsv"])
        w["peak"] = w["alloc"] if w["peak"] is None else max(w["peak"], w["alloc"])
    got = {r["device"]: r for r in map(json.loads, open("%s/m%d.json" % (d, i)))}
    assert set(got) == set(want), (path, sorted(got), sorted(want))
    for dev, w in want.items():
        g = got[dev]
        for k, gk in (("events", "events"), ("allocs", "allocs"), ("frees", "frees"),
                      ("peak", "peak_bytes"), ("alloc", "final_bytes"),
                      ("peak_rsv", "peak_reserved_bytes"), ("rsv", "final_reserved_bytes")):
            assert g[gk] == w[k], (path, dev, gk, g[gk], w[k])
        assert g["totals"] == ("stated" if w["rsv"] is not None else "replayed"), (path, dev)
print("checked", n)
PY

# HIP allocator events (Device Type 6, MI300X): GPU memory in memory, and
# the HTML report's memory chart has the same peak and final for the GPU
f=$TESTDATA/tracelens/perf_model/normalization/normalization_layer_test.json.gz
run_ok "$GPUPROF" memory -f json "$f"; cp "$TMP/out" "$TMP/hip.json"
run_ok "$GPUPROF" html -o "$TMP/hip.html" --force "$f"
python3 - "$TMP/hip.json" "$TMP/hip.html" <<'PY' || fail "HIP memory in the HTML chart"
import json, sys
dev = {r["device"]: r for r in map(json.loads, open(sys.argv[1]))}["0"]
page = open(sys.argv[2]).read()
i = page.index('"memory":[') + len('"memory":')
chart = json.JSONDecoder().raw_decode(page[i:])[0]
assert [c["device"] for c in chart] == [0], chart
assert (chart[0]["peak"], chart[0]["final"]) == (dev["peak_bytes"], dev["final_bytes"]), (chart[0], dev)
assert max(s[0] for s in chart[0]["series"] if s) == dev["peak_bytes"]
PY

# the bucketed series: the highest bucket is the peak, the last step is the
# final total, and the steps are one per event
f=$TESTDATA/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz
run_ok "$GPUPROF" memory -f json "$f"; cp "$TMP/out" "$TMP/dev.json"
run_ok "$GPUPROF" memory -f json --by series --buckets 7 "$f"; cp "$TMP/out" "$TMP/series.json"
run_ok "$GPUPROF" memory -f json --by steps "$f"; cp "$TMP/out" "$TMP/steps.json"
python3 - "$TMP" <<'PY' || fail "series"
import json, sys
d = sys.argv[1]
rows = lambda n: [json.loads(l) for l in open(d + "/" + n)]
for dev in rows("dev.json"):
    b = [r for r in rows("series.json") if r["device"] == dev["device"]]
    s = [r for r in rows("steps.json") if r["device"] == dev["device"]]
    assert len(b) == 7 and len(s) == dev["events"], (dev, len(b), len(s))
    assert max(r["allocated_bytes"] for r in b if r["allocated_bytes"] is not None) == dev["peak_bytes"]
    assert s[-1]["allocated_bytes"] == dev["final_bytes"] and max(r["allocated_bytes"] for r in s) == dev["peak_bytes"]
    assert [r["time_from_trace_start_ns"] for r in s] == sorted(r["time_from_trace_start_ns"] for r in s)
    assert all(r["time_abs_ns"] - r["time_from_trace_start_ns"] == s[0]["time_abs_ns"] - s[0]["time_from_trace_start_ns"] for r in s)
PY

# nsys: CUDA_GPU_MEMORY_USAGE_EVENTS added to a copy of a shared export;
# peak and final per device by SQL (running sums by window function)
db=$TMP/mem.sqlite
cp "$TESTDATA/nsys/dlprof_rtx2070_2022.1/no_relu_nsys_profile.sqlite" "$db"
sqlite3 "$db" <<'SQL' || fail "sqlite"
CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT NULL, pc INTEGER NOT NULL,
  bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, memoryOperationType INTEGER NOT NULL,
  name TEXT, correlationId INTEGER);
WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 299)
INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS
SELECT (SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL) + n * 1000, 0, 0, 1,
       4096 * (n % 37), 0, 512 * (1 + n % 37), CASE WHEN n % 5 = 4 THEN 1 ELSE 2 END,
       CASE WHEN n >= 37 AND n % 3 = 0 THEN 1 ELSE 0 END, NULL, NULL FROM i;
SQL
run_ok "$GPUPROF" memory -f tsv --no-header "$db"
got=$(awk -F"\t" '$1 == "0" { print $7 "," $9 }' "$TMP/out")
want=$(sqlite3 -separator , "$db" "WITH r AS (SELECT SUM(CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes END)
  OVER (ORDER BY start, rowid) AS tot, start FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind = 2)
  SELECT MAX(tot), (SELECT tot FROM r ORDER BY start DESC LIMIT 1) FROM r")
assert_eq "$got" "$want" "nsys peak,final on device 0"
hostgot=$(awk -F"\t" '$1 == "host" { print $2 }' "$TMP/out")
assert_eq "$hostgot" "$(sqlite3 "$db" 'SELECT COUNT(*) FROM CUDA_GPU_MEMORY_USAGE_EVENTS WHERE memKind = 1')" "host events"
assert_grep 'frees have no recorded allocation' "$TMP/err"
